"""Pasting a snippet into the Add dialog, and the example values it may hold.

A snippet (any client's shape, app.config.snippets) with one server fills the dialog's fields; one
with several is kept as install plans and imported as a whole. Example values (`YOUR_API_KEY`,
`/path/to/dir`) are shown highlighted where they are, asked for in the ExampleValues box, and put
back as `${ask:KEY}` holes when the dialog builds its entry, so the answers replace them.

`SnippetPasting` is a part of ServerDialog (a mixin): it uses the dialog's fields, declared below.
Its strings are translated in the ServerDialog context, like the rest of the dialog.
"""

from __future__ import annotations

import asyncio
import copy
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QCoreApplication, Slot
from PySide6.QtWidgets import QDialog, QInputDialog, QLabel, QLineEdit, QListWidget, QMessageBox, QWidget

from app.ui.async_dialogs import inform, keyboard_rule, run_dialog
from app.ui.dialog_style import example_field
from app.ui.safe_text import visible_line
from app.ui.server_checks import looks_secret
from app.ui.server_fields import Example, ExampleValues, KeyValueRows

if TYPE_CHECKING:
    from app.install.plan import InstallPlan
    from app.ui.arg_secrets import ArgSecrets


class SnippetPasting:
    """Paste a snippet and handle its example values (part of ServerDialog)."""

    # The dialog's parts this uses (ServerDialog makes them).
    pasted: list[InstallPlan] | None
    examples: list[Example]
    example_values: ExampleValues
    paste_box: QInputDialog | None
    paste_note: QLabel
    command: QLineEdit
    url: QLineEdit
    cwd: QLineEdit
    args: QListWidget
    env: KeyValueRows
    headers: KeyValueRows
    arg_secrets: ArgSecrets
    _paste_task: asyncio.Future[None] | None
    _problem: asyncio.Future[None]

    # ServerDialog's own methods (these bodies are never run: the dialog defines them).
    def load(self, entry: Any, settings: Any = None) -> None:
        raise NotImplementedError

    def set_args(self, args: list[str]) -> None:
        raise NotImplementedError

    def args_value(self) -> list[str]:
        raise NotImplementedError

    def _set_fields_enabled(self, on: bool) -> None:
        raise NotImplementedError

    @property
    def _dialog(self) -> QWidget:
        """This dialog as a widget (a parent for the boxes it opens)."""
        return cast("QWidget", self)

    # --- paste a snippet ----------------------------------------------------------------------
    @Slot()
    def paste_json(self) -> None:
        self._paste_task = asyncio.ensure_future(self._paste())

    async def _paste(self) -> None:
        """The Paste box: opened and awaited (no nested exec()); Ctrl+Enter pastes, as everywhere."""
        box = QInputDialog(self._dialog)
        box.setObjectName("pasteBox")
        box.setWindowTitle(QCoreApplication.translate("ServerDialog", "Paste a snippet"))
        box.setLabelText(
            QCoreApplication.translate(
                "ServerDialog",
                "Paste the server's configuration snippet (or its command line) from its README:",
            )
        )
        box.setOption(QInputDialog.InputDialogOption.UsePlainTextEditForTextInput, True)
        box.setOkButtonText(QCoreApplication.translate("ServerDialog", "Paste"))
        keyboard_rule(box)
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
            self._problem = asyncio.ensure_future(
                inform(
                    self._dialog,
                    QCoreApplication.translate("ServerDialog", "Paste a snippet"),
                    str(exc),
                    icon=QMessageBox.Icon.Warning,
                )
            )
            return 0
        plans = found.plans
        if len(plans) > 1:
            from app.secrets.resolve import extract_secrets

            # Several: imported as a whole, keys typed in clear moved to the keychain on the way.
            plans = read_snippet(text, extract=extract_secrets).plans
            self.pasted = plans
            self.paste_note.setText(
                QCoreApplication.translate(
                    "ServerDialog",
                    "The snippet holds %1 servers: %2. Press Save to add them all (keys go to the keychain).",
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
                if looks_secret(k.text(), kind):
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
        tip = QCoreApplication.translate("ServerDialog", "An example value: replace it with your own above.")
        for edit in (self.command, self.url, self.cwd):
            if any(ex.text in edit.text() for ex in self.examples):
                example_field(edit)
                edit.setToolTip(tip)
        for rows in (self.env, self.headers):
            for _k, v, _s, _ in rows.rows:
                if any(ex.text in v.text() for ex in self.examples):
                    v.setEchoMode(QLineEdit.EchoMode.Normal)  # the example is no secret: show it
                    v.setReadOnly(True)
                    example_field(v)
                    v.setToolTip(tip)
        self.set_args(self.args_value())

    def pasted_answers(self) -> list[dict[str, str | None]]:
        """Per pasted plan, the answers typed for its questions."""
        typed = self.example_values.answers()
        out: list[dict[str, str | None]] = [{} for _ in self.pasted or []]
        for ex in self.examples:
            out[ex.plan][ex.question.key] = typed.get(ex.id) or None
        return out

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
