"""Against a real Secret Service (GNOME Keyring in a private D-Bus session): values are in the OS
store (read back with libsecret's `secret-tool`) and never in the config dir.

Run with -s to see the figures printed for the round trip of each import format.
"""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

from app.secrets.errors import KeyringLockedError
from app.secrets.store import CHUNK_MARKER, SecretStore
from tests.secrets.conftest import SecretService
from tests.support.keyring_scope import folder_user

pytestmark = pytest.mark.keyring_integration

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "import"
EXPECTED: dict[str, Any] = json.loads((FIXTURES / "expected.json").read_text())
# The console script of the venv running the tests (./.venv for run-tests.sh).
BINARY = Path(sys.executable).parent / "mcp-desk"


def grep_r(directory: Path, needle: str) -> list[str]:
    done = subprocess.run(
        ["grep", "-rlF", needle, str(directory)], capture_output=True, text=True, timeout=30
    )
    assert done.returncode in (0, 1), done.stderr
    return done.stdout.split()


def test_store_read_back_by_secret_tool(secret_service: SecretService) -> None:
    store = SecretStore()
    assert store.is_available()
    store.set("github", "GITHUB_TOKEN", "ghp_realKeyring123")
    assert secret_service.lookup("github/GITHUB_TOKEN") == "ghp_realKeyring123"
    assert store.get("github", "GITHUB_TOKEN") == "ghp_realKeyring123"
    store.delete("github", "GITHUB_TOKEN")
    assert secret_service.lookup("github/GITHUB_TOKEN") is None


def test_long_value_chunked_in_real_keyring(secret_service: SecretService) -> None:
    value = "".join(chr(0x61 + i % 26) for i in range(4500))  # an OAuth-token-sized value
    store = SecretStore()
    store.set("oauth", "ACCESS_TOKEN", value)
    assert secret_service.lookup("oauth/ACCESS_TOKEN") == f"{CHUNK_MARKER}5"
    pieces = [secret_service.lookup(f"oauth/ACCESS_TOKEN#{i}") for i in range(1, 6)]
    assert "".join(p or "" for p in pieces) == value
    assert store.get("oauth", "ACCESS_TOKEN") == value
    store.rename_server("oauth", "oauth2")
    assert secret_service.lookup("oauth/ACCESS_TOKEN") is None
    assert store.get("oauth2", "ACCESS_TOKEN") == value
    store.delete_server("oauth2")
    assert all(secret_service.lookup(f"oauth2/ACCESS_TOKEN#{i}") is None for i in range(1, 6))
    assert secret_service.lookup("oauth2/ACCESS_TOKEN") is None


def test_locked_keyring_is_reported(secret_service: SecretService) -> None:
    store = SecretStore()
    store.set("s", "TOKEN", "before-lock")
    secret_service.lock()
    # Unlocking needs a prompt; with no display the prompt fails, as when a user dismisses it.
    with pytest.raises(KeyringLockedError) as info:
        store.set("s", "TOKEN", "after-lock")
    assert "locked" in str(info.value)
    assert "after-lock" not in str(info.value)
    # keyring's SecretService.get_preferred_collection() leaves its D-Bus connection open when the
    # unlock prompt fails (keyring 25); collect it here so its ResourceWarning does not surface in
    # a later test. Ignored only for this known leak.
    del info
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        gc.collect()


