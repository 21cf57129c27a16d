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
    assert m.data(m.index(0, 0), ServerListModel.StatusTextRole).startswith("connected · 3 tool")
    m.update_state("b", "failed", "command not found: nope")
    status = m.data(m.index(1, 0), ServerListModel.StatusTextRole)
    assert status == "couldn't connect: command not found: nope"
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


def test_catalog_filter_matches_brute_force_through_random_changes(qtmodeltester: Any) -> None:
    """The filter applies changes as remove/insert runs or a reset; whatever path it takes, the
    rows shown must be exactly the matching items in order (the model tester watches every signal)."""
    import random

    rnd = random.Random(5)
    words = ["alpha", "beta", "gamma", "delta", "echo", "fox"]
    m = CatalogModel("tools")
    p = CatalogFilterModel()
    p.setSourceModel(m)
    qtmodeltester.check(p)
    servers = ["s1", "s2", "s3"]

    def random_items(server: str) -> list[CatalogItem]:
        names = rnd.sample(range(300), rnd.randint(0, 120))
        return [
            CatalogItem(server, f"t{n:03d}", "", " ".join(rnd.sample(words, 2)) + f" {n}")
            for n in sorted(names)
        ]

    for step in range(150):
        action = rnd.random()
        if action < 0.3:
            server = rnd.choice(servers)
            m.set_items(server, random_items(server))
        elif action < 0.6:
            p.set_search(" ".join(rnd.sample([*words, "1", "2", "t0", ""], rnd.randint(0, 2))))
        elif action < 0.8:
            p.set_server(rnd.choice([*servers, None]))
        else:
            p.set_all_servers(rnd.random() < 0.5)
        # brute force: what should be shown
        want = []
        for i in range(m.rowCount()):
            it = m.item(i)
            scope_ok = p.all_servers() or it.server == (p._server or "")
            if scope_ok and all(w in m.haystack(i) for w in p._words):
                want.append(it.uid)
        shown = [p.data(p.index(r, 0), CatalogModel.QualifiedNameRole) for r in range(p.rowCount())]
        assert shown == want, step


def test_a_traffic_row_takes_its_message_from_the_event_when_first_shown() -> None:
    # The window appends TrafficRow.of(event): an engine event made without secrets puts the
    # SDK's message in wire form only when read, and a row nobody shows never reads it.
    import mcp_types as types

    from app.mcp.events import Traffic

    sent = types.JSONRPCRequest(jsonrpc="2.0", id=7, method="tools/call", params={"name": "echo"})
    event = Traffic.later("s1", 1.0, "out", sent, None)
    tr = TrafficModel()
    tr.append(TrafficRow.of(event))
    assert event._message is None  # appended, not yet in wire form
    assert tr.index(0, 3).data() == "tools/call #7"
    assert event._message == {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "echo"}}
    assert tr.row(0) == TrafficRow(1.0, "s1", "out", event.message)
