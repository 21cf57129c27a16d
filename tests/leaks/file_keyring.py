"""A keyring backend in one JSON file, so the leak test's child processes (the CLI, the GUI) share
the secrets the test stored: `PYTHON_KEYRING_BACKEND=tests.leaks.file_keyring.FileKeyring` and
`LEAK_KEYRING_FILE=PATH`. The file is the keyring: the one place the secrets belong, so the leak
search leaves it out (and says so). For tests only: it keeps the values in clear."""

from __future__ import annotations

import json
import os
from pathlib import Path

from jaraco.classes import properties
from keyring.backend import KeyringBackend
from keyring.errors import PasswordDeleteError

FILE_VAR = "LEAK_KEYRING_FILE"


class FileKeyring(KeyringBackend):
    @properties.classproperty
    def priority(cls) -> float:
        # keyring makes one of every backend class it knows when it looks for the best one:
        # outside the leak test this one must never be chosen.
        if FILE_VAR not in os.environ:
            raise RuntimeError(f"{FILE_VAR} is not set")
        return 0.5

    def __init__(self, path: Path | None = None) -> None:
        super().__init__()
        self._path = path

    @property
    def path(self) -> Path:
        return self._path or Path(os.environ[FILE_VAR])

    def _read(self) -> dict[str, str]:
        if not self.path.exists():
            return {}
        data: dict[str, str] = json.loads(self.path.read_text(encoding="utf-8"))
        return data

    def _write(self, data: dict[str, str]) -> None:
        self.path.write_text(json.dumps(data), encoding="utf-8")

    def get_password(self, service: str, username: str) -> str | None:
        return self._read().get(f"{service}\0{username}")

    def set_password(self, service: str, username: str, password: str) -> None:
        data = self._read()
        data[f"{service}\0{username}"] = password
        self._write(data)

    def delete_password(self, service: str, username: str) -> None:
        data = self._read()
        if data.pop(f"{service}\0{username}", None) is None:
            raise PasswordDeleteError(username)
        self._write(data)
