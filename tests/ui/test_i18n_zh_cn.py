"""The window and its main dialogs in Simplified Chinese (MCP_DESK_LANG=zh_CN, as a person whose
system speaks Chinese sees them).

Two kinds of check:
- exact labels whose words the glossary fixes (the directory, packages, Qt's own buttons, Connect,
  Diagnose, "allow this program to run?");
- a sweep of what each window shows — menus and their items, buttons, labels, tabs, group titles,
  placeholders, the window title — for text still in English: a text with an English word and no
  Chinese, other than names (MCP Desk, Claude Desktop, npm…), addresses and the server's own data
  (which is never translated). Each sweep names the module's owner in its message.
"""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import Iterable, Iterator
from typing import Any

import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QDialogButtonBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMenu,
    QTabWidget,
    QWidget,
)

from tests.support.languages import in_language
from tests.ui.conftest import open_desk, run

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

CJK = re.compile(r"[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]")
WORD = re.compile(r"[A-Za-z][A-Za-z']{2,}")
NAMES = {
    # the app, other apps, programs, formats and the directory's own name: said as they are
    *("MCP", "Desk", "Claude", "Desktop", "Cursor", "VS", "Code", "Registry", "PyPI", "npm", "npx"),
    *("uv", "uvx", "Node", "js", "Docker", "Python", "JSON", "URL", "API", "HTTP", "HTTPS", "SSE"),
    *("OAuth", "mcpb", "dxt", "GNOME", "KWallet", "Ctrl", "Enter", "Shift", "Esc"),
    # a language's name in its own language, as the Language menu offers it
    "English",
}
ADDRESS = re.compile(r"(?:https?|mcp-desk|cursor|vscode|lmstudio)://\S*|\S*[/\\]\S*|\S+\.\w{2,4}\b")
TAGS = re.compile(r"<[^>]+>")


def english(text: str, data: Iterable[str] = ()) -> bool:
    """True when `text` reads as English to a person: some word that is not a name, and no Chinese."""
    plain = TAGS.sub(" ", text).replace("&&", "").replace("&", "")
    for value in data:
        if value:
            plain = plain.replace(value, " ")
    plain = ADDRESS.sub(" ", plain)
    if CJK.search(plain):
        return False
    return any(w not in NAMES for w in WORD.findall(plain))


def shown_texts(root: QWidget) -> list[tuple[str, str]]:
    """(where, text) of what `root` shows: its title, and its visible widgets' words."""
    found: list[tuple[str, str]] = [("window title", root.windowTitle())]
    for w in [root, *root.findChildren(QWidget)]:
        if w is not root and not w.isVisibleTo(root):
            continue
        name = w.objectName() or type(w).__name__
        if isinstance(w, QLabel):
            found.append((f"label {name}", w.text()))
        elif isinstance(w, QAbstractButton):
            found.append((f"button {name}", w.text()))
            found.append((f"tooltip of {name}", w.toolTip()))
        elif isinstance(w, QGroupBox):
            found.append((f"group {name}", w.title()))
        elif isinstance(w, QLineEdit):
            found.append((f"placeholder of {name}", w.placeholderText()))
        if isinstance(w, QTabWidget):
            found.extend((f"tab of {name}", w.tabText(i)) for i in range(w.count()))
    return [(where, text) for where, text in found if text]


def menu_texts(menu: QMenu, path: str = "") -> list[tuple[str, str]]:
    here = f"{path} › {menu.title()}" if path else menu.title()
    found = [("menu", menu.title())]
    for action in menu.actions():
        if action.isSeparator():
            continue
        sub = action.menu()
        if isinstance(sub, QMenu):
            found.extend(menu_texts(sub, here))
        else:
            found.append((f"item of {here}", action.text()))
    return found


def untranslated(texts: list[tuple[str, str]], data: Iterable[str] = ()) -> list[str]:
    data = sorted(set(data), key=len, reverse=True)  # the longest first: a title before its words
    return [f"{where}: {text!r}" for where, text in texts if english(text, data)]


def test_the_sweep_tells_english_from_chinese() -> None:
    assert english("&Add server…")
    assert english("Connect")
    assert not english("添加服务器(&A)…")
    assert not english("Claude Desktop")
    assert not english("https://registry.modelcontextprotocol.io")
    assert not english("Brave Search", data=["Brave Search"])
    assert not english("服务器目录：https://example.org")
    assert not english("42")


