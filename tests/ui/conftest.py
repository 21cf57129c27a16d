"""UI test set-up: a qasync loop that is 'running' while pytest-qt processes Qt events.

With `already_running=True` the loop marks itself running without entering `app.exec()`, so
asyncio tasks (the engine's connections, our dialogs' futures) advance whenever pytest-qt's
`waitUntil`/`waitSignal` process events — no fixed sleeps, no nested `run_until_complete`.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture
def aloop(qapp: Any) -> Iterator[asyncio.AbstractEventLoop]:
    import qasync

    loop = qasync.QEventLoop(qapp, already_running=True)
    asyncio.set_event_loop(loop)
    try:
        yield loop
    finally:
        # Let pending callbacks finish, then take the loop down the way app.exec() would.
        qapp.processEvents()
        loop._after_run_forever()  # type: ignore[attr-defined]
        asyncio.events._set_running_loop(None)
        loop.stop()
        loop.close()
        asyncio.set_event_loop(None)


def run(qtbot: Any, coro: Any, timeout: float = 30.0) -> Any:
    """Run a coroutine on the running qasync loop, letting Qt process events until it is done."""
    task = asyncio.ensure_future(coro)
    qtbot.waitUntil(task.done, timeout=int(timeout * 1000))
    return task.result()


def write_servers(config_dir: Path, servers: dict[str, Any]) -> None:
    import json

    (config_dir / "servers.json").write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")


DEMO = {"command": sys.executable, "args": ["-m", "app", "demo-server"]}
