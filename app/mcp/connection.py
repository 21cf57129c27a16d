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
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import math
import os
import re
import sys
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Iterator
from contextlib import AsyncExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar, cast

import anyio
import mcp_types as types
from mcp import Client
from mcp.client.session import ClientRequestContext
from mcp.client.subscriptions import ListenNotSupportedError, SubscriptionLost
from mcp.shared.exceptions import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import TypeAdapter, ValidationError

from app.mcp import reasons
from app.mcp.catalog import Catalog, ToolInfo, add_entry, duplicates
from app.mcp.events import (
    CATALOG_KINDS,
    SETTLED_STATES,
    SIGNED_OUT,
    WAITING_FOR_BROWSER,
    CatalogChanged,
    CatalogDiff,
    CatalogKind,
    ConnectionState,
    Event,
    LogLine,
    Progress,
    ResourceUpdated,
    SignInWaiting,
    Sink,
    StateChanged,
    Traffic,
    add_sink_to,
    deliver,
)
from app.mcp.handlers import (
    ClientHandlers,
    ElicitationRequest,
    HeadlessHandlers,
    SamplingRequest,
    schema_defaults,
)
from app.mcp.masking import mask_text, scrub_fresh
from app.mcp.results import (
    CONNECTION_CLOSED,
    INVALID_PARAMS,
    METHOD_NOT_FOUND,
    REQUEST_TIMEOUT,
    CallFailed,
    CallTimedOut,
    NotConnected,
    ToolCallResult,
    ToolGone,
    check_structured,
    compile_validator,
)
from app.mcp.stdio import ProcessInfo, stdio_transport
from app.mcp.tap import TappedTransport
from app.mcp.target import Target
from app.runtimes.installing import Fetching, Installed, InstallWatch, tool_for

logger = logging.getLogger(__name__)

_R = TypeVar("_R")

DEBOUNCE = 0.1
"""Quiet time after a list_changed before refreshing: a burst becomes one refresh."""
DEBOUNCE_MAX = 1.0
"""A flood of notifications still refreshes at least this often."""
MAX_PAGES = 10_000
LOG_LINES = 2_000
SETTLED = SETTLED_STATES
INSTALL_IDLE_LIMIT = 300.0
"""While npx/uvx download a server the connect timeout waits; this long without a line from the
package manager (a stalled download) ends it."""
INSTALL_REASON_EVERY = 0.25
"""A new "fetching NAME" reason at most this often: npm fetches a hundred packages in seconds."""
HEADER_MISMATCH = -32020
LISTEN_READY_WAIT = 10.0
"""2026-07-28: READY waits at most this long for the server to acknowledge the change
subscription (subscriptions/listen). A change the server makes before that is lost (the spec
keeps no backlog), so "ready" means "a change from now on is heard"; a server slow to answer
the listen request is still made ready (and heard once it answers)."""
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

_CALL_RESULT: TypeAdapter[types.CallToolResult | types.InputRequiredResult] = TypeAdapter(
    types.CallToolResult | types.InputRequiredResult
)
_PROMPT_RESULT: TypeAdapter[types.GetPromptResult | types.InputRequiredResult] = TypeAdapter(
    types.GetPromptResult | types.InputRequiredResult
)
_READ_RESULT: TypeAdapter[types.ReadResourceResult | types.InputRequiredResult] = TypeAdapter(
    types.ReadResourceResult | types.InputRequiredResult
)
_UNKNOWN_TOOL = re.compile(
    r"unknown tool|tool[^.]{0,80}not found|no such tool|tool[^.]{0,80}does not exist", re.I
)

_LIST_METHODS: dict[CatalogKind, tuple[str, str]] = {
    "tools": ("tools/list", "tools"),
    "resources": ("resources/list", "resources"),
    "resource_templates": ("resources/templates/list", "resourceTemplates"),
    "prompts": ("prompts/list", "prompts"),
}

_NOUNS: dict[CatalogKind, str] = {
    "tools": "tools named",
    "resources": "resources with the URI",
    "resource_templates": "resource templates with the URI template",
    "prompts": "prompts named",
}

_CALL_IDS = itertools.count(1)

_CLIENT_INFO = types.Implementation(name="mcp-desk", title="MCP Desk", version="0.1.0")


@dataclass(frozen=True)
class ServerInfo:
    """What the server says about itself (all optional on 2026-07-28 servers)."""

    name: str
    title: str | None
    version: str | None
    icons: list[dict[str, Any]] = field(default_factory=list)


def _dump(model: Any) -> dict[str, Any]:
    return cast(dict[str, Any], model.model_dump(by_alias=True, mode="json", exclude_unset=True))


def _file_uri(root: str) -> str:
    if "://" in root:
        return root
    return Path(os.path.expanduser(root)).resolve().as_uri()


class _Lost(Exception):
    """The server went away after the connection was ready."""


class NotSignInServer(ValueError):
    """sign_in() on a server that does not sign in with OAuth (stdio, or credentials in a header)."""


