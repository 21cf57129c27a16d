"""The window's language: chosen from the system locale, or from a setting (View → Language).

`install_translators(app)` runs at start-up, before any window is made. The language is, first
found wins:
1. the environment variable `MCP_DESK_LANG` (tests and screenshots: `MCP_DESK_LANG=zh_CN`);
2. the setting (`choose_language(code)`, shown by View → Language), kept in the config folder's
   `window.ini` beside the window's other ui settings — a file, never the Windows registry;
3. the system's languages in the person's order (`QLocale.system().uiLanguages()`), the first one
   MCP Desk has a translation for;
4. English.

Then it loads `resources/i18n/mcp-desk_<lang>.qm` (built from the .ts files by
packaging/translations.py), Qt's own `qtbase_<lang>.qm` for the standard buttons and dialogs when
PySide6 ships it, and always the English plural file (`mcp-desk_en.qm`: "%n tool(s)" → "1 tool",
"2 tools"), under the others so a string not translated yet still gets English plurals. It sets
`QLocale.setDefault` to match so the helpers below (`format_number`, `format_date_time`, …) give
dates and numbers the person's way. A changed setting takes effect at the next start: widgets
keep the text they were built with.

`languages()` lists the choices as (code, name in that language); "" means "as the system".
"""

from __future__ import annotations

import logging
import os
import re
from functools import cache, lru_cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from PySide6.QtCore import (
    QCoreApplication,
    QLocale,
    QSettings,
    QTranslator,
)

logger = logging.getLogger(__name__)

ENV_VAR = "MCP_DESK_LANG"
SETTINGS_FILE = "window.ini"
"""The window's ui settings file in the config folder (app/ui/window.py `ui_settings()`)."""
SETTING_KEY = "language"
I18N_DIR = Path(__file__).resolve().parents[2] / "resources" / "i18n"
"""The .qm files (source tree and the PyInstaller bundle alike keep `resources/` beside `app/`)."""
ENGLISH = "en"
TRANSLATED = ("zh_CN",)
"""Languages with a full translation of the window (English is the source text)."""
NAMES = {ENGLISH: "English", "zh_CN": "简体中文"}
"""Each language's name in that language: a person finds their own language without reading ours."""
TRADITIONAL = frozenset({"tw", "hk", "mo", "hant"})
"""Chinese written in traditional characters (zh_TW, zh_Hant_HK…): Simplified is not their script."""

_installed: list[QTranslator] = []
_previous_locale: QLocale | None = None


def languages() -> list[tuple[str, str]]:
    """The choices for View → Language: "" (as the system), then each language by its own name."""
    system = QCoreApplication.translate("Language", "As the system")
    return [("", system), *((code, NAMES[code]) for code in (ENGLISH, *TRANSLATED))]


def normalise(code: str) -> str | None:
    """A language tag (`zh-CN`, `zh_Hans_CN`, `en-GB`, `zh`) → a language MCP Desk has, or None."""
    tag = code.strip().replace("-", "_")
    if not tag:
        return None
    parts = tag.split("_")
    lang = parts[0].lower()
    if lang == "zh":
        rest = {p.lower() for p in parts[1:]}
        if "hans" not in rest and rest & TRADITIONAL:
            return None
        return "zh_CN"
    if lang == "en":
        return ENGLISH
    for known in TRANSLATED:
        if tag.lower() == known.lower() or lang == known.split("_")[0].lower():
            return known
    return None


def _settings() -> QSettings:
    from app.config.paths import config_dir

    return QSettings(str(config_dir() / SETTINGS_FILE), QSettings.Format.IniFormat)


def chosen_language() -> str:
    """The language set in View → Language ("" when none: the system's is used)."""
    value = _settings().value(SETTING_KEY, "")
    code = normalise(value) if isinstance(value, str) else None
    return code or ""


def choose_language(code: str) -> None:
    """Remember `code` ("" for the system's language); it applies at the next start."""
    wanted = normalise(code) if code else ""
    if wanted is None:
        raise ValueError(f"no translation for language {code!r}")
    settings = _settings()
    if wanted:
        settings.setValue(SETTING_KEY, wanted)
    else:
        settings.remove(SETTING_KEY)
    settings.sync()


def system_language(ui_languages: list[str] | None = None) -> str | None:
    """The first of the system's languages (in the person's order) MCP Desk has, or None."""
    for tag in QLocale.system().uiLanguages() if ui_languages is None else ui_languages:
        code = normalise(tag)
        if code is not None:
            return code
    return None


def resolve_language(ui_languages: list[str] | None = None) -> tuple[str, str]:
    """(language, where it came from: "env", "setting", "system" or "default")."""
    env = os.environ.get(ENV_VAR, "").strip()
    if env:
        code = normalise(env)
        if code is not None:
            return code, "env"
        logger.warning("%s=%s: no such translation, ignored", ENV_VAR, env)
    setting = chosen_language()
    if setting:
        return setting, "setting"
    code = system_language(ui_languages)
    if code is not None:
        return code, "system"
    return ENGLISH, "default"


