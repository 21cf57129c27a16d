"""`mcp-desk complete`: prompt argument and resource template variable completion, against a real SDK
server (tests/cli/cli_server.py) over stdio and Streamable HTTP, in both protocol eras (2026-07-28
stateless requests, a 2025-11-25 session)."""

from __future__ import annotations

import argparse
import asyncio
import json
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.cli.complete import completion_ref
from app.cli.main import CommandError, main
from tests.servers.harness import STDIO_FAULT
from tests.servers.process import ServerProcess

SERVER = Path(__file__).with_name("cli_server.py")
STDIO = ["--stdio", shlex.join([sys.executable, str(SERVER)])]
MODES = ["legacy", "auto"]  # 2025-11-25, 2026-07-28


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def http_url() -> Iterator[str]:
    with ServerProcess([sys.executable, str(SERVER), "--http"]) as proc:
        host, port = proc.wait_listening(60)
        yield f"http://{host}:{port}/mcp"


@pytest.mark.parametrize("mode", MODES)
def test_prompt_argument_over_stdio(mode: str, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["complete", *STDIO, "--mode", mode, "--prompt", "travel", "city", "p"]
    assert run([*args, "--context", "country=France"], capsys) == (0, "Paris\nPau\n", "")
    code, out, _ = run(["complete", *STDIO, "--mode", mode, "--prompt", "travel", "country"], capsys)
    assert (code, out) == (0, "France\nNorway\nPeru\n")  # no VALUE: everything


@pytest.mark.parametrize("mode", MODES)
def test_template_variable_over_http(mode: str, http_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    base = ["complete", "--url", http_url, "--mode", mode, "--resource", "weather://{country}/{city}"]
    assert run([*base, "city", "o", "--context", "country=Norway", "--json"], capsys) == (
        0,
        json.dumps({"values": ["Oslo"]}, indent=2) + "\n",
        "",
    )
    assert run([*base, "country", "pe"], capsys) == (0, "Peru\n", "")


def test_unknown_prompt_template_or_argument_is_named_with_what_exists() -> None:
    # Checked before anything is sent (a server answers unknown names with an empty list); one
    # connection for every case, as a server start is the slow part.
    from app.mcp.connection import ServerConnection
    from app.mcp.target import Target

    cases = {
        ("trip", None, "city"): "has no prompt named 'trip' (its prompts: travel)",
        (
            "travel",
            None,
            "town",
        ): "prompt 'travel' has no argument named 'town' (its arguments: country, city)",
        (None, "weather://{city}", "city"): "has no resource template 'weather://{city}' "
        "(its templates: weather://{country}/{city})",
        (None, "weather://{country}/{city}", "day"): "template 'weather://{country}/{city}' has no "
        "variable named 'day' (its variables: country, city)",
    }

    async def check() -> dict[tuple[str | None, str | None, str], str]:
        conn = ServerConnection(Target("cli", "stdio", command=sys.executable, args=(str(SERVER),)))
        conn.start()
        said = {}
        try:
            assert (await conn.wait_settled(60)).value == "ready", conn.reason
            for prompt, resource, argument in cases:
                args = argparse.Namespace(prompt=prompt, resource=resource, argument=argument)
                with pytest.raises(CommandError) as info:
                    completion_ref(conn, args)
                said[prompt, resource, argument] = str(info.value)
            ok = argparse.Namespace(prompt="travel", resource=None, argument="city")
            assert completion_ref(conn, ok) == {"type": "ref/prompt", "name": "travel"}
        finally:
            await conn.stop()
        return said

    said = asyncio.run(check())
    for case, expected in cases.items():
        assert expected in said[case]


def test_server_without_completion(capsys: pytest.CaptureFixture[str]) -> None:
    fault = ["--stdio", shlex.join([sys.executable, str(STDIO_FAULT), "healthy"])]
    code, out, err = run(["complete", *fault, "--prompt", "travel", "city"], capsys)
    assert (code, out) == (1, "")
    assert "does not offer completion" in err


@pytest.mark.parametrize(
    "args",
    [
        ["complete", *STDIO, "city"],  # neither --prompt nor --resource
        ["complete", *STDIO, "--prompt", "travel", "city", "--context", "France"],
        ["complete", "--prompt", "travel", "city"],  # no target
    ],
)
def test_usage_errors_exit_2(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(args, capsys)
    assert (code, out) == (2, "")
