"""A local server directory: the MCP Registry's read API v0.1, on 127.0.0.1 and a random port.

    python -m tests.servers.registry_server [--remote-url URL] [--page-size N]

Answers are shaped as the registry's OpenAPI document says (`ServerList` with `metadata.nextCursor`
and `count`, `ServerResponse` with `_meta["io.modelcontextprotocol.registry/official"]`):

- `GET /v0.1/servers?search=&cursor=&limit=&version=latest&include_deleted=` — a small page size
  (3 by default, whatever `limit` asks above it), search on name, title and description
  (case-insensitive substring), deleted entries left out unless `include_deleted=true`, old versions
  left out with `version=latest`.
- `GET /v0.1/servers/{name}/versions/latest` (name URL-encoded) — 404 for a deleted or unknown one.
- `GET /icons/NAME.png` — the icons the entries point at (plain http: this is 127.0.0.1).

The entries: a real npm package (`@modelcontextprotocol/server-memory`), a real PyPI package
(`mcp-server-time`), a Docker image with a secret variable, a remote that points at `remote_url`
(a local SDK HTTP server the test starts) and needs `Authorization: Bearer {api_key}` (a secret),
a deprecated one, a deleted one, an old version, a .NET tool, an .mcpb file, and fillers for paging.
`requests` counts what was asked (tests check that a cached answer was not asked again).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import socket
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

OFFICIAL = "io.modelcontextprotocol.registry/official"
SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"
MEMORY_VERSION = "2026.8.31"
TIME_VERSION = "2026.10.19"
URL_LINE = "REGISTRY_FIXTURE_URL"


ICON_COLOURS = {"memory.png": (46, 139, 87), "notes.png": (230, 126, 34)}


def _icon_png(name: str = "") -> bytes:
    from app.demo.png import badge

    return badge(32, 32, ICON_COLOURS.get(name, (40, 120, 200)))


def _response(
    server: dict[str, Any], status: str = "active", *, latest: bool = True, **meta: Any
) -> dict[str, Any]:
    official: dict[str, Any] = {
        "status": status,
        "publishedAt": "2026-09-01T10:00:00Z",
        "updatedAt": "2026-09-02T10:00:00Z",
        "isLatest": latest,
    }
    official.update(meta)
    return {"server": {"$schema": SCHEMA, **server}, "_meta": {OFFICIAL: official}}


def entries(base: str, remote_url: str) -> list[dict[str, Any]]:
    """Every version the directory holds, newest first per name."""
    icon = {"src": f"{base}/icons/notes.png", "mimeType": "image/png", "sizes": ["32x32"]}
    out = [
        _response(
            {
                "name": "io.github.modelcontextprotocol/server-memory",
                "title": "Memory",
                "description": "Knowledge graph memory: remembers people, things and how they relate.",
                "version": MEMORY_VERSION,
                "repository": {
                    "url": "https://github.com/modelcontextprotocol/servers",
                    "source": "github",
                    "subfolder": "src/memory",
                },
                "websiteUrl": "https://modelcontextprotocol.io/examples",
                "icons": [{"src": f"{base}/icons/memory.png", "mimeType": "image/png"}],
                "packages": [
                    {
                        "registryType": "npm",
                        "registryBaseUrl": "https://registry.npmjs.org",
                        "identifier": "@modelcontextprotocol/server-memory",
                        "version": MEMORY_VERSION,
                        "transport": {"type": "stdio"},
                        "environmentVariables": [
                            {
                                "name": "MEMORY_FILE_PATH",
                                "description": "Where the memory is kept (a .jsonl file)",
                                "format": "filepath",
                            }
                        ],
                    }
                ],
            }
        ),
        _response(
            {
                "name": "io.github.modelcontextprotocol/server-memory",
                "description": "An old version of the memory server.",
                "version": "0.6.0",
                "packages": [
                    {
                        "registryType": "npm",
                        "identifier": "@modelcontextprotocol/server-memory",
                        "version": "0.6.0",
                        "transport": {"type": "stdio"},
                    }
                ],
            },
            latest=False,
        ),
        _response(
            {
                "name": "io.github.modelcontextprotocol/time",
                "title": "Time",
                "description": "Current time and time zone conversions.",
                "version": TIME_VERSION,
                "repository": {"url": "https://github.com/modelcontextprotocol/servers", "source": "github"},
                "packages": [
                    {
                        "registryType": "pypi",
                        "registryBaseUrl": "https://pypi.org",
                        "identifier": "mcp-server-time",
                        "version": TIME_VERSION,
                        "runtimeHint": "uvx",
                        "transport": {"type": "stdio"},
                        "packageArguments": [
                            {
                                "type": "named",
                                "name": "--local-timezone",
                                "description": "Your time zone (an IANA name)",
                                "choices": ["UTC", "Europe/Paris", "Asia/Shanghai"],
                            }
                        ],
                    }
                ],
            }
        ),
        _response(
            {
                "name": "io.github.example/weather",
                "title": "Weather (Docker)",
                "description": "Forecasts from OpenWeather, in a container.",
                "version": "1.2.0",
                "packages": [
                    {
                        "registryType": "oci",
                        "registryBaseUrl": "https://docker.io",
                        "identifier": "example/weather-mcp",
                        "version": "1.2.0",
                        "runtimeHint": "docker",
                        "transport": {"type": "stdio"},
                        "runtimeArguments": [
                            {
                                "type": "named",
                                "name": "--mount",
                                "value": "type=bind,src={cache_dir},dst=/cache",
                                "variables": {
                                    "cache_dir": {
                                        "description": "A folder for the cache",
                                        "format": "filepath",
                                        "isRequired": True,
                                    }
                                },
                            }
                        ],
                        "packageArguments": [
                            {
                                "type": "positional",
                                "valueHint": "units",
                                "default": "metric",
                                "choices": ["metric", "imperial"],
                            }
                        ],
                        "environmentVariables": [
                            {
                                "name": "OPENWEATHER_API_KEY",
                                "description": "Your OpenWeather API key",
                                "isRequired": True,
                                "isSecret": True,
                            },
                            {"name": "LOG_LEVEL", "default": "info"},
                        ],
                    }
                ],
            }
        ),
        _response(
            {
                "name": "com.example/notes",
                "title": "Notes (online)",
                "description": "Your notes, kept on the internet; needs an API key.",
                "version": "3.1.0",
                "repository": {"url": "https://github.com/example/notes-mcp", "source": "github"},
                "websiteUrl": "https://notes.example.com",
                "icons": [icon],
                "remotes": [
                    {
                        "type": "streamable-http",
                        "url": remote_url,
                        "headers": [
                            {
                                "name": "Authorization",
                                "description": "Your notes API key",
                                "value": "Bearer {api_key}",
                                "isRequired": True,
                                "isSecret": True,
                                "variables": {
                                    "api_key": {
                                        "description": "Your notes API key",
                                        "isRequired": True,
                                        "isSecret": True,
                                    }
                                },
                            }
                        ],
                    },
                    {"type": "sse", "url": "https://notes.example.com/sse"},
                ],
                "packages": [
                    {
                        "registryType": "npm",
                        "identifier": "@example/notes-mcp",
                        "version": "3.1.0",
                        "transport": {"type": "stdio"},
                    }
                ],
            }
        ),
        _response(
            {
                "name": "com.example/tenant-search",
                "title": "Tenant search",
                "description": "Search in your company's space; the address names your region.",
                "version": "0.9.0",
                "remotes": [
                    {
                        "type": "sse",
                        "url": "https://{region}.search.example.com/sse",
                        "variables": {
                            "region": {
                                "description": "Your region",
                                "choices": ["eu", "us"],
                                "default": "eu",
                                "isRequired": True,
                            }
                        },
                        "headers": [{"name": "X-Api-Key", "isRequired": True, "isSecret": True}],
                    }
                ],
            }
        ),
        _response(
            {
                "name": "io.github.example/old-weather",
                "title": "Old weather",
                "description": "The first weather server.",
                "version": "0.9.5",
                "packages": [
                    {
                        "registryType": "npm",
                        "identifier": "@example/old-weather",
                        "version": "0.9.5",
                        "transport": {"type": "stdio"},
                    }
                ],
            },
            "deprecated",
            statusMessage="Use io.github.example/weather instead",
        ),
        _response(
            {
                "name": "io.github.example/gone",
                "description": "A server its author removed.",
                "version": "1.0.0",
                "packages": [
                    {
                        "registryType": "npm",
                        "identifier": "@example/gone",
                        "version": "1.0.0",
                        "transport": {"type": "stdio"},
                    }
                ],
            },
            "deleted",
            statusMessage="No longer maintained",
        ),
        _response(
            {
                "name": "io.github.joelverhagen/samplemcpserver",
                "description": "A sample .NET tool.",
                "version": "0.5.0",
                "packages": [
                    {
                        "registryType": "nuget",
                        "identifier": "Knapcode.SampleMcpServer",
                        "version": "0.5.0",
                        "runtimeHint": "dnx",
                        "transport": {"type": "stdio"},
                        "packageArguments": [
                            {"type": "positional", "value": "mcp"},
                            {"type": "positional", "value": "start"},
                        ],
                    }
                ],
            }
        ),
        _response(
            {
                "name": "io.modelcontextprotocol/text-editor",
                "description": "A text editor, as a server package.",
                "version": "1.0.2",
                "packages": [
                    {
                        "registryType": "mcpb",
                        "identifier": "https://github.com/example/text-editor/releases/download/v1.0.2/te.mcpb",
                        "version": "1.0.2",
                        "fileSha256": "fe" * 32,
                        "transport": {"type": "stdio"},
                    }
                ],
            }
        ),
    ]
    for i in range(1, 7):
        out.append(
            _response(
                {
                    "name": f"io.github.example/filler-{i}",
                    "description": f"Filler server number {i}.",
                    "version": f"1.0.{i}",
                    "packages": [
                        {
                            "registryType": "npm",
                            "identifier": f"@example/filler-{i}",
                            "version": f"1.0.{i}",
                            "transport": {"type": "stdio"},
                        }
                    ],
                }
            )
        )
    return out


@dataclass
class RegistryFixture:
    base: str = ""
    remote_url: str = "http://127.0.0.1:9/mcp"
    page_size: int = 3
    requests: list[str] = field(default_factory=list)
    broken: bool = False
    """Answer 503 to everything (a directory that is down but reachable)."""
    slow: dict[str, Any] = field(default_factory=dict)
    """search text → a gate (anything with `async wait()`): that search is answered once it opens."""

    def all(self) -> list[dict[str, Any]]:
        return entries(self.base, self.remote_url)

    def app(self) -> Any:
        from starlette.applications import Starlette
        from starlette.requests import Request
        from starlette.responses import JSONResponse, Response
        from starlette.routing import Route

        png = _icon_png()

        async def list_servers(request: Request) -> Response:
            self.requests.append(str(request.url))
            if self.broken:
                return JSONResponse({"error": "unavailable"}, status_code=503)
            q = request.query_params
            gate = self.slow.get(q.get("search", ""))
            if gate is not None:
                await gate.wait()
            text = q.get("search", "").lower()
            include_deleted = q.get("include_deleted", "false") == "true"
            items = []
            for item in self.all():
                s, meta = item["server"], item["_meta"][OFFICIAL]
                if meta["status"] == "deleted" and not include_deleted:
                    continue
                if q.get("version") == "latest" and not meta["isLatest"]:
                    continue
                words = f"{s['name']} {s.get('title', '')} {s.get('description', '')}".lower()
                if text and text not in words:
                    continue
                items.append(item)
            try:
                limit = max(1, int(q.get("limit", "30")))
                start = int(q.get("cursor", "o:0").removeprefix("o:"))
            except ValueError:
                return JSONResponse({"error": "bad cursor or limit"}, status_code=400)
            size = min(limit, self.page_size)
            page = items[start : start + size]
            metadata: dict[str, Any] = {"count": len(page)}
            if start + size < len(items):
                metadata["nextCursor"] = f"o:{start + size}"
            return JSONResponse({"servers": copy.deepcopy(page), "metadata": metadata})

        async def latest(request: Request) -> Response:
            # The path as sent (`request.url` has %2F decoded back to "/").
            self.requests.append(request.scope.get("raw_path", b"").decode("ascii", "replace"))
            if self.broken:
                return JSONResponse({"error": "unavailable"}, status_code=503)
            name = request.path_params["name"]
            for item in self.all():
                meta = item["_meta"][OFFICIAL]
                if item["server"]["name"] == name and meta["isLatest"] and meta["status"] != "deleted":
                    return JSONResponse(copy.deepcopy(item))
            return JSONResponse({"error": "Server not found"}, status_code=404)

        async def icon(request: Request) -> Response:
            self.requests.append(str(request.url))
            if request.path_params["file"] == "huge.png":
                return Response(png + b"\0" * (1024 * 1024), media_type="image/png")
            if request.path_params["file"] == "not-an-image.png":
                return Response(b"<html><script>alert(1)</script></html>", media_type="image/png")
            return Response(_icon_png(request.path_params["file"]), media_type="image/png")

        return Starlette(
            routes=[
                Route("/v0.1/servers", list_servers),
                Route("/v0.1/servers/{name:path}/versions/latest", latest),
                Route("/icons/{file}", icon),
            ]
        )


def _socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    return sock


@contextlib.contextmanager
def start_registry(
    fixture: RegistryFixture | None = None, *, timeout: float = 30.0
) -> Iterator[RegistryFixture]:
    """Serve the directory in a thread of this process until the block ends (then it is gone:
    connections to its port are refused, as for a computer that is offline)."""
    import uvicorn

    fx = fixture or RegistryFixture()
    sock = _socket()
    host, port = sock.getsockname()[:2]
    fx.base = f"http://{host}:{port}"
    server = uvicorn.Server(uvicorn.Config(fx.app(), log_level="warning", lifespan="off"))
    failure: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(server.serve(sockets=[sock]))
        except BaseException as exc:  # reported below
            failure.append(exc)

    thread = threading.Thread(target=run, name="registry-fixture", daemon=True)
    thread.start()
    deadline = threading.Event()
    for _ in range(int(timeout * 50)):
        if server.started or failure:
            break
        deadline.wait(0.02)
    if failure or not server.started:
        server.should_exit = True
        raise RuntimeError(f"the registry fixture did not start: {failure[:1]}")
    try:
        yield fx
    finally:
        server.should_exit = True
        thread.join(15.0)
        sock.close()


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(
        prog="python -m tests.servers.registry_server", description=__doc__.split("\n\n")[0]
    )
    p.add_argument("--remote-url", default="http://127.0.0.1:9/mcp", help="where the remote entry points")
    p.add_argument("--page-size", type=int, default=3)
    a = p.parse_args(argv)
    with start_registry(RegistryFixture(remote_url=a.remote_url, page_size=a.page_size)) as fx:
        print(f"{URL_LINE} {fx.base}", file=sys.stderr, flush=True)
        threading.Event().wait()


if __name__ == "__main__":
    main()
