"""`mcp-desk auth login|logout|status` as a person runs it: the real CLI in child processes against
the local OAuth server (tests/servers/oauth_server.py), a temp config folder, and a file-backed test
keyring shared by the children (tests/support/file_keyring.py; the in-memory one dies with each
process). The browser step is done the way a person on a headless machine does it: `--no-browser`
prints the link and the test opens it (an HTTP client that follows the redirects back to the
loopback listener); one test goes through `webbrowser` with `$BROWSER` set to the headless browser.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest

from app.cli.auth import can_open_browser, describe
from app.cli.main import EXIT_SIGN_IN, main
from app.mcp.auth import AuthStatus
from tests.servers.oauth_fixtures import *  # noqa: F403
from tests.servers.oauth_server import OAuthServer
from tests.support.file_keyring import ENV as KEYRING_ENV
from tests.support.file_keyring import read_entries
from tests.support.procs import default_sigint

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"^\s+(http://\S+)$")
PREFIX = "CLIMARK-"


class Cli:
    """Runs `python -m app` children on one config folder and one test keyring file."""

    def __init__(self, tmp_path: Path) -> None:
        self.config = tmp_path / "cli-config"
        self.keyring = tmp_path / "keyring" / "entries.json"
        self.keyring.parent.mkdir()
        self.env = {
            k: v for k, v in os.environ.items() if k not in ("MCP_DESK_CONFIG_DIR", "DISPLAY", "BROWSER")
        }
        self.env.pop("WAYLAND_DISPLAY", None)
        self.env.update(
            PYTHON_KEYRING_BACKEND="tests.support.file_keyring.FileKeyring",
            PYTHONPATH=str(ROOT),
            PYTHONUNBUFFERED="1",
            **{KEYRING_ENV: str(self.keyring)},
        )
        self.outputs: list[str] = []

    def argv(self, *args: str) -> list[str]:
        return [sys.executable, "-m", "app", "--config-dir", str(self.config), *args]

    def run(self, *args: str, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            self.argv(*args), capture_output=True, text=True, env=self.env, cwd=ROOT, timeout=timeout
        )
        self.outputs += [done.stdout, done.stderr]
        return done

    def start(self, *args: str, env: dict[str, str] | None = None) -> LoginProcess:
        proc = subprocess.Popen(
            self.argv(*args),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**self.env, **(env or {})},
            cwd=ROOT,
            preexec_fn=default_sigint,  # it is sent Ctrl+C
        )
        return LoginProcess(proc, self)

    def token_entries(self) -> dict[str, str]:
        return {user: value for (_, user), value in read_entries(self.keyring).items() if "/oauth." in user}


class LoginProcess:
    """A running `auth login`: its stderr is read by a thread, so the test can wait for the link."""

    def __init__(self, proc: subprocess.Popen[str], cli: Cli) -> None:
        self.proc = proc
        self.cli = cli
        self.err_lines: list[str] = []
        self._link: str | None = None
        self._got_link = threading.Event()
        assert proc.stderr is not None
        self._reader = threading.Thread(target=self._read, args=(proc.stderr,), daemon=True)
        self._reader.start()

    def _read(self, stream: Any) -> None:
        for line in stream:
            self.err_lines.append(line)
            if self._link is None and (match := LINK.match(line.rstrip("\n"))):
                self._link = match[1]
                self._got_link.set()
        self._got_link.set()

    def link(self, timeout: float = 60.0) -> str:
        assert self._got_link.wait(timeout), "no sign-in link printed"
        assert self._link is not None, "the command ended without a link:\n" + "".join(self.err_lines)
        return self._link

    def finish(self, timeout: float = 60.0) -> tuple[int, str, str]:
        assert self.proc.stdout is not None
        out = self.proc.stdout.read()
        code = self.proc.wait(timeout)
        self._reader.join(10.0)
        err = "".join(self.err_lines)
        self.cli.outputs += [out, err]
        return code, out, err

    def kill(self) -> None:
        """Whatever happened: no child left running, no pipe left open."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10.0)
        self._reader.join(10.0)
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


@pytest.fixture
def cli(tmp_path: Path) -> Iterator[Cli]:
    yield Cli(tmp_path)


