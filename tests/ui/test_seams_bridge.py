"""The seam between the window and the engine (issue 11, section 5): the bridge matches the
engine's event classes (not their names), states travel as the engine's `ConnectionState`, and
the controller's connections are the engine's own objects.

The events are the engine's real dataclasses, handed to the bridge as the engine hands them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from app.mcp.events import (
    CatalogChanged,
    CatalogDiff,
    ConnectionState,
    LogLine,
    Progress,
    ResourceUpdated,
    SignInWaiting,
    StateChanged,
    Traffic,
)
from app.ui.bridge import EngineBridge, catalog_kind, state_name
from app.ui.models.servers import FAILED, READY
from tests.ui.conftest import connect

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")


def collect(bridge: EngineBridge) -> list[tuple[str, tuple[Any, ...]]]:
    got: list[tuple[str, tuple[Any, ...]]] = []
    for name in (
        "state_changed",
        "catalog_changed",
        "log_line_received",
        "progress_reported",
        "traffic_recorded",
        "resource_updated",
        "sign_in_waiting",
    ):
        getattr(bridge, name).connect(lambda *args, name=name: got.append((name, args)))
    return got


def test_each_engine_event_becomes_its_signal(qtbot: Any) -> None:
    bridge = EngineBridge()
    got = collect(bridge)
    diff = CatalogDiff(added=("echo",))
    line = LogLine("demo", 1.0, "info", "stderr", "hello")
    traffic = Traffic("demo", 1.0, "out", {"method": "tools/list"})
    bridge(StateChanged("demo", ConnectionState.READY))
    bridge(StateChanged("demo", ConnectionState.FAILED, "no such command"))
    bridge(CatalogChanged("demo", "tools", diff))
    bridge(line)
    bridge(Progress("demo", "7", 2, 4, None))
    bridge(traffic)
    bridge(ResourceUpdated("demo", "demo://readme"))
    bridge(SignInWaiting("demo", "https://example.invalid/authorize"))
    assert got == [
        ("state_changed", ("demo", "ready", "")),
        ("state_changed", ("demo", "failed", "no such command")),
        ("catalog_changed", ("demo", "tools", diff)),
        ("log_line_received", (line,)),
        ("progress_reported", ("demo", "7", 2.0, 4.0, "")),
        ("traffic_recorded", (traffic,)),
        ("resource_updated", ("demo", "demo://readme")),
        ("sign_in_waiting", ("demo", "https://example.invalid/authorize")),
    ]
    # The word a slot gets is the engine's state: it turns back into it, and the list's
    # constants (its members) match it, as keys too.
    state = got[0][1][1]
    assert ConnectionState(state) is ConnectionState.READY
    assert state == READY and got[1][1][1] == FAILED
    assert {READY: "a key of the list"}[state] == "a key of the list"
    assert state_name(ConnectionState.NEEDS_SIGN_IN) == "needs_sign_in"


def test_a_lookalike_with_the_same_class_name_is_not_an_event(qtbot: Any) -> None:
    """Matching by class, not by name: something else called StateChanged is not the engine's."""

    @dataclass(frozen=True)
    class StateChanged:  # the point is the name
        server: str
        state: str
        reason: str | None = None

    bridge = EngineBridge()
    got = collect(bridge)
    bridge(StateChanged("demo", "ready"))  # type: ignore[arg-type]
    assert got == []


def test_catalog_kinds_are_typed_again() -> None:
    assert [catalog_kind(k) for k in ("tools", "resources", "resource_templates", "prompts")] == [
        "tools",
        "resources",
        "resource_templates",
        "prompts",
    ]
    with pytest.raises(ValueError, match="not a catalog kind"):
        catalog_kind("tool")


def test_the_controller_hands_out_the_engines_connection(qtbot: Any, desk: Any) -> None:
    from app.mcp.connection import ServerConnection
    from app.mcp.manager import ConnectionManager

    connect(qtbot, desk)
    controller = desk.controller
    assert isinstance(controller.manager, ConnectionManager)
    conn = controller.connection("demo")
    assert isinstance(conn, ServerConnection)
    assert controller.state("demo") is ConnectionState.READY
    assert controller.state("nobody") is None
