"""Showing a tool's answer as a person would want it.

Each content block gets a widget for its type (a lookup table, not a chain of ifs): text (safe
Markdown by default — nothing fetched, links confirmed —, plain text one click away and for JSON
or very long text), images (zoomable, savable), audio (savable), resource links (a button that
reads the resource), embedded resources (Markdown rendered, images shown, blobs savable). Result
data (structuredContent) is a table or labelled values (`app.ui.result_data`) with a note saying
whether it matches what the tool promised. An answer the tool marked as an error is "the tool
reported a problem"; a failed call (protocol error, timeout) is shown apart. The raw answer as
JSON (and "Copy as JSON") is for developer mode.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import mimetypes
import re
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QCoreApplication,
    QEvent,
    QObject,
    Qt,
    QTimer,
    QUrl,
    Signal,
    Slot,
)
from PySide6.QtGui import QGuiApplication, QImage, QPixmap, QResizeEvent, QTextCursor, QTextOption
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
    QVBoxLayout,
    QWidget,
)

from app.ui.developer_mode import developer_mode
from app.ui.elide import PREVIEW_CHARS, cap_end, cap_middle, display_pieces
from app.ui.markdown_view import SafeMarkdownView
from app.ui.result_data import DataView, JsonTree
from app.ui.safe_text import plain_label, plain_tooltip, visible, visible_line
from app.ui.theme import NoticeKind, colours, quiet_text_style, restyle_on_scheme_change
from app.ui.widgets import tool_button

__all__ = ["BinaryBlock", "DataView", "ImageBlock", "JsonTree", "ResultView", "TextBlock"]

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


def looks_like_json(text: str) -> bool:
    """An object or array as text (what many tools send beside their result data): shown as plain
    text, where Markdown would eat its indentation and asterisks."""
    head = text.lstrip()[:1]
    if head not in ("{", "["):
        return False
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


_MARKDOWN_SIGNS = re.compile(
    r"^\s{0,3}(#{1,6}\s|[-*+]\s|\d+[.)]\s|>|\|.*\||```|~~~)|\*\*|__|`|\]\(|^\s*(---|\*\*\*)\s*$",
    re.MULTILINE,
)


def has_markdown(text: str) -> bool:
    """Whether formatting would change how a text reads (headings, lists, emphasis, links, code,
    tables): if not, the text is shown as it is, without a "Formatted" switch to think about."""
    return bool(_MARKDOWN_SIGNS.search(text[: TextBlock.MARKDOWN_CHARS]))


def prefers_markdown(text: str, mime: str | None = None) -> bool:
    """Whether a text is shown as Markdown first: yes, unless it is JSON, another non-Markdown
    type (a resource's mimeType says so) or too long for the Markdown view."""
    if len(text) > TextBlock.MARKDOWN_CHARS or looks_like_json(text):
        return False
    if mime:
        m = mime.split(";")[0].strip().lower()
        return m in ("text/markdown", "text/x-markdown", "text/plain") or m.endswith("+markdown")
    return True


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

    def __init__(
        self,
        text: str,
        parent: QWidget | None = None,
        *,
        stem: str = "result",
        markdown: bool | None = None,
    ) -> None:
        """`markdown`: show the Markdown view first (None: when `prefers_markdown(text)`)."""
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
        # Not palette(mid): it vanishes on a dark palette.
        restyle_on_scheme_change(self.notice, lambda: self.notice.setStyleSheet(quiet_text_style()))
        bar.addWidget(self.notice, 1)
        bar.addStretch(1)  # the buttons sit on the right, also while the notice is hidden
        self.show_all_button = QPushButton(self.tr("Show all"))
        self.show_all_button.setToolTip(self.tr("Show the whole text here (it is added a part at a time)"))
        self.show_all_button.clicked.connect(self.show_all)
        bar.addWidget(self.show_all_button)
        self.save_button = QPushButton(self.tr("Save to file…"))
        self.save_button.setToolTip(self.tr("Save the whole text, exactly as the server sent it"))
        self.save_button.clicked.connect(self.save_to_file)
        bar.addWidget(self.save_button)
        self.markdown_toggle = tool_button(self.tr("Formatted"), auto_raise=True)
        self.markdown_toggle.setCheckable(True)
        self.markdown_toggle.setToolTip(
            self.tr(
                "Show the text formatted (Markdown: headings, lists, links; no images are loaded). "
                "Off: the text exactly as the server sent it."
            )
        )
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
        if markdown is None:
            # Formatted when it reads better so; plain words and JSON need no switch at all.
            markdown = prefers_markdown(text) and has_markdown(text)
        if self.markdown_toggle.isEnabled():
            if markdown:
                self.markdown_toggle.setChecked(True)
            else:
                self.markdown_toggle.hide()

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
            self.markdown.setAccessibleName(self.tr("Result text, formatted"))
            self.stack.addWidget(self.markdown)
        md = self.markdown if on else None
        self.stack.setCurrentWidget(md if md is not None else self.plain)
        if md is not None:
            # A stack is as tall as its tallest page: the formatted page sets the height while shown.
            self.stack.setMaximumHeight(16777215)
            self.stack.setMinimumHeight(0)
            md.fit_to_content(420)
            md.height_changed.connect(self._fit_stack)
            self._fit_stack()
        else:
            self._fit_stack()

    @Slot()
    def _fit_stack(self) -> None:
        page = self.stack.currentWidget()
        if page is self.markdown and self.markdown is not None:
            self.stack.setFixedHeight(self.markdown.height())
        elif self.plain.maximumHeight() < 16777215:  # a short text: its box is its size
            self.stack.setFixedHeight(self.plain.maximumHeight())
        else:
            self.stack.setMinimumHeight(self.plain.minimumHeight())
            self.stack.setMaximumHeight(16777215)

    def is_formatted(self) -> bool:
        """Whether the Markdown view is the one shown."""
        return self.markdown is not None and self.stack.currentWidget() is self.markdown


class ImageBlock(QWidget):
    """An image with zoom in/out/fit and Save."""

    def __init__(self, data: bytes, mime: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._data, self._mime = data, mime
        self.image = QImage.fromData(data)
        self.zoom = 1.0
        self.fitted = True  # a picture wider than the panel is shown whole until the person zooms
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        if self.image.isNull():
            what = self.tr("An image that could not be read")
        else:
            what = (
                self.tr("Image, %1 × %2 pixels")
                .replace("%1", str(self.image.width()))
                .replace("%2", str(self.image.height()))
            )
        info = plain_label(what, wrap=False)
        info.setToolTip(plain_tooltip(cap_middle(mime, 100)))
        bar.addWidget(info)
        bar.addStretch(1)
        for text, tip, slot in (
            ("−", self.tr("Zoom out"), self.zoom_out),
            ("+", self.tr("Zoom in"), self.zoom_in),
            ("1:1", self.tr("Actual size"), self.zoom_reset),
        ):
            b = tool_button(text)
            b.setToolTip(tip)
            b.setAccessibleName(tip)
            b.clicked.connect(slot)
            bar.addWidget(b)
        save = QPushButton(self.tr("Save…"))
        save.clicked.connect(lambda: save_bytes(self, self._data, suggested_name("image", self._mime)))
        bar.addWidget(save)
        lay.addLayout(bar)
        self.label = QLabel()
        self.label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.label.setAccessibleName(self.tr("Result image"))
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
            self.label.setText(self.tr("The image could not be read."))
            self.label.adjustSize()
            return
        w = max(1, int(self.image.width() * self.zoom))
        pix = QPixmap.fromImage(self.image).scaledToWidth(w, Qt.TransformationMode.SmoothTransformation)
        self.label.setPixmap(pix)
        self.label.resize(pix.size())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.fitted and not self.image.isNull() and self.width() > 40:
            zoom = min(1.0, (self.width() - 24) / max(1, self.image.width()))
            if abs(zoom - self.zoom) > 0.01:
                self.zoom = zoom
                self._render()

    @Slot()
    def zoom_in(self) -> None:
        self.fitted = False
        self.zoom = min(8.0, self.zoom * 1.25)
        self._render()

    @Slot()
    def zoom_out(self) -> None:
        self.fitted = False
        self.zoom = max(0.1, self.zoom / 1.25)
        self._render()

    @Slot()
    def zoom_reset(self) -> None:
        self.fitted = False
        self.zoom = 1.0
        self._render()


class BinaryBlock(QWidget):
    """Audio or a blob: what it is, how big, and Save (playback needs QtMultimedia, not shipped)."""

    def __init__(self, label: str, data: bytes, mime: str, stem: str, parent: QWidget | None = None) -> None:
        """`label`: what it is, in words (already translated)."""
        super().__init__(parent)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        size = self.tr("%1 (%2 bytes)").replace("%1", label).replace("%2", f"{len(data):,}")
        info = plain_label(size)
        info.setToolTip(plain_tooltip(cap_middle(mime, 100) if mime else self.tr("of an unknown kind")))
        lay.addWidget(info)
        lay.addStretch(1)
        save = QPushButton(self.tr("Save…"))
        save.clicked.connect(lambda: save_bytes(self, data, suggested_name(stem, mime)))
        lay.addWidget(save)


def _section(title: str) -> QLabel:
    label = plain_label(title, wrap=False)
    font = label.font()
    font.setBold(True)
    label.setFont(font)
    return label


class ResultView(QWidget):
    """The answer of the last call (or of a history entry), results first.

    In developer mode the raw answer (JSON) can be shown below the result and copied; otherwise
    a person sees the text, pictures and result data only.

    Signals:
        resource_link_clicked(uri): the person clicked a resource link in the result.
        link_requested(url): the person clicked a link in a Markdown view.
    """

    resource_link_clicked = Signal(str)
    link_requested = Signal(QUrl)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._json: Any = None
        self._kind = ""
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        head = QHBoxLayout()
        self.status = plain_label("", wrap=True)
        self.status.setObjectName("resultStatus")
        self.status.setAccessibleName(self.tr("What happened"))
        head.addWidget(self.status, 1)
        self.raw_button = tool_button(self.tr("Raw answer"))
        self.raw_button.setObjectName("rawAnswer")
        self.raw_button.setCheckable(True)
        self.raw_button.setToolTip(self.tr("Show the answer as the server sent it (JSON)"))
        self.raw_button.toggled.connect(self._show_raw)
        head.addWidget(self.raw_button)
        self.copy_button = QPushButton(self.tr("Copy as JSON"))
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
        self.raw_block: TextBlock | None = None
        self._developer_mode_changed(developer_mode().enabled())
        developer_mode().changed.connect(self._developer_mode_changed)
        self.clear()

    # --- developer mode and look --------------------------------------------------------------
    @Slot(bool)
    def _developer_mode_changed(self, on: bool) -> None:
        """The raw answer and "Copy as JSON" are developer things."""
        self.copy_button.setVisible(on)
        self.raw_button.setVisible(on)
        if not on:
            self.raw_button.setChecked(False)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self._set_status(self.status.text(), self._kind)
            for mark in self.findChildren(QLabel, "structuredMark"):
                _colour_mark(mark)
        super().changeEvent(event)

    @Slot(bool)
    def _show_raw(self, on: bool) -> None:
        if self.raw_block is not None:
            self.raw_block.setParent(None)
            self.raw_block.deleteLater()
            self.raw_block = None
        if on and self._json is not None:
            self.raw_block = TextBlock(self.json_text(), stem="answer", markdown=False)
            self.raw_block.setObjectName("rawAnswerText")
            self.body_layout.insertWidget(self.body_layout.count() - 1, self.raw_block)

    def _answer_set(self) -> None:
        """A new answer is shown: the copy button and (if open) the raw view follow it."""
        self.copy_button.setEnabled(self._json is not None)
        self._show_raw(self.raw_button.isChecked())

    # --- states -------------------------------------------------------------------------------
    def clear(self, message: str | None = None) -> None:
        for w in self.blocks:
            w.setParent(None)
            w.deleteLater()
        self.blocks = []
        self._json = None
        self._answer_set()
        self._set_status(
            message if message is not None else self.tr("Run the tool to see its answer here."), ""
        )

    def show_running(self) -> None:
        self.clear(self.tr("Running…"))

    def show_failure(self, message: str, elapsed: float | None = None) -> None:
        self.clear()
        if elapsed is not None:
            text = self.tr("The call failed after %1 s: %2").replace("%1", f"{elapsed:.2f}")
        else:
            text = self.tr("The call failed: %2")
        self._set_status(text.replace("%2", message), "failed")
        self._json = {"failed": message}
        self._answer_set()

    def show_cancelled(self, elapsed: float | None = None) -> None:
        """The person cancelled the call: a neutral outcome, not a failure (no red, no error)."""
        self.clear()
        if elapsed is not None:
            text = self.tr("Cancelled after %1 s.").replace("%1", f"{elapsed:.2f}")
        else:
            text = self.tr("Cancelled.")
        self._set_status(text, "cancelled")

    def show_left_running(self) -> None:
        """The person left a task running on the server: neutral, its result comes later."""
        self.clear()
        text = self.tr("Left running on the server: its result will be in the History when it ends.")
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
        timed = isinstance(elapsed, int | float)
        if is_error:
            # The tool ran, and its answer is an error (isError): the tool's words, not a failure.
            if timed:
                text = self.tr("The tool reported a problem (after %1 s):").replace("%1", f"{elapsed:.2f}")
            else:
                text = self.tr("The tool reported a problem:")
            self._set_status(text, "error")
        else:
            text = self.tr("Done in %1 s.").replace("%1", f"{elapsed:.2f}") if timed else self.tr("Done.")
            self._set_status(text, "ok")
        raw = getattr(result, "raw", None)
        self._json = to_jsonable(raw) if raw else to_jsonable(result)
        structured = getattr(result, "structured_content", None)
        data = to_jsonable(structured) if structured is not None else None
        for block in list(getattr(result, "content", None) or []):
            b = to_jsonable(block)
            if data is not None and not developer_mode().enabled() and _same_as_data(b, data):
                continue  # the text copy of the result data: the data itself is shown below
            self._add(self._block_widget(b))
        if structured is not None:
            self._add(self._structured(data, result, output_schema))
        if not self.blocks:
            self._add(plain_label(self.tr("(The tool's answer is empty.)")))
        self._answer_set()

    def show_contents(self, contents: list[Any], title: str = "") -> None:
        """Resource contents (resources/read) or prompt messages shown with the same widgets."""
        self.clear()
        self._set_status(title or self.tr("Read."), "ok")
        self._json = to_jsonable(contents)
        for c in contents:
            self._add(self._block_widget(to_jsonable(c)))
        if not self.blocks:
            self._add(plain_label(self.tr("(Nothing returned.)")))
        self._answer_set()

    def set_raw(self, raw: Any) -> None:
        """What "Raw answer" and "Copy as JSON" give, when it is more than the blocks shown."""
        self._json = raw
        self._answer_set()

    def json_text(self) -> str:
        return json.dumps(self._json, indent=2, ensure_ascii=False)

    @Slot()
    def copy_json(self) -> None:
        QGuiApplication.clipboard().setText(self.json_text())

    def status_text(self) -> str:
        return self.status.text()

    def status_kind(self) -> str:
        """ "ok", "error" (the tool reported a problem), "failed", "cancelled" or "" (no answer)."""
        return self._kind

    # --- building -----------------------------------------------------------------------------
    def _set_status(self, text: str, kind: str) -> None:
        notice: dict[str, NoticeKind] = {"ok": "success", "error": "error", "failed": "error"}
        self._kind = kind
        self.status.setText(text)
        self.status.setProperty("kind", kind)
        if kind in notice:
            # The notice's text colour: readable on the window's background in light and dark.
            colour = colours(notice[kind])[1]
            self.status.setStyleSheet(f"QLabel#resultStatus {{ color: {colour}; font-weight: bold; }}")
        elif kind:  # cancelled: neutral, the person chose it and nothing went wrong
            self.status.setStyleSheet("QLabel#resultStatus { font-weight: bold; }")
        else:
            self.status.setStyleSheet("")

    def _add(self, w: QWidget) -> None:
        self.blocks.append(w)
        self.body_layout.insertWidget(self.body_layout.count() - 1, w)

    def _block_widget(self, block: Any) -> QWidget:
        if not isinstance(block, dict):
            return TextBlock(json.dumps(block, indent=2, ensure_ascii=False), markdown=False)
        builder = BLOCK_BUILDERS.get(str(block.get("type", "")))
        if builder is None:
            # Resource contents (from resources/read) carry no "type"; unknown blocks show as JSON.
            if "uri" in block and ("text" in block or "blob" in block):
                return self._resource_contents(block)
            return TextBlock(json.dumps(block, indent=2, ensure_ascii=False), markdown=False)
        return builder(self, block)

    def _text(self, block: dict[str, Any]) -> QWidget:
        w = TextBlock(str(block.get("text", "")))
        w.link_requested.connect(self.link_requested)
        return w

    def _image(self, block: dict[str, Any]) -> QWidget:
        data = decode_b64(block.get("data"))
        if data is None:
            return plain_label(self.tr("(A picture that could not be read.)"))
        return ImageBlock(data, str(block.get("mimeType", "image/png")))

    def _audio(self, block: dict[str, Any]) -> QWidget:
        data = decode_b64(block.get("data")) or b""
        return BinaryBlock(self.tr("Sound"), data, str(block.get("mimeType", "")), "audio")

    def _resource_link(self, block: dict[str, Any]) -> QWidget:
        uri = str(block.get("uri", ""))
        name = str(block.get("title") or block.get("name") or uri)
        w = QWidget()
        lay = QHBoxLayout(w)
        lay.setContentsMargins(0, 0, 0, 0)
        label = plain_label(self.tr("The answer points to a resource: %1").replace("%1", cap_middle(name)))
        label.setToolTip(plain_tooltip(cap_middle(uri, 500)))
        lay.addWidget(label, 1)
        b = QPushButton(self.tr("Read resource"))
        b.setToolTip(plain_tooltip(cap_middle(uri, 500)))
        b.clicked.connect(lambda: self.resource_link_clicked.emit(uri))
        lay.addWidget(b)
        return w

    def _embedded(self, block: dict[str, Any]) -> QWidget:
        res = block.get("resource")
        return self._resource_contents(res if isinstance(res, dict) else {})

    def _resource_contents(self, res: dict[str, Any]) -> QWidget:
        """A resource's contents previewed: Markdown and text shown, images shown, the rest savable."""
        uri = str(res.get("uri", ""))
        mime = str(res.get("mimeType", "") or "")
        box = QWidget()
        lay = QVBoxLayout(box)
        lay.setContentsMargins(0, 0, 0, 0)
        head = QHBoxLayout()
        stem = uri.rstrip("/").rsplit("/", 1)[-1].split("?")[0] or "resource"
        title = plain_label(cap_middle(stem, 120), wrap=False)
        title.setObjectName("resourceTitle")
        tip = cap_middle(uri, 500) + (f"\n{cap_middle(mime, 100)}" if mime else "")
        title.setToolTip(plain_tooltip(tip))
        font = title.font()
        font.setBold(True)
        title.setFont(font)
        head.addWidget(title, 1)
        lay.addLayout(head)
        if "text" in res:
            text = str(res.get("text", ""))
            save = QPushButton(self.tr("Save…"))
            save.clicked.connect(lambda: save_bytes(self, text, suggested_name(stem, mime or "text/plain")))
            head.addWidget(save)
            block = TextBlock(text, stem=stem, markdown=prefers_markdown(text, mime))
            block.link_requested.connect(self.link_requested)
            lay.addWidget(block)
        else:
            data = decode_b64(res.get("blob")) or b""
            if mime.startswith("image/"):
                lay.addWidget(ImageBlock(data, mime))
            else:
                lay.addWidget(BinaryBlock(self.tr("A file"), data, mime, "resource"))
        return box

    def _structured(self, value: Any, result: Any, schema: dict[str, Any] | None) -> QWidget:
        box = QWidget()
        lay = QVBoxLayout(box)
        lay.setContentsMargins(0, 0, 0, 0)
        valid = getattr(result, "structured_valid", None)
        err = getattr(result, "structured_error", None)
        kind: NoticeKind | None = None
        if valid is True:
            mark = self.tr("Result data (it matches what the tool promised)")
        elif valid is False:
            mark = self.tr("Result data — the data does not match what the tool promised")
            if err:
                mark += "\n" + cap_end(str(err), 500)
            kind = "warning"
        else:
            mark = self.tr("Result data")
        head = _section(mark)
        head.setWordWrap(True)
        head.setObjectName("structuredMark")
        head.setToolTip(
            self.tr("structuredContent, checked against the tool's outputSchema")
            if schema
            else self.tr("structuredContent (the tool declares no outputSchema)")
        )
        if kind is not None:
            head.setProperty("noticeKind", kind)
            _colour_mark(head)
        lay.addWidget(head)
        lay.addWidget(DataView(value))
        return box


def _colour_mark(label: QLabel) -> None:
    kind = label.property("noticeKind")
    if kind in ("info", "warning", "error", "success", "neutral"):
        sheet = f"QLabel#structuredMark {{ color: {colours(kind)[1]}; }}"
        if sheet != label.styleSheet():
            label.setStyleSheet(sheet)


def _same_as_data(block: Any, data: Any) -> bool:
    """A text block that is the result data written out as JSON (the SDK sends both)."""
    if not isinstance(block, dict) or block.get("type") != "text":
        return False
    text = str(block.get("text", ""))
    if len(text) > 1_000_000 or not looks_like_json(text):
        return False
    return bool(json.loads(text) == data)


ROLES = {
    "user": str(QT_TRANSLATE_NOOP("ResultView", "Message from you:")),
    "assistant": str(QT_TRANSLATE_NOOP("ResultView", "Answer from the model:")),
}


def _role_heading(view: ResultView, block: dict[str, Any]) -> QWidget:
    """A prompt message's role ("user", "assistant") above its content, in words."""
    role = str(block.get("role", "?"))
    words = ROLES.get(role)
    return _section(QCoreApplication.translate("ResultView", words) if words else f"{visible_line(role)}:")


BLOCK_BUILDERS: dict[str, Callable[[ResultView, dict[str, Any]], QWidget]] = {
    "x-role": _role_heading,
    "text": ResultView._text,
    "image": ResultView._image,
    "audio": ResultView._audio,
    "resource_link": ResultView._resource_link,
    "resource": ResultView._embedded,
}
