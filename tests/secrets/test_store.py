"""SecretStore over an in-memory keyring: chunking, index, rename/delete, refusal of insecure backends."""

from __future__ import annotations

import asyncio
import sys

import keyring
import keyring.errors
import pytest
from keyring.backend import KeyringBackend
from keyring.backends import chainer, fail, null

from app.secrets.backend import fix_advice, insecure_reason
from app.secrets.errors import KeyringLockedError, KeyringUnavailableError, SecretStoreError
from app.secrets.store import CHUNK_UNITS, INDEX_USER, SERVICE, SecretStore, split_chunks
from tests.support.memory_keyring import MemoryKeyring


def test_set_get_delete_uses_service_and_server_name(memory_keyring: MemoryKeyring) -> None:
    store = SecretStore()
    store.set("github", "GITHUB_TOKEN", "ghp_abc")
    assert memory_keyring.store[(SERVICE, "github/GITHUB_TOKEN")] == "ghp_abc"
    assert store.get("github", "GITHUB_TOKEN") == "ghp_abc"
    assert store.get("github", "OTHER") is None
    assert store.names("github") == ["GITHUB_TOKEN"]
    assert store.delete("github", "GITHUB_TOKEN") is True
    assert store.delete("github", "GITHUB_TOKEN") is False
    assert store.get("github", "GITHUB_TOKEN") is None
    assert memory_keyring.store == {}  # the index entry goes when empty


