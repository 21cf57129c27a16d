"""`FormWidget`: the form for one schema, with a raw JSON view of the same arguments kept in step."""

from __future__ import annotations

import itertools
import logging
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, Qt, Signal, Slot
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QLabel, QScrollArea, QTabWidget, QWidget

from app.forms import FieldError, Form, JsonField, ObjectField, build_form
from app.forms.masking import mask_secrets, unmask_secrets
from app.forms.values import MISSING
from app.ui.developer_mode import developer_mode
from app.ui.forms import container_editors, scalar_editors  # noqa: F401  (registers the editors)
from app.ui.forms.base import fill, mark_as_error, plain_label, remark_labels, vbox
from app.ui.forms.editor import FormEnv, Row
from app.ui.forms.json_view import JsonView
from app.ui.forms.messages import error_text
from app.ui.forms.row import FieldRow
from app.ui.forms.scalar_editors import TextEditor

if TYPE_CHECKING:
    from app.ui.forms.completion import Completer

logger = logging.getLogger(__name__)

Path = tuple[str | int, ...]


class FormWidget(QWidget):
    """A form for a tool's `inputSchema` (any JSON Schema): fields, and the same arguments as JSON.

    Enter in a field never reaches a dialog's default button (it does not run the tool); Ctrl+Enter does.
    The Form/JSON tabs and the schema behind each field (tooltips) show in developer mode only.
    `set_completer(fn)` offers suggestions in text fields as the person types.

    Signals:
    value_changed(): the arguments changed: edited in the fields or the JSON view, or by `set_value()`.
    """

    value_changed = Signal()

    def __init__(
        self,
        schema: Any,
        parent: QWidget | None = None,
        *,
        form: Form | None = None,
        empty_text: str | None = None,
    ) -> None:
        super().__init__(parent)
        self.form = form if form is not None else build_form(schema)
        self.env = FormEnv(self.form)
        if empty_text is not None:
            self.env.empty_text = empty_text
        self.env.structure_changed = self._on_structure_changed
        self.env.developer = developer_mode().enabled()
        self._batch = 0
        self._tab_order_dirty = False
        self._from_json = False
        self._shown_errors: list[FieldError] = []
        self.setAccessibleName(self.tr("Arguments form"))

        layout = vbox(self, 4)
        self.tabs = QTabWidget(self)
        self.tabs.setAccessibleName(self.tr("Form or JSON"))
        self.tabs.setDocumentMode(True)
        layout.addWidget(self.tabs, 1)

        self.scroll_area = QScrollArea(self.tabs)
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QScrollArea.Shape.NoFrame)
        self.scroll_area.setAccessibleName(self.tr("Fields"))
        content = QWidget(self.scroll_area)
        content_layout = vbox(content, 8)
        content_layout.setContentsMargins(8, 8, 8, 8)
        # Set before the fields exist: set after, the scroll area would lay the whole form out at once
        # here, and again when it is shown.
        self.scroll_area.setWidget(content)
        self._batch += 1
        try:
            self.root = FieldRow(self.form.root, self.env, content, path=(), show_header=False)
        finally:
            self._batch -= 1
        self.root.on_changed = self._on_fields_changed
        content_layout.addWidget(self.root)
        content_layout.addStretch(1)
        self.tabs.addTab(self.scroll_area, self.tr("Form"))

        self.json_view: JsonView | None = None
        self._json_page = QWidget(self.tabs)
        vbox(self._json_page, 0)
        self.tabs.addTab(self._json_page, self.tr("JSON"))
        self.tabs.currentChanged.connect(self._on_tab_changed)
        # The arguments as JSON are a developer's view: the tabs show in developer mode only.
        self.tabs.tabBar().setVisible(self.env.developer)
        developer_mode().changed.connect(self._on_developer_mode)

        self.form_errors: QLabel = plain_label("", self)
        self.form_errors.setObjectName("formErrors")
        mark_as_error(self.form_errors)
        self.form_errors.setAccessibleName(self.tr("Problems with the arguments"))
        self.form_errors.hide()
        layout.addWidget(self.form_errors)
        self._apply_tab_order()

    # -- value -------------------------------------------------------------------------------------------

    def value(self) -> Any:
        """The arguments to send: untouched optional fields are left out."""
        value = self.root.value()
        if value is MISSING:
            return {} if isinstance(self.form.root, ObjectField | JsonField) else None
        return value

    def set_value(self, value: Any) -> None:
        """Show `value` in the fields (and the JSON view). Values the fields cannot show become JSON."""
        self._batch += 1
        try:
            self.root.set_value(value)
        finally:
            self._batch -= 1
        self._apply_tab_order()
        self._recheck_shown_errors()
        self._sync_json()
        self.value_changed.emit()

    def set_completer(self, fn: Completer | None) -> None:
        """Offer suggestions in the text fields as the person types: `fn(field_name, typed)` is awaited
        (on the running asyncio loop) after each pause in typing, and its newest answer is shown in a
        popup under the field. Fields built later (groups opened, items added) get it too.

        `field_name` is the field's property name (a prompt argument's name). Secret fields never ask.
        """
        self.env.completer = fn
        for editor in self.findChildren(TextEditor):
            if fn is None:
                if editor.suggestions is not None:
                    editor.suggestions.stop()
                    editor.suggestions.deleteLater()
                    editor.suggestions = None
            else:
                editor.offer_suggestions()

    def finish_building(self) -> None:
        """Build every row now (wide forms build their later rows on the next event-loop turns)."""
        from app.ui.forms.container_editors import ObjectEditor

        if isinstance(self.root.editor, ObjectEditor):
            self.root.editor.finish_building()

    # -- errors ------------------------------------------------------------------------------------------

    def errors(self) -> list[FieldError]:
        """Everything that blocks sending: unreadable input first, then schema validation."""
        local = self.root.local_errors(())
        if self.json_view is not None and self.json_view.error and self.tabs.currentIndex() == 1:
            message = fill(self.tr("The JSON does not parse: %1"), self.json_view.error)
            local.insert(0, FieldError((), message, "json"))
        bad_paths = {e.path for e in local}
        checked = [e for e in self.form.validate(self.value()) if e.path not in bad_paths]
        return local + checked

    def _route(self, path: Path) -> tuple[Row, Path]:
        """The deepest row along `path`, and what is left of the path below it."""
        row: Row = self.root
        for depth, key in enumerate(path):
            child = row.child_row(key)
            if child is None:
                return row, path[depth:]
            row = child
        return row, ()

    def show_errors(self, errors: list[FieldError] | None = None) -> None:
        """Show each error at its field (the current `errors()` when none are given)."""
        errors = self.errors() if errors is None else errors
        self._batch += 1
        try:
            self.root.clear_all_errors()
            by_row: dict[Row, list[str]] = {}
            top: list[str] = []
            for error in errors:
                row, rest = self._route(error.path)
                where = " › ".join(str(k) for k in rest)
                text = error_text(error)
                message = f"{where}: {text}" if where else text
                if row is self.root:
                    top.append(message)
                else:
                    by_row.setdefault(row, []).append(message)
            for row, messages in by_row.items():
                row.show_errors(messages)
        finally:
            self._batch -= 1
        self._apply_tab_order()
        self.form_errors.setText("\n".join(dict.fromkeys(top)))
        self.form_errors.setVisible(bool(top))
        self._shown_errors = errors

    def focus_first_error(self) -> bool:
        """Move the keyboard focus to the first field (in form order) with an error; False if none."""
        errors = self._shown_errors or self.errors()
        if not errors:
            return False
        order = {id(row): i for i, row in enumerate(self._rows_in_order())}
        routed = [self._route(e.path)[0] for e in errors]
        row = min(routed, key=lambda r: order.get(id(r), len(order)))
        if self.tabs.currentIndex() != 0 and not (
            row is self.root and self.json_view and self.json_view.error
        ):
            self.tabs.setCurrentIndex(0)
        if row is self.root and self.json_view is not None and self.json_view.error:
            self.json_view.focus()
            return True
        self.scroll_area.ensureWidgetVisible(row.as_widget())
        row.focus_target().setFocus(Qt.FocusReason.OtherFocusReason)
        return True

    def _rows_in_order(self) -> list[Row]:
        out: list[Row] = []
        stack: list[Row] = [self.root]
        while stack:
            row = stack.pop()
            out.append(row)
            stack.extend(reversed([r for _k, r in row.child_items()]))
        return out

    # -- JSON view ---------------------------------------------------------------------------------------

    @Slot(int)
    def _on_tab_changed(self, index: int) -> None:
        if index == 1 and self.json_view is None:
            self.json_view = JsonView(self._json_page)
            self.json_view.value_edited.connect(self._on_json_edited)
            layout = self._json_page.layout()
            assert layout is not None
            layout.addWidget(self.json_view)
        self._sync_json()

    def _sync_json(self) -> None:
        if self.json_view is not None and self.tabs.currentIndex() == 1 and not self._from_json:
            self.json_view.show_value(mask_secrets(self.value(), self.form.root))

    @Slot(object)
    def _on_json_edited(self, parsed: Any) -> None:
        value = unmask_secrets(parsed, self.value(), self.form.root)
        self._from_json = True
        try:
            self.set_value(value)
        finally:
            self._from_json = False

    @Slot()
    def _on_fields_changed(self) -> None:
        self._recheck_shown_errors()
        self._sync_json()
        self.value_changed.emit()

    def _recheck_shown_errors(self) -> None:
        """After an edit, each shown error goes as soon as its field is valid (or changes its wording).

        Only fields already marked are checked again: a person still filling the form in is not shown
        new errors for fields they have not reached; those appear on the next Run.
        """
        if not self._shown_errors:
            return
        marked = {e.path for e in self._shown_errors}
        still = [e for e in self.errors() if e.path in marked]
        if still != self._shown_errors:
            self.show_errors(still)

    # -- developer mode ----------------------------------------------------------------------------------

    @Slot(bool)
    def _on_developer_mode(self, on: bool) -> None:
        self.env.developer = on
        self.tabs.tabBar().setVisible(on)
        if not on and self.tabs.currentIndex() != 0:
            self.tabs.setCurrentIndex(0)
        for row in self._rows_in_order():
            row.show_developer(on)

    # -- light and dark ----------------------------------------------------------------------------------

    def changeEvent(self, event: QEvent) -> None:
        # Error and help colours are fixed when set: a new scheme (light <-> dark) sets them again.
        if event.type() == QEvent.Type.PaletteChange:
            remark_labels(self)
            if self.json_view is not None:
                self.json_view.refresh_colours()
        super().changeEvent(event)

    # -- keyboard ----------------------------------------------------------------------------------------

    def _on_structure_changed(self) -> None:
        if self._batch:
            self._tab_order_dirty = True
        else:
            self._apply_tab_order()

    def _apply_tab_order(self) -> None:
        """Tab follows the form top to bottom, also through groups built later (opened, added items)."""
        self._tab_order_dirty = False
        chain = [w for w in self.root.focus_chain() if w.focusPolicy() & Qt.FocusPolicy.TabFocus]
        for first, second in itertools.pairwise(chain):
            QWidget.setTabOrder(first, second)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        # A line edit ignores Enter so it travels up to the dialog's default button: stop it here, so
        # Enter in a field never runs the tool. Ctrl+Enter still goes up (a deliberate "run").
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not (
            event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            event.accept()
            return
        super().keyPressEvent(event)
