"""URL elicitation follow-ups (protocol 2025-11-25): a request answered with error -32042.

A server that needs the person to do something on a web page first (sign in to a third party,
pay, enter a key on its own site) answers the request with `-32042 URL elicitation required`,
its `data.elicitations` naming the pages. The person is asked, as for an `elicitation/create` in
URL mode (consent, then the browser); once they agreed to every page the request waits until the
server says each step is done (`notifications/elicitation/complete`, matched by `elicitationId`)
and is sent again. The spec lets that notification go missing, so the wait is bounded
(`COMPLETE_WAIT`): after it the request is sent again all the same, and a server that still
asks for a page the person already went through ends the request with a plain failure instead of
asking again. On 2026-07-28 the code is retired: the same step comes inside an input-required
result, answered through the ordinary elicitation handler.

Qt-free and SDK-free: the connection hands in how to ask the person and how to log.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeVar

from app.mcp.handlers import ElicitationRequest, ElicitationResponse
from app.mcp.results import CallFailed

logger = logging.getLogger(__name__)

_T = TypeVar("_T")

URL_ELICITATION_REQUIRED = -32042
COMPLETE_WAIT = 600.0
"""Seconds a request waits for the server's "done" after the person opened its page(s): ten
minutes for a sign-in or a payment on someone else's site. Cancelling the request ends it sooner."""
MAX_ROUNDS = 4
"""A server that keeps naming new pages gets this many tries: then the request fails."""
REMEMBERED = 256
"""Completions that came before anyone waited for them (kept: the page may be quicker than us)."""

Ask = Callable[[ElicitationRequest], Awaitable[ElicitationResponse | Any]]
Log = Callable[[str, str], None]


def required_steps(failure: BaseException) -> list[ElicitationRequest] | None:
    """The pages a `-32042` failure asks the person to visit (None: not such a failure).

    Entries that are not URL elicitations with a URL are left out; a -32042 with none left is
    still one (the server gave nothing to visit)."""
    if not isinstance(failure, CallFailed) or failure.code != URL_ELICITATION_REQUIRED:
        return None
    data = failure.data if isinstance(failure.data, dict) else {}
    raw = data.get("elicitations")
    steps: list[ElicitationRequest] = []
    for item in raw if isinstance(raw, list) else []:
        if not isinstance(item, dict) or item.get("mode", "url") != "url":
            continue
        url, message = item.get("url"), item.get("message")
        if not isinstance(url, str) or not url:
            continue
        eid = item.get("elicitationId")
        steps.append(
            ElicitationRequest(
                message=message if isinstance(message, str) else "",
                mode="url",
                url=url,
                elicitation_id=eid if isinstance(eid, str) and eid else None,
                then_retry=True,
            )
        )
    return steps


def _key(step: ElicitationRequest) -> str:
    return step.elicitation_id or f"url:{step.url}"


class UrlSteps:
    """One connection's pending URL steps: who waits for which `elicitationId`.

    `ask(request)` shows the person a URL elicitation (the connection's handler, with its clocks
    paused); `log(level, text)` writes to the connection's log."""

    def __init__(self, ask: Ask, log: Log, *, wait: float = COMPLETE_WAIT) -> None:
        self._ask = ask
        self._log = log
        self.wait = wait
        self._waiting: dict[str, asyncio.Event] = {}
        self._done: OrderedDict[str, None] = OrderedDict()

    @property
    def waiting_for(self) -> frozenset[str]:
        """The elicitation ids a request is waiting on now."""
        return frozenset(self._waiting)

    def completed(self, elicitation_id: str) -> None:
        """The server said the step `elicitation_id` is done (notifications/elicitation/complete)."""
        event = self._waiting.get(elicitation_id)
        if event is not None:
            event.set()
            return
        self._done[elicitation_id] = None
        while len(self._done) > REMEMBERED:
            self._done.popitem(last=False)

    async def run(self, what: str, attempt: Callable[[], Awaitable[_T]]) -> _T:
        """`attempt()`, followed up while the server answers -32042: the person is asked to open
        each page, the request waits for the server's "done" and is sent again."""
        try:
            return await attempt()
        except CallFailed as failure:
            if required_steps(failure) is None:
                raise
            return await self.after(what, failure, attempt)

    async def after(self, what: str, failure: CallFailed, attempt: Callable[[], Awaitable[_T]]) -> _T:
        """`run` from its first answer on, that answer being `failure` (a -32042)."""
        visited: set[str] = set()
        for round_ in range(MAX_ROUNDS):
            steps = required_steps(failure)
            if steps is None:
                raise failure
            await self._follow(what, failure, steps, visited)
            if round_ == MAX_ROUNDS - 1:
                break
            try:
                return await attempt()
            except CallFailed as again:
                failure = again
        raise CallFailed(
            f"{what} failed: the server kept asking for steps on a web page", URL_ELICITATION_REQUIRED
        )

    async def _follow(
        self, what: str, failure: CallFailed, steps: list[ElicitationRequest], visited: set[str]
    ) -> None:
        new = [s for s in steps if _key(s) not in visited]
        if not new:
            raise CallFailed(
                f"{what} failed: the server still needs the step on the web page to be finished",
                URL_ELICITATION_REQUIRED,
                failure.data,
            ) from failure
        # Listen before asking: the person may finish the page before the dialog has closed.
        events = {s.elicitation_id: asyncio.Event() for s in new if s.elicitation_id}
        for eid in list(events):
            if self._done.pop(eid, "absent") is None:
                events[eid].set()
        self._waiting.update(events)
        try:
            for step in new:
                visited.add(_key(step))
                response = await self._ask(step)
                action = getattr(response, "action", None)
                if action != "accept":
                    said = "declined" if action == "decline" else "not opened"
                    raise CallFailed(
                        f"{what} needs a step on a web page first; it was {said}",
                        URL_ELICITATION_REQUIRED,
                        failure.data,
                    ) from failure
            await self._wait_for(events.values())
        finally:
            for eid, event in events.items():
                if self._waiting.get(eid) is event:
                    del self._waiting[eid]

    async def _wait_for(self, events: Iterable[asyncio.Event]) -> None:
        pending = [e for e in events if not e.is_set()]
        if not pending:
            return
        self._log("info", "waiting for the server to say the step on the web page is done")
        try:
            await asyncio.wait_for(asyncio.gather(*(e.wait() for e in pending)), self.wait)
        except TimeoutError:
            # The notification may be lost (the spec says so): try once more all the same.
            self._log("warning", f"the server did not say within {self.wait:g} s; trying again")
