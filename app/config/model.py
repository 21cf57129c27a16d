"""The server list as plain data.

`ServerEntry` is one `mcpServers` entry as Claude Desktop and Cursor write it. Keys we do not know
are kept in `extra` and the original key order is remembered, so a load/save round trip leaves an
entry as the user (or another app) wrote it. `ServerSettings` holds what only MCP Desk understands;
it lives in `settings.json` so `servers.json` stays readable by the other apps.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Literal, cast

Transport = Literal["stdio", "http", "sse"]
TRANSPORTS: tuple[Transport, ...] = ("stdio", "http", "sse")

# Spellings of the `type` field other tools write, mapped to ours.
TYPE_ALIASES: dict[str, Transport] = {
    "stdio": "stdio",
    "http": "http",
    "streamable-http": "http",
    "streamablehttp": "http",
    "streamable_http": "http",
    "sse": "sse",
}

KNOWN_ENTRY_KEYS = ("type", "command", "args", "env", "cwd", "url", "headers", "disabled")


class EntryShapeError(ValueError):
    """A known key of an entry has the wrong JSON type. `key` names it."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


def normalise_type(value: str) -> Transport | None:
    """`streamable-http`, `streamableHttp`, `streamable_http` → `http`; unknown → None."""
    return TYPE_ALIASES.get(value.strip().lower())