@pytest.fixture
def zh(qapp: Any) -> Iterator[None]:
    with in_language(qapp, "zh_CN") as code:
        assert code == "zh_CN"
        yield


@pytest.fixture
def window(qtbot: Any, aloop: Any, config_dir: Any, zh: None) -> Iterator[Any]:
    with open_desk(qtbot) as w:
        yield w


# ---- what this branch translated, and Qt's own words: these hold on main today ------------------


def test_directory_and_package_actions_and_the_directory_window(qtbot: Any, window: Any) -> None:
    browse = window.findChild(QAction, "browseRegistryAction")
    assert browse is not None and browse.text() == "浏览服务器目录(&B)…"
    package = window.findChild(QAction, "installBundleAction")
    assert package is not None and package.text() == "安装服务器安装包（.mcpb）…"

    from app.ui.registry_browser import RegistryBrowser

    browser = RegistryBrowser(window)  # not searching: no network in this test
    qtbot.addWidget(browser)
    assert browser.windowTitle() == "服务器目录"
    assert browser.search.placeholderText() == "搜索服务器目录（名称或主题）"
    assert browser.directory_label.text().startswith("服务器目录：https://")
    assert browser.change_button.text() == "更改…"
    problems = untranslated(shown_texts(browser))
    assert not problems, "\n".join(problems)


def test_the_directory_finds_servers_in_chinese(qtbot: Any, window: Any) -> None:
    """The local directory (tests/servers/registry_server.py): counts, where each runs, details."""
    from tests.servers.registry_server import start_registry

    with start_registry() as fx:
        window.controller.store.app_settings["registryUrl"] = fx.base
        window.findChild(QAction, "browseRegistryAction").trigger()
        browser = window.registry_browser
        try:
            qtbot.waitUntil(
                lambda: browser.state == "results" and browser.model.rowCount() > 0, timeout=10000
            )
            n = browser.model.rowCount()
            assert browser.status.text() == f"{n} 个服务器"
            first = browser.model.data(browser.model.index(0))
            assert "在本机运行" in first or "远程服务器" in first, first
            qtbot.waitUntil(lambda: browser.current is not None)
            assert "版" in browser.detail_meta.text(), browser.detail_meta.text()
            ways = [browser.way_box.itemText(i) for i in range(browser.way_box.count())]
            assert ways and all(w.startswith(("在本机运行：", "远程服务器：")) for w in ways), ways
            assert browser.add_button.text() == "添加…"
        finally:
            browser.close()
            qtbot.waitUntil(lambda: browser._client is None, timeout=5000)


def test_qt_standard_buttons_in_the_add_dialog(qtbot: Any, window: Any) -> None:
    window.add_server()
    qtbot.waitUntil(lambda: getattr(window, "server_dialog", None) is not None)
    dialog = window.server_dialog
    try:
        texts = {b.text() for box in dialog.findChildren(QDialogButtonBox) for b in box.buttons()}
        assert "取消" in texts, texts  # Qt's own translation (qtbase_zh_CN.qm from PySide6)
    finally:
        dialog.reject()


# ---- everything else on screen: these pass once every module is translated -----------------------
# They expect: h11-shell (menus, the welcome guide, window and dock strings), h11-look (server
# list rows and buttons), h11-results (the centre and right panels), h11-dialogs (Add, install,
# trust, diagnose, keys), h11-forms (form fields' words).


def test_main_window_menus_guide_and_buttons(qtbot: Any, window: Any) -> None:
    """Owners: h11-shell (menus, guide, window), h11-look (server list), h11-results (panels)."""
    bar = window.menuBar()
    titles = [a.text() for a in bar.actions() if a.menu() is not None]
    texts = shown_texts(window)
    for action in bar.actions():
        menu = action.menu()
        if isinstance(menu, QMenu):
            texts.extend(menu_texts(menu))
    problems = untranslated(texts, data=["demo", *window.controller.store.names()])
    if not any("服务器" in t for t in titles):
        problems.append(f"the Servers menu is not 服务器: {titles}")
    if not any("帮助" in t for t in titles):
        problems.append(f"the Help menu is not 帮助: {titles}")
    connect = window.servers.buttons["connect"].text()
    if "连接" not in connect:
        problems.append(f"Connect is not 连接 (the glossary): {connect!r}")
    assert not problems, "still in English on the main window:\n" + "\n".join(problems)


