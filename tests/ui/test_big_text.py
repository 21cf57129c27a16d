"""Big text from a hostile server keeps the window bounded (issue 8, "big text freezes the app").

Against the real window and `tests/servers/faults/hostile_server.py`: a 5 MB single-line answer is
shown as a bounded preview with "Show all" and "Save to file…" (which writes it exactly), a 100 KB
tool name is elided in the list, the title and the name line, a 5 MB description is previewed
with the whole of it one click away, and nothing widens the window. The 50,000-tool selection
fix is checked by what it does (lookups that do not scan the rows), not by a clock.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.ui.conftest import connect, run, run_tool_and_wait, select_tool, write_servers

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

REPO = Path(__file__).resolve().parents[2]
WIDTH, HEIGHT = 1200, 800


def hostile(*options: str) -> dict[str, Any]:
    return {
        "command": sys.executable,
        "args": ["-m", "tests.servers.faults.hostile_server", *options],
        "cwd": str(REPO),
    }


@contextmanager
def window_on(qtbot: Any, config_dir: Path, *options: str) -> Iterator[Any]:
    """The real main window with one server, `hostile`, started with `options`, connected."""
    from app.ui.controller import DeskController
    from app.ui.window import MainWindow

    write_servers(config_dir, {"hostile": hostile(*options)})
    controller = DeskController()
    controller.load_config()
    window = MainWindow(controller)
    qtbot.addWidget(window)
    window.resize(WIDTH, HEIGHT)
    window.show()
    qtbot.waitExposed(window)
    window.start_engine()
    try:
        connect(qtbot, window, "hostile")
        yield window
    finally:
        run(qtbot, controller.shutdown(), timeout=30)


def assert_within_window(window: Any) -> None:
    """Nothing the server sent made the window (or the right-hand panel) wider than it was made."""
    assert window.width() <= WIDTH
    panel = window.tool_panel
    assert panel.width() <= WIDTH
    assert panel.mapTo(window, panel.rect().topRight()).x() <= window.width()


# --- a 5 MB answer on one line -----------------------------------------------------------------
FIVE_MB = 5_000_000


def test_five_megabyte_answer_is_a_bounded_preview_and_saves_exactly(
    qtbot: Any, aloop: Any, config_dir: Path, tmp_path: Path
) -> None:
    from PySide6.QtWidgets import QFileDialog

    from app.ui.elide import LINE_CHARS
    from app.ui.models.log import TrafficModel
    from app.ui.results import TextBlock

    with window_on(qtbot, config_dir, "--result-bytes", str(FIVE_MB)) as w:
        select_tool(qtbot, w, "big", server="hostile")
        run_tool_and_wait(qtbot, w, timeout=60)
        blocks = w.tool_panel.result.findChildren(TextBlock)
        assert len(blocks) == 1
        block = blocks[0]
        qtbot.waitUntil(block.isVisible, timeout=5000)  # shown on the loop turn after it is added
        assert block.text() == "x" * FIVE_MB  # the answer itself is whole
        shown = block.plain.toPlainText()
        # The view holds the preview only, its one long line broken into display lines.
        assert len(shown) <= TextBlock.PREVIEW_CHARS + TextBlock.PREVIEW_CHARS // LINE_CHARS + LINE_CHARS
        assert shown.replace("\n", "") == "x" * block.shown_chars()
        assert max(len(line) for line in shown.split("\n")) <= LINE_CHARS
        assert block.is_truncated()
        assert block.show_all_button.isVisible() and block.save_button.isVisible()
        assert "5,000,000" in block.notice.text()
        assert not block.markdown_toggle.isEnabled()  # the Markdown view is never fed megabytes
        assert_within_window(w)
        assert w.tool_panel.result.area.horizontalScrollBar().maximum() == 0

        # The raw message in the traffic pane is bounded too: its long string is shown cut.
        bottom = w.bottom
        bottom.setCurrentWidget(bottom._traffic_page)
        answers = [
            r
            for r in range(bottom.traffic_filter.rowCount())
            if "result" in bottom.traffic_filter.index(r, 0).data(TrafficModel.RowRole).message
        ]
        bottom.traffic_view.setCurrentIndex(bottom.traffic_filter.index(answers[-1], 0))
        detail = bottom.traffic_detail.toPlainText()
        assert "more characters" in detail and len(detail) < 20_000

        # Save to file…: a dialog opened with open() (the loop keeps running), the file exact.
        block.save_button.click()
        dialog = block.save_dialog
        assert isinstance(dialog, QFileDialog) and dialog.isVisible()
        target = tmp_path / "answer.txt"
        dialog.selectFile(str(target))
        with qtbot.waitSignal(block.saved, timeout=30000) as saved:
            dialog.accept()
        assert saved.args == [str(target), ""]
        assert target.read_text(encoding="utf-8") == "x" * FIVE_MB
        assert "Saved to" in block.notice.text()

        # Show all: the rest arrives a slice per loop turn, still in short display lines.
        with qtbot.waitSignal(block.fully_shown, timeout=30000):
            block.show_all_button.click()
        assert block.shown_chars() == FIVE_MB and not block.is_truncated()
        doc = block.plain.document()
        assert doc.blockCount() >= FIVE_MB // LINE_CHARS
        assert block.plain.toPlainText().replace("\n", "") == "x" * FIVE_MB
        assert not block.show_all_button.isVisible()
        assert_within_window(w)


# --- a 100 KB name -----------------------------------------------------------------------------
def test_hundred_kilobyte_name_is_elided_in_the_list_title_and_name(
    qtbot: Any, aloop: Any, config_dir: Path
) -> None:
    from PySide6.QtCore import Qt

    from app.ui.elide import NAME_CHARS
    from app.ui.models.catalog import DISPLAY_CHARS

    long_name = "n" * 100_000
    with window_on(qtbot, config_dir, "--name-bytes", "100000", "--char", "n") as w:
        w.servers.select("hostile")
        view = w.catalog.views["tools"]
        rows = [view.model().index(r, 0) for r in range(view.model().rowCount())]
        shown = [str(i.data(Qt.ItemDataRole.DisplayRole)) for i in rows]
        assert any("…" in s for s in shown)
        # Title (the same 100 KB) and name, each capped: what Qt lays out is bounded.
        assert max(len(s) for s in shown) <= 2 * DISPLAY_CHARS + 3
        assert view.textElideMode() == Qt.TextElideMode.ElideMiddle
        assert w.catalog.select("tools", "hostile", long_name)
        qtbot.waitUntil(lambda: getattr(w.tool_panel.tool, "name", None) == long_name, timeout=5000)
        panel = w.tool_panel
        for label in (panel.title, panel.name):
            assert len(label.text()) <= NAME_CHARS
            drawn = label.displayed_text()
            assert "…" in drawn
            assert label.fontMetrics().horizontalAdvance(drawn) <= label.contentsRect().width()
        assert panel.name.text().startswith("hostile/nnn")
        assert_within_window(w)
        # The form and the Run button are still on screen, not pushed off to the right.
        assert panel.run_button.isVisible()
        assert panel.run_button.mapTo(w, panel.run_button.rect().topRight()).x() <= w.width()


# --- a 5 MB description ------------------------------------------------------------------------
def test_five_megabyte_description_is_previewed_and_shown_whole_on_request(
    qtbot: Any, aloop: Any, config_dir: Path
) -> None:
    from app.ui.results import TextBlock

    with window_on(qtbot, config_dir, "--description-bytes", str(FIVE_MB), "--char", "d") as w:
        select_tool(qtbot, w, "described", server="hostile")
        panel = w.tool_panel
        assert len(panel.description.text()) <= panel.DESCRIPTION_CHARS * 2
        assert panel.full_description.isVisible()
        assert_within_window(w)
        panel.full_description.click()
        dialog = panel.description_dialog
        assert dialog is not None and dialog.isVisible() and not dialog.isModal()
        block = dialog.findChild(TextBlock)
        assert block.text() == "d" * FIVE_MB
        assert block.is_truncated() and block.save_button.isVisible()
        dialog.close()


# --- 50,000 tools: selecting one does not scan them --------------------------------------------
class CountingItem:
    """Counts reads of `server` and `key`: a linear scan for one item reads them for every row."""

    reads = 0


def _items(n: int) -> list[Any]:
    from app.ui.models.catalog import CatalogItem

    class Item(CatalogItem):
        def __getattribute__(self, name: str) -> Any:
            if name in ("server", "key"):
                CountingItem.reads += 1
            return super().__getattribute__(name)

    return [Item("big", f"tool_{i:05d}", "", f"Generated tool number {i}") for i in range(n)]


def test_selecting_one_of_fifty_thousand_tools_neither_scans_nor_resets(qtbot: Any) -> None:
    from PySide6.QtCore import QModelIndex
    from PySide6.QtWidgets import QWidget

    from app.ui.catalog_panel import CatalogPanel

    host = QWidget()
    qtbot.addWidget(host)
    panel = CatalogPanel(host)
    model, proxy = panel.models["tools"], panel.proxies["tools"]
    model.set_items("big", _items(50_000))
    panel.set_server("big")
    assert proxy.rowCount() == 50_000
    resets: list[int] = []
    proxy.modelReset.connect(lambda: resets.append(1))
    model.modelReset.connect(lambda: resets.append(1))
    chosen: list[Any] = []
    panel.item_selected.connect(lambda kind, item: chosen.append(item))
    assert panel.select("tools", "big", "tool_00001")  # builds the lookups once
    CountingItem.reads = 0
    for key in ("tool_25000", "tool_49999", "tool_12345"):
        assert panel.select("tools", "big", key)
        assert chosen[-1].key == key
    # Three selections read a handful of names (the emitted item's), not 3 x 50,000.
    assert CountingItem.reads < 100, CountingItem.reads
    assert not resets
    assert proxy.mapFromSource(model.index(model.find("big", "tool_49999"), 0)).row() == 49_999
    assert not proxy.mapFromSource(QModelIndex()).isValid()


def test_relisting_fifty_thousand_tools_signals_once_not_per_row(qtbot: Any) -> None:
    from app.ui.models.catalog import CatalogFilterModel, CatalogModel

    model = CatalogModel("tools")
    proxy = CatalogFilterModel()
    proxy.setSourceModel(model)
    proxy.set_server("big")
    model.set_items("big", _items(50_000))
    changes: list[tuple[int, int]] = []
    model.dataChanged.connect(lambda a, b, *_: changes.append((a.row(), b.row())))
    added, removed, changed = model.set_items("big", _items(50_000))  # the same list, fresh objects
    assert (added, removed, changed) == ([], [], [])
    # One signal for the server's rows: each makes every filter recompute over all 50,000.
    assert changes == [(0, 49_999)]
    assert proxy.rowCount() == 50_000
    assert model.find("big", "tool_00007") == 7 and model.find("other", "tool_00007") == -1


# --- the helpers -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    ["", "abc", "abc\n", "a\n\nb", "\n", "x" * 4_500, "word " * 1_000, "x" * 2_000 + "\n" + "y" * 10],
)
def test_display_lines_keep_the_text_and_bound_every_line(text: str) -> None:
    from app.ui.elide import LINE_CHARS, display_lines, display_pieces, display_text

    lines = list(display_lines(text))
    assert all(len(line) <= LINE_CHARS for line in lines)
    assert display_text(text).replace("\n", "") == text.replace("\n", "")
    pieces = list(display_pieces(text))
    assert (pieces[-1][1] if pieces else 0) == len(text)
    if len(text) <= LINE_CHARS:
        assert display_text(text) == text  # short text is shown as it is


def test_markdown_view_is_never_fed_more_than_its_bound(qtbot: Any) -> None:
    from app.ui.markdown_view import SafeMarkdownView

    view = SafeMarkdownView()
    qtbot.addWidget(view)
    view.set_markdown("y" * 1_000_000)
    text = view.toPlainText()
    assert text.count("y") == SafeMarkdownView.MAX_CHARS
    assert "The text goes on" in text


def test_cap_middle_and_json_preview_are_bounded() -> None:
    from app.ui.elide import cap_middle, json_preview

    assert cap_middle("abcdefghij", 5) == "ab…ij"
    assert cap_middle("short", 5) == "short"
    assert len(cap_middle("x" * 100_000)) == 200
    text = json_preview({"result": {"content": [{"type": "text", "text": "x" * 10_000_000}]}})
    assert len(text) < 5_000 and "9,998,000 more characters" in text
