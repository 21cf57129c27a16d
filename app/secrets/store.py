"""Secrets in the OS keyring, one entry per config folder, server and name.

Keyring entries: service `mcp-desk`, username `SCOPE/SERVER/NAME`, where SCOPE is the config
folder's profile id (`app.secrets.profile`): two folders with a server of the same name never share
or delete each other's keys. Entries written before scoping (`SERVER/NAME`, no scope) are moved
into the scope of the folder that has that server by `adopt_unscoped`. Values longer than `CHUNK_UNITS`
UTF-16 code units are split into `SERVER/NAME#1`, `#2`... and the main entry holds a marker with
the count (Windows Credential Manager refuses blobs over 2,560 bytes; OAuth tokens are longer).
Keyring has no way to list entries, so an index entry (`INDEX_USER`) holds the names per server,
and under the key `CHANGED_KEY` (which no server can be called: server names have no '/') when each
was last set. Indexes written before that key existed read as they are, their times unknown; older
versions skip the key (its value is not a list of names) and drop it when they rewrite the index.

Every call may hit D-Bus and show an unlock prompt: the GUI uses the async twins, which run the
sync method in a worker thread, one at a time. Messages never contain a secret value.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import ParamSpec, TypeVar

import keyring
import keyring.errors
from keyring.backend import KeyringBackend

from app.config.refs import is_valid_secret_name
from app.secrets.backend import insecure_message, insecure_reason, unreadable_message
from app.secrets.errors import KeyringLockedError, KeyringUnavailableError, SecretStoreError

logger = logging.getLogger(__name__)

SERVICE = "mcp-desk"
INDEX_USER = "mcp-desk:index"
CHUNK_UNITS = 1000
CHUNK_MARKER = "mcp-desk:chunked:v1:"
CHANGED_KEY = "/changed"  # in the index: server -> {name: when it was last set, epoch seconds}

P = ParamSpec("P")
T = TypeVar("T")


def username(server: str, name: str, scope: str | None = None) -> str:
    return f"{scope}/{server}/{name}" if scope else f"{server}/{name}"


def index_username(scope: str | None = None) -> str:
    return f"{INDEX_USER}/{scope}" if scope else INDEX_USER


def split_chunks(value: str, units: int = CHUNK_UNITS) -> list[str]:
    """Split into pieces of at most `units` UTF-16 code units, never inside a surrogate pair."""
    chunks: list[str] = []
    current: list[str] = []
    size = 0
    for ch in value:
        width = 2 if ord(ch) > 0xFFFF else 1
        if size + width > units:
            chunks.append("".join(current))
            current, size = [], 0
        current.append(ch)
        size += width
    if current:
        chunks.append("".join(current))
    return chunks


class SecretStore:
    """Get, set and delete secrets of configured servers.

    `backend=None` uses keyring's active backend at each call. `session_only=True` keeps secrets
    in this process's memory only — the fallback a user must choose explicitly when no secure
    keyring exists; nothing is ever written to a file instead. `scope` is the config folder's
    profile id; None is the old unscoped layout (kept for reading what older versions wrote).
    """

    def __init__(
        self,
        backend: KeyringBackend | None = None,
        *,
        session_only: bool = False,
        service: str = SERVICE,
        scope: str | None = None,
    ) -> None:
        if scope is not None and (not scope or "/" in scope):
            raise SecretStoreError(f"invalid secrets scope {scope!r}")
        self._backend = backend
        self.service = service
        self.scope = scope
        self._session: dict[str, str] | None = {} if session_only else None
        self._lock = threading.RLock()
        self._adopt_pending: set[str] | None = None

    # -- backend ---------------------------------------------------------------------------

    @property
    def session_only(self) -> bool:
        return self._session is not None

    def use_session_only(self) -> None:
        """Switch to in-memory secrets for the rest of this session (the user chose so)."""
        with self._lock:
            if self._session is None:
                self._session = {}

    def backend(self) -> KeyringBackend:
        return self._backend if self._backend is not None else keyring.get_keyring()

    def check_available(self) -> None:
        """Raise `KeyringUnavailableError` (with what to do on this OS) unless storage is secure."""
        if self._session is not None:
            return
        reason = insecure_reason(self.backend())
        if reason is not None:
            raise KeyringUnavailableError(insecure_message(reason))

    def session_servers(self) -> set[str]:
        """Servers whose secrets live only in this session's memory (gone when MCP Desk exits)."""
        with self._lock:
            if self._session is None:
                return set()
            return {s for s, names in self._index().items() if names}

    def is_available(self) -> bool:
        try:
            self.check_available()
        except KeyringUnavailableError:
            return False
        return True

    def _raw_get(self, user: str) -> str | None:
        if self._session is not None:
            return self._session.get(user)
        return _call("read", lambda: self.backend().get_password(self.service, user))

    def _raw_set(self, user: str, value: str) -> None:
        if self._session is not None:
            self._session[user] = value
            return
        _call("store", lambda: self.backend().set_password(self.service, user, value))

    def _raw_delete(self, user: str) -> bool:
        """Delete one keyring entry; False when it did not exist."""
        if self._session is not None:
            return self._session.pop(user, None) is not None
        backend = self.backend()
        try:
            if backend.get_password(self.service, user) is None:
                return False
            backend.delete_password(self.service, user)
        except keyring.errors.PasswordDeleteError:
            return False
        except keyring.errors.KeyringError as exc:
            raise _translate("delete", exc) from None
        return True

    # -- index -----------------------------------------------------------------------------

    def _user(self, server: str, name: str) -> str:
        return username(server, name, self.scope)

    def _index(self) -> dict[str, list[str]]:
        return self._read_index()[0]

    def _read_index(self) -> tuple[dict[str, list[str]], dict[str, dict[str, float]]]:
        """(server -> names, server -> {name: last set}); times only for names in the index."""
        raw = self._raw_get(index_username(self.scope))
        if not raw:
            return {}, {}
        try:
            data = json.loads(raw)
        except json.JSONDecodeError:
            logger.warning("the keyring's MCP Desk index is unreadable; starting a new one")
            return {}, {}
        if not isinstance(data, dict):
            return {}, {}
        names = {
            str(k): [str(n) for n in v]
            for k, v in data.items()
            if k != CHANGED_KEY and isinstance(v, list) and v
        }
        changed: dict[str, dict[str, float]] = {}
        stamps = data.get(CHANGED_KEY)
        if isinstance(stamps, dict):
            for server, per_name in stamps.items():
                if server not in names or not isinstance(per_name, dict):
                    continue
                known = {
                    str(n): float(t)
                    for n, t in per_name.items()
                    if n in names[server] and isinstance(t, int | float) and not isinstance(t, bool)
                }
                if known:
                    changed[server] = known
        return names, changed

    def _write_index(
        self, index: dict[str, list[str]], changed: dict[str, dict[str, float]] | None = None
    ) -> None:
        """Write the names, and the times (`changed`; None keeps the stored ones of names that stay)."""
        if changed is None:
            changed = self._read_index()[1]
        clean: dict[str, object] = {k: sorted(set(v)) for k, v in sorted(index.items()) if v}
        stamps = {
            server: {n: t for n, t in sorted(per_name.items()) if n in index.get(server, [])}
            for server, per_name in sorted(changed.items())
        }
        stamps = {server: per_name for server, per_name in stamps.items() if per_name}
        if clean:
            if stamps:
                clean[CHANGED_KEY] = stamps
            self._raw_set(index_username(self.scope), json.dumps(clean, separators=(",", ":")))
        else:
            self._raw_delete(index_username(self.scope))

    # -- public sync API -------------------------------------------------------------------

    def get(self, server: str, name: str) -> str | None:
        """The secret, or None when it is not set."""
        _check(server, name)
        with self._lock:
            self._adopt_if_pending()
            if self._session is None:
                reason = insecure_reason(self.backend())
                if reason is not None:
                    # Reading is not storing: say which key cannot be had, and where the fix is.
                    raise KeyringUnavailableError(unreadable_message(server, name, reason))
            head = self._raw_get(self._user(server, name))
            if head is None or not head.startswith(CHUNK_MARKER):
                return head
            count = _chunk_count(head)
            parts = []
            for i in range(1, count + 1):
                part = self._raw_get(f"{self._user(server, name)}#{i}")
                if part is None:
                    raise SecretStoreError(
                        f"secret {name!r} of server {server!r} is incomplete in the keyring "
                        f"(piece {i} of {count} is missing); set it again"
                    )
                parts.append(part)
            return "".join(parts)

    def set(self, server: str, name: str, value: str) -> None:
        _check(server, name)
        if not value:
            raise SecretStoreError(f"secret {name!r} of server {server!r} is empty")
        with self._lock:
            self._adopt_if_pending()
            self.check_available()
            user = self._user(server, name)
            old_count = self._stored_chunk_count(user)
            chunks = split_chunks(value)
            if len(chunks) == 1:
                self._raw_set(user, value)
                new_count = 0
            else:
                # Pieces first, then the marker: a reader never sees a marker without its pieces.
                for i, chunk in enumerate(chunks, start=1):
                    self._raw_set(f"{user}#{i}", chunk)
                self._raw_set(user, f"{CHUNK_MARKER}{len(chunks)}")
                new_count = len(chunks)
            for i in range(new_count + 1, old_count + 1):
                self._raw_delete(f"{user}#{i}")
            index, changed = self._read_index()
            if name not in index.get(server, []):
                index.setdefault(server, []).append(name)
            changed.setdefault(server, {})[name] = round(time.time(), 3)
            self._write_index(index, changed)

    def delete(self, server: str, name: str) -> bool:
        """Remove a secret and all its pieces. False when it was not set."""
        _check(server, name)
        with self._lock:
            self._adopt_if_pending()
            self.check_available()
            user = self._user(server, name)
            count = self._stored_chunk_count(user)
            existed = self._raw_delete(user)
            for i in range(1, count + 1):
                self._raw_delete(f"{user}#{i}")
            # Pieces left by an interrupted earlier write (no marker points at them any more).
            i = count + 1
            while self._raw_delete(f"{user}#{i}"):
                i += 1
            index = self._index()
            if name in index.get(server, []):
                index[server].remove(name)
                self._write_index(index)
            return existed

    def list_names(self, server: str | None = None) -> list[str] | dict[str, list[str]]:
        """Names (never values) of one server's secrets, or of every server's when `server` is None."""
        with self._lock:
            self._adopt_if_pending()
            self.check_available()
            index = self._index()
        if server is None:
            return index
        return list(index.get(server, []))

    def names_with_times(self) -> dict[str, dict[str, float | None]]:
        """Every server's secret names with when each was last set (epoch seconds), None where
        unknown (set by a version that did not record it). Names only, never values."""
        with self._lock:
            self._adopt_if_pending()
            self.check_available()
            index, changed = self._read_index()
        return {
            server: {name: changed.get(server, {}).get(name) for name in names}
            for server, names in index.items()
        }

    def names(self, server: str) -> list[str]:
        """Typed shortcut of `list_names(server)`."""
        result = self.list_names(server)
        assert isinstance(result, list)
        return result

    def all_names(self) -> dict[str, list[str]]:
        """Typed shortcut of `list_names()`: server → secret names."""
        result = self.list_names()
        assert isinstance(result, dict)
        return result

    def rename_server(self, old: str, new: str) -> None:
        """Move every secret of `old` to `new` (copy, then delete the old ones); when each was
        last set moves along (a rename changes no value)."""
        if old == new:
            return
        with self._lock:
            times = self.names_with_times().get(old, {})
            for name in self.names(old):
                value = self.get(old, name)
                if value is not None:
                    self.set(new, name, value)
                self.delete(old, name)
            index, changed = self._read_index()
            moved = changed.setdefault(new, {})
            for name, when in times.items():
                if when is None:
                    moved.pop(name, None)  # unknown before the rename, unknown after
                else:
                    moved[name] = when
            if times:
                self._write_index(index, changed)

    def delete_server(self, server: str) -> list[str]:
        """Remove every secret of a server; returns the names removed."""
        with self._lock:
            names = self.names(server)
            for name in names:
                self.delete(server, name)
            return names

    def adopt_unscoped_on_first_use(self, servers: Iterable[str]) -> None:
        """Run `adopt_unscoped(servers)` before the first keyring access (in the caller's thread,
        which for the async twins is a worker: the GUI thread never waits on it)."""
        self._adopt_pending = set(servers)

    def _adopt_if_pending(self) -> None:
        pending, self._adopt_pending = self._adopt_pending, None
        if not pending:
            return
        try:
            self.adopt_unscoped(pending)
        except SecretStoreError as exc:
            # Left where they are (nothing lost); the next run tries again.
            logger.info("keyring entries of older versions not moved this time: %s", exc)

    def adopt_unscoped(self, servers: Iterable[str]) -> list[tuple[str, str]]:
        """Move entries written before scoping (`SERVER/NAME`) of `servers` into this scope.

        Only servers of this folder are touched, so another folder's keys stay where they are.
        Each value is copied, read back, and only then is the old entry deleted: an interruption
        leaves a value in both places, never in neither. A value already in this scope wins; the
        old one is then left alone (and logged), not deleted. Returns the (server, name) moved.
        """
        if self.scope is None or self._session is not None:
            return []
        wanted = set(servers)
        legacy = SecretStore(self._backend, service=self.service)
        moved: list[tuple[str, str]] = []
        with self._lock:
            self.check_available()
            old_index = legacy.all_names()
            for server in sorted(wanted & set(old_index)):
                for name in old_index[server]:
                    value = legacy.get(server, name)
                    if value is None:
                        legacy.delete(server, name)  # a stale index line; nothing to lose
                        continue
                    current = self.get(server, name)
                    if current is None:
                        self.set(server, name, value)
                        if self.get(server, name) != value:
                            raise SecretStoreError(
                                f"could not move secret {name!r} of server {server!r} into this "
                                "folder's keyring entries (the copy did not read back); the old entry is kept"
                            )
                    elif current != value:
                        logger.warning(
                            "secret %r of %r exists both unscoped and in this folder with different "
                            "values; the folder's is used and the old one is left in the keyring",
                            name,
                            server,
                        )
                        continue
                    legacy.delete(server, name)
                    moved.append((server, name))
        if moved:
            logger.info("moved %d secret(s) into this config folder's keyring entries", len(moved))
        return moved

    def _stored_chunk_count(self, user: str) -> int:
        head = self._raw_get(user)
        return _chunk_count(head) if head and head.startswith(CHUNK_MARKER) else 0

    # -- async twins: keyring may block on D-Bus or a prompt -------------------------------

    async def aget(self, server: str, name: str) -> str | None:
        return await _in_thread(self.get, server, name)

    async def aset(self, server: str, name: str, value: str) -> None:
        await _in_thread(self.set, server, name, value)

    async def adelete(self, server: str, name: str) -> bool:
        return await _in_thread(self.delete, server, name)

    async def alist_names(self, server: str | None = None) -> list[str] | dict[str, list[str]]:
        return await _in_thread(self.list_names, server)

    async def anames_with_times(self) -> dict[str, dict[str, float | None]]:
        return await _in_thread(self.names_with_times)

    async def arename_server(self, old: str, new: str) -> None:
        await _in_thread(self.rename_server, old, new)

    async def adelete_server(self, server: str) -> list[str]:
        return await _in_thread(self.delete_server, server)

    async def acheck_available(self) -> None:
        await _in_thread(self.check_available)


