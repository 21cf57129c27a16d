"""Resource subscriptions have one owner, the engine's connection: after a reconnect the server
is asked once, not once by the engine and again by the window (issue 11, section 5).

Against the real window and the demo server, in both protocol eras: 2025-11-25 subscribes with
`resources/subscribe`, 2026-07-28 opens a `subscriptions/listen` stream naming the resources.
The messages the engine sends are counted from its Traffic events.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.mcp.events import Traffic
from tests.ui.conftest import connect, run, wait_state
from tests.ui.test_subscribe import URI, add_note, read_note

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

SUBSCRIBING = {"legacy": "resources/subscribe", "auto": "subscriptions/listen"}


def reconnect(qtbot: Any, desk: Any) -> None:
    assert desk.servers.select("demo")
    desk.servers.buttons["disconnect"].click()
    wait_state(qtbot, desk, "demo", "closed")
    connect(qtbot, desk)


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_a_reconnect_subscribes_once(qtbot: Any, desk: Any, mode: str) -> None:
    desk.controller.settings("demo").protocol_mode = mode
    assert desk.controller.save()
    connect(qtbot, desk)
    add_note(qtbot, desk, "milk, bread")
    panel = read_note(qtbot, desk)
    with qtbot.waitSignal(desk.controller.subscription_changed, timeout=20000):
        panel.subscribe.setChecked(True)

    sent: list[dict[str, Any]] = []

    def record(event: Traffic) -> None:
        if event.direction == "out" and event.message.get("method") == SUBSCRIBING[mode]:
            sent.append(event.message)

    desk.controller.bridge.traffic_recorded.connect(record)
    reconnect(qtbot, desk)
    conn = desk.controller.connection("demo")
    assert conn is not None and conn.is_subscribed(URI)

    # Still followed after the reconnect: a change of the note is pushed to us.
    with qtbot.waitSignal(
        desk.controller.bridge.resource_updated, timeout=20000, check_params_cb=lambda s, u: u == URI
    ):
        assert not run(qtbot, conn.call_tool("add_note", {"name": "groceries", "text": "pears"})).is_error
    desk.controller.bridge.traffic_recorded.disconnect(record)
    assert len(sent) == 1, sent
    assert URI in str(sent[0]["params"])
