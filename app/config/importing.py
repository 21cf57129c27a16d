"""Import server definitions from Claude Desktop, Cursor, VS Code and MCP Inspector files, and
from README snippets of any client's shape (app.config.snippets parses those).

The four formats share the entry shape; they differ in the wrapper (`mcpServers` or VS Code's
`servers` + `inputs`), in the `type` spellings, and in `${...}` variables. Secret values found on
the way (VS Code password inputs, env names like *_TOKEN, `Authorization` headers) go to the
keyring through a `SecretSink`; the server list only keeps `${secret:NAME}` references.

Config does not import the secrets package (they are siblings): the caller passes the sink.
"""

from __future__ import annotations

import contextlib
import copy
import os
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from app.config.errors import ConfigError
from app.config.jsonc import load_jsonc
from app.config.model import EntryShapeError, ServerEntry
from app.config.refs import ENV_REF, expand_env, secret_ref
from app.config.secret_names import is_secret_name
from app.config.store import ConfigStore

if TYPE_CHECKING:
    from app.config.snippets import Snippet
    from app.install.plan import Applied, Question

Format = Literal["claude", "cursor", "vscode", "inspector"]
FORMATS: tuple[Format, ...] = ("claude", "cursor", "vscode", "inspector")

INPUT_REF = re.compile(r"\$\{input:([^}]+)\}")


@dataclass(frozen=True)
class ImportInput:
    """A VS Code `inputs` item the user is asked for (once, however many servers use it)."""

    id: str
    description: str = ""
    password: bool = False
    default: str | None = None


Ask = Callable[[ImportInput], str | None]


class SecretSink(Protocol):
    """What import needs from the secret store (`app.secrets.store.SecretStore` fits)."""

    def check_available(self) -> None: ...
    def set(self, server: str, name: str, value: str) -> None: ...
    def delete(self, server: str, name: str) -> bool: ...


class SecretExtractor(Protocol):
    def __call__(self, entry: ServerEntry, *, detect: bool, taken: set[str]) -> dict[str, str]: ...


@dataclass
class ImportedServer:
    original_name: str
    entry: ServerEntry
    secrets: dict[str, str] = field(default_factory=dict, repr=False)
    questions: list[Question] = field(default_factory=list)
    """What to ask before adding it (example values of a snippet, as `${ask:KEY}` holes)."""


@dataclass(frozen=True)
class SkippedServer:
    """A server of the file that was not imported, and why (never a secret value)."""

    original_name: str
    reason: str
    needs_keychain: bool = False  # its secrets could not be stored: a keychain would fix it


@dataclass
class ImportResult:
    format: Format
    servers: list[ImportedServer] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    skipped: list[SkippedServer] = field(default_factory=list)

    @property
    def added(self) -> list[tuple[str, str]]:
        """(name in the file, name given here) per server; they differ after a clash."""
        return [(s.original_name, s.entry.name) for s in self.servers]

    @property
    def secret_names(self) -> list[tuple[str, str]]:
        return [(s.entry.name, n) for s in self.servers for n in sorted(s.secrets)]


def detect_format(data: Any, path: Path | None = None) -> Format:
    """Guess the file's format from its shape (and, for Claude vs Cursor, its name)."""
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    if isinstance(data.get("servers"), dict) or (
        isinstance(data.get("mcp"), dict) and isinstance(data["mcp"].get("servers"), dict)
    ):
        return "vscode"
    servers = data.get("mcpServers")
    if not isinstance(servers, dict):
        if "command" in data or "url" in data:
            return "inspector"  # the Inspector's single "server entry" copy
        raise ValueError("no `mcpServers` or `servers` object found")
    entries = [e for e in servers.values() if isinstance(e, dict)]
    name = path.name.lower() if path else ""
    if "claude" in name:
        return "claude"
    if (
        entries
        and all("type" in e for e in entries)
        and any(str(e.get("type")).lower() in ("streamable-http", "stdio", "sse") for e in entries)
    ):
        return "inspector"
    if "cursor" in str(path or "").lower() or any("url" in e for e in entries):
        return "cursor"
    return "claude"


