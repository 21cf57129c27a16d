"""`mcp-desk secrets list|set|delete` (names only on screen, values from stdin)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import keyring
import pytest
from keyring.backends import fail, null

from app.cli.main import main
from tests.support.keyring_scope import folder_user, unscope
from tests.support.memory_keyring import MemoryKeyring


def run(
    args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stdin: str = ""
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_set_list_delete(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    memory_keyring: MemoryKeyring,
    config_dir: Path,
) -> None:
    assert (
        run(
            ["servers", "add", "s", "--command", "x", "--env", "API_TOKEN=${secret:API_TOKEN}"],
            capsys,
            monkeypatch,
        )[0]
        == 0
    )
    code, out, _ = run(["secrets", "list", "s"], capsys, monkeypatch)
    assert code == 0 and out == "API_TOKEN  (referenced, not set)\n"
    code, out, err = run(["secrets", "set", "s", "API_TOKEN"], capsys, monkeypatch, stdin="tok-from-stdin\n")
    assert code == 0, err
    assert "tok-from-stdin" not in out + err
    assert memory_keyring.store[("mcp-desk", folder_user(config_dir, "s/API_TOKEN"))] == "tok-from-stdin"
    code, out, _ = run(["secrets", "list", "s"], capsys, monkeypatch)
    assert out == "API_TOKEN\n"
    code, out, err = run(["secrets", "set", "s", "EXTRA"], capsys, monkeypatch, stdin="x" * 2500)
    assert code == 0 and "does not reference" in err
    code, out, _ = run(["secrets", "list"], capsys, monkeypatch)
    assert out == "s/API_TOKEN\ns/EXTRA\n"
    assert "x" * 10 not in out
    code, _, _ = run(["secrets", "delete", "s", "EXTRA"], capsys, monkeypatch)
    assert code == 0
    assert not [
        u for u in unscope(config_dir, [u for (_, u) in memory_keyring.store]) if u.startswith("s/EXTRA")
    ]
    code, _, err = run(["secrets", "delete", "s", "EXTRA"], capsys, monkeypatch)
    assert code == 1 and "no secret" in err


def test_set_errors(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    assert run(["secrets", "set", "nosuch", "A"], capsys, monkeypatch, stdin="v\n")[0] == 1
    assert run(["secrets", "set", "demo", "A"], capsys, monkeypatch, stdin="")[0] == 1  # empty stdin
    assert run(["secrets", "set", "demo", "bad/name"], capsys, monkeypatch, stdin="v\n")[0] == 2
    assert run(["secrets", "set", "demo"], capsys, monkeypatch)[0] == 2


def test_no_secure_keyring_is_one_clear_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    keyring.set_keyring(null.Keyring())
    code, _out, err = run(["secrets", "set", "demo", "TOKEN"], capsys, monkeypatch, stdin="value-123\n")
    assert code == 1
    assert err.count("\n") == 1
    assert "Cannot store secrets" in err and "value-123" not in err
    assert run(["secrets", "list"], capsys, monkeypatch)[0] == 1


def write_seventeen(path: Path) -> Path:
    servers: dict[str, object] = {
        f"tool-{i:02d}": {"command": "npx", "args": [f"pkg-{i}"]} for i in range(16)
    }
    servers["github"] = {"command": "npx", "env": {"GITHUB_TOKEN": "ghp_cli_seventeenth"}}
    path.write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    return path


def test_import_without_keyring_imports_16_reports_1_and_fails(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, config_dir: Path
) -> None:
    keyring.set_keyring(fail.Keyring())
    source = write_seventeen(tmp_path / "claude_desktop_config.json")
    code, out, err = run(["servers", "import", str(source)], capsys, monkeypatch)
    assert code == 1
    assert "imported 16 server(s)" in out
    assert "skipped 1 server(s)" in err and "github: its key GITHUB_TOKEN cannot be stored" in err
    assert "--no-detect-secrets" in err and "docs/keyring.md" in err
    assert "ghp_cli_seventeenth" not in out + err
    servers = json.loads((config_dir / "servers.json").read_text())["mcpServers"]
    assert len(servers) == 17 and "github" not in servers  # demo + the 16

    # --no-detect-secrets: the person keeps values as written in the file; nothing is skipped.
    again = tmp_path / "again" / "claude_desktop_config.json"
    again.parent.mkdir()
    write_seventeen(again)
    code, out, err = run(["servers", "import", "--no-detect-secrets", str(again)], capsys, monkeypatch)
    assert code == 0, err
    assert "imported 17 server(s)" in out


def test_two_config_folders_keep_their_own_keys(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    a, b = tmp_path / "A", tmp_path / "B"

    def in_folder(folder: Path, *args: str, stdin: str = "") -> tuple[int, str, str]:
        return run(["--config-dir", str(folder), *args], capsys, monkeypatch, stdin=stdin)

    for folder, value in ((a, "key-of-A"), (b, "key-of-B")):
        assert (
            in_folder(
                folder,
                "servers",
                "add",
                "brave",
                "--command",
                "x",
                "--secret-env",
                "BRAVE_API_KEY",
                stdin=f"{value}\n",
            )[0]
            == 0
        )
    assert in_folder(a, "secrets", "list")[1] == "brave/BRAVE_API_KEY\n"
    assert in_folder(b, "secrets", "list")[1] == "brave/BRAVE_API_KEY\n"  # not "(no such server)" lines
    assert in_folder(b, "servers", "rename", "brave", "brave2")[0] == 0
    assert in_folder(b, "servers", "remove", "brave2")[0] == 0
    code, out, _ = in_folder(a, "secrets", "list")
    assert code == 0 and out == "brave/BRAVE_API_KEY\n"
    from app.config.store import ConfigStore
    from app.secrets.profile import folder_secrets

    config = ConfigStore(a)
    config.load()
    assert folder_secrets(config).get("brave", "BRAVE_API_KEY") == "key-of-A"


def test_a_key_that_is_not_there_is_named_not_cannot_store(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    add = ["servers", "add", "brave", "--command", sys.executable, "--env", "K=${secret:BRAVE_API_KEY}"]
    assert run(add, capsys, monkeypatch)[0] == 0
    code, _, err = run(["tools", "brave", "--trust"], capsys, monkeypatch)  # allowed: the key is asked for
    assert code == 1
    assert "the key BRAVE_API_KEY is not in this computer's keychain: set it" in err
    assert "mcp-desk secrets set brave BRAVE_API_KEY" in err
    keyring.set_keyring(fail.Keyring())
    code, _, err = run(["tools", "brave"], capsys, monkeypatch)
    assert code == 1
    assert "BRAVE_API_KEY" in err and "no usable keychain" in err and "docs/keyring.md" in err
    assert "cannot store" not in err.lower()
