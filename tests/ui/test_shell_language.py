"""The window's own words in Simplified Chinese, and English plurals (issue 11 §4): the menus,
the activity log, the welcome guide and the "tools changed" notice, read from the built .qm files
(packaging/translations.py release; the test set-up builds them, this module builds them again)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.ui.conftest import open_desk

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

I18N = Path(__file__).resolve().parents[2] / "resources" / "i18n"


@pytest.fixture(scope="module", autouse=True)
def _built() -> None:
    import subprocess
    import sys

    script = I18N.parent.parent / "packaging" / "translations.py"
    subprocess.run([sys.executable, str(script), "release"], check=True, capture_output=True)


@contextlib.contextmanager
def translated(lang: str) -> Iterator[None]:
    from PySide6.QtCore import QCoreApplication, QTranslator

    translator = QTranslator()
    assert translator.load(str(I18N / f"mcp-desk_{lang}.qm")), lang
    assert QCoreApplication.installTranslator(translator)
    try:
        yield
    finally:
        QCoreApplication.removeTranslator(translator)


def menu_titles(window: Any) -> list[str]:
    return [a.text() for a in window.menuBar().actions()]


def test_the_window_in_simplified_chinese(qtbot: Any, aloop: Any, config_dir: Path) -> None:
    from PySide6.QtCore import Qt

    with translated("zh_CN"), open_desk(qtbot) as window:
        window.restore_state()
        titles = menu_titles(window)
        assert "服务器(&S)" in titles and "查看(&V)" in titles and "帮助(&H)" in titles, titles
        assert window.dock.windowTitle() == "活动日志"
        assert window.log_action.text() == "活动日志(&A)"
        assert window.developer_action.text() == "开发者模式(&D)"
        assert window.guide_text.text().startswith("欢迎使用 MCP Desk")
        assert window.guide_dismiss.text() == "知道了"
        bottom = window.bottom
        assert [bottom.tabText(i) for i in range(bottom.count())] == ["日志", "消息记录", "历史"]
        assert bottom.log_model.headerData(0, Qt.Orientation.Horizontal) == "时间"
        assert bottom.log_level.itemText(3) == "警告"
        assert bottom.log_level.itemData(3) == "warning"  # the filter still compares the level's name


@dataclass
class Diff:
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)


def test_the_tools_changed_notice_has_plurals_in_english_and_chinese(qapp: Any) -> None:
    from app.ui.wording import describe_diff

    # No translation loaded (a test, a bare run): still English plurals, not "1 tool(s)".
    assert describe_diff("tools", Diff(added=["a"]))[0] == "1 tool added"
    assert describe_diff("resources", Diff(removed=["a", "b"]))[0] == "2 resources removed"
    with translated("en"):
        assert describe_diff("tools", Diff(added=["a"]))[0] == "1 tool added"
        text, details = describe_diff("tools", Diff(added=["a", "b"], removed=["c"]))
        assert text == "2 tools added, 1 removed"
        assert details == "added: a, b\nremoved: c"
        assert describe_diff("prompts", Diff(changed=["p", "q"]))[0] == "2 prompts changed"
    with translated("zh_CN"):
        text, details = describe_diff("tools", Diff(added=["a", "b"], removed=["c"]))
        assert text == "新增 2 个工具，移除 1 个"
        assert details == "新增：a, b\n移除：c"


def test_fill_puts_each_value_in_its_place_once() -> None:
    from app.ui.wording import fill

    assert fill("Couldn't connect to %1: %2", "a%2b", "why") == "Couldn't connect to a%2b: why"
    assert fill("“%2”上的工具“%1”", "tool", "server") == "“server”上的工具“tool”"
    assert fill("%1 and %3", "x") == "x and %3"
