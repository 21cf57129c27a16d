"""What the form's widgets share and nothing else: plain-text labels, help, error and hint colours,
`fill` for translated placeholders, layouts. It imports no other module of `app.ui.forms`: the editor
registry and its interface live in `editor.py`, the rows in `row.py` (imports go one way:
base <- editor <- row <- container_editors <- form_widget).
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QToolButton, QVBoxLayout, QWidget

from app.forms import Field
from app.forms.links import Link, links_note, split_links
from app.ui import theme
from app.ui.safe_text import PlainLabel, plain_tooltip

# Re-exported for the form modules: the app's one placeholder filler and lupdate's marker.
from app.words import QT_TRANSLATE_NOOP as QT_TRANSLATE_NOOP
from app.words import fill as fill

logger = logging.getLogger(__name__)


def schema_note(field: Field) -> str:
    """The schema words behind a field (type, format, alternatives...), for developer mode's tooltips
    only: people see "Not set", "Kind", "More entries"; a developer sees what the server declared."""
    schema = field.schema if isinstance(field.schema, dict) else {}
    parts: list[str] = []
    if field.name:
        parts.append(f"property: {field.name}")
    declared = schema.get("type")
    if isinstance(declared, str | list):
        parts.append(f"type: {declared if isinstance(declared, str) else ' | '.join(map(str, declared))}")
    for key in ("format", "pattern", "contentMediaType"):
        if isinstance(schema.get(key), str):
            parts.append(f"{key}: {schema[key]}")
    for key in ("oneOf", "anyOf", "allOf", "enum", "const", "additionalProperties"):
        if key in schema:
            parts.append(key)
    if field.nullable:
        parts.append("nullable (Not set = null)")
    reason = getattr(field, "reason", "")
    if reason:
        parts.append(f"edited as JSON: {reason}")
    parts.append(f"editor: {field.kind}")
    return "\n".join(parts)


# --- plain-text labels -------------------------------------------------------------------------------

HELP_PREVIEW_CHARS = 180


def plain_label(text: str, parent: QWidget | None = None, *, wrap: bool = True) -> QLabel:
    """A label that never interprets `text` as HTML (server text: `<a href>` and `<img>` stay literal)
    and shows invisible characters (bidi controls...) as ⟨U+XXXX⟩, on every later `setText` too."""
    label = PlainLabel(text, parent)
    label.setWordWrap(wrap)
    return label


_PALETTES: dict[tuple[str, int], QPalette] = {}
"""Shared label palettes by (what, the application palette's key): one per scheme, not one per label
(a style sheet per label would make every row slower to build)."""


def _label_palette(what: str) -> QPalette:
    base = QGuiApplication.palette()
    key = (what, base.cacheKey())
    palette = _PALETTES.get(key)
    if palette is None:
        palette = QPalette(base)
        if what == "error":
            # theme.py's error text colour: dark red on a light window, a light red on a dark one.
            colour = QColor(theme.colours("error", base)[1])
        else:
            colour = base.color(QPalette.ColorRole.PlaceholderText)
        palette.setColor(QPalette.ColorRole.WindowText, colour)
        if len(_PALETTES) > 8:  # schemes switched back and forth: keep only the current ones
            _PALETTES.clear()
        _PALETTES[key] = palette
    return palette


def mark_as_error(label: QLabel) -> None:
    """Error text in theme.py's error colour for the current scheme. Call again on a palette change
    (`remark_labels`): the colour is fixed when set."""
    label.setProperty("formMark", "error")
    label.setPalette(_label_palette("error"))


def mark_as_hint(label: QLabel) -> None:
    """Help text in the placeholder colour of the current scheme (again on a palette change)."""
    label.setProperty("formMark", "hint")
    label.setPalette(_label_palette("hint"))


def remark_labels(widget: QWidget) -> None:
    """After the scheme changed (light <-> dark): error and help labels under `widget` take the new
    scheme's colours (their text colour was fixed when marked)."""
    for label in widget.findChildren(QLabel):
        mark = label.property("formMark")
        if mark == "error":
            mark_as_error(label)
        elif mark == "hint":
            mark_as_hint(label)


class HelpText(QWidget):
    """A field's description: plain text, wrapped; a long one shows its start and a "More" button."""

    def __init__(self, text: str, owner: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._text = text.strip()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        self.label = plain_label("", self)
        self.label.setObjectName("formHelp")
        self.label.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        mark_as_hint(self.label)
        self.label.setAccessibleName(fill(self.tr("Help for %1"), owner))
        layout.addWidget(self.label, 1)
        self.more: QToolButton | None = None
        if len(self._text) > HELP_PREVIEW_CHARS or self._text.count("\n") > 2:
            self.more = QToolButton(self)
            self.more.setAutoRaise(True)
            self.more.setCheckable(True)
            self.more.setAccessibleName(fill(self.tr("Show all help for %1"), owner))
            self.more.toggled.connect(self._show)
            layout.addWidget(self.more, 0, Qt.AlignmentFlag.AlignTop)
        self._show(False)

    def _show(self, full: bool) -> None:
        if self.more is None or full:
            self.label.setText(self._text)
        else:
            first = self._text.split("\n", 1)[0]
            cut = first[:HELP_PREVIEW_CHARS].rstrip()
            self.label.setText(cut + "…")
        if self.more is not None:
            self.more.setText(self.tr("Less") if full else self.tr("More"))

    @property
    def expanded(self) -> bool:
        return self.more is None or self.more.isChecked()


def make_help(text: str, owner: str, parent: QWidget | None = None) -> QWidget:
    """Help under a field: a bare label when short (cheap), a `HelpText` with "More" when long.

    Markdown links show their text; their addresses are listed in a plain-text tooltip, never as a
    link (server text: nothing is rendered, fetched or opened)."""
    text, links = help_text(text)
    widget: QWidget
    if len(text) > HELP_PREVIEW_CHARS or text.count("\n") > 2:
        widget = HelpText(text, owner, parent)
    else:
        label = plain_label(text, parent)
        label.setObjectName("formHelp")
        mark_as_hint(label)
        label.setAccessibleName(fill(QCoreApplication.translate("HelpText", "Help for %1"), owner))
        widget = label
    if links:
        intro = QCoreApplication.translate("FormWidget", "Addresses mentioned here:")
        widget.setToolTip(plain_tooltip(intro + "\n" + links_note(links)))
    return widget


def help_text(text: str) -> tuple[str, list[Link]]:
    """A description as shown: stripped, Markdown links replaced by their text, and those links."""
    return split_links(text.strip())


def vbox(widget: QWidget, spacing: int = 4) -> QVBoxLayout:
    layout = QVBoxLayout(widget)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(spacing)
    return layout


def hbox(widget: QWidget | None = None, spacing: int = 4) -> QHBoxLayout:
    layout = QHBoxLayout(widget) if widget is not None else QHBoxLayout()
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(spacing)
    return layout
