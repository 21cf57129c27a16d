"""Our stdio transport: the SDK's `Transport` shape, plus what a person needs when it goes wrong.

Why not the SDK's `stdio_client`: it hides the process, so we could not say "exited with code 1",
show the stderr lines as they come, tell a `print()` on stdout apart from a protocol message, or
check that no process of the server's is left. Starting and stopping the process is
app.mcp.process's (the spec's order: close stdin, give the server a moment — less when it sits
idle, ignoring the closed stdin —, then SIGTERM the whole group and every descendant, then SIGKILL).
"""

from __future__ import annotations

import logging
import os
from collections import deque
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import anyio
import anyio.abc
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.shared.message import SessionMessage
from mcp_types import JSONRPCRequest

from app.mcp import process as process_
from app.mcp.deep import BIG_MESSAGE, parse_message
from app.mcp.tap import SizedMessage
from app.runtimes.model import CommandNotFound, Resolved, RuntimeMissing

__all__ = ["CommandNotFound", "ProcessInfo", "RuntimeMissing", "WorkingDirectoryMissing", "stdio_transport"]

logger = logging.getLogger(__name__)

STDERR_FLUSH = 0.5  # how long to wait for the last stderr lines after the process died
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
    stop: str | None = None
    """How the process ended when stopped (app.mcp.process.Stopped.how): "exited" after stdin
    closed, "idle" (SIGTERM: it sat idle with stdin closed), "grace", "killed"."""
    messages: int = 0
    """Protocol messages read from stdout: 0 while the program has not spoken MCP (see
    connection.py's "does this look like an MCP server" rule)."""


async def resolve(command: str, env: Mapping[str, str], cwd: str | None = None) -> Resolved:
    """What to start (app.mcp.process). Raises CommandNotFound or RuntimeMissing."""
    return await process_.resolve_command(command, env, cwd)


group_alive = process_.group_alive


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
    early = process_.claim_early(command, args, env, cwd)  # the CLI starts it before the SDK loads
    if early is not None:
        info.resolved, server = early.resolved, early.server
    else:
        if cwd and not os.path.isdir(cwd):
            raise WorkingDirectoryMissing(cwd)
        resolved = info.resolved = await resolve(command, env, cwd)
        server = await process_.spawn(resolved, args, cwd)
    process = server.process
    info.pid = process.pid
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
                        # The output closed: it exited (or closed stdout) by itself unless we
                        # were stopping it. Not on cancellation (a connect timeout): then the
                        # server was still running, and the doctor would say it had exited.
                        info.exited_by_itself = not info.stopping
                        break
                    lines: tuple[bytes] | list[bytearray]
                    if not buf and chunk.find(b"\n") == len(chunk) - 1:
                        # The usual read: one whole message (the pipe gives no more than a
                        # chunk at once, so never a big one), parsed as it came, its newline
                        # too (JSON allows it): no copy into the buffer and out of it again.
                        lines, newline = (chunk,), 1
                    else:
                        start = len(buf)
                        buf += chunk
                        # Only scan the new bytes for newlines: a 50 MB line arrives in 800 chunks.
                        pos = buf.find(b"\n", start)
                        if pos < 0:
                            # A line longer than MAX_LINE is never a message we could handle:
                            # dropped, so memory stays bounded.
                            if len(buf) > MAX_LINE:
                                info.stdout_noise.append(
                                    f"(a line of more than {MAX_LINE >> 20} MB, dropped)"
                                )
                                on_noise(info.stdout_noise[-1])
                                buf.clear()
                            continue
                        lines, buf = _complete_lines(buf)
                        newline = 0
                    for line in lines:
                        if len(line) > BIG_LINE:
                            # Parsing 100 MB of JSON takes a second or more: off the loop's thread,
                            # so the window (and every other server) keeps going meanwhile.
                            item = await anyio.to_thread.run_sync(_decode, line)
                        else:
                            item = _decode(line, newline)
                        del line
                        if item is None:
                            continue
                        if isinstance(item, bytes):
                            _noise(item, info, on_noise, mask)
                            continue
                        message = item.message
                        # `cat` and the like send our own request back: that is no server.
                        # isinstance, not getattr(message, "method", None): a pydantic model
                        # answers a missing attribute through a raised AttributeError, ~30 µs on
                        # every response read (h12-cli, issue 12 §3).
                        if isinstance(message, JSONRPCRequest) and message.method in _CLIENT_REQUESTS:
                            _noise(ECHO_NOISE, info, on_noise, mask)
                        else:
                            info.messages += 1
                            await read_send.send(item)
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            pass  # the session went away first
        finally:
            info.stdout_eof = True

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
                async for item in write_recv:
                    # model_dump_json(by_alias=True, exclude_unset=True) as bytes, from the
                    # serializer itself: no str made and encoded again, no dozen defaults passed on.
                    message = item.message
                    data = message.__pydantic_serializer__.to_json(message, by_alias=True, exclude_unset=True)
                    await process.stdin.send(data + b"\n")
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            # The server stopped reading: end the session's read side so no request hangs forever.
            await read_send.aclose()

    async def shutdown() -> None:
        info.stopping = True
        write_send.close()
        stopped = await process_.stop(server)
        logger.debug("stopped %s (pid %d): %s in %.2f s", command, process.pid, stopped.how, stopped.seconds)
        info.group_left = stopped.group_left
        info.stop = stopped.how
        info.returncode = stopped.returncode
        with anyio.move_on_after(STDERR_FLUSH):
            await stderr_done.wait()
        await process_.release(server)

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


def _decode(line: bytes | bytearray, newline: int = 0) -> SessionMessage | bytes | None:
    """A protocol message; None for a blank line; the line's start (for the noise report) when it
    is not a message. `newline`: 1 when the line still ends with its newline. Safe to run on a
    worker thread: nothing else uses `line` (it may empty it)."""
    size = len(line) - newline
    if size > BIG_MESSAGE:
        # The parser may empty a big line: what the noise report needs is taken first.
        if line.isspace():
            return None
        head = bytes(line[:500])
        try:
            message = parse_message(line, consume=True)
        except ValueError:
            return head.strip()
        return SizedMessage(message, size=size)
    try:
        # JSON allows the white space around it (a CR from a Windows server, say): no strip, no
        # copy. As the SDK's parser, but too deep is cut, not refused. A line that is not a
        # message is looked at only then: a blank one, or noise reported by its start.
        message = parse_message(line)
    except ValueError:
        if not line or line.isspace():
            return None
        return bytes(line[:500]).strip()
    return SizedMessage(message, size=size)


ECHO_NOISE = b"(our own request came back: the program repeats what it is sent)"
_CLIENT_REQUESTS = frozenset({"initialize", "server/discover"})
"""Requests only a client sends: one read from a server's stdout is our own, echoed."""


def _noise(
    head: bytes, info: ProcessInfo, on_noise: Callable[[str], None], mask: Callable[[str], str]
) -> None:
    """Report a stdout line that is not a protocol message (its first 500 bytes, secrets masked)."""
    text = mask(head.decode("utf-8", errors="replace"))
    info.stdout_noise.append(text)
    on_noise(text)
