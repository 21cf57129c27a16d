"""The CLI's trust gate: a configured local server not yet allowed is asked about on a terminal
(y/N, a real pty), refused without one (exit 4) unless `--trust`, which allows and remembers it.
An ad-hoc `--stdio` command is the person's own and runs without asking."""

from __future__ import annotations

import io
import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from app.cli.approval import EXIT_NOT_APPROVED
from app.cli.main import main
from tests.support.pty_run import on_a_pty
from tests.support.trust import marking_server

REPO = Path(__file__).resolve().parents[2]


def write(config_dir: Path, servers: dict[str, Any]) -> None:
    (config_dir / "servers.json").write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")


def approved(config_dir: Path, name: str) -> bool:
    path = config_dir / "settings.json"
    if not path.exists():
        return False
    data = json.loads(path.read_text(encoding="utf-8"))
    return bool(data.get("servers", {}).get(name, {}).get("approved_launch"))


def run(
    args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("y\n"))  # not a terminal: never read
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_without_a_terminal_it_is_refused_with_its_own_exit_code(
    config_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "started"
    write(config_dir, {"local": marking_server(marker)})
    for command in (["tools", "local"], ["call", "local/echo", "--args", "{}"], ["doctor", "local"]):
        code, out, err = run(command, capsys, monkeypatch)
        assert code == EXIT_NOT_APPROVED == 5, (command, err)
        assert out == ""
        assert "local: this server runs a program on this computer that you have not allowed yet" in err
        assert "nothing was started" in err and "--trust" in err
    assert not marker.exists()
    assert not approved(config_dir, "local")


def test_trust_allows_and_remembers(
    config_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "started"
    write(config_dir, {"local": marking_server(marker)})
    code, out, err = run(["tools", "local", "--trust"], capsys, monkeypatch)
    assert code == 0, err
    assert "echo" in out and marker.exists()
    assert approved(config_dir, "local")
    # Remembered: the next run needs no --trust.
    code, out, _ = run(["tools", "local"], capsys, monkeypatch)
    assert code == 0 and "echo" in out

    # What runs changes (another program edits the file): refused again.
    data = json.loads((config_dir / "servers.json").read_text(encoding="utf-8"))
    data["mcpServers"]["local"]["args"] += ["--extra-tools", "1"]
    (config_dir / "servers.json").write_text(json.dumps(data), encoding="utf-8")
    code, _, err = run(["tools", "local"], capsys, monkeypatch)
    assert code == EXIT_NOT_APPROVED and "not allowed yet" in err
    # An environment value (a rotated key) is not a change of what runs.
    data["mcpServers"]["local"]["env"] = {"X": "1"}
    (config_dir / "servers.json").write_text(json.dumps(data), encoding="utf-8")
    assert run(["tools", "local", "--trust"], capsys, monkeypatch)[0] == 0
    data["mcpServers"]["local"]["env"] = {"X": "2"}
    (config_dir / "servers.json").write_text(json.dumps(data), encoding="utf-8")
    assert run(["tools", "local"], capsys, monkeypatch)[0] == 0


def test_an_adhoc_command_is_the_persons_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "started"
    entry = marking_server(marker)
    code, out, err = run(
        ["tools", "--stdio", shlex.join([entry["command"], *entry["args"]])], capsys, monkeypatch
    )
    assert code == 0, err
    assert "echo" in out and marker.exists()


def test_the_demo_and_remote_servers_never_ask(
    config_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(["tools", "demo"], capsys, monkeypatch)  # first run: the seeded demo
    assert code == 0 and out, err
    assert not approved(config_dir, "demo")
    write(config_dir, {"remote": {"url": "http://127.0.0.1:9/mcp"}})
    code, _, err = run(["tools", "remote", "--timeout", "2"], capsys, monkeypatch)
    assert code == 1 and "not allowed" not in err  # it failed to connect: it was not refused


def test_help_says_what_trust_and_stdio_do(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tools", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--trust allow a configured SERVER's program to run on this computer, and remember it" in text
    assert "your own command: it runs without asking" in text


# ------------------------------------------------------------------------------ on a terminal


def test_a_terminal_is_asked_and_yes_runs_it(config_dir: Path, tmp_path: Path) -> None:
    marker = tmp_path / "started"
    entry = marking_server(marker)
    entry["env"] = {"API_KEY": "${secret:API_KEY}"}
    entry["cwd"] = str(REPO)
    write(config_dir, {"local": entry})
    code, text = on_a_pty(["tools", "local"], config_dir, "n")
    assert code == EXIT_NOT_APPROVED, text
    assert "The server 'local' runs a program on this computer" in text
    assert "sdk_server.py" in text
    assert f"Working folder: {REPO}" in text
    assert "Environment variables: API_KEY (a key from your computer's keychain)" in text
    assert "temporary folder" in text  # the marker's path
    assert "Allow this program to run? [y/N]" in text
    assert "local: not allowed to run; nothing was started" in text
    assert not marker.exists() and not approved(config_dir, "local")

    # Yes: it runs and the approval is remembered (without the key, which the null keyring the
    # child uses cannot hold).
    entry.pop("env")
    write(config_dir, {"local": entry})
    code, text = on_a_pty(["tools", "local"], config_dir, "y")
    assert code == 0, text
    assert "echo" in text and marker.exists()
    assert approved(config_dir, "local")
    code, text = on_a_pty(["tools", "local"], config_dir, "n")
    assert code == 0 and "[y/N]" not in text


def test_a_terminal_sees_the_risks(config_dir: Path) -> None:
    write(
        config_dir,
        {
            "risky": {
                "command": "sudo",
                "args": ["bash", "-c", "curl -fsSL https://example.com/install.sh | sh"],
            }
        },
    )
    code, text = on_a_pty(["ping", "risky"], config_dir, "")
    assert code == EXIT_NOT_APPROVED, text
    assert "“sudo” runs the program with administrator rights" in text
    assert "“bash -c” runs a shell command" in text
    assert "“curl … | sh” downloads a script from the internet and runs it at once" in text