async def _in_thread(func: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    # The store's lock serialises the worker threads, so calls reach the keyring one at a time.
    return await asyncio.to_thread(func, *args, **kwargs)


def _check(server: str, name: str) -> None:
    if not server or "/" in server:
        raise SecretStoreError(f"invalid server name {server!r}")
    if not is_valid_secret_name(name):
        raise SecretStoreError(f"invalid secret name {name!r} (letters, digits, '_', '-', '.')")


def _chunk_count(head: str) -> int:
    try:
        count = int(head[len(CHUNK_MARKER) :])
    except ValueError:
        raise SecretStoreError("a secret's chunk marker in the keyring is damaged; set it again") from None
    return max(count, 0)


def _call(action: str, func: Callable[[], T]) -> T:
    try:
        return func()
    except keyring.errors.KeyringError as exc:
        raise _translate(action, exc) from None


def _translate(action: str, exc: keyring.errors.KeyringError) -> SecretStoreError:
    """A keyring failure as one of our errors; the message names the cause, never a value."""
    detail = str(exc).strip() or type(exc).__name__
    if isinstance(exc, keyring.errors.KeyringLocked):
        return KeyringLockedError(
            f"cannot {action} the secret: the keyring is locked or the unlock prompt was dismissed "
            f"({detail}). Unlock your keyring and try again."
        )
    if isinstance(exc, keyring.errors.NoKeyringError):
        return KeyringUnavailableError(insecure_message("no keyring backend is available"))
    return SecretStoreError(f"cannot {action} the secret in the keyring: {detail}")
