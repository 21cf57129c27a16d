"""Keyring entries scoped to a config folder, and the move of entries written before scoping."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.config.model import ServerEntry
from app.config.store import ConfigStore
from app.secrets.profile import PROFILE_KEY, folder_secrets, profile_id
from app.secrets.store import SecretStore
from tests.support.memory_keyring import MemoryKeyring


def folder(path: Path, *servers: str) -> ConfigStore:
    path.mkdir(parents=True, exist_ok=True)
    store = ConfigStore(path)
    store.load()
    for name in servers:
        store.add(ServerEntry(name=name, command="x", env={"API_KEY": "${secret:API_KEY}"}))
    store.save()
    return store


def test_profile_id_is_made_once_and_kept_in_settings(tmp_path: Path) -> None:
    config = folder(tmp_path / "A")
    first = profile_id(config)
    data = json.loads((tmp_path / "A" / "settings.json").read_text())
    assert data["app"][PROFILE_KEY] == first
    again = ConfigStore(tmp_path / "A")
    again.load()
    assert profile_id(again) == first
    assert profile_id(folder(tmp_path / "B")) != first


def test_same_server_name_in_two_folders_never_shares_keys(tmp_path: Path) -> None:
    a = folder_secrets(folder(tmp_path / "A", "brave"))
    b = folder_secrets(folder(tmp_path / "B", "brave"))
    a.set("brave", "API_KEY", "key-A")
    b.set("brave", "API_KEY", "key-B")
    assert a.get("brave", "API_KEY") == "key-A"
    b.rename_server("brave", "brave2")
    b.delete_server("brave2")
    assert a.get("brave", "API_KEY") == "key-A"
    assert b.all_names() == {} and a.all_names() == {"brave": ["API_KEY"]}


def test_unscoped_entries_move_into_the_folder_that_has_the_server(
    tmp_path: Path, memory_keyring: MemoryKeyring
) -> None:
    old = SecretStore()  # what an earlier version wrote: SERVER/NAME, no scope
    long_value = "v" * 2600  # chunked: its pieces move too
    old.set("brave", "API_KEY", "old-brave")
    old.set("brave", "BLOB", long_value)
    old.set("elsewhere", "API_KEY", "not-this-folders")
    config = folder(tmp_path / "A", "brave")
    secrets = folder_secrets(config)
    assert secrets.get("brave", "API_KEY") == "old-brave"  # first use moves them
    assert secrets.get("brave", "BLOB") == long_value
    assert old.names("brave") == []
    assert not [u for (_, u) in memory_keyring.store if u.startswith("brave/")]
    # A server this folder does not have stays where it was, for the folder that has it.
    assert old.get("elsewhere", "API_KEY") == "not-this-folders"
    assert secrets.names("elsewhere") == []


def test_move_never_overwrites_a_scoped_value_nor_loses_the_old_one(tmp_path: Path) -> None:
    config = folder(tmp_path / "A", "brave")
    scoped = SecretStore(scope=profile_id(config))
    scoped.set("brave", "API_KEY", "newer")
    old = SecretStore()
    old.set("brave", "API_KEY", "older")
    folder_secrets(config).names("brave")
    assert scoped.get("brave", "API_KEY") == "newer"
    assert old.get("brave", "API_KEY") == "older"


def test_a_failed_copy_keeps_the_old_entry(tmp_path: Path, memory_keyring: MemoryKeyring) -> None:
    import keyring.errors

    old = SecretStore()
    old.set("brave", "API_KEY", "only-copy")
    config = folder(tmp_path / "A", "brave")
    real_set = memory_keyring.set_password

    def refuse_scoped(service: str, user: str, value: str) -> None:
        if user.count("/") == 2:
            raise keyring.errors.PasswordSetError("full")
        real_set(service, user, value)

    memory_keyring.set_password = refuse_scoped  # type: ignore[method-assign]
    assert folder_secrets(config).get("brave", "API_KEY") is None
    memory_keyring.set_password = real_set  # type: ignore[method-assign]
    assert old.get("brave", "API_KEY") == "only-copy"
    assert folder_secrets(config).get("brave", "API_KEY") == "only-copy"  # the next run moves it


@pytest.mark.parametrize("bad", ["", "has/slash"])
def test_scope_must_be_a_plain_word(bad: str) -> None:
    from app.secrets.errors import SecretStoreError

    with pytest.raises(SecretStoreError):
        SecretStore(scope=bad)


def test_an_id_made_by_another_process_meanwhile_is_taken_not_replaced(tmp_path: Path) -> None:
    window = folder(tmp_path / "A", "brave")  # loaded before the id existed
    cli = ConfigStore(tmp_path / "A")
    cli.load()
    made = profile_id(cli)
    assert profile_id(window) == made


def test_a_save_by_a_store_loaded_before_the_id_existed_keeps_the_id(tmp_path: Path) -> None:
    # The window loads the folder, then the CLI beside it makes the profile id and stores keys
    # under it; the window's next save must not erase the id (the keys would be orphaned).
    window = folder(tmp_path / "A", "brave")
    cli = ConfigStore(tmp_path / "A")
    cli.load()
    made = profile_id(cli)
    window.add(ServerEntry(name="other", command="y"))
    window.save()
    data = json.loads((tmp_path / "A" / "settings.json").read_text())
    assert data["app"][PROFILE_KEY] == made
    assert profile_id(window) == made
