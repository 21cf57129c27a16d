"""Where the pinned npm test tools live (installed by `tests/setup_node.sh`)."""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
NODE_DIR = REPO / "tests" / "node"
SETUP_SCRIPT = REPO / "tests" / "setup_node.sh"
MODULES = NODE_DIR / "node_modules"
BIND_LOCALHOST = NODE_DIR / "bind-localhost.cjs"
EVERYTHING_JS = MODULES / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js"
CONFORMANCE_JS = MODULES / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
INSPECTOR_JS = MODULES / "@modelcontextprotocol" / "inspector" / "clients" / "launcher" / "build" / "index.js"


class NodeToolsUnavailable(RuntimeError):
    """npm or the registry is not reachable, so the npm test servers cannot be installed."""


@functools.cache
def node22() -> Path:
    """Path of the private Node 22 binary, installing the npm tools first if needed (once per process).

    `setup_node.sh` returns at once when `node_modules` already matches the lockfile.
    """
    try:
        done = subprocess.run(
            ["bash", str(SETUP_SCRIPT)], capture_output=True, text=True, timeout=600, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise NodeToolsUnavailable(f"tests/setup_node.sh could not run: {exc}") from exc
    if done.returncode != 0:
        tail = "\n".join(done.stderr.strip().splitlines()[-5:])
        raise NodeToolsUnavailable(f"tests/setup_node.sh failed ({done.returncode}): {tail}")
    path = Path(done.stdout.strip().splitlines()[-1])
    if not path.is_file():
        raise NodeToolsUnavailable(f"tests/setup_node.sh did not produce a Node binary at {path}")
    return path
