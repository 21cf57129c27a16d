"""What counts as secret, and resolving `${secret:NAME}` at connect time."""

from __future__ import annotations

import pytest

from app.config.model import ServerEntry
from app.secrets.detect import is_secret_env, is_secret_header
from app.secrets.resolve import MissingSecretError, extract_secrets, resolve_entry
from app.secrets.store import SecretStore


@pytest.mark.parametrize(
    "name",
    [
        "GITHUB_TOKEN",
        "OPENAI_API_KEY",
        "apiKey",
        "DB_PASSWORD",
        "PGPASSWORD",
        "GITHUB_PAT",
        "AWS_SECRET_ACCESS_KEY",
        "GOOGLE_APPLICATION_CREDENTIALS",
        "clientSecret",
        "SLACK_BOT_TOKEN",
        "ACCESSTOKEN",
    ],
)
def test_secret_env_names(name: str) -> None:
    assert is_secret_env(name, "x")


@pytest.mark.parametrize("name", ["PATH", "HOME", "LOG_LEVEL", "MONKEY", "KEYBOARD_LAYOUT", "PWD", "PORT"])
def test_plain_env_names(name: str) -> None:
    assert not is_secret_env(name, "x")


def test_references_and_empty_values_are_not_secret_values() -> None:
    assert not is_secret_env("TOKEN", "")
    assert not is_secret_env("TOKEN", "${secret:TOKEN}")
    assert not is_secret_env("TOKEN", "${env:TOKEN}")
    assert not is_secret_header("Authorization", "Bearer ${secret:Authorization}")


@pytest.mark.parametrize(
    ("name", "secret"),
    [
        ("Authorization", True),
        ("authorization", True),
        ("X-API-Key", True),
        ("Accept", False),
        ("X-Trace", False),
    ],
)
def test_secret_headers(name: str, secret: bool) -> None:
    assert is_secret_header(name, "v") is secret


def test_extract_moves_marked_and_detected_values() -> None:
    entry = ServerEntry(
        name="s",
        command="x",
        env={"GITHUB_TOKEN": "ghp_1", "LOG": "debug", "CUSTOM": "plain"},
    )
    values = extract_secrets(entry, secret_env={"CUSTOM2": "marked"})
    assert values == {"GITHUB_TOKEN": "ghp_1", "CUSTOM2": "marked"}
    assert entry.env == {
        "GITHUB_TOKEN": "${secret:GITHUB_TOKEN}",
        "LOG": "debug",
        "CUSTOM": "plain",
        "CUSTOM2": "${secret:CUSTOM2}",
    }
    assert entry.secret_refs() == {"GITHUB_TOKEN", "CUSTOM2"}


def test_extract_without_detection_takes_only_marked() -> None:
    entry = ServerEntry(name="s", transport="http", url="http://x", headers={"Authorization": "Bearer t"})
    assert extract_secrets(entry, detect=False) == {}
    assert entry.headers == {"Authorization": "Bearer t"}
    values = extract_secrets(entry, secret_headers={"X-Key": "k"}, detect=True)
    assert values == {"Authorization": "Bearer t", "X-Key": "k"}


def test_extract_avoids_name_clashes() -> None:
    entry = ServerEntry(
        name="s", transport="http", url="http://x", headers={"API_KEY": "h"}, env={"API_KEY": "e"}
    )
    values = extract_secrets(entry)
    assert sorted(values.values()) == ["e", "h"]
    assert len(values) == 2


def test_resolve_entry_substitutes_and_reports_values() -> None:
    store = SecretStore()
    store.set("s", "TOKEN", "tok-123")
    store.set("s", "LONG", "L" * 2500)
    entry = ServerEntry(
        name="s",
        transport="http",
        url="http://x",
        env={"A": "${secret:TOKEN}", "B": "plain", "HOME_DIR": "${env:MCP_DESK_T_HOME}"},
        headers={"Authorization": "Bearer ${secret:TOKEN}", "X-Long": "${secret:LONG}"},
    )
    env, headers, values = resolve_entry(entry, store, environ={"MCP_DESK_T_HOME": "/home/a"})
    assert env == {"A": "tok-123", "B": "plain", "HOME_DIR": "/home/a"}
    assert headers == {"Authorization": "Bearer tok-123", "X-Long": "L" * 2500}
    # The `${env:..}` value is masked too: a variable may hold a key whatever it is called.
    assert values == {"tok-123", "L" * 2500, "/home/a"}
    # The entry itself still holds references only.
    assert entry.env["A"] == "${secret:TOKEN}"


def test_resolve_entry_missing_secret_names_it_and_the_fix() -> None:
    entry = ServerEntry(name="s", command="x", env={"A": "${secret:NOPE}"})
    with pytest.raises(MissingSecretError, match="mcp-desk secrets set s NOPE"):
        resolve_entry(entry, SecretStore())
