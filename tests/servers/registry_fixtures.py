"""pytest fixtures for the local server directory (`tests/servers/registry_server.py`).

    from tests.servers.registry_fixtures import *  # noqa: F403  (a star import: the names are fixtures)

- `notes_server`: the URL of a local SDK Streamable HTTP server (tests/mcp/sdk_server.py) that
  answers 401 unless `Authorization: Bearer NOTES_TOKEN` comes with each request: the directory's
  remote entry points at it, so "add with a secret → connected" is real.
- `registry`: a `RegistryFixture` serving the directory (`.base` is its URL), stopped at teardown.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.servers.process import ServerProcess
from tests.servers.registry_server import RegistryFixture, start_registry

SDK_SERVER = Path(__file__).resolve().parents[1] / "mcp" / "sdk_server.py"
NOTES_TOKEN = "notes-key-5f3a9c1e77"

__all__ = ["NOTES_TOKEN", "notes_server", "registry"]


@pytest.fixture
def notes_server() -> Iterator[str]:
    with ServerProcess([sys.executable, str(SDK_SERVER), "--http", "--require-token", NOTES_TOKEN]) as proc:
        host, port = proc.wait_listening(30)
        yield f"http://{host}:{port}/mcp"


@pytest.fixture
def registry(request: pytest.FixtureRequest) -> Iterator[RegistryFixture]:
    # The remote entry points at `notes_server` when the test asked for it, else at a closed port.
    remote = request.getfixturevalue("notes_server") if "notes_server" in request.fixturenames else None
    fixture = RegistryFixture(remote_url=remote or "http://127.0.0.1:9/mcp")
    with start_registry(fixture) as fx:
        yield fx
