"""A local server's process in one place: find its command, start it, stop it and all it started.

Used by the stdio transport (app.mcp.stdio), the doctor (which connects through the engine, so it
starts the process the same way) and the Add dialog's "not found" check (`locate`). Before, each
answered "where is this command" in its own way (the dialog with the app's own PATH, missing the
built-in Node.js; the doctor and the engine each with their copy of the server's environment).

- `server_environment(env)`  what a server's process gets: the SDK's small allowlist of ours
  (HOME, PATH, …) with the entry's own env on top, so an entry that sets PATH is looked up there.
- `find_command` / `resolve_command`  what to start for it (app.runtimes: the person's Node/uv,
  else the built-in ones); `locate` is the same answer without questions to Docker or a runtime.
- `spawn`  in its own session and process group, marked (app.mcp.proctree), under a parent-death
  signal where there is one, one fork at a time per loop.
- `stop`  the spec's order: close stdin, wait, SIGTERM, wait, SIGKILL; for the whole group and
  every descendant, also those that left the group.

The SDK's own process-tree termination (`mcp.os.posix.utilities.terminate_posix_process_tree`) is
not used on POSIX: it waits for the process group to disappear, and with the app as child
subreaper the group's dead orphans are our zombies, which it does not collect (so it would always
run out its timeout); and it does not reach the helpers that left the group (setsid), which
`proctree.ServerTree` does. Its Windows half (job objects) needs the server's stderr as a file,
not a pipe we read, so the stdio transport stays POSIX-only as before.

Why stop can be fast: after stdin closes, a server that is shutting down works (CPU time goes up,
or it is runnable), while one that ignores a closed stdin — a Node server with a timer, a Python
one with a thread left — sleeps. So instead of always waiting the whole grace, `stop` sends
SIGTERM (still a graceful signal) once the server's processes have been idle for `IDLE_WINDOW`;
one that keeps working gets up to `STDIN_CLOSE_GRACE`.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import signal
import subprocess
import sys
import time
import weakref
from collections.abc import Mapping, Sequence
from contextlib import suppress
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Literal

import anyio
import anyio.abc

from app.mcp import proctree
from app.mcp.childwatch import use_pidfd_watcher
from app.runtimes.model import CommandNotFound, Resolved, RuntimeMissing

__all__ = [
    "CommandNotFound",
    "EarlyStart",
    "Resolved",
    "RuntimeMissing",
    "ServerProcess",
    "Stopped",
    "claim_early",
    "discard_early",
    "find_command",
    "inherited_environment",
    "locate",
    "quick_stop",
    "resolve_command",
    "server_environment",
    "spawn",
    "start_early",
    "stop",
]

logger = logging.getLogger(__name__)

STDIN_CLOSE_GRACE = 1.0
"""At most this long after stdin closes for a server that is still working to exit (as before;
the SDK's stdio_client waits 2 s, but every CLI command would pay for it with a slow server);
one that sits idle is sent SIGTERM after `IDLE_WINDOW`."""
IDLE_WINDOW = 0.25
"""A server whose processes used no CPU and were not runnable this long after stdin closed is
taken to ignore the closed stdin."""
ANSWERED_IDLE_WINDOW = 0.1
"""`IDLE_WINDOW` where the server's answer has been given already and nobody waits on what it
does after its stdin closes (a CLI command: `quick_stop`); SIGTERM is still the graceful signal."""
_IDLE_WINDOW_HERE: ContextVar[float | None] = ContextVar("mcp_desk_idle_window", default=None)
TERM_GRACE = 2.0
"""After SIGTERM, before SIGKILL."""
POLL = 0.01
ACTIVITY_LOOKS = 5
"""Look at the server's activity this many times per idle window (every 50 ms for `IDLE_WINDOW`,
20 ms for `ANSWERED_IDLE_WINDOW`): an idle server is then told within a fifth of the window."""

How = Literal["exited", "idle", "grace", "killed"]


# ------------------------------------------------------------------------------ finding it


INHERITED_ENV_VARS: tuple[str, ...] = (
    (
        "APPDATA",
        "HOMEDRIVE",
        "HOMEPATH",
        "LOCALAPPDATA",
        "PATH",
        "PATHEXT",
        "PROCESSOR_ARCHITECTURE",
        "SYSTEMDRIVE",
        "SYSTEMROOT",
        "TEMP",
        "USERNAME",
        "USERPROFILE",
    )
    if sys.platform == "win32"
    else ("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER")
)
"""The SDK's allowlist (`mcp.client.stdio.DEFAULT_INHERITED_ENV_VARS`), copied: importing
`mcp.client.stdio` imports the whole SDK (~0.8 s), and the CLI starts the server's process before
that (`start_early`). tests/mcp/test_sdk_canary.py checks the copy still equals the SDK's."""


