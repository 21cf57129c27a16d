"""HTTP plumbing: one shared connection pool, a light client per connection (its own headers),
and the last HTTP error a server answered, so a failure can say "HTTP 401" instead of
"Server returned an error response".
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import httpx2

from app.mcp.deep_http import guard_response
from app.mcp.sdk_private import http_pool

CONNECT_TIMEOUT = 30.0
READ_TIMEOUT = 300.0  # a server may hold a response stream open a long time


def new_shared_client() -> httpx2.AsyncClient:
    """The one client whose connection pool every HTTP connection of a manager uses."""
    return httpx2.AsyncClient(timeout=httpx2.Timeout(CONNECT_TIMEOUT, read=READ_TIMEOUT))


class _BorrowedPool(httpx2.AsyncBaseTransport):
    """Sends through the shared client's pool; closing a connection must not close the pool."""

    def __init__(self, shared: httpx2.AsyncClient) -> None:
        self._shared = shared

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        pool: httpx2.AsyncBaseTransport = http_pool(self._shared)  # the shared client's own pool
        return await pool.handle_async_request(request)

    async def aclose(self) -> None:
        pass  # the pool belongs to the shared client


class WatchedStream(httpx2.AsyncByteStream):
    """The body of the GET event stream, telling `ended` once when it stops (end, error, close):
    that is how app/mcp/session_recovery.py's SessionWatch learns the stream ended."""

    def __init__(self, inner: httpx2.AsyncByteStream, ended: Callable[[], None]) -> None:
        self._inner = inner
        self._ended: Callable[[], None] | None = ended

    def _end(self) -> None:
        ended, self._ended = self._ended, None
        if ended is not None:
            ended()

    async def __aiter__(self) -> AsyncIterator[bytes]:
        try:
            async for chunk in self._inner:
                yield chunk
        finally:
            self._end()

    async def aclose(self) -> None:
        try:
            await self._inner.aclose()
        finally:
            self._end()


@dataclass
class HttpStatus:
    code: int
    reason: str
    url: str
    www_authenticate: str | None
    content_type: str | None


class HttpObserver:
    """Remembers the last HTTP error answer (status >= 400) of one connection.

    `ignore_challenges`: the connection signs in with OAuth, whose flow answers every 401 (and
    says why when it cannot): a 401 it went on to satisfy is no failure to explain later."""

    def __init__(self, *, ignore_challenges: bool = False) -> None:
        self.last_error: HttpStatus | None = None
        self.ignore_challenges = ignore_challenges

    async def on_response(self, response: httpx2.Response) -> None:
        if response.status_code == 401 and self.ignore_challenges:
            return
        if response.status_code >= 400:
            self.last_error = HttpStatus(
                code=response.status_code,
                reason=response.reason_phrase,
                url=str(response.request.url),
                www_authenticate=response.headers.get("www-authenticate"),
                content_type=response.headers.get("content-type"),
            )


def connection_client(
    shared: httpx2.AsyncClient | None,
    headers: Mapping[str, str],
    observer: HttpObserver,
    *,
    auth: httpx2.Auth | None = None,
    **_: Any,
) -> httpx2.AsyncClient:
    """A client with this server's headers; its requests go through `shared`'s pool if given.
    `auth` is the connection's OAuth provider (app/mcp/auth.py), None for a server whose
    credentials are in its headers."""
    kwargs: dict[str, Any] = {
        "headers": dict(headers),
        "timeout": httpx2.Timeout(CONNECT_TIMEOUT, read=READ_TIMEOUT),
        # guard_response: a message nested too deeply for the SDK's parser is cut down, not lost.
        "event_hooks": {"response": [observer.on_response, guard_response]},
    }
    if auth is not None:
        kwargs["auth"] = auth
    if shared is not None:
        kwargs["transport"] = _BorrowedPool(shared)
    return httpx2.AsyncClient(**kwargs)
