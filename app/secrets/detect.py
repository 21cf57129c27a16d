"""Which env variables, headers, arguments and URL parts hold values to move to the keyring.

Env and headers are judged by their names. Arguments and URLs have no names of their own, so a
value is secret when the flag before it says so (`--api-key X`, `--token=X`), when it has the shape
of a known token (`ghp_...`, `sk-...`, `AKIA...`), or when it is a URL query parameter such as
`?token=` or `?api_key=`. Each finding is a span inside the string, so only the secret part is
replaced by `${secret:NAME}` (`--token=${secret:ARG_TOKEN}`, `https://x/mcp?key=${secret:URL_KEY}`).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote_plus

from app.config.secret_names import arg_secret_name, is_secret_name, name_words, url_secret_name

SECRET_HEADERS = frozenset({"authorization", "proxy-authorization", "cookie"})

# A value that already is (or holds) a reference is not a secret value itself.
_REFERENCE = re.compile(r"^\$\{[^}]+\}$|\$\{(?:secret|input):")
_ANY_REFERENCE = re.compile(r"\$\{[^}]*\}")

# Known token shapes, with the keyring name a value of that shape gets. The bodies are long enough
# that words do not match; the loose prefixes (`sk-`, `xoxb-`) must also hold a digit, so a package
# name such as `sk-learn-extra-utilities` is not taken for an OpenAI key.
TOKEN_SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern))
    for name, pattern in (
        ("GITHUB_TOKEN", r"\bgh[pousr]_[A-Za-z0-9]{20,}"),
        ("GITHUB_TOKEN", r"\bgithub_pat_[A-Za-z0-9_]{22,}"),
        ("ANTHROPIC_API_KEY", r"\bsk-ant-[A-Za-z0-9_\-]{16,}"),
        ("OPENAI_API_KEY", r"\bsk-(?!ant-)[A-Za-z0-9_\-]{16,}"),
        ("STRIPE_KEY", r"\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}"),
        ("SLACK_TOKEN", r"\bxox[abposr]-[A-Za-z0-9\-]{10,}"),
        ("AWS_ACCESS_KEY_ID", r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
        ("GITLAB_TOKEN", r"\bglpat-[A-Za-z0-9_\-]{20,}"),
        ("GOOGLE_API_KEY", r"\bAIza[0-9A-Za-z_\-]{35}"),
        ("HF_TOKEN", r"\bhf_[A-Za-z0-9]{30,}"),
        ("NPM_TOKEN", r"\bnpm_[A-Za-z0-9]{36}"),
        ("JWT", r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]+"),
    )
)

_LOOSE_SHAPES = frozenset({"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "SLACK_TOKEN"})

# Words of a flag or parameter name that say its value names a secret instead of being one
# (`--token-file PATH`, `--api-key-env VAR`, `--max-tokens N`).
_NOT_A_VALUE = frozenset(
    {
        "FILE", "FILES", "PATH", "DIR", "FOLDER", "ENV", "VAR", "NAME", "ID", "URL", "URI", "TYPE",
        "LENGTH", "LEN", "SIZE", "LIMIT", "COUNT", "HEADER", "COMMAND", "CMD", "HELPER", "STORE",
        "MAX", "MIN", "TTL", "TIMEOUT", "FORMAT", "MODE", "PROVIDER", "METHOD", "SCHEME", "NO",
    }
)  # fmt: skip
# Names that are secret in arguments and URLs although an env variable of that name might not be.
_ARG_SECRET_WORDS = frozenset({"AUTH", "PASS", "SIG", "SIGNATURE", "APIKEY"})
_NOT_SECRET_VALUES = frozenset({"true", "false", "yes", "no", "none", "null", "on", "off", "auto"})
_HEADER_ARG = re.compile(
    r"^(?P<name>[A-Za-z][A-Za-z0-9\-]*)\s*:\s*(?:(?:Bearer|Basic|Token)\s+)?(?P<value>\S.*)$"
)

__all__ = [
    "Finding",
    "argv_visible_to_others",
    "find_arg_secrets",
    "find_url_secrets",
    "is_secret_env",
    "is_secret_header",
    "is_secret_name",
    "marked_arg_secret",
    "redact_args",
    "redact_url",
    "token_spans",
]


def is_secret_env(name: str, value: str) -> bool:
    """An env variable whose value should live in the keyring."""
    return bool(value) and not _REFERENCE.search(value) and is_secret_name(name)


def is_secret_header(name: str, value: str) -> bool:
    """A header whose value should live in the keyring (Authorization, X-API-Key...)."""
    if not value or _REFERENCE.search(value):
        return False
    return name.lower() in SECRET_HEADERS or is_secret_name(name)


@dataclass(frozen=True)
class Finding:
    """A secret inside one string: `text[start:end]`, to be kept under the keyring name `name`
    (made unique by the caller). `index` is the argument's position (0 for a URL)."""

    index: int
    start: int
    end: int
    name: str