def test_add_dialog(qtbot: Any, window: Any) -> None:
    """Owner: h11-dialogs (server_dialog.py and the modules split from it)."""
    window.add_server()
    qtbot.waitUntil(lambda: getattr(window, "server_dialog", None) is not None)
    dialog = window.server_dialog
    try:
        qtbot.waitUntil(dialog.isVisible)
        problems = untranslated(shown_texts(dialog))
    finally:
        dialog.reject()
    assert not problems, "still in English in the Add dialog:\n" + "\n".join(problems)


def _plan() -> Any:
    from app.config.model import ServerEntry
    from app.install.plan import InstallPlan, Question, ask_ref

    entry = ServerEntry(
        name="brave",
        command=sys.executable,
        args=["-c", "pass", ask_ref("mode")],
        env={"BRAVE_API_KEY": ask_ref("BRAVE_API_KEY")},
    )
    return InstallPlan(
        name="brave",
        entry=entry,
        source="link",
        title="Brave Search",
        description="Search the web with Brave.",
        version="1.2.0",
        author="Brave",
        website="https://example.org/brave",
        runtime="python",
        questions=[
            Question(
                "BRAVE_API_KEY", "Brave API key", "From your Brave account page.", required=True, secret=True
            ),
            Question("mode", "Mode", kind="choice", choices=("fast", "thorough"), default="fast"),
        ],
    )


PLAN_DATA = ["Brave Search", "Search the web with Brave.", "Brave API key", "From your Brave account page."]
PLAN_DATA += ["Brave", "brave", "Mode", "fast", "thorough", "1.2.0"]


def test_install_dialog(qtbot: Any, window: Any) -> None:
    """Owner: h11-dialogs (install_dialog.py, install_fields.py)."""
    from app.ui.install_dialog import install_plan

    task = asyncio.ensure_future(install_plan(window, _plan()))
    qtbot.waitUntil(
        lambda: getattr(window, "install_dialog", None) is not None and window.install_dialog.isVisible()
    )
    dialog = window.install_dialog
    try:
        problems = untranslated(shown_texts(dialog), data=PLAN_DATA)
    finally:
        dialog.reject()
        qtbot.waitUntil(task.done, timeout=10000)
    assert not problems, "still in English in the install dialog:\n" + "\n".join(problems)


def test_trust_dialog(qtbot: Any, window: Any) -> None:
    """Owner: h11-dialogs (trust_dialog.py). Glossary: "allow this program to run?" → 允许运行此程序吗？"""
    from app.config.trust import Launch, TrustRequest, find_risks
    from app.ui.trust_dialog import TrustDialog

    launch = Launch("bash", ("-c", "echo hello"), None)
    dialog = TrustDialog(TrustRequest("hello", launch, tuple(find_risks(launch))), window)
    qtbot.addWidget(dialog)
    dialog.show()
    texts = shown_texts(dialog)
    problems = untranslated(texts, data=["hello", "bash -c 'echo hello'", "echo hello", "bash"])
    dialog.reject()
    if not any("允许运行" in text for _, text in texts):
        problems.append("no 允许运行 (the glossary's “allow this program to run?”)")
    assert not problems, "still in English in the trust prompt:\n" + "\n".join(problems)


def test_diagnose_dialog(qtbot: Any, window: Any) -> None:
    """Owner: h11-dialogs (diagnose.py). Its title says 诊断 (the glossary's "diagnose")."""
    from app.ui.diagnose import DiagnoseDialog

    target = run(qtbot, window.controller._target("demo"))
    dialog = DiagnoseDialog("demo", target, window)  # not started: its own words, not the steps'
    qtbot.addWidget(dialog)
    dialog.show()
    problems = untranslated(shown_texts(dialog), data=["demo"])
    dialog.reject()
    if "诊断" not in dialog.windowTitle():
        problems.append(f"the title does not say 诊断 (the glossary's “diagnose”): {dialog.windowTitle()!r}")
    assert not problems, "still in English in the Diagnose dialog:\n" + "\n".join(problems)


def test_package_signatures_in_chinese(zh: None) -> None:
    from app.bundles.signature import Signature
    from app.ui.bundle_dialog import signature_text

    assert signature_text(Signature("unsigned", 0)) == "此安装包没有签名：无从得知它由谁制作。"
    signed = Signature("signed", 0, subject="CN=Example Ltd", self_signed=True)
    assert signature_text(signed) == "由 CN=Example Ltd 签名（使用自己制作的证书），签名未经验证。"
    assert not english(signature_text(Signature("unreadable", 0)))
    assert not english(signature_text(Signature("signed", 0)))