def read_import_file(
    path: Path,
    format: Format | Literal["auto"] = "auto",
    *,
    ask: Ask | None = None,
    environ: Mapping[str, str] | None = None,
    extract: SecretExtractor | None = None,
    detect_secrets: bool = True,
) -> ImportResult:
    """Parse `path` into entries (names not yet made unique) with their secret values.

    A file that is none of the four formats is read as a README snippet (any client's shape)."""
    from app.config.snippets import SnippetError, parse_snippet

    try:
        data = load_jsonc(path)
    except UnicodeDecodeError as exc:
        raise ConfigError(path, f"not UTF-8 text ({exc.reason})") from None
    except ConfigError as exc:
        if format != "auto":
            raise
        try:
            snippet = parse_snippet(path.read_text(encoding="utf-8-sig"))
        except SnippetError:
            raise exc from None
        return read_snippet_servers(
            snippet, ask=ask, environ=environ, extract=extract, detect_secrets=detect_secrets
        )
    if not isinstance(data, dict) and format == "auto":
        with contextlib.suppress(SnippetError):  # a list of entries (Continue's shape)
            return read_snippet_servers(
                parse_snippet(path.read_text(encoding="utf-8-sig")),
                ask=ask,
                environ=environ,
                extract=extract,
                detect_secrets=detect_secrets,
            )
    if not isinstance(data, dict):
        raise ConfigError(path, "not a server list: the top level is not a JSON object", 1, 1)
    try:
        fmt: Format = detect_format(data, path) if format == "auto" else format
    except ValueError as exc:
        try:
            snippet = parse_snippet(path.read_text(encoding="utf-8-sig"))
        except SnippetError:
            raise ConfigError(path, f"not a server list this app knows: {exc}") from None
        return read_snippet_servers(
            snippet, ask=ask, environ=environ, extract=extract, detect_secrets=detect_secrets
        )

    result = ImportResult(format=fmt)
    if fmt == "vscode":
        root = data["mcp"] if "servers" not in data and isinstance(data.get("mcp"), dict) else data
        servers = root.get("servers")
        inputs = {i.id: i for i in _parse_inputs(path, root.get("inputs", []))}
    else:
        servers = data.get("mcpServers")
        if servers is None and ("command" in data or "url" in data):
            servers = {path.stem: data}
        inputs = {}
    if not isinstance(servers, dict):
        raise ConfigError(path, f"no server list found for format {fmt!r}")
    _read_servers(
        servers, inputs, result, ask=ask, environ=environ, extract=extract, detect_secrets=detect_secrets
    )
    return result


def read_snippet_servers(
    snippet: Snippet,
    *,
    ask: Ask | None = None,
    environ: Mapping[str, str] | None = None,
    extract: SecretExtractor | None = None,
    detect_secrets: bool = True,
    holes: bool = False,
) -> ImportResult:
    """The servers of a parsed README snippet, as `read_import_file` gives a file's.

    With `holes`, example values (`YOUR_API_KEY`, `/path/to/dir`) and VS Code inputs become
    `${ask:KEY}` holes with their questions (`ImportedServer.questions`) instead of being asked
    through `ask` or stored as they are."""
    fmt: Format = "vscode" if snippet.shape == "servers" else "claude"
    result = ImportResult(format=fmt)
    inputs = {i.id: i for i in _parse_inputs(Path("snippet"), snippet.inputs)} if snippet.inputs else {}
    servers: dict[str, Any] = snippet.servers
    input_questions: dict[str, Question] = {}
    if holes and inputs:
        servers = {name: _inputs_to_holes(raw, inputs, input_questions) for name, raw in servers.items()}
        inputs = {}
    _read_servers(
        servers,
        inputs,
        result,
        ask=ask,
        environ=environ,
        extract=extract,
        detect_secrets=detect_secrets,
        holes=holes,
        input_questions=input_questions,
    )
    return result


