"""Server text is shown as plain text with its invisible characters visible: `app.mcp.visible`
(used by the window and the CLI) and the Qt helpers in `app.ui.safe_text` built on it."""

from __future__ import annotations

import json
import unicodedata
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QLabel, QMessageBox

from app.mcp.visible import visible, visible_json, visible_line

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

BIDI = [*"\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"]
INVISIBLE = [*BIDI, *"\u200b\u2060\u2061\u2062\u2063\u2064\ufeff\u00ad\u180e", "\U000e0001", "\U000e0041"]
# Format characters that draw a visible sign (they span the digits after them): left alone.
PREPENDED_MARKS = {*range(0x600, 0x606), 0x6DD, 0x70F, 0x890, 0x891, 0x8E2, 0x110BD, 0x110CD}


def test_a_name_cannot_pose_as_another() -> None:
    assert visible("rtl\u202egnp.exe") == "rtl⟨U+202E⟩gnp.exe"
    assert visible("pay\u200bpal") == "pay⟨U+200B⟩pal"
    assert visible("hidden\U000e0069\U000e0067") == "hidden⟨U+E0069⟩⟨U+E0067⟩"
    assert visible("a\u2066b\u2069") == "a⟨U+2066⟩b⟨U+2069⟩"
    for c in INVISIBLE:
        assert visible(f"x{c}y") == f"x⟨U+{ord(c):04X}⟩y", f"U+{ord(c):04X}"


def test_terminal_controls_are_shown_tab_and_newline_kept() -> None:
    assert visible("red \x1b[31mtext\x07\n\tok\x85") == "red ⟨U+001B⟩[31mtext⟨U+0007⟩\n\tok⟨U+0085⟩"
    assert visible("a\r\nb\rc") == "a\nb⟨U+000D⟩c"  # CR LF is a line end; a lone CR rewrites a line
    assert visible("\x00\x7f\x9b") == "⟨U+0000⟩⟨U+007F⟩⟨U+009B⟩"
    assert visible("\ud800") == "⟨U+D800⟩"  # a lone surrogate (JSON allows one) cannot reach Qt


def test_one_line_places_show_line_breaks() -> None:
    assert visible_line("safe\nrm -rf\u2028x\u2029") == "safe⟨U+000A⟩rm -rf⟨U+2028⟩x⟨U+2029⟩"
    assert visible_line("tab\there") == "tab\there"
    assert visible("two\nlines") == "two\nlines"


def test_right_to_left_letters_and_joiners_stay() -> None:
    arabic = "أداة البحث في الملفات"
    hebrew = "כלי חיפוש בקבצים"
    persian = "می\u200cخواهم"  # the zero width non-joiner is part of the word
    devanagari = "क्\u200dष"
    emoji = "👩\u200d💻 and 👨🏽\u200d🚀 and ❤\ufe0f\u200d🔥"
    arabic_number = "\u0600١٢٣"  # a prepended mark, drawn as a sign over the digits
    for text in (arabic, hebrew, persian, devanagari, emoji, arabic_number, "naïve café 中文"):
        assert visible(text) == text
        assert visible_line(text) == text
        assert json.loads(visible_json(text)) == text
    # A joiner between ASCII letters joins nothing: it only makes two names look alike.
    assert visible("de\u200clete") == "de⟨U+200C⟩lete"
    assert visible("\u200dstart") == "⟨U+200D⟩start"


def test_every_format_and_control_character_is_covered() -> None:
    """The written-out list matches this Python's Unicode data: every Cf (but the prepended
    marks), every Cc but tab and newline, every surrogate; letters, digits, marks, symbols,
    punctuation and spaces untouched."""
    missed, touched = [], []
    for cp in range(0x110000):
        c = chr(cp)
        cat = unicodedata.category(c)
        shown = visible(f"a{c}a") != f"a{c}a"
        must = (cat == "Cf" and cp not in PREPENDED_MARKS) or cat == "Cs" or (cat == "Cc" and c not in "\t\n")
        if must and not shown and c not in "\u200c\u200d\r":
            missed.append(f"U+{cp:04X}")
        elif shown and not must and cat != "Cn" and cp not in (0x115F, 0x1160, 0x3164, 0xFFA0):
            touched.append(f"U+{cp:04X}")
    assert missed == [] and touched == []


