"""Adding, editing, importing and exporting servers.

The dialog checks fields where they are typed (command not on PATH, a URL that is not http(s)).
Rows marked secret go to the keyring (through the SecretStore's async twins, off the GUI thread)
and the file keeps only a `${secret:NAME}` reference. Import and paste-a-snippet go through
app.config.importing / app.config.snippets (one parser with the CLI), run in a worker thread
because storing secrets touches the keyring.

A pasted snippet's example values (`YOUR_API_KEY_HERE`, `/path/to/dir`) are asked for in the
dialog: the fields that hold them are highlighted and read "replace this example value with your
own", and on Save each example is replaced by the answer (`app.install.plan.apply`), a key going to
the keychain. A whole command line typed or pasted into the Command field is split into the program
and its arguments, and the parts are shown. The Edit dialog says which runtime a local server uses.
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, Signal, Slot
from PySide6.QtGui import QBrush, QColor, QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemDelegate,
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QMessageBox,
    QPushButton,
    QSizePolicy,
    QStyledItemDelegate,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.config.secret_names import sanitise_secret_name
from app.ui.arg_secrets import ArgSecrets, take_launch_secrets
from app.ui.async_dialogs import inform, run_dialog
from app.ui.safe_text import plain_label, plain_labels, visible_line
from app.ui.widgets import tool_button

if TYPE_CHECKING:
    from app.install.plan import InstallPlan, Question

logger = logging.getLogger(__name__)

# How a field holding an example value to replace looks (light and dark palettes alike).
EXAMPLE_STYLE = "background: #fff3c4; color: #4e3b00; border: 1px solid #e0b400; border-radius: 3px;"
EXAMPLE_BACKGROUND = "#fff3c4"
EXAMPLE_FOREGROUND = "#4e3b00"


SECRET_REF_PREFIX = "${secret:"
PROTOCOL_MODES = ("auto", "legacy", "2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
SECRET_PLACEHOLDER = "stored in the keychain — type to replace"
# The keyring secret that holds a pre-registered OAuth client's secret (never settings.json):
# app.secrets.oauth.CLIENT_SECRET, spelled here so opening the dialog imports no keyring code.
OAUTH_CLIENT_SECRET = "oauth.client_secret"
# settings.json `oauth` keys the dialog edits; others (grant, client_metadata_url) are kept as found.
OAUTH_FIELDS = ("client_id", "scope")


def _is_ref(value: str) -> bool:
    return value.startswith(SECRET_REF_PREFIX) and value.endswith("}")


def _looks_secret(name: str, kind: str) -> bool:
    try:
        from app.secrets.detect import is_secret_env, is_secret_header
    except ImportError:
        return False
    return is_secret_header(name, "x") if kind == "header" else is_secret_env(name, "x")


def validate_command(command: str, cwd: str = "") -> str | None:
    """A message when the command cannot be started as typed, else None."""
    command = command.strip()
    if not command:
        return "Enter the command that starts the server (for example npx or uvx)."
    if any(c.isspace() for c in command) and not Path(command).exists():
        # A whole command line as READMEs print it (`python3 -m http.server`): the program is
        # its first word (the dialog splits the rest into arguments); judge that, not the line.
        from app.config.snippets import split_command_line

        try:
            _env, command, _args = split_command_line(command)
        except ValueError as exc:
            return f"This command line cannot be read: {exc}"
    if os.sep in command or (os.altsep and os.altsep in command):
        path = Path(command) if Path(command).is_absolute() or not cwd else Path(cwd) / command
        if not path.exists():
            return f"No such file: {path}"
        if not os.access(path, os.X_OK):
            return f"Not executable: {path}"
        return None
    if shutil.which(command) is None:
        return f"“{command}” was not found on PATH. Install it, or give its full path."
    return None


def validate_url(url: str) -> str | None:
    from urllib.parse import urlsplit

    url = url.strip()
    if not url:
        return "Enter the server's URL (for example https://example.com/mcp)."
    try:
        parts = urlsplit(url)
    except ValueError:
        return "This is not a valid URL."
    if parts.scheme not in ("http", "https"):
        return "The URL must start with http:// or https://."
    if not parts.hostname:
        return "The URL has no host name."
    return None


def accept_on_ctrl_enter(dialog: QDialog) -> None:
    """The app's one rule: Ctrl+Enter accepts every dialog; Enter accepts a single-line dialog
    only (Qt's default button does that), never one with several fields or a text box."""
    for key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
        shortcut = QShortcut(QKeySequence(Qt.KeyboardModifier.ControlModifier | key), dialog)
        shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
        shortcut.activated.connect(dialog.accept)


class _ArgDelegate(QStyledItemDelegate):
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
        self.add_button = QPushButton("Add variable" if kind == "env" else "Add header")
        self.add_button.clicked.connect(lambda: self.add_row())
        lay.addWidget(self.add_button, 0, Qt.AlignmentFlag.AlignLeft)

    def add_row(self, name: str = "", value: str = "", secret: bool | None = None) -> None:
        row = QWidget()
        h = QHBoxLayout(row)
        h.setContentsMargins(0, 0, 0, 0)
        k = QLineEdit(name)
        k.setCursorPosition(0)  # long names show their start, not their end
        k.setPlaceholderText("NAME" if self.kind == "env" else "Header-Name")
        k.setAccessibleName(f"{self.kind} name")
        v = QLineEdit()
        v.setAccessibleName(f"{self.kind} value")
        is_ref = _is_ref(value)
        if is_ref:
            v.setPlaceholderText(SECRET_PLACEHOLDER)
            v.setProperty("secret_ref", value)
        else:
            v.setText(value)
            v.setCursorPosition(0)
            v.setPlaceholderText("value")
        s = QCheckBox("secret")
        s.setToolTip("Keep the value in the system keychain, not in the settings file")
        s.setChecked(is_ref if secret is None else secret)
        rm = tool_button("✕")
        rm.setToolTip("Remove this row")
        rm.setAccessibleName("Remove row")
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
            if not s.property("touched") and _looks_secret(text, self.kind):
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
        self.setStyleSheet(
            "#keyringNotice { background: #fff8e1; border: 1px solid #f3d98b; border-radius: 4px; }"
            "#keyringNotice QLabel { color: #4e3b00; }"
        )
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
        self.client_secret.setPlaceholderText(SECRET_PLACEHOLDER)

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


def describe_runtime(entry: Any) -> str | None:
    """Which runtime the entry's command runs on, in words ("Node.js 24.19 (built in)", "your
    Node.js 22.3"), or None when it needs none or it cannot be told. Off the GUI thread: the
    lookup may start `node --version`."""
    if getattr(entry, "transport", "stdio") != "stdio" or not getattr(entry, "command", None):
        return None
    from app.runtimes import describe, runtime_for

    try:
        runtime = runtime_for(entry)
    except Exception as exc:  # a lookup that fails is no reason to fail the dialog
        logger.info("no runtime for %s: %s", getattr(entry, "name", "?"), exc)
        return None
    return None if runtime is None else str(describe(runtime))


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
        self.setStyleSheet(
            "#exampleValues { background: #fffbea; border: 1px solid #e0b400; border-radius: 4px; }"
            "#exampleValues QLabel { color: #4e3b00; background: transparent; }"
        )
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
            edit.setStyleSheet("QLineEdit { " + EXAMPLE_STYLE + " }")
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
            error.setStyleSheet("color: #b71c1c;")
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
        if kind == "directory":
            chosen = QFileDialog.getExistingDirectory(self, self.tr("Choose a folder"), str(Path.home()))
        else:
            chosen = QFileDialog.getOpenFileName(self, self.tr("Choose a file"), str(Path.home()))[0]
        if chosen:
            edit.setText(chosen)

    def answers(self) -> dict[str, str]:
        return {key: edit.text().strip() for key, edit in self.fields.items()}

    def show_missing(self, missing: set[str]) -> None:
        for key, error in self.errors.items():
            error.setText(self.tr("Enter your own value here.") if key in missing else "")
            error.setVisible(key in missing)


class ServerDialog(QDialog):
    """Add or edit one server. `accept()` only closes when every field is valid and the secrets
    typed have somewhere to go (a keychain, or this session's memory if the person chose so)."""

    def __init__(self, controller: Any, name: str | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.original = controller.entry(name) if name else None
        self.setWindowTitle("Edit server" if self.original else "Add server")
        self.setObjectName("serverDialog")
        self.resize(640, 560)
        self.pasted: list[InstallPlan] | None = None  # several servers pasted: added as a whole
        self.examples: list[Example] = []
        self.paste_box: QInputDialog | None = None
        self._paste_task: asyncio.Future[None] | None = None
        outer = QVBoxLayout(self)

        top = QHBoxLayout()
        top.addWidget(
            plain_label(
                self.tr(
                    "Type the details below, or paste the configuration snippet (or the command line) "
                    "from the server's README."
                ),
                wrap=True,
            ),
            1,
        )
        self.paste_button = QPushButton(self.tr("Paste snippet…"))
        self.paste_button.setAutoDefault(False)
        self.paste_button.clicked.connect(self.paste_json)
        top.addWidget(self.paste_button)
        outer.addLayout(top)
        self.paste_note = plain_label("")
        self.paste_note.setStyleSheet(
            "background: #e3f2fd; color: #0d47a1; padding: 6px; border-radius: 4px;"
        )
        self.paste_note.hide()
        outer.addWidget(self.paste_note)
        self.example_values = ExampleValues(self)
        outer.addWidget(self.example_values)

        # One form for every field, so the labels line up in one column; the rows of the other
        # connection type are hidden (a stacked widget kept the stdio page's height for a URL).
        form = self.form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.name, self.name_error = self._checked_line(form, "Name", "for example github")
        self.transport = QComboBox()
        self.transport.setAccessibleName("Connection type")
        self.transport.addItem("Local program (stdio)", "stdio")
        self.transport.addItem("Remote (Streamable HTTP)", "http")
        self.transport.addItem("Remote (legacy SSE)", "sse")
        form.addRow("Type", self.transport)

        # stdio rows
        self.command, self.command_error = self._checked_line(
            form, "Command", "npx, uvx, python, or a full path"
        )
        self.command.setPlaceholderText(
            self.tr("npx, uvx, python, a full path — or the whole command line from the README")
        )
        command_box = self.command.parentWidget()
        self.split_note = plain_label("", wrap=False)  # short lines: a wrapping label grows tall
        self.split_note.setObjectName("splitNote")
        self.split_note.setStyleSheet(
            "background: #e8f5e9; color: #1b5e20; padding: 6px; border-radius: 4px;"
        )
        self.split_note.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        self.split_note.hide()
        self.runtime_line = plain_label("", wrap=True)
        self.runtime_line.setObjectName("runtimeLine")
        self.runtime_line.hide()
        box_layout = command_box.layout() if command_box is not None else None
        if box_layout is not None:  # under the command they describe, inside its row
            box_layout.addWidget(self.split_note)
            box_layout.addWidget(self.runtime_line)
        args_box = QWidget()
        al = QVBoxLayout(args_box)
        al.setContentsMargins(0, 0, 0, 0)
        self.args = QListWidget()
        self.args.setAccessibleName("Arguments")
        self.args.setToolTip(
            self.tr("Enter edits an argument and goes on to the next; Ctrl+Enter saves the server.")
        )
        self.args.setMaximumHeight(110)
        self.arg_delegate = _ArgDelegate(self.args)
        self.arg_delegate.entered.connect(self._arg_entered)
        self.args.setItemDelegate(self.arg_delegate)
        self.args.installEventFilter(self)
        al.addWidget(self.args)
        ab = QHBoxLayout()
        for text, slot in (
            ("Add", self._add_arg),
            ("Remove", self._remove_arg),
            ("Up", lambda: self._move_arg(-1)),
            ("Down", lambda: self._move_arg(1)),
        ):
            b = QPushButton(text)
            b.setAutoDefault(False)
            b.clicked.connect(slot)
            ab.addWidget(b)
        self.arg_secrets = ArgSecrets(self.args, self._secret_names, self)
        ab.addWidget(self.arg_secrets.mark_button)
        ab.addStretch(1)
        al.addLayout(ab)
        al.addWidget(self.arg_secrets.warning)
        form.addRow("Arguments", args_box)
        cwd_box = QWidget()
        cwd_row = QHBoxLayout(cwd_box)
        cwd_row.setContentsMargins(0, 0, 0, 0)
        self.cwd = QLineEdit()
        self.cwd.setAccessibleName("Working directory")
        self.cwd.setPlaceholderText("(optional)")
        browse = QPushButton("Browse…")
        browse.setAutoDefault(False)
        browse.clicked.connect(self._browse_cwd)
        cwd_row.addWidget(self.cwd, 1)
        cwd_row.addWidget(browse)
        form.addRow("Working directory", cwd_box)
        self.env = KeyValueRows("env")
        form.addRow("Environment", self.env)
        self.stdio_rows: list[QWidget] = [w for w in (command_box, args_box, cwd_box, self.env) if w]
        # http rows
        self.url, self.url_error = self._checked_line(form, "URL", "https://example.com/mcp")
        self.headers = KeyValueRows("header")
        form.addRow("Headers", self.headers)
        oauth_box = QWidget()
        ol = QVBoxLayout(oauth_box)
        ol.setContentsMargins(0, 0, 0, 0)
        self.oauth = OAuthSection()
        ol.addWidget(self.oauth)
        self.client_id_error = self._error_label()
        ol.addWidget(self.client_id_error)
        form.addRow("", oauth_box)
        url_box = self.url.parentWidget()
        self.http_rows: list[QWidget] = [w for w in (url_box, self.headers, oauth_box) if w]

        self.timeout = QDoubleSpinBox()
        self.timeout.setAccessibleName("Timeout")
        self.timeout.setRange(1, 3600)
        self.timeout.setSuffix(" s")
        self.timeout.setValue(60)
        form.addRow("Call timeout", self.timeout)
        self.mode = QComboBox()
        self.mode.setAccessibleName("Protocol")
        self.mode.addItems(PROTOCOL_MODES)
        self.mode.setToolTip(
            "auto: try the newest protocol, fall back to the handshake; legacy: handshake only"
        )
        form.addRow("Protocol", self.mode)
        self.enabled = QCheckBox("Connect at start and with “Connect all” (clear to keep it switched off)")
        self.enabled.setChecked(True)
        form.addRow("Enabled", self.enabled)
        roots_box = QWidget()
        rl = QHBoxLayout(roots_box)
        rl.setContentsMargins(0, 0, 0, 0)
        self.roots = QListWidget()
        self.roots.setAccessibleName("Folders the server may use")
        self.roots.setMaximumHeight(70)
        rl.addWidget(self.roots, 1)
        rb = QVBoxLayout()
        add_root = QPushButton("Add folder…")
        add_root.setAutoDefault(False)
        add_root.clicked.connect(self._add_root)
        rm_root = QPushButton("Remove")
        rm_root.setAutoDefault(False)
        rm_root.clicked.connect(lambda: self.roots.takeItem(self.roots.currentRow()))
        rb.addWidget(add_root)
        rb.addWidget(rm_root)
        rl.addLayout(rb)
        form.addRow("Folders (roots)", roots_box)
        outer.addLayout(form)
        outer.addStretch(1)  # room left over goes below the fields, not between them

        self.keyring_notice = KeyringNotice(self)
        self.keyring_notice.keep_for_session.connect(self._keep_for_session)
        outer.addWidget(self.keyring_notice)
        self._keyring_check: asyncio.Task[None] | None = None

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.save_button().setToolTip(self.tr("Save (Ctrl+Enter)"))
        outer.addWidget(self.buttons)
        accept_on_ctrl_enter(self)

        self.transport.currentIndexChanged.connect(self._transport_changed)
        self.command.editingFinished.connect(self._check_command)
        self.url.editingFinished.connect(self._check_url)
        self._secret_lookup: asyncio.Task[None] | None = None
        self._runtime_lookup: asyncio.Task[None] | None = None
        if self.original is not None:
            self.load(self.original, controller.settings(self.original.name))
            if self.original.transport != "stdio":
                self._secret_lookup = asyncio.ensure_future(self._look_for_client_secret(self.original.name))
            else:
                self._runtime_lookup = asyncio.ensure_future(self._look_up_runtime(self.original))
        self._transport_changed()
        self.name.setFocus()  # the first field to type in, not the Paste button or a read-only box

    # --- keyboard: Enter moves on, Ctrl+Enter saves -------------------------------------------
    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Enter never saves this many-field dialog (a half-typed server was saved and started):
        it goes to the next field. Ctrl+Enter (a shortcut, accept_on_ctrl_enter) and Save save."""
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not (
            event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            self.focusNextChild()
            event.accept()
            return
        super().keyPressEvent(event)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # Enter on the argument list (not editing): edit the current argument, or add one.
        if (
            watched is self.args
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
            and not event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            item = self.args.currentItem()
            if item is None:
                self._add_arg()
            else:
                self.args.editItem(item)
            return True
        return super().eventFilter(watched, event)

    @Slot()
    def _arg_entered(self) -> None:
        """Enter in an argument's editor: that argument is kept and the next one is edited (a new
        one after the last); Enter on an empty new argument ends the list there."""
        row = self.args.currentRow()
        item = self.args.item(row)
        if item is None:
            return
        if not item.text().strip():
            self.args.takeItem(row)
            self.args.setFocus()
            return
        if row + 1 < self.args.count():
            self.args.setCurrentRow(row + 1)
            self.args.editItem(self.args.item(row + 1))
        else:
            self._add_arg()

    def commit_open_editor(self) -> None:
        """An argument still being edited counts when Save is pressed (Ctrl+Enter from its editor)."""
        editor = QApplication.focusWidget()
        if editor is not None and editor.parentWidget() is self.args.viewport():
            self.args.commitData(editor)
            self.args.closeEditor(editor, QAbstractItemDelegate.EndEditHint.NoHint)

    # --- helpers ------------------------------------------------------------------------------
    @classmethod
    def _checked_line(cls, form: QFormLayout, label: str, placeholder: str) -> tuple[QLineEdit, QLabel]:
        """A text field checked where it is typed: the field, with its (hidden) error line under it."""
        edit = QLineEdit()
        edit.setAccessibleName(label)
        edit.setPlaceholderText(placeholder)
        error = cls._error_label()
        form.addRow(label, cls._with_error(edit, error))
        return edit, error

    @staticmethod
    def _error_label() -> QLabel:
        """An error line under a field. Its line is kept while it is hidden, so a message coming
        and going does not move the fields (and the button under the mouse)."""
        label = plain_label("")
        label.setStyleSheet("color: #b71c1c;")
        label.setMinimumHeight(label.fontMetrics().lineSpacing())
        policy = label.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        label.setSizePolicy(policy)
        label.hide()
        return label

    @staticmethod
    def _with_error(field: QWidget, error: QLabel) -> QWidget:
        w = QWidget()
        lay = QVBoxLayout(w)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(field)
        lay.addWidget(error)
        return w

    @staticmethod
    def _set_error(label: QLabel, message: str | None) -> None:
        label.setText(message or "")
        label.setVisible(bool(message))

    def transport_value(self) -> str:
        return str(self.transport.currentData())

    @Slot()
    def _transport_changed(self) -> None:
        stdio = self.transport_value() == "stdio"
        for rows, shown in ((self.stdio_rows, stdio), (self.http_rows, not stdio)):
            for widget in rows:
                self.form.setRowVisible(widget, shown)

    def _set_fields_enabled(self, on: bool) -> None:
        for widget in (*self.stdio_rows, *self.http_rows):
            widget.setEnabled(on)

    @Slot()
    def _check_command(self) -> None:
        self.split_command_line()
        self._set_error(self.command_error, validate_command(self.command.text(), self.cwd.text()))

    def split_command_line(self) -> bool:
        """A whole command line in the Command field (`npx -y pkg --flag`, `VAR=1 python3 -m x`)
        becomes the program, its arguments (before those already listed) and environment
        variables; the parts are shown under the field. False when there was nothing to split."""
        from app.config.snippets import split_command_line

        text = self.command.text().strip()
        if not text or not any(c.isspace() for c in text) or Path(text).exists():
            return False  # one word, or a path with spaces that is a real program
        try:
            env, command, args = split_command_line(text)
        except ValueError as exc:
            self._set_error(
                self.command_error, self.tr("This command line cannot be read: %1").replace("%1", str(exc))
            )
            return False
        self.command.setText(command)
        self.command.setCursorPosition(0)
        self.set_args([*args, *self.args_value()])
        for key, value in env.items():
            self.env.add_row(key, value)
        shown = " · ".join(visible_line(a)[:60] for a in args[:12])
        shown = shown[:110] + " …" if len(shown) > 110 or len(args) > 12 else shown
        lines = [self.tr("Split the command line: program “%1”").replace("%1", visible_line(command)[:80])]
        if args:
            lines.append(self.tr("%n argument(s): %1", "", len(args)).replace("%1", shown))
        if env:
            lines.append(self.tr("environment: %1").replace("%1", ", ".join(visible_line(k) for k in env)))
        self.split_note.setText("\n".join(lines))
        self.split_note.show()
        self._ask_for_examples_in_fields()
        return True

    def _ask_for_examples_in_fields(self) -> None:
        """Example values in a typed command line (`/path/to/dir`) are asked for like a paste's."""
        if self.examples:
            return
        from app.config.model import ServerEntry
        from app.config.placeholders import make_holes

        probe = ServerEntry(name="x", command=self.command.text(), args=self.args_value())
        questions = make_holes(probe)
        if questions:
            self._set_examples([Example(q.key, q, q.placeholder or q.key) for q in questions])

    async def _look_up_runtime(self, entry: Any) -> None:
        """ "Runs on: your Node.js 22.3" under the command (the lookup runs in a worker thread)."""
        try:
            text = await asyncio.to_thread(describe_runtime, entry)
        except Exception as exc:
            logger.info("runtime lookup failed: %s", exc)
            return
        if text is None:
            return
        try:
            self.runtime_line.setText(self.tr("Runs on: %1").replace("%1", visible_line(text)))
            self.runtime_line.show()
        except RuntimeError:  # the dialog was closed meanwhile
            pass

    @Slot()
    def _check_url(self) -> None:
        self._set_error(self.url_error, validate_url(self.url.text()))

    def _add_arg(self) -> None:
        from PySide6.QtWidgets import QListWidgetItem

        item = QListWidgetItem("")
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
        self.args.addItem(item)
        self.args.setCurrentItem(item)
        self.args.editItem(item)

    def _remove_arg(self) -> None:
        self.args.takeItem(self.args.currentRow())

    def _move_arg(self, delta: int) -> None:
        row = self.args.currentRow()
        new = row + delta
        if row < 0 or not 0 <= new < self.args.count():
            return
        item = self.args.takeItem(row)
        self.args.insertItem(new, item)
        self.args.setCurrentRow(new)

    def set_args(self, args: list[str]) -> None:
        from PySide6.QtWidgets import QListWidgetItem

        self.args.clear()
        for a in args:
            item = QListWidgetItem(a)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
            if any(ex.text in a for ex in self.examples):
                # Coloured before it is added: a change after would count as an edit.
                item.setBackground(QBrush(QColor(EXAMPLE_BACKGROUND)))
                item.setForeground(QBrush(QColor(EXAMPLE_FOREGROUND)))
                item.setToolTip(self.tr("An example value: replace it with your own above."))
            self.args.addItem(item)

    def args_value(self) -> list[str]:
        return [self.args.item(i).text() for i in range(self.args.count())]

    def _secret_names(self) -> set[str]:
        """Names the argument list must not reuse: this server's and the secret rows' ones."""
        names = set(self.original.secret_refs()) if self.original is not None else set()
        for rows in (self.env, self.headers):
            names.update(sanitise_secret_name(key) for key, _v, secret, _r in rows.values() if secret)
        return names

    def _browse_cwd(self) -> None:
        d = QFileDialog.getExistingDirectory(self, "Working directory", self.cwd.text() or str(Path.home()))
        if d:
            self.cwd.setText(d)

    def _add_root(self) -> None:
        d = QFileDialog.getExistingDirectory(self, "A folder the server may use", str(Path.home()))
        if d:
            self.roots.addItem(d)

    def done(self, result: int) -> None:
        for task in (self._secret_lookup, self._runtime_lookup):
            if task is not None:
                task.cancel()  # closing: nobody will read the answer
        self._secret_lookup = self._runtime_lookup = None
        super().done(result)

    async def _look_for_client_secret(self, name: str) -> None:
        """Whether the keychain holds this server's OAuth client secret (a worker thread)."""
        try:
            names = await self.controller.secrets.alist_names(name)
        except Exception as exc:  # a locked or missing keychain: the field just stays empty
            logger.info("cannot look for the client secret of %s: %s", name, exc)
            return
        try:
            if OAUTH_CLIENT_SECRET in names:
                self.oauth.mark_secret_stored()
        except RuntimeError:  # the dialog was closed and deleted meanwhile
            pass

    # --- loading and reading back -------------------------------------------------------------
    def load(self, entry: Any, settings: Any = None) -> None:
        self.name.setText(entry.name)
        i = self.transport.findData(entry.transport)
        self.transport.setCurrentIndex(max(0, i))
        self.command.setText(entry.command or "")
        self.set_args(list(entry.args or []))
        self.cwd.setText(entry.cwd or "")
        for k, v in (entry.env or {}).items():
            self.env.add_row(k, v)
        self.url.setText(entry.url or "")
        for k, v in (entry.headers or {}).items():
            self.headers.add_row(k, v)
        self.enabled.setChecked(not entry.disabled)
        if settings is not None:
            self.timeout.setValue(float(getattr(settings, "timeout", 60.0) or 60.0))
            mode = str(getattr(settings, "protocol_mode", "auto") or "auto")
            if self.mode.findText(mode) < 0:
                self.mode.addItem(mode)
            self.mode.setCurrentText(mode)
            self.roots.clear()
            self.roots.addItems(list(getattr(settings, "roots", []) or []))
            oauth = getattr(settings, "oauth", None)
            self.oauth.load(oauth if isinstance(oauth, dict) else {})

    def errors(self) -> dict[str, str]:
        errs: dict[str, str] = {}
        name = self.name.text().strip()
        if not name:
            errs["name"] = "Give the server a name."
        elif "/" in name:
            errs["name"] = "A name cannot contain “/”."
        elif (self.original is None or name != self.original.name) and self.controller.entry(
            name
        ) is not None:
            errs["name"] = f"There is already a server called “{name}”."
        missing = {ex.id for ex in self._active_examples() if ex.question.required} - {
            k for k, v in self.example_values.answers().items() if v
        }
        self.example_values.show_missing(missing)
        if missing:
            errs["examples"] = self.tr("Replace the example values with your own.")
        if self.transport_value() == "stdio":
            msg = validate_command(self._with_holes(self.command.text()), self.cwd.text())
            if msg:
                errs["command"] = msg
        else:
            msg = validate_url(self.url.text())
            if msg:
                errs["url"] = msg
            if self.oauth.typed_secret() and not self.oauth.client_id.text().strip():
                errs["client_id"] = self.tr("A client secret needs its client id (under Sign-in).")
        return errs

    def accept(self) -> None:
        self.commit_open_editor()
        if self.pasted:
            missing = {ex.id for ex in self.examples if ex.question.required} - {
                k for k, v in self.example_values.answers().items() if v
            }
            self.example_values.show_missing(missing)
            if missing:
                self.example_values.fields[next(iter(sorted(missing)))].setFocus()
                return
            super().accept()  # several servers pasted: they are imported as a whole
            return
        if self.transport_value() == "stdio":
            self.split_command_line()
        errs = self.errors()
        self._set_error(self.name_error, errs.get("name"))
        self._set_error(self.command_error, errs.get("command"))
        self._set_error(self.url_error, errs.get("url"))
        self._set_error(self.client_id_error, errs.get("client_id"))
        if errs:
            if "client_id" in errs:
                self.oauth.set_expanded(True)
            first_key = next(iter(errs))
            if first_key == "examples":
                answers = self.example_values.answers()
                key = next(ex.id for ex in self._active_examples() if not answers.get(ex.id))
                self.example_values.fields[key].setFocus()
                return
            first = {
                "name": self.name,
                "command": self.command,
                "url": self.url,
                "client_id": self.oauth.client_id,
            }[first_key]
            first.setFocus()
            return
        if self.build()[1] and self._keyring_check is None:
            # Keys to store: make sure they have somewhere to go before the dialog closes, so
            # nothing typed is lost. The check may touch D-Bus: a worker thread, not this one.
            self.save_button().setEnabled(False)
            self._keyring_check = asyncio.ensure_future(self._check_keychain())
            return
        super().accept()

    def save_button(self) -> QPushButton:
        return self.buttons.button(QDialogButtonBox.StandardButton.Save)

    async def _check_keychain(self) -> None:
        from app.secrets.errors import KeyringUnavailableError

        try:
            await self.controller.secrets.acheck_available()
        except KeyringUnavailableError:
            logger.info("no usable keychain: asking how to keep the key")
            self.keyring_notice.show_no_keychain()
            return
        finally:
            self._keyring_check = None
            self.save_button().setEnabled(True)
        if self.isVisible():
            self.keyring_notice.hide()
            QDialog.accept(self)

    @Slot()
    def _keep_for_session(self) -> None:
        """The person chose: keys in memory only for this session (the server list says so)."""
        self.controller.secrets.use_session_only()
        self.keyring_notice.hide()
        self.accept()

    def build(self) -> tuple[Any, dict[str, str], dict[str, Any]]:
        """(entry with secret references, secret values to store, settings) from the fields."""
        from app.config.model import ServerEntry

        name = self.name.text().strip()
        entry = copy.deepcopy(self.original) if self.original is not None else ServerEntry(name=name)
        entry.name = name
        entry.transport = self.transport_value()
        secrets: dict[str, str] = {}
        holes = self._with_holes
        if entry.transport == "stdio":
            entry.command = holes(self.command.text().strip())
            entry.args = [holes(a) for a in self.args_value()]
            entry.cwd = holes(self.cwd.text().strip()) or None
            entry.env = self._collect(self.env, secrets, holes)
            entry.url, entry.headers = None, {}
        else:
            entry.url = holes(self.url.text().strip())
            entry.headers = self._collect(self.headers, secrets, holes)
            entry.command, entry.args, entry.cwd, entry.env = None, [], None, {}
            if self.oauth.typed_secret():
                secrets[OAUTH_CLIENT_SECRET] = self.oauth.typed_secret()  # the keychain only
        secrets.update(take_launch_secrets(entry, secrets, self.arg_secrets.pending(entry.args)))
        active = self._active_examples(entry)
        if active:
            from app.install.plan import InstallPlan, apply

            answers = self.example_values.answers()
            plan = InstallPlan(name, entry, [ex.question for ex in active])
            applied = apply(plan, {ex.question.key: answers.get(ex.id) or None for ex in active})
            entry = applied.entry
            secrets.update(applied.secrets)
        entry.disabled = not self.enabled.isChecked()
        settings: dict[str, Any] = {
            "timeout": float(self.timeout.value()),
            "protocol_mode": self.mode.currentText(),
            "roots": [self.roots.item(i).text() for i in range(self.roots.count())],
        }
        if entry.transport != "stdio":
            old = self.controller.settings(self.original.name).oauth if self.original is not None else {}
            settings["oauth"] = self.oauth.settings(old if isinstance(old, dict) else {})
        return entry, secrets, settings

    def _with_holes(self, text: str) -> str:
        """`text` with each example value shown in it put back as its `${ask:KEY}` hole."""
        from app.install.plan import ask_ref

        for ex in sorted(self.examples, key=lambda e: -len(e.text)):
            if ex.text and ex.text in text:
                text = text.replace(ex.text, ask_ref(ex.question.key))
        return text

    def _active_examples(self, entry: Any = None) -> list[Example]:
        """The examples still in the fields (one the person typed over needs no answer)."""
        if not self.examples:
            return []
        if entry is None:
            texts = [self.command.text(), self.url.text(), self.cwd.text(), *self.args_value()]
            texts += [v for _k, v, _s, _r in self.env.values()] + [
                v for _k, v, _s, _r in self.headers.values()
            ]
        else:
            texts = [entry.command or "", entry.url or "", entry.cwd or "", *entry.args]
            texts += [*entry.env.values(), *entry.headers.values()]
        if entry is None:
            return [ex for ex in self.examples if any(ex.text in t for t in texts)]
        from app.install.plan import ask_ref

        return [ex for ex in self.examples if any(ask_ref(ex.question.key) in t for t in texts)]

    @staticmethod
    def _collect(rows: KeyValueRows, secrets: dict[str, str], holes: Any = None) -> dict[str, str]:
        from app.config.refs import secret_ref
        from app.install.plan import ASK_REF

        out: dict[str, str] = {}
        for key, value, secret, ref in rows.values():
            if holes is not None and ASK_REF.search(holes(value)):
                out[key] = holes(value)  # an example value: the answer fills it (a key: by reference)
                continue
            if secret:
                if not value and ref:
                    out[key] = ref  # unchanged: keep the stored secret
                    continue
                secret_name = "".join(c if c.isalnum() or c in "_-." else "_" for c in key) or "secret"
                secrets[secret_name] = value
                out[key] = secret_ref(secret_name)
            else:
                out[key] = value if value or not ref else ref
        return out

    # --- paste a snippet ----------------------------------------------------------------------
    @Slot()
    def paste_json(self) -> None:
        self._paste_task = asyncio.ensure_future(self._paste())

    async def _paste(self) -> None:
        """The Paste box: opened and awaited (no nested exec()); Ctrl+Enter pastes, as everywhere."""
        box = QInputDialog(self)
        box.setObjectName("pasteBox")
        box.setWindowTitle(self.tr("Paste a snippet"))
        box.setLabelText(
            self.tr("Paste the server's configuration snippet (or its command line) from its README:")
        )
        box.setOption(QInputDialog.InputDialogOption.UsePlainTextEditForTextInput, True)
        box.setOkButtonText(self.tr("Paste"))
        accept_on_ctrl_enter(box)
        self.paste_box = box  # tests and screenshots reach it here
        try:
            code = await run_dialog(box)
            text = box.textValue()
        finally:
            self.paste_box = None
            box.deleteLater()
        if code == QDialog.DialogCode.Accepted.value and text.strip():
            self.apply_snippet(text)

    def apply_snippet(self, text: str) -> int:
        """Fill the fields from a snippet with one server; returns how many servers it held.

        Any client's shape is read (app.config.snippets). A snippet with several servers is kept
        in `self.pasted` (install plans) for import as a whole. Example values are asked for.
        """
        from app.config.snippets import SnippetError, read_snippet

        try:
            # One server goes into the fields as written: the dialog's own toggles take its keys.
            found = read_snippet(text, extract=None, detect_secrets=False)
        except SnippetError as exc:
            QMessageBox.warning(self, self.tr("Paste a snippet"), str(exc))
            return 0
        plans = found.plans
        if len(plans) > 1:
            from app.secrets.resolve import extract_secrets

            # Several: imported as a whole, keys typed in clear moved to the keychain on the way.
            plans = read_snippet(text, extract=extract_secrets).plans
            self.pasted = plans
            self.paste_note.setText(
                self.tr(
                    "The snippet holds %1 servers: %2. Press Save to add them all (keys go to the keychain)."
                )
                .replace("%1", str(len(plans)))
                .replace("%2", ", ".join(visible_line(p.name) for p in plans))
            )
            self.paste_note.show()
            self._set_fields_enabled(False)
            examples = [
                Example(f"{i}:{q.key}", q, q.placeholder or f"<{q.key}>", i)
                for i, p in enumerate(plans)
                for q in p.questions
            ]
            self.examples = examples
            self.example_values.set_examples(examples, {i: p.name for i, p in enumerate(plans)})
            return len(plans)
        (plan,) = plans
        self.pasted = None
        self.paste_note.hide()
        self._set_fields_enabled(True)
        self._set_examples([Example(q.key, q, q.placeholder or f"<{q.key}>") for q in plan.questions])
        entry = self._shown(plan.entry)
        for rows in (self.env, self.headers):
            for r in list(rows.rows):
                rows._remove(r)
        self.load(entry)
        # Detect secrets in what was pasted: the toggle turns on for API keys and Authorization.
        for rows, kind in ((self.env, "env"), (self.headers, "header")):
            for k, _v, s, _ in rows.rows:
                if _looks_secret(k.text(), kind):
                    s.setChecked(True)
        self._mark_example_fields()  # after the toggles: an example is shown, not masked
        # And `--api-key X`, `ghp_...` among the arguments (not the example values: they are asked).
        texts = self.args_value()
        self.arg_secrets.detect(
            [i for i, t in enumerate(texts) if not any(ex.text in t for ex in self.examples)]
        )
        return 1

    def _set_examples(self, examples: list[Example]) -> None:
        self.examples = examples
        self.example_values.set_examples(examples)
        self.set_args(self.args_value())  # colour the arguments that hold one

    def _shown(self, entry: Any) -> Any:
        """The entry as the fields show it: each `${ask:KEY}` hole as the example it replaced."""
        from app.install.plan import ASK_REF

        texts = {ex.question.key: ex.text for ex in self.examples}

        def show(value: str) -> str:
            return ASK_REF.sub(lambda m: texts.get(m.group(1), m.group(0)), value)

        shown = copy.deepcopy(entry)
        shown.command = show(entry.command) if entry.command else entry.command
        shown.args = [show(a) for a in entry.args]
        shown.env = {k: show(v) for k, v in entry.env.items()}
        shown.headers = {k: show(v) for k, v in entry.headers.items()}
        shown.url = show(entry.url) if entry.url else entry.url
        shown.cwd = show(entry.cwd) if entry.cwd else entry.cwd
        return shown

    def _mark_example_fields(self) -> None:
        """Highlight the fields that show an example value, and say what to do with them."""
        tip = self.tr("An example value: replace it with your own above.")
        for edit in (self.command, self.url, self.cwd):
            if any(ex.text in edit.text() for ex in self.examples):
                edit.setStyleSheet("QLineEdit { " + EXAMPLE_STYLE + " }")
                edit.setToolTip(tip)
        for rows in (self.env, self.headers):
            for _k, v, _s, _ in rows.rows:
                if any(ex.text in v.text() for ex in self.examples):
                    v.setEchoMode(QLineEdit.EchoMode.Normal)  # the example is no secret: show it
                    v.setReadOnly(True)
                    v.setStyleSheet("QLineEdit { " + EXAMPLE_STYLE + " }")
                    v.setToolTip(tip)
        self.set_args(self.args_value())

    def pasted_answers(self) -> list[dict[str, str | None]]:
        """Per pasted plan, the answers typed for its questions."""
        typed = self.example_values.answers()
        out: list[dict[str, str | None]] = [{} for _ in self.pasted or []]
        for ex in self.examples:
            out[ex.plan][ex.question.key] = typed.get(ex.id) or None
        return out


# --- flows the window starts ------------------------------------------------------------------
async def open_server_dialog(window: Any, name: str | None) -> bool:
    """Show the dialog; on Save store secrets (off-thread), then the entry; True if saved.

    If the keychain refuses the secrets, the dialog comes back with everything typed and says why.
    """
    from app.secrets.errors import KeyringUnavailableError, SecretStoreError

    controller = window.controller
    dialog = ServerDialog(controller, name, window)
    window.server_dialog = dialog  # tests and screenshots reach it here
    try:
        while True:
            code = await run_dialog(dialog)
            if code != QDialog.DialogCode.Accepted.value:
                return False
            if dialog.pasted and name is None:
                await import_plans(window, dialog.pasted, dialog.pasted_answers())
                return True
            entry, secrets, settings = dialog.build()
            try:
                await _store_secrets(controller, name, entry, secrets)
            except KeyringUnavailableError:
                dialog.keyring_notice.show_no_keychain()
                continue
            except SecretStoreError as exc:
                logger.info("secrets of %s not stored: %s", entry.name, exc)
                dialog.keyring_notice.show_problem(str(exc))
                continue
            break
    finally:
        window.server_dialog = None
        dialog.deleteLater()
    return await save_entry(window, name, entry, settings)


async def _store_secrets(controller: Any, old_name: str | None, entry: Any, secrets: dict[str, str]) -> None:
    if old_name is not None and old_name != entry.name:
        await controller.forget(old_name)
        await controller.secrets.arename_server(old_name, entry.name)
    for secret_name, value in secrets.items():
        await controller.secrets.aset(entry.name, secret_name, value)


async def save_entry(window: Any, old_name: str | None, entry: Any, settings: dict[str, Any]) -> bool:
    """Save the entry (its secrets are stored already) and reconnect it if it was live."""
    controller = window.controller
    store = controller.store
    if old_name is None:
        store.add(entry)
    elif old_name != entry.name:
        store.rename(old_name, entry.name)
        store.update(entry)
    else:
        store.update(entry)
    s = store.settings(entry.name)
    for k, v in settings.items():
        setattr(s, k, v)
    controller.save()
    window.servers.select(entry.name)
    if old_name is not None:
        row = window.server_model.server(entry.name)
        if row is not None and row.state in ("ready", "connecting", "installing"):
            await controller.reconnect_server(entry.name)
    return True


async def import_plans(window: Any, plans: list[Any], answers: list[dict[str, str | None]]) -> None:
    """Add the servers of a pasted snippet, each with its answers (keys to the keychain in a
    worker thread); what was added and what was not is reported as for a file."""
    from app.config.importing import add_applied
    from app.install.plan import apply

    controller = window.controller
    applied = [(p.title or p.name, apply(p, a)) for p, a in zip(plans, answers, strict=True)]
    try:
        result = await asyncio.to_thread(add_applied, controller.store, controller.secrets, applied)
    except Exception as exc:
        await inform(
            window,
            QCoreApplication.translate("ServerImport", "Import failed"),
            QCoreApplication.translate("ServerImport", "Nothing was imported:") + f"\n\n{exc}",
            icon=QMessageBox.Icon.Critical,
        )
        return
    await _imported(window, result)


async def import_servers(window: Any, source: str) -> None:
    """Import from Claude Desktop / Cursor / VS Code (their usual files) or a chosen file."""
    from app.config.locations import known_import_sources

    if source == "file":
        # Not the static getOpenFileName: that runs exec(), a nested loop inside this coroutine.
        chooser = QFileDialog(
            window, "Import servers from", str(Path.home()), "JSON files (*.json *.jsonc);;All files (*)"
        )
        chooser.setFileMode(QFileDialog.FileMode.ExistingFile)
        window.file_dialog = chooser  # tests reach it here
        try:
            accepted = await run_dialog(chooser) == QDialog.DialogCode.Accepted.value
            files = chooser.selectedFiles()
        finally:
            window.file_dialog = None
            chooser.deleteLater()
        if accepted and files:
            await _import_file(window, Path(files[0]), "auto")
        return
    found = [s for s in known_import_sources() if s.format == source and s.exists]
    if not found:
        names = {"claude": "Claude Desktop", "cursor": "Cursor", "vscode": "VS Code"}
        await inform(
            window,
            "Nothing to import",
            f"No {names.get(source, source)} configuration was found on this computer.",
        )
        return
    await _import_file(window, found[0].path, found[0].format)


async def _import_file(window: Any, path: Path, fmt: Any) -> None:
    from app.config.importing import import_into
    from app.secrets.resolve import extract_secrets

    controller = window.controller
    loop = asyncio.get_running_loop()

    def ask_input(spec: Any) -> str | None:
        # Called in the worker thread: ask on the GUI thread and wait for the answer.
        fut = asyncio.run_coroutine_threadsafe(_ask_input(window, spec), loop)
        return fut.result()

    def extract(entry: Any, *, detect: bool, taken: set[str]) -> dict[str, str]:
        return extract_secrets(entry, detect=detect, taken=taken)

    try:
        result = await asyncio.to_thread(
            import_into, controller.store, controller.secrets, path, fmt, ask=ask_input, extract=extract
        )
    except Exception as exc:
        await inform(
            window,
            "Import failed",
            f"Nothing was imported from {path}:\n\n{exc}",
            icon=QMessageBox.Icon.Critical,
        )
        return
    await _imported(window, result)


async def _imported(window: Any, result: Any) -> None:
    controller = window.controller
    controller.servers_changed.emit()
    added = ", ".join(new for _, new in result.added) or "no servers"
    secrets = len(result.secret_names)
    msg = f"Imported {added}." + (f" {secrets} secret(s) moved to the keychain." if secrets else "")
    if result.warnings:
        msg += "\n\n" + "\n".join(result.warnings)
    window.statusBar().showMessage(visible_line(msg.splitlines()[0]), 10000)
    if result.added:
        window.servers.select(result.added[0][1])
    if result.skipped:
        await _report_skipped(window, result)


async def _report_skipped(window: Any, result: Any) -> None:
    """Servers left out of an import (their keys had nowhere to go): each with its reason."""
    from app.secrets.backend import HELP_DOC

    tr = QCoreApplication.translate
    lines = [f"{s.original_name}: {s.reason}" for s in result.skipped]
    text = (
        tr("ServerImport", "Imported %1 server(s); %2 could not be imported:")
        .replace("%1", str(len(result.added)))
        .replace("%2", str(len(result.skipped)))
    )
    forward = ""
    if any(s.needs_keychain for s in result.skipped):
        forward = tr(
            "ServerImport", "Set up a keychain (see %1) and add them again; the others are imported."
        ).replace("%1", HELP_DOC)
    await inform(
        window,
        tr("ServerImport", "Some servers were not imported"),
        text + "\n" + "\n".join(lines),
        informative=forward,
        icon=QMessageBox.Icon.Warning,
    )


async def _ask_input(window: Any, spec: Any) -> str | None:
    d = QInputDialog(window)
    d.setWindowTitle("Value needed for import")
    d.setLabelText(spec.description or spec.id)
    plain_labels(d)  # the description comes from the imported file: never rendered as HTML
    d.setTextEchoMode(QLineEdit.EchoMode.Password if spec.password else QLineEdit.EchoMode.Normal)
    code = await run_dialog(d)
    value = d.textValue() if code == QDialog.DialogCode.Accepted.value else None
    d.deleteLater()
    return value


def export_servers(window: Any) -> None:
    """Save the list in Claude Desktop or VS Code format (secrets stay references)."""
    from app.config.atomic import atomic_write
    from app.config.exporting import export_claude, export_vscode

    path, chosen = QFileDialog.getSaveFileName(
        window,
        "Export servers",
        str(Path.home() / "mcp-servers.json"),
        "Claude Desktop / Cursor (*.json);;VS Code mcp.json (*.json)",
    )
    if not path:
        return
    data, warnings = (export_vscode if chosen.startswith("VS Code") else export_claude)(
        window.controller.store
    )
    atomic_write(Path(path), (json.dumps(data, indent=2) + "\n").encode("utf-8"), backup=False)
    window.statusBar().showMessage(
        f"Exported to {path}" + (f" ({'; '.join(warnings)})" if warnings else ""), 10000
    )
