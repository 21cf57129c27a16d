"""Every process a stdio server started, found and stopped with it.

Killing the server's process group is not enough: a helper that calls setsid() has left the
group, and the orphan of a double fork is nobody's descendant any more by the time the server
is stopped. So, on top of the group:

- each server is started with a marker in its environment (`MARKER_VAR`), inherited by all it
  starts, so an orphan can still be told apart as "one of that server's";
- the app makes itself a child subreaper (Linux, `enable_subreaper`), so orphans are reparented
  to it instead of to init, where a walk of its own children finds them;
- `ServerTree` records the server's descendants (pid and start time, so a reused pid is never
  signalled) while the server still runs, and signals all of them when it stops;
- the server itself is started under `setpriv --pdeathsig KILL` where that exists (util-linux),
  so it dies with the app even if the app is killed outright and cannot stop it in order;
- `Reaper` collects the exit status of orphans reparented to the app, which would otherwise stay
  zombies until it exits. It never touches a server process (asyncio waits for those, and
  stealing their status would lose "exited with code N"), nor a child the app started in its own
  session (plain subprocess calls): orphans always come from another session.

macOS and Windows have no subreaper: there the process group (and the recorded tree) is what we
have; orphans of a double fork may outlive the server there.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from functools import cache
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    import psutil  # imported where used: `mcp-desk servers list` should not pay for it

logger = logging.getLogger(__name__)

MARKER_VAR = "MCP_DESK_SERVER_ID"
REAP_INTERVAL = 2.0  # seconds between two looks for dead orphans while servers run
_PR_SET_CHILD_SUBREAPER = 36

_counter = itertools.count(1)
_lock = threading.Lock()
_leaders: set[int] = set()  # server processes: asyncio reaps them, the Reaper must not
_spawning = 0  # forks in flight: their pid is not known (so not protected) yet
_subreaper = False


def new_marker() -> str:
    """A value for `MARKER_VAR`: this app's pid (so a final sweep finds only its own) and a count."""
    return f"{os.getpid()}:{next(_counter)}"


# ----------------------------------------------------------------------------------- subreaper


def enable_subreaper() -> bool:
    """Make this process the child subreaper of everything it starts (Linux). Entry points call
    it (the GUI and the CLI), not library code: a subreaper must reap, see `Reaper`."""
    global _subreaper
    if _subreaper:
        return True
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
            logger.info("prctl(PR_SET_CHILD_SUBREAPER) failed: errno %d", ctypes.get_errno())
            return False
    except (OSError, AttributeError):
        return False
    _subreaper = True
    return True


def subreaper_enabled() -> bool:
    return _subreaper


# ------------------------------------------------------------------------------ parent death


