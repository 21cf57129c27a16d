"""Untrusted server text and links: nothing fetched, nothing opened without the person's yes."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from PySide6.QtCore import QObject, QUrl, Slot
from PySide6.QtGui import QDesktopServices, QTextDocument
from PySide6.QtWidgets import QMessageBox

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")


class UrlCatcher(QObject):
    """Stands in for the web browser: records what QDesktopServices.openUrl was asked to open."""

    def __init__(self) -> None:
        super().__init__()
        self.opened: list[str] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.opened.append(url.toString())


@pytest.fixture
def browser() -> Any:
    catcher = UrlCatcher()
    for scheme in ("http", "https", "javascript", "file"):
        QDesktopServices.setUrlHandler(scheme, catcher, "open")
    yield catcher
    for scheme in ("http", "https", "javascript", "file"):
        QDesktopServices.unsetUrlHandler(scheme)


def box(window: Any) -> QMessageBox | None:
    boxes = [w for w in window.findChildren(QMessageBox) if w.isVisible()]
    return boxes[0] if boxes else None


def click(b: QMessageBox, text: str) -> None:
    next(btn for btn in b.buttons() if btn.text() == text).click()


def test_markdown_view_loads_nothing_and_asks_before_opening(qtbot: Any, desk: Any, browser: Any) -> None:
    from app.ui.results import ResultView, TextBlock

    rv: ResultView = desk.tool_panel.result
    text = (
        "# Report\n\n![pixel](https://tracker.example/p.gif) <img src='https://x.example/i.png'>\n\n"
        "[docs](https://docs.example/page) and [evil](javascript:alert(1))"
    )
    rv.show_contents([{"type": "text", "text": text}])
    block = rv.findChildren(TextBlock)[0]
    assert block.plain.toPlainText() == text  # plain text first
    block.markdown_toggle.setChecked(True)
    md = block.markdown
    assert md is not None and not md.openExternalLinks() and not md.openLinks()
    assert "<img src='https://x.example/i.png'>" in md.document().toPlainText()  # raw HTML stays text
    assert (
        md.loadResource(QTextDocument.ResourceType.ImageResource.value, QUrl("https://tracker.example/p.gif"))
        is None
    )
    # Clicking the https link: the URL is shown, nothing opens until "Open".
    md.link_requested.emit(QUrl("https://docs.example/page"))
    qtbot.waitUntil(lambda: box(desk) is not None)
    assert "https://docs.example/page" in box(desk).text()
    click(box(desk), "Cancel")
    qtbot.waitUntil(lambda: box(desk) is None)
    assert browser.opened == []
    md.link_requested.emit(QUrl("https://docs.example/page"))
    qtbot.waitUntil(lambda: box(desk) is not None)
    click(box(desk), "Open")
    qtbot.waitUntil(lambda: browser.opened == ["https://docs.example/page"])
    # javascript: is never opened, even if the person insists.
    md.link_requested.emit(QUrl("javascript:alert(1)"))
    qtbot.waitUntil(lambda: box(desk) is not None)
    assert "cannot be opened" in box(desk).text()
    click(box(desk), "OK")
    qtbot.waitUntil(lambda: box(desk) is None)
    assert browser.opened == ["https://docs.example/page"]


def test_url_elicitation_opens_browser_only_after_consent(qtbot: Any, desk: Any, browser: Any) -> None:
    from app.mcp.handlers import ElicitationRequest

    url = "https://auth.example/authorize?client=mcp-desk&state=xyz"
    req = ElicitationRequest(message="Sign in to continue", mode="url", url=url)
    handlers = desk.controller.handlers
    task = asyncio.ensure_future(handlers.elicit("demo", req))
    qtbot.waitUntil(lambda: box(desk) is not None)
    assert url in box(desk).text() and "Sign in to continue" in box(desk).text()
    click(box(desk), "Decline")
    qtbot.waitUntil(task.done)
    assert task.result().action == "decline"
    assert browser.opened == []
    task = asyncio.ensure_future(handlers.elicit("demo", req))
    qtbot.waitUntil(lambda: box(desk) is not None)
    click(box(desk), "Open in browser")
    qtbot.waitUntil(task.done)
    assert task.result().action == "accept"
    assert browser.opened == [url]


def test_result_kinds_render(qtbot: Any, desk: Any, tmp_path: Any) -> None:
    """Audio is savable, embedded text/blob resources and resource links are shown."""
    import base64

    from app.mcp.results import ToolCallResult
    from app.ui.results import BinaryBlock, DataView, ResultView

    rv: ResultView = desk.tool_panel.result
    result = ToolCallResult(
        content=[
            {"type": "audio", "data": base64.b64encode(b"RIFF....WAVE").decode(), "mimeType": "audio/wav"},
            {
                "type": "resource",
                "resource": {"uri": "demo://a.txt", "mimeType": "text/plain", "text": "inside"},
            },
            {
                "type": "resource",
                "resource": {"uri": "demo://b.bin", "blob": base64.b64encode(b"\0\1").decode()},
            },
            {"type": "resource_link", "uri": "demo://readme", "name": "readme"},
        ],
        is_error=False,
        structured_content={"a": [1, 2]},
        structured_valid=False,
        structured_error="'a' is not of type 'string'",
        elapsed=0.25,
        raw={"content": []},
    )
    rv.show_result(result, output_schema={"type": "object"})
    assert len(rv.findChildren(BinaryBlock)) == 2
    assert rv.findChildren(DataView)
    assert "does not match" in rv.findChild(type(rv.status), "structuredMark").text()
    links: list[str] = []
    rv.resource_link_clicked.connect(links.append)
    from PySide6.QtWidgets import QPushButton

    next(b for b in rv.findChildren(QPushButton) if b.text() == "Read resource").click()
    assert links == ["demo://readme"]