class ServerConnection:
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
    ) -> None:
        """`http_client` is a shared `httpx2.AsyncClient` whose pool HTTP connections use.
        `server` (tests, embedding) is an in-process SDK `Server`/`MCPServer` used instead of the
        target's transport. `traffic=False` skips building Traffic events (benchmarks).
        `secrets` (an `app.secrets.store.SecretStore`) keeps the OAuth tokens and registration;
        without one they live in this connection's memory. `browser` (an `app.mcp.auth.Browser`)
        shows the sign-in page in `sign_in()`; a plain connect never uses it."""
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
        self._call_clocks: dict[anyio.CancelScope, float] = {}
        """In-flight calls' timeout scopes and limits: paused while a person answers the server."""
        self._people_waiting = 0
        self._assume_all_kinds = False
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

    # ----------------------------------------------------------------- events

    @property
    def name(self) -> str:
        return self.target.name

    def add_sink(self, sink: Sink) -> Callable[[], None]:
        return add_sink_to(self._sinks, sink)

    def _emit(self, event: Event) -> None:
        if self._sinks:
            deliver(self._sinks, event)

    def _log(self, level: str, source: Any, text: str) -> None:
        if self.target.secret_values:
            text = mask_text(text, self.target.secret_values)
        line = LogLine(self.name, time.time(), level, source, text)
        self.log.append(line)
        self._emit(line)

    def _mask(self, text: str) -> str:
        return mask_text(text, self.target.secret_values) if self.target.secret_values else text

    def _masked(self, data: Any) -> Any:
        """A server's answer (just dumped, held by nobody else) with our secrets masked in place:
        a server that repeats a key it was given must not put it on the screen or in history."""
        secrets = self.target.secret_values
        return scrub_fresh(data, secrets, sys.maxsize) if secrets else data

    def _masked_listing(self, item: dict[str, Any]) -> dict[str, Any]:
        """A listed tool, resource or prompt with our secrets masked in its texts (a description
        may repeat a key); its name and URI are kept as sent: they are how we ask for it."""
        if not self.target.secret_values:
            return item
        keep: dict[str, Any] = {k: item[k] for k in ("name", "uri", "uriTemplate") if k in item}
        masked: dict[str, Any] = self._masked(item)
        masked.update(keep)
        return masked

    def _set_state(self, state: ConnectionState, reason: str | None = None) -> None:
        if reason and self.target.secret_values:
            reason = mask_text(reason, self.target.secret_values)
        self.state = state
        self.reason = reason
        if state == ConnectionState.FAILED:
            logger.info("%s failed: %s", self.name, reason)
        self._state_event.set()
        self._state_event = asyncio.Event()
        self._emit(StateChanged(self.name, state, reason))

    def _tap(self, direction: Any, message: types.JSONRPCMessage) -> None:
        if not self.traffic or not self._sinks:
            return
        data = message.model_dump(by_alias=True, mode="json", exclude_unset=True)
        self._emit(Traffic(self.name, time.time(), direction, scrub_fresh(data, self.target.secret_values)))

    # -------------------------------------------------------------- lifecycle

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
        self._scope = None
        self._client = None
        self._attempt = None
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
            self._lost_reason = self._lost_reason or "the server closed the connection"
            self._lost.set()

    async def _open(self, stack: AsyncExitStack) -> Client:
        t = self.target
        mode = t.mode or "auto"
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
            "log_level": "info",
        }
        if self._inproc is not None:
            return await stack.enter_async_context(Client(self._inproc, **callbacks))
        transport: Any
        if t.transport == "stdio":
            from mcp.client.stdio import get_default_environment

            self.process = ProcessInfo()
            env = get_default_environment() | dict(t.env)
            tool = tool_for(t.command or "", t.args)
            self._install = InstallWatch(tool) if tool is not None else None
            loop = asyncio.get_running_loop()
            self._not_mcp_timers.append(loop.call_later(SILENCE_HINT, self._silence_check))
            transport = stdio_transport(
                t.command or "",
                t.args,
                env,
                t.cwd,
                info=self.process,
                on_stderr=self._on_stderr,
                on_noise=self._on_noise,
                mask=lambda text: mask_text(text, t.secret_values) if t.secret_values else text,
            )
        else:
            from app.mcp.http import HttpObserver, connection_client

            auth = await self._open_auth(stack) if t.uses_oauth else None
            # With OAuth a 401 is the sign-in's business (it says why); not an HTTP failure.
            observer = self._http_observer = HttpObserver(ignore_challenges=auth is not None)
            if t.transport == "http":
                from mcp.client.streamable_http import streamable_http_client

                # The SDK does not close a client it was given: the exit stack does.
                http = await stack.enter_async_context(
                    connection_client(self._http_client, t.headers, observer, auth=auth)
                )
                transport = streamable_http_client(t.url or "", http_client=http)
            else:
                from mcp.client.sse import sse_client

                transport = sse_client(
                    t.url or "",
                    headers=dict(t.headers),
                    auth=auth,
                    # sse_client enters (and closes) the client this factory makes.
                    httpx_client_factory=lambda headers=None, timeout=None, auth=None: connection_client(
                        self._http_client, t.headers, observer, auth=auth
                    ),
                )
        client = Client(TappedTransport(transport, self._tap, self._on_eof), **callbacks)
        return await stack.enter_async_context(client)

    # ---------------------------------------------------------------- sign-in

    @property
    def _oauth_key(self) -> str:
        """The server name the sign-in is stored under: an ad-hoc target may be named by its URL,
        which the store does not take as a name ("/" separates its keys)."""
        return self.name.replace("/", "\u2215")

    async def _usable_store(self) -> Any:
        """The store for the sign-in: the given one, or, when its keychain cannot be read (none,
        locked), this connection's memory, so a server that needs no sign-in still connects
        and one that does keeps its sign-in for this session."""
        from app.secrets.errors import SecretStoreError
        from app.secrets.store import SecretStore

        if self._memory_store is not None:
            return self._memory_store
        store = self._secret_store()
        try:
            await store.aget(self._oauth_key, "oauth.tokens")
        except SecretStoreError as exc:
            self._log("warning", "client", f"sign-in cannot use the keychain ({exc}); it lasts this session")
            self._memory_store = SecretStore(session_only=True)
            return self._memory_store
        return store

    def _secret_store(self) -> Any:
        if self.secrets is None:
            from app.secrets.store import SecretStore

            # No keyring given (ad-hoc targets, embedding): the sign-in lasts this connection.
            self.secrets = SecretStore(session_only=True)
        return self.secrets

    async def _open_auth(self, stack: AsyncExitStack) -> Any:
        from app.mcp.auth import SignInHooks, SignInProblem, open_auth
        from app.secrets.oauth import KeyringTokenStorage

        hooks = SignInHooks(
            waiting=self._on_sign_in_waiting,
            resumed=self._on_sign_in_resumed,
            pause=self._signing_in,
            failed=self._on_sign_in_problem,
        )
        storage = KeyringTokenStorage(await self._usable_store(), self._oauth_key)
        try:
            self._auth = await open_auth(self.target, storage, stack, attempt=self._attempt, hooks=hooks)
        except SignInProblem as exc:
            self._on_sign_in_problem(exc)
            raise
        return self._auth

    def _on_sign_in_waiting(self, url: str) -> None:
        # A step-up of a ready server (a call needing more permissions) keeps it READY: only
        # that call waits; the SignInWaiting event says where the person is.
        if self.state == ConnectionState.CONNECTING:
            self._set_state(ConnectionState.CONNECTING, WAITING_FOR_BROWSER)
        self._emit(SignInWaiting(self.name, url))

    def _on_sign_in_resumed(self) -> None:
        if self.state == ConnectionState.CONNECTING and self.reason == WAITING_FOR_BROWSER:
            self._set_state(ConnectionState.CONNECTING)

    def _on_sign_in_problem(self, problem: Any) -> None:
        """The sign-in will not happen: end this run (it settles in NEEDS_SIGN_IN)."""
        if self._sign_in_problem is not None:
            return
        self._sign_in_problem = problem
        scope = getattr(problem, "scope", None)
        if scope:
            self._wanted_scope = scope
        if self.state == ConnectionState.READY:
            self._lost_reason = problem.reason
            self._lost.set()
        elif self._scope is not None:
            self._scope.cancel()

    def _take_step_up_refusal(self) -> str | None:
        """Why the last step-up did not happen (declined, cancelled, timed out), once."""
        desk = getattr(self._auth, "_desk", None)
        refusal = getattr(desk, "refused_step_up", None)
        if refusal is None:
            return None
        desk.refused_step_up = None  # type: ignore[union-attr]
        return str(refusal.reason)

    @contextmanager
    def _signing_in(self) -> Iterator[None]:
        """The person is in the browser: the connect timeout measures the server, not them
        (the sign-in has its own timeout), and calls in flight stop their clocks too."""
        scope = self._scope
        connecting = scope is not None and not self.was_ready
        if connecting and scope is not None:
            scope.deadline = math.inf
        try:
            with self._waiting_on_a_person():
                yield
        finally:
            if connecting and scope is not None and not scope.cancel_called:
                scope.deadline = anyio.current_time() + self.target.timeout

    @property
    def uses_sign_in(self) -> bool:
        """True for a server that signs in with OAuth (http/sse without credential headers)."""
        return self._inproc is None and self.target.uses_oauth

    @property
    def signing_in(self) -> bool:
        """True while a `sign_in()` waits for the person in the browser."""
        attempt = self._attempt
        return attempt is not None and bool(attempt.waiting)

    async def sign_in(self, *, timeout: float | None = None, browser: Any = None) -> ConnectionState:
        """Connect again, signing in through the browser (`browser`, else the connection's, else
        the system browser); returns the settled state (READY, NEEDS_SIGN_IN with the reason
        why not, FAILED). The stored access token is set aside first: a sign-in asks the person,
        keeping the registration and asking again for the scopes granted before."""
        from app.mcp.auth import SIGN_IN_TIMEOUT, SignInAttempt, SystemBrowser
        from app.secrets.oauth import KeyringTokenStorage

        if not self.uses_sign_in:
            raise NotSignInServer(f"{self.name} does not sign in (its credentials are in its settings)")
        if self._task is not None and not self._task.done():
            await self.stop()
        from mcp.client.auth.utils import union_scopes

        from app.secrets.oauth import TOKENS

        store = await self._usable_store()
        storage = KeyringTokenStorage(store, self._oauth_key)
        old = await storage.get_tokens()
        old_raw = await store.aget(self._oauth_key, TOKENS) if old is not None else None
        extra = union_scopes(old.scope if old is not None else None, self._wanted_scope)
        if old is not None:
            await store.adelete(self._oauth_key, TOKENS)
        self._next_attempt = SignInAttempt(
            browser=browser or self.browser or SystemBrowser(),
            timeout=timeout if timeout is not None else SIGN_IN_TIMEOUT,
            extra_scope=extra,
        )
        self.start()
        await self.wait_settled(math.inf)
        if self.state == ConnectionState.READY:
            self._wanted_scope = None
        elif old_raw is not None and await store.aget(self._oauth_key, TOKENS) is None:
            # A sign-in that did not happen (cancelled, declined, timed out) takes nothing away:
            # the tokens set aside come back (a valid one still works on the next connect).
            await store.aset(self._oauth_key, TOKENS, old_raw)
        return self.state

    def cancel_sign_in(self) -> bool:
        """Stop a sign-in in progress (it settles in NEEDS_SIGN_IN, "sign-in was cancelled");
        False when there was none."""
        attempt = self._attempt
        if attempt is None or self._task is None or self._task.done():
            return False
        attempt.cancel()
        if not attempt.waiting and self.state == ConnectionState.CONNECTING:
            from app.mcp.auth import SignInCancelled

            self._on_sign_in_problem(SignInCancelled())
        return True

    async def sign_out(self) -> None:
        """Forget the tokens and the dynamic registration; the server is left NEEDS_SIGN_IN."""
        from app.mcp.auth import forget

        if self._task is not None and not self._task.done():
            await self.stop()
        await forget(await self._usable_store(), self._oauth_key)
        self._wanted_scope = None
        self._set_state(ConnectionState.NEEDS_SIGN_IN, SIGNED_OUT)

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

    # ---------------------------------------------------------------- catalog

    def _has(self, kind: CatalogKind) -> bool:
        if self._assume_all_kinds:
            return True
        key = {
            "tools": "tools",
            "resources": "resources",
            "resource_templates": "resources",
            "prompts": "prompts",
        }
        return key[kind] in self.capabilities

    async def _initial_listing(self) -> None:
        self.catalog.clear()
        self._validators.clear()
        for kind in CATALOG_KINDS:
            if self._has(kind):
                await self._refresh_kind(kind, quiet_errors=True)

    async def _resubscribe(self) -> None:
        """After a reconnect, subscriptions made before the drop are renewed (2025 era; the
        2026 listener opens its stream with them anyway)."""
        if self._modern or not self._subscribed:
            return
        session = self._require_client().session
        for uri in sorted(self._subscribed):
            try:
                with self._failures(f"subscribing to {uri}"):
                    await self._timed(
                        session.send_request(
                            types.SubscribeRequest(params=types.SubscribeRequestParams(uri=uri)),
                            types.EmptyResult,
                        )
                    )
            except CallFailed as exc:
                self._log("warning", "client", f"could not renew the subscription to {uri}: {exc}")

    async def refresh(self, kind: CatalogKind | None = None) -> dict[CatalogKind, CatalogDiff]:
        """List again now (one kind or all the server offers); returns the diffs."""
        self._require_client()
        kinds = [kind] if kind is not None else [k for k in CATALOG_KINDS if self._has(k)]
        return {k: await self._refresh_kind(k) for k in kinds}

    async def _refresh_kind(self, kind: CatalogKind, *, quiet_errors: bool = False) -> CatalogDiff:
        async with self._refresh_locks[kind]:
            try:
                entries = await self._list_all(kind)
            except CallFailed as exc:
                if not quiet_errors:
                    raise
                self._log("warning", "client", f"listing {kind.replace('_', ' ')} failed: {exc}")
                return CatalogDiff()
            self.refresh_counts[kind] += 1
            self._report_mistakes(kind, entries)
            diff = self.catalog.replace(kind, entries)
            if kind == "tools":
                for name in (*diff.removed, *diff.changed):
                    self._validators.pop(name, None)
            if diff:
                self._emit(CatalogChanged(self.name, kind, diff))
            return diff

    def _report_mistakes(self, kind: CatalogKind, entries: dict[str, Any]) -> None:
        """Say in the log what is wrong with a fresh listing, once (not again on each refresh)."""
        before = self.catalog.of(kind)
        noun = _NOUNS[kind]
        for key, count in duplicates(entries).items():
            old = before.get(key)
            if old is None or old.listed != count:
                text = f"the server lists {count} {noun} {key!r}; only the first is used"
                self._log("warning", "client", text)
        if kind != "tools":
            return
        for name, tool in entries.items():
            old = before.get(name)
            if tool.problem and (old is None or old.problem != tool.problem):
                verb = "cannot be used" if not tool.runnable else "is not fully usable"
                self._log("warning", "client", f"tool {name!r} {verb}: {tool.problem}")

    async def _list_all(self, kind: CatalogKind) -> dict[str, Any]:
        """Every page, following nextCursor ourselves (the SDK's own re-list stops at 100 pages).

        Pages are taken as raw dicts: the catalog keeps exactly what the server sent, and a
        10,000-tool catalog does not pay for two pydantic validations and a dump per tool.
        """
        session = self._require_client().session
        method, key = _LIST_METHODS[kind]
        entries: dict[str, Any] = {}
        cursor: str | None = None
        seen: set[str] = set()
        for _ in range(MAX_PAGES):
            with self._failures(method):
                page = await self._timed(self._raw_request(method, {"cursor": cursor} if cursor else None))
            items = page.get(key)
            if not isinstance(items, list):
                raise CallFailed(f"the server answered {method} without a {key!r} list")
            next_cursor = page.get("nextCursor")
            if kind == "tools" and self._modern:
                # 2026-07-28: the SDK must see the listing (it drops tools with invalid
                # x-mcp-header annotations and mirrors valid ones into HTTP headers on calls).
                parsed = self._parse_tools_page(page)
                complete = cursor is None and next_cursor is None
                kept = {t.name for t in session._absorb_tool_listing(parsed, complete=complete).tools}
                items = [i for i in items if isinstance(i, dict) and i.get("name") in kept]
            for item in items:
                if isinstance(item, dict):
                    add_entry(entries, kind, self._masked_listing(item))
            cursor = next_cursor if isinstance(next_cursor, str) else None
            if cursor is None or cursor in seen:
                break
            seen.add(cursor)
        return entries

    def _parse_tools_page(self, page: dict[str, Any]) -> types.ListToolsResult:
        """The page as the SDK's model; a malformed tool is left out (and logged), not fatal."""
        try:
            return types.ListToolsResult.model_validate(page, by_name=False)
        except ValidationError:
            good: list[types.Tool] = []
            for item in page.get("tools") or []:
                try:
                    good.append(types.Tool.model_validate(item, by_name=False))
                except ValidationError as exc:
                    name = item.get("name") if isinstance(item, dict) else None
                    self._log(
                        "warning", "client", f"ignoring malformed tool {name!r}: {exc.errors()[0]['msg']}"
                    )
            return types.ListToolsResult(tools=good)

    async def _raw_request(self, method: str, params: dict[str, Any] | None) -> dict[str, Any]:
        """Send a request through the session (its per-era stamp included) and return the raw
        result dict, without the SDK's typed parsing."""
        session = self._require_client().session
        data: dict[str, Any] = {"method": method}
        if params:
            data["params"] = params
        opts: Any = {}
        session._stamp(data, opts)
        return await session._dispatcher.send_raw_request(method, data.get("params"), opts)

    def _mark_dirty(self, *kinds: CatalogKind) -> None:
        self._dirty.update(kinds)
        self._dirty_event.set()

    async def _refresher(self) -> None:
        """Debounce and coalesce change notifications into few refreshes."""
        while True:
            await self._dirty_event.wait()
            started = anyio.current_time()
            while True:  # wait for a quiet moment, but not forever under a flood
                self._dirty_event.clear()
                with anyio.move_on_after(DEBOUNCE) as quiet:
                    await self._dirty_event.wait()
                if quiet.cancelled_caught or anyio.current_time() - started >= DEBOUNCE_MAX:
                    break
            self._dirty_event.clear()
            kinds, self._dirty = self._dirty, set()
            for kind in CATALOG_KINDS:
                if kind in kinds:
                    try:
                        await self._refresh_kind(kind)
                    except CallFailed as exc:
                        self._log("warning", "client", f"refreshing {kind.replace('_', ' ')} failed: {exc}")

    async def _listener(self) -> None:
        """2026-07-28: change notifications come through `subscriptions/listen`, re-opened when
        the set of subscribed resources changes or the stream drops."""
        self._listener_done = False
        try:
            await self._listen_loop()
        finally:
            self._listener_done = True
            self._listen_acked.set()  # wake subscribers: they see the listener is gone

    async def _listen_loop(self) -> None:
        client = self._require_client()
        caps = self.capabilities
        backoff = 0.5
        while True:
            self._listen_restart.clear()
            generation = self._listen_wanted
            flags = {
                "tools_list_changed": bool((caps.get("tools") or {}).get("listChanged")),
                "prompts_list_changed": bool((caps.get("prompts") or {}).get("listChanged")),
                "resources_list_changed": bool((caps.get("resources") or {}).get("listChanged")),
            }
            if not any(flags.values()) and not self._subscribed:
                self._acknowledge(generation)
                await self._listen_restart.wait()  # nothing to listen for until a subscription
                continue
            try:
                async with client.listen(**flags, resource_subscriptions=sorted(self._subscribed)) as sub:
                    backoff = 0.5
                    self.listening = True
                    self._acknowledge(generation)
                    try:
                        async with anyio.create_task_group() as tg:

                            async def restart_on_change() -> None:
                                await self._listen_restart.wait()
                                tg.cancel_scope.cancel()

                            tg.start_soon(restart_on_change)
                            async for event in sub:
                                self._on_server_event(event)
                            tg.cancel_scope.cancel()
                    finally:
                        self.listening = False
                if not self._listen_restart.is_set():
                    return  # the server closed the stream gracefully: nothing more will come
            except ListenNotSupportedError:
                return
            except (SubscriptionLost, MCPError) as exc:
                self._log("warning", "client", f"change subscription ended: {exc}; listening again")
                with anyio.move_on_after(backoff):
                    await self._listen_restart.wait()
                backoff = min(backoff * 2, 30.0)
                # Events may have been missed while the stream was down: refetch.
                self._mark_dirty(*[k for k in CATALOG_KINDS if self._has(k)])

    async def _first_listen(self) -> None:
        """Wait (at most LISTEN_READY_WAIT) until the listener has opened its first stream, has
        nothing to listen for, or has given up (the server does not offer it)."""
        self._listen_wanted += 1
        generation = self._listen_wanted
        # The previous connection's listener set the event as it ended (and left it set): a new
        # one, or this loop would never wait.
        self._listen_acked = asyncio.Event()
        with anyio.move_on_after(LISTEN_READY_WAIT) as late:
            while self._listen_served < generation and not self._listener_done:
                await self._listen_acked.wait()
        if late.cancelled_caught:
            self._log("warning", "client", "the server has not confirmed change notifications yet")

    def _acknowledge(self, generation: int) -> None:
        self._listen_served = generation
        self._listen_acked.set()
        self._listen_acked = asyncio.Event()

    async def _relisten(self) -> None:
        """Re-open the listen stream with the current subscriptions and wait for the server's ack."""
        self._listen_wanted += 1
        generation = self._listen_wanted
        self._listen_restart.set()

        async def acked() -> None:
            while self._listen_served < generation:
                if self._listener_done:
                    raise CallFailed("the server does not offer change subscriptions (subscriptions/listen)")
                await self._listen_acked.wait()

        await self._timed(acked())

    def _on_server_event(self, event: Any) -> None:
        from mcp.client.subscriptions import (
            PromptsListChanged,
            ResourcesListChanged,
            ToolsListChanged,
        )
        from mcp.client.subscriptions import ResourceUpdated as SdkResourceUpdated

        if isinstance(event, ToolsListChanged):
            self._mark_dirty("tools")
        elif isinstance(event, PromptsListChanged):
            self._mark_dirty("prompts")
        elif isinstance(event, ResourcesListChanged):
            self._mark_dirty("resources", "resource_templates")
        elif isinstance(event, SdkResourceUpdated):
            self._emit(ResourceUpdated(self.name, str(event.uri)))

    # ------------------------------------------------------ SDK callbacks

    async def _on_message(self, message: Any) -> None:
        if isinstance(message, Exception):
            self._log("warning", "client", f"transport problem: {message}")
            return
        root = getattr(message, "root", message)
        if isinstance(root, types.ToolListChangedNotification):
            self._mark_dirty("tools")
        elif isinstance(root, types.PromptListChangedNotification):
            self._mark_dirty("prompts")
        elif isinstance(root, types.ResourceListChangedNotification):
            self._mark_dirty("resources", "resource_templates")
        elif isinstance(root, types.ResourceUpdatedNotification) and not self._modern:
            # On 2026-07-28 the listen stream delivers the same event; the tee copy is skipped.
            self._emit(ResourceUpdated(self.name, str(root.params.uri)))

    async def _on_log_message(self, params: types.LoggingMessageNotificationParams) -> None:
        data = params.data
        text = data if isinstance(data, str) else json.dumps(data, default=str)
        if params.logger:
            text = f"[{params.logger}] {text}"
        self._log(str(params.level), "server", text)

    async def _on_elicit(
        self, context: ClientRequestContext, params: types.ElicitRequestParams
    ) -> types.ElicitResult | types.ErrorData:
        if isinstance(params, types.ElicitRequestURLParams):
            request = ElicitationRequest(
                message=params.message, mode="url", url=params.url, elicitation_id=params.elicitation_id
            )
        else:
            schema = dict(params.requested_schema)
            request = ElicitationRequest(
                message=params.message, mode="form", requested_schema=schema, defaults=schema_defaults(schema)
            )
        response = await self._ask_person(
            lambda: self.handlers.elicit(self.name, request), "elicitation", "the client could not ask"
        )
        if isinstance(response, types.ErrorData):
            return response
        content = response.content if response.action == "accept" and request.mode == "form" else None
        return types.ElicitResult(action=response.action, content=content)

    async def _on_sampling(
        self, context: ClientRequestContext, params: types.CreateMessageRequestParams
    ) -> types.CreateMessageResult | types.CreateMessageResultWithTools | types.ErrorData:
        request = SamplingRequest(
            messages=[_dump(m) for m in params.messages],
            system_prompt=params.system_prompt,
            max_tokens=params.max_tokens,
            raw=_dump(params),
        )
        response = await self._ask_person(
            lambda: self.handlers.sample(self.name, request), "sampling", "the client could not sample"
        )
        if isinstance(response, types.ErrorData):
            return response
        if response.action != "accept" or response.content is None:
            return types.ErrorData(
                code=-1, message=response.message or "the user declined the sampling request"
            )
        return types.CreateMessageResult.model_validate(
            {
                "role": response.role,
                "content": response.content,
                "model": response.model,
                "stopReason": response.stop_reason,
            }
        )

    async def _ask_person(
        self, ask: Callable[[], Awaitable[_R]], what: str, failure: str
    ) -> _R | types.ErrorData:
        """Run a handler that may wait for a person; a handler that raises answers the server
        with an error instead of breaking the connection."""
        try:
            with self._waiting_on_a_person():
                return await ask()
        except Exception as exc:
            logger.exception("%s handler failed", what)
            return types.ErrorData(code=types.INTERNAL_ERROR, message=f"{failure}: {exc}")

    @contextmanager
    def _waiting_on_a_person(self) -> Iterator[None]:
        """A call's timeout measures the server, not a person filling in a form: stop the clocks
        of the calls in flight while a handler waits, and give them a fresh budget after."""
        self._people_waiting += 1
        if self._people_waiting == 1:
            for scope in self._call_clocks:
                scope.deadline = math.inf
        try:
            yield
        finally:
            self._people_waiting -= 1
            if not self._people_waiting:
                now = anyio.current_time()
                for scope, limit in self._call_clocks.items():
                    scope.deadline = now + limit

    async def _on_list_roots(self, context: ClientRequestContext) -> types.ListRootsResult | types.ErrorData:
        roots = [
            types.Root.model_validate({"uri": _file_uri(r), "name": Path(os.path.expanduser(r)).name or r})
            for r in self._roots
        ]
        return types.ListRootsResult(roots=roots)

    def update_roots(self, roots: tuple[str, ...]) -> bool:
        """Take new roots (answered on the next roots/list); True when they changed."""
        if tuple(roots) == self._roots:
            return False
        self._roots = tuple(roots)
        self.target = _replace_roots(self.target, self._roots)
        return True

    async def set_roots(self, roots: tuple[str, ...]) -> None:
        """New roots from the settings; a ready 2025-era server is told with roots/list_changed."""
        if self.update_roots(roots):
            await self.notify_roots_changed()

    async def notify_roots_changed(self) -> None:
        client = self._client
        if client is not None and self.state == ConnectionState.READY and not self._modern:
            with self._failures("notifications/roots/list_changed"):
                await client.session.send_notification(types.RootsListChangedNotification())

    # --------------------------------------------------------------- requests

    @property
    def _modern(self) -> bool:
        return self.protocol_version in MODERN_PROTOCOL_VERSIONS

    def _require_client(self) -> Client:
        client = self._client
        if client is None or self.state not in (
            ConnectionState.READY,
            ConnectionState.CONNECTING,
            ConnectionState.INSTALLING,
        ):
            raise NotConnected(self.name, self.reason)
        return client

    async def _timed(self, awaitable: Any, timeout: float | None = None) -> Any:
        """Await a request with the target's timeout (the server is told if it runs out)."""
        limit = timeout if timeout is not None else self.target.timeout
        with anyio.move_on_after(limit) as scope:
            return await awaitable
        if scope.cancelled_caught:
            raise CallTimedOut(f"no answer within {limit:g} s", REQUEST_TIMEOUT)
        raise AssertionError("unreachable")

    class _FailureMapper:
        def __init__(self, conn: ServerConnection, what: str) -> None:
            self.conn = conn
            self.what = what

        def __enter__(self) -> None:
            return None

        def __exit__(self, exc_type: Any, exc: BaseException | None, tb: Any) -> Literal[False]:
            if exc is None or isinstance(exc, CallFailed) or not isinstance(exc, Exception):
                return False
            if isinstance(exc, MCPError):
                if exc.error.code == CONNECTION_CLOSED:
                    self.conn._lost_reason = self.conn._lost_reason or "the server closed the connection"
                    self.conn._lost.set()
                    raise CallFailed(
                        f"{self.what} failed: the connection to the server was lost", CONNECTION_CLOSED
                    ) from exc
                refusal = self.conn._take_step_up_refusal()
                if refusal is not None:
                    message = f"{self.what} needs more permissions: {refusal}"
                    raise CallFailed(message, exc.error.code) from exc
                raise CallFailed(
                    self.conn._mask(exc.error.message), exc.error.code, self.conn._masked(exc.error.data)
                ) from exc
            if reasons.is_network_error(exc):
                self.conn._lost_reason = reasons.explain(
                    exc, self.conn.target, None, self.conn._http_observer
                )
                self.conn._lost.set()
            raise CallFailed(self.conn._mask(f"{self.what} failed: {reasons.short(exc)}")) from exc

    def _failures(self, what: str) -> ServerConnection._FailureMapper:
        return ServerConnection._FailureMapper(self, what)

    async def call_tool(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
        call_id: str | None = None,
    ) -> ToolCallResult:
        """Call a tool. `isError` results are returned; protocol failures raise `CallFailed`
        (`CallTimedOut` when nothing, not even progress, came within `timeout`; `ToolGone` when
        the server no longer knows the tool even after re-listing). Cancelling the awaiting task
        cancels the call on the server."""
        self._require_client()
        call_id = call_id or f"call-{next(_CALL_IDS)}"
        known_before = self.catalog.tools.get(name)
        try:
            result = await self._call_once(name, arguments, timeout, call_id)
        except CallFailed as exc:
            if exc.code in (INVALID_PARAMS, METHOD_NOT_FOUND) and _UNKNOWN_TOOL.search(exc.message or ""):
                await self._rediscover(name, known_before)
            raise
        if result.is_error and _UNKNOWN_TOOL.search(result.text()):
            await self._rediscover(name, known_before)
        return result

    async def _rediscover(self, name: str, before: ToolInfo | None) -> None:
        """One re-listing after the server did not know a tool; raises ToolGone if it is gone."""
        await self._refresh_kind("tools")
        if name in self.catalog.tools:
            return  # it is there: the failure was something else, let the caller see it
        raise ToolGone(self.name, name, _successor(before, self.catalog.tools), known=before is not None)

    async def _call_once(
        self, name: str, arguments: dict[str, Any] | None, timeout: float | None, call_id: str
    ) -> ToolCallResult:
        client = self._require_client()
        session = client.session
        limit = timeout if timeout is not None else self.target.timeout
        started = time.perf_counter()
        scope = anyio.CancelScope(deadline=math.inf if self._people_waiting else anyio.current_time() + limit)

        async def on_progress(progress: float, total: float | None, message: str | None) -> None:
            if not self._people_waiting:
                scope.deadline = anyio.current_time() + limit  # progress means it is alive: restart the clock
            said = self._mask(message) if message else message  # a server's words may repeat a key
            self._emit(Progress(self.name, call_id, progress, total, said))

        async def send(
            responses: types.InputResponses | None, state: str | None
        ) -> types.CallToolResult | types.InputRequiredResult:
            request = types.CallToolRequest(
                params=types.CallToolRequestParams(
                    name=name, arguments=arguments, input_responses=responses, request_state=state
                )
            )
            try:
                return await session.send_request(request, _CALL_RESULT, progress_callback=on_progress)
            except MCPError as exc:
                if exc.error.code != HEADER_MISMATCH or not self._modern:
                    raise
                # 2026-07-28: the server thinks our listing is stale; list again and resend once.
                await self._refresh_kind("tools")
                return await session.send_request(request, _CALL_RESULT, progress_callback=on_progress)

        self._call_clocks[scope] = limit
        try:
            with scope, self._failures(f"calling {name}"):
                first = await send(None, None)
                final = await self._drive_input_required(first, send)
        finally:
            del self._call_clocks[scope]
        if scope.cancelled_caught:
            raise CallTimedOut(
                f"{name} did not answer within {limit:g} s (the server was asked to stop)", REQUEST_TIMEOUT
            )
        elapsed = time.perf_counter() - started
        return self._to_result(name, final, elapsed)

    async def _drive_input_required(self, first: Any, retry: Any) -> Any:
        """2026-07-28 servers ask for input inside results; answer through the same callbacks."""
        if not isinstance(first, types.InputRequiredResult):
            return first
        from mcp.client._input_required import run_input_required_driver

        session = self._require_client().session

        async def dispatch(key: str, req: types.InputRequest) -> types.InputResponse | types.ErrorData:
            ctx = ClientRequestContext(
                session=session, request_id=key, meta=req.params.meta if req.params else None
            )
            return await session.dispatch_input_request(ctx, req)

        return await run_input_required_driver(first, dispatch=dispatch, retry=retry)

    def _to_result(self, name: str, result: types.CallToolResult, elapsed: float) -> ToolCallResult:
        raw = self._masked(_dump(result))
        structured = result.structured_content
        valid: bool | None = None
        error: str | None = None
        tool = self.catalog.tools.get(name)
        if tool is not None and tool.output_schema is not None and not result.is_error:
            if structured is None:
                valid, error = False, "the tool declares an output schema but sent no structuredContent"
            else:
                cached = self._validators.get(name)
                if cached is None or cached[0] is not tool:
                    try:
                        cached = (tool, compile_validator(tool.output_schema))
                    except Exception as exc:
                        cached = (tool, exc)
                    self._validators[name] = cached
                validator = cached[1]
                if isinstance(validator, Exception):
                    error = f"the output schema cannot be used: {validator}"
                else:
                    error = check_structured(validator, structured)
                valid = error is None
        if self.target.secret_values:  # checked as sent, shown masked
            structured = raw.get("structuredContent", structured)
        return ToolCallResult(
            content=list(raw.get("content") or []),
            is_error=bool(result.is_error),
            structured_content=structured,
            structured_valid=valid,
            structured_error=error,
            elapsed=elapsed,
            raw=raw,
        )

    async def read_resource(self, uri: str) -> dict[str, Any]:
        """resources/read; returns the result dict (`contents`: text or blob entries)."""
        session = self._require_client().session

        async def send(responses: Any, state: str | None) -> Any:
            request = types.ReadResourceRequest(
                params=types.ReadResourceRequestParams(
                    uri=uri, input_responses=responses, request_state=state
                )
            )
            return await session.send_request(request, _READ_RESULT)

        with self._failures(f"reading {uri}"):
            result = await self._timed(self._drive_input_required(await self._timed(send(None, None)), send))
        return self._masked(_dump(result))  # type: ignore[no-any-return]

    async def subscribe_resource(self, uri: str) -> None:
        """Get `ResourceUpdated` events for `uri` (resources/subscribe, or listen on 2026-07-28).

        The connection is the one owner of its subscriptions: they are renewed after every
        reconnect (and handed on by the manager when a changed target replaces the connection),
        so no caller keeps a set of its own or subscribes again."""
        await self._set_subscribed(uri, True)

    @property
    def subscriptions(self) -> frozenset[str]:
        """The resources this connection is subscribed to (kept across reconnects)."""
        return frozenset(self._subscribed)

    def is_subscribed(self, uri: str) -> bool:
        return uri in self._subscribed

    def adopt_subscriptions(self, uris: Iterable[str]) -> None:
        """Take over the subscriptions of the connection this one replaces, before it starts:
        its first connect subscribes to them (nothing is sent now)."""
        self._subscribed.update(uris)

    async def unsubscribe_resource(self, uri: str) -> None:
        await self._set_subscribed(uri, False)

    async def _set_subscribed(self, uri: str, on: bool) -> None:
        client = self._require_client()
        if on:
            self._subscribed.add(uri)
        else:
            self._subscribed.discard(uri)
        if self._modern:
            await self._relisten()
            return
        request: types.SubscribeRequest | types.UnsubscribeRequest
        if on:
            request = types.SubscribeRequest(params=types.SubscribeRequestParams(uri=uri))
            doing = "subscribing to"
        else:
            request = types.UnsubscribeRequest(params=types.UnsubscribeRequestParams(uri=uri))
            doing = "unsubscribing from"
        with self._failures(f"{doing} {uri}"):
            await self._timed(client.session.send_request(request, types.EmptyResult))

    async def get_prompt(self, name: str, arguments: dict[str, str] | None = None) -> dict[str, Any]:
        """prompts/get; returns the result dict (`description`, `messages`)."""
        session = self._require_client().session

        async def send(responses: Any, state: str | None) -> Any:
            request = types.GetPromptRequest(
                params=types.GetPromptRequestParams(
                    name=name, arguments=arguments, input_responses=responses, request_state=state
                )
            )
            return await session.send_request(request, _PROMPT_RESULT)

        with self._failures(f"getting prompt {name}"):
            result = await self._timed(self._drive_input_required(await self._timed(send(None, None)), send))
        return self._masked(_dump(result))  # type: ignore[no-any-return]

    async def complete(
        self,
        ref: dict[str, Any],
        argument_name: str,
        value: str,
        context_arguments: dict[str, str] | None = None,
    ) -> list[str]:
        """completion/complete for a prompt (`{"type": "ref/prompt", "name": ...}`) or a resource
        template (`{"type": "ref/resource", "uri": ...}`) argument; returns the suggested values."""
        session = self._require_client().session
        typed_ref: types.PromptReference | types.ResourceTemplateReference
        if ref.get("type") == "ref/prompt":
            typed_ref = types.PromptReference.model_validate(ref)
        else:
            typed_ref = types.ResourceTemplateReference.model_validate(ref)
        with self._failures("completion"):
            result = await self._timed(
                session.complete(typed_ref, {"name": argument_name, "value": value}, context_arguments)
            )
        return list(result.completion.values)

    async def ping(self) -> float:
        """Round trip time in seconds (ping; on 2026-07-28, where ping is gone, server/discover)."""
        session = self._require_client().session
        started = time.perf_counter()
        with self._failures("ping"):
            if self._modern:
                await self._timed(session.send_discover(self.protocol_version or ""))
            else:
                await self._timed(session.send_request(types.PingRequest(), types.EmptyResult))
        return time.perf_counter() - started

    async def set_log_level(self, level: str) -> None:
        """logging/setLevel (2025 era; 2026-07-28 servers get the level on every request)."""
        session = self._require_client().session
        if self._modern:
            raise CallFailed("logging/setLevel does not exist in protocol 2026-07-28", METHOD_NOT_FOUND)
        with self._failures("logging/setLevel"):
            await self._timed(
                session.send_request(
                    types.SetLevelRequest(params=types.SetLevelRequestParams(level=cast(Any, level))),
                    types.EmptyResult,
                )
            )


def _replace_roots(target: Target, roots: tuple[str, ...]) -> Target:
    import dataclasses

    return dataclasses.replace(target, roots=roots)


def _successor(before: ToolInfo | None, tools: dict[str, ToolInfo]) -> str | None:
    """The tool that looks like a renamed `before`: same description and schemas, else same
    input schema; only an unambiguous match counts."""
    if before is None:
        return None
    same = [t.name for t in tools.values() if t.signature() == before.signature()]
    if len(same) == 1:
        return same[0]
    schema = json.dumps(before.input_schema, sort_keys=True)
    similar = [t.name for t in tools.values() if json.dumps(t.input_schema, sort_keys=True) == schema]
    return similar[0] if len(similar) == 1 else None