@cache
def pdeathsig_prefix() -> tuple[str, ...]:
    """argv to put before a server's command so it gets SIGKILL when the app dies (Linux).

    Not preexec_fn: it is unsafe with the GUI's threads and rules out vfork; and anyio does not
    offer it. setpriv sets the signal and execs the command (same pid). KILL, not TERM: when it
    fires nobody is left to follow up on a server that ignores TERM; the server's own helpers
    still see their stdin close. The signal is tied to the thread that forked (the loop's).
    """
    if not sys.platform.startswith("linux"):
        return ()
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return ()
    try:
        probe = subprocess.run(
            [setpriv, "--pdeathsig", "KILL", "--", setpriv, "--version"],
            capture_output=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return ()
    if probe.returncode != 0:  # an old util-linux without --pdeathsig
        return ()
    return (setpriv, "--pdeathsig", "KILL", "--")


# ------------------------------------------------------------------------------------ leaders


@contextmanager
def spawning() -> Iterator[None]:
    """Around starting a server: until its pid is registered the Reaper stays away."""
    global _spawning
    with _lock:
        _spawning += 1
    try:
        yield
    finally:
        with _lock:
            _spawning -= 1


def add_leader(pid: int) -> None:
    with _lock:
        _leaders.add(pid)


def remove_leader(pid: int) -> None:
    with _lock:
        _leaders.discard(pid)


def _is_leader(pid: int) -> bool:
    with _lock:
        return pid in _leaders


# ----------------------------------------------------------------------------------- walking


def children(pid: int) -> list[int]:
    """The direct children of `pid` (Linux: /proc/PID/task/TID/children; else a ppid scan)."""
    tasks = f"/proc/{pid}/task"
    if os.path.isdir(tasks):
        found: list[int] = []
        try:
            for tid in os.listdir(tasks):
                with suppress(OSError), open(f"{tasks}/{tid}/children", encoding="ascii") as f:
                    found += [int(k) for k in f.read().split()]
        except OSError:
            return []
        return found
    import psutil

    try:
        return [p.pid for p in psutil.Process(pid).children()]
    except (psutil.Error, OSError):
        return []


def _zombie(proc: psutil.Process) -> bool:
    import psutil

    try:
        return bool(proc.status() == psutil.STATUS_ZOMBIE)
    except (psutil.NoSuchProcess, psutil.ZombieProcess):
        return True
    except psutil.Error:
        return False


def _running(proc: psutil.Process) -> bool:
    import psutil

    try:
        return proc.is_running() and not _zombie(proc)
    except psutil.Error:
        return False


def _marker(pid: int) -> str | None:
    import psutil

    try:
        marker: str | None = psutil.Process(pid).environ().get(MARKER_VAR)
    except (psutil.Error, OSError):
        return None
    return marker


def _reap(pid: int) -> None:
    """Collect a dead orphan's exit status (only ever called for non-leaders)."""
    with suppress(ChildProcessError, OSError):
        os.waitpid(pid, os.WNOHANG)


class ServerTree:
    """The processes of one server, known by pid and start time."""

    LEADER_CLOCK_SLACK = 2.0
    """Seconds a process's start time (psutil's, from the boot time in whole seconds plus clock
    ticks) may read later than the moment just after its fork and still be it."""

    def __init__(self, leader_pid: int, marker: str) -> None:
        self.leader_pid = leader_pid
        self.marker = marker
        self.known: dict[int, psutil.Process] = {}
        # The server's own process is looked at on first need (`_leader`), not here: psutil's
        # import (~70 M instructions) would come right after the fork, on the way to a
        # command's first output, where the MCP SDK's import is meant to overlap the server's start.
        self._forked = time.monotonic()  # just after the fork (a wall-clock step cannot move it)
        self._leader_looked = False
        self._leader_process: psutil.Process | None = None

    @property
    def _leader(self) -> psutil.Process | None:
        """The server's process, or None when it is gone. Its pid is ours until asyncio reaps
        it; a process found later under that pid that started after the fork is another's
        (a reused pid), and is never taken for the server."""
        if not self._leader_looked:
            import psutil

            self._leader_looked = True
            # The fork's moment on today's wall clock, which psutil's start times also follow.
            forked = time.time() - (time.monotonic() - self._forked)
            try:
                found = psutil.Process(self.leader_pid)
                if found.create_time() <= forked + self.LEADER_CLOCK_SLACK:
                    self._leader_process = found
            except psutil.Error:
                pass
        return self._leader_process

    def processes(self) -> list[psutil.Process]:
        """The server itself (when it could be looked at) and every known process of its."""
        return [*([self._leader] if self._leader is not None else []), *self.known.values()]

    def collect(self) -> None:
        """Add what is running now: the descendants of the server and of every process already
        known, and the orphans reparented to us that carry this server's marker."""
        import psutil

        roots = [p for p in (self._leader, *self.known.values()) if p is not None and _running(p)]
        todo = [p.pid for p in roots]
        if _subreaper:
            todo += [pid for pid in children(os.getpid()) if self._adopted_here(pid)]
        for pid in _walk(todo):
            if pid != self.leader_pid and pid not in self.known:
                with suppress(psutil.Error):  # gone meanwhile (and so are its children)
                    self.known[pid] = psutil.Process(pid)

    def _adopted_here(self, pid: int) -> bool:
        return pid != self.leader_pid and not _is_leader(pid) and _marker(pid) == self.marker

    def alive(self) -> list[psutil.Process]:
        """Known processes still running (not the server itself: its group and asyncio see to it)."""
        self.reap()
        return [p for p in self.known.values() if _running(p)]

    def signal(self, sig: signal.Signals) -> None:
        import psutil

        for proc in self.alive():
            with suppress(psutil.Error, OSError):
                proc.send_signal(sig)  # psutil checks the start time: a reused pid is left alone

    def reap(self) -> None:
        """Collect the dead ones that were reparented to us (subreaper)."""
        if not _subreaper:
            return
        import psutil

        me = os.getpid()
        for proc in self.known.values():
            with suppress(psutil.Error):
                if proc.ppid() == me and _zombie(proc):
                    _reap(proc.pid)


# ------------------------------------------------------------------------------------- reaper


def reap_orphans() -> int:
    """Collect every dead orphan reparented to this process; returns how many.

    An orphan is a child we did not start: not a server (registered leader) and in another
    session than ours (what we start without a new session shares ours; servers and their
    descendants never can). Skipped entirely while a server is being forked.
    """
    if not _subreaper:
        return 0
    import psutil

    with _lock:
        if _spawning:
            return 0
        leaders = set(_leaders)
    me = os.getpid()
    my_sid = os.getsid(0)
    reaped = 0
    for pid in children(me):
        if pid in leaders:
            continue
        try:
            proc = psutil.Process(pid)
            if not _zombie(proc) or os.getsid(pid) == my_sid:
                continue
        except (psutil.Error, OSError):
            continue
        with _lock:  # again: a server may have been forked (by another thread) since the list
            if _spawning or pid in _leaders:
                continue
        _reap(pid)
        reaped += 1
    return reaped


class Reaper:
    """Looks for dead orphans every `REAP_INTERVAL` seconds on one loop while it has servers.

    A timer, not SIGCHLD: Qt and asyncio have their own uses for that signal, and an orphan's
    death is rare and harmless for a few seconds (a zombie holds no resources but its pid).
    """

    _by_loop: ClassVar[weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Reaper]] = (
        weakref.WeakKeyDictionary()
    )

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._users = 0
        self._handle: asyncio.TimerHandle | None = None

    @classmethod
    def using(cls) -> Reaper | None:
        """The running loop's reaper, counted as used until `release()`; None without a subreaper."""
        if not _subreaper:
            return None
        loop = asyncio.get_running_loop()
        reaper = cls._by_loop.get(loop)
        if reaper is None:
            reaper = cls._by_loop[loop] = cls(loop)
        reaper._users += 1
        if reaper._handle is None:
            reaper._handle = loop.call_later(REAP_INTERVAL, reaper._tick)
        return reaper

    def release(self) -> None:
        self._users -= 1
        reap_orphans()
        if self._users <= 0 and self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _tick(self) -> None:
        self._handle = None
        try:
            reap_orphans()
        except Exception:  # a look at /proc must never break the loop
            logger.exception("could not collect finished orphan processes")
        if self._users > 0 and not self._loop.is_closed():
            self._handle = self._loop.call_later(REAP_INTERVAL, self._tick)


