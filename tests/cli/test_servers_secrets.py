"""`mcp-desk secrets list|set|delete` (names only on screen, values from stdin)."""

from __future__ import annotations

import io
import sys

import keyring
import pytest
from keyring.backends import null

from app.cli.main import main
from tests.support.memory_keyring import MemoryKeyring


def run(
    args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stdin: str = ""
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_set_list_delete(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, memory_keyring: MemoryKeyring
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
    assert memory_keyring.store[("mcp-desk", "s/API_TOKEN")] == "tok-from-stdin"
    code, out, _ = run(["secrets", "list", "s"], capsys, monkeypatch)
    assert out == "API_TOKEN\n"
    code, out, err = run(["secrets", "set", "s", "EXTRA"], capsys, monkeypatch, stdin="x" * 2500)
    assert code == 0 and "does not reference" in err
    code, out, _ = run(["secrets", "list"], capsys, monkeypatch)
    assert out == "s/API_TOKEN\ns/EXTRA\n"
    assert "x" * 10 not in out
    code, _, _ = run(["secrets", "delete", "s", "EXTRA"], capsys, monkeypatch)
    assert code == 0
    assert not [u for (_, u) in memory_keyring.store if u.startswith("s/EXTRA")]
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