@pytest.mark.parametrize("length", [CHUNK_UNITS - 1, CHUNK_UNITS, CHUNK_UNITS + 1, 4321, 10_000])
def test_long_values_are_chunked_and_joined(memory_keyring: MemoryKeyring, length: int) -> None:
    value = "".join(chr(0x41 + i % 26) for i in range(length))
    store = SecretStore()
    store.set("s", "TOKEN", value)
    assert store.get("s", "TOKEN") == value
    pieces = [v for (_, user), v in memory_keyring.store.items() if user.startswith("s/TOKEN")]
    assert all(len(p) <= CHUNK_UNITS for p in pieces)
    expected_pieces = 1 if length <= CHUNK_UNITS else 1 + -(-length // CHUNK_UNITS)
    assert len(pieces) == expected_pieces
    store.delete("s", "TOKEN")
    assert [u for (_, u) in memory_keyring.store if u.startswith("s/")] == []


def test_overwrite_with_shorter_value_removes_old_chunks(memory_keyring: MemoryKeyring) -> None:
    store = SecretStore()
    store.set("s", "T", "x" * 5000)
    store.set("s", "T", "y" * 1500)
    assert store.get("s", "T") == "y" * 1500
    users = sorted(u for (_, u) in memory_keyring.store if u.startswith("s/"))
    assert users == ["s/T", "s/T#1", "s/T#2"]
    store.set("s", "T", "short")
    assert sorted(u for (_, u) in memory_keyring.store if u.startswith("s/")) == ["s/T"]


def test_delete_removes_orphan_chunks(memory_keyring: MemoryKeyring) -> None:
    store = SecretStore()
    store.set("s", "T", "z" * 2500)
    # An interrupted earlier write left a piece no marker points at.
    memory_keyring.store[(SERVICE, "s/T#4")] = "orphan"
    memory_keyring.store[(SERVICE, "s/T#3")] = "orphan"
    store.delete("s", "T")
    assert [u for (_, u) in memory_keyring.store if u.startswith("s/")] == []


def test_chunks_never_split_surrogate_pairs() -> None:
    value = "😀" * 700  # each counts 2 UTF-16 units
    chunks = split_chunks(value)
    assert "".join(chunks) == value
    assert all(len(c.encode("utf-16-le")) <= CHUNK_UNITS * 2 for c in chunks)


def test_missing_chunk_is_reported(memory_keyring: MemoryKeyring) -> None:
    store = SecretStore()
    store.set("s", "T", "q" * 3000)
    del memory_keyring.store[(SERVICE, "s/T#2")]
    with pytest.raises(SecretStoreError, match="incomplete"):
        store.get("s", "T")


def test_rename_and_delete_server_move_every_secret(memory_keyring: MemoryKeyring) -> None:
    store = SecretStore()
    store.set("old", "A", "1")
    store.set("old", "B", "b" * 3000)
    store.set("other", "A", "keep")
    store.rename_server("old", "new")
    assert store.get("new", "A") == "1"
    assert store.get("new", "B") == "b" * 3000
    assert store.names("old") == []
    assert not [u for (_, u) in memory_keyring.store if u.startswith("old/")]
    assert store.list_names() == {"new": ["A", "B"], "other": ["A"]}
    assert sorted(store.delete_server("new")) == ["A", "B"]
    assert not [u for (_, u) in memory_keyring.store if u.startswith("new/")]
    assert store.get("other", "A") == "keep"


def test_invalid_names_rejected() -> None:
    store = SecretStore()
    with pytest.raises(SecretStoreError):
        store.set("a/b", "X", "v")
    with pytest.raises(SecretStoreError):
        store.set("a", "X#1", "v")
    with pytest.raises(SecretStoreError):
        store.set("a", "X", "")


class PlaintextKeyring(KeyringBackend):
    """Stands in for keyrings.alt's class: same module path and name, checked by class."""

    priority = 1  # type: ignore[assignment]

    def get_password(self, service: str, username: str) -> str | None:
        raise AssertionError("must not be used")

    def set_password(self, service: str, username: str, password: str) -> None:
        raise AssertionError("must not be used")

    def delete_password(self, service: str, username: str) -> None:
        raise AssertionError("must not be used")


PlaintextKeyring.__module__ = "keyrings.alt.file"


def chain_of(*backends: KeyringBackend) -> KeyringBackend:
    """keyring's chainer over given backends (its real `backends` discovers installed ones)."""

    class Chain(chainer.ChainerBackend):
        pass

    Chain.backends = list(backends)  # type: ignore[misc, assignment]
    return Chain()


@pytest.mark.parametrize(
    ("backend", "words"),
    [
        (fail.Keyring(), "no keyring backend"),
        (null.Keyring(), "disabled"),
        (PlaintextKeyring(), "in clear"),
        (chain_of(), "no keyring backend"),
        (chain_of(PlaintextKeyring(), MemoryKeyring()), "in clear"),
    ],
)
def test_insecure_backends_are_refused(backend: KeyringBackend, words: str) -> None:
    keyring.set_keyring(backend)
    store = SecretStore()
    assert not store.is_available()
    with pytest.raises(KeyringUnavailableError) as info:
        store.set("s", "T", "secret-value")
    message = str(info.value)
    assert words in message
    assert fix_advice() in message
    assert "secret-value" not in message
    with pytest.raises(KeyringUnavailableError):
        store.get("s", "T")


def test_chainer_judged_by_its_first_backend() -> None:
    # Writes go to the chain's first (highest priority) backend.
    assert insecure_reason(chain_of(MemoryKeyring(), PlaintextKeyring())) is None
    assert insecure_reason(chain_of(PlaintextKeyring(), MemoryKeyring())) is not None


@pytest.mark.parametrize("platform", ["linux", "darwin", "win32"])
def test_advice_is_os_specific(platform: str) -> None:
    advice = fix_advice(platform)
    assert {"linux": "Secret Service", "darwin": "Keychain", "win32": "Credential Manager"}[
        platform
    ] in advice


class FailingKeyring(MemoryKeyring):
    def __init__(self, exc: Exception) -> None:
        super().__init__()
        self.exc = exc

    def get_password(self, service: str, username: str) -> str | None:
        raise self.exc

    def set_password(self, service: str, username: str, password: str) -> None:
        raise self.exc


def test_locked_keyring_is_reported_as_such() -> None:
    keyring.set_keyring(FailingKeyring(keyring.errors.KeyringLocked("Failed to unlock the collection!")))
    with pytest.raises(KeyringLockedError, match="locked or the unlock prompt was dismissed"):
        SecretStore().set("s", "T", "very-secret")


def test_other_keyring_errors_are_caught() -> None:
    keyring.set_keyring(FailingKeyring(keyring.errors.KeyringError("D-Bus said no")))
    with pytest.raises(SecretStoreError, match="D-Bus said no") as info:
        SecretStore().get("s", "T")
    assert not isinstance(info.value, KeyringLockedError)


def test_session_only_keeps_secrets_in_memory_when_no_keyring() -> None:
    keyring.set_keyring(null.Keyring())
    store = SecretStore()
    with pytest.raises(KeyringUnavailableError):
        store.set("s", "T", "v")
    store.use_session_only()  # the user's explicit choice
    assert store.session_only
    store.set("s", "T", "v" * 3000)
    assert store.get("s", "T") == "v" * 3000
    assert SecretStore().is_available() is False  # a new store does not inherit the choice
    store.rename_server("s", "t")
    assert store.names("t") == ["T"]


def test_index_entry_holds_names_only(memory_keyring: MemoryKeyring) -> None:
    store = SecretStore()
    store.set("s", "API_KEY", "value-123")
    index = memory_keyring.store[(SERVICE, INDEX_USER)]
    assert "API_KEY" in index
    assert "value-123" not in index


def test_async_twins_run_off_the_loop_thread(memory_keyring: MemoryKeyring) -> None:
    import threading

    loop_thread = threading.get_ident()
    seen: list[int] = []

    class Recording(MemoryKeyring):
        def set_password(self, service: str, username: str, password: str) -> None:
            seen.append(threading.get_ident())
            super().set_password(service, username, password)

    backend = Recording()
    store = SecretStore(backend)

    async def scenario() -> None:
        await asyncio.gather(*(store.aset("s", f"N{i}", f"v{i}") for i in range(10)))
        values = await asyncio.gather(*(store.aget("s", f"N{i}") for i in range(10)))
        assert values == [f"v{i}" for i in range(10)]
        names = await store.alist_names("s")
        assert names == sorted(f"N{i}" for i in range(10))
        await store.arename_server("s", "t")
        assert await store.adelete("t", "N0") is True
        assert sorted(await store.adelete_server("t")) == sorted(f"N{i}" for i in range(1, 10))

    asyncio.run(scenario())
    assert seen and loop_thread not in seen
    assert [u for (_, u) in backend.store] == []


@pytest.mark.skipif(sys.platform != "linux", reason="linux advice")
def test_linux_advice_mentions_gnome_keyring() -> None:
    assert "gnome-keyring" in fix_advice()
