"""What every screenshot script here shares: a throw-away config, the offscreen platform, a memory
keychain, the colour scheme and language asked for, a qasync loop, and waiting on a condition.

    from shots import prepare            # first, before anything imports Qt or the app
    prepare("registry")                  # temporary MCP_DESK_CONFIG_DIR / MCP_DESK_DATA_DIR
    app, loop = start_app(scheme="dark", lang="zh_CN")
    pump(lambda: window.isVisible())
    save(window, OUT / "main-dark.png")

Nothing here touches the real keychain or the person's configuration.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SCHEMES = ("light", "dark")
SIZES = ((1280, 800), (1024, 700))

_app: Any = None


def prepare(prefix: str = "shots") -> Path:
    """Environment for one screenshot run; returns its temporary folder (config/ and data/)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    tmp = Path(tempfile.mkdtemp(prefix=f"mcp-desk-{prefix}-"))
    os.environ["MCP_DESK_CONFIG_DIR"] = str(tmp / "config")
    os.environ["MCP_DESK_DATA_DIR"] = str(tmp / "data")
    (tmp / "config").mkdir()
    (tmp / "data").mkdir()
    for path in (str(ROOT), str(HERE)):
        if path not in sys.path:
            sys.path.insert(0, path)
    return tmp


def start_app(scheme: str = "light", lang: str = "en") -> tuple[Any, asyncio.AbstractEventLoop]:
    """The QApplication in `scheme` (light/dark) and `lang`, with a running qasync loop."""
    global _app
    import keyring
    import qasync
    from PySide6.QtWidgets import QApplication

    from app.ui.asyncgen import install_asyncgen_hooks
    from tests.support.memory_keyring import MemoryKeyring

    keyring.set_keyring(MemoryKeyring())  # never the real keychain
    os.environ["MCP_DESK_COLOR_SCHEME"] = scheme
    os.environ["MCP_DESK_LANG"] = lang
    app = QApplication.instance() or QApplication([sys.argv[0]])
    _app = app
    _quiet_offscreen()
    from app.ui.theme import follow_color_scheme

    follow_color_scheme(app)
    install_language(app, lang)
    if lang.startswith("zh"):
        from PySide6.QtGui import QFontDatabase

        if not QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese):
            print(
                "no Chinese font: the zh_CN pictures show boxes (apt-get install fonts-noto-cjk)",
                file=sys.stderr,
            )
    loop = qasync.QEventLoop(app, already_running=True)
    asyncio.set_event_loop(loop)
    install_asyncgen_hooks(loop)
    return app, loop


def _quiet_offscreen() -> None:
    """The offscreen platform's "does not support propagateSizeHints()" on every window: noise."""
    from PySide6.QtCore import qInstallMessageHandler

    def handler(_mode: Any, _context: Any, message: str) -> None:
        if "This plugin does not support" not in message:
            print(message, file=sys.stderr)

    qInstallMessageHandler(handler)


def install_language(app: Any, lang: str) -> None:
    """As the app does at start (app.ui.i18n), and our freshly built .qm files besides, so a
    checkout without built translations still shows them."""
    import importlib.util

    from PySide6.QtCore import QTranslator

    from app.ui.i18n import install_translators

    install_translators(app)
    spec = importlib.util.spec_from_file_location(
        "mcp_desk_translations", ROOT / "packaging" / "translations.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    out = Path(tempfile.mkdtemp(prefix="mcp-desk-qm-"))
    module.release(out)
    qm = out / f"mcp-desk_{lang}.qm"  # English: its plural forms ("1 tool", "2 tools")
    translator = QTranslator(app)
    if qm.exists() and translator.load(str(qm)):
        app.installTranslator(translator)
        app._shot_translator = translator


def pump(cond: Callable[[], bool], timeout: float = 60.0, settle: float = 0.3) -> None:
    """Process Qt events until `cond()` holds (TimeoutError after `timeout` s), then `settle` s more
    so what changed is painted."""
    app = _app
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise TimeoutError("screenshot step timed out")
        app.processEvents()
    quiet = time.monotonic() + settle
    while time.monotonic() < quiet:
        app.processEvents()


def save(widget: Any, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    widget.grab().save(str(path))
    return path


def dark_palette() -> Any:
    """The dark palette the app puts in where the platform has none (app.ui.theme)."""
    from app.ui.theme import dark_palette as palette

    return palette()
