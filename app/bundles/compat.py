"""Does this computer meet a package's `compatibility`? Platforms, and the Node.js a Node package
needs. Python packages run on uv, which brings a matching Python itself, so a Python range becomes
uv's `--python` request instead of a check here.

Version ranges are read in the two spellings manifests use: npm's (`>=16.0.0`, `^18`, `~1.2`,
`>=1 <2`, `a || b`) and Python's (`>=3.8,<4.0`, `~=3.10`, `==3.*`). A range we cannot read is
said so, never guessed to pass.
"""

from __future__ import annotations

import logging
import re
import sys
from dataclasses import dataclass

from app.bundles.manifest import Manifest
from app.words import QT_TRANSLATE_NOOP, fill

logger = logging.getLogger(__name__)

PLATFORM_NAMES = {"darwin": "macOS", "win32": "Windows", "linux": "Linux"}
_COMPARATOR = re.compile(r"^(>=|<=|==|!=|~=|>|<|=|\^|~)?\s*v?([0-9]+(?:\.[0-9x*]+)*)")


class BadRange(ValueError):
    pass


def parse_version(text: str) -> tuple[int, ...]:
    m = re.match(r"^v?(\d+(?:\.\d+)*)", text.strip())
    if not m:
        raise BadRange(text)
    return tuple(int(p) for p in m.group(1).split("."))


def _pad(v: tuple[int, ...], n: int = 3) -> tuple[int, ...]:
    return v + (0,) * (n - len(v))


def _comparator(op: str, text: str, have: tuple[int, ...]) -> bool:
    parts = [p for p in text.split(".")]
    wild = next((i for i, p in enumerate(parts) if p in ("x", "*")), None)
    fixed = tuple(int(p) for p in parts[: wild if wild is not None else len(parts)])
    want = _pad(fixed)
    have3 = _pad(have)[: max(3, len(have))]
    if op in ("", "=", "==") and (wild is not None or len(fixed) < 3):
        return have3[: len(fixed)] == fixed  # "18", "18.x", "==3.*" mean "any 18"
    if op == "^":
        first = next((i for i, p in enumerate(want) if p != 0), len(fixed) - 1)
        first = min(first, max(len(fixed) - 1, 0))
        return have3 >= want and have3[: first + 1] == want[: first + 1]
    if op == "~":
        keep = 2 if len(fixed) >= 2 else 1
        return have3 >= want and have3[:keep] == want[:keep]
    if op == "~=":
        keep = max(len(fixed) - 1, 1)
        return have3 >= want and have3[:keep] == fixed[:keep]
    cmp = (have3 > want) - (have3 < want)
    return {
        ">=": cmp >= 0,
        "<=": cmp <= 0,
        ">": cmp > 0,
        "<": cmp < 0,
        "=": cmp == 0,
        "==": cmp == 0,
        "": cmp == 0,
        "!=": cmp != 0,
    }[op]


def satisfies(version: str, spec: str) -> bool:
    """Whether `version` is in the range `spec`; raises `BadRange` for a range we cannot read."""
    have = parse_version(version)
    spec = spec.strip()
    if spec in ("", "*", "x"):
        return True
    for alternative in spec.split("||"):
        words = [w for w in re.split(r"[,\s]+", alternative.strip()) if w]
        # npm writes ">= 16" with a space: join a bare operator with what follows.
        joined: list[str] = []
        for w in words:
            if joined and re.fullmatch(r"(>=|<=|==|!=|~=|>|<|=|\^|~)", joined[-1]):
                joined[-1] += w
            else:
                joined.append(w)
        if not joined:
            continue
        ok = True
        for word in joined:
            m = _COMPARATOR.match(word)
            if not m or m.end() != len(word):
                raise BadRange(spec)
            if not _comparator(m.group(1) or "", m.group(2), have):
                ok = False
        if ok:
            return True
    return False


