"""The server list shows INSTALLING as "installing the server…" with what is fetched: not as
failed, not as connecting; and the server can be disconnected meanwhile."""

from __future__ import annotations

from typing import Any

from app.ui.models.servers import INSTALLING, ServerListModel, ServerRow
from app.ui.server_list import ServerPanel
from app.ui.theme import state_colour


def test_installing_row_text(qapp: Any) -> None:
    row = ServerRow(name="memory", state=INSTALLING, reason="installing the server… (fetching @scope/pkg)")
    assert row.status_text() == "installing the server… (fetching @scope/pkg)"
    row.reason = "installing the server…"
    assert row.status_text() == "installing the server…"
    # A package name is the server's text: shown as plain visible text, one line.
    row.reason = "installing the server… (fetching evil\u202epkg)"
    assert "\u202e" not in row.status_text()
    assert row.state_key() == "installing" and state_colour("installing") == state_colour("connecting")


def test_installing_row_actions(qapp: Any, qtbot: Any) -> None:
    model = ServerListModel()
    model.set_servers([ServerRow(name="memory")])
    panel = ServerPanel(model)
    qtbot.addWidget(panel)
    model.update_state("memory", INSTALLING, "installing the server… (fetching ajv)")
    acts = panel.enabled_actions("memory")
    assert {"disconnect", "reconnect"} <= acts and "connect" not in acts
    index = model.index(model.row_of("memory"), 0)
    assert index.data(ServerListModel.StatusTextRole) == "installing the server… (fetching ajv)"
