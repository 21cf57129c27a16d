"""A keyring backend for CLI tests that run `mcp-desk` as child processes: the in-memory keyring
cannot outlive one process, and `auth login` followed by `auth status` needs the same entries.

Selected in the child's environment:

    PYTHON_KEYRING_BACKEND=tests.support.file_keyring.FileKeyring
    MCP_DESK_TEST_KEYRING=/tmp/.../keyring.json       # a file under the test's tmp_path
    PYTHONPATH=<repo root>                            # so `tests` is importable

Test-only: it keeps values in clear in that file, which is why it lives under tests/ and why
`app.secrets.backend` would never be pointed at it. The file sits outside the config folder, so a
search of the config folder for token markers still means something. Writes are atomic (replace).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from keyring.backend import KeyringBackend
from keyring.errors import PasswordDeleteError

ENV = "MCP_DESK_TEST_KEYRING"


class FileKeyring(KeyringBackend):
    priority = 1  # type: ignore[assignment]

    @property
    def path(self) -> Path:
        value = os.environ.get(ENV)
        if not value:
            raise RuntimeError(f"{ENV} is not set: the file keyring needs a file under the test's tmp_path")
        return Path(value)

    def _load(self) -> dict[str, str]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        assert isinstance(data, dict)
        return data

    def _save(self, data: dict[str, str]) -> None:
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
        os.replace(tmp, self.path)

    @staticmethod
    def _key(service: str, username: str) -> str:
        return f"{service}\n{username}"

    def get_password(self, service: str, username: str) -> str | None:
        return self._load().get(self._key(service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        data = self._load()
        data[self._key(service, username)] = password
        self._save(data)

    def delete_password(self, service: str, username: str) -> None:
        data = self._load()
        if data.pop(self._key(service, username), None) is None:
            raise PasswordDeleteError(username)
        self._save(data)


def read_entries(path: Path) -> dict[tuple[str, str], str]:
    """The file's entries as the memory keyring's `store` keys them: (service, username) -> value."""
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {tuple(k.split("\n", 1)): v for k, v in data.items()}  # type: ignore[misc]
