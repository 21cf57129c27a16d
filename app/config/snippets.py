"""Config snippets as READMEs print them, turned into server entries and install plans.

One parser for the CLI (`mcp-desk servers import -`) and the Add dialog's Paste box. A README
snippet is rarely a whole file: it is a fragment (`"mcpServers": {…}` without the outer braces),
one entry (`"name": {…}`), a bare entry object, with `#` or `//` comment lines and trailing commas,
and it is written for one of many clients. `parse_snippet` reads all of those into one shape, the
`mcpServers` map of Claude Desktop / Cursor (plus VS Code's `inputs`):

| client | container | entry |
|---|---|---|
| Claude Desktop, Cursor, Cline, Claude Code | `mcpServers` | `command`/`args`/`env`, `url`, `type` |
| Windsurf | `mcpServers` | `serverUrl` for a remote server |
| Gemini CLI | `mcpServers` | `httpUrl` (Streamable HTTP), `url` (SSE) |
| GitHub Copilot | `mcpServers` | `type: "local"` |
| VS Code | `servers` (+ `inputs`), `mcp.servers` | as Claude's |
| opencode | `mcp` | `type: "local"` with `command` as a list, `environment`, `enabled`; `type: "remote"` |
| Zed | `context_servers` | `command` as `{path, args, env}`, or `source: "custom"` |
| Codex | TOML `[mcp_servers.NAME]` | `command`/`args`/`env`, `url` |
| VS Code `--add-mcp`, one entry | an object with `name` | as Claude's |

`snippet_plans(text)` builds on it: each server becomes an `InstallPlan` whose example values
(`YOUR_API_KEY_HERE`, `/path/to/dir`) are questions (app.config.placeholders); a plan without
questions can be added as it is.
"""

from __future__ import annotations

import json
import re
import shlex
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from app.config.jsonc import strip_jsonc

if TYPE_CHECKING:
    from app.config.importing import SecretExtractor
    from app.install.plan import InstallPlan

# Keys of other clients that say "this object is a server entry".
_ENTRY_KEYS = ("command", "url", "serverUrl", "httpUrl")
# Containers of named entries, by the client that writes them (first found wins).
_CONTAINERS = ("mcpServers", "servers", "context_servers", "mcp_servers", "mcp")
# Keys a Gemini CLI entry has and no other client's: its `url` is an SSE endpoint.
_GEMINI_KEYS = ("trust", "includeTools", "excludeTools", "timeout", "authProviderType")
_FENCE = re.compile(r"^\s*```[A-Za-z0-9_+-]*\s*$")


class SnippetError(ValueError):
    """The text holds no server definition this app can read (a plain sentence)."""


MAX_SNIPPET = 256 * 1024
"""Characters of pasted text read as a snippet. A README's snippet is a few KB; reading is
roughly linear but slow per character (0.7 s a MB), and the Paste box reads on the GUI thread.
A bigger config file is imported as a file (Import → File, `servers import FILE`)."""
MAX_COMMAND_LINE = 32 * 1024
"""Characters of one command line split into words: shlex takes 13 s on 2 MB."""


@dataclass
class Snippet:
    servers: dict[str, dict[str, Any]]
    """name → entry in the `mcpServers` shape (Claude Desktop's keys)."""
    inputs: list[Any] = field(default_factory=list)
    """VS Code `inputs` found beside the servers."""
    shape: str = "mcpServers"
    """Which client's shape it was written in (for messages and the bench)."""


# -- text → data -----------------------------------------------------------------------------


def _clean_text(text: str) -> str:
    """Drop Markdown fences, `#` comment lines and lines that are only `...`; keep the rest."""
    lines = []
    for line in text.lstrip("\ufeff").splitlines():
        bare = line.strip()
        if _FENCE.match(line) or bare.startswith("#") or bare in ("...", "…", "// ...", "/* ... */"):
            lines.append("")
            continue
        lines.append(line)
    return "\n".join(lines).strip()


def _json_candidates(text: str) -> list[str]:
    stripped = strip_jsonc(text).strip().rstrip(",").strip()
    out = [stripped, "{" + stripped + "}"]
    # Prose or a shell command around one JSON object (`code --add-mcp '{...}'`): the outermost braces.
    first, last = stripped.find("{"), stripped.rfind("}")
    if 0 < first < last:
        inner = stripped[first : last + 1]
        out += [inner, "{" + inner + "}"]
    return out


