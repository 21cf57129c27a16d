"""The right-hand panel for the selected tool: what it is, its form, Run/Cancel and the answer."""

from __future__ import annotations

import json
import logging
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QEvent, Qt, Signal, Slot
from PySide6.QtGui import QHideEvent, QResizeEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.ui.developer_mode import developer_mode
from app.ui.elide import ELLIPSIS, ElidedLabel, cap_middle, preview
from app.ui.icons import icon
from app.ui.models.drafts import ToolDrafts, fit
from app.ui.results import ResultView, TextBlock
from app.ui.safe_text import plain_label, plain_tooltip
from app.ui.theme import (
    NoticeKind,
    badge_style,
    colours,
    notice_style,
    quiet_text_style,
    restyle_on_scheme_change,
)
from app.ui.widgets import TextLabel

logger = logging.getLogger(__name__)

# What a tool's annotations say, in words for people: (hint, value that shows the badge, words,
# the precise term for the tooltip, colour kind). Shown only when the server said so explicitly;
# nothing is shown for a hint left out (no "effects unknown").
BADGES: tuple[tuple[str, bool, str, str, NoticeKind], ...] = (
    (
        "readOnlyHint",
        True,
        str(QT_TRANSLATE_NOOP("ToolPanel", "Only reads")),
        str(QT_TRANSLATE_NOOP("ToolPanel", "The server says this tool only reads: it changes nothing.")),
        "success",
    ),
    (
        "changes",
        True,
        str(QT_TRANSLATE_NOOP("ToolPanel", "Changes things")),
        str(QT_TRANSLATE_NOOP("ToolPanel", "The server says this tool can change things.")),
        "warning",
    ),
    (
        "destructiveHint",
        True,
        str(QT_TRANSLATE_NOOP("ToolPanel", "Can delete things")),
        str(
            QT_TRANSLATE_NOOP(
                "ToolPanel",
                "The server says this tool may delete or change things. MCP Desk asks before running it.",
            )
        ),
        "error",
    ),
    (
        "idempotentHint",
        True,
        str(QT_TRANSLATE_NOOP("ToolPanel", "Safe to repeat")),
        str(QT_TRANSLATE_NOOP("ToolPanel", "Running it again with the same input changes nothing more.")),
        "neutral",
    ),
    (
        "openWorldHint",
        True,
        str(QT_TRANSLATE_NOOP("ToolPanel", "Works with the outside world")),
        str(
            QT_TRANSLATE_NOOP("ToolPanel", "The server says this tool reaches the internet or other systems.")
        ),
        "info",
    ),
)


def shown_hints(annotations: Any) -> list[str]:
    """Which badges a tool's annotations call for (keys of BADGES), in BADGES' order.

    "changes" is ours: the server said the tool is not read-only (or not destructive) and did not
    say it deletes. A read-only tool is trivially safe to repeat, so that is not said twice."""
    read_only = hint(annotations, "readOnlyHint")
    destructive = hint(annotations, "destructiveHint") is True and read_only is not True
    out: list[str] = []
    if read_only is True:
        out.append("readOnlyHint")
    elif not destructive and (read_only is False or hint(annotations, "destructiveHint") is False):
        out.append("changes")
    if destructive:
        out.append("destructiveHint")
    if hint(annotations, "idempotentHint") is True and read_only is not True:
        out.append("idempotentHint")
    if hint(annotations, "openWorldHint") is True:
        out.append("openWorldHint")
    return out


def hint(annotations: Any, key: str) -> bool | None:
    """An annotation hint as given by the server (None when the server did not say)."""
    if annotations is None:
        return None
    if isinstance(annotations, dict):
        value = annotations.get(key)
    else:
        snake = "".join("_" + c.lower() if c.isupper() else c for c in key)
        value = getattr(annotations, key, getattr(annotations, snake, None))
    return value if isinstance(value, bool) else None


