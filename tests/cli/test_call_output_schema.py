"""`mcp-desk call` exits 6 (`EXIT_SCHEMA_MISMATCH`) when a tool's structuredContent fails its
outputSchema, in both protocol eras, against a real SDK server (tests/cli/cli_server.py)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from app.cli.main import EXIT_SCHEMA_MISMATCH, main

SERVER = Path(__file__).with_name("cli_server.py")
STDIO = ["--stdio", shlex.join([sys.executable, str(SERVER)])]


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_schema_mismatch_has_its_own_exit_code(mode: str, capsys: pytest.CaptureFixture[str]) -> None:
    call = ["call", *STDIO, "--mode", mode, "forecast"]
    assert run([*call, "--args", '{"city": "Oslo"}'], capsys) == (0, "Oslo: 21.5\n", "")
    code, out, err = run([*call, "--args", '{"city": "Oslo", "broken": true}', "--json"], capsys)
    assert code == EXIT_SCHEMA_MISMATCH == 6
    assert json.loads(out)["structuredContent"] == {"city": "Oslo", "celsius": "warm"}  # still printed
    assert err.startswith("mcp-desk: forecast's structured result does not match its output schema: ")
    assert err.count("\n") == 1
