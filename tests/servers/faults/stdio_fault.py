"""A raw JSON-RPC stdio MCP server with one fault, chosen on the command line:

    python -m tests.servers.faults.stdio_fault FAULT

No SDK on purpose: it starts in a few milliseconds, and a fault is easiest to stage at the level
of lines on stdout. Besides the fault it is a well-behaved handshake-era server (it answers
`server/discover` with "method not found", so a client in auto mode falls back to `initialize`)
with one tool, `echo`. `healthy` is the same server without a fault.

Faults:
  healthy               no fault
  crash-mid-call        tool `crash` sends a progress notification, then the process dies (exit 3)
  stdout-noise          prints non-JSON lines on stdout at start and before every answer
  never-initialize      reads requests and never answers anything
  big-result            tool `big` answers with 50 MB of text
  flood                 tool `flood` starts 1,000 notifications/s for 5 s (log messages and
                        tools/list_changed, alternating) and answers at once
  exit-at-once          writes an error on stderr and exits with code 1 before reading anything
  unknown-version       answers initialize with protocol version 2099-01-01 only
  hang-until-cancelled  tool `hang` never answers; a notifications/cancelled for it is reported on
                        stderr as `cancelled <request id>` (and the id is dropped)
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from typing import Any

FAULTS = (
    "healthy",
    "crash-mid-call",
    "stdout-noise",
    "never-initialize",
    "big-result",
    "flood",
    "exit-at-once",
    "unknown-version",
    "hang-until-cancelled",
)
SUPPORTED = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
BIG_RESULT_BYTES = 50 * 1024 * 1024
FLOOD_RATE = 1000  # notifications per second
FLOOD_SECONDS = 5.0

ECHO_TOOL = {
    "name": "echo",
    "description": "Echo the message back",
    "inputSchema": {"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]},
}
FAULT_TOOLS = {
    "crash-mid-call": "crash",
    "big-result": "big",
    "flood": "flood",
    "hang-until-cancelled": "hang",
}

_out_lock = threading.Lock()


def send(message: dict[str, Any]) -> None:
    data = json.dumps(message, separators=(",", ":")).encode() + b"\n"
    with _out_lock:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()


def noise(text: str) -> None:
    with _out_lock:
        sys.stdout.buffer.write(text.encode() + b"\n")
        sys.stdout.buffer.flush()


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def text_result(text: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}], "isError": False}


def flood() -> None:
    start = time.monotonic()
    total = int(FLOOD_RATE * FLOOD_SECONDS)
    for i in range(total):
        # Pace against the clock, so a slow reader does not stretch the flood.
        ahead = start + i / FLOOD_RATE - time.monotonic()
        if ahead > 0:
            time.sleep(ahead)
        if i % 2:
            send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
        else:
            params = {"level": "info", "logger": "flood", "data": f"flood message {i}"}
            send({"jsonrpc": "2.0", "method": "notifications/message", "params": params})
    log(f"flood done: {total} notifications in {time.monotonic() - start:.2f} s")


def call_tool(fault: str, request_id: Any, params: dict[str, Any]) -> dict[str, Any] | None:
    """The result for a tools/call, or None when no answer is to be sent (now)."""
    name = params.get("name")
    arguments = params.get("arguments") or {}
    if name == "echo":
        return text_result(f"Echo: {arguments.get('message', '')}")
    if name != FAULT_TOOLS.get(fault):
        return None
    if fault == "crash-mid-call":
        token = (params.get("_meta") or {}).get("progressToken")
        if token is not None:
            send(
                {
                    "jsonrpc": "2.0",
                    "method": "notifications/progress",
                    "params": {"progressToken": token, "progress": 1, "total": 2},
                }
            )
        log("crash-mid-call: simulated crash while working on the call")
        os._exit(3)
    if fault == "big-result":
        log(f"big-result: sending {BIG_RESULT_BYTES // (1024 * 1024)} MB")
        return text_result("x" * BIG_RESULT_BYTES)
    if fault == "flood":
        threading.Thread(target=flood, daemon=True).start()
        return text_result("flood started")
    if fault == "hang-until-cancelled":
        log(f"hanging on request {request_id}")
        return None
    return None


def handle(fault: str, message: dict[str, Any]) -> None:
    method = message.get("method")
    request_id = message.get("id")
    params = message.get("params") or {}
    if method is None:
        return  # a response to something we never asked
    if request_id is None:  # a notification
        if method == "notifications/cancelled":
            log(f"cancelled {params.get('requestId')}")
        return
    if fault == "never-initialize":
        return
    if fault == "stdout-noise":
        noise(f"debug: handling {method}")
    result: dict[str, Any] | None
    if method == "initialize":
        asked = params.get("protocolVersion")
        version = asked if asked in SUPPORTED else SUPPORTED[0]
        if fault == "unknown-version":
            version = "2099-01-01"
        result = {
            "protocolVersion": version,
            "capabilities": {"tools": {"listChanged": True}, "logging": {}},
            "serverInfo": {"name": f"fault-{fault}", "version": "1.0.0"},
        }
    elif method == "ping" or method == "logging/setLevel":
        result = {}
    elif method == "tools/list":
        tools = [ECHO_TOOL]
        if fault in FAULT_TOOLS:
            tools.append({"name": FAULT_TOOLS[fault], "inputSchema": {"type": "object"}})
        result = {"tools": tools}
    elif method == "tools/call":
        result = call_tool(fault, request_id, params)
        if result is None:
            if fault == "hang-until-cancelled":
                return
            send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32602, "message": "unknown tool"}})
            return
    else:
        send(
            {
                "jsonrpc": "2.0",
                "id": request_id,
                "error": {"code": -32601, "message": f"method not found: {method}"},
            }
        )
        return
    send({"jsonrpc": "2.0", "id": request_id, "result": result})


def main() -> int:
    fault = sys.argv[1] if len(sys.argv) > 1 else "healthy"
    if fault not in FAULTS:
        log(f"unknown fault {fault!r}; choose one of: {', '.join(FAULTS)}")
        return 2
    if fault == "exit-at-once":
        log("fatal: API_TOKEN is not set")
        return 1
    if fault == "stdout-noise":
        noise("Starting fault server v1.0 (debug build)")
    for line in sys.stdin.buffer:
        try:
            message = json.loads(line)
        except ValueError:
            log(f"not JSON: {line[:80]!r}")
            continue
        if isinstance(message, dict):
            handle(fault, message)
    return 0


if __name__ == "__main__":
    sys.exit(main())
