"""The engine's clocks and resource updates, against real SDK servers of both eras.

- A prompt or resource read that asks the person something (2025: an elicitation request in the
  middle of it; 2026-07-28: an input-required result) does not count the person's answering time
  against the server's timeout (it used to: a slow answer timed the read out).
- Progress restarts a call's timeout, but no longer without end: a call stops at its server's
  `call_limit` (default an hour) however often it reports progress.
- `ResourceUpdated` is published only for URIs the connection is subscribed to.
"""

from __future__ import annotations

import asyncio
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp.server.lowlevel.server import Server
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from app.mcp.connection import ServerConnection
from app.mcp.events import ConnectionState, Progress, ResourceUpdated
from app.mcp.handlers import ElicitationRequest, ElicitationResponse, SamplingRequest, SamplingResponse
from app.mcp.person_requests import DEFAULT_CALL_LIMIT, longest_call
from app.mcp.results import CallTimedOut
from app.mcp.target import Target
from tests.mcp.conftest import connected, sdk_target
from tests.servers.harness import EventLog

pytestmark = pytest.mark.anyio

TIMEOUT = 1.0
PERSON_TAKES = 2.0
"""The person answers after twice the server's timeout: a clock that counted them would run out."""

FORM = types.ElicitRequestFormParams(
    message="Which city?",
    requested_schema={"type": "object", "properties": {"city": {"type": "string", "default": "Oslo"}}},
)


def _server() -> Server[Any]:
    """A lowlevel SDK server whose prompt and resource ask the person first, and whose tools
    report progress forever or announce resource changes nobody asked for."""
    bus = InMemorySubscriptionBus()

    def modern(ctx: Any) -> bool:
        return ctx.protocol_version in MODERN_PROTOCOL_VERSIONS

    async def ask(ctx: Any, params: Any) -> str | types.InputRequiredResult:
        """The person's city: asked as the era asks (an input-required round, or a request)."""
        if modern(ctx):
            answer = (params.input_responses or {}).get("where")
            if answer is None:
                return types.InputRequiredResult(
                    input_requests={"where": types.ElicitRequest(params=FORM)}, request_state="r1"
                )
            return str((answer.content or {}).get("city"))
        result = await ctx.session.send_request(types.ElicitRequest(params=FORM), types.ElicitResult)
        return str((result.content or {}).get("city"))

    async def get_prompt(ctx: Any, params: types.GetPromptRequestParams) -> Any:
        city = await ask(ctx, params)
        if isinstance(city, types.InputRequiredResult):
            return city
        text = types.TextContent(type="text", text=f"Visit {city}")
        return types.GetPromptResult(messages=[types.PromptMessage(role="user", content=text)])

    async def read_resource(ctx: Any, params: types.ReadResourceRequestParams) -> Any:
        city = await ask(ctx, params)
        if isinstance(city, types.InputRequiredResult):
            return city
        return types.ReadResourceResult(contents=[types.TextResourceContents(uri=str(params.uri), text=city)])

    async def list_prompts(ctx: Any, params: Any) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=[types.Prompt(name="trip")])

    async def list_resources(ctx: Any, params: Any) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[types.Resource(uri="mem://city", name="city")])

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[types.Tool(name="forever", input_schema={"type": "object"})])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        step = 0
        while True:  # alive, busy, never done: a server stuck in a loop that reports progress
            step += 1
            await ctx.session.report_progress(step, None, f"step {step}")
            await anyio.sleep(0.05)

    return Server(
        "split-seams",
        on_get_prompt=get_prompt,
        on_list_prompts=list_prompts,
        on_read_resource=read_resource,
        on_list_resources=list_resources,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_subscriptions_listen=ListenHandler(bus),
    )


class SlowPerson:
    """Answers every form with its defaults, after PERSON_TAKES seconds."""

    def __init__(self) -> None:
        self.asked = 0

    async def elicit(self, server: str, request: ElicitationRequest) -> ElicitationResponse:
        self.asked += 1
        await anyio.sleep(PERSON_TAKES)
        return ElicitationResponse("accept", dict(request.defaults))

    async def sample(self, server: str, request: SamplingRequest) -> SamplingResponse:
        return SamplingResponse("decline")


