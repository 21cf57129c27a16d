"""The one dialog that adds a server found elsewhere: a registry entry, a server package, an install
link or a snippet with placeholders, each given as an `InstallPlan` (app/install/plan.py).

It shows what the person is about to add as they would want to see it (icon, title, version and
author, description, website, what it needs to run, notes), a name (checked as it is typed) and
the plan's questions as a form. Add stores the keys in the keychain (off the GUI thread; in memory
for this session when there is no keychain and the person chose so), then the entry, then asks
the controller to connect it, which shows "Allow this program to run?" for a local program
first. The work is done while the dialog is still open: on an error the dialog stays, with what
was typed and the error shown.

All text from the plan is plain text (`PlainLabel`, `visible_line`); the icon is decoded from the
bytes the source already holds, with limits; nothing here fetches anything.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QBuffer, QByteArray, QCoreApplication, QIODevice, QSize, Qt, QUrl, Slot
from PySide6.QtGui import QCloseEvent, QDesktopServices, QImageReader, QKeyEvent, QPixmap
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.install.answers import is_unset, problems
from app.install.plan import Answer, InstallPlan, apply
from app.mcp.visible import visible_line
from app.ui.async_dialogs import keyboard_rule, run_dialog
from app.ui.dialog_style import error_text, with_icon
from app.ui.i18n import translate_reason
from app.ui.install_fields import BoolField, Field, make_field
from app.ui.safe_text import plain_label
from app.ui.widgets import TextLabel

if TYPE_CHECKING:
    from app.ui.controller import DeskController

logger = logging.getLogger(__name__)

ICON_BYTES = 1_000_000
"""Largest icon file decoded (the source limits what it fetches; this is the view's own guard)."""
ICON_PIXELS = 4096
"""Largest width or height decoded (a small file can still declare a huge picture)."""
ICON_SIZE = 64
DESCRIPTION_CHARS = 20_000
SHORT_DESCRIPTION = 600
SETTINGS_NOT_FROM_PLANS = frozenset({"approved_launch", "trusted_tools"})
"""A plan never approves its own command or trusts its own tools: the person does that."""


def _tr(text: str) -> str:
    return QCoreApplication.translate("InstallDialog", text)


def icon_pixmap(data: bytes | None, size: int = ICON_SIZE) -> QPixmap | None:
    """The icon scaled to `size`, or None when there is none or it is too big or not a picture."""
    if not data or len(data) > ICON_BYTES:
        return None
    buffer = QBuffer()
    buffer.setData(QByteArray(data))
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    reader = QImageReader(buffer)
    reader.setAllocationLimit(64)  # MB: a decoding bomb fails instead of filling memory
    declared = reader.size()
    if declared.isValid() and (declared.width() > ICON_PIXELS or declared.height() > ICON_PIXELS):
        return None
    if declared.isValid() and not declared.isEmpty():
        reader.setScaledSize(declared.scaled(QSize(size, size), Qt.AspectRatioMode.KeepAspectRatio))
    image = reader.read()
    if image.isNull():
        return None
    if image.width() > size or image.height() > size:
        image = image.scaled(
            size, size, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
        )
    return QPixmap.fromImage(image)


def runtime_text(plan: InstallPlan) -> str:
    """What the server needs to run, in the glossary's words."""
    if plan.entry.transport != "stdio":
        return QCoreApplication.translate(
            "InstallDialog", "Runs on the internet (URL): nothing is installed on this computer."
        )
    return {
        "node": QCoreApplication.translate(
            "InstallDialog",
            "Runs on this computer with Node.js (the built-in Node.js when yours is not installed).",
        ),
        "python": QCoreApplication.translate(
            "InstallDialog",
            "Runs on this computer with Python, through uv (the built-in uv when yours is not installed).",
        ),
        "uv": QCoreApplication.translate(
            "InstallDialog", "Runs on this computer with uv (the built-in uv when yours is not installed)."
        ),
        "docker": QCoreApplication.translate(
            "InstallDialog", "Runs on this computer in Docker: Docker must be installed and running."
        ),
        "binary": QCoreApplication.translate("InstallDialog", "Runs on this computer: a program of its own."),
    }.get(plan.runtime or "", QCoreApplication.translate("InstallDialog", "Runs on this computer."))


def website_of(plan: InstallPlan) -> QUrl | None:
    """The plan's website (else its repository) when it is an http(s) address, else None."""
    for text in (plan.website, plan.repository):
        if not text:
            continue
        url = QUrl(text.strip())
        if url.isValid() and url.scheme().lower() in ("http", "https") and url.host():
            return url
    return None


class InstallDialog(QDialog):
    """Shows an install plan and adds it. After `accept`, `installed` is the new server's name."""

    def __init__(self, controller: DeskController, plan: InstallPlan, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.plan = plan
        self.installed: str | None = None
        self._adding: asyncio.Future[None] | None = None
        title = plan.title or plan.name
        self.setWindowTitle(
            QCoreApplication.translate("InstallDialog", "Add %1").replace("%1", visible_line(title)[:80])
        )
        self.setObjectName("installDialog")

        outer = QVBoxLayout(self)
        outer.addLayout(self._header(plan))
        if plan.description:
            # A short description is a label; a long one a text view that lays out only what shows.
            text = plan.description[:DESCRIPTION_CHARS]
            if len(text) <= SHORT_DESCRIPTION:
                self.description: QLabel | TextLabel = plain_label(text, self)
            else:
                view = TextLabel(self)
                view.setPlainText(text)
                view.setMaximumHeight(120)
                self.description = view
            outer.addWidget(self.description)
            outer.addSpacing(6)
        self.runtime_label = plain_label(runtime_text(plan), self)
        outer.addWidget(self.runtime_label)
        self._runtime_lookup: asyncio.Future[None] | None = None
        if plan.entry.transport == "stdio" and plan.entry.command:
            with contextlib.suppress(RuntimeError):  # no running loop: the general words stay
                asyncio.get_running_loop()
                self._runtime_lookup = asyncio.ensure_future(self._find_runtime())
        self.website = website_of(plan)
        if plan.website or plan.repository:
            row = QHBoxLayout()
            shown = plan.website or plan.repository or ""
            self.website_label = plain_label(visible_line(shown)[:300], self, wrap=False)
            self.website_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            row.addWidget(self.website_label, 1)
            self.website_button = QPushButton(
                QCoreApplication.translate("InstallDialog", "Open website"), self
            )
            self.website_button.setAutoDefault(False)
            with_icon(self.website_button, "open-link")
            self.website_button.setEnabled(self.website is not None)
            self.website_button.clicked.connect(self._open_website)
            row.addWidget(self.website_button)
            outer.addLayout(row)
        self.note_labels: list[QLabel] = []
        for note in plan.notes:
            label = plain_label(translate_reason(note), self)  # the core's English, translated
            label.setObjectName("installNote")
            font = label.font()
            font.setItalic(True)  # set apart without a colour that reads as a link
            label.setFont(font)
            self.note_labels.append(label)
            outer.addWidget(label)

        line = QFrame(self)
        line.setFrameShape(QFrame.Shape.HLine)
        line.setFrameShadow(QFrame.Shadow.Sunken)
        outer.addWidget(line)
        outer.addWidget(self._form(plan), 1)

        self.error_label = plain_label("", self)
        self.error_label.setObjectName("installError")
        error_text(self.error_label)
        self.error_label.hide()
        outer.addWidget(self.error_label)
        self.session_button = QPushButton(
            QCoreApplication.translate("InstallDialog", "Keep the key until MCP Desk closes"), self
        )
        self.session_button.setAutoDefault(False)
        self.session_button.setToolTip(
            QCoreApplication.translate(
                "InstallDialog",
                "There is no keychain on this computer: the key is kept in memory and asked again next time.",
            )
        )
        self.session_button.clicked.connect(self._keep_for_session)
        self.session_button.hide()
        outer.addWidget(self.session_button, 0, Qt.AlignmentFlag.AlignLeft)

        self.buttons = QDialogButtonBox(self)
        self.add_button = self.buttons.addButton(
            QCoreApplication.translate("InstallDialog", "Add"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.cancel_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.add_button.setDefault(True)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        outer.addWidget(self.buttons)
        keyboard_rule(self)
        self._refresh()
        hint = self.sizeHint()
        self.resize(max(560, hint.width()), min(760, max(hint.height(), 360)))

    # --- construction ---------------------------------------------------------------------
    def _header(self, plan: InstallPlan) -> QHBoxLayout:
        row = QHBoxLayout()
        self.icon_label = QLabel(self)
        self.icon_label.setFixedSize(ICON_SIZE, ICON_SIZE)
        self.icon_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        pixmap = icon_pixmap(plan.icon)
        if pixmap is not None:
            self.icon_label.setPixmap(pixmap)
        else:
            self.icon_label.hide()
        row.addWidget(self.icon_label, 0, Qt.AlignmentFlag.AlignTop)
        texts = QVBoxLayout()
        self.title_label = plain_label(visible_line(plan.title or plan.name)[:200], self)
        font = self.title_label.font()
        font.setPointSizeF(font.pointSizeF() * 1.3)
        font.setBold(True)
        self.title_label.setFont(font)
        texts.addWidget(self.title_label)
        facts = []
        if plan.version:
            facts.append(
                QCoreApplication.translate("InstallDialog", "version %1").replace(
                    "%1", visible_line(plan.version)[:60]
                )
            )
        if plan.author:
            facts.append(
                QCoreApplication.translate("InstallDialog", "by %1").replace(
                    "%1", visible_line(plan.author)[:120]
                )
            )
        self.facts_label = plain_label(" · ".join(facts), self)
        self.facts_label.setVisible(bool(facts))
        texts.addWidget(self.facts_label)
        texts.addStretch(1)
        row.addLayout(texts, 1)
        return row

    def _form(self, plan: InstallPlan) -> QScrollArea:
        area = QScrollArea(self)
        area.setWidgetResizable(True)
        area.setFrameShape(QFrame.Shape.NoFrame)
        body = QWidget(area)
        form = QFormLayout(body)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.name_edit = QLineEdit(body)
        self.name_edit.setObjectName("installName")
        self.name_edit.setText(self.controller.store.unique_name(plan.name.strip() or "server"))
        self.name_edit.textChanged.connect(self._refresh)
        self.name_problem = plain_label("", body)
        self.name_problem.setObjectName("installError")
        error_text(self.name_problem)
        self.name_problem.hide()
        name_box = QVBoxLayout()
        name_box.setSpacing(2)
        name_box.addWidget(self.name_edit)
        name_box.addWidget(self.name_problem)
        form.addRow(QCoreApplication.translate("InstallDialog", "Name"), name_box)

        self.fields: dict[str, Field] = {}
        self.hints: dict[str, QLabel] = {}
        for q in plan.questions:
            field = make_field(q, body)
            field.changed.connect(self._refresh)
            self.fields[q.key] = field
            box = QVBoxLayout()
            box.setSpacing(2)
            box.addWidget(field.widget)
            lines = []
            if q.description:
                lines.append(q.description[:2000])
            if q.placeholder:
                lines.append(
                    QCoreApplication.translate("InstallDialog", "The example said %1").replace(
                        "%1", visible_line(q.placeholder)[:200]
                    )
                )
            if lines:
                hint = plain_label("\n".join(lines), body)
                hint.setObjectName("installHint")
                hint.setStyleSheet("QLabel#installHint { color: palette(placeholder-text); }")
                self.hints[q.key] = hint
                box.addWidget(hint)
            label = "" if isinstance(field, BoolField) else visible_line(q.label)[:120]
            if q.required:
                label = (
                    QCoreApplication.translate("InstallDialog", "%1 (required)").replace("%1", label)
                    if label
                    else QCoreApplication.translate("InstallDialog", "(required)")
                )
            form.addRow(label, box)
        area.setWidget(body)
        return area

    # --- state ------------------------------------------------------------------------------
    def answers(self) -> dict[str, Answer]:
        return {key: field.answer() for key, field in self.fields.items()}

    def name(self) -> str:
        return self.name_edit.text().strip()

    def name_error(self) -> str | None:
        from app.config.store import name_problem

        name = self.name()
        if not name:
            return QCoreApplication.translate("InstallDialog", "Give the server a name.")
        problem = name_problem(name)
        if problem is not None:
            return QCoreApplication.translate("InstallDialog", "This name cannot be used: %1.").replace(
                "%1", problem
            )
        if name in self.controller.store:
            return QCoreApplication.translate("InstallDialog", "A server named %1 already exists.").replace(
                "%1", visible_line(name)
            )
        return None

    def problems(self) -> dict[str, str]:
        """key → what is wrong with that answer (plus "" → the name's problem)."""
        answers = self.answers()
        found = problems(self.plan.questions, answers)
        for q in self.plan.questions:
            # The commonest problem in the window's language (the core words every problem in
            # English); the label is the server's own word.
            if q.key in found and q.required and is_unset(answers.get(q.key)):
                found[q.key] = self.tr("%1 is required").replace("%1", q.label or q.key)
        name = self.name_error()
        if name is not None:
            found[""] = name
        return found

    @Slot()
    def _refresh(self) -> None:
        name = self.name_error()
        self.name_problem.setText(name or "")
        self.name_problem.setVisible(name is not None and bool(self.name_edit.text()))
        found = self.problems()
        busy = self._adding is not None and not self._adding.done()
        self.add_button.setEnabled(not found and not busy)
        self.add_button.setToolTip("\n".join(found.values()))

    def _busy(self, busy: bool) -> None:
        for w in (self.name_edit, self.cancel_button, *(f.widget for f in self.fields.values())):
            w.setEnabled(not busy)
        self.add_button.setEnabled(not busy)
        if not busy:
            self._refresh()

    def show_error(self, text: str, *, offer_session: bool = False) -> None:
        self.error_label.setText(text)
        self.error_label.show()
        self.session_button.setVisible(offer_session)

    # --- actions ----------------------------------------------------------------------------
    def accept(self) -> None:
        if self._adding is not None and not self._adding.done():
            return
        if self.problems():
            self._refresh()
            return
        self.error_label.hide()
        self.session_button.hide()
        self._adding = asyncio.ensure_future(self._add())
        self._busy(True)

    def reject(self) -> None:
        if self._adding is not None and not self._adding.done():
            return  # the keys are being stored: wait for the end (Cancel is disabled meanwhile)
        super().reject()

    def closeEvent(self, event: QCloseEvent) -> None:
        if self._adding is not None and not self._adding.done():
            event.ignore()
            return
        super().closeEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape and self._adding is not None and not self._adding.done():
            return
        super().keyPressEvent(event)

    async def _add(self) -> None:
        from app.secrets.errors import KeyringUnavailableError

        try:
            name = await add_server(self.controller, self.plan, self.name(), self.answers())
        except KeyringUnavailableError as exc:
            logger.info("no usable keychain for the new server's keys")
            self.show_error(
                QCoreApplication.translate("InstallDialog", "The key could not be stored: %1").replace(
                    "%1", str(exc).splitlines()[0]
                ),
                offer_session=True,
            )
        except Exception as exc:  # ConfigError, SecretStoreError, OSError, MissingAnswer...
            logger.info("the server was not added: %s", exc)
            self.show_error(
                QCoreApplication.translate("InstallDialog", "The server was not added: %1").replace(
                    "%1", translate_reason(str(exc))
                )
            )
        else:
            self.installed = name
            QDialog.accept(self)
        finally:
            self._adding = None
            self._busy(False)

    @Slot()
    def _keep_for_session(self) -> None:
        """The person chose: keys in memory only, until MCP Desk closes."""
        self.controller.secrets.use_session_only()
        self.session_button.hide()
        self.accept()

    async def _find_runtime(self) -> None:
        """Name the runtime it will use ("Node.js 24.19 (built in)", "your Node.js 22.3") once
        app.runtimes' lookup says (a worker thread: it may look at folders and run `node -v`)."""
        try:
            from app.runtimes import describe, runtime_for
        except ImportError:
            return
        try:
            runtime = await asyncio.to_thread(runtime_for, self.plan.entry)
        except Exception as exc:  # the general words stay
            logger.debug("runtime lookup failed: %s", exc)
            return
        from shiboken6 import isValid

        if runtime is not None and isValid(self.runtime_label):
            self.runtime_label.setText(
                QCoreApplication.translate("InstallDialog", "Runs on this computer with %1.").replace(
                    "%1", translate_reason(describe(runtime))
                )
            )

    @Slot()
    def _open_website(self) -> None:
        if self.website is not None:  # http(s) only, checked in website_of
            QDesktopServices.openUrl(self.website)


async def add_server(
    controller: DeskController, plan: InstallPlan, name: str, answers: dict[str, Answer]
) -> str:
    """Fill the plan, store its keys (off the GUI thread), add and save the entry; returns its name.
    Nothing is left behind when a step fails: the keys stored so far are deleted again."""
    from app.config.store import ServerExistsError

    store = controller.store
    applied = apply(plan, answers)
    entry = applied.entry
    entry.name = name
    if name in store:
        raise ServerExistsError(store.path, f"a server named {name!r} already exists")
    secrets = controller.secrets
    if applied.secrets:
        await secrets.acheck_available()
    stored: list[str] = []
    added = False
    try:
        for key, value in applied.secrets.items():
            await secrets.aset(name, key, value)
            stored.append(key)
        store.add(entry)
        added = True
        _apply_settings(store.settings(name), plan.settings)
        if not controller.save():
            raise RuntimeError(
                QCoreApplication.translate("InstallDialog", "the server list file is broken; fix it first")
            )
    except BaseException:
        if added:
            with contextlib.suppress(Exception):
                store.remove(name)
                controller.servers_changed.emit()
        for key in stored:
            with contextlib.suppress(Exception):  # best effort; the first error is the one shown
                await secrets.adelete(name, key)
        raise
    return name


def _apply_settings(settings: Any, values: dict[str, Any]) -> None:
    known = ("timeout", "protocol_mode", "roots", "order", "oauth")
    for key, value in values.items():
        if key in SETTINGS_NOT_FROM_PLANS:
            continue
        if key in known:
            setattr(settings, key, value)
        else:
            settings.extra[key] = value


async def install_plan(window: Any, plan: InstallPlan) -> str | None:
    """Show `plan`; on Add store it and connect it (the trust prompt first for a local program).
    Returns the new server's name, or None when the person cancelled."""
    controller = window.controller
    dialog = InstallDialog(controller, plan, window)
    window.install_dialog = dialog  # tests and screenshots reach it here
    try:
        code = await run_dialog(dialog)
        name = dialog.installed if code == QDialog.DialogCode.Accepted.value else None
    finally:
        window.install_dialog = None
        if dialog._runtime_lookup is not None:
            dialog._runtime_lookup.cancel()
        # At quit the window may have taken the dialog with it before this task was cancelled.
        with contextlib.suppress(RuntimeError):
            dialog.deleteLater()
    if name is None:
        return None
    # Saving it was enough: the controller connects a server that is new in the list (after the
    # trust prompt for a local program), as it does for the Add dialog; connecting here as well
    # would start it twice.
    window.servers.select(name)
    return name
