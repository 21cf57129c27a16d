"""The credentials view on a real config folder and an in-memory keyring that records its threads:
listing, set/replace, reveal and auto-hide, delete, sign-out, clean-up, no or locked keychain,
keyboard use, and never a keyring call on the GUI thread."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import keyring
import keyring.errors
import pytest
from keyring.backends import fail
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QLineEdit, QMessageBox, QToolBar

from app.config.store import ConfigStore
from app.secrets.profile import folder_secrets
from app.secrets.store import SERVICE, SecretStore, index_username
from app.ui.credentials import SERVER_ROLE, CredentialsView
from tests.support.memory_keyring import MemoryKeyring
from tests.ui.conftest import open_desk, run, write_servers

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

BRAVE_KEY = "BSA-brave-key-0123456789abcdef"
TOKENS = '{"access_token":"at-notion-0001","token_type":"Bearer","refresh_token":"rt-0002"}'
SERVERS = {
    "brave": {
        "command": "npx",
        "args": ["-y", "brave-search", "${secret:CLI_TOKEN}"],
        "env": {"BRAVE_API_KEY": "${secret:BRAVE_API_KEY}"},
    },
    "search": {
        "type": "http",
        "url": "https://api.example.com/mcp?key=${secret:URL_KEY}",
        "headers": {"Authorization": "Bearer ${secret:API_TOKEN}"},
    },
    "notion": {"type": "http", "url": "https://mcp.notion.example/mcp"},
    "<b>odd\u202eevil": {"command": "x", "env": {"K": "${secret:ODD_KEY}"}},
}


class ThreadKeyring(MemoryKeyring):
    """Records the thread of every call; `block` holds reads until set; `locked` refuses them."""

    def __init__(self) -> None:
        super().__init__()
        self.threads: list[tuple[str, int]] = []
        self.reads: list[str] = []
        self.block: threading.Event | None = None
        self.locked = False
        self.recording = True

    def _note(self, what: str) -> None:
        if not self.recording:
            return  # the test itself looking, not the view
        self.threads.append((what, threading.get_ident()))
        if self.block is not None:
            self.block.wait(30)
        if self.locked:
            raise keyring.errors.KeyringLocked("the collection is locked")

    def get_password(self, service: str, username: str) -> str | None:
        self._note("get")
        self.reads.append(username)
        return super().get_password(service, username)

    def set_password(self, service: str, username: str, password: str) -> None:
        self._note("set")
        super().set_password(service, username, password)

    def delete_password(self, service: str, username: str) -> None:
        self._note("delete")
        super().delete_password(service, username)


@dataclass
class Setup:
    view: CredentialsView
    secrets: SecretStore
    backend: ThreadKeyring
    config: ConfigStore

    def peek(self, server: str, name: str) -> str | None:
        """What the keyring holds, read by the test (not counted as the view's call)."""
        self.backend.recording = False
        try:
            return self.secrets.get(server, name)
        finally:
            self.backend.recording = True

    def peek_names(self) -> dict[str, list[str]]:
        self.backend.recording = False
        try:
            return self.secrets.all_names()
        finally:
            self.backend.recording = True

    def gui_thread_calls(self) -> list[str]:
        gui = threading.main_thread().ident
        return [what for what, ident in self.backend.threads if ident == gui]


def seed(secrets: SecretStore, backend: ThreadKeyring) -> None:
    secrets.set("brave", "BRAVE_API_KEY", BRAVE_KEY)
    secrets.set("search", "API_TOKEN", "tok-search-42")
    secrets.set("notion", "oauth.tokens", TOKENS)
    secrets.set("notion", "oauth.client", '{"client_id":"c-1"}')
    secrets.set("old-server", "OLD_KEY", "old-value-1")
    secrets.set("old-server", "ANOTHER", "old-value-2")
    secrets.set("<b>odd\u202eevil", "ODD_KEY", "odd")
    # API_TOKEN as a version before this one stored it: no time in the index.
    user = index_username(secrets.scope)
    data = json.loads(backend.store[(SERVICE, user)])
    del data["/changed"]["search"]
    backend.store[(SERVICE, user)] = json.dumps(data)
    backend.threads.clear()  # set-up ran here on purpose; from now on only the view calls


@pytest.fixture
def setup(qtbot: Any, aloop: Any, config_dir: Path) -> Iterator[Setup]:
    write_servers(config_dir, SERVERS)
    config = ConfigStore(config_dir)
    config.load()
    backend = ThreadKeyring()
    secrets = folder_secrets(config, backend)
    seed(secrets, backend)
    view = CredentialsView(secrets, lambda: config.entries)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    run(qtbot, view.reload())
    yield Setup(view, secrets, backend, config)
    view.hide_value()


def rows(view: CredentialsView) -> dict[str, list[list[str]]]:
    """server -> its keys' four cells, as shown."""
    out: dict[str, list[list[str]]] = {}
    m = view.model
    for r in range(m.rowCount()):
        head = m.item(r, 0)
        assert head is not None
        cells = []
        for c in range(head.rowCount()):
            cells.append([(head.child(c, col).text() if head.child(c, col) else "") for col in range(4)])
        out[head.data(SERVER_ROLE)] = cells
    return out


def message_box(qtbot: Any, parent: Any) -> QMessageBox:
    def find() -> QMessageBox | None:
        return next((b for b in parent.findChildren(QMessageBox) if b.isVisible()), None)

    qtbot.waitUntil(lambda: find() is not None, timeout=5000)
    box = find()
    assert box is not None
    return box


def answer(qtbot: Any, parent: Any, button: str) -> str:
    box = message_box(qtbot, parent)
    text = box.text()
    next(b for b in box.buttons() if b.text() == button).click()
    return text


def test_lists_keys_by_server_with_kind_use_and_time(setup: Setup) -> None:
    view = setup.view
    shown = rows(view)
    assert list(shown) == ["brave", "search", "notion", "<b>odd\u202eevil", "old-server"]
    brave = {r[0]: r for r in shown["brave"]}
    assert brave["BRAVE_API_KEY"][1:3] == ["environment variable", "environment BRAVE_API_KEY"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", brave["BRAVE_API_KEY"][3])
    assert brave["CLI_TOKEN"][1:] == ["argument", "argument 3", "not set"]
    search = {r[0]: r for r in shown["search"]}
    assert search["API_TOKEN"][1:] == ["header", "header Authorization", "unknown"]
    assert search["URL_KEY"][1:] == ["URL part", "URL", "not set"]
    notion = {r[0]: r for r in shown["notion"]}
    assert notion["oauth.tokens"][1:3] == ["sign-in token", "sign in"]
    assert notion["oauth.client"][1] == "sign-in registration"
    old = {r[0]: r for r in shown["old-server"]}
    assert set(old) == {"OLD_KEY", "ANOTHER"}
    assert all(r[2] == "no server uses this any more" for r in old.values())
    # The orphan's own row says so too.
    heads = {view.model.item(r, 0).data(SERVER_ROLE): r for r in range(view.model.rowCount())}
    assert view.model.item(heads["old-server"], 0).text() == "old-server — no server uses this any more"
    # Names as plain text: markup literal, the bidi override made visible.
    odd = view.model.item(heads["<b>odd\u202eevil"], 0).text()
    assert odd.startswith("<b>odd") and "\u202e" not in odd
    # No value ever reached the model.
    for r in shown.values():
        for cells in r:
            assert BRAVE_KEY not in " ".join(cells) and "at-notion" not in " ".join(cells)
    assert view.clean_button.isEnabled()
    assert setup.gui_thread_calls() == []


def test_set_replace_by_paste_and_read_back(qtbot: Any, setup: Setup) -> None:
    view = setup.view
    assert view.select("brave", "BRAVE_API_KEY")
    assert view.set_button.isEnabled()
    task = view.set_selected()
    assert task is not None
    qtbot.waitUntil(lambda: view.secret_dialog is not None and view.secret_dialog.isVisible())
    d = view.secret_dialog
    assert d is not None
    assert d.name.text() == "BRAVE_API_KEY" and d.name.isReadOnly()
    assert d.value.echoMode() == QLineEdit.EchoMode.Password
    QGuiApplication.clipboard().setText("pasted-new-brave-key-999")
    d.value.setFocus()
    qtbot.keyClick(d.value, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert d.value.text() == "pasted-new-brave-key-999"
    QGuiApplication.clipboard().clear()
    d.buttons.button(d.buttons.StandardButton.Save).click()
    qtbot.waitUntil(task.done, timeout=10000)
    assert setup.peek("brave", "BRAVE_API_KEY") == "pasted-new-brave-key-999"
    assert "uses the new key" in view.status.text()
    assert view.selected_item() is not None and view.selected_item().name == "BRAVE_API_KEY"

    # Setting a missing one (referenced, not set) works the same way.
    assert view.select("brave", "CLI_TOKEN")
    task = view.set_selected()
    assert task is not None
    qtbot.waitUntil(lambda: view.secret_dialog is not None and view.secret_dialog.isVisible())
    d = view.secret_dialog
    assert d is not None
    qtbot.keyClicks(d.value, "typed-cli-token")
    qtbot.keyClick(d.value, Qt.Key.Key_Return)
    qtbot.waitUntil(task.done, timeout=10000)
    assert setup.peek("brave", "CLI_TOKEN") == "typed-cli-token"
    cli = next(r for r in rows(view)["brave"] if r[0] == "CLI_TOKEN")
    assert cli[3] not in ("not set", "unknown")

    # A sign-in token is not typed by hand; an orphan gets nothing new.
    view.select("notion", "oauth.tokens")
    assert not view.set_button.isEnabled()
    view.select("old-server", "OLD_KEY")
    assert not view.set_button.isEnabled()
    assert setup.gui_thread_calls() == []


def test_reveal_after_confirming_then_hidden_by_the_timer(qtbot: Any, setup: Setup) -> None:
    view = setup.view
    view.reveal_ms = 300
    assert view.select("brave", "BRAVE_API_KEY")

    # Cancelled: nothing is read, nothing shown.
    reads = len(setup.backend.reads)
    task = view.reveal_selected()
    assert task is not None
    assert "BRAVE_API_KEY" in answer(qtbot, view, "Cancel")
    qtbot.waitUntil(task.done)
    assert not view.reveal_box.isVisible() and view.revealed.text() == ""
    assert not any(u.endswith("/brave/BRAVE_API_KEY") for u in setup.backend.reads[reads:])

    task = view.reveal_selected()
    assert task is not None
    answer(qtbot, view, "Show")
    qtbot.waitUntil(lambda: view.revealed.text() == BRAVE_KEY, timeout=5000)
    assert view.reveal_box.isVisible() and view.reveal_timer.isActive()
    with qtbot.waitSignal(view.value_hidden, timeout=5000):
        pass  # the timer fires by itself
    assert view.revealed.text() == "" and not view.reveal_box.isVisible()
    assert not view.revealed.isUndoAvailable()
    # The view keeps the value nowhere: not in a field, not in an attribute.
    for edit in view.findChildren(QLineEdit):
        assert BRAVE_KEY not in edit.text()
    assert all(BRAVE_KEY not in repr(v) for v in vars(view).values())
    assert setup.gui_thread_calls() == []


def test_reveal_is_hidden_when_the_selection_moves(qtbot: Any, setup: Setup) -> None:
    view = setup.view
    view.reveal_ms = 60_000
    view.select("search", "API_TOKEN")
    view.reveal_selected()
    answer(qtbot, view, "Show")
    qtbot.waitUntil(lambda: view.revealed.text() == "tok-search-42", timeout=5000)
    with qtbot.waitSignal(view.value_hidden, timeout=2000):
        view.select("brave", "BRAVE_API_KEY")
    assert view.revealed.text() == "" and not view.reveal_timer.isActive()


def test_delete_after_confirming(qtbot: Any, setup: Setup) -> None:
    view = setup.view
    view.select("search", "API_TOKEN")
    task = view.delete_selected()
    assert task is not None
    assert "API_TOKEN" in answer(qtbot, view, "Cancel")
    qtbot.waitUntil(task.done)
    assert setup.peek("search", "API_TOKEN") == "tok-search-42"

    task = view.delete_selected()
    assert task is not None
    answer(qtbot, view, "Delete")
    qtbot.waitUntil(task.done, timeout=10000)
    assert setup.peek("search", "API_TOKEN") is None
    api = next(r for r in rows(view)["search"] if r[0] == "API_TOKEN")
    assert api[3] == "not set"  # still referenced, so still listed, now as missing
    assert setup.gui_thread_calls() == []


def test_sign_out_is_asked_for_with_a_signal(qtbot: Any, setup: Setup) -> None:
    view = setup.view
    view.select("brave", "BRAVE_API_KEY")
    assert not view.sign_out_button.isEnabled()  # no sign-in there
    view.select("notion", "oauth.client")
    assert view.sign_out_button.isEnabled()
    with qtbot.waitSignal(view.sign_out_requested, timeout=2000) as blocker:
        view.sign_out_button.click()
    assert blocker.args == ["notion"]
    view.select("notion")  # the server's own row works too
    with qtbot.waitSignal(view.sign_out_requested, timeout=2000) as blocker:
        view.sign_out_selected()
    assert blocker.args == ["notion"]


def test_clean_up_removes_every_orphan_and_nothing_else(qtbot: Any, setup: Setup) -> None:
    view = setup.view
    task = view.clean_up()
    assert task is not None
    box = message_box(qtbot, view)
    assert "2 key(s)" in box.text() and "old-server" in box.informativeText()
    answer(qtbot, view, "Delete them")
    qtbot.waitUntil(task.done, timeout=10000)
    assert "old-server" not in rows(view)
    assert setup.peek_names().get("old-server") is None
    assert setup.peek("brave", "BRAVE_API_KEY") == BRAVE_KEY
    assert not view.clean_button.isEnabled()
    assert setup.gui_thread_calls() == []


def test_says_reading_while_the_keychain_answers(qtbot: Any, setup: Setup) -> None:
    view = setup.view
    setup.backend.block = threading.Event()
    task = view.reload()
    qtbot.waitUntil(lambda: view.status.text() == "reading your keychain…")
    assert not view.set_button.isEnabled() and not view.refresh_button.isEnabled()
    assert not task.done()  # the GUI thread is not waiting: this test is running on it
    setup.backend.block.set()
    qtbot.waitUntil(task.done, timeout=10000)
    assert view.status.text() != "reading your keychain…"
    assert setup.gui_thread_calls() == []


def test_no_keychain_says_so_and_offers_session_only(qtbot: Any, aloop: Any, config_dir: Path) -> None:
    write_servers(config_dir, SERVERS)
    config = ConfigStore(config_dir)
    config.load()
    keyring.set_keyring(fail.Keyring())  # the conftest fixture puts the previous one back
    secrets = folder_secrets(config)
    view = CredentialsView(secrets, lambda: config.entries)
    qtbot.addWidget(view)
    view.show()
    run(qtbot, view.reload())
    assert view.notice.isVisible()
    text = view.notice.text.text()
    assert "no usable keychain" in text and "keyring.md" in text
    assert "D-Bus" not in text and "null" not in text
    assert view.notice.session_button.isVisible()
    assert view.model.rowCount() == 0 and not view.set_button.isEnabled()

    with qtbot.waitSignal(view.loaded, timeout=10000):
        view.notice.session_button.click()
    assert secrets.session_only and not view.notice.isVisible()
    assert "until MCP Desk closes" in view.status.text()
    assert view.select("brave", "BRAVE_API_KEY")
    task = view.set_selected()
    assert task is not None
    qtbot.waitUntil(lambda: view.secret_dialog is not None and view.secret_dialog.isVisible())
    d = view.secret_dialog
    assert d is not None
    qtbot.keyClicks(d.value, "session-key-1")
    d.accept()
    qtbot.waitUntil(task.done, timeout=10000)
    assert secrets.get("brave", "BRAVE_API_KEY") == "session-key-1"
    assert "brave" in secrets.session_servers()


def test_locked_keychain_says_so_and_try_again_reads_it(qtbot: Any, setup: Setup) -> None:
    view = setup.view
    setup.backend.locked = True
    run(qtbot, view.reload())
    assert view.notice.isVisible() and "locked" in view.notice.text.text()
    assert view.notice.retry_button.isVisible() and view.notice.session_button.isVisible()
    assert view.model.rowCount() == 0
    setup.backend.locked = False
    with qtbot.waitSignal(view.loaded, timeout=10000):
        view.notice.retry_button.click()
    assert not view.notice.isVisible() and "brave" in rows(view)


def test_keyboard_only(qtbot: Any, setup: Setup) -> None:
    view = setup.view
    view.activateWindow()
    qtbot.waitUntil(view.isActiveWindow)
    view.tree.setFocus()
    # Down from the top reaches brave's first key; Tab then goes to the first action.
    view.tree.setCurrentIndex(view.model.index(0, 0))
    qtbot.keyClick(view.tree, Qt.Key.Key_Down)
    item = view.selected_item()
    assert item is not None and (item.server, item.name) == ("brave", "BRAVE_API_KEY")
    qtbot.keyClick(view.tree, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is view.set_button
    qtbot.keyClick(view.set_button, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is view.reveal_button

    # Delete key: asks, Enter on the box's default button (Delete) deletes.
    view.tree.setFocus()
    qtbot.keyClick(view.tree, Qt.Key.Key_Delete)
    box = message_box(qtbot, view)
    assert "BRAVE_API_KEY" in box.text()
    qtbot.keyClick(box, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: setup.peek("brave", "BRAVE_API_KEY") is None, timeout=10000)
    qtbot.waitUntil(lambda: view.refresh_button.isEnabled(), timeout=10000)

    # Enter on a key opens Set or replace; Escape closes it without a change.
    view.tree.setFocus()
    assert view.select("search", "API_TOKEN")
    qtbot.keyClick(view.tree, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: view.secret_dialog is not None and view.secret_dialog.isVisible())
    d = view.secret_dialog
    assert d is not None
    assert QApplication.focusWidget() is d.value
    qtbot.keyClick(d.value, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: view.secret_dialog is None)
    assert setup.peek("search", "API_TOKEN") == "tok-search-42"

    # Mnemonics: Alt+R asks to reveal.
    view.activateWindow()
    qtbot.waitUntil(view.isActiveWindow)
    view.tree.setFocus()
    qtbot.keyClick(view.tree, Qt.Key.Key_R, Qt.KeyboardModifier.AltModifier)
    box = message_box(qtbot, view)
    assert "API_TOKEN" in box.text()
    qtbot.keyClick(box, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not box.isVisible())
    assert view.revealed.text() == ""
    # Every action button has a mnemonic, and they differ.
    buttons = [view.set_button, view.reveal_button, view.delete_button, view.sign_out_button]
    buttons += [view.clean_button, view.refresh_button, view.notice.retry_button, view.notice.session_button]
    buttons += [view.hide_button]
    keys = [b.text()[b.text().index("&") + 1].lower() for b in buttons]
    assert len(set(keys)) == len(keys)
    assert setup.gui_thread_calls() == []


def test_window_menu_and_toolbar_open_the_view_and_sign_out(
    qtbot: Any, aloop: Any, config_dir: Path, memory_keyring: MemoryKeyring
) -> None:
    write_servers(config_dir, {"notion": SERVERS["notion"]})
    with open_desk(qtbot) as window:
        secrets = window.controller.secrets
        secrets.set("notion", "oauth.tokens", TOKENS)
        secrets.set("notion", "oauth.client", '{"client_id":"c-1"}')
        action = window.credentials.action
        menu_actions = [a for m in window.menuBar().actions() if m.menu() for a in m.menu().actions()]
        assert action in menu_actions
        bar = window.findChild(QToolBar, "mainToolBar")
        assert bar is not None and action in bar.actions()
        action.trigger()
        view = window.credentials.view
        assert view is not None and view.isVisible()
        qtbot.waitUntil(lambda: "notion" in rows(view), timeout=10000)
        view.select("notion", "oauth.tokens")
        with qtbot.waitSignal(view.loaded, timeout=30000):
            view.sign_out_button.click()
        qtbot.waitUntil(lambda: secrets.names("notion") == [], timeout=30000)
        qtbot.waitUntil(lambda: "notion" not in rows(view), timeout=10000)
        view.close()


def test_a_new_key_from_the_servers_row(qtbot: Any, setup: Setup) -> None:
    view = setup.view
    assert view.select("notion")  # the server's own row: a new key, its name typed
    task = view.set_selected()
    assert task is not None
    qtbot.waitUntil(lambda: view.secret_dialog is not None and view.secret_dialog.isVisible())
    d = view.secret_dialog
    assert d is not None and not d.name.isReadOnly()
    save = d.buttons.button(d.buttons.StandardButton.Save)
    qtbot.keyClicks(d.name, "bad name!")
    qtbot.keyClicks(d.value, "s3cret")
    assert not save.isEnabled() and d.error.isVisible()
    d.name.setText("")
    qtbot.keyClicks(d.name, "oauth.client_secret")
    assert save.isEnabled()
    save.click()
    qtbot.waitUntil(task.done, timeout=10000)
    assert setup.peek("notion", "oauth.client_secret") == "s3cret"
    notion = {r[0]: r for r in rows(view)["notion"]}
    assert notion["oauth.client_secret"][1:3] == ["sign-in client secret", "sign in (client secret)"]
    assert setup.gui_thread_calls() == []