def inherited_environment() -> dict[str, str]:
    """Ours that a server inherits: as the SDK's `get_default_environment` (the allowlist; a
    value that is a shell function, `() {...`, is left out)."""
    return {
        key: value
        for key in INHERITED_ENV_VARS
        if (value := os.environ.get(key)) is not None and not value.startswith("()")
    }


def server_environment(own: Mapping[str, str]) -> dict[str, str]:
    """The environment a server's process starts with: the SDK's allowlist of ours (HOME, PATH,
    SHELL, TERM, USER, LOGNAME) and the entry's own variables over it."""
    return inherited_environment() | dict(own)


def _in_cwd(command: str, cwd: str | None) -> str:
    """A relative path with a directory (`./server.sh`, `bin/run`) is the server's working
    directory's, as the process that starts there would see it; a bare name is the PATH's."""
    from app.runtimes.pathext import has_directory

    if cwd and has_directory(command, sys.platform) and not os.path.isabs(command):
        return os.path.join(cwd, command)
    return command


def find_command(
    command: str, env: Mapping[str, str], cwd: str | None = None, *, ask_version: bool = True
) -> Resolved:
    """What to start for `command` in a process with environment `env` started in `cwd`
    (blocking: it may ask a runtime its version or Docker its daemon). Raises CommandNotFound
    or RuntimeMissing."""
    from app.runtimes.resolve import resolve_command as resolve

    return resolve(_in_cwd(command, cwd), env, ask_version=ask_version)


def _to_start(command: str, env: Mapping[str, str], cwd: str | None) -> Resolved:
    return find_command(command, env, cwd, ask_version=False)


async def resolve_command(command: str, env: Mapping[str, str], cwd: str | None = None) -> Resolved:
    """`find_command` on a worker thread, to start the server: the runtime is not asked its
    version (no `node --version` before every start; nothing that starts a server shows it)."""
    return await anyio.to_thread.run_sync(_to_start, command, env, cwd)


def locate(command: str, env: Mapping[str, str], cwd: str | None = None) -> str | None:
    """The program that would run for `command` with `env` (a built-in runtime counts), or None
    when nothing would: the Add dialog's "not found". Quick enough for the GUI thread: it asks
    neither Docker's daemon nor a runtime's version (the same order as `find_command` otherwise).
    """
    from app.runtimes.docker import DOCKER_DIRS
    from app.runtimes.pathext import command_name, has_directory, path_separator, which
    from app.runtimes.private import private_node, private_uv
    from app.runtimes.resolve import kind_of
    from app.runtimes.search_path import extra_dirs

    platform = sys.platform
    pathext = env.get("PATHEXT") or os.environ.get("PATHEXT")
    command = _in_cwd(command, cwd)
    if has_directory(command, platform):
        return command if os.path.isfile(command) and os.access(command, os.X_OK) else None
    path = env.get("PATH", os.defpath)
    found = which(command, path, platform, pathext)
    kind = kind_of(command, platform)
    if found is not None or kind is None:
        return found
    name = command_name(command, platform, pathext)
    more = [*extra_dirs(env, platform), *(DOCKER_DIRS if kind == "docker" else ())]
    found = which(name, path_separator(platform).join(more), platform, pathext)
    if found is not None or kind == "docker":
        return found
    if kind == "node":
        node = private_node()
        return node.node if node is not None else None
    uv = private_uv()
    return uv.uv if uv is not None else None


# ----------------------------------------------------------------------------- starting it


@dataclass
class ServerProcess:
    """A started server: its process (the group leader), its known tree, the orphan reaper."""

    process: anyio.abc.Process
    tree: proctree.ServerTree
    reaper: proctree.Reaper | None

    @property
    def pid(self) -> int:
        return self.process.pid


_SPAWN_LOCKS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = weakref.WeakKeyDictionary()


def _spawn_lock() -> asyncio.Lock:
    """One fork at a time per event loop: forking blocks the loop for a few milliseconds, and
    twenty servers started together would otherwise block it for all of them in one go."""
    loop = asyncio.get_running_loop()
    lock = _SPAWN_LOCKS.get(loop)
    if lock is None:
        lock = _SPAWN_LOCKS[loop] = asyncio.Lock()
    return lock


