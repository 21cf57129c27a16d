"""A stdio MCP server (official SDK) whose processes are hard to stop, one way each:

    python -m tests.servers.faults.tree_fault FAULT PIDFILE

When its helpers are running it writes `{"server": pid, "helpers": [pid, ...]}` to PIDFILE
(atomically), so a test can check afterwards, by pid, that every one of them is gone.
Helpers keep the server's stderr (as real helpers do) but not its stdin/stdout.

Faults:
  setsid-grandchild        a helper in its own session (setsid), sleeping forever: a kill of
                           the server's process group misses it
  ignore-term              the server ignores SIGTERM and keeps running after its stdin closes
  grandchild-ignores-term  a helper in its own session that also ignores SIGTERM
  daemon                   a helper that forks a setsid grandchild and exits at once (the classic
                           double fork): the grandchild is nobody's descendant by the time the
                           server is stopped, unless the client is a child subreaper
  plain                    no fault (one tool, `echo`)
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

FAULTS = ("setsid-grandchild", "ignore-term", "grandchild-ignores-term", "daemon", "plain")

SLEEPER = "import time\nwhile True: time.sleep(3600)\n"
STUBBORN_SLEEPER = "import signal\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n" + SLEEPER
# The intermediate of a double fork: start the sleeper in its own session, say its pid, exit.
DOUBLE_FORK = (
    "import subprocess, sys\n"
    "p = subprocess.Popen([sys.executable, '-c', sys.argv[1]], start_new_session=True,\n"
    "                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)\n"
    "print(p.pid, flush=True)\n"
)


def _helper(code: str, *args: str, stdout: Any = subprocess.DEVNULL) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        stdin=subprocess.DEVNULL,
        stdout=stdout,
        start_new_session=True,
    )


def start_helpers(fault: str) -> list[int]:
    if fault == "setsid-grandchild":
        return [_helper(SLEEPER).pid]
    if fault == "grandchild-ignores-term":
        return [_helper(STUBBORN_SLEEPER).pid]
    if fault == "daemon":
        middle = _helper(DOUBLE_FORK, SLEEPER, stdout=subprocess.PIPE)
        assert middle.stdout is not None
        grandchild = int(middle.stdout.readline())
        middle.wait()  # the intermediate is gone: the sleeper is an orphan from here on
        return [grandchild]
    return []


def write_pidfile(path: Path, helpers: list[int]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"server": os.getpid(), "helpers": helpers}), encoding="utf-8")
    os.replace(tmp, path)


async def serve() -> None:
    import mcp_types as types
    from mcp.server.lowlevel.server import Server
    from mcp.server.stdio import stdio_server

    echo = types.Tool.model_validate(
        {"name": "echo", "description": "Echo the message back", "inputSchema": {"type": "object"}}
    )

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[echo])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        text = str((params.arguments or {}).get("message", ""))
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)])

    server: Any = Server("tree-fault", version="1.0", on_list_tools=list_tools, on_call_tool=call_tool)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def main() -> None:
    fault, pidfile = sys.argv[1], Path(sys.argv[2])
    if fault not in FAULTS:
        raise SystemExit(f"unknown fault {fault!r}; one of {', '.join(FAULTS)}")
    if fault == "ignore-term":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    write_pidfile(pidfile, start_helpers(fault))
    import anyio

    try:
        anyio.run(serve)
    except BaseException:
        if fault != "ignore-term":
            raise
    if fault == "ignore-term":
        while True:  # stdin closed (or stdout broken): a well-behaved server exits here; not this one
            time.sleep(3600)


if __name__ == "__main__":
    main()
