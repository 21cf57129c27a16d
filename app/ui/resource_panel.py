"""Right-hand panels for a resource, a resource template and a prompt.

A template's fields and a prompt's arguments offer the server's suggestions as the person types
(completion/complete, `app.ui.completion`), when the window gives the panel `connection_of`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.ui.completion import Fetch, ServerCompleter, completion_ref, offers_completions
from app.ui.developer_mode import developer_mode
from app.ui.elide import cap_middle
from app.ui.icons import icon
from app.ui.result_data import label_for
from app.ui.results import ResultView
from app.ui.safe_text import plain_label, plain_tooltip, visible_line
from app.ui.theme import colours, quiet_text_style, restyle_on_scheme_change

ConnectionOf = Callable[[str], Any]


def suggest(
    connection_of: ConnectionOf | None,
    server: str,
    ref: dict[str, str],
    name: str,
    others: Callable[[], dict[str, str]],
) -> Fetch:
    """What a field asks the server for suggestions: `name`'s values given what is typed, with the
    other fields' values as context. No connection (or no completions offered): none."""

    async def fetch(typed: str) -> list[str]:
        conn = connection_of(server) if connection_of is not None else None
        if conn is None or not offers_completions(conn):
            return []
        context = {k: v for k, v in others().items() if k != name and v}
        return list(await conn.complete(ref, name, typed, context or None))

    return fetch


def template_variables(template: str) -> list[str]:
    names: list[str] = []
    for m in re.finditer(r"\{([^}]*)\}", template):
        body = m.group(1).lstrip("+#./;?&")
        for part in body.split(","):
            n = part.split(":")[0].rstrip("*")
            if n and n not in names:
                names.append(n)
    return names


def expand_template(template: str, values: dict[str, str]) -> str:
    """Level-1 expansion (and the `{?a,b}` query form) — what resource templates use in practice."""
    from urllib.parse import quote

    def repl(m: re.Match[str]) -> str:
        body = m.group(1)
        op = body[0] if body[:1] in "+#./;?&" else ""
        names = [p.split(":")[0].rstrip("*") for p in body[len(op) :].split(",")]
        if op in ("?", "&"):
            parts = [f"{n}={quote(values.get(n, ''), safe='')}" for n in names if values.get(n)]
            return (op + "&".join(parts)) if parts else ""
        safe = "/:" if op in ("+", "#") else ""
        joined = ",".join(quote(values.get(n, ""), safe=safe) for n in names)
        return {"": "", "+": "", "#": "#", ".": ".", "/": "/", ";": ";"}[op] + joined

    return re.sub(r"\{([^}]*)\}", repl, template)


