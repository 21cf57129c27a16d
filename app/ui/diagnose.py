"""Diagnose: the doctor's steps (app/cli/doctor.py) run for a server and shown in the window.

The steps run in a worker thread (they start the program, wait for it, connect as the app does);
each one is listed as it finishes, with ok / failed and its details. Cancel stops the run at the
next step or wait (the doctor's `Report.cancel`). The steps are shown in people's words
(app/ui/diagnose_words.py; the doctor's own text in developer mode), each in a box that wraps its
lines (a long path or an unbroken line of output is broken for display), with the server's own
output as plain text only.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import threading
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFrame,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.ui.async_dialogs import keyboard_rule, run_dialog
from app.ui.developer_mode import developer_mode
from app.ui.diagnose_words import shown_step
from app.ui.dialog_style import with_icon
from app.ui.elide import breakable
from app.ui.safe_text import plain_label, visible_line
from app.ui.theme import NoticeKind, notice_style

if TYPE_CHECKING:
    from app.cli.doctor import Step
    from app.mcp.target import Target

logger = logging.getLogger(__name__)

MAX_DETAIL = 300
"""Characters of one detail line shown (a server may print a whole page on one line)."""
BREAK_RUN = 40
"""A run of this many characters without a space gets a break opportunity (paths, URLs, noise)."""
STEP_KINDS: dict[str, NoticeKind] = {"fail": "error", "warn": "warning"}


def wrapped_label(text: str) -> QLabel:
    """Plain text that wraps to the width even where it has no spaces (a path, a long line of
    output): made visible first (invisible characters named), then given break opportunities.
    Not a PlainLabel: that would name the zero-width spaces it is given."""
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setText(breakable(visible_line(text), BREAK_RUN))
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


class _StepRelay(QObject):
    """Carries steps from the worker thread to the dialog (a queued signal)."""

    step_added = Signal(object)


class DiagnoseDialog(QDialog):
    """The doctor's steps for one server, listed as they finish.

    Signals:
        finished_steps(): the run ended (done, failed or cancelled); `outcome` says which."""

    finished_steps = Signal()

    def __init__(self, server: str, target: Target, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        from app.cli.doctor import DEFAULT_DOCTOR_TIMEOUT

        self.setObjectName("diagnoseDialog")
        self.setWindowTitle(self.tr("Diagnose %1").replace("%1", visible_line(server)))
        self.resize(640, 440)
        self.server = server
        # As the command line's doctor: a hanging server is given up on sooner than a connection.
        self.target = dataclasses.replace(target, timeout=min(target.timeout, DEFAULT_DOCTOR_TIMEOUT))
        self.cancel_event = threading.Event()
        self.outcome: str | None = None
        """None while running; then "ok", "warn", "fail", "cancelled" or "error"."""
        self.steps: list[Step] = []
        lay = QVBoxLayout(self)
        self.status = plain_label(self.tr("Checking %1 step by step…").replace("%1", visible_line(server)))
        self.status.setObjectName("diagnoseStatus")
        lay.addWidget(self.status)
        # One box per step, in a scroll area: labels wrap to the width (a tree cut long lines).
        self.step_area = QScrollArea()
        self.step_area.setObjectName("diagnoseSteps")
        self.step_area.setWidgetResizable(True)
        self.step_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.step_area.setAccessibleName(self.tr("Steps"))
        body = QWidget()
        self.step_layout = QVBoxLayout(body)
        self.step_layout.setContentsMargins(0, 0, 0, 0)
        self.step_layout.addStretch(1)
        self.step_area.setWidget(body)
        self.step_boxes: list[QFrame] = []
        lay.addWidget(self.step_area, 1)
        self.buttons = QDialogButtonBox()
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.clicked.connect(self.cancel)
        self.buttons.addButton(self.cancel_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.close_button.clicked.connect(self.reject)
        lay.addWidget(self.buttons)
        self._relay = _StepRelay(self)
        self._relay.step_added.connect(self._add_step, Qt.ConnectionType.QueuedConnection)
        self._task: asyncio.Task[None] | None = None
        keyboard_rule(self, ctrl_enter=False)  # nothing to accept; Esc and Close close
        developer_mode().changed.connect(self._developer_mode_changed)

    def step_count(self) -> int:
        return len(self.step_boxes)

    def step_texts(self) -> list[str]:
        """Every line shown, step by step (for tests and screen readers)."""
        return ["\n".join(label.text() for label in box.findChildren(QLabel)) for box in self.step_boxes]

    def start(self) -> None:
        self._task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        from app.cli.doctor import DoctorCancelled, Report, run_steps

        report = Report(self.server, on_step=self._relay.step_added.emit, cancel=self.cancel_event)
        try:
            await asyncio.to_thread(run_steps, self.target, report)
        except DoctorCancelled:
            self._finish("cancelled", self.tr("Cancelled."))
            return
        except Exception as exc:  # a bug in a step must not leave the dialog spinning
            logger.exception("diagnose %s failed", self.server)
            self._finish("error", self.tr("The diagnosis stopped: %1").replace("%1", visible_line(str(exc))))
            return
        if report.failed:
            self._finish("fail", self.tr("The first failed step is what to fix."))
        elif any(s.status == "warn" for s in report.steps):
            self._finish("warn", self.tr("It works, but see the warnings."))
        else:
            self._finish("ok", self.tr("No problem found."))

    def _finish(self, outcome: str, text: str) -> None:
        try:
            self.outcome = outcome
            self.status.setText(text)
            self.cancel_button.hide()
        except RuntimeError:  # the dialog was closed and deleted meanwhile
            return
        self.finished_steps.emit()

    @Slot(object)
    def _add_step(self, step: Step) -> None:
        self.steps.append(step)
        box = self._step_box(step)
        self.step_boxes.append(box)
        self.step_layout.insertWidget(self.step_layout.count() - 1, box)  # above the stretch

    def _step_box(self, step: Step) -> QFrame:
        marks = {
            "ok": self.tr("OK"),
            "warn": self.tr("Warning"),
            "fail": self.tr("Problem"),
            "info": self.tr("Note"),
        }
        shown = shown_step(step, developer=developer_mode().enabled())
        box = QFrame()
        box.setObjectName(f"diagnoseStep{len(self.step_boxes)}")
        box.setProperty("status", step.status)
        v = QVBoxLayout(box)
        v.setContentsMargins(8, 6, 8, 6)
        v.setSpacing(2)
        title = wrapped_label(f"{marks.get(step.status, step.status)} — {visible_line(shown.title)}")
        title.setObjectName("diagnoseStepTitle")
        if step.status in ("fail", "warn"):
            font = title.font()
            font.setBold(True)
            title.setFont(font)
        v.addWidget(title)
        # Details only where they help: a failed or warned step, or anything in developer mode.
        if step.status in ("fail", "warn", "info") or developer_mode().enabled():
            for line in shown.details:
                detail = wrapped_label(visible_line(line)[:MAX_DETAIL])
                detail.setObjectName("diagnoseDetail")
                detail.setContentsMargins(12, 0, 0, 0)
                v.addWidget(detail)
        if shown.advice:
            advice = wrapped_label(self.tr("What to do: %1").replace("%1", visible_line(shown.advice)))
            advice.setObjectName("diagnoseAdvice")
            v.addWidget(advice)
        self._style_box(box)
        return box

    def _style_box(self, box: QFrame) -> None:
        kind = STEP_KINDS.get(str(box.property("status")))
        box.setStyleSheet(notice_style(kind, f"#{box.objectName()}") if kind else "")

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            for box in self.step_boxes:
                self._style_box(box)  # light colours in a dark palette are unreadable

    @Slot(bool)
    def _developer_mode_changed(self, _on: bool) -> None:
        """The steps again, in the doctor's words (developer mode) or in people's."""
        for box in self.step_boxes:
            box.setParent(None)
            box.deleteLater()
        self.step_boxes = []
        steps, self.steps = self.steps, []
        for step in steps:
            self._add_step(step)

    @Slot()
    def cancel(self) -> None:
        self.cancel_event.set()
        self.cancel_button.setEnabled(False)
        self.status.setText(self.tr("Cancelling…"))

    def done(self, result: int) -> None:
        self.cancel_event.set()  # closing while it runs: the worker stops at its next step
        super().done(result)


async def open_diagnose(window: Any, server: str) -> None:
    """Diagnose `server` in a dialog (its connection's target: it already ran, so it is allowed)."""
    controller = window.controller
    conn = controller.connection(server)
    target = getattr(conn, "target", None)
    if target is None:
        target = await controller._target(server)  # the controller's one way to a target
    dialog = DiagnoseDialog(server, target, window)
    window.diagnose_dialog = dialog  # tests and screenshots reach it here
    dialog.start()
    try:
        await run_dialog(dialog)
    finally:
        window.diagnose_dialog = None
        dialog.deleteLater()


class DiagnoseButton(QPushButton):
    """ "Diagnose…" under a server that could not connect: opens the DiagnoseDialog for it."""

    def __init__(self, window: Any) -> None:
        super().__init__()
        self.setObjectName("diagnoseButton")
        self.setText(self.tr("Diagnose…"))
        with_icon(self, "diagnose")
        self.setToolTip(self.tr("Check this server step by step and see what to fix"))
        self.window_ = window
        self.server: str | None = None
        self.clicked.connect(self._open)
        self.hide()

    def show_for(self, server: str | None) -> None:
        """Shown for `server` (a failed one); hidden for None."""
        self.server = server
        self.setVisible(server is not None)

    @Slot()
    def _open(self) -> None:
        if self.server is not None:
            self._task = asyncio.ensure_future(open_diagnose(self.window_, self.server))
