"""ServerConnection against a real SDK server over stdio, in both protocol eras."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import pytest

from app.mcp.connection import ServerConnection
from app.mcp.events import (
    CatalogChanged,
    ConnectionState,
    LogLine,
    Progress,
    ResourceUpdated,
    StateChanged,
    Traffic,
)
from app.mcp.handlers import (
    ElicitationRequest,
    ElicitationResponse,
    HeadlessHandlers,
    SamplingRequest,
    SamplingResponse,
)
from app.mcp.results import CallFailed, CallTimedOut, NotConnected, ToolCallResult, ToolGone
from app.mcp.stdio import group_alive
from app.mcp.target import Target
from tests.mcp.conftest import EXPECTED_VERSION, MODES, connected, sdk_target
from tests.servers.harness import EventLog
from tests.servers.process import wait_no_processes

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("mode", [*MODES, "2026-07-28"])  # the last: a version pin, no probe
async def test_states_and_server_info(mode: str) -> None:
    events = EventLog()
    conn = ServerConnection(sdk_target(mode=mode), sink=events)
    assert conn.state == ConnectionState.IDLE
    conn.start()
    assert conn.state == ConnectionState.CONNECTING
    assert await conn.wait_settled(30) == ConnectionState.READY, conn.reason
    assert conn.protocol_version == EXPECTED_VERSION[mode]
    assert conn.server_info is not None
    assert (conn.server_info.name, conn.server_info.title, conn.server_info.version) == (
        "engine-test-server",
        "Engine Test Server",
        "1.2.3",
    )
    assert {"tools", "resources", "prompts"} <= set(conn.capabilities)
    assert conn.instructions == "Use echo to test."
    assert "echo" in conn.catalog.tools and conn.catalog.prompts
    await conn.stop()
    assert conn.state == ConnectionState.CLOSED
    states = [e.state for e in events.of(StateChanged)]
    assert states == [ConnectionState.CONNECTING, ConnectionState.READY, ConnectionState.CLOSED]


@pytest.mark.parametrize("mode", MODES)
async def test_catalog_lists_every_kind_and_every_page(mode: str) -> None:
    # 18 built-in tools + 250 generated ones in pages of 7: 38 pages, all followed.
    target = sdk_target("paged", mode, "--extra-tools", "250", "--page-size", "7")
    async with connected(target) as conn:
        assert len(conn.catalog.tools) == 268
        assert "tool_00249" in conn.catalog.tools
        assert list(conn.catalog.resources) == ["mem://a", "mem://b"]
        assert list(conn.catalog.resource_templates) == ["mem://item/{id}"]
        assert list(conn.catalog.prompts) == ["greet"]
        tool = conn.catalog.tools["add"]
        assert tool.output_schema == {
            "type": "object",
            "properties": {"sum": {"type": "number"}},
            "required": ["sum"],
        }
        assert tool.raw["inputSchema"]["properties"]["a"] == {"type": "number"}
        assert conn.refresh_counts["tools"] == 1


@pytest.mark.parametrize("mode", MODES)
async def test_results_tool_error_and_failed_call_stay_distinct(mode: str) -> None:
    async with connected(sdk_target(mode=mode)) as conn:
        ok = await conn.call_tool("add", {"a": 2, "b": 3})
        assert not ok.is_error
        assert ok.structured_content == {"sum": 5}
        assert ok.structured_valid is True and ok.structured_error is None
        assert ok.text() == "5"
        assert ok.elapsed > 0

        bad = await conn.call_tool("bad_output")
        assert bad.structured_valid is False
        assert "not of type 'number'" in (bad.structured_error or "")

        plain = await conn.call_tool("echo", {"text": "hi"})
        assert plain.structured_valid is None  # no output schema: nothing to check

        tool_error = await conn.call_tool("fail")
        assert tool_error.is_error is True
        assert tool_error.text() == "it broke"

        blocks = await conn.call_tool("image")
        assert [b["type"] for b in blocks.content] == ["image", "audio", "resource_link", "resource"]
        assert blocks.content[3]["resource"]["text"] == "bee"


@pytest.mark.parametrize("mode", MODES)
async def test_progress_events(mode: str) -> None:
    events = EventLog()
    async with connected(sdk_target(mode=mode), events) as conn:
        result = await conn.call_tool("slow", {"steps": 4, "delay": 0.01}, call_id="c1")
        assert result.text() == "done"
        progress = events.of(Progress)
        assert [(p.call_id, p.progress, p.total) for p in progress] == [
            ("c1", float(i), 4.0) for i in range(1, 5)
        ]
        assert progress[-1].message == "step 4"


@pytest.mark.parametrize("mode", MODES)
async def test_timeout_cancels_the_call_on_the_server(mode: str, tmp_path: Path) -> None:
    marker = tmp_path / "cancelled"
    async with connected(sdk_target(mode=mode)) as conn:
        with pytest.raises(CallTimedOut) as info:
            await conn.call_tool("hang", {"marker": str(marker)}, timeout=0.3)
        assert "did not answer within 0.3 s" in str(info.value)
        # The server got notifications/cancelled and unwound the tool: its finally wrote the file.
        await _wait_file(marker)
        assert (await conn.call_tool("echo", {"text": "still fine"})).text() == "echo: still fine"


async def test_progress_extends_the_timeout() -> None:
    async with connected(sdk_target()) as conn:
        # 8 steps of 0.15 s = 1.2 s in total, twice the 0.6 s timeout; every step resets it.
        result = await conn.call_tool("slow", {"steps": 8, "delay": 0.15}, timeout=0.6)
        assert result.text() == "done"


@pytest.mark.parametrize("mode", MODES)
async def test_cancelling_the_caller_cancels_on_the_server(mode: str, tmp_path: Path) -> None:
    marker = tmp_path / "cancelled"
    events = EventLog()
    async with connected(sdk_target(mode=mode), events) as conn:
        task = asyncio.create_task(conn.call_tool("hang", {"marker": str(marker)}))
        await events.wait_until(lambda: any(e.text == "hang: started" for e in events.of(LogLine)))
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await _wait_file(marker)
        sent = [t.message for t in events.of(Traffic) if t.direction == "out"]
        assert any(m.get("method") == "notifications/cancelled" for m in sent)


@pytest.mark.parametrize("mode", MODES)
async def test_list_changed_burst_is_debounced_into_one_or_two_refreshes(mode: str) -> None:
    events = EventLog()
    async with connected(sdk_target(mode=mode), events) as conn:
        assert conn.refresh_counts["tools"] == 1
        assert [e.kind for e in events.of(CatalogChanged)] == [
            "tools",
            "resources",
            "resource_templates",
            "prompts",
        ]
        events.events.clear()
        await conn.call_tool("mutate", {"action": "add", "name": "fresh"})
        await conn.call_tool("burst", {"count": 100})
        changed = await events.wait_until(lambda: [e for e in events.of(CatalogChanged) if e.kind == "tools"])
        assert changed[0].diff.added == ("fresh",)
        assert "fresh" in conn.catalog.tools
        assert 2 <= conn.refresh_counts["tools"] <= 3  # the initial listing + one or two refreshes


@pytest.mark.parametrize("mode", MODES)
async def test_catalog_diff_reports_changed_description(mode: str) -> None:
    events = EventLog()
    async with connected(sdk_target(mode=mode), events) as conn:
        await conn.call_tool("mutate", {"action": "describe", "name": "echo"})
        await conn.call_tool("mutate", {"action": "remove", "name": "fail"})
        diffs = await conn.refresh("tools")
        assert diffs["tools"].changed == ("echo",)
        assert diffs["tools"].removed == ("fail",)
        assert conn.catalog.tools["echo"].description == "changed description"


@pytest.mark.parametrize("mode", MODES)
async def test_vanished_tool_triggers_one_rediscovery(mode: str) -> None:
    async with connected(sdk_target(mode=mode)) as conn:
        # Renamed behind our back (no notification): the call fails, one re-listing finds the successor.
        await conn.call_tool("mutate", {"action": "rename", "name": "add", "new_name": "plus"})
        with pytest.raises(ToolGone) as renamed:
            await conn.call_tool("add", {"a": 1, "b": 1})
        assert renamed.value.renamed_to == "plus"
        assert "plus" in conn.catalog.tools and "add" not in conn.catalog.tools

        await conn.call_tool("mutate", {"action": "remove", "name": "roots"})
        with pytest.raises(ToolGone) as gone:
            await conn.call_tool("roots")
        assert gone.value.renamed_to is None
        assert str(gone.value) == "sdk/roots no longer exists on the server"
        with pytest.raises(ToolGone) as never:
            await conn.call_tool("never_was")
        assert str(never.value) == "sdk has no tool named 'never_was'"


@pytest.mark.parametrize("mode", MODES)
async def test_json_rpc_error_is_a_failed_call(mode: str) -> None:
    async with connected(sdk_target(mode=mode)) as conn:
        with pytest.raises(CallFailed) as info:
            await conn.call_tool("rpc_error")
        assert not isinstance(info.value, ToolGone)
        assert info.value.code == -32602
        assert "x must be positive" in str(info.value)
        with pytest.raises(CallFailed) as missing:
            await conn.read_resource("mem://missing")
        assert missing.value.code == -32002
        assert conn.refresh_counts["tools"] == 1  # not an unknown tool: no re-discovery


async def test_resources_prompts_completion_ping_and_log_level() -> None:
    events = EventLog()
    async with connected(sdk_target(), events) as conn:
        read = await conn.read_resource("mem://a")
        assert read["contents"][0]["text"] == "content of mem://a"
        prompt = await conn.get_prompt("greet", {"name": "Ada"})
        assert prompt["messages"][0]["content"]["text"] == "Hello Ada"
        assert await conn.complete({"type": "ref/prompt", "name": "greet"}, "name", "al") == ["alice", "alex"]
        assert await conn.ping() > 0
        await conn.subscribe_resource("mem://a")
        await conn.call_tool("touch", {"uri": "mem://a"})
        updated = await events.wait_until(lambda: events.of(ResourceUpdated))
        assert updated[0].uri == "mem://a"
        await conn.unsubscribe_resource("mem://a")
        # This server has no logging capability: the level is kept, nothing is sent (it would
        # only earn a JSON-RPC error); tests/mcp/test_log_level.py has servers that log.
        await conn.set_log_level("debug")
        assert conn.log_level.chosen == "debug"


async def test_modern_resource_subscription_goes_through_listen() -> None:
    events = EventLog()
    async with connected(sdk_target(mode="auto"), events) as conn:
        assert conn.protocol_version == "2026-07-28"
        await conn.subscribe_resource("mem://b")  # returns once the server acknowledged the new stream
        sent = [t.message for t in events.of(Traffic) if t.direction == "out"]
        assert any(m.get("method") == "subscriptions/listen" and "mem://b" in json.dumps(m) for m in sent)
        await conn.call_tool("touch", {"uri": "mem://b"})
        updated = await events.wait_until(lambda: events.of(ResourceUpdated))
        assert updated[0].uri == "mem://b"


class RecordingHandlers:
    def __init__(self) -> None:
        self.elicitations: list[ElicitationRequest] = []
        self.samplings: list[SamplingRequest] = []

    async def elicit(self, server: str, request: ElicitationRequest) -> ElicitationResponse:
        self.elicitations.append(request)
        return ElicitationResponse("accept", {**request.defaults, "nights": 5})

    async def sample(self, server: str, request: SamplingRequest) -> SamplingResponse:
        self.samplings.append(request)
        return SamplingResponse("accept", {"type": "text", "text": "hello from the model"})


async def test_elicitation_and_sampling_go_to_the_handlers() -> None:
    handlers = RecordingHandlers()
    async with connected(sdk_target(), handlers=handlers) as conn:
        answer = json.loads((await conn.call_tool("elicit")).text())
        assert answer == {"action": "accept", "content": {"city": "Paris", "nights": 5}}
        request = handlers.elicitations[0]
        assert request.mode == "form" and request.message == "Where to?"
        assert request.defaults == {"city": "Paris", "nights": 2}
        assert (await conn.call_tool("sample")).text() == "model said: hello from the model"
        assert handlers.samplings[0].messages[0]["content"]["text"] == "hi"


class BrokenHandlers:
    async def elicit(self, server: str, request: ElicitationRequest) -> ElicitationResponse:
        raise RuntimeError("no form today")

    async def sample(self, server: str, request: SamplingRequest) -> SamplingResponse:
        raise RuntimeError("no model today")


async def test_a_handler_that_raises_answers_the_server_with_an_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async with connected(sdk_target(), handlers=BrokenHandlers()) as conn:
        assert (
            await conn.call_tool("sample")
        ).text() == "declined: the client could not sample: no model today"
        with pytest.raises(CallFailed, match="the client could not ask: no form today"):
            await conn.call_tool("elicit")  # the test server does not catch the error it gets
        assert (await conn.call_tool("sample")).text().startswith("declined:")  # still connected
    assert "sampling handler failed" in caplog.text and "elicitation handler failed" in caplog.text


@pytest.mark.parametrize(("accept", "expected"), [(True, "accept"), (False, "decline")])
async def test_headless_handlers(accept: bool, expected: str) -> None:
    async with connected(sdk_target(), handlers=HeadlessHandlers(accept_defaults=accept)) as conn:
        answer = json.loads((await conn.call_tool("elicit")).text())
        assert answer["action"] == expected
        if accept:
            assert answer["content"] == {"city": "Paris", "nights": 2}
        assert (await conn.call_tool("sample")).text().startswith("declined:")


async def test_headless_defaults_that_miss_a_required_field_are_declined(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async with connected(sdk_target(), handlers=HeadlessHandlers(accept_defaults=True)) as conn:
        answer = json.loads((await conn.call_tool("elicit", {"also_require": "country"})).text())
        assert answer == {"action": "decline", "content": None}
    assert "country: no default" in caplog.text
    assert "city" not in caplog.text  # it has a default


async def test_roots_and_roots_list_changed(tmp_path: Path) -> None:
    events = EventLog()
    first, second = tmp_path / "one", tmp_path / "two"
    async with connected(sdk_target(roots=(str(first),)), events) as conn:
        assert json.loads((await conn.call_tool("roots")).text()) == [first.as_uri()]
        await conn.set_roots((str(first), str(second)))
        sent = [t.message.get("method") for t in events.of(Traffic) if t.direction == "out"]
        assert "notifications/roots/list_changed" in sent
        assert json.loads((await conn.call_tool("roots")).text()) == [first.as_uri(), second.as_uri()]


@pytest.mark.parametrize("mode", MODES)
async def test_server_log_messages_and_stderr_lines(mode: str) -> None:
    events = EventLog()
    target = sdk_target("logs", mode, "--stderr-banner", "booting up")
    async with connected(target, events) as conn:
        await conn.call_tool("log", {"level": "warning", "text": "careful"})
        await conn.call_tool("stderr", {"text": "a line on stderr"})
        await events.wait_until(lambda: any(e.text == "a line on stderr" for e in events.of(LogLine)))
        await events.wait_until(lambda: any(e.source == "server" for e in events.of(LogLine)))
        lines = events.of(LogLine)
        server = [e for e in lines if e.source == "server"]
        assert server[0].level == "warning" and server[0].text == "[test] careful"
        assert any(e.source == "stderr" and e.text == "booting up" for e in lines)
        assert conn.process is not None and "a line on stderr" in conn.process.stderr_tail


async def test_traffic_is_recorded_with_secrets_masked() -> None:
    events = EventLog()
    target = sdk_target(secret_values=frozenset({"hunter2-secret"}), env={"API_KEY": "hunter2-secret"})
    async with connected(target, events) as conn:
        await conn.call_tool("echo", {"text": "my key is hunter2-secret"})
        traffic = events.of(Traffic)
        assert {t.direction for t in traffic} == {"in", "out"}
        blob = json.dumps([t.message for t in traffic], ensure_ascii=False)
        assert "tools/call" in blob and "tools/list" in blob
        assert "hunter2-secret" not in blob
        assert "my key is ••••••" in blob


async def test_a_result_is_masked_when_made_with_secrets_and_in_wire_form_when_read_without() -> None:
    """A result holds the SDK's answer until read (app/mcp/results.py) only when there is no
    secret to mask; with secrets it is dumped and masked at once, never held as sent."""
    target = sdk_target(secret_values=frozenset({"hunter2-secret"}), env={"API_KEY": "hunter2-secret"})
    async with connected(target) as conn:
        result = await conn.call_tool("echo", {"text": "my key is hunter2-secret"})
        assert result._answer is None and result._raw is not None  # no answer kept in clear
        assert "hunter2-secret" not in json.dumps([result.raw, result.content, result.text()])
        assert result.text() == "echo: my key is ••••••"
    async with connected(sdk_target()) as conn:
        result = await conn.call_tool("echo", {"text": "plain"})
        assert result._raw is None  # not dumped yet
        assert result.content == [{"type": "text", "text": "echo: plain"}] == result.raw["content"]
        assert not result.is_error and result.structured_valid is None and result.text() == "echo: plain"
        summed = await conn.call_tool("add", {"a": 2, "b": 3})
        assert summed.structured_content == {"sum": 5} == summed.raw["structuredContent"]
        assert summed.structured_valid is True
        same = ToolCallResult(summed.content, False, {"sum": 5}, True, None, summed.elapsed, dict(summed.raw))
        assert same == summed and "sum" in repr(summed)


async def test_traffic_is_masked_when_recorded_with_secrets_and_put_in_wire_form_when_read_without() -> None:
    """A Traffic event keeps the SDK's message until read (app/mcp/events.py) only when the
    server has no secret to mask; with secrets the event holds the masked dict from the start."""
    events = EventLog()
    target = sdk_target(secret_values=frozenset({"hunter2-secret"}), env={"API_KEY": "hunter2-secret"})
    async with connected(target, events) as conn:
        await conn.call_tool("echo", {"text": "my key is hunter2-secret"})
        traffic = events.of(Traffic)
        assert traffic and all(t._source is None and t._message is not None for t in traffic)
    events = EventLog()
    async with connected(sdk_target(), events) as conn:
        await conn.call_tool("echo", {"text": "plain"})
        calls = [t for t in events.of(Traffic) if t._source is not None and t.time]
        assert len(calls) == len(events.of(Traffic)) and all(t._message is None for t in calls)
        sent = [t.message for t in calls if t.direction == "out" and t.message.get("method") == "tools/call"]
        assert sent[-1]["params"]["arguments"] == {"text": "plain"} and sent[-1]["jsonrpc"] == "2.0"
        read = [t.message for t in calls if t.direction == "in" and "content" in t.message.get("result", {})]
        assert read[-1]["result"]["content"] == [{"type": "text", "text": "echo: plain"}]
        assert calls[0].message is calls[0].message  # made once


async def test_traffic_without_secrets_still_cuts_long_strings_both_ways() -> None:
    # Without secrets, a message read whose whole line is short is not walked (no string in it can
    # be long): the long answer below must still be cut, and so must the request that carried it.
    from app.mcp.masking import MAX_TRAFFIC_STRING

    events = EventLog()
    long_text = "z" * (MAX_TRAFFIC_STRING + 500)
    async with connected(sdk_target(), events) as conn:
        result = await conn.call_tool("echo", {"text": long_text})
        assert long_text in result.text()  # the result itself is whole: only the log is cut
        calls = [t for t in events.of(Traffic) if long_text[:1000] in json.dumps(t.message)]
        assert {t.direction for t in calls} == {"in", "out"}
        for t in calls:
            blob = json.dumps(t.message)
            assert "z" * (MAX_TRAFFIC_STRING + 1) not in blob and "more characters)" in blob
        short = [
            t for t in events.of(Traffic) if t.direction == "in" and "tools" in t.message.get("result", {})
        ]
        assert short and short[0].message["result"]["tools"]  # the listing, short, passed on as read


async def test_a_long_answer_is_cut_when_recorded_not_kept_whole_until_read() -> None:
    # A log nobody reads (the window's dock is hidden) must not hold a server's huge message whole:
    # an answer longer than the cut-off is put in wire form, cut, as it is recorded.
    from app.mcp.masking import MAX_TRAFFIC_STRING

    events = EventLog()
    long_text = "y" * (MAX_TRAFFIC_STRING * 4)
    async with connected(sdk_target(), events) as conn:
        await conn.call_tool("echo", {"text": long_text})
        answers = [t for t in events.of(Traffic) if t.direction == "in" and t._message is not None]
        long_ones = [t for t in answers if "more characters)" in json.dumps(t._message)]
        assert long_ones and all(t._source is None for t in long_ones)
        assert all("y" * (MAX_TRAFFIC_STRING + 1) not in json.dumps(t._message) for t in long_ones)


async def test_crash_mid_call_fails_the_call_and_the_connection(token: str) -> None:
    events = EventLog()
    async with connected(sdk_target(token=token), events) as conn:
        with pytest.raises(CallFailed) as failure:
            await conn.call_tool("exit", {"code": 3})
        assert str(failure.value) == "calling exit failed: the connection to the server was lost"
        await events.wait_until(lambda: conn.state == ConnectionState.FAILED)
        assert conn.reason is not None and "exited with code 3" in conn.reason
        assert conn.was_ready
        with pytest.raises(NotConnected):
            await conn.call_tool("echo")
    assert wait_no_processes(token, 5) == []


async def test_stop_leaves_no_process(token: str) -> None:
    async with connected(sdk_target(token=token)) as conn:
        assert conn.process is not None and conn.process.pid is not None
        pid = conn.process.pid
        assert group_alive(pid)
    assert conn.state == ConnectionState.CLOSED
    assert not group_alive(pid)
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    assert wait_no_processes(token, 5) == []


async def test_stop_kills_a_server_that_ignores_stdin_and_sigterm(token: str, tmp_path: Path) -> None:
    # A stubborn server: answers initialize, then ignores EOF and SIGTERM; and it has a grandchild.
    script = tmp_path / "stubborn.py"
    script.write_text(
        "import signal, subprocess, sys, time\n"
        "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "subprocess.Popen([sys.executable, '-c', 'import time, signal; "
        "signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(300)'])\n"
        f"sys.path.insert(0, {str(Path(__file__).parents[2])!r})\n"
        "import runpy; sys.argv = ['sdk_server']\n"
        "import threading\n"
        "runpy.run_path(" + repr(str(Path(__file__).with_name("sdk_server.py"))) + ", run_name='__main__')\n"
        "time.sleep(300)\n"
    )
    target = Target(
        name="stubborn",
        transport="stdio",
        command=sys.executable,
        args=(str(script),),
        env={"MCP_DESK_TEST_PROCESS": token},
    )
    async with connected(target) as conn:
        pid = conn.process.pid if conn.process else None
    assert pid is not None and not group_alive(pid)
    assert wait_no_processes(token, 5) == []


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        (
            Target(name="x", transport="stdio", command="no-such-command-mcp-desk"),
            "command not found: no-such-command-mcp-desk",
        ),
        (
            Target(
                name="x",
                transport="stdio",
                command=sys.executable,
                args=("-c", "import sys; print('boom', file=sys.stderr); sys.exit(4)"),
            ),
            "exited with code 4 — last stderr: boom",
        ),
        (
            Target(
                name="x",
                transport="stdio",
                command=sys.executable,
                args=("-c", "import sys; print('bad key sk-SECRET-1', file=sys.stderr); sys.exit(2)"),
                secret_values=frozenset({"sk-SECRET-1"}),
            ),
            "exited with code 2 — last stderr: bad key ••••••",
        ),
        (
            Target(name="x", transport="stdio", command=sys.executable, cwd="/no/such/dir"),
            "working directory does not exist: /no/such/dir",
        ),
        (
            Target(
                name="x",
                transport="stdio",
                command=sys.executable,
                args=("-c", "print('hello world', flush=True); import time; time.sleep(30)"),
                timeout=3.0,
            ),
            # Not at the 3 s timeout: NOT_MCP_GRACE after the stray line (tests/mcp/test_not_mcp.py).
            "this does not look like an MCP server: it printed “hello world” instead of answering",
        ),
        (
            Target(name="x", transport="http", url="http://127.0.0.1:9/mcp"),
            "could not connect to http://127.0.0.1:9/mcp",
        ),
        (
            Target(name="x", transport="stdio", command=sys.executable, mode="1999-01-01"),
            "unknown protocol mode",
        ),
    ],
    ids=["not-found", "exits", "exits-secret-masked", "bad-cwd", "stdout-noise", "http-refused", "bad-mode"],
)
async def test_failure_reasons_a_person_can_act_on(target: Target, expected: str) -> None:
    conn = ServerConnection(target)
    conn.start()
    assert await conn.wait_settled(20) == ConnectionState.FAILED
    assert conn.reason is not None and expected in conn.reason
    assert not conn.was_ready
    await conn.stop()
    assert conn.state == ConnectionState.CLOSED


async def _wait_file(path: Path, timeout: float = 10.0) -> None:
    async def loop() -> None:
        while not path.exists():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(loop(), timeout)


async def test_input_required_round_trip_over_the_wire() -> None:
    handlers = RecordingHandlers()
    async with connected(sdk_target(mode="auto"), handlers=handlers) as conn:
        assert conn.protocol_version == "2026-07-28"
        result = await conn.call_tool("ask")
        assert json.loads(result.text()) == {"action": "accept", "content": {"city": "Oslo", "nights": 5}}
        assert handlers.elicitations[0].defaults == {"city": "Oslo"}


class SlowPerson(RecordingHandlers):
    """Answers like a person: after longer than the call's whole timeout."""

    def __init__(self, think: float) -> None:
        super().__init__()
        self.think = think

    async def elicit(self, server: str, request: ElicitationRequest) -> ElicitationResponse:
        # The delay is the behaviour under test (a person taking their time), not a synchronisation.
        await asyncio.sleep(self.think)
        return await super().elicit(server, request)