# ------------------------------------------------------------------------------- final sweep


def _walk(todo: list[int]) -> Iterator[int]:
    """Each pid in `todo` and each of its descendants, once (children read as the walk goes)."""
    seen: set[int] = set()
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        yield pid
        todo += children(pid)


def own_marked_descendants() -> list[psutil.Process]:
    """Running descendants of this process that carry a marker this process gave out."""
    import psutil

    prefix = f"{os.getpid()}:"
    found: list[psutil.Process] = []
    for pid in _walk(children(os.getpid())):
        marker = _marker(pid)
        if marker is not None and marker.startswith(prefix):
            with suppress(psutil.Error):
                found.append(psutil.Process(pid))
    return found


def kill_leftovers(timeout: float = 2.0) -> int:
    """At exit, after every server was stopped: SIGKILL whatever of theirs still runs (a
    helper started while its server was being stopped); returns how many there were."""
    import psutil

    procs = own_marked_descendants()
    _kill_all(procs)
    # Our children among them are reaped here; not the servers, which asyncio may still await.
    helpers = [p for p in procs if not _is_leader(p.pid)]
    if helpers:
        psutil.wait_procs(helpers, timeout=timeout)
    if procs:
        logger.warning("stopped %d process(es) left by servers", len(procs))
    reap_orphans()
    return len(procs)


def _kill_all(procs: Iterable[psutil.Process]) -> None:
    import psutil

    for proc in procs:
        with suppress(psutil.Error, OSError):
            proc.kill()
