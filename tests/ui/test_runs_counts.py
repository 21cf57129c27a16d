"""Item 11 (part) of issue 11: each catalog tab counts what its list shows — with "All servers"
on, every listed server's items; with a search, the matches — never "Tools (0)" over a full list."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from tests.ui.conftest import DEMO, connect, open_desk, write_servers

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")


def tab_texts(catalog: Any) -> list[str]:
    return [catalog.tabs.tabText(i) for i in range(catalog.tabs.count())]


def listed(catalog: Any, kind: str) -> int:
    return int(catalog.proxies[kind].rowCount())


def test_tab_counts_follow_all_servers_and_search(qtbot: Any) -> None:
    from app.ui.catalog_panel import CatalogPanel
    from app.ui.models.catalog import CatalogItem

    panel = CatalogPanel()
    qtbot.addWidget(panel)
    for server, names in (("a", ["echo", "add"]), ("b", ["echo", "sum", "draw"])):
        panel.models["tools"].set_items(server, [CatalogItem(server, n, n.title(), "", None) for n in names])
    panel.models["prompts"].set_items("b", [CatalogItem("b", "greet", "Greet", "", None)])
    panel.set_server("c")  # a server with nothing listed (not connected)
    assert tab_texts(panel) == ["Tools (0)", "Resources (0)", "Prompts (0)"]

    panel.all_servers.setChecked(True)
    assert listed(panel, "tools") == 5
    assert tab_texts(panel) == ["Tools (5)", "Resources (0)", "Prompts (1)"]
    panel.search.setText("echo")
    assert listed(panel, "tools") == 2
    assert tab_texts(panel) == ["Tools (2)", "Resources (0)", "Prompts (0)"]
    panel.all_servers.setChecked(False)
    panel.set_server("b")
    assert tab_texts(panel) == ["Tools (1)", "Resources (0)", "Prompts (0)"]
    panel.search.clear()
    assert tab_texts(panel) == ["Tools (3)", "Resources (0)", "Prompts (1)"]
    # A server's catalog changing changes the count of what is listed, too.
    panel.models["tools"].set_items("b", [CatalogItem("b", "echo", "Echo", "", None)])
    assert tab_texts(panel) == ["Tools (1)", "Resources (0)", "Prompts (1)"]


def test_all_servers_count_in_the_window(qtbot: Any, aloop: Any, config_dir: Path) -> None:
    offline = {"command": sys.executable, "args": ["-c", "pass"]}  # never connected here
    write_servers(config_dir, {"demo": DEMO, "offline": offline})
    with open_desk(qtbot) as desk:
        connect(qtbot, desk, "demo")
        tools = desk.server_model.server("demo").tool_count
        assert desk.servers.select("offline")
        assert tab_texts(desk.catalog)[0] == "Tools (0)"
        desk.catalog.all_servers.setChecked(True)
        assert listed(desk.catalog, "tools") == tools > 0
        assert tab_texts(desk.catalog)[0] == f"Tools ({tools})"
