"""The parts of the Add/Edit server dialog: the argument editor's delegate, the env/header rows
with their "secret" toggle, the keychain notice, the sign-in (OAuth) section, the example values
of a pasted snippet to replace, and the folded "Advanced" section.
"""

from __future__ import annotations

import asyncio
import copy
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, Signal, Slot
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemDelegate,
    QCheckBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QStyledItemDelegate,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.ui.async_dialogs import choose_path
from app.ui.dialog_style import error_text, example_field, keep_styled, label_colour
from app.ui.safe_text import plain_label, visible_line
from app.ui.server_checks import is_ref, looks_secret, secret_placeholder
from app.ui.theme import notice_style
from app.ui.widgets import tool_button

if TYPE_CHECKING:
    from app.install.plan import Question

logger = logging.getLogger(__name__)


def transport_label(kind: str, *, developer: bool = False) -> str:
    """A connection type in words; its protocol's name only in developer mode."""
    words = {
        "stdio": QCoreApplication.translate("ServerFields", "Runs on this computer"),
        "http": QCoreApplication.translate("ServerFields", "Runs on the internet (URL)"),
        "sse": QCoreApplication.translate("ServerFields", "Runs on the internet (URL, older kind)"),
    }
    protocol = {"stdio": "stdio", "http": "Streamable HTTP", "sse": "SSE"}
    text = words.get(kind, kind)
    return f"{text} — {protocol.get(kind, kind)}" if developer else text


def mode_label(mode: str) -> str:
    """A protocol mode in words: the two choices people may meet; version dates as they are."""
    if mode == "auto":
        return QCoreApplication.translate("ServerFields", "Automatic (recommended)")
    if mode == "legacy":
        return QCoreApplication.translate("ServerFields", "Older servers only")
    return mode


class AdvancedToggle(QToolButton):
    """A folding header ("▸ Advanced"): checked shows what it folds.

    Signals:
        toggled(bool): from QToolButton, the section was unfolded (True) or folded."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("advancedToggle")
        self.setText(text)
        self.setCheckable(True)
        self.setAutoRaise(True)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.setArrowType(Qt.ArrowType.RightArrow)
        self.toggled.connect(self._arrow)

    def expanded(self) -> bool:
        return self.isChecked()

    def set_expanded(self, on: bool) -> None:
        self.setChecked(on)
        self._arrow(on)

    @Slot(bool)
    def _arrow(self, on: bool) -> None:
        self.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)


class ArgDelegate(QStyledItemDelegate):
    """Edits an argument; Enter keeps it and says so (the dialog goes on to the next), instead of
    letting the key reach the dialog, which saved the whole server with half its arguments.

    Signals:
        entered(): Enter was pressed in an argument's editor; the text is committed."""

    entered = Signal()

    def eventFilter(self, editor: QObject, event: QEvent) -> bool:
        if (
            event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
            and not event.modifiers() & Qt.KeyboardModifier.ControlModifier
            and isinstance(editor, QWidget)
        ):
            self.commitData.emit(editor)
            self.closeEditor.emit(editor, QAbstractItemDelegate.EndEditHint.NoHint)
            self.entered.emit()
            return True
        return super().eventFilter(editor, event)


