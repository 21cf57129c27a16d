"""The credentials view's two small parts: the dialog that takes a key's value (masked) and the
notice that says, in plain words, why the keychain cannot be read and what to do.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.config.refs import is_valid_secret_name
from app.ui.async_dialogs import keyboard_rule
from app.ui.dialog_style import error_text, keep_styled, label_colour
from app.ui.safe_text import plain_label
from app.ui.theme import notice_style


class SecretDialog(QDialog):
    """Set or replace one key: the name (fixed when replacing) and the value in a masked field.
    Paste works (Ctrl+V, the context menu); the value is never shown while typed."""

    def __init__(self, server: str, name: str | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("secretDialog")
        self.setWindowTitle(self.tr("Replace the key") if name else self.tr("Add a key"))
        outer = QVBoxLayout(self)
        intro = plain_label(
            self.tr("The key for %1 goes to your computer's keychain.").replace("%1", server)
            if name is None
            else self.tr("The new value of %1 for %2 goes to your computer's keychain.")
            .replace("%1", name)
            .replace("%2", server)
        )
        outer.addWidget(intro)
        form = QFormLayout()
        self.name = QLineEdit(name or "")
        self.name.setObjectName("secretName")
        self.name.setReadOnly(name is not None)
        self.name.setPlaceholderText(self.tr("for example BRAVE_API_KEY"))
        self.value = QLineEdit()
        self.value.setObjectName("secretValue")
        self.value.setEchoMode(QLineEdit.EchoMode.Password)
        self.value.setPlaceholderText(self.tr("type or paste the key"))
        name_label = QLabel(self.tr("&Name:"))
        name_label.setBuddy(self.name)
        value_label = QLabel(self.tr("&Value:"))
        value_label.setBuddy(self.value)
        form.addRow(name_label, self.name)
        form.addRow(value_label, self.value)
        outer.addLayout(form)
        self.error = plain_label("")
        error_text(self.error)
        self.error.hide()
        outer.addWidget(self.error)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        outer.addWidget(self.buttons)
        self.name.textChanged.connect(self._check)
        self.value.textChanged.connect(self._check)
        (self.value if name else self.name).setFocus()
        keyboard_rule(self)
        self._check()
        self.resize(460, self.sizeHint().height())

    def _problem(self) -> str | None:
        name = self.name.text().strip()
        if not name:
            return self.tr("Give the key a name.")
        if not is_valid_secret_name(name):
            return self.tr("A key's name has only letters, digits, '_', '-' and '.'.")
        if not self.value.text():
            return ""  # nothing to say yet: Save stays off until something is typed
        return None

    @Slot()
    def _check(self) -> None:
        problem = self._problem()
        self.buttons.button(QDialogButtonBox.StandardButton.Save).setEnabled(problem is None)
        shown = bool(problem) and bool(self.name.text()) and not self.name.isReadOnly()
        self.error.setText(problem or "")
        self.error.setVisible(shown)

    def accept(self) -> None:
        if self._problem() is None:
            super().accept()

    def take(self) -> tuple[str, str]:
        """(name, value), and the value is off the field (and its undo history) at once."""
        value = self.value.text()
        self.value.setText("")
        return self.name.text().strip(), value


class KeychainNotice(QFrame):
    """Why the list cannot be read, in plain words, with what the person can do about it."""

    keep_for_session = Signal()
    retry = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("keychainNotice")
        keep_styled(self, lambda: notice_style("warning", "#keychainNotice") + label_colour("warning"))
        lay = QHBoxLayout(self)
        lay.setContentsMargins(10, 8, 10, 8)
        self.text = QLabel()
        self.text.setObjectName("keychainNoticeText")
        self.text.setTextFormat(Qt.TextFormat.RichText)  # our own words and link only
        self.text.setOpenExternalLinks(True)
        self.text.setWordWrap(True)
        lay.addWidget(self.text, 1)
        self.retry_button = QPushButton(self.tr("&Try again"))
        self.retry_button.setAutoDefault(False)
        self.retry_button.clicked.connect(self.retry)
        lay.addWidget(self.retry_button, 0, Qt.AlignmentFlag.AlignVCenter)
        self.session_button = QPushButton(self.tr("&Keep keys for this session only"))
        self.session_button.setAutoDefault(False)
        self.session_button.setToolTip(
            self.tr("Keys you set are kept until MCP Desk closes, never in a file.")
        )
        self.session_button.clicked.connect(self.keep_for_session)
        lay.addWidget(self.session_button, 0, Qt.AlignmentFlag.AlignVCenter)
        self.hide()

    def show_message(self, line1: str, line2: str, *, retry: bool) -> None:
        from app.ui.server_dialog import keyring_help_link

        link = html.escape(keyring_help_link(), quote=True)
        self.text.setText(
            f"{html.escape(line1)}<br>{html.escape(line2)} "
            f'<a href="{link}">{html.escape(self.tr("How to set one up"))}</a>'
        )
        self.retry_button.setVisible(retry)
        self.show()
