"""Issue 11, sections 2 and 4: the core's sentences on screen in the person's language.

The core (app/registry, app/bundles, app/mcp/auth, app/runtimes) says plain English, from
templates marked with app.words' Qt-free `QT_TRANSLATE_NOOP`; the window translates a finished
sentence back through them (`app.ui.i18n.translate_reason`). Under zh_CN the directory's ways, the
package install notes, sign-in problems and download failures are Chinese; in English nothing
changes. Real windows: the local server directory (tests/servers/registry_server.py) and a real
server package file (tests/bundles/builders.py).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction

from app.ui.i18n import core_word_modules, translate_reason
from app.words import fill
from tests.bundles.builders import node_bundle
from tests.support.languages import in_language
from tests.ui.conftest import open_desk

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

WAIT = 30000
HAN = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture
def zh(qapp: Any) -> Iterator[None]:
    with in_language(qapp, "zh_CN") as code:
        assert code == "zh_CN"
        yield


def chinese(text: str) -> bool:
    return bool(HAN.search(text))


# ---- the server directory: how each server runs ---------------------------------------------------


def directory_ways(qtbot: Any, window: Any, search: str) -> list[str]:
    from tests.servers.registry_server import start_registry

    with start_registry() as fx:
        window.controller.store.app_settings["registryUrl"] = fx.base
        window.findChild(QAction, "browseRegistryAction").trigger()
        browser = window.registry_browser
        try:
            qtbot.keyClicks(browser.search, search)
            qtbot.waitUntil(
                lambda: (
                    browser.current is not None and search in browser.current.name and browser.way_box.count()
                ),
                timeout=10000,
            )
            return [browser.way_box.itemText(i) for i in range(browser.way_box.count())]
        finally:
            browser.close()
            qtbot.waitUntil(lambda: browser._client is None, timeout=5000)


def test_the_directorys_ways_in_chinese(qtbot: Any, aloop: Any, config_dir: Path, zh: None) -> None:
    with open_desk(qtbot) as window:
        ways = directory_ways(qtbot, window, "memory")
    assert any("npm 包 @modelcontextprotocol/server-memory" in w for w in ways), ways
    assert not any("package" in w for w in ways), ways


def test_the_directorys_ways_in_english(qtbot: Any, aloop: Any, config_dir: Path) -> None:
    with open_desk(qtbot) as window:
        ways = directory_ways(qtbot, window, "memory")
    assert any("npm package @modelcontextprotocol/server-memory" in w for w in ways), ways
    assert not any(chinese(w) for w in ways), ways


def test_every_way_label_and_problem(zh: None) -> None:
    from app.registry import convert

    cases = {
        fill(convert.PYTHON_PACKAGE, "mcp-server-time", " 1.0"): "Python 包 mcp-server-time 1.0",
        fill(convert.DOCKER_IMAGE, "ghcr.io/x/y", ""): "Docker 镜像 ghcr.io/x/y",
        fill(convert.ON_THE_INTERNET, "https://example.org/mcp"): "远程服务器（https://example.org/mcp）",
        fill(convert.OTHER_PACKAGE, "crate", " 2", "cargo"): "cargo 包 crate 2",
        fill(convert.CANNOT_INSTALL_KIND, "cargo"): "MCP Desk 无法安装 cargo 包",
    }
    for english, shown in cases.items():
        assert translate_reason(english) == shown
    assert chinese(translate_reason(convert.MCPB_PROBLEM))
    assert chinese(translate_reason(convert.NEITHER_WHERE_NOR_HOW))


# ---- a server package's install notes -------------------------------------------------------------


def package_notes(qtbot: Any, tmp_path: Path) -> list[str]:
    from app.ui.bundle_dialog import install_bundle_file

    with open_desk(qtbot, approve=False) as window:
        task = asyncio.ensure_future(install_bundle_file(window, node_bundle(tmp_path / "n.mcpb")))
        qtbot.waitUntil(
            lambda: getattr(window, "install_dialog", None) is not None and window.install_dialog.isVisible(),
            timeout=WAIT,
        )
        dialog = window.install_dialog
        notes = [label.text() for label in dialog.note_labels]
        dialog.cancel_button.click()
        qtbot.waitUntil(task.done, timeout=WAIT)
    return notes


def test_package_notes_in_chinese(qtbot: Any, aloop: Any, config_dir: Path, tmp_path: Path, zh: None) -> None:
    notes = package_notes(qtbot, tmp_path)
    assert any(n.startswith("工具：") for n in notes), notes
    assert any(n.startswith("需要 Node.js") for n in notes), notes
    assert any("签名" in n for n in notes), notes
    assert all(chinese(n) for n in notes), notes


def test_package_notes_in_english(qtbot: Any, aloop: Any, config_dir: Path, tmp_path: Path) -> None:
    notes = package_notes(qtbot, tmp_path)
    assert any(n.startswith("Tools: ") for n in notes), notes
    assert any(n.startswith("Needs Node.js") for n in notes), notes
    assert any("signed" in n for n in notes), notes
    assert not any(chinese(n) for n in notes), notes


# ---- sign-in problems and download failures -------------------------------------------------------


def npm_failure(*lines: str) -> str:
    from app.runtimes.installing import InstallWatch

    watch = InstallWatch("npm", env={})
    for line in lines:
        watch.feed(line)
    failure = watch.failure()
    assert failure is not None
    return failure


def test_download_failures_in_chinese(zh: None) -> None:
    offline = npm_failure(
        "npm error code ENOTFOUND",
        "npm error request to https://registry.npmjs.org/@example%2fnothing-here failed, reason: getaddrinfo",
    )
    assert offline.startswith("installing the server failed: MCP Desk could not reach the package registry")
    shown = translate_reason(offline)
    assert shown.startswith("正在安装服务器时出错：MCP Desk 无法访问软件包仓库（registry.npmjs.org）"), shown
    from app.runtimes import docker, installing, resolve

    assert (
        translate_reason(fill(installing.FETCHING, installing.INSTALLING, "@x/y"))
        == "正在安装服务器…（正在获取 @x/y）"
    )
    assert chinese(translate_reason(docker.NOT_RUNNING))
    assert chinese(translate_reason(resolve.MISSING_NODE))
    # Inside the engine's own sentence: the connection's reason around the download's.
    assert translate_reason("connection lost: " + resolve.MISSING_UV).startswith("连接已断开：uv 未安装")


def test_sign_in_problems_in_chinese(zh: None) -> None:
    from app.mcp import auth

    assert translate_reason(fill(auth.PORT_IN_USE, 3334)) == "无法登录：这台电脑的端口 3334 已被其他程序占用"
    assert translate_reason(fill(auth.NO_AUTHORIZATION_SERVER, "https://x.example")) == (
        "无法登录：https://x.example 没有指明授权服务器"
    )
    assert translate_reason(fill(auth.COULD_NOT, "Connection refused")) == "无法登录：Connection refused"
    assert translate_reason("sign-in was cancelled") == "登录已取消"
    assert translate_reason(auth.MORE_PERMISSIONS) == "此服务器需要更多权限：请重新登录"


def test_english_stays_english() -> None:
    from app.mcp import auth
    from app.registry import convert

    for text in (fill(auth.PORT_IN_USE, 1), fill(convert.NPM_PACKAGE, "a", ""), "Tools: a, b."):
        assert translate_reason(text) == text


def test_every_core_template_is_translated(zh: None) -> None:
    modules = core_word_modules()
    assert {m.__name__ for m in modules} >= {
        "app.mcp.auth",
        "app.registry.convert",
        "app.bundles.plan",
        "app.bundles.signature",
        "app.runtimes.installing",
    }
    glue = re.compile(r"[^A-Za-z]*")  # "%1 — %2": nothing to translate
    missing = [
        f"{m.__name__}: {t!r}"
        for m in modules
        for t in m.TEMPLATES
        if QCoreApplication.translate("Reasons", t) == t
        and not glue.fullmatch(re.sub(r"%\d", "", t))
        and t != "MCP Desk"
    ]
    assert not missing, "\n".join(missing)


# ---- the activity log's Source column, the date-time field -----------------------------------------


def test_log_source_in_words_for_people(zh: None) -> None:
    from app.ui.developer_mode import developer_mode
    from app.ui.models.log import LogModel, LogRow

    model = LogModel()
    for source in ("stderr", "server", "client"):
        model.append(LogRow(0.0, "demo", "info", source, "hello"))
    shown = lambda: [model.index(r, 3).data() for r in range(3)]  # noqa: E731
    assert shown() == ["程序的错误输出", "服务器", "MCP Desk"]
    changed: list[Any] = []
    model.dataChanged.connect(lambda *a: changed.append(a))
    developer_mode().set_enabled(True)
    assert changed, "the view is told the column changed"
    assert shown() == ["stderr", "server", "client"]
    developer_mode().set_enabled(False)
    assert shown() == ["程序的错误输出", "服务器", "MCP Desk"]


def test_date_time_field_shows_an_example_and_takes_it(qtbot: Any) -> None:
    from PySide6.QtWidgets import QLineEdit

    from app.ui.forms import FormWidget

    form = FormWidget({"type": "object", "properties": {"when": {"type": "string", "format": "date-time"}}})
    qtbot.addWidget(form)
    line = next(e for e in form.findChildren(QLineEdit) if e.placeholderText())
    assert line.placeholderText() == "e.g. 2026-12-01 14:30"
    for typed in ("2026-12-01 14:30", "2026-12-01T14:30:00Z"):  # both still accepted
        form.set_value({"when": typed})
        assert form.value() == {"when": typed}
        assert not form.errors(), typed


def test_date_time_example_in_chinese(qtbot: Any, zh: None) -> None:
    from PySide6.QtWidgets import QLineEdit

    from app.ui.forms import FormWidget

    form = FormWidget({"type": "object", "properties": {"when": {"type": "string", "format": "date-time"}}})
    qtbot.addWidget(form)
    line = next(e for e in form.findChildren(QLineEdit) if e.placeholderText())
    assert line.placeholderText() == "例如 2026-12-01 14:30"


def test_a_refused_package_says_why_in_chinese(
    qtbot: Any, aloop: Any, config_dir: Path, tmp_path: Path, zh: None
) -> None:
    from app.ui.bundle_dialog import install_bundle_file
    from tests.ui.test_bundle_install import _message_box

    not_a_zip = tmp_path / "notes.mcpb"
    not_a_zip.write_text("just some text")
    with open_desk(qtbot, approve=False) as window:
        task = asyncio.ensure_future(install_bundle_file(window, not_a_zip))
        qtbot.waitUntil(lambda: _message_box(window) is not None, timeout=WAIT)
        box = _message_box(window)
        assert box.informativeText() == "此文件不是服务器安装包（它不是 zip 文件）。"
        box.accept()
        qtbot.waitUntil(task.done, timeout=WAIT)


def test_the_sign_in_box_says_why_in_chinese(qtbot: Any, zh: None) -> None:
    from app.ui.sign_in import SignInBox

    box = SignInBox()
    qtbot.addWidget(box)
    box.show_needed("notes", "your sign-in has expired: sign in again")
    assert box.detail.text().splitlines()[0] == "你的登录已过期：请重新登录。"


def test_the_sign_in_box_in_english(qtbot: Any) -> None:
    from app.ui.sign_in import SignInBox

    box = SignInBox()
    qtbot.addWidget(box)
    box.show_needed("notes", "your sign-in has expired: sign in again")
    assert box.detail.text().splitlines()[0] == "Your sign-in has expired: sign in again."
