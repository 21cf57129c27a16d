"""The window's link to the core: the server list file, the keyring and the connection engine.

Everything here runs on the qasync loop. Keyring work (resolving `${secret:…}` references when a
connection starts, storing secrets from the Add dialog) goes to worker threads through the
SecretStore's async twins or `asyncio.to_thread`, never on the GUI thread.

The engine (and the SDK under it) is imported only by `start_engine()`, which the window calls
after its first paint: importing the SDK costs more than a whole window start.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from PySide6.QtCore import QObject, Signal

from app.mcp.states import ConnectionState
from app.ui.bridge import EngineBridge

if TYPE_CHECKING:
    # Imported for real when first needed, not at start: the store when the list is first read,
    # the engine (and the SDK behind it) in a worker thread after the first paint.
    from app.config.model import ServerEntry, ServerSettings
    from app.config.store import ConfigStore
    from app.config.trust import TrustRequest
    from app.mcp.auth import AuthStatus, Browser
    from app.mcp.connection import ServerConnection
    from app.mcp.handlers import ClientHandlers
    from app.mcp.manager import ConnectionManager
    from app.mcp.target import Target
    from app.secrets.store import SecretStore
    from app.ui.config_watch import ConfigWatcher

_T = TypeVar("_T")

# Asks the person whether a local command may run (the window's trust dialog); True = allowed.
TrustPrompt = Callable[["TrustRequest"], Awaitable[bool]]

logger = logging.getLogger(__name__)

CATALOG_KINDS = ("tools", "resources", "resource_templates", "prompts")
# A server in one of these is running (or about to): its own events tell what it does next.
RUNNING_STATES = frozenset({ConnectionState.CONNECTING, ConnectionState.INSTALLING, ConnectionState.READY})


class DeskController(QObject):
    """Owns the config store, the secret store and the ConnectionManager.

    Signals:
        servers_changed(): the configured server list (names, order, settings) changed.
        engine_started(): the engine is imported and its ConnectionManager exists.
        config_failed(message): servers.json could not be read (shown; the file is never overwritten).
            Also when an outside edit left a file that does not parse: the list stays as it was.
        config_warning(message): the list loaded, but some of it was left out (an entry whose name
            cannot be used stays in the file untouched); one line per problem.
        approval_changed(name): a local server was allowed to run, or was left waiting for the
            person's approval (its row says so; Connect asks again).
        signed_out(name): the server's sign-in left the keychain (from the window, the
            credentials view, anyone calling `sign_out`).
        subscription_changed(name, uri, on): the server confirmed a subscription to a resource's
            updates (on) or its end (off), asked for with `set_subscribed`.
    """

    servers_changed = Signal()
    engine_started = Signal()
    config_failed = Signal(str)
    config_warning = Signal(str)
    approval_changed = Signal(str)
    signed_out = Signal(str)
    subscription_changed = Signal(str, str, bool)

    def __init__(self, parent: QObject | None = None, *, browser: Browser | None = None) -> None:
        super().__init__(parent)
        self.bridge = EngineBridge(self)
        # Shows the person a sign-in page: the system browser (QtBrowser) unless one is given
        # (tests give a headless one). Handed to every connection the engine makes.
        self._browser: Browser | None = browser
        self.manager: ConnectionManager | None = None  # made by ensure_engine()
        self.handlers: ClientHandlers | None = None
        self.config_error: str | None = None
        self._store: ConfigStore | None = None
        self._secrets: SecretStore | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._engine_import: asyncio.Future[type[ConnectionManager]] | None = None
        self._held: set[str] = set()  # disconnected by hand before the start-up connect began
        # name -> disabled, as of the last look at the server list: tells a server added (or
        # switched on) during the session from one that was there all along.
        self._known: dict[str, bool] | None = None
        self._shapes: dict[str, str] = {}  # name -> the entry and its settings as last saved
        self._syncing: dict[str, asyncio.Task[Any]] = {}
        self._unprepared: set[str] = set()  # failed before the engine had a target (a secret missing)
        self._watcher: ConfigWatcher | None = None
        self._reload_error: str | None = None  # the last outside edit that did not parse
        self._warned: list[str] = []
        self._seen_revision = -1  # the store's outside_revision the list on screen reflects
        # The trust gate: who asks the person (None: nobody can, so nothing unapproved runs),
        # the servers a "Don't run" left waiting, and the one question open per server.
        self.trust_prompt: TrustPrompt | None = None
        self._waiting_approval: set[str] = set()
        self._asks: dict[str, asyncio.Task[bool]] = {}
        self._ask_lock: asyncio.Lock | None = None
        self.servers_changed.connect(self._on_servers_changed)

    # --- configuration ------------------------------------------------------------------------
    def load_config(self) -> None:
        """Read servers.json (seeding the demo server on first run). Never overwrites a broken file."""
        from app.config.store import ConfigStore

        store = ConfigStore()
        try:
            store.load()
        except Exception as exc:  # ConfigError and OSError: shown to the person, file left as is
            self.config_error = str(exc)
            logger.warning("cannot read the server list: %s", exc)
            self.config_failed.emit(str(exc))
        self._store = store
        self._known = self._snapshot()
        self._seen_revision = store.outside_revision
        self._warn_if_new()

    @property
    def config_warnings(self) -> list[str]:
        """What the last read left out (entries whose names cannot be used), one line each."""
        return list(self._store.warnings) if self._store is not None else []

    def _warn_if_new(self) -> None:
        warnings = self.config_warnings
        if warnings and warnings != self._warned:
            self.config_warning.emit("\n".join(warnings))
        self._warned = warnings

    def watch_config(self, owner: QObject) -> None:
        """Follow outside edits of servers.json and settings.json while `owner` (the window) lives.

        The watcher belongs to the window, not to this controller: it holds a timer and a file
        notifier, which must be destroyed on the GUI thread, and a window is (a controller left to
        the garbage collector may go in any thread).
        """
        if self._watcher is not None:
            return
        from app.config import paths
        from app.ui.config_watch import ConfigWatcher

        watcher = ConfigWatcher(self.store.dir, (paths.SERVERS_FILE, paths.SETTINGS_FILE), parent=owner)
        watcher.changed.connect(self.reload_from_disk)
        watcher.destroyed.connect(self._watcher_gone)
        self._watcher = watcher

    def _watcher_gone(self) -> None:
        self._watcher = None

    def reload_from_disk(self) -> bool:
        """Take in what changed on disk, in place; True when the list changed.

        Our own saves are recognised by content and ignored. A file that no longer parses leaves
        the list as it was (saving refuses until it parses again); a broken file that was fixed
        loads. Servers added, removed or changed follow as after an Edit (`servers_changed`).
        """
        store = self._store
        if store is None:
            return False
        try:
            if self.config_error is not None:
                store.load()
                self.config_error = None
            else:
                store.refresh()
        except Exception as exc:  # ConfigError and OSError: shown, the file is left as it is
            message = str(exc)
            if self.config_error is not None:
                self.config_error = message
            if message != self._reload_error:
                logger.warning("cannot read the changed server list: %s", message)
                self.config_failed.emit(message)
            self._reload_error = message
            return False
        self._reload_error = None
        # Whatever came in from disk since the list was last shown: this read, or a save made here
        # (a secrets profile id, say) that already merged the other program's change in.
        changed = store.outside_revision != self._seen_revision
        if changed:
            logger.info("the server list changed on disk; reloaded")
            self._warn_if_new()
            self.servers_changed.emit()
        return changed

    @property
    def store(self) -> ConfigStore:
        if self._store is None:
            self.load_config()
        assert self._store is not None  # load_config() always leaves one (empty when unreadable)
        return self._store

    @property
    def secrets(self) -> SecretStore:
        if self._secrets is None:
            from app.secrets.profile import folder_secrets
            from app.secrets.store import SecretStore

            if self.config_error is not None:
                # No list, no folder id to scope by: a store that keeps nothing, until a reload.
                return SecretStore(session_only=True)
            self._secrets = folder_secrets(self.store)
        return self._secrets

    def session_only_servers(self) -> set[str]:
        """Servers whose keys live in memory only (the person chose so; gone at exit)."""
        if self._secrets is None or not self._secrets.session_only:
            return set()
        return set(self._secrets.session_servers())

    def entries(self) -> list[ServerEntry]:
        """The servers in the user's order (none while the file is broken)."""
        if self.config_error is not None:
            return []
        return self.store.entries

    def entry(self, name: str) -> ServerEntry | None:
        for e in self.entries():
            if e.name == name:
                return e
        return None

    def settings(self, name: str) -> ServerSettings:
        return self.store.settings(name)

    def save(self) -> bool:
        if self.config_error is not None:
            # The file on disk did not parse: saving would replace what the user wrote.
            logger.warning("not saving: the server list file is broken (%s)", self.config_error)
            return False
        try:
            self.store.save()
        finally:
            # Also when the write failed: the list shows what the store holds (and will write
            # on the next save); the error (naming the file) goes to the caller.
            self.servers_changed.emit()
        return True

    def is_trusted(self, server: str, tool: str) -> bool:
        try:
            return tool in set(self.settings(server).trusted_tools)
        except Exception:
            return False

    def trust(self, server: str, tool: str) -> None:
        self.settings(server).trusted_tools.add(tool)
        self.save()

    # --- engine -------------------------------------------------------------------------------
    def start_engine(self, handlers: ClientHandlers | None = None) -> None:
        """Import the engine in a worker thread, then create the ConnectionManager on this thread.

        Importing the engine pulls in the MCP SDK (seconds on a busy machine); on the GUI thread it
        would freeze the freshly painted window. `ensure_engine()` awaits the import when needed.
        """
        if handlers is not None:
            self.handlers = handlers
        if self.manager is not None or self._engine_import is not None:
            return
        loop = asyncio.get_event_loop()
        self._engine_import = loop.run_in_executor(None, _import_engine)

    async def ensure_engine(self) -> ConnectionManager:
        if self.manager is None:
            if self._engine_import is None:
                self.start_engine()
            assert self._engine_import is not None
            manager_cls = await asyncio.shield(self._engine_import)
            if self.manager is None:
                self.manager = manager_cls(
                    handlers=self.handlers, sink=self.bridge, secrets=self.secrets, browser=self.browser
                )
                self.engine_started.emit()
        return self.manager

    def _engine(self) -> ConnectionManager:
        """The ConnectionManager, for steps that run only after ensure_engine() made it."""
        if self.manager is None:
            raise RuntimeError("the engine has not started yet")
        return self.manager

    @property
    def browser(self) -> Browser:
        if self._browser is None:
            from app.ui.sign_in import QtBrowser

            self._browser = QtBrowser()
        return self._browser

    # --- sign-in ------------------------------------------------------------------------------
    async def sign_in(self, name: str) -> None:
        """Sign in to an http/sse server through the browser, then connect it.

        Returns when the attempt is over (signed in, cancelled, timed out, refused); how it ended
        arrives as the engine's state events, which the window shows.
        """
        manager = await self.ensure_engine()
        if await self._prepare(name) is None:
            return
        self._held.discard(name)
        await manager.sign_in(name)

    async def cancel_sign_in(self, name: str) -> None:
        """Stop waiting for the browser; the engine says "sign-in was cancelled"."""
        if self.manager is not None:
            self.manager.cancel_sign_in(name)  # False (nothing to stop) when none was under way

    async def sign_out(self, name: str) -> None:
        """Forget the server's tokens and registration (the keychain); it then needs a sign-in."""
        manager = await self.ensure_engine()
        try:
            if manager.get(name) is not None:
                await manager.sign_out(name)
            else:
                from app.mcp.auth import forget

                await forget(self.secrets, name)  # not connected this session: the keychain only
        finally:
            self.signed_out.emit(name)

    async def auth_status(self, name: str) -> AuthStatus:
        """What the keychain holds of the server's sign-in (read in a worker thread)."""
        from app.mcp.auth import read_status

        return await read_status(self.secrets, name)

    def connection(self, name: str) -> ServerConnection | None:
        if self.manager is None:
            return None
        return self.manager.get(name)

    def state(self, name: str) -> ConnectionState | None:
        """The engine's state of a server; None when the engine does not know it (yet)."""
        conn = self.connection(name)
        return conn.state if conn is not None else None

    # --- resource subscriptions: kept by the engine's connection (renewed after a reconnect) ----
    def is_subscribed(self, name: str, uri: str) -> bool:
        conn = self.connection(name)
        return conn is not None and conn.is_subscribed(uri)

    async def set_subscribed(self, name: str, uri: str, on: bool) -> None:
        """Follow (or stop following) a resource's updates; nothing to do while not connected."""
        conn = self.connection(name)
        if conn is None:
            return
        if on:
            await conn.subscribe_resource(uri)
        else:
            await conn.unsubscribe_resource(uri)
        self.subscription_changed.emit(name, uri, on)

    # --- how much a server logs: a setting of its own, told to a connected server at once ------
    def log_level(self, name: str) -> str | None:
        """The level chosen for `name` (None: never chosen; the engine then asks for "info")."""
        try:
            return self.settings(name).log_level
        except Exception:
            return None

    async def set_log_level(self, name: str, level: str) -> None:
        """Keep `level` in the server's settings and apply it to its live connection (2025 era:
        logging/setLevel; 2026-07-28: from its next request on); nothing is sent while offline."""
        self.settings(name).log_level = level
        self.save()
        conn = self.connection(name)
        if conn is not None:
            await conn.set_log_level(level)

    async def _target(self, name: str) -> Target:
        from app.mcp.target import target_from_config

        entry = self.entry(name)
        if entry is None:
            raise KeyError(name)
        settings = self.settings(name)
        # Resolving secret references reads the keyring: a worker thread, never the GUI thread.
        return await asyncio.to_thread(target_from_config, entry, settings, self.secrets)

    async def connect_server(self, name: str) -> None:
        manager = await self.ensure_engine()
        if self._needs_approval(name) and not self._running(name):
            # It waits its turn for the trust prompt (or the prompt is open): say so, not
            # "connecting…" — nothing runs until the person allows it.
            from app.mcp.states import WAITING_FOR_APPROVAL

            manager.report(name, ConnectionState.IDLE, WAITING_FOR_APPROVAL)
        if not await self.allowed_to_run(name):
            self._not_started(name)
            return
        if await self._prepare(name) is not None:
            manager.connect(name)

    async def _prepare(self, name: str) -> Target | None:
        """Hand the engine the server's target as the config says now (connect, sign-in and a
        saved edit all start here). None, and the server failed with the reason (a missing
        secret, an unreadable keyring), when it cannot be built."""
        try:
            target = await self._target(name)
        except Exception as exc:
            logger.info("cannot prepare %s: %s", name, exc)
            self._unprepared.add(name)
            self._report_failed(name, exc)
            return None
        self._unprepared.discard(name)
        self._engine().set_target(target)
        return target

    async def disconnect_server(self, name: str) -> None:
        if self.manager is None:
            self._held.add(name)  # pressed while the engine loads: keep it out of the start-up connect
        if self.manager is not None and self.manager.get(name) is not None:
            await self.manager.disconnect(name)

    async def reconnect_server(self, name: str) -> None:
        pending = self._syncing.get(name)
        if pending is not None and not pending.done():
            # The list was just saved and that change is being applied already (the Edit dialog
            # asks for a reconnect right after saving): one reconnect, not two.
            await asyncio.shield(pending)
            return
        await self.disconnect_server(name)
        await self.connect_server(name)

    async def forget(self, name: str) -> None:
        """Disconnect and drop a server from the engine (after it was removed or renamed)."""
        if self.manager is not None and self.manager.get(name) is not None:
            await self.manager.disconnect(name)
            self.manager.remove(name)

    async def connect_enabled(self) -> list[str]:
        names = [e.name for e in self.entries() if not e.disabled]
        await asyncio.gather(*(self.connect_server(n) for n in names))
        return names

    async def connect_at_start(self) -> list[str]:
        """Connect every enabled server once the engine is imported, all at once (as Claude
        Desktop and VS Code do). Returns the names it started.

        The list is read after the import, not before: a server the person removed, disabled or
        already connected/disconnected by hand while the SDK was loading is left as they chose.
        """
        manager = await self.ensure_engine()
        names = [
            e.name
            for e in self.entries()
            if not e.disabled and manager.get(e.name) is None and e.name not in self._held
        ]
        await asyncio.gather(*(self.connect_server(n) for n in names))
        return names

    # --- keeping connections in step with the server list -------------------------------------
    def _snapshot(self) -> dict[str, bool]:
        self._shapes = {e.name: self._shape(e) for e in self.entries()}
        return {e.name: e.disabled for e in self.entries()}

    def _shape(self, entry: ServerEntry) -> str:
        """The entry and the settings that shape its connection, as text: a save that changed
        them tells a failed server to try again (what the failure banner promises)."""
        import json

        settings = self.settings(entry.name).to_json()
        for key in ("trusted_tools", "order", "approved_launch"):
            settings.pop(key, None)
        return json.dumps([entry.to_json(), settings], sort_keys=True, default=str)

    def _on_servers_changed(self) -> None:
        """The list was saved or imported: connect what is new (or newly enabled), disconnect what
        was switched off, and hand every live connection its possibly changed target (the engine
        reconnects one whose connection settings changed and keeps one that did not)."""
        shapes_before = self._shapes
        before, now = self._known, self._snapshot()
        self._known = now
        if self._store is not None:
            self._seen_revision = self._store.outside_revision
        if before is None or self.config_error is not None:
            return
        if self.manager is None and self._engine_import is None:
            return  # engine not started (tests, --help paths): nothing is connected to follow
        for name in before.keys() - now.keys():
            # Removed (or renamed) here or in the file by someone else: its connection goes too.
            self._track(name, self.forget(name))
        for name, disabled in now.items():
            was_disabled = before.get(name)
            if disabled:
                if was_disabled is False:
                    self._track(name, self.disconnect_server(name))
            elif was_disabled is None or was_disabled:
                # Added (Add dialog, paste, import, duplicate, a rename) or switched on.
                self._held.discard(name)
                self._track(name, self._connect_now(name))
            elif self.connection(name) is not None:
                conn = self.connection(name)
                edited = shapes_before.get(name) != self._shapes.get(name)
                failed = name in self._unprepared or (
                    conn is not None and conn.state is ConnectionState.FAILED
                )
                self._track(name, self._retarget(name, retry=failed and edited))
            elif name in self._unprepared:
                self._track(name, self._connect_now(name))  # e.g. the missing secret was just given

    async def _connect_now(self, name: str) -> None:
        await self.connect_server(name)

    def _track(self, name: str, coro: Awaitable[None]) -> None:
        task = self.spawn(coro)
        self._syncing[name] = task

        def done(t: asyncio.Task[Any]) -> None:
            if self._syncing.get(name) is t:
                del self._syncing[name]

        task.add_done_callback(done)

    async def _retarget(self, name: str, *, retry: bool = False) -> None:
        """Give the engine the server's current target. A connection that is wanted and whose
        settings changed is restarted by the manager; with `retry` (a failed server whose entry
        was saved) it is tried again with them."""
        conn = self.connection(name)
        if conn is None:
            return
        manager = self._engine()
        if self._needs_approval(name):
            if conn.state in (ConnectionState.IDLE, ConnectionState.CLOSED):
                return  # not running: the next Connect asks
            if not await self.allowed_to_run(name):
                # What runs now is not what was approved: stop it rather than run the new one.
                await manager.disconnect(name)
                self._not_started(name)
                return
        old = conn.target
        target = await self._prepare(name)
        if target is None:
            return
        if retry or (old != target and conn.state is ConnectionState.FAILED):
            # Its settings (or its keys) changed: try again, as the failure banner promises.
            manager.connect(name)

    # --- the trust gate: a local command runs only once the person allowed it -----------------
    def _needs_approval(self, name: str) -> bool:
        from app.config.trust import needs_approval

        entry = self.entry(name)
        return entry is not None and needs_approval(entry, self.settings(name))

    def waiting_for_approval(self, name: str) -> bool:
        """True when the person said "Don't run" to this server as it is now (its row says so)."""
        return name in self._waiting_approval and self._needs_approval(name)

    def _set_waiting(self, name: str, waiting: bool) -> None:
        if waiting != (name in self._waiting_approval):
            if waiting:
                self._waiting_approval.add(name)
            else:
                self._waiting_approval.discard(name)
            self.approval_changed.emit(name)

    async def allowed_to_run(self, name: str) -> bool:
        """True when `name` may start: nothing runs on this computer, its command is approved as
        it is now, or the person allows it now. One question per server at a time (a second
        Connect waits for the open one), and one server asks after another, never two dialogs
        on top of each other."""
        if not self._needs_approval(name):
            self._set_waiting(name, False)
            return True
        task = self._asks.get(name)
        if task is None or task.done():
            task = self.spawn(self._ask(name))
            self._asks[name] = task
            task.add_done_callback(lambda t: self._asks.pop(name) if self._asks.get(name) is t else None)
        return await asyncio.shield(task)

    async def _ask(self, name: str) -> bool:
        from app.config.trust import Launch, TrustRequest, approve, find_risks, needs_approval

        if self._ask_lock is None:
            self._ask_lock = asyncio.Lock()
        async with self._ask_lock:
            while True:
                entry = self.entry(name)
                if entry is None:
                    return False  # removed while it waited its turn
                if not needs_approval(entry, self.settings(name)):
                    self._set_waiting(name, False)
                    return True  # allowed meanwhile (another window, `--trust`)
                launch = Launch.of(entry)
                assert launch is not None
                if self.trust_prompt is None:
                    allowed = False
                else:
                    # Risks look at folders on disk (and PATH): a worker thread, not the GUI thread.
                    risks = await asyncio.to_thread(find_risks, launch)
                    waiting = sum(1 for n, t in self._asks.items() if n != name and not t.done())
                    allowed = await self.trust_prompt(TrustRequest(name, launch, tuple(risks), waiting))
                if not allowed:
                    self._set_waiting(name, True)
                    return False
                # Take in outside edits first: a save keeps this window's version of a server's
                # settings whole, and the approval must not undo a timeout changed meanwhile.
                self.reload_from_disk()
                current = self.entry(name)
                if current is None or Launch.of(current) != launch:
                    continue  # changed while the person read it: ask about what would run now
                approve(current, self.settings(name))
                self._remember_approval(name)
                self._set_waiting(name, False)
                return True

    def _remember_approval(self, name: str) -> None:
        """Save the approval (a save, not an edit of the list: nothing to reconnect or redraw)."""
        if self.config_error is not None:
            return
        try:
            self.store.save()
        except Exception as exc:  # ConfigError, OSError: allowed for this session, said in the log
            logger.warning("the approval of %s could not be saved: %s", name, exc)

    def _running(self, name: str) -> bool:
        return self.state(name) in RUNNING_STATES

    def _not_started(self, name: str) -> None:
        """Publish, through the engine, that a server was not allowed to start (its row's note
        says it waits for the person's approval; Connect asks again)."""
        if self.manager is None or self._running(name):
            return  # still running as it was approved before: its own events say so
        from app.mcp.states import WAITING_FOR_APPROVAL

        self.manager.report(name, ConnectionState.IDLE, WAITING_FOR_APPROVAL)

    def _report_failed(self, name: str, exc: BaseException) -> None:
        """A target that cannot be prepared (a key missing, the keychain locked) fails with that
        reason: published by the engine, like every other state, for every view to show."""
        self._engine().report(name, ConnectionState.FAILED, _reason(exc))

    async def shutdown(self) -> None:
        for t in list(self._tasks):
            t.cancel()
        if self._engine_import is not None and not self._engine_import.done():
            await asyncio.shield(self._engine_import)  # a worker thread cannot be interrupted
        if self.manager is not None:
            await self.manager.shutdown()

    def spawn(
        self, coro: Awaitable[_T], on_error: Callable[[BaseException], None] | None = None
    ) -> asyncio.Task[_T]:
        """Run a coroutine from a slot; keep a reference so it is not collected mid-flight."""
        task: asyncio.Task[_T] = asyncio.ensure_future(coro)
        self._tasks.add(task)

        def done(t: asyncio.Task[_T]) -> None:
            self._tasks.discard(t)
            if t.cancelled():
                return
            exc = t.exception()
            if exc is not None:
                if on_error is not None:
                    on_error(exc)
                else:
                    logger.error("background task failed", exc_info=exc)

        task.add_done_callback(done)
        return task


def _import_engine() -> type[ConnectionManager]:
    """Runs in a worker thread: the heavy imports only (objects are made on the GUI thread). The
    window never serves: the SDK comes without its server package (app.mcp.sdk_client_only), a
    quarter of its import, so the first server connects that much sooner."""
    from app.mcp.sdk_client_only import import_client_only

    import_client_only()
    import app.mcp.target  # noqa: F401  (needed at the first connect)
    from app.mcp.manager import ConnectionManager

    return ConnectionManager


def _reason(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
