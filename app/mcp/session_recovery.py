"""A lost Streamable HTTP session is started again, in place, and the request retried once.

A 2025-era Streamable HTTP server keeps a session (the `Mcp-Session-Id` header). When it restarts
or drops the session, it answers every request of that session with HTTP 404; the SDK turns that
into an error ("Session not found") and goes on sending the same id, so every call failed from
then on while the server looked connected. The spec says what a client does: start a new session
with a new initialize, without the old id.

`SessionWatch` sees the connection's HTTP exchanges (httpx2 event hooks, public API): the session
id each answer belongs to, a 404 for the current one (lost), and the GET event stream the server
sends its own messages on (opened, ended). `SessionKeeper` acts on it while the connection is
ready: on a loss it sends the same initialize again (the stale id left off, so the server starts a
new session; the SDK's transport takes the new id from the answer and opens a new GET stream),
then the caller refreshes what it knows (catalog, subscriptions). A request that failed because its
session was lost waits for that and is sent once more (`retrying`). One new session per loss: a
server that loses the new one before answering anything on it is not asked again, the connection
is given up as lost (and reconnected from scratch by whoever owns it).

When the GET stream ends the SDK opens it again; one not back within STREAM_GRACE is checked with
a ping: a restarted server answers 404 (the session is renewed), a stopped one not at all (the
connection is lost, and says so).

Nothing here applies to stdio, to SSE, or to 2026-07-28 (stateless: no session to lose).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

import anyio
import mcp_types as types
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from app.words import QT_TRANSLATE_NOOP, fill

if TYPE_CHECKING:
    import httpx2

logger = logging.getLogger(__name__)

_T = TypeVar("_T")

SESSION_HEADER = "mcp-session-id"
RENEWED = "the server lost the session (it may have restarted); a new session was started"
RENEWING = "the server lost the session (it may have restarted); starting a new one"
STREAM_ENDED = "the server's event stream (HTTP GET) ended; opening it again"
STREAM_GONE = (
    "the server's event stream (HTTP GET) could not be opened again: what the server sends on its"
    " own (list changes, logs) may be missed until it reconnects"
)
STREAM_GRACE = 5.0
"""After the GET event stream ended, the SDK opens it again (twice, after the server's retry
interval or 1 s). A stream not back this long after is checked with a ping: a server that
restarted answers 404 (its session is renewed), one that is gone does not answer (the connection
is lost, and says so). A quick restart is so renewed in place, not reported as a failure."""

# Why a lost session could not be renewed: the connection's "connection lost: …" reason, which
# the window shows translated (app.ui.i18n.translate_reason reads TEMPLATES).
GAVE_UP = QT_TRANSLATE_NOOP("Reasons", "the server lost the session and a new one could not be started: %1")
LOST_AGAIN = QT_TRANSLATE_NOOP("Reasons", "the server lost the new session too before answering on it")
NO_HANDSHAKE = QT_TRANSLATE_NOOP("Reasons", "the first handshake was not seen")
OTHER_VERSION = QT_TRANSLATE_NOOP("Reasons", "the server now answers with protocol %1")
NO_NEW_SESSION = QT_TRANSLATE_NOOP("Reasons", "the server started no new session")
TEMPLATES: tuple[str, ...] = (GAVE_UP, LOST_AGAIN, NO_HANDSHAKE, OTHER_VERSION, NO_NEW_SESSION)

Log = Callable[[str, str], None]
"""(level, text) into the connection's log."""