async def _connect(mode: str, **kw: Any) -> ServerConnection:
    target = Target(name="seams", transport="stdio", command="unused", mode=mode, timeout=TIMEOUT, **kw)
    conn = ServerConnection(target, server=_server(), handlers=SlowPerson())
    conn.start()
    assert await conn.wait_settled(30) == ConnectionState.READY, conn.reason
    return conn


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_a_slow_person_does_not_time_out_a_prompt_or_a_read(mode: str) -> None:
    conn = await _connect(mode)
    try:
        assert (conn.protocol_version in MODERN_PROTOCOL_VERSIONS) == (mode == "auto")
        prompt = await conn.get_prompt("trip")
        assert prompt["messages"][0]["content"]["text"] == "Visit Oslo"
        read = await conn.read_resource("mem://city")
        assert read["contents"][0]["text"] == "Oslo"
        assert conn.handlers.asked == 2  # type: ignore[attr-defined]
    finally:
        await conn.stop()


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_progress_forever_stops_at_the_call_limit(mode: str) -> None:
    events = EventLog()
    conn = await _connect(mode, call_limit=3 * TIMEOUT)
    conn.add_sink(events)
    try:
        with pytest.raises(CallTimedOut, match="the longest a call may run"):
            # Without a cap the call never ends: wait_for makes that a failure, not a hang.
            await asyncio.wait_for(conn.call_tool("forever", {}, call_id="f"), 60)
        # It ran on progress past its plain timeout before the cap stopped it.
        assert len(events.of(Progress)) > 1
        assert conn.state == ConnectionState.READY  # one call stopped, the connection kept
    finally:
        await conn.stop()


def test_the_call_limit_defaults_to_an_hour_and_never_undercuts_the_timeout() -> None:
    plain = Target(name="t", transport="stdio", command="x")
    assert DEFAULT_CALL_LIMIT == 3600.0
    assert longest_call(plain, 60.0) == 3600.0
    assert longest_call(Target(name="t", transport="stdio", command="x", call_limit=120.0), 60.0) == 120.0
    assert longest_call(Target(name="t", transport="stdio", command="x", call_limit=10.0), 60.0) == 60.0


async def test_an_unlimited_clock_stays_unlimited_after_a_person_answers() -> None:
    from app.mcp.person_requests import CallClock

    clock = CallClock(1.0, 5.0)
    clock.unlimited()
    clock.pause()
    clock.resume()
    clock.alive()
    assert clock.deadline == float("inf") and not clock.capped


async def test_one_timer_runs_out_every_clock_of_a_connection_at_its_own_deadline() -> None:
    """The shared timer (ClockWatch) is armed for the earliest deadline; a clock that ends first
    leaves it armed, a later one is still run out at its own time, progress moves it later."""
    import anyio

    from app.mcp.person_requests import CallClock, ClockWatch

    watch = ClockWatch()
    quick = CallClock(0.05, 5.0, home=watch)
    slow = CallClock(0.2, 5.0, home=watch)
    quick_ended = anyio.Event()

    async def request(clock: CallClock) -> None:
        with clock:
            await anyio.sleep_forever()
        if clock is quick:
            quick_ended.set()

    with anyio.fail_after(5):
        async with anyio.create_task_group() as tg:
            tg.start_soon(request, quick)
            tg.start_soon(request, slow)
            done = CallClock(0.01, 5.0, home=watch)
            with done:
                pass  # answered in time: never run out
            await quick_ended.wait()
            assert quick.timed_out and not slow.expired
            before = slow.deadline
            slow.alive()  # progress: a fresh budget
            assert slow.deadline >= before
    assert slow.timed_out and not done.expired and not done.timed_out
    assert anyio.current_time() >= before
    assert len(watch) == 0
    watch.close()


