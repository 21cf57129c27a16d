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
from logging.handlers import RotatingFileHandler
from pathlib import Path

LOG_NAME = "mcp-desk.log"
MAX_BYTES = 1_000_000
BACKUPS = 3
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

_handler: RotatingFileHandler | None = None


def log_path() -> Path:
    from app.config.locations import log_dir

    return log_dir() / LOG_NAME


class MaskedRotatingFile(RotatingFileHandler):
    """A rotating log file that masks known secrets and is readable by its owner only."""

    def format(self, record: logging.LogRecord) -> str:
        from app.mcp.masking import mask_known

        return mask_known(super().format(record))

    def _open(self) -> io.TextIOWrapper:
        # Created 0600 (not 0644 then chmod): the log may name servers, folders, accounts.
        fd = os.open(self.baseFilename, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        return open(fd, "a", encoding=self.encoding or "utf-8", errors=self.errors)


def install(level: int = logging.INFO) -> Path | None:
    """Log the app's records at `level` and up to the log file; its path, or None when the folder
    cannot be written (the app runs on without a file). Idempotent.

    The `app` loggers are set to `level`; the handlers already on the root logger (stderr) keep
    showing only what they showed before (WARNING), so the terminal is no louder."""
    global _handler
    path = log_path()
    if _handler is not None and Path(_handler.baseFilename) == path:
        return path
    uninstall()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = MaskedRotatingFile(path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8")
    except OSError:
        logging.getLogger(__name__).warning("no log file: %s cannot be written", path.parent)
        return None
    handler.setFormatter(logging.Formatter(FORMAT))
    handler.setLevel(level)
    root = logging.getLogger()
    for other in root.handlers:
        # Exactly logging.basicConfig's stderr handler (not a file, not a test's capture).
        if type(other) is logging.StreamHandler and other.level == logging.NOTSET:
            other.setLevel(root.getEffectiveLevel())
    app_logger = logging.getLogger("app")
    if app_logger.getEffectiveLevel() > level:
        app_logger.setLevel(level)
    root.addHandler(handler)
    _handler = handler
    from app import __version__

    logging.getLogger(__name__).info("MCP Desk %s started (pid %d)", __version__, os.getpid())
    return path


def uninstall() -> None:
    """Stop writing the log file (tests; a second `install` for another folder)."""
    global _handler
    if _handler is None:
        return
    logging.getLogger().removeHandler(_handler)
    _handler.close()
    _handler = None
