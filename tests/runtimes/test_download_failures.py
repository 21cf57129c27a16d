"""A failed first download says why: offline, no such package, a proxy in the way.

Real npx (the built-in Node's) and uvx (the built-in uv) through the engine, against a closed
port, a local registry that has nothing, and a local proxy that wants a sign-in; never the
internet. Retries are turned down so each failure comes in a second or two.
"""

from __future__ import annotations

import http.server
from pathlib import Path

import pytest

from app.mcp.connection import ServerConnection
from app.mcp.events import ConnectionState
from app.mcp.target import Target
from app.runtimes import search_path
from tests.runtimes.conftest import free_port

pytestmark = [pytest.mark.anyio, pytest.mark.slow]


@pytest.fixture(autouse=True)
def _no_system_runtimes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search_path, "HOMEBREW_DIRS", ())


def _npx(tmp_path: Path, path: str, **env: str) -> Target:
    base = {
        "PATH": path,
        "HOME": str(tmp_path),
        "npm_config_cache": str(tmp_path / "npm"),
        "npm_config_fetch_retries": "0",
    }
    return Target(
        name="memory",
        transport="stdio",
        command="npx",
        args=("-y", "@modelcontextprotocol/server-memory"),
        env={**base, **env},
        timeout=60,
    )


def _uvx(tmp_path: Path, path: str, **env: str) -> Target:
    base = {"PATH": path, "HOME": str(tmp_path), "UV_CACHE_DIR": str(tmp_path / "uv"), "UV_HTTP_RETRIES": "0"}
    return Target(
        name="time",
        transport="stdio",
        command="uvx",
        args=("mcp-server-time",),
        env={**base, **env},
        timeout=60,
    )


async def _reason(target: Target) -> str:
    conn = ServerConnection(target)
    conn.start()
    try:
        assert await conn.wait_settled(60) == ConnectionState.FAILED, conn.reason
        reason = conn.reason or ""
    finally:
        await conn.stop()
    assert conn.process is not None and conn.process.resolved is not None
    assert conn.process.resolved.runtime is not None and conn.process.resolved.runtime.builtin
    return reason


async def test_npx_offline(tmp_path: Path, no_runtime_path: str) -> None:
    port = free_port()  # nothing listens there
    reason = await _reason(_npx(tmp_path, no_runtime_path, npm_config_registry=f"http://127.0.0.1:{port}/"))
    assert reason == (
        f"installing the server failed: MCP Desk could not reach the package registry (127.0.0.1:{port}): "
        "are you offline? Check the internet connection, then try again"
    )


async def test_npx_no_such_package(
    tmp_path: Path, no_runtime_path: str, fake_index: http.server.ThreadingHTTPServer
) -> None:
    port = fake_index.server_address[1]
    reason = await _reason(_npx(tmp_path, no_runtime_path, npm_config_registry=f"http://127.0.0.1:{port}/"))
    assert reason.startswith(
        "installing the server failed: there is no package @modelcontextprotocol/server-memory in "
        f"the package registry (127.0.0.1:{port})"
    ), reason
    assert fake_index.requests  # type: ignore[attr-defined]


async def test_npx_proxy_wants_a_sign_in(
    tmp_path: Path, no_runtime_path: str, fake_proxy: http.server.ThreadingHTTPServer
) -> None:
    proxy = f"http://127.0.0.1:{fake_proxy.server_address[1]}"
    target = _npx(
        tmp_path, no_runtime_path, npm_config_registry="https://registry.example.test/", HTTPS_PROXY=proxy
    )
    reason = await _reason(target)
    assert reason.startswith(f"installing the server failed: the proxy ({proxy}) asks for a sign-in"), reason


async def test_npx_proxy_not_answering(tmp_path: Path, no_runtime_path: str) -> None:
    proxy = f"http://127.0.0.1:{free_port()}"
    target = _npx(
        tmp_path, no_runtime_path, npm_config_registry="https://registry.example.test/", HTTPS_PROXY=proxy
    )
    reason = await _reason(target)
    assert reason.startswith(
        f"installing the server failed: the proxy ({proxy}) does not let the download"
    ), reason


async def test_uvx_offline(tmp_path: Path, no_runtime_path: str) -> None:
    port = free_port()
    reason = await _reason(
        _uvx(tmp_path, no_runtime_path, UV_DEFAULT_INDEX=f"http://127.0.0.1:{port}/simple")
    )
    assert reason == (
        f"installing the server failed: MCP Desk could not reach the package registry (127.0.0.1:{port}): "
        "are you offline? Check the internet connection, then try again"
    )


async def test_uvx_no_such_package(
    tmp_path: Path, no_runtime_path: str, fake_index: http.server.ThreadingHTTPServer
) -> None:
    port = fake_index.server_address[1]
    reason = await _reason(
        _uvx(tmp_path, no_runtime_path, UV_DEFAULT_INDEX=f"http://127.0.0.1:{port}/simple")
    )
    assert reason.startswith(
        "installing the server failed: there is no package mcp-server-time in the package registry"
    ), reason


async def test_uvx_proxy_wants_a_sign_in(
    tmp_path: Path, no_runtime_path: str, fake_proxy: http.server.ThreadingHTTPServer
) -> None:
    proxy = f"http://127.0.0.1:{fake_proxy.server_address[1]}"
    target = _uvx(
        tmp_path, no_runtime_path, UV_DEFAULT_INDEX="https://pypi.example.test/simple", HTTPS_PROXY=proxy
    )
    reason = await _reason(target)
    assert reason.startswith(f"installing the server failed: the proxy ({proxy}) asks for a sign-in"), reason


async def test_uvx_proxy_not_answering(tmp_path: Path, no_runtime_path: str) -> None:
    proxy = f"http://127.0.0.1:{free_port()}"
    target = _uvx(
        tmp_path, no_runtime_path, UV_DEFAULT_INDEX="https://pypi.example.test/simple", HTTPS_PROXY=proxy
    )
    reason = await _reason(target)
    assert reason.startswith(
        f"installing the server failed: the proxy ({proxy}) does not let the download"
    ), reason