def is_destructive(tool: Any) -> bool:
    """Explicitly annotated destructive (the spec's implicit default does not ask every time)."""
    ann = getattr(tool, "annotations", None)
    return hint(ann, "destructiveHint") is True and hint(ann, "readOnlyHint") is not True


def clean_description(text: str | None) -> str:
    """Docstring-style descriptions lose their common indentation (shown as plain text anyway)."""
    import inspect

    if text and text.strip():
        return inspect.cleandoc(text)
    return QCoreApplication.translate("ToolPanel", "The server gives no description of this tool.")


class Badge(QLabel):
    """A small coloured label (our words, plain text) whose colours follow the palette."""

    def __init__(self, text: str, kind: NoticeKind, key: str, parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.kind = kind
        self.key = key  # the annotation behind it (a BADGES key)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setObjectName("badge")
        self._restyle()

    def _restyle(self) -> None:
        sheet = f"QLabel#badge {{ {badge_style(self.kind)} }}"
        if sheet != self.styleSheet():  # setting it sends a PaletteChange of its own
            self.setStyleSheet(sheet)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self._restyle()
        super().changeEvent(event)


class JsonFormFallback(QWidget):
    """Used only if the forms package cannot build a form: the arguments as a JSON editor."""

    value_changed = Signal()

    def __init__(self, schema: dict[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(plain_label(self.tr("The form could not be built. Type the input as JSON:")))
        self.edit = QPlainTextEdit("{}")
        self.edit.setAccessibleName(self.tr("Input as JSON"))
        self.edit.textChanged.connect(self.value_changed)
        lay.addWidget(self.edit)
        self.error = plain_label("")
        self.error.setObjectName("jsonFallbackError")
        self._restyle()
        lay.addWidget(self.error)

    def _restyle(self) -> None:
        self.error.setStyleSheet(f"QLabel#jsonFallbackError {{ color: {colours('error')[1]}; }}")

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self._restyle()
        super().changeEvent(event)

    def value(self) -> Any:
        try:
            return json.loads(self.edit.toPlainText() or "{}")
        except ValueError:
            return None

    def set_value(self, v: Any) -> None:
        self.edit.setPlainText(json.dumps(v, indent=2))

    def errors(self) -> list[Any]:
        try:
            json.loads(self.edit.toPlainText() or "{}")
        except ValueError as exc:
            message = self.tr("This is not valid JSON: %1").replace("%1", str(exc))
            return [type("FieldError", (), {"path": (), "message": message})()]
        return []

    def show_errors(self, errors: list[Any]) -> None:
        self.error.setText("\n".join(e.message for e in errors))

    def focus_first_error(self) -> None:
        self.edit.setFocus()


def show_json_tab(form: QWidget, on: bool) -> None:
    """The form's JSON tab (the arguments as raw JSON) is for developers: shown in developer mode."""
    tabs = getattr(form, "tabs", None)
    json_page = getattr(form, "_json_page", None)
    if not isinstance(tabs, QTabWidget) or json_page is None:
        return
    i = tabs.indexOf(json_page)
    if i < 0:
        return
    if not on and tabs.currentIndex() == i:
        tabs.setCurrentIndex(0)
    tabs.setTabVisible(i, on)
    tabs.tabBar().setVisible(on)  # one tab left: no tab bar at all


def make_form(schema: dict[str, Any]) -> QWidget:
    try:
        from app.ui.forms import FormWidget

        return FormWidget(schema)
    except Exception:
        logger.exception("form could not be built; falling back to a JSON editor")
        return JsonFormFallback(schema)


class ToolPanel(QWidget):
    """Title, name, description, badges, the generated form, Run/Cancel, progress and result.

    What is typed into a tool's form is kept as a draft per server and tool for the session
    (`drafts`, memory only): leaving the tool (for another tool, a resource, another server, or
    the overview while the server reconnects) saves it, coming back restores it — as it was when
    the form is the same, else what still fits the new form.

    Signals:
        run_requested(): the person pressed Run (the window validates, confirms and calls).
        cancel_requested(): the person pressed Cancel or Esc while a call runs.
        draft_saved(server, tool, arguments): the person left `tool` with `arguments` typed
            (None when the form is as it was untouched); the History shows it as a draft.
    """

    run_requested = Signal()
    cancel_requested = Signal()
    draft_saved = Signal(str, str, object)

    DESCRIPTION_CHARS = 5_000
    FORM_MIN = 150  # px of the splitter's form side (with the Run row), however small the form

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.server: str | None = None
        self.tool: Any = None
        self.form: QWidget | None = None
        self._schema: Any = None
        self.drafts = ToolDrafts()
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 6, 6, 6)

        # Title and name are one elided line each: a server's 100 KB name must not widen the window.
        self.title = ElidedLabel()
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        f = self.title.font()
        f.setPointSizeF(f.pointSizeF() * 1.3)
        f.setBold(True)
        self.title.setFont(f)
        self.title.setAccessibleName(self.tr("Tool title"))
        outer.addWidget(self.title)
        self.name = ElidedLabel()
        self.name.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # Not palette(mid): it vanishes on a dark palette.
        mono = " font-family: monospace;"
        restyle_on_scheme_change(self.name, lambda: self.name.setStyleSheet(quiet_text_style() + mono))
        self.name.setAccessibleName(self.tr("Tool id"))
        self.name.setVisible(developer_mode().enabled())  # the server/tool id: developer mode only
        outer.addWidget(self.name)
        self.badges = QHBoxLayout()
        self.badges.setSpacing(4)
        self.badge_row = QWidget()
        self.badge_row.setLayout(self.badges)
        self.badges.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.badge_row)
        self.removed = plain_label("")
        self.removed.setObjectName("toolRemoved")
        self.removed.hide()
        outer.addWidget(self.removed)
        self.problem = plain_label("", wrap=True)  # what the engine found wrong with the tool's listing
        self.problem.setObjectName("toolProblem")
        self.problem.hide()
        outer.addWidget(self.problem)
        self._restyle()
        self.description = TextLabel()
        self.description.setAccessibleName(self.tr("Tool description"))
        self.desc_area = self.description  # it scrolls by itself; the name is kept for its height
        outer.addWidget(self.desc_area)
        self.full_description = QPushButton(self.tr("Show the full description…"))
        self.full_description.setObjectName("fullDescription")
        self.full_description.clicked.connect(self.show_full_description)
        self.full_description.hide()
        desc_row = QHBoxLayout()
        desc_row.addWidget(self.full_description)
        desc_row.addStretch(1)
        outer.addLayout(desc_row)
        self.description_dialog: QDialog | None = None
        self._description = ""

        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.setObjectName("toolSplitter")
        # Neither side can be squeezed out of sight: the form and its answer both stay reachable.
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setHandleWidth(8)
        top = QWidget()
        top_lay = QVBoxLayout(top)
        top_lay.setContentsMargins(0, 0, 0, 0)
        self.form_area = QScrollArea()
        self.form_area.setWidgetResizable(True)
        self.form_area.setFrameShape(QFrame.Shape.StyledPanel)
        top_lay.addWidget(self.form_area, 1)
        row = QHBoxLayout()
        self.run_button = QPushButton(icon("run"), self.tr("Run"))
        self.run_button.setToolTip(self.tr("Run the tool (Ctrl+Enter)"))
        self.run_button.setDefault(False)
        self.run_button.setAutoDefault(False)
        self.run_button.clicked.connect(self.run_requested)
        self.cancel_button = QPushButton(icon("cancel"), self.tr("Cancel"))
        self.cancel_button.setToolTip(self.tr("Stop the tool while it runs (Esc)"))
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel_requested)
        self.progress = QProgressBar()
        self.progress.setAccessibleName(self.tr("Progress"))
        self.progress.setTextVisible(True)
        self.progress.hide()
        self.progress_text = plain_label("", wrap=False)
        row.addWidget(self.run_button)
        row.addWidget(self.cancel_button)
        row.addWidget(self.progress, 1)
        row.addWidget(self.progress_text)
        row.addStretch(0)
        top_lay.addLayout(row)
        from app.ui.task_view import TaskView

        self.tasks = TaskView()  # a call the server runs as a task, and tasks left running
        top_lay.addWidget(self.tasks)
        self.splitter.addWidget(top)
        self.result = ResultView()
        self.splitter.addWidget(self.result)
        self.splitter.setStretchFactor(0, 0)  # a resize goes to the answer; the form keeps its size
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([300, 320])
        outer.addWidget(self.splitter, 1)
        developer_mode().changed.connect(self._developer_mode_changed)

    # --- look and developer mode -------------------------------------------------------------
    def _restyle(self) -> None:
        self.removed.setStyleSheet(notice_style("warning", "QLabel#toolRemoved"))
        self.problem.setStyleSheet(notice_style("warning", "QLabel#toolProblem"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self._restyle()
        super().changeEvent(event)

    @Slot(bool)
    def _developer_mode_changed(self, on: bool) -> None:
        self.name.setVisible(on)
        if self.form is not None:
            show_json_tab(self.form, on)

    # --- showing a tool -----------------------------------------------------------------------
    def show_tool(self, server: str, tool: Any, *, keep_input: bool = True) -> None:
        """Show `tool` with the draft typed for it earlier in the session, if any.

        The same tool with the same form keeps its form (and answer) as they are; a tool whose
        form changed (`keep_input` is kept for callers: input is always kept now) gets what still
        fits of what was typed."""
        self.save_draft()
        same = self.server == server and getattr(self.tool, "name", None) == tool.name
        self.server, self.tool = server, tool
        self.removed.hide()
        self._show_problem(tool)
        self.run_button.setEnabled(self.can_run())
        title = getattr(tool, "title", None) or tool.name
        self.title.setText(title)
        # The id is precise but not for people: in the tooltip, and on screen in developer mode.
        self.title.setToolTip(
            plain_tooltip(
                self.tr("%1\n\nName on the server: %2")
                .replace("%1", cap_middle(title, 500))
                .replace("%2", cap_middle(f"{server}/{tool.name}", 500))
            )
        )
        self.name.setText(f"{server}/{tool.name}")
        self.name.setToolTip(plain_tooltip(cap_middle(f"{server}/{tool.name}", 500)))
        self._set_description(clean_description(getattr(tool, "description", None)))
        # As tall as the text, up to about eight lines; longer descriptions scroll.
        self._fit_description()
        self._set_badges(getattr(tool, "annotations", None))
        schema = getattr(tool, "input_schema", None) or {"type": "object"}
        if same and schema == self._schema and self.form is not None:
            return  # same form: it (and what was typed, and the answer) stays as it is
        self._schema = schema
        form = make_form(schema)
        show_json_tab(form, developer_mode().enabled())
        self._set_form(form)
        self._fit_splitter()
        draft = self.drafts.get(server, tool.name)
        if draft is not None:
            self._restore(draft.value, same_form=draft.schema == schema)
        if not same:
            self.result.clear()

    # --- drafts -------------------------------------------------------------------------------
    def save_draft(self) -> None:
        """Keep what the shown tool's form holds (session memory only), and say so (draft_saved)."""
        if self.form is None or self.tool is None or self.server is None:
            return
        from app.forms.values import json_equal

        try:
            value = self.form_value()
        except Exception:
            logger.info("the form of %s could not be read for its draft", cap_middle(self.tool.name, 80))
            return
        name = str(self.tool.name)
        if json_equal(value, self._default()):
            self.drafts.drop(self.server, name)
            self.draft_saved.emit(self.server, name, None)
        else:
            self.drafts.put(self.server, name, self._schema, value)
            self.draft_saved.emit(self.server, name, value)

    def _fit_description(self) -> None:
        """As tall as the description at the width it has, up to about eight lines; longer ones scroll."""
        text = self.description.text()[:4000]  # more than eight lines' worth: it scrolls anyway
        fm = self.description.fontMetrics()
        width = max(80, self.description.viewport().width() - 8)
        rect = fm.boundingRect(0, 0, width, 100_000, int(Qt.TextFlag.TextWordWrap), text)
        lines = max(1, -(-rect.height() // fm.lineSpacing()))
        # The frame and the document's own margins on top of the lines, or the last line hides
        # behind a scroll bar.
        chrome = 2 * self.description.frameWidth() + int(2 * self.description.document().documentMargin())
        self.desc_area.setFixedHeight(min(8, lines) * fm.lineSpacing() + chrome + 6)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width() and self.tool is not None:
            self._fit_description()

    def hideEvent(self, event: QHideEvent) -> None:
        # The window shows another panel (a resource, a prompt, the overview): the person left.
        if not event.spontaneous():
            self.save_draft()
        super().hideEvent(event)

    def _set_description(self, text: str) -> None:
        """The panel holds at most DESCRIPTION_CHARS of it, long lines broken for display; a longer
        description is one click away, in a text view with "Show all" and "Save to file…"."""
        self._description = text
        shown, truncated = preview(text, self.DESCRIPTION_CHARS)
        self.full_description.setVisible(truncated)
        self.description.setText(shown + ELLIPSIS if truncated else shown)

    @Slot()
    def show_full_description(self) -> None:
        """The whole description in a window of its own (not modal: the panel stays usable)."""
        if self.description_dialog is not None:
            self.description_dialog.close()
        dialog = QDialog(self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        title = getattr(self.tool, "title", None) or self.tool.name
        dialog.setWindowTitle(self.tr("Description of %1").replace("%1", cap_middle(str(title), 80)))
        lay = QVBoxLayout(dialog)
        lay.addWidget(TextBlock(self._description, stem="description"), 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(dialog.close)
        lay.addWidget(buttons)
        dialog.resize(760, 520)
        dialog.destroyed.connect(self._description_closed)
        self.description_dialog = dialog
        dialog.show()

    @Slot()
    def _description_closed(self) -> None:
        self.description_dialog = None

    def _form_need(self) -> int:
        """The height the form's fields and the Run row need (not the form's generous size hint)."""
        if self.form is None:
            return 0
        area = getattr(self.form, "scroll_area", None)
        inner = area.widget() if isinstance(area, QScrollArea) else None
        need = self.form.sizeHint().height()
        if isinstance(area, QScrollArea) and inner is not None:
            # The form's own scroll area asks for a fixed size; its fields ask for what they need.
            need += inner.sizeHint().height() + 2 * area.frameWidth() - area.sizeHint().height()
        need += 2 * self.form_area.frameWidth() + 24  # margins and spacing the hints leave out
        return need + self.run_button.sizeHint().height() + 12

    def _fit_splitter(self) -> None:
        """Give the form what it needs (up to 80% until there is an answer) and the answer the rest."""
        total = sum(self.splitter.sizes())
        if total <= 0 or self.form is None:
            return
        form_h = max(self.FORM_MIN, min(self._form_need(), int(total * 0.8)))
        self.splitter.setSizes([form_h, max(1, total - form_h)])

    def _make_room_for_answer(self) -> None:
        """When a call starts: the form keeps what it needs (at most 60%), the answer gets the rest."""
        sizes = self.splitter.sizes()
        total = sum(sizes)
        if total <= 0:
            return
        form_h = max(self.FORM_MIN, min(self._form_need(), int(total * 0.6)))
        if sizes[0] > form_h or sizes[1] < total * 0.4:
            form_h = min(form_h, int(total * 0.6))
            self.splitter.setSizes([form_h, total - form_h])

    def _restore(self, value: Any, *, same_form: bool) -> None:
        """Put back what was typed: all of it into the same form, what still fits into a new one."""
        form = self.form
        if form is None:
            return
        try:
            if not same_form:
                from app.forms import build_form

                built = getattr(form, "form", None)
                value = fit(value, built if built is not None else build_form(self._schema))
                if value is None:
                    return
            form.set_value(value)  # type: ignore[attr-defined]
        except Exception:
            logger.info(
                "the draft does not fit the form of %s", cap_middle(getattr(self.tool, "name", "?"), 80)
            )

    def _default(self) -> Any:
        """What the untouched form sends."""
        try:
            built = getattr(self.form, "form", None)
            if built is None:
                from app.forms import build_form

                built = build_form(self._schema)
            return built.default_value()
        except Exception:
            return {}

    def mark_removed(self) -> None:
        self.removed.setText(self.tr("The server removed this tool. It can no longer be run."))
        self.removed.show()
        self.run_button.setEnabled(False)

    def is_removed(self) -> bool:
        return not self.removed.isHidden()

    def can_run(self) -> bool:
        """Not removed, and the engine could read what the tool takes (see ToolInfo.runnable)."""
        return not self.is_removed() and getattr(self.tool, "runnable", True) is not False

    def _show_problem(self, tool: Any) -> None:
        problem = getattr(tool, "problem", None)
        if not problem:
            self.problem.hide()
            return
        if getattr(tool, "runnable", True) is False:
            self.problem.setText(self.tr("This tool cannot be used: %1.").replace("%1", str(problem)))
        else:
            self.problem.setText(self.tr("Note: %1.").replace("%1", str(problem)))
        self.problem.show()

    def _set_badges(self, annotations: Any) -> None:
        while self.badges.count():
            item = self.badges.takeAt(0)
            w = item.widget() if item is not None else None
            if w is not None:
                w.hide()  # deleteLater alone leaves it painted until the next loop turn
                w.deleteLater()
        wanted = shown_hints(annotations)
        for key, _value, text, tip, kind in BADGES:
            if key in wanted:
                b = Badge(QCoreApplication.translate("ToolPanel", text), kind, key)
                term = "" if key == "changes" else f"\n({key})"
                b.setToolTip(QCoreApplication.translate("ToolPanel", tip) + term)
                self.badges.addWidget(b)
        self.badges.addStretch(1)
        self.badge_row.setVisible(bool(wanted))  # no annotations: no empty row

    def _set_form(self, form: QWidget) -> None:
        old = self.form_area.takeWidget()
        if old is not None:
            old.deleteLater()
        self.form = form
        self.form_area.setWidget(form)

    def _badge_widgets(self) -> list[Badge]:
        out = []
        for i in range(self.badges.count()):
            item = self.badges.itemAt(i)
            w = item.widget() if item is not None else None
            if isinstance(w, Badge):
                out.append(w)
        return out

    def badge_texts(self) -> list[str]:
        """The words of the badges shown (translated)."""
        return [b.text() for b in self._badge_widgets()]

    def badge_hints(self) -> list[str]:
        """Which annotations the shown badges stand for (BADGES keys: "readOnlyHint", …)."""
        return [b.key for b in self._badge_widgets()]

    def form_value(self) -> Any:
        return self.form.value() if self.form is not None else {}  # type: ignore[attr-defined]

    # --- running ------------------------------------------------------------------------------
    def set_running(self, running: bool) -> None:
        self.run_button.setEnabled(not running and self.can_run())
        self.cancel_button.setEnabled(running)
        if running:
            self._make_room_for_answer()
            self.progress.setRange(0, 0)  # busy until the server reports progress
            self.progress.show()
            self.progress_text.setText("")
            self.result.show_running()
        else:
            self.progress.hide()
            self.progress_text.setText("")

    @Slot(float, object, str)
    def set_progress(self, progress: float, total: Any, message: str) -> None:
        if total:
            self.progress.setRange(0, 1000)
            self.progress.setValue(int(1000 * min(1.0, progress / float(total))))
            self.progress.setFormat(
                self.tr("%1 of %2").replace("%1", f"{progress:g}").replace("%2", f"{float(total):g}")
            )
        else:
            self.progress.setRange(0, 0)
        self.progress_text.setText(message)
