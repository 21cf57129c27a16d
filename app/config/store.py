"""The server list on disk: `servers.json` (portable) and `settings.json` (MCP Desk only).

A file that does not parse is never overwritten: `load()` raises `ConfigError` (file:line:col) and
`save()` refuses until a later `load()` succeeds. Unknown keys at every level are carried through.

Saving is a transaction on the latest files, not a snapshot written over them: under a lock on
the config folder, `save()` reads both files again, applies what this store changed since it last
read or wrote them (a three-way merge per server, per setting and per top-level key), and writes
the result. So the window, the CLI and a second window can all edit the list at once and every
change survives. `refresh()` does the same merge without writing (the window following outside
edits).

An entry whose name `add()` would refuse (`a/b`, `../x`, empty) is kept in the file exactly as it
is and reported in `warnings`, but never offered to callers, so its name never reaches the keyring
or a path.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import logging
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar, cast

from app.config import paths
from app.config.atomic import atomic_write, remove_stale_temp_files
from app.config.errors import ConfigError, ConfigWriteError
from app.config.model import EntryShapeError, ServerEntry, ServerSettings

logger = logging.getLogger(__name__)

DEMO_NAME = "demo"
STALE_TEMP_SECONDS = 600
LOCK_FILE = ".mcp-desk.lock"
# A save holds the lock for a few milliseconds; this long means another writer is stuck.
LOCK_TIMEOUT = 30.0

T = TypeVar("T")
P = ParamSpec("P")
_MISSING: Any = object()


def _serialised(
    method: Callable[Concatenate[ConfigStore, P], T],
) -> Callable[Concatenate[ConfigStore, P], T]:
    """One thread at a time in the store: the window imports in a worker thread while the GUI
    thread may be taking in an outside edit."""

    def wrapper(self: ConfigStore, *args: P.args, **kwargs: P.kwargs) -> T:
        with self._thread_lock:
            return method(self, *args, **kwargs)

    return cast("Callable[Concatenate[ConfigStore, P], T]", functools.wraps(method)(wrapper))


class ServerExistsError(ConfigError):
    """A server of that name is already configured."""


class UnknownServerError(ConfigError):
    """No server of that name is configured."""


class BadEntry:
    """An entry kept in the file but not usable: its name is one `add()` would refuse.

    A plain class, as are _State and _Snapshot below: a frozen dataclass costs ~3 M instructions
    to define (its methods compiled from generated source on every import), before the first
    paint."""

    __slots__ = ("name", "raw", "reason")

    def __init__(self, name: str, raw: Any, reason: str) -> None:
        self.name = name
        self.raw = raw
        self.reason = reason

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BadEntry):
            return NotImplemented
        return (self.name, self.raw, self.reason) == (other.name, other.raw, other.reason)

    __hash__ = None  # type: ignore[assignment]  # its raw JSON is a dict

    def __repr__(self) -> str:
        return f"BadEntry({self.name!r}, {self.raw!r}, {self.reason!r})"


def demo_entry() -> ServerEntry:
    """The entry seeded on first run, so a newcomer can connect at once."""
    # A frozen app (PyInstaller, an AppImage) is its own interpreter: it takes the subcommand
    # directly; a source install runs `python -m app` (app/frozen.py tells which).
    from app.frozen import self_command

    command, args = self_command("demo-server")
    return ServerEntry(name=DEMO_NAME, command=command, args=args)


def parse_json_text(path: Path, text: str) -> Any:
    """`json.loads` whose errors say `file:line:col`."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(path, exc.msg, exc.lineno, exc.colno) from None