@pytest.fixture
def remote(cli: Cli, oauth_server_factory: Any) -> OAuthServer:
    """The OAuth server, configured in the CLI's folder as `remote`."""
    server: OAuthServer = oauth_server_factory(token_prefix=PREFIX)
    done = cli.run("servers", "add", "remote", "--url", server.url)
    assert done.returncode == 0, done.stderr
    return server


def open_link(link: str) -> httpx2.Response:
    """What the person's browser does with the link: follow it to MCP Desk's loopback page."""
    return httpx2.get(link, follow_redirects=True, timeout=30.0)


def login(cli: Cli) -> tuple[int, str, str]:
    running = cli.start("auth", "login", "remote", "--no-browser")
    try:
        page = open_link(running.link())
        assert page.status_code == 200, page.text
        return running.finish()
    finally:
        running.kill()


def no_markers_in(cli: Cli) -> None:
    """Token markers reach the keyring (test file) only: not the outputs, not the config folder."""
    for text in cli.outputs:
        assert PREFIX not in text, text
    for path in cli.config.rglob("*"):
        if path.is_file():
            assert PREFIX.encode() not in path.read_bytes(), path


# ---------------------------------------------------------------------------------------- tests


def test_login_status_use_and_logout(cli: Cli, remote: OAuthServer) -> None:
    done = cli.run("tools", "remote")
    assert done.returncode == EXIT_SIGN_IN
    assert done.stderr == "mcp-desk: error: remote needs you to sign in: run `mcp-desk auth login remote`\n"
    done = cli.run("auth", "status", "remote")
    assert (done.returncode, done.stdout.splitlines()[0]) == (EXIT_SIGN_IN, "remote: not signed in")

    code, out, err = login(cli)
    assert code == 0, err
    assert re.fullmatch(r"remote: signed in as alice@example\.test \(until [\d-]+ [\d:]+[^)]*\)\n", out), out
    assert "Waiting for you to sign in" in err and "Traceback" not in err
    assert cli.token_entries(), "the tokens should be in the keyring"

    done = cli.run("auth", "status", "remote")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("remote: signed in as alice@example.test")
    assert f"  issuer: {remote.issuer}\n" in done.stdout and "  scopes: mcp\n" in done.stdout

    listing = cli.run("auth", "status").stdout.splitlines()
    assert listing[0].startswith("remote: signed in as alice@example.test (until ")
    assert listing[1:] == [f"  issuer: {remote.issuer}", "  scopes: mcp", "  client: registered"]

    done = cli.run("auth", "status", "--json")
    [entry] = [e for e in json.loads(done.stdout) if e["server"] == "remote"]
    assert (entry["signedIn"], entry["account"], entry["issuer"]) == (
        True,
        "alice@example.test",
        remote.issuer,
    )
    assert entry["scopes"] == ["mcp"] and entry["canRefresh"] is True and entry["expiresAt"] > 0

    # Other commands use the stored sign-in without a browser.
    done = cli.run("call", "remote", "whoami")
    assert (done.returncode, done.stdout) == (0, "alice@example.test\n"), done.stderr
    assert remote.stats()["authorizations"] == 1

    done = cli.run("auth", "logout", "remote")
    assert (done.returncode, done.stdout) == (0, "signed out of remote\n"), done.stderr
    assert cli.token_entries() == {}
    assert cli.run("auth", "status", "remote").returncode == EXIT_SIGN_IN
    assert cli.run("tools", "remote").returncode == EXIT_SIGN_IN
    done = cli.run("auth", "logout", "remote")
    assert done.stdout == "remote: was not signed in\n"
    no_markers_in(cli)


def test_ctrl_c_cancels_the_sign_in_cleanly(cli: Cli, remote: OAuthServer) -> None:
    running = cli.start("auth", "login", "remote", "--no-browser")
    try:
        link = running.link()
        running.proc.send_signal(signal.SIGINT)
        code, out, err = running.finish()
    finally:
        running.kill()
    assert code == 130
    assert err.endswith("mcp-desk: sign-in to remote cancelled\n") and "Traceback" not in err, err
    assert out == ""
    # The loopback listener is gone with it: the link leads nowhere now.
    redirect = httpx2.URL(dict(httpx2.URL(link).params)["redirect_uri"])
    with pytest.raises(httpx2.ConnectError):
        httpx2.get(f"http://127.0.0.1:{redirect.port}/", timeout=5.0)
    # No tokens (the registration made before the browser step is kept for the next try).
    assert not any(user.endswith("/oauth.tokens") for user in cli.token_entries())
    assert cli.run("auth", "status", "remote").returncode == EXIT_SIGN_IN