def _load(app: QCoreApplication, name: str, folder: str) -> bool:
    translator = QTranslator(app)
    if not translator.load(name, folder):
        translator.deleteLater()
        return False
    app.installTranslator(translator)
    _installed.append(translator)
    return True


def install_translators(app: QCoreApplication, ui_languages: list[str] | None = None) -> str:
    """Load the translations of the chosen language and set the default locale; returns its code.

    Calling it again (a test switching languages) first removes what an earlier call installed.
    """
    global _previous_locale
    uninstall_translators(app)
    code, source = resolve_language(ui_languages)
    folder = str(I18N_DIR)
    # Installed first, searched last: English plurals for anything the language lacks.
    if not _load(app, f"mcp-desk_{ENGLISH}", folder):
        logger.warning("English plural forms not found in %s (run packaging/translations.py release)", folder)
    if code != ENGLISH:
        if not _load(app, f"mcp-desk_{code}", folder):
            logger.warning("translation %s not found in %s", code, folder)
        from PySide6.QtCore import QLibraryInfo  # its enums are not needed in English

        qt = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
        if not _load(app, f"qtbase_{code}", qt):
            logger.info("Qt's own translation qtbase_%s is not shipped in %s", code, qt)
    _previous_locale = QLocale()
    QLocale.setDefault(_locale_for(code, source))
    logger.info("language %s (from the %s)", code, source)
    return code


def _locale_for(code: str, source: str) -> QLocale:
    """The locale for dates and numbers: the system's when it is the same language (its region
    and the person's own formats kept) or when no translation matched (English words, their
    formats); otherwise the chosen language's."""
    system = QLocale.system()
    chosen = QLocale(code)
    if system.language() == chosen.language() or source == "default":
        return system
    return chosen


def uninstall_translators(app: QCoreApplication | None = None) -> None:
    """Remove the translators `install_translators` added and restore the default locale."""
    global _previous_locale
    app = app or QCoreApplication.instance()
    while _installed:
        translator = _installed.pop()
        if app is not None:
            app.removeTranslator(translator)
        translator.deleteLater()
    if _previous_locale is not None:
        QLocale.setDefault(_previous_locale)
        _previous_locale = None


# ---- the engine's sentences ---------------------------------------------------------------------

REASON_LIMIT = 4000
"""Longer sentences are shown as they are: matching them against the templates costs too much."""
REASON_DEPTH = 4


CORE_WORD_MODULES = (
    "app.mcp.auth",
    "app.mcp.legacy_sse",
    "app.mcp.session_recovery",
    "app.registry.client",
    "app.registry.convert",
    "app.bundles.archive",
    "app.bundles.compat",
    "app.bundles.plan",
    "app.bundles.signature",
    "app.runtimes.docker",
    "app.runtimes.installing",
    "app.runtimes.resolve",
)
"""The core modules besides app.mcp.reasons whose sentences the window translates back (each
has `TEMPLATES`; the same list as packaging/translations.py's CORE_SOURCES)."""


def core_word_modules(loaded_only: bool = False) -> list[ModuleType]:
    """Those modules; with `loaded_only`, the ones this process imported: a sentence can only come
    from a module that ran, and importing the others (the SDK's sign-in, httpx2) costs time."""
    import importlib
    import sys

    if loaded_only:
        return [sys.modules[name] for name in CORE_WORD_MODULES if name in sys.modules]
    return [importlib.import_module(name) for name in CORE_WORD_MODULES]


def _reason_patterns() -> tuple[dict[str, str], tuple[tuple[str, re.Pattern[str]], ...]]:
    return _patterns_of(tuple(m.__name__ for m in core_word_modules(loaded_only=True)))


@cache
def _patterns_of(names: tuple[str, ...]) -> tuple[dict[str, str], tuple[tuple[str, re.Pattern[str]], ...]]:
    """The engine's sentences without values (looked up as they are), and the patterns of those
    with values, in the order they are tried."""
    import sys

    from app.mcp.reasons import TEMPLATES, VALUE_PATTERNS

    # getattr: a module still being imported has no TEMPLATES yet
    others = [template for name in names for template in getattr(sys.modules[name], "TEMPLATES", ())]
    # Sentences that open with words of their own are tried first (they cannot swallow another's);
    # those that open with a value ("%1 (built in)", "%1 — %2") only after the engine's own.
    ordered = [
        *(t for t in others if not t.startswith("%")),
        *TEMPLATES,
        *(t for t in others if t.startswith("%")),
    ]
    exact: dict[str, str] = {}
    patterns = []
    for template in dict.fromkeys(ordered):
        if not re.search(r"%\d", template):
            exact[template] = template
            continue
        parts, seen = [], set()
        special = VALUE_PATTERNS.get(template, {})
        for piece in re.split(r"(%\d)", template):
            if re.fullmatch(r"%\d", piece):
                n = piece[1]
                parts.append(f"(?P=v{n})" if n in seen else f"(?P<v{n}>{special.get(n, '.*?')})")
                seen.add(n)
            else:
                parts.append(re.escape(piece))
        patterns.append((template, re.compile("".join(parts), re.DOTALL)))
    return exact, tuple(patterns)