def _random(body: str) -> bool:
    return any(c.isdigit() for c in body) and any(c.isalpha() for c in body)


def token_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, keyring name) of each known token shape in `text`, left to right, no overlaps."""
    found: list[tuple[int, int, str]] = []
    for name, pattern in TOKEN_SHAPES:
        for m in pattern.finditer(text):
            loose = name in _LOOSE_SHAPES
            if (not loose or _random(m.group(0))) and not any(
                s < m.end() and m.start() < e for s, e, _ in found
            ):
                found.append((m.start(), m.end(), name))
    return sorted(found)


def _is_secret_key(name: str) -> bool:
    """A flag (without its dashes) or URL parameter whose value is a secret."""
    words = [w.upper() for w in name_words(name)]
    if not words or any(w in _NOT_A_VALUE for w in words):
        return False
    return is_secret_name(name) or any(w in _ARG_SECRET_WORDS for w in words)


def _flag_name(arg: str) -> str | None:
    """`--api-key` → `api-key`; not a long flag (or `-k`, `--`) → None."""
    if not arg.startswith("--") or len(arg) < 4:
        return None
    return arg[2:]


def _plausible(value: str) -> bool:
    """Could `value` be a secret (and not a path, number, switch word, URL or reference)?"""
    if len(value) < 3 or value.startswith(("-", "/", "./", "../", "~")) or "${" in value:
        return False
    return not (value.isdigit() or value.lower() in _NOT_SECRET_VALUES or "://" in value)


def find_url_secrets(url: str, index: int = 0) -> list[Finding]:
    """Secrets in a URL: the password of `user:pass@`, values of secret query parameters
    (`token`, `key`, `api_key`, `access_token`, `auth`...) and known token shapes anywhere."""
    found: list[Finding] = []
    scheme = url.find("://")
    if scheme < 0:
        return found
    fragment = url.find("#")
    head = len(url) if fragment < 0 else fragment
    query = url.find("?", 0, head)
    authority_end = min(p for p in (url.find("/", scheme + 3), query, head) if p >= 0)
    at = url.rfind("@", scheme + 3, authority_end)
    if at >= 0:
        colon = url.find(":", scheme + 3, at)
        if colon >= 0 and colon + 1 < at and "${" not in url[colon + 1 : at]:
            found.append(Finding(index, colon + 1, at, url_secret_name("password")))
    if query >= 0:
        pos = query + 1
        for part in url[query + 1 : head].split("&"):
            key, sep, value = part.partition("=")
            start = pos + len(key) + 1
            pos += len(part) + 1
            if sep and value and not _ANY_REFERENCE.search(value) and _is_secret_key(unquote_plus(key)):
                found.append(Finding(index, start, start + len(value), url_secret_name(unquote_plus(key))))
    for start, end, name in token_spans(url):
        if not any(f.start < end and start < f.end for f in found) and not _in_reference(url, start):
            found.append(Finding(index, start, end, name))
    return sorted(found, key=lambda f: f.start)


def _in_reference(text: str, pos: int) -> bool:
    return any(m.start() <= pos < m.end() for m in _ANY_REFERENCE.finditer(text))


def find_arg_secrets(args: Sequence[str]) -> list[Finding]:
    """Secrets among a command's arguments, in order.

    - the value after a secret-named flag: `--api-key VALUE`, `--token=VALUE`;
    - a header given as an argument: `Authorization: Bearer VALUE` (mcp-remote's `--header`);
    - secrets in a URL argument (`mcp-remote https://x/mcp?token=VALUE`);
    - any known token shape (`ghp_...`, `sk-...`) wherever it is.
    """
    found: list[Finding] = []
    after_flag: str | None = None
    for i, arg in enumerate(args):
        flag, after_flag = after_flag, None
        if flag is not None and _plausible(arg):
            found.append(Finding(i, 0, len(arg), arg_secret_name(flag)))
            continue
        name = _flag_name(arg)
        if name is not None:
            key, sep, value = name.partition("=")
            if sep and _is_secret_key(key):
                if _plausible(value):
                    found.append(Finding(i, len(arg) - len(value), len(arg), arg_secret_name(key)))
                    continue
            elif not sep and _is_secret_key(key):
                after_flag = key
                continue
        header = _HEADER_ARG.match(arg)
        if header and "://" not in arg and is_secret_header(header.group("name"), header.group("value")):
            found.append(Finding(i, header.start("value"), len(arg), arg_secret_name(header.group("name"))))
            continue
        if "://" in arg:
            url_at = arg.find("://")
            begin = max(arg.rfind("=", 0, url_at), arg.rfind(" ", 0, url_at)) + 1
            for f in find_url_secrets(arg[begin:], i):
                found.append(Finding(i, f.start + begin, f.end + begin, f.name))
            continue
        for start, end, shape in token_spans(arg):
            if not _in_reference(arg, start):
                found.append(Finding(i, start, end, shape))
    return found


def marked_arg_secret(args: Sequence[str], index: int) -> Finding | None:
    """The part of `args[index]` a person marked secret: the value of `--flag=VALUE`, or the whole
    argument (named after the flag before it when there is one). None for an empty argument or one
    that already holds a reference."""
    arg = args[index]
    if not arg or _ANY_REFERENCE.search(arg):
        return None
    name = _flag_name(arg)
    if name is not None and "=" in name:
        key, _, value = name.partition("=")
        if value:
            return Finding(index, len(arg) - len(value), len(arg), arg_secret_name(key))
    previous = _flag_name(args[index - 1]) if index > 0 else None
    if previous is not None and "=" not in previous:
        return Finding(index, 0, len(arg), arg_secret_name(previous))
    return Finding(index, 0, len(arg), "")  # no name to take: the caller numbers it (TOKEN_1)


def _redact(text: str, spans: list[tuple[int, int]], mask: str) -> str:
    for start, end in sorted(spans, reverse=True):
        text = text[:start] + mask + text[end:]
    return text


def redact_args(args: Sequence[str], mask: str = "••••••") -> list[str]:
    """`args` with every detected secret replaced by `mask` (for showing a clear-text entry)."""
    out = list(args)
    findings = find_arg_secrets(args)
    for i in range(len(out)):
        out[i] = _redact(out[i], [(f.start, f.end) for f in findings if f.index == i], mask)
    return out


def redact_url(url: str, mask: str = "••••••") -> str:
    return _redact(url, [(f.start, f.end) for f in find_url_secrets(url)], mask)


def argv_visible_to_others() -> bool:
    """Can other local users read a child's command line? On Linux they can through /proc unless
    it is mounted with `hidepid`; on macOS and Windows `ps` and the task manager show it anyway."""
    if not sys.platform.startswith("linux"):
        return True
    try:
        mounts = Path("/proc/self/mountinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return True
    for line in mounts.splitlines():
        fields = line.split(" - ", 1)
        if len(fields) == 2 and fields[0].split()[4:5] == ["/proc"]:
            options = fields[1].split()[2:3]
            hidden = any(
                o.startswith("hidepid=") and o.split("=", 1)[1] not in ("0", "off")
                for o in ",".join(options).split(",")
            )
            return not hidden
    return True
