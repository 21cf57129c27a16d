"""Issue 11, item 11 (form parts): one-line short strings, the date picker on screen, Markdown links in
help shown as their text, and "New" for uuid fields only when the field asks for a new id."""

from __future__ import annotations

import json
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QLabel, QLineEdit, QPlainTextEdit, QWidget
from pytestqt.qtbot import QtBot

from app.forms import build_form
from app.forms.ids import asks_for_new_id
from app.ui.forms import FormWidget
from app.ui.forms.scalar_editors import DateEditor, UuidEditor
from tests.support.corpus import SCHEMAS_DIR

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")


def real_tool(server: str, name: str) -> dict[str, Any]:
    data = json.loads((SCHEMAS_DIR / f"{server}.json").read_text(encoding="utf-8"))
    tool: dict[str, Any] = next(t for t in data["tools"] if t["name"] == name)
    return tool


def make(qtbot: QtBot, schema: Any) -> FormWidget:
    form = FormWidget(schema)
    qtbot.addWidget(form)
    form.finish_building()
    return form


def editor(form: FormWidget, *path: str) -> Any:
    row = form.root
    for key in path:
        found = row.child_row(key)
        assert found is not None, path
        row = found
    return row.editor


# -- short strings are one line ------------------------------------------------------------------------

ONE_LINE = {
    "postalCode": {"type": "string"},
    "zip": {"type": "string"},
    "country_code": {"type": "string"},
    "service_code": {"type": "string"},
    "search_text": {"type": "string"},
    "heading_text": {"type": "string"},
    "name": {"type": "string", "maxLength": 512},
    "title": {"type": "string", "maxLength": 1000},
    "text": {"type": "string", "maxLength": 255},
    "comment": {"type": "string", "maxLength": 120},
    "city": {"type": "string"},
}
SEVERAL_LINES = {
    "description": {"type": "string"},
    "body": {"type": "string"},
    "content": {"type": "string"},
    "message": {"type": "string"},
    "notes": {"type": "string"},
    "code": {"type": "string"},
    "source_code": {"type": "string"},
    "summary": {"type": "string", "maxLength": 2000},
    "page": {"type": "string", "contentMediaType": "text/markdown"},
    "report": {"type": "string", "format": "markdown"},
    "greeting": {"type": "string", "default": "Hello,\nworld"},
}


def test_short_strings_are_one_line_and_long_text_is_a_box(qtbot: QtBot) -> None:
    form = make(qtbot, {"type": "object", "properties": {**ONE_LINE, **SEVERAL_LINES}})
    for name in ONE_LINE:
        assert isinstance(editor(form, name), QLineEdit), name
    for name in SEVERAL_LINES:
        assert isinstance(editor(form, name), QPlainTextEdit), name


def test_a_real_postal_code_is_one_line(qtbot: QtBot) -> None:
    # ms-365-mcp: a contact's addresses, `postalCode` among street, city and state.
    data = json.loads((SCHEMAS_DIR / "ms-365-mcp.json").read_text(encoding="utf-8"))
    fields = []

    def walk(field: Any, depth: int = 0) -> None:
        if depth > 6:
            return
        if field.name == "postalCode":
            fields.append(field)
        for prop in getattr(field, "properties", []) if field.kind == "object" else []:
            walk(prop, depth + 1)

    for tool in data["tools"]:
        walk(build_form(tool["inputSchema"]).root)
    assert fields, "ms-365-mcp has postal codes"
    assert {f.kind for f in fields} == {"text"}


# -- the date picker stays on the screen ---------------------------------------------------------------


