"""npm's and uv's output → "installing the server… (fetching NAME)", and the connect timeout
waits while a download runs (a stand-in npx that downloads slowly, then serves MCP)."""

from __future__ import annotations

import stat
import sys
from pathlib import Path

import pytest

from app.mcp import connection as connection_mod
from app.mcp.connection import ServerConnection
from app.mcp.events import SETTLED_STATES, ConnectionState, StateChanged
from app.mcp.target import Target
from app.runtimes.installing import Fetching, Installed, InstallWatch, installing_reason, tool_for
from tests.servers.harness import EventLog

REPO = Path(__file__).resolve().parents[2]
SDK_SERVER = REPO / "tests" / "mcp" / "sdk_server.py"

REG = "npm http fetch GET 200 https://registry.npmjs.org"
NPM_COLD = [
    f"{REG}/@modelcontextprotocol%2fserver-memory 120ms (cache miss)",
    f"{REG}/@modelcontextprotocol%2fsdk 64ms (cache miss)",
    f"{REG}/ajv/-/ajv-8.17.1.tgz 31ms (cache miss)",
    f"{REG}/@hono/node-server/-/node-server-1.19.1.tgz 9ms (cache miss)",
    "npm http fetch POST 405 https://registry.npmjs.org/-/npm/v1/security/advisories/bulk 115ms",
    "Knowledge Graph MCP Server running on stdio",
]
NPM_WARM = [
    f"{REG}/@modelcontextprotocol%2fserver-memory 140ms (cache updated)",
    "Knowledge Graph MCP Server running on stdio",
]


def test_installing_state_is_not_settled() -> None:
    assert ConnectionState.INSTALLING.value == "installing"
    assert ConnectionState.INSTALLING not in SETTLED_STATES


def test_npm_cold_cache_names_what_is_fetched() -> None:
    watch = InstallWatch("npm")
    steps = [watch.feed(line) for line in NPM_COLD]
    assert steps[:4] == [
        Fetching("@modelcontextprotocol/server-memory"),
        Fetching("@modelcontextprotocol/sdk"),
        Fetching("ajv"),
        Fetching("@hono/node-server"),
    ]
    assert steps[4] is None  # npm's own audit request is no package
    assert steps[5] == Installed()  # the server's first line: npm is done
    assert steps[0] is not None and isinstance(steps[0], Fetching)
    assert steps[0].reason == "installing the server… (fetching @modelcontextprotocol/server-memory)"
    # After that, the lines are the server's: an npm-looking one changes nothing.
    assert watch.feed(NPM_COLD[0]) is None
    assert watch.failure() is None


def test_npm_warm_cache_is_not_installing() -> None:
    watch = InstallWatch("npm")
    assert [watch.feed(line) for line in NPM_WARM] == [None, None]
    assert not watch.installing


def test_uv_lines() -> None:
    watch = InstallWatch("uv")
    lines = [
        "Downloading cryptography (4.5MiB)",
        "Downloading pydantic-core (2.2MiB)",
        " Downloaded pydantic-core",
        "Installed 31 packages in 106ms",
        "error: a server's own line after the install",
    ]
    steps = [watch.feed(line) for line in lines]
    assert steps == [Fetching("cryptography"), Fetching("pydantic-core"), None, Installed(), None]
    assert watch.failure() is None


def test_uv_server_lines_are_not_a_download_failure() -> None:
    """A uvx server with a warm cache (uv says nothing) that prints a network error of its own."""
    watch = InstallWatch("uv")
    assert watch.feed("ERROR: Connection refused by the upstream API") is None
    assert watch.feed("error: Connection refused (os error 111)") is None
    assert watch.failure() is None


def test_which_commands_are_watched() -> None:
    assert tool_for("npx") == "npm"
    assert tool_for("/usr/local/bin/npx") == "npm"
    assert tool_for("npm", ["exec", "pkg"]) == "npm"
    assert tool_for("npm", ["start"]) is None
    assert tool_for("uvx") == "uv"
    assert tool_for("uv", ["run", "server.py"]) == "uv"
    assert tool_for("npx.cmd", platform="win32") == "npm"
    assert tool_for("python3") is None
    assert installing_reason(None) == "installing the server…"


def _slow_npx(folder: Path, pause: float, lines: int, then_serve: bool = True) -> Path:
    """An `npx` of the person's own that takes `pause` seconds per package, then runs a real
    MCP server: a slow first download, without the internet."""
    folder.mkdir(parents=True, exist_ok=True)
    npx = folder / "npx"
    serve = (
        f"os.execv(sys.executable, [sys.executable, {str(SDK_SERVER)!r}])" if then_serve else "time.sleep(60)"
    )
    npx.write_text(
        f"#!{sys.executable}\n"
        "import os, sys, time\n"
        f"for i in range({lines}):\n"
        "    print(f'npm http fetch GET 200 https://registry.npmjs.org/pkg-{i} 5ms (cache miss)',"
        " file=sys.stderr, flush=True)\n"
        f"    time.sleep({pause})\n"
        f"{serve}\n"
    )
    npx.chmod(npx.stat().st_mode | stat.S_IXUSR)
    (folder / "node").symlink_to(sys.executable)  # "its" Node: answers --version with Python's
    return npx


@pytest.mark.anyio
@pytest.mark.slow
async def test_connect_timeout_waits_while_installing(tmp_path: Path) -> None:
    folder = tmp_path / "bin"
    _slow_npx(folder, pause=0.5, lines=8)  # 4 s of downloading, twice the connect timeout
    events = EventLog()
    target = Target(
        name="slow",
        transport="stdio",
        command="npx",
        args=("-y", "slow-server"),
        env={"PATH": str(folder), "HOME": str(tmp_path)},
        timeout=2.0,
    )
    conn = ServerConnection(target, sink=events)
    conn.start()
    try:
        # The CLI's wait does not count the download either: 3 s is less than it takes.
        assert await conn.wait_settled(3.0) == ConnectionState.READY, conn.reason
    finally:
        await conn.stop()
    states = [(e.state, e.reason) for e in events.of(StateChanged)]
    assert (ConnectionState.INSTALLING, "installing the server… (fetching pkg-0)") in states
    seen = [s for s, _ in states]
    assert seen.index(ConnectionState.INSTALLING) < seen.index(ConnectionState.READY)
    # Done downloading (the server's first line, or its answer): back to connecting, then ready.
    assert ConnectionState.FAILED not in seen


@pytest.mark.anyio
async def test_a_stalled_download_has_its_own_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(connection_mod, "INSTALL_IDLE_LIMIT", 1.0)
    folder = tmp_path / "bin"
    _slow_npx(folder, pause=0.1, lines=1, then_serve=False)  # one package, then silence
    target = Target(
        name="stalled",
        transport="stdio",
        command="npx",
        args=("-y", "stalled-server"),
        env={"PATH": str(folder), "HOME": str(tmp_path)},
        timeout=60,
    )
    conn = ServerConnection(target)
    conn.start()
    try:
        assert await conn.wait_settled(30) == ConnectionState.FAILED
        reason = conn.reason
    finally:
        await conn.stop()
    assert reason == "installing the server stopped: nothing came from the download for 0.0166667 minutes"
