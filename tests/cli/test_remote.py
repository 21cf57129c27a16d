"""`mcp-desk tools|call|resources|read|prompts|prompt|ping` against real servers: the demo server
(the configured `demo` entry seeded on first run), server-everything over stdio, HTTP and SSE, and
the fault servers for failures."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from app.cli.remote import safe
from tests.servers.fixtures import *  # noqa: F403
from tests.servers.harness import STDIO_FAULT

ROOT = Path(__file__).resolve().parents[2]


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def fault(name: str) -> list[str]:
    return ["--stdio", shlex.join([sys.executable, str(STDIO_FAULT), name])]


def test_tools_of_a_configured_server(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["tools", "demo"], capsys)
    assert (code, err) == (0, "")
    assert out.splitlines()[0].startswith("echo (Echo) — Repeat the message back.")


def test_tools_json_are_the_raw_tools(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["tools", "--json", *fault("healthy")], capsys)
    assert code == 0
    tools = json.loads(out)
    assert [t["name"] for t in tools] == ["echo"]
    assert tools[0]["inputSchema"]["required"] == ["message"]


def test_call_and_qualified_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["call", "demo", "echo", "--args", '{"message": "hello"}'], capsys) == (0, "hello\n", "")
    assert run(["call", "demo/echo", "--args", '{"message": "again"}'], capsys) == (0, "again\n", "")


def test_call_args_file_and_json_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = tmp_path / "args.json"
    args.write_text('{"city": "Oslo"}')
    code, out, _ = run(["call", "demo", "weather", "--args-file", str(args), "--json"], capsys)
    assert code == 0
    result = json.loads(out)
    assert result["structuredContent"]["city"] == "Oslo"
    assert result["content"][0]["type"] == "text"


def test_tool_error_exits_3(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["call", "demo", "fail"], capsys)
    assert code == 3
    assert out == "This tool fails on purpose.\n"
    assert err == "mcp-desk: fail answered with an error\n"


def test_elicitation_declined_unless_accept_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["call", "demo", "book_table"], capsys)
    assert (code, out) == (0, "No booking made: you said no.\n")


def test_accept_defaults_declines_when_required_fields_have_none(
    capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    # book_table requires a day and an e-mail address with no default: accepting would fail the call.
    # (The warning reaches stderr through the CLI's logging set-up; under pytest, caplog holds it.)
    code, out, _ = run(["call", "demo", "book_table", "--accept-defaults"], capsys)
    assert (code, out) == (0, "No booking made: you said no.\n")
    assert "day: no default" in caplog.text and "contact_email: no default" in caplog.text


@pytest.mark.node
def test_everything_over_stdio(everything_stdio: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    target = ["--stdio", shlex.join(everything_stdio)]
    code, out, _ = run(["call", *target, "echo", "--args", '{"message": "hi"}'], capsys)
    assert (code, out) == (0, "Echo: hi\n")
    code, out, _ = run(["resources", *target], capsys)
    assert code == 0
    assert "demo://resource/static/document/architecture.md" in out
    code, out, _ = run(["read", *target, "demo://resource/static/document/architecture.md"], capsys)
    assert code == 0 and out.startswith("# Everything Server")
    code, out, _ = run(["prompts", *target], capsys)
    assert code == 0 and "args-prompt (city*, state)" in out
    code, out, _ = run(["prompt", *target, "args-prompt", "--args", '{"city": "Oslo"}'], capsys)
    assert (code, out) == (0, "user:\nWhat's weather in Oslo?\n")
    code, out, _ = run(["read", *target, "demo://resource/static/document/architecture.md", "--json"], capsys)
    assert code == 0
    assert json.loads(out)["contents"][0]["mimeType"] == "text/markdown"
    code, out, _ = run(["ping", *target, "--json"], capsys)
    assert code == 0 and json.loads(out)["ok"] is True


@pytest.mark.node
def test_everything_over_http_and_sse(
    everything_http: Any, everything_sse: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    for url in (everything_http.url, everything_sse.url):
        code, out, err = run(["call", "--url", url, "echo", "--args", '{"message": "remote"}'], capsys)
        assert (code, out, err) == (0, "Echo: remote\n", "")


def test_connection_failure_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["tools", *fault("exit-at-once")], capsys)
    assert (code, out) == (1, "")
    assert err == (
        f"mcp-desk: error: {Path(sys.executable).name}: "
        "the server exited with code 1 — last stderr: fatal: API_TOKEN is not set\n"
    )


def test_failed_call_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["call", *fault("crash-mid-call"), "crash"], capsys)
    assert code == 1
    assert err.startswith("mcp-desk: error: ") and err.count("\n") == 1


def test_unknown_server(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["ping", "nosuch"], capsys)
    assert code == 1
    assert err.endswith("no server named 'nosuch'\n")


@pytest.mark.parametrize(
    "args",
    [
        ["tools"],
        ["tools", "demo", "--url", "http://127.0.0.1:1/mcp"],
        ["tools", "--stdio", "x", "--url", "http://127.0.0.1:1/mcp"],
        ["call", "demo", "echo", "--args", "[1]"],
        ["call", "demo", "echo", "--args", "{nope"],
    ],
)
def test_usage_errors_exit_2(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(args, capsys)
    assert (code, out) == (2, "")
    assert err.startswith("mcp-desk: error: ")


def test_server_text_cannot_drive_the_terminal() -> None:
    assert safe("red \x1b[31mtext\x07\n\tok") == "red ⟨U+001B⟩[31mtext⟨U+0007⟩\n\tok"


def _python(code: str) -> subprocess.CompletedProcess[str]:
    """`code` run by a fresh interpreter (what it imports is its own, not this test process's)."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)


def test_cli_commands_do_not_import_the_sdk_until_they_run() -> None:
    code = (
        "import sys\n"
        "from app.cli.main import build_parser\n"
        "build_parser()\n"
        "sdk = ('mcp.', 'mcp_types', 'httpx2')\n"
        "print(sorted(m for m in sys.modules if m == 'mcp' or m.startswith(sdk)))\n"
    )
    done = _python(code)
    assert done.stdout.strip() == "[]", done.stderr


def test_installed_binary_exit_codes(tmp_path: Path) -> None:
    binary = Path(sys.executable).parent / "mcp-desk"
    if not binary.exists():
        pytest.skip("mcp-desk console script not installed in this venv")
    base = [str(binary), "--config-dir", str(tmp_path), "call", *fault("healthy"), "echo"]
    ok = subprocess.run([*base, "--args", '{"message": "bin"}'], capture_output=True, text=True, timeout=120)
    assert (ok.returncode, ok.stdout) == (0, "Echo: bin\n"), ok.stderr


def test_the_engine_is_imported_with_the_collector_paused_then_frozen() -> None:
    # The import's objects are frozen (no collection walks them again); the collector is on again
    # and what a command makes afterwards is still collected.
    code = (
        "import gc, sys, weakref\n"
        "from app.cli.remote import import_engine\n"
        "assert 'app.mcp.connection' not in sys.modules\n"
        "import_engine()\n"
        "assert 'app.mcp.connection' in sys.modules and gc.isenabled()\n"
        "assert gc.get_freeze_count() > 10000, gc.get_freeze_count()\n"
        "class Cycle: pass\n"
        "a = Cycle(); a.me = a; gone = weakref.ref(a); del a\n"
        "gc.collect()\n"
        "print(gone() is None)\n"
    )
    done = _python(code)
    assert done.stdout.strip() == "True", done.stderr


def test_the_program_ends_without_teardown_but_with_its_exit_handlers(tmp_path: Path) -> None:
    # app.__main__.exit_after_the_engine: the answer, the exit code and the exit handlers are
    # those of a normal exit; only the interpreter's teardown is skipped.
    code = (
        "import atexit, sys\n"
        "atexit.register(lambda: print('exit handler ran', file=sys.stderr))\n"
        "from app.__main__ import main\n"
        f"sys.argv = ['mcp-desk', '--config-dir', {str(tmp_path)!r}, 'call', *{fault('healthy')!r}, 'echo']\n"
        "sys.argv += ['--args', '{\"message\": \"bye\"}']\n"
        "main()\n"
        "print('main returned', file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert (done.returncode, done.stdout) == (0, "Echo: bye\n"), done.stderr
    assert "exit handler ran" in done.stderr and "main returned" not in done.stderr


def test_an_error_exit_keeps_its_code_and_message(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from app.__main__ import main\n"
        f"sys.argv = ['mcp-desk', '--config-dir', {str(tmp_path)!r}, 'call', *{fault('healthy')!r}, 'nope']\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 1 and done.stderr.startswith("mcp-desk: error: "), done.stderr
