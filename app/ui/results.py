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
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer, QUrl, Signal, Slot
from PySide6.QtGui import QGuiApplication, QImage, QPixmap, QTextCursor, QTextOption
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

from app.ui.elide import PREVIEW_CHARS, cap_end, cap_middle, display_pieces, json_preview
from app.ui.markdown_view import SafeMarkdownView
from app.ui.safe_text import plain_label, plain_tooltip, visible, visible_line
from app.ui.widgets import tool_button

if TYPE_CHECKING:
    from app.ui.models.history import HistoryEntry

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


def save_bytes(parent: QWidget, data: bytes | str, suggested: str) -> QFileDialog:
    """Ask where to save (a dialog opened with open(), no nested loop) and write `data` there
    (text as UTF-8, exactly)."""
    writer = BackgroundWriter(parent)
    return ask_save_path(parent, suggested, lambda path: writer.write(path, data))


def ask_save_path(parent: QWidget, suggested: str, on_path: Callable[[str], None]) -> QFileDialog:
    """A save dialog opened with open(): `on_path` gets the chosen path when the person accepts."""
    dialog = QFileDialog(parent, QCoreApplication.translate("ResultView", "Save as"))
    dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    dialog.setFileMode(QFileDialog.FileMode.AnyFile)
    dialog.selectFile(visible_line(suggested))  # no rtl\u202egnp.exe posing as a picture
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.fileSelected.connect(on_path)
    dialog.open()
    return dialog


class BackgroundWriter(QObject):
    """Writes text or bytes to a file on a worker thread, in slices, so a 100 MB answer is saved
    without freezing the window; the text is written exactly (no newline translation).

    Signals:
        finished(path, error): the file is written (error is "" then) or could not be.
    """

    finished = Signal(str, str)
    SLICE = 1 << 20

    def write(self, path: str, data: str | bytes) -> None:
        threading.Thread(target=self._write, args=(path, data), name="save-result", daemon=True).start()

    def _write(self, path: str, data: str | bytes) -> None:
        try:
            if isinstance(data, str):
                with open(path, "w", encoding="utf-8", newline="") as fh:
                    for i in range(0, len(data), self.SLICE):
                        fh.write(data[i : i + self.SLICE])
            else:
                with open(path, "wb") as fh:
                    view = memoryview(data)
                    for i in range(0, len(view), self.SLICE):
                        fh.write(view[i : i + self.SLICE])
        except OSError as exc:
            logger.info("could not save %s: %s", path, exc)
            self.finished.emit(path, exc.strerror or str(exc))
            return
        self.finished.emit(path, "")


def suggested_name(stem: str, mime: str | None) -> str:
    if "." in stem.strip("."):
        return stem  # already has an extension (a resource URI's last segment, say)
    ext = mimetypes.guess_extension(mime or "") or ".bin"
    return f"{stem}{ext}"


