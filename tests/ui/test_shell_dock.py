"""The activity log (issue 11 §2): hidden by default, closable, back from View → Activity log (an
item that is not greyed out) or from a failed server's "Show log", and its visibility remembered.
Developer mode is one switch in the View menu, remembered, and brings the Messages (traffic) tab.
Against the real window and real processes (the demo server, a command that does not exist)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.ui.conftest import DEMO, open_desk, wait_state, write_servers

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")


def menu(window: Any, title: str) -> Any:
    return next(a.menu() for a in window.menuBar().actions() if a.text() == title)


@pytest.fixture
def plain_desk(qtbot: Any, aloop: Any, config_dir: Path) -> Iterator[Any]:
    with open_desk(qtbot) as window:
        window.restore_state()  # as main.py does: a first start has nothing to restore
        yield window


def test_the_log_is_hidden_at_first_and_view_menu_opens_and_closes_it(qtbot: Any, plain_desk: Any) -> None:
    w = plain_desk
    assert w.dock.isHidden(), "the activity log is shown on a first start"
    action = w.log_action
    assert action in menu(w, "&View").actions()
    assert action.isEnabled(), "View → Activity log is greyed out"
    assert action.isCheckable() and not action.isChecked()
    action.trigger()
    qtbot.waitUntil(w.dock.isVisible, timeout=5000)
    assert action.isChecked()
    # Closable: its own close button (the feature) and the menu item both close it.
    from PySide6.QtWidgets import QDockWidget

    assert w.dock.features() & QDockWidget.DockWidgetFeature.DockWidgetClosable
    w.dock.close()
    qtbot.waitUntil(w.dock.isHidden, timeout=5000)
    assert not action.isChecked()
    action.trigger()
    qtbot.waitUntil(w.dock.isVisible, timeout=5000)


def test_whether_the_log_is_shown_is_remembered(qtbot: Any, aloop: Any, config_dir: Path) -> None:
    with open_desk(qtbot) as window:
        window.restore_state()
        assert window.dock.isHidden()
        window.log_action.trigger()
        qtbot.waitUntil(window.dock.isVisible, timeout=5000)
        window.save_state()
    with open_desk(qtbot) as window:
        window.restore_state()
        qtbot.waitUntil(window.dock.isVisible, timeout=5000)
        window.dock.close()
        window.save_state()
    with open_desk(qtbot) as window:
        window.restore_state()
        assert window.dock.isHidden()


def test_developer_mode_is_a_view_menu_switch_remembered_with_the_messages_tab(
    qtbot: Any, aloop: Any, config_dir: Path
) -> None:
    from app.ui.developer_mode import developer_mode

    with open_desk(qtbot) as window:
        action = window.developer_action
        assert action in menu(window, "&View").actions()
        assert action.isCheckable() and not action.isChecked()
        assert not developer_mode().enabled()
        bottom = window.bottom
        assert not bottom.messages_tab_shown(), "traffic is shown outside developer mode"
        action.trigger()
        assert developer_mode().enabled()
        assert bottom.messages_tab_shown()
        assert bottom.tabText(1) == "Messages"
        bottom.setCurrentIndex(1)
        assert bottom.currentWidget() is bottom._traffic_page
        # Switched off elsewhere (another view): the menu item follows, the tab goes.
        developer_mode().set_enabled(False)
        assert not action.isChecked()
        assert not bottom.messages_tab_shown()
        assert bottom.currentWidget() is bottom._log_page
        action.trigger()
    developer_mode().set_enabled(False)  # as a new process would start
    with open_desk(qtbot) as window:
        assert developer_mode().enabled(), "developer mode was not remembered"
        assert window.developer_action.isChecked()
        assert window.bottom.messages_tab_shown()
        window.developer_action.trigger()
    with open_desk(qtbot) as window:
        assert not developer_mode().enabled()


def test_protocol_version_on_the_overview_in_developer_mode_only(qtbot: Any, plain_desk: Any) -> None:
    from app.ui.developer_mode import developer_mode

    w = plain_desk
    assert w.servers.select("demo")
    w.servers.buttons["connect"].click()
    wait_state(qtbot, w, "demo", "ready")
    w.servers.select("demo")
    qtbot.waitUntil(lambda: "Choose a tool" in w.overview_info.text(), timeout=5000)
    assert "Protocol" not in w.overview_info.text()
    w.developer_action.trigger()
    assert "Protocol" in w.overview_info.text()
    assert developer_mode().enabled()


def test_a_failed_server_offers_show_log_which_opens_its_lines(
    qtbot: Any, aloop: Any, config_dir: Path
) -> None:
    write_servers(config_dir, {"broken": {"command": "no-such-command-mcp-desk"}, "demo": DEMO})
    with open_desk(qtbot) as window:
        window.restore_state()
        assert window.servers.select("broken")
        assert not window.show_log_button.isVisible()
        window.servers.buttons["connect"].click()
        wait_state(qtbot, window, "broken", "failed")
        qtbot.waitUntil(window.show_log_button.isVisible, timeout=5000)
        assert window.show_log_button.text() == "Show log"
        assert "Show log" in window.overview_reason.text()
        assert window.dock.isHidden()
        window.show_log_button.click()
        qtbot.waitUntil(window.dock.isVisible, timeout=5000)
        bottom = window.bottom
        assert bottom.currentWidget() is bottom._log_page
        assert bottom.log_server.server() == "broken"
        # A server that is connected has nothing to show there.
        assert window.servers.select("demo")
        assert not window.show_log_button.isVisible()


def test_the_language_menu_lists_the_choices_and_says_when_it_applies(qtbot: Any, plain_desk: Any) -> None:
    from PySide6.QtWidgets import QApplication, QMessageBox

    from app.ui.i18n import chosen_language, languages

    w = plain_desk
    actions = w.language_menu.actions()
    assert [a.data() for a in actions] == [code for code, _ in languages()]
    assert [a.isChecked() for a in actions] == [code == chosen_language() for code, _ in languages()]
    other = next(a for a in actions if a.data() and a.data() != chosen_language())
    other.trigger()

    def box() -> QMessageBox | None:
        for top in QApplication.topLevelWidgets():
            if isinstance(top, QMessageBox) and top.isVisible():
                return top
        return None

    qtbot.waitUntil(lambda: box() is not None, timeout=5000)
    shown = box()
    assert shown is not None and "next time" in shown.text()
    shown.accept()
    qtbot.waitUntil(lambda: box() is None, timeout=5000)


def dark_palette() -> Any:
    from PySide6.QtGui import QColor, QPalette

    pal = QPalette()
    for role, colour in (
        (QPalette.ColorRole.Window, "#2b2b2b"),
        (QPalette.ColorRole.WindowText, "#e0e0e0"),
        (QPalette.ColorRole.Base, "#1e1e1e"),
        (QPalette.ColorRole.Text, "#e0e0e0"),
        (QPalette.ColorRole.Button, "#353535"),
        (QPalette.ColorRole.ButtonText, "#e0e0e0"),
    ):
        pal.setColor(role, QColor(colour))
    return pal


def test_the_failure_box_and_the_notice_follow_a_dark_palette(qtbot: Any, plain_desk: Any) -> None:
    from PySide6.QtWidgets import QApplication

    from app.ui.theme import colours

    w = plain_desk
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    light = app.palette()
    light_error = colours("error", light)[0]
    assert light_error in w.overview_reason.styleSheet()
    dark = dark_palette()
    try:
        app.setPalette(dark)
        dark_error, dark_info = colours("error", dark)[0], colours("info", dark)[0]
        assert dark_error != light_error
        qtbot.waitUntil(lambda: dark_error in w.overview_reason.styleSheet(), timeout=5000)
        assert light_error not in w.overview_reason.styleSheet()
        assert dark_info in w.notice.styleSheet()
    finally:
        app.setPalette(light)
    qtbot.waitUntil(lambda: light_error in w.overview_reason.styleSheet(), timeout=5000)


def test_the_install_link_entry_comes_after_the_first_paint_in_its_place(qtbot: Any, plain_desk: Any) -> None:
    """Added after the first paint (its modules are not needed for it), under the other ways to
    add a server and before Import — and at once when code asks for it."""
    w = plain_desk
    qtbot.waitUntil(lambda: w.menus._link_actions, timeout=5000)
    texts = [a.text() for a in w.menus.servers_menu.actions() if not a.isSeparator()]
    assert texts.index("&Add server…") < texts.index("Open an install &link…") < texts.index("&Import from")
    assert w.install_bundle_action.text() in texts
    assert texts.index(w.install_bundle_action.text()) < texts.index("Open an install &link…")
    assert w.open_link_action.text() == "Open an install &link…"