def decode_text(path: Path, data: bytes) -> str:
    """UTF-8 text, with or without the byte-order mark Windows editors (Notepad) write."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ConfigError(path, f"not UTF-8 text ({exc.reason})") from None


def locate_key(text: str, *keys: str) -> tuple[int | None, int | None]:
    """Best-effort line/column of `"key"` (the last of `keys`, searched after the earlier ones)."""
    pos = 0
    found = -1
    for key in keys:
        found = text.find(json.dumps(key), pos)
        if found < 0:
            return None, None
        pos = found + 1
    line = text.count("\n", 0, found) + 1
    col = found - (text.rfind("\n", 0, found) + 1) + 1
    return line, col


def name_problem(name: str) -> str | None:
    """Why `name` cannot name a server, or None. Used for `add()` and for names read from the file."""
    if not name or name != name.strip():
        return "empty or surrounded by spaces"
    if "/" in name or "\\" in name:
        # "server/tool" names tools across servers, keyring entries are "server/NAME", and a
        # name must never be able to climb out of a folder ("../x", "..\\x").
        return "'/' and '\\' are not allowed"
    if name in (".", ".."):
        return "'.' and '..' are not allowed"
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        return "control characters are not allowed"
    return None


def _parse_object(path: Path, text: str) -> dict[str, Any]:
    """The file's JSON, which must be an object at the top."""
    data = parse_json_text(path, text)
    if not isinstance(data, dict):
        raise ConfigError(path, "the top level must be a JSON object", 1, 1)
    return data


def _parse_each(
    path: Path,
    text: str,
    section: str,
    objects: dict[str, Any],
    what: str,
    parse: Callable[[str, dict[str, Any]], T],
) -> dict[str, T]:
    """`parse(name, value)` for each value under `section`; errors point at the key in the file.

    `what` names a value in the "must be an object" message, e.g. "server {!r}".
    """
    parsed: dict[str, T] = {}
    for name, raw in objects.items():
        if not isinstance(raw, dict):
            line, col = locate_key(text, section, name)
            raise ConfigError(path, f"{what.format(name)} must be an object", line, col)
        try:
            parsed[name] = parse(name, raw)
        except EntryShapeError as exc:
            line, col = locate_key(text, section, name, exc.key)
            raise ConfigError(path, f"server {name!r}: {exc}", line, col) from None
    return parsed


class _State:
    """Both files as read (or as merged): the objects callers see plus what is carried through.

    A plain class, as is _Snapshot (see BadEntry); neither is compared or printed."""

    __slots__ = (
        "app",
        "items",
        "key_order",
        "seeded",
        "servers_bytes",
        "settings",
        "settings_bytes",
        "settings_extra",
        "top_extra",
        "warnings",
    )

    def __init__(self) -> None:
        self.items: dict[str, ServerEntry | BadEntry] = {}  # file order
        self.top_extra: dict[str, Any] = {}
        self.key_order: tuple[str, ...] = ()
        self.settings: dict[str, ServerSettings] = {}
        self.settings_extra: dict[str, Any] = {}
        self.app: dict[str, Any] = {}
        self.seeded = False
        self.servers_bytes: bytes | None = None
        self.settings_bytes: bytes | None = None
        self.warnings: list[str] = []


class _Snapshot:
    """The JSON of each mergeable piece, to tell what changed since the last read or write."""

    __slots__ = ("app", "servers", "settings", "settings_extra", "top")

    def __init__(
        self,
        servers: dict[str, Any],
        top: dict[str, Any],
        settings: dict[str, Any],
        settings_extra: dict[str, Any],
        app: dict[str, Any],
    ) -> None:
        self.servers = servers
        self.top = top
        self.settings = settings
        self.settings_extra = settings_extra
        self.app = app


