"""Our stdio transport: the SDK's `Transport` shape, plus what a person needs when it goes wrong.

Why not the SDK's `stdio_client`: it hides the process, so we could not say "exited with code 1",
show the stderr lines as they come, tell a `print()` on stdout apart from a protocol message, or
check that no process of the server's is left. The shutdown order is the spec's: close stdin, give
the server a moment, then SIGTERM the whole process group and every descendant (also those that
left the group: app.mcp.proctree), then SIGKILL.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
import weakref
from collections import deque
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field

import anyio
import anyio.abc
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.shared.message import SessionMessage

from app.mcp import proctree
from app.mcp.childwatch import use_pidfd_watcher
from app.mcp.deep import parse_message
from app.runtimes.model import CommandNotFound, Resolved, RuntimeMissing

__all__ = ["CommandNotFound", "ProcessInfo", "RuntimeMissing", "WorkingDirectoryMissing", "stdio_transport"]

logger = logging.getLogger(__name__)

STDIN_CLOSE_GRACE = (
    1.0  # the spec's "wait for the server to exit" after stdin closes; SIGTERM is still graceful
)
TERM_GRACE = 2.0  # after SIGTERM to the group, before SIGKILL
STDERR_FLUSH = 0.5  # how long to wait for the last stderr lines after the process died
_POLL = 0.01
_READ_CHUNK = 1 << 16
MAX_LINE = 512 << 20  # one stdout line (one message) larger than this is dropped
BIG_LINE = 1 << 20  # a line longer than this is parsed on a worker thread


class WorkingDirectoryMissing(Exception):
    def __init__(self, cwd: str) -> None:
        super().__init__(f"working directory does not exist: {cwd}")
        self.cwd = cwd


@dataclass
class ProcessInfo:
    """What we know about the child, kept after the transport has closed."""

    pid: int | None = None
    returncode: int | None = None
    stderr_tail: deque[str] = field(default_factory=lambda: deque(maxlen=50))
    stdout_noise: deque[str] = field(default_factory=lambda: deque(maxlen=20))
    stdout_eof: bool = False
    exited_by_itself: bool = False
    """The server closed its output before we began to stop it (it crashed or quit)."""
    stopping: bool = False
    group_left: bool = False
    """True if a process of the server's (group or descendants) survived SIGKILL (should never happen)."""
    resolved: Resolved | None = None
    """What was started for the command (the runtime it runs on), once resolved."""
    messages: int = 0
    """Protocol messages read from stdout: 0 while the program has not spoken MCP (see
    connection.py's "does this look like an MCP server" rule)."""


_SPAWN_LOCKS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = weakref.WeakKeyDictionary()


def _spawn_lock() -> asyncio.Lock:
    """One fork at a time per event loop: forking blocks the loop for a few milliseconds, and
    twenty servers started together would otherwise block it for all of them in one go."""
    loop = asyncio.get_running_loop()
    lock = _SPAWN_LOCKS.get(loop)
    if lock is None:
        lock = _SPAWN_LOCKS[loop] = asyncio.Lock()
    return lock


async def resolve(command: str, env: Mapping[str, str]) -> Resolved:
    """What to start (app.runtimes: the person's Node/uv, else the built-in ones); on a worker
    thread, since asking a runtime its version or Docker its daemon takes a moment.
    Raises CommandNotFound or RuntimeMissing."""
    from app.runtimes.resolve import resolve_command

    return await anyio.to_thread.run_sync(resolve_command, command, env)


