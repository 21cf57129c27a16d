"""The catalog of one server: tools, resources, resource templates and prompts, as plain objects.

Entries are built from the wire dicts (`raw`, exactly as listed), so nothing a server sends is
lost even when this module does not know a field. Diffs compare the whole entry as the server
sent it: a new title, icon, `_meta`, `execution` or annotation (a tool turning `destructiveHint`
on) is a change as much as a new schema is, so the open panel and its confirmation follow it.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.mcp.deep import UNUSABLE
from app.mcp.events import CatalogDiff, CatalogKind
from app.mcp.tasks import task_support


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)


def _unusable(schema: Any) -> str | None:
    """The reason in a placeholder schema put in place of one that could not be read (app.mcp.deep)."""
    reason = schema.get(UNUSABLE) if isinstance(schema, dict) else None
    return reason if isinstance(reason, str) else None


def _described(raw: dict[str, Any]) -> dict[str, Any]:
    """The fields resources, templates and prompts all read the same way from the wire."""
    return {
        "name": str(raw.get("name", "")),
        "title": raw.get("title"),
        "description": raw.get("description"),
        "raw": raw,
    }


@dataclass(frozen=True, eq=False)
class ToolInfo:
    name: str
    title: str | None
    description: str | None
    input_schema: dict[str, Any]
    output_schema: dict[str, Any] | None
    annotations: dict[str, Any] | None
    icons: list[dict[str, Any]]
    raw: dict[str, Any] = field(repr=False)
    problem: str | None = None
    """Why the tool cannot be used as listed (e.g. its input description nests too deeply)."""
    runnable: bool = True
    """False when `problem` is about the input: no form can be made, so it is not run."""
    listed: int = 1
    """How many entries of the listing had this name: more than one is the server's mistake (the
    first is kept, and the duplicates are reported)."""
    task_support: str = field(init=False, repr=False)
    """2025-11-25 `execution.taskSupport` as app.mcp.tasks.task_support reads it from `raw`
    ("forbidden", "optional", "required"), read once: a call asks the task rule only of a tool
    that may run as a task."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "task_support", task_support(self.raw))

    @classmethod
    def from_raw(cls, raw: dict[str, Any]) -> ToolInfo:
        annotations = raw.get("annotations")
        title = raw.get("title") or (annotations or {}).get("title")
        input_schema = raw.get("inputSchema") or {"type": "object"}
        output_schema = raw.get("outputSchema")
        problems = [_unusable(input_schema), _unusable(output_schema)]
        if problems[1]:
            output_schema = None  # answers are not checked against a schema we could not read
        return cls(
            name=str(raw.get("name", "")),
            title=title if isinstance(title, str) else None,
            description=raw.get("description"),
            input_schema=input_schema,
            output_schema=output_schema,
            annotations=annotations,
            icons=list(raw.get("icons") or []),
            raw=raw,
            problem="; ".join(p for p in problems if p) or None,
            runnable=problems[0] is None,
        )

    @property
    def display_name(self) -> str:
        return self.title or self.name

    def signature(self) -> str:
        """What makes a tool look like a renamed other one (description and schemas)."""
        return _canonical([self.description, self.input_schema, self.output_schema])


@dataclass(frozen=True, eq=False)
class ResourceInfo:
    uri: str
    name: str
    title: str | None
    description: str | None
    mime_type: str | None
    raw: dict[str, Any] = field(repr=False)
    listed: int = 1

    @classmethod
    def from_raw(cls, raw: dict[str, Any]) -> ResourceInfo:
        return cls(uri=str(raw.get("uri", "")), mime_type=raw.get("mimeType"), **_described(raw))


@dataclass(frozen=True, eq=False)
class ResourceTemplateInfo:
    uri_template: str
    name: str
    title: str | None
    description: str | None
    mime_type: str | None
    raw: dict[str, Any] = field(repr=False)
    listed: int = 1

    @classmethod
    def from_raw(cls, raw: dict[str, Any]) -> ResourceTemplateInfo:
        return cls(
            uri_template=str(raw.get("uriTemplate", "")),
            mime_type=raw.get("mimeType"),
            **_described(raw),
        )


@dataclass(frozen=True, eq=False)
class PromptInfo:
    name: str
    title: str | None
    description: str | None
    arguments: list[dict[str, Any]]
    raw: dict[str, Any] = field(repr=False)
    listed: int = 1

    @classmethod
    def from_raw(cls, raw: dict[str, Any]) -> PromptInfo:
        return cls(arguments=list(raw.get("arguments") or []), **_described(raw))


CatalogEntry = ToolInfo | ResourceInfo | ResourceTemplateInfo | PromptInfo


def entry_key(kind: CatalogKind, entry: CatalogEntry) -> str:
    """The name an entry is known by in its list (resources by URI, templates by URI template)."""
    if isinstance(entry, ResourceInfo):
        return entry.uri
    if isinstance(entry, ResourceTemplateInfo):
        return entry.uri_template
    return entry.name


def add_entry(entries: dict[str, CatalogEntry], kind: CatalogKind, raw: dict[str, Any]) -> None:
    """Add one listed entry; a name listed again (on this page or another) is counted in the
    first entry's `listed`, not silently put in its place."""
    entry = build_entry(kind, raw)
    key = entry_key(kind, entry)
    first = entries.get(key)
    entries[key] = entry if first is None else dataclasses.replace(first, listed=first.listed + 1)


def duplicates(entries: Mapping[str, CatalogEntry]) -> dict[str, int]:
    """Names listed more than once, with how many times."""
    return {key: e.listed for key, e in entries.items() if e.listed > 1}


def build_entry(kind: CatalogKind, raw: dict[str, Any]) -> CatalogEntry:
    if kind == "tools":
        return ToolInfo.from_raw(raw)
    if kind == "resources":
        return ResourceInfo.from_raw(raw)
    if kind == "resource_templates":
        return ResourceTemplateInfo.from_raw(raw)
    return PromptInfo.from_raw(raw)


def diff_entries(old: Mapping[str, CatalogEntry], new: Mapping[str, CatalogEntry]) -> CatalogDiff:
    added = tuple(k for k in new if k not in old)
    removed = tuple(k for k in old if k not in new)
    # Every field counts (safety hints, title, icons, _meta...): the wire dicts are compared whole,
    # deeply and in C; key order does not matter to dict equality.
    changed = tuple(
        k for k in new if k in old and (old[k].raw != new[k].raw or old[k].listed != new[k].listed)
    )
    return CatalogDiff(added=added, removed=removed, changed=changed)


@dataclass
class Catalog:
    """The last complete listing of each kind (insertion order = server order)."""

    tools: dict[str, ToolInfo] = field(default_factory=dict)
    resources: dict[str, ResourceInfo] = field(default_factory=dict)
    resource_templates: dict[str, ResourceTemplateInfo] = field(default_factory=dict)
    prompts: dict[str, PromptInfo] = field(default_factory=dict)

    def of(self, kind: CatalogKind) -> dict[str, Any]:
        mapping: dict[str, Any] = getattr(self, kind)
        return mapping

    def replace(self, kind: CatalogKind, entries: dict[str, Any]) -> CatalogDiff:
        """Install a fresh listing and return what changed."""
        diff = diff_entries(self.of(kind), entries)
        setattr(self, kind, entries)
        return diff

    def clear(self) -> None:
        self.tools, self.resources, self.resource_templates, self.prompts = {}, {}, {}, {}
