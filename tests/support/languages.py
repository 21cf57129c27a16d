"""The window in another language for a test: the translations built, installed, and taken away.

`in_language(app, "zh_CN")` builds the `.qm` files when a `.ts` is newer (run-tests.sh builds them
already; a test run straight with pytest after editing a `.ts` still sees the edit), installs the
translators as the app's start does (`MCP_DESK_LANG`), and afterwards removes them and restores
the default locale, so the tests after it see English again.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


@cache
def translations() -> ModuleType:
    """packaging/translations.py, loaded by path (`packaging` on PyPI is another package)."""
    spec = importlib.util.spec_from_file_location("desk_translations", ROOT / "packaging" / "translations.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def ensure_built() -> None:
    t = translations()
    sources = list(t.I18N.glob("*/*.ts"))
    newest = max((p.stat().st_mtime for p in sources), default=0.0)
    built = [t.I18N / f"mcp-desk_{lang}.qm" for lang in t.LANGS]
    if any(not p.exists() or p.stat().st_mtime < newest for p in built):
        t.release(t.I18N)


@contextlib.contextmanager
def in_language(app: object, code: str) -> Iterator[str]:
    from PySide6.QtCore import QCoreApplication

    from app.ui.i18n import ENV_VAR, install_translators, uninstall_translators

    assert isinstance(app, QCoreApplication)
    ensure_built()
    old = os.environ.get(ENV_VAR)
    os.environ[ENV_VAR] = code
    try:
        yield install_translators(app)
    finally:
        uninstall_translators(app)
        if old is None:
            os.environ.pop(ENV_VAR, None)
        else:
            os.environ[ENV_VAR] = old
