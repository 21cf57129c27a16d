"""Where things are: MCP Desk's own folders (data, logs, crash reports), and where other apps keep
their MCP server lists, so the GUI can offer "Import from Claude Desktop".

MCP Desk's folders are the platform's user folders for "mcp-desk" (platformdirs), each movable by
an environment variable (tests and portable set-ups use them; child processes inherit them):

    config   app.config.paths.config_dir()  MCP_DESK_CONFIG_DIR  ~/.config/mcp-desk
                                                                  ~/Library/Application Support/mcp-desk
                                                                  %LOCALAPPDATA%\\mcp-desk
    data     data_dir()     MCP_DESK_DATA_DIR   ~/.local/share/mcp-desk (installed packages, caches)
                                                ~/Library/Application Support/mcp-desk
                                                %LOCALAPPDATA%\\mcp-desk
    logs     log_dir()      MCP_DESK_LOG_DIR    ~/.local/state/mcp-desk/log
             (else <MCP_DESK_DATA_DIR>/logs     ~/Library/Logs/mcp-desk
              when only that one is set)        %LOCALAPPDATA%\\mcp-desk\\Logs
    crash reports  crash_dir()  <logs>/crash-reports

Other apps' paths follow each app's documented location per OS. The function takes the platform,
home dir and environment as arguments so tests can check all three OSes on one machine.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only an annotation: crash reports and the log file import this module early
    from app.config.importing import Format

APP_NAME = "mcp-desk"
DATA_DIR_VAR = "MCP_DESK_DATA_DIR"
LOG_DIR_VAR = "MCP_DESK_LOG_DIR"


def data_dir(environ: Mapping[str, str] | None = None) -> Path:
    """MCP Desk's data folder (not created here)."""
    environ = os.environ if environ is None else environ
    override = environ.get(DATA_DIR_VAR)
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def log_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The log folder: the log file and the crash reports (not created here).

    A data folder moved by its variable takes the logs along unless they are moved too: a test
    or a portable set-up that moves its data never writes into the person's own log folder."""
    environ = os.environ if environ is None else environ
    override = environ.get(LOG_DIR_VAR)
    if override:
        return Path(override).expanduser()
    if environ.get(DATA_DIR_VAR):
        return data_dir(environ) / "logs"
    import platformdirs

    return Path(platformdirs.user_log_dir(APP_NAME, appauthor=False))


def crash_dir(environ: Mapping[str, str] | None = None) -> Path:
    return log_dir(environ) / "crash-reports"


class ImportSource:
    """Another app's server list. A plain class, not a dataclass: the crash reports import this
    module before the window's first paint, and a frozen dataclass costs ~3.5 M instructions to
    define (its methods compiled from generated source on every import)."""

    __slots__ = ("app", "format", "path")

    def __init__(self, app: str, format: Format, path: Path) -> None:
        self.app = app  # shown to the user: "Claude Desktop", "Cursor", "VS Code"...
        self.format = format
        self.path = path

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ImportSource):
            return NotImplemented
        return (self.app, self.format, self.path) == (other.app, other.format, other.path)

    def __hash__(self) -> int:
        return hash((self.app, self.format, self.path))

    def __repr__(self) -> str:
        return f"ImportSource({self.app!r}, {self.format!r}, {self.path!r})"

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
