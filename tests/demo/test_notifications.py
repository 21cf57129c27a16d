"""What the demo server sends while it runs: list_changed, progress, and cancellation handling."""

from __future__ import annotations

import anyio
import pytest
from mcp import Client
from mcp.client.session import IncomingMessage
from mcp_types import (
    EmptyResult,
    ResourceUpdatedNotification,
    SubscribeRequest,
    SubscribeRequestParams,
    TextContent,
    TextResourceContents,
    ToolListChangedNotification,
    UnsubscribeRequest,
    UnsubscribeRequestParams,
)

from tests.demo.support import MODES, demo_client

pytestmark = [pytest.mark.anyio, pytest.mark.parametrize("mode", MODES)]

WAIT = 10.0  # generous upper bound for an event on a loaded 2-core machine; normally milliseconds


async def tool_names(client: Client) -> set[str]:
    return {t.name for t in (await client.list_tools()).tools}


async def read_activity(client: Client) -> str:
    contents = (await client.read_resource("demo://activity")).contents[0]
    assert isinstance(contents, TextResourceContents)
    return contents.text


async def test_toggle_bonus_tool_sends_tools_list_changed(mode: str) -> None:
    changed = anyio.Event()
    seen: list[str] = []

    async def on_message(message: IncomingMessage) -> None:
        if isinstance(message, ToolListChangedNotification):
            seen.append(message.method)
            changed.set()

    async with demo_client(mode, message_handler=on_message) as client:
        assert "lucky_number" not in await tool_names(client)
        for expect_present in (True, False):
            if mode == "legacy":
                # Handshake era: the server sends the notification on its own.
                changed = anyio.Event()
                await client.call_tool("toggle_bonus_tool", {})
                with anyio.fail_after(WAIT):
                    await changed.wait()
            else:
                # 2026-07-28: change notifications arrive only on a subscriptions/listen stream.
                async with client.listen(tools_list_changed=True) as subscription:
                    await client.call_tool("toggle_bonus_tool", {})
                    with anyio.fail_after(WAIT):
                        event = await anext(subscription)
                    assert type(event).__name__ == "ToolsListChanged"
            assert ("lucky_number" in await tool_names(client)) is expect_present
            if expect_present:
                lucky = await client.call_tool("lucky_number", {"name": "Kim"})
                assert not lucky.is_error
        if mode == "legacy":
            assert seen == ["notifications/tools/list_changed"] * 2
        unknown = await client.call_tool("lucky_number", {"name": "Kim"})
        assert unknown.is_error


async def test_slow_count_reports_progress(mode: str) -> None:
    events: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        events.append((progress, total, message))

    async with demo_client(mode) as client:
        result = await client.call_tool(
            "slow_count", {"to": 4, "delay_seconds": 0.02}, progress_callback=on_progress
        )
        assert not result.is_error
        assert isinstance(result.content[0], TextContent)
        assert result.content[0].text == "Counted to 4."
    assert events == [(float(i), 4.0, f"Counted {i} of 4") for i in range(1, 5)]


async def test_slow_count_can_be_cancelled(mode: str) -> None:
    first_progress = anyio.Event()
    finished = False

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        first_progress.set()

    async with demo_client(mode) as client:
        async with anyio.create_task_group() as tg:

            async def run_call() -> None:
                nonlocal finished
                await client.call_tool(
                    "slow_count", {"to": 60, "delay_seconds": 0.1}, progress_callback=on_progress
                )
                finished = True

            tg.start_soon(run_call)
            with anyio.fail_after(WAIT):
                await first_progress.wait()
            tg.cancel_scope.cancel()
        assert not finished

        # The server noticed: its activity log records the cancellation (waited for, not slept for).
        with anyio.fail_after(WAIT):
            while "slow_count cancelled at" not in (activity := await read_activity(client)):
                await anyio.sleep(0.05)
        assert "slow_count finished" not in activity
        # And the connection is still usable.
        assert (await client.call_tool("echo", {"message": "still here"})).is_error is False


async def test_capabilities_announce_what_the_server_sends(mode: str) -> None:
    async with demo_client(mode) as client:
        caps = client.server_capabilities
        assert caps.tools is not None and caps.tools.list_changed is True
        assert caps.resources is not None and caps.resources.subscribe is True


async def _subscribe(client: Client, uri: str, *, on: bool = True) -> None:
    # Raw requests: Client.subscribe_resource is marked deprecated (the 2026 era replaced it).
    if on:
        request: SubscribeRequest | UnsubscribeRequest = SubscribeRequest(
            params=SubscribeRequestParams(uri=uri)
        )
    else:
        request = UnsubscribeRequest(params=UnsubscribeRequestParams(uri=uri))
    await client.session.send_request(request, EmptyResult)


async def test_changing_a_note_notifies_its_subscribers(mode: str) -> None:
    updated: list[str] = []
    arrived = anyio.Event()

    async def on_message(message: IncomingMessage) -> None:
        nonlocal arrived
        if isinstance(message, ResourceUpdatedNotification):
            updated.append(str(message.params.uri))
            arrived.set()

    async with demo_client(mode, message_handler=on_message) as client:
        if mode == "legacy":
            await _subscribe(client, "demo://notes/shopping")
            await _subscribe(client, "demo://notes/welcome")
            await client.call_tool("add_note", {"name": "shopping", "text": "Tea."})
            with anyio.fail_after(WAIT):
                await arrived.wait()
            await _subscribe(client, "demo://notes/shopping", on=False)
            arrived = anyio.Event()
            await client.call_tool("add_note", {"name": "shopping", "text": "Cake."})  # no longer subscribed
            await client.call_tool("delete_note", {"name": "welcome"})
            with anyio.fail_after(WAIT):
                await arrived.wait()
            # One stream, in order: had the unsubscribed change been sent, it would be listed first.
            assert updated == ["demo://notes/shopping", "demo://notes/welcome"]
        else:
            async with client.listen(resource_subscriptions=["demo://notes/shopping"]) as subscription:
                await client.call_tool("add_note", {"name": "shopping", "text": "Tea."})
                with anyio.fail_after(WAIT):
                    event = await anext(subscription)
            assert type(event).__name__ == "ResourceUpdated"
            assert getattr(event, "uri", None) == "demo://notes/shopping"
