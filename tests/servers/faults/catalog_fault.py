"""A raw MCP server whose tool listing is wrong in one way, over stdio or Streamable HTTP:

    python -m tests.servers.faults.catalog_fault FAULT [--http [--sse]]

With --http it prints MCP_TEST_LISTENING 127.0.0.1:PORT on stderr and answers each POST as JSON,
or (with --sse) as a one-event stream. No SDK: the listing goes out exactly as written here.

Faults:
  deep-schema      tools `echo`, `deep` (its inputSchema nests DEEP levels of properties),
                   `deep_output` (its outputSchema does), `after` (listed last); all answer calls
  duplicate-tools  two pages: `echo`, `twin` / `twin` again (another description), `other`
"""

from __future__ import annotations

import json
import sys
from typing import Any

FAULTS = ("deep-schema", "duplicate-tools")
DEEP = 150


def nested(levels: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        schema = {"type": "object", "properties": {"inner": schema}}
    return schema


def tool(name: str, description: str = "", **extra: Any) -> dict[str, Any]:
    schema = {"type": "object", "properties": {"message": {"type": "string"}}}
    return {"name": name, "description": description or f"The {name} tool", "inputSchema": schema, **extra}


PAGES: dict[str, list[list[dict[str, Any]]]] = {
    "deep-schema": [
        [
            tool("echo", "Echo the message back"),
            {"name": "deep", "description": "Its input nests too deeply", "inputSchema": nested(DEEP)},
            tool("deep_output", "Its output nests too deeply", outputSchema=nested(DEEP)),
            tool("after", "Listed after the deep ones"),
        ]
    ],
    "duplicate-tools": [
        [tool("echo", "Echo the message back"), tool("twin", "The first twin")],
        [tool("twin", "The second twin"), tool("other")],
    ],
}


def answer(fault: str, message: dict[str, Any]) -> dict[str, Any] | None:
    """The response to one message (None for a notification)."""
    method, request_id = message.get("method"), message.get("id")
    params = message.get("params") or {}
    if request_id is None or method is None:
        return None
    result: dict[str, Any]
    if method == "initialize":
        result = {
            "protocolVersion": params.get("protocolVersion", "2025-11-25"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": f"fault-{fault}", "version": "1.0.0"},
        }
    elif method == "ping":
        result = {}
    elif method == "tools/list":
        pages = PAGES[fault]
        index = int(params.get("cursor") or 0)
        result = {"tools": pages[index]}
        if index + 1 < len(pages):
            result["nextCursor"] = str(index + 1)
    elif method == "tools/call":
        text = f"{params.get('name')}: {(params.get('arguments') or {}).get('message', '')}"
        result = {"content": [{"type": "text", "text": text}]}
    else:
        error = {"code": -32601, "message": f"method not found: {method}"}
        return {"jsonrpc": "2.0", "id": request_id, "error": error}
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def serve_stdio(fault: str) -> None:
    for line in sys.stdin.buffer:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        reply = answer(fault, message) if isinstance(message, dict) else None
        if reply is not None:
            sys.stdout.buffer.write(json.dumps(reply).encode() + b"\n")
            sys.stdout.buffer.flush()


def make_app(fault: str, sse: bool) -> Any:
    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        body = b""
        while True:
            event = await receive()
            body += event.get("body", b"")
            if not event.get("more_body"):
                break
        reply = answer(fault, json.loads(body)) if scope["method"] == "POST" and body else None
        if reply is None:
            await send({"type": "http.response.start", "status": 202, "headers": []})
            await send({"type": "http.response.body", "body": b""})
            return
        data = json.dumps(reply).encode()
        kind = b"application/json"
        if sse:
            kind, data = b"text/event-stream", b"event: message\ndata: " + data + b"\n\n"
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", kind)]})
        await send({"type": "http.response.body", "body": data})

    return app


def main() -> int:
    fault = sys.argv[1] if len(sys.argv) > 1 else ""
    if fault not in FAULTS:
        print(f"choose one of: {', '.join(FAULTS)}", file=sys.stderr)
        return 2
    if "--http" in sys.argv:
        from tests.servers.serve import serve_asgi

        serve_asgi(make_app(fault, sse="--sse" in sys.argv))
    else:
        serve_stdio(fault)
    return 0


if __name__ == "__main__":
    sys.exit(main())
