"""The server list on disk: `servers.json` (portable) and `settings.json` (MCP Desk only).

A file that does not parse is never overwritten: `load()` raises `ConfigError` (file:line:col) and
`save()` refuses until a later `load()` succeeds. Unknown keys at every level are carried through.
"""

from __future__ import annotations

import copy
import json
import logging
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from app.config import paths
from app.config.atomic import atomic_write, remove_stale_temp_files
from app.config.errors import ConfigError
from app.config.model import EntryShapeError, ServerEntry, ServerSettings

logger = logging.getLogger(__name__)

DEMO_NAME = "demo"
STALE_TEMP_SECONDS = 600

T = TypeVar("T")


class ServerExistsError(ConfigError):
    """A server of that name is already configured."""


class UnknownServerError(ConfigError):
    """No server of that name is configured."""


def demo_entry() -> ServerEntry:
    """The entry seeded on first run, so a newcomer can connect at once."""
    if getattr(sys, "frozen", False):
        # A frozen app (PyInstaller) is its own interpreter: it takes the subcommand directly.
        return ServerEntry(name=DEMO_NAME, command=sys.executable, args=["demo-server"])
    return ServerEntry(name=DEMO_NAME, command=sys.executable, args=["-m", "app", "demo-server"])


def parse_json_text(path: Path, text: str) -> Any:
    """`json.loads` whose errors say `file:line:col`."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(path, exc.msg, exc.lineno, exc.colno) from None


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


def _not_utf8(path: Path, exc: UnicodeDecodeError) -> ConfigError:
    return ConfigError(path, f"not UTF-8 text ({exc.reason})")


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


class ConfigStore:
    """Loads, edits and saves the server list and MCP Desk's own per-server settings."""

    def __init__(self, dir: Path | str | None = None) -> None:
        self.dir = Path(dir) if dir is not None else paths.config_dir()
        self.path = self.dir / paths.SERVERS_FILE
        self.settings_file = self.dir / paths.SETTINGS_FILE
        self._entries: dict[str, ServerEntry] = {}
        self._settings: dict[str, ServerSettings] = {}
        self._top_extra: dict[str, Any] = {}
        self._servers_key_order: tuple[str, ...] = ()
        self._settings_extra: dict[str, Any] = {}
        self.app_settings: dict[str, Any] = {}
        self._loaded = False
        self.seeded = False
        self._disk_bytes: bytes | None = None  # servers.json as last read or written by us

    # -- reading ---------------------------------------------------------------------------

    def load(self) -> None:
        """Read both files. Missing `servers.json` (first run) seeds the demo entry in memory."""
        self._loaded = False
        entries, top_extra, key_order, seeded = self._read_servers()
        settings, settings_extra, app_settings = self._read_settings()
        self._entries = entries
        self._top_extra = top_extra
        self._servers_key_order = key_order
        self._settings = settings
        self._settings_extra = settings_extra
        self.app_settings = app_settings
        self.seeded = seeded
        self._loaded = True

    def _read_servers(self) -> tuple[dict[str, ServerEntry], dict[str, Any], tuple[str, ...], bool]:
        try:
            file_bytes = self.path.read_bytes()
        except FileNotFoundError:
            self._disk_bytes = None
            return {DEMO_NAME: demo_entry()}, {}, (), True
        try:
            text = file_bytes.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise _not_utf8(self.path, exc) from None
        data = _parse_object(self.path, text)
        servers = data.get("mcpServers", {})
        if not isinstance(servers, dict):
            line, col = locate_key(text, "mcpServers")
            raise ConfigError(self.path, "`mcpServers` must be an object", line, col)
        entries = _parse_each(self.path, text, "mcpServers", servers, "server {!r}", ServerEntry.from_json)
        top_extra = {k: v for k, v in data.items() if k != "mcpServers"}
        self._disk_bytes = file_bytes
        return entries, top_extra, tuple(data.keys()), False

    def _read_settings(
        self,
    ) -> tuple[dict[str, ServerSettings], dict[str, Any], dict[str, Any]]:
        try:
            text = self.settings_file.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}, {}, {}
        except UnicodeDecodeError as exc:
            raise _not_utf8(self.settings_file, exc) from None
        data = _parse_object(self.settings_file, text)
        servers = data.get("servers", {})
        app_settings = data.get("app", {})
        for key, value in (("servers", servers), ("app", app_settings)):
            if not isinstance(value, dict):
                line, col = locate_key(text, key)
                raise ConfigError(self.settings_file, f"`{key}` must be an object", line, col)
        settings = _parse_each(
            self.settings_file,
            text,
            "servers",
            servers,
            "settings of {!r}",
            lambda _name, raw: ServerSettings.from_json(raw),
        )
        extra = {k: v for k, v in data.items() if k not in ("servers", "app")}
        return settings, extra, copy.deepcopy(app_settings)

    # -- the list --------------------------------------------------------------------------

    @property
    def entries(self) -> list[ServerEntry]:
        """Entries in display order: explicit `order` settings first, then file order."""
        self._require_loaded()
        position = {name: i for i, name in enumerate(self._entries)}

        def key(name: str) -> tuple[int, int]:
            order = self._settings[name].order if name in self._settings else None
            return (order if order is not None else len(position) + position[name], position[name])

        return [self._entries[n] for n in sorted(self._entries, key=key)]

    def names(self) -> list[str]:
        return [e.name for e in self.entries]

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[ServerEntry]:
        return iter(self.entries)

    def get(self, name: str) -> ServerEntry:
        self._require_loaded()
        try:
            return self._entries[name]
        except KeyError:
            raise UnknownServerError(self.path, f"no server named {name!r}") from None

    def unique_name(self, wanted: str) -> str:
        """`wanted`, or `wanted-2`, `wanted-3`... whichever is free (import never overwrites)."""
        if wanted not in self._entries:
            return wanted
        n = 2
        while f"{wanted}-{n}" in self._entries:
            n += 1
        return f"{wanted}-{n}"

    def add(self, entry: ServerEntry) -> None:
        self._require_loaded()
        _check_name(self.path, entry.name)
        if entry.name in self._entries:
            raise ServerExistsError(self.path, f"a server named {entry.name!r} already exists")
        self._entries[entry.name] = entry

    def update(self, entry: ServerEntry) -> None:
        """Replace the entry of the same name."""
        self.get(entry.name)
        self._entries[entry.name] = entry

    def rename(self, old: str, new: str) -> None:
        """Rename in place (position kept), settings follow. Secrets are moved by the caller."""
        entry = self.get(old)
        _check_name(self.path, new)
        if new == old:
            return
        if new in self._entries:
            raise ServerExistsError(self.path, f"a server named {new!r} already exists")
        entry.name = new
        self._entries = {(new if k == old else k): v for k, v in self._entries.items()}
        if old in self._settings:
            self._settings[new] = self._settings.pop(old)

    def remove(self, name: str) -> ServerEntry:
        entry = self.get(name)
        del self._entries[name]
        self._settings.pop(name, None)
        return entry

    def settings(self, name: str) -> ServerSettings:
        """The live settings object of a server (created with defaults when absent)."""
        self.get(name)
        return self._settings.setdefault(name, ServerSettings())

    # -- writing ---------------------------------------------------------------------------

    def servers_json(self) -> dict[str, Any]:
        self._require_loaded()
        servers = {name: entry.to_json() for name, entry in self._entries.items()}
        out: dict[str, Any] = {}
        for key in self._servers_key_order or ("mcpServers",):
            out[key] = servers if key == "mcpServers" else copy.deepcopy(self._top_extra[key])
        out.setdefault("mcpServers", servers)
        for key, value in self._top_extra.items():
            out.setdefault(key, copy.deepcopy(value))
        return out

    def settings_json(self) -> dict[str, Any]:
        self._require_loaded()
        servers = {}
        for name in self._entries:
            s = self._settings.get(name)
            if s is not None and s.to_json():
                servers[name] = s.to_json()
        out: dict[str, Any] = {"version": 1}
        out.update(copy.deepcopy(self._settings_extra))
        out["servers"] = servers
        if self.app_settings:
            out["app"] = copy.deepcopy(self.app_settings)
        return out

    def save(self) -> None:
        """Write both files atomically (0600, previous version kept as `.bak`)."""
        self._require_loaded()
        self._remove_stale_temp_files()
        if self.changed_on_disk():
            # Someone (an editor, the CLI) changed the file since we read it; their version is
            # kept as servers.json.bak by the write below. Callers should reload first.
            logger.warning(
                "%s changed on disk since it was loaded; the other version is kept in .bak", self.path
            )
        data = _dump(self.servers_json())
        atomic_write(self.path, data)
        self._disk_bytes = data
        settings = self.settings_json()
        has_content = bool(settings["servers"]) or self.app_settings or self._settings_extra
        if self.settings_file.exists() or has_content:
            atomic_write(self.settings_file, _dump(settings))
        self.seeded = False

    def changed_on_disk(self) -> bool:
        """True when servers.json is no longer what this store last read or wrote."""
        try:
            current: bytes | None = self.path.read_bytes()
        except FileNotFoundError:
            current = None
        return current != self._disk_bytes

    def _require_loaded(self) -> None:
        if not self._loaded:
            raise ConfigError(self.path, "the server list is not loaded (it may not have parsed)")

    def _remove_stale_temp_files(self) -> None:
        # A writer killed mid-save leaves its temp file; clear those (never a live writer's).
        for path in (self.path, self.settings_file):
            if path.parent.is_dir():
                remove_stale_temp_files(path, STALE_TEMP_SECONDS)


def _dump(data: dict[str, Any]) -> bytes:
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _check_name(path: Path, name: str) -> None:
    if not name or name != name.strip():
        raise ConfigError(path, f"invalid server name {name!r}: empty or surrounded by spaces")
    if "/" in name:
        # "server/tool" names tools across servers, and keyring entries are "server/NAME".
        raise ConfigError(path, f"invalid server name {name!r}: '/' is not allowed")
