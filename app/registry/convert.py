"""A directory entry → an `InstallPlan`: the server entry with `${ask:KEY}` holes and its questions.

Each package or remote of an entry is one *way* to run it:

    npm     npx -y ID@VERSION [package arguments]                    (Node.js)
    pypi    uvx ID==VERSION [package arguments]                      (uv)
    oci     docker run -i --rm [runtime args] [-e NAME …] IMAGE[:VERSION] [package arguments]
    nuget   dnx ID@VERSION --yes [-- package arguments]             (.NET 10 SDK)
    remote  an `http` (streamable-http) or `sse` entry: URL and headers with `{var}` filled

`environmentVariables`, arguments without a fixed value, and `{var}` templates with `variables`
become questions (required, default, choices, `isSecret` → a secret kept in the keychain, masked).
A value the entry fixes is used as it is; a `{name}` with no variable of that name stays as it is
(the schema says so).

Which way is picked first (`best_way`): a remote (nothing to install, nothing runs here), the
streamable-http one before SSE; then npm and PyPI, which always run here with the built-in Node.js
and uv; then Docker images and .NET tools, which need a program this computer may not have (ranked
lower still when it is not found). The browser lets the person choose another way. `mcpb` packages
are installed as a server package (.mcpb) file, and a package that starts its own web server is
not offered: MCP Desk runs either a program or a URL, not both at once.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from app.config.model import ServerEntry
from app.install.plan import InstallPlan, Kind, Question, ask_ref
from app.registry.client import status_note
from app.registry.model import Argument, Input, KeyValue, Package, RegistryServer, Transport
from app.words import QT_TRANSLATE_NOOP, fill

WayKind = Literal["remote", "npm", "pypi", "oci", "nuget", "mcpb", "other"]

_TEMPLATE = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_KEY_CHARS = re.compile(r"[^A-Za-z0-9_.\-]+")


class CannotAdd(ValueError):
    """This way of running the entry cannot be added here; the message says why."""


@dataclass(frozen=True)
class Way:
    kind: WayKind
    index: int
    """Index into the entry's `remotes` (kind "remote") or `packages` (the others)."""
    label: str
    """Plain English for a chooser: "runs on the internet (https://…)", "npm package X 1.2"."""
    local: bool
    runtime: str | None
    """"node", "uv", "docker", "dotnet" or None (remote)."""
    problem: str | None = None
    """Why it cannot be added here (None: it can)."""
    available: bool = True
    """Whether the program it needs was found (always true for Node.js and uv: built in)."""


def program_available(command: str) -> bool:
    """Whether `command` (npx, uvx, docker, dnx) can be run here; cheap, safe off the GUI thread.
    npx and uvx always can: MCP Desk has its own Node.js and uv when the person has none."""
    from app.runtimes.private import private_node, private_uv

    if command == "npx" and private_node() is not None:
        return True
    if command == "uvx" and private_uv() is not None:
        return True
    return shutil.which(command) is not None


# The ways' labels and problems, as templates (%1: the package, %2: its version or nothing, %3:
# the kind of package); the window translates them back (app.ui.i18n.translate_reason).
STARTS_WEB_SERVER = QT_TRANSLATE_NOOP("Reasons", "%3 package %1%2 (starts a web server)")
STARTS_WEB_SERVER_PROBLEM = QT_TRANSLATE_NOOP(
    "Reasons",
    "this package starts its own web server on this computer, which MCP Desk cannot run yet; "
    "choose another way if there is one",
)
NPM_PACKAGE = QT_TRANSLATE_NOOP("Reasons", "npm package %1%2")
PYTHON_PACKAGE = QT_TRANSLATE_NOOP("Reasons", "Python package %1%2")
DOCKER_IMAGE = QT_TRANSLATE_NOOP("Reasons", "Docker image %1%2")
DOTNET_TOOL = QT_TRANSLATE_NOOP("Reasons", ".NET tool %1%2")
MCPB_PACKAGE = QT_TRANSLATE_NOOP("Reasons", "server package (.mcpb) %1")
MCPB_PROBLEM = QT_TRANSLATE_NOOP(
    "Reasons",
    "this is a server package (.mcpb): download it and open it with "
    "Servers → Install a server package (.mcpb)…",
)
OTHER_PACKAGE = QT_TRANSLATE_NOOP("Reasons", "%3 package %1%2")
CANNOT_INSTALL_KIND = QT_TRANSLATE_NOOP("Reasons", "MCP Desk cannot install %1 packages")
ON_THE_INTERNET = QT_TRANSLATE_NOOP("Reasons", "runs on the internet (%1)")
NEITHER_WHERE_NOR_HOW = QT_TRANSLATE_NOOP(
    "Reasons", "this entry of the server directory says neither where it runs nor how to install it"
)

