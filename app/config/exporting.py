"""Export the server list for Claude Desktop / Cursor or for VS Code.

Claude format keeps `${secret:NAME}` references unless the caller passes a `reveal` function
(the CLI does only with `--include-secrets`). VS Code format turns each reference into a
password input, so VS Code asks for the value and keeps it in its own secret storage.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from app.config.refs import SECRET_REF, substitute_secrets
from app.config.store import ConfigStore

Reveal = Callable[[str, str], str | None]  # (server, secret name) -> value


def export_claude(store: ConfigStore, reveal: Reveal | None = None) -> tuple[dict[str, Any], list[str]]:
    """`{"mcpServers": ...}`; with `reveal`, references are replaced by the secret values."""
    warnings: list[str] = []
    servers: dict[str, Any] = {}
    for entry in store.entries:
        data = entry.to_json()
        if reveal is not None:
            for key in ("env", "headers"):
                if isinstance(data.get(key), dict):
                    data[key] = {k: _reveal(entry.name, v, reveal, warnings) for k, v in data[key].items()}
            if isinstance(data.get("args"), list):
                data["args"] = [_reveal(entry.name, a, reveal, warnings) for a in data["args"]]
            if isinstance(data.get("url"), str):
                data["url"] = _reveal(entry.name, data["url"], reveal, warnings)
        servers[entry.name] = data
    return {"mcpServers": servers}, warnings


def _reveal(server: str, value: str, reveal: Reveal, warnings: list[str]) -> str:
    def lookup(name: str) -> str:
        got = reveal(server, name)
        if got is None:
            warnings.append(f"{server!r}: secret {name!r} is not set; kept as a reference")
            return "${secret:" + name + "}"
        return got

    return substitute_secrets(value, lookup)


def _input_id(server: str, name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "-", f"{server}-{name}")


def export_vscode(store: ConfigStore) -> tuple[dict[str, Any], list[str]]:
    """`{"inputs": [...], "servers": {...}}`; each secret becomes a `password: true` input."""
    warnings: list[str] = []
    inputs: dict[str, dict[str, Any]] = {}
    servers: dict[str, Any] = {}
    for entry in store.entries:
        if entry.disabled:
            warnings.append(f"{entry.name!r} is disabled and VS Code has no such setting; left out")
            continue
        data = entry.to_json()
        data.pop("disabled", None)
        data = {"type": entry.transport, **{k: v for k, v in data.items() if k != "type"}}

        def to_input(match: re.Match[str], server: str = entry.name) -> str:
            name = match.group(1)
            input_id = _input_id(server, name)
            inputs.setdefault(
                input_id,
                {
                    "type": "promptString",
                    "id": input_id,
                    "description": f"{name} for {server}",
                    "password": True,
                },
            )
            return "${input:" + input_id + "}"

        for key in ("env", "headers"):
            if isinstance(data.get(key), dict):
                data[key] = {k: SECRET_REF.sub(to_input, v) for k, v in data[key].items()}
        if isinstance(data.get("args"), list):
            data["args"] = [SECRET_REF.sub(to_input, a) for a in data["args"]]
        if isinstance(data.get("url"), str):
            data["url"] = SECRET_REF.sub(to_input, data["url"])
        servers[entry.name] = data
    return {"inputs": list(inputs.values()), "servers": servers}, warnings
