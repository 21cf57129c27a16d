"""Where MCP Desk keeps its files.

Everything goes through `config_dir()`, so a single switch (the `--config-dir` option or the
`MCP_DESK_CONFIG_DIR` environment variable) moves both files. Tests always point it at a temp dir.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "mcp-desk"
ENV_VAR = "MCP_DESK_CONFIG_DIR"
SERVERS_FILE = "servers.json"
SETTINGS_FILE = "settings.json"


def config_dir() -> Path:
    """The directory holding `servers.json` and `settings.json` (not created here)."""
    override = os.environ.get(ENV_VAR)
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def set_config_dir(path: str | os.PathLike[str]) -> Path:
    """Point this process and its children at another config dir (what `--config-dir` does).

    The environment variable is the single source of truth so child processes we start (the demo
    server, a test helper) see the same directory.
    """
    resolved = Path(path).expanduser().resolve()
    os.environ[ENV_VAR] = str(resolved)
    return resolved


def servers_path() -> Path:
    """The `mcpServers` file other apps (Claude Desktop, Cursor) can read too."""
    return config_dir() / SERVERS_FILE


def settings_path() -> Path:
    """Settings only MCP Desk understands, kept apart so `servers.json` stays portable."""
    return config_dir() / SETTINGS_FILE