TEMPLATES: tuple[str, ...] = (
    # The specific first: "npm package %1%2" before "%3 package %1%2".
    STARTS_WEB_SERVER,
    STARTS_WEB_SERVER_PROBLEM,
    NPM_PACKAGE,
    PYTHON_PACKAGE,
    DOCKER_IMAGE,
    DOTNET_TOOL,
    MCPB_PACKAGE,
    MCPB_PROBLEM,
    OTHER_PACKAGE,
    CANNOT_INSTALL_KIND,
    ON_THE_INTERNET,
    NEITHER_WHERE_NOR_HOW,
)
"""Every label and problem of a way (app.ui.i18n.translate_reason)."""


def _package_way(pkg: Package, index: int, have: Callable[[str], bool]) -> Way:
    version = f" {pkg.version}" if pkg.version else ""
    kind = pkg.registry_type
    ident = pkg.identifier
    if pkg.transport.type not in ("stdio", ""):
        return Way(
            "other",
            index,
            fill(STARTS_WEB_SERVER, ident, version, kind),
            True,
            None,
            problem=STARTS_WEB_SERVER_PROBLEM,
        )
    if kind == "npm":
        return Way("npm", index, fill(NPM_PACKAGE, ident, version), True, "node", available=have("npx"))
    if kind == "pypi":
        return Way("pypi", index, fill(PYTHON_PACKAGE, ident, version), True, "uv", available=have("uvx"))
    if kind == "oci":
        return Way("oci", index, fill(DOCKER_IMAGE, ident, version), True, "docker", available=have("docker"))
    if kind == "nuget":
        return Way("nuget", index, fill(DOTNET_TOOL, ident, version), True, "dotnet", available=have("dnx"))
    if kind == "mcpb":
        return Way("mcpb", index, fill(MCPB_PACKAGE, ident), True, None, problem=MCPB_PROBLEM)
    return Way(
        "other",
        index,
        fill(OTHER_PACKAGE, ident, version, kind),
        True,
        None,
        problem=fill(CANNOT_INSTALL_KIND, kind),
    )


def ways(server: RegistryServer, have: Callable[[str], bool] | None = None) -> list[Way]:
    """Every way to run `server`, best first."""
    check = have or program_available
    out: list[tuple[int, Way]] = []
    for i, remote in enumerate(server.remotes):
        if remote.type not in ("streamable-http", "sse"):
            continue
        label = fill(ON_THE_INTERNET, remote.url)
        out.append((0 if remote.type == "streamable-http" else 1, Way("remote", i, label, False, None)))
    rank = {"npm": 2, "pypi": 3, "oci": 4, "nuget": 5}
    for i, pkg in enumerate(server.packages):
        way = _package_way(pkg, i, check)
        score = rank.get(way.kind, 20)
        if not way.available:
            score += 10
        if way.problem is not None:
            score = 30
        out.append((score, way))
    out.sort(key=lambda sw: sw[0])  # stable: the entry's own order among equals
    return [w for _, w in out]


def best_way(server: RegistryServer, have: Callable[[str], bool] | None = None) -> Way | None:
    """The way a plan uses when the person did not choose; None when the entry has none."""
    found = ways(server, have)
    usable = [w for w in found if w.problem is None]
    return (usable or found)[0] if found else None


def suggest_name(server: RegistryServer) -> str:
    """A server name for the list: the last part of the directory name, tidied."""
    tail = server.name.rsplit("/", 1)[-1].strip().lower()
    name = re.sub(r"[^a-z0-9._-]+", "-", tail).strip("-.") or "server"
    return name[:60]


class _Questions:
    """Collects questions; each key appears once (a second input asking for the same key reuses it)."""

    def __init__(self) -> None:
        self.items: list[Question] = []
        self._keys: dict[str, Question] = {}

    def hole(self, wanted: str, label: str, inp: Input, *, multiple: bool = False) -> str:
        key = _KEY_CHARS.sub("_", wanted).strip("_.-") or "value"
        existing = self._keys.get(key)
        if existing is not None:
            return ask_ref(existing.key)
        kind: Kind = "string"
        if inp.choices:
            kind = "choice"
        elif inp.format == "number":
            kind = "number"
        elif inp.format == "boolean":
            kind = "boolean"
        elif inp.format == "filepath":
            words = f"{label} {inp.description}".lower()
            kind = "directory" if any(w in words for w in ("dir", "folder")) else "file"
        # A short description reads better than a variable's name ("Your notes API key" rather
        # than "api_key"); a long one stays the help text under the field.
        text = " ".join(inp.description.split())
        short = text.rstrip(".") if 0 < len(text) <= 48 else ""
        q = Question(
            key=key,
            label=short or label,
            description="" if short else text,
            kind=kind,
            required=inp.is_required,
            secret=inp.is_secret,
            default=inp.default,
            choices=inp.choices,
            multiple=multiple,
            placeholder=inp.placeholder,
        )
        self.items.append(q)
        self._keys[key] = q
        return ask_ref(key)

    def value(self, label: str, inp: Input, *, key: str, multiple: bool = False) -> str:
        """The text for this input: its fixed value (templates filled), or a hole to ask."""
        if inp.value is None:
            return self.hole(key, label, inp, multiple=multiple)
        return self.template(inp.value, inp.variables)

    def template(self, text: str, variables: dict[str, Input]) -> str:
        def repl(m: re.Match[str]) -> str:
            var = variables.get(m.group(1))
            if var is None:
                return m.group(0)  # no such variable: left unchanged, as the schema says
            return self.hole(m.group(1), m.group(1), var)

        return _TEMPLATE.sub(repl, text)