def test_the_date_picker_opens_inside_the_screen(qtbot: QtBot) -> None:
    form = make(qtbot, {"type": "object", "properties": {"due": {"type": "string", "format": "date"}}})
    screen = QApplication.primaryScreen()
    assert screen is not None
    area = screen.availableGeometry()
    form.resize(360, 120)
    # The window at the bottom right corner: below the button there is no room for a calendar.
    form.move(area.right() - 360, area.bottom() - 120)
    form.show()
    qtbot.waitExposed(form)
    dates = editor(form, "due")
    assert isinstance(dates, DateEditor)
    qtbot.mouseClick(dates.button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dates.popup is not None and dates.popup.isVisible())
    assert dates.popup is not None
    shown = dates.popup.geometry()
    assert area.contains(shown), (shown, area)
    # It opened above the button, not over it.
    assert shown.bottom() <= dates.button.mapToGlobal(QPoint(0, 0)).y()
    dates.popup.close()


# -- Markdown links in help ----------------------------------------------------------------------------


def help_labels(widget: QWidget) -> list[QLabel]:
    return [label for label in widget.findChildren(QLabel) if label.objectName() == "formHelp"]


def test_markdown_links_in_help_show_their_text_and_the_address_only_in_a_plain_tooltip(
    qtbot: QtBot,
) -> None:
    form = make(qtbot, real_tool("notion-mcp-server", "API-post-page")["inputSchema"])
    row = form.root.child_row("cover")
    assert row is not None and row.help is not None
    label = help_labels(row)[0] if not isinstance(row.help, QLabel) else row.help
    assert "file object" in label.text()
    assert "](" not in label.text() and "https://" not in label.text()
    assert label.textFormat() == Qt.TextFormat.PlainText and not label.openExternalLinks()
    tip = row.help.toolTip()
    assert "https://developers.notion.com/reference/file-object" in tip
    assert "<a " not in tip and "href" not in tip  # listed as text, never a link


def test_help_without_links_has_no_tooltip(qtbot: QtBot) -> None:
    form = make(
        qtbot, {"type": "object", "properties": {"a": {"type": "string", "description": "Plain [x] (y)"}}}
    )
    row = form.root.child_row("a")
    assert row is not None and isinstance(row.help, QLabel)
    assert row.help.text() == "Plain [x] (y)" and row.help.toolTip() == ""


# -- "New" for uuid fields -----------------------------------------------------------------------------


def uuid_field(name: str, description: str = "") -> Any:
    schema = {
        "type": "object",
        "properties": {name: {"type": "string", "format": "uuid", "description": description}},
    }
    return build_form(schema).root.properties[0]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("name", "description"),
    [
        ("page_id", "Identifier for a Notion page"),  # notion-mcp-server
        ("skuId", "The unique identifier for the SKU. Corresponds to the skuId from subscribedSkus"),
        ("id", ""),
        ("target_id", "The ID of the target"),  # rootly-mcp
        ("value_id", "Value UUID"),
        ("user", "An existing user"),
    ],
)
def test_no_new_button_for_an_existing_id(name: str, description: str) -> None:
    assert not asks_for_new_id(uuid_field(name, description))


@pytest.mark.parametrize(
    ("name", "description"),
    [
        ("request_id", ""),
        ("idempotencyKey", ""),
        ("newId", ""),
        ("token", "A random UUID generated by the client; a retry with the same one is ignored"),
        ("key", "A new id for the record to create"),
    ],
)
def test_a_new_button_for_a_new_id(name: str, description: str) -> None:
    assert asks_for_new_id(uuid_field(name, description))


def test_real_uuid_fields_that_name_pages_offer_no_new(qtbot: QtBot) -> None:
    form = make(qtbot, real_tool("notion-mcp-server", "API-move-page")["inputSchema"])
    page = editor(form, "page_id")
    assert isinstance(page, UuidEditor)
    assert page.button.isHidden() and page.button not in page.focus_chain()
    fresh = make(
        qtbot, {"type": "object", "properties": {"request_id": {"type": "string", "format": "uuid"}}}
    )
    new = editor(fresh, "request_id")
    assert not new.button.isHidden()
    qtbot.mouseClick(new.button, Qt.MouseButton.LeftButton)
    assert len(fresh.value()["request_id"]) == 36
