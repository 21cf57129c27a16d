"""`FieldRow`: one field with its label, required mark, help, "Not set" toggle, clear button and error text.

The row, not the editor, knows whether the field is *set*: an optional field the user never touched is
left out of the arguments, while "Not set" (an explicit `null`) or an empty string put there on purpose
are kept.
A value the editor cannot show exactly (found by reading it back) is shown as JSON instead, so nothing
is ever lost or silently changed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import QLabel, QPushButton, QToolButton, QWidget

from app.forms import Field, FieldError, JsonField
from app.forms.values import MISSING, json_equal
from app.ui.forms.base import (
    fill,
    hbox,
    help_text,
    make_help,
    mark_as_error,
    plain_label,
    schema_note,
    vbox,
)
from app.ui.forms.editor import Editor, FormEnv, Row, editor_class
from app.ui.safe_text import plain_tooltip, visible_line

logger = logging.getLogger(__name__)

Path = tuple[str | int, ...]

MAX_NESTING = 20
"""Groups deeper than this (a recursive schema opened level by level) are edited as JSON."""


class FieldRow(QWidget):
    """One field. `on_changed()` is called when the user changes its value (typing, picking, null, clear,
    rows added...); the owner sets it (a plain callback: see `EditorMixin.notify`)."""

    def __init__(
        self,
        field: Field,
        env: FormEnv,
        parent: QWidget | None = None,
        *,
        path: Path = (),
        label: str | None = None,
        show_header: bool = True,
        expanded: bool | None = None,
    ) -> None:
        super().__init__(parent)
        self.field = field
        self.env = env
        self.on_changed: Callable[[], None] = _nothing
        self.path = path
        self.label_text = label if label is not None else field.label
        self.is_set = False
        self.is_null = False
        self.editor: Editor | None = None
        self._pending: Any = MISSING
        self._raw: Editor | None = None
        self._raw_box: QWidget | None = None
        self._error_label: QLabel | None = None
        self._clear: QToolButton | None = None
        self._null: QToolButton | None = None
        self.toggle: QToolButton | None = None
        self.title: QLabel | None = None
        self.help: QWidget | None = None
        self._expanded = False

        cls = editor_class(field.kind)
        self.is_container = bool(cls.container)
        self._layout = vbox(self, 2)
        self._header = None
        if show_header:
            self._header = hbox(None, 4)
            self._layout.addLayout(self._header)
            text = self.label_text + (" *" if field.required and field.path else "")
            if self.is_container:
                self.toggle = QToolButton(self)
                self.toggle.setText(visible_line(text))  # a schema title: the server's words
                self.toggle.setAutoRaise(True)
                self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
                self.toggle.setAccessibleName(fill(self.tr("Show or hide %1"), self.label_text))
                font = self.toggle.font()
                font.setBold(True)
                self.toggle.setFont(font)
                self._header.addWidget(self.toggle)
            elif not cls.inline_label:
                self.title = plain_label(text, self, wrap=True)
                font = self.title.font()
                font.setBold(True)
                self.title.setFont(font)
                self._header.addWidget(self.title, 1)
            if self.title is None:
                self._header.addStretch(1)
            if field.nullable:
                # "Not set" in words (never "null"); the protocol word only in the tooltip.
                self._null = QToolButton(self)
                self._null.setText(self.tr("Not set"))
                self._null.setCheckable(True)
                self._null.setToolTip(
                    self.tr("Send this field as empty (null) instead of leaving it out of the request")
                )
                self._null.setAccessibleName(fill(self.tr("%1 is not set"), self.label_text))
                self._null.toggled.connect(self._on_null_toggled)
                self._header.addWidget(self._null)
        if self.env.developer:
            self.show_developer(True)
        if field.help and show_header:
            self.help = make_help(field.help, self.label_text, self)

        if expanded is None:
            # Groups of fields (objects, alternatives) start closed unless required near the top: they
            # are built when opened. A list starts open: it is only an "Add item" button until used.
            expanded = not self.is_container or field.kind == "array" or (field.required and len(path) <= 3)
        initial = field.initial_value() if field.required else MISSING
        if self.toggle is not None:
            self._expanded = expanded
            self.toggle.setArrowType(Qt.ArrowType.DownArrow if expanded else Qt.ArrowType.RightArrow)
            self.toggle.clicked.connect(self._on_toggle_clicked)
        if self.help is not None and self.is_container:
            self._layout.addWidget(self.help)
        if expanded or self.toggle is None:
            self._build_editor()
        if initial is not MISSING:
            self.set_value(initial)
        elif self.editor is not None:
            self.editor.reset()
        if self.help is not None and not self.is_container:
            self._layout.addWidget(self.help)

    # -- building ----------------------------------------------------------------------------------------

    def _build_editor(self) -> None:
        if self.editor is not None:
            return
        if self.is_container and len(self.path) > MAX_NESTING:
            # Widgets nested this deep help nobody and strain Qt's layouts: the rest is edited as JSON.
            editor = editor_class("json")(self.field, self.env, self)
        else:
            editor = self.env.make_editor(self.field, self)
        widget = editor.as_widget()
        if editor.inline_label:
            editor.set_inline_text(
                visible_line(self.label_text + (" *" if self.field.required and self.field.path else ""))
            )
        if editor.inline_label and self._header is not None:
            self._header.insertWidget(0, widget)
        else:
            index = self._layout.indexOf(self.help) if (self.help and not self.is_container) else -1
            if index >= 0:
                self._layout.insertWidget(index, widget)
            else:
                self._layout.addWidget(widget)
        editor.set_access_name(self.label_text)
        if self.field.help:
            widget.setAccessibleDescription(help_text(self.field.help)[0][:300])
        if self.env.developer and editor.inline_label:
            widget.setToolTip(plain_tooltip(schema_note(self.field)))
        editor.on_edit = self._on_editor_edited
        self.editor = editor
        if self._raw is not None:
            widget.hide()
        if self.is_null:
            editor.set_enabled_for_value(False)
        pending, self._pending = self._pending, MISSING
        if pending is not MISSING and self._raw is None:
            self._fill_editor(pending)
        else:
            editor.reset()

    def ensure_built(self) -> None:
        if self.editor is None:
            if self.toggle is not None:
                self.set_expanded(True)
            else:
                self._build_editor()

    @Slot()
    def _on_toggle_clicked(self) -> None:
        self.set_expanded(not self._expanded)

    @property
    def expanded(self) -> bool:
        return self.toggle is None or self._expanded

    def set_expanded(self, expanded: bool) -> None:
        """Open or close a group; its fields are built the first time it opens."""
        if self.toggle is None:
            return
        self._expanded = expanded
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if expanded else Qt.ArrowType.RightArrow)
        if expanded and self.editor is None:
            self._build_editor()
        if self.editor is not None:
            self.editor.as_widget().setVisible(expanded and self._raw is None)
        if self._raw_box is not None:
            self._raw_box.setVisible(expanded)
        self.env.structure_changed()

    # -- value -------------------------------------------------------------------------------------------

    def value(self) -> Any:
        if self._raw is not None:
            return self._raw.value()
        if not self.is_set:
            return MISSING
        if self.is_null:
            return None
        if self.editor is None:
            return self._pending
        return self.editor.value()

    def set_value(self, value: Any) -> None:
        """Show `value` (MISSING = not set). Never loses it: what the editor cannot show goes to JSON."""
        self._leave_raw()
        self._set_null(False)
        if value is MISSING:
            self.is_set = False
            self._pending = MISSING
            if self.editor is not None:
                self.editor.reset()
        elif value is None and self.field.nullable:
            self.is_set = True
            self._set_null(True)
        elif not self.field.accepts(value):
            self.is_set = True
            self._enter_raw(value)
        else:
            self.is_set = True
            if self.editor is None:
                self._pending = value
            else:
                self._fill_editor(value)
        self._update_buttons()

    def _fill_editor(self, value: Any) -> None:
        assert self.editor is not None
        try:
            self.editor.set_value(value)
            shown = self.editor.value()
        except Exception as exc:  # an editor bug must not lose the value: fall back to JSON
            logger.warning("editor for %s could not show a value: %r", self.field.kind, exc)
            shown = MISSING
        if not json_equal(shown, value):
            self.editor.reset()
            self._enter_raw(value)

    def reset(self) -> None:
        """Back to the untouched state (required defaults filled in, optional fields left out)."""
        initial = self.field.initial_value() if self.field.required else MISSING
        self.set_value(initial)

    # -- raw JSON fallback -------------------------------------------------------------------------------

    def _enter_raw(self, value: Any) -> None:
        if self._raw is None:
            box = QWidget(self)
            layout = vbox(box, 2)
            note = plain_label(
                self.tr("The form cannot show this value exactly, so it is shown as JSON."), box
            )
            note.setObjectName("formRawNote")
            back = QPushButton(self.tr("Use the form"), box)
            back.setAccessibleName(fill(self.tr("Edit %1 with the form again"), self.label_text))
            back.clicked.connect(self._back_to_form)
            line = hbox(None)
            line.addWidget(note, 1)
            line.addWidget(back)
            layout.addLayout(line)
            raw = editor_class("json")(_raw_field(self.field), self.env, box)
            raw.set_access_name(fill(self.tr("%1 (JSON)"), self.label_text))
            raw.on_edit = self._on_raw_edited
            layout.addWidget(raw.as_widget())
            index = self._layout.indexOf(self.editor.as_widget()) if self.editor is not None else -1
            if index >= 0:
                self._layout.insertWidget(index + 1, box)
            else:
                self._layout.addWidget(box)
            self._raw, self._raw_box = raw, box
            if self.editor is not None:
                self.editor.as_widget().hide()
            self.env.structure_changed()
        self._raw.set_value(value)

    def _leave_raw(self) -> None:
        if self._raw is None:
            return
        box, self._raw, self._raw_box = self._raw_box, None, None
        assert box is not None
        box.hide()
        box.deleteLater()
        if self.editor is not None and self.expanded:
            self.editor.as_widget().setVisible(True)
        self.env.structure_changed()

    @Slot()
    def _back_to_form(self) -> None:
        value = self._raw.value() if self._raw is not None else MISSING
        if (
            value is not MISSING
            and not self.field.accepts(value)
            and not (value is None and self.field.nullable)
        ):
            self.show_errors([self.tr("This value does not fit the form; keep editing it as JSON.")])
            return
        self.set_value(value)
        self.on_changed()

    @Slot()
    def _on_raw_edited(self) -> None:
        self.is_set = True
        self._update_buttons()
        self.on_changed()

    # -- user actions ------------------------------------------------------------------------------------

    @Slot()
    def _on_editor_edited(self) -> None:
        assert self.editor is not None
        self.is_set = True if self.is_container else not self.editor.is_empty()
        self._update_buttons()
        self.on_changed()

    def _set_null(self, null: bool) -> None:
        self.is_null = null
        if self._null is not None and self._null.isChecked() != null:
            self._null.blockSignals(True)
            self._null.setChecked(null)
            self._null.blockSignals(False)
        if self.editor is not None:
            self.editor.set_enabled_for_value(not null)

    @Slot(bool)
    def _on_null_toggled(self, checked: bool) -> None:
        self._set_null(checked)
        if checked:
            self.is_set = True
        else:
            self.is_set = self.editor is not None and (self.is_container or not self.editor.is_empty())
        self._update_buttons()
        self.on_changed()

    @Slot()
    def _on_clear(self) -> None:
        self.set_value(MISSING)
        self.on_changed()
        if self.editor is not None:
            chain = self.editor.focus_chain()
            if chain:
                chain[0].setFocus()

    def _update_buttons(self) -> None:
        if self._header is None or self.field.required:
            return
        if self.is_set and self._clear is None:
            self._clear = QToolButton(self)
            self._clear.setText(self.tr("Clear"))
            self._clear.setAutoRaise(True)
            self._clear.setToolTip(self.tr("Leave this field empty"))
            self._clear.setAccessibleName(fill(self.tr("Clear %1"), self.label_text))
            self._clear.clicked.connect(self._on_clear)
            self._header.addWidget(self._clear)
            self.env.structure_changed()
        if self._clear is not None:
            self._clear.setVisible(self.is_set)

    # -- errors and navigation ---------------------------------------------------------------------------

    def show_errors(self, messages: list[str]) -> None:
        if not messages:
            if self._error_label is not None:
                self._error_label.hide()
            return
        if self._error_label is None:
            self._error_label = plain_label("", self)
            self._error_label.setObjectName("formError")
            mark_as_error(self._error_label)
            self._error_label.setAccessibleName(fill(self.tr("Problem with %1"), self.label_text))
            self._layout.addWidget(self._error_label)
        self._error_label.setText("\n".join(dict.fromkeys(messages)))
        self._error_label.show()

    def clear_all_errors(self) -> None:
        self.show_errors([])
        for _key, row in self.child_items():
            row.clear_all_errors()

    def as_widget(self) -> QWidget:
        return self

    def child_row(self, key: str | int) -> Row | None:
        if self._raw is not None or self.is_null:
            return None
        self.ensure_built()
        return self.editor.child_row(key) if self.editor is not None else None

    def child_items(self) -> list[tuple[str | int | None, Row]]:
        if self.editor is None or self._raw is not None or self.is_null:
            return []
        return self.editor.child_items()

    def local_errors(self, path: Path = ()) -> list[FieldError]:
        """Problems in what was typed (not a number, JSON that does not parse), found before validation."""
        if not self.is_set and self._raw is None:
            return []
        out: list[FieldError] = []
        source = self._raw if self._raw is not None else (None if self.is_null else self.editor)
        if source is not None:
            out.extend(FieldError(path, m, "input") for m in source.local_errors())
        for key, row in self.child_items():
            out.extend(row.local_errors(path if key is None else (*path, key)))
        return out

    def focus_target(self) -> QWidget:
        if self._raw is not None:
            return self._raw.as_widget()
        if self.editor is not None and self.editor.as_widget().isEnabled():
            chain = self.editor.focus_chain()
            if chain:
                return chain[0]
        return self.toggle or self._null or self

    def focus_chain(self) -> list[QWidget]:
        chain: list[QWidget] = []
        if self.editor is not None and self.editor.inline_label:
            chain.extend(self.editor.focus_chain())
        if self.toggle is not None:
            chain.append(self.toggle)
        if self._null is not None:
            chain.append(self._null)
        if self._clear is not None:
            chain.append(self._clear)
        if self._raw is not None and self._raw_box is not None:
            chain.extend(b for b in self._raw_box.findChildren(QPushButton))
            chain.append(self._raw.as_widget())
        elif (
            self.editor is not None
            and not self.editor.inline_label
            and self.editor.as_widget().isVisibleTo(self)
        ):
            chain.extend(self.editor.focus_chain())
        more = getattr(self.help, "more", None)
        if more is not None:
            chain.append(more)
        return chain

    def show_developer(self, on: bool) -> None:
        """Developer mode: the schema behind the field in the label's tooltip (plain text); off: none."""
        note = plain_tooltip(schema_note(self.field)) if on else ""
        for widget in (self.title, self.toggle):
            if widget is not None:
                widget.setToolTip(note)
        if self.editor is not None and self.editor.inline_label:
            self.editor.as_widget().setToolTip(note)

    def set_label(self, label: str) -> None:
        """Rename the row (list items are renumbered when moved)."""
        self.label_text = label
        if self.toggle is not None:
            self.toggle.setText(visible_line(label))
            self.toggle.setAccessibleName(fill(self.tr("Show or hide %1"), label))
        if self.title is not None:
            self.title.setText(label)
        if self.editor is not None:
            self.editor.set_access_name(label)
        if self._null is not None:
            self._null.setAccessibleName(fill(self.tr("%1 is not set"), label))


def _nothing() -> None:
    pass


def _raw_field(field: Field) -> Field:
    return JsonField(
        kind="json", schema={}, name=field.name, label=field.label, required=True, path=field.path
    )
