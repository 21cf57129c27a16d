"""Errors raised by the config layer."""

from __future__ import annotations

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
