"""Where other apps keep their MCP server lists, so the GUI can offer "Import from Claude Desktop".

Paths follow each app's documented location per OS. The function takes the platform, home dir and
environment as arguments so tests can check all three OSes on one machine.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from app.config.importing import Format


@dataclass(frozen=True)
class ImportSource:
    app: str  # shown to the user: "Claude Desktop", "Cursor", "VS Code"...
    format: Format
    path: Path

    @property
    def exists(self) -> bool:
        return self.path.is_file()


def _app_data_dirs(platform: str, home: Path, environ: Mapping[str, str]) -> Path:
    """The per-user application data dir Electron apps use (Claude Desktop, VS Code)."""
    if platform == "darwin":
        return home / "Library" / "Application Support"
    if platform.startswith("win"):
        return Path(environ.get("APPDATA") or home / "AppData" / "Roaming")
    return Path(environ.get("XDG_CONFIG_HOME") or home / ".config")


def known_import_sources(
    platform: str | None = None,
    home: Path | None = None,
    environ: Mapping[str, str] | None = None,
    workspace: Path | None = None,
) -> list[ImportSource]:
    """Every usual location, existing or not (check `.exists`); most common first."""
    platform = platform or sys.platform
    home = home or Path.home()
    environ = os.environ if environ is None else environ
    data = _app_data_dirs(platform, home, environ)
    sources = [
        ImportSource("Claude Desktop", "claude", data / "Claude" / "claude_desktop_config.json"),
        ImportSource("Cursor", "cursor", home / ".cursor" / "mcp.json"),
        ImportSource("VS Code", "vscode", data / "Code" / "User" / "mcp.json"),
        ImportSource("VS Code (settings)", "vscode", data / "Code" / "User" / "settings.json"),
        ImportSource("VS Code Insiders", "vscode", data / "Code - Insiders" / "User" / "mcp.json"),
    ]
    if workspace is not None:
        sources += [
            ImportSource("Cursor (project)", "cursor", workspace / ".cursor" / "mcp.json"),
            ImportSource("VS Code (workspace)", "vscode", workspace / ".vscode" / "mcp.json"),
        ]
    return sources


def existing_import_sources(workspace: Path | None = None) -> list[ImportSource]:
    """The usual locations on this machine that hold a file."""
    return [s for s in known_import_sources(workspace=workspace) if s.exists]
