"""The install dialog: a plan with a key, a choice, a folder and a required field becomes a server
that connects. The key goes to the (memory) keyring, servers.json holds only `${secret:…}`, the
trust prompt is shown before the program first runs, and the real SDK server
(tests/servers/env_key_server.py) only reaches "ready" when it was given the exact key typed."""

from __future__ import annotations

import asyncio
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import keyring
import pytest
from keyring.backends import fail
from keyring.errors import PasswordSetError
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit

from app.config.model import ServerEntry
from app.install.plan import InstallPlan, Question, ask_ref
from tests.support.memory_keyring import MemoryKeyring
from tests.ui.conftest import open_desk, run, wait_state

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

KEY = "sk-live-typed-in-the-dialog-0123456789"
SERVER = Path(__file__).resolve().parents[1] / "servers" / "env_key_server.py"
WAIT = 30000


def png_icon() -> bytes:
    """A small PNG, as a registry or a bundle would hand it over (bytes, never a URL)."""
    from PySide6.QtCore import QBuffer, QIODevice
    from PySide6.QtGui import QColor, QImage

    image = QImage(48, 48, QImage.Format.Format_ARGB32)
    image.fill(QColor("#fb542b"))
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(buffer.data().data())


def plan(*, default_mode: str | None = "fast") -> InstallPlan:
    entry = ServerEntry(
        name="brave",
        command=sys.executable,
        args=[str(SERVER), "--mode", ask_ref("mode"), "--root", ask_ref("root")],
        env={
            "BRAVE_API_KEY": ask_ref("BRAVE_API_KEY"),
            "WANT_SHA256": hashlib.sha256(KEY.encode()).hexdigest(),
        },
    )
    return InstallPlan(
        name="brave",
        entry=entry,
        source="link",
        title="Brave Search",
        description="Search the web with Brave. <b>not bold</b>",
        version="1.2.0",
        author="Brave",
        website="https://example.org/brave",
        icon=png_icon(),
        runtime="python",
        notes=["This link came from a web page."],
        questions=[
            Question(
                "BRAVE_API_KEY",
                "Brave API key",
                "From your Brave account page.",
                required=True,
                secret=True,
                placeholder="YOUR_API_KEY_HERE",
            ),
            Question("mode", "Mode", kind="choice", choices=("fast", "thorough"), default=default_mode),
            Question("root", "Folder", kind="directory"),
        ],
    )


def open_install(qtbot: Any, window: Any, p: InstallPlan) -> tuple[Any, asyncio.Future[str | None]]:
    from app.ui.install_dialog import install_plan

    task = asyncio.ensure_future(install_plan(window, p))
    qtbot.waitUntil(
        lambda: getattr(window, "install_dialog", None) is not None and window.install_dialog.isVisible()
    )
    return window.install_dialog, task


def key_edit(dialog: Any) -> QLineEdit:
    edit = dialog.fields["BRAVE_API_KEY"].edit
    assert isinstance(edit, QLineEdit)
    return edit


def wait_prompt(qtbot: Any, window: Any, server: str) -> Any:
    def shown() -> bool:
        d = window.trust_prompter.dialog
        return d is not None and d.isVisible() and d.request.server == server

    qtbot.waitUntil(shown, timeout=WAIT)
    return window.trust_prompter.dialog


def test_the_plan_is_shown_and_add_waits_for_the_required_key(
    qtbot: Any, aloop: Any, config_dir: Path
) -> None:
    with open_desk(qtbot, approve=False) as window:
        dialog, task = open_install(qtbot, window, plan())
        assert dialog.title_label.text() == "Brave Search"
        assert dialog.facts_label.text() == "version 1.2.0 · by Brave"
        # Plain text, not rendered.
        assert dialog.description.text().endswith("<b>not bold</b>")
        assert dialog.description.textFormat() == Qt.TextFormat.PlainText
        assert dialog.icon_label.pixmap() is not None and not dialog.icon_label.pixmap().isNull()
        assert "uv" in dialog.runtime_label.text()
        assert dialog.website_button.isEnabled()
        assert dialog.note_labels[0].text() == "This link came from a web page."
        assert dialog.name_edit.text() == "brave"
        # The key: masked, required, with what the example said as a hint (not as its value).
        edit = key_edit(dialog)
        assert edit.echoMode() == QLineEdit.EchoMode.Password and edit.text() == ""
        assert "The example said YOUR_API_KEY_HERE" in dialog.hints["BRAVE_API_KEY"].text()
        assert dialog.fields["mode"].answer() == "fast"  # the default, chosen
        assert not dialog.add_button.isEnabled()

        qtbot.keyClicks(edit, KEY)
        assert dialog.add_button.isEnabled()
        dialog.fields["BRAVE_API_KEY"].show_button.click()
        assert edit.echoMode() == QLineEdit.EchoMode.Normal
        # The name is checked as it is typed.
        dialog.name_edit.setText("a/b")
        assert not dialog.add_button.isEnabled() and dialog.name_problem.isVisible()
        dialog.name_edit.setText("brave")
        assert dialog.add_button.isEnabled()
        dialog.reject()
        qtbot.waitUntil(task.done)
        assert task.result() is None


def test_cancel_leaves_nothing(
    qtbot: Any, aloop: Any, config_dir: Path, memory_keyring: MemoryKeyring
) -> None:
    with open_desk(qtbot, approve=False) as window:
        path = config_dir / "servers.json"
        before = path.read_text(encoding="utf-8") if path.exists() else None
        dialog, task = open_install(qtbot, window, plan())
        qtbot.keyClicks(key_edit(dialog), KEY)
        dialog.cancel_button.click()
        qtbot.waitUntil(task.done)
        assert task.result() is None
        assert "brave" not in window.controller.store
        assert (path.read_text(encoding="utf-8") if path.exists() else None) == before
        assert not any(v == KEY for v in memory_keyring.store.values())