def _inputs_to_holes(raw: Any, inputs: Mapping[str, ImportInput], questions: dict[str, Question]) -> Any:
    """`${input:id}` → `${ask:id}` in every string of `raw`, with a question per input used."""
    from app.install.plan import Question, ask_ref

    def one(text: str) -> str:
        def repl(match: re.Match[str]) -> str:
            spec = inputs.get(match.group(1), ImportInput(id=match.group(1), password=True))
            key = _secret_name_for_input(spec.id)
            questions.setdefault(
                key,
                Question(
                    key=key,
                    label=spec.description or spec.id,
                    required=spec.default is None,
                    secret=spec.password,
                    default=spec.default,
                    secret_name=key,
                ),
            )
            return ask_ref(key)

        return INPUT_REF.sub(repl, text)

    if isinstance(raw, str):
        return one(raw)
    if isinstance(raw, list):
        return [_inputs_to_holes(v, inputs, questions) for v in raw]
    if isinstance(raw, dict):
        return {k: _inputs_to_holes(v, inputs, questions) for k, v in raw.items()}
    return raw


def _read_servers(
    servers: Mapping[str, Any],
    inputs: Mapping[str, ImportInput],
    result: ImportResult,
    *,
    ask: Ask | None,
    environ: Mapping[str, str] | None,
    extract: SecretExtractor | None,
    detect_secrets: bool,
    holes: bool = False,
    input_questions: Mapping[str, Question] | None = None,
) -> None:
    env = dict(os.environ if environ is None else environ)
    env.setdefault("userHome", str(Path.home()))
    answers: dict[str, str | None] = {}

    def answer(input_id: str) -> str | None:
        if input_id not in answers:
            spec = inputs.get(input_id, ImportInput(id=input_id, password=True))
            value = ask(spec) if ask is not None else None
            answers[input_id] = value if value else spec.default
        return answers[input_id]

    for name, raw in servers.items():
        if not isinstance(raw, dict):
            result.warnings.append(f"skipped {name!r}: not an object")
            continue
        raw = copy.deepcopy(raw)
        clean = _clean_name(str(name))
        try:
            # Shape first: nothing is asked for (or kept) for an entry that is skipped anyway.
            ServerEntry.from_json(clean, raw, normalise=True)
        except EntryShapeError as exc:
            result.warnings.append(f"skipped {name!r}: {exc}")
            continue
        secrets: dict[str, str] = {}
        from_secret_vars = _substitute(
            raw, env, inputs, answer, secrets, result.warnings, name, secret_vars=detect_secrets
        )
        if clean != name:
            result.warnings.append(f"{name!r} is named {clean!r} here ('/' and outer spaces are not allowed)")
        entry = ServerEntry.from_json(clean, raw, normalise=True)
        if entry.problem:
            result.warnings.append(f"{name!r}: {entry.problem}")
        questions: list[Question] = []
        if holes:
            from app.config.placeholders import make_holes
            from app.install.plan import ASK_REF

            used = {m.group(1) for v in _strings(entry) for m in ASK_REF.finditer(v)}
            questions = [q for k, q in (input_questions or {}).items() if k in used]
            questions += make_holes(entry, {q.key for q in questions}, env)
        if extract is not None:
            with _holes_hidden(entry):
                secrets.update(extract(entry, detect=detect_secrets, taken=set(secrets)))
        if detect_secrets:
            _move_values_from_secret_vars(entry, from_secret_vars, secrets)
        result.servers.append(ImportedServer(str(name), entry, secrets, questions))


def _strings(entry: ServerEntry) -> list[str]:
    return [
        entry.command or "",
        *entry.args,
        *entry.env.values(),
        *entry.headers.values(),
        entry.url or "",
        entry.cwd or "",
    ]


_HIDDEN_HOLE = "${input:ask."


@contextlib.contextmanager
def _holes_hidden(entry: ServerEntry) -> Iterator[None]:
    """`${ask:KEY}` holes look like references to secret detection while it runs, so a value
    such as `Bearer ${ask:TOKEN}` stays a hole (filled by the answer) instead of a stored secret."""

    def swap(old: str, new: str) -> None:
        entry.env = {k: v.replace(old, new) for k, v in entry.env.items()}
        entry.headers = {k: v.replace(old, new) for k, v in entry.headers.items()}
        entry.args = [a.replace(old, new) for a in entry.args]
        if entry.url:
            entry.url = entry.url.replace(old, new)

    swap("${ask:", _HIDDEN_HOLE)
    try:
        yield
    finally:
        swap(_HIDDEN_HOLE, "${ask:")


