"""Errors raised by the config layer."""

from __future__ import annotations

import errno
from pathlib import Path


class ConfigError(Exception):
    """A config file that cannot be used. `str()` reads `file:line:col: message`.

    The file itself is left untouched: nothing the user wrote is overwritten.
    """

    def __init__(self, path: Path | str, message: str, line: int | None = None, col: int | None = None):
        self.path = Path(path)
        self.line = line
        self.col = col
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = str(self.path)
        if self.line is not None:
            where += f":{self.line}"
            if self.col is not None:
                where += f":{self.col}"
        return f"{where}: {self.message}"


# Plain words for the errors a person can do something about; the rest keep the system's text.
_WRITE_REASONS = {
    errno.ENOSPC: "the disk is full (no space left on the device)",
    getattr(errno, "EDQUOT", errno.ENOSPC): "your disk quota is used up",
    errno.EROFS: "the folder is on a read-only file system",
    errno.EACCES: "permission denied (the file or its folder is not writable for you)",
    errno.EPERM: "the system does not allow changing it (it may be locked or protected)",
}


class ConfigWriteError(ConfigError):
    """A config file could not be written. The file on disk is left as it was.

    `str()` reads `file: could not save: <reason in plain words>; the file was left as it was`.
    `errno` is the OSError's errno (or None).
    """

    def __init__(self, path: Path | str, reason: str, error_number: int | None = None) -> None:
        self.reason = reason
        self.errno = error_number
        super().__init__(path, f"could not save: {reason}; the file was left as it was")

    @classmethod
    def from_os_error(cls, path: Path | str, exc: OSError) -> ConfigWriteError:
        reason = _WRITE_REASONS.get(exc.errno or -1) or exc.strerror or str(exc)
        if exc.filename is not None and Path(exc.filename).name != Path(path).name:
            reason += f" ({exc.filename})"  # e.g. the folder, the lock file or the backup
        return cls(path, reason, exc.errno)
