"""Words the core says to people, marked for the window's translators without Qt.

Core modules (app/mcp, app/registry, app/bundles, app/runtimes) build plain English sentences
from templates marked `QT_TRANSLATE_NOOP("Reasons", "…%1…")`: this function only returns its
text, so the core imports no Qt, but lupdate (packaging/translations.py scans these modules)
finds the calls. Each module lists its templates in a `TEMPLATES` tuple; the window turns a
finished sentence back into its template and values (`app.ui.i18n.translate_reason`) and shows
it in the person's language. A sentence no template matches stays English.
"""

from __future__ import annotations

import re

CONTEXT = "Reasons"
"""The one translation context of the core's sentences (translate_reason looks them up there)."""


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name lupdate looks for
    """Mark `text` for translation in `context` (read by lupdate); returns it unchanged."""
    del context
    return text


_PLACEHOLDER = re.compile(r"%(\d)")


def fill(template: str, *values: object) -> str:
    """`template` with %1, %2… replaced by `values`, in one pass (a value holding "%2" stays so;
    a placeholder with no value stays too). The one `fill` of the app: the window uses it as well."""

    def one(m: re.Match[str]) -> str:
        i = int(m.group(1)) - 1
        return str(values[i]) if 0 <= i < len(values) else m.group(0)

    return _PLACEHOLDER.sub(one, template)