@pytest.mark.parametrize("mode", MODES)
async def test_call_timeout_pauses_while_a_person_answers(mode: str) -> None:
    handlers = SlowPerson(think=1.6)
    tool = "elicit" if mode == "legacy" else "ask"
    async with connected(sdk_target(mode=mode), handlers=handlers) as conn:
        result = await conn.call_tool(tool, timeout=1.0)
        assert json.loads(result.text())["action"] == "accept"
        # The clock still runs for the server itself.
        with pytest.raises(CallTimedOut):
            await conn.call_tool("hang", timeout=0.3)


@pytest.mark.parametrize("mode", MODES)
async def test_concurrent_calls_from_many_tasks(mode: str) -> None:
    async with connected(sdk_target(mode=mode)) as conn:
        results = await asyncio.gather(*(conn.call_tool("echo", {"text": str(i)}) for i in range(50)))
        assert [r.text() for r in results] == [f"echo: {i}" for i in range(50)]


async def test_a_malformed_tool_is_left_out_not_fatal() -> None:
    # The SDK server refuses to send a malformed tool, so the page is handed over directly.
    events = EventLog()
    async with connected(sdk_target(mode="auto"), events) as conn:
        page = {
            "tools": [
                {"name": "fine", "inputSchema": {"type": "object"}},
                {"name": "broken", "inputSchema": "not a schema"},
            ]
        }
        parsed = conn._parse_tools_page(page)
        assert [t.name for t in parsed.tools] == ["fine"]
        assert any("ignoring malformed tool 'broken'" in line.text for line in events.of(LogLine))