# What a package asks of this computer, as templates (app.ui.i18n.translate_reason).
NOT_FOUND = QT_TRANSLATE_NOOP("Reasons", "%1 was not found on this computer")
MADE_FOR = QT_TRANSLATE_NOOP("Reasons", "This package is made for %1, not for %2.")
NO_NODE = QT_TRANSLATE_NOOP("Reasons", "It needs %1, and no Node.js was found on this computer.")
OTHER_NODE = QT_TRANSLATE_NOOP("Reasons", "It needs %1; this computer has Node.js %2.")
BAD_RANGE = QT_TRANSLATE_NOOP("Reasons", "It asks for Node.js %1, a version range MCP Desk cannot read.")
NO_UV = QT_TRANSLATE_NOOP("Reasons", "It needs %1 through uv, and uv was not found on this computer.")
FROM = QT_TRANSLATE_NOOP("Reasons", "%1 — %2")
BROUGHT_BY = QT_TRANSLATE_NOOP("Reasons", "%1 — %2 brings it (downloaded on first start if needed)")
OWN_PROGRAM = QT_TRANSLATE_NOOP("Reasons", "Its own program (nothing else to install)")
TEMPLATES: tuple[str, ...] = (
    MADE_FOR,
    NO_NODE,
    OTHER_NODE,
    BAD_RANGE,
    NO_UV,
    BROUGHT_BY,
    NOT_FOUND,
    OWN_PROGRAM,
    FROM,
)


@dataclass(frozen=True)
class RuntimeInfo:
    kind: str
    found: bool
    version: str | None
    description: str


def find_runtime(kind: str) -> RuntimeInfo:
    """The Node.js or uv the server will run on (`app.runtimes`: the person's own, else the
    built-in one) — the same answer the launch gets, since the entry's command is `node`/`uv`.
    May run `node --version` once (cached there): call it off the GUI thread."""
    from app import runtimes

    command = {"node": "node", "uv": "uv"}[kind]
    runtime = runtimes.runtime_for(command)
    if runtime is None:
        return RuntimeInfo(kind, False, None, fill(NOT_FOUND, _label(kind)))
    return RuntimeInfo(kind, True, runtime.version, runtimes.describe(runtime))


def _label(kind: str) -> str:
    return {"node": "Node.js", "uv": "uv"}.get(kind, kind)


def runtime_kind(manifest: Manifest) -> str | None:
    """Which runtime the package's server is started with: "node", "uv" or None (a program)."""
    if manifest.server_type == "node":
        return "node"
    if manifest.server_type in ("python", "uv"):
        return "uv"
    return None


@dataclass(frozen=True)
class Compatibility:
    problems: tuple[str, ...]
    """Why this computer may not run it (shown; installing is still allowed)."""
    needs: tuple[str, ...]
    """What it needs and what will provide it ("Node.js >=18 — your Node.js 20.1")."""


def check(
    manifest: Manifest, *, platform: str | None = None, runtime: RuntimeInfo | None = None
) -> Compatibility:
    """What the package asks of this computer; `runtime` is `find_runtime(runtime_kind(...))`."""
    platform = platform or sys.platform
    problems: list[str] = []
    needs: list[str] = []
    if manifest.platforms is not None and platform not in manifest.platforms:
        names = [PLATFORM_NAMES.get(p, p) for p in manifest.platforms]
        made_for = (
            " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names) or "no system"
        )
        problems.append(fill(MADE_FOR, made_for, PLATFORM_NAMES.get(platform, platform)))
    kind = runtime_kind(manifest)
    node_range = manifest.runtimes.get("node")
    python_range = manifest.runtimes.get("python")
    if kind == "node":
        wanted = f"Node.js {node_range}" if node_range else "Node.js"
        if runtime is None or not runtime.found:
            problems.append(fill(NO_NODE, wanted))
        elif node_range and runtime.version:
            try:
                if not satisfies(runtime.version, node_range):
                    problems.append(fill(OTHER_NODE, wanted, runtime.version))
            except BadRange:
                problems.append(fill(BAD_RANGE, node_range))
        if runtime is not None and runtime.found:
            needs.append(fill(FROM, wanted, runtime.description))
    elif kind == "uv":
        wanted = f"Python {python_range}" if python_range else "Python"
        if runtime is None or not runtime.found:
            problems.append(fill(NO_UV, wanted))
        else:
            needs.append(fill(BROUGHT_BY, wanted, runtime.description))
    else:
        needs.append(OWN_PROGRAM)
    return Compatibility(tuple(problems), tuple(needs))
