"""An install plan: a server entry with holes, the questions that fill them, and what to show.

Every source (registry, bundle, install link, snippet) builds an `InstallPlan`; one dialog (and one
CLI prompt) asks its `questions`, then `apply()` gives the entry to add and the secrets to put in
the keyring. A hole is written `${ask:KEY}` anywhere in the entry's strings (command, args, env,
headers, url, cwd). A secret answer becomes a `${secret:NAME}` reference, so the file never holds it.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from app.config.model import ServerEntry
from app.config.refs import is_valid_secret_name, secret_ref

ASK_REF = re.compile(r"\$\{ask:([A-Za-z0-9_.\-]+)\}")

Kind = Literal["string", "number", "boolean", "directory", "file", "choice"]
Source = Literal["registry", "bundle", "link", "snippet"]


def ask_ref(key: str) -> str:
    return "${ask:" + key + "}"


def runtime_kind(command: str | None) -> str | None:
    """What a command needs to run, in `InstallPlan.runtime`'s words ("npx" → "node")."""
    if not command:
        return None
    stem = command.replace("\\", "/").rsplit("/", 1)[-1].lower().removesuffix(".cmd").removesuffix(".exe")
    if stem in ("npx", "node", "npm", "pnpm", "bunx", "yarn"):
        return "node"
    if stem in ("uvx", "uv"):
        return "uv"
    if stem.startswith("python") or stem == "pipx":
        return "python"
    if stem in ("docker", "podman"):
        return "docker"
    return "binary"


@dataclass(frozen=True)
class Question:
    """One value the person gives before the server is added."""

    key: str
    label: str
    description: str = ""
    kind: Kind = "string"
    required: bool = False
    secret: bool = False
    default: str | None = None
    choices: tuple[str, ...] = ()
    multiple: bool = False
    """Several values (a bundle's `multiple`): the answer is a list; in an argument list each
    value becomes its own argument, elsewhere they are joined with the OS path separator."""
    minimum: float | None = None
    maximum: float | None = None
    placeholder: str | None = None
    """What the snippet held in this place (`YOUR_API_KEY_HERE`), shown as a hint, never stored."""
    secret_name: str | None = None
    """The keyring name for a secret answer (default: the key)."""

    def keyring_name(self) -> str:
        name = self.secret_name or self.key
        if is_valid_secret_name(name):
            return name
        return "".join(c if c.isalnum() or c in "_-." else "_" for c in name) or "secret"


@dataclass
class InstallPlan:
    """What will be added, before the person has answered."""

    name: str
    """Suggested server name (the caller makes it unique)."""
    entry: ServerEntry
    questions: list[Question] = field(default_factory=list)
    source: Source = "snippet"
    title: str = ""
    description: str = ""
    version: str | None = None
    author: str | None = None
    repository: str | None = None
    website: str | None = None
    icon: bytes | None = None
    """PNG/JPEG/SVG bytes already fetched by the source (never fetched by a view)."""
    runtime: str | None = None
    """"node", "python", "uv", "docker", "binary" or None: what it needs to run."""
    settings: dict[str, Any] = field(default_factory=dict)
    """Extra `ServerSettings` keys for settings.json (for example a bundle's install folder)."""
    notes: list[str] = field(default_factory=list)
    """Plain sentences to show (a deprecated entry, a signature that does not check out...)."""
    secrets: dict[str, str] = field(default_factory=dict)
    """Secret values the source already holds (a key typed in clear in a pasted snippet), by
    keyring name; they go to the keyring only if this plan is applied."""

    def question(self, key: str) -> Question:
        for q in self.questions:
            if q.key == key:
                return q
        raise KeyError(key)


class MissingAnswer(ValueError):
    def __init__(self, question: Question) -> None:
        super().__init__(f"{question.label or question.key} is required")
        self.question = question


Answer = str | list[str] | bool | float | int | None


@dataclass(frozen=True)
class Applied:
    entry: ServerEntry
    secrets: dict[str, str]
    """keyring name → value, for the entry's server."""


def _text(value: Answer, sep: str) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, list):
        return sep.join(str(v) for v in value)
    return str(value)


def apply(plan: InstallPlan, answers: Mapping[str, Answer], *, path_sep: str = ":") -> Applied:
    """The entry with every `${ask:KEY}` filled in; raises `MissingAnswer` for a required hole left
    empty. An unanswered optional hole in an argument drops that argument (and a `--flag` right
    before it when the hole was its whole value); elsewhere it becomes empty."""
    by_key = {q.key: q for q in plan.questions}
    values: dict[str, Answer] = {}
    for q in plan.questions:
        value = answers.get(q.key, q.default)
        if (value is None or value == "" or value == []) and q.required:
            raise MissingAnswer(q)
        values[q.key] = value
    secrets = dict(plan.secrets)

    def fill(text: str) -> str:
        def repl(m: re.Match[str]) -> str:
            key = m.group(1)
            q = by_key.get(key)
            if q is None:
                return m.group(0)
            value = values.get(key)
            if q.secret and not unset(key):
                name = q.keyring_name()
                secrets[name] = _text(value, path_sep)
                return secret_ref(name)
            return _text(value, path_sep)

        return ASK_REF.sub(repl, text)

    def unset(key: str) -> bool:
        value = values.get(key)
        return value is None or value == "" or value == []

    def empty(text: str) -> bool:
        m = ASK_REF.fullmatch(text)
        return m is not None and m.group(1) in by_key and unset(m.group(1))

    entry = copy.deepcopy(plan.entry)
    args: list[str] = []
    for arg in entry.args:
        m = ASK_REF.fullmatch(arg)
        if m and m.group(1) in by_key:
            q = by_key[m.group(1)]
            value = values.get(q.key)
            if unset(q.key):
                if args and args[-1].startswith("-") and "=" not in args[-1]:
                    args.pop()
                continue
            if q.multiple and isinstance(value, list) and not q.secret:
                args.extend(str(v) for v in value)
                continue
        args.append(fill(arg))
    entry.args = args
    if entry.command:
        entry.command = fill(entry.command)
    if entry.url:
        entry.url = fill(entry.url)
    if entry.cwd:
        entry.cwd = fill(entry.cwd)
    entry.env = {k: fill(v) for k, v in entry.env.items() if not empty(v)}
    entry.headers = {k: fill(v) for k, v in entry.headers.items() if not empty(v)}
    return Applied(entry, secrets)