class SessionWatch:
    """What one connection's HTTP exchanges say about its session (hooks: `install`)."""

    def __init__(self, changed: Callable[[], None] | None = None) -> None:
        self._changed = changed
        self.session_id: str | None = None
        self.generation = 0
        """Counts the sessions started on this connection (a new id from an initialize answer)."""
        self.lost_generation = -1
        """The generation of the last session the server answered 404 for."""
        self.answered_generation = -1
        """The generation of the last session a request was answered on (200 with its id)."""
        self.initialize_params: dict[str, Any] | None = None
        self.renewing = False
        """The next initialize is sent without the stale session id."""
        self.stream_open = False
        self.stream_ended = 0
        """How often the GET event stream ended (counted while this watch lives)."""

    def install(self, client: httpx2.AsyncClient) -> None:
        """Hook into `client` (its request and response event hooks)."""
        hooks = client.event_hooks
        client.event_hooks = {
            "request": [*hooks.get("request", []), self.on_request],
            "response": [self.on_response, *hooks.get("response", [])],
        }

    @property
    def lost(self) -> bool:
        """The current session is lost (and not renewed yet)."""
        return self.session_id is not None and self.lost_generation == self.generation

    def lost_since(self, generation: int) -> bool:
        """The session that was current at `generation` has been lost since."""
        return self.lost_generation >= generation and self.lost_generation >= 0

    def _tell(self) -> None:
        if self._changed is not None:
            self._changed()

    async def on_request(self, request: httpx2.Request) -> None:
        if request.method != "POST" or (self.initialize_params is not None and not self.renewing):
            return
        # Imported here, not with the module: a CLI command on a stdio server never loads httpx2
        # (app/mcp/sdk_client_only.py); a hook runs on an HTTP client, so it is loaded already.
        import httpx2

        try:
            message = json.loads(request.content)
        except (ValueError, httpx2.RequestNotRead):
            return
        if not isinstance(message, dict) or message.get("method") != "initialize":
            return
        if self.initialize_params is None and isinstance(message.get("params"), dict):
            self.initialize_params = message["params"]
        if self.renewing and SESSION_HEADER in request.headers:
            # The SDK's transport still sends the lost id: the server would answer 404 again.
            del request.headers[SESSION_HEADER]

    async def on_response(self, response: httpx2.Response) -> None:
        request = response.request
        sent = request.headers.get(SESSION_HEADER)
        if sent is None:
            fresh = response.headers.get(SESSION_HEADER)
            if fresh and fresh != self.session_id and response.status_code < 400:
                self.session_id = fresh
                self.generation += 1
            return
        if sent != self.session_id:
            return  # an answer about an older session (its GET stream, a late request)
        status = response.status_code
        if status == 404:
            if self.lost_generation != self.generation:
                self.lost_generation = self.generation
                logger.info("session %s lost (HTTP 404 to %s)", sent, request.method)
                self._tell()
            return
        if status == 200 and request.method == "POST":
            self.answered_generation = self.generation
        content_type = response.headers.get("content-type", "")
        if request.method == "GET" and status == 200 and content_type.startswith("text/event-stream"):
            self.stream_open = True
            import httpx2

            from app.mcp.http import WatchedStream  # both loaded already, with the client this hook is on

            if isinstance(response.stream, httpx2.AsyncByteStream):
                response.stream = WatchedStream(response.stream, self._on_stream_end)

    def _on_stream_end(self) -> None:
        self.stream_open = False
        self.stream_ended += 1
        self._tell()


