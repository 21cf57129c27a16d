"""`ConnectionManager`: all configured servers, connected in the background at once.

Each server has its own owner task, so one that hangs or fails never delays the others. A
connection that was ready and then drops is reconnected with backoff; one that never got ready
(wrong command, ...) is left failed: retrying cannot fix a configuration. The waits between
tries come from one `Backoff` with jitter, so servers that dropped together do not all come
back at the same instant. A server that wants a
sign-in settles in NEEDS_SIGN_IN and stays there until `sign_in(name)`: retrying would not help,
and only the person may open a browser.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from typing import Any

from app.mcp.catalog import ToolInfo
from app.mcp.connection import ServerConnection
from app.mcp.events import ConnectionState, Event, LogLine, Sink, StateChanged, add_sink_to, deliver
from app.mcp.handlers import ClientHandlers
from app.mcp.target import Target

logger = logging.getLogger(__name__)

BACKOFF_FIRST = 1.0
BACKOFF_MAX = 60.0


class Backoff:
    """How long to wait before the next try to reconnect a server that dropped.

    The ceiling doubles from `BACKOFF_FIRST` to `BACKOFF_MAX` with each try; the wait itself is
    drawn from the ceiling's upper half ("equal jitter"). Twenty servers dropped at once (the
    network went away, the laptop slept) then come back spread over half a ceiling rather than
    in lockstep, and none comes back sooner than half of what the doubling says.
    """

    def __init__(self, rng: random.Random | None = None) -> None:
        self._rng = rng if rng is not None else random.Random()
        self._tries: dict[str, int] = {}

    def next(self, name: str) -> float:
        """The wait before the next try for `name`, counted as one more try."""
        tries = self._tries.get(name, 0)
        self._tries[name] = tries + 1
        # Module constants read here, not bound at import: tests (and a setting) may change them.
        ceiling = min(BACKOFF_FIRST * 2.0 ** min(tries, 32), BACKOFF_MAX)
        return ceiling / 2 + self._rng.uniform(0.0, ceiling / 2)

    def reset(self, name: str) -> None:
        """Start again from the first wait (the server is back, or the person took over)."""
        self._tries.pop(name, None)


class ConnectionManager:
    def __init__(
        self,
        *,
        handlers: ClientHandlers | None = None,
        sink: Sink | None = None,
        traffic: bool = True,
        secrets: Any = None,
        browser: Any = None,
        backoff: Backoff | None = None,
    ) -> None:
        """`secrets` (an `app.secrets.store.SecretStore`) keeps every server's OAuth tokens;
        `browser` (an `app.mcp.auth.Browser`) shows sign-in pages in `sign_in(name)`;
        `backoff` the waits between reconnects (a seeded one in tests)."""
        self.handlers = handlers
        self.secrets = secrets
        self.browser = browser
        self.traffic = traffic
        self._sinks: list[Sink] = [sink] if sink is not None else []
        self._connections: dict[str, ServerConnection] = {}
        self._wanted: set[str] = set()
        """Servers the user wants connected (reconnects only happen for these)."""
        self._reconnects: dict[str, asyncio.Task[None]] = {}
        self._backoff = backoff if backoff is not None else Backoff()
        self._dropped: set[str] = set()
        """Servers that were ready and dropped: retried with backoff until they are back."""
        self._http: Any = None
        self._closed = False
        self._tasks: set[asyncio.Task[Any]] = set()
        self._disabled: set[str] = set()

    # ---------------------------------------------------------------- events

    def add_sink(self, sink: Sink) -> Callable[[], None]:
        return add_sink_to(self._sinks, sink)

    def _on_event(self, event: Event) -> None:
        if isinstance(event, StateChanged):
            self._watch_state(event)
        deliver(self._sinks, event)

    def _sink_for(self, conn_ref: list[ServerConnection]) -> Sink:
        """A connection's sink. The state events of a connection that was replaced (its target
        changed) or removed stop once its successor has started: a late "closed" of the old one
        must not overwrite the new one's "connecting" (the row said "disconnected" after Edit)."""

        def sink(event: Event) -> None:
            if isinstance(event, StateChanged) and conn_ref:
                current = self._connections.get(event.server)
                if current is not conn_ref[0] and (current is None or current.state != ConnectionState.IDLE):
                    return
            self._on_event(event)

        return sink

    def report(self, name: str, state: ConnectionState, reason: str | None = None) -> None:
        """Publish the state of a server the engine could not start itself, for every view to
        show: FAILED when its target could not be prepared (a key missing, the keychain locked),
        IDLE with WAITING_FOR_APPROVAL while the person is asked whether it may run, IDLE when
        they said no. The connection's own next event (it starts) replaces it."""
        deliver(self._sinks, StateChanged(name, state, reason))

    # ----------------------------------------------------------------- targets

    def _shared_http(self) -> Any:
        """One httpx2 client (one connection pool) for every HTTP/SSE server, made on first use."""
        if self._http is None:
            from app.mcp.http import new_shared_client

            self._http = new_shared_client()
        return self._http

    def set_target(self, target: Target, *, enabled: bool = True) -> ServerConnection:
        """Add a server or change its definition. A live connection whose target changed in more
        than its roots is reconnected; a roots-only change is sent to the server as is.
        A disabled server is known (its name, for lookups) but `connect_all` skips it."""
        if enabled:
            self._disabled.discard(target.name)
        else:
            self._disabled.add(target.name)
        old = self._connections.get(target.name)
        if old is not None:
            if old.target == target:
                return old
            if old.target.same_connection(target):
                if old.update_roots(target.roots) and old.state == ConnectionState.READY:
                    self._spawn(old.notify_roots_changed())
                return old
            conn = self._new_connection(target)
            conn.adopt_subscriptions(old.subscriptions)  # the engine keeps them, not its callers
            self._connections[target.name] = conn
            was_wanted = target.name in self._wanted
            self._spawn(self._replace(old, conn if was_wanted else None))
            return conn
        conn = self._new_connection(target)
        self._connections[target.name] = conn
        return conn

    def _spawn(self, coro: Any) -> None:
        """Run a background step; keep a reference so it is not garbage-collected mid-way."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _replace(self, old: ServerConnection, new: ServerConnection | None) -> None:
        await old.stop()
        if new is not None and not self._closed:
            new.start()

    def _new_connection(self, target: Target) -> ServerConnection:
        http = self._shared_http() if target.transport != "stdio" else None
        ref: list[ServerConnection] = []
        conn = ServerConnection(
            target,
            handlers=self.handlers,
            sink=self._sink_for(ref),
            http_client=http,
            traffic=self.traffic,
            secrets=self.secrets,
            browser=self.browser,
        )
        ref.append(conn)
        return conn

    def remove(self, name: str) -> None:
        """Forget a server (its connection is closed in the background)."""
        self._wanted.discard(name)
        self._disabled.discard(name)
        self._cancel_reconnect(name)
        conn = self._connections.pop(name, None)
        if conn is not None:
            self._spawn(conn.stop())

    def get(self, name: str) -> ServerConnection | None:
        return self._connections.get(name)

    def names(self) -> list[str]:
        return list(self._connections)

    # -------------------------------------------------------------- lifecycle

    def connect(self, name: str) -> None:
        """Start connecting one server in the background (returns at once)."""
        conn = self._connections[name]
        self._wanted.add(name)
        self._cancel_reconnect(name)
        conn.start()

    def connect_all(self) -> None:
        """Start every enabled server at once; each connects in its own task."""
        for name in list(self._connections):
            if name not in self._disabled:
                self.connect(name)

    async def disconnect(self, name: str) -> None:
        self._wanted.discard(name)
        self._dropped.discard(name)
        self._cancel_reconnect(name)
        conn = self._connections.get(name)
        if conn is not None:
            await conn.stop()

    async def reconnect(self, name: str) -> None:
        self._cancel_reconnect(name)
        conn = self._connections[name]
        await conn.stop()
        self._wanted.add(name)
        self._backoff.reset(name)
        conn.start()

    async def sign_in(self, name: str, *, timeout: float | None = None) -> ConnectionState:
        """Sign in to one server through the browser; returns the settled state (READY, or
        NEEDS_SIGN_IN / FAILED with the reason). `NotSignInServer` for one that does not sign in."""
        conn = self._connections[name]
        self._wanted.add(name)
        self._cancel_reconnect(name)
        self._backoff.reset(name)
        return await conn.sign_in(timeout=timeout)

    def cancel_sign_in(self, name: str) -> bool:
        """Stop a sign-in in progress; False when there was none."""
        conn = self._connections.get(name)
        return conn.cancel_sign_in() if conn is not None else False

    async def sign_out(self, name: str) -> None:
        """Forget the server's tokens and registration; it is left NEEDS_SIGN_IN ("signed out")."""
        self._cancel_reconnect(name)
        self._dropped.discard(name)
        await self._connections[name].sign_out()

    async def wait_settled(self, timeout: float) -> dict[str, ConnectionState]:
        """Wait (at most `timeout` in total) until every started connection is settled (ready,
        failed, needs sign-in or closed)."""
        conns = [c for c in self._connections.values() if c.state != ConnectionState.IDLE]
        states = await asyncio.gather(*(c.wait_settled(timeout) for c in conns))
        return {c.name: s for c, s in zip(conns, states, strict=True)}

    async def shutdown(self) -> None:
        """Close everything; no server process is left when this returns."""
        self._closed = True
        self._wanted.clear()
        for name in list(self._reconnects):
            self._cancel_reconnect(name)
        await asyncio.gather(*(c.stop() for c in self._connections.values()), return_exceptions=True)
        # Connections removed or replaced just before are still stopping in the background.
        await asyncio.gather(*list(self._tasks), return_exceptions=True)
        if self._http is not None:
            await self._http.aclose()
            self._http = None

    # ----------------------------------------------------------- reconnection

    def _watch_state(self, event: StateChanged) -> None:
        conn = self._connections.get(event.server)
        if conn is None or self._closed:
            return
        if event.state == ConnectionState.READY:
            self._backoff.reset(event.server)
            self._dropped.discard(event.server)
        elif event.state in (ConnectionState.CLOSED, ConnectionState.NEEDS_SIGN_IN):
            # Needs sign-in: only the person can fix it (Sign in), never a reconnect loop.
            self._dropped.discard(event.server)
            self._backoff.reset(event.server)
        elif event.state == ConnectionState.FAILED:
            if conn.was_ready:
                self._dropped.add(event.server)
            if (
                event.server in self._dropped
                and event.server in self._wanted
                and event.server not in self._reconnects
            ):
                # A server that was working and went away (crashed, restarted, network): keep
                # trying, slower each time. One that never worked is a configuration problem.
                delay = self._backoff.next(event.server)
                logger.info("%s dropped; reconnecting in %.1f s", event.server, delay)
                deliver(
                    self._sinks,
                    LogLine(event.server, time.time(), "info", "client", f"reconnecting in {delay:.1f} s"),
                )
                task = asyncio.get_running_loop().create_task(self._reconnect_later(conn, delay))
                self._reconnects[event.server] = task

    async def _reconnect_later(self, conn: ServerConnection, delay: float) -> None:
        try:
            await asyncio.sleep(delay)
        finally:
            self._reconnects.pop(conn.name, None)
        if not self._closed and conn.name in self._wanted and self._connections.get(conn.name) is conn:
            conn.start()

    def _cancel_reconnect(self, name: str) -> None:
        task = self._reconnects.pop(name, None)
        if task is not None:
            task.cancel()

    # ------------------------------------------------------------------ tools

    def find_tool(self, qualified: str) -> tuple[ServerConnection, ToolInfo] | None:
        """Look up "server/tool". Server names may not contain "/", tool names may."""
        server, sep, tool = qualified.partition("/")
        if not sep:
            return None
        conn = self._connections.get(server)
        if conn is None:
            return None
        info = conn.catalog.tools.get(tool)
        return (conn, info) if info is not None else None

    def all_tools(self) -> list[tuple[str, ToolInfo]]:
        """Every tool of every connection, as ("server/tool", info), in server order."""
        return [
            (f"{name}/{tool.name}", tool)
            for name, conn in self._connections.items()
            for tool in conn.catalog.tools.values()
        ]
