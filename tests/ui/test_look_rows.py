"""The server list's rows: the state's icon in its colour, the title, the state in the glossary's
words and the tool count — in English and in Simplified Chinese."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, Qt, QTranslator
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from app.ui import theme
from app.ui.models.servers import ServerListModel, ServerRow
from app.ui.server_list import ServerPanel

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

# state given to the model -> (icon/colour key, words on screen)
STATES = [
    (("ready", ""), "connected", "connected"),
    (("connecting", ""), "connecting", "connecting…"),
    (("installing", "installing the server…"), "installing", "installing the server…"),
    (("failed", "command not found: nope"), "failed", "couldn't connect: command not found: nope"),
    (("idle", "waiting for your approval"), "waiting", "waiting for your OK"),
    (("needs_sign_in", "sign in needed"), "needs-sign-in", "sign in needed"),
    (("closed", ""), "disconnected", "disconnected"),
    (("idle", ""), "disconnected", "not connected"),
]


@pytest.fixture(scope="module")
def qm_dir(tmp_path_factory: Any) -> Path:
    spec = importlib.util.spec_from_file_location("translations", ROOT / "packaging" / "translations.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["translations"] = module
    spec.loader.exec_module(module)
    out: Path = tmp_path_factory.mktemp("qm")
    module.release(out)
    return out


@pytest.fixture
def language(qapp: Any, qm_dir: Path) -> Iterator[Any]:
    installed: list[QTranslator] = []

    def use(lang: str) -> None:
        translator = QTranslator()
        assert translator.load(str(qm_dir / f"mcp-desk_{lang}.qm"))
        QCoreApplication.installTranslator(translator)
        installed.append(translator)

    yield use
    for translator in installed:
        QCoreApplication.removeTranslator(translator)


def model_with(state: str, reason: str, tools: int | None = None) -> ServerListModel:
    model = ServerListModel()
    model.set_servers([ServerRow("s")])
    model.update_state("s", state, reason)
    if tools is not None:
        model.update_tool_count("s", tools)
    return model


@pytest.mark.parametrize(("given", "key", "words"), STATES)
def test_each_state_has_its_icon_and_the_glossarys_words(qapp: Any, given: Any, key: str, words: str) -> None:
    model = model_with(*given)
    index = model.index(0, 0)
    assert index.data(ServerListModel.StateKeyRole) == key
    assert index.data(ServerListModel.StateTextRole) == words
    assert index.data(ServerListModel.StateColourRole) == theme.state_colour(key)
    for word in ("ready", "failed", "approval"):
        assert word not in index.data(ServerListModel.StatusTextRole)


def test_a_disabled_server_reads_disabled(qapp: Any) -> None:
    model = ServerListModel()
    model.set_servers([ServerRow("s", disabled=True)])
    index = model.index(0, 0)
    assert (index.data(ServerListModel.StateKeyRole), index.data(ServerListModel.StateTextRole)) == (
        "disabled",
        "disabled",
    )


def test_title_and_tool_count(qapp: Any, language: Any) -> None:
    language("en")  # English plurals
    model = model_with("ready", "", 12)
    index = model.index(0, 0)
    assert index.data(ServerListModel.TitleRole) == "s"
    model.update_info("s", title="Weather\u202e for you")
    assert index.data(ServerListModel.TitleRole) == "s"  # the name the window knows it by
    tooltip = index.data(Qt.ItemDataRole.ToolTipRole)
    assert "Weather" in tooltip and "\u202e" not in tooltip  # the server's text, shown safe
    assert index.data(ServerListModel.ToolCountTextRole) == "12 tools"
    model.update_tool_count("s", 1)
    assert index.data(ServerListModel.ToolCountTextRole) == "1 tool"
    assert index.data(ServerListModel.StatusTextRole) == "connected · 1 tool"
    model.update_state("s", "connecting")
    assert index.data(ServerListModel.ToolCountTextRole) == ""  # no count while not connected


def test_the_rows_speak_chinese(qapp: Any, qtbot: Any, language: Any) -> None:
    language("zh_CN")
    model = model_with("ready", "", 3)
    index = model.index(0, 0)
    assert index.data(ServerListModel.StateTextRole) == "已连接"
    assert index.data(ServerListModel.ToolCountTextRole) == "3 个工具"
    model.update_state("s", "failed", "command not found: nope")
    assert index.data(ServerListModel.StateTextRole) == "无法连接：command not found: nope"
    model.update_state("s", "connecting")
    assert index.data(ServerListModel.StateTextRole) == "正在连接…"
    panel = ServerPanel(model)
    qtbot.addWidget(panel)
    assert panel.add_button.text() == "添加服务器…"
    assert panel.buttons["connect"].text() == "连接"
    assert panel.buttons["edit"].text() == "编辑"


@pytest.fixture
def palette(qapp: Any) -> Iterator[Any]:
    old = QApplication.palette()

    def use(scheme: str) -> None:
        QApplication.setPalette(theme.dark_palette() if scheme == "dark" else theme.light_palette())

    yield use
    QApplication.setPalette(old)


def colours_in(image: QImage, x0: int, y0: int, x1: int, y1: int) -> set[int]:
    return {image.pixelColor(x, y).rgb() for x in range(x0, x1) for y in range(y0, y1)}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_row_draws_the_state_icon_in_its_colour(qapp: Any, qtbot: Any, palette: Any, scheme: str) -> None:
    palette(scheme)
    model = ServerListModel()
    model.set_servers([ServerRow("up"), ServerRow("down")])
    model.update_state("up", "ready")
    model.update_tool_count("up", 4)
    model.update_state("down", "failed", "command not found: nope")
    panel = ServerPanel(model)
    qtbot.addWidget(panel)
    panel.resize(320, 400)
    panel.show()
    qtbot.waitExposed(panel)
    view = panel.view
    for row, key in ((0, "connected"), (1, "failed")):
        rect = view.visualRect(model.index(row, 0))
        assert rect.height() >= 2 * view.fontMetrics().height()  # two lines: title, state
        image = view.viewport().grab(rect).toImage()
        left = colours_in(image, 0, 0, 40, image.height())
        assert theme.state_colour(key).rgb() in left, (key, scheme)
        assert theme.state_colour("failed" if key == "connected" else "connected").rgb() not in left
