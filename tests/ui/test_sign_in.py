"""Signing in from the window, against the local OAuth-protected server (tests/servers/oauth_server.py)
with a headless browser in place of the system one: "sign in needed" and its button, the wait with
Copy link and Cancel, the account and expiry once signed in, Sign out, the Edit dialog's OAuth
fields, and a server with its own bearer header left as it was."""

from __future__ import annotations

import contextlib
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QObject, QUrl, Slot
from PySide6.QtGui import QDesktopServices, QGuiApplication

from tests.servers.oauth_fixtures import *  # noqa: F403  (fixtures: oauth_server, headless_browser...)
from tests.servers.oauth_server import OAuthServer
from tests.support.headless_browser import HeadlessBrowser
from tests.ui.conftest import open_desk, run, wait_state, write_servers

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

SUBJECT = "ana@example.com"


def box_text(window: Any) -> str:
    box = window.sign_in_box
    return f"{box.headline.text()}\n{box.detail.text()}"


@pytest.fixture
def oauth(oauth_server_factory: Any) -> OAuthServer:
    server: OAuthServer = oauth_server_factory(subject=SUBJECT)
    return server


@contextlib.contextmanager
def remote_desk(qtbot: Any, config_dir: Path, oauth: OAuthServer, browser: HeadlessBrowser) -> Iterator[Any]:
    write_servers(config_dir, {"remote": {"type": "http", "url": oauth.url}})
    with open_desk(qtbot, browser=browser) as window:
        window.servers.select("remote")
        window.servers.buttons["connect"].click()
        wait_state(qtbot, window, "remote", "needs_sign_in")
        yield window


@pytest.fixture
def browser() -> HeadlessBrowser:
    # Returns at once and visits in the background, as a real browser would.
    return HeadlessBrowser(background=True)


@pytest.fixture
def desk_needing_sign_in(
    qtbot: Any, aloop: Any, config_dir: Path, oauth: OAuthServer, browser: HeadlessBrowser
) -> Iterator[Any]:
    with remote_desk(qtbot, config_dir, oauth, browser) as window:
        yield window


def sign_in(qtbot: Any, window: Any) -> None:
    assert window.sign_in_box.sign_in_button.isVisible()
    window.sign_in_box.sign_in_button.click()
    wait_state(qtbot, window, "remote", "ready")
    qtbot.waitUntil(lambda: window.sign_in_box.mode == "signed_in", timeout=10000)
    # The headless browser's visit ends with the loopback's page: let it close its connections
    # before the test goes on (a socket left open is a ResourceWarning, an error here).
    browser = window.controller.browser
    run(qtbot, browser.wait())


def test_a_server_that_wants_a_sign_in_says_so_with_the_button(
    qtbot: Any, desk_needing_sign_in: Any, browser: HeadlessBrowser
) -> None:
    w = desk_needing_sign_in
    row = w.server_model.server("remote")
    assert row.status_text() == "sign in needed"  # not "failed", not "HTTP 401"
    from app.ui.theme import state_colour  # blue, "your turn": not red

    colour = w.server_model.data(w.server_model.index(0, 0), w.server_model.StateColourRole)
    assert colour == state_colour("needs-sign-in")
    assert w.sign_in_box.isVisible() and w.sign_in_box.mode == "needed"
    assert "“remote” needs you to sign in" in box_text(w)
    assert w.sign_in_box.sign_in_button.isVisible()
    assert not w.sign_in_box.sign_out_button.isVisible()
    assert w.overview_title.text() == "remote — sign in needed"
    assert not w.overview_reason.isVisible()  # the red "could not connect" box is for failures
    # In the list, Sign in takes Connect's place; the context menu offers it first.
    assert w.servers.sign_in_button.isVisible() and not w.servers.buttons["connect"].isVisible()
    assert "sign_in" in w.servers.enabled_actions("remote")
    assert "sign_out" not in w.servers.enabled_actions("remote")
    assert browser.visits == []  # a plain connect never opens a browser


