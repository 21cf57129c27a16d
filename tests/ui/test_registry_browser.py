"""The server directory browser against the local directory: search as you type, pages, details,
the offline states, and adding an entry: a remote with a key (→ connected, the key in the keychain
only) and an npm package (→ "allow this program to run?" → connected)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLineEdit

from tests.servers.registry_fixtures import *  # noqa: F403  (fixtures: registry, notes_server)
from tests.servers.registry_fixtures import NOTES_TOKEN
from tests.servers.registry_server import MEMORY_VERSION, RegistryFixture, start_registry
from tests.ui.conftest import open_desk, wait_state

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")  # offscreen: raise(), size hints


def open_browser(window: Any, base: str) -> Any:
    window.controller.store.app_settings["registryUrl"] = base  # as `mcp-desk registry --registry`
    action = window.findChild(QAction, "browseRegistryAction")
    assert action is not None and action.text() == "&Browse the server directory…"
    action.trigger()
    return window.registry_browser


def close(qtbot: Any, browser: Any) -> None:
    browser.close()
    qtbot.waitUntil(lambda: browser._client is None, timeout=5000)


def install_dialog(qtbot: Any, window: Any) -> Any:
    qtbot.waitUntil(
        lambda: getattr(window, "install_dialog", None) is not None and window.install_dialog.isVisible(),
        timeout=10000,
    )
    return window.install_dialog


def rows(browser: Any) -> list[str]:
    return [s.name for s in browser.model.servers]


@pytest.fixture
def desk_with(qtbot: Any, aloop: Any, config_dir: Path) -> Iterator[Any]:
    with open_desk(qtbot) as window:
        yield window


def test_search_as_you_type_pages_details_and_offline(qtbot: Any, desk_with: Any, tmp_path: Path) -> None:
    window = desk_with
    with start_registry() as fx:
        browser = open_browser(window, fx.base)
        qtbot.waitUntil(lambda: browser.state == "results" and len(rows(browser)) == 3, timeout=10000)
        assert browser.load_more_button.isVisible()
        browser.load_more_button.click()
        qtbot.waitUntil(lambda: len(rows(browser)) == 6, timeout=10000)

        asked = len(fx.requests)
        qtbot.keyClicks(browser.search, "note")  # four keys, one search after the pause
        qtbot.waitUntil(lambda: rows(browser) == ["com.example/notes"], timeout=10000)
        searches = [u for u in fx.requests[asked:] if "/v0.1/servers?" in u]
        assert len(searches) == 1 and "search=note" in searches[0]
        qtbot.waitUntil(lambda: browser.current is not None and browser.current.name == "com.example/notes")
        qtbot.waitUntil(lambda: "com.example/notes" in browser.model.icons, timeout=10000)
        assert browser.detail_title.text() == "Notes (online)"
        assert (
            "version 3.1.0" in browser.detail_meta.text()
            and "runs on the internet" in browser.detail_meta.text()
        )
        assert browser.detail_repository.text() == "Source code: https://github.com/example/notes-mcp"
        assert browser.website_button.isVisibleTo(browser)
        assert [browser.way_box.itemText(i) for i in range(browser.way_box.count())] == [
            f"On the internet: {fx.remote_url}",
            "On the internet: https://notes.example.com/sse",
            "On this computer: npm package @example/notes-mcp 3.1.0",
        ]
        text = browser.model.data(browser.model.index(0))
        assert text.startswith("Notes (online)  ·  runs on the internet\n")

        browser.search.clear()
        qtbot.keyClicks(browser.search, "old-weather")
        qtbot.waitUntil(lambda: rows(browser) == ["io.github.example/old-weather"], timeout=10000)
        qtbot.waitUntil(lambda: browser.detail_notes.isVisibleTo(browser))
        assert "Use io.github.example/weather instead" in browser.detail_notes.text()
        browser.search.clear()
        qtbot.keyClicks(browser.search, "gone")
        qtbot.waitUntil(lambda: browser.state == "results" and rows(browser) == [], timeout=10000)
        assert browser.status.text() == "no servers found"
        browser.search.clear()
        qtbot.keyClicks(browser.search, "note")
        qtbot.waitUntil(lambda: rows(browser) == ["com.example/notes"], timeout=10000)

    # The directory is gone: a cached search is shown with its time, a new one says offline.
    browser.client().fresh_seconds = 0
    browser.run_search("note", refresh=True)
    qtbot.waitUntil(lambda: browser.state == "offline-cached", timeout=10000)
    assert browser.banner_text.text().startswith("Offline: showing the list from ")
    assert rows(browser) == ["com.example/notes"] and browser.retry_button.isVisible()
    browser.run_search("something new")
    qtbot.waitUntil(lambda: browser.state == "offline", timeout=10000)
    assert browser.banner_text.text() == (
        "The server directory cannot be reached: check your internet connection."
    )
    assert rows(browser) == []
    close(qtbot, browser)


def test_add_a_remote_with_a_key_and_it_connects(
    qtbot: Any,
    notes_server: str,  # before the window: it is stopped after the window closed its connection
    desk_with: Any,
    registry: RegistryFixture,
    config_dir: Path,
    memory_keyring: Any,
) -> None:
    window = desk_with
    browser = open_browser(window, registry.base)
    qtbot.keyClicks(browser.search, "notes")
    qtbot.waitUntil(lambda: rows(browser) == ["com.example/notes"], timeout=10000)
    qtbot.waitUntil(lambda: browser.add_button.isEnabled())
    browser.add_button.click()
    dialog = install_dialog(qtbot, window)
    assert dialog.title_label.text() == "Notes (online)"
    assert dialog.name_edit.text() == "notes"
    edit = dialog.fields["api_key"].edit
    assert edit.echoMode() == QLineEdit.EchoMode.Password
    assert not dialog.add_button.isEnabled()  # the key is required
    qtbot.keyClicks(edit, NOTES_TOKEN)
    with qtbot.waitSignal(browser.added, timeout=15000) as added:
        dialog.add_button.click()
    assert added.args == ["notes"]
    wait_state(qtbot, window, "notes", "ready")

    saved = json.loads((config_dir / "servers.json").read_text())["mcpServers"]["notes"]
    assert saved == {
        "type": "http",
        "url": notes_server,
        "headers": {"Authorization": "Bearer ${secret:api_key}"},
    }
    files = "".join(p.read_text(errors="replace") for p in config_dir.rglob("*") if p.is_file())
    assert NOTES_TOKEN not in files
    assert NOTES_TOKEN in repr(memory_keyring.__dict__)  # in the (test) keychain, and only there
    settings = json.loads((config_dir / "settings.json").read_text())["servers"]["notes"]
    assert settings["registry"] == {"name": "com.example/notes", "version": "3.1.0"}
    close(qtbot, browser)


@pytest.mark.slow
def test_add_an_npm_package_asks_to_run_it_then_connects(
    qtbot: Any, aloop: Any, config_dir: Path, tmp_path: Path
) -> None:
    # npx is the person's own or the built-in Node.js's (app/runtimes): it always runs.
    with start_registry() as fx, open_desk(qtbot) as window:
        asked: list[str] = []
        window.trust_prompter.asked.connect(asked.append)  # open_desk presses Allow when asked
        browser = open_browser(window, fx.base)
        qtbot.keyClicks(browser.search, "memory")
        qtbot.waitUntil(
            lambda: rows(browser) == ["io.github.modelcontextprotocol/server-memory"], timeout=10000
        )
        qtbot.waitUntil(lambda: browser.add_button.isEnabled())
        browser.add_button.click()
        dialog = install_dialog(qtbot, window)
        memory_file = tmp_path / "memory.jsonl"
        dialog.fields["MEMORY_FILE_PATH"].edit.setText(str(memory_file))
        dialog.add_button.click()
        qtbot.waitUntil(lambda: asked == ["server-memory"], timeout=20000)
        wait_state(qtbot, window, "server-memory", "ready", timeout=180)
        entry = json.loads((config_dir / "servers.json").read_text())["mcpServers"]["server-memory"]
        assert entry == {
            "command": "npx",
            "args": ["-y", f"@modelcontextprotocol/server-memory@{MEMORY_VERSION}"],
            "env": {"MEMORY_FILE_PATH": str(memory_file)},
        }
        close(qtbot, browser)


def test_a_newer_search_cancels_the_one_still_waiting(qtbot: Any, desk_with: Any) -> None:
    window = desk_with
    with start_registry() as fx:
        browser = open_browser(window, fx.base)
        qtbot.waitUntil(lambda: browser.state == "results", timeout=10000)
        gate = _ThreadEvent()  # the fixture's handler waits on it, on the fixture's own loop
        fx.slow["time"] = gate
        browser.run_search("time")
        first = browser._search_task
        qtbot.waitUntil(lambda: any("search=time" in u for u in fx.requests), timeout=10000)
        browser.run_search("memory")
        qtbot.waitUntil(lambda: first is not None and first.done(), timeout=5000)
        assert first is not None and first.cancelled()
        qtbot.waitUntil(
            lambda: rows(browser) == ["io.github.modelcontextprotocol/server-memory"], timeout=10000
        )
        gate.set()  # the old answer, if it still came, would change nothing
        qtbot.waitUntil(lambda: browser.state == "results")
        assert rows(browser) == ["io.github.modelcontextprotocol/server-memory"]
        close(qtbot, browser)


class _ThreadEvent:
    """An awaitable gate the fixture's handler (on its own loop) waits on, set from the test."""

    def __init__(self) -> None:
        import threading

        self._event = threading.Event()

    async def wait(self) -> None:
        import asyncio

        while not self._event.is_set():
            await asyncio.sleep(0.01)

    def set(self) -> None:
        self._event.set()


