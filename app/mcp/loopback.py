"""The loopback listener a sign-in's browser comes back to (RFC 8252 §7.3).

One listener per sign-in attempt, on 127.0.0.1 (never all interfaces), on a random port or on the
port of a stored registration's redirect URI (a dynamically registered client is bound to the URI
it registered). It waits for one GET of `/callback` carrying the `state` the attempt sent: that
answer (a code, or an `error=`) ends the wait; a callback with another state is refused with an
error page and the wait goes on (it is not ours, or it is forged).

Why asyncio streams and a ten-line request-line parser rather than a library: the listener reads
exactly one line of one kind of request (`GET /callback?... HTTP/1.1`) from a browser on this
computer and answers with a fixed page and `Connection: close`. h11 (installed with httpx2) would
still need the same socket plumbing around it and buys nothing for one request line; uvicorn or
starlette would start a server framework per sign-in. Headers are read and dropped, bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import secrets
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

logger = logging.getLogger(__name__)

HOST = "127.0.0.1"
CALLBACK_PATH = "/callback"
MAX_REQUEST_HEAD = 16 * 1024
READ_TIMEOUT = 10.0
"""Seconds a browser connection may take to send its request head (a stuck one is dropped)."""


@dataclass(frozen=True)
class CallbackResult:
    """What the authorization server sent back through the browser."""

    code: str | None = None
    state: str | None = None
    iss: str | None = None
    error: str | None = None
    error_description: str | None = None

    def __repr__(self) -> str:  # the code is a credential: never in a log line or a traceback
        return f"CallbackResult(code={'…' if self.code else None}, error={self.error!r})"


class PortInUse(OSError):
    """The port the stored registration redirects to is taken by another program."""


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
:root {{ color-scheme: light dark; }}
body {{ font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0;
  min-height: 100vh; display: flex; align-items: center; justify-content: center;
  background: Canvas; color: CanvasText; }}
main {{ max-width: 28em; padding: 2em; text-align: center; }}
.mark {{ font-size: 3em; line-height: 1; color: {color}; }}
h1 {{ font-size: 1.4em; margin: .4em 0; }}
p {{ opacity: .8; }}
</style></head>
<body><main><div class="mark" aria-hidden="true">{mark}</div><h1>{title}</h1><p>{text}</p></main></body>
</html>
"""


def page(title: str, text: str, *, ok: bool) -> bytes:
    """A small self-contained page (no script, no outside resource)."""
    return _PAGE.format(
        title=html.escape(title),
        text=html.escape(text),
        mark="✓" if ok else "!",
        color="#2e7d32" if ok else "#c62828",
    ).encode("utf-8")


SIGNED_IN_PAGE = page("Signed in", "You can close this tab and go back to MCP Desk.", ok=True)


def error_page(error: str, description: str | None) -> bytes:
    if error == "access_denied":
        text = "You declined the sign-in. You can close this tab and go back to MCP Desk."
    else:
        detail = f" ({description})" if description else ""
        text = (
            f"The sign-in did not complete: {error}{detail}. You can close this tab and go back to MCP Desk."
        )
    return page("Not signed in", text, ok=False)


WRONG_STATE_PAGE = page(
    "Not signed in",
    "This sign-in link is not the one MCP Desk is waiting for. Start the sign-in again from MCP Desk.",
    ok=False,
)


