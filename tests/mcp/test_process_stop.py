"""Stopping a stdio server that ignores its closed stdin (app.mcp.process): it is sent SIGTERM as
soon as it sits idle, not after the whole grace, and nothing it started is left; a server that is
still working to exit is given its time and exits by itself.

The servers are this file, run as a script (official SDK, stdio):

    python tests/mcp/test_process_stop.py MODE PIDFILE

    ignore-eof   starts a helper (in its group, sleeping), then serves; when stdin closes it
                 does not exit (as a Node server with a live timer): SIGTERM stops it
    slow-exit    when stdin closes it works (CPU) for SLOW_EXIT_CPU seconds, writes
                 PIDFILE + ".clean" and exits 0
    hang         starts a helper as ignore-eof does, then never answers (a client waits until
                 its connect timeout, or until it is stopped)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

SLOW_EXIT_CPU = 0.5  # twice the idle window: a server that works this long is not idle


# --------------------------------------------------------------------------------- the server


def _serve() -> None:
    import anyio
    import mcp_types as types
    from mcp.server.lowlevel.server import Server
    from mcp.server.stdio import stdio_server

    echo = types.Tool.model_validate({"name": "echo", "inputSchema": {"type": "object"}})

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[echo])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        text = str((params.arguments or {}).get("message", ""))
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)])

    server: Any = Server("process-fault", version="1.0", on_list_tools=list_tools, on_call_tool=call_tool)

    async def run() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(run)


def _main() -> None:
    mode, pidfile = sys.argv[1], Path(sys.argv[2])
    helpers: list[int] = []
    if mode in ("ignore-eof", "hang"):
        helper = subprocess.Popen(
            [sys.executable, "-c", "import time\nwhile True: time.sleep(3600)"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
        )
        helpers.append(helper.pid)
    tmp = pidfile.with_suffix(".tmp")
    tmp.write_text(json.dumps({"server": os.getpid(), "helpers": helpers}), encoding="utf-8")
    os.replace(tmp, pidfile)
    if mode == "hang":
        while True:
            time.sleep(3600)
    _serve()  # returns when stdin closes
    if mode == "ignore-eof":
        while True:
            time.sleep(3600)
    if mode == "slow-exit":
        end = time.process_time() + SLOW_EXIT_CPU
        while time.process_time() < end:
            pass
        Path(f"{pidfile}.clean").write_text("ok", encoding="utf-8")


if __name__ == "__main__":
    _main()
    sys.exit(0)


# ---------------------------------------------------------------------------------- the tests

import anyio  # noqa: E402

from app.mcp.target import Target  # noqa: E402
from tests.mcp.conftest import REPO, connected  # noqa: E402
from tests.support.procs import read_pidfile, running  # noqa: E402

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="checks processes through /proc"),
]


def fault_target(mode: str, pidfile: Path) -> Target:
    return Target(
        name=mode,
        transport="stdio",
        command=sys.executable,
        args=(str(Path(__file__).resolve()), mode, str(pidfile)),
        cwd=str(REPO),
        mode="legacy",
    )


async def still_running(pids: list[int], timeout: float = 15.0) -> list[int]:
    with anyio.move_on_after(timeout):
        while any(running(pid) for pid in pids):
            await anyio.sleep(0.02)
    return [pid for pid in pids if running(pid)]


async def test_server_ignoring_closed_stdin_is_stopped_once_idle(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids.json"
    async with connected(fault_target("ignore-eof", pidfile)) as conn:
        pids = read_pidfile(pidfile)
        everyone = [int(pids["server"]), *pids["helpers"]]  # type: ignore[misc]
        assert len(everyone) == 2 and all(running(pid) for pid in everyone)
    assert conn.process is not None
    # Sent SIGTERM because it sat idle, not because the whole grace ran out.
    assert conn.process.stop == "idle"
    assert await still_running(everyone) == []


async def test_server_working_to_exit_gets_its_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # On a loaded machine half a second of CPU may take longer than the grace: only "was it
    # stopped while it worked" is the question here, so the grace is out of the way.
    from app.mcp import process

    monkeypatch.setattr(process, "STDIN_CLOSE_GRACE", 60.0)
    pidfile = tmp_path / "pids.json"
    async with connected(fault_target("slow-exit", pidfile)) as conn:
        read_pidfile(pidfile)
    assert conn.process is not None
    assert conn.process.stop == "exited"
    assert conn.process.returncode == 0
    assert Path(f"{pidfile}.clean").read_text(encoding="utf-8") == "ok"


async def test_a_quick_stop_still_waits_for_a_server_working_to_exit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # After an answer (a CLI command) the idle window is shorter and looked at more often: a
    # server that works to exit is still seen working, and exits by itself.
    from app.mcp import process

    monkeypatch.setattr(process, "STDIN_CLOSE_GRACE", 60.0)
    process.quick_stop()
    pidfile = tmp_path / "pids.json"
    async with connected(fault_target("slow-exit", pidfile)) as conn:
        read_pidfile(pidfile)
    assert conn.process is not None
    assert conn.process.stop == "exited"
    assert Path(f"{pidfile}.clean").read_text(encoding="utf-8") == "ok"


async def test_a_quick_stop_stops_an_idle_server(tmp_path: Path) -> None:
    from app.mcp import process

    process.quick_stop()
    pidfile = tmp_path / "pids.json"
    async with connected(fault_target("ignore-eof", pidfile)) as conn:
        pids = read_pidfile(pidfile)
        everyone = [int(pids["server"]), *pids["helpers"]]  # type: ignore[misc]
    assert conn.process is not None and conn.process.stop == "idle"
    assert await still_running(everyone) == []