class SessionKeeper:
    """Renews one connection's lost session while it is ready (`keep`), and lets a request that
    met the loss go again once (`retrying`)."""

    def __init__(self, *, log: Log, lost: Callable[[str], None], timeout: float) -> None:
        """`lost(reason)`: give the connection up (it reconnects from scratch, or says why not).
        `timeout`: how long the new initialize may take."""
        self._log = log
        self._lost = lost
        self.timeout = timeout
        self.watch = SessionWatch(self._wake_up)
        self.active = False
        self._wake = asyncio.Event()
        self._settled = asyncio.Event()
        self._gave_up_at = -1
        self._stream_ends_seen = 0
        self.renewals = 0

    def new_watch(self, client: httpx2.AsyncClient) -> SessionWatch:
        """A fresh watch for a new run's HTTP client (a reconnect starts from scratch)."""
        self.watch = SessionWatch(self._wake_up)
        self.watch.install(client)
        self.active = True
        self._gave_up_at = -1
        self._stream_ends_seen = 0
        return self.watch

    def _wake_up(self) -> None:
        self._wake.set()

    async def keep(
        self,
        session: Any,
        *,
        renewed: Callable[[], Awaitable[None]],
        check: Callable[[], Awaitable[Any]],
    ) -> None:
        """Run while the connection is ready (in its owner's task group): renew a lost session,
        `renewed()` after each new one; `check()` (a ping) when the GET stream ended."""
        try:
            await self._keep(session, renewed, check)
        finally:
            self.stop()  # the run is over: a request waiting for a renewal fails now

    async def _keep(
        self, session: Any, renewed: Callable[[], Awaitable[None]], check: Callable[[], Awaitable[Any]]
    ) -> None:
        watch = self.watch
        self._stream_ends_seen = watch.stream_ended
        check_at: float | None = None
        while True:
            if watch.lost and self._gave_up_at < watch.generation:
                await self._renew(session, renewed)
                continue
            if watch.stream_ended != self._stream_ends_seen:
                self._stream_ends_seen = watch.stream_ended
                self._log("info", STREAM_ENDED)
                check_at = anyio.current_time() + STREAM_GRACE
            if check_at is not None and (watch.stream_open or anyio.current_time() >= check_at):
                check_at = None
                if not watch.stream_open:
                    await self._check(check)
                continue
            self._wake.clear()
            with anyio.move_on_after(check_at - anyio.current_time() if check_at is not None else math.inf):
                await self._wake.wait()

    async def _check(self, check: Callable[[], Awaitable[Any]]) -> None:
        """The event stream did not come back: is the server there (and the session)?"""
        try:
            await check()
        except Exception as exc:  # a lost connection or session says so through its own path
            logger.debug("check after the event stream ended: %s", exc)
            return
        if not self.watch.lost and not self.watch.stream_open:
            self._log("warning", STREAM_GONE)

    async def _renew(self, session: Any, renewed: Callable[[], Awaitable[None]]) -> None:
        watch = self.watch
        generation = watch.generation
        try:
            if generation > 1 and watch.answered_generation < generation:
                raise _GiveUp(LOST_AGAIN)
            if watch.initialize_params is None:
                raise _GiveUp(NO_HANDSHAKE)
            self._log("warning", RENEWING)
            request = types.InitializeRequest(
                params=types.InitializeRequestParams.model_validate(watch.initialize_params, by_name=False)
            )
            watch.renewing = True
            try:
                with anyio.fail_after(self.timeout):
                    result = await session.send_request(request, types.InitializeResult)
            finally:
                watch.renewing = False
            if result.protocol_version not in HANDSHAKE_PROTOCOL_VERSIONS:
                raise _GiveUp(fill(OTHER_VERSION, result.protocol_version))
            if watch.generation == generation:
                raise _GiveUp(NO_NEW_SESSION)
            session.adopt(result)
            await session.send_notification(types.InitializedNotification())
        except Exception as exc:
            self._gave_up_at = generation
            reason = str(exc) if isinstance(exc, _GiveUp) else _short(exc)
            self._lost(fill(GAVE_UP, reason))
            self._settle()
            return
        self.renewals += 1
        self._log("info", RENEWED)
        self._settle()
        try:
            await renewed()
        except Exception as exc:
            self._log("warning", f"after the new session: {_short(exc)}")

    def _settle(self) -> None:
        self._settled.set()
        self._settled = asyncio.Event()

    async def _wait_renewed(self, generation: int) -> bool:
        """Wait until the session lost at `generation` is renewed (True) or given up (False)."""
        with anyio.move_on_after(self.timeout):
            while self.watch.generation <= generation or self.watch.lost:
                if self._gave_up_at >= generation or not self.active:
                    return False
                await self._settled.wait()
            return True
        return False

    async def retrying(self, send: Callable[[], Awaitable[_T]]) -> _T:
        """`send()`; when it failed because its session was lost, once more on the new session."""
        if not self.active:
            return await send()
        watch = self.watch
        generation = watch.generation
        try:
            return await send()
        except Exception:  # CallFailed from the engine, MCPError from a bare SDK session
            if watch is not self.watch or not watch.lost_since(generation):
                raise
            if not await self._wait_renewed(generation):
                raise
        return await send()

    def stop(self) -> None:
        """The run is over: nothing waits for a renewal any more."""
        self.active = False
        self._settle()


class _GiveUp(Exception):
    pass


def _short(exc: BaseException) -> str:
    text = str(exc).strip()
    return text or type(exc).__name__