def _load(text: str) -> tuple[Any, str]:
    """The snippet's data and its syntax ("json", "toml" or "command")."""
    if len(text) > MAX_SNIPPET:
        raise SnippetError(
            f"The text is too long to be a server's snippet ({len(text) // 1024:,} KB; a snippet is at "
            f"most {MAX_SNIPPET // 1024} KB). To bring in a whole configuration file, import the file."
        )
    cleaned = _clean_text(text)
    if not cleaned:
        raise SnippetError("The text is empty.")
    for candidate in _json_candidates(cleaned):
        try:
            return json.loads(candidate), "json"
        except ValueError:
            continue
    if "[" in cleaned and "=" in cleaned:
        try:
            return tomllib.loads(cleaned), "toml"
        except tomllib.TOMLDecodeError:
            pass
    line = " ".join(cleaned.split("\\\n"))
    if "\n" not in line.strip() and "{" not in line:
        try:
            return command_line_entry(line), "command"
        except ValueError:
            pass
    raise SnippetError(
        "No server definition found: paste the JSON snippet from the server's README "
        "(for example the part with “mcpServers”), or its command line."
    )


# -- command lines -------------------------------------------------------------------------------

_ENV_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_WINDOWS_PATH = re.compile(r"^\s*\"?[A-Za-z]:\\")


def split_command_line(text: str) -> tuple[dict[str, str], str, list[str]]:
    """`VAR=1 npx -y pkg --flag "a b"` → ({"VAR": "1"}, "npx", ["-y", "pkg", "--flag", "a b"]).

    POSIX quoting, except for a line that starts with a Windows path (`C:\\Program Files\\...`):
    backslashes there are path separators, so only double quotes group words. Raises ValueError
    for an unbalanced quote or an empty line."""
    if len(text) > MAX_COMMAND_LINE:
        raise ValueError(f"it is too long ({len(text):,} characters; at most {MAX_COMMAND_LINE:,})")
    text = text.strip()
    if _WINDOWS_PATH.match(text):
        words = [w[1:-1] if len(w) >= 2 and w[0] == w[-1] == '"' else w for w in _windows_split(text)]
    else:
        words = shlex.split(text, comments=False, posix=True)
    env: dict[str, str] = {}
    while words and _ENV_ASSIGNMENT.match(words[0]):
        key, _, value = words.pop(0).partition("=")
        env[key] = value
    if words and words[0] == "env":  # `env VAR=1 cmd`
        words.pop(0)
        while words and _ENV_ASSIGNMENT.match(words[0]):
            key, _, value = words.pop(0).partition("=")
            env[key] = value
    if not words:
        raise ValueError("no command in the line")
    return env, words[0], words[1:]


def _windows_split(text: str) -> list[str]:
    words: list[str] = []
    current: list[str] = []
    quoted = False
    for ch in text:
        if ch == '"':
            quoted = not quoted
            current.append(ch)
        elif ch.isspace() and not quoted:
            if current:
                words.append("".join(current))
                current = []
        else:
            current.append(ch)
    if quoted:
        raise ValueError("a quote is not closed")
    if current:
        words.append("".join(current))
    return words


_LAUNCHERS = {
    "npx", "bunx", "pnpx", "uvx", "uv", "pipx", "node", "deno", "bun", "python", "python3", "py",
    "docker", "podman", "java", "dotnet", "go",
}  # fmt: skip
_CLIENT_ADD = re.compile(r"^(?:claude|codex|gemini|qwen)\s+mcp\s+add\b")


def command_line_entry(line: str) -> dict[str, Any]:
    """A README's command line as one named entry: `npx -y @scope/pkg`, `uvx mcp-server-time`,
    `claude mcp add NAME [-e K=V] [--transport http] -- CMD ARGS` (and codex/gemini alike)."""
    line = line.strip().lstrip("$ ").strip()
    if _CLIENT_ADD.match(line):
        return _client_add(shlex.split(line)[3:])
    env, command, args = split_command_line(line)
    stem = re.split(r"[\\/]", command)[-1].lower().removesuffix(".exe").removesuffix(".cmd")
    # Only what starts servers: a sentence of prose is not a command line.
    if not (stem in _LAUNCHERS or "mcp" in stem or "/" in command or "\\" in command):
        raise ValueError("not a command that starts a server")
    entry: dict[str, Any] = {"command": command, "args": args}
    if env:
        entry["env"] = env
    return {suggest_name(entry): entry}


