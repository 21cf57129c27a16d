"""Issue 11, item 2: scrolling a form with the wheel never changes a pick list the pointer passes over.

A phone kind went from "mobile" to "work" and was sent: Qt's combo box takes focus from the wheel
(`Qt.WheelFocus`) and then turns it. Value widgets now take the wheel only when focused; unfocused, the
wheel scrolls the form.
"""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QComboBox, QWidget
from pytestqt.qtbot import QtBot

from app.ui.forms import FormWidget
from app.ui.forms.container_editors import VariantEditor
from app.ui.forms.scalar_editors import ChoiceEditor

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

PHONE = {
    "type": "object",
    "properties": {
        "kind": {"type": "string", "enum": ["mobile", "work", "home"], "default": "mobile"},
        "contact": {
            "anyOf": [
                {"type": "object", "title": "Phone", "properties": {"number": {"type": "string"}}},
                {"type": "object", "title": "E-mail", "properties": {"address": {"type": "string"}}},
            ]
        },
        **{f"field_{i}": {"type": "string", "description": f"Field number {i}"} for i in range(40)},
    },
    "required": ["kind", "contact"],
}


def wheel_down(widget: QWidget) -> None:
    """One notch of the wheel, down, over the middle of `widget`."""
    local = QPointF(widget.rect().center())
    event = QWheelEvent(
        local,
        QPointF(widget.mapToGlobal(local.toPoint())),
        QPoint(0, 0),
        QPoint(0, -120),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(widget, event)


def shown_form(qtbot: QtBot, schema: Any) -> FormWidget:
    form = FormWidget(schema)
    qtbot.addWidget(form)
    form.finish_building()
    form.resize(420, 300)
    form.show()
    qtbot.waitExposed(form)
    bar = form.scroll_area.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    return form


def test_wheel_over_an_unfocused_pick_list_scrolls_the_form(qtbot: QtBot) -> None:
    form = shown_form(qtbot, PHONE)
    combo = form.root.child_row("kind").editor  # type: ignore[union-attr]
    assert isinstance(combo, ChoiceEditor)
    assert form.value()["kind"] == "mobile"
    # Qt.WheelFocus (a combo box's default) is what made the wheel grab the list while scrolling past.
    assert combo.focusPolicy() == Qt.FocusPolicy.StrongFocus
    assert not combo.hasFocus()
    bar = form.scroll_area.verticalScrollBar()
    assert bar.value() == 0

    wheel_down(combo)
    assert form.value()["kind"] == "mobile"
    assert combo.currentText() == "mobile"
    assert bar.value() > 0, "the wheel should have scrolled the form"


def test_wheel_over_an_unfocused_kind_picker_scrolls_the_form(qtbot: QtBot) -> None:
    form = shown_form(qtbot, PHONE)
    variants = form.root.child_row("contact").editor  # type: ignore[union-attr]
    assert isinstance(variants, VariantEditor)
    picker: QComboBox = variants.picker
    assert picker.focusPolicy() == Qt.FocusPolicy.StrongFocus
    bar = form.scroll_area.verticalScrollBar()
    wheel_down(picker)
    assert picker.currentIndex() == 0
    assert "number" in form.value()["contact"] or form.value()["contact"] == {}
    assert bar.value() > 0


def test_a_focused_pick_list_still_takes_the_wheel(qtbot: QtBot) -> None:
    form = shown_form(qtbot, PHONE)
    combo = form.root.child_row("kind").editor  # type: ignore[union-attr]
    combo.setFocus(Qt.FocusReason.MouseFocusReason)
    qtbot.waitUntil(combo.hasFocus)
    bar = form.scroll_area.verticalScrollBar()
    wheel_down(combo)
    assert combo.currentText() == "work"  # chosen on purpose: clicked, then turned
    assert bar.value() == 0
