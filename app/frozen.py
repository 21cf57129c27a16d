"""Is MCP Desk running as a frozen bundle (PyInstaller, AppImage...), and how does it start itself?

`sys.frozen` alone is not enough: PyInstaller sets it, but Nuitka does not (it sets `__compiled__`
in each module), and a bundle made by another freezer may set neither. What matters to MCP Desk
is whether `sys.executable` is a Python that can run `-m app`, so the last test is the plain fact:
our own code was not loaded from a `.py` file on disk (it came from an archive inside the bundle).

An AppImage mounts itself at a new `/tmp/.mount_XXXX` folder on every start, so `sys.executable`
is a different path each time: the command that starts MCP Desk again (the demo server's entry in
servers.json) is the `.AppImage` file itself, which its runtime names in `$APPIMAGE`.

No Qt here: the CLI, the config store and the GUI all ask.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

APPIMAGE_VAR = "APPIMAGE"
APPDIR_VAR = "APPDIR"


def running_frozen() -> bool:
    """True when this process is a bundled MCP Desk, not a Python running our source."""
    if getattr(sys, "frozen", False) or hasattr(sys, "_MEIPASS"):
        return True  # PyInstaller, cx_Freeze, py2app
    if "__compiled__" in globals():
        return True  # Nuitka
    # Any other freezer: this very module was not read from a source file on disk.
    source = globals().get("__file__")
    return not (isinstance(source, str) and source.endswith(".py") and Path(source).is_file())


def app_executable() -> str:
    """The command that starts this MCP Desk again, stable across starts where that matters."""
    appimage = os.environ.get(APPIMAGE_VAR)
    appdir = os.environ.get(APPDIR_VAR)
    if appimage and appdir and running_frozen() and Path(appimage).is_file():
        try:
            inside = Path(sys.executable).resolve().is_relative_to(Path(appdir).resolve())
        except OSError:
            inside = False
        if inside:  # this process really is that AppImage's, not a child that inherited the variables
            return appimage
    return sys.executable


def self_command(*args: str) -> tuple[str, list[str]]:
    """(command, args) that run `mcp-desk ARGS...` with this installation: the frozen binary
    takes the subcommand directly, a source install runs `python -m app`."""
    if running_frozen():
        return app_executable(), list(args)
    return sys.executable, ["-m", "app", *args]
