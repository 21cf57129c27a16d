"""Test set-up for the runtimes: a PATH without Node or uv, per-session package caches, a local
package registry that has nothing (404) and a proxy that wants a sign-in (407)."""

from __future__ import annotations

import http.server
import os
import shutil
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

RUNTIME_NAMES = ("node", "nodejs", "npm", "npx", "corepack", "uv", "uvx")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session")
def no_runtime_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A PATH that is this machine's /usr/bin and /bin without node, npm, npx, uv or uvx: a
    computer where the person installed neither (Python, sh, coreutils stay, as on most)."""
    farm = tmp_path_factory.mktemp("no-runtimes-bin")
    for folder in ("/usr/bin", "/bin"):
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            if name.startswith(RUNTIME_NAMES) or (farm / name).exists():
                continue
            source = Path(folder) / name
            if source.is_file() and os.access(source, os.X_OK):
                (farm / name).symlink_to(source)
    path = str(farm)
    for name in ("node", "npx", "npm", "uv", "uvx"):
        assert shutil.which(name, path=path) is None, name
    return path


@pytest.fixture(scope="session")
def session_caches(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Empty npm and uv caches for this test session: the first start really downloads."""
    root = tmp_path_factory.mktemp("package-caches")
    return {"npm_config_cache": str(root / "npm"), "UV_CACHE_DIR": str(root / "uv")}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class _Handler(http.server.BaseHTTPRequestHandler):
    mode = "404"

    def _answer(self) -> None:
        self.server.requests.append(self.requestline)  # type: ignore[attr-defined]
        if self.server.mode == "proxy":  # type: ignore[attr-defined]
            self.send_response(407, "Proxy Authentication Required")
            self.send_header("Proxy-Authenticate", 'Basic realm="company"')
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = b'{"error":"Not found"}'
        self.send_response(404)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_HEAD = do_CONNECT = _answer

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def fake_index() -> Iterator[http.server.ThreadingHTTPServer]:
    """A package registry that knows no package: every request is answered 404."""
    yield from _serve("404")


@pytest.fixture
def fake_proxy() -> Iterator[http.server.ThreadingHTTPServer]:
    """A proxy that wants a sign-in: every request (CONNECT included) is answered 407."""
    yield from _serve("proxy")


def _serve(mode: str) -> Iterator[http.server.ThreadingHTTPServer]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.mode = mode  # type: ignore[attr-defined]
    server.requests = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
