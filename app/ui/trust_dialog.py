""" "Allow this program to run?": the question asked before a local server's command first starts,
and again whenever its command, arguments, working folder or environment names change.

It shows exactly what would run (keys never in clear: a `${secret:NAME}` stays a reference, a key
typed into an argument is masked), where, with which environment names, and what looks risky, in
plain words. "Don't run" is the default button when something does. The dialog is opened and
awaited (`run_dialog`), never `exec()`'d.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject, Signal
from PySide6.QtGui import QFontDatabase, QShowEvent, QTextOption
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFrame,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.ui.async_dialogs import keyboard_rule, run_dialog
from app.ui.dialog_style import keep_styled, label_colour
from app.ui.elide import PREVIEW_CHARS, preview
from app.ui.safe_text import plain_label, visible, visible_line
from app.ui.theme import notice_style

if TYPE_CHECKING:
    from app.config.trust import Risk, TrustRequest

logger = logging.getLogger(__name__)

MASK = "••••"
CONTEXT = "TrustDialog"


def _tr(text: str) -> str:
    return QCoreApplication.translate(CONTEXT, text)


def risk_text(risk: Risk) -> str:
    """One risk in the person's words (translated); `risk.message` is the core's English."""
    from app.config import trust

    words: dict[str, object] = {
        trust.ADMIN: QT_TRANSLATE_NOOP(
            "TrustDialog",
            "“{0}” runs the program with administrator rights: it can change anything on this computer.",
        ),
        trust.SHELL_SCRIPT: QT_TRANSLATE_NOOP(
            "TrustDialog",
            "“{0}” runs a shell command written into the command line: whatever it says is run.",
        ),
        trust.HIDDEN_SCRIPT: QT_TRANSLATE_NOOP(
            "TrustDialog", "“{0}” runs an encoded script that cannot be read here."
        ),
        trust.PIPE_TO_SHELL: QT_TRANSLATE_NOOP(
            "TrustDialog", "“{0}” sends text into a shell, which runs whatever it receives."
        ),
        trust.DOWNLOAD_PIPE_SHELL: QT_TRANSLATE_NOOP(
            "TrustDialog",
            "“{0}” downloads a script from the internet and runs it at once: "
            "what runs can change at any time without you seeing it.",
        ),
        trust.DOWNLOAD_RUN: QT_TRANSLATE_NOOP(
            "TrustDialog", "“{0}” downloads a program from the internet and runs it."
        ),
        trust.TEMP_FOLDER: QT_TRANSLATE_NOOP(
            "TrustDialog",
            "“{0}” is in a temporary folder: other programs on this computer can put files there.",
        ),
        trust.WORLD_WRITABLE: QT_TRANSLATE_NOOP(
            "TrustDialog", "“{0}” is in a folder anyone on this computer can change ({1})."
        ),
    }
    template = words.get(risk.kind)
    if template is None:
        return risk.message
    return _tr(str(template)).format(risk.subject, risk.detail)


def _redact(args: Sequence[str]) -> list[str]:
    from app.secrets.detect import redact_args

    return redact_args(args, MASK)


class TrustDialog(QDialog):
    """The question for one server. Accepted = Allow, rejected = Don't run."""

    def __init__(self, request: TrustRequest, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.request = request
        launch = request.launch
        self.setObjectName("trustDialog")
        self.setWindowTitle(QCoreApplication.translate("TrustDialog", "Allow this program to run?"))
        self.setMinimumWidth(600)
        layout = QVBoxLayout(self)

        heading = plain_label(QCoreApplication.translate("TrustDialog", "Allow this program to run?"))
        font = heading.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.25)
        heading.setFont(font)
        layout.addWidget(heading)
        layout.addWidget(
            plain_label(
                QCoreApplication.translate(
                    "TrustDialog",
                    "The server “{0}” runs on this computer, with your permissions. MCP Desk asks "
                    "before its first start and whenever what it runs changes. It will run:",
                ).format(visible_line(request.server))
            )
        )

        self.command_view = QPlainTextEdit()
        self.command_view.setObjectName("trustCommand")
        self.command_view.setReadOnly(True)
        self.command_view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.command_view.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        # The whole command line, but a hostile snippet's megabyte argument must not freeze the
        # layout: long lines are broken for display, and past PREVIEW_CHARS the rest is counted.
        command_line = visible(launch.command_line(_redact))
        shown, cut = preview(command_line)
        if cut:
            shown += "\n" + QCoreApplication.translate(
                "TrustDialog", "… and %1 more characters not shown"
            ).replace("%1", str(len(command_line) - PREVIEW_CHARS))
        self.command_view.setPlainText(shown)
        lines = min(6, 1 + len(self.command_view.toPlainText()) // 70)
        metrics = self.command_view.fontMetrics()
        self.command_view.setFixedHeight(metrics.lineSpacing() * lines + 16)
        layout.addWidget(self.command_view)

        details: list[str] = []
        program = launch.program()
        if program is None:
            details.append(
                QCoreApplication.translate(
                    "TrustDialog", "Program: “{0}” is not found on this computer yet."
                ).format(launch.command)
            )
        elif program != launch.command:
            details.append(QCoreApplication.translate("TrustDialog", "Program: {0}").format(program))
        if launch.cwd:
            details.append(
                QCoreApplication.translate("TrustDialog", "Working folder: {0}").format(launch.cwd)
            )
        else:
            details.append(
                QCoreApplication.translate("TrustDialog", "Working folder: not set (MCP Desk's own)")
            )
        if launch.env_names:
            names = [
                QCoreApplication.translate("TrustDialog", "{0} (a key from your computer's keychain)").format(
                    n
                )
                if n in launch.secret_env
                else n
                for n in launch.env_names
            ]
            details.append(
                QCoreApplication.translate("TrustDialog", "Environment variables: {0}").format(
                    ", ".join(names)
                )
            )
        else:
            details.append(QCoreApplication.translate("TrustDialog", "Environment variables: none"))
        self.details = plain_label("\n".join(details))
        self.details.setObjectName("trustDetails")
        layout.addWidget(self.details)

        self.risks = QFrame()
        self.risks.setObjectName("trustRisks")
        risk_layout = QVBoxLayout(self.risks)
        if request.risks:
            keep_styled(
                self.risks, lambda: notice_style("warning", "QFrame#trustRisks") + label_colour("warning")
            )
            title = plain_label(
                QCoreApplication.translate("TrustDialog", "Look carefully before you allow it:")
            )
            bold = title.font()
            bold.setBold(True)
            title.setFont(bold)
            risk_layout.addWidget(title)
            for risk in request.risks:
                label = plain_label("• " + risk_text(risk))
                label.setObjectName("trustRisk")
                risk_layout.addWidget(label)
        else:
            risk_layout.setContentsMargins(0, 0, 0, 0)
            risk_layout.addWidget(
                plain_label(
                    QCoreApplication.translate(
                        "TrustDialog",
                        "Nothing unusual was found in this command. Allow it only if you trust "
                        "where it came from.",
                    )
                )
            )
        layout.addWidget(self.risks)

        if request.waiting:
            more = plain_label(self.tr("%n more server(s) will ask after this one.", "", request.waiting))
            more.setObjectName("trustWaiting")
            layout.addWidget(more)

        layout.addStretch(1)  # any extra height below the text, not between its lines
        buttons = QDialogButtonBox()
        self.allow_button: QPushButton = buttons.addButton(
            QCoreApplication.translate("TrustDialog", "Allow"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.dont_run_button: QPushButton = buttons.addButton(
            QCoreApplication.translate("TrustDialog", "Don't run"), QDialogButtonBox.ButtonRole.RejectRole
        )
        self.allow_button.setObjectName("trustAllow")
        self.dont_run_button.setObjectName("trustDontRun")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        # Enter by habit must not run a risky command.
        self._default = self.dont_run_button if request.risks else self.allow_button
        self._default.setDefault(True)
        # Ctrl+Enter presses the default button: never "Allow" by habit for a risky command.
        keyboard_rule(self, main=self._default.click)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        # Wrapped labels make Qt guess the height for a narrower dialog: fit it to this width.
        layout = self.layout()
        height = layout.totalHeightForWidth(self.width()) if layout is not None else -1
        if height > 0:
            self.resize(self.width(), height)
        # The button box picks its own default when shown: ours again, with the focus.
        self.allow_button.setDefault(False)
        self.dont_run_button.setDefault(False)
        self._default.setDefault(True)
        self._default.setFocus()

    def risk_texts(self) -> list[str]:
        return [risk_text(r) for r in self.request.risks]


class TrustPrompter(QObject):
    """The controller's `trust_prompt`: shows one TrustDialog over `parent` and awaits it.

    Signals:
        asked(server): a trust dialog was opened for `server` (it is `self.dialog` until answered).
    """

    asked = Signal(str)

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self._window = parent
        self.dialog: TrustDialog | None = None

    async def __call__(self, request: TrustRequest) -> bool:
        dialog = TrustDialog(request, self._window)
        self.dialog = dialog
        # Closing the window deletes the dialog with it: no longer "open", whatever comes next.
        dialog.destroyed.connect(lambda *_: self._gone())  # a lambda: called even as the window goes
        opened = asyncio.ensure_future(run_dialog(dialog))
        try:
            await asyncio.sleep(0)  # the dialog opens first: whoever listens sees it shown
            self.asked.emit(request.server)
            code = await opened
        except asyncio.CancelledError:
            opened.cancel()  # run_dialog rejects the dialog
            raise
        except RuntimeError:
            # Cancelled (the app quitting) after the window, and the dialog with it, was deleted:
            # run_dialog could not reject a dialog that no longer exists.
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise asyncio.CancelledError from None
            return False
        finally:
            self.dialog = None
            with contextlib.suppress(RuntimeError):  # gone already with its window (at quit)
                dialog.deleteLater()
        allowed = code == QDialog.DialogCode.Accepted.value
        logger.info(
            "%s: running its command %s", visible_line(request.server), "allowed" if allowed else "declined"
        )
        return allowed

    def _gone(self) -> None:
        self.dialog = None
