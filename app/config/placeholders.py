"""Example values in README snippets (`YOUR_API_KEY_HERE`, `<your-token>`, `/path/to/dir`).

A snippet copied from a README holds values meant to be replaced. Stored as they are, the server
starts with a key that does not work or a folder that does not exist, and the person does not know
why. `make_holes` finds them in an entry's strings and turns each into an `${ask:KEY}` hole with an
`app.install.plan.Question`, so the person is asked for the real value instead.

What counts as an example value is a short list of shapes READMEs use (see `_TOKEN_RULES` and
`_PATH`); a real value (a key typed in clear, a real folder) is never taken for one: the checks are
about words such as "your", "here", "xxx", angle brackets and well-known example paths.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass

from app.config.model import ServerEntry
from app.config.secret_names import SECRET_WORDS, is_secret_name, name_words
from app.install.plan import Question, ask_ref

# A VS Code / Cursor variable the importer cannot fill (`${workspaceFolder}`), or an environment
# variable that is not set (`${GITHUB_TOKEN}`, `${env:API_KEY}`). References of ours are not.
_VARIABLE = re.compile(r"\$\{(?!secret:|ask:|input:)(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}")
# `<your-token>`, `<path>`, `<YOUR_PROJECT_REF>`: angle brackets around a few words.
_ANGLE = re.compile(r"<[A-Za-z][A-Za-z0-9 _.\-/]{0,60}>")
# Example paths, to the end of the word: `/path/to/dir`, `/Users/username/Desktop`,
# `C:\Users\username\...`, `~/path/to/x`, `/home/user/projects`.
_USER = (
    r"(?:username|user-name|user_name|user|yourname|your-name|your_name|your-username|you|me|name"
    r"|YOUR_USERNAME|YOUR_USER|<[^<>]{1,30}>)"
)
_PATH = re.compile(
    r"(?:[A-Za-z]:)?(?:~|\.)?(?:[\\/]+|^|(?<=[{=]))"
    r"(?:path[\\/]+to|Users[\\/]+" + _USER + r"|home[\\/]+" + _USER + r")"
    r"(?=[\\/\s\"',}>]|$)[^\s\"',}>]*",
    re.IGNORECASE,
)
# A word-like run inside a value (a key, a token, a query value).
_WORD = re.compile(r"[A-Za-z0-9_.\-…*]+")
# `{path/to/storage.json}`, `{your key}`: curly braces around a few words (not JSON: no quotes).
_CURLY = re.compile(r"(?<!\$)\{[A-Za-z][A-Za-z0-9 _./\-]{0,60}\}")
_TOKEN_RULES = tuple(
    re.compile(p, re.IGNORECASE)
    for p in (
        r"^(?:[a-z]{1,6}[_\-])?your(?:[_\-]|(?=[A-Z]))",  # YOUR_API_KEY, your-api-key, fc-YOUR_KEY
        r"^your[a-z]*(?:key|token|secret|password|id|name|ref|url)$",  # yourapikey
        r"[_\-]here$",  # API_KEY_HERE
        r"^(?:insert|replace|enter|put|add)[_\-]",  # INSERT_KEY, replace-with-key
        r"^(?:replace[_\-]?me|change[_\-]?me|placeholder|todo|tbd|redacted)$",
        r"^(?:[a-z]{1,8}[_\-])?x{3,}[x_\-]*$",  # xxx, sk-xxxxxxxx, ghp_xxxx
        r"^(?:[a-z]{1,8}[_\-])?(?:\.\.\.|…)$",  # sk-..., ghp_..., ...
        r"^(?:[a-z]{1,8}[_\-])?\*{3,}$",  # ****
    )
)
# Prefixes real keys start with, which READMEs keep in front of the example (`sk-...`, `fc-YOUR_KEY`).
_KEY_PREFIXES = {"SK", "FC", "GHP", "PK", "TVLY", "BSA", "NTN", "SECRET", "CTX7SK", "GLPAT", "XOXB"}
# A `${VAR}` of these names is a folder, not a key.
_FOLDER_VARIABLES = {"workspaceFolder", "workspaceRoot", "fileDirname", "cwd", "projectRoot"}


@dataclass(frozen=True)
class Span:
    start: int
    end: int
    kind: str  # "path", "variable", "value"


def find_placeholders(value: str, environ: Mapping[str, str] | None = None) -> list[Span]:
    """The example values inside `value`, left to right, without overlaps.

    A variable reference whose variable is set (`${env:HOME}`, `${GITHUB_TOKEN}` exported in the
    shell) is not an example: it is filled from the environment when the server starts."""
    env = os.environ if environ is None else environ
    found: list[Span] = []

    def add(start: int, end: int, kind: str) -> None:
        if start < end and not any(s.start < end and start < s.end for s in found):
            found.append(Span(start, end, kind))

    for m in _VARIABLE.finditer(value):
        if m.group(1) in env:
            found.append(Span(m.start(), m.end(), "set"))  # kept as written, and no rule below takes it
            continue
        add(m.start(), m.end(), "variable")
    for m in _ANGLE.finditer(value):
        add(m.start(), m.end(), "value")
    for m in _CURLY.finditer(value):
        inner = m.group(0)[1:-1]
        if _PATH.fullmatch(inner) or any(
            rule.search(w) for w in _WORD.findall(inner) for rule in _TOKEN_RULES
        ):
            add(m.start(), m.end(), "path" if _PATH.fullmatch(inner) else "value")
    for m in _PATH.finditer(value):
        start = m.start()
        if start < len(value) and value[start] in "\\/" and start > 0 and value[start - 1] == ".":
            start -= 1
        add(start, m.end(), "path")
    for m in _WORD.finditer(value):
        word = m.group(0).strip(".-_") if not m.group(0).endswith(("...", "…")) else m.group(0)
        if word and any(rule.search(word) for rule in _TOKEN_RULES):
            add(m.start(), m.end(), "value")
    return sorted((s for s in found if s.kind != "set"), key=lambda s: s.start)


def is_placeholder(value: str) -> bool:
    return bool(find_placeholders(value))


def _upper_words(text: str) -> str:
    return "_".join(w.upper() for w in name_words(text))


def key_from_text(text: str) -> str:
    """A question key from the example value itself: `YOUR_API_KEY_HERE` → `API_KEY`,
    `<your-token>` → `TOKEN`, `${workspaceFolder}` → `WORKSPACE_FOLDER`."""
    m = _VARIABLE.fullmatch(text)
    if m:
        return _upper_words(m.group(1)) or "VALUE"
    words = [w.upper() for w in name_words(text.strip("<>[]{}$"))]
    drop = {"YOUR", "HERE", "INSERT", "REPLACE", "ENTER", "PUT", "WITH", "THE", "A", "AN", "ME"}
    kept = [w for w in words if w not in drop and not re.fullmatch(r"X{3,}", w)]
    if len(kept) >= 2 and kept[0] in _KEY_PREFIXES:  # fc-YOUR_API_KEY: the key, not "FC_API_KEY"
        kept = kept[1:]
    if not kept or (len(kept) == 1 and kept[0] in _KEY_PREFIXES):
        return "KEY" if words and words[0] in _KEY_PREFIXES else "VALUE"
    return "_".join(kept)


@dataclass
class _Place:
    where: str  # "env", "headers", "args", "url", "cwd", "command"
    name: str = ""  # the env variable / header
    index: int = 0  # argument position


def _context_key(place: _Place, value: str, span: Span, args: list[str]) -> str:
    """The best name for the value asked: the env variable, the flag, the query parameter..."""
    text = value[span.start : span.end]
    before = value[: span.start]
    from_text = key_from_text(text)
    if place.where == "env":
        whole = span.start == 0 and span.end == len(value)
        return place.name if whole or from_text in ("VALUE", "KEY", "TOKEN") else from_text
    if place.where == "headers":
        if place.name.lower() in ("authorization", "proxy-authorization") and from_text != "VALUE":
            return from_text
        return place.name
    m = re.search(r"(?:^|[?&;])([A-Za-z][A-Za-z0-9_.\-]*)=$", before)
    if m:  # `?api_key=VALUE`, `KEY=VALUE` (docker -e), `--flag=VALUE`
        return _upper_words(m.group(1).lstrip("-"))
    m = re.fullmatch(r"--?([A-Za-z][A-Za-z0-9\-_]*)=", before)
    if m:
        return _upper_words(m.group(1))
    m = re.match(r"([A-Za-z_][A-Za-z0-9_]*)=", value)
    if m and place.where == "args" and from_text in ("VALUE", "KEY", "TOKEN"):  # `NAME={... example ...}`
        return m.group(1)
    if place.where == "args" and span.start == 0 and place.index > 0:
        prev = args[place.index - 1]
        if re.fullmatch(r"--[A-Za-z][A-Za-z0-9\-_]*", prev) and from_text in ("VALUE", "KEY", "TOKEN"):
            return _upper_words(prev[2:])
    if span.kind == "path" and from_text in ("VALUE", "PATH_TO", "PATH"):
        return "FOLDER"
    if span.kind == "path":
        words = [
            w for w in from_text.split("_") if w not in ("PATH", "TO", "USERS", "USERNAME", "HOME", "USER")
        ]
        return "_".join(words[-2:]) or "FOLDER"
    return from_text


def _is_file(span: Span, text: str) -> bool:
    """An example path whose last part has an extension (`/path/to/memory.jsonl`)."""
    last = re.split(r"[\\/]", text.strip("{}<>"))[-1]
    return span.kind == "path" and bool(re.search(r"\.[A-Za-z0-9]{1,8}$", last))


def _is_folder(span: Span, text: str, key: str) -> bool:
    if span.kind == "path":
        return True
    m = _VARIABLE.fullmatch(text)
    if m and m.group(1) in _FOLDER_VARIABLES:
        return True
    words = set(key.split("_"))
    return bool(words & {"DIR", "DIRECTORY", "FOLDER", "PATH", "ROOT"}) and not words & SECRET_WORDS


def make_holes(
    entry: ServerEntry, taken: set[str] | None = None, environ: Mapping[str, str] | None = None
) -> list[Question]:
    """Replace each example value in `entry` by `${ask:KEY}` and return the questions, in order.

    The same example text met twice in the entry is one question. `taken` holds keys already
    used (by other questions of the same plan); new keys are added to it."""
    used = set(taken or ())
    questions: list[Question] = []
    by_text: dict[str, str] = {}

    def fill(value: str, place: _Place) -> str:
        spans = find_placeholders(value, environ)
        if not spans:
            return value
        out: list[str] = []
        pos = 0
        for span in spans:
            text = value[span.start : span.end]
            key = by_text.get(text)
            if key is None:
                wanted = _context_key(place, value, span, entry.args)
                wanted = "".join(c if c.isalnum() or c in "_.-" else "_" for c in wanted) or "VALUE"
                key, n = wanted, 2
                while key in used:
                    key, n = f"{wanted}_{n}", n + 1
                used.add(key)
                by_text[text] = key
                folder = _is_folder(span, text, key)
                prefix = re.match(r"([A-Za-z]{1,8})[_\-]", text)
                secret = not folder and (
                    bool(prefix and prefix.group(1).upper() in _KEY_PREFIXES)
                    or is_secret_name(key)
                    or is_secret_name(text.strip("<>${}"))
                    or (place.where == "headers" and place.name.lower() in ("authorization", "cookie"))
                    or (place.where == "env" and is_secret_name(place.name))
                )
                questions.append(
                    Question(
                        key=key,
                        label=key,
                        description=f"The snippet has the example value “{text}” here: "
                        "replace it with your own.",
                        kind=("file" if _is_file(span, text) else "directory") if folder else "string",
                        required=True,
                        secret=secret,
                        placeholder=text,
                    )
                )
            out.append(value[pos : span.start])
            out.append(ask_ref(key))
            pos = span.end
        out.append(value[pos:])
        return "".join(out)

    if entry.command:
        entry.command = fill(entry.command, _Place("command"))
    entry.args = [fill(a, _Place("args", index=i)) for i, a in enumerate(entry.args)]
    entry.env = {k: fill(v, _Place("env", k)) for k, v in entry.env.items()}
    entry.headers = {k: fill(v, _Place("headers", k)) for k, v in entry.headers.items()}
    if entry.url:
        entry.url = fill(entry.url, _Place("url"))
    if entry.cwd:
        entry.cwd = fill(entry.cwd, _Place("cwd"))
    if taken is not None:
        taken.update(used)
    return questions
