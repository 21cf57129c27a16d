"""pytest fixtures for the OAuth-protected test server (`tests/servers/oauth_server.py`).

    from tests.servers.oauth_fixtures import *  # noqa: F403  (a star import: the names are fixtures)

- `oauth_server`: a server with the default options (dynamic registration, JWT-shaped access tokens,
  refresh tokens, headless consent), in a thread of the test process; an `OAuthServer` handle:
  `.url` (the MCP endpoint), `.issuer`, `.set(deny=..., access_lifetime=..., subject=..., iss_mode=...)`,
  `.revoke_refresh_tokens()`, `.expire_access_tokens()`, `.stats()`, `.token_prefix`.
- `oauth_server_factory(**options)`: another one with `Options` fields (`issuer_path="/tenant/a"`,
  `client_id=..., client_secret=...`, `registration=False`, `token_prefix=...`...); all are stopped
  at teardown.
- `oauth_server_process(*args)`: the same server as a child process (`python -m
  tests.servers.oauth_server --port 0 ARGS`), a `RemoteOAuthServer` with the same controls over HTTP.
- `headless_browser`: a `tests.support.headless_browser.HeadlessBrowser` (follows the authorize
  redirect to the loopback listener).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from tests.servers.oauth_server import URL_LINE, OAuthServer, Options, RemoteOAuthServer, start_oauth_server
from tests.servers.process import ServerProcess
from tests.support.headless_browser import HeadlessBrowser

REPO = Path(__file__).resolve().parents[2]

__all__ = ["headless_browser", "oauth_server", "oauth_server_factory", "oauth_server_process"]


@pytest.fixture
def oauth_server_factory() -> Iterator[Callable[..., OAuthServer]]:
    with ExitStack() as stack:

        def start(**options: Any) -> OAuthServer:
            return stack.enter_context(start_oauth_server(Options(**options)))

        yield start


@pytest.fixture
def oauth_server(oauth_server_factory: Callable[..., OAuthServer]) -> OAuthServer:
    return oauth_server_factory()


@pytest.fixture
def oauth_server_process() -> Iterator[Callable[..., RemoteOAuthServer]]:
    with ExitStack() as stack:

        def start(*args: str) -> RemoteOAuthServer:
            argv = [sys.executable, "-m", "tests.servers.oauth_server", "--port", "0", *args]
            process = stack.enter_context(ServerProcess(argv, cwd=REPO))
            match = process.wait_for_line(re.compile(rf"^{URL_LINE} (?P<info>\{{.*\}})$"), 60.0)
            return RemoteOAuthServer(json.loads(match["info"]))

        yield start


@pytest.fixture
def headless_browser() -> HeadlessBrowser:
    return HeadlessBrowser()