def test_sign_in_shows_the_tools_and_the_account_with_its_expiry(
    qtbot: Any, desk_needing_sign_in: Any, browser: HeadlessBrowser
) -> None:
    from app.ui.sign_in import until_text

    w = desk_needing_sign_in
    sign_in(qtbot, w)
    assert len(browser.visits) == 1 and browser.visits[0].server == "remote"
    qtbot.waitUntil(lambda: w.catalog.models["tools"].rowCount() > 0, timeout=10000)
    tools = w.catalog.models["tools"]
    names = {tools.index(i, 0).data() for i in range(tools.rowCount())}
    assert {"whoami", "echo"} <= names
    status = w.server_model.server("remote").auth
    assert status.account == SUBJECT and status.expires_at is not None
    assert status.expires_at > time.time()
    assert w.sign_in_box.headline.text() == f"signed in as {SUBJECT} · until {until_text(status.expires_at)}"
    assert w.sign_in_box.sign_out_button.isVisible() and not w.sign_in_box.sign_in_button.isVisible()
    assert w.servers.buttons["connect"].isVisible() and not w.servers.sign_in_button.isVisible()
    assert "sign_out" in w.servers.enabled_actions("remote")


def test_cancel_while_waiting_returns_to_sign_in_needed(
    qtbot: Any, aloop: Any, config_dir: Path, oauth: OAuthServer
) -> None:
    # The person never finishes in the browser: only the address is recorded.
    browser = HeadlessBrowser(follow=False)
    with remote_desk(qtbot, config_dir, oauth, browser) as w:
        w.sign_in_box.sign_in_button.click()
        qtbot.waitUntil(lambda: w.sign_in_box.mode == "waiting", timeout=15000)
        assert w.sign_in_box.headline.text() == "Waiting for you to sign in in your browser…"
        assert w.server_model.server("remote").status_text() == "waiting for you to sign in…"
        assert w.sign_in_box.copy_button.isVisible() and w.sign_in_box.cancel_button.isVisible()
        assert "cancel_sign_in" in w.servers.enabled_actions("remote")
        w.sign_in_box.copy_button.click()
        assert QGuiApplication.clipboard().text() == browser.urls[0]  # the page the engine opened
        assert browser.urls[0].startswith(oauth.as_url)
        w.sign_in_box.cancel_button.click()
        wait_state(qtbot, w, "remote", "needs_sign_in")
        row = w.server_model.server("remote")
        assert row.reason == "sign-in was cancelled"
        assert row.status_text() == "sign in needed: sign-in was cancelled"
        assert w.sign_in_box.mode == "needed" and "Sign-in was cancelled." in box_text(w)
        assert w.sign_in_box.sign_in_button.isVisible()


def test_sign_out_returns_to_sign_in_needed(
    qtbot: Any, desk_needing_sign_in: Any, memory_keyring: Any
) -> None:
    w = desk_needing_sign_in
    sign_in(qtbot, w)
    secrets = w.controller.secrets
    assert "oauth.tokens" in secrets.names("remote")
    w.sign_in_box.sign_out_button.click()
    wait_state(qtbot, w, "remote", "needs_sign_in")
    qtbot.waitUntil(lambda: w.sign_in_box.mode == "needed", timeout=5000)
    assert w.server_model.server("remote").auth is None
    assert "sign_out" not in w.servers.enabled_actions("remote")
    assert "oauth.tokens" not in secrets.names("remote")
    assert w.catalog.models["tools"].rowCount() == 0


