"""Which language the window speaks, and dates and numbers the locale's way (app/ui/i18n.py)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QLocale, QSettings
from PySide6.QtWidgets import QDialogButtonBox

from app.ui import i18n
from tests.support.languages import ensure_built, in_language


@pytest.fixture(autouse=True)
def _english_after(qapp: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv(i18n.ENV_VAR, raising=False)
    old = QLocale()
    yield
    i18n.uninstall_translators(qapp)
    QLocale.setDefault(old)


@pytest.mark.parametrize(
    ("tag", "code"),
    [
        ("zh-CN", "zh_CN"),
        ("zh_CN", "zh_CN"),
        ("zh-Hans-CN", "zh_CN"),
        ("zh-Hans-HK", "zh_CN"),
        ("zh", "zh_CN"),
        ("zh-SG", "zh_CN"),
        ("zh-TW", None),
        ("zh-Hant-HK", None),
        ("en-GB", "en"),
        ("en", "en"),
        ("de-DE", None),
        ("C", None),
        ("", None),
    ],
)
def test_language_tags(tag: str, code: str | None) -> None:
    assert i18n.normalise(tag) == code


def test_the_first_system_language_with_a_translation_wins() -> None:
    assert i18n.resolve_language(["de-DE", "zh-Hans-CN", "en-US"]) == ("zh_CN", "system")
    assert i18n.resolve_language(["en-GB", "zh-CN"]) == ("en", "system")
    assert i18n.resolve_language(["zh-TW", "fr-FR"]) == ("en", "default")
    assert i18n.resolve_language([]) == ("en", "default")


def test_the_setting_beats_the_system_and_the_environment_beats_both(
    config_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert i18n.chosen_language() == ""
    i18n.choose_language("en")
    assert i18n.resolve_language(["zh-CN"]) == ("en", "setting")
    monkeypatch.setenv(i18n.ENV_VAR, "zh_CN")
    assert i18n.resolve_language(["en-US"]) == ("zh_CN", "env")
    monkeypatch.setenv(i18n.ENV_VAR, "klingon")  # not a translation: ignored, the setting holds
    assert i18n.resolve_language(["zh-CN"]) == ("en", "setting")


def test_the_setting_lives_in_the_config_folder_beside_the_window_settings(config_dir: Path) -> None:
    window = QSettings(str(config_dir / "window.ini"), QSettings.Format.IniFormat)
    window.setValue("guideDismissed", True)
    window.sync()
    i18n.choose_language("zh-CN")
    assert i18n.chosen_language() == "zh_CN"
    text = (config_dir / "window.ini").read_text(encoding="utf-8")
    assert "language=zh_CN" in text
    again = QSettings(str(config_dir / "window.ini"), QSettings.Format.IniFormat)
    assert again.value("guideDismissed") in (True, "true")  # the window's own settings kept
    i18n.choose_language("")  # back to the system's
    assert i18n.chosen_language() == ""
    assert "language" not in (config_dir / "window.ini").read_text(encoding="utf-8")
    with pytest.raises(ValueError):
        i18n.choose_language("fr")


def test_choices_name_each_language_in_itself() -> None:
    codes = [code for code, _ in i18n.languages()]
    assert codes == ["", "en", "zh_CN"]
    assert dict(i18n.languages())["zh_CN"] == "简体中文"


def test_zh_CN_translates_our_strings_qt_buttons_plurals_and_the_locale(qapp: Any) -> None:
    with in_language(qapp, "zh_CN") as code:
        assert code == "zh_CN"
        assert QCoreApplication.translate("RegistryBrowser", "Server directory") == "服务器目录"
        assert QCoreApplication.translate("RegistryBrowser", "%n server(s)", "", 3) == "3 个服务器"
        # Qt's own strings (standard buttons) from PySide6's qtbase_zh_CN.qm
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        assert box.button(QDialogButtonBox.StandardButton.Cancel).text() == "取消"
        assert QLocale().name() == "zh_CN"
        assert dict(i18n.languages())[""] == "跟随系统"
    # Taken away again: English for the tests after this one.
    assert QCoreApplication.translate("RegistryBrowser", "Server directory") == "Server directory"
    assert QLocale().name() != "zh_CN"


def test_english_gets_its_plurals(qapp: Any) -> None:
    with in_language(qapp, "en"):
        assert QCoreApplication.translate("RegistryBrowser", "%n server(s)", "", 1) == "1 server"
        assert QCoreApplication.translate("RegistryBrowser", "%n server(s)", "", 2) == "2 servers"


def test_a_language_chosen_in_the_settings_is_installed(qapp: Any, config_dir: Path) -> None:
    ensure_built()
    i18n.choose_language("zh_CN")
    assert i18n.install_translators(qapp, ui_languages=["en-US"]) == "zh_CN"
    assert QCoreApplication.translate("BundleDialog", "Server package") == "服务器安装包"


def test_the_system_language_is_installed_when_nothing_is_set(qapp: Any) -> None:
    ensure_built()
    assert i18n.install_translators(qapp, ui_languages=["zh-Hans-CN", "en"]) == "zh_CN"
    assert QCoreApplication.translate("RegistryBrowser", "Retry") == "重试"
    i18n.install_translators(qapp, ui_languages=["de-DE"])  # no German: English, twice is fine
    assert QCoreApplication.translate("RegistryBrowser", "Retry") == "Retry"
    assert QCoreApplication.translate("RegistryBrowser", "%n server(s)", "", 1) == "1 server"


# ---- dates and numbers ----------------------------------------------------------------------------

MOMENT = dt.datetime(2026, 12, 1, 15, 45, 7)  # naive: local time


def test_numbers_and_sizes_follow_the_locale() -> None:
    QLocale.setDefault(QLocale("en_US"))
    assert i18n.format_number(1234567) == "1,234,567"
    assert i18n.format_number(0.5, 2) == "0.50"
    assert i18n.format_size(1_200_000) == "1.2 MB"
    QLocale.setDefault(QLocale("de_DE"))
    assert i18n.format_number(1234567) == "1.234.567"
    assert i18n.format_number(0.5, 2) == "0,50"


def test_times_follow_the_locale() -> None:
    QLocale.setDefault(QLocale("en_US"))
    assert i18n.format_time(MOMENT).replace("\u202f", " ") == "3:45 PM"
    assert i18n.format_time(MOMENT, seconds=True).replace("\u202f", " ") == "3:45:07 PM"
    assert "2026" in i18n.format_date(MOMENT) or "26" in i18n.format_date(MOMENT)
    QLocale.setDefault(QLocale("zh_CN"))
    assert i18n.format_time(MOMENT, seconds=True) == "15:45:07"
    assert "15:45" in i18n.format_date_time(MOMENT)
    assert "2026" in i18n.format_date_time(MOMENT)
    assert i18n.format_time(MOMENT.timestamp()) == i18n.format_time(MOMENT)


def test_today_by_its_time_other_days_with_their_date() -> None:
    QLocale.setDefault(QLocale("zh_CN"))
    same_day = MOMENT + dt.timedelta(hours=1)
    assert i18n.format_when(MOMENT, now=same_day) == i18n.format_time(MOMENT)
    next_week = MOMENT + dt.timedelta(days=7)
    assert i18n.format_when(MOMENT, now=next_week) == i18n.format_date_time(MOMENT)