def group_alive(pgid: int) -> bool:
    """True while any process of the group exists (zombies included until reaped)."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


async def _wait_exit(process: anyio.abc.Process, timeout: float) -> bool:
    # Polling returncode, not process.wait(): on asyncio that also waits for pipe EOF, and a
    # grandchild holding the pipes would make an exited server look hung.
    with anyio.move_on_after(timeout):
        while process.returncode is None:
            await anyio.sleep(_POLL)
    return process.returncode is not None


def _all_gone(pgid: int, tree: proctree.ServerTree) -> bool:
    # alive() first: it collects the dead orphans reparented to us, which count in the group.
    return not tree.alive() and not group_alive(pgid)


async def _wait_all_gone(pgid: int, tree: proctree.ServerTree, timeout: float) -> bool:
    with anyio.move_on_after(timeout):
        while not _all_gone(pgid, tree):
            await anyio.sleep(_POLL)
    return _all_gone(pgid, tree)


def _signal_all(pgid: int, tree: proctree.ServerTree, sig: signal.Signals) -> None:
    _signal_group(pgid, sig)
    tree.signal(sig)


@asynccontextmanager
async def stdio_transport(
    command: str,
    args: tuple[str, ...] | list[str],
    env: Mapping[str, str],
    cwd: str | None,
    *,
    info: ProcessInfo,
    on_stderr: Callable[[str], None],
    on_noise: Callable[[str], None],
    mask: Callable[[str], str] = lambda text: text,
) -> AsyncIterator[
    tuple[MemoryObjectReceiveStream[SessionMessage | Exception], MemoryObjectSendStream[SessionMessage]]
]:
    """Start the server in its own process group and yield the SDK's (read, write) stream pair."""
    if cwd and not os.path.isdir(cwd):
        raise WorkingDirectoryMissing(cwd)
    resolved = info.resolved = await resolve(command, env)
    use_pidfd_watcher()
    marker = proctree.new_marker()  # inherited by all it starts: orphans are still known as its own
    child_env = {**resolved.env, proctree.MARKER_VAR: marker}
    prefix = proctree.pdeathsig_prefix()
    async with _spawn_lock():
        with proctree.spawning():
            process = await anyio.open_process(
                [*prefix, resolved.executable, *resolved.args_prefix, *args],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=child_env,
                cwd=cwd,
                start_new_session=True,  # own group: one killpg reaches npx's node and most grandchildren
            )
            proctree.add_leader(process.pid)
        # Let the loop run (a GUI paints) before the next server is forked.
        await anyio.sleep(0)
    info.pid = process.pid
    pgid = process.pid
    tree = proctree.ServerTree(process.pid, marker)
    reaper = proctree.Reaper.using()
    read_send, read_recv = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_send, write_recv = anyio.create_memory_object_stream[SessionMessage](0)
    stderr_done = anyio.Event()

    async def stdout_reader() -> None:
        assert process.stdout is not None
        buf = bytearray()
        try:
            async with read_send:
                while True:
                    try:
                        chunk = await process.stdout.receive(_READ_CHUNK)
                    except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
                        break
                    start = len(buf)
                    buf += chunk
                    # Only scan the new bytes for newlines: a 50 MB line arrives in 800 chunks.
                    pos = buf.find(b"\n", start)
                    if pos < 0:
                        if len(buf) > MAX_LINE:  # never a message we could handle: drop, keep memory bounded
                            info.stdout_noise.append(f"(a line of more than {MAX_LINE >> 20} MB, dropped)")
                            on_noise(info.stdout_noise[-1])
                            buf.clear()
                        continue
                    lines, buf = _complete_lines(buf)
                    for line in lines:
                        if len(line) > BIG_LINE:
                            # Parsing 100 MB of JSON takes a second or more: off the loop's thread,
                            # so the window (and every other server) keeps going meanwhile.
                            item = await anyio.to_thread.run_sync(_decode, line)
                        else:
                            item = _decode(line)
                        del line
                        if isinstance(item, bytes):
                            _noise(item, info, on_noise, mask)
                        elif item is not None and _echoed(item):
                            # `cat` and the like send our own request back: that is no server.
                            _noise(ECHO_NOISE, info, on_noise, mask)
                        elif item is not None:
                            info.messages += 1
                            await read_send.send(item)
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            pass  # the session went away first
        finally:
            info.stdout_eof = True
            info.exited_by_itself = not info.stopping

    async def stderr_reader() -> None:
        assert process.stderr is not None
        buf = bytearray()
        try:
            while True:
                try:
                    chunk = await process.stderr.receive(_READ_CHUNK)
                except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
                    break
                buf += chunk
                while (pos := buf.find(b"\n")) >= 0:
                    _stderr_line(bytes(buf[:pos]))
                    del buf[: pos + 1]
                if len(buf) > 1 << 16:  # a huge line without newline: cut it so memory stays bounded
                    _stderr_line(bytes(buf))
                    buf.clear()
            if buf:
                _stderr_line(bytes(buf))
        finally:
            stderr_done.set()

    def _stderr_line(raw: bytes) -> None:
        text = mask(raw.decode("utf-8", errors="replace").rstrip("\r"))
        info.stderr_tail.append(text)
        on_stderr(text)

    async def stdin_writer() -> None:
        assert process.stdin is not None
        try:
            async with write_recv:
                async for message in write_recv:
                    data = message.message.model_dump_json(by_alias=True, exclude_unset=True) + "\n"
                    await process.stdin.send(data.encode())
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            # The server stopped reading: end the session's read side so no request hangs forever.
            await read_send.aclose()

    async def shutdown() -> None:
        info.stopping = True
        # While the server still runs its helpers are its descendants: once it exits, those in
        # their own session are nobody's (or, with a subreaper, ours), so note them now.
        tree.collect()
        write_send.close()
        assert process.stdin is not None
        with suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
            await process.stdin.aclose()
        if not await _wait_exit(process, STDIN_CLOSE_GRACE):
            tree.collect()
            _signal_all(pgid, tree, signal.SIGTERM)
            if not await _wait_exit(process, TERM_GRACE):
                _signal_all(pgid, tree, signal.SIGKILL)
                await _wait_exit(process, TERM_GRACE)
        # The leader may be gone while helpers it started live on, in its group or outside it.
        tree.collect()
        if not _all_gone(pgid, tree):
            _signal_all(pgid, tree, signal.SIGTERM)
            if not await _wait_all_gone(pgid, tree, TERM_GRACE):
                tree.collect()
                _signal_all(pgid, tree, signal.SIGKILL)
                info.group_left = not await _wait_all_gone(pgid, tree, TERM_GRACE)
        info.returncode = process.returncode
        with anyio.move_on_after(STDERR_FLUSH):
            await stderr_done.wait()
        with anyio.move_on_after(TERM_GRACE), suppress(Exception):
            await process.aclose()
        # Close the asyncio subprocess transport even if aclose() gave up: left open it warns at
        # garbage collection. Nothing public reaches it (app/mcp/sdk_private.py).
        from app.mcp.sdk_private import close_process_transport

        close_process_transport(process)
        if process.returncode is not None:  # asyncio has its status: from here a dead pid is not ours
            proctree.remove_leader(process.pid)
        if reaper is not None:
            reaper.release()

    async with anyio.create_task_group() as tg:
        tg.start_soon(stdout_reader)
        tg.start_soon(stderr_reader)
        tg.start_soon(stdin_writer)
        try:
            yield read_recv, write_send
        finally:
            # Shielded and bounded: a cancelled caller must still not leave the server running.
            with anyio.CancelScope(shield=True):
                await shutdown()
            tg.cancel_scope.cancel()


