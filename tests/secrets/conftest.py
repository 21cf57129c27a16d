"""A real Secret Service for `keyring_integration` tests: GNOME Keyring in its own D-Bus session."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import keyring
import pytest

from tests.conftest import skip_or_fail

SCRIPT = Path(__file__).with_name("keyring_session.sh")
TOOLS = ("dbus-run-session", "gnome-keyring-daemon", "secret-tool")


@dataclass
class SecretService:
    """The running session: its bus address and an environment for child processes."""

    address: str
    home: Path
    env: dict[str, str]

    def lookup(self, user: str, service: str = "mcp-desk") -> str | None:
        """What `secret-tool` (libsecret, not Python keyring) finds: proof it is in the OS store."""
        done = subprocess.run(
            ["secret-tool", "lookup", "service", service, "username", user],
            capture_output=True,
            text=True,
            env=self.env,
            timeout=30,
        )
        return done.stdout if done.returncode == 0 else None

    def lock(self) -> None:
        """Lock the login keyring (as after a screen lock); unlocking would then need a prompt."""
        import secretstorage

        connection = secretstorage.dbus_init()
        try:
            collection = secretstorage.get_default_collection(connection)
            collection.lock()
            assert collection.is_locked()
        finally:
            connection.close()


def _login_collection_state(address: str, timeout: float) -> str:
    """Wait until the session's default collection is an unlocked one; return "ready" or what was
    seen last ("no default collection", "locked", or an error).

    The daemon answers before its unlocked login keyring is the default collection; a store in
    that moment makes keyring create a collection, which needs a prompt (no display: dismissed,
    "Failed to create the collection")."""
    import secretstorage
    from jeepney.io.blocking import open_dbus_connection
    from secretstorage.exceptions import ItemNotFoundException

    deadline = time.monotonic() + timeout
    connection = open_dbus_connection(address)  # this session's bus, named explicitly
    seen = "no answer"
    try:
        while True:
            try:
                if not secretstorage.Collection(connection).is_locked():
                    return "ready"
                seen = "locked"
            except ItemNotFoundException:
                seen = "no default collection"
            except Exception as error:  # a daemon still starting: named in the failure, if it lasts
                seen = f"{type(error).__name__}: {error}"
            if time.monotonic() > deadline:
                return seen
            time.sleep(0.05)  # polling a condition with a deadline, as qtbot.waitUntil does
    finally:
        connection.close()


class _Session:
    """One `dbus-run-session` running keyring_session.sh, stopped by closing its stdin."""

    def __init__(self, home: Path) -> None:
        self.proc = subprocess.Popen(
            ["dbus-run-session", "--", "sh", str(SCRIPT), str(home), "test-password"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            start_new_session=True,
        )

    def address(self) -> str | None:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()  # blocks until READY (or EOF if the session failed)
        return line.split(" ", 1)[1].strip() if line.startswith("READY ") else None

    def stop(self) -> None:
        assert self.proc.stdout is not None and self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=20)
        self.proc.stdout.close()


ATTEMPTS = 3


@pytest.fixture
def secret_service(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[SecretService]:
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if missing:
        skip_or_fail(
            f"real keyring tests need {', '.join(missing)} (Debian: dbus gnome-keyring libsecret-tools)"
        )
    # A session whose login keyring never became the unlocked default (seen once in ~2,000 tests
    # on a loaded CI machine, the cause not reproducible) is not the code under test: stop it and
    # start a fresh one, in a fresh home; fail, naming what each attempt saw, only if all fail.
    seen: list[str] = []
    for attempt in range(ATTEMPTS):
        home = tmp_path / f"keyring-home-{attempt}"
        session = _Session(home)
        address = session.address()
        state = _login_collection_state(address, timeout=10.0) if address else "the session did not start"
        if state == "ready":
            break
        seen.append(state)
        session.stop()
    else:
        pytest.fail(f"no usable test keyring in {ATTEMPTS} sessions: {seen}")
    assert address is not None
    try:
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", address)
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHON_KEYRING_BACKEND", "XDG_RUNTIME_DIR")}
        env["HOME"] = str(home)  # also keeps keyring's own config (keyringrc.cfg) out of the user's
        from keyring.backends import SecretService as backend_module

        keyring.set_keyring(backend_module.Keyring())
        yield SecretService(address, home, env)
    finally:
        session.stop()
