"""The server dialog keeps argument and URL secrets in the keychain: 'Keep secret', detection as
they are typed or pasted, and a note that other local users can read a program's arguments."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.ui.test_manage import open_dialog, save

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

VALUE = "plain-looking-value-9"
GITHUB = "ghp_" + "Zz9Yy8Xx7W" * 4


def saved(config_dir: Path, name: str) -> dict[str, Any]:
    entry: dict[str, Any] = json.loads((config_dir / "servers.json").read_text(encoding="utf-8"))[
        "mcpServers"
    ][name]
    return entry


def item_texts(d: Any) -> list[str]:
    return [d.args.item(i).text() for i in range(d.args.count())]


def argv_readable(monkeypatch: pytest.MonkeyPatch, readable: bool) -> None:
    from app.secrets import detect

    monkeypatch.setattr(detect, "argv_visible_to_others", lambda: readable)


def test_mark_an_argument_secret_moves_it_to_the_keychain_and_warns(
    qtbot: Any, desk: Any, config_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    argv_readable(monkeypatch, True)
    d = open_dialog(qtbot, desk)
    qtbot.keyClicks(d.name, "svc")
    qtbot.keyClicks(d.command, sys.executable)
    d.set_args(["--flag", VALUE, "positional-secret", "--verbose"])
    assert not d.arg_secrets.warning.isVisible()

    d.args.setCurrentRow(1)
    d.arg_secrets.mark_button.click()
    d.args.setCurrentRow(2)
    assert d.arg_secrets.mark_action in d.args.actions()  # the list's context menu
    d.arg_secrets.mark_action.trigger()
    assert item_texts(d) == ["--flag", "${secret:ARG_FLAG}", "${secret:TOKEN_1}", "--verbose"]
    assert VALUE not in " ".join(item_texts(d))  # off the screen at once

    warning = d.arg_secrets.warning
    assert warning.isVisible()
    assert "can see the arguments of a running program" in warning.text()
    assert "environment variable" in warning.text()

    save(qtbot, desk, d)
    qtbot.waitUntil(lambda: "svc" in desk.server_model.names())
    assert saved(config_dir, "svc")["args"] == [
        "--flag",
        "${secret:ARG_FLAG}",
        "${secret:TOKEN_1}",
        "--verbose",
    ]
    assert desk.controller.secrets.get("svc", "ARG_FLAG") == VALUE
    assert desk.controller.secrets.get("svc", "TOKEN_1") == "positional-secret"
    assert VALUE not in (config_dir / "servers.json").read_text(encoding="utf-8")

    # Editing again shows the references (and the note), never the values.
    d = open_dialog(qtbot, desk, "svc")
    assert VALUE not in " ".join(item_texts(d))
    assert d.arg_secrets.warning.isVisible()
    d.reject()
    qtbot.waitUntil(lambda: desk.server_dialog is None)


def test_no_note_where_arguments_are_private(qtbot: Any, desk: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    argv_readable(monkeypatch, False)  # e.g. /proc mounted with hidepid
    d = open_dialog(qtbot, desk)
    d.set_args(["--flag=" + VALUE])
    d.args.setCurrentRow(0)
    assert d.arg_secrets.mark_current()
    assert item_texts(d) == ["--flag=${secret:ARG_FLAG}"]
    assert not d.arg_secrets.warning.isVisible()
    d.reject()
    qtbot.waitUntil(lambda: desk.server_dialog is None)


def test_a_typed_secret_argument_is_taken_out_as_it_is_edited(
    qtbot: Any, desk: Any, config_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    argv_readable(monkeypatch, True)
    d = open_dialog(qtbot, desk)
    qtbot.keyClicks(d.name, "typed")
    qtbot.keyClicks(d.command, sys.executable)
    d._add_arg()
    d.args.closePersistentEditor(d.args.currentItem())
    d.args.currentItem().setText(f"--api-key={GITHUB}")  # what the item editor commits
    assert item_texts(d) == ["--api-key=${secret:ARG_API_KEY}"]
    assert d.arg_secrets.warning.isVisible()
    save(qtbot, desk, d)
    qtbot.waitUntil(lambda: "typed" in desk.server_model.names())
    assert desk.controller.secrets.get("typed", "ARG_API_KEY") == GITHUB
    assert GITHUB not in (config_dir / "servers.json").read_text(encoding="utf-8")


def test_pasted_snippet_arguments_and_typed_url_tokens_go_to_the_keychain(
    qtbot: Any, desk: Any, config_dir: Path
) -> None:
    d = open_dialog(qtbot, desk)
    snippet = json.dumps({"gh": {"command": sys.executable, "args": ["-m", "gh_mcp", "--token", GITHUB]}})
    assert d.apply_snippet(snippet.strip()[1:-1]) == 1
    assert GITHUB not in " ".join(item_texts(d))
    save(qtbot, desk, d)
    qtbot.waitUntil(lambda: "gh" in desk.server_model.names())
    assert saved(config_dir, "gh")["args"] == ["-m", "gh_mcp", "--token", "${secret:ARG_TOKEN}"]
    assert desk.controller.secrets.get("gh", "ARG_TOKEN") == GITHUB

    d = open_dialog(qtbot, desk)
    qtbot.keyClicks(d.name, "web")
    d.transport.setCurrentIndex(d.transport.findData("http"))
    qtbot.keyClicks(d.url, f"https://w.example/mcp?api_key={VALUE}&page=2")
    save(qtbot, desk, d)
    qtbot.waitUntil(lambda: "web" in desk.server_model.names())
    assert saved(config_dir, "web")["url"] == "https://w.example/mcp?api_key=${secret:URL_API_KEY}&page=2"
    assert desk.controller.secrets.get("web", "URL_API_KEY") == VALUE
    text = (config_dir / "servers.json").read_text(encoding="utf-8")
    assert VALUE not in text and GITHUB not in text
