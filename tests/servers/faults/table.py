"""Print the fault table for the notes: each fault server through app.mcp, and what the user is told.

.venv/bin/python -m tests.servers.faults.table
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from tests.servers.harness import EventLog, stdio_fault_target
from tests.servers.process import ServerProcess


async def told(fault: str, tool: str | None, cancel: bool = False) -> str:
    from app.mcp.events import ConnectionState, LogLine, StateChanged
    from app.mcp.manager import ConnectionManager
    from app.mcp.results import CallFailed

    log = EventLog()
    manager = ConnectionManager(sink=log)
    manager.set_target(stdio_fault_target("bad", fault, {}, timeout=3.0))
    manager.connect_all()
    try:
        conn: Any = manager.get("bad")
        await conn.wait_settled(15.0)
        parts = []
        if conn.state != ConnectionState.READY:
            return f"connection failed: {conn.reason}"
        if tool is not None:
            task = asyncio.create_task(conn.call_tool(tool, {}))
            if cancel:
                await log.wait_for(lambda e: isinstance(e, LogLine) and "hanging" in e.text, 10.0)
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
                line = await log.wait_for(lambda e: isinstance(e, LogLine) and "cancelled" in e.text, 10.0)
                parts.append(f"call cancelled; server log: {line.text!r}; connection {conn.state.value}")
            else:
                try:
                    result = await task
                    size = sum(len(b.get("text", "")) for b in result.content)
                    parts.append(f"call answered ({size:,} characters of text)")
                except CallFailed as exc:
                    parts.append(f"call failed: {exc}")
                if fault == "crash-mid-call":
                    failed = await log.wait_for(
                        lambda e: isinstance(e, StateChanged) and e.state == ConnectionState.FAILED, 10.0
                    )
                    parts.append(f"server shown as failed: {failed.reason}; reconnected after backoff")
                if fault == "flood":
                    await log.wait_for(lambda e: isinstance(e, LogLine) and "flood done" in e.text, 30.0)
                    refreshes = conn.refresh_counts["tools"] - 1
                    parts.append(
                        f"5,000 notifications: {refreshes} debounced tool-list refreshes,"
                        f" log kept to {len(conn.log):,} lines"
                    )
        warnings = [e.text for e in log.of(LogLine, "bad") if e.level == "warning"]
        if warnings:
            parts.append(f"log warning: {warnings[0]!r}")
        return "; ".join(parts) or "connected"
    finally:
        await manager.shutdown()


async def http_cut() -> str:
    from app.mcp.manager import ConnectionManager
    from app.mcp.results import CallFailed
    from app.mcp.target import Target

    with ServerProcess([sys.executable, "-m", "tests.servers.faults.http_fault"]) as server:
        host, port = await asyncio.to_thread(server.wait_listening, 30.0)
        manager = ConnectionManager()
        manager.set_target(Target(name="bad", transport="http", url=f"http://{host}:{port}/mcp", timeout=5.0))
        manager.connect_all()
        try:
            conn: Any = manager.get("bad")
            await conn.wait_settled(15.0)
            try:
                await conn.call_tool("cut", {})
                return "call answered?!"
            except CallFailed as exc:
                return f"call failed: {exc}"
        finally:
            await manager.shutdown()


async def main() -> None:
    rows = [
        ("crashes in the middle of a call", await told("crash-mid-call", "crash")),
        ("prints non-JSON on stdout", await told("stdout-noise", "echo")),
        ("never answers initialize", await told("never-initialize", None)),
        ("sends a 50 MB result", await told("big-result", "big")),
        ("floods 1,000 notifications/s for 5 s", await told("flood", "flood")),
        ("exits at once", await told("exit-at-once", None)),
        ("offers only an unknown protocol version", await told("unknown-version", None)),
        ("hangs on a call until cancelled", await told("hang-until-cancelled", "hang", cancel=True)),
        ("closes the HTTP stream mid-response", await http_cut()),
    ]
    print("| fault | what the user is told |\n|---|---|")
    for fault, text in rows:
        print(f"| {fault} | {text.replace('|', '/')} |")


if __name__ == "__main__":
    asyncio.run(main())
