from __future__ import annotations

import pytest

from tests.servers.registry_fixtures import *  # noqa: F403  (fixtures: registry, notes_server)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
