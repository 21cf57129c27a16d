"""`mcp-desk servers ...` through `app.cli.main.main`, and once through the installed binary."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli.main import main
from tests.support.keyring_scope import folder_user, unscope
from tests.support.memory_keyring import MemoryKeyring

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "import"
# The console script of the venv running the tests (./.venv for run-tests.sh).
BINARY = Path(sys.executable).parent / "mcp-desk"


def run(
    args: list[str],
    capsys: pytest.CaptureFixture[str],
    stdin: str | None = None,
    monkeypatch: pytest.MonkeyPatch | None = None,
) -> tuple[int, str, str]:
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def servers_file(config_dir: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads((config_dir / "servers.json").read_text())
    return data


def test_list_first_run_shows_demo(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["servers", "list"], capsys)
    assert code == 0, err
    assert out.startswith("demo  stdio")
    code, out, _ = run(["servers", "list", "--json"], capsys)
    rows = json.loads(out)
    assert [r["name"] for r in rows] == ["demo"]
    assert rows[0]["args"] == ["-m", "app", "demo-server"]


def test_add_stdio_with_detected_and_marked_secrets(
    capsys: pytest.CaptureFixture[str],
    config_dir: Path,
    memory_keyring: MemoryKeyring,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code, out, err = run(
        [
            "servers",
            "add",
            "gh",
            "--command",
            "npx",
            "--arg=-y",
            "--arg",
            "@modelcontextprotocol/server-github",
            "--env",
            "GITHUB_TOKEN=ghp_cliSecret1",
            "--env",
            "LOG=debug",
            "--secret-env",
            "CUSTOM",
            "--cwd",
            "/tmp",
        ],
        capsys,
        stdin="asked-value-2\n",
        monkeypatch=monkeypatch,
    )
    assert code == 0, err
    assert "2 secret(s)" in out
    entry = servers_file(config_dir)["mcpServers"]["gh"]  # type: ignore[index]
    assert entry == {
        "command": "npx",
        "args": ["-y", "@modelcontextprotocol/server-github"],
        "env": {"GITHUB_TOKEN": "${secret:GITHUB_TOKEN}", "LOG": "debug", "CUSTOM": "${secret:CUSTOM}"},
        "cwd": "/tmp",
    }
    assert memory_keyring.store[("mcp-desk", folder_user(config_dir, "gh/GITHUB_TOKEN"))] == "ghp_cliSecret1"
    assert memory_keyring.store[("mcp-desk", folder_user(config_dir, "gh/CUSTOM"))] == "asked-value-2"
    assert b"ghp_cliSecret1" not in (config_dir / "servers.json").read_bytes()


def test_add_remote_with_secret_header(
    capsys: pytest.CaptureFixture[str], config_dir: Path, memory_keyring: MemoryKeyring
) -> None:
    code, _, err = run(
        [
            "servers",
            "add",
            "remote",
            "--url",
            "https://example.com/sse",
            "--type",
            "sse",
            "--header",
            "Authorization=Bearer abc",
            "--header",
            "Accept=text/plain",
            "--secret-header",
            "X-Custom=xyz",
        ],
        capsys,
    )
    assert code == 0, err
    entry = servers_file(config_dir)["mcpServers"]["remote"]  # type: ignore[index]
    assert entry == {
        "type": "sse",
        "url": "https://example.com/sse",
        "headers": {
            "Authorization": "${secret:Authorization}",
            "Accept": "text/plain",
            "X-Custom": "${secret:X-Custom}",
        },
    }
    assert memory_keyring.store[("mcp-desk", folder_user(config_dir, "remote/Authorization"))] == "Bearer abc"


def test_add_no_detect_keeps_values(capsys: pytest.CaptureFixture[str], config_dir: Path) -> None:
    code, _, _ = run(
        ["servers", "add", "x", "--command", "c", "--env", "API_KEY=public-demo", "--no-detect-secrets"],
        capsys,
    )
    assert code == 0
    assert servers_file(config_dir)["mcpServers"]["x"]["env"] == {"API_KEY": "public-demo"}  # type: ignore[index]


@pytest.mark.parametrize(
    "args",
    [
        ["servers", "add", "x"],
        ["servers", "add", "x", "--command", "a", "--url", "http://b"],
        ["servers", "add", "x", "--url", "http://b", "--arg", "y"],
        ["servers", "add", "x", "--command", "a", "--type", "sse"],
        ["servers", "add", "x", "--command", "a", "--env", "NOEQUALS"],
        ["servers", "import", "f", "--format", "word"],
        ["servers", "export", "--format", "vscode", "--include-secrets"],
        ["servers"],
        ["nonsense"],
    ],
)
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], args: list[str], config_dir: Path) -> None:
    code, _, err = run(args, capsys)
    assert code == 2
    assert err.strip()
    assert not (config_dir / "servers.json").exists()


def test_add_existing_name_fails(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["servers", "add", "demo", "--command", "x"], capsys)
    assert code == 1
    assert err.count("\n") == 1 and "already exists" in err


def test_remove_and_rename_move_secrets(
    capsys: pytest.CaptureFixture[str], config_dir: Path, memory_keyring: MemoryKeyring
) -> None:
    assert (
        run(
            [
                "servers",
                "add",
                "a",
                "--command",
                "x",
                "--env",
                "TOKEN=t" * 1,
                "--env",
                "LONG_SECRET=" + "s" * 3000,
            ],
            capsys,
        )[0]
        == 0
    )
    code, _, err = run(["servers", "rename", "a", "b"], capsys)
    assert code == 0, err
    users = sorted(unscope(config_dir, [u for (_, u) in memory_keyring.store]))
    assert users == ["b/LONG_SECRET", "b/LONG_SECRET#1", "b/LONG_SECRET#2", "b/LONG_SECRET#3", "b/TOKEN"]
    assert list(servers_file(config_dir)["mcpServers"]) == ["demo", "b"]  # type: ignore[call-overload]
    code, out, _ = run(["servers", "remove", "b"], capsys)
    assert code == 0 and "2 secret(s)" in out
    assert memory_keyring.store == {}
    assert run(["servers", "remove", "b"], capsys)[0] == 1


def test_import_each_format_via_cli(
    capsys: pytest.CaptureFixture[str],
    config_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    memory_keyring: MemoryKeyring,
) -> None:
    expected = json.loads((FIXTURES / "expected.json").read_text())
    for key, value in expected["environ"].items():
        monkeypatch.setenv(key, value)
    answers = expected["answers"]
    # VS Code asks in the order inputs are first used: github_token, perplexity-key, project-dir.
    stdin = "\n".join([answers["github_token"], answers["perplexity-key"], answers["project-dir"]]) + "\n"
    for fixture, spec in sorted(expected["formats"].items()):
        code, out, err = run(
            ["servers", "import", str(FIXTURES / fixture)],
            capsys,
            stdin=stdin if spec["format"] == "vscode" else "",
            monkeypatch=monkeypatch,
        )
        assert code == 0, err
        assert f"from {spec['format']} file" in out
    raw = (config_dir / "servers.json").read_bytes()
    stored = {v for (_, u), v in memory_keyring.store.items() if "/" in u}
    for spec in expected["formats"].values():
        for values in spec["secrets"].values():
            for value in values.values():
                assert value.encode() not in raw
                assert value in stored
    # Claude and VS Code both have "github": the second got a suffix.
    assert "github-2" in servers_file(config_dir)["mcpServers"]  # type: ignore[operator]


def test_export_formats(capsys: pytest.CaptureFixture[str], config_dir: Path, tmp_path: Path) -> None:
    assert run(["servers", "add", "s", "--command", "x", "--env", "API_TOKEN=tok-1"], capsys)[0] == 0
    code, out, _ = run(["servers", "export"], capsys)
    assert code == 0
    assert json.loads(out)["mcpServers"]["s"]["env"] == {"API_TOKEN": "${secret:API_TOKEN}"}
    assert "tok-1" not in out
    code, out, _ = run(["servers", "export", "--include-secrets"], capsys)
    assert json.loads(out)["mcpServers"]["s"]["env"] == {"API_TOKEN": "tok-1"}
    target = tmp_path / "out" / "vscode.json"
    code, out, _ = run(["servers", "export", "--format", "vscode", "-o", str(target)], capsys)
    assert code == 0
    data = json.loads(target.read_text())
    assert data["servers"]["s"]["env"] == {"API_TOKEN": "${input:s-API_TOKEN}"}
    assert data["inputs"][0]["password"] is True
    assert oct(target.stat().st_mode & 0o777) == "0o600"


def test_broken_file_exit_1_with_position(capsys: pytest.CaptureFixture[str], config_dir: Path) -> None:
    path = config_dir / "servers.json"
    path.write_bytes(b'{\n  "mcpServers": {\n    "a": {"command": "x",}\n  }\n}\n')
    before = path.read_bytes()
    for args in (["servers", "list"], ["servers", "add", "b", "--command", "y"], ["servers", "remove", "a"]):
        code, _out, err = run(args, capsys)
        assert code == 1
        assert err == f"mcp-desk: error: {path}:3:26: Expecting property name enclosed in double quotes\n"
    assert path.read_bytes() == before


def test_config_dir_option_points_elsewhere(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, config_dir: Path
) -> None:
    other = tmp_path / "other"
    code, _, err = run(["--config-dir", str(other), "servers", "add", "o", "--command", "x"], capsys)
    assert code == 0, err
    assert "o" in json.loads((other / "servers.json").read_text())["mcpServers"]
    assert not (config_dir / "servers.json").exists()


def test_installed_binary_end_to_end(tmp_path: Path) -> None:
    """The real console script in a child process: no in-memory keyring there, so secrets must be
    refused (null backend), plain servers work, a broken file gives file:line:col and exit 1."""
    if not BINARY.exists():
        pytest.fail(f"{BINARY} missing: install the project into .venv")
    cfg = tmp_path / "bin-config"
    env = {k: v for k, v in os.environ.items() if k != "MCP_DESK_CONFIG_DIR"}
    env["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"

    def mcp(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(BINARY), "--config-dir", str(cfg), *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )

    done = mcp("servers", "add", "plain", "--command", "echo", "--arg", "hi")
    assert done.returncode == 0, done.stderr
    done = mcp("servers", "add", "gh", "--command", "npx", "--env", "GITHUB_TOKEN=ghp_binarySecret")
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "Cannot store secrets" in done.stderr
    assert "ghp_binarySecret" not in done.stderr
    done = mcp("servers", "list", "--json")
    assert [r["name"] for r in json.loads(done.stdout)] == ["demo", "plain"]
    assert b"ghp_binarySecret" not in (cfg / "servers.json").read_bytes()
    done = mcp("servers", "bogus")
    assert done.returncode == 2
    (cfg / "servers.json").write_text("{\n  oops\n}")
    done = mcp("servers", "list")
    assert done.returncode == 1
    assert (
        done.stderr
        == f"mcp-desk: error: {cfg / 'servers.json'}:2:3: Expecting property name enclosed in double quotes\n"
    )
    assert (cfg / "servers.json").read_text() == "{\n  oops\n}"
