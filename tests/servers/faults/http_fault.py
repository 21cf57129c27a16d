"""A raw Streamable HTTP MCP server whose tool `cut` closes the response stream mid-answer.

    python -m tests.servers.faults.http_fault      # prints MCP_TEST_LISTENING 127.0.0.1:PORT on stderr

With FAULT_HTTP_TOKEN set in its environment, every request without `Authorization: Bearer <that
token>` gets 401 with a `WWW-Authenticate` header instead.

Everything else is well-behaved (JSON answers, a session id, `echo`). `cut` opens an SSE response,
sends a progress notification (when the call asked for progress) and half of the answer's event,
then drops the TCP connection. The request id of every cut call is logged on stderr.
"""

from __future__ import annotations

import json
import os
import sys
import uuid
from typing import Any

Scope = dict[str, Any]
SESSION = uuid.uuid4().hex
TOKEN = os.environ.get("FAULT_HTTP_TOKEN")

TOOLS = [
    {
        "name": "echo",
        "inputSchema": {"type": "object", "properties": {"message": {"type": "string"}}},
    },
    {
        "name": "cut",
        "description": "Closes the HTTP stream in the middle of its answer",
        "inputSchema": {"type": "object"},
    },
]


class Cut(Exception):
    """Raised inside a response that has started: uvicorn then drops the connection."""


async def read_body(receive: Any) -> bytes:
    body = b""
    while True:
        event = await receive()
        body += event.get("body", b"")
        if not event.get("more_body"):
            return body


async def respond(send: Any, status: int, body: bytes = b"", content_type: str = "application/json") -> None:
    headers = [(b"content-type", content_type.encode()), (b"mcp-session-id", SESSION.encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def answer(request_id: Any, result: dict[str, Any]) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "result": result}).encode()


async def app(scope: Scope, receive: Any, send: Any) -> None:
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    if TOKEN and (b"authorization", f"Bearer {TOKEN}".encode()) not in scope["headers"]:
        challenge = b'Bearer realm="fault-http", error="invalid_token"'
        await send(
            {"type": "http.response.start", "status": 401, "headers": [(b"www-authenticate", challenge)]}
        )
        await send({"type": "http.response.body", "body": b"unauthorized"})
        return
    if scope["method"] == "DELETE":
        await respond(send, 200)
        return
    if scope["method"] != "POST":
        await respond(send, 405)
        return
    message = json.loads(await read_body(receive))
    method, request_id, params = message.get("method"), message.get("id"), message.get("params") or {}
    if request_id is None:
        await respond(send, 202)
        return
    if method == "initialize":
        result = {
            "protocolVersion": params.get("protocolVersion", "2025-11-25"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "fault-http-cut", "version": "1.0.0"},
        }
        await respond(send, 200, answer(request_id, result))
    elif method == "ping":
        await respond(send, 200, answer(request_id, {}))
    elif method == "tools/list":
        await respond(send, 200, answer(request_id, {"tools": TOOLS}))
    elif method == "tools/call" and params.get("name") == "echo":
        text = f"Echo: {(params.get('arguments') or {}).get('message', '')}"
        await respond(send, 200, answer(request_id, {"content": [{"type": "text", "text": text}]}))
    elif method == "tools/call" and params.get("name") == "cut":
        print(f"cutting the stream of request {request_id}", file=sys.stderr, flush=True)
        headers = [(b"content-type", b"text/event-stream"), (b"mcp-session-id", SESSION.encode())]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        token = (params.get("_meta") or {}).get("progressToken")
        if token is not None:
            progress = {
                "jsonrpc": "2.0",
                "method": "notifications/progress",
                "params": {"progressToken": token, "progress": 1},
            }
            await send(
                {
                    "type": "http.response.body",
                    "body": f"data: {json.dumps(progress)}\n\n".encode(),
                    "more_body": True,
                }
            )
        half = answer(request_id, {"content": [{"type": "text", "text": "never complete"}]})[:30]
        await send(
            {"type": "http.response.body", "body": b"event: message\ndata: " + half, "more_body": True}
        )
        raise Cut("closing the stream mid-response on purpose")
    else:
        error = {
            "jsonrpc": "2.0",
            "id": request_id,
            "error": {"code": -32601, "message": f"method not found: {method}"},
        }
        await respond(send, 200, json.dumps(error).encode())


def main() -> None:
    from tests.servers.serve import serve_asgi

    serve_asgi(app)


if __name__ == "__main__":
    main()
