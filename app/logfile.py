"""The log file: what the window's modules log (INFO and up), in the platform's log folder, for a
person to open from Help ("Open the log file") and send along with a crash report.

`<log folder>/mcp-desk.log` (app.config.locations.log_dir), rotated at `MAX_BYTES` with `BACKUPS`
older files, mode 0600. Every line is masked of the secret values the process has resolved when
it is written (app.mcp.masking.mask_known), on top of the masking of each record as it is made:
a key learnt after a line was logged is masked in the file too. Only the window writes it (one
process appending and rotating; CLI runs log to their stderr). No Qt here.
"""

from __future__ import annotations

import io
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from logging.handlers import RotatingFileHandler

LOG_NAME = "mcp-desk.log"
MAX_BYTES = 1_000_000
BACKUPS = 3
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
HELD_MAX = 1000  # records kept between `hold` and `install`; a start makes a handful

_handler: RotatingFileHandler | None = None
_held: _Held | None = None


def log_path() -> Path:
    from app.config.locations import log_dir

    return log_dir() / LOG_NAME


def _file_handler(path: Path, level: int) -> RotatingFileHandler:
    # logging.handlers (and pickle, queue behind it) is imported here, when the file is opened:
    # the window opens it after its first paint, and ~10 M instructions are spared before it.
    from logging.handlers import RotatingFileHandler

    class MaskedRotatingFile(RotatingFileHandler):
        """A rotating log file that masks known secrets and is readable by its owner only."""

        def format(self, record: logging.LogRecord) -> str:
            from app.mcp.masking import mask_known

            return mask_known(super().format(record))

        def _open(self) -> io.TextIOWrapper:
            # Created 0600 (not 0644 then chmod): the log may name servers, folders, accounts.
            fd = os.open(self.baseFilename, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            return open(fd, "a", encoding=self.encoding or "utf-8", errors=self.errors)

    path.parent.mkdir(parents=True, exist_ok=True)
    handler = MaskedRotatingFile(path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8")
    handler.setFormatter(logging.Formatter(FORMAT))
    handler.setLevel(level)
    return handler


class _Held(logging.Handler):
    """The records made between `hold` and `install`, in order, for the file to write."""

    def __init__(self, level: int) -> None:
        super().__init__(level)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if len(self.records) < HELD_MAX:
            self.records.append(record)


def _take_app_records(level: int) -> None:
    """The `app` loggers at `level`; the handlers already on the root logger (stderr) keep
    showing only what they showed before (WARNING), so the terminal is no louder."""
    root = logging.getLogger()
    for other in root.handlers:
        # Exactly logging.basicConfig's stderr handler (not a file, not a test's capture).
        if type(other) is logging.StreamHandler and other.level == logging.NOTSET:
            other.setLevel(root.getEffectiveLevel())
    app_logger = logging.getLogger("app")
    if app_logger.getEffectiveLevel() > level:
        app_logger.setLevel(level)


def _log_started() -> None:
    from app import __version__

    logging.getLogger(__name__).info("MCP Desk %s started (pid %d)", __version__, os.getpid())


def hold(level: int = logging.INFO) -> None:
    """Keep the app's records at `level` and up from now until `install` writes them to the
    file (the window installs it after its first paint). Idempotent; nothing once installed."""
    global _held
    if _held is not None or _handler is not None:
        return
    _take_app_records(level)
    _held = _Held(level)
    logging.getLogger().addHandler(_held)
    _log_started()


def _release_held() -> list[logging.LogRecord] | None:
    global _held
    held, _held = _held, None
    if held is None:
        return None
    logging.getLogger().removeHandler(held)
    return held.records


def install(level: int = logging.INFO) -> Path | None:
    """Log the app's records at `level` and up to the log file, first those `hold` kept; its
    path, or None when the folder cannot be written (the app runs on without a file, and what
    was held is dropped). Idempotent.

    The `app` loggers are set to `level`; the handlers already on the root logger (stderr) keep
    showing only what they showed before (WARNING), so the terminal is no louder."""
    global _handler
    path = log_path()
    if _handler is not None and Path(_handler.baseFilename) == path:
        return path
    uninstall()
    try:
        handler = _file_handler(path, level)
    except OSError:
        _release_held()
        logging.getLogger(__name__).warning("no log file: %s cannot be written", path.parent)
        return None
    _take_app_records(level)
    logging.getLogger().addHandler(handler)
    _handler = handler
    held = _release_held()
    if held is None:
        _log_started()
    else:
        for record in held:
            if record.levelno >= level:
                handler.handle(record)
    return path


def uninstall() -> None:
    """Stop writing the log file (tests; a second `install` for another folder)."""
    global _handler
    if _handler is None:
        return
    logging.getLogger().removeHandler(_handler)
    _handler.close()
    _handler = None