@pytest.mark.parametrize("fixture", sorted(EXPECTED["formats"]))
def test_import_round_trip_through_cli_and_real_keyring(
    secret_service: SecretService, tmp_path: Path, fixture: str
) -> None:
    spec = EXPECTED["formats"][fixture]
    config = tmp_path / "cli-config"
    env = dict(secret_service.env)
    env.update(EXPECTED["environ"])
    answers = EXPECTED["answers"]
    stdin = "\n".join([answers["github_token"], answers["perplexity-key"], answers["project-dir"]]) + "\n"
    done = subprocess.run(
        [str(BINARY), "--config-dir", str(config), "servers", "import", str(FIXTURES / fixture)],
        input=stdin if spec["format"] == "vscode" else "",
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    found = 0
    grep_hits: list[str] = []
    total = 0
    for server, values in spec["secrets"].items():
        for name, value in values.items():
            total += 1
            if secret_service.lookup(folder_user(config, f"{server}/{name}")) == value:
                found += 1
            grep_hits += grep_r(config, value)
    listed = subprocess.run(
        [str(BINARY), "--config-dir", str(config), "secrets", "list"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert listed.returncode == 0, listed.stderr
    print(
        f"\n{fixture} ({spec['format']}): {len(spec['servers'])} servers imported, "
        f"{found}/{total} secrets found by secret-tool, grep -r of the config dir: {len(grep_hits)} hits; "
        f"config files: {sorted(p.name for p in config.iterdir())}"
    )
    assert found == total
    assert grep_hits == []
    assert sorted(listed.stdout.split()) == sorted(f"{s}/{n}" for s, v in spec["secrets"].items() for n in v)
    # And the config still names every server, with references where the values were.
    servers = json.loads((config / "servers.json").read_text())["mcpServers"]
    assert list(servers) == ["demo", *spec["servers"]]


def test_cli_rename_and_remove_move_real_secrets(secret_service: SecretService, tmp_path: Path) -> None:
    config = tmp_path / "cli-config"

    def mcp(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(BINARY), "--config-dir", str(config), *args],
            input=stdin,
            capture_output=True,
            text=True,
            env=secret_service.env,
            timeout=120,
        )

    long_value = "t" * 2600
    done = mcp(
        "servers",
        "add",
        "api",
        "--url",
        "https://example.com/mcp",
        "--secret-header",
        "Authorization",
        stdin="Bearer real-keyring-value\n",
    )
    assert done.returncode == 0, done.stderr
    assert mcp("secrets", "set", "api", "OAUTH_BLOB", stdin=long_value + "\n").returncode == 0
    assert secret_service.lookup(folder_user(config, "api/Authorization")) == "Bearer real-keyring-value"
    assert mcp("servers", "rename", "api", "api2").returncode == 0
    assert secret_service.lookup(folder_user(config, "api/Authorization")) is None
    assert secret_service.lookup(folder_user(config, "api2/Authorization")) == "Bearer real-keyring-value"
    assert secret_service.lookup(folder_user(config, "api2/OAUTH_BLOB")) == f"{CHUNK_MARKER}3"
    assert grep_r(config, "real-keyring-value") == []
    done = mcp("servers", "remove", "api2")
    assert done.returncode == 0 and "2 secret(s)" in done.stdout
    for user in ("api2/Authorization", "api2/OAUTH_BLOB", "api2/OAUTH_BLOB#1", "api2/OAUTH_BLOB#3"):
        assert secret_service.lookup(folder_user(config, user)) is None


def test_cli_in_folder_b_never_changes_folder_a(secret_service: SecretService, tmp_path: Path) -> None:
    a, b = tmp_path / "A", tmp_path / "B"

    def mcp(config: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(BINARY), "--config-dir", str(config), *args],
            input=stdin,
            capture_output=True,
            text=True,
            env=secret_service.env,
            timeout=120,
        )

    add = ("servers", "add", "brave", "--command", "npx", "--secret-env", "BRAVE_API_KEY")
    assert mcp(a, *add, stdin="key-of-A\n").returncode == 0

    def a_key() -> str | None:
        """A's key as A's own server would get it (layout-free: through the app, not a username)."""
        done = mcp(a, "servers", "export", "--include-secrets")
        assert done.returncode == 0, done.stderr
        value: str | None = json.loads(done.stdout)["mcpServers"]["brave"]["env"].get("BRAVE_API_KEY")
        return value

    assert a_key() == "key-of-A"

    # Everything B can do to a server of the same name: add, set, import, rename, remove.
    assert mcp(b, *add, stdin="key-of-B\n").returncode == 0
    assert mcp(b, "secrets", "set", "brave", "BRAVE_API_KEY", stdin="key-of-B-2\n").returncode == 0
    source = tmp_path / "claude_desktop_config.json"
    source.write_text(
        json.dumps({"mcpServers": {"brave": {"command": "npx", "env": {"BRAVE_API_KEY": "imp"}}}})
    )
    assert mcp(b, "servers", "import", str(source)).returncode == 0  # lands as brave-2 in B
    listed = mcp(b, "secrets", "list")
    assert listed.returncode == 0 and "no such server" not in listed.stdout
    assert sorted(listed.stdout.split()) == ["brave-2/BRAVE_API_KEY", "brave/BRAVE_API_KEY"]
    assert mcp(b, "servers", "rename", "brave", "brave3").returncode == 0
    assert mcp(b, "servers", "remove", "brave3").returncode == 0
    assert mcp(b, "servers", "remove", "brave-2").returncode == 0

    assert a_key() == "key-of-A"
    assert secret_service.lookup(folder_user(a, "brave/BRAVE_API_KEY")) == "key-of-A"
    listed = mcp(a, "secrets", "list")
    assert listed.stdout == "brave/BRAVE_API_KEY\n", listed.stdout
    assert secret_service.lookup(folder_user(b, "brave/BRAVE_API_KEY")) is None


def test_entries_of_older_versions_move_into_the_folder(
    secret_service: SecretService, tmp_path: Path
) -> None:
    config = tmp_path / "cli-config"
    config.mkdir()
    (config / "servers.json").write_text(
        json.dumps({"mcpServers": {"brave": {"command": "npx", "env": {"K": "${secret:BRAVE_API_KEY}"}}}})
    )
    old = SecretStore()  # the layout before scoping: SERVER/NAME
    old.set("brave", "BRAVE_API_KEY", "stored-by-an-older-version")
    old.set("other", "TOKEN", "another-folders")
    done = subprocess.run(
        [str(BINARY), "--config-dir", str(config), "secrets", "list"],
        capture_output=True,
        text=True,
        env=secret_service.env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "brave/BRAVE_API_KEY\n"
    assert secret_service.lookup(folder_user(config, "brave/BRAVE_API_KEY")) == "stored-by-an-older-version"
    assert secret_service.lookup("brave/BRAVE_API_KEY") is None
    assert secret_service.lookup("other/TOKEN") == "another-folders"  # not this folder's server