def _client_add(words: list[str]) -> dict[str, Any]:
    env: dict[str, str] = {}
    headers: dict[str, str] = {}
    transport: str | None = None
    name: str | None = None
    rest: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        if w == "--":
            rest = words[i + 1 :]
            break
        value = words[i + 1] if i + 1 < len(words) else ""
        if w in ("-e", "--env"):
            key, _, val = value.partition("=")
            env[key] = val
            i += 2
        elif w in ("-H", "--header"):
            key, _, val = value.partition(":")
            headers[key.strip()] = val.strip()
            i += 2
        elif w in ("-t", "--transport"):
            transport = value
            i += 2
        elif w.startswith("--transport="):
            transport = w.partition("=")[2]
            i += 1
        elif w in ("-s", "--scope"):
            i += 2
        elif w.startswith("-"):
            i += 1
        elif name is None:
            name = w
            i += 1
        else:
            rest = words[i:]
            break
    if name is None or not rest:
        raise ValueError("no name or command")
    entry: dict[str, Any]
    if transport in ("http", "sse") or (len(rest) == 1 and rest[0].startswith(("http://", "https://"))):
        entry = {"type": transport or "http", "url": rest[0]}
        if headers:
            entry["headers"] = headers
    else:
        entry = {"command": rest[0], "args": rest[1:]}
        if env:
            entry["env"] = env
    return {name: entry}


# -- shapes → mcpServers --------------------------------------------------------------------------


def _looks_like_entry(value: Any) -> bool:
    if not isinstance(value, dict):
        return False
    if any(k in value for k in _ENTRY_KEYS):
        return True
    return value.get("source") == "custom" or str(value.get("type", "")).lower() in ("local", "remote")


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return (
        value
        if isinstance(value, str)
        else json.dumps(value)
        if isinstance(value, dict | list)
        else str(value)
    )


def normalise_entry(raw: dict[str, Any]) -> dict[str, Any]:
    """One entry of any client's shape in Claude Desktop's keys (unknown keys kept)."""
    entry = dict(raw)
    entry.pop("name", None)
    kind = str(entry.get("type", "")).strip().lower()
    command = entry.get("command")
    if isinstance(command, dict):  # Zed before 0.19x: {"path", "args", "env"}
        entry.pop("command")
        entry["command"] = command.get("path") or command.get("command")
        entry.setdefault("args", command.get("args", []))
        if isinstance(command.get("env"), dict):
            entry.setdefault("env", command["env"])
        if isinstance(entry.get("settings"), dict) and not entry["settings"]:
            entry.pop("settings")  # Zed's (empty) extension settings mean nothing to other clients
    elif isinstance(command, list):  # opencode: the whole command line as a list
        words = [_text(w) for w in command]
        entry["command"] = words[0] if words else None
        extra = entry.get("args")
        entry["args"] = words[1:] + (list(extra) if isinstance(extra, list) else [])
    elif isinstance(command, str) and not entry.get("args") and " " in command.strip():
        # `"command": "npx -y pkg"`: a whole line in one string (seen in READMEs and Zed's docs).
        try:
            env, entry["command"], entry["args"] = split_command_line(command)
        except ValueError:
            pass
        else:
            if env:
                entry["env"] = {**env, **(entry.get("env") or {})}
    if isinstance(entry.get("args"), str):
        try:
            entry["args"] = shlex.split(entry["args"])
        except ValueError:
            entry["args"] = [entry["args"]]
    if "environment" in entry and isinstance(entry["environment"], dict):  # opencode
        environment = entry.pop("environment")
        entry["env"] = {**environment, **(entry.get("env") or {})}
    if "serverUrl" in entry:  # Windsurf
        entry.setdefault("url", entry.pop("serverUrl"))
    if "httpUrl" in entry:  # Gemini CLI: Streamable HTTP
        entry["url"] = entry.pop("httpUrl")
        entry["type"] = "http"
        kind = "http"
    elif "url" in entry and not kind and any(k in entry for k in _GEMINI_KEYS):
        entry["type"] = "sse"  # Gemini CLI: `url` is the SSE endpoint
    if "transport" in entry and not kind and isinstance(entry["transport"], str):
        entry["type"] = entry.pop("transport")
        kind = entry["type"].lower()
    if kind == "local":  # Copilot, opencode
        entry["type"] = "stdio"
    elif kind == "remote":  # opencode
        entry["type"] = "http"
    if isinstance(entry.get("enabled"), bool) and not entry.pop("enabled"):  # opencode
        entry["disabled"] = True
    if entry.get("source") == "custom":  # Zed
        entry.pop("source")
    if isinstance(entry.get("args"), list):
        entry["args"] = [_text(a) for a in entry["args"]]
        _unwrap_cmd(entry)
        _npx_yes(entry)
    for key in ("env", "headers"):
        if isinstance(entry.get(key), dict):
            entry[key] = {str(k): _text(v) for k, v in entry[key].items() if v is not None}
    return entry


