"""What the runtimes package hands out: the runtime a command runs on, and how to start it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

RuntimeKind = Literal["node", "uv", "docker"]


@dataclass(frozen=True)
class Runtime:
    """The Node.js, uv or Docker a server's command runs on."""

    kind: RuntimeKind
    version: str | None
    """"24.19.0", "0.13.9"; None when it could not be asked (a shim that does not answer), or
    was not (`resolve_command(..., ask_version=False)`: starting a server does not need it)."""
    builtin: bool
    """MCP Desk's own (from its dependencies), not the person's installation."""
    path: str
    """The node / uv / docker executable."""


@dataclass(frozen=True)
class Resolved:
    """How to start a command: `[executable, *args_prefix, *the entry's args]` with `env`."""

    executable: str
    args_prefix: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    """The child's environment with what the runtime needs (the private Node's bin dir first on PATH)."""
    runtime: Runtime | None = None


class CommandNotFound(Exception):
    """A command that is no runtime of ours and is not on the child's PATH."""

    def __init__(self, command: str) -> None:
        super().__init__(f"command not found: {command}")
        self.command = command


class RuntimeMissing(Exception):
    """A runtime command (docker, or node/uv without a built-in one) that cannot run: `reason`
    is a plain sentence saying what to do."""

    def __init__(self, kind: RuntimeKind, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason
