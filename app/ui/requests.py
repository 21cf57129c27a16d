"""Requests from servers (elicitation, sampling) answered by the person, one dialog per request.

Each request is awaited by the engine in its own task; the dialog is opened with `open()` (never
`exec()`), so a dialog waiting on one server blocks nothing else: other servers keep running,
other dialogs can open, and the main window stays usable.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from PySide6.QtCore import QCoreApplication, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.ui.async_dialogs import ask, keyboard_rule, run_dialog
from app.ui.safe_text import plain_label, visible, visible_line

logger = logging.getLogger(__name__)


def _tr(text: str) -> str:
    return QCoreApplication.translate("ServerRequests", text)


def _responses() -> Any:
    from app.mcp import handlers

    return handlers


class SamplingDialog(QDialog):
    """Shows what the server wants a model to answer; the person writes the answer or declines."""

    def __init__(self, server: str, request: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(visible_line(self.tr("%1 asks for a model's answer").replace("%1", server)))
        self.setObjectName("samplingDialog")
        self.resize(560, 520)
        lay = QVBoxLayout(self)
        lay.addWidget(
            plain_label(
                self.tr(
                    "The server “%1” wants an AI model to answer the conversation below. "
                    "MCP Desk has no model of its own: write or paste the answer yourself, or decline."
                ).replace("%1", server)
            )
        )
        convo = QPlainTextEdit()
        convo.setReadOnly(True)
        convo.setAccessibleName(self.tr("Conversation"))
        convo.setPlainText(visible(self.describe(request)))
        lay.addWidget(convo, 2)
        lay.addWidget(QLabel(self.tr("Your answer:")))
        self.answer = QPlainTextEdit()
        self.answer.setAccessibleName(self.tr("Your answer"))
        lay.addWidget(self.answer, 1)
        box = QDialogButtonBox()
        self.send_button: QPushButton = box.addButton(
            self.tr("Send answer"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.decline_button: QPushButton = box.addButton(
            self.tr("Decline"), QDialogButtonBox.ButtonRole.RejectRole
        )
        self.send_button.clicked.connect(self.accept)
        self.decline_button.clicked.connect(self.reject)
        lay.addWidget(box)
        keyboard_rule(self)  # opens in the answer, not the read-only conversation

    @staticmethod
    def describe(request: Any) -> str:
        lines: list[str] = []
        system = getattr(request, "system_prompt", None)
        if system:
            lines += [QCoreApplication.translate("ServerRequests", "Instructions for the model:"), system, ""]
        for m in getattr(request, "messages", []) or []:
            role = m.get("role", "?") if isinstance(m, dict) else "?"
            content = m.get("content") if isinstance(m, dict) else m
            blocks = content if isinstance(content, list) else [content]
            for b in blocks:
                if isinstance(b, dict) and b.get("type") == "text":
                    lines.append(f"[{role}] {b.get('text', '')}")
                else:
                    lines.append(f"[{role}] {json.dumps(b)[:300]}")
        raw = getattr(request, "raw", {}) or {}
        prefs = raw.get("modelPreferences")
        if prefs:
            lines += [
                "",
                QCoreApplication.translate("ServerRequests", "Model preferences: %1").replace(
                    "%1", json.dumps(prefs)
                ),
            ]
        lines.append(
            QCoreApplication.translate("ServerRequests", "Longest answer: %1 tokens").replace(
                "%1", str(getattr(request, "max_tokens", "?"))
            )
        )
        return "\n".join(lines)


class GuiHandlers:
    """The engine's ClientHandlers, answered by the person through non-blocking dialogs."""

    def __init__(self, parent: QWidget | None = None) -> None:
        self.parent = parent
        self.open_dialogs: list[QDialog] = []

    async def elicit(self, server: str, request: Any) -> Any:
        h = _responses()
        if request.mode == "url":
            return await self._elicit_url(server, request)
        dialog, read = self._form_dialog(server, request)
        self.open_dialogs.append(dialog)
        try:
            await run_dialog(dialog, modal=False)
            action, content = read()
        finally:
            self.open_dialogs.remove(dialog)
            dialog.deleteLater()
        return h.ElicitationResponse(action, content if action == "accept" else None)

    def _form_dialog(self, server: str, request: Any) -> tuple[QDialog, Any]:
        from app.ui.forms.elicitation_dialog import ElicitationDialog

        schema = request.requested_schema or {"type": "object"}
        d = ElicitationDialog(request.message, schema, parent=self.parent)
        d.setWindowTitle(
            visible_line(
                QCoreApplication.translate("ServerRequests", "%1 asks for information").replace("%1", server)
            )
        )
        defaults = dict(getattr(request, "defaults", {}) or {})
        if defaults:
            d.set_value(defaults)

        def read() -> tuple[str, dict[str, Any] | None]:
            r = d.response()
            return r.action, r.content

        return d, read

    async def _elicit_url(self, server: str, request: Any) -> Any:
        h = _responses()
        url = str(request.url or "")
        text = (
            QCoreApplication.translate("ServerRequests", "The server “%1” says:").replace("%1", server)
            + f"\n{request.message}\n\n"
            + QCoreApplication.translate("ServerRequests", "It wants to open this address:")
            + f"\n{url}"
        )
        if getattr(request, "then_retry", False):  # a page a request's answer named (-32042)
            text += "\n\n" + QCoreApplication.translate(
                "ServerRequests", "Once you are done there, MCP Desk runs the request again by itself."
            )
        ok, _ = await ask(
            self.parent,
            QCoreApplication.translate("ServerRequests", "%1 asks you to open a web page").replace(
                "%1", server
            ),
            text,
            yes=QCoreApplication.translate("ServerRequests", "Open in browser"),
            no=QCoreApplication.translate("ServerRequests", "Decline"),
        )
        if not ok:
            return h.ElicitationResponse("decline")
        qurl = QUrl(url)
        if qurl.scheme().lower() not in ("http", "https"):
            return h.ElicitationResponse("decline")
        QDesktopServices.openUrl(qurl)
        return h.ElicitationResponse("accept")

    async def sample(self, server: str, request: Any) -> Any:
        h = _responses()
        d = SamplingDialog(server, request, self.parent)
        self.open_dialogs.append(d)
        try:
            code = await run_dialog(d, modal=False)
            text = d.answer.toPlainText()
        finally:
            self.open_dialogs.remove(d)
            d.deleteLater()
        if code != QDialog.DialogCode.Accepted.value:
            return h.SamplingResponse("decline", message="The user declined to answer.")
        return h.SamplingResponse("accept", {"type": "text", "text": text})