def _unwrap_cmd(entry: dict[str, Any], platform: str = sys.platform) -> None:
    """`cmd /c npx -y pkg` → `npx -y pkg` outside Windows. READMEs print the Windows form of
    Claude Desktop's set-up next to the other one; on macOS and Linux there is no `cmd`, and the
    command it wraps is the one meant."""
    command = entry.get("command")
    args = entry["args"]
    if platform == "win32" or not isinstance(command, str) or len(args) < 2:
        return
    stem = command.replace("\\", "/").rsplit("/", 1)[-1].lower().removesuffix(".exe")
    if stem == "cmd" and args[0].lower() in ("/c", "/s/c", "/k"):
        entry["command"], entry["args"] = args[1], args[2:]


def _npx_yes(entry: dict[str, Any]) -> None:
    """`npx pkg` → `npx -y pkg`. Without a terminal npx does not ask "Ok to proceed?": it stops
    ("npx canceled due to missing packages and no YES option"), so a README line written for a
    person who ran it once in a terminal would never start here."""
    command = entry.get("command")
    if not isinstance(command, str):
        return
    stem = command.replace("\\", "/").rsplit("/", 1)[-1].lower().removesuffix(".cmd").removesuffix(".exe")
    args = entry["args"]
    if stem == "npx" and args and not {"-y", "--yes", "--no", "--no-install"} & set(args):
        entry["args"] = ["-y", *args]