def translate_reason(text: str, _depth: int = 0) -> str:
    """An English sentence from the engine (why a server could not connect, app.mcp.reasons) in
    the window's language: matched back to its template, the template translated, the values put
    back in (each translated too when it is a sentence of its own). Anything else is returned as
    it is: a server's own words, a sentence without a template.

    Remembered per sentence: a row's state is drawn on every repaint, and matching a long reason
    against every template costs milliseconds. The key holds what the answer depends on besides
    the text: the translators now installed (one template's translation stands for them) and the
    core modules loaded (their templates)."""
    if not text or len(text) > REASON_LIMIT or _depth > REASON_DEPTH:
        return text
    if _depth == 0:
        language = QCoreApplication.translate("Reasons", _PROBE)  # i18n: marked in app.mcp.reasons
        loaded = tuple(m.__name__ for m in core_word_modules(loaded_only=True))
        return _translated(text, language, loaded)
    return _translate(text, _depth)


_PROBE = "connection lost: %1"  # a template every language translates (app.mcp.reasons)


@lru_cache(maxsize=512)
def _translated(text: str, language: str, loaded: tuple[str, ...]) -> str:
    del language, loaded  # parts of the cache key only
    return _translate(text, 0)


def _translate(text: str, _depth: int) -> str:
    exact, patterns = _reason_patterns()
    if text in exact:
        return QCoreApplication.translate("Reasons", text)  # i18n: marked in app.mcp.reasons
    for template, pattern in patterns:
        match = pattern.fullmatch(text)
        if match is None:
            continue
        found = match.groupdict()
        values = {key[1:]: translate_reason(value, _depth + 1) for key, value in found.items()}
        if _glue(template) and all(values[k[1:]] == v for k, v in found.items()):
            continue  # "%1: %2" around words that are no sentence of ours: someone else's text
        translated = QCoreApplication.translate("Reasons", template)  # i18n: marked in app.mcp.reasons
        return _put_back(translated, values)
    return text


def _glue(template: str) -> bool:
    """A template of values and punctuation only ("%1: %2")."""
    return not re.search(r"[A-Za-z]", re.sub(r"%\d", "", template))


def _put_back(template: str, values: dict[str, str]) -> str:
    return re.sub(r"%(\d)", lambda m: values.get(m.group(1), m.group(0)), template)


# ---- dates, times and numbers the locale's way -------------------------------------------------

if TYPE_CHECKING:  # datetime is not imported at start-up for this, nor QDateTime (its enums)
    import datetime

    from PySide6.QtCore import QDateTime

    When = float | int | datetime.datetime | QDateTime
    """A moment: seconds since the epoch (time.time()), a datetime (naive = local time) or a QDateTime."""


def _qdatetime(when: When) -> QDateTime:
    from PySide6.QtCore import QDateTime

    if isinstance(when, QDateTime):
        return when
    seconds = when if isinstance(when, int | float) else when.timestamp()
    return QDateTime.fromMSecsSinceEpoch(round(float(seconds) * 1000))


def format_number(value: float, decimals: int | None = None) -> str:
    """1234567 → "1,234,567" (en), "1 234 567" (fr); floats with `decimals` places if given."""
    if isinstance(value, int) and decimals is None:
        return QLocale().toString(value)
    if decimals is None:
        return QLocale().toString(float(value), "g", 12)
    return QLocale().toString(float(value), "f", decimals)


def format_size(size: int) -> str:
    """A byte count for people: "532 bytes", "1.2 MB" (decimal units, the locale's digits)."""
    return QLocale().formattedDataSize(size, 1, QLocale.DataSizeFormat.DataSizeSIFormat)


def format_date_time(when: When) -> str:
    """Date and time of day, short: "12/1/26 3:45 PM" (en_US), "2026/12/1 15:45" (zh_CN)."""
    return QLocale().toString(_qdatetime(when), QLocale.FormatType.ShortFormat)


def format_date(when: When) -> str:
    return QLocale().toString(_qdatetime(when).date(), QLocale.FormatType.ShortFormat)


def format_time(when: When, *, seconds: bool = False) -> str:
    """The time of day: "3:45 PM" / "15:45"; with `seconds`, "3:45:07 PM" / "15:45:07"."""
    locale = QLocale()
    fmt = locale.timeFormat(QLocale.FormatType.ShortFormat)
    if seconds and "s" not in fmt:
        # The short format has no seconds and the long one adds a time zone name: add ":ss"
        # after the minutes (every locale's short format has "mm").
        fmt = fmt.replace("mm", "mm:ss", 1)
    return locale.toString(_qdatetime(when).time(), fmt)


def format_when(when: When, now: When | None = None) -> str:
    """Today's moments by their time ("15:45"), older ones with their date too."""
    from PySide6.QtCore import QDateTime

    moment = _qdatetime(when).toLocalTime()
    today = _qdatetime(now if now is not None else QDateTime.currentDateTime()).toLocalTime().date()
    return format_time(moment) if moment.date() == today else format_date_time(moment)
