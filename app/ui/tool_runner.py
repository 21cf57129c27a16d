"""Running a tool from its form: the destructive-tool question, the call, its history row, its
progress and cancelling — one call at a time, owned here rather than by the window.

A call the server runs as a task shows in the tool panel's task view (app/ui/task_view.py) with
the server's status message: Cancel asks the server to stop it, "Leave it running" frees the form
while the engine follows the task; its result then lands in the call's History row.

The window wires it (Run, Ctrl+Enter, Escape, History's re-run) and keeps `call_finished`; this
object holds the running call's task and id and speaks to the tool panel and the history model.
"""

from __future__ import annotations

import asyncio
import os
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Slot

from app.ui.wording import fill

if TYPE_CHECKING:
    from app.mcp.tasks_events import TaskUpdate
    from app.ui.models.history import HistoryEntry
    from app.ui.task_view import TaskView
    from app.ui.window import MainWindow


class ToolRunner(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.task: asyncio.Task[Any] | None = None
        self.call_id: str | None = None  # the running call's progress token
        self.call_server: str | None = None
        self.left_running: dict[str, tuple[str, HistoryEntry]] = {}
        """call_id -> (server, History row) of tasks the person left running, until they end."""
        self._task_view: TaskView | None = None
        self._finished_entries: dict[str, HistoryEntry] = {}
        window.controller.bridge.task_updated.connect(self.on_task)

    def running(self) -> bool:
        return self.task is not None and not self.task.done()

    @Slot()
    def run_current(self) -> None:
        """Run (the button or Ctrl+Enter): the shown tool with its form's value."""
        w = self.window
        panel = w.built_tool_panel()
        if panel is None or w.right.currentWidget() is not panel or panel.tool is None:
            return
        if self.running() or not panel.can_run():
            return
        self.task = w.controller.spawn(self.run(panel.server or "", panel.tool))

    async def run(self, server: str, tool: Any, arguments: Any = None) -> None:
        """Call `tool` on `server` with `arguments` (None: the form's value, checked first)."""
        w = self.window
        panel = w.tool_panel
        form = panel.form
        if arguments is None:
            errors = form.errors() if form is not None else []  # type: ignore[attr-defined]
            if errors:
                form.show_errors(errors)  # type: ignore[union-attr]
                form.focus_first_error()  # type: ignore[union-attr]
                panel.result.clear(self.tr("Please correct the highlighted fields first."))
                return
            arguments = panel.form_value()
        from app.ui.tool_panel import is_destructive

        conn = w.controller.connection(server)
        # The server may have changed the tool since it was shown: its current definition decides.
        current = conn.catalog.tools.get(tool.name) if conn is not None else None
        tool = current if current is not None else tool
        asks = is_destructive(tool) and not w.controller.is_trusted(server, tool.name)
        if asks and not await self._confirm(server, tool.name):
            return
        from app.mcp.tasks import TaskLeftRunning
        from app.ui.models.history import HistoryEntry

        self._watch_tasks()
        conn = w.controller.connection(server)
        entry = HistoryEntry(server, tool.name, arguments if isinstance(arguments, dict) else {})
        w.bottom.history_model.add(entry)
        call_id = self.call_id = os.urandom(8).hex()  # uuid would cost ~9 ms of start-up to import
        self.call_server = server
        panel.set_running(True)
        loop = asyncio.get_running_loop()
        started = loop.time()
        try:
            if conn is None:
                raise RuntimeError(fill(self.tr("%1 is not connected"), server))
            result = await conn.call_tool(tool.name, entry.arguments, call_id=call_id)
        except asyncio.CancelledError:
            entry.mark_cancelled()  # a neutral outcome, not a failure
            panel.result.show_cancelled(loop.time() - started)
            raise
        except TaskLeftRunning:
            self.left_running[call_id] = (server, entry)  # its end comes as a TaskUpdate
            panel.result.show_left_running()
        except Exception as exc:
            entry.failure = str(exc) or type(exc).__name__
            panel.result.show_failure(entry.failure, loop.time() - started)
        else:
            entry.result = result
            if panel.tool is tool or getattr(panel.tool, "name", None) == tool.name:
                panel.result.show_result(result, output_schema=getattr(tool, "output_schema", None))
        finally:
            panel.set_running(False)
            self.call_id = None
            w.bottom.history_model.entry_updated(entry)
            w.call_finished.emit(server, tool.name)

    async def _confirm(self, server: str, tool_name: str) -> bool:
        """A tool that says it may delete or change things asks first ("don't ask again": kept)."""
        from PySide6.QtWidgets import QMessageBox

        from app.ui.async_dialogs import ask

        ok, always = await ask(
            self.window,
            self.tr("Run this tool?"),
            fill(
                self.tr("The tool “%1” on “%2” says it may delete or change things. Run it?"),
                tool_name,  # its name, not a title: the title is the server's to choose
                server,
            ),
            yes=self.tr("Run"),
            no=self.tr("Cancel"),
            checkbox=self.tr("Don't ask again for this tool"),
            icon=QMessageBox.Icon.Warning,
        )
        if ok and always:
            self.window.controller.trust(server, tool_name)
        return ok

    @Slot()
    def cancel(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()

    def on_progress(self, call_id: str, progress: float, total: Any, message: str) -> None:
        panel = self.window.built_tool_panel()
        if call_id == self.call_id and panel is not None:
            panel.set_progress(progress, total, message)

    # --- tasks -------------------------------------------------------------------------------
    def _watch_tasks(self) -> None:
        if self._task_view is None:
            view = self._task_view = self.window.tool_panel.tasks
            view.cancel_requested.connect(self.cancel_task)
            view.leave_requested.connect(self.leave_task)
            view.result_requested.connect(self.show_task_result)

    @Slot(object)
    def on_task(self, update: TaskUpdate) -> None:
        """The engine says something about a task: ours (the running call, or one left running)."""
        mine = update.call_id == self.call_id or update.call_id in self.left_running
        if not mine or self._task_view is None:
            return
        self._task_view.show_update(update)
        if update.finished and update.call_id in self.left_running:
            _server, entry = self.left_running.pop(update.call_id)
            if update.status == "completed" and update.result is not None:
                entry.result = update.result
            elif update.status == "cancelled":
                entry.mark_cancelled()
            else:
                entry.failure = update.failure or update.message or update.status
            self.window.bottom.history_model.entry_updated(entry)
            self._finished_entries[update.call_id] = entry

    @Slot(str)
    def cancel_task(self, call_id: str) -> None:
        if call_id == self.call_id:
            self.cancel()  # the awaited call: cancelling it cancels the task on the server
            return
        server = self.left_running.get(call_id, (None, None))[0]
        conn = self.window.controller.connection(server) if server else None
        if conn is not None:
            self.window.controller.spawn(conn.cancel_task(call_id))

    @Slot(str)
    def leave_task(self, call_id: str) -> None:
        conn = self.window.controller.connection(self.call_server or "")
        if call_id == self.call_id and conn is not None:
            conn.tasks.leave_running(call_id)

    @Slot(str)
    def show_task_result(self, call_id: str) -> None:
        entry = self._finished_entries.get(call_id)
        if entry is not None:
            self.window.tool_panel.result.show_entry(entry)

    @Slot(object)
    def show_history(self, entry: HistoryEntry) -> None:
        self.window.tool_panel.result.show_entry(entry)  # cancelled and drafts too

    @Slot(object)
    def rerun_history(self, entry: HistoryEntry) -> None:
        """History's "Re-run with these arguments" (or "Open the draft"): the tool, its form filled."""
        w = self.window
        w.servers.select(entry.server)
        if w.catalog.select("tools", entry.server, entry.tool) and w.tool_panel.form is not None:
            # The list may already be on this tool while a resource or prompt is shown.
            w.right.setCurrentWidget(w.tool_panel)
            w.tool_panel.form.set_value(entry.arguments)  # type: ignore[attr-defined]
