"""Finding a command on a PATH the way the target system does, Windows included.

`shutil.which` on POSIX ignores PATHEXT, so `npx` would never match the `npx.cmd` shim npm
installs on Windows; the platform is a parameter so that the Windows rules are tested here too.
"""

from __future__ import annotations

import ntpath
import os
import posixpath
import shutil

DEFAULT_PATHEXT = ".COM;.EXE;.BAT;.CMD"


def is_windows(platform: str) -> bool:
    return platform.startswith("win")


def path_separator(platform: str) -> str:
    return ";" if is_windows(platform) else ":"


def has_directory(command: str, platform: str) -> bool:
    """True for a command given as a path (`./run.sh`, `C:\\tools\\npx.cmd`), not a bare name."""
    if is_windows(platform):
        return "\\" in command or "/" in command
    return "/" in command


def command_name(command: str, platform: str, pathext: str | None = None) -> str:
    """The bare program name: `npx` for `npx`, `/usr/bin/npx`, `C:\\nodejs\\NPX.CMD`."""
    if is_windows(platform):
        base = ntpath.basename(command).lower()
        root, ext = ntpath.splitext(base)
        if ext and ext.upper() in _extensions(pathext):
            return root
        return base
    return posixpath.basename(command)


def _extensions(pathext: str | None) -> list[str]:
    text = pathext if pathext else DEFAULT_PATHEXT
    return [ext.strip().upper() for ext in text.split(";") if ext.strip()]


def which(command: str, path: str, platform: str, pathext: str | None = None) -> str | None:
    """The file `command` runs on `path` (a PATH value), or None."""
    if not is_windows(platform):
        return shutil.which(command, path=path)
    exts = _extensions(pathext)
    _, ext = ntpath.splitext(command)
    # As cmd.exe: a name that already ends in a PATHEXT extension is tried as it is; otherwise
    # each extension in PATHEXT's order (npx → npx.CMD before npx.ps1 or the extensionless
    # POSIX script npm also installs next to it, which Windows cannot run).
    names = [command] if ext and ext.upper() in exts else [command + e.lower() for e in exts]
    for directory in path.split(";"):
        directory = directory.strip().strip('"')
        if not directory:
            continue
        for name in names:
            candidate = os.path.join(directory, name)
            if os.path.isfile(candidate):
                return candidate
    return None