class _Header(QWidget):
    """Title, the id line (server · URI or server/name: developer mode only) and description."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.title = plain_label("")
        f = self.title.font()
        f.setBold(True)
        f.setPointSizeF(f.pointSizeF() * 1.3)
        self.title.setFont(f)
        self.sub = plain_label("")
        self.sub.setObjectName("panelId")
        # Not palette(mid): it vanishes on a dark palette.
        mono = " font-family: monospace;"
        restyle_on_scheme_change(self.sub, lambda: self.sub.setStyleSheet(quiet_text_style() + mono))
        self.sub.setVisible(developer_mode().enabled())
        developer_mode().changed.connect(self.sub.setVisible)
        self.description = plain_label("")
        lay.addWidget(self.title)
        lay.addWidget(self.sub)
        lay.addWidget(self.description)

    def set(self, title: str, sub: str, description: str) -> None:
        self.title.setText(title)
        self.title.setToolTip(plain_tooltip(sub))  # the precise id, for who wants it
        self.sub.setText(sub)
        self.description.setText(description)
        self.description.setVisible(bool(description))


class ResourcePanel(QWidget):
    """A resource (Read, Subscribe) or a template (a field per variable, then Read).

    Signals:
        read_requested(server, uri): read this URI.
        subscribe_toggled(server, uri, on): subscribe to / unsubscribe from updates.
    """

    read_requested = Signal(str, str)
    subscribe_toggled = Signal(str, str, bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.server = ""
        self.uri = ""
        self.template: str | None = None
        # For a template: may the concrete URI just read be subscribed to, and is it already?
        self.can_subscribe = False
        self.is_subscribed: Callable[[str, str], bool] = lambda server, uri: False
        # server name → its connection (the window's controller.connection): for suggestions.
        self.connection_of: ConnectionOf | None = None
        self.completers: dict[str, ServerCompleter] = {}
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        self.header = _Header()
        lay.addWidget(self.header)
        self.vars_box = QWidget()
        self.vars = QFormLayout(self.vars_box)
        lay.addWidget(self.vars_box)
        row = QHBoxLayout()
        self.read_button = QPushButton(icon("resource"), self.tr("Read"))
        self.read_button.clicked.connect(self._read)
        self.subscribe = QCheckBox(self.tr("Follow changes"))
        self.subscribe.setToolTip(self.tr("Read it again by itself whenever the server says it changed"))
        self.subscribe.toggled.connect(lambda on: self.subscribe_toggled.emit(self.server, self.uri, on))
        row.addWidget(self.read_button)
        row.addWidget(self.subscribe)
        row.addStretch(1)
        lay.addLayout(row)
        self.updated = plain_label("")
        lay.addWidget(self.updated)
        self.result = ResultView()
        lay.addWidget(self.result, 1)
        self.fields: dict[str, QLineEdit] = {}

    def show_resource(self, server: str, res: Any, subscribed: bool, can_subscribe: bool) -> None:
        self.server, self.uri, self.template = server, str(res.uri), None
        self.header.set(
            res.title or res.name or res.uri,
            f"{server} · {res.uri}" + (f" · {res.mime_type}" if res.mime_type else ""),
            res.description or "",
        )
        self._set_vars([])
        self.subscribe.blockSignals(True)
        self.subscribe.setChecked(subscribed)
        self.subscribe.blockSignals(False)
        self.subscribe.setVisible(can_subscribe)
        self.updated.setText("")
        self.result.clear(self.tr("Press Read to see the resource."))

    def show_template(self, server: str, tpl: Any, can_subscribe: bool = False) -> None:
        self.server, self.uri, self.template = server, "", str(tpl.uri_template)
        self.can_subscribe = can_subscribe
        self.header.set(tpl.title or tpl.name, f"{server} · {tpl.uri_template}", tpl.description or "")
        self._set_vars(template_variables(self.template))
        self.subscribe.setVisible(False)
        self.updated.setText("")
        self.result.clear(self.tr("Fill in the fields and press Read."))

    def _set_vars(self, names: list[str]) -> None:
        while self.vars.rowCount():
            self.vars.removeRow(0)
        self.fields = {}
        self.completers = {}
        ref = completion_ref("template", self.template or "")
        for n in names:
            e = QLineEdit()
            e.setAccessibleName(n)
            label = plain_label(cap_middle(label_for(n), 80), wrap=False)  # a bare string: an AutoText label
            label.setToolTip(plain_tooltip(n))
            self.vars.addRow(label, e)
            self.fields[n] = e
            fetch = suggest(self.connection_of_now, self.server, ref, n, self._values)
            self.completers[n] = ServerCompleter(e, fetch)
        self.vars_box.setVisible(bool(names))

    def connection_of_now(self, server: str) -> Any:
        """The connection as it is when a suggestion is asked for (it may have reconnected)."""
        return self.connection_of(server) if self.connection_of is not None else None

    def _values(self) -> dict[str, str]:
        return {n: e.text() for n, e in self.fields.items()}

    def current_uri(self) -> str:
        if self.template is None:
            return self.uri
        return expand_template(self.template, {n: e.text() for n, e in self.fields.items()})

    def _read(self) -> None:
        uri = self.current_uri()
        if self.template is not None:
            # A template read names one concrete resource (a note): that one can be followed.
            self.uri = uri
            self.subscribe.blockSignals(True)
            self.subscribe.setChecked(self.is_subscribed(self.server, uri))
            self.subscribe.blockSignals(False)
            self.subscribe.setVisible(self.can_subscribe and bool(uri))
        self.updated.setText("")
        self.read_requested.emit(self.server, uri)

    def mark_updated(self, uri: str) -> None:
        if uri == self.uri:
            self.updated.setText(
                self.tr("The server says this resource changed. Press Read to see the new version.")
            )

    def mark_refreshed(self, uri: str, when: str) -> None:
        """A subscribed resource changed and was read again by itself."""
        if uri == self.uri:
            self.updated.setText(
                self.tr("Updated at %1: the server said it changed, so it was read again.").replace(
                    "%1", when
                )
            )


class PromptPanel(QWidget):
    """A prompt's arguments (a field each) and the messages it produces.

    Signals:
        get_requested(server, name, arguments): fetch the prompt with these arguments.
    """

    get_requested = Signal(str, str, object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.server = ""
        self.name = ""
        self.connection_of: ConnectionOf | None = None  # see ResourcePanel
        self.completers: dict[str, ServerCompleter] = {}
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        self.header = _Header()
        lay.addWidget(self.header)
        self.args_box = QWidget()
        self.args = QFormLayout(self.args_box)
        lay.addWidget(self.args_box)
        self.get_button = QPushButton(icon("prompt"), self.tr("Show the prompt"))
        self.get_button.setToolTip(self.tr("Fill the prompt in with these values and show its messages"))
        self.get_button.clicked.connect(self._get)
        row = QHBoxLayout()
        row.addWidget(self.get_button)
        row.addStretch(1)
        lay.addLayout(row)
        self.error = plain_label("")
        self.error.setObjectName("promptError")
        self._restyle()
        lay.addWidget(self.error)
        self.result = ResultView()
        lay.addWidget(self.result, 1)
        self.fields: dict[str, tuple[QLineEdit, bool]] = {}

    def _restyle(self) -> None:
        sheet = f"QLabel#promptError {{ color: {colours('error')[1]}; }}"
        if sheet != self.error.styleSheet():
            self.error.setStyleSheet(sheet)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self._restyle()
        super().changeEvent(event)

    def show_prompt(self, server: str, prompt: Any) -> None:
        self.server, self.name = server, prompt.name
        self.header.set(prompt.title or prompt.name, f"{server}/{prompt.name}", prompt.description or "")
        while self.args.rowCount():
            self.args.removeRow(0)
        self.fields = {}
        self.completers = {}
        ref = completion_ref("prompt", str(prompt.name))
        for a in prompt.arguments or []:
            n = str(a.get("name", ""))
            req = bool(a.get("required"))
            e = QLineEdit()
            e.setAccessibleName(n)
            e.setPlaceholderText(visible_line(str(a.get("description") or "")))
            words = cap_middle(str(a.get("title") or label_for(n)), 80)
            label = plain_label(words + (" *" if req else ""), wrap=False)
            tip = n + ("\n" + self.tr("Required") if req else "")
            label.setToolTip(plain_tooltip(tip))
            self.args.addRow(label, e)
            self.fields[n] = (e, req)
            fetch = suggest(self.connection_of_now, server, ref, n, self._values)
            self.completers[n] = ServerCompleter(e, fetch)
        self.args_box.setVisible(bool(self.fields))
        self.error.setText("")
        self.result.clear(self.tr("Press “Show the prompt” to see its messages."))

    def connection_of_now(self, server: str) -> Any:
        return self.connection_of(server) if self.connection_of is not None else None

    def _values(self) -> dict[str, str]:
        return {n: e.text() for n, (e, _) in self.fields.items()}

    def _get(self) -> None:
        missing = [n for n, (e, req) in self.fields.items() if req and not e.text()]
        if missing:
            self.error.setText(self.tr("Please fill in: %1").replace("%1", ", ".join(missing)))
            self.fields[missing[0]][0].setFocus()
            return
        self.error.setText("")
        values = {n: e.text() for n, (e, _) in self.fields.items() if e.text()}
        self.get_requested.emit(self.server, self.name, values)

    def show_messages(self, result: Any) -> None:
        """prompts/get answer: each message's role, then its content with the result widgets."""
        raw = result if isinstance(result, dict) else getattr(result, "raw", None) or {}
        if not raw and hasattr(result, "model_dump"):
            raw = result.model_dump(mode="json", by_alias=True, exclude_none=True)
        messages = raw.get("messages", []) if isinstance(raw, dict) else []
        blocks: list[Any] = []
        for m in messages:
            blocks.append({"type": "x-role", "role": str(m.get("role", "?"))})
            content = m.get("content")
            blocks.extend(content if isinstance(content, list) else [content])
        self.result.show_contents(blocks, self.tr("The prompt has %n message(s).", "", len(messages)))
        self.result.set_raw(raw)
