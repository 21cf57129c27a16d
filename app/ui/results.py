"""Showing a tool's answer as a person would want it.

Each content block gets a widget for its type (a lookup table, not a chain of ifs): text (plain,
with an optional safe Markdown view), images (zoomable, savable), audio (savable), resource links
(a button that reads the resource), embedded resources (text shown, blobs savable). Structured
content is a tree with a mark saying whether it matches the tool's outputSchema. An `isError`
answer is the tool's own error message; a failed call (protocol error, timeout) is shown apart.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import mimetypes
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, QUrl, Signal, Slot
from PySide6.QtGui import QGuiApplication, QImage, QPixmap
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QStackedWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.ui.markdown_view import SafeMarkdownView
from app.ui.safe_text import plain_label, plain_tooltip, visible, visible_json, visible_line
from app.ui.widgets import tool_button

logger = logging.getLogger(__name__)


def to_jsonable(obj: Any) -> Any:
    """The engine's result objects as plain JSON values (dataclasses, pydantic models, bytes)."""
    if obj is None or isinstance(obj, str | int | float | bool):
        return obj
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple | set | frozenset):
        return [to_jsonable(v) for v in obj]
    if isinstance(obj, bytes):
        return base64.b64encode(obj).decode("ascii")
    dump = getattr(obj, "model_dump", None)
    if callable(dump):
        return to_jsonable(dump(mode="json", by_alias=True, exclude_none=True))
    if hasattr(obj, "__dataclass_fields__"):
        return {f: to_jsonable(getattr(obj, f)) for f in obj.__dataclass_fields__}
    return str(obj)


def decode_b64(data: Any) -> bytes | None:
    if isinstance(data, bytes):
        return data
    if not isinstance(data, str):
        return None
    try:
        return base64.b64decode(data, validate=False)
    except (binascii.Error, ValueError):
        return None


def save_bytes(parent: QWidget, data: bytes, suggested: str) -> None:
    """Ask where to save and write the bytes (a sync slot: the static dialog is fine here)."""
    path, _ = QFileDialog.getSaveFileName(parent, "Save as", visible_line(suggested))  # no rtl\u202egnp.exe
    if path:
        with open(path, "wb") as fh:
            fh.write(data)


def suggested_name(stem: str, mime: str | None) -> str:
    if "." in stem.strip("."):
        return stem  # already has an extension (a resource URI's last segment, say)
    ext = mimetypes.guess_extension(mime or "") or ".bin"
    return f"{stem}{ext}"


class TextBlock(QWidget):
    """Plain text by default; a Markdown view that fetches nothing and asks before opening links."""

    link_requested = Signal(QUrl)

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._text = text
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        bar.addStretch(1)
        self.markdown_toggle = tool_button("Markdown view")
        self.markdown_toggle.setCheckable(True)
        self.markdown_toggle.setToolTip("Show the text formatted as Markdown (no images are loaded)")
        bar.addWidget(self.markdown_toggle)
        lay.addLayout(bar)
        self.stack = QStackedWidget()
        self.plain = QPlainTextEdit()
        self.plain.setReadOnly(True)
        self.plain.setPlainText(visible(text))
        self.plain.setAccessibleName("Result text")
        self.markdown: SafeMarkdownView | None = None
        self.stack.addWidget(self.plain)
        # Short answers get a box their size; long ones a tall box that scrolls.
        lines = text.count("\n") + 1 + len(text) // 120
        line_h = self.plain.fontMetrics().lineSpacing()
        if lines <= 12:
            self.plain.setFixedHeight(lines * line_h + 16)
            self.stack.setFixedHeight(lines * line_h + 16)  # a stack sizes itself by its largest hint
            self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        else:
            self.plain.setMinimumHeight(min(320, 12 * line_h + 16))
        lay.addWidget(self.stack)
        self.markdown_toggle.toggled.connect(self._toggle)

    @Slot(bool)
    def _toggle(self, on: bool) -> None:
        if on and self.markdown is None:
            self.markdown = SafeMarkdownView()
            self.markdown.set_markdown(self._text)
            self.markdown.link_requested.connect(self.link_requested)
            self.stack.addWidget(self.markdown)
        self.stack.setCurrentWidget(self.markdown if on and self.markdown else self.plain)


