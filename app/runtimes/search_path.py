"""Where a person's own Node.js and uv live when a GUI app's PATH does not show them.

A program started from the Dock, the Start menu or a desktop file gets the session's PATH, not
the one the person's shell profile builds: on macOS that is only /usr/bin:/bin:/usr/sbin:/sbin,
and nvm, volta, fnm, Homebrew, `pipx`/uv (`~/.local/bin`) and cargo put their programs elsewhere.
These are the places we also look, after the child's PATH and before the built-in runtimes.
"""

from __future__ import annotations

import logging
import os
import re
import subprocess
import sys
import threading
from collections.abc import Mapping
from pathlib import Path

from app.runtimes.pathext import is_windows, path_separator

logger = logging.getLogger(__name__)

LOGIN_SHELL_TIMEOUT = 5.0
"""A login shell that reads a slow profile (conda init, nvm) may take a second or two; one that
waits for input must not hold up starting a server."""
HOMEBREW_DIRS = ("/opt/homebrew/bin", "/usr/local/bin", "/home/linuxbrew/.linuxbrew/bin")
_MARK = "__MCP_DESK_PATH__"

_login_lock = threading.Lock()
_login_path: dict[tuple[str, str], list[str]] = {}


def home_of(env: Mapping[str, str]) -> Path:
    """The person's home folder: HOME from the child's environment (tests point it at a temp
    folder), then ours, then the system's idea of it."""
    home = (
        env.get("HOME") or os.environ.get("HOME") or env.get("USERPROFILE") or os.environ.get("USERPROFILE")
    )
    return Path(home) if home else Path.home()


def login_shell_path(env: Mapping[str, str], platform: str = sys.platform) -> list[str]:
    """macOS: the PATH the person's login shell builds (`$SHELL -ilc`), asked once and cached.
    Elsewhere (and when the shell fails or is slow) nothing: a Linux desktop session already
    reads the profile, and Windows has no such thing."""
    if platform != "darwin":
        return []
    shell = env.get("SHELL") or os.environ.get("SHELL") or "/bin/zsh"
    key = (shell, str(home_of(env)))
    with _login_lock:
        if key in _login_path:
            return _login_path[key]
        dirs = _ask_login_shell(shell, env)
        _login_path[key] = dirs
        return dirs


def _ask_login_shell(shell: str, env: Mapping[str, str]) -> list[str]:
    # Markers around the value: a profile that prints a greeting must not end up in the PATH.
    script = f'printf "%s" "{_MARK}$PATH{_MARK}"'
    child_env = {**os.environ, **env}
    try:
        out = subprocess.run(
            [shell, "-ilc", script],
            capture_output=True,
            text=True,
            timeout=LOGIN_SHELL_TIMEOUT,
            env=child_env,
            stdin=subprocess.DEVNULL,
            check=False,
        ).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        logger.info("could not ask the login shell %s for its PATH: %s", shell, exc)
        return []
    match = re.search(f"{_MARK}(.*?){_MARK}", out, re.S)
    if match is None:
        return []
    return [d for d in match.group(1).split(":") if d]


def forget_login_shell() -> None:
    """Ask the login shell again next time (tests; after the person installed Node)."""
    with _login_lock:
        _login_path.clear()


def _version_key(name: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", name)[:3])


def nvm_dirs(home: Path, env: Mapping[str, str]) -> list[str]:
    """nvm's `default` alias (a version prefix like `22` or `v22.3.0`), else its newest Node."""
    root = Path(env.get("NVM_DIR") or home / ".nvm")
    versions_dir = root / "versions" / "node"
    try:
        versions = sorted(
            (p for p in versions_dir.iterdir() if (p / "bin").is_dir()),
            key=lambda p: _version_key(p.name),
            reverse=True,
        )
    except OSError:
        return []
    if not versions:
        return []
    chosen = versions[0]
    try:
        alias = (root / "alias" / "default").read_text(encoding="utf-8").strip()
    except OSError:
        alias = ""
    wanted = alias.lstrip("v")
    if wanted and wanted[0].isdigit():
        for p in versions:  # newest first: "22" picks the newest 22.x
            name = p.name.lstrip("v")
            if name == wanted or name.startswith(wanted + "."):
                chosen = p
                break
    return [str(chosen / "bin")]


def fnm_dirs(home: Path, env: Mapping[str, str], platform: str) -> list[str]:
    """fnm's `default` alias (a link to the chosen installation)."""
    roots = [Path(env["FNM_DIR"])] if env.get("FNM_DIR") else []
    roots.append(home / ".local" / "share" / "fnm")
    roots.append(home / ".fnm")
    if platform == "darwin":
        roots.append(home / "Library" / "Application Support" / "fnm")
    found = []
    for root in roots:
        default = root / "aliases" / "default"
        candidate = default if is_windows(platform) else default / "bin"
        if candidate.is_dir():
            found.append(str(candidate))
    return found


def extra_dirs(env: Mapping[str, str], platform: str = sys.platform) -> list[str]:
    """The places GUI apps miss, in the order we search them (existing folders only)."""
    home = home_of(env)
    dirs: list[str] = []
    dirs += login_shell_path(env, platform)
    dirs += nvm_dirs(home, env)
    volta = Path(env.get("VOLTA_HOME") or home / ".volta")
    dirs.append(str(volta / "bin"))
    dirs += fnm_dirs(home, env, platform)
    if is_windows(platform):
        for var, sub in (("APPDATA", "npm"), ("ProgramFiles", "nodejs"), ("LOCALAPPDATA", "Volta\\bin")):
            base = env.get(var) or os.environ.get(var)
            if base:
                dirs.append(os.path.join(base, sub))
    else:
        dirs += HOMEBREW_DIRS
    dirs.append(str(home / ".local" / "bin"))
    dirs.append(str(home / ".cargo" / "bin"))
    seen: set[str] = set()
    out = []
    for d in dirs:
        if d not in seen and os.path.isdir(d):
            seen.add(d)
            out.append(d)
    return out


def search_path(env: Mapping[str, str], platform: str = sys.platform) -> str:
    """The child's PATH followed by the places GUI apps miss, as one PATH value."""
    sep = path_separator(platform)
    own = env.get("PATH", os.defpath)
    return sep.join([p for p in [own, *extra_dirs(env, platform)] if p])
