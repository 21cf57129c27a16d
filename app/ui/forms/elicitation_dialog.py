"""`ElicitationDialog`: a server asks the person for information (`elicitation/create`, form mode).

Never `exec()`: the dialog is opened with `open()` or `show()` and its answer arrives through the
`answered` signal or the future from `future()`, so an async handler can await it without a nested loop.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QCloseEvent, QKeyEvent
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QPushButton, QWidget

from app.forms.elicitation import ElicitationForm, ElicitationOutcome
from app.ui.forms.base import fill, plain_label, vbox
from app.ui.forms.form_widget import FormWidget

logger = logging.getLogger(__name__)


class ElicitationDialog(QDialog):
    """The server's message (plain text), the form, and Accept / Decline / Cancel.

    Signals:
    answered(object): the person answered; carries an `ElicitationOutcome` (sent once).
    """

    answered = Signal(object)

    def __init__(
        self, message: str, requested_schema: Any, parent: QWidget | None = None, *, server: str = ""
    ) -> None:
        super().__init__(parent)
        # "NAME asks for information" (glossary: elicitation = the server asks you).
        title = fill(self.tr("%1 asks for information"), server) if server else ""
        self.setWindowTitle(title or self.tr("A server asks for information"))
        self.setAccessibleName(self.tr("Information requested by a server"))
        self.model = ElicitationForm(requested_schema, message)
        self._outcome: ElicitationOutcome | None = None
        self._future: asyncio.Future[ElicitationOutcome] | None = None

        layout = vbox(self, 8)
        layout.setContentsMargins(12, 12, 12, 12)
        self.message = plain_label(message, self)
        self.message.setAccessibleName(self.tr("Message from the server"))
        layout.addWidget(self.message)
        self.form = FormWidget(
            self.model.schema,
            self,
            form=self.model.form,
            empty_text=self.tr("The server asks for nothing to fill in."),
        )
        layout.addWidget(self.form, 1)

        buttons = QDialogButtonBox(self)
        self.accept_button = QPushButton(self.tr("Send"), self)
        self.accept_button.setAccessibleName(self.tr("Send the answer"))
        self.accept_button.setToolTip(self.tr("Send what you filled in to the server (Ctrl+Enter)"))
        self.decline_button = QPushButton(self.tr("Decline"), self)
        self.decline_button.setAccessibleName(self.tr("Decline to answer"))
        self.decline_button.setToolTip(self.tr("Tell the server you do not want to answer"))
        self.cancel_button = QPushButton(self.tr("Cancel"), self)
        self.cancel_button.setAccessibleName(self.tr("Cancel"))
        self.cancel_button.setToolTip(self.tr("Close without answering"))
        for button in (self.accept_button, self.decline_button, self.cancel_button):
            button.setAutoDefault(False)
        buttons.addButton(self.accept_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.decline_button, QDialogButtonBox.ButtonRole.DestructiveRole)
        buttons.addButton(self.cancel_button, QDialogButtonBox.ButtonRole.RejectRole)
        self.accept_button.clicked.connect(self._on_send)
        self.decline_button.clicked.connect(self._on_decline)
        self.cancel_button.clicked.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(520, min(640, 220 + 70 * max(1, len(self.model.schema.get("properties", {}) or {}))))

    # -- values ------------------------------------------------------------------------------------------

    def value(self) -> Any:
        return self.form.value()

    def set_value(self, value: Any) -> None:
        self.form.set_value(value)

    def response(self) -> ElicitationOutcome:
        """The answer so far: `cancel` until the person chose."""
        return self._outcome or ElicitationOutcome("cancel")

    def future(self) -> asyncio.Future[ElicitationOutcome]:
        """A future on the running asyncio loop resolved with the answer (call after the loop started)."""
        if self._future is None:
            self._future = asyncio.get_running_loop().create_future()
            if self._outcome is not None:
                self._future.set_result(self._outcome)
        return self._future

    # -- answering ---------------------------------------------------------------------------------------

    def _finish(self, outcome: ElicitationOutcome, code: QDialog.DialogCode) -> None:
        if self._outcome is not None:
            return
        self._outcome = outcome
        if self._future is not None and not self._future.done():
            self._future.set_result(outcome)
        self.answered.emit(outcome)
        self.done(int(code.value))

    @Slot()
    def _on_send(self) -> None:
        errors = self.form.errors()
        if errors:
            self.form.show_errors(errors)
            self.form.focus_first_error()
            return
        self._finish(ElicitationOutcome("accept", self.form.value()), QDialog.DialogCode.Accepted)

    @Slot()
    def _on_decline(self) -> None:
        self._finish(ElicitationOutcome("decline"), QDialog.DialogCode.Rejected)

    def reject(self) -> None:
        if self._outcome is None:
            self._finish(ElicitationOutcome("cancel"), QDialog.DialogCode.Rejected)
        else:
            super().reject()

    def done(self, code: int) -> None:
        if self._outcome is None:  # closed another way (window manager, parent closing): that is cancel
            self._outcome = ElicitationOutcome("cancel")
            if self._future is not None and not self._future.done():
                self._future.set_result(self._outcome)
            self.answered.emit(self._outcome)
        super().done(code)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.reject()
        event.accept()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and (
            event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            self._on_send()  # Ctrl+Enter sends; a plain Enter in a field never does
            return
        super().keyPressEvent(event)
