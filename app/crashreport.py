"""Crash reports: on an unhandled exception, a file a person can send along, with no secret in it.

Where: `<log folder>/crash-reports/crash-YYYYMMDD-HHMMSS-PID.txt` (mode 0600), next to the log
file, the log folder being the platform's (`~/.local/state/mcp-desk/log` on Linux,
`~/Library/Logs/mcp-desk` on macOS, `%LOCALAPPDATA%\\mcp-desk\\Logs` on Windows; moved by
`MCP_DESK_LOG_DIR`, or to `<MCP_DESK_DATA_DIR>/logs` when only the data folder is moved: see
app/config/locations.py). The path is printed on stderr when it is written, and the window shows
it in a dialog (app/ui/crash_dialog.py, through `set_notifier`); the newest `KEEP` are kept.

What: when, the versions (MCP Desk, Python, the platform, the MCP SDK, PySide6 when loaded), the
traceback (no local variables: they would hold secret values) and the last `LOG_TAIL` log
records. Every secret value the process has resolved (`app.mcp.masking.known_secrets`) is
masked in all of it, in each of its spellings (plain, JSON, percent-encoded).

No Qt here: `install()` is called by both entry points (app/ui/main.py and app/cli/main.py); the
window adds the asyncio loop's handler (`loop_exception_handler`) and the dialog.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any

from app.config.locations import DATA_DIR_VAR as DATA_DIR_VAR

LOG_TAIL = 200
KEEP = 20

logger = logging.getLogger(__name__)
_tail: deque[str] = deque(maxlen=LOG_TAIL)
_installed = False
# Told of each report written (its path, or None, and one masked line saying what failed): the
# window shows a dialog. Called on the thread that crashed.
Notifier = Callable[[Path | None, str], None]
_notifier: Notifier | None = None


def data_dir() -> Path:
    """MCP Desk's data folder (app.config.locations.data_dir; kept here for its callers)."""
    from app.config.locations import data_dir as folder

    return folder()


def crash_dir() -> Path:
    from app.config.locations import crash_dir as folder

    return folder()


def set_notifier(notifier: Notifier | None) -> None:
    """Who is told after a report is written (the window's dialog); None: nobody."""
    global _notifier
    _notifier = notifier


class _LogTail(logging.Handler):
    """The last log records, formatted when they are logged (masked only when written out: the
    secrets to mask may be learnt after the line was logged)."""

    def emit(self, record: logging.LogRecord) -> None:
        # A record that cannot be formatted is not worth a second crash.
        with contextlib.suppress(Exception):
            _tail.append(self.format(record))


def _versions() -> list[str]:
    import platform  # only in a report: its import (9 regular expressions) is not a start's cost

    from app import __version__

    lines = [
        f"MCP Desk {__version__}",
        f"Python {sys.version.split()[0]} ({platform.python_implementation()})",
        f"{platform.platform()}",
    ]
    try:
        from importlib.metadata import version

        lines.append(f"mcp {version('mcp')}")
    except Exception:
        pass
    pyside = sys.modules.get("PySide6")
    if pyside is not None:
        lines.append(f"PySide6 {getattr(pyside, '__version__', '?')}")
    return lines


def report_text(
    exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None, where: str = ""
) -> str:
    """The report, masked of every known secret."""
    from app.mcp.masking import mask_known

    parts = [
        "MCP Desk crash report",
        f"when: {time.strftime('%Y-%m-%d %H:%M:%S %z')}",
        f"where: {where or 'main thread'}",
        "",
        *_versions(),
        "",
        "Traceback:",
        "".join(traceback.format_exception(exc_type, exc, tb)).rstrip(),
        "",
        f"Last {len(_tail)} log records:",
        *list(_tail),
    ]
    return mask_known("\n".join(parts)) + "\n"


def write_report(
    exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None, where: str = ""
) -> Path | None:
    """Write a report; its path, or None when it could not be written (never raises)."""
    try:
        folder = crash_dir()
        folder.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = folder / f"crash-{stamp}-{os.getpid()}.txt"
        n = 1
        while path.exists():
            n += 1
            path = folder / f"crash-{stamp}-{os.getpid()}-{n}.txt"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(report_text(exc_type, exc, tb, where))
        _prune(folder)
        return path
    except Exception:
        return None


def _prune(folder: Path) -> None:
    reports = sorted(folder.glob("crash-*.txt"), key=lambda p: p.stat().st_mtime)
    for old in reports[:-KEEP]:
        old.unlink(missing_ok=True)


def report_crash(
    exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None, where: str = ""
) -> Path | None:
    """Write a report and tell the person on stderr (the traceback masked, as in the file)."""
    from app.mcp.masking import mask_known

    path = write_report(exc_type, exc, tb, where)
    text = mask_known("".join(traceback.format_exception(exc_type, exc, tb)))
    print(text.rstrip(), file=sys.stderr)
    if path is not None:
        print(f"MCP Desk met an error it did not expect. A report is in {path}", file=sys.stderr)
    notifier = _notifier
    if notifier is not None:
        summary = mask_known(f"{exc_type.__name__}: {exc}")
        with contextlib.suppress(Exception):  # telling must not become a second crash
            notifier(path, summary[:500])
    return path


def loop_exception_handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The asyncio loop's exception handler: an exception nobody awaited (a task that failed
    with nobody waiting for it, a callback that raised) is a crash report like any other.

    A transport's OS error (a peer that hung up) is logged, not reported: it is the network's
    doing, not a bug. Without an exception, the loop's own handler logs the message."""
    exc = context.get("exception")
    if not isinstance(exc, Exception):
        loop.default_exception_handler(context)
        return
    if isinstance(exc, OSError) and ("transport" in context or "protocol" in context):
        logger.warning("%s: %s", context.get("message", "a connection failed"), exc)
        return
    where = f"the event loop ({context.get('message', 'an unhandled exception')})"
    report_crash(type(exc), exc, exc.__traceback__, where)


def _excepthook(exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
    if issubclass(exc_type, KeyboardInterrupt):
        sys.__excepthook__(exc_type, exc, tb)
        return
    report_crash(exc_type, exc, tb)


def _thread_excepthook(args: Any) -> None:
    if args.exc_value is None or issubclass(args.exc_type, SystemExit):
        return
    name = getattr(args.thread, "name", "?")
    report_crash(args.exc_type, args.exc_value, args.exc_traceback, f"thread {name}")


def install() -> None:
    """Write a report on an unhandled exception (main thread, other threads, Qt slots, which
    PySide6 hands to `sys.excepthook`) and keep the log tail for it; mask known secrets in every
    log record. Idempotent."""
    global _installed
    from app.mcp.masking import mask_log_records

    mask_log_records()  # the log (stderr, the report's tail) never holds a known secret either
    sys.excepthook = _excepthook
    threading.excepthook = _thread_excepthook
    if not _installed:
        _installed = True
        handler = _LogTail()
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        logging.getLogger().addHandler(handler)