def test_declined_consent_fails_with_the_reason(cli: Cli, remote: OAuthServer) -> None:
    remote.set(deny=True)
    running = cli.start("auth", "login", "remote", "--no-browser")
    try:
        open_link(running.link())
        code, out, err = running.finish()
    finally:
        running.kill()
    assert code == 1 and out == ""
    assert err.count("\n") >= 1 and err.splitlines()[-1].startswith("mcp-desk: error: remote: "), err
    assert "Traceback" not in err
    assert not any(user.endswith("/oauth.tokens") for user in cli.token_entries())
    assert remote.stats()["denied"] == 1


def test_login_opens_the_system_browser_when_there_is_a_display(cli: Cli, remote: OAuthServer) -> None:
    # `webbrowser` honours $BROWSER: here the headless browser, which follows the link itself.
    fake = f"{sys.executable} -m tests.support.headless_browser %s"
    running = cli.start("auth", "login", "remote", env={"DISPLAY": ":99", "BROWSER": fake})
    try:
        code, out, err = running.finish()
    finally:
        running.kill()
    assert code == 0, err
    assert out.startswith("remote: signed in as alice@example.test")
    assert "open the link yourself" not in err
    no_markers_in(cli)


def test_login_refuses_a_local_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["auth", "login", "demo"]) == 1
    assert capsys.readouterr().err == "mcp-desk: error: demo runs on this computer: it has no sign-in\n"


def test_status_lists_only_servers_on_the_internet(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["servers", "add", "web", "--url", "http://127.0.0.1:9/mcp"]) == 0
    capsys.readouterr()
    assert main(["auth", "status"]) == 0
    assert capsys.readouterr().out == "web: not signed in\n"


@pytest.mark.parametrize(
    ("platform", "env", "expected"),
    [
        ("linux", {}, False),
        ("linux", {"DISPLAY": ":0"}, True),
        ("linux", {"WAYLAND_DISPLAY": "wayland-0"}, True),
        ("freebsd14", {}, False),
        ("darwin", {}, True),
        ("win32", {}, True),
    ],
)
def test_a_browser_is_opened_only_where_one_can_show(
    platform: str, env: dict[str, str], expected: bool
) -> None:
    assert can_open_browser(platform, env) is expected


def test_describe_says_who_and_until_when() -> None:
    signed = AuthStatus(
        signed_in=True,
        issuer="https://auth.example",
        account="bob\x1b[31m",
        expires_at=0.0,
        scopes=("mcp",),
        can_refresh=False,
        client="registered",
    )
    line = describe("gh", signed)
    assert line.startswith("gh: signed in as bob⟨U+001B⟩[31m (until ") and "\x1b" not in line
    assert describe("gh", AuthStatus(False, None, None, None, (), False, None)) == "gh: not signed in"


def test_login_gives_up_after_its_timeout(cli: Cli, remote: OAuthServer) -> None:
    running = cli.start("auth", "login", "remote", "--no-browser", "--timeout", "1")
    try:
        running.link()  # shown, never opened
        code, out, err = running.finish()
    finally:
        running.kill()
    assert (code, out) == (1, "")
    assert err.endswith("mcp-desk: error: remote: sign-in timed out\n"), err


def test_an_ad_hoc_url_that_needs_a_sign_in_says_how_to_add_it(cli: Cli, remote: OAuthServer) -> None:
    done = cli.run("tools", "--url", remote.url)
    assert done.returncode == EXIT_SIGN_IN
    assert done.stderr == (
        f"mcp-desk: error: {remote.url} needs you to sign in: add it with `mcp-desk servers add NAME "
        "--url URL`, then run `mcp-desk auth login NAME`\n"
    )