def import_into(
    store: ConfigStore,
    secrets: SecretSink,
    path: Path,
    format: Format | Literal["auto"] = "auto",
    *,
    ask: Ask | None = None,
    environ: Mapping[str, str] | None = None,
    extract: SecretExtractor | None = None,
    detect_secrets: bool = True,
) -> ImportResult:
    """Read `path`, store its secrets in the keyring, add its servers and save the list.

    See `add_imported` for names, secrets and what is skipped.
    """
    result = read_import_file(
        path, format, ask=ask, environ=environ, extract=extract, detect_secrets=detect_secrets
    )
    return add_imported(store, secrets, result)


def add_applied(
    store: ConfigStore, secrets: SecretSink, applied: list[tuple[str, Applied]], *, format: Format = "claude"
) -> ImportResult:
    """Add answered install plans (`app.install.plan.apply` of each, with the name it had in the
    snippet): the same rules as an import (`add_imported`)."""
    result = ImportResult(format=format)
    result.servers = [ImportedServer(name, a.entry, dict(a.secrets)) for name, a in applied]
    return add_imported(store, secrets, result)


def add_imported(store: ConfigStore, secrets: SecretSink, result: ImportResult) -> ImportResult:
    """Store the servers' secrets in the keyring, add the servers and save the list.

    Clashing names get a suffix (`github-2`). A secret is written only for a server that is added:
    secrets are stored per server just before it is added, a skipped server stores none. A server
    whose secrets cannot be stored (no keychain, locked) is left out and listed in `skipped`; the
    rest is imported. If saving the list fails, the secrets stored so far are removed again.
    """
    taken: set[str] = set()
    for server in result.servers:
        wanted = final = server.entry.name
        n = 2
        while final in store or final in taken:
            final, n = f"{wanted}-{n}", n + 1
        taken.add(final)
        server.entry.name = final

    # Each server stands alone: one whose secrets cannot be stored is skipped and reported, the
    # others are imported. Only a failure to save the list undoes everything.
    unavailable: str | None = None
    if any(s.secrets for s in result.servers):
        try:
            secrets.check_available()
        except Exception as exc:
            unavailable = _first_line(exc)
    stored: list[tuple[str, str]] = []
    kept: list[ImportedServer] = []
    try:
        for server in result.servers:
            if not server.secrets:
                kept.append(server)
                continue
            keys = ", ".join(sorted(server.secrets))
            if unavailable is not None:
                result.skipped.append(_no_keychain(server, keys, unavailable))
                continue
            mine: list[str] = []
            try:
                for secret_name, value in server.secrets.items():
                    secrets.set(server.entry.name, secret_name, value)
                    mine.append(secret_name)
            except Exception as exc:
                for secret_name in mine:
                    with contextlib.suppress(Exception):  # best effort; the reason is reported
                        secrets.delete(server.entry.name, secret_name)
                result.skipped.append(_no_keychain(server, keys, _first_line(exc)))
                continue
            stored += [(server.entry.name, n) for n in mine]
            kept.append(server)
        result.servers = kept
        for server in kept:
            store.add(server.entry)
        if kept:
            store.save()
    except BaseException:
        for server_name, secret_name in stored:
            # Best effort: the original error is the one to report.
            with contextlib.suppress(Exception):
                secrets.delete(server_name, secret_name)
        for server in kept:
            if server.entry.name in store:
                store.remove(server.entry.name)
        raise
    return result


def _no_keychain(server: ImportedServer, keys: str, why: str) -> SkippedServer:
    return SkippedServer(server.original_name, f"its key {keys} cannot be stored: {why}", True)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _clean_name(name: str) -> str:
    # "server/tool" names tools across servers and keyring entries are "server/NAME".
    return name.strip().replace("/", "-") or "server"


def _parse_inputs(path: Path, raw: Any) -> list[ImportInput]:
    if not isinstance(raw, list):
        raise ConfigError(path, "`inputs` must be a list")
    out = []
    for item in raw:
        if isinstance(item, dict) and isinstance(item.get("id"), str):
            default = item.get("default")
            out.append(
                ImportInput(
                    id=item["id"],
                    description=str(item.get("description", "")),
                    password=bool(item.get("password", False)),
                    default=default if isinstance(default, str) else None,
                )
            )
    return out