def _named(container: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    return {str(k): normalise_entry(v) for k, v in container.items() if isinstance(v, dict)}


def _from_list(items: list[Any]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for item in items:
        if _looks_like_entry(item):
            entry = normalise_entry(item)
            name = str(item.get("name") or suggest_name(entry))
            out[_unique(name, out)] = entry
    return out


def _unique(name: str, taken: Mapping[str, Any]) -> str:
    final, n = name, 2
    while final in taken:
        final, n = f"{name}-{n}", n + 1
    return final


def snippet_from_data(data: Any) -> Snippet:
    """The servers in already parsed data of any client's shape (see the module's table)."""
    if isinstance(data, list):
        servers = _from_list(data)
        if servers:
            return Snippet(servers, shape="list")
        raise SnippetError("The list holds no server definition.")
    if not isinstance(data, dict):
        raise SnippetError("No server definition found in the text.")
    if isinstance(data.get("mcp"), dict) and isinstance(data["mcp"].get("servers"), dict):
        data = data["mcp"]  # VS Code settings.json: "mcp": {"servers", "inputs"}
    for key in _CONTAINERS:
        container = data.get(key)
        if isinstance(container, dict):
            if key == "servers" and "inputs" in data:
                inputs = data["inputs"] if isinstance(data["inputs"], list) else []
                return Snippet(_named(container), inputs, "servers")
            return Snippet(_named(container), [], key)
        if isinstance(container, list) and key in ("mcpServers", "servers"):  # Continue's list
            return Snippet(_from_list(container), [], key)
    if _looks_like_entry(data):
        entry = normalise_entry(data)
        return Snippet({str(data.get("name") or suggest_name(entry)): entry}, [], "entry")
    named = {k: v for k, v in data.items() if _looks_like_entry(v)}
    if named:
        return Snippet(_named(named), [], "named")
    for value in data.values():  # one level down: {"amp.mcpServers": {...}}, {"mcp": {...}}
        if isinstance(value, dict):
            try:
                return snippet_from_data(value)
            except SnippetError:
                continue
    raise SnippetError("No server definition found: the JSON has no “mcpServers” (or similar) part.")


def parse_snippet(text: str) -> Snippet:
    """Every server in `text`, whatever client it was written for. Raises `SnippetError`."""
    data, syntax = _load(text)
    if syntax == "command":
        return Snippet({name: normalise_entry(e) for name, e in data.items()}, [], "command line")
    snippet = snippet_from_data(data)
    if syntax == "toml":
        snippet.shape = "toml"
    if not snippet.servers:
        raise SnippetError("The snippet's server list is empty.")
    return snippet


# -- names ---------------------------------------------------------------------------------------

_VERSION = re.compile(r"(?<=.)(?:@[^/@]*|==.*|>=.*|:[^/:]*)$")
_RUNNERS = {"npx", "bunx", "pnpx", "uvx", "pipx", "docker", "podman", "deno", "npm", "pnpm", "yarn", "uv"}


def suggest_name(entry: Mapping[str, Any]) -> str:
    """A short server name for an entry that comes without one: from its package, image or host."""
    url = entry.get("url") or entry.get("serverUrl") or entry.get("httpUrl")
    if isinstance(url, str) and url:
        try:
            host = urlsplit(url).hostname or ""
        except ValueError:
            host = ""
        labels = [p for p in host.split(".") if p not in ("mcp", "www", "api", "server", "app")]
        if len(labels) >= 2:
            return labels[-2]
        return labels[0] if labels else "server"
    command = entry.get("command")
    args = [a for a in entry.get("args") or [] if isinstance(a, str)]
    words = [command, *args] if isinstance(command, str) else args
    base = ""
    for i, word in enumerate(words):
        stem = word.replace("\\", "/").rsplit("/", 1)[-1].lower()
        if stem.endswith((".cmd", ".exe")):
            stem = stem[:-4]
        if i == 0 and stem in _RUNNERS:
            continue
        if word.startswith("-") or word in ("run", "exec", "dlx", "tool", "x", "mcp", "-m"):
            continue
        base = word
        if i == 0 and stem in ("node", "python", "python3", "bun", "java"):
            continue
        break
    name = _package_name(base)
    return name or "server"


def _package_name(word: str) -> str:
    word = _VERSION.sub("", word.strip()) if not word.startswith("@") or word.count("@") > 1 else word
    if word.startswith("@") and word.count("@") > 1:
        word = "@" + word[1:].split("@", 1)[0]
    parts = [p for p in re.split(r"[/\\]", word.lstrip("@")) if p]
    if not parts:
        return ""
    name = parts[-1]
    name = re.sub(r"\.(?:js|mjs|py|ts)$", "", name)
    if name.lower() in ("mcp", "mcp-server", "server", "index", "main", "dist", "build") and len(parts) > 1:
        name = parts[-2] if name.lower() not in ("index", "main") or len(parts) < 3 else parts[-3]
    for prefix in ("mcp-server-", "server-", "mcp-"):
        if name.lower().startswith(prefix) and len(name) > len(prefix):
            name = name[len(prefix) :]
    for suffix in ("-mcp-server", "-mcp", "_mcp", "-server"):
        if name.lower().endswith(suffix) and len(name) > len(suffix):
            name = name[: -len(suffix)]
    return re.sub(r"[^A-Za-z0-9_.\-]", "-", name).strip("-.") or ""


# -- plans ---------------------------------------------------------------------------------------


@dataclass
class SnippetImport:
    """What a snippet gives: one plan per server, and what was noticed on the way."""

    plans: list[InstallPlan]
    warnings: list[str] = field(default_factory=list)
    shape: str = ""


def read_snippet(
    text: str,
    *,
    environ: Mapping[str, str] | None = None,
    extract: SecretExtractor | None = None,
    detect_secrets: bool = True,
) -> SnippetImport:
    """`text` as install plans: example values are questions, secrets typed in clear are in
    `plan.secrets` (they reach the keyring only when the plan is added). Raises `SnippetError`."""
    from app.config.importing import read_snippet_servers
    from app.install.plan import InstallPlan, runtime_kind

    snippet = parse_snippet(text)
    result = read_snippet_servers(
        snippet, environ=environ, extract=extract, detect_secrets=detect_secrets, holes=True
    )
    plans = []
    for server in result.servers:
        entry = server.entry
        plans.append(
            InstallPlan(
                name=entry.name,
                entry=entry,
                questions=list(server.questions),
                source="snippet",
                title=server.original_name,
                runtime=runtime_kind(entry.command),
                notes=[w for w in result.warnings if repr(server.original_name) in w],
                secrets=dict(server.secrets),
            )
        )
    if not plans and result.warnings:
        raise SnippetError(result.warnings[0])
    return SnippetImport(plans, result.warnings, snippet.shape)


def snippet_plans(text: str, **kwargs: Any) -> list[InstallPlan]:
    """One `InstallPlan` per server in `text` (see `read_snippet`)."""
    return read_snippet(text, **kwargs).plans
