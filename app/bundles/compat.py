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
        return RuntimeInfo(kind, False, None, f"{_label(kind)} was not found on this computer")
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
        problems.append(
            f"This package is made for {made_for}, not for {PLATFORM_NAMES.get(platform, platform)}."
        )
    kind = runtime_kind(manifest)
    node_range = manifest.runtimes.get("node")
    python_range = manifest.runtimes.get("python")
    if kind == "node":
        wanted = f"Node.js {node_range}" if node_range else "Node.js"
        if runtime is None or not runtime.found:
            problems.append(f"It needs {wanted}, and no Node.js was found on this computer.")
        elif node_range and runtime.version:
            try:
                if not satisfies(runtime.version, node_range):
                    problems.append(f"It needs {wanted}; this computer has Node.js {runtime.version}.")
            except BadRange:
                problems.append(f"It asks for Node.js {node_range}, a version range MCP Desk cannot read.")
        if runtime is not None and runtime.found:
            needs.append(f"{wanted} — {runtime.description}")
    elif kind == "uv":
        wanted = f"Python {python_range}" if python_range else "Python"
        if runtime is None or not runtime.found:
            problems.append(f"It needs {wanted} through uv, and uv was not found on this computer.")
        else:
            needs.append(f"{wanted} — {runtime.description} brings it (downloaded on first start if needed)")
    else:
        needs.append("Its own program (nothing else to install)")
    return Compatibility(tuple(problems), tuple(needs))