def test_add_stores_the_key_asks_to_run_and_connects(
    qtbot: Any, aloop: Any, config_dir: Path, memory_keyring: MemoryKeyring
) -> None:
    folder = config_dir.parent / "work"
    folder.mkdir()
    with open_desk(qtbot, approve=False) as window:
        dialog, task = open_install(qtbot, window, plan())
        qtbot.keyClicks(key_edit(dialog), KEY)
        dialog.fields["mode"].set_answer("thorough")
        dialog.fields["root"].edit.setText(str(folder))
        dialog.add_button.click()
        prompt = wait_prompt(qtbot, window, "brave")
        assert window.install_dialog is None  # added: the dialog is gone, the prompt asks
        shown = prompt.command_view.toPlainText()
        assert "--mode thorough" in shown and str(folder) in shown and KEY not in shown
        prompt.allow_button.click()
        wait_state(qtbot, window, "brave", "ready")  # the server checks the key's hash
        qtbot.waitUntil(task.done)
        assert task.result() == "brave"
        assert window.current_server() == "brave"

    saved = (config_dir / "servers.json").read_text(encoding="utf-8")
    assert KEY not in saved
    entry = json.loads(saved)["mcpServers"]["brave"]
    assert entry["env"]["BRAVE_API_KEY"] == "${secret:BRAVE_API_KEY}"
    assert entry["args"][1:] == ["--mode", "thorough", "--root", str(folder)]
    assert KEY in memory_keyring.store.values()
    for path in config_dir.rglob("*"):
        assert not path.is_file() or KEY.encode() not in path.read_bytes()


class RefusingKeyring(MemoryKeyring):
    def set_password(self, service: str, username: str, password: str) -> None:
        raise PasswordSetError("the keychain is locked")


def test_an_error_keeps_the_dialog_with_what_was_typed(qtbot: Any, aloop: Any, config_dir: Path) -> None:
    keyring.set_keyring(RefusingKeyring())  # the conftest fixture puts the memory one back
    with open_desk(qtbot, approve=False) as window:
        dialog, task = open_install(qtbot, window, plan())
        qtbot.keyClicks(key_edit(dialog), KEY)
        dialog.add_button.click()
        qtbot.waitUntil(lambda: dialog.error_label.isVisible(), timeout=WAIT)
        assert "not added" in dialog.error_label.text()
        assert dialog.isVisible() and window.install_dialog is dialog and not task.done()
        assert key_edit(dialog).text() == KEY and dialog.add_button.isEnabled()
        assert "brave" not in window.controller.store
        dialog.reject()
        qtbot.waitUntil(task.done)


def test_no_keychain_offers_to_keep_the_key_for_the_session(qtbot: Any, aloop: Any, config_dir: Path) -> None:
    keyring.set_keyring(fail.Keyring())
    with open_desk(qtbot, approve=False) as window:
        dialog, task = open_install(qtbot, window, plan())
        qtbot.keyClicks(key_edit(dialog), KEY)
        dialog.add_button.click()
        qtbot.waitUntil(lambda: dialog.session_button.isVisible(), timeout=WAIT)
        assert dialog.isVisible() and "brave" not in window.controller.store
        dialog.session_button.click()
        wait_prompt(qtbot, window, "brave").allow_button.click()
        wait_state(qtbot, window, "brave", "ready")
        qtbot.waitUntil(task.done)
        assert "brave" in window.controller.session_only_servers()
        run(qtbot, asyncio.sleep(0))
    assert KEY not in (config_dir / "servers.json").read_text(encoding="utf-8")


def test_numbers_booleans_and_lists(qtbot: Any, aloop: Any, config_dir: Path) -> None:
    from app.ui.controller import DeskController
    from app.ui.install_dialog import InstallDialog

    entry = ServerEntry(
        name="x", command=sys.executable, args=[ask_ref("n"), ask_ref("roots")], env={"V": ask_ref("verbose")}
    )
    p = InstallPlan(
        name="demo",  # taken by the seeded demo server: the name offered is made unique
        entry=entry,
        questions=[
            Question("n", "Results", kind="number", minimum=1, maximum=20, default="10", required=True),
            Question("verbose", "Verbose", kind="boolean", default="true"),
            Question("roots", "Folders", kind="directory", multiple=True),
        ],
    )
    controller = DeskController()
    controller.load_config()
    dialog = InstallDialog(controller, p)
    qtbot.addWidget(dialog)
    assert dialog.name_edit.text() == "demo-2"
    assert dialog.answers() == {"n": 10.0, "verbose": True, "roots": []}
    dialog.fields["n"].edit.setText("30")
    assert not dialog.add_button.isEnabled() and "at most 20" in dialog.add_button.toolTip()
    dialog.fields["n"].edit.setText("ten")
    assert not dialog.add_button.isEnabled() and "must be a number" in dialog.add_button.toolTip()
    dialog.fields["n"].edit.setText("3")
    dialog.fields["roots"].set_answer(["/a", "/b"])
    assert dialog.add_button.isEnabled()
    dialog.name_edit.setText("demo")
    assert not dialog.add_button.isEnabled() and "already exists" in dialog.name_problem.text()
    from app.install.plan import apply

    applied = apply(p, dialog.answers())
    assert applied.entry.args == ["3", "/a", "/b"] and applied.entry.env == {"V": "true"}
