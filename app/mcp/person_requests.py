"""Requests from the server to the person: elicitation, sampling, roots, and the paused clock
(a call's timeout measures the server, not a person answering it)."""

from __future__ import annotations

import asyncio
import logging
import math
import os
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

import anyio
import mcp_types as types
from mcp.client.session import ClientRequestContext

from app.mcp import sdk_private
from app.mcp.connection_base import ConnectionCore, _dump
from app.mcp.events import ConnectionState
from app.mcp.handlers import ElicitationRequest, SamplingRequest, schema_defaults
from app.mcp.results import REQUEST_TIMEOUT, CallTimedOut
from app.mcp.target import Target

logger = logging.getLogger(__name__)

_R = TypeVar("_R")

DEFAULT_CALL_LIMIT = 3600.0
"""The longest a call may run in all when the server's settings name no `call_limit`: progress
restarts a call's timeout, and a server that reports progress forever is stopped after an hour
(a long job that reports progress, a build or a crawl, fits; never less than the timeout)."""


def longest_call(target: Target, timeout: float) -> float:
    """The cap of a call with this `timeout` to `target`."""
    cap = target.call_limit if target.call_limit is not None else DEFAULT_CALL_LIMIT
    return max(cap, timeout)


class ClockWatch:
    """The calls in flight of one connection and the one loop timer that runs out their clocks.

    A clock's own deadline is checked by a timer shared by all of them, armed for the earliest
    deadline: a call that ends before it (nearly all do) costs no timer of its own, and progress
    only moves deadlines later, so it re-arms nothing. When the timer fires, the clocks past
    their deadline are cancelled and it is armed again for the earliest one left."""

    __slots__ = ("_armed_at", "_clocks", "_handle", "_loop")

    def __init__(self) -> None:
        self._clocks: set[CallClock] = set()
        self._handle: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._armed_at = math.inf

    def __iter__(self) -> Iterator[CallClock]:
        return iter(list(self._clocks))

    def __len__(self) -> int:
        return len(self._clocks)

    def add(self, clock: CallClock) -> None:
        self._clocks.add(clock)
        clock.watch = self
        self.moved(clock)

    def discard(self, clock: CallClock) -> None:
        # The timer stays armed: the next call (usually a later deadline) needs no timer of its
        # own, and when it fires with nothing left to run out it is simply not armed again.
        self._clocks.discard(clock)
        clock.watch = None

    def moved(self, clock: CallClock) -> None:
        """`clock`'s deadline changed: arm the timer earlier if it now runs out first (or if the
        timer belongs to another event loop, which would never fire it)."""
        if clock.deadline < self._armed_at or (
            self._handle is not None and self._loop is not asyncio.get_running_loop()
        ):
            self._arm(min(clock.deadline, self._armed_at))

    def close(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        self._armed_at = math.inf

    def _arm(self, when: float) -> None:
        if self._handle is not None:
            self._handle.cancel()
        self._armed_at = when
        self._loop = asyncio.get_running_loop()
        self._handle = self._loop.call_at(when, self._fire)

    def _fire(self) -> None:
        self._handle = None
        self._armed_at = math.inf
        now = self._loop.time() if self._loop is not None else anyio.current_time()
        earliest = math.inf
        for clock in list(self._clocks):
            if clock.deadline <= now:
                clock.deadline = math.inf
                clock.run_out()
            elif clock.deadline < earliest:
                earliest = clock.deadline
        if earliest < math.inf:
            self._arm(earliest)


class CallClock:
    """The timeout of one request in flight, and the `with` block that runs the request.

    It runs out after `limit` seconds without a sign of life (progress restarts it), and in any
    case at `cap` seconds after the start: a server that reports progress forever is still
    stopped. Time a person spends answering the server (a form, a sampling request, a sign-in)
    counts for neither: the clock is paused meanwhile and then starts afresh.

    `deadline` is when it runs out (on the loop's clock). `with clock:` runs the request in the
    current task with the clock watched by `home` (the connection's `ClockWatch`), which cancels
    that task when the clock runs out (`run_out`), as `asyncio.timeout` does; leaving the block
    with that cancellation (and no other one) takes it back, sets `timed_out` and goes on after
    the block. Not an anyio CancelScope: entering, leaving and checking one more scope at every
    checkpoint of the SDK below cost a fifth of what the engine adds to a call. Nor a dataclass
    with a separate block object: it is made and entered on every call, and as such cost ~14k
    instructions a call, ~12k as it is (callgrind). Outside its block (no `watch`) nothing runs
    it out."""

    __slots__ = (
        "cancelling",
        "cap",
        "cap_at",
        "deadline",
        "expired",
        "home",
        "limit",
        "paused_at",
        "task",
        "timed_out",
        "watch",
    )

    def __init__(
        self, limit: float, cap: float, *, paused: bool = False, home: ClockWatch | None = None
    ) -> None:
        now = asyncio.get_running_loop().time()  # anyio.current_time() on asyncio, without the lookup
        self.limit = limit
        self.cap = cap
        self.cap_at = cap_at = now + cap
        self.home = home
        """The watch that runs the clock out while its block runs."""
        self.watch: ClockWatch | None = None
        """`home` while the block runs."""
        self.task: asyncio.Task[Any] | None = None
        """The task the block runs in (set on entering it)."""
        self.cancelling = 0
        """`task.cancelling()` on entering: cancellations asked for before are not ours."""
        self.expired = False
        """It ran out and cancelled `task`."""
        self.timed_out = False
        """The block ended because it ran out (the cancellation was ours and was taken back)."""
        if paused:
            self.paused_at: float | None = now
            self.deadline = math.inf
        else:
            self.paused_at = None
            self.deadline = now + limit if limit < cap else cap_at

    def __enter__(self) -> None:
        if self.task is not None:
            raise RuntimeError("this clock times a request already")
        watch = self.home
        if watch is None:
            raise RuntimeError("a CallClock's block needs the watch that runs it out")
        loop = asyncio.get_running_loop()
        task = asyncio.current_task(loop)
        if task is None:
            raise RuntimeError("a CallClock times a request in a task")
        self.task = task
        self.cancelling = task.cancelling()
        # ClockWatch.add and .moved, inline: this runs on every call.
        watch._clocks.add(self)
        self.watch = watch
        if self.deadline < watch._armed_at or (watch._handle is not None and watch._loop is not loop):
            watch._arm(min(self.deadline, watch._armed_at))

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> bool:
        watch = self.watch
        if watch is not None:
            watch._clocks.discard(self)  # ClockWatch.discard, inline
            self.watch = None
        if not self.expired:
            return False
        task = self.task
        assert task is not None
        # Ours to take back, as asyncio.timeout does; a cancellation from elsewhere as well
        # (a person cancelled meanwhile) leaves the count above what it was and goes on up.
        if (
            task.uncancel() <= self.cancelling
            and exc_type is not None
            and issubclass(exc_type, asyncio.CancelledError)
        ):
            self.timed_out = True
            return True
        return False

    def _set(self, deadline: float) -> None:
        self.deadline = deadline
        if self.watch is not None:
            self.watch.moved(self)

    def alive(self) -> None:
        """The server said something about the request (progress): restart the clock."""
        if self.paused_at is None and not self.expired:
            self._set(min(anyio.current_time() + self.limit, self.cap_at))

    def pause(self) -> None:
        self.paused_at = anyio.current_time()
        self.deadline = math.inf

    def resume(self) -> None:
        now = anyio.current_time()
        if self.paused_at is not None:
            self.cap_at += now - self.paused_at
            self.paused_at = None
        if not self.expired:
            self._set(min(now + self.limit, self.cap_at))

    def unlimited(self) -> None:
        """No timeout any more (a call the server runs as a task: each of its own requests is
        timed); a person answering meanwhile does not start it again."""
        self.limit = self.cap_at = math.inf
        self.deadline = math.inf

    def run_out(self) -> None:
        """Out of time: cancel the request's task (once). A task someone else is cancelling
        already (a person's cancel; the SDK then tells the server in a shielded write that a
        second cancellation would cut short) is left to that cancellation."""
        task = self.task
        if self.expired or task is None or task.done():
            return
        self.expired = True
        if task.cancelling() <= self.cancelling:
            task.cancel()
        else:
            self.expired = False  # not ours: the block ends cancelled, not timed out

    @property
    def capped(self) -> bool:
        """True when it ran out at the cap rather than for want of a sign of life."""
        return self.timed_out and anyio.current_time() >= self.cap_at


class PersonRequests(ConnectionCore):
    """Answers the server's requests to the person through `self.handlers`."""

    _roots: tuple[str, ...]
    _call_clocks: ClockWatch
    _people_waiting: int

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

    async def _ask_url_step(self, request: ElicitationRequest) -> Any:
        """A page a -32042 answer names, shown to the person as a URL elicitation."""
        return await self._ask_person(
            lambda: self.handlers.elicit(self.name, request), "elicitation", "the client could not ask"
        )

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
            for clock in self._call_clocks:
                clock.pause()
        try:
            yield
        finally:
            self._people_waiting -= 1
            if not self._people_waiting:
                for clock in self._call_clocks:
                    clock.resume()

    def _new_clock(self, timeout: float | None = None) -> CallClock:
        """A CallClock for one request, its block watched by the connection's ClockWatch: the
        target's timeout (or `timeout`), capped at its call limit, paused from the start if a
        person is answering the server now. After its block, `timed_out` says it ran out."""
        target = self.target
        limit = timeout if timeout is not None else target.timeout
        cap = target.call_limit if target.call_limit is not None else DEFAULT_CALL_LIMIT  # longest_call
        return CallClock(
            limit, cap if cap > limit else limit, paused=bool(self._people_waiting), home=self._call_clocks
        )

    async def _timed_for_the_server(self, awaitable: Awaitable[_R], what: str) -> _R:
        """Await a request that may ask the person something (elicitation, sampling, or a
        2026-07-28 input-required round) under a paused-while-they-answer CallClock."""
        clock = self._new_clock()
        with clock:
            return await awaitable
        if clock.capped:
            raise CallTimedOut(f"{what} did not finish within {clock.cap:g} s", REQUEST_TIMEOUT)
        raise CallTimedOut(f"no answer within {clock.limit:g} s", REQUEST_TIMEOUT)

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

    async def _drive_input_required(self, first: Any, retry: Any) -> Any:
        """2026-07-28 servers ask for input inside results; answer through the same callbacks."""
        if not isinstance(first, types.InputRequiredResult):
            return first
        session = self._require_client().session

        async def dispatch(key: str, req: types.InputRequest) -> types.InputResponse | types.ErrorData:
            ctx = ClientRequestContext(
                session=session, request_id=key, meta=req.params.meta if req.params else None
            )
            return await session.dispatch_input_request(ctx, req)

        return await sdk_private.run_input_required(first, dispatch=dispatch, retry=retry)


def _file_uri(root: str) -> str:
    if "://" in root:
        return root
    return Path(os.path.expanduser(root)).resolve().as_uri()


def _replace_roots(target: Target, roots: tuple[str, ...]) -> Target:
    import dataclasses

    return dataclasses.replace(target, roots=roots)
