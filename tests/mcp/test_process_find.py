"""One answer to "is this command there" (app.mcp.process): the Add dialog's check, the doctor and
the engine look a command up the same way — on the server's own PATH (its env may set one), and
with MCP Desk's built-in Node.js when the person has none."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

import pytest

from app.mcp.events import ConnectionState
from app.mcp.process import find_command, locate, server_environment
from app.mcp.target import Target
from app.ui.server_checks import validate_command
from tests.mcp.conftest import SDK_SERVER
from tests.mcp.conftest import connected as connected_to

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="a shell script stands in for a server")

NAME = "mcp-desk-test-server-only-here"


@pytest.fixture
def bin_dir(tmp_path: Path) -> Path:
    """A folder with one program in it, a real SDK server (never on the app's own PATH)."""
    folder = tmp_path / "bin"
    folder.mkdir()
    script = folder / NAME
    script.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} {shlex.quote(str(SDK_SERVER))}\n")
    script.chmod(0o755)
    return folder


def test_a_command_on_the_servers_own_path_is_found_by_all(bin_dir: Path) -> None:
    env = server_environment({"PATH": f"{bin_dir}{os.pathsep}{os.defpath}"})
    assert locate(NAME, env) == str(bin_dir / NAME)
    assert find_command(NAME, env).executable == str(bin_dir / NAME)
    assert validate_command(NAME, env={"PATH": str(bin_dir)}) is None
    # Without the entry's PATH it is not there, for the dialog as for the engine.
    assert locate(NAME, server_environment({})) is None
    assert "was not found" in (validate_command(NAME) or "")


def test_npx_is_there_with_the_built_in_node_even_off_the_apps_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.runtimes.private import private_node

    node = private_node()
    if node is None:
        pytest.skip("no built-in Node.js in this environment")
    empty = tmp_path / "empty"
    empty.mkdir()
    # A GUI app started from the desktop: its PATH has no Node, nor has any place we search.
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.setenv("HOME", str(tmp_path))
    assert validate_command("npx") is None  # before: "npx was not found on PATH"
    assert locate("npx", server_environment({})) == node.node
    assert find_command("npx", server_environment({})).executable == node.node


def test_a_relative_path_is_the_servers_working_directorys(bin_dir: Path) -> None:
    env = server_environment({})
    assert locate(f"bin/{NAME}", env, cwd=str(bin_dir.parent)) == str(bin_dir / NAME)
    assert find_command(f"bin/{NAME}", env, cwd=str(bin_dir.parent)).executable == str(bin_dir / NAME)


@pytest.mark.anyio
async def test_the_engine_starts_what_the_dialog_found(bin_dir: Path) -> None:
    target = Target(
        name="only-here",
        transport="stdio",
        command=NAME,
        env={"PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', os.defpath)}"},
        mode="legacy",
    )
    async with connected_to(target) as conn:
        assert conn.state == ConnectionState.READY
        assert conn.process is not None and conn.process.resolved is not None
        assert conn.process.resolved.executable == str(bin_dir / NAME)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