def test_the_call_limit_is_a_server_setting() -> None:
    from app.config.model import ServerEntry, ServerSettings
    from app.mcp.target import target_from_config

    entry = ServerEntry.from_json("s", {"command": "echo"})
    settings = ServerSettings.from_json({"timeout": 30, "call_limit": 900})
    assert settings.to_json()["call_limit"] == 900  # kept in settings.json as written
    assert target_from_config(entry, settings, None).call_limit == 900.0
    assert target_from_config(entry, ServerSettings(), None).call_limit is None
    for wrong in ("soon", -1, True):
        odd = ServerSettings.from_json({"call_limit": wrong})
        assert target_from_config(entry, odd, None).call_limit is None


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_resource_updates_only_for_subscribed_uris(mode: str) -> None:
    """The engine test server (stdio) announces whatever URI `touch` names, subscribed or not."""
    events = EventLog()
    async with connected(sdk_target(mode=mode), events) as conn:
        await conn.call_tool("touch", {"uri": "mem://b"})  # nobody follows mem://b
        await conn.subscribe_resource("mem://a")
        await conn.call_tool("touch", {"uri": "mem://b"})
        await conn.call_tool("touch", {"uri": "mem://a"})
        await events.wait_until(lambda: events.of(ResourceUpdated))
        # One stream, in order: an update of mem://b would have been published before mem://a.
        assert [e.uri for e in events.of(ResourceUpdated)] == ["mem://a"]
        await conn.unsubscribe_resource("mem://a")
        await conn.subscribe_resource("mem://c")
        await conn.call_tool("touch", {"uri": "mem://a"})  # no longer followed
        await conn.call_tool("touch", {"uri": "mem://c"})
        await events.wait_until(lambda: len(events.of(ResourceUpdated)) >= 2)
        assert [e.uri for e in events.of(ResourceUpdated)] == ["mem://a", "mem://c"]


async def test_a_clock_that_runs_out_ends_its_block_and_a_cancel_from_elsewhere_goes_on() -> None:
    """CallClock cancels the task of its block (app/mcp/person_requests.py): the block
    ends timed out and the task goes on, uncancelled; a task that is also cancelled by someone
    else (a person) stays cancelled; a clock times one block only and leaves the watch."""
    import asyncio

    import anyio

    from app.mcp.person_requests import CallClock, ClockWatch

    watch = ClockWatch()
    first = CallClock(0.01, 60.0, home=watch)
    with anyio.fail_after(5):
        with first:
            assert len(watch) == 1 and first.watch is watch
            await anyio.sleep_forever()
    assert first.timed_out and len(watch) == 0 and first.watch is None
    task = asyncio.current_task()
    assert task is not None and task.cancelling() == 0  # taken back: the task goes on
    await anyio.sleep(0)  # and is not cancelled at its next await
    with pytest.raises(RuntimeError), first:
        pass  # a clock times one block
    assert len(watch) == 0

    async def both_cancel() -> None:
        clock = CallClock(0.01, 60.0, home=watch)
        with clock:
            try:
                await anyio.sleep_forever()
            finally:
                assert clock.expired
                me = asyncio.current_task()
                assert me is not None
                me.cancel()  # a person cancels meanwhile
                await anyio.sleep(0.01)

    with pytest.raises(asyncio.CancelledError):
        await asyncio.create_task(both_cancel())

    # A task being cancelled already (the SDK then tells the server in a shielded write) is
    # left to that cancellation: the clock does not cancel it a second time.
    late = CallClock(60.0, 60.0, home=watch)

    async def cancelled_first() -> None:
        with late:
            try:
                await anyio.sleep_forever()
            finally:
                late.run_out()
                assert not late.expired
                await asyncio.sleep(0)

    other = asyncio.create_task(cancelled_first())
    await asyncio.sleep(0)
    other.cancel()
    with pytest.raises(asyncio.CancelledError):
        await other
    assert not late.timed_out and len(watch) == 0
    watch.close()