def test_sign_out_of_a_server_without_a_connection_is_seen_too(qtbot: Any, desk_needing_sign_in: Any) -> None:
    # As from the credentials view: the engine has no connection to tell the window about it.
    w = desk_needing_sign_in
    sign_in(qtbot, w)
    run(qtbot, w.controller.forget("remote"))
    assert w.controller.connection("remote") is None
    assert w.server_model.server("remote").signed_in  # the keychain still holds the sign-in
    run(qtbot, w.controller.sign_out("remote"))
    qtbot.waitUntil(lambda: not w.server_model.server("remote").signed_in, timeout=5000)
    assert "sign_out" not in w.servers.enabled_actions("remote")
    assert "oauth.tokens" not in w.controller.secrets.names("remote")


def test_context_menu_offers_sign_in_then_sign_out(qtbot: Any, desk_needing_sign_in: Any) -> None:
    w = desk_needing_sign_in
    view = w.servers.view
    rect = view.visualRect(w.server_model.index(0, 0))
    w.servers._menu(rect.center())
    names = [a.objectName() for a in w.servers.menu.actions() if a.objectName()]
    assert names[0] == "menu_sign_in" and "menu_sign_out" not in names
    w.servers.menu.close()
    next(a for a in w.servers.menu.actions() if a.objectName() == "menu_sign_in").trigger()
    wait_state(qtbot, w, "remote", "ready")
    qtbot.waitUntil(lambda: w.server_model.server("remote").signed_in, timeout=10000)
    run(qtbot, w.controller.browser.wait())
    w.servers._menu(rect.center())
    names = [a.objectName() for a in w.servers.menu.actions() if a.objectName()]
    assert names[-1] == "menu_sign_out" and "menu_sign_in" not in names
    w.servers.menu.close()


def open_edit(qtbot: Any, window: Any, name: str) -> Any:
    window.edit_server(name)
    qtbot.waitUntil(
        lambda: getattr(window, "server_dialog", None) is not None and window.server_dialog.isVisible()
    )
    return window.server_dialog


def save(qtbot: Any, window: Any, dialog: Any) -> None:
    dialog.buttons.button(dialog.buttons.StandardButton.Save).click()
    qtbot.waitUntil(lambda: window.server_dialog is None, timeout=10000)


def files_holding(folder: Path, text: str) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file() and text.encode() in p.read_bytes()]


def test_edit_dialog_keeps_the_client_id_in_settings_and_the_secret_in_the_keychain(
    qtbot: Any, aloop: Any, config_dir: Path, tmp_path: Path, memory_keyring: Any
) -> None:
    client_secret = "pre-registered-secret-7f3a9c"
    write_servers(config_dir, {"remote": {"type": "http", "url": "http://127.0.0.1:9/mcp"}})
    with open_desk(qtbot) as w:
        d = open_edit(qtbot, w, "remote")
        section = d.oauth
        assert not section.body.isVisible()  # folded away by default
        section.toggle.click()
        assert section.body.isVisible()
        qtbot.keyClicks(section.client_id, "desk-client")
        qtbot.keyClicks(section.client_secret, client_secret)
        assert section.client_secret.echoMode() == section.client_secret.EchoMode.Password
        qtbot.keyClicks(section.scope, "read write")
        save(qtbot, w, d)
        settings = json.loads((config_dir / "settings.json").read_text(encoding="utf-8"))
        assert settings["servers"]["remote"]["oauth"] == {"client_id": "desk-client", "scope": "read write"}
        assert w.controller.secrets.get("remote", "oauth.client_secret") == client_secret
        assert files_holding(tmp_path, client_secret) == []  # no file anywhere holds it

        # Again: shown unfolded with what is set; the secret is "stored", left alone it stays.
        d = open_edit(qtbot, w, "remote")
        assert d.oauth.body.isVisible()
        assert d.oauth.client_id.text() == "desk-client"
        assert d.oauth.client_secret.text() == ""
        qtbot.waitUntil(lambda: d.oauth.secret_stored, timeout=5000)
        assert "stored in the keychain" in d.oauth.client_secret.placeholderText()
        d.oauth.scope.clear()
        save(qtbot, w, d)
        settings = json.loads((config_dir / "settings.json").read_text(encoding="utf-8"))
        assert settings["servers"]["remote"]["oauth"] == {"client_id": "desk-client"}
        assert w.controller.secrets.get("remote", "oauth.client_secret") == client_secret


