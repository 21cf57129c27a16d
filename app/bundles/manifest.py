"""A package's `manifest.json` as plain data.

Read as the spec describes it (modelcontextprotocol/mcpb, MANIFEST.md and its schemas 0.1–0.4):
the version is `manifest_version`, or the older `dxt_version`; `name`, `version`, `author.name` and
`server` (`type`, `entry_point`, `mcp_config`) are required. Unknown keys are ignored (newer
versions add some), a known key of the wrong JSON type is refused with a sentence naming it. Text is
cut to sane lengths: a manifest comes from whoever made the package.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, cast

KNOWN_VERSIONS = ("0.1", "0.2", "0.3", "0.4")
SERVER_TYPES = ("node", "python", "binary", "uv")
CONFIG_TYPES = ("string", "number", "boolean", "directory", "file")
PLATFORMS = ("darwin", "win32", "linux")
KEY = re.compile(r"^[A-Za-z0-9_.\-]+$")
"""A `user_config` key: what an `${ask:KEY}` hole accepts."""

MAX_TEXT = 4_000
MAX_LONG_TEXT = 20_000
MAX_ITEMS = 500

ServerType = Literal["node", "python", "binary", "uv"]
ConfigType = Literal["string", "number", "boolean", "directory", "file"]


class ManifestError(ValueError):
    """The manifest cannot be used; the message says why, in plain words."""


@dataclass(frozen=True)
class McpConfig:
    command: str | None = None
    args: tuple[str, ...] | None = None
    env: dict[str, str] | None = None


@dataclass(frozen=True)
class ConfigOption:
    """One `user_config` entry: a value the person gives at install time."""

    key: str
    type: ConfigType
    title: str
    description: str = ""
    required: bool = False
    default: str | float | bool | tuple[str, ...] | None = None
    multiple: bool = False
    sensitive: bool = False
    minimum: float | None = None
    maximum: float | None = None


@dataclass(frozen=True)
class Declared:
    """A tool or prompt the manifest says the server has."""

    name: str
    description: str = ""


@dataclass(frozen=True)
class Manifest:
    manifest_version: str
    name: str
    version: str
    description: str
    author: str
    server_type: ServerType
    entry_point: str
    mcp_config: McpConfig
    display_name: str | None = None
    long_description: str | None = None
    author_email: str | None = None
    author_url: str | None = None
    repository: str | None = None
    homepage: str | None = None
    documentation: str | None = None
    support: str | None = None
    license: str | None = None
    icon: str | None = None
    icons: tuple[tuple[str, str, str | None], ...] = ()
    """(src, size "WxH", theme) from the 0.3 `icons` list."""
    platform_overrides: dict[str, McpConfig] = field(default_factory=dict)
    tools: tuple[Declared, ...] = ()
    tools_generated: bool = False
    prompts: tuple[Declared, ...] = ()
    prompts_generated: bool = False
    keywords: tuple[str, ...] = ()
    platforms: tuple[str, ...] | None = None
    runtimes: dict[str, str] = field(default_factory=dict)
    """`compatibility.runtimes`: "node"/"python" → a version range (">=16.0.0", ">=3.10,<4")."""
    clients: dict[str, str] = field(default_factory=dict)
    """`compatibility` client constraints (`claude_desktop` …), shown, never enforced."""
    user_config: tuple[ConfigOption, ...] = ()

    @property
    def title(self) -> str:
        return self.display_name or self.name

    @property
    def newer_than_known(self) -> bool:
        return self.manifest_version not in KNOWN_VERSIONS


def _text(data: Mapping[str, Any], key: str, *, where: str = "", limit: int = MAX_TEXT) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ManifestError(f"`{where}{key}` must be text")
    return value[:limit]


def _required(data: Mapping[str, Any], key: str, *, where: str = "") -> str:
    value = _text(data, key, where=where)
    if value is None or not value.strip():
        raise ManifestError(f"`{where}{key}` is missing")
    return value


def _bool(data: Mapping[str, Any], key: str, *, where: str = "") -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise ManifestError(f"`{where}{key}` must be true or false")
    return value


def _number(data: Mapping[str, Any], key: str, *, where: str = "") -> float | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ManifestError(f"`{where}{key}` must be a number")
    return float(value)


def _object(data: Mapping[str, Any], key: str, *, where: str = "") -> dict[str, Any]:
    value = data.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ManifestError(f"`{where}{key}` must be an object")
    return value


def _list(data: Mapping[str, Any], key: str, *, where: str = "") -> list[Any]:
    value = data.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise ManifestError(f"`{where}{key}` must be a list")
    return value[:MAX_ITEMS]


def _strings(values: list[Any], where: str) -> tuple[str, ...]:
    if not all(isinstance(v, str) for v in values):
        raise ManifestError(f"`{where}` must be a list of text")
    return tuple(v[:MAX_TEXT] for v in values)


def _mcp_config(data: Any, where: str) -> McpConfig:
    if not isinstance(data, dict):
        raise ManifestError(f"`{where}` must be an object")
    command = _text(data, "command", where=f"{where}.")
    args = None
    if "args" in data:
        args = _strings(_list(data, "args", where=f"{where}."), f"{where}.args")
    env = None
    if "env" in data:
        raw = _object(data, "env", where=f"{where}.")
        if not all(isinstance(v, str) for v in raw.values()):
            raise ManifestError(f"`{where}.env` values must be text")
        env = {str(k): v[:MAX_TEXT] for k, v in raw.items()}
    return McpConfig(command, args, env)


def _author(data: Mapping[str, Any]) -> tuple[str, str | None, str | None]:
    author = data.get("author")
    if isinstance(author, str):  # seen in the wild; the spec says an object
        if not author.strip():
            raise ManifestError("`author.name` is missing")
        return author[:MAX_TEXT], None, None
    if not isinstance(author, dict):
        raise ManifestError("`author` is missing (an object with a `name`)")
    return (
        _required(author, "name", where="author."),
        _text(author, "email", where="author."),
        _text(author, "url", where="author."),
    )


def _repository(data: Mapping[str, Any]) -> str | None:
    repo = data.get("repository")
    if repo is None:
        return None
    if isinstance(repo, str):
        return repo[:MAX_TEXT]
    if not isinstance(repo, dict):
        raise ManifestError("`repository` must be an object with a `url`")
    return _text(repo, "url", where="repository.")


def _declared(data: Mapping[str, Any], key: str) -> tuple[Declared, ...]:
    out = []
    for i, item in enumerate(_list(data, key)):
        if not isinstance(item, dict):
            raise ManifestError(f"`{key}[{i}]` must be an object")
        name = _required(item, "name", where=f"{key}[{i}].")
        out.append(Declared(name[:200], _text(item, "description", where=f"{key}[{i}].") or ""))
    return tuple(out)


def _option(key: str, data: Any) -> ConfigOption:
    where = f"user_config.{key}."
    if not KEY.match(key):
        raise ManifestError(f"`user_config` key {key[:60]!r} may use only letters, digits, '_', '-' and '.'")
    if not isinstance(data, dict):
        raise ManifestError(f"`user_config.{key}` must be an object")
    kind = data.get("type")
    if kind not in CONFIG_TYPES:
        raise ManifestError(f"`{where}type` must be one of {', '.join(CONFIG_TYPES)}")
    default = data.get("default")
    value: str | float | bool | tuple[str, ...] | None
    if default is None or isinstance(default, str | bool):
        value = default[:MAX_TEXT] if isinstance(default, str) else default
    elif isinstance(default, int | float):
        value = float(default)
    elif isinstance(default, list):
        value = _strings(default, f"{where}default")
    else:
        raise ManifestError(f"`{where}default` must be text, a number, true/false or a list of text")
    return ConfigOption(
        key=key,
        type=cast(ConfigType, kind),
        title=_text(data, "title", where=where) or key,
        description=_text(data, "description", where=where) or "",
        required=_bool(data, "required", where=where),
        default=value,
        multiple=_bool(data, "multiple", where=where),
        sensitive=_bool(data, "sensitive", where=where),
        minimum=_number(data, "min", where=where),
        maximum=_number(data, "max", where=where),
    )


def parse(data: Any) -> Manifest:
    """The manifest from its JSON value; raises `ManifestError`."""
    if not isinstance(data, dict):
        raise ManifestError("manifest.json must hold a JSON object")
    version = data.get("manifest_version", data.get("dxt_version"))
    if not isinstance(version, str) or not version.strip():
        raise ManifestError("`manifest_version` is missing (the package format version, such as 0.3)")
    server = data.get("server")
    if not isinstance(server, dict):
        raise ManifestError("`server` is missing (how to start the server)")
    server_type = server.get("type")
    if server_type not in SERVER_TYPES:
        raise ManifestError(f"`server.type` must be one of {', '.join(SERVER_TYPES)}")
    raw_config = server.get("mcp_config")
    overrides: dict[str, McpConfig] = {}
    if raw_config is None:
        if server_type != "uv":  # 0.4's uv servers may leave it to the host
            raise ManifestError("`server.mcp_config` is missing (the command that starts the server)")
        config = McpConfig()
    else:
        config = _mcp_config(raw_config, "server.mcp_config")
        raw_overrides = _object(raw_config, "platform_overrides", where="server.mcp_config.")
        for platform, value in raw_overrides.items():
            overrides[str(platform)] = _mcp_config(value, f"server.mcp_config.platform_overrides.{platform}")
        if config.command is None and server_type != "uv":
            raise ManifestError("`server.mcp_config.command` is missing")
    author, email, url = _author(data)
    compat = _object(data, "compatibility")
    platforms = None
    if "platforms" in compat:
        platforms = _strings(_list(compat, "platforms", where="compatibility."), "compatibility.platforms")
    runtimes_raw = _object(compat, "runtimes", where="compatibility.")
    runtimes = {str(k): v[:200] for k, v in runtimes_raw.items() if isinstance(v, str)}
    clients = {
        str(k): v[:200]
        for k, v in compat.items()
        if k not in ("platforms", "runtimes") and isinstance(v, str)
    }
    icons = []
    for i, item in enumerate(_list(data, "icons")):
        if isinstance(item, dict) and isinstance(item.get("src"), str):
            size = item.get("size")
            theme = item.get("theme")
            icons.append(
                (
                    item["src"][:MAX_TEXT],
                    size if isinstance(size, str) else "",
                    theme if isinstance(theme, str) else None,
                )
            )
        else:
            raise ManifestError(f"`icons[{i}]` must be an object with a `src`")
    options = tuple(_option(str(k), v) for k, v in list(_object(data, "user_config").items())[:MAX_ITEMS])
    return Manifest(
        manifest_version=version.strip(),
        name=_required(data, "name")[:200],
        version=_required(data, "version")[:100],
        description=_text(data, "description") or "",
        author=author,
        author_email=email,
        author_url=url,
        server_type=cast(ServerType, server_type),
        entry_point=_text(server, "entry_point", where="server.") or "",
        mcp_config=config,
        platform_overrides=overrides,
        display_name=_text(data, "display_name"),
        long_description=_text(data, "long_description", limit=MAX_LONG_TEXT),
        repository=_repository(data),
        homepage=_text(data, "homepage"),
        documentation=_text(data, "documentation"),
        support=_text(data, "support"),
        license=_text(data, "license"),
        icon=_text(data, "icon"),
        icons=tuple(icons),
        tools=_declared(data, "tools"),
        tools_generated=_bool(data, "tools_generated"),
        prompts=_declared(data, "prompts"),
        prompts_generated=_bool(data, "prompts_generated"),
        keywords=_strings(_list(data, "keywords"), "keywords"),
        platforms=platforms,
        runtimes=runtimes,
        clients=clients,
        user_config=options,
    )
