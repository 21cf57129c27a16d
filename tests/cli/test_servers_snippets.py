"""`mcp-desk servers import -` (a README snippet on stdin) and `servers add NAME -- CMD ARG...`."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from app.cli.main import main
from tests.support.memory_keyring import MemoryKeyring

BRAVE = """# Claude Desktop, from the README
"mcpServers": {
  "brave-search": {
    "command": "npx",
    "args": ["-y", "@brave/brave-search-mcp-server"],
    "env": {"BRAVE_API_KEY": "YOUR_API_KEY_HERE"},
  },
}
"""


def run(
    args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stdin: str = ""
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def servers(config_dir: Path) -> dict[str, dict[str, object]]:
    data: dict[str, dict[str, dict[str, object]]] = json.loads((config_dir / "servers.json").read_text())
    return data["mcpServers"]


def keys(keyring: MemoryKeyring) -> dict[str, str]:
    """The keys stored for servers (not the keychain's own index of them)."""
    return {user: v for (_service, user), v in keyring.store.items() if "/" in user and not v.startswith("{")}


def test_import_stdin_snippet_without_examples(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, config_dir: Path
) -> None:
    text = (
        '{"mcp": {"fs": {"type": "local", "command": ["npx", "-y", "@modelcontextprotocol/server-memory"]}}}'
    )
    code, out, err = run(["servers", "import", "-"], capsys, monkeypatch, text)
    assert code == 0, err
    assert "imported 1 server(s) from stdin (mcp snippet): fs" in out
    assert servers(config_dir)["fs"] == {
        "command": "npx",
        "args": ["-y", "@modelcontextprotocol/server-memory"],
    }


def test_import_stdin_example_key_without_terminal_names_what_is_missing(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    config_dir: Path,
    memory_keyring: MemoryKeyring,
) -> None:
    code, _out, err = run(["servers", "import", "-"], capsys, monkeypatch, BRAVE)
    assert code == 2
    assert "BRAVE_API_KEY" in err and "YOUR_API_KEY_HERE" in err and "--set" in err
    assert not (config_dir / "servers.json").exists() or "brave-search" not in servers(config_dir)
    assert keys(memory_keyring) == {}


def test_import_stdin_with_set_stores_the_real_key(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    config_dir: Path,
    memory_keyring: MemoryKeyring,
) -> None:
    code, out, err = run(
        ["servers", "import", "-", "--set", "BRAVE_API_KEY=BSA-real"], capsys, monkeypatch, BRAVE
    )
    assert code == 0, err
    assert "brave-search/BRAVE_API_KEY" in out and "BSA-real" not in out + err
    assert servers(config_dir)["brave-search"]["env"] == {"BRAVE_API_KEY": "${secret:BRAVE_API_KEY}"}
    assert list(keys(memory_keyring).values()) == ["BSA-real"]
    raw = (config_dir / "servers.json").read_text()
    assert "YOUR_API_KEY_HERE" not in raw and "BSA-real" not in raw


def test_import_stdin_unknown_set_key_and_unreadable_text(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, config_dir: Path
) -> None:
    code, _out, err = run(["servers", "import", "-", "--set", "NOPE=1"], capsys, monkeypatch, BRAVE)
    assert code == 2 and "NOPE" in err and "BRAVE_API_KEY" in err
    code, _out, err = run(["servers", "import", "-"], capsys, monkeypatch, "just words")
    assert code == 2 and "No server definition found" in err


def test_import_on_a_terminal_asks_with_getpass(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    config_dir: Path,
    memory_keyring: MemoryKeyring,
) -> None:
    import getpass

    import app.cli.servers as servers_cli

    prompts: list[str] = []
    monkeypatch.setattr(servers_cli, "_on_terminal", lambda: True)
    monkeypatch.setattr(getpass, "getpass", lambda prompt="": prompts.append(prompt) or "typed-secret")
    snippet = Path(config_dir.parent / "snippet.txt")
    snippet.write_text(BRAVE)
    code, _out, err = run(["servers", "import", str(snippet)], capsys, monkeypatch)
    assert code == 0, err
    assert prompts and "BRAVE_API_KEY" in prompts[0]
    assert "YOUR_API_KEY_HERE" in err  # the example is named on the terminal, the answer is not
    assert list(keys(memory_keyring).values()) == ["typed-secret"]


def test_a_config_file_still_imports_as_before(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, config_dir: Path, tmp_path: Path
) -> None:
    path = tmp_path / "claude_desktop_config.json"
    path.write_text(json.dumps({"mcpServers": {"t": {"command": "uvx", "args": ["mcp-server-time"]}}}))
    code, out, err = run(["servers", "import", str(path)], capsys, monkeypatch)
    assert code == 0, err
    assert "from claude file" in out


def test_add_takes_the_whole_command_after_dashes(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, config_dir: Path
) -> None:
    code, _out, err = run(
        ["servers", "add", "mem", "--env", "LOG=1", "--", "npx", "-y", "@modelcontextprotocol/server-memory"],
        capsys,
        monkeypatch,
    )
    assert code == 0, err
    assert servers(config_dir)["mem"] == {
        "command": "npx",
        "args": ["-y", "@modelcontextprotocol/server-memory"],
        "env": {"LOG": "1"},
    }
    code, _out, err = run(["servers", "add", "x"], capsys, monkeypatch)
    assert code == 2 and "--" in err
    code, _out, err = run(["servers", "add", "x", "--command", "a", "--", "b"], capsys, monkeypatch)
    assert code == 2 and "not both" in err


def test_add_with_an_example_path_asks_or_takes_set(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, config_dir: Path, tmp_path: Path
) -> None:
    line = ["npx", "-y", "@modelcontextprotocol/server-filesystem", "/path/to/allowed/dir"]
    code, _out, err = run(["servers", "add", "fs", "--", *line], capsys, monkeypatch)
    assert code == 2 and "ALLOWED_DIR" in err and "/path/to/allowed/dir" in err
    assert "fs" not in servers(config_dir)
    code, _out, err = run(
        ["servers", "add", "fs", "--set", f"ALLOWED_DIR={tmp_path}", "--", *line], capsys, monkeypatch
    )
    assert code == 0, err
    assert servers(config_dir)["fs"]["args"] == [*line[1:-1], str(tmp_path)]


def test_add_with_an_example_key_in_the_env_keeps_the_answer_secret(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    config_dir: Path,
    memory_keyring: MemoryKeyring,
) -> None:
    code, _out, err = run(
        [
            "servers",
            "add",
            "ctx",
            "--set",
            "API_KEY=ctx7sk-real",
            "--",
            "npx",
            "-y",
            "@upstash/context7-mcp",
            "--api-key",
            "YOUR_API_KEY",
        ],
        capsys,
        monkeypatch,
    )
    assert code == 0, err
    assert servers(config_dir)["ctx"]["args"][-2:] == ["--api-key", "${secret:API_KEY}"]
    assert list(keys(memory_keyring).values()) == ["ctx7sk-real"]