async def spawn(resolved: Resolved, args: Sequence[str], cwd: str | None) -> ServerProcess:
    """Start `resolved` with `args`, pipes on stdin/stdout/stderr, in a session (and process
    group) of its own, marked so its orphans are still known as its own."""
    use_pidfd_watcher()
    marker = proctree.new_marker()
    env = {**resolved.env, proctree.MARKER_VAR: marker}
    async with _spawn_lock():
        with proctree.spawning():
            process = await anyio.open_process(
                [*proctree.pdeathsig_prefix(), resolved.executable, *resolved.args_prefix, *args],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
                cwd=cwd,
                start_new_session=True,  # own group: one killpg reaches npx's node and most grandchildren
            )
            proctree.add_leader(process.pid)
        # Let the loop run (a GUI paints) before the next server is forked.
        await anyio.sleep(0)
    return ServerProcess(process, proctree.ServerTree(process.pid, marker), proctree.Reaper.using())


# ------------------------------------------------------------------------- starting it early


@dataclass
class EarlyStart:
    """A server process started before its connection exists (`start_early`)."""

    key: tuple[object, ...]
    resolved: Resolved
    server: ServerProcess
    claimed: bool = False
    """A stdio transport took it over (and with it the stopping)."""


_EARLY: list[EarlyStart] = []


def _early_key(
    command: str, args: Sequence[str], env: Mapping[str, str], cwd: str | None
) -> tuple[object, ...]:
    return (command, tuple(args), tuple(sorted(env.items())), cwd)


async def start_early(
    command: str, args: Sequence[str], env: Mapping[str, str], cwd: str | None
) -> EarlyStart | None:
    """Start the server's process now, for the stdio transport that opens with exactly these
    command, args, environment and cwd to take over (`claim_early`).

    Why: the CLI imports the MCP SDK (~0.8 s) only after this, so the server's own start (Node:
    0.4–0.6 s) runs meanwhile instead of after it. None when it cannot start here (no such
    command, no working directory, a failed fork): the transport then tries as always and says
    why. The caller must `discard_early` on every way out; it stops the process unless a
    transport took it."""
    if cwd and not os.path.isdir(cwd):
        return None
    try:
        resolved = await resolve_command(command, env, cwd)
        server = await spawn(resolved, args, cwd)
    except (CommandNotFound, RuntimeMissing, OSError) as exc:
        logger.debug("not started early (%s): %s", command, exc)
        return None
    early = EarlyStart(_early_key(command, args, env, cwd), resolved, server)
    _EARLY.append(early)
    return early


def claim_early(
    command: str, args: Sequence[str], env: Mapping[str, str], cwd: str | None
) -> EarlyStart | None:
    """The process `start_early` started for exactly this start, now the caller's to stop; None
    when there is none (then the caller starts one)."""
    key = _early_key(command, args, env, cwd)
    for early in _EARLY:
        # One that exited meanwhile is taken too: the transport reads its stderr and exit code
        # and says why, as it would have for a process it started itself.
        if early.key == key:
            _EARLY.remove(early)
            early.claimed = True
            return early
    return None


async def discard_early(early: EarlyStart) -> None:
    """Stop an early process no transport took (the connection failed before it opened one, or
    opened it with another environment); nothing when one did. Bounded like `stop`."""
    if early.claimed:
        return
    early.claimed = True
    with suppress(ValueError):
        _EARLY.remove(early)
    await stop(early.server)
    await release(early.server)


# ----------------------------------------------------------------------------- stopping it


@dataclass
class Stopped:
    """How a stop went."""

    how: How
    """"exited" after stdin closed; "idle": sent SIGTERM because it sat idle with stdin closed;
    "grace": sent SIGTERM when the grace ran out while it still worked; "killed": needed SIGKILL."""
    returncode: int | None
    group_left: bool
    """A process of the server's survived SIGKILL (should never happen)."""
    seconds: float


def group_alive(pgid: int) -> bool:
    """True while any process of the group exists (zombies included until reaped)."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _signal_all(pgid: int, tree: proctree.ServerTree, sig: signal.Signals) -> None:
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)
    tree.signal(sig)


def _all_gone(pgid: int, tree: proctree.ServerTree) -> bool:
    # alive() first: it collects the dead orphans reparented to us, which count in the group.
    return not tree.alive() and not group_alive(pgid)


async def _wait_exit(process: anyio.abc.Process, timeout: float) -> bool:
    # Polling returncode, not process.wait(): on asyncio that also waits for pipe EOF, and a
    # grandchild holding the pipes would make an exited server look hung.
    with anyio.move_on_after(timeout):
        while process.returncode is None:
            await anyio.sleep(POLL)
    return process.returncode is not None


async def _wait_all_gone(pgid: int, tree: proctree.ServerTree, timeout: float) -> bool:
    with anyio.move_on_after(timeout):
        while not _all_gone(pgid, tree):
            await anyio.sleep(POLL)
    return _all_gone(pgid, tree)


class _Activity:
    """Whether a server's processes are doing anything: CPU time used, or runnable."""

    def __init__(self, server: ServerProcess) -> None:
        self._server = server
        self._last: float | None = None

    def busy(self) -> bool:
        """True when the processes used CPU since the last look or one is runnable/in I/O now."""
        import psutil

        total = 0.0
        working = False
        for proc in self._server.tree.processes():
            try:
                with proc.oneshot():
                    times = proc.cpu_times()
                    total += times.user + times.system
                    working = working or proc.status() in (psutil.STATUS_RUNNING, psutil.STATUS_DISK_SLEEP)
            except psutil.Error:
                continue  # gone meanwhile: exiting is not idling
        changed = self._last is not None and total != self._last
        self._last = total
        return working or changed


