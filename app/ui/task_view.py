"""Tools the server runs as tasks: the running one, with the server's status message, and the ones
the person left running, until they end.

A row per task; the view only shows what the engine says (`TaskUpdate` events through the bridge)
and asks for what the person wants (cancel it, leave it running, see its result); the tool runner
does it. The server's words (its status message) are plain text, elided to one line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt, Signal, Slot
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from app.ui.developer_mode import developer_mode
from app.ui.elide import ElidedLabel
from app.ui.wording import fill

if TYPE_CHECKING:
    from app.mcp.tasks_events import TaskUpdate


def status_words(status: str) -> str:
    """A task's status as people read it (the protocol word only in developer mode)."""
    words = {
        "working": QCoreApplication.translate("TaskView", "running on the server"),
        "input_required": QCoreApplication.translate("TaskView", "waiting for your answer"),
        "completed": QCoreApplication.translate("TaskView", "finished"),
        "failed": QCoreApplication.translate("TaskView", "the call failed"),
        "cancelled": QCoreApplication.translate("TaskView", "cancelled"),
    }
    said = words.get(status, status)
    return f"{said} ({status})" if developer_mode().enabled() else said


class TaskRow(QWidget):
    """One task: "Task: TOOL on SERVER", its status, the server's message, and what can be done."""

    def __init__(self, update: TaskUpdate, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.call_id = update.call_id
        self.update_: TaskUpdate = update
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 2, 0, 2)
        top = QHBoxLayout()
        self.title = ElidedLabel()
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.status = QLabel()
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.status.setObjectName("taskStatus")
        top.addWidget(self.title, 1)
        top.addWidget(self.status)
        lay.addLayout(top)
        self.message = ElidedLabel()
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.setObjectName("taskMessage")
        self.message.setAccessibleName(self.tr("The server says"))
        lay.addWidget(self.message)
        buttons = QHBoxLayout()
        self.cancel_button = QPushButton(self.tr("Cancel task"))
        self.cancel_button.setToolTip(self.tr("Ask the server to stop this task"))
        self.leave_button = QPushButton(self.tr("Leave it running"))
        self.leave_button.setToolTip(
            self.tr("Stop waiting here: the task goes on, its result comes to the History when it ends")
        )
        self.result_button = QPushButton(self.tr("Show result"))
        self.dismiss_button = QPushButton(self.tr("Dismiss"))
        for button in (self.cancel_button, self.leave_button, self.result_button, self.dismiss_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        lay.addLayout(buttons)
        self.show_update(update)

    def show_update(self, update: TaskUpdate) -> None:
        self.update_ = update
        self.title.setText(fill(self.tr("Task: %1 on %2"), update.tool, update.server))
        if developer_mode().enabled():
            self.title.setToolTip(fill(self.tr("Task id: %1"), update.task_id))
        if update.left_running and not update.finished:
            self.status.setText(self.tr("left running on the server"))
        else:
            self.status.setText(status_words(update.status))
        said = update.failure if update.status == "failed" and update.failure else update.message
        self.message.setText(said or "")
        self.message.setVisible(bool(said))
        finished = update.finished
        self.cancel_button.setVisible(not finished)
        self.leave_button.setVisible(not finished and not update.left_running)
        self.result_button.setVisible(finished and update.status == "completed" and update.left_running)
        self.dismiss_button.setVisible(finished)


class TaskView(QFrame):
    """The window's tasks (hidden when there are none).

    Signals:
        cancel_requested(call_id): the person wants the server to stop this task.
        leave_requested(call_id): the person stops waiting; the task goes on.
        result_requested(call_id): show the result of a task that was left running and ended.
    """

    cancel_requested = Signal(str)
    leave_requested = Signal(str)
    result_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("taskView")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self._lay = QVBoxLayout(self)
        self._lay.setContentsMargins(6, 4, 6, 4)
        self.rows: dict[str, TaskRow] = {}
        self.hide()

    def show_update(self, update: TaskUpdate) -> None:
        """The engine said something about a task this window ran."""
        row = self.rows.get(update.call_id)
        if row is None:
            row = TaskRow(update, self)
            call_id = update.call_id
            row.cancel_button.clicked.connect(lambda: self.cancel_requested.emit(call_id))
            row.leave_button.clicked.connect(lambda: self.leave_requested.emit(call_id))
            row.result_button.clicked.connect(lambda: self.result_requested.emit(call_id))
            row.dismiss_button.clicked.connect(lambda: self.dismiss(call_id))
            self.rows[call_id] = row
            self._lay.addWidget(row)
        else:
            row.show_update(update)
        if update.finished and not update.left_running:
            self.dismiss(update.call_id)  # the answer shows below the form as for any call
        self.setVisible(bool(self.rows))

    @Slot(str)
    def dismiss(self, call_id: str) -> None:
        row = self.rows.pop(call_id, None)
        if row is not None:
            row.hide()
            self._lay.removeWidget(row)
            row.deleteLater()
        self.setVisible(bool(self.rows))