def _complete_lines(buf: bytearray) -> tuple[list[bytearray], bytearray]:
    """The complete lines in `buf` (without their newline) and what is left after the last one.

    Copies as little as it can: a buffer that is one whole line (the usual big answer) is handed
    over as it is, so a 100 MB message is not held three or four times while it is split.
    """
    end = buf.rfind(b"\n") + 1
    rest = buf[end:]
    del buf[end - 1 :]  # the partial line after it and the last newline go, in place
    if b"\n" not in buf:
        return [buf], rest
    return buf.split(b"\n"), rest


def _decode(line: bytearray) -> SessionMessage | bytes | None:
    """A protocol message; None for a blank line; the line's start (for the noise report) when it
    is not a message. Safe to run on a worker thread: nothing else uses `line` (it may empty it)."""
    if not line or line.isspace():
        return None
    head = bytes(line[:500])
    try:
        # JSON allows the white space around it (a CR from a Windows server, say): no strip, no
        # copy. As the SDK's parser, but too deep is cut, not refused; the line may be emptied.
        message = parse_message(line, consume=True)
    except ValueError:
        return head.strip()
    return SessionMessage(message)


ECHO_NOISE = b"(our own request came back: the program repeats what it is sent)"
_CLIENT_REQUESTS = frozenset({"initialize", "server/discover"})
"""Requests only a client sends: one read from a server's stdout is our own, echoed."""


def _echoed(item: SessionMessage) -> bool:
    message = getattr(item.message, "root", item.message)
    return getattr(message, "method", None) in _CLIENT_REQUESTS and getattr(message, "id", None) is not None


def _noise(
    head: bytes, info: ProcessInfo, on_noise: Callable[[str], None], mask: Callable[[str], str]
) -> None:
    """Report a stdout line that is not a protocol message (its first 500 bytes, secrets masked)."""
    text = mask(head.decode("utf-8", errors="replace"))
    info.stdout_noise.append(text)
    on_noise(text)