def _arg_key(arg: Argument) -> str:
    if arg.value_hint:
        return arg.value_hint
    return (arg.name or "value").lstrip("-")


def _args(arguments: tuple[Argument, ...], qs: _Questions) -> list[str]:
    out: list[str] = []
    for arg in arguments:
        label = arg.value_hint or arg.name or "value"
        if arg.type == "positional":
            out.append(qs.value(label, arg.input, key=_arg_key(arg), multiple=arg.is_repeated))
        else:
            assert arg.name is not None
            out.append(arg.name)
            out.append(qs.value(arg.name.lstrip("-"), arg.input, key=_arg_key(arg)))
    return out


def _env(variables: tuple[KeyValue, ...], qs: _Questions) -> dict[str, str]:
    return {kv.name: qs.value(kv.name, kv.input, key=kv.name) for kv in variables}


def _image(pkg: Package) -> str:
    image = pkg.identifier
    last = image.rsplit("/", 1)[-1]
    if pkg.version and ":" not in last and "@" not in last:
        image = f"{image}:{pkg.version}"
    base = (pkg.registry_base_url or "").removeprefix("https://").removeprefix("http://").rstrip("/")
    first = image.split("/", 1)[0]
    has_host = "/" in image and ("." in first or ":" in first or first == "localhost")
    if base and base not in ("docker.io", "registry-1.docker.io", "index.docker.io") and not has_host:
        image = f"{base}/{image}"
    return image


def _package_entry(name: str, pkg: Package, qs: _Questions) -> ServerEntry:
    runtime_args = _args(pkg.runtime_arguments, qs)
    package_args = _args(pkg.package_arguments, qs)
    env = _env(pkg.environment_variables, qs)
    kind = pkg.registry_type
    if kind == "npm":
        spec = f"{pkg.identifier}@{pkg.version}" if pkg.version else pkg.identifier
        return ServerEntry(name=name, command="npx", args=["-y", *runtime_args, spec, *package_args], env=env)
    if kind == "pypi":
        spec = f"{pkg.identifier}=={pkg.version}" if pkg.version else pkg.identifier
        return ServerEntry(name=name, command="uvx", args=[*runtime_args, spec, *package_args], env=env)
    if kind == "oci":
        # The container sees only what is passed: each variable by name, its value from our env.
        passed = [part for var in env for part in ("-e", var)]
        args = ["run", "-i", "--rm", *runtime_args, *passed, _image(pkg), *package_args]
        return ServerEntry(name=name, command="docker", args=args, env=env)
    if kind == "nuget":
        spec = f"{pkg.identifier}@{pkg.version}" if pkg.version else pkg.identifier
        tail = ["--", *package_args] if package_args else []
        return ServerEntry(name=name, command="dnx", args=[*runtime_args, spec, "--yes", *tail], env=env)
    raise CannotAdd(fill(CANNOT_INSTALL_KIND, kind))


def _remote_entry(name: str, remote: Transport, qs: _Questions) -> ServerEntry:
    assert remote.url is not None
    url = qs.template(remote.url, remote.variables)
    headers = {h.name: qs.value(h.name, h.input, key=h.name) for h in remote.headers}
    return ServerEntry(
        name=name, transport="http" if remote.type == "streamable-http" else "sse", url=url, headers=headers
    )


def to_plan(
    server: RegistryServer,
    way: Way | None = None,
    *,
    icon: bytes | None = None,
    have: Callable[[str], bool] | None = None,
) -> InstallPlan:
    """The plan for `server` run the given way (default: `best_way`). Raises `CannotAdd`."""
    way = way or best_way(server, have)
    if way is None:
        raise CannotAdd(NEITHER_WHERE_NOR_HOW)
    if way.problem is not None:
        raise CannotAdd(way.problem)
    name = suggest_name(server)
    qs = _Questions()
    notes: list[str] = []
    if way.kind == "remote":
        entry = _remote_entry(name, server.remotes[way.index], qs)
        runtime = None
    else:
        entry = _package_entry(name, server.packages[way.index], qs)
        runtime = {"node": "node", "uv": "uv", "docker": "docker"}.get(way.runtime or "", "binary")
        if not way.available:
            program = {"docker": "Docker", "dotnet": "the .NET 10 SDK (dnx)"}.get(
                way.runtime or "", way.runtime
            )
            notes.append(f"This server needs {program}, which was not found on this computer.")
    note = status_note(server)
    if note:
        notes.append(note)
    return InstallPlan(
        name=name,
        entry=entry,
        questions=qs.items,
        source="registry",
        title=server.display_title,
        description=server.description,
        version=server.version,
        repository=server.repository_url,
        website=server.website_url,
        icon=icon,
        runtime=runtime,
        settings={"registry": {"name": server.name, "version": server.version}},
        notes=notes,
    )
