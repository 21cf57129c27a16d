"""Suite-wide set-up: offscreen Qt, a throw-away config dir and an in-memory keyring for every test."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

# Must be set before anything imports Qt.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import keyring
import pytest

from tests.support.memory_keyring import MemoryKeyring

REQUIRE_ALL = os.environ.get("MCP_DESK_REQUIRE_ALL") == "1"


def skip_or_fail(reason: str) -> None:
    """Skip a test whose dependency is missing; in CI (MCP_DESK_REQUIRE_ALL=1) fail instead."""
    if REQUIRE_ALL:
        pytest.fail(f"required dependency missing in CI: {reason}")
    pytest.skip(reason)


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own config dir; the user's real one is never read or written."""
    d = tmp_path / "config"
    d.mkdir()
    monkeypatch.setenv("MCP_DESK_CONFIG_DIR", str(d))
    # The data folder (crash reports, app/crashreport.py) too.
    monkeypatch.setenv("MCP_DESK_DATA_DIR", str(tmp_path / "data"))
    return d


@pytest.fixture(autouse=True)
def memory_keyring(request: pytest.FixtureRequest) -> Iterator[MemoryKeyring]:
    """Every test uses an in-memory keyring unless it is a real-keyring integration test."""
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    if request.node.get_closest_marker("keyring_integration") is None:
        keyring.set_keyring(backend)
    try:
        yield backend
    finally:
        keyring.set_keyring(previous)
