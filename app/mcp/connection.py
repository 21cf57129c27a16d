"""`ServerConnection`: one MCP server, one owner task, a small state machine.

The owner task is the only task that enters and exits the SDK `Client` (anyio cancel scopes
break otherwise). Requests (`call_tool`, `read_resource`, ...) may come from any task: they
only send on the session, they never enter or exit anything.

    idle ──start()──► connecting ──► ready ──(server gone)──► failed
                       ▲  │ (npx/uvx download: installing ─(done)─► connecting)
                          │     │                  │                ▲
                          │     └─(401: sign in)─┐ └─(401)─┐        │
                          │                      ▼         ▼        │
                          │                  needs_sign_in ◄─sign_out()
                          │                      │ sign_in(): connecting, in the browser
                          └──────────(cannot connect)───────────────┘
    any ──stop()──► closed

An http/sse server without credentials in its headers signs in with OAuth (app/mcp/auth.py):
a plain `start()` uses stored tokens silently and settles in NEEDS_SIGN_IN when a new
authorization is needed; only `sign_in()` shows the person a browser.

The parts of a connection live in their own modules, mixed into `ServerConnection` here:
`connection_base` (state, events, request helpers), `catalog_sync` (paging, debounced refresh,
subscriptions, the 2026-07-28 listener), `person_requests` (elicitation, sampling, roots, the
paused clock), `calls` (call_tool, reads, prompts, completion), `signing_in` (OAuth), with
`failures` (what a failed request means) and `transports` (opening stdio/http/sse). This
module keeps the owner task and the lifecycle.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections import deque
from collections.abc import Iterable
from contextlib import AsyncExitStack
from typing import Any

import anyio
import mcp_types as types
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from app.mcp import reasons
from app.mcp.calls import HEADER_MISMATCH, Calls
from app.mcp.catalog import Catalog, ToolInfo
from app.mcp.catalog_sync import DEBOUNCE, DEBOUNCE_MAX, LISTEN_READY_WAIT, MAX_PAGES
from app.mcp.connection_base import ServerInfo, _dump
from app.mcp.events import CATALOG_KINDS, SETTLED_STATES, CatalogKind, ConnectionState, LogLine, Sink
from app.mcp.handlers import ClientHandlers, HeadlessHandlers
from app.mcp.log_level import ServerLogLevel
from app.mcp.person_requests import ClockWatch
from app.mcp.results import CallFailed, CallTimedOut, NotConnected, ToolCallResult, ToolGone
from app.mcp.session_recovery import SessionKeeper
from app.mcp.signing_in import NotSignInServer, SignIn
from app.mcp.stdio import ProcessInfo
from app.mcp.tap import TappedTransport
from app.mcp.target import Target
from app.mcp.tasks import TaskBoard, client_extension
from app.mcp.transports import open_http, open_stdio
from app.mcp.url_elicitation import UrlSteps
from app.runtimes.installing import Fetching, Installed, InstallWatch, tool_for

# Names other code has always imported from here, wherever they live now.
__all__ = [
    "DEBOUNCE",
    "DEBOUNCE_MAX",
    "HEADER_MISMATCH",
    "INSTALL_IDLE_LIMIT",
    "INSTALL_REASON_EVERY",
    "LISTEN_READY_WAIT",
    "LOG_LINES",
    "MAX_PAGES",
    "NOT_MCP_GRACE",
    "SETTLED",
    "SILENCE_HINT",
    "CallFailed",
    "CallTimedOut",
    "NotConnected",
    "NotSignInServer",
    "ServerConnection",
    "ServerInfo",
    "ToolCallResult",
    "ToolGone",
]

logger = logging.getLogger(__name__)

LOG_LINES = 2_000

SETTLED = SETTLED_STATES

INSTALL_IDLE_LIMIT = 300.0
"""While npx/uvx download a server the connect timeout waits; this long without a line from the
package manager (a stalled download) ends it."""

INSTALL_REASON_EVERY = 0.25
"""A new "fetching NAME" reason at most this often: npm fetches a hundred packages in seconds."""

NOT_MCP_GRACE = 3.0
"""Does this look like an MCP server? A local program that prints text that is not a protocol
message on stdout, and has sent no protocol message this long after that first line, is not one:
the connection fails at once ("this does not look like an MCP server") instead of at the connect
timeout. A real server that prints a banner before answering answers well within this."""

SILENCE_HINT = 10.0
"""A local program that has said nothing on stdout this long (time spent INSTALLING does not
count) is told about under "connecting…" and in the log ("no answer yet: this may not be an MCP
server"); it is not stopped, because a slow real server (a JVM, a big Python import) is silent as
long. At the connect timeout the failure says it does not look like an MCP server."""

_CLIENT_INFO = types.Implementation(name="mcp-desk", title="MCP Desk", version="0.1.0")


class _Lost(Exception):
    """The server went away after the connection was ready."""


class ServerConnection(Calls, SignIn):
    def __init__(
        self,
        target: Target,
        *,
        handlers: ClientHandlers | None = None,
        sink: Sink | None = None,
        http_client: Any = None,
        server: Any = None,
        traffic: bool = True,
        secrets: Any = None,
        browser: Any = None,
        lists: Iterable[CatalogKind] = CATALOG_KINDS,
    ) -> None:
        """`http_client` is a shared `httpx2.AsyncClient` whose pool HTTP connections use.
        `server` (tests, embedding) is an in-process SDK `Server`/`MCPServer` used instead of the
        target's transport. `traffic=False` skips building Traffic events (benchmarks).
        `secrets` (an `app.secrets.store.SecretStore`) keeps the OAuth tokens and registration;
        without one they live in this connection's memory. `browser` (an `app.mcp.auth.Browser`)
        shows the sign-in page in `sign_in()`; a plain connect never uses it. `lists` are the
        catalog kinds listed (and kept listed) of those the server offers: all by default; a CLI
        command lists only what it shows or needs (`tools` and `call` the tools)."""
        self.target = target
        self.handlers: ClientHandlers = handlers or HeadlessHandlers(accept_defaults=False)
        self._sinks: list[Sink] = [sink] if sink is not None else []
        self._http_client = http_client
        self._inproc = server
        self.traffic = traffic
        self.state = ConnectionState.IDLE
        self.reason: str | None = None
        self.protocol_version: str | None = None
        self.server_info: ServerInfo | None = None
        self.capabilities: dict[str, Any] = {}
        self.instructions: str | None = None
        self.catalog = Catalog()
        self.log: deque[LogLine] = deque(maxlen=LOG_LINES)
        self.process: ProcessInfo | None = None
        self.was_ready = False
        """True once this run reached READY: a later failure is a drop, worth a reconnect."""
        self.refresh_counts: dict[CatalogKind, int] = dict.fromkeys(CATALOG_KINDS, 0)
        self._roots = target.roots
        self._client: Client | None = None
        self._task: asyncio.Task[None] | None = None
        self._scope: anyio.CancelScope | None = None
        self._stopping = False
        self._lost_reason: str | None = None
        self._lost = asyncio.Event()
        self._state_event = asyncio.Event()
        self._dirty: set[CatalogKind] = set()
        self._dirty_event = asyncio.Event()
        self._refresh_locks: dict[CatalogKind, asyncio.Lock] = {k: asyncio.Lock() for k in CATALOG_KINDS}
        self._validators: dict[str, tuple[ToolInfo, Any]] = {}
        self._subscribed: set[str] = set()
        self._listen_restart = asyncio.Event()
        self._listen_wanted = 0  # generation of the subscription set the listener should serve
        self._listen_served = 0  # generation the server has acknowledged
        self._listen_acked = asyncio.Event()
        self._listener_done = True
        self.listening = False
        """2026-07-28: the server has acknowledged our change subscription (subscriptions/listen):
        a list change from now on is heard (one published before may be lost, as in the spec)."""
        self._http_observer: Any = None
        self._call_clocks = ClockWatch()
        """In-flight requests' clocks: paused while a person answers the server."""
        self._people_waiting = 0
        self._assume_all_kinds = False
        self._lists = frozenset(lists)
        self.secrets = secrets
        self.browser = browser
        self._attempt: Any = None
        """The `SignInAttempt` of the run `sign_in()` started (None for a plain connect)."""
        self._next_attempt: Any = None
        self._auth: Any = None
        self._sign_in_problem: Any = None
        """The `SignInProblem` that ended (or will end) this run in NEEDS_SIGN_IN."""
        self._wanted_scope: str | None = None
        """Scopes a step-up asked for while no browser could be shown: the next sign-in asks them."""
        self._memory_store: Any = None
        self._install: InstallWatch | None = None
        """Watches npx/uvx's output on this run (None for other commands)."""
        self._install_said = 0.0
        self._not_mcp: str | None = None
        """Set when the program was judged not to be an MCP server (NOT_MCP_GRACE)."""
        self._not_mcp_timers: list[asyncio.TimerHandle] = []
        self._failure_rules = self._failure_rules_of_this_connection()
        # h12-elicit: the person's log level (both eras) and -32042 follow-ups (URL steps).
        self.log_level = ServerLogLevel(target.log_level)
        self.url_steps = UrlSteps(self._ask_url_step, lambda level, text: self._log(level, "client", text))
        self.tasks = TaskBoard(self.name, self._emit, mask=self._mask)  # calls run as tasks (tasks.py)
        # A lost 2025-era Streamable HTTP session is started again (app/mcp/session_recovery.py).
        self._session_keeper = SessionKeeper(
            log=lambda level, text: self._log(level, "client", text),
            lost=self._connection_lost,
            timeout=target.timeout,
        )

    def start(self) -> None:
        """Start connecting in a new owner task; returns at once. No-op while running."""
        if self._task is not None and not self._task.done():
            return
        self._stopping = False
        self._lost = asyncio.Event()
        self._lost_reason = None
        self._not_mcp = None
        self.was_ready = False
        self._sign_in_problem = None
        self._auth = None
        self._attempt, self._next_attempt = self._next_attempt, None
        self._set_state(ConnectionState.CONNECTING)
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"mcp-connection:{self.name}")

    async def wait_settled(self, timeout: float) -> ConnectionState:
        """Wait until READY, FAILED, NEEDS_SIGN_IN or CLOSED (or the timeout); returns the state.

        Time spent INSTALLING does not count, as for the connect timeout: the download has its
        own limit (INSTALL_IDLE_LIMIT), and after it the wait starts again from `timeout`."""
        deadline = anyio.current_time() + timeout
        while self.state not in SETTLED:
            if self.state == ConnectionState.INSTALLING:
                await self._state_event.wait()
                deadline = anyio.current_time() + timeout
                continue
            with anyio.move_on_after(deadline - anyio.current_time()) as scope:
                await self._state_event.wait()
            if scope.cancelled_caught:
                break
        return self.state

    async def stop(self) -> None:
        """Close the connection; when this returns no process of a stdio server is left."""
        task = self._task
        self._stopping = True
        if task is None or task.done():
            if self.state != ConnectionState.CLOSED:
                self._set_state(ConnectionState.CLOSED)
            return
        if self._scope is not None:
            self._scope.cancel()
        # The owner task may not have entered its scope yet; it checks _stopping first thing.
        await asyncio.shield(task)

    async def _run(self) -> None:
        if self._stopping:
            self._set_state(ConnectionState.CLOSED)
            return
        failure: BaseException | None = None
        timed_out = False
        lost = False
        self.process = None
        with anyio.CancelScope() as scope:
            self._scope = scope
            # The whole handshake and first listing must finish in time; the deadline is lifted
            # once ready (a cancel scope around only the `async with` entry is not allowed).
            scope.deadline = anyio.current_time() + self.target.timeout
            try:
                async with AsyncExitStack() as stack:
                    client = await self._open(stack)
                    self._client = client
                    await self._discover_if_pinned(client)
                    self._read_server_info(client)
                    await self._apply_log_level(client)
                    await self._initial_listing()
                    await self._resubscribe()
                    if self._sign_in_problem is not None:
                        raise _Lost  # a listing met a 401 (quiet in the listing): sign in first
                    scope.deadline = math.inf
                    self._listener_done = not self._modern
                    self.was_ready = True
                    if self._auth is not None:
                        self._auth.connected()  # from now on only a step-up may ask the person
                    async with anyio.create_task_group() as tg:
                        if self.protocol_version in MODERN_PROTOCOL_VERSIONS:
                            tg.start_soon(self._listener)
                            # A tool run as soon as the row says "connected" may change the list:
                            # its notification must find the stream open (the UI test that did
                            # so on a busy machine waited 20 s for a change never heard).
                            await self._first_listen()
                        self._set_state(ConnectionState.READY)
                        tg.start_soon(self._refresher)
                        if self._session_keeper.active and not self._modern:
                            tg.start_soon(self._keep_session, client)
                        await self._lost.wait()
                        tg.cancel_scope.cancel()
                    raise _Lost
            except _Lost:
                lost = True
            except Exception as exc:
                failure = exc
        timed_out = scope.cancelled_caught and not self._stopping
        for timer in self._not_mcp_timers:
            timer.cancel()
        self._not_mcp_timers.clear()
        self._call_clocks.close()  # the shared call timer outlives a call, not the run
        self._scope = None
        self._client = None
        self._attempt = None
        await self.tasks.close()  # a task cannot be followed without the session
        problem = self._sign_in_problem
        if self._stopping:
            self._set_state(ConnectionState.CLOSED)
        elif problem is not None:
            self._set_state(ConnectionState.NEEDS_SIGN_IN, problem.reason)
        elif self._not_mcp is not None and not self.was_ready:
            self._set_state(ConnectionState.FAILED, self._not_mcp)
        elif lost or (failure is not None and self.was_ready):
            self._set_state(ConnectionState.FAILED, self._lost_message(failure))
        elif timed_out and self.state == ConnectionState.INSTALLING:
            minutes = INSTALL_IDLE_LIMIT / 60
            self._set_state(
                ConnectionState.FAILED,
                self._install_failure()
                or f"installing the server stopped: nothing came from the download for {minutes:g} minutes",
            )
        elif timed_out:
            self._set_state(ConnectionState.FAILED, self._timeout_message())
        else:
            reason = self._install_failure() or reasons.explain(
                failure, self.target, self.process, self._http_observer
            )
            self._set_state(ConnectionState.FAILED, reason)

    def _lost_message(self, failure: BaseException | None) -> str:
        proc = self.process
        if proc is not None and proc.returncode is not None:
            return "connection lost: " + reasons.exited(proc)
        if self._lost_reason:
            return f"connection lost: {self._lost_reason}"
        if failure is not None:
            return "connection lost: " + reasons.explain(failure, self.target, proc, self._http_observer)
        return "connection lost: the server closed the connection"

    def _timeout_message(self) -> str:
        msg = f"the server did not finish connecting within {self.target.timeout:g} s"
        proc = self.process
        if proc is not None and proc.messages == 0:
            waited = f"{self.target.timeout:g} s"
            return reasons.not_mcp(
                proc, f"and has not answered in {waited}", f"it has not answered in {waited}"
            )
        if proc is not None and proc.stdout_noise:
            msg += f"; it printed non-protocol text on stdout: {proc.stdout_noise[-1]!r}"
        elif proc is not None and proc.stderr_tail:
            msg += f"; last stderr line: {proc.stderr_tail[-1]}"
        return msg

    def _install_failure(self) -> str | None:
        """Why npx/uvx could not download the server (offline, no such package, a proxy)."""
        watch = self._install
        return watch.failure() if watch is not None else None

    def _on_stderr(self, line: str) -> None:
        self._log("info", "stderr", line)
        watch = self._install
        if watch is None or self.was_ready or self._stopping:
            return
        proc = self.process
        if proc is not None and proc.resolved is not None and not watch.env:
            watch.env = proc.resolved.env
        step = watch.feed(line)
        scope = self._scope
        installing = self.state == ConnectionState.INSTALLING
        if isinstance(step, Fetching):
            if scope is not None and not scope.cancel_called:
                scope.deadline = anyio.current_time() + INSTALL_IDLE_LIMIT
            now = time.monotonic()
            if not installing or now - self._install_said >= INSTALL_REASON_EVERY:
                self._install_said = now
                self._set_state(ConnectionState.INSTALLING, step.reason)
        elif isinstance(step, Installed) and installing:
            # Downloaded: from now on the server itself has the usual time to answer.
            if scope is not None and not scope.cancel_called:
                scope.deadline = anyio.current_time() + self.target.timeout
            self._set_state(ConnectionState.CONNECTING)
        elif installing and scope is not None and not scope.cancel_called:
            scope.deadline = anyio.current_time() + INSTALL_IDLE_LIMIT  # any output: still alive

    def _on_noise(self, line: str) -> None:
        self._log("warning", "stderr", f"not a protocol message on stdout: {line}")
        proc = self.process
        if proc is not None and proc.messages == 0 and len(proc.stdout_noise) == 1 and not self.was_ready:
            # The first stray line: the program gets NOT_MCP_GRACE to speak MCP after all.
            loop = asyncio.get_running_loop()
            self._not_mcp_timers.append(loop.call_later(NOT_MCP_GRACE, self._judge_noise))

    def _judge_noise(self) -> None:
        """NOT_MCP_GRACE after its first stray stdout line: still no protocol message, not an MCP
        server. Not while INSTALLING (the download has its own rules): a line after it re-arms."""
        proc, scope = self.process, self._scope
        if proc is None or scope is None or proc.messages or self.was_ready or self._stopping:
            return
        if self.state == ConnectionState.INSTALLING:
            loop = asyncio.get_running_loop()
            self._not_mcp_timers.append(loop.call_later(NOT_MCP_GRACE, self._judge_noise))
            return
        self._not_mcp = reasons.not_mcp(proc, "instead of answering")
        scope.cancel()

    def _silence_check(self) -> None:
        proc = self.process
        if proc is None or proc.messages or proc.stdout_noise or self.was_ready or self._stopping:
            return
        if self.state == ConnectionState.INSTALLING:  # the download's time does not count
            loop = asyncio.get_running_loop()
            self._not_mcp_timers.append(loop.call_later(SILENCE_HINT, self._silence_check))
            return
        if self.state == ConnectionState.CONNECTING:
            hint = f"no answer yet after {SILENCE_HINT:g} s: this may not be an MCP server"
            self._log("warning", "mcp-desk", hint)
            self._set_state(ConnectionState.CONNECTING, hint)

    def _on_eof(self) -> None:
        if not self._stopping:
            self._connection_lost(None)

    async def _keep_session(self, client: Client) -> None:
        """While ready: renew a lost session, then list again what the new one offers."""

        async def renewed() -> None:
            self._read_server_info(client)
            await self.refresh()
            await self._resubscribe()

        await self._session_keeper.keep(client.session, renewed=renewed, check=self.ping)

    async def _open(self, stack: AsyncExitStack) -> Client:
        t = self.target
        mode = t.connect_mode  # "auto" over SSE is the legacy handshake
        callbacks: dict[str, Any] = {
            "mode": mode,
            "read_timeout_seconds": None,
            "sampling_callback": self._on_sampling,
            "elicitation_callback": self._on_elicit,
            "list_roots_callback": self._on_list_roots,
            "logging_callback": self._on_log_message,
            "message_handler": self._on_message,
            "client_info": _CLIENT_INFO,
            "cache": None,  # our catalog is the cache; a stale SDK cache would hide changes
            "log_level": self.log_level.level,
            "extensions": [client_extension(lambda: self.tasks)],  # tasks: app/mcp/tasks.py
        }
        if self._inproc is not None:
            return await stack.enter_async_context(Client(self._inproc, **callbacks))
        transport: Any
        if t.transport == "stdio":
            self.process = ProcessInfo()
            tool = tool_for(t.command or "", t.args)
            self._install = InstallWatch(tool) if tool is not None else None
            loop = asyncio.get_running_loop()
            self._not_mcp_timers.append(loop.call_later(SILENCE_HINT, self._silence_check))
            transport = open_stdio(t, self.process, on_stderr=self._on_stderr, on_noise=self._on_noise)
        else:
            from app.mcp.http import HttpObserver

            auth = await self._open_auth(stack) if t.uses_oauth else None
            # With OAuth a 401 is the sign-in's business (it says why); not an HTTP failure.
            observer = self._http_observer = HttpObserver(ignore_challenges=auth is not None)
            transport = await open_http(
                t,
                stack,
                shared_client=self._http_client,
                observer=observer,
                auth=auth,
                on_client=self._session_keeper.new_watch,
                log=lambda text: self._log("warning", "client", text),
            )
        # Without a traffic log (the CLI's connections) nothing is tapped: `traffic` is fixed
        # for the connection's life.
        tap = self._tap if self.traffic else None
        client = Client(TappedTransport(transport, tap, self._on_eof), **callbacks)
        return await stack.enter_async_context(client)

    async def _discover_if_pinned(self, client: Client) -> None:
        """A version pin (mode="2026-07-28") skips the probe, so the SDK only knows a stand-in
        discover result with no capabilities: ask the server once, for its real ones."""
        self._assume_all_kinds = False
        if self.target.mode in ("auto", "legacy") or self._inproc is not None:
            return
        session = client.session
        try:
            raw = await self._timed(session.send_discover(self.target.mode))
            session.adopt(types.DiscoverResult.model_validate(raw))
        except (MCPError, CallFailed, ValueError, RuntimeError) as exc:
            self._log("warning", "client", f"server/discover failed ({exc}); listing everything")
            self._assume_all_kinds = True

    def _read_server_info(self, client: Client) -> None:
        self.protocol_version = client.protocol_version
        info = client.server_info
        if info is not None:
            self.server_info = ServerInfo(
                name=info.name,
                title=info.title,
                version=info.version,
                icons=[_dump(i) for i in (info.icons or [])],
            )
        else:
            self.server_info = None
        self.capabilities = _dump(client.server_capabilities)
        self.instructions = client.instructions