class ConfigStore:
    """Loads, edits and saves the server list and MCP Desk's own per-server settings."""

    def __init__(self, dir: Path | str | None = None) -> None:
        self.dir = Path(dir) if dir is not None else paths.config_dir()
        self.path = self.dir / paths.SERVERS_FILE
        self.settings_file = self.dir / paths.SETTINGS_FILE
        self.lock_file = self.dir / LOCK_FILE
        self._thread_lock = threading.RLock()
        self._items: dict[str, ServerEntry | BadEntry] = {}
        self._settings: dict[str, ServerSettings] = {}
        self._top_extra: dict[str, Any] = {}
        self._servers_key_order: tuple[str, ...] = ()
        self._settings_extra: dict[str, Any] = {}
        self.app_settings: dict[str, Any] = {}
        self._loaded = False
        self.seeded = False
        # Problems found while reading that did not stop the load (bad names), one line each.
        self.warnings: list[str] = []
        self._base = _Snapshot({}, {}, {}, {}, {})  # the files as last read or written by us
        self._disk_bytes: bytes | None = None  # servers.json as last read or written by us
        self._settings_disk_bytes: bytes | None = None
        self._renamed: dict[str, str] = {}  # new name -> name in the file, until saved
        # Counts the times this store took in what others wrote (a load, a refresh, or the merge
        # inside a save), so whoever shows the list can tell it is stale however it came in.
        self.outside_revision = 0

    # -- reading ---------------------------------------------------------------------------

    @_serialised
    def load(self) -> None:
        """Read both files. Missing `servers.json` (first run) seeds the demo entry in memory."""
        self._loaded = False
        state = self._read_state()
        self._adopt(state)
        self._base = self._snapshot()
        self._renamed = {}
        self._loaded = True
        self.outside_revision += 1

    @_serialised
    def refresh(self) -> bool:
        """Take in what others changed on disk, keeping this store's own unsaved changes.

        Returns True when the files differed from what this store last read or wrote. Raises
        `ConfigError` (and changes nothing) when a file no longer parses.
        """
        self._require_loaded()
        state = self._read_state()
        if state.servers_bytes == self._disk_bytes and state.settings_bytes == self._settings_disk_bytes:
            return False
        self._merge(state, strict=False)
        return True

    def changed_on_disk(self) -> bool:
        """True when either file is no longer what this store last read or wrote."""
        return (
            _read_or_none(self.path) != self._disk_bytes
            or _read_or_none(self.settings_file) != self._settings_disk_bytes
        )

    def _read_state(self) -> _State:
        state = _State()
        self._read_servers(state)
        self._read_settings(state)
        return state

    def _read_servers(self, state: _State) -> None:
        file_bytes = _read_or_none(self.path)
        state.servers_bytes = file_bytes
        if file_bytes is None:
            state.items = {DEMO_NAME: demo_entry()}
            state.seeded = True
            return
        text = decode_text(self.path, file_bytes)
        data = _parse_object(self.path, text)
        servers = data.get("mcpServers", {})
        if not isinstance(servers, dict):
            line, col = locate_key(text, "mcpServers")
            raise ConfigError(self.path, "`mcpServers` must be an object", line, col)
        bad: dict[str, BadEntry] = {}
        for name, raw in servers.items():
            problem = name_problem(name)
            if problem is not None:
                line, col = locate_key(text, "mcpServers", name)
                where = ConfigError(
                    self.path,
                    f"server name {name!r} cannot be used ({problem}); the entry is left in the file "
                    "as written but not loaded: rename it there",
                    line,
                    col,
                )
                bad[name] = BadEntry(name, copy.deepcopy(raw), str(where))
                state.warnings.append(str(where))
                logger.warning("%s", where)
        good = {name: raw for name, raw in servers.items() if name not in bad}
        entries = _parse_each(self.path, text, "mcpServers", good, "server {!r}", ServerEntry.from_json)
        state.items = {name: bad[name] if name in bad else entries[name] for name in servers}
        state.top_extra = {k: v for k, v in data.items() if k != "mcpServers"}
        state.key_order = tuple(data.keys())

    def _read_settings(self, state: _State) -> None:
        file_bytes = _read_or_none(self.settings_file)
        state.settings_bytes = file_bytes
        if file_bytes is None:
            return
        text = decode_text(self.settings_file, file_bytes)
        data = _parse_object(self.settings_file, text)
        servers = data.get("servers", {})
        app_settings = data.get("app", {})
        for key, value in (("servers", servers), ("app", app_settings)):
            if not isinstance(value, dict):
                line, col = locate_key(text, key)
                raise ConfigError(self.settings_file, f"`{key}` must be an object", line, col)
        state.settings = _parse_each(
            self.settings_file,
            text,
            "servers",
            servers,
            "settings of {!r}",
            lambda _name, raw: ServerSettings.from_json(raw),
        )
        state.settings_extra = {k: v for k, v in data.items() if k not in ("servers", "app")}
        state.app = copy.deepcopy(app_settings)

    def _adopt(self, state: _State) -> None:
        self._items = state.items
        self._top_extra = state.top_extra
        self._servers_key_order = state.key_order
        self._settings = state.settings
        self._settings_extra = state.settings_extra
        self.app_settings = state.app
        self.seeded = state.seeded
        self.warnings = state.warnings
        self._disk_bytes = state.servers_bytes
        self._settings_disk_bytes = state.settings_bytes

    # -- merging ---------------------------------------------------------------------------

    def _snapshot(self, state: _State | None = None) -> _Snapshot:
        items = self._items if state is None else state.items
        settings = self._settings if state is None else state.settings
        top = self._top_extra if state is None else state.top_extra
        extra = self._settings_extra if state is None else state.settings_extra
        app = self.app_settings if state is None else state.app
        servers = {n: (e.to_json() if isinstance(e, ServerEntry) else e.raw) for n, e in items.items()}
        per_server = {}
        for name in items:  # a bad entry's settings are kept too, as the file has them
            s = settings.get(name)
            if s is not None and s.to_json():
                per_server[name] = s.to_json()
        return _Snapshot(
            copy.deepcopy(servers), copy.deepcopy(top), per_server, copy.deepcopy(extra), copy.deepcopy(app)
        )

    def _merge(self, theirs: _State, *, strict: bool) -> None:
        """Make this store `theirs` plus our changes since `_base`; `_base` becomes `theirs`.

        Where both sides changed the same piece, ours wins (theirs stays in the `.bak` of the
        write that follows). With `strict`, a server both sides added under one name with
        different contents raises `ServerExistsError` before anything changes.
        """
        base, ours, other = self._base, self._snapshot(), self._snapshot(theirs)
        if (theirs.servers_bytes, theirs.settings_bytes) != (self._disk_bytes, self._settings_disk_bytes):
            # Someone else's change comes in here, maybe inside a save: readers that show the
            # list (the window) compare `outside_revision` to notice it either way.
            self.outside_revision += 1

        def mine(key: str, b: dict[str, Any], o: dict[str, Any], t: dict[str, Any]) -> bool:
            """True when we changed `key` since `base` (so our version is the one to keep)."""
            was, now, there = b.get(key, _MISSING), o.get(key, _MISSING), t.get(key, _MISSING)
            changed: bool = now != was
            if changed and there is not _MISSING and there != was and there != now:
                if strict and was is _MISSING and now is not _MISSING and b is base.servers:
                    # Both added a server of this name: refuse rather than drop one of them.
                    raise ServerExistsError(self.path, f"a server named {key!r} was just added elsewhere")
                logger.warning(
                    "%s: %r was changed here and elsewhere; keeping the change made here", self.path, key
                )
            return changed

        def pick(
            key: str,
            b: dict[str, Any],
            o: dict[str, Any],
            t: dict[str, Any],
            ours_obj: dict[str, Any],
            theirs_obj: dict[str, Any],
        ) -> Any:
            if mine(key, b, o, t):
                return ours_obj.get(key, _MISSING)
            if key in ours_obj and o.get(key, _MISSING) == t.get(key, _MISSING):
                return ours_obj[key]  # the same either way: keep the object callers may hold
            return theirs_obj.get(key, _MISSING)

        # Servers in the file's order; one we renamed takes its old name's place, one we added
        # goes at the end.
        order = list(theirs.items)
        for name in self._items:
            if name not in order:
                old = self._renamed.get(name)
                order.insert(order.index(old) if old in order else len(order), name)
        items: dict[str, ServerEntry | BadEntry] = {}
        settings: dict[str, ServerSettings] = {}
        for name in order:
            item = pick(name, base.servers, ours.servers, other.servers, self._items, theirs.items)
            if item is not _MISSING:
                items[name] = item
        for name in items:
            chosen = pick(name, base.settings, ours.settings, other.settings, self._settings, theirs.settings)
            if chosen is not _MISSING:
                settings[name] = chosen

        top_order = list(theirs.key_order)
        top_order += [k for k in self._servers_key_order if k not in top_order]
        top = _merge_map(base.top, ours.top, other.top, self._top_extra, theirs.top_extra, pick)
        self._items = items
        self._settings = settings
        self._top_extra = top
        self._servers_key_order = tuple(k for k in top_order if k == "mcpServers" or k in top)
        self._settings_extra = _merge_map(
            base.settings_extra,
            ours.settings_extra,
            other.settings_extra,
            self._settings_extra,
            theirs.settings_extra,
            pick,
        )
        self.app_settings = _merge_map(base.app, ours.app, other.app, self.app_settings, theirs.app, pick)
        self.warnings = theirs.warnings
        self.seeded = self.seeded and theirs.seeded
        self._disk_bytes = theirs.servers_bytes
        self._settings_disk_bytes = theirs.settings_bytes
        self._base = other

    # -- the list --------------------------------------------------------------------------

    @property
    def _entries(self) -> dict[str, ServerEntry]:
        return {n: e for n, e in self._items.items() if isinstance(e, ServerEntry)}

    @property
    def bad_entries(self) -> list[BadEntry]:
        """Entries kept in the file but not loaded (their names are not usable)."""
        return [e for e in self._items.values() if isinstance(e, BadEntry)]

    @property
    def entries(self) -> list[ServerEntry]:
        """Entries in display order: explicit `order` settings first, then file order."""
        with self._thread_lock:
            return self._ordered_entries()

    def _ordered_entries(self) -> list[ServerEntry]:
        self._require_loaded()
        entries = self._entries
        position = {name: i for i, name in enumerate(entries)}

        def key(name: str) -> tuple[int, int]:
            order = self._settings[name].order if name in self._settings else None
            return (order if order is not None else len(position) + position[name], position[name])

        return [entries[n] for n in sorted(entries, key=key)]

    def names(self) -> list[str]:
        return [e.name for e in self.entries]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and isinstance(self._items.get(name), ServerEntry)

    def __iter__(self) -> Iterator[ServerEntry]:
        return iter(self.entries)

    @_serialised
    def get(self, name: str) -> ServerEntry:
        self._require_loaded()
        entry = self._items.get(name)
        if not isinstance(entry, ServerEntry):
            raise UnknownServerError(self.path, f"no server named {name!r}")
        return entry

    @_serialised
    def unique_name(self, wanted: str) -> str:
        """`wanted`, or `wanted-2`, `wanted-3`... whichever is free (import never overwrites)."""
        if wanted not in self._items:
            return wanted
        n = 2
        while f"{wanted}-{n}" in self._items:
            n += 1
        return f"{wanted}-{n}"

    @_serialised
    def add(self, entry: ServerEntry) -> None:
        self._require_loaded()
        _check_name(self.path, entry.name)
        if entry.name in self._items:
            raise ServerExistsError(self.path, f"a server named {entry.name!r} already exists")
        self._items[entry.name] = entry

    @_serialised
    def update(self, entry: ServerEntry) -> None:
        """Replace the entry of the same name."""
        self.get(entry.name)
        self._items[entry.name] = entry

    @_serialised
    def rename(self, old: str, new: str) -> None:
        """Rename in place (position kept), settings follow. Secrets are moved by the caller."""
        entry = self.get(old)
        _check_name(self.path, new)
        if new == old:
            return
        if new in self._items:
            raise ServerExistsError(self.path, f"a server named {new!r} already exists")
        entry.name = new
        self._items = {(new if k == old else k): v for k, v in self._items.items()}
        self._renamed[new] = self._renamed.pop(old, old)
        if old in self._settings:
            self._settings[new] = self._settings.pop(old)

    @_serialised
    def remove(self, name: str) -> ServerEntry:
        entry = self.get(name)
        del self._items[name]
        self._settings.pop(name, None)
        return entry

    @_serialised
    def settings(self, name: str) -> ServerSettings:
        """The live settings object of a server (created with defaults when absent)."""
        self.get(name)
        return self._settings.setdefault(name, ServerSettings())

    # -- writing ---------------------------------------------------------------------------

    @_serialised
    def servers_json(self) -> dict[str, Any]:
        self._require_loaded()
        servers = {
            name: (item.to_json() if isinstance(item, ServerEntry) else copy.deepcopy(item.raw))
            for name, item in self._items.items()
        }
        out: dict[str, Any] = {}
        for key in self._servers_key_order or ("mcpServers",):
            out[key] = servers if key == "mcpServers" else copy.deepcopy(self._top_extra[key])
        out.setdefault("mcpServers", servers)
        for key, value in self._top_extra.items():
            out.setdefault(key, copy.deepcopy(value))
        return out

    @_serialised
    def settings_json(self) -> dict[str, Any]:
        self._require_loaded()
        servers = {}
        for name in self._items:
            s = self._settings.get(name)
            if s is not None and s.to_json():
                servers[name] = s.to_json()
        out: dict[str, Any] = {"version": 1}
        out.update(copy.deepcopy(self._settings_extra))
        out["servers"] = servers
        if self.app_settings:
            out["app"] = copy.deepcopy(self.app_settings)
        return out

    @_serialised
    def save(self) -> None:
        """Apply this store's changes to the files as they are now, under the folder's lock.

        Both files are written atomically (0600, previous version kept as `.bak`). A file that
        no longer parses is not overwritten (`ConfigError`); a file that cannot be written raises
        `ConfigWriteError`, which names it and says why, and leaves it as it was.
        """
        self._require_loaded()
        with self._lock():
            self._remove_stale_temp_files()
            self._merge(self._read_state(), strict=True)
            data = _dump(self.servers_json())
            if data != self._disk_bytes:
                _write(self.path, data)
                self._disk_bytes = data
            settings = self.settings_json()
            has_content = bool(settings["servers"]) or self.app_settings or self._settings_extra
            if self._settings_disk_bytes is not None or has_content:
                settings_data = _dump(settings)
                if settings_data != self._settings_disk_bytes:
                    _write(self.settings_file, settings_data)
                    self._settings_disk_bytes = settings_data
            self._base = self._snapshot()
            self.seeded = False
            self._renamed = {}

    @contextlib.contextmanager
    def _lock(self) -> Iterator[None]:
        """The config folder's lock, so read-merge-write is one step for every writer."""
        # Imported at the first write, not with the store: reading servers.json needs no lock,
        # and importing filelock costs ~20 ms of start-up.
        import filelock

        try:
            self.dir.mkdir(parents=True, exist_ok=True)
            lock = filelock.FileLock(self.lock_file, timeout=LOCK_TIMEOUT, mode=0o600)
            lock.acquire()
        except filelock.Timeout:
            raise ConfigWriteError(
                self.path,
                f"another program held the lock {self.lock_file} for {LOCK_TIMEOUT:.0f} s; try again",
            ) from None
        except OSError as exc:
            raise ConfigWriteError.from_os_error(self.path, exc) from None
        try:
            yield
        finally:
            lock.release()

    def _require_loaded(self) -> None:
        if not self._loaded:
            raise ConfigError(self.path, "the server list is not loaded (it may not have parsed)")

    def _remove_stale_temp_files(self) -> None:
        # A writer killed mid-save leaves its temp file; clear those (never a live writer's).
        for path in (self.path, self.settings_file):
            if path.parent.is_dir():
                remove_stale_temp_files(path, STALE_TEMP_SECONDS)


def _merge_map(
    base: dict[str, Any],
    ours_json: dict[str, Any],
    theirs_json: dict[str, Any],
    ours: dict[str, Any],
    theirs: dict[str, Any],
    pick: Callable[..., Any],
) -> dict[str, Any]:
    """Per key: ours where we changed it since `base`, else theirs (theirs' order, ours appended)."""
    out: dict[str, Any] = {}
    for key in dict.fromkeys([*theirs, *ours, *base]):
        value = pick(key, base, ours_json, theirs_json, ours, theirs)
        if value is not _MISSING:
            out[key] = value
    return out


def _read_or_none(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def _write(path: Path, data: bytes) -> None:
    try:
        atomic_write(path, data)
    except OSError as exc:
        raise ConfigWriteError.from_os_error(path, exc) from None


def _dump(data: dict[str, Any]) -> bytes:
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _check_name(path: Path, name: str) -> None:
    problem = name_problem(name)
    if problem is not None:
        raise ConfigError(path, f"invalid server name {name!r}: {problem}")
