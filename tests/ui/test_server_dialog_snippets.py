"""The Add dialog with README snippets: example values asked for, command lines split, runtime line."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from app.ui.theme import colours

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

# An example value to replace is shown in the theme's warning colours (light or dark).
EXAMPLE = colours("warning")[0]

BRAVE = """
# Claude Desktop
"mcpServers": {
  "brave-search": {
    "command": "npx",
    "args": ["-y", "@brave/brave-search-mcp-server"],
    "env": {"BRAVE_API_KEY": "YOUR_API_KEY_HERE"},
  },
}
"""


def open_dialog(qtbot: Any, desk: Any, edit: str | None = None) -> Any:
    if edit is None:
        desk.add_server()
    else:
        desk.edit_server(edit)
    qtbot.waitUntil(
        lambda: getattr(desk, "server_dialog", None) is not None and desk.server_dialog.isVisible()
    )
    return desk.server_dialog


def save(qtbot: Any, desk: Any, d: Any) -> None:
    d.buttons.button(d.buttons.StandardButton.Save).click()
    qtbot.waitUntil(lambda: desk.server_dialog is None, timeout=10000)


def saved(config_dir: Path, name: str) -> dict[str, Any]:
    entry: dict[str, Any] = json.loads((config_dir / "servers.json").read_text(encoding="utf-8"))[
        "mcpServers"
    ][name]
    return entry


def test_pasted_example_key_is_asked_and_saved_in_the_keychain(
    qtbot: Any, desk: Any, config_dir: Path, memory_keyring: Any
) -> None:
    d = open_dialog(qtbot, desk)
    assert d.apply_snippet(BRAVE) == 1
    assert d.name.text() == "brave-search" and d.command.text() == "npx"
    assert d.args_value() == ["-y", "@brave/brave-search-mcp-server"]
    # The question: highlighted, masked (it is a key), with the example as its hint.
    assert d.example_values.isVisible()
    field = d.example_values.fields["BRAVE_API_KEY"]
    assert field.echoMode() == field.EchoMode.Password and EXAMPLE in field.styleSheet()
    # The env row shows the example where it was, highlighted and not editable there.
    _name, value, secret, _ = d.env.rows[0]
    assert value.text() == "YOUR_API_KEY_HERE" and value.isReadOnly() and EXAMPLE in value.styleSheet()
    assert value.echoMode() == value.EchoMode.Normal and secret.isChecked()

    # Save without answering: the dialog stays, says what to do, and focuses the question.
    d.buttons.button(d.buttons.StandardButton.Save).click()
    assert desk.server_dialog is d and d.isVisible()
    assert d.example_values.errors["BRAVE_API_KEY"].isVisible()

    qtbot.keyClicks(field, "BSA-real-key-123")
    save(qtbot, desk, d)
    qtbot.waitUntil(lambda: "brave-search" in desk.server_model.names())
    text = (config_dir / "servers.json").read_text(encoding="utf-8")
    assert "YOUR_API_KEY_HERE" not in text and "BSA-real-key-123" not in text
    assert saved(config_dir, "brave-search")["env"] == {"BRAVE_API_KEY": "${secret:BRAVE_API_KEY}"}
    assert desk.controller.secrets.get("brave-search", "BRAVE_API_KEY") == "BSA-real-key-123"


def test_pasted_example_folder_and_header_token(
    qtbot: Any, desk: Any, config_dir: Path, memory_keyring: Any, tmp_path: Path
) -> None:
    d = open_dialog(qtbot, desk)
    snippet = json.dumps(
        {
            "fs": {
                "command": "npx",
                "args": ["-y", "@modelcontextprotocol/server-filesystem", "/path/to/allowed/dir"],
            }
        }
    )
    assert d.apply_snippet(snippet[1:-1]) == 1
    # The argument holding the example is coloured and named.
    item = d.args.item(2)
    assert item.text() == "/path/to/allowed/dir" and item.background().color().name() == EXAMPLE
    (key,) = d.example_values.fields
    qtbot.keyClicks(d.example_values.fields[key], str(tmp_path))
    save(qtbot, desk, d)
    qtbot.waitUntil(lambda: "fs" in desk.server_model.names())
    assert saved(config_dir, "fs")["args"][-1] == str(tmp_path)

    d = open_dialog(qtbot, desk)
    remote = '{"mcp": {"gh": {"type": "remote", "url": "https://api.githubcopilot.com/mcp/",'
    remote += ' "headers": {"Authorization": "Bearer <your-github-token>"}}}}'
    assert d.apply_snippet(remote) == 1
    assert d.transport_value() == "http"
    qtbot.keyClicks(d.example_values.fields["GITHUB_TOKEN"], "ghp_typed")
    save(qtbot, desk, d)
    qtbot.waitUntil(lambda: "gh" in desk.server_model.names())
    assert saved(config_dir, "gh")["headers"] == {"Authorization": "Bearer ${secret:GITHUB_TOKEN}"}
    assert desk.controller.secrets.get("gh", "GITHUB_TOKEN") == "ghp_typed"


def test_typing_over_the_example_in_place_needs_no_answer(qtbot: Any, desk: Any, config_dir: Path) -> None:
    d = open_dialog(qtbot, desk)
    assert d.apply_snippet('"fs": {"command": "npx", "args": ["-y", "pkg", "/path/to/dir"]}') == 1
    d.args.item(2).setText("/srv/data")  # the person edits the argument itself
    save(qtbot, desk, d)
    qtbot.waitUntil(lambda: "fs" in desk.server_model.names())
    assert saved(config_dir, "fs")["args"] == ["-y", "pkg", "/srv/data"]


def test_several_pasted_servers_with_examples(
    qtbot: Any, desk: Any, config_dir: Path, memory_keyring: Any
) -> None:
    d = open_dialog(qtbot, desk)
    snippet = json.dumps(
        {
            "mcpServers": {
                "tavily": {
                    "command": "npx",
                    "args": ["-y", "tavily-mcp"],
                    "env": {"TAVILY_API_KEY": "<your-api-key>"},
                },
                "time": {"command": "uvx", "args": ["mcp-server-time"]},
            }
        }
    )
    assert d.apply_snippet(snippet) == 2
    d.buttons.button(d.buttons.StandardButton.Save).click()
    assert desk.server_dialog is d  # the example value is still to replace
    qtbot.keyClicks(d.example_values.fields["0:TAVILY_API_KEY"], "tvly-real")
    save(qtbot, desk, d)
    qtbot.waitUntil(lambda: {"tavily", "time"} <= set(desk.server_model.names()), timeout=10000)
    assert saved(config_dir, "tavily")["env"] == {"TAVILY_API_KEY": "${secret:TAVILY_API_KEY}"}
    assert desk.controller.secrets.get("tavily", "TAVILY_API_KEY") == "tvly-real"


def test_a_command_line_is_split_and_the_parts_shown(qtbot: Any, desk: Any, config_dir: Path) -> None:
    d = open_dialog(qtbot, desk)
    qtbot.keyClicks(d.name, "web")
    qtbot.keyClicks(d.command, 'LOG_LEVEL=debug python3 -m http.server --bind "127.0.0.1"')
    d.command.editingFinished.emit()
    assert d.command.text() == "python3"
    assert d.args_value() == ["-m", "http.server", "--bind", "127.0.0.1"]
    assert [(k.text(), v.text()) for k, v, _s, _ in d.env.rows] == [("LOG_LEVEL", "debug")]
    assert d.split_note.isVisible()
    note = d.split_note.text()
    assert "python3" in note and "4 argument(s)" in note and "LOG_LEVEL" in note

    # Pressing Save right away splits too (no focus change needed).
    d.command.setText(sys.executable + " -m app demo-server")
    d.set_args([])
    for rows in (d.env,):
        for r in list(rows.rows):
            rows._remove(r)
    save(qtbot, desk, d)
    qtbot.waitUntil(lambda: "web" in desk.server_model.names())
    assert saved(config_dir, "web")["command"] == sys.executable
    assert saved(config_dir, "web")["args"] == ["-m", "app", "demo-server"]


def test_an_example_path_in_a_typed_command_line_is_asked(qtbot: Any, desk: Any) -> None:
    d = open_dialog(qtbot, desk)
    d.command.setText("npx -y @modelcontextprotocol/server-filesystem /path/to/allowed/dir")
    d.command.editingFinished.emit()
    assert d.command.text() == "npx" and d.args_value()[-1] == "/path/to/allowed/dir"
    assert list(d.example_values.fields) == ["ALLOWED_DIR"] and d.example_values.isVisible()
    d.reject()
    qtbot.waitUntil(lambda: desk.server_dialog is None)


@pytest.mark.skipif(shutil.which("node") is None, reason="needs a Node.js on PATH to name it")
def test_the_edit_dialog_says_which_runtime_a_server_uses(qtbot: Any, desk: Any) -> None:
    from app.config.model import ServerEntry
    from app.runtimes import describe, runtime_for

    desk.controller.store.add(ServerEntry(name="mem", command="npx", args=["-y", "pkg"]))
    desk.controller.save()
    expected = describe(runtime_for("npx"))
    assert expected
    d = open_dialog(qtbot, desk, "mem")
    qtbot.waitUntil(lambda: d.runtime_line.isVisible(), timeout=10000)
    assert d.runtime_line.text() == f"Runs on: {expected}"
    d.reject()
    qtbot.waitUntil(lambda: desk.server_dialog is None)

    # A program that is no runtime's: no line.
    d = open_dialog(qtbot, desk, "demo")
    assert d._runtime_lookup is not None
    qtbot.waitUntil(lambda: d._runtime_lookup is None or d._runtime_lookup.done(), timeout=10000)
    assert not d.runtime_line.isVisible()
    d.reject()
    qtbot.waitUntil(lambda: desk.server_dialog is None)
