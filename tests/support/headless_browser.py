"""A browser for tests: implements `app.mcp.auth.Browser` without a window.

`open(server, url)` GETs the authorize URL with httpx2 and follows the redirects, as a browser
whose person agrees at once would: the authorization server's answer leads to the app's loopback
listener, whose "signed in" page ends up in `pages`. Options:

- `follow=False`: only records the URL (the person closed the tab; nothing ever reaches the loopback);
- `decline=True`: asks the authorization server, but instead of its answer goes to the loopback with
  `error=access_denied` and the request's `state` (the person pressed "Deny" on a consent page),
  whatever the server would have said;
- `background=True`: `open` returns at once and the visit runs in a task, as with a real browser;
  `await wait()` for it to finish.

Every visit is recorded in `visits` (server, URL, the final status and page text) and `opened` is set.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

import httpx2

logger = logging.getLogger(__name__)


@dataclass
class Visit:
    server: str
    url: str
    status: int | None = None
    final_url: str | None = None
    page: str = ""
    error: str | None = None


@dataclass
class HeadlessBrowser:
    follow: bool = True
    decline: bool = False
    background: bool = False
    timeout: float = 30.0
    visits: list[Visit] = field(default_factory=list)
    opened: asyncio.Event = field(default_factory=asyncio.Event)
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)

    @property
    def urls(self) -> list[str]:
        return [v.url for v in self.visits]

    @property
    def pages(self) -> list[str]:
        return [v.page for v in self.visits if v.status is not None]

    async def open(self, server: str, url: str) -> None:
        visit = Visit(server, url)
        self.visits.append(visit)
        self.opened.set()
        if not self.follow:
            return
        if self.background:
            task = asyncio.create_task(self._visit(visit), name=f"headless-browser {server}")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            return
        await self._visit(visit)

    async def wait(self) -> None:
        """Until every background visit has finished."""
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=self.timeout)

    async def _visit(self, visit: Visit) -> None:
        try:
            async with httpx2.AsyncClient(timeout=self.timeout, follow_redirects=not self.decline) as client:
                response = await client.get(visit.url)
                if self.decline:
                    response = await client.get(self._declined(visit.url, response), follow_redirects=True)
                visit.status = response.status_code
                visit.final_url = str(response.url)
                visit.page = response.text
        except httpx2.HTTPError as exc:
            # A browser shows an error page; the test sees it here.
            visit.error = f"{type(exc).__name__}: {exc}"
            logger.info("headless browser: %s", visit.error)

    @staticmethod
    def _declined(authorize_url: str, answer: httpx2.Response) -> str:
        """The loopback URL with `error=access_denied`: built from the redirect the server answered
        (its Location's base), with the authorize request's `state` and the server's `iss` if any."""
        location = answer.headers.get("location")
        asked = parse_qs(urlsplit(authorize_url).query)
        target = location or (asked.get("redirect_uri") or [""])[0]
        parts = urlsplit(target)
        answered = parse_qs(parts.query)
        query = {"error": "access_denied", "error_description": "The person declined."}
        if asked.get("state"):
            query["state"] = asked["state"][0]
        if answered.get("iss"):
            query["iss"] = answered["iss"][0]
        return urlunsplit(parts._replace(query=urlencode(query)))


def main(argv: list[str] | None = None) -> int:
    """`python -m tests.support.headless_browser URL`: a stand-in system browser (for `$BROWSER` in
    CLI tests: `webbrowser.open` runs it). Exit 0 when the visit ended on a page that answered 200."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    browser = HeadlessBrowser(decline="--decline" in args)
    url = next(a for a in args if not a.startswith("--"))
    asyncio.run(browser.open("system", url))
    visit = browser.visits[0]
    # Without the query: the final URL holds the authorization code, which a leak test looks for.
    where = (visit.final_url or "").split("?", 1)[0]
    print(visit.error or f"headless browser: {visit.status} {where}", file=sys.stderr)
    return 0 if visit.status == 200 else 1


if __name__ == "__main__":
    raise SystemExit(main())