@dataclass
class ServerEntry:
    """One configured server. `extra` holds keys MCP Desk does not understand, untouched."""

    name: str
    transport: Transport = "stdio"
    command: str | None = None
    args: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None
    url: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    disabled: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    # Why this entry cannot be used as written (no command, unknown type); None when fine.
    problem: str | None = field(default=None, compare=False)
    # The `type` spelling and key order found in the file, so saving does not rewrite them.
    raw_type: str | None = field(default=None, compare=False, repr=False)
    key_order: tuple[str, ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def from_json(cls, name: str, data: dict[str, Any], *, normalise: bool = False) -> ServerEntry:
        """Build an entry from its JSON object. Raises `EntryShapeError` for a wrongly typed key.

        With `normalise=True` (import), the `type` spelling is not remembered, so it is written
        back in our canonical form.
        """
        extra = {k: copy.deepcopy(v) for k, v in data.items() if k not in KNOWN_ENTRY_KEYS}
        problem: str | None = None

        raw_type = data.get("type")
        if raw_type is not None and not isinstance(raw_type, str):
            raise EntryShapeError("type", "`type` must be a string")
        command = _opt_str(data, "command")
        url = _opt_str(data, "url")
        transport: Transport
        if raw_type is not None:
            known = normalise_type(raw_type)
            if known is None:
                problem = f"unknown type {raw_type!r} (expected stdio, http or sse)"
                transport = "http" if url and not command else "stdio"
            else:
                transport = known
        else:
            transport = "http" if url and not command else "stdio"

        if problem is None:
            if transport == "stdio" and not command:
                problem = "no command given"
            elif transport != "stdio" and not url:
                problem = "no url given"

        disabled = data.get("disabled", False)
        if not isinstance(disabled, bool):
            raise EntryShapeError("disabled", "`disabled` must be true or false")

        return cls(
            name=name,
            transport=transport,
            command=command,
            args=_str_list(data, "args"),
            env=_str_map(data, "env"),
            cwd=_opt_str(data, "cwd"),
            url=url,
            headers=_str_map(data, "headers"),
            disabled=disabled,
            extra=extra,
            problem=problem,
            raw_type=None if normalise else raw_type,
            key_order=tuple(data.keys()),
        )

    def to_json(self) -> dict[str, Any]:
        """The JSON object to write: known fields that apply, then unknown ones, in the file's order."""
        out: dict[str, Any] = {}
        present = set(self.key_order)
        type_value = self._type_to_write()
        if type_value is not None:
            out["type"] = type_value
        if self.transport == "stdio" or "command" in present:
            if self.command is not None:
                out["command"] = self.command
            if self.args or "args" in present:
                out["args"] = list(self.args)
            if self.env or "env" in present:
                out["env"] = dict(self.env)
            if self.cwd is not None:
                out["cwd"] = self.cwd
        if self.transport != "stdio" or "url" in present:
            if self.url is not None:
                out["url"] = self.url
            if self.headers or "headers" in present:
                out["headers"] = dict(self.headers)
        if self.disabled or "disabled" in present:
            out["disabled"] = self.disabled
        for key, value in self.extra.items():
            out[key] = copy.deepcopy(value)
        order = {key: i for i, key in enumerate(self.key_order)}
        return dict(sorted(out.items(), key=lambda kv: order.get(kv[0], len(order))))

    def _type_to_write(self) -> str | None:
        # Keep the file's spelling while it still means our transport; otherwise write ours.
        if self.raw_type is not None:
            known = normalise_type(self.raw_type)
            if known is None and self.problem is not None:
                return self.raw_type
            if known == self.transport:
                return self.raw_type
            return self.transport
        if self.transport == "stdio":
            return None  # Claude Desktop's stdio entries carry no type
        inferred = "http" if self.url and not self.command else "stdio"
        if self.key_order and "type" not in self.key_order and self.transport == inferred:
            return None  # the file had no type and still means the same: leave it out
        return self.transport

    def secret_refs(self) -> set[str]:
        """Names of the `${secret:NAME}` references in env, header, argument and URL values."""
        from app.config.refs import secret_refs

        names: set[str] = set()
        for value in [*self.env.values(), *self.headers.values(), *self.args, self.url or ""]:
            names.update(secret_refs(value))
        return names


@dataclass
class ServerSettings:
    """Per-server settings only MCP Desk understands (kept in `settings.json`)."""

    timeout: float = 60.0
    protocol_mode: str = "auto"
    roots: list[str] = field(default_factory=list)
    trusted_tools: set[str] = field(default_factory=set)
    order: int | None = None
    # OAuth client settings (client id, scopes, redirect port...). Tokens live in the keyring.
    oauth: dict[str, Any] = field(default_factory=dict)
    # The stdio command the person allowed to run: `app.config.trust.fingerprint` of it, or None.
    approved_launch: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    # Keys (and their order) found in the file: a default the user wrote out stays written.
    key_order: tuple[str, ...] = field(default=(), compare=False, repr=False)

    @property
    def log_level(self) -> str | None:
        """How much the server should log ("debug" … "emergency"; None: never chosen), kept in
        settings.json as `log_level`. It rides in `extra`, so a file written by an older MCP Desk
        (or a hand-typed value that is not a level, read as None) round-trips untouched."""
        value = self.extra.get("log_level")
        levels = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
        return value.lower() if isinstance(value, str) and value.lower() in levels else None

    @log_level.setter
    def log_level(self, level: str | None) -> None:
        if level is None:
            self.extra.pop("log_level", None)
        else:
            self.extra["log_level"] = level

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ServerSettings:
        known = ("timeout", "protocol_mode", "roots", "trusted_tools", "order", "oauth", "approved_launch")
        timeout = data.get("timeout", 60.0)
        if isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0:
            raise EntryShapeError("timeout", "`timeout` must be a positive number of seconds")
        mode = data.get("protocol_mode", "auto")
        if not isinstance(mode, str):
            raise EntryShapeError("protocol_mode", "`protocol_mode` must be a string")
        order = data.get("order")
        if order is not None and (isinstance(order, bool) or not isinstance(order, int)):
            raise EntryShapeError("order", "`order` must be an integer")
        oauth = data.get("oauth", {})
        if not isinstance(oauth, dict):
            raise EntryShapeError("oauth", "`oauth` must be an object")
        approved = _opt_str(data, "approved_launch")
        return cls(
            timeout=float(timeout),
            protocol_mode=mode,
            roots=_str_list(data, "roots"),
            trusted_tools=set(_str_list(data, "trusted_tools")),
            order=order,
            oauth=copy.deepcopy(oauth),
            approved_launch=approved,
            extra={k: copy.deepcopy(v) for k, v in data.items() if k not in known},
            key_order=tuple(data.keys()),
        )

    def to_json(self) -> dict[str, Any]:
        """Non-default values, plus any key the file had; unknown keys; the file's key order."""
        present = set(self.key_order)
        out: dict[str, Any] = {}
        if self.timeout != 60.0 or "timeout" in present:
            out["timeout"] = self.timeout
        if self.protocol_mode != "auto" or "protocol_mode" in present:
            out["protocol_mode"] = self.protocol_mode
        if self.roots or "roots" in present:
            out["roots"] = list(self.roots)
        if self.trusted_tools or "trusted_tools" in present:
            out["trusted_tools"] = sorted(self.trusted_tools)
        if self.order is not None:
            out["order"] = self.order
        if self.oauth or "oauth" in present:
            out["oauth"] = copy.deepcopy(self.oauth)
        if self.approved_launch is not None:
            out["approved_launch"] = self.approved_launch
        out.update(copy.deepcopy(self.extra))
        order = {key: i for i, key in enumerate(self.key_order)}
        return dict(sorted(out.items(), key=lambda kv: order.get(kv[0], len(order))))


def _opt_str(data: dict[str, Any], key: str) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise EntryShapeError(key, f"`{key}` must be a string")
    return value


def _str_list(data: dict[str, Any], key: str) -> list[str]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise EntryShapeError(key, f"`{key}` must be a list of strings")
    return list(cast(list[str], value))


def _str_map(data: dict[str, Any], key: str) -> dict[str, str]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise EntryShapeError(key, f"`{key}` must be an object of strings")
    out: dict[str, str] = {}
    for k, v in value.items():
        if isinstance(v, bool) or not isinstance(v, str | int | float):
            raise EntryShapeError(key, f"`{key}.{k}` must be a string")
        # Numbers are accepted (other apps tolerate them) and kept as their JSON text.
        out[str(k)] = v if isinstance(v, str) else str(v)
    return out