def test_icons_are_decoded_within_limits_and_only_web_addresses_open(qtbot: Any) -> None:
    from app.demo.png import badge
    from app.ui.registry_browser import RegistryBrowser, icon_from_bytes

    assert icon_from_bytes(badge(32, 32, (1, 2, 3))) is not None
    assert icon_from_bytes(badge(600, 8, (1, 2, 3))) is None  # a side over 512 pixels: not decoded
    assert icon_from_bytes(b"<svg onload='x'/>") is None
    assert icon_from_bytes(None) is None
    assert RegistryBrowser._openable("https://example.com") and RegistryBrowser._openable(
        "http://example.com"
    )
    assert not RegistryBrowser._openable("file:///etc/passwd")
    assert not RegistryBrowser._openable("javascript:alert(1)")


def test_another_directory_is_chosen_in_the_browser_and_remembered(
    qtbot: Any, desk_with: Any, config_dir: Path
) -> None:
    window = desk_with
    with start_registry() as fx:
        browser = open_browser(window, "http://127.0.0.1:9")  # nothing listens there
        qtbot.waitUntil(lambda: browser.state == "offline", timeout=10000)
        assert browser.directory_label.text() == "Server directory: http://127.0.0.1:9"
        browser.change_button.click()
        qtbot.waitUntil(lambda: browser.address_dialog is not None and browser.address_dialog.isVisible())
        browser.address_dialog.setTextValue(fx.base + "/")
        browser.address_dialog.accept()
        qtbot.waitUntil(lambda: browser.state == "results" and len(rows(browser)) == 3, timeout=10000)
        assert browser.directory_label.text() == f"Server directory: {fx.base}"
        settings = json.loads((config_dir / "settings.json").read_text())
        assert settings["app"]["registryUrl"] == fx.base
        browser.change_button.click()
        qtbot.waitUntil(lambda: browser.address_dialog is not None and browser.address_dialog.isVisible())
        browser.address_dialog.setTextValue("ftp://example.com")
        browser.address_dialog.accept()
        qtbot.waitUntil(lambda: browser.state == "error")
        assert "must start with https://" in browser.banner_text.text()
        assert json.loads((config_dir / "settings.json").read_text())["app"]["registryUrl"] == fx.base
        close(qtbot, browser)


def test_closing_while_typing_starts_no_search(qtbot: Any, desk_with: Any) -> None:
    """A search still waiting for the typing pause when the browser closes never starts: it used
    to fire later, for a window nobody saw (in the tests, after the event loop had gone)."""
    window = desk_with
    with start_registry() as fx:
        browser = open_browser(window, fx.base)
        qtbot.waitUntil(lambda: browser.state == "results", timeout=10000)
        qtbot.keyClicks(browser.search, "note")
        assert browser._debounce.isActive()  # the pause after typing has begun
        asked = len(fx.requests)
        close(qtbot, browser)
        assert not browser._debounce.isActive()
        browser._search_now()  # the timer's slot, as if it had still fired: nothing is started
        assert browser._search_task is None or browser._search_task.done()
        assert [u for u in fx.requests[asked:] if "/v0.1/servers?" in u] == []
