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


def _wait_for_the_login_collection(timeout: float = 15.0) -> None:
    """The daemon answers before its unlocked login keyring is the default collection; a store
    in that moment makes keyring create a collection, which needs a prompt (no display: dismissed,
    "Failed to create the collection"). Wait until the default alias names an unlocked one."""
    import secretstorage
    from secretstorage.exceptions import ItemNotFoundException

    deadline = time.monotonic() + timeout
    connection = secretstorage.dbus_init()  # the bus of DBUS_SESSION_BUS_ADDRESS: this session's
    try:
        while True:
            try:
                if not secretstorage.Collection(connection).is_locked():
                    return
            except ItemNotFoundException:
                pass
            if time.monotonic() > deadline:
                pytest.fail("the test keyring's login collection did not become the default")
            time.sleep(0.05)  # polling a condition with a deadline, as qtbot.waitUntil does
    finally:
        connection.close()


@pytest.fixture
def secret_service(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[SecretService]:
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if missing:
        skip_or_fail(
            f"real keyring tests need {', '.join(missing)} (Debian: dbus gnome-keyring libsecret-tools)"
        )
    home = tmp_path / "keyring-home"
    proc = subprocess.Popen(
        ["dbus-run-session", "--", "sh", str(SCRIPT), str(home), "test-password"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    assert proc.stdout is not None and proc.stdin is not None
    try:
        line = proc.stdout.readline()  # blocks until READY (or EOF if the session failed)
        if not line.startswith("READY "):
            pytest.fail(f"gnome-keyring session did not start: {line!r}")
        address = line.split(" ", 1)[1].strip()
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", address)
        _wait_for_the_login_collection()
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHON_KEYRING_BACKEND", "XDG_RUNTIME_DIR")}
        env["HOME"] = str(home)  # also keeps keyring's own config (keyringrc.cfg) out of the user's
        from keyring.backends import SecretService as backend_module

        keyring.set_keyring(backend_module.Keyring())
        yield SecretService(address, home, env)
    finally:
        proc.stdin.close()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=20)
        proc.stdout.close()