def test_a_client_secret_without_a_client_id_is_refused(qtbot: Any, aloop: Any, config_dir: Path) -> None:
    write_servers(config_dir, {"remote": {"type": "http", "url": "http://127.0.0.1:9/mcp"}})
    with open_desk(qtbot) as w:
        d = open_edit(qtbot, w, "remote")
        d.oauth.set_expanded(True)
        qtbot.keyClicks(d.oauth.client_secret, "lonely-secret")
        d.buttons.button(d.buttons.StandardButton.Save).click()
        assert d.isVisible() and d.client_id_error.isVisible()
        assert w.controller.secrets.get("remote", "oauth.client_secret") is None
        d.reject()
        qtbot.waitUntil(lambda: w.server_dialog is None, timeout=10000)


TOKEN = "tok-bearer-5c1d2e"


def test_a_server_with_its_own_bearer_header_stays_as_it_was(
    qtbot: Any, aloop: Any, config_dir: Path, browser: HeadlessBrowser
) -> None:
    from tests.mcp.conftest import SDK_SERVER
    from tests.servers.process import ServerProcess

    with ServerProcess([sys.executable, str(SDK_SERVER), "--http", "--require-token", TOKEN]) as proc:
        host, port = proc.wait_listening(30)
        write_servers(
            config_dir,
            {
                "api": {
                    "type": "http",
                    "url": f"http://{host}:{port}/mcp",
                    "headers": {"Authorization": "Bearer ${secret:TOKEN}"},
                }
            },
        )
        with open_desk(qtbot, browser=browser) as w:
            w.controller.secrets.set("api", "TOKEN", TOKEN)
            w.servers.select("api")
            w.servers.buttons["connect"].click()
            wait_state(qtbot, w, "api", "ready")
            run(qtbot, w._read_auth("api"))
            assert browser.visits == []
            assert not w.sign_in_box.isVisible()
            assert w.servers.enabled_actions("api").isdisjoint({"sign_in", "sign_out", "cancel_sign_in"})
            assert w.server_model.server("api").status_text().startswith("connected")
            # Saving it from the Edit dialog writes no sign-in settings.
            d = open_edit(qtbot, w, "api")
            assert not d.oauth.body.isVisible()
            save(qtbot, w, d)
            settings = json.loads((config_dir / "settings.json").read_text(encoding="utf-8"))
            assert "oauth" not in settings.get("servers", {}).get("api", {})
            assert w.controller.secrets.names("api") == ["TOKEN"]


def test_the_dialog_names_the_client_secret_as_the_engine_reads_it() -> None:
    from app.secrets.oauth import CLIENT_SECRET
    from app.ui.server_dialog import OAUTH_CLIENT_SECRET

    assert OAUTH_CLIENT_SECRET == CLIENT_SECRET


class _Opened(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.urls.append(url.toString())


def test_the_system_browser_opens_only_web_addresses_and_keeps_the_link(qtbot: Any, aloop: Any) -> None:
    from app.ui.sign_in import QtBrowser

    opened = _Opened()
    schemes = ("http", "https", "file", "javascript")
    for scheme in schemes:  # QDesktopServices hands these to us instead of the desktop
        QDesktopServices.setUrlHandler(scheme, opened, "open")
    try:
        browser = QtBrowser()
        page = "https://auth.example.com/authorize?client_id=desk&state=s1"
        run(qtbot, browser.open("remote", page))
        run(qtbot, browser.open("other", "file:///etc/passwd"))
        run(qtbot, browser.open("third", "javascript:alert(1)"))
        assert opened.urls == [page]
        assert browser.url("remote") == page  # for "Copy link"
    finally:
        for scheme in schemes:
            QDesktopServices.unsetUrlHandler(scheme)
