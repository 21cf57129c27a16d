"""Editors that hold other rows: objects (plus their key/value map), lists, multi-select, alternatives."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer, Slot
from PySide6.QtWidgets import (
    QFrame,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QToolButton,
    QWidget,
)

from app.forms import ArrayField, Field, MultiChoiceField, ObjectField, VariantField
from app.forms.registry import build_field
from app.forms.values import MISSING, json_equal
from app.ui.forms.base import fill, hbox, plain_label, vbox
from app.ui.forms.editor import EditorMixin, FormEnv, Row, register_editor
from app.ui.forms.messages import variant_title
from app.ui.forms.row import FieldRow
from app.ui.forms.scalar_editors import _NoWheelCombo, choice_label
from app.ui.safe_text import visible_line
from app.ui.widgets import tool_button

logger = logging.getLogger(__name__)


class ListHint(QObject):
    """Words for how many entries a list takes, with the plural forms of the language ("%n" is only
    found as a plural by lupdate in `self.tr`, hence a QObject)."""

    def text(self, least: int | None, most: int | None) -> str:
        parts = []
        if least:
            parts.append(self.tr("at least %n item(s)", "", least))
        if most is not None:
            parts.append(self.tr("at most %n item(s)", "", most))
        if len(parts) == 2:
            return fill(self.tr("Choose %1 and %2"), *parts)
        return fill(self.tr("Choose %1"), parts[0]) if parts else ""


_LIST_HINT: ListHint | None = None


def _count_hint(least: int | None, most: int | None) -> str:
    global _LIST_HINT
    if not least and most is None:
        return ""
    if _LIST_HINT is None:
        _LIST_HINT = ListHint()
    return _LIST_HINT.text(least, most)


def _indent(widget: QWidget) -> None:
    """Nested groups sit a little to the right, with a line on the left, so the nesting can be seen."""
    widget.setContentsMargins(12, 2, 0, 4)


class _Entries(QWidget):
    """Rows with "move up / move down / remove" buttons and an "Add" button: shared by lists and maps."""

    def __init__(self, owner: str, add_text: str, add_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.owner = owner
        self._layout = vbox(self, 4)
        self.entries: list[QWidget] = []
        self.add_button = QPushButton(add_text, self)
        self.add_button.setAccessibleName(add_name)
        self.add_button.setAutoDefault(False)
        line = hbox(None)
        line.addWidget(self.add_button)
        line.addStretch(1)
        self._layout.addLayout(line)

    def insert(self, entry: QWidget) -> None:
        self._layout.insertWidget(len(self.entries), entry)
        self.entries.append(entry)

    def remove(self, entry: QWidget) -> None:
        self.entries.remove(entry)
        self._layout.removeWidget(entry)
        entry.hide()
        entry.deleteLater()

    def move_entry(self, entry: QWidget, delta: int) -> bool:
        index = self.entries.index(entry)
        target = index + delta
        if not 0 <= target < len(self.entries):
            return False
        self.entries.insert(target, self.entries.pop(index))
        self._layout.removeWidget(entry)
        self._layout.insertWidget(target, entry)
        return True

    def clear_all(self) -> None:
        for entry in list(self.entries):
            self.remove(entry)


FIRST_ROWS = 16
"""A wide object builds this many rows at once and the rest on the next turns of the event loop (in
chunks of `MORE_ROWS`), so the first screen appears quickly; whatever needs them builds them at once."""
MORE_ROWS = 24


@register_editor("object")
class ObjectEditor(QFrame, EditorMixin):
    """Named properties as rows; extra keys (additionalProperties, or keys the schema does not name) in a
    key/value editor below them.
    """

    container = True

    def __init__(self, field: Field, env: FormEnv, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        assert isinstance(field, ObjectField)
        self.field: ObjectField = field
        self.env = env
        self._label = field.label
        path = parent.path if isinstance(parent, FieldRow) else field.path
        self.path = path
        if path:
            _indent(self)
            self.setFrameShape(QFrame.Shape.NoFrame)
        self._layout = vbox(self, 8)
        self.rows: dict[str, FieldRow] = {}
        self._names = {prop.name or "" for prop in field.properties}
        self._todo = list(field.properties)
        """Properties whose rows are not built yet."""
        self._pending: dict[str, Any] = {}
        """Values given to rows not built yet (MISSING = leave it out)."""
        self._build_rows(FIRST_ROWS)
        self.map: MapEditor | None = None
        if field.additional_field is not None:
            self._make_map(field.additional_field)
        self.empty_note: QLabel | None = None
        if not field.properties and field.additional_field is None:
            # The arguments themselves: a tool that takes nothing. Say so, so nobody looks for a field.
            text = env.empty_text if not path else QCoreApplication.translate("FormWidget", "No settings.")
            self.empty_note = plain_label(text, self)
            self.empty_note.setObjectName("formEmpty")
            self._layout.addWidget(self.empty_note)
        if self._todo:
            QTimer.singleShot(0, self, self._build_more)

    def _build_rows(self, count: int) -> None:
        for prop in self._todo[:count]:
            name = prop.name or ""
            row = FieldRow(prop, self.env, self, path=(*self.path, name))
            if name in self._pending:
                row.set_value(self._pending.pop(name))
            row.on_changed = self._edited
            self._layout.insertWidget(len(self.rows), row)
            self.rows[name] = row
        del self._todo[:count]

    @Slot()
    def _build_more(self) -> None:
        if self._todo:
            self._build_rows(MORE_ROWS)
            self.env.structure_changed()
        if self._todo:
            QTimer.singleShot(0, self, self._build_more)

    def finish_building(self) -> None:
        """Build the rows still waiting (and those of groups already open inside them)."""
        if self._todo:
            self._build_rows(len(self._todo))
            self.env.structure_changed()
        for row in self.rows.values():
            if isinstance(row.editor, ObjectEditor):
                row.editor.finish_building()

    def _unbuilt_value(self, prop: Field) -> Any:
        name = prop.name or ""
        if name in self._pending:
            return self._pending[name]
        return prop.initial_value() if prop.required else MISSING

    def _make_map(self, value_field: Field) -> MapEditor:
        if self.map is None:
            # Named fields above, free entries (name and value) below: "More entries", never the
            # schema's "additional properties".
            title = self.tr("More entries") if self.field.properties else ""
            self.map = MapEditor(
                value_field, self.env, self, owner=self.row_label(), path=self.path, title=title
            )
            self.map.on_changed = self._edited
            self._layout.addWidget(self.map)
            self.env.structure_changed()
        return self.map

    def row_label(self) -> str:
        return self._label

    def value(self) -> Any:
        out: dict[str, Any] = {}
        for prop in self.field.properties:
            name = prop.name or ""
            row = self.rows.get(name)
            item = row.value() if row is not None else self._unbuilt_value(prop)
            if item is not MISSING:
                out[name] = item
        if self.map is not None:
            for key, item in self.map.items():
                out.setdefault(key, item)
        return out

    def set_value(self, value: Any) -> None:
        for name, row in self.rows.items():
            row.set_value(value.get(name, MISSING))
        for prop in self._todo:
            self._pending[prop.name or ""] = value.get(prop.name or "", MISSING)
        extra = {k: v for k, v in value.items() if k not in self._names}
        if extra and self.map is None:
            # Keys the schema does not name are kept and shown, never dropped.
            self._make_map(build_field(self.env.form.context, {}, None, True, self.path))
        if self.map is not None:
            self.map.set_items(extra)

    def reset(self) -> None:
        for row in self.rows.values():
            row.reset()
        self._pending.clear()
        if self.map is not None:
            self.map.set_items({})

    def is_empty(self) -> bool:
        return False

    def focus_chain(self) -> list[QWidget]:
        chain: list[QWidget] = []
        for row in self.rows.values():
            chain.extend(row.focus_chain())
        if self.map is not None:
            chain.extend(self.map.focus_chain())
        return chain

    def set_access_name(self, name: str) -> None:
        self.setAccessibleName(name)
        self._label = name  # the row's label: extra entries are named after it

    def child_row(self, key: str | int) -> Row | None:
        if isinstance(key, str) and key in self._names and key not in self.rows:
            self._build_rows(len(self._todo))
            self.env.structure_changed()
        if isinstance(key, str) and key in self.rows:
            return self.rows[key]
        return self.map.child_row(key) if self.map is not None else None

    def child_items(self) -> list[tuple[str | int | None, Row]]:
        items: list[tuple[str | int | None, Row]] = list(self.rows.items())
        if self.map is not None:
            items.extend(self.map.child_items())
        return items

    def set_enabled_for_value(self, enabled: bool) -> None:
        self.setEnabled(enabled)


class MapEditor(QWidget):
    """Key/value pairs for `additionalProperties`, values typed by its schema; `on_changed()` is called
    when the user adds, removes, renames or edits an entry."""

    def __init__(
        self,
        value_field: Field,
        env: FormEnv,
        parent: QWidget | None,
        *,
        owner: str,
        path: tuple[str | int, ...],
        title: str,
    ) -> None:
        super().__init__(parent)
        self.value_field, self.env, self.owner, self.path = value_field, env, owner, path
        self.on_changed: Callable[[], None] = lambda: None
        layout = vbox(self, 4)
        if title:
            heading = plain_label(title, self)
            heading.setObjectName("formMoreEntries")
            layout.addWidget(heading)
        self.entries = _Entries(
            owner, self.tr("Add an entry"), fill(self.tr("Add an entry to %1"), owner), self
        )
        self.entries.add_button.clicked.connect(self._on_add)
        layout.addWidget(self.entries)
        self._keys: dict[QWidget, QLineEdit] = {}
        self._rows: dict[QWidget, FieldRow] = {}
        self._names: dict[QWidget, str] = {}

    def _add(self, key: str, value: Any) -> QWidget:
        entry = QWidget(self.entries)
        line = hbox(entry, 4)
        key_edit = QLineEdit(entry)
        key_edit.setPlaceholderText(self.tr("name"))
        key_edit.setText(key)
        key_edit.setAccessibleName(fill(self.tr("Name of an entry in %1"), self.owner))
        key_edit.setMaximumWidth(220)
        key_edit.textEdited.connect(self._on_key_edited)
        row = FieldRow(
            self.value_field,
            self.env,
            entry,
            path=(*self.path, key),
            label=fill(self.tr("Value of %1"), key) if key else self.tr("Value of the entry"),
            show_header=self.value_field.kind in ("object", "array", "variants"),
        )
        row.set_value(value)
        row.on_changed = lambda: self.on_changed()
        remove = tool_button("✕", entry, tip=self.tr("Remove this entry"), auto_raise=True)
        remove.setAccessibleName(fill(self.tr("Remove entry %1 from %2"), key, self.owner))
        remove.clicked.connect(lambda: self._on_remove(entry))
        line.addWidget(key_edit, 0, Qt.AlignmentFlag.AlignTop)
        line.addWidget(row, 1)
        line.addWidget(remove, 0, Qt.AlignmentFlag.AlignTop)
        self._keys[entry] = key_edit
        # The key as given: a line edit may change some characters (a no-break space becomes a space),
        # so the text is only read back once the user edits it.
        self._names[entry] = key
        self._rows[entry] = row
        self.entries.insert(entry)
        return entry

    @Slot()
    def _on_add(self) -> None:
        entry = self._add("", self.value_field.initial_value())
        self._keys[entry].setFocus()
        self.env.structure_changed()
        self.on_changed()

    def _on_remove(self, entry: QWidget) -> None:
        self._keys.pop(entry)
        self._rows.pop(entry)
        self._names.pop(entry)
        self.entries.remove(entry)
        self.env.structure_changed()
        self.on_changed()

    @Slot()
    def _on_key_edited(self) -> None:
        for entry, key_edit in self._keys.items():
            if key_edit.isModified():
                self._names[entry] = key_edit.text()
            self._rows[entry].path = (*self.path, self._names[entry])
        self.on_changed()

    def items(self) -> list[tuple[str, Any]]:
        out = []
        for entry in self.entries.entries:
            key = self._names[entry]
            value = self._rows[entry].value()
            if value is MISSING:
                if not key:
                    continue
                value = None
            out.append((key, value))
        return out

    def set_items(self, items: dict[str, Any]) -> None:
        self.entries.clear_all()
        self._keys.clear()
        self._rows.clear()
        self._names.clear()
        for key, value in items.items():
            self._add(key, value)
        self.env.structure_changed()

    def focus_chain(self) -> list[QWidget]:
        chain: list[QWidget] = []
        for entry in self.entries.entries:
            chain.append(self._keys[entry])
            chain.extend(self._rows[entry].focus_chain())
            chain.extend(entry.findChildren(QToolButton, options=Qt.FindChildOption.FindDirectChildrenOnly))
        chain.append(self.entries.add_button)
        return chain

    def child_row(self, key: str | int) -> Row | None:
        for entry, name in self._names.items():
            if name == key:
                return self._rows[entry]
        return None

    def child_items(self) -> list[tuple[str | int | None, Row]]:
        return [(self._names[e], self._rows[e]) for e in self.entries.entries]


@register_editor("array")
class ArrayEditor(QWidget, EditorMixin):
    """A list: add, remove and move items; items can be anything (objects, lists, alternatives)."""

    container = True

    def __init__(self, field: Field, env: FormEnv, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        assert isinstance(field, ArrayField)
        self.field: ArrayField = field
        self.env = env
        self.path = parent.path if isinstance(parent, FieldRow) else field.path
        _indent(self)
        layout = vbox(self, 4)
        self.owner = field.label
        self.entries = _Entries(self.owner, self.tr("Add item"), self._add_name(self.owner), self)
        self.entries.add_button.clicked.connect(self._on_add)
        layout.addWidget(self.entries)
        self._rows: dict[QWidget, FieldRow] = {}
        self._buttons: dict[QWidget, list[QToolButton]] = {}
        tip = _count_hint(field.min_items, field.max_items)
        if tip:
            self.entries.add_button.setToolTip(tip)

    def _item_is_container(self) -> bool:
        return self.field.item_field.kind in ("object", "array", "variants")

    def _add(self, value: Any) -> QWidget:
        entry = QWidget(self.entries)
        line = hbox(entry, 2)
        index = len(self.entries.entries)
        row = FieldRow(
            self.field.item_field,
            self.env,
            entry,
            path=(*self.path, index),
            label=self._label(index),
            show_header=self._item_is_container(),
            expanded=True,
        )
        row.set_value(value)
        row.on_changed = self._edited
        line.addWidget(row, 1)
        buttons = []
        for text, tip, handler in (
            ("↑", self.tr("Move up"), lambda: self._on_move(entry, -1)),
            ("↓", self.tr("Move down"), lambda: self._on_move(entry, 1)),
            ("✕", self.tr("Remove"), lambda: self._on_remove(entry)),
        ):
            button = tool_button(text, entry, tip=tip, auto_raise=True)
            button.clicked.connect(handler)
            line.addWidget(button, 0, Qt.AlignmentFlag.AlignTop)
            buttons.append(button)
        self._rows[entry] = row
        self._buttons[entry] = buttons
        self.entries.insert(entry)
        self._renumber()
        return entry

    def _label(self, index: int) -> str:
        return fill(self.tr("%1 item %2"), self.owner, str(index + 1))

    def _add_name(self, owner: str) -> str:
        return fill(self.tr("Add an item to %1"), owner)

    def _renumber(self) -> None:
        count = len(self.entries.entries)
        for index, entry in enumerate(self.entries.entries):
            row = self._rows[entry]
            row.path = (*self.path, index)
            label = self._label(index)
            row.set_label(label)
            up, down, remove = self._buttons[entry]
            up.setAccessibleName(fill(self.tr("Move %1 up"), label))
            down.setAccessibleName(fill(self.tr("Move %1 down"), label))
            remove.setAccessibleName(fill(self.tr("Remove %1"), label))
            up.setEnabled(index > 0)
            down.setEnabled(index < count - 1)
        full = self.field.max_items is not None and count >= self.field.max_items
        self.entries.add_button.setEnabled(not full)

    @Slot()
    def _on_add(self) -> None:
        initial = self.field.item_field.initial_value()
        entry = self._add(initial)
        self.env.structure_changed()
        self._rows[entry].focus_target().setFocus()
        self.notify()

    def _on_remove(self, entry: QWidget) -> None:
        self._rows.pop(entry)
        self._buttons.pop(entry)
        self.entries.remove(entry)
        self._renumber()
        self.env.structure_changed()
        self.notify()

    def _on_move(self, entry: QWidget, delta: int) -> None:
        if self.entries.move_entry(entry, delta):
            self._renumber()
            self.env.structure_changed()
            button = self._buttons[entry][0 if delta < 0 else 1]
            (button if button.isEnabled() else self._rows[entry].focus_target()).setFocus()
            self.notify()

    def value(self) -> Any:
        out = []
        for entry in self.entries.entries:
            item = self._rows[entry].value()
            out.append(None if item is MISSING else item)
        return out

    def set_value(self, value: Any) -> None:
        self.entries.clear_all()
        self._rows.clear()
        self._buttons.clear()
        for item in value:
            self._add(item)
        self.env.structure_changed()

    def reset(self) -> None:
        default = self.field.default
        self.set_value(default if isinstance(default, list) else [])

    def is_empty(self) -> bool:
        return False

    def set_access_name(self, name: str) -> None:
        self.setAccessibleName(name)
        if self.owner != name:
            self.owner = name
            self.entries.add_button.setAccessibleName(self._add_name(name))
            self._renumber()

    def focus_chain(self) -> list[QWidget]:
        chain: list[QWidget] = []
        for entry in self.entries.entries:
            chain.extend(self._rows[entry].focus_chain())
            chain.extend(self._buttons[entry])
        chain.append(self.entries.add_button)
        return chain

    def child_row(self, key: str | int) -> Row | None:
        if isinstance(key, int) and 0 <= key < len(self.entries.entries):
            return self._rows[self.entries.entries[key]]
        return None

    def child_items(self) -> list[tuple[str | int | None, Row]]:
        return [(i, self._rows[e]) for i, e in enumerate(self.entries.entries)]


@register_editor("multichoice")
class MultiChoiceEditor(QListWidget, EditorMixin):
    """Several values from a list (an array of enums): tick boxes, sent in list order."""

    def __init__(self, field: Field, env: FormEnv, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        assert isinstance(field, MultiChoiceField)
        self.field: MultiChoiceField = field
        self.env = env
        self._quiet = False
        self.setUniformItemSizes(True)
        for choice in field.choices:
            item = QListWidgetItem(visible_line(choice_label(choice)), self)
            item.setFlags(
                Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
            )
            item.setCheckState(Qt.CheckState.Unchecked)
        rows = min(max(len(field.choices), 1), 8)
        self.setFixedHeight(
            self.sizeHintForRow(0) * rows + 2 * self.frameWidth() + 4 if field.choices else 40
        )
        self.itemChanged.connect(self._on_item_changed)
        tip = _count_hint(field.min_items, field.max_items)
        if tip:
            self.setToolTip(tip)

    @Slot(QListWidgetItem)
    def _on_item_changed(self, _item: QListWidgetItem) -> None:
        if not self._quiet:
            self.notify()

    def value(self) -> Any:
        return [
            c.value
            for i, c in enumerate(self.field.choices)
            if self.item(i).checkState() == Qt.CheckState.Checked
        ]

    def set_value(self, value: Any) -> None:
        self._quiet = True
        try:
            for i, choice in enumerate(self.field.choices):
                ticked = any(json_equal(choice.value, v) for v in value)
                self.item(i).setCheckState(Qt.CheckState.Checked if ticked else Qt.CheckState.Unchecked)
        finally:
            self._quiet = False

    def reset(self) -> None:
        default = self.field.default
        self.set_value(default if isinstance(default, list) else [])

    def is_empty(self) -> bool:
        return False


@register_editor("variants")
class VariantEditor(QWidget, EditorMixin):
    """Alternatives (`oneOf`/`anyOf`, or several types): a picker, and the chosen alternative below it.

    Only alternatives the user picks are built (a schema with 147 alternatives builds one).
    """

    container = True

    def __init__(self, field: Field, env: FormEnv, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        assert isinstance(field, VariantField)
        self.field: VariantField = field
        self.env = env
        self.path = parent.path if isinstance(parent, FieldRow) else field.path
        layout = vbox(self, 4)
        line = hbox(None)
        self.kind_label = plain_label(self.tr("Kind:"), self, wrap=False)
        self.picker = _NoWheelCombo(self)
        self.picker.addItems([visible_line(variant_title(v)) for v in field.variants])
        self.picker.setMaxVisibleItems(20)
        self.picker.setSizeAdjustPolicy(_NoWheelCombo.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.picker.setMinimumContentsLength(16)
        line.addWidget(self.kind_label)
        line.addWidget(self.picker, 1)
        layout.addLayout(line)
        self.rows: dict[int, FieldRow] = {}
        self._layout = layout
        self.current = -1
        self.picker.activated.connect(self._on_picked)
        self._show(0)

    def _option_row(self, index: int) -> FieldRow:
        row = self.rows.get(index)
        if row is None:
            option = self.field.option(index)
            row = FieldRow(option, self.env, self, path=self.path, label=self.field.label, show_header=False)
            row.on_changed = self._edited
            self._layout.addWidget(row)
            self.rows[index] = row
            if option.kind in ("object", "array"):
                row.setContentsMargins(0, 0, 0, 0)
        return row

    def _show(self, index: int) -> None:
        if index == self.current or not self.field.variants:
            return
        for i, row in self.rows.items():
            if i != index:
                row.setVisible(False)
        self.current = index
        row = self._option_row(index)
        if row.isHidden():
            row.setVisible(True)
        if self.picker.currentIndex() != index:
            self.picker.setCurrentIndex(index)
        self.env.structure_changed()

    @Slot(int)
    def _on_picked(self, index: int) -> None:
        self._show(index)
        self.notify()

    def pick_for(self, value: Any) -> int | None:
        """The alternative that fits `value`: by discriminator, else the first that validates, else the
        first whose field can show it."""
        field = self.field
        candidates: list[int] | range = range(len(field.variants))
        if field.discriminator is not None and isinstance(value, dict) and field.discriminator in value:
            named = [
                i for i in candidates if json_equal(field.discriminator_value(i), value[field.discriminator])
            ]
            if len(named) == 1:
                return named[0]
            candidates = named or candidates
        fitting = [i for i in candidates if field.option(i).accepts(value)]
        for i in fitting:
            if self.env.form.validate_at(field.variants[i].schema, value):
                return i
        return fitting[0] if fitting else None

    def value(self) -> Any:
        if self.current < 0:
            return MISSING
        return self.rows[self.current].value()

    def set_value(self, value: Any) -> None:
        if self.current >= 0 and json_equal(self.rows[self.current].value(), value):
            return  # already showing it (the initial value of a new form comes from the first alternative)
        index = self.pick_for(value)
        if index is None:
            return
        self._show(index)
        self.rows[index].set_value(value)

    def reset(self) -> None:
        self._show(0)
        for row in self.rows.values():
            row.reset()

    def is_empty(self) -> bool:
        return self.value() is MISSING

    def set_access_name(self, name: str) -> None:
        self.setAccessibleName(name)
        self.picker.setAccessibleName(fill(self.tr("Kind of %1"), name))

    def focus_chain(self) -> list[QWidget]:
        chain: list[QWidget] = [self.picker]
        if self.current >= 0:
            chain.extend(self.rows[self.current].focus_chain())
        return chain

    def child_row(self, key: str | int) -> Row | None:
        if self.current < 0:
            return None
        return self.rows[self.current].child_row(key)

    def child_items(self) -> list[tuple[str | int | None, Row]]:
        return [(None, self.rows[self.current])] if self.current >= 0 else []
