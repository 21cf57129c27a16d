"""Adding and editing a server: the dialog, and saving what it holds (secrets first, off-thread).

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
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, Qt, Slot
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemDelegate,
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from app.config.secret_names import sanitise_secret_name
from app.ui.arg_secrets import ArgSecrets, take_launch_secrets
from app.ui.async_dialogs import choose_path, keyboard_rule, run_dialog
from app.ui.developer_mode import developer_mode
from app.ui.dialog_style import error_text, example_item, note, with_icon
from app.ui.safe_text import plain_label, visible_line
from app.ui.server_checks import (
    OAUTH_CLIENT_SECRET,
    PROTOCOL_MODES,
    describe_runtime,
    validate_command,
    validate_url,
)
from app.ui.server_fields import (
    AdvancedToggle,
    ArgDelegate,
    Example,
    ExampleValues,
    KeyringNotice,
    KeyValueRows,
    OAuthSection,
    keyring_help_link,
    mode_label,
    transport_label,
)
from app.ui.server_import import _import_file, export_servers, import_plans, import_servers

# The window and tests reach the import/export flows and these names here, where they were.
from app.ui.server_paste import SnippetPasting

if TYPE_CHECKING:
    from app.install.plan import InstallPlan

__all__ = [
    "OAUTH_CLIENT_SECRET",
    "ServerDialog",
    "_import_file",
    "export_servers",
    "import_servers",
    "keyring_help_link",
    "open_server_dialog",
    "save_entry",
    "validate_command",
]

logger = logging.getLogger(__name__)


class ServerDialog(QDialog, SnippetPasting):
    """Add or edit one server. `accept()` only closes when every field is valid and the secrets
    typed have somewhere to go (a keychain, or this session's memory if the person chose so)."""

    def __init__(self, controller: Any, name: str | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.original = controller.entry(name) if name else None
        self.setWindowTitle(self.tr("Edit server") if self.original else self.tr("Add server"))
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
        with_icon(self.paste_button, "paste")
        self.paste_button.clicked.connect(self.paste_json)
        top.addWidget(self.paste_button)
        outer.addLayout(top)
        self.paste_note = plain_label("")
        note(self.paste_note, "info")
        self.paste_note.hide()
        outer.addWidget(self.paste_note)
        self.example_values = ExampleValues(self)
        outer.addWidget(self.example_values)

        # One form for every field, so the labels line up in one column; the rows of the other
        # connection type are hidden (a stacked widget kept the stdio page's height for a URL).
        form = self.form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.name, self.name_error = self._checked_line(form, self.tr("Name"), self.tr("for example github"))
        self.transport = QComboBox()
        self.transport.setAccessibleName(self.tr("Where the server runs"))
        for kind in ("stdio", "http", "sse"):
            self.transport.addItem(transport_label(kind), kind)
        form.addRow(self.tr("Type"), self.transport)

        # stdio rows
        self.command, self.command_error = self._checked_line(form, self.tr("Command"), "")
        self.command.setPlaceholderText(
            self.tr("npx, uvx, python, a full path — or the whole command line from the README")
        )
        command_box = self.command.parentWidget()
        self.split_note = plain_label("", wrap=False)  # short lines: a wrapping label grows tall
        self.split_note.setObjectName("splitNote")
        note(self.split_note, "success")
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
        self.args.setAccessibleName(self.tr("Arguments"))
        self.args.setToolTip(
            self.tr("Enter edits an argument and goes on to the next; Ctrl+Enter saves the server.")
        )
        self.args.setMaximumHeight(110)
        self.arg_delegate = ArgDelegate(self.args)
        self.arg_delegate.entered.connect(self._arg_entered)
        self.args.setItemDelegate(self.arg_delegate)
        self.args.installEventFilter(self)
        al.addWidget(self.args)
        ab = QHBoxLayout()
        for text, slot in (
            (self.tr("Add"), self._add_arg),
            (self.tr("Remove"), self._remove_arg),
            (self.tr("Up"), lambda: self._move_arg(-1)),
            (self.tr("Down"), lambda: self._move_arg(1)),
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
        form.addRow(self.tr("Arguments"), args_box)
        self.env = KeyValueRows("env")
        form.addRow(self.tr("Environment"), self.env)
        self.stdio_rows: list[QWidget] = [w for w in (command_box, args_box, self.env) if w]
        # http rows
        self.url, self.url_error = self._checked_line(
            form, self.tr("Address (URL)"), "https://example.com/mcp"
        )
        self.headers = KeyValueRows("header")
        form.addRow(self.tr("Headers"), self.headers)
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

        self.enabled = QCheckBox(
            self.tr("Connect at start and with “Connect all” (clear to keep it switched off)")
        )
        self.enabled.setChecked(True)
        form.addRow(self.tr("Enabled"), self.enabled)

        # Advanced: what only some servers need (a working directory, a longer wait, a protocol
        # version, folders). Folded away for people; open in developer mode; always one click away.
        self.advanced = AdvancedToggle(self.tr("Advanced"))
        self.advanced.toggled.connect(self._update_rows)
        form.addRow("", self.advanced)
        cwd_box = QWidget()
        cwd_row = QHBoxLayout(cwd_box)
        cwd_row.setContentsMargins(0, 0, 0, 0)
        self.cwd = QLineEdit()
        self.cwd.setAccessibleName(self.tr("Working directory"))
        self.cwd.setPlaceholderText(self.tr("(optional) the folder the program starts in"))
        browse = QPushButton(self.tr("Browse…"))
        browse.setAutoDefault(False)
        browse.clicked.connect(self._browse_cwd)
        cwd_row.addWidget(self.cwd, 1)
        cwd_row.addWidget(browse)
        form.addRow(self.tr("Working directory"), cwd_box)
        self.timeout = QDoubleSpinBox()
        self.timeout.setAccessibleName(self.tr("Time limit for a tool"))
        self.timeout.setRange(1, 3600)
        self.timeout.setSuffix(self.tr(" s"))
        self.timeout.setValue(60)
        self.timeout.setToolTip(self.tr("How long a tool may take before MCP Desk stops waiting for it"))
        form.addRow(self.tr("Time limit"), self.timeout)
        self.mode = QComboBox()
        self.mode.setAccessibleName(self.tr("Protocol version"))
        for mode in PROTOCOL_MODES:
            self.mode.addItem(mode_label(mode), mode)
        self.mode.setToolTip(
            self.tr(
                "Automatic tries the newest way to talk to the server and falls back to the older "
                "one by itself. Change it only when the server's documentation asks for one version."
            )
        )
        form.addRow(self.tr("Protocol version"), self.mode)
        roots_box = QWidget()
        rl = QHBoxLayout(roots_box)
        rl.setContentsMargins(0, 0, 0, 0)
        self.roots = QListWidget()
        self.roots.setAccessibleName(self.tr("Folders the server may use"))
        self.roots.setMaximumHeight(70)
        rl.addWidget(self.roots, 1)
        rb = QVBoxLayout()
        add_root = QPushButton(self.tr("Add folder…"))
        add_root.setAutoDefault(False)
        add_root.clicked.connect(self._add_root)
        rm_root = QPushButton(self.tr("Remove"))
        rm_root.setAutoDefault(False)
        rm_root.clicked.connect(lambda: self.roots.takeItem(self.roots.currentRow()))
        rb.addWidget(add_root)
        rb.addWidget(rm_root)
        rl.addLayout(rb)
        form.addRow(self.tr("Folders it may use"), roots_box)
        self.cwd_row = cwd_box
        self.advanced_rows: list[QWidget] = [cwd_box, self.timeout, self.mode, roots_box]
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
        keyboard_rule(self)

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
        dev = developer_mode()
        self._developer_mode_changed(dev.enabled())
        dev.changed.connect(self._developer_mode_changed)
        self._transport_changed()
        self.name.setFocus()  # the first field to type in, not the Paste button or a read-only box

    # --- keyboard: Enter moves on, Ctrl+Enter saves -------------------------------------------
    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Enter never saves this many-field dialog (a half-typed server was saved and started):
        it goes to the next field. Ctrl+Enter (async_dialogs.keyboard_rule) and Save save."""
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
        error_text(label)
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
        self._update_rows()

    @Slot()
    def _update_rows(self) -> None:
        """Show the rows of the chosen connection type, and the advanced ones when unfolded."""
        stdio = self.transport_value() == "stdio"
        advanced = self.advanced.expanded()
        for rows, shown in ((self.stdio_rows, stdio), (self.http_rows, not stdio)):
            for widget in rows:
                self.form.setRowVisible(widget, shown)
        for widget in self.advanced_rows:
            self.form.setRowVisible(widget, advanced and (widget is not self.cwd_row or stdio))

    @Slot(bool)
    def _developer_mode_changed(self, on: bool) -> None:
        """Developer mode unfolds Advanced and names the connection types by their protocol."""
        if on:
            self.advanced.set_expanded(True)
        self._name_transports(on)

    def _name_transports(self, developer: bool) -> None:
        for i in range(self.transport.count()):
            kind = str(self.transport.itemData(i))
            self.transport.setItemText(i, transport_label(kind, developer=developer))

    def _advanced_set(self) -> bool:
        """Whether the loaded server uses an advanced field (then it is shown unfolded)."""
        return bool(
            self.cwd.text()
            or self.roots.count()
            or str(self.mode.currentData()) != "auto"
            or abs(self.timeout.value() - 60.0) > 1e-9
        )

    def _set_fields_enabled(self, on: bool) -> None:
        for widget in (*self.stdio_rows, *self.http_rows, *self.advanced_rows):
            widget.setEnabled(on)

    @Slot()
    def _check_command(self) -> None:
        self.split_command_line()
        self._set_error(
            self.command_error, validate_command(self.command.text(), self.cwd.text(), self._typed_env())
        )

    def _typed_env(self) -> dict[str, str]:
        """The environment rows as typed (not the secret ones): a PATH there is where the server's
        command is looked up, as the engine will (app.mcp.process)."""
        return {name: value for name, value, secret, _ref in self.env.values() if not secret}

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
                example_item(item)
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

    @Slot()
    def _browse_cwd(self) -> None:
        self._chooser = asyncio.ensure_future(self._choose_cwd())

    async def _choose_cwd(self) -> None:
        chosen = await choose_path(
            self, self.tr("The folder the program starts in"), self.cwd.text(), folder=True
        )
        if chosen:
            self.cwd.setText(chosen[0])

    @Slot()
    def _add_root(self) -> None:
        self._chooser = asyncio.ensure_future(self._choose_root())

    async def _choose_root(self) -> None:
        chosen = await choose_path(self, self.tr("A folder the server may use"), "", folder=True)
        if chosen:
            self.roots.addItem(chosen[0])

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
            if self.mode.findData(mode) < 0:
                self.mode.addItem(mode_label(mode), mode)
            self.mode.setCurrentIndex(self.mode.findData(mode))
            self.roots.clear()
            self.roots.addItems(list(getattr(settings, "roots", []) or []))
            oauth = getattr(settings, "oauth", None)
            self.oauth.load(oauth if isinstance(oauth, dict) else {})
            if self._advanced_set():
                self.advanced.set_expanded(True)  # something set there: show it

    def errors(self) -> dict[str, str]:
        errs: dict[str, str] = {}
        name = self.name.text().strip()
        if not name:
            errs["name"] = self.tr("Give the server a name.")
        elif "/" in name:
            errs["name"] = self.tr("A name cannot contain “/”.")
        elif (self.original is None or name != self.original.name) and self.controller.entry(
            name
        ) is not None:
            errs["name"] = self.tr("There is already a server called “%1”.").replace("%1", name)
        missing = {ex.id for ex in self._active_examples() if ex.question.required} - {
            k for k, v in self.example_values.answers().items() if v
        }
        self.example_values.show_missing(missing)
        if missing:
            errs["examples"] = self.tr("Replace the example values with your own.")
        if self.transport_value() == "stdio":
            msg = validate_command(self._with_holes(self.command.text()), self.cwd.text(), self._typed_env())
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
            "protocol_mode": str(self.mode.currentData()),
            "roots": [self.roots.item(i).text() for i in range(self.roots.count())],
        }
        if entry.transport != "stdio":
            old = self.controller.settings(self.original.name).oauth if self.original is not None else {}
            settings["oauth"] = self.oauth.settings(old if isinstance(old, dict) else {})
        return entry, secrets, settings

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
