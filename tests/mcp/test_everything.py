"""The engine against the reference server `@modelcontextprotocol/server-everything` (Node), over
stdio (both connect modes), Streamable HTTP and SSE, bound to 127.0.0.1."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from app.mcp.events import Progress, Traffic
from app.mcp.handlers import ElicitationRequest, ElicitationResponse, SamplingRequest, SamplingResponse
from app.mcp.results import CallTimedOut
from app.mcp.target import Target
from tests.conftest import skip_or_fail
from tests.mcp.conftest import connected
from tests.servers.harness import EventLog
from tests.servers.process import TOKEN_VAR, wait_no_processes

pytestmark = [pytest.mark.anyio, pytest.mark.node]

KINDS = ["stdio-legacy", "stdio-auto", "http", "sse"]


def _everything() -> Any:
    try:
        from tests.servers import everything
        from tests.servers.node import NodeToolsUnavailable

        try:
            everything.node22()
        except NodeToolsUnavailable as exc:
            skip_or_fail(f"npm test servers not installed: {exc}")
        if not everything.EVERYTHING_JS.is_file():
            skip_or_fail("server-everything is not installed in tests/node")
    except ImportError as exc:
        skip_or_fail(f"tests/servers is not available: {exc}")
    return everything


@contextmanager
def everything_target(kind: str, token: str, **kw: Any) -> Iterator[Target]:
    everything = _everything()
    if kind.startswith("stdio"):
        argv = everything.stdio_argv()
        yield Target(
            name="everything",
            transport="stdio",
            command=argv[0],
            args=tuple(argv[1:]),
            env={TOKEN_VAR: token},
            mode=kind.split("-")[1],
            **kw,
        )
        return
    with everything.start_http("streamableHttp" if kind == "http" else "sse") as server:
        yield Target(name="everything", transport="http" if kind == "http" else "sse", url=server.url, **kw)


@pytest.mark.parametrize("kind", KINDS)
async def test_catalog_and_calls(kind: str, token: str) -> None:
    events = EventLog()
    with everything_target(kind, token) as target:
        async with connected(target, events, settle=60) as conn:
            assert conn.protocol_version == "2025-11-25"  # a handshake-era server: auto falls back
            assert conn.server_info is not None and conn.server_info.name == "mcp-servers/everything"
            assert {"echo", "get-sum", "get-structured-content", "trigger-long-running-operation"} <= set(
                conn.catalog.tools
            )
            assert (
                len(conn.catalog.resources) >= 3 and conn.catalog.prompts and conn.catalog.resource_templates
            )

            assert (await conn.call_tool("echo", {"message": "hi"})).text() == "Echo: hi"
            structured = await conn.call_tool("get-structured-content", {"location": "Chicago"})
            assert structured.structured_content is not None and structured.structured_valid is True
            image = await conn.call_tool("get-tiny-image", {})
            assert "image" in [b["type"] for b in image.content]

            result = await conn.call_tool(
                "trigger-long-running-operation", {"duration": 0.3, "steps": 3}, call_id="lr"
            )
            assert not result.is_error
            assert [p.progress for p in events.of(Progress) if p.call_id == "lr"] == [1.0, 2.0, 3.0]

            first = next(iter(conn.catalog.resources))
            read = await conn.read_resource(first)
            assert read["contents"][0]["uri"] == first
            prompt = await conn.get_prompt("simple-prompt")
            assert prompt["messages"]
            assert await conn.ping() > 0
    assert wait_no_processes(token, 5) == []


@pytest.mark.parametrize("kind", ["stdio-legacy", "http"])
async def test_timeout_tells_the_server_and_the_connection_survives(kind: str, token: str) -> None:
    events = EventLog()
    with everything_target(kind, token) as target:
        async with connected(target, events, settle=60) as conn:
            with pytest.raises(CallTimedOut):
                await conn.call_tool(
                    "trigger-long-running-operation", {"duration": 30, "steps": 1}, timeout=0.5
                )
            sent = [t.message.get("method") for t in events.of(Traffic) if t.direction == "out"]
            assert "notifications/cancelled" in sent
            assert (await conn.call_tool("echo", {"message": "alive"})).text() == "Echo: alive"


class Handlers:
    def __init__(self) -> None:
        self.elicitations: list[ElicitationRequest] = []

    async def elicit(self, server: str, request: ElicitationRequest) -> ElicitationResponse:
        self.elicitations.append(request)
        return ElicitationResponse("accept", dict(request.defaults))

    async def sample(self, server: str, request: SamplingRequest) -> SamplingResponse:
        return SamplingResponse("accept", {"type": "text", "text": "sampled answer"})


@pytest.mark.parametrize("kind", ["stdio-legacy", "http"])
async def test_elicitation_sampling_and_roots(kind: str, token: str, tmp_path: Path) -> None:
    handlers = Handlers()
    with everything_target(kind, token, roots=(str(tmp_path),)) as target:
        async with connected(target, handlers=handlers, settle=60) as conn:
            elicited = await conn.call_tool("trigger-elicitation-request", {})
            assert not elicited.is_error
            request = handlers.elicitations[0]
            assert request.mode == "form" and request.requested_schema is not None
            assert request.defaults, "server-everything's form has defaults; they must be prefilled"
            assert "accept" in elicited.text().lower()

            sampled = await conn.call_tool("trigger-sampling-request", {"prompt": "hello", "maxTokens": 5})
            assert "sampled answer" in json.dumps(sampled.content)

            url = await conn.call_tool(
                "trigger-url-elicitation", {"url": "https://example.com/authorize", "message": "Open it"}
            )
            assert not url.is_error
            url_request = handlers.elicitations[-1]
            assert (url_request.mode, url_request.url) == ("url", "https://example.com/authorize")
            assert url_request.elicitation_id

            roots = await conn.call_tool("get-roots-list", {})
            assert tmp_path.as_uri() in roots.text()
            await conn.set_log_level("debug")
