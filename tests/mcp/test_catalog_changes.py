"""What a catalog refresh reports: every field of a tool counts, duplicates are said out loud."""

from __future__ import annotations

import pytest

from app.mcp.events import CatalogChanged
from tests.mcp.conftest import MODES, connected, sdk_target
from tests.mcp.sdk_server import RETOUCHES
from tests.servers.harness import EventLog

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("mode", MODES)
async def test_any_changed_field_is_a_published_change(mode: str) -> None:
    """A list_changed after the server turned `destructiveHint` on (or changed the title, icons,
    `_meta`, `execution`, outputSchema) must reach the catalog and be published as `changed`."""
    events = EventLog()
    async with connected(sdk_target(mode=mode), events) as conn:
        fields = list(RETOUCHES)
        if conn.protocol_version == "2026-07-28":
            await events.wait_until(lambda: conn.listening)  # a change published before is lost
            fields.remove("execution")  # (tasks are not part of that era: the SDK server omits it)
        for field in fields:
            since = len(events.events)
            retouch = {"action": "retouch", "name": "echo", "field": field, "notify": True}
            await conn.call_tool("mutate", retouch)
            change = await events.wait_for(
                lambda e: isinstance(e, CatalogChanged) and e.kind == "tools", timeout=10, since=since
            )
            assert change.diff.changed == ("echo",), field
            assert change.diff.added == change.diff.removed == ()
            wire_key = next(iter(RETOUCHES[field]))
            assert conn.catalog.tools["echo"].raw[wire_key] == RETOUCHES[field][wire_key], field
        assert conn.catalog.tools["echo"].annotations == {"destructiveHint": True, "readOnlyHint": False}
        # Nothing changed: a refresh publishes nothing.
        assert not (await conn.refresh("tools"))["tools"]
