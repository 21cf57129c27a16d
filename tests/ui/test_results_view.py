"""Results first: text as safe Markdown, result data as a table or labelled values, resources and
images previewed, raw JSON only in developer mode, colours that follow the palette."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QLabel

from app.mcp.results import ToolCallResult

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")


@pytest.fixture
def rv(qtbot: Any) -> Any:
    from app.ui.results import ResultView

    view = ResultView()
    qtbot.addWidget(view)
    view.resize(700, 600)
    view.show()
    return view


def png(width: int = 6, height: int = 4) -> bytes:
    from app.demo.png import badge

    return badge(width, height, (10, 120, 200))


def result(**kw: Any) -> ToolCallResult:
    kw.setdefault("content", [])
    kw.setdefault("is_error", False)
    for key in ("structured_content", "structured_valid", "structured_error", "elapsed", "raw"):
        kw.setdefault(key, None)
    return ToolCallResult(**kw)


def test_text_is_formatted_first_and_keeps_its_lines(rv: Any) -> None:
    from app.ui.results import TextBlock

    rv.show_contents([{"type": "text", "text": "# Weekly report\n\nline one\nline two\n\n- **bold** item"}])
    block = rv.findChildren(TextBlock)[0]
    assert block.is_formatted()  # Markdown by default
    shown = block.markdown.document().toPlainText()
    assert "#" not in shown and "**" not in shown and "Weekly report" in shown
    # A line break the tool wrote stays a line break (Markdown would join the two lines).
    assert "line one line two" not in shown.replace("\u2028", "\n")
    assert block.plain.toPlainText().startswith("# Weekly report")  # the exact text one click away
    block.markdown_toggle.setChecked(False)
    assert not block.is_formatted()


def test_json_text_and_code_stay_plain(rv: Any) -> None:
    from app.ui.markdown_view import keep_line_breaks
    from app.ui.results import TextBlock, prefers_markdown

    rv.show_contents([{"type": "text", "text": json.dumps({"a": [1, 2], "b": "*x*"}, indent=2)}])
    assert not rv.findChildren(TextBlock)[0].is_formatted()
    assert not prefers_markdown("# Title", "application/json")
    assert prefers_markdown("# Title", "text/markdown")
    assert keep_line_breaks("```\na\nb\n```\nc\nd") == "```\na\nb\n```\nc  \nd"
    # Plain words: nothing to format, so no "Formatted" switch either.
    rv.show_contents([{"type": "text", "text": "Saved note groceries."}])
    block = rv.findChildren(TextBlock)[0]
    assert not block.is_formatted() and block.markdown_toggle.isHidden()


def test_records_become_a_table_with_words(rv: Any) -> None:
    from app.ui.result_data import DataView, RecordTable

    data = [
        {"first_name": "Ada", "active": True, "score": 9.5, "nickname": None},
        {"first_name": "Grace", "active": False, "score": 7},
    ]
    rv.show_result(result(structured_content=data, structured_valid=True), output_schema={"type": "array"})
    table = rv.findChildren(RecordTable)[0]
    assert table.header_texts() == ["First name", "Active", "Score", "Nickname"]
    assert table.cell_texts() == [["Ada", "yes", "9.5", "not set"], ["Grace", "no", "7", ""]]
    mark = rv.findChild(QLabel, "structuredMark")
    assert "matches what the tool promised" in mark.text()
    assert "outputSchema" not in mark.text() and "outputSchema" in mark.toolTip()
    # Deeper than a table: labelled values and sections, the deepest part a tree.
    rv.show_result(result(structured_content={"city": "Lisbon", "deep": {"a": {"b": {"c": {"d": 1}}}}}))
    view = rv.findChildren(DataView)[0]
    assert "City:" in [w.text() for w in view.findChildren(QLabel)]
    from app.ui.result_data import JsonTree

    assert view.findChildren(JsonTree)


def test_a_mismatch_is_said_in_words(rv: Any) -> None:
    rv.show_result(
        result(structured_content={"a": 1}, structured_valid=False, structured_error="'a' is not a string"),
        output_schema={"type": "object"},
    )
    mark = rv.findChild(QLabel, "structuredMark")
    assert "does not match what the tool promised" in mark.text()


def test_raw_answer_and_copy_only_in_developer_mode(rv: Any) -> None:
    from app.ui.developer_mode import developer_mode
    from app.ui.results import TextBlock

    data = {"city": "Lisbon"}
    res = result(
        content=[{"type": "text", "text": json.dumps(data)}],
        structured_content=data,
        raw={"content": [{"type": "text", "text": json.dumps(data)}], "structuredContent": data},
    )
    rv.show_result(res)
    assert rv.copy_button.isHidden() and rv.raw_button.isHidden()
    assert not rv.findChildren(TextBlock)  # the JSON copy of the data is not shown to people
    developer_mode().set_enabled(True)
    assert not rv.copy_button.isHidden()
    rv.show_result(res)
    assert [b for b in rv.findChildren(TextBlock) if b.text() == json.dumps(data)]  # all of it
    rv.raw_button.setChecked(True)
    assert rv.raw_block is not None and '"structuredContent"' in rv.raw_block.text()
    assert not rv.raw_block.is_formatted()


def test_resources_and_images_are_previewed(rv: Any) -> None:
    from app.ui.results import ImageBlock, TextBlock

    rv.show_contents(
        [
            {"uri": "demo://readme", "mimeType": "text/markdown", "text": "# About\n\nHello"},
            {"uri": "demo://data.json", "mimeType": "application/json", "text": '{"a": 1}'},
            {"uri": "demo://badge.png", "mimeType": "image/png", "blob": base64.b64encode(png()).decode()},
        ]
    )
    blocks = rv.findChildren(TextBlock)
    assert [b.is_formatted() for b in blocks] == [True, False]
    assert "About" in blocks[0].markdown.document().toPlainText()
    images = rv.findChildren(ImageBlock)
    assert len(images) == 1 and images[0].image.width() == 6
    assert "6 × 4" in " ".join(w.text() for w in images[0].findChildren(QLabel))


def test_prompt_roles_in_words(rv: Any) -> None:
    rv.show_contents([{"type": "x-role", "role": "user"}, {"type": "text", "text": "Hi"}])
    assert "Message from you:" in [w.text() for w in rv.findChildren(QLabel)]


@pytest.fixture
def dark(qapp: QApplication) -> Iterator[None]:
    old = QGuiApplication.palette()
    pal = QPalette(old)
    pal.setColor(QPalette.ColorRole.Window, QColor("#202124"))
    pal.setColor(QPalette.ColorRole.WindowText, QColor("#e8eaed"))
    qapp.setPalette(pal)
    try:
        yield
    finally:
        qapp.setPalette(old)


def test_status_colours_follow_a_dark_palette(qtbot: Any, rv: Any, dark: None) -> None:
    from app.ui.theme import colours

    rv.show_result(result(is_error=True, content=[{"type": "text", "text": "no"}]))
    qtbot.waitUntil(lambda: colours("error")[1] in rv.status.styleSheet(), timeout=2000)
    assert colours("error")[1] == "#ffcdd2"  # the dark scheme's, not the light red on dark grey


def test_a_wide_picture_is_shown_whole_until_zoomed(qtbot: Any, rv: Any) -> None:
    from app.ui.results import ImageBlock

    rv.show_contents(
        [{"type": "image", "data": base64.b64encode(png(2000, 40)).decode(), "mimeType": "image/png"}]
    )
    block = rv.findChildren(ImageBlock)[0]
    qtbot.waitUntil(lambda: block.label.pixmap().width() <= rv.width(), timeout=3000)
    assert block.fitted
    block.zoom_reset()  # 1:1 is the person's choice, and stays
    assert block.label.pixmap().width() == 2000 and not block.fitted


def test_resource_and_prompt_panels_keep_ids_for_developer_mode(qtbot: Any) -> None:
    from app.ui.developer_mode import developer_mode
    from app.ui.resource_panel import PromptPanel, ResourcePanel

    panel = ResourcePanel()
    qtbot.addWidget(panel)
    fields = {"uri": "demo://readme", "title": "About", "name": "readme", "mime_type": "text/markdown"}
    res = type("Res", (), {**fields, "description": ""})
    panel.show_resource("demo", res(), subscribed=False, can_subscribe=False)
    assert panel.header.title.text() == "About" and panel.header.sub.isHidden()
    assert "demo://readme" in panel.header.title.toolTip()
    prompts = PromptPanel()
    qtbot.addWidget(prompts)
    args = [{"name": "recipient_name", "required": True}]
    prompt = type(
        "P", (), {"name": "write_email", "title": "Write an email", "description": "", "arguments": args}
    )()
    prompts.show_prompt("demo", prompt)
    labels = [w.text() for w in prompts.args_box.findChildren(QLabel)]
    assert "Recipient name *" in labels  # the argument's name in words; the name itself in the tooltip
    developer_mode().set_enabled(True)
    assert not panel.header.sub.isHidden() and "demo://readme" in panel.header.sub.text()
