"""The welcome guide stays until the person dismisses it ("Got it", remembered), and Help →
Welcome guide shows it again (issue 11 §1.9). Against the real demo server: it used to vanish as
soon as the demo was connected, a second after start."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.ui.conftest import open_desk, wait_state

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")


def test_guide_stays_after_connecting_until_got_it_and_help_brings_it_back(
    qtbot: Any, aloop: Any, config_dir: Path
) -> None:
    with open_desk(qtbot, connect_enabled=True) as window:
        assert window.guide_box.isVisible()
        wait_state(qtbot, window, "demo", "ready")
        window.servers.select("demo")
        assert window.guide_box.isVisible(), "the guide went away once a server was connected"
        assert window.right.currentWidget() is window.guide
        assert "connects every enabled server" in window.guide_text.text()
        window.guide_dismiss.click()
        assert not window.guide_box.isVisible()
    # Remembered: the next start shows no guide.
    with open_desk(qtbot) as window:
        assert not window.guide_box.isVisible()
        help_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Help")
        assert window.guide_action in help_menu.actions()
        assert window.guide_action.text() == "&Welcome guide"
        window.guide_action.trigger()
        assert window.guide_box.isVisible()
        assert window.right.currentWidget() is window.guide
