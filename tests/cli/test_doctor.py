"""`mcp-desk doctor` against real broken servers: each one stops at the step that is broken and
says what to do; healthy servers pass every step (stdio, Streamable HTTP, SSE)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from tests.servers.fixtures import *  # noqa: F403
from tests.servers.harness import STDIO_FAULT
from tests.servers.process import ServerProcess
from tests.servers.replay_server import SCHEMAS_DIR


def doctor(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    code = main(["doctor", *args])
    out, err = capsys.readouterr()
    assert err == ""
    return code, out.splitlines()


def fault(name: str) -> list[str]:
    return ["--stdio", shlex.join([sys.executable, str(STDIO_FAULT), name]), "--timeout", "5"]


def marks(lines: list[str]) -> list[str]:
    """The step lines only, e.g. '[ ok ] start the process'."""
    return [line for line in lines if line.startswith("[")]


def test_healthy_demo_passes_every_step(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = doctor(["demo"], capsys)
    assert code == 0, "\n".join(lines)
    assert all(line.startswith("[ ok ]") for line in marks(lines))
    assert marks(lines)[-1] == "[ ok ] connect as MCP Desk does"
    assert lines[-1] == "Result: no problem found."


def test_server_that_exits_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = doctor(fault("exit-at-once"), capsys)
    assert code == 1
    assert marks(lines)[-1] == "[FAIL] the process keeps running"
    text = "\n".join(lines)
    assert "it exited with code 1" in text
    assert "fatal: API_TOKEN is not set" in text
    assert "advice: the server wants a credential" in text
    assert lines[-1] == "Result: the first failure above is what to fix."


def test_server_with_an_unknown_protocol_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = doctor(fault("unknown-version"), capsys)
    assert code == 1
    assert marks(lines)[-1] == "[FAIL] answer initialize"
    assert "       fault-unknown-version 1.0.0 offers protocol version '2099-01-01'" in lines


def test_server_that_prints_on_stdout_works_with_a_warning(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = doctor(fault("stdout-noise"), capsys)
    assert code == 0
    assert "[warn] stdout carries only protocol messages" in lines
    assert "       stdout: Starting fault server v1.0 (debug build)" in lines
    assert lines[-1] == "Result: it works, but see the warnings above."


def test_server_that_never_answers(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = doctor([*fault("never-initialize")[:-1], "2"], capsys)
    assert code == 1
    assert marks(lines)[-1] == "[FAIL] answer initialize"
    assert "       no answer within 2 s" in lines


def test_command_not_found(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = doctor(["--stdio", "npx-that-does-not-exist -y some-server"], capsys)
    assert code == 1
    assert marks(lines) == [
        "[ ok ] read the server's definition",
        "[FAIL] find the command 'npx-that-does-not-exist'",
    ]


def test_missing_server_name(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = doctor(["nosuch"], capsys)
    assert code == 1
    assert marks(lines) == ["[FAIL] read the server's definition"]


def test_missing_secret(capsys: pytest.CaptureFixture[str]) -> None:
    add = ["servers", "add", "needs-key", "--command", sys.executable, "--no-detect-secrets"]
    assert main([*add, "--env", "API_KEY=${secret:API_KEY}"]) == 0
    capsys.readouterr()
    code, lines = doctor(["needs-key", "--trust"], capsys)  # allowed to run: its key is what is missing
    assert code == 1
    assert marks(lines) == ["[FAIL] read the server's definition"]
    assert "       advice: store the missing secret with `mcp-desk secrets set SERVER NAME`" in lines


def test_http_server_that_wants_a_token(
    capsys: pytest.CaptureFixture[str], process_token: dict[str, str]
) -> None:
    argv = [sys.executable, "-m", "tests.servers.faults.http_fault"]
    with ServerProcess(argv, env={**process_token, "FAULT_HTTP_TOKEN": "s3cret"}, cwd=Path.cwd()) as server:
        host, port = server.wait_listening(30.0)
        code, lines = doctor(["--url", f"http://{host}:{port}/mcp"], capsys)
    assert code == 1
    assert marks(lines)[-1] == "[FAIL] POST initialize"
    assert '       WWW-Authenticate: Bearer realm="fault-http", error="invalid_token"' in lines
    assert any(line.startswith("       advice: the server wants credentials") for line in lines)
    assert any("mcp-desk secrets set SERVER NAME" in line for line in lines)


def test_http_advice_is_the_engines() -> None:
    # One table: what the doctor advises for an HTTP status is what the app's reason says.
    from app.cli.doctor import http_advice
    from app.mcp.reasons import HTTP_ADVICE, SERVER_ERROR_ADVICE

    for status, advice in HTTP_ADVICE.items():
        assert http_advice(status).startswith(advice)
    assert http_advice(503) == SERVER_ERROR_ADVICE
    assert http_advice(418) == "see the HTTP status"


def test_nothing_listening(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = doctor(["--url", "http://127.0.0.1:9/mcp"], capsys)
    assert code == 1
    assert marks(lines)[-1] == "[FAIL] connect to 127.0.0.1:9"


@pytest.mark.node
def test_wrong_path(everything_http: Any, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = doctor(["--url", everything_http.url.replace("/mcp", "/wrong")], capsys)
    assert code == 1
    assert "       HTTP 404 Not Found" in lines


@pytest.mark.node
def test_healthy_http_and_sse(
    everything_http: Any, everything_sse: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    for url in (everything_http.url, everything_sse.url):
        code, lines = doctor(["--url", url], capsys)
        assert code == 0, "\n".join(lines)
        assert marks(lines)[-1] == "[ ok ] connect as MCP Desk does"


def test_json_report(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["doctor", "--json", *fault("exit-at-once")])
    report = json.loads(capsys.readouterr().out)
    assert code == 1
    assert report["ok"] is False
    last = report["steps"][-1]
    assert (last["status"], last["title"]) == ("fail", "the process keeps running")
    assert "fatal: API_TOKEN is not set" in last["details"]
    assert last["advice"].startswith("the server wants a credential")


def test_server_that_speaks_only_2026_07_28(capsys: pytest.CaptureFixture[str]) -> None:
    schema = SCHEMAS_DIR / "dbhub.json"
    if not schema.is_file():
        pytest.skip(f"{schema} is missing")
    replay = Path(__file__).resolve().parents[1] / "servers" / "replay_server.py"
    command = shlex.join([sys.executable, str(replay), str(schema), "--modern-only"])
    code, lines = doctor(["--stdio", command, "--timeout", "30"], capsys)
    assert code == 0, "\n".join(lines)
    # The engine's own handshake for this era is discovery: no refused initialize to explain.
    assert "[ ok ] answer initialize" in lines
    assert any(line.endswith("protocol 2026-07-28 (server/discover)") for line in lines)
    assert marks(lines)[-1] == "[ ok ] connect as MCP Desk does"


def test_the_doctor_starts_a_stdio_server_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The doctor is no second stdio client: its steps come from the engine's one connection
    (before, a raw probe started the server, then the engine started it again)."""
    starts = tmp_path / "starts"
    server = Path(__file__).resolve().parents[1] / "mcp" / "sdk_server.py"
    run = shlex.join([sys.executable, str(server)])
    command = f"echo started >> {shlex.quote(str(starts))}; exec {run}"
    code, lines = doctor(["--stdio", shlex.join(["sh", "-c", command]), "--timeout", "30"], capsys)
    assert code == 0, "\n".join(lines)
    assert marks(lines)[-1] == "[ ok ] connect as MCP Desk does"
    assert starts.read_text().splitlines() == ["started"]