def test_json_views_stay_faithful() -> None:
    value = {"name": "rtl\u202egnp.exe", "k\u200b": ["\x1b[2J", "\x85", "\U000e0041", "ok", "حسنا"]}
    text = visible_json(value, indent=2)
    assert json.loads(text) == value  # the same value...
    assert "\\u202e" in text and "\\u200b" in text and "\\udb40\\udc41" in text  # ...visibly
    assert all(c not in text for c in ("\u202e", "\u200b", "\x1b", "\x85", "\U000e0041"))
    assert "حسنا" in text


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_visible_output_holds_nothing_invisible(text: str) -> None:
    shown = visible_line(text)
    assert visible_line(shown) == shown  # showing twice changes nothing
    left = [c for c in shown if c not in "\u200c\u200d" and unicodedata.category(c) in ("Cf", "Cc", "Cs")]
    assert all(c == "\t" or ord(c) in PREPENDED_MARKS for c in left)
    assert json.loads(visible_json(text)) == text


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=0xFF), min_size=64, max_size=400))
def test_the_latin1_fast_path_agrees_with_the_slow_one(text: str) -> None:
    """Long Latin-1 text skips the regular expression when nothing needs showing: same answers."""
    assert visible(text) == "".join(visible(c) for c in text.replace("\r\n", "\n"))
    assert visible_line(text) == "".join(visible_line(c) for c in text)
    assert json.loads(visible_json(text)) == text


# --- the Qt helpers -------------------------------------------------------------------------------


def test_tooltips_show_html_literally(qapp: Any) -> None:
    from app.ui.safe_text import plain_tooltip

    hostile = (
        '<b>bold</b> <img src="http://127.0.0.1:9/x.png"> <a href="http://e.example">x</a>\nrtl\u202egnp.exe'
    )
    tip = plain_tooltip(hostile)
    assert "<b>" not in tip and "<img" not in tip and "<a " not in tip
    doc = QTextDocument()
    doc.setHtml(tip)  # what Qt's tooltip shows
    assert doc.toPlainText() == visible(hostile)


def test_labels_stay_plain_on_every_set_text(qtbot: Any) -> None:
    from app.ui.forms.base import plain_label as form_label
    from app.ui.safe_text import plain_label

    for make in (plain_label, form_label):
        label = make("<b>first</b>\u202e")
        qtbot.addWidget(label)
        assert label.textFormat() == Qt.TextFormat.PlainText
        assert label.text() == "<b>first</b>⟨U+202E⟩"
        label.setText('<img src="http://127.0.0.1:9/x.png">\u2066')  # later texts too
        assert label.text() == '<img src="http://127.0.0.1:9/x.png">⟨U+2066⟩'


def test_message_boxes_show_every_text_plainly(qtbot: Any) -> None:
    from app.ui.safe_text import plain_box

    box = QMessageBox()
    qtbot.addWidget(box)
    box.setWindowTitle("rtl\u202egnp.exe")
    box.setText("<b>main</b>\u202e")
    box.setInformativeText('<a href="http://e.example">more</a>\u200b')
    plain_box(box)
    labels = {w.text(): w for w in box.findChildren(QLabel) if w.text()}
    assert set(labels) == {"<b>main</b>⟨U+202E⟩", '<a href="http://e.example">more</a>⟨U+200B⟩'}
    assert all(w.textFormat() == Qt.TextFormat.PlainText for w in labels.values())
    assert not any(w.openExternalLinks() for w in labels.values())
    assert box.windowTitle() == "rtl⟨U+202E⟩gnp.exe"


