"""The reference server `@modelcontextprotocol/server-everything`, bound to 127.0.0.1.

stdio: `stdio_argv()` is a command line for a client to spawn. Streamable HTTP and SSE:
`start_http("streamableHttp" | "sse")` starts it on a free port (PORT=0; the bind-localhost preload
reports the real port) and returns once the port accepts connections.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Literal

from tests.servers.node import BIND_LOCALHOST, EVERYTHING_JS, node22
from tests.servers.process import ServerProcess

HttpTransport = Literal["streamableHttp", "sse"]
PATHS: dict[str, str] = {"streamableHttp": "/mcp", "sse": "/sse"}


def argv(transport: str) -> list[str]:
    return [str(node22()), "--require", str(BIND_LOCALHOST), str(EVERYTHING_JS), transport]


def stdio_argv() -> list[str]:
    """Command line of server-everything over stdio (the first item is the Node 22 binary)."""
    return argv("stdio")


@dataclass
class RunningServer:
    url: str
    process: ServerProcess


@contextmanager
def start_http(
    transport: HttpTransport = "streamableHttp", *, timeout: float = 30.0
) -> Iterator[RunningServer]:
    """server-everything over Streamable HTTP (`/mcp`) or SSE (`/sse`) on 127.0.0.1:<free port>."""
    with ServerProcess(argv(transport), env={"PORT": "0"}) as process:
        host, port = process.wait_listening(timeout)
        yield RunningServer(url=f"http://{host}:{port}{PATHS[transport]}", process=process)
