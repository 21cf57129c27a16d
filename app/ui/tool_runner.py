"""Running a tool from its form: the destructive-tool question, the call, its history row, its
progress and cancelling — one call at a time, owned here rather than by the window.

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
    from app.ui.models.history import HistoryEntry
    from app.ui.window import MainWindow


class ToolRunner(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.task: asyncio.Task[Any] | None = None
        self.call_id: str | None = None  # the running call's progress token
        self.call_server: str | None = None

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
        from app.ui.models.history import HistoryEntry

        conn = w.controller.connection(server)
        entry = HistoryEntry(server, tool.name, arguments if isinstance(arguments, dict) else {})
        w.bottom.history_model.add(entry)
        self.call_id = os.urandom(8).hex()  # uuid would cost ~9 ms of start-up to import
        self.call_server = server
        panel.set_running(True)
        loop = asyncio.get_running_loop()
        started = loop.time()
        try:
            if conn is None:
                raise RuntimeError(fill(self.tr("%1 is not connected"), server))
            result = await conn.call_tool(tool.name, entry.arguments, call_id=self.call_id)
        except asyncio.CancelledError:
            entry.mark_cancelled()  # a neutral outcome, not a failure
            panel.result.show_cancelled(loop.time() - started)
            raise
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
