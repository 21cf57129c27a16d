"""Install links: a server described in one URL, as web pages and READMEs hand them out.

    mcp-desk://install?name=NAME&config=BASE64      (ours)
    cursor://anysphere.cursor-deeplink/mcp/install?name=NAME&config=BASE64
    lmstudio://add_mcp?name=NAME&config=BASE64
    vscode:mcp/install?URL-ENCODED-JSON             (also vscode-insiders:, and the
    https://insiders.vscode.dev/redirect?url=...    wrapper GitHub READMEs use, one level deep)

Our own format: `config` is base64 (standard or URL-safe alphabet, padding optional; a `+` that a
browser turned into a space is taken back) of the UTF-8 JSON of one server entry, as in
servers.json: `command`/`args`/`env`/`cwd`, or `url`/`type`/`headers`. Any string may hold a hole
`${ask:KEY}`; an optional `"inputs"` list describes them (`{"key", "label", "description",
"kind", "required", "secret", "default", "choices", "placeholder"}`, see
`app.install.answers.question_from_json`); a hole with no description is a required question.
`{"NAME": {entry}}` and `{"mcpServers": {"NAME": {entry}}}` are taken too (link generators wrap
the entry so), as Cursor's and LM Studio's links are read.

A link is text from anywhere: its size and the size of its JSON are limited, and each way it can
be wrong (not a link we know, bad base64, JSON that is not one object, an entry of the wrong shape)
is refused with one plain sentence (`LinkError`). Nothing in a link can approve its own command:
the result is an `InstallPlan`, shown and asked like any other, and the trust prompt comes after.
A key typed in clear in the link is moved to `plan.secrets` (the keyring, if the plan is added),
example values (`YOUR_API_KEY_HERE`) become questions, and `${input:ID}` of VS Code become
questions too (masked for its `password` inputs).
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from app.config.model import KNOWN_ENTRY_KEYS, ServerEntry
from app.config.refs import secret_ref
from app.config.secret_names import is_secret_name
from app.install.answers import BadQuestion, question_from_json
from app.install.plan import ASK_REF, InstallPlan, Question, ask_ref, runtime_kind

logger = logging.getLogger(__name__)

MAX_LINK = 32_000
"""Longest link read, in characters (browsers and desktops cut links far shorter than this)."""
MAX_JSON = 16_000
"""Largest decoded JSON, in bytes: one server entry is a few hundred."""
MAX_DEPTH = 8
MAX_NAME = 100
MAX_INPUTS = 50

SCHEMES = ("mcp-desk", "cursor", "lmstudio", "vscode", "vscode-insiders")
CLIENTS = {
    "mcp-desk": "MCP Desk",
    "cursor": "Cursor",
    "lmstudio": "LM Studio",
    "vscode": "VS Code",
    "vscode-insiders": "VS Code",
}
REDIRECT_HOSTS = ("insiders.vscode.dev", "vscode.dev")
INPUT_REF = re.compile(r"\$\{input:([A-Za-z0-9_.\-]+)\}")


class LinkError(ValueError):
    """Not an install link that can be used; the message says why, in plain words."""


def looks_like_link(text: str) -> bool:
    """True when `text` starts like one of the install links we read (cheap: for paste and argv)."""
    head = text.strip()[:64].lower()
    if head.startswith(("https://insiders.vscode.dev/redirect", "https://vscode.dev/redirect")):
        return True
    return any(head.startswith(scheme + ":") for scheme in SCHEMES)


def parse_link(text: str) -> InstallPlan:
    """The install plan an install link describes; raises `LinkError`."""
    if not isinstance(text, str):
        raise LinkError("an install link is text")
    text = text.strip()
    if len(text) > MAX_LINK:
        raise LinkError(f"the link is too long ({len(text):,} characters; at most {MAX_LINK:,})")
    if not text:
        raise LinkError("the link is empty")
    if any(ord(c) < 32 for c in text):
        raise LinkError("the link has line breaks or control characters in it")
    parts = urlsplit(text)
    scheme = parts.scheme.lower()
    if scheme in ("http", "https") and parts.hostname in REDIRECT_HOSTS:
        inner = _single(parse_qsl(parts.query, keep_blank_values=True), "url")
        if not inner or not inner.lower().startswith(("vscode:", "vscode-insiders:")):
            raise LinkError("this web address does not hold a VS Code install link")
        text = inner
        parts = urlsplit(text)
        scheme = parts.scheme.lower()
    if scheme == "mcp-desk":
        _expect(parts.netloc.lower() == "install" and parts.path in ("", "/"), "mcp-desk://install?…")
        return _base64_link(parts.query, "mcp-desk")
    if scheme == "cursor":
        _expect(
            parts.netloc.lower() == "anysphere.cursor-deeplink" and parts.path.rstrip("/") == "/mcp/install",
            "cursor://anysphere.cursor-deeplink/mcp/install?…",
        )
        return _base64_link(parts.query, "cursor")
    if scheme == "lmstudio":
        _expect(parts.netloc.lower() == "add_mcp" and parts.path in ("", "/"), "lmstudio://add_mcp?…")
        return _base64_link(parts.query, "lmstudio")
    if scheme in ("vscode", "vscode-insiders"):
        path = parts.path.lstrip("/") if not parts.netloc else parts.netloc + parts.path
        _expect(path.rstrip("/") == "mcp/install", f"{scheme}:mcp/install?…")
        return _vscode_link(parts.query, scheme)
    if scheme:
        raise LinkError(f"MCP Desk does not read {scheme[:30]!r} links")
    raise LinkError(
        "this is not a link (it should start with mcp-desk://, cursor://, vscode: or lmstudio://)"
    )


# --- the formats ---------------------------------------------------------------------------------


def _expect(ok: bool, shape: str) -> None:
    if not ok:
        raise LinkError(f"this is not an install link (expected {shape})")


def _single(pairs: list[tuple[str, str]], key: str) -> str | None:
    values = [v for k, v in pairs if k == key]
    if len(values) > 1:
        raise LinkError(f"the link gives {key!r} more than once")
    return values[0] if values else None


def _base64_link(query: str, scheme: str) -> InstallPlan:
    pairs = parse_qsl(query, keep_blank_values=True)
    name = _single(pairs, "name")
    config = _single(pairs, "config")
    if not config:
        raise LinkError("the link has no config")
    data = _json(_unbase64(config))
    return _plan(data, name, scheme)


def _unbase64(text: str) -> bytes:
    # A browser or a query parser may have turned the base64 `+` into a space.
    cleaned = text.strip().replace(" ", "+").replace("-", "+").replace("_", "/").rstrip("=")
    if len(cleaned) > MAX_JSON * 4 // 3 + 4:
        raise LinkError(f"the config is too big (at most {MAX_JSON:,} bytes)")
    if len(cleaned) % 4 == 1:
        raise LinkError("the config is not valid base64 (its length is wrong)")
    try:
        return base64.b64decode(cleaned + "=" * (-len(cleaned) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise LinkError("the config is not valid base64") from None


def _json(raw: bytes | str) -> dict[str, Any]:
    if len(raw) > MAX_JSON:
        raise LinkError(f"the config is too big ({len(raw):,} bytes; at most {MAX_JSON:,})")
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise LinkError("the config is not text (UTF-8)") from None
    try:
        data = json.loads(raw)
    except RecursionError:
        raise LinkError("the config is nested too deeply") from None
    except ValueError as exc:
        raise LinkError(f"the config is not valid JSON ({str(exc)[:80]})") from None
    if _depth(data) > MAX_DEPTH:
        raise LinkError("the config is nested too deeply")
    if not isinstance(data, dict):
        raise LinkError(f"the config must be one JSON object, not {_kind(data)}")
    return data


def _vscode_link(query: str, scheme: str) -> InstallPlan:
    text = unquote(query)
    if not text:
        raise LinkError("the link has no server in it")
    data = _json(text)
    name = data.pop("name", None)
    if name is not None and not isinstance(name, str):
        raise LinkError("the server's `name` must be text")
    return _plan(data, name, scheme)


# --- from the JSON to a plan ---------------------------------------------------------------------


def _unwrap(data: dict[str, Any], name: str | None) -> tuple[dict[str, Any], str | None]:
    """`{"NAME": {entry}}` and `{"mcpServers": {"NAME": {entry}}}` → (entry, NAME)."""
    for key in ("mcpServers", "servers"):
        inner = data.get(key)
        if len(data) == 1 and isinstance(inner, dict):
            data = inner
            break
    if _is_entry(data):
        return data, name
    if len(data) == 1:
        key, value = next(iter(data.items()))
        if isinstance(value, dict) and _is_entry(value):
            return value, name or key
    if len(data) > 1 and all(isinstance(v, dict) for v in data.values()):
        raise LinkError("the link describes several servers; an install link adds one")
    raise LinkError("the config has no `command` or `url`: it does not describe a server")


def _is_entry(data: dict[str, Any]) -> bool:
    return "command" in data or "url" in data or "serverUrl" in data


def _plan(data: dict[str, Any], name: str | None, scheme: str) -> InstallPlan:
    data, name = _unwrap(data, name)
    raw = dict(data)
    inputs = raw.pop("inputs", [])
    inner_name = raw.pop("name", None)  # link generators often put the name inside the entry too
    if not name and isinstance(inner_name, str):
        name = inner_name
    if "serverUrl" in raw and "url" not in raw:  # Windsurf's spelling, seen in generated links
        raw["url"] = raw.pop("serverUrl")
    dropped = sorted(k for k in raw if k not in KNOWN_ENTRY_KEYS)
    raw = {k: v for k, v in raw.items() if k in KNOWN_ENTRY_KEYS and k != "disabled"}
    clean = _clean_name(name)
    try:
        entry = ServerEntry.from_json(clean, raw, normalise=True)
    except ValueError as exc:
        raise LinkError(f"the server in the link is not usable: {exc}") from None
    if entry.problem:
        raise LinkError(f"the server in the link is not usable: {entry.problem}")
    if entry.secret_refs():
        raise LinkError("the link refers to keys in a keychain (${secret:…}); a link cannot")

    questions = _questions(entry, inputs, scheme)
    secrets = _move_secrets(entry, {q.key for q in questions})
    client = CLIENTS[scheme]
    notes = [
        _from_note(client),
        "Add it only if you trust the page the link came from: a server runs with your permissions.",
    ]
    if dropped:
        notes.append(f"Left out of the link's server: {', '.join(d[:40] for d in dropped[:10])}.")
    return InstallPlan(
        name=clean,
        entry=entry,
        questions=questions,
        source="link",
        title=name.strip()[:MAX_NAME] if name and name.strip() else clean,
        runtime=runtime_kind(entry.command) if entry.transport == "stdio" else None,
        notes=notes,
        secrets=secrets,
    )


def _from_note(client: str) -> str:
    if client == "MCP Desk":
        return "From an MCP Desk install link."
    return f"From a {client} install link."


def _clean_name(name: str | None) -> str:
    text = (name or "").strip()
    text = "".join(c for c in text if ord(c) >= 32 and ord(c) != 127)
    text = text.replace("/", "-").replace("\\", "-").strip(" .")[:MAX_NAME].strip()
    return text or "server"


def _questions(entry: ServerEntry, inputs: Any, scheme: str) -> list[Question]:
    """The plan's questions: the link's own `inputs` (ours, or VS Code's `promptString`s), each
    `${ask:KEY}` / `${input:ID}` hole without one, and example values found by
    `app.config.placeholders`."""
    if not isinstance(inputs, list):
        raise LinkError("the link's `inputs` must be a list")
    if len(inputs) > MAX_INPUTS:
        raise LinkError(f"the link asks too many questions ({len(inputs)}; at most {MAX_INPUTS})")
    described: dict[str, Question] = {}
    for item in inputs:
        q = _vscode_input(item) if isinstance(item, dict) and "id" in item and "key" not in item else None
        if q is None:
            try:
                q = question_from_json(item)
            except BadQuestion as exc:
                raise LinkError(f"a question in the link is not usable: {exc}") from None
        described[q.key] = q

    # VS Code's `${input:ID}` is our `${ask:ID}`.
    def to_ask(text: str) -> str:
        return INPUT_REF.sub(lambda m: ask_ref(m.group(1)), text)

    _map_strings(entry, to_ask)
    used: list[str] = []

    def collect(text: str) -> str:
        used.extend(ASK_REF.findall(text))
        return text

    _map_strings(entry, collect)
    questions: list[Question] = []
    for key in dict.fromkeys(used):
        q = described.get(key) or Question(key, key, required=True, secret=is_secret_name(key))
        questions.append(q)
    questions += _placeholder_questions(entry, {q.key for q in questions})
    return questions


def _vscode_input(item: dict[str, Any]) -> Question | None:
    """A VS Code input (`{"type": "promptString", "id", "description", "password", "default"}`)."""
    key = item.get("id")
    if not isinstance(key, str) or not re.fullmatch(r"[A-Za-z0-9_.\-]{1,100}", key):
        raise LinkError("an input of the link has no usable `id`")
    kind = item.get("type", "promptString")
    description = item.get("description")
    default = item.get("default")
    password = item.get("password", False)
    options = item.get("options")
    if kind == "pickString" and isinstance(options, list) and all(isinstance(o, str) for o in options):
        return Question(
            key,
            str(description)[:200] if isinstance(description, str) and description else key,
            kind="choice",
            required=True,
            choices=tuple(options[:200]),
            default=default if isinstance(default, str) else None,
        )
    return Question(
        key,
        str(description)[:200] if isinstance(description, str) and description else key,
        required=True,
        secret=password is True,
        default=default if isinstance(default, str) and password is not True else None,
    )


def _placeholder_questions(entry: ServerEntry, taken: set[str]) -> list[Question]:
    """Example values (`YOUR_API_KEY_HERE`) as questions, found as in a pasted snippet."""
    from app.config.placeholders import make_holes

    return make_holes(entry, set(taken))


def _move_secrets(entry: ServerEntry, asked: set[str]) -> dict[str, str]:
    """Keys typed in clear in the link → `${secret:NAME}` in the entry, values in the plan (they
    reach the keyring only if the plan is added). A value that holds a hole stays in place: it is
    asked, not a key."""
    from app.secrets.resolve import extract_secrets

    found = extract_secrets(entry, detect=True, taken=set(asked))
    secrets: dict[str, str] = {}
    for name, value in found.items():
        if ASK_REF.search(value):
            _map_strings(entry, _putting_back(secret_ref(name), value))
        else:
            secrets[name] = value
    return secrets


def _putting_back(ref: str, value: str) -> Callable[[str], str]:
    return lambda text: text.replace(ref, value)


def _map_strings(entry: ServerEntry, fn: Callable[[str], str]) -> None:
    if entry.command:
        entry.command = fn(entry.command)
    entry.args = [fn(a) for a in entry.args]
    entry.env = {k: fn(v) for k, v in entry.env.items()}
    entry.headers = {k: fn(v) for k, v in entry.headers.items()}
    if entry.url:
        entry.url = fn(entry.url)
    if entry.cwd:
        entry.cwd = fn(entry.cwd)


def _depth(value: Any, level: int = 0) -> int:
    if level > MAX_DEPTH:
        return level
    if isinstance(value, dict):
        return max((_depth(v, level + 1) for v in value.values()), default=level + 1)
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level + 1)
    return level


def _kind(value: Any) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "text"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    return "a number"


# --- making links (ours) -------------------------------------------------------------------------


def make_link(name: str, entry: dict[str, Any]) -> str:
    """An `mcp-desk://install` link for one entry (URL-safe base64, no padding)."""
    from urllib.parse import quote

    data = json.dumps(entry, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    config = base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")
    return f"mcp-desk://install?name={quote(name, safe='')}&config={config}"


def is_open_argument(text: str) -> bool:
    """True for a command-line argument the window opens (an install link, a server package path
    or `file://` URL): `mcp-desk LINK` starts the window, not a CLI command (app/__main__.py)."""
    head = text.strip().lower()
    return looks_like_link(head) or head.startswith("file:") or head.endswith((".mcpb", ".dxt"))