class LoopbackListener:
    """Listens on 127.0.0.1 for the one redirect of a sign-in.

    listener = await LoopbackListener.open(port=0)
    listener.redirect_uri               # http://127.0.0.1:PORT/callback
    listener.expect(state)              # the state of the authorize URL sent to the browser
    result = await listener.wait(300)   # TimeoutError when nobody came back in time
    await listener.close()
    """

    def __init__(self, server: asyncio.Server, port: int) -> None:
        self._server = server
        self.port = port
        self._state: str | None = None
        self._result: asyncio.Future[CallbackResult] = asyncio.get_running_loop().create_future()
        self.refused = 0
        """Callbacks refused for a wrong or missing state (tests, diagnostics)."""

    @classmethod
    async def open(cls, port: int = 0) -> LoopbackListener:
        """Bind 127.0.0.1:`port` (0: any free port). `PortInUse` when `port` is taken."""
        holder: list[LoopbackListener] = []

        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await holder[0]._serve(reader, writer)

        try:
            # asyncio's default reuse_address (SO_REUSEADDR on Unix) lets the port be bound again
            # while the last callback's connection is in TIME_WAIT, and still refuses a port
            # another program listens on.
            server = await asyncio.start_server(handle, HOST, port)
        except OSError as exc:
            if port:
                raise PortInUse(exc.errno, f"port {port} on {HOST} is in use") from exc
            raise
        bound = server.sockets[0].getsockname()[1]
        listener = cls(server, int(bound))
        holder.append(listener)
        return listener

    @property
    def redirect_uri(self) -> str:
        return f"http://{HOST}:{self.port}{CALLBACK_PATH}"

    def expect(self, state: str) -> None:
        """The state the authorize URL carries; only a callback with it is taken."""
        self._state = state

    @property
    def done(self) -> bool:
        return self._result.done()

    async def wait(self, timeout: float | None) -> CallbackResult:
        """The first callback with the expected state; `TimeoutError` after `timeout` seconds."""
        return await asyncio.wait_for(asyncio.shield(self._result), timeout)

    async def close(self) -> None:
        self._server.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._server.wait_closed(), 2.0)
        if not self._result.done():
            self._result.cancel()

    async def __aenter__(self) -> LoopbackListener:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ------------------------------------------------------------------ serving

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            try:
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), READ_TIMEOUT)
            except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError):
                return
            if len(head) > MAX_REQUEST_HEAD:
                await _answer(writer, 431, page("Not signed in", "Request too large.", ok=False))
                return
            status, body = self._handle(head.split(b"\r\n", 1)[0].decode("latin-1"))
            await _answer(writer, status, body)
            if self._result.done():
                # One good callback and the listener's work is done; the server stops taking
                # connections (the one being answered is finished above).
                self._server.close()
        except Exception:
            logger.debug("loopback connection failed", exc_info=False)
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    def _handle(self, request_line: str) -> tuple[int, bytes]:
        parts = request_line.split(" ")
        if len(parts) != 3 or parts[0] not in ("GET", "HEAD"):
            return 405, page("Not signed in", "MCP Desk only takes the sign-in redirect here.", ok=False)
        target = urlsplit(parts[1])
        if target.path != CALLBACK_PATH:
            return 404, page("Not found", "Nothing here.", ok=False)
        query = {k: v[0] for k, v in parse_qs(target.query, keep_blank_values=True).items()}
        state = query.get("state")
        if (
            self._state is None
            or state is None
            or not secrets.compare_digest(state.encode(), self._state.encode())
            or self._result.done()
        ):
            self.refused += 1
            return 400, WRONG_STATE_PAGE
        result = CallbackResult(
            code=query.get("code") or None,
            state=state,
            iss=query.get("iss"),
            error=query.get("error") or (None if query.get("code") else "no_code"),
            error_description=query.get("error_description"),
        )
        self._result.set_result(result)
        if result.error:
            return 400, error_page(result.error, result.error_description)
        return 200, SIGNED_IN_PAGE


async def _answer(writer: asyncio.StreamWriter, status: int, body: bytes) -> None:
    reason = {200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed"}.get(status, "Error")
    head = (
        f"HTTP/1.1 {status} {reason}\r\n"
        "Content-Type: text/html; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\n"
        "Cache-Control: no-store\r\n"
        "Referrer-Policy: no-referrer\r\n"
        "X-Content-Type-Options: nosniff\r\n"
        "Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'\r\n"
        "Connection: close\r\n\r\n"
    )
    writer.write(head.encode("latin-1") + body)
    await writer.drain()
