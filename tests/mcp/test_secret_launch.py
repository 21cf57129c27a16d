"""`${secret:..}` and `${env:..}` in arguments and URLs reach a real server at launch, and their
values never show in the log, the traffic, a failure reason or `mcp-desk doctor`."""

from __future__ import annotations

import json
import socket
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from app.cli.main import main
from app.config.model import ServerEntry, ServerSettings
from app.config.store import ConfigStore
from app.mcp.connection import ServerConnection
from app.mcp.events import ConnectionState, LogLine, StateChanged, Traffic
from app.mcp.masking import MASK
from app.mcp.target import target_from_config
from app.secrets.store import SecretStore
from tests.mcp.conftest import connected
from tests.servers.harness import EventLog
from tests.servers.process import ServerProcess

pytestmark = pytest.mark.anyio

REPO = Path(__file__).resolve().parents[2]
ECHO = ["-m", "tests.servers.echo_secrets"]
API_KEY = "sk-live0123456789abcdefXYZ"
TOKEN = "qtok-5551234-zyxw"
ENV_VALUE = "from-the-environment-77"


def published(events: EventLog, conn: ServerConnection) -> str:
    """Everything the engine published as text: traffic, log lines, states and reasons."""
    parts = [json.dumps(e.message) for e in events.of(Traffic)]
    parts += [e.text for e in events.of(LogLine)] + [line.text for line in conn.log]
    parts += [str(e.reason) for e in events.of(StateChanged)] + [str(conn.reason), repr(conn.target)]
    return "\n".join(parts)


def stdio_entry(*args: str, **kw: object) -> ServerEntry:
    return ServerEntry(name="echo", command=sys.executable, args=[*ECHO, *args], cwd=str(REPO), **kw)  # type: ignore[arg-type]


async def test_stdio_server_gets_resolved_argument_secrets_and_nothing_shows_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MCP_DESK_T_VALUE", ENV_VALUE)
    store = SecretStore()
    store.set("echo", "ARG_API_KEY", API_KEY)
    entry = stdio_entry("--api-key=${secret:ARG_API_KEY}", "--region", "${env:MCP_DESK_T_VALUE}")
    target = target_from_config(entry, ServerSettings(), store)
    assert API_KEY not in target.describe() and API_KEY not in repr(target)

    events = EventLog()
    async with connected(target, events) as conn:
        result = await conn.call_tool("argv", {})
        # The server really got the values (its answer repeats them, and the engine masks exactly
        # the values it resolved)...
        assert json.loads(result.text()) == [f"--api-key={MASK}", "--region", MASK]
        # ...and said so on stderr, which lands in the log masked.
        line = await events.wait_for(lambda e: isinstance(e, LogLine) and "started with" in e.text, 10)
        assert MASK in line.text
        text = published(events, conn)
    assert events.of(Traffic), "the traffic log was not on"
    assert API_KEY not in text and ENV_VALUE not in text


@contextmanager
def query_server() -> Iterator[str]:
    """The echo server over HTTP, answering 401 unless the query carries token=TOKEN."""
    argv = [sys.executable, *ECHO, "--http", "--require-query", TOKEN]
    with ServerProcess(argv, cwd=REPO) as proc:
        host, port = proc.wait_listening(30)
        yield f"http://{host}:{port}"


async def test_http_server_gets_the_resolved_url_token_and_nothing_shows_it() -> None:
    store = SecretStore()
    store.set("web", "URL_TOKEN", TOKEN)
    with query_server() as base:
        entry = ServerEntry(name="web", transport="http", url=base + "/mcp?token=${secret:URL_TOKEN}&v=1")
        target = target_from_config(entry, ServerSettings(), store)
        events = EventLog()
        async with connected(target, events) as conn:
            result = await conn.call_tool("queries", {})
            queries = json.loads(result.text())
            assert queries and all(q == f"token={MASK}&v=1" for q in queries)
            text = published(events, conn)
    assert events.of(Traffic)
    assert TOKEN not in text


async def test_a_failure_reason_that_names_the_url_masks_its_token() -> None:
    store = SecretStore()
    store.set("web", "URL_TOKEN", TOKEN)
    # A port nothing listens on: "could not connect to URL" names the URL it tried.
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    entry = ServerEntry(
        name="web", transport="http", url=f"http://127.0.0.1:{port}/mcp?token=${{secret:URL_TOKEN}}"
    )
    target = target_from_config(entry, ServerSettings(timeout=10), store)
    events = EventLog()
    conn = ServerConnection(target, sink=events)
    conn.start()
    try:
        assert await conn.wait_settled(30) == ConnectionState.FAILED
        reason = str(conn.reason)
    finally:
        await conn.stop()
    assert f"127.0.0.1:{port}/mcp?token={MASK}" in reason, reason
    assert TOKEN not in published(events, conn)


def test_doctor_connects_with_the_url_token_and_prints_it_masked(
    capsys: pytest.CaptureFixture[str], config_dir: Path
) -> None:
    with query_server() as base:
        store = ConfigStore()
        store.load()
        store.add(ServerEntry(name="web", transport="http", url=base + "/mcp?token=${secret:URL_TOKEN}"))
        store.save()
        SecretStore().set("web", "URL_TOKEN", TOKEN)
        code = main(["doctor", "web"])
        out, err = capsys.readouterr()
        assert code == 0, out + err
        assert "token=" + MASK in out
        assert TOKEN not in out + err
        code = main(["doctor", "web", "--json"])
        out, err = capsys.readouterr()
        assert code == 0 and TOKEN not in out + err


def test_doctor_of_an_adhoc_command_line_masks_a_typed_key(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    code = main(["doctor", "--stdio", f"{sys.executable} -m tests.servers.echo_secrets --api-key {API_KEY}"])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    assert "--api-key " + MASK in out
    assert API_KEY not in out + err
