"""A registry entry as plain data, read leniently from the JSON the registry answers.

The shape is the registry's OpenAPI document (`ServerResponse`: `server` = `ServerDetail`, `_meta`
with `io.modelcontextprotocol.registry/official`). A registry is someone else's server: nothing here
raises on odd data. A field of the wrong type is treated as absent, a malformed package or remote
is left out, and every text is cut to a bounded length so a view never receives unbounded text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

OFFICIAL = "io.modelcontextprotocol.registry/official"

MAX_TEXT = 2_000
"""Longest description kept (the schema allows 100 characters; sub-registries may send more)."""
MAX_SHORT = 300
"""Longest name, title, version, URL or other one-line value kept."""
MAX_ITEMS = 64
"""Most packages, remotes, arguments, variables or icons read from one entry."""

Status = Literal["active", "deprecated", "deleted"]
InputFormat = Literal["string", "number", "boolean", "filepath"]


def _str(data: dict[str, Any], key: str, limit: int = MAX_SHORT) -> str | None:
    value = data.get(key)
    if not isinstance(value, str):
        return None
    return value[:limit]


def _bool(data: dict[str, Any], key: str) -> bool:
    return data.get(key) is True


def _dicts(value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        return []
    return [v for v in value[:MAX_ITEMS] if isinstance(v, dict)]


@dataclass(frozen=True)
class Input:
    """An `Input` of the schema: a value the person may be asked for (or a fixed one)."""

    description: str = ""
    is_required: bool = False
    format: InputFormat = "string"
    value: str | None = None
    """Fixed value (not configurable), with `{name}` holes filled from `variables`."""
    is_secret: bool = False
    default: str | None = None
    placeholder: str | None = None
    choices: tuple[str, ...] = ()
    variables: dict[str, Input] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: dict[str, Any], *, nested: bool = False) -> Input:
        fmt = data.get("format")
        choices = data.get("choices")
        variables: dict[str, Input] = {}
        raw_vars = data.get("variables")
        if not nested and isinstance(raw_vars, dict):
            for name, v in list(raw_vars.items())[:MAX_ITEMS]:
                if isinstance(name, str) and isinstance(v, dict):
                    variables[name[:MAX_SHORT]] = Input.from_json(v, nested=True)
        return cls(
            description=_str(data, "description", MAX_TEXT) or "",
            is_required=_bool(data, "isRequired"),
            format=fmt if fmt in ("string", "number", "boolean", "filepath") else "string",
            value=_str(data, "value", MAX_TEXT),
            is_secret=_bool(data, "isSecret"),
            default=_str(data, "default", MAX_TEXT),
            placeholder=_str(data, "placeholder"),
            choices=tuple(c[:MAX_SHORT] for c in choices[:MAX_ITEMS] if isinstance(c, str))
            if isinstance(choices, list)
            else (),
            variables=variables,
        )


@dataclass(frozen=True)
class Argument:
    """A runtime or package argument: `positional` (a value) or `named` (`--flag value`)."""

    type: Literal["positional", "named"]
    input: Input
    name: str | None = None
    """The flag of a named argument, dashes included."""
    value_hint: str | None = None
    is_repeated: bool = False

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Argument | None:
        kind = data.get("type")
        name = _str(data, "name")
        hint = _str(data, "valueHint")
        if kind == "named":
            if not name:
                return None
        elif kind == "positional":
            if hint is None and _str(data, "value") is None:
                return None
        else:
            return None
        return cls(
            type=kind,
            input=Input.from_json(data),
            name=name,
            value_hint=hint,
            is_repeated=_bool(data, "isRepeated"),
        )


@dataclass(frozen=True)
class KeyValue:
    """An environment variable or a header (`KeyValueInput`)."""

    name: str
    input: Input

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> KeyValue | None:
        name = _str(data, "name")
        if not name:
            return None
        return cls(name=name, input=Input.from_json(data))


@dataclass(frozen=True)
class Transport:
    type: str
    """`stdio`, `streamable-http` or `sse`."""
    url: str | None = None
    headers: tuple[KeyValue, ...] = ()
    variables: dict[str, Input] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: Any) -> Transport | None:
        if not isinstance(data, dict):
            return None
        kind = _str(data, "type")
        if kind is None:
            return None
        headers = tuple(h for h in (KeyValue.from_json(d) for d in _dicts(data.get("headers"))) if h)
        variables: dict[str, Input] = {}
        raw = data.get("variables")
        if isinstance(raw, dict):
            for name, v in list(raw.items())[:MAX_ITEMS]:
                if isinstance(name, str) and isinstance(v, dict):
                    variables[name[:MAX_SHORT]] = Input.from_json(v, nested=True)
        return cls(type=kind, url=_str(data, "url", MAX_TEXT), headers=headers, variables=variables)


@dataclass(frozen=True)
class Package:
    registry_type: str
    """`npm`, `pypi`, `oci`, `nuget`, `mcpb` (others are kept, and not offered)."""
    identifier: str
    version: str | None = None
    registry_base_url: str | None = None
    runtime_hint: str | None = None
    transport: Transport = field(default_factory=lambda: Transport("stdio"))
    runtime_arguments: tuple[Argument, ...] = ()
    package_arguments: tuple[Argument, ...] = ()
    environment_variables: tuple[KeyValue, ...] = ()
    file_sha256: str | None = None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Package | None:
        kind = _str(data, "registryType")
        ident = _str(data, "identifier", MAX_TEXT)
        if not kind or not ident:
            return None

        def args(key: str) -> tuple[Argument, ...]:
            return tuple(a for a in (Argument.from_json(d) for d in _dicts(data.get(key))) if a)

        env = tuple(e for e in (KeyValue.from_json(d) for d in _dicts(data.get("environmentVariables"))) if e)
        return cls(
            registry_type=kind.lower(),
            identifier=ident,
            version=_str(data, "version"),
            registry_base_url=_str(data, "registryBaseUrl"),
            runtime_hint=_str(data, "runtimeHint"),
            transport=Transport.from_json(data.get("transport")) or Transport("stdio"),
            runtime_arguments=args("runtimeArguments"),
            package_arguments=args("packageArguments"),
            environment_variables=env,
            file_sha256=_str(data, "fileSha256"),
        )


@dataclass(frozen=True)
class Icon:
    src: str
    mime_type: str | None = None
    sizes: tuple[str, ...] = ()
    theme: str | None = None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Icon | None:
        src = _str(data, "src", 1000)
        if not src:
            return None
        sizes = data.get("sizes")
        return cls(
            src=src,
            mime_type=_str(data, "mimeType"),
            sizes=tuple(s for s in sizes[:MAX_ITEMS] if isinstance(s, str))
            if isinstance(sizes, list)
            else (),
            theme=_str(data, "theme"),
        )


@dataclass(frozen=True)
class RegistryServer:
    """One version of one server, as the registry describes it."""

    name: str
    """Reverse-DNS name, unique in the registry: `io.github.owner/repo`."""
    description: str = ""
    title: str | None = None
    version: str | None = None
    status: str = "active"
    status_message: str | None = None
    is_latest: bool = True
    published_at: str | None = None
    updated_at: str | None = None
    repository_url: str | None = None
    website_url: str | None = None
    icons: tuple[Icon, ...] = ()
    packages: tuple[Package, ...] = ()
    remotes: tuple[Transport, ...] = ()

    @property
    def display_title(self) -> str:
        return self.title or self.name.rsplit("/", 1)[-1]

    @property
    def short_description(self) -> str:
        text = " ".join(self.description.split())
        return text if len(text) <= 140 else text[:139] + "…"

    @classmethod
    def from_response(cls, data: Any) -> RegistryServer | None:
        """A `ServerResponse` (`{"server": {...}, "_meta": {...}}`); None when it has no name."""
        if not isinstance(data, dict):
            return None
        server = data.get("server")
        if not isinstance(server, dict):
            return None
        name = _str(server, "name")
        if not name:
            return None
        meta = data.get("_meta")
        official = meta.get(OFFICIAL) if isinstance(meta, dict) else None
        if not isinstance(official, dict):
            official = {}
        status = official.get("status")
        repo = server.get("repository")
        repository_url = _str(repo, "url", 1000) if isinstance(repo, dict) else None
        return cls(
            name=name,
            description=_str(server, "description", MAX_TEXT) or "",
            title=_str(server, "title"),
            version=_str(server, "version"),
            status=status if isinstance(status, str) else "active",
            status_message=_str(official, "statusMessage", 500),
            is_latest=official.get("isLatest", True) is not False,
            published_at=_str(official, "publishedAt"),
            updated_at=_str(official, "updatedAt"),
            repository_url=repository_url,
            website_url=_str(server, "websiteUrl", 1000),
            icons=tuple(i for i in (Icon.from_json(d) for d in _dicts(server.get("icons"))) if i),
            packages=tuple(p for p in (Package.from_json(d) for d in _dicts(server.get("packages"))) if p),
            remotes=tuple(
                r for r in (Transport.from_json(d) for d in _dicts(server.get("remotes"))) if r and r.url
            ),
        )

    @property
    def runs_locally(self) -> bool:
        """True when the best known way to run it is a program on this computer (no remote)."""
        return not self.remotes and bool(self.packages)