class ImageBlock(QWidget):
    """An image with zoom in/out/fit and Save."""

    def __init__(self, data: bytes, mime: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._data, self._mime = data, mime
        self.image = QImage.fromData(data)
        self.zoom = 1.0
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        size = f"{self.image.width()}×{self.image.height()}" if not self.image.isNull() else "unreadable"
        bar.addWidget(plain_label(f"Image ({mime}, {size})", wrap=False))
        bar.addStretch(1)
        for text, tip, slot in (
            ("−", "Zoom out", self.zoom_out),
            ("+", "Zoom in", self.zoom_in),
            ("1:1", "Actual size", self.zoom_reset),
        ):
            b = tool_button(text)
            b.setToolTip(tip)
            b.setAccessibleName(tip)
            b.clicked.connect(slot)
            bar.addWidget(b)
        save = QPushButton("Save…")
        save.clicked.connect(lambda: save_bytes(self, self._data, suggested_name("image", self._mime)))
        bar.addWidget(save)
        lay.addLayout(bar)
        self.label = QLabel()
        self.label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.label.setAccessibleName("Result image")
        area = QScrollArea()
        area.setWidget(self.label)
        area.setWidgetResizable(False)
        # As tall as the image (up to 420 px; larger ones scroll and zoom), no taller.
        area.setFixedHeight(min(420, max(80, self.image.height() + 8)))
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        lay.addWidget(area)
        self._render()

    def _render(self) -> None:
        if self.image.isNull():
            self.label.setText("The image could not be decoded.")
            self.label.adjustSize()
            return
        w = max(1, int(self.image.width() * self.zoom))
        pix = QPixmap.fromImage(self.image).scaledToWidth(w, Qt.TransformationMode.SmoothTransformation)
        self.label.setPixmap(pix)
        self.label.resize(pix.size())

    @Slot()
    def zoom_in(self) -> None:
        self.zoom = min(8.0, self.zoom * 1.25)
        self._render()

    @Slot()
    def zoom_out(self) -> None:
        self.zoom = max(0.1, self.zoom / 1.25)
        self._render()

    @Slot()
    def zoom_reset(self) -> None:
        self.zoom = 1.0
        self._render()


class BinaryBlock(QWidget):
    """Audio or a blob: what it is, how big, and Save (playback needs QtMultimedia, not shipped)."""

    def __init__(self, label: str, data: bytes, mime: str, stem: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(plain_label(f"{label} ({mime or 'unknown type'}, {len(data):,} bytes)"))
        lay.addStretch(1)
        save = QPushButton("Save…")
        save.clicked.connect(lambda: save_bytes(self, data, suggested_name(stem, mime)))
        lay.addWidget(save)


class JsonTree(QTreeWidget):
    """A JSON value as an expandable tree (keys and values as plain text)."""

    def __init__(self, value: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setHeaderLabels(["Key", "Value"])
        self.setColumnCount(2)
        self._add(self.invisibleRootItem(), value)
        self.expandToDepth(1)
        self.resizeColumnToContents(0)
        self.setMinimumHeight(160)

    def _add(self, parent: QTreeWidgetItem, value: Any) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                self._node(parent, visible_line(str(k)), v)
        elif isinstance(value, list):
            for i, v in enumerate(value):
                self._node(parent, f"[{i}]", v)
        else:
            self._node(parent, "", value)

    def _node(self, parent: QTreeWidgetItem, key: str, value: Any) -> None:
        if isinstance(value, dict | list):
            summary = f"{{{len(value)} keys}}" if isinstance(value, dict) else f"[{len(value)} items]"
            item = QTreeWidgetItem(parent, [key, summary])
            self._add(item, value)
        else:
            item = QTreeWidgetItem(parent, [key, visible_json(value)])


def _section(title: str) -> QLabel:
    label = plain_label(title, wrap=False)
    font = label.font()
    font.setBold(True)
    label.setFont(font)
    return label


class ResultView(QWidget):
    """The answer of the last call (or of a history entry).

    Signals:
        resource_link_clicked(uri): the person clicked a resource link in the result.
        link_requested(url): the person clicked a link in a Markdown view.
    """

    resource_link_clicked = Signal(str)
    link_requested = Signal(QUrl)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._json: Any = None
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        head = QHBoxLayout()
        self.status = plain_label("", wrap=True)
        self.status.setObjectName("resultStatus")
        self.status.setAccessibleName("Result status")
        head.addWidget(self.status, 1)
        self.copy_button = QPushButton("Copy as JSON")
        self.copy_button.setEnabled(False)
        self.copy_button.clicked.connect(self.copy_json)
        head.addWidget(self.copy_button)
        lay.addLayout(head)
        self.area = QScrollArea()
        self.area.setWidgetResizable(True)
        self.area.setFrameShape(QFrame.Shape.NoFrame)
        self.body = QWidget()
        self.body_layout = QVBoxLayout(self.body)
        self.body_layout.setContentsMargins(0, 0, 0, 0)
        self.body_layout.addStretch(1)
        self.area.setWidget(self.body)
        lay.addWidget(self.area, 1)
        self.blocks: list[QWidget] = []
        self.clear()

    # --- states -------------------------------------------------------------------------------
    def clear(self, message: str = "Run the tool to see its answer here.") -> None:
        for w in self.blocks:
            w.setParent(None)
            w.deleteLater()
        self.blocks = []
        self._json = None
        self.copy_button.setEnabled(False)
        self._set_status(message, "")

    def show_running(self) -> None:
        self.clear("Running…")

    def show_failure(self, message: str, elapsed: float | None = None) -> None:
        self.clear()
        when = f" after {elapsed:.2f} s" if elapsed is not None else ""
        self._set_status(f"The call failed{when}: {message}", "failed")
        self._json = {"failed": message}
        self.copy_button.setEnabled(True)

    def show_result(self, result: Any, *, output_schema: dict[str, Any] | None = None) -> None:
        self.clear()
        is_error = bool(getattr(result, "is_error", False))
        elapsed = getattr(result, "elapsed", None)
        took = f" in {elapsed:.2f} s" if isinstance(elapsed, int | float) else ""
        if is_error:
            self._set_status(f"The tool reported an error{took}:", "error")
        else:
            self._set_status(f"Done{took}.", "ok")
        raw = getattr(result, "raw", None)
        self._json = to_jsonable(raw) if raw else to_jsonable(result)
        self.copy_button.setEnabled(True)
        for block in list(getattr(result, "content", None) or []):
            self._add(self._block_widget(to_jsonable(block)))
        structured = getattr(result, "structured_content", None)
        if structured is not None:
            self._add(self._structured(structured, result, output_schema))
        if not self.blocks:
            self._add(plain_label("(The tool returned no content.)"))

    def show_contents(self, contents: list[Any], title: str = "") -> None:
        """Resource contents (resources/read) or prompt messages shown with the same widgets."""
        self.clear()
        self._set_status(title or "Read.", "ok")
        self._json = to_jsonable(contents)
        self.copy_button.setEnabled(True)
        for c in contents:
            self._add(self._block_widget(to_jsonable(c)))
        if not self.blocks:
            self._add(plain_label("(Nothing returned.)"))

    def json_text(self) -> str:
        return json.dumps(self._json, indent=2, ensure_ascii=False)

    @Slot()
    def copy_json(self) -> None:
        QGuiApplication.clipboard().setText(self.json_text())

    def status_text(self) -> str:
        return self.status.text()

    # --- building -----------------------------------------------------------------------------
    def _set_status(self, text: str, kind: str) -> None:
        colours = {"ok": "#1b5e20", "error": "#b71c1c", "failed": "#b71c1c", "": "palette(text)"}
        self.status.setText(text)
        self.status.setProperty("kind", kind)
        self.status.setStyleSheet(
            f"color: {colours.get(kind, 'palette(text)')}; font-weight: bold;" if kind else ""
        )

    def _add(self, w: QWidget) -> None:
        self.blocks.append(w)
        self.body_layout.insertWidget(self.body_layout.count() - 1, w)

    def _block_widget(self, block: Any) -> QWidget:
        if not isinstance(block, dict):
            return TextBlock(json.dumps(block, indent=2, ensure_ascii=False))
        builder = BLOCK_BUILDERS.get(str(block.get("type", "")))
        if builder is None:
            # Resource contents (from resources/read) carry no "type"; unknown blocks show as JSON.
            if "uri" in block and ("text" in block or "blob" in block):
                return self._resource_contents(block)
            return TextBlock(json.dumps(block, indent=2, ensure_ascii=False))
        return builder(self, block)

    def _text(self, block: dict[str, Any]) -> QWidget:
        w = TextBlock(str(block.get("text", "")))
        w.link_requested.connect(self.link_requested)
        return w

    def _image(self, block: dict[str, Any]) -> QWidget:
        data = decode_b64(block.get("data"))
        if data is None:
            return plain_label("(An image that could not be decoded.)")
        return ImageBlock(data, str(block.get("mimeType", "image/png")))

    def _audio(self, block: dict[str, Any]) -> QWidget:
        data = decode_b64(block.get("data")) or b""
        return BinaryBlock("Audio", data, str(block.get("mimeType", "")), "audio")

    def _resource_link(self, block: dict[str, Any]) -> QWidget:
        uri = str(block.get("uri", ""))
        name = str(block.get("title") or block.get("name") or uri)
        w = QWidget()
        lay = QHBoxLayout(w)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(plain_label(f"Resource link: {name}\n{uri}"), 1)
        b = QPushButton("Read resource")
        b.setToolTip(plain_tooltip(uri))
        b.clicked.connect(lambda: self.resource_link_clicked.emit(uri))
        lay.addWidget(b)
        return w

    def _embedded(self, block: dict[str, Any]) -> QWidget:
        res = block.get("resource")
        return self._resource_contents(res if isinstance(res, dict) else {})

    def _resource_contents(self, res: dict[str, Any]) -> QWidget:
        uri = str(res.get("uri", ""))
        mime = str(res.get("mimeType", "") or "")
        box = QWidget()
        lay = QVBoxLayout(box)
        lay.setContentsMargins(0, 0, 0, 0)
        head = QHBoxLayout()
        head.addWidget(plain_label(f"Resource: {uri}" + (f" ({mime})" if mime else "")), 1)
        lay.addLayout(head)
        if "text" in res:
            text = str(res.get("text", ""))
            save = QPushButton("Save…")
            stem = uri.rstrip("/").rsplit("/", 1)[-1].split("?")[0] or "resource"
            save.clicked.connect(
                lambda: save_bytes(self, text.encode("utf-8"), suggested_name(stem, mime or "text/plain"))
            )
            head.addWidget(save)
            block = TextBlock(text)
            block.link_requested.connect(self.link_requested)
            lay.addWidget(block)
        else:
            data = decode_b64(res.get("blob")) or b""
            if mime.startswith("image/"):
                lay.addWidget(ImageBlock(data, mime))
            else:
                lay.addWidget(BinaryBlock("Binary content", data, mime, "resource"))
        return box

    def _structured(self, value: Any, result: Any, schema: dict[str, Any] | None) -> QWidget:
        box = QWidget()
        lay = QVBoxLayout(box)
        lay.setContentsMargins(0, 0, 0, 0)
        valid = getattr(result, "structured_valid", None)
        err = getattr(result, "structured_error", None)
        if valid is True:
            mark = "✓ Structured result matches the tool's output schema"
            colour = "#1b5e20"
        elif valid is False:
            mark = "✗ Structured result does NOT match the tool's output schema" + (f": {err}" if err else "")
            colour = "#b71c1c"
        else:
            mark = (
                "Structured result (the tool declares no output schema)"
                if not schema
                else "Structured result"
            )
            colour = "palette(text)"
        head = _section(mark)
        head.setObjectName("structuredMark")
        head.setStyleSheet(f"color: {colour};")
        lay.addWidget(head)
        lay.addWidget(JsonTree(to_jsonable(value)))
        return box


def _role_heading(view: ResultView, block: dict[str, Any]) -> QWidget:
    """A prompt message's role ("user", "assistant") above its content."""
    return _section(f"{block.get('role', '?')}:")


BLOCK_BUILDERS: dict[str, Callable[[ResultView, dict[str, Any]], QWidget]] = {
    "x-role": _role_heading,
    "text": ResultView._text,
    "image": ResultView._image,
    "audio": ResultView._audio,
    "resource_link": ResultView._resource_link,
    "resource": ResultView._embedded,
}
