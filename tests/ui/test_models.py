"""Every item model, checked with pytest-qt's qtmodeltester through inserts, changes and removals."""

from __future__ import annotations

from typing import Any

from app.ui.models.catalog import CatalogFilterModel, CatalogItem, CatalogModel
from app.ui.models.history import HistoryEntry, HistoryModel
from app.ui.models.log import LogModel, LogRow, ServerLevelFilter, TrafficModel, TrafficRow
from app.ui.models.servers import ServerListModel, ServerRow


def items(server: str, *names: str) -> list[CatalogItem]:
    return [CatalogItem(server, n, "", f"does {n}") for n in names]


def test_server_model(qtmodeltester: Any) -> None:
    m = ServerListModel()
    m.set_servers([ServerRow("a"), ServerRow("b", "http")])
    qtmodeltester.check(m)
    m.update_state("a", "ready")
    m.update_tool_count("a", 3)
    assert m.data(m.index(0, 0), ServerListModel.StatusTextRole) == "ready · 3 tools"
    m.update_state("b", "failed", "command not found: nope")
    assert m.data(m.index(1, 0), ServerListModel.StatusTextRole) == "failed: command not found: nope"
    m.set_servers([ServerRow("b"), ServerRow("c")])
    assert m.names() == ["b", "c"]
    # live state survives a reload of the configuration
    assert m.server("b").state == "failed"
    qtmodeltester.check(m)


def test_catalog_model_in_place(qtmodeltester: Any) -> None:
    m = CatalogModel("tools")
    qtmodeltester.check(m)
    m.set_items("s1", items("s1", "a", "b", "c"))
    m.set_items("s2", items("s2", "x"))
    new = [*items("s1", "a"), CatalogItem("s1", "c", "", "changed"), *items("s1", "d")]
    added, removed, changed = m.set_items("s1", new)
    assert (added, removed, changed) == (["d"], ["b"], ["c"])
    assert [m.item(i).qualified for i in range(m.rowCount())] == ["s1/a", "s1/c", "s1/d", "s2/x"]
    m.clear_server("s1")
    assert [m.item(i).qualified for i in range(m.rowCount())] == ["s2/x"]
    qtmodeltester.check(m)


def test_catalog_filter(qtmodeltester: Any) -> None:
    m = CatalogModel("tools")
    m.set_items("s1", items("s1", "echo", "add", "get_weather"))
    m.set_items("s2", items("s2", "echo", "weather_alerts"))
    p = CatalogFilterModel()
    p.setSourceModel(m)
    qtmodeltester.check(p)
    p.set_server("s1")
    assert p.rowCount() == 3
    p.set_search("weather")
    assert [p.index(i, 0).data() for i in range(p.rowCount())] == ["get_weather"]
    p.set_all_servers(True)
    assert [p.index(i, 0).data() for i in range(p.rowCount())] == ["s1/get_weather", "s2/weather_alerts"]
    p.set_search("")
    assert p.rowCount() == 5
    qtmodeltester.check(p)


def test_log_traffic_history_models(qtmodeltester: Any) -> None:
    log = LogModel(limit=10)
    for i in range(25):
        log.append(LogRow(0.0, "s1" if i % 2 else "s2", "debug" if i % 3 else "error", "stderr", f"line {i}"))
    assert log.rowCount() <= 10
    qtmodeltester.check(log)
    f = ServerLevelFilter()
    f.setSourceModel(log)
    f.set_min_level("error")
    assert all(f.index(i, 2).data() == "error" for i in range(f.rowCount()))
    qtmodeltester.check(f)

    tr = TrafficModel()
    tr.append(TrafficRow(0.0, "s1", "out", {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
    tr.append(TrafficRow(0.0, "s1", "in", {"jsonrpc": "2.0", "id": 1, "result": {}}))
    assert tr.index(0, 3).data() == "tools/list #1"
    qtmodeltester.check(tr)

    h = HistoryModel()
    e = HistoryEntry("s1", "echo", {"text": "hi"})
    h.add(e)
    h.add(HistoryEntry("s1", "add", {}))
    e.failure = "boom"
    h.entry_updated(e)
    assert "[failed]" in h.index(1, 0).data()
    qtmodeltester.check(h)
