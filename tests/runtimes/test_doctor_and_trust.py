"""The doctor says which runtime a server uses; the trust prompt says where the program is found."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli.main import main
from app.config.model import ServerEntry
from app.config.trust import Launch
from app.runtimes import search_path
from app.runtimes.private import private_node, private_uv


@pytest.fixture
def bare_computer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_runtime_path: str) -> str:
    """Our own environment as on a computer without Node or uv (the child inherits it)."""
    monkeypatch.setenv("PATH", no_runtime_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setattr(search_path, "HOMEBREW_DIRS", ())
    return no_runtime_path


def test_doctor_names_the_builtin_node(bare_computer: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["doctor", "--stdio", "node -e 'setTimeout(() => {}, 20000)'", "--timeout", "1"])
    out = capsys.readouterr().out.splitlines()
    assert code == 1  # it is no MCP server: no answer to initialize
    step = out.index("[ ok ] the runtime it runs on")
    node = private_node()
    assert node is not None
    assert out[step + 1].strip().startswith("Node.js 24.") and out[step + 1].strip().endswith("(built in)")
    assert out[step + 2].strip() == node.node
    assert "[ ok ] start the process" in out  # it did start, on the built-in Node


def test_doctor_docker_missing(
    bare_computer: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.runtimes import resolve as resolve_mod

    monkeypatch.setattr(resolve_mod, "DOCKER_DIRS", ())
    monkeypatch.setenv("PATH", str(Path(bare_computer).parent / "nothing"))
    code = main(["doctor", "--stdio", "docker run -i --rm mcp/time"])
    out = capsys.readouterr().out.splitlines()
    assert code == 1
    i = out.index("[FAIL] find the runtime of 'docker'")
    assert out[i + 1].strip().startswith("Docker is not installed")


def test_trust_prompt_names_the_runtime(bare_computer: str) -> None:
    npx = Launch.of(ServerEntry(name="m", command="npx", args=["-y", "@modelcontextprotocol/server-memory"]))
    uvx = Launch.of(ServerEntry(name="t", command="uvx", args=["mcp-server-time"]))
    assert npx is not None and uvx is not None
    version = ".".join((private_node().version or "").split(".")[:2])  # type: ignore[union-attr]
    assert npx.program() == f"npx of the built-in Node.js {version}"
    uv_version = ".".join((private_uv().version or "").split(".")[:2])  # type: ignore[union-attr]
    assert uvx.program() == f"uvx of the built-in uv {uv_version}"
    other = Launch.of(ServerEntry(name="o", command="not-a-program-here"))
    assert other is not None and other.program() is None
