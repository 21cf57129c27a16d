"""pytest fixtures for the real test servers. Import them explicitly in a test module:

    from tests.servers.fixtures import *  # noqa: F403  (a star import: the names are fixtures)

Each fixture that needs the npm tools skips (or, with MCP_DESK_REQUIRE_ALL=1, fails) when they
cannot be installed. `process_token` gives a test a token to put into the environment of every
process it starts, and fails the test if any such process is still alive at teardown.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import skip_or_fail
from tests.servers import everything
from tests.servers.node import NodeToolsUnavailable, node22
from tests.servers.process import TOKEN_VAR, ServerProcess, new_token, wait_no_processes
from tests.servers.replay_server import SCHEMAS_DIR, schema_files

REPO = Path(__file__).resolve().parents[2]

__all__ = [
    "anyio_backend",
    "everything_http",
    "everything_sse",
    "everything_stdio",
    "node22_path",
    "process_token",
    "replay_all_http",
    "schema_paths",
]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session")
def node22_path() -> Path:
    try:
        return node22()
    except NodeToolsUnavailable as exc:
        skip_or_fail(str(exc))
        raise  # not reached: skip_or_fail raises


@pytest.fixture
def everything_stdio(node22_path: Path) -> list[str]:
    """Command line (argv) of server-everything over stdio."""
    return everything.stdio_argv()


@pytest.fixture
def everything_http(node22_path: Path) -> Iterator[everything.RunningServer]:
    """server-everything over Streamable HTTP on 127.0.0.1; `.url` ends in /mcp."""
    with everything.start_http("streamableHttp") as server:
        yield server


@pytest.fixture
def everything_sse(node22_path: Path) -> Iterator[everything.RunningServer]:
    """server-everything over legacy SSE on 127.0.0.1; `.url` ends in /sse."""
    with everything.start_http("sse") as server:
        yield server


@pytest.fixture
def schema_paths() -> list[Path]:
    """Every shared/schemas/*.json file (the test skips, or fails in CI, when the dir is missing)."""
    files = schema_files()
    if not files:
        skip_or_fail(f"no schema files in {SCHEMAS_DIR}")
    return files


@pytest.fixture(scope="module")
def replay_all_http() -> Iterator[str]:
    """One replay server serving every schema file at `<base>/<file stem>/mcp`; yields the base URL."""
    if not schema_files():
        skip_or_fail(f"no schema files in {SCHEMAS_DIR}")
    argv = [sys.executable, "-m", "tests.servers.replay_server", "--all", "--http"]
    with ServerProcess(argv, cwd=REPO) as server:
        host, port = server.wait_listening(60.0)
        yield f"http://{host}:{port}"


@pytest.fixture
def process_token() -> Iterator[dict[str, str]]:
    """An env entry marking the processes a test starts; teardown fails if one of them survives."""
    token = new_token()
    yield {TOKEN_VAR: token}
    survivors = wait_no_processes(token, timeout=10.0)
    assert survivors == [], f"processes left behind: {survivors}"
