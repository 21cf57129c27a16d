"""-32042 (URL elicitation required, protocol 2025-11-25): the pages go to the person, the call
waits for the server's notifications/elicitation/complete and is sent again.

Against tests/servers/url_elicit_server.py over stdio and stateful Streamable HTTP. The handler
stands in for the person and their browser: it says yes (or no) and fetches the page.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx2
import pytest

from app.mcp.handlers import ElicitationRequest, ElicitationResponse, HeadlessHandlers
from app.mcp.results import CallFailed
from app.mcp.target import Target
from tests.mcp.conftest import connected
from tests.servers.harness import EventLog
from tests.servers.process import ServerProcess

pytestmark = pytest.mark.anyio

SERVER = "tests.servers.url_elicit_server"


class Person(HeadlessHandlers):
    """Says `answer` to URL elicitations; on "accept" opens the page (fetches it), as a browser."""

    def __init__(self, answer: str = "accept", visit: bool = True) -> None:
        super().__init__()
        self.answer = answer
        self.visit = visit
        self.asked: list[ElicitationRequest] = []
        self.visits: list[int] = []
        self._tasks: set[asyncio.Task[None]] = set()

    async def elicit(self, server: str, request: ElicitationRequest) -> ElicitationResponse:
        self.asked.append(request)
        if request.mode != "url" or self.answer != "accept":
            return ElicitationResponse("decline" if self.answer == "decline" else "cancel")
        if self.visit:
            task = asyncio.ensure_future(self._open(str(request.url)))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return ElicitationResponse("accept")

    async def _open(self, url: str) -> None:
        async with httpx2.AsyncClient() as http:
            self.visits.append((await http.get(url)).status_code)


@contextmanager
def url_server(transport: str, *flags: str) -> Iterator[Target]:
    argv = [sys.executable, "-m", SERVER, *flags]
    if transport == "stdio":
        yield Target(name="vault", transport="stdio", command=argv[0], args=tuple(argv[1:]), mode="legacy")
        return
    with ServerProcess([*argv, "--http"]) as proc:
        host, port = proc.wait_listening(30)
        yield Target(name="vault", transport="http", url=f"http://{host}:{port}/mcp", mode="legacy")


@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_the_page_goes_to_the_person_and_the_call_is_sent_again(transport: str) -> None:
    person = Person()
    events = EventLog()
    with url_server(transport) as target:
        async with connected(target, events, handlers=person) as conn:
            assert conn.protocol_version == "2025-11-25"
            result = await asyncio.wait_for(conn.call_tool("open_vault"), 30)
            assert result.text() == "vault open"
            assert [r.url for r in person.asked] == [person.asked[0].url]
            assert person.asked[0].url and person.asked[0].url.endswith("/visit/vault-1")
            assert person.asked[0].elicitation_id == "vault-1"
            assert "Sign in to the vault" in person.asked[0].message
            assert person.visits == [200]
            assert (await conn.call_tool("calls")).text() == "2"  # the first and the retry


async def test_declined_page_fails_plainly_without_waiting() -> None:
    person = Person(answer="decline")
    with url_server("stdio") as target:
        async with connected(target, handlers=person) as conn:
            with pytest.raises(CallFailed) as failed:
                await asyncio.wait_for(conn.call_tool("open_vault"), 30)
            assert failed.value.code == -32042
            assert "needs a step on a web page first; it was declined" in str(failed.value)
            assert len(person.asked) == 1 and person.visits == []
            assert (await conn.call_tool("calls")).text() == "1"


async def test_lost_notification_retries_after_the_wait() -> None:
    """No notifications/elicitation/complete: after the (bounded) wait the call goes again."""
    person = Person()
    with url_server("stdio", "--no-notify") as target:
        async with connected(target, handlers=person) as conn:
            conn.url_steps.wait = 0.5
            result = await asyncio.wait_for(conn.call_tool("open_vault"), 30)
            assert result.text() == "vault open"
            assert any("did not say within" in line.text for line in conn.log)


async def test_a_page_already_visited_is_not_asked_again() -> None:
    """The server still wants the same page after its "done": a plain failure, one question."""
    person = Person()
    with url_server("stdio", "--never-unlock") as target:
        async with connected(target, handlers=person) as conn:
            with pytest.raises(CallFailed) as failed:
                await asyncio.wait_for(conn.call_tool("open_vault"), 30)
            assert "still needs the step on the web page" in str(failed.value)
            assert len(person.asked) == 1
            assert (await conn.call_tool("calls")).text() == "2"


async def test_cancelling_the_call_ends_the_wait() -> None:
    person = Person(visit=False)  # said yes, never finishes the page
    with url_server("stdio") as target:
        async with connected(target, handlers=person) as conn:
            call = asyncio.ensure_future(conn.call_tool("open_vault"))
            await asyncio.wait_for(_until(lambda: bool(conn.url_steps.waiting_for)), 30)
            call.cancel()
            with pytest.raises(asyncio.CancelledError):
                await call
            assert not conn.url_steps.waiting_for


async def _until(predicate: Any) -> None:
    while not predicate():
        await asyncio.sleep(0.02)


async def test_a_server_that_keeps_naming_new_pages_gets_max_rounds_tries() -> None:
    """The rounds after the first answer (UrlSteps.after, which call_tool uses): each new page is
    visited, the request sent again, and after MAX_ROUNDS pages it fails plainly."""
    from app.mcp.url_elicitation import MAX_ROUNDS, URL_ELICITATION_REQUIRED, UrlSteps

    attempts = 0
    asked: list[str | None] = []

    def page(n: int) -> CallFailed:
        step = {"mode": "url", "url": f"https://example.test/{n}", "elicitationId": f"e{n}"}
        data = {"elicitations": [step]}
        return CallFailed("a page first", URL_ELICITATION_REQUIRED, data)

    async def ask(step: ElicitationRequest) -> ElicitationResponse:
        asked.append(step.elicitation_id)
        steps.completed(step.elicitation_id or "")
        return ElicitationResponse(action="accept")

    async def attempt() -> str:
        nonlocal attempts
        attempts += 1
        raise page(attempts)

    steps = UrlSteps(ask, lambda level, text: None, wait=1.0)
    with pytest.raises(CallFailed, match="kept asking") as failed:
        await steps.run("calling t", attempt)
    assert failed.value.code == URL_ELICITATION_REQUIRED
    assert attempts == MAX_ROUNDS and asked == [f"e{n}" for n in range(1, MAX_ROUNDS + 1)]