class TextBlock(QWidget):
    """Plain text by default; a Markdown view that fetches nothing and asks before opening links.

    Text of any length keeps the window responsive: what is shown is a preview of the first
    `PREVIEW_CHARS` characters with long lines broken for display (see `app.ui.elide`); "Show
    all" adds the rest in slices, one per loop turn (up to `FULL_VIEW_CHARS`), and "Save to
    file…" writes the exact text. The Markdown view is offered for texts up to `MARKDOWN_CHARS`.

    Signals:
        link_requested(url): the person clicked a link in the Markdown view.
        fully_shown(): "Show all" has put everything it will show into the view.
        saved(path, error): "Save to file…" finished (error is "" when the file was written).
    """

    link_requested = Signal(QUrl)
    fully_shown = Signal()
    saved = Signal(str, str)

    PREVIEW_CHARS = PREVIEW_CHARS
    FULL_VIEW_CHARS = 10_000_000  # beyond this "Show all" stops: QTextDocument keeps 2 bytes a char
    SLICE_CHARS = 200_000  # what "Show all" adds per loop turn (a few ms of layout)
    MARKDOWN_CHARS = 50_000

    def __init__(self, text: str, parent: QWidget | None = None, *, stem: str = "result") -> None:
        super().__init__(parent)
        self._text = text
        self._stem = stem
        self.save_dialog: QFileDialog | None = None
        self._writer = BackgroundWriter(self)
        self._writer.finished.connect(self._saved)
        self._feed_timer = QTimer(self)
        self._feed_timer.setInterval(0)
        self._feed_timer.timeout.connect(self._feed)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        self.notice = plain_label("", wrap=True)
        self.notice.setObjectName("textNotice")
        self.notice.setStyleSheet("color: palette(mid);")
        bar.addWidget(self.notice, 1)
        self.show_all_button = QPushButton(self.tr("Show all"))
        self.show_all_button.setToolTip(self.tr("Show the whole text here (it is added a part at a time)"))
        self.show_all_button.clicked.connect(self.show_all)
        bar.addWidget(self.show_all_button)
        self.save_button = QPushButton(self.tr("Save to file…"))
        self.save_button.setToolTip(self.tr("Save the whole text, exactly as the server sent it"))
        self.save_button.clicked.connect(self.save_to_file)
        bar.addWidget(self.save_button)
        self.markdown_toggle = tool_button(self.tr("Markdown view"))
        self.markdown_toggle.setCheckable(True)
        self.markdown_toggle.setToolTip(self.tr("Show the text formatted as Markdown (no images are loaded)"))
        bar.addWidget(self.markdown_toggle)
        lay.addLayout(bar)
        self.stack = QStackedWidget()
        self.plain = QPlainTextEdit()
        self.plain.setReadOnly(True)
        # A long run without spaces wraps anywhere instead of overflowing (or being measured whole).
        self.plain.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.plain.setAccessibleName(self.tr("Result text"))
        self._pieces = display_pieces(text, 0, self.FULL_VIEW_CHARS)
        self._shown_to = 0  # position in `text` up to which the view holds it
        shown = self._take(self.PREVIEW_CHARS)
        self.plain.setPlainText(shown)
        self.markdown: SafeMarkdownView | None = None
        self.stack.addWidget(self.plain)
        truncated = self._shown_to < len(text)
        self.show_all_button.setVisible(truncated)
        self.save_button.setVisible(truncated or len(shown) != len(text))
        if len(text) > self.MARKDOWN_CHARS:
            self.markdown_toggle.setEnabled(False)
            self.markdown_toggle.setToolTip(
                self.tr(
                    "This text is too long for the Markdown view (more than %n characters).",
                    "",
                    self.MARKDOWN_CHARS,
                )
            )
        self._say()
        # Short answers get a box their size; long ones a tall box that scrolls.
        lines = shown.count("\n") + 1 + len(shown) // 120
        line_h = self.plain.fontMetrics().lineSpacing()
        if lines <= 12:
            self.plain.setFixedHeight(lines * line_h + 16)
            self.stack.setFixedHeight(lines * line_h + 16)  # a stack sizes itself by its largest hint
            self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        else:
            self.plain.setMinimumHeight(min(320, 12 * line_h + 16))
        lay.addWidget(self.stack)
        self.markdown_toggle.toggled.connect(self._toggle)

    # --- how much is shown --------------------------------------------------------------------
    def text(self) -> str:
        """The whole text, as the server sent it."""
        return self._text

    def shown_chars(self) -> int:
        """How many characters of the text the view holds (not counting breaks added for display)."""
        return self._shown_to

    def is_truncated(self) -> bool:
        return self._shown_to < len(self._text)

    def _take(self, budget: int) -> str:
        """The next display lines, about `budget` characters of them."""
        out: list[str] = []
        taken = 0
        for piece, pos in self._pieces:
            out.append(visible(piece))  # bidi and invisible characters shown, as everywhere
            taken += len(piece) + 1
            self._shown_to = pos
            if taken >= budget:
                break
        return "\n".join(out)

    def _say(self) -> None:
        total = len(self._text)
        if self._shown_to < total:
            if self._feed_timer.isActive():
                text = self.tr("Showing {shown:,} of {total:,} characters…")
            elif self._shown_to >= self.FULL_VIEW_CHARS:
                text = self.tr(
                    "Showing the first {shown:,} of {total:,} characters: save it to a file to read all."
                )
            else:
                text = self.tr("Showing the first {shown:,} of {total:,} characters.")
            self.notice.setText(text.format(shown=self._shown_to, total=total))
            self.notice.show()
        elif not self.save_button.isHidden():  # (isVisible is False until the block is on screen)
            self.notice.setText(
                self.tr("Long lines are broken for display; the saved file keeps them whole.")
            )
            self.notice.show()
        else:
            self.notice.hide()

    @Slot()
    def show_all(self) -> None:
        """Add the rest of the text to the view, one slice per loop turn."""
        self.show_all_button.setEnabled(False)
        self._feed_timer.start()
        self._say()

    @Slot()
    def _feed(self) -> None:
        before = self._shown_to
        chunk = self._take(self.SLICE_CHARS)
        if self._shown_to > before:
            # A cursor of our own: appending neither moves the person's cursor nor scrolls.
            cursor = QTextCursor(self.plain.document())
            cursor.movePosition(QTextCursor.MoveOperation.End)
            cursor.insertText("\n" + chunk)
        if self._shown_to == before or self._shown_to >= min(len(self._text), self.FULL_VIEW_CHARS):
            self._feed_timer.stop()
            self.show_all_button.hide()
            self._say()
            self.fully_shown.emit()
            return
        self._say()

    # --- saving -------------------------------------------------------------------------------
    @Slot()
    def save_to_file(self) -> None:
        self.save_dialog = ask_save_path(self, suggested_name(self._stem, "text/plain"), self.save_to)

    @Slot(str)
    def save_to(self, path: str) -> None:
        self.save_dialog = None
        self.save_button.setEnabled(False)
        self._writer.write(path, self._text)

    @Slot(str, str)
    def _saved(self, path: str, error: str) -> None:
        self.save_button.setEnabled(True)
        if error:
            self.notice.setText(self.tr("Could not save to {path}: {error}").format(path=path, error=error))
        else:
            self.notice.setText(self.tr("Saved to {path}.").format(path=path))
        self.notice.show()
        self.saved.emit(path, error)

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
            item = QTreeWidgetItem(parent, [cap_middle(key), summary])
            self._add(item, value)
        else:
            # A cell is one line: a long string is cut before Qt measures it to elide it.
            item = QTreeWidgetItem(parent, [cap_middle(key), cap_end(json_preview(value, indent=None), 1000)])


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

    def show_cancelled(self, elapsed: float | None = None) -> None:
        """The person cancelled the call: a neutral outcome, not a failure (no red, no error)."""
        self.clear()
        if elapsed is not None:
            text = self.tr("Cancelled after {seconds:.2f} s.").format(seconds=elapsed)
        else:
            text = self.tr("Cancelled.")
        self._set_status(text, "cancelled")

    def show_entry(self, entry: HistoryEntry) -> None:
        """A past call from the History, shown as it ended (a draft has no answer to show)."""
        if entry.draft:
            return
        if entry.cancelled:
            self.show_cancelled()
        elif entry.failure is not None:
            self.show_failure(entry.failure)
        elif entry.result is not None:
            self.show_result(entry.result)

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
        colours = {
            "ok": "#1b5e20",
            "error": "#b71c1c",
            "failed": "#b71c1c",
            "cancelled": "palette(text)",  # neutral: the person chose it, nothing went wrong
            "": "palette(text)",
        }
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
        lay.addWidget(plain_label(f"Resource link: {cap_middle(name)}\n{cap_middle(uri, 500)}"), 1)
        b = QPushButton("Read resource")
        b.setToolTip(plain_tooltip(cap_middle(uri, 500)))
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
        head.addWidget(
            plain_label(
                f"Resource: {cap_middle(uri, 500)}" + (f" ({cap_middle(mime, 100)})" if mime else "")
            ),
            1,
        )
        lay.addLayout(head)
        if "text" in res:
            text = str(res.get("text", ""))
            save = QPushButton("Save…")
            stem = uri.rstrip("/").rsplit("/", 1)[-1].split("?")[0] or "resource"
            save.clicked.connect(lambda: save_bytes(self, text, suggested_name(stem, mime or "text/plain")))
            head.addWidget(save)
            block = TextBlock(text, stem=stem)
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
            mark = "✗ Structured result does NOT match the tool's output schema" + (
                f": {cap_end(str(err), 500)}" if err else ""
            )
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
