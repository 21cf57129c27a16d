"""The editor registry, and the interfaces between the form's parts.

An *editor* shows one field's value (a line edit, a pick list, a group of rows...). A `FieldRow`
(row.py) wraps it with the label, help, required mark, the "Not set" toggle, "Clear" and the error
text. Editors are found by field kind in `EDITORS` (a table, as in magicgui and rjsf);
`register_editor("kind")` adds or replaces one.

Two protocols keep the imports one way (this module knows no row, no editor class):
- `Editor`: what a row asks of its editor; `EditorMixin` gives the defaults, mixed into a QWidget.
- `Row`: what the form and container editors ask of the rows inside an editor (`child_row`...);
  `FieldRow` is one.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QAbstractButton, QWidget

from app.forms import Field, FieldError, Form
from app.forms.values import MISSING

if TYPE_CHECKING:
    from app.ui.forms.completion import Completer

logger = logging.getLogger(__name__)

Path = tuple[str | int, ...]


class Row(Protocol):
    """A field's row as the form and the container editors see it (`FieldRow`)."""

    def child_row(self, key: str | int) -> Row | None: ...
    def child_items(self) -> list[tuple[str | int | None, Row]]: ...
    def local_errors(self, path: Path = ()) -> list[FieldError]: ...
    def show_errors(self, messages: list[str]) -> None: ...
    def clear_all_errors(self) -> None: ...
    def focus_target(self) -> QWidget: ...
    def show_developer(self, on: bool) -> None: ...
    def as_widget(self) -> QWidget: ...


class Editor(Protocol):
    """What a row asks of the editor of its field (`EditorMixin` has the defaults).

    `value()` returns MISSING when the editor is empty; `set_value()` is only given values the field
    `accepts()`; `reset()` returns to the untouched look (the default shown, nothing entered).
    """

    inline_label: bool
    """True when the editor shows the label itself (a check box's text), so the row shows no label."""
    container: bool
    """True for editors holding other rows (objects, lists, alternatives): shown in a collapsible group."""

    @property
    def field(self) -> Field: ...  # read-only here: an editor may narrow it (`NumberField`)
    @property
    def env(self) -> FormEnv: ...

    on_edit: Callable[[], None] | None
    """Set by the row: called (through `notify()`) when the person changed the value."""

    def __init__(self, field: Field, env: FormEnv, parent: QWidget | None = None) -> None: ...
    def as_widget(self) -> QWidget: ...
    def notify(self) -> None: ...
    def value(self) -> Any: ...
    def set_value(self, value: Any) -> None: ...
    def reset(self) -> None: ...
    def is_empty(self) -> bool: ...
    def focus_chain(self) -> list[QWidget]: ...
    def set_access_name(self, name: str) -> None: ...
    def set_inline_text(self, text: str) -> None: ...
    def child_row(self, key: str | int) -> Row | None: ...
    def child_items(self) -> list[tuple[str | int | None, Row]]: ...
    def local_errors(self) -> list[str]: ...
    def set_enabled_for_value(self, enabled: bool) -> None: ...


EDITORS: dict[str, type[Editor]] = {}
"""Field kind -> editor class. "json" is the fallback: every schema gets at least a JSON editor."""

E = TypeVar("E", bound=type[Editor])


def register_editor(*kinds: str) -> Callable[[E], E]:
    """Class decorator: the editor for these field kinds (replacing any registered before)."""

    def wrap(cls: E) -> E:
        for kind in kinds:
            EDITORS[kind] = cls
        return cls

    return wrap


def editor_class(kind: str) -> type[Editor]:
    return EDITORS.get(kind) or EDITORS["json"]


class FormEnv:
    """What all editors of one `FormWidget` share: the form model and a hook for layout changes."""

    def __init__(self, form: Form) -> None:
        self.form = form
        self.structure_changed: Callable[[], None] = lambda: None
        """Called when rows appear, move or vanish (the form re-threads the tab order)."""
        self.empty_text = QCoreApplication.translate("FormWidget", "This tool needs no input.")
        """Shown when the arguments have no fields at all (an elicitation form says something else)."""
        self.completer: Completer | None = None
        """Suggestions for text fields as the person types (`FormWidget.set_completer`)."""
        self.developer = False
        """Developer mode: schema words (types, formats, `$ref` names) in tooltips."""

    def make_editor(self, field: Field, parent: QWidget | None) -> Editor:
        return editor_class(field.kind)(field, self, parent)


class EditorMixin:
    """The defaults of the `Editor` interface, mixed into a QWidget subclass (after the Qt class)."""

    inline_label = False
    container = False
    on_edit: Callable[[], None] | None = None

    field: Field
    env: FormEnv

    def as_widget(self) -> QWidget:
        assert isinstance(self, QWidget)
        return self

    def notify(self) -> None:
        """The person changed the value: tell the row.

        Internal changes travel through plain callbacks, not Qt signals: connecting a signal to a Python
        slot costs about 0.1 ms, and a large form has hundreds of them.
        """
        if self.on_edit is not None:
            self.on_edit()

    def _edited(self, *_args: Any) -> None:
        self.notify()

    def value(self) -> Any:
        raise NotImplementedError

    def set_value(self, value: Any) -> None:
        raise NotImplementedError

    def reset(self) -> None:
        raise NotImplementedError

    def is_empty(self) -> bool:
        return self.value() is MISSING

    def focus_chain(self) -> list[QWidget]:
        return [self] if isinstance(self, QWidget) else []

    def set_access_name(self, name: str) -> None:
        if isinstance(self, QWidget):
            self.setAccessibleName(name)

    def set_inline_text(self, text: str) -> None:
        """The label, for editors that show it themselves (`inline_label`: a check box)."""
        if isinstance(self, QAbstractButton):
            self.setText(text)

    def child_row(self, key: str | int) -> Row | None:
        return None

    def child_items(self) -> list[tuple[str | int | None, Row]]:
        """Rows inside this editor with their key in the value (None: same place, as for alternatives)."""
        return []

    def local_errors(self) -> list[str]:
        """Problems only the editor knows (text that is not a number, JSON that does not parse)."""
        return []

    def set_enabled_for_value(self, enabled: bool) -> None:
        if isinstance(self, QWidget):
            self.setEnabled(enabled)
