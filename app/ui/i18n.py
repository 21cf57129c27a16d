"""The window's language: chosen from the system locale, or from a setting (View → Language).

Contract (stub; the i18n work fills it in): `install_translators(app)` at start-up, before any
window is made; `languages()` the choices as (code, name in that language), "" meaning "as the
system"; `chosen_language()` / `choose_language(code)` read and remember the setting, which takes
effect at the next start.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication


def languages() -> list[tuple[str, str]]:
    return [("", "System language"), ("en", "English"), ("zh_CN", "简体中文")]


def chosen_language() -> str:
    return ""


def choose_language(code: str) -> None:
    del code


def install_translators(app: QCoreApplication) -> None:
    del app