async def _wait_exit_or_idle(server: ServerProcess, grace: float, idle: float) -> How | None:
    """After stdin closed: "exited", "idle" (no activity for `idle` seconds), else None when
    `grace` ran out while it still worked."""
    process = server.process
    activity = _Activity(server)
    activity.busy()  # the first look only sets the baseline
    deadline = time.monotonic() + grace
    quiet_since = time.monotonic()
    every = max(1, round(idle / POLL / ACTIVITY_LOOKS))
    for tick in itertools.count(1):
        if process.returncode is not None:
            return "exited"
        now = time.monotonic()
        if now >= deadline:
            return None
        # Exit is looked for every POLL, activity less often: reading /proc for a process tree
        # costs CPU that a server tearing down on a busy machine could use.
        if tick % every == 0:
            if activity.busy():
                quiet_since = now
            elif now - quiet_since >= idle:
                return "idle"
        await anyio.sleep(POLL)
    raise AssertionError("unreachable")


async def stop(
    server: ServerProcess,
    *,
    close_stdin: bool = True,
    grace: float | None = None,
    idle: float | None = None,
) -> Stopped:
    """Stop the server and everything it started; when this returns none of them runs.

    Closes stdin first (unless the caller did), then as the module says. Cancel-safe callers
    shield it: it is bounded (at most grace + 4 × TERM_GRACE)."""
    started = time.monotonic()
    process, tree, pgid = server.process, server.tree, server.pid
    # While the server still runs its helpers are its descendants: once it exits, those in
    # their own session are nobody's (or, with a subreaper, ours), so note them now.
    tree.collect()
    if close_stdin and process.stdin is not None:
        with suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
            await process.stdin.aclose()
    how: How = "exited"
    if idle is None:
        idle = _IDLE_WINDOW_HERE.get()
    ended = await _wait_exit_or_idle(
        server, STDIN_CLOSE_GRACE if grace is None else grace, IDLE_WINDOW if idle is None else idle
    )
    if ended != "exited":
        how = ended or "grace"
        tree.collect()
        _signal_all(pgid, tree, signal.SIGTERM)
        if not await _wait_exit(process, TERM_GRACE):
            how = "killed"
            _signal_all(pgid, tree, signal.SIGKILL)
            await _wait_exit(process, TERM_GRACE)
    # The leader may be gone while helpers it started live on, in its group or outside it.
    tree.collect()
    group_left = False
    if not _all_gone(pgid, tree):
        _signal_all(pgid, tree, signal.SIGTERM)
        if not await _wait_all_gone(pgid, tree, TERM_GRACE):
            tree.collect()
            _signal_all(pgid, tree, signal.SIGKILL)
            group_left = not await _wait_all_gone(pgid, tree, TERM_GRACE)
    if group_left:
        logger.warning("a process of server pid %d survived SIGKILL", pgid)
    return Stopped(how, process.returncode, group_left, time.monotonic() - started)


def quick_stop() -> None:
    """Servers stopped from the current context on (the tasks it starts included) are taken to
    ignore a closed stdin after `ANSWERED_IDLE_WINDOW` of idling instead of `IDLE_WINDOW`: for a
    one-shot command that printed its answer, whose process ends once they are stopped."""
    _IDLE_WINDOW_HERE.set(ANSWERED_IDLE_WINDOW)


async def release(server: ServerProcess, timeout: float = TERM_GRACE) -> None:
    """After `stop`: close the process's pipes and transport, forget it as a leader, let the
    reaper go (once per spawn)."""
    process = server.process
    with anyio.move_on_after(timeout), suppress(Exception):
        await process.aclose()
    # Close the asyncio subprocess transport even if aclose() gave up: left open it warns at
    # garbage collection. Nothing public reaches it (app/mcp/sdk_private.py).
    from app.mcp.sdk_private import close_process_transport

    close_process_transport(process)
    if process.returncode is not None:  # asyncio has its status: from here a dead pid is not ours
        proctree.remove_leader(process.pid)
    if server.reaper is not None:
        server.reaper.release()