def _secret_name_for_input(input_id: str) -> str:
    return "".join(c if c.isalnum() or c in "_-." else "_" for c in input_id) or "secret"


def _substitute(
    raw: dict[str, Any],
    env: Mapping[str, str],
    inputs: Mapping[str, ImportInput],
    answer: Callable[[str], str | None],
    secrets: dict[str, str],
    warnings: list[str],
    server: str,
    *,
    secret_vars: bool = False,
) -> set[tuple[str, str]]:
    """Resolve `${env:..}`/`${NAME}` (when set) and `${input:..}` in the entry's string values.

    Returns the (env|headers, key) places whose value came from a secret-looking variable
    (`"X": "${env:GITHUB_TOKEN}"`): the value is secret whatever the key is called. With
    `secret_vars`, such a variable in an argument or the URL becomes `${secret:NAME}` at once
    (its value goes to `secrets`), so only that part of the argument is a reference.
    """
    from_secret_vars: set[tuple[str, str]] = set()

    def keep_secret_var(match: re.Match[str]) -> str:
        var = match.group(1)
        if var not in env or not env[var] or not is_secret_name(var):
            return match.group(0)
        name, n = _secret_name_for_input(var), 2
        while secrets.get(name, env[var]) != env[var]:
            name, n = f"{_secret_name_for_input(var)}_{n}", n + 1
        secrets[name] = env[var]
        return secret_ref(name)

    def one(value: str, where: str, key: str = "") -> str:
        if secret_vars and where in ("args", "url"):
            value = ENV_REF.sub(keep_secret_var, value)
        expanded = expand_env(value, env)
        if expanded != value and where in ("env", "headers"):
            names = [m.group(1) for m in ENV_REF.finditer(value) if m.group(1) in env]
            if any(is_secret_name(n) for n in names):
                from_secret_vars.add((where, key))
        value = expanded

        def repl(match: re.Match[str]) -> str:
            input_id = match.group(1)
            spec = inputs.get(input_id)
            is_password = spec.password if spec is not None else True
            if is_password:
                name = _secret_name_for_input(input_id)
                got = answer(input_id)
                if got:
                    secrets[name] = got
                else:
                    warnings.append(f"{server!r}: no value given for {input_id!r}; set it later")
                if where not in ("env", "headers", "args", "url"):
                    warnings.append(
                        f"{server!r}: secret {input_id!r} is used in {where}; MCP Desk passes secrets "
                        "only through env, headers, arguments and the URL, so edit this server"
                    )
                return secret_ref(name)
            got = answer(input_id)
            if got is None:
                warnings.append(f"{server!r}: no value given for {input_id!r}; kept as written")
                return match.group(0)
            return got

        return INPUT_REF.sub(repl, value)

    for key in ("command", "cwd", "url"):
        if isinstance(raw.get(key), str):
            raw[key] = one(raw[key], key)
    if isinstance(raw.get("args"), list):
        raw["args"] = [one(a, "args") if isinstance(a, str) else a for a in raw["args"]]
    for key in ("env", "headers"):
        mapping = raw.get(key)
        if isinstance(mapping, dict):
            raw[key] = {k: one(v, key, k) if isinstance(v, str) else v for k, v in mapping.items()}
    return from_secret_vars


def _move_values_from_secret_vars(
    entry: ServerEntry, places: set[tuple[str, str]], secrets: dict[str, str]
) -> None:
    """Values taken from secret-looking environment variables go to the keyring too."""
    for where, key in sorted(places):
        mapping = entry.env if where == "env" else entry.headers
        value = mapping.get(key)
        if not value or "${secret:" in value:
            continue
        base = "".join(c if c.isalnum() or c in "_-." else "_" for c in key) or "secret"
        name, n = base, 2
        while name in secrets or name in entry.secret_refs():
            name, n = f"{base}_{n}", n + 1
        secrets[name] = value
        mapping[key] = secret_ref(name)
