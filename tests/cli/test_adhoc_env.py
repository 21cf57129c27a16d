"""Ad-hoc --stdio servers take an environment: `-e KEY=VALUE` and `--secret-env KEY` (the value from
mcp-desk's own environment or asked without echo, never in argv), against a real SDK server that
only starts when the exact key reached its environment (tests/servers/env_key_server.py)."""

from __future__ import annotations

import hashlib
import shlex
import sys
from pathlib import Path

import pytest

from app.cli import remote
from app.cli.main import main
from tests.servers.env_key_server import __file__ as ENV_KEY_SERVER

KEY = "sk-test-1234567890abcdefXYZ"
SHA = hashlib.sha256(KEY.encode()).hexdigest()
STDIO = ["--stdio", shlex.join([sys.executable, str(Path(ENV_KEY_SERVER))])]


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_secret_env_from_the_environment_and_e_values(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BRAVE_API_KEY", KEY)
    args = ["call", *STDIO, "-e", f"WANT_SHA256={SHA}", "--secret-env", "BRAVE_API_KEY", "key_length"]
    assert run(args, capsys) == (0, f"{len(KEY)}\n", "")


def test_without_the_key_the_server_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The server inherits only a default environment: our own BRAVE_API_KEY is not passed on by itself.
    monkeypatch.setenv("BRAVE_API_KEY", KEY)
    code, _, err = run(["tools", *STDIO, "-e", f"WANT_SHA256={SHA}"], capsys)
    assert code == 1 and "BRAVE_API_KEY is not set" in err


def test_secret_env_asked_without_echo(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("BRAVE_API_KEY", raising=False)
    asked: list[str] = []

    def getpass(prompt: str) -> str:
        asked.append(prompt)
        return KEY

    monkeypatch.setattr(remote, "_can_ask", lambda: True)
    monkeypatch.setattr("getpass.getpass", getpass)
    args = ["call", *STDIO, "-e", f"WANT_SHA256={SHA}", "--secret-env", "BRAVE_API_KEY", "key_length"]
    assert run(args, capsys) == (0, f"{len(KEY)}\n", "")
    assert asked == ["BRAVE_API_KEY (a key, not shown as you type): "]


def test_secret_values_are_masked_in_what_is_shown() -> None:
    env, secrets = remote.adhoc_environment(["PLAIN=1", "GITHUB_TOKEN=ghp_abcdefghijklmnop1234"], [])
    assert env == {"PLAIN": "1", "GITHUB_TOKEN": "ghp_abcdefghijklmnop1234"}
    assert secrets == {"ghp_abcdefghijklmnop1234"}


@pytest.mark.parametrize(
    ("args", "says"),
    [
        ([*STDIO, "-e", "NOVALUE"], "-e expects KEY=VALUE"),
        ([*STDIO, "--secret-env", f"BRAVE_API_KEY={KEY}"], "--secret-env takes a KEY only"),
        (["demo", "-e", "A=1"], "go with --stdio"),
        (["--url", "http://127.0.0.1:1/mcp", "--secret-env", "A"], "go with --stdio"),
        ([*STDIO, "--secret-env", "MCP_DESK_NOT_SET_ANYWHERE"], "no terminal to ask on"),
    ],
)
def test_usage_errors_exit_2(
    args: list[str], says: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(remote, "_can_ask", lambda: False)
    code, out, err = run(["tools", *args], capsys)
    assert (code, out) == (2, "")
    assert says in err and KEY not in err
