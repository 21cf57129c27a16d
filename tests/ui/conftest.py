"""UI test set-up: a qasync loop that is 'running' while pytest-qt processes Qt events.

With `already_running=True` the loop marks itself running without entering `app.exec()`, so
asyncio tasks (the engine's connections, our dialogs' futures) advance whenever pytest-qt's
`waitUntil`/`waitSignal` process events — no fixed sleeps, no nested `run_until_complete`.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(scope="session")
def _qasync_loop(qapp: Any) -> Iterator[asyncio.AbstractEventLoop]:
    """One loop for the whole session: a qasync loop cannot be re-created in 'already running'
    mode after another one was stopped in the same QApplication (its timers stop firing)."""
    import qasync

    loop = qasync.QEventLoop(qapp, already_running=True)
    # qasync declares itself the thread's running loop at construction; only the tests that ask
    # for `aloop` may see it so, or a later test's `asyncio.run` refuses to start.
    asyncio.events._set_running_loop(None)
    yield loop
    # End of the session: stop the worker threads (asyncio.to_thread) before Qt goes away.
    loop.stop()
    loop.close()
    asyncio.set_event_loop(None)


@pytest.fixture
def aloop(_qasync_loop: asyncio.AbstractEventLoop) -> Iterator[asyncio.AbstractEventLoop]:
    """The session's qasync loop, marked running for this test only, with the async-generator
    hooks the app installs (app/ui/asyncgen.py)."""
    from app.ui.asyncgen import install_asyncgen_hooks

    asyncio.set_event_loop(_qasync_loop)
    asyncio.events._set_running_loop(_qasync_loop)
    old_hooks = install_asyncgen_hooks(_qasync_loop)
    try:
        yield _qasync_loop
    finally:
        sys.set_asyncgen_hooks(*old_hooks)
        asyncio.events._set_running_loop(None)
        asyncio.set_event_loop(None)


def run(qtbot: Any, coro: Any, timeout: float = 30.0) -> Any:
    """Run a coroutine on the running qasync loop, letting Qt process events until it is done."""
    task = asyncio.ensure_future(coro)
    qtbot.waitUntil(task.done, timeout=int(timeout * 1000))
    return task.result()


def write_servers(config_dir: Path, servers: dict[str, Any], *, approved: bool = True) -> None:
    """Write servers.json; its local servers approved to run (as if allowed earlier) unless not."""
    import json

    from tests.support.trust import write_approved_servers

    if approved:
        write_approved_servers(config_dir, servers)
    else:
        (config_dir / "servers.json").write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")


DEMO = {"command": sys.executable, "args": ["-m", "app", "demo-server"]}


@contextlib.contextmanager
def open_desk(
    qtbot: Any, *, connect_enabled: bool = False, approve: bool = True, browser: Any = None
) -> Iterator[Any]:
    """The real main window on the test's config dir, engine started; closed down after.

    The local servers the test wrote are approved to run first (as if the person had allowed
    them earlier), and Allow is pressed on any prompt for one it adds later, unless
    `approve=False`: the tests of the trust prompt answer it themselves. `browser` stands in for
    the system browser at sign-in (an `app.mcp.auth.Browser`)."""
    from app.config.paths import config_dir
    from app.ui.controller import DeskController
    from app.ui.window import MainWindow

    if approve:
        from tests.support.trust import approve_servers

        approve_servers(config_dir())
    controller = DeskController(browser=browser)
    controller.load_config()
    window = MainWindow(controller)
    if approve:
        from tests.support.trust import allow_when_asked

        allow_when_asked(window)  # servers the test adds while it runs are allowed too
    qtbot.addWidget(window)
    window.resize(1200, 800)
    window.show()
    qtbot.waitExposed(window)
    task = window.start_engine(connect_enabled=connect_enabled)
    assert (task is not None) == connect_enabled
    try:
        yield window
    finally:
        for d in list(getattr(controller.handlers, "open_dialogs", [])):
            d.reject()
        run(qtbot, controller.shutdown(), timeout=30)


@pytest.fixture
def desk(qtbot: Any, aloop: Any, config_dir: Path) -> Iterator[Any]:
    """The real main window on a fresh config dir (first run seeds the demo server), engine started."""
    with open_desk(qtbot) as window:
        yield window


def wait_state(qtbot: Any, window: Any, server: str, state: str, timeout: float = 30.0) -> None:
    def ok() -> bool:
        row = window.server_model.server(server)
        return row is not None and row.state == state

    qtbot.waitUntil(ok, timeout=int(timeout * 1000))


def connect(qtbot: Any, window: Any, server: str = "demo") -> None:
    assert window.servers.select(server)
    window.servers.buttons["connect"].click()
    wait_state(qtbot, window, server, "ready")


def select_tool(qtbot: Any, window: Any, name: str, server: str = "demo") -> None:
    window.servers.select(server)
    assert window.catalog.select("tools", server, name), name
    qtbot.waitUntil(lambda: getattr(window.tool_panel.tool, "name", None) == name, timeout=5000)


def fill_text_field(qtbot: Any, form: Any, index: int, text: str) -> None:
    """Type into the index-th line edit of a generated form, as a person would."""
    from PySide6.QtWidgets import QLineEdit, QPlainTextEdit, QWidget

    edits = [
        e
        for e in form.findChildren(QWidget)
        if isinstance(e, QLineEdit | QPlainTextEdit)
        and e.isVisibleTo(form)
        and not e.isReadOnly()
        and e.objectName() != "jsonView"
    ]
    edit = edits[index]
    edit.clear()
    edit.setFocus()
    qtbot.keyClicks(edit, text)
    if isinstance(edit, QLineEdit):
        edit.editingFinished.emit()


def run_tool_and_wait(qtbot: Any, window: Any, timeout: float = 30.0) -> None:
    with qtbot.waitSignal(window.call_finished, timeout=int(timeout * 1000)):
        window.tool_panel.run_button.click()


@pytest.fixture(autouse=True)
def _developer_mode_off() -> Iterator[None]:
    """Every UI test starts with developer mode off (the default a person sees) and leaves it off."""
    from app.ui.developer_mode import developer_mode

    developer_mode().set_enabled(False)
    yield
    developer_mode().set_enabled(False)