def test_models_escape_tooltips_and_show_invisible_characters(qapp: Any) -> None:
    from app.ui.models.catalog import CatalogItem, CatalogModel
    from app.ui.models.log import LogModel, LogRow, TrafficModel, TrafficRow
    from app.ui.models.servers import FAILED, ServerListModel, ServerRow

    hostile = "<b>x</b> <img src='http://127.0.0.1:9/p.png'> rtl\u202egnp.exe"
    servers = ServerListModel()
    servers.set_servers([ServerRow("s\u202e1")])
    servers.update_state("s\u202e1", FAILED, hostile)
    idx = servers.index(0, 0)
    assert idx.data(ServerListModel.NameRole) == "s\u202e1"  # the key the window acts on
    assert idx.data(Qt.ItemDataRole.DisplayRole) == "s⟨U+202E⟩1"
    tip = idx.data(Qt.ItemDataRole.ToolTipRole)
    assert "<b>x" not in tip and "<img" not in tip and "\u202e" not in tip
    assert "\u202e" not in idx.data(ServerListModel.StatusTextRole)

    catalog = CatalogModel("tools")
    catalog.set_items("s", [CatalogItem("s", "rtl\u202egnp.exe", hostile, hostile)])
    idx = catalog.index(0, 0)
    assert "\u202e" not in idx.data(Qt.ItemDataRole.DisplayRole)
    assert "<b>x" not in idx.data(Qt.ItemDataRole.ToolTipRole)

    log = LogModel()
    log.append(LogRow(None, "s", "warning\u202e", "stderr", hostile))
    for col in range(5):
        shown = log.index(0, col).data(Qt.ItemDataRole.DisplayRole)
        tip = log.index(0, col).data(Qt.ItemDataRole.ToolTipRole) or ""  # no time: no tooltip
        assert "\u202e" not in shown and "\u202e" not in tip, col
        assert "<b>x" not in tip and "<img" not in tip, col

    message = {"jsonrpc": "2.0", "method": "notifications/message\u202e", "params": {"data": hostile}}
    row = TrafficRow(None, "s", "in", message)
    traffic = TrafficModel()
    traffic.append(row)
    assert "\u202e" not in traffic.index(0, 3).data(Qt.ItemDataRole.DisplayRole)
    assert "\u202e" not in row.as_json() and json.loads(row.as_json()) == message


def test_input_dialog_prompt_is_plain(qtbot: Any) -> None:
    """The import asks for a value with a prompt from the imported file (QInputDialog's AutoText label)."""
    from PySide6.QtWidgets import QInputDialog

    from app.ui.safe_text import plain_labels

    d = QInputDialog()
    qtbot.addWidget(d)
    d.setLabelText('<img src="http://127.0.0.1:9/x.png"> token\u202e')
    plain_labels(d)
    (label,) = [w for w in d.findChildren(QLabel) if w.text()]
    assert label.textFormat() == Qt.TextFormat.PlainText
    assert label.text() == '<img src="http://127.0.0.1:9/x.png"> token⟨U+202E⟩'


def test_server_filters_show_names_visibly_and_filter_by_the_real_name(qtbot: Any) -> None:
    from app.ui.dock import ServerFilterCombo

    combo = ServerFilterCombo()
    qtbot.addWidget(combo)
    combo.set_servers(["plain", "rtl\u202egnp"])
    assert [combo.itemText(i) for i in range(combo.count())][1:] == ["plain", "rtl⟨U+202E⟩gnp"]
    combo.setCurrentIndex(2)
    assert combo.server() == "rtl\u202egnp"
    combo.set_servers(["rtl\u202egnp", "other"])  # the choice survives a new list
    assert combo.server() == "rtl\u202egnp"
    combo.setCurrentIndex(0)
    assert combo.server() is None