class KeyValueRows(QWidget):
    """Environment variables or HTTP headers: name, value and a 'secret' toggle per row."""

    changed = Signal()

    def __init__(self, kind: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.kind = kind
        self.rows: list[tuple[QLineEdit, QLineEdit, QCheckBox, QWidget]] = []
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.rows_layout = QVBoxLayout()
        lay.addLayout(self.rows_layout)
        self.add_button = QPushButton(self.tr("Add variable") if kind == "env" else self.tr("Add header"))
        self.add_button.clicked.connect(lambda: self.add_row())
        lay.addWidget(self.add_button, 0, Qt.AlignmentFlag.AlignLeft)

    def add_row(self, name: str = "", value: str = "", secret: bool | None = None) -> None:
        row = QWidget()
        h = QHBoxLayout(row)
        h.setContentsMargins(0, 0, 0, 0)
        k = QLineEdit(name)
        k.setCursorPosition(0)  # long names show their start, not their end
        k.setPlaceholderText("NAME" if self.kind == "env" else "Header-Name")
        k.setAccessibleName(self.tr("Variable name") if self.kind == "env" else self.tr("Header name"))
        v = QLineEdit()
        v.setAccessibleName(self.tr("Variable value") if self.kind == "env" else self.tr("Header value"))
        held_ref = is_ref(value)
        if held_ref:
            v.setPlaceholderText(secret_placeholder())
            v.setProperty("secret_ref", value)
        else:
            v.setText(value)
            v.setCursorPosition(0)
            v.setPlaceholderText(self.tr("value"))
        s = QCheckBox(self.tr("secret"))
        s.setToolTip(self.tr("Keep the value in your computer's keychain, not in the settings file"))
        s.setChecked(held_ref if secret is None else secret)
        rm = tool_button("✕")
        rm.setToolTip(self.tr("Remove this row"))
        rm.setAccessibleName(self.tr("Remove row"))
        # Names get the wider share: ones such as GITHUB_PERSONAL_ACCESS_TOKEN are long, and
        # secret values are shown as dots anyway.
        h.addWidget(k, 3)
        h.addWidget(v, 2)
        h.addWidget(s)
        h.addWidget(rm)
        entry = (k, v, s, row)
        self.rows.append(entry)
        self.rows_layout.addWidget(row)

        def mask(on: bool) -> None:
            v.setEchoMode(QLineEdit.EchoMode.Password if on else QLineEdit.EchoMode.Normal)

        def name_typed(text: str) -> None:
            # Names such as API_KEY or Authorization switch the toggle on (the person can undo it).
            if not s.property("touched") and looks_secret(text, self.kind):
                s.setChecked(True)

        s.toggled.connect(mask)
        s.clicked.connect(lambda: s.setProperty("touched", True))
        k.textEdited.connect(name_typed)
        rm.clicked.connect(lambda: self._remove(entry))
        mask(s.isChecked())

    def _remove(self, entry: tuple[QLineEdit, QLineEdit, QCheckBox, QWidget]) -> None:
        self.rows.remove(entry)
        entry[3].setParent(None)
        entry[3].deleteLater()

    def values(self) -> list[tuple[str, str, bool, str | None]]:
        """(name, typed value, secret?, existing reference) for each row with a name."""
        out = []
        for k, v, s, _ in self.rows:
            name = k.text().strip()
            if name:
                out.append((name, v.text(), s.isChecked(), v.property("secret_ref")))
        return out


def keyring_help_link() -> str:
    """Where the "how to set up a keychain" text is: the local docs file when it ships, else its name."""
    from PySide6.QtCore import QUrl

    from app.secrets.backend import HELP_DOC

    local = Path(__file__).resolve().parents[2] / HELP_DOC
    return QUrl.fromLocalFile(str(local)).toString() if local.is_file() else HELP_DOC


class KeyringNotice(QFrame):
    """Shown in the dialog, above Save, when the key cannot go to a keychain. Two short lines,
    a link to the fix, and (only when there is no keychain at all) "Keep for this session only"."""

    keep_for_session = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("keyringNotice")
        keep_styled(self, lambda: notice_style("warning", "#keyringNotice") + label_colour("warning"))
        lay = QHBoxLayout(self)
        lay.setContentsMargins(10, 8, 10, 8)
        self.text = QLabel()
        self.text.setTextFormat(Qt.TextFormat.RichText)  # our own words and link only, never server text
        self.text.setOpenExternalLinks(True)
        self.text.setWordWrap(True)
        lay.addWidget(self.text, 1)
        self.session_button = QPushButton(self.tr("Keep for this session only"))
        self.session_button.setToolTip(
            self.tr("The server connects now; the key is forgotten when MCP Desk exits.")
        )
        self.session_button.clicked.connect(self.keep_for_session)
        lay.addWidget(self.session_button, 0, Qt.AlignmentFlag.AlignVCenter)
        self.hide()

    def show_no_keychain(self) -> None:
        self._show(
            self.tr("This computer has no usable keychain, so the key cannot be saved."),
            self.tr("Keys are never written to a file."),
            self.tr("How to set one up"),
            offer_session=True,
        )

    def show_problem(self, message: str) -> None:
        """Another keychain failure (locked, prompt dismissed): its first line, nothing typed is lost."""
        first = message.strip().splitlines()[0] if message.strip() else ""
        self._show(
            self.tr("The key was not saved: %1").replace("%1", first),
            self.tr("Fix the keychain and press Save again."),
            self.tr("Help"),
            offer_session=False,
        )

    def _show(self, line1: str, line2: str, link_text: str, *, offer_session: bool) -> None:
        import html

        link = f'<a href="{html.escape(keyring_help_link(), quote=True)}">{html.escape(link_text)}</a>'
        self.text.setText(f"{html.escape(line1)}<br>{html.escape(line2)} {link}")
        self.session_button.setVisible(offer_session)
        self.show()


class OAuthSection(QWidget):
    """The "Sign-in (OAuth)" part of the remote page, folded away: most servers register MCP Desk by
    themselves; a client id (and secret) is only for providers that gave the person one.

    The client id and scope go to settings.json; the secret only to the keychain."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.toggle = QToolButton()
        self.toggle.setObjectName("oauthToggle")
        self.toggle.setText(self.tr("Sign-in (OAuth)"))
        self.toggle.setCheckable(True)
        self.toggle.setAutoRaise(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.toggle.toggled.connect(self.set_expanded)
        lay.addWidget(self.toggle, 0, Qt.AlignmentFlag.AlignLeft)
        self.body = QWidget()
        self.body.setObjectName("oauthFields")
        form = QFormLayout(self.body)
        form.setContentsMargins(18, 0, 0, 0)
        form.addRow(
            plain_label(
                self.tr(
                    "Only if the server's provider gave you a client id. Otherwise leave this empty: "
                    "MCP Desk registers itself when you sign in."
                ),
                wrap=True,
            )
        )
        self.client_id = QLineEdit()
        self.client_id.setObjectName("oauthClientId")
        self.client_id.setAccessibleName(self.tr("Client id"))
        self.client_id.setPlaceholderText(self.tr("(optional)"))
        form.addRow(self.tr("Client id"), self.client_id)
        self.client_secret = QLineEdit()
        self.client_secret.setObjectName("oauthClientSecret")
        self.client_secret.setAccessibleName(self.tr("Client secret"))
        self.client_secret.setEchoMode(QLineEdit.EchoMode.Password)
        self.client_secret.setPlaceholderText(self.tr("(optional) kept in your computer's keychain"))
        form.addRow(self.tr("Client secret"), self.client_secret)
        self.scope = QLineEdit()
        self.scope.setObjectName("oauthScope")
        self.scope.setAccessibleName(self.tr("Scope"))
        self.scope.setPlaceholderText(self.tr("(optional) what the server asks for, when empty"))
        form.addRow(self.tr("Scope"), self.scope)
        lay.addWidget(self.body)
        self.secret_stored = False
        self.set_expanded(False)

    @Slot(bool)
    def set_expanded(self, on: bool) -> None:
        self.toggle.setChecked(on)
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)
        self.body.setVisible(on)

    def load(self, oauth: dict[str, Any]) -> None:
        self.client_id.setText(str(oauth.get("client_id") or ""))
        self.scope.setText(str(oauth.get("scope") or ""))
        if self.client_id.text() or self.scope.text():
            self.set_expanded(True)  # something set here: show it

    def mark_secret_stored(self) -> None:
        """The keychain holds a client secret: say so instead of showing an empty field."""
        self.secret_stored = True
        self.client_secret.setPlaceholderText(secret_placeholder())

    def settings(self, old: dict[str, Any]) -> dict[str, Any]:
        """`old` (settings.json's `oauth`) with the client id and scope as typed; empty ones removed."""
        out = copy.deepcopy(old)
        for key, edit in (("client_id", self.client_id), ("scope", self.scope)):
            value = edit.text().strip()
            if value:
                out[key] = value
            else:
                out.pop(key, None)
        return out

    def typed_secret(self) -> str:
        return self.client_secret.text()


@dataclass
class Example:
    """An example value of a pasted snippet to be replaced: where it is shown, what asks for it."""

    id: str
    """The answer's key in the dialog (the question's key, prefixed by the plan for several)."""
    question: Question
    text: str
    """The text shown in the fields where the example was (what the README said)."""
    plan: int = 0


class ExampleValues(QFrame):
    """ "Replace the example values with your own": one highlighted field per example value."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("exampleValues")
        keep_styled(self, lambda: notice_style("warning", "#exampleValues") + label_colour("warning"))
        lay = QVBoxLayout(self)
        lay.setContentsMargins(10, 8, 10, 8)
        self.title = plain_label(
            self.tr(
                "This snippet holds example values. Replace each example value with your own: "
                "the server cannot work with the example."
            ),
            wrap=True,
        )
        lay.addWidget(self.title)
        self.form = QFormLayout()
        lay.addLayout(self.form)
        self.fields: dict[str, QLineEdit] = {}
        self.errors: dict[str, QLabel] = {}
        self.hide()

    def set_examples(self, examples: list[Example], titles: dict[int, str] | None = None) -> None:
        while self.form.rowCount():
            self.form.removeRow(0)
        self.fields.clear()
        self.errors.clear()
        for ex in examples:
            q = ex.question
            edit = QLineEdit()
            edit.setObjectName(f"example:{ex.id}")
            edit.setAccessibleName(q.label or q.key)
            example_field(edit)
            if q.secret:
                edit.setEchoMode(QLineEdit.EchoMode.Password)
            if q.default:
                edit.setText(q.default)
            hint = ex.text if not q.secret else self.tr("your key (kept in your computer's keychain)")
            edit.setPlaceholderText(visible_line(hint)[:120])
            field: QWidget = edit
            if q.kind in ("directory", "file"):
                row = QWidget()
                h = QHBoxLayout(row)
                h.setContentsMargins(0, 0, 0, 0)
                h.addWidget(edit, 1)
                browse = QPushButton(self.tr("Browse…"))
                browse.clicked.connect(lambda _=False, e=edit, k=q.kind: self._browse(e, k))
                h.addWidget(browse)
                field = row
            note = plain_label(
                self.tr("Replace the example value “%1” with your own.").replace(
                    "%1", visible_line(ex.text)[:80]
                ),
                wrap=True,
            )
            note.setStyleSheet("font-size: small;")
            error = plain_label("")
            error_text(error)
            error.hide()
            box = QWidget()
            v = QVBoxLayout(box)
            v.setContentsMargins(0, 0, 0, 0)
            v.setSpacing(2)
            v.addWidget(field)
            v.addWidget(note)
            v.addWidget(error)
            label = visible_line(q.label or q.key)
            if titles and len(set(titles.values())) > 1:
                label = f"{visible_line(titles.get(ex.plan, ''))}: {label}"
            self.form.addRow(label, box)
            self.fields[ex.id] = edit
            self.errors[ex.id] = error
        self.setVisible(bool(examples))

    def _browse(self, edit: QLineEdit, kind: str) -> None:
        self._chooser = asyncio.ensure_future(self._choose(edit, kind))

    async def _choose(self, edit: QLineEdit, kind: str) -> None:
        folder = kind == "directory"
        title = self.tr("Choose a folder") if folder else self.tr("Choose a file")
        chosen = await choose_path(self, title, "", folder=folder)
        if chosen:
            edit.setText(chosen[0])

    def answers(self) -> dict[str, str]:
        return {key: edit.text().strip() for key, edit in self.fields.items()}

    def show_missing(self, missing: set[str]) -> None:
        for key, error in self.errors.items():
            error.setText(self.tr("Enter your own value here.") if key in missing else "")
            error.setVisible(key in missing)
