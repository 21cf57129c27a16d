"""Ways to start the demo server: the CLI command, `python -m app.demo`, and Streamable HTTP on loopback."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters

from tests.demo.support import EXPECTED_VERSION, MODES, REPO


def test_cli_lists_the_demo_server_command() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "app", "demo-server", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
    )
    assert out.returncode == 0, out.stderr
    assert "--http PORT" in out.stdout


@pytest.mark.anyio
async def test_python_dash_m_app_demo_serves_stdio() -> None:
    params = StdioServerParameters(command=sys.executable, args=["-m", "app.demo"], cwd=str(REPO))
    async with Client(params, mode="legacy") as client:
        result = await client.call_tool("echo", {"message": "direct"})
        assert not result.is_error


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _listening_addresses(port: int) -> set[str]:
    """Local addresses (hex, as in /proc/net/tcp*) of sockets listening on `port`."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        path = Path(table)
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            fields = line.split()
            address, hex_port = fields[1].split(":")
            if int(hex_port, 16) == port and fields[3] == "0A":  # 0A = LISTEN
                found.add(address)
    return found


@pytest.fixture
def http_server() -> Iterator[tuple[str, subprocess.Popen[str]]]:
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", "demo-server", "--http", str(port)],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        # Wait for the announcement line; it is printed just before the server starts listening.
        assert proc.stderr is not None
        line = proc.stderr.readline()
        assert line.strip() == f"MCP Desk demo server on http://127.0.0.1:{port}/mcp"
        yield f"http://127.0.0.1:{port}/mcp", proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=15)
            if proc.stderr is not None:
                proc.stderr.close()


async def _connect_when_listening(url: str, mode: str) -> Client:
    with anyio.fail_after(20):
        while True:
            host, port = url.removeprefix("http://").split("/")[0].split(":")
            try:
                stream = await anyio.connect_tcp(host, int(port))
            except OSError:
                await anyio.sleep(0.05)
                continue
            await stream.aclose()
            return Client(url, mode=mode)


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_streamable_http_on_loopback_only(
    http_server: tuple[str, subprocess.Popen[str]], mode: str
) -> None:
    url, proc = http_server
    port = int(url.split(":")[2].split("/")[0])
    async with await _connect_when_listening(url, mode) as client:
        assert client.protocol_version == EXPECTED_VERSION[mode]
        result = await client.call_tool("slow_count", {"to": 2, "delay_seconds": 0.01})
        assert not result.is_error
        if sys.platform.startswith("linux"):
            assert _listening_addresses(port) == {"0100007F"}  # 127.0.0.1, and nothing else
    # What the tools do is also written to stderr, one line each, for a client's log pane.
    assert proc.stderr is not None
    with anyio.fail_after(20):
        line = await anyio.to_thread.run_sync(proc.stderr.readline, abandon_on_cancel=True)
    assert line.strip().endswith("slow_count finished 2")
