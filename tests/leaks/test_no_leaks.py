"""Nothing leaks (issue 9, section 5).

Servers are configured whose env, arguments, headers, Authorization header and URL query hold
marker secrets (tests/leaks/markers.py: a new random value per run, searched in every spelling).
The servers (tests/servers/leaky_server.py, env_key_server.py) repeat everything they were
given: on stderr, in results, in error results, in JSON-RPC errors, in log notifications, in an
HTTP 400 body, and one dies at start after printing its environment. The test then drives the
window (connect, every tool, the log/traffic/history panes, the Edit dialog), the CLI in-process
(add, list, export, secrets, tools, call, doctor) and as child processes (`-v` debug logging, the
GUI's `--smoke-test`, two crashes), and searches every output, exception text, the Python log
captured at DEBUG, and every file under the config, data and temp folders: zero hits.

The keyring (a file here, so child processes share it) is the one place the markers belong and is
left out of the search; the summary says so.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import keyring
import pytest

from app.cli.main import main as cli_main
from tests.leaks.file_keyring import FILE_VAR, FileKeyring
from tests.leaks.markers import Marker, Search
from tests.servers.process import ServerProcess
from tests.support.trust import approve_servers

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

REPO = Path(__file__).resolve().parents[2]
PY = sys.executable
LEAKY = ["-m", "tests.servers.leaky_server"]
TOOLS = ("tell", "fail_result", "fail_rpc", "log", "shout", "progress")
CHILD_TIMEOUT = 60


@dataclass
class Scene:
    markers: dict[str, Marker]
    search: Search
    config_dir: Path
    data_dir: Path
    tmp_dir: Path
    keyring_file: Path
    env: dict[str, str]
    """The environment of the child processes the test starts (the CLI, the GUI)."""
    adds: list[list[str]]
    """The `mcp-desk servers add` commands that configure the servers (run by the test)."""
    oauth: Any
    """The OAuth-protected server (tests/servers/oauth_server.py, a child process): every token,
    code and client secret it issues starts with the `oauth` marker."""


@pytest.fixture
def scene(
    tmp_path: Path, config_dir: Path, monkeypatch: pytest.MonkeyPatch, oauth_server_process: Any
) -> Iterator[Scene]:
    kinds = {
        "env": False,  # a secret env value of a stdio server
        "arg": False,  # a secret argument (--api-key=...)
        "outer": False,  # ${env:LEAK_OUTER}, taken from MCP Desk's own environment
        "brave": False,  # env_key_server's BRAVE_API_KEY (the server checks it got it exactly)
        "die": False,  # the env of a server that prints it and exits
        "header": True,  # X-Api-Key of an HTTP server
        "bearer": True,  # Authorization: Bearer ...
        "query": False,  # ?token=... in the URL
        "reject": True,  # the header of a server that answers 400 repeating it
    }
    markers = {k: Marker.new(k, header_safe=h) for k, h in kinds.items()}
    # Every access and refresh token, code and registered client secret starts with this.
    markers["oauth"] = Marker.token_prefix("oauth")
    keyring_file = tmp_path / "keyring" / "keyring.json"
    keyring_file.parent.mkdir()
    previous = keyring.get_keyring()
    keyring.set_keyring(FileKeyring(keyring_file))
    tmp_dir = tmp_path / "tmp"
    tmp_dir.mkdir()
    data_dir = Path(os.environ["MCP_DESK_DATA_DIR"])
    with (
        ServerProcess([PY, *LEAKY, "--http"], cwd=REPO) as web,
        ServerProcess([PY, *LEAKY, "--http", "--reject"], cwd=REPO) as rejects,
    ):
        # Started before the markers enter this process's environment: only what MCP Desk sends
        # them is theirs to repeat.
        web_base = "http://{}:{}".format(*web.wait_listening(30))
        rejects_base = "http://{}:{}".format(*rejects.wait_listening(30))
        oauth = oauth_server_process("--token-prefix", markers["oauth"].value, "--access-lifetime", "1")
        monkeypatch.setenv("LEAK_OUTER", markers["outer"].value)
        monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "tests.leaks.file_keyring.FileKeyring")
        monkeypatch.setenv(FILE_VAR, str(keyring_file))
        monkeypatch.setenv("TMPDIR", str(tmp_dir))
        monkeypatch.setattr(tempfile, "tempdir", str(tmp_dir))
        env = dict(os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen")
        adds = [
            *add_commands(markers, web_base, rejects_base),
            ["servers", "add", "oauthy", "--url", oauth.url],
        ]
        s = Scene(
            markers,
            Search(list(markers.values())),
            config_dir,
            data_dir,
            tmp_dir,
            keyring_file,
            env,
            adds,
            oauth,
        )
        try:
            yield s
        finally:
            keyring.set_keyring(previous)


def cli(s: Scene, capsys: pytest.CaptureFixture[str], *argv: str) -> int:
    """Run one CLI command in this process; search its stdout and stderr."""
    code = cli_main(list(argv))
    out, err = capsys.readouterr()
    label = "mcp-desk " + " ".join(a if len(a) < 40 else a[:37] + "..." for a in argv)
    s.search.text("CLI stdout (in-process)", label, out)
    s.search.text("CLI stderr (in-process)", label, err)
    return code


def child(s: Scene, group: str, *argv: str) -> subprocess.CompletedProcess[str]:
    """Run a child process (MCP Desk itself); search its stdout and stderr."""
    done = subprocess.run(
        [PY, *argv], cwd=REPO, env=s.env, capture_output=True, text=True, timeout=CHILD_TIMEOUT
    )
    label = " ".join(argv)
    s.search.text(f"{group} stdout", label, done.stdout)
    s.search.text(f"{group} stderr", label, done.stderr)
    return done


def add_commands(markers: dict[str, Marker], web_base: str, rejects_base: str) -> list[list[str]]:
    """The servers, configured through `mcp-desk servers add` as a person would."""
    m = {k: v.value for k, v in markers.items()}
    return [
        ["servers", "add", "leaky", "--command", PY, "--arg=-m", "--arg=tests.servers.leaky_server",
         f"--secret-arg=--api-key={m['arg']}", "--arg=--outer=${env:LEAK_OUTER}",
         "--secret-env", f"LEAKY_TOKEN={m['env']}", "--cwd", str(REPO)],
        ["servers", "add", "dies", "--command", PY, "--arg=-m", "--arg=tests.servers.leaky_server",
         "--arg=--die", "--secret-env", f"DIE_TOKEN={m['die']}", "--cwd", str(REPO)],
        ["servers", "add", "brave", "--command", PY, "--arg=-m", "--arg=tests.servers.env_key_server",
         "--secret-env", f"BRAVE_API_KEY={m['brave']}",
         "--env", "WANT_SHA256=" + hashlib.sha256(m["brave"].encode()).hexdigest(), "--cwd", str(REPO)],
        ["servers", "add", "web", "--url", f"{web_base}/mcp?token={quote(m['query'], safe='')}&v=1",
         "--secret-header", f"Authorization=Bearer {m['bearer']}",
         "--secret-header", f"X-Api-Key={m['header']}"],
        ["servers", "add", "rejects", "--url", f"{rejects_base}/mcp",
         "--secret-header", f"X-Api-Key={m['reject']}"],
    ]  # fmt: skip


# ------------------------------------------------------------------------------------ the window


def drive_window(s: Scene, qtbot: Any) -> None:
    from app.mcp.connection import CallFailed
    from tests.leaks.screen import all_text, model_texts, widget_texts
    from tests.ui.conftest import open_desk, run, run_tool_and_wait, select_tool, wait_state
    from tests.ui.test_manage import open_dialog

    search = s.search
    with open_desk(qtbot, connect_enabled=True) as window:
        for name in ("leaky", "brave", "web"):
            wait_state(qtbot, window, name, "ready")
        for name in ("dies", "rejects"):
            wait_state(qtbot, window, name, "failed")
        dock = window.bottom
        published: list[Any] = []  # every event the engine publishes from here on
        for name in ("leaky", "web"):
            window.controller.connection(name).add_sink(published.append)
        for server in ("leaky", "web"):
            for tool in TOOLS:
                select_tool(qtbot, window, tool, server)
                run_tool_and_wait(qtbot, window)
                search.text("window: result view", f"{server}/{tool}", all_text(window.tool_panel))
        # The stderr lines and the log notification have arrived.
        qtbot.waitUntil(lambda: any("shouting" in t for t in model_texts(dock.log_model)), timeout=10000)
        assert any(type(e).__name__ == "Progress" for e in published), "no progress was reported"
        search.text("engine events", f"{len(published)} events", "\n".join(repr(e) for e in published))
        # The exceptions the engine raises to its callers.
        for server in ("leaky", "web"):
            conn = window.controller.connection(server)
            try:
                run(qtbot, conn.call_tool("fail_rpc", {}))
            except CallFailed as exc:
                search.text("exceptions", f"{server}: CallFailed", f"{exc}\n{exc!r}\n{exc.data!r}")
            else:
                pytest.fail("fail_rpc did not fail")
        for name in ("leaky", "dies", "brave", "web", "rejects"):
            conn = window.controller.connection(name)
            search.text("engine state", f"{name}: reason, target, log", "\n".join(
                [str(conn.reason), repr(conn.target), conn.target.describe(), *(x.text for x in conn.log)]
            ))  # fmt: skip

        # The panes: the log, the traffic (each message as the pane shows it and as Copy copies
        # it) and the history (each entry's result, shown by selecting it).
        search.text(
            "window: log pane", f"{dock.log_model.rowCount()} rows", "\n".join(model_texts(dock.log_model))
        )
        dock.setCurrentIndex(1)
        traffic = dock.traffic_model
        rows = [traffic.index(i, 0).data(traffic.RowRole) for i in range(traffic.rowCount())]
        assert rows, "the traffic pane recorded nothing"
        search.text("window: traffic pane", f"{len(rows)} rows", "\n".join(model_texts(traffic)))
        search.text("window: traffic messages (Copy message)", f"{len(rows)} messages",
                    "\n".join(r.as_json() for r in rows))  # fmt: skip
        for i in (0, len(rows) // 2, len(rows) - 1):
            dock.traffic_view.setCurrentIndex(dock.traffic_filter.index(i, 0))
            search.text("window: traffic detail", f"row {i}", dock.traffic_detail.toPlainText())
        dock.setCurrentIndex(2)
        history = dock.history_filter
        assert history.rowCount() == 2 * len(TOOLS), history.rowCount()
        for i in range(history.rowCount()):
            dock.history_view.setCurrentIndex(history.index(i, 0))
            search.text("window: history (entry and its result)", f"entry {i}",
                        "\n".join(model_texts(history)) + all_text(window.tool_panel))  # fmt: skip
        for where, text in widget_texts(window):
            search.text("window: every widget", where, text)

        # The Edit dialog of the servers with the most secrets.
        for name in ("leaky", "web"):
            d = open_dialog(qtbot, window, name)
            search.text("window: Edit dialog", name, all_text(d))
            d.reject()
            qtbot.waitUntil(lambda: window.server_dialog is None)
        window.save_state()


# --------------------------------------------------------------------------------------- OAuth


def drive_oauth(s: Scene, qtbot: Any) -> None:
    """Sign in through the engine (the headless browser plays the person), use the server, let
    the access token expire (a silent refresh), then lose the refresh token (back to "sign in
    needed", with the reason), and sign in again: the tokens stay in the keyring."""
    from app.config.store import ConfigStore
    from app.mcp.auth import HeadlessBrowser, read_status
    from app.mcp.connection import CallFailed, ServerConnection
    from app.mcp.events import ConnectionState, LogLine, SignInWaiting, StateChanged, Traffic
    from app.mcp.target import target_from_config
    from app.secrets.profile import folder_secrets
    from tests.servers.harness import EventLog
    from tests.ui.conftest import run

    config = ConfigStore()
    config.load()
    secrets = folder_secrets(config)
    entry = config.get("oauthy")
    target = target_from_config(entry, config.settings("oauthy"), secrets)
    events = EventLog()
    conn = ServerConnection(target, sink=events, secrets=secrets, browser=HeadlessBrowser())
    texts: list[str] = []

    async def scenario() -> None:
        conn.start()
        assert await conn.wait_settled(30) == ConnectionState.NEEDS_SIGN_IN, conn.reason
        texts.append(str(conn.reason))
        assert await conn.sign_in(timeout=30) == ConnectionState.READY, conn.reason
        for name in ("whoami", "wait_expiry", "whoami"):  # the second whoami needs a refresh
            texts.append((await conn.call_tool(name, {})).text())
        assert s.oauth.stats()["refreshes"] >= 1, s.oauth.stats()
        texts.append(repr(await read_status(secrets, "oauthy")))
        # The refresh token is revoked and the access token expired: "sign in again".
        s.oauth.revoke_refresh_tokens()
        s.oauth.expire_access_tokens()
        try:
            await conn.call_tool("whoami", {})
        except CallFailed as exc:
            texts.append(f"{exc}\n{exc!r}")
        await conn.wait_settled(30)
        texts.append(f"{conn.state}: {conn.reason}")
        assert await conn.sign_in(timeout=30) == ConnectionState.READY, conn.reason
        texts.append((await conn.call_tool("whoami", {})).text())
        await conn.stop()

    try:
        run(qtbot, scenario(), timeout=60)
    finally:
        run(qtbot, conn.stop(), timeout=30)
    search = s.search
    search.text("OAuth (engine)", "answers, reasons, status, exceptions", "\n".join(texts))
    search.text("OAuth (engine)", f"{len(events.of(Traffic))} traffic messages",
                "\n".join(json.dumps(e.message) for e in events.of(Traffic)))  # fmt: skip
    search.text("OAuth (engine)", "log lines and states", "\n".join(
        [x.text for x in events.of(LogLine)] + [str(e.reason) for e in events.of(StateChanged)]
        + [e.url for e in events.of(SignInWaiting)] + [x.text for x in conn.log]
    ))  # fmt: skip
    assert events.of(SignInWaiting), "the sign-in never waited on the browser"


def cli_login(s: Scene) -> None:
    """`mcp-desk auth login --no-browser` in a child, the printed link opened by a headless browser
    (another child), as a person on a machine without a display would."""
    argv = [PY, "-m", "app", "auth", "login", "oauthy", "--no-browser", "--timeout", "30"]
    proc = subprocess.Popen(
        argv, cwd=REPO, env=s.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stderr is not None and proc.stdout is not None
    err: list[str] = []
    link = None
    for line in proc.stderr:
        err.append(line)
        if line.strip().startswith("http://"):
            link = line.strip()
            break
    assert link, "no sign-in link:\n" + "".join(err)
    child(s, "OAuth browser child", "-m", "tests.support.headless_browser", link)
    out, rest = proc.communicate(timeout=CHILD_TIMEOUT)
    s.search.text("OAuth CLI child stdout", "auth login oauthy", out)
    s.search.text("OAuth CLI child stderr", "auth login oauthy", "".join(err) + rest)
    assert proc.returncode == 0, "".join(err) + rest


# ----------------------------------------------------------------------------------------- CLI


def drive_cli(s: Scene, capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["servers", "list"], ["servers", "list", "--json"], ["secrets", "list"]):
        assert cli(s, capsys, *argv) == 0
    for fmt in ("claude", "vscode"):
        assert cli(s, capsys, "servers", "export", "--format", fmt) == 0
        assert (
            cli(s, capsys, "servers", "export", "--format", fmt, "-o", str(s.tmp_dir / f"export-{fmt}.json"))
            == 0
        )
    assert cli(s, capsys, "tools", "web") == 0
    assert cli(s, capsys, "call", "web", "tell") == 0
    assert cli(s, capsys, "call", "web", "fail_result") == 3
    assert cli(s, capsys, "call", "leaky", "fail_rpc") == 1
    assert cli(s, capsys, "call", "leaky", "shout", "--json") == 0
    assert cli(s, capsys, "tools", "dies") == 1
    assert cli(s, capsys, "tools", "rejects") == 1
    for name in ("leaky", "dies", "brave", "web", "rejects"):
        cli(s, capsys, "doctor", name)
    cli(s, capsys, "doctor", "web", "--json")


def drive_cli_signed_in(s: Scene, capsys: pytest.CaptureFixture[str]) -> None:
    """The CLI on a server it is signed in to (the tokens the engine stored)."""
    assert cli(s, capsys, "auth", "status", "oauthy") == 0
    assert cli(s, capsys, "auth", "status", "oauthy", "--json") == 0
    assert cli(s, capsys, "tools", "oauthy") == 0
    assert cli(s, capsys, "call", "oauthy", "whoami") == 0
    cli(s, capsys, "doctor", "oauthy")
    assert cli(s, capsys, "servers", "export") == 0
    assert cli(s, capsys, "auth", "logout", "oauthy") == 0


def drive_children(s: Scene) -> None:
    """MCP Desk as a person starts it: its own logging set-up (-v: DEBUG on stderr), the GUI's
    entry point, and the two ways it reports a crash."""
    done = child(s, "CLI child", "-m", "app", "-v", "call", "web", "tell")
    assert done.returncode == 0, done.stderr[-2000:]
    child(s, "CLI child", "-m", "app", "-v", "doctor", "dies")
    child(s, "CLI child", "-m", "app", "-v", "tools", "rejects")
    done = child(s, "GUI child", "-m", "app", "--smoke-test")
    assert "leaky: ready" in done.stdout and "dies: failed" in done.stdout, done.stdout + done.stderr[-2000:]
    before = set(crash_reports(s))
    done = child(s, "crash", "-m", "tests.leaks.crash_driver", "cli", "web")
    assert done.returncode == 1 and "internal error" in done.stderr, done.stderr[-2000:]
    done = child(s, "crash", "-m", "tests.leaks.crash_driver", "hook", "leaky")
    assert done.returncode == 1 and "Traceback" in done.stderr, done.stderr[-2000:]
    reports = set(crash_reports(s)) - before
    assert len(reports) == 2, f"expected two crash reports, got {sorted(reports)}"
    for path in reports:
        assert "a bug while starting" in path.read_text(encoding="utf-8")


def crash_reports(s: Scene) -> list[Path]:
    return sorted((s.data_dir / "logs" / "crash-reports").glob("crash-*.txt"))


# ---------------------------------------------------------------------------------------- test


@contextlib.contextmanager
def no_running_loop() -> Iterator[None]:
    loop = asyncio.get_running_loop()
    asyncio.events._set_running_loop(None)
    asyncio.set_event_loop(None)
    try:
        yield
    finally:
        asyncio.set_event_loop(loop)
        asyncio.events._set_running_loop(loop)


@contextlib.contextmanager
def debug_logging(s: Scene) -> Iterator[None]:
    """Every Python log record of this process at DEBUG, with its traceback, into the search."""
    from app.crashreport import install

    install()  # what both entry points do first (it masks log records)
    lines: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(self.format(record))

    handler = Collect(logging.DEBUG)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    # Chatty modules whose DEBUG lines say nothing of ours (and hold no request data).
    quiet = {n: logging.getLogger(n).level for n in ("asyncio", "qasync", "PySide6")}
    for n in quiet:
        logging.getLogger(n).setLevel(logging.INFO)
    try:
        yield
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)
        for n, level in quiet.items():
            logging.getLogger(n).setLevel(level)
        s.search.text("Python logging at DEBUG (this process)", f"{len(lines)} records", "\n".join(lines))


def test_no_marker_secret_leaks_anywhere(
    scene: Scene, qtbot: Any, aloop: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    s = scene
    started = time.monotonic()
    with debug_logging(s):
        with no_running_loop():  # the CLI runs its own (asyncio.run), as it does from a shell
            for argv in s.adds:
                assert cli(s, capsys, *argv) == 0
            # The person allowed the local servers to run (the trust prompt's own leak checks are
            # in tests/ui/test_trust_prompt.py and tests/cli/test_trust.py).
            approve_servers(s.config_dir)
            drive_cli(s, capsys)
        drive_window(s, qtbot)
        drive_oauth(s, qtbot)
        with no_running_loop():
            drive_cli_signed_in(s, capsys)
    cli_login(s)
    done = child(s, "OAuth CLI child", "-m", "app", "-v", "call", "oauthy", "whoami")
    assert done.returncode == 0, done.stderr[-2000:]
    drive_children(s)
    for group, root in (
        ("config folder", s.config_dir),
        ("data folder", s.data_dir),
        ("temp folder", s.tmp_dir),
    ):
        s.search.tree(group, root)
    # The search means something: every marker really was a secret MCP Desk held (the keyring
    # has each, the OAuth tokens included; `outer` comes from the environment).
    held = s.keyring_file.read_text(encoding="utf-8")
    missing = [k for k, m in s.markers.items() if k != "outer" and m.cores[0] not in held]
    assert not missing, f"markers that never reached the keyring: {missing}"
    s.search.searched["not searched"].append((f"{s.keyring_file} (the keyring: where the secrets belong)", 0))
    print(s.search.summary())
    print(f"leak test: {time.monotonic() - started:.1f} s")
    assert not s.search.hits, f"{len(s.search.hits)} leak(s):\n{s.search.report_hits()}"
