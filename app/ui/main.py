"""GUI entry point: `mcp-desk` with no subcommand, plus `--smoke-test` and `--screenshot FILE`.

The window is shown and painted before the engine (and the MCP SDK behind it) is imported: the
SDK import costs more than starting Qt, and a person should see the window at bare-Qt speed.

Every way of quitting (app/ui/quitting.py) ends in `stop()`: the window goes, the servers are
stopped in order with everything they started, and only then does the event loop end (exit 0).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import sys
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable

    import qasync

logger = logging.getLogger(__name__)

SETTLE_TIMEOUT = 30.0  # seconds to wait for every server in --smoke-test / --screenshot


def parse_args(argv: list[str]) -> argparse.Namespace:
    """The command line's options. No arguments (a start from the desktop's menu or dock, the
    usual one) gives the defaults without building the parser (~3 M instructions on the way to
    the first paint; argparse itself PySide6 imports anyway). tests/install/test_open_arguments.py
    checks that both give the same."""
    if not argv:
        from types import SimpleNamespace

        return cast("argparse.Namespace", SimpleNamespace(**dict(NO_ARGUMENTS, open=[])))
    return build_parser().parse_args(argv)


# What build_parser().parse_args([]) gives (each start gets its own "open" list).
NO_ARGUMENTS: dict[str, Any] = {
    "config_dir": None,
    "smoke_test": False,
    "screenshot": None,
    "timeout": SETTLE_TIMEOUT,
    "open": [],
}


def build_parser() -> argparse.ArgumentParser:
    import argparse

    p = argparse.ArgumentParser(prog="mcp-desk", description="MCP Desk: try and manage MCP servers")
    p.add_argument("--config-dir", metavar="DIR", help="keep servers.json and settings here")
    p.add_argument(
        "--smoke-test",
        action="store_true",
        help="wait for every enabled server to connect, print one line each, and exit",
    )
    p.add_argument(
        "--screenshot", metavar="FILE.png", help="like --smoke-test, then save a picture of the window"
    )
    p.add_argument("--timeout", type=float, default=SETTLE_TIMEOUT, help=argparse.SUPPRESS)
    p.add_argument(
        "open",
        nargs="*",
        metavar="LINK_OR_PACKAGE",
        help="an install link (mcp-desk://, cursor://, vscode:, lmstudio://) or a server package "
        "(.mcpb) to open; given to MCP Desk if it is running already",
    )
    return p


def preload_core() -> None:
    """Import the Qt-free modules the first paint needs (reading servers.json) before Qt.

    Once PySide6 is imported, its import hook reads the source file of every module imported
    after it (looking for `from __feature__ import ...`); the config modules and the stdlib they
    pull in (dataclasses, json, platformdirs) start faster before that hook is in place.
    bench/bench_ui.py calls this too, so it measures the order `run_gui` uses.
    """
    import codecs

    import app.config.store
    import app.mcp.states  # noqa: F401  (the server rows' states; the events come with the engine)

    # servers.json is decoded as utf-8-sig: its codec is found (and its module imported, and its
    # source read by that hook) on the first decode, which comes after Qt. Registered now, once.
    codecs.lookup("utf-8-sig")


class Started:
    """What `set_up` made: the application, its event loop, and who may ask it to quit.

    A plain class: a dataclass costs ~2.4 M instructions to define (its methods generated as
    source and compiled), on the way to the first paint."""

    def __init__(
        self,
        args: argparse.Namespace,
        app: Any,  # QApplication (Qt is imported inside set_up, after preload_core)
        loop: qasync.QEventLoop,
        quitting: Any,  # app.ui.quitting.QuitRequests
        instance: Any,  # app.ui.single_instance.SingleInstance | None
        headless: bool,
    ) -> None:
        self.args = args
        self.app = app
        self.loop = loop
        self.quitting = quitting
        self.instance = instance
        self.headless = headless

    def listen(self) -> None:
        """Become the instance a second start hands its links and packages to. Called right after
        the first paint, not before the window: QtNetwork and the listener are ~3% of the start,
        and a second start in the meantime works alone, as it does when two start together."""
        from app.ui.single_instance import SingleInstance, socket_name

        instance = SingleInstance(socket_name(), self.app)
        if instance.listen():
            self.instance = instance
        # else another instance took the name just now: this one still works alone

    def close(self) -> None:
        if self.instance is not None:
            self.instance.close()
        self.quitting.detach()
        asyncio.set_event_loop(None)


def set_up(argv: list[str]) -> Started | None:
    """Everything the GUI does before its window: crash reports, the log's records (its file is
    opened after the first paint), Qt, the colour scheme, the language, the single-instance check
    and the qasync loop. None when a running MCP Desk took over what the command line names.
    bench/bench_ui.py starts its window through this too, so the start-up figure measures what a
    person waits for."""
    pause_collector()  # until the first paint (open_window): see its docstring
    args = parse_args(argv)
    if args.config_dir:
        from app.config.paths import set_config_dir

        set_config_dir(args.config_dir)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    from app.crashreport import install as install_crash_reports

    install_crash_reports()  # before Qt: PySide6 hands a slot's exception to sys.excepthook
    from app.logfile import hold as hold_log_records  # h13-life: Help → "Open the log file"

    hold_log_records()  # the file itself is opened after the first paint (_main), these kept for it
    preload_core()

    import PySide6

    _skip_feature_scan_of_loaded_modules()
    from PySide6.QtWidgets import QApplication

    if PySide6.__version__ == "6.12.0":
        # Its bindings over-release None/True/False returned by Python overrides of void virtuals;
        # CPython 3.11 then aborts ("none_dealloc") after enough repaints. pyproject excludes it.
        logger.warning("PySide6 6.12.0 is known to crash this app; install 6.11.x (pip install -e .)")

    from app.ui.quitting import DeskApplication, QuitRequests

    app = QApplication.instance() or DeskApplication([sys.argv[0] if sys.argv else "mcp-desk"])
    assert isinstance(app, QApplication)
    quitting = QuitRequests(app)
    app.setApplicationName("MCP Desk")
    app.setOrganizationName("mcp-desk")
    app.setDesktopFileName("mcp-desk")
    from app.ui.theme import follow_color_scheme  # h11-look: light/dark as the system says

    follow_color_scheme(app)
    if app.platformName() == "offscreen":
        _quiet_offscreen_noise()
    from app.ui.i18n import install_translators

    install_translators(app)  # before any window: every tr() after this is in the chosen language
    headless = bool(args.smoke_test or args.screenshot)
    if not headless and args.open:
        from app.ui.single_instance import hand_off, socket_name

        if hand_off(socket_name(), list(args.open)):
            # MCP Desk is running for this folder: it opens them, this start ends here, with
            # its records in the log file and the collector back on, as a start that paints.
            from app.logfile import install as install_log_file

            install_log_file()
            resume_collector()
            return None

    import qasync

    from app.ui.asyncgen import install_asyncgen_hooks

    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    install_asyncgen_hooks(loop)
    from app.ui.crash_dialog import install as install_crash_dialog  # h13-life

    install_crash_dialog(app, loop)  # a crash report (also of the loop's unhandled errors): a dialog
    quitting.attach(loop)
    return Started(args, app, loop, quitting, None, headless)


def run_gui(argv: list[str]) -> int:
    started = set_up(argv)
    if started is None:
        return 0
    loop, quitting = started.loop, started.quitting
    try:
        with loop:
            main = loop.create_task(_main(started))
            while True:
                try:
                    return int(loop.run_until_complete(main))
                except RuntimeError:
                    if main.done():
                        raise
                # Something ended Qt's event loop under us (an `exit()` that did not pass through
                # DeskApplication): treat it as a request to quit and let `_main` stop the servers.
                quitting.request("the event loop was stopped")
    finally:
        started.close()


def pause_collector() -> None:
    """Hold Python's cyclic garbage collector until the first paint (`resume_collector`).

    A start allocates a few hundred thousand objects (modules, classes, the enums PySide6 makes
    for each Qt class) and almost none of them is garbage; the collector still walked them
    every 700 allocations, ~3% of the instructions to the first paint. Reference counting frees
    what it frees as before; cycles made meanwhile wait for the first collection after it.
    """
    global _collector_paused
    if gc.isenabled():
        gc.disable()
        _collector_paused = True


def resume_collector() -> None:
    """Back on (if `pause_collector` turned it off). What the start made is moved out of the
    collector's way (gc.freeze: it lives as long as the window), so the first collection after
    the pause walks only what is made from then on, not all of it at once after the paint."""
    global _collector_paused
    if _collector_paused:
        _collector_paused = False
        gc.freeze()
        gc.enable()


_collector_paused = False


def _skip_feature_scan_of_loaded_modules() -> None:
    """Spare PySide's import hook the source of every module loaded before Qt.

    Once PySide6 is imported, each module named by an import statement for the first time gets
    its source file read (inspect.getsource) to see whether it mentions PySide6, the one use being
    `from __feature__ import snake_case` per module. A module loaded before PySide6 cannot have
    made that import, yet `import os` in a window module had os.py read (and kept in linecache):
    about 1.4% of a start's instructions for the stdlib and config modules loaded by then. They
    are entered in PySide's table as its scan leaves modules without features: ours as "default
    features" (0, what it gives one that mentions PySide6, as app.ui.main does), the others as
    "ignore" (-1). The table is PySide's own (shibokensupport.feature): when a PySide release no
    longer has it, nothing is done and its scan runs as before.
    """
    feature = sys.modules.get("shibokensupport.feature")
    table = getattr(feature, "pyside_feature_dict", None)
    if not isinstance(table, dict):
        return
    for name in list(sys.modules):
        table.setdefault(name, 0 if name == "app" or name.startswith("app.") else -1)
    for name in _window_modules():
        table.setdefault(name, 0)


def _window_modules() -> list[str]:
    """The names of app.ui's modules (its folder listed; none in a frozen app, whose modules have
    no source for the scan to read anyway). Most are imported after PySide6, on the way to the
    first paint (their scan read ~25 source files, ~0.6% of the start's instructions), and none
    selects a feature (tests/ui/test_startup_imports.py checks that none says `__feature__`)."""
    ui = os.path.dirname(os.path.abspath(__file__))
    top = os.path.dirname(os.path.dirname(ui))
    names = []
    for folder, _subfolders, files in os.walk(ui):
        package = os.path.relpath(folder, top).replace(os.sep, ".")
        for f in files:
            if f.endswith(".py"):
                names.append(package if f == "__init__.py" else f"{package}.{f[:-3]}")
    return names


def _quiet_offscreen_noise() -> None:
    """Drop the offscreen plugin's "does not support propagateSizeHints()" line.

    It is printed on every window resize under QT_QPA_PLATFORM=offscreen (--smoke-test and
    --screenshot on a machine without a display) and says nothing about MCP Desk.
    """
    from PySide6.QtCore import qInstallMessageHandler

    def handler(_mode: Any, _context: Any, message: str) -> None:
        if "does not support propagateSizeHints" not in message:
            print(message, file=sys.stderr)

    qInstallMessageHandler(handler)


async def open_window(started: Started, on_painted: Callable[[], None] | None = None) -> Any:
    """The main window, shown and painted once (None if it did not come up). `on_painted` is
    called on the loop turn right after the first paint (bench/bench_ui.py's clock stops there)."""
    try:
        return await _open_window(started, on_painted)
    finally:
        resume_collector()


async def _open_window(started: Started, on_painted: Callable[[], None] | None) -> Any:
    from app.ui.controller import DeskController
    from app.ui.window import MainWindow

    controller = DeskController()
    controller.load_config()
    window = MainWindow(controller)
    window.restore_state()
    painted = asyncio.Event()
    if on_painted is not None:
        window.first_painted.connect(on_painted)
    window.first_painted.connect(painted.set)
    started.quitting.on_commit_data = window.save_state  # a session ending: keep the layout
    window.show()
    try:
        await asyncio.wait_for(painted.wait(), 20)
    except TimeoutError:
        # Some platforms may not send the main window itself a paint event (children cover it);
        # a visible window is up all the same.
        if not window.isVisible():
            print("the window did not come up", file=sys.stderr)
            return None
    return window


async def _main(started: Started) -> int:
    app, args, headless = started.app, started.args, started.headless
    quitting = started.quitting
    window = await open_window(started)
    from app.logfile import install as install_log_file

    install_log_file()  # with what was logged since set_up
    if window is None:
        return 1
    if not headless:
        started.listen()
    instance = started.instance
    controller = window.controller
    # Right after the first paint: the engine imports in a worker thread, then every enabled
    # server connects in the background (the window answers input all along).
    if headless:
        controller.trust_prompt = None  # nobody to ask: a command not yet allowed is not started
    connecting = window.start_engine(connect_enabled=True)
    assert connecting is not None
    if not headless:
        opener = Opener(window)
        if instance is not None:
            instance.received.connect(opener.received)
        opener.add(list(args.open))
        from app.ui.file_open import file_opens  # h13-life: macOS sends files and links as events

        file_opens(app).deliver_to(opener.received)  # the window comes to the front, then opens
    if headless:
        smoking = asyncio.ensure_future(smoke(window, controller, args, connecting))
        asked = asyncio.ensure_future(quitting.requested.wait())
        await asyncio.wait([smoking, asked], return_when=asyncio.FIRST_COMPLETED)
        asked.cancel()
        code = 1
        if smoking.done():
            code = smoking.result()
        else:
            smoking.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await smoking
            print(f"interrupted ({quitting.reason})", file=sys.stderr)
    else:
        await quitting.requested.wait()
        code = 0
    await stop(window, controller, save=not headless)
    return code


class Opener:
    """Opens what the command line (or a second start, through app.ui.single_instance) names, one
    after another: an install link or a server package, each in its own dialog."""

    def __init__(self, window: Any) -> None:
        self.window = window
        self.queue: list[str] = []
        self.task: asyncio.Task[None] | None = None

    def received(self, items: list[str]) -> None:
        """A second start handed these over: show the window, then open them."""
        window = self.window
        if window.isMinimized():
            window.showNormal()
        window.raise_()
        window.activateWindow()
        self.add(items)

    def add(self, items: list[str]) -> None:
        self.queue.extend(items)
        if self.queue and (self.task is None or self.task.done()):
            self.task = self.window.controller.spawn(self._run())

    async def _run(self) -> None:
        # The engine is imported in a worker thread right after the first paint. Opening a link
        # imports some of the same packages (the SDK's pydantic models), and a module two threads
        # import at once can be seen half made by one of them (a link handed over at once made
        # the engine's import fail so, and no server connected). So links wait for that import.
        try:
            await self.window.controller.ensure_engine()
        except Exception:  # the start-up connect reports why; the link can still be shown
            logger.debug("the engine did not start before opening %s item(s)", len(self.queue))
        from app.ui.open_target import open_argument

        while self.queue:
            item = self.queue.pop(0)
            try:
                await open_argument(self.window, item)
            except Exception:  # one bad item must not stop the next
                logger.exception("could not open a command-line argument")  # it may hold a key


async def stop(window: Any, controller: Any, *, save: bool = True) -> None:
    """The end of every way of quitting: the window goes (its state saved), then every server is
    stopped in order, then whatever they left behind (app.mcp.proctree)."""
    if save and window.isVisible():
        window.close()  # saves the window state; Qt no longer quits by itself on this
    window.hide()
    await controller.shutdown()
    window.deleteLater()
    from app.mcp.proctree import kill_leftovers

    kill_leftovers()


async def smoke(
    window: Any, controller: Any, args: argparse.Namespace, connecting: asyncio.Task[list[str]]
) -> int:
    """Wait for the start-up connect of every enabled server, then (bounded) for each to settle;
    print one line each."""
    try:
        names = await connecting
    except Exception as exc:  # the engine could not be imported: say so, the window still came up
        print(f"the connection engine could not start: {exc}", file=sys.stderr)
        return 1

    async def settle(name: str) -> tuple[str, str]:
        conn = controller.connection(name)
        if conn is None:
            row = window.server_model.server(name)
            return name, f"failed: {row.reason if row else 'not started'}"
        with contextlib.suppress(TimeoutError):
            await conn.wait_settled(args.timeout)
        from app.ui.bridge import state_name

        state = state_name(conn.state)
        if state == "ready":
            n = len(conn.catalog.tools)
            return name, f"ready, {n} tool{'s' if n != 1 else ''}"
        if state == "failed":
            return name, f"failed: {conn.reason or 'unknown reason'}"
        return name, f"failed: still {state} after {args.timeout:g} s"

    results = await asyncio.gather(*(settle(n) for n in names))
    for name, text in results:
        print(f"{name}: {text}", flush=True)
    # h13-bundle: the demo server answers a tool call too (a frozen app's check that it can run
    # itself as a server, and the SDK's client and server are both in the bundle).
    if not await smoke_call(controller, dict(results)):
        return 1
    if args.screenshot:
        if names and not window.current_server():
            window.servers.select(names[0])
        # Let queued signals, layouts and paints run on the loop (never processEvents() inside a task).
        await asyncio.sleep(0.3)
        if not window.grab().save(args.screenshot):
            print(f"could not save {args.screenshot}", file=sys.stderr)
            return 1
    return 0 if window.isVisible() else 1


SMOKE_MESSAGE = "hello from the smoke test"


async def smoke_call(controller: Any, results: dict[str, str]) -> bool:
    """Call the demo server's echo tool when the demo is configured; False when that fails."""
    from app.config.store import DEMO_NAME

    if DEMO_NAME not in results:
        return True  # a config without the demo: nothing of ours to call
    conn = controller.connection(DEMO_NAME)
    if conn is None or not results[DEMO_NAME].startswith("ready"):
        return False  # its line above says why
    try:
        answer = await asyncio.wait_for(conn.call_tool("echo", {"message": SMOKE_MESSAGE}), 30)
    except Exception as exc:
        print(f"{DEMO_NAME}: echo failed: {exc}", flush=True)
        return False
    text = answer.text()
    ok = not answer.is_error and text == SMOKE_MESSAGE
    print(f"{DEMO_NAME}: echo {'answered' if ok else 'gave'} {text!r}", flush=True)
    return ok
