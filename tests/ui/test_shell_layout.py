"""The window at 1024×700 (issue 11 §3): the catalog's tabs are not clipped, whatever their counts,
and the form keeps most of the room; a wider window gives its extra room to the form."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.ui.conftest import connect, open_desk, select_tool

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")


def tabs_fit(window: Any) -> bool:
    """Every tab of the catalog inside its bar (none cut off or scrolled out of sight)."""
    bar = window.catalog.tabs.tabBar()
    return all(bar.tabRect(i).right() < bar.width() for i in range(bar.count()))


def test_at_1024_by_700_the_tabs_fit_and_the_form_has_room(qtbot: Any, aloop: Any, config_dir: Path) -> None:
    with open_desk(qtbot) as window:
        window.restore_state()  # nothing saved: 1280×820, then a 1024×700 screen's size
        window.resize(1024, 700)
        qtbot.waitUntil(lambda: window.width() == 1024, timeout=5000)
        connect(qtbot, window)  # "Tools (13)", "Resources (4)", "Prompts (1)": wider tabs
        select_tool(qtbot, window, "create_contact")
        qtbot.waitUntil(lambda: tabs_fit(window), timeout=5000)
        servers, catalog, right = window.splitter.sizes()
        assert right > servers and right > catalog, (servers, catalog, right)
        assert right >= 400, (servers, catalog, right)
        assert not window.splitter.childrenCollapsible()
        # Dragged narrower than its tabs, the catalog stops at their width.
        window.splitter.setSizes([servers, 50, right + catalog - 50])
        qtbot.waitUntil(lambda: tabs_fit(window), timeout=5000)
        # Wider: the extra room goes to the form and the answer.
        before = window.splitter.sizes()
        window.resize(1400, 800)
        qtbot.waitUntil(lambda: window.splitter.sizes() != before, timeout=5000)
        after = window.splitter.sizes()
        assert after[2] - before[2] > after[0] - before[0], (before, after)
        assert after[2] - before[2] > after[1] - before[1], (before, after)
