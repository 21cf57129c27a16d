"""The deprecated HTTP+SSE transport (`type: sse`), made to fail one message, not the connection.

The SDK's `sse_client` POSTs each message and raises on an HTTP error answer inside its writer
task, which then ends: the refused request is never answered (the caller waits until its
timeout) and nothing after it is sent either. A server that refuses a message it does not know
(`server/discover`, answered 400 by older SSE servers) so hung a connect until the connect
timeout, with a reason about the timeout instead of the refusal.

Here the POSTs go through a small HTTP transport that turns an error answer into a JSON-RPC
error for that request, handed to the session at once, and lets the writer go on. A 404 means the
server no longer knows the SSE session (it restarted): the request fails as "connection closed",
so the connection is lost and reconnected, instead of every later message being refused too.

`connect_mode`: over this transport only the handshake era exists (2026-07-28 defines no SSE
transport), so "auto" means legacy: no probe is sent, and a dual-era server is not talked into
2026-07-28 over it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import anyio
import httpx2
from mcp.client.sse import sse_client
from mcp.shared.message import SessionMessage
from mcp_types import CONNECTION_CLOSED, INTERNAL_ERROR, INVALID_REQUEST, ErrorData, JSONRPCError

from app.words import QT_TRANSLATE_NOOP, fill

logger = logging.getLogger(__name__)

REFUSED = QT_TRANSLATE_NOOP("Reasons", "the server refused the message (HTTP %1 %2)")
REFUSED_SAYING = QT_TRANSLATE_NOOP("Reasons", "the server refused the message (HTTP %1 %2): %3")
FORGOTTEN = QT_TRANSLATE_NOOP("Reasons", "the server no longer knows this connection (HTTP 404)")
TEMPLATES: tuple[str, ...] = (REFUSED_SAYING, REFUSED, FORGOTTEN)
"""The sentences a person may see (a call's failure), translated by the window
(app.ui.i18n.translate_reason)."""

REFUSAL_TEXT_LIMIT = 200
"""At most this much of a refusal's body is quoted in the error (a server may send a page)."""


def connect_mode(transport: str, mode: str) -> str:
    """The SDK connect mode for a target: "auto" over SSE is the legacy handshake."""
    if transport == "sse" and mode in ("", "auto"):
        return "legacy"
    return mode or "auto"


@dataclass(frozen=True)
class Refusal:
    """An HTTP error answer to one POSTed message."""

    status: int
    reason: str
    text: str
    method: str | None
    request_id: str | int | None

    def describe(self) -> str:
        if self.text:
            return fill(REFUSED_SAYING, self.status, self.reason, self.text)
        return fill(REFUSED, self.status, self.reason)


def refusal_of(request: httpx2.Request, status: int, reason: str, body: bytes) -> Refusal:
    method: str | None = None
    request_id: str | int | None = None
    try:
        message = json.loads(request.content)
    except (ValueError, httpx2.RequestNotRead):
        message = None
    if isinstance(message, dict):
        method = message.get("method") if isinstance(message.get("method"), str) else None
        raw_id = message.get("id")
        if isinstance(raw_id, str | int) and not isinstance(raw_id, bool):
            request_id = raw_id
    text = body.decode("utf-8", "replace").strip()
    if len(text) > REFUSAL_TEXT_LIMIT:
        text = text[:REFUSAL_TEXT_LIMIT] + "…"
    return Refusal(status, reason, text, method, request_id)


def error_for(refusal: Refusal) -> JSONRPCError | None:
    """The JSON-RPC error that answers a refused request (None for a refused notification)."""
    if refusal.request_id is None or refusal.method is None:
        return None
    if refusal.status == 404:
        # The SSE session is gone (the server restarted): the connection is lost, not the message.
        code, message = CONNECTION_CLOSED, FORGOTTEN
    else:
        code = INVALID_REQUEST if refusal.status < 500 else INTERNAL_ERROR
        message = refusal.describe()
    return JSONRPCError(jsonrpc="2.0", id=refusal.request_id, error=ErrorData(code=code, message=message))


class _AnswerRefusals(httpx2.AsyncBaseTransport):
    """Sends through `inner` (the connection's client: its auth, hooks, pool); a POST answered
    with an HTTP error is reported to `refused` and seen by the SDK as 202 Accepted."""

    def __init__(self, inner: httpx2.AsyncClient, refused: Callable[[Refusal], None]) -> None:
        self._inner = inner
        self._refused = refused

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        response = await self._inner.send(request, stream=True, follow_redirects=False)
        if request.method != "POST" or response.status_code < 400:
            return response
        try:
            body = await response.aread()
        finally:
            await response.aclose()
        self._refused(refusal_of(request, response.status_code, response.reason_phrase, body))
        return httpx2.Response(202, request=request)

    async def aclose(self) -> None:
        await self._inner.aclose()


ClientMaker = Callable[[httpx2.Auth | None], httpx2.AsyncClient]


@asynccontextmanager
async def legacy_sse_client(
    url: str,
    *,
    headers: dict[str, str],
    make_client: ClientMaker,
    auth: httpx2.Auth | None = None,
    on_refusal: Callable[[Refusal], None] | None = None,
) -> AsyncIterator[tuple[Any, Any]]:
    """A transport (stream pair) for a legacy SSE server at `url`.

    `make_client(auth)` builds the connection's own HTTP client (headers, hooks, shared pool);
    this transport closes it. `on_refusal` hears about every refused message (for the log)."""
    # Errors for refused requests join the server's messages on one read stream.
    send, receive = anyio.create_memory_object_stream[SessionMessage | Exception](math.inf)

    def refused(refusal: Refusal) -> None:
        logger.info("SSE message %s refused: HTTP %s", refusal.method, refusal.status)
        if on_refusal is not None:
            on_refusal(refusal)
        error = error_for(refusal)
        if error is not None:
            # A closed stream: the connection is closing, nobody waits for the answer.
            with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
                send.send_nowait(SessionMessage(error))

    def factory(
        headers: dict[str, str] | None = None,
        timeout: httpx2.Timeout | None = None,
        auth: httpx2.Auth | None = None,
    ) -> httpx2.AsyncClient:
        # The outer client builds each request (headers, timeouts); the inner one sends it.
        # sse_client enters and closes the outer one, which closes the inner one.
        return httpx2.AsyncClient(
            headers=headers,
            timeout=timeout if timeout is not None else httpx2.Timeout(30.0),
            transport=_AnswerRefusals(make_client(auth), refused),
        )

    # Closed on every way out, a failed connect (a 401 on the stream) included.
    async with (
        send,
        receive,
        sse_client(url, headers=headers, auth=auth, httpx_client_factory=factory) as (read, write),
    ):

        async def forward() -> None:
            try:
                async for item in read:
                    await send.send(item)
            except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                pass  # closing
            finally:
                send.close()  # the server's end: the session sees the end of the stream

        async with anyio.create_task_group() as tg:
            tg.start_soon(forward)
            yield receive, write
            tg.cancel_scope.cancel()
