"""On Python 3.11, watch the stdio servers' processes with pidfds instead of one thread each.

3.11's default child watcher starts a thread per child, and starting it makes the event loop wait
until the new thread has run: on a loaded machine, milliseconds per server in the loop a GUI
paints from (twenty servers starting together: a visibly longer stall). A pidfd (Linux 5.3+)
becomes readable when the process exits, so the loop that started the child watches it itself;
3.12 does the same by default. Unlike 3.11's own `PidfdChildWatcher`, this one is not tied to
one loop: each child is watched by the loop that started it (tests run a loop per test).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from typing import Any

logger = logging.getLogger(__name__)

_installed = False


class LoopPidfdWatcher(asyncio.AbstractChildWatcher):
    def add_child_handler(self, pid: int, callback: Any, *args: Any) -> None:  # type: ignore[override]
        loop: Any = asyncio.get_running_loop()
        pidfd = os.pidfd_open(pid)
        loop._add_reader(pidfd, self._reap, loop, pid, pidfd, callback, args)

    def _reap(self, loop: Any, pid: int, pidfd: int, callback: Any, args: tuple[Any, ...]) -> None:
        loop._remove_reader(pidfd)
        try:
            _, status = os.waitpid(pid, 0)
            returncode = os.waitstatus_to_exitcode(status)
        except ChildProcessError:  # reaped elsewhere: asyncio's convention for an unknown status
            logger.warning("child %d was reaped elsewhere; its exit code is unknown", pid)
            returncode = 255
        finally:
            os.close(pidfd)
        callback(pid, returncode, *args)

    def remove_child_handler(self, pid: int) -> bool:
        return False  # the transport asks only when it gave up on the child; the reader stays harmless

    def attach_loop(self, loop: Any) -> None:
        pass

    def close(self) -> None:
        pass

    def is_active(self) -> bool:
        return True

    def __enter__(self) -> LoopPidfdWatcher:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def use_pidfd_watcher() -> None:
    """Install `LoopPidfdWatcher` in place of 3.11's stock threaded watcher (once; not on 3.12+,
    which needs no help, nor where pidfds do not work, nor over a watcher someone else chose)."""
    global _installed
    if _installed:
        return
    _installed = True
    if sys.version_info >= (3, 12) or not hasattr(os, "pidfd_open"):
        return
    try:
        os.close(os.pidfd_open(os.getpid()))
    except OSError:  # an old kernel, or a sandbox refusing it: keep the threads
        return
    if isinstance(asyncio.get_child_watcher(), asyncio.ThreadedChildWatcher):
        asyncio.set_child_watcher(LoopPidfdWatcher())
