"""A server's process started before its connection exists (app.mcp.process.start_early, used by
the CLI so that the server starts while the MCP SDK is imported): the stdio transport takes it
over, and one no transport took is stopped with everything it started."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import anyio
import pytest

from app.mcp import process
from app.mcp.process import discard_early, server_environment, start_early
from app.mcp.target import Target
from tests.mcp.conftest import REPO, connected
from tests.mcp.test_process_stop import fault_target, still_running
from tests.support.procs import default_sigint, left_running, read_pidfile, running

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="checks processes through /proc"),
]


async def early_for(target: Target) -> process.EarlyStart | None:
    return await start_early(target.command or "", target.args, server_environment(target.env), target.cwd)


def pids_of(pidfile: Path) -> list[int]:
    pids = read_pidfile(pidfile)
    return [int(pids["server"]), *pids["helpers"]]  # type: ignore[misc]


async def test_the_transport_takes_over_the_early_process(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids.json"
    target = fault_target("ignore-eof", pidfile)
    early = await early_for(target)
    assert early is not None
    try:
        async with connected(target) as conn:
            assert early.claimed
            assert conn.process is not None and conn.process.pid == early.server.pid
            assert conn.process.resolved == early.resolved
            everyone = pids_of(pidfile)
            assert (await conn.call_tool("echo", {"message": "hi"})).content[0]["text"] == "hi"
    finally:
        await discard_early(early)  # taken over: the connection stopped it, nothing to do here
    assert conn.process.stop == "idle"
    assert await still_running(everyone) == []
    assert process.claim_early(target.command or "", target.args, server_environment({}), target.cwd) is None


async def test_an_early_process_nobody_took_is_stopped_with_its_helpers(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids.json"
    target = fault_target("ignore-eof", pidfile)
    early = await early_for(target)
    assert early is not None
    everyone = pids_of(pidfile)
    assert all(running(pid) for pid in everyone)
    # Another environment is another start: not taken over.
    other = {**server_environment(target.env), "EXTRA": "1"}
    assert process.claim_early(target.command or "", target.args, other, target.cwd) is None
    await discard_early(early)
    assert await still_running(everyone) == []
    assert process.claim_early(target.command or "", target.args, server_environment({}), target.cwd) is None


async def test_what_cannot_start_early_is_left_to_the_transport(tmp_path: Path) -> None:
    missing = Target(name="x", transport="stdio", command="no-such-command-h14", cwd=str(REPO))
    assert await early_for(missing) is None
    no_dir = Target(name="x", transport="stdio", command=sys.executable, cwd=str(tmp_path / "gone"))
    assert await early_for(no_dir) is None


def _cli(*args: str, config: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "app", "--config-dir", str(config), *args],
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_sigint,  # one test sends it Ctrl+C
    )


def _stdio(mode: str, pidfile: Path) -> str:
    target = fault_target(mode, pidfile)
    return shlex.join([target.command or "", *target.args])


def test_the_cli_leaves_no_process_after_a_call(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids.json"
    cli = _cli(
        "call",
        "--stdio",
        _stdio("ignore-eof", pidfile),
        "echo",
        "--args",
        '{"message": "hi"}',
        config=tmp_path,
    )
    out, err = cli.communicate(timeout=120)
    assert (cli.returncode, out) == (0, "hi\n"), err
    assert left_running(pids_of(pidfile)) == []


def test_ctrl_c_while_the_cli_starts_leaves_no_process(tmp_path: Path) -> None:
    # The server writes its pids once it runs, which is before the CLI has imported the SDK (or,
    # on a slow machine, while it connects): either way Ctrl+C must stop it and its helper. It
    # never answers: the CLI can only end by honouring Ctrl+C.
    pidfile = tmp_path / "pids.json"
    cli = _cli("tools", "--stdio", _stdio("hang", pidfile), config=tmp_path)
    try:
        everyone = pids_of(pidfile)
        os.kill(cli.pid, signal.SIGINT)
        _, err = cli.communicate(timeout=60)
    finally:
        if cli.poll() is None:
            cli.kill()
            cli.communicate(timeout=30)  # reaped and its pipes closed: nothing left for the next test
    assert cli.returncode in (130, -signal.SIGINT), err
    assert left_running(everyone) == []


async def test_quick_stop_waits_less_for_an_idle_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[float] = []
    wait = process._wait_exit_or_idle

    async def spy(server: process.ServerProcess, grace: float, idle: float) -> process.How | None:
        seen.append(idle)
        return await wait(server, grace, idle)

    monkeypatch.setattr(process, "_wait_exit_or_idle", spy)
    pidfile = tmp_path / "pids.json"

    async def command() -> None:
        process.quick_stop()
        async with connected(fault_target("ignore-eof", pidfile)) as conn:
            everyone = pids_of(pidfile)
        assert conn.process is not None and conn.process.stop == "idle"
        assert await still_running(everyone) == []

    async with anyio.create_task_group() as tg:  # its own context, as asyncio.run gives the CLI
        tg.start_soon(command)
    assert seen == [process.ANSWERED_IDLE_WINDOW]
    async with connected(fault_target("ignore-eof", tmp_path / "again.json")):
        pass
    assert seen[1:] == [process.IDLE_WINDOW]  # the setting stayed in the command's context


def test_starting_early_does_not_import_the_sdk(tmp_path: Path) -> None:
    # The point of starting early: the server starts while the SDK is imported, not after.
    code = (
        "import asyncio, shlex, sys\n"
        "from app.cli.remote import _start_early\n"
        "from app.mcp.process import discard_early\n"
        "from app.mcp.target import target_from_command_line\n"
        "async def main():\n"
        "    early = await _start_early(target_from_command_line(sys.argv[1], None))\n"
        "    assert early is not None\n"
        "    await discard_early(early)\n"
        "asyncio.run(main())\n"
        "sdk = ('mcp.', 'mcp_types', 'httpx2', 'pydantic')\n"
        "print(sorted(m for m in sys.modules if m == 'mcp' or m.startswith(sdk)))\n"
    )
    server = _stdio("ignore-eof", tmp_path / "pids.json")
    done = subprocess.run(
        [sys.executable, "-c", code, server], capture_output=True, text=True, timeout=60, cwd=REPO
    )
    assert done.stdout.strip() == "[]", done.stderr
    assert left_running(pids_of(tmp_path / "pids.json")) == []
