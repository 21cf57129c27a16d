""" "Allow this program to run?" in the window: asked before a local server's first start and after
its command changes; Allow starts it, Don't run leaves it not started with a note; the demo never
asks; several servers ask one after another. Real processes: a server that touches a file when it
starts proves whether it ran."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.trust import marking_server
from tests.ui.conftest import open_desk, run, wait_state, write_servers

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

WAIT = 30000
REPO = Path(__file__).resolve().parents[2]


def prompt(window: Any) -> Any:
    return window.trust_prompter.dialog


def wait_prompt(qtbot: Any, window: Any, server: str) -> Any:
    qtbot.waitUntil(
        lambda: (
            prompt(window) is not None
            and prompt(window).isVisible()
            and prompt(window).request.server == server
        ),
        timeout=WAIT,
    )
    return prompt(window)


def approval(config_dir: Path, server: str) -> str | None:
    try:
        data = json.loads((config_dir / "settings.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    value: str | None = data.get("servers", {}).get(server, {}).get("approved_launch")
    return value


def note(window: Any, server: str) -> str:
    row = window.server_model.server(server)
    assert row is not None
    return str(row.note)


def test_asked_before_the_first_start_and_allow_starts_it(qtbot: Any, aloop: Any, config_dir: Path) -> None:
    marker = config_dir.parent / "started"
    write_servers(config_dir, {"local": marking_server(marker)}, approved=False)
    with open_desk(qtbot, connect_enabled=True, approve=False) as window:
        dialog = wait_prompt(qtbot, window, "local")
        # Asked first: nothing ran, the engine has no connection for it.
        assert not marker.exists()
        assert window.controller.connection("local") is None
        assert dialog.windowTitle() == "Allow this program to run?"
        shown = dialog.command_view.toPlainText()
        assert shown.startswith(sys.executable) and "sdk_server.py" in shown
        assert "Working folder: not set" in dialog.details.text()
        assert "Environment variables: none" in dialog.details.text()
        # The only thing worth a look: the marker's path is in pytest's temporary folder (and so is
        # the interpreter, when the checkout itself is under /tmp, as a CI clone may be).
        assert {r.kind for r in dialog.request.risks} == {"temporary-folder"}
        assert any(str(marker) in r.subject for r in dialog.request.risks), dialog.request.risks
        assert dialog.dont_run_button.isDefault()

        dialog.allow_button.click()
        wait_state(qtbot, window, "local", "ready")
        assert marker.exists()
        assert note(window, "local") == ""
        assert approval(config_dir, "local") is not None


def test_dont_run_leaves_it_not_started_with_a_note_and_connect_asks_again(
    qtbot: Any, aloop: Any, config_dir: Path
) -> None:
    marker = config_dir.parent / "started"
    write_servers(config_dir, {"local": marking_server(marker)}, approved=False)
    with open_desk(qtbot, connect_enabled=True, approve=False) as window:
        wait_prompt(qtbot, window, "local").dont_run_button.click()
        qtbot.waitUntil(lambda: "waiting for your approval" in note(window, "local"), timeout=WAIT)
        wait_state(qtbot, window, "local", "idle")
        row = window.server_model.server("local")
        assert row is not None and row.status_text().startswith("not connected · waiting for your approval")
        assert window.controller.connection("local") is None
        assert not marker.exists()
        assert approval(config_dir, "local") is None

        # Connect asks again; this time the person allows it.
        window.servers.select("local")
        window.servers.buttons["connect"].click()
        wait_prompt(qtbot, window, "local").allow_button.click()
        wait_state(qtbot, window, "local", "ready")
        assert marker.exists()
        qtbot.waitUntil(lambda: note(window, "local") == "", timeout=WAIT)


def test_an_approved_server_starts_without_asking_until_its_arguments_change(
    qtbot: Any, aloop: Any, config_dir: Path
) -> None:
    from app.config.model import ServerEntry

    marker = config_dir.parent / "started"
    write_servers(config_dir, {"local": marking_server(marker)})  # approved earlier
    with open_desk(qtbot, connect_enabled=True, approve=False) as window:
        asked: list[str] = []
        window.trust_prompter.asked.connect(asked.append)
        wait_state(qtbot, window, "local", "ready")
        assert asked == []
        first = window.controller.connection("local")

        # The arguments change (as after an Edit): asked again before the new command runs.
        entry = window.controller.entry("local")
        changed = ServerEntry(name="local", command=entry.command, args=[*entry.args, "--extra-tools", "2"])
        window.controller.store.update(changed)
        window.controller.save()
        dialog = wait_prompt(qtbot, window, "local")
        assert "--extra-tools 2" in dialog.command_view.toPlainText()
        dialog.dont_run_button.click()
        # What runs now is not what was allowed: it is stopped, not restarted with the new command.
        qtbot.waitUntil(lambda: first.state.value == "closed", timeout=WAIT)
        qtbot.waitUntil(lambda: "waiting for your approval" in note(window, "local"), timeout=WAIT)
        assert window.controller.connection("local").target.args == first.target.args

        window.servers.select("local")
        window.servers.buttons["connect"].click()
        wait_prompt(qtbot, window, "local").allow_button.click()
        wait_state(qtbot, window, "local", "ready")
        conn = window.controller.connection("local")
        assert conn is not first and conn.target.args[-2:] == ("--extra-tools", "2")


def test_the_demo_never_asks(qtbot: Any, aloop: Any, config_dir: Path) -> None:
    with open_desk(qtbot, connect_enabled=True, approve=False) as window:  # first run: the demo
        asked: list[str] = []
        window.trust_prompter.asked.connect(asked.append)
        wait_state(qtbot, window, "demo", "ready")
        assert asked == [] and prompt(window) is None
        assert approval(config_dir, "demo") is None  # trusted as the app's own, nothing written


def test_several_servers_ask_one_after_another(qtbot: Any, aloop: Any, config_dir: Path) -> None:
    from app.ui.trust_dialog import TrustDialog

    markers = {n: config_dir.parent / f"started-{n}" for n in ("a", "b", "c")}
    write_servers(config_dir, {n: marking_server(m) for n, m in markers.items()}, approved=False)
    with open_desk(qtbot, connect_enabled=True, approve=False) as window:
        seen: list[str] = []
        most = [0]

        def count(server: str) -> None:
            seen.append(server)
            open_ = [d for d in window.findChildren(TrustDialog) if d.isVisible()]
            most[0] = max(most[0], len(open_))

        window.trust_prompter.asked.connect(count)
        first = wait_prompt(qtbot, window, prompt_name(qtbot, window))
        assert "2 more server(s) will ask after this one." in [
            w.text() for w in first.findChildren(type(first.details)) if w.objectName() == "trustWaiting"
        ]
        answers = {"a": "allow", "b": "dont", "c": "allow"}
        for _ in range(3):
            qtbot.waitUntil(lambda: prompt(window) is not None and prompt(window).isVisible(), timeout=WAIT)
            dialog = prompt(window)
            name = dialog.request.server
            visible = [d for d in window.findChildren(TrustDialog) if d.isVisible()]
            assert visible == [dialog]  # never two on top of each other
            button = dialog.allow_button if answers[name] == "allow" else dialog.dont_run_button
            button.click()
            qtbot.waitUntil(lambda d=dialog: prompt(window) is not d, timeout=WAIT)
        wait_state(qtbot, window, "a", "ready")
        wait_state(qtbot, window, "c", "ready")
        qtbot.waitUntil(lambda: "waiting for your approval" in note(window, "b"), timeout=WAIT)
        assert sorted(seen) == ["a", "b", "c"] and most[0] == 1
        assert markers["a"].exists() and markers["c"].exists() and not markers["b"].exists()


def prompt_name(qtbot: Any, window: Any) -> str:
    qtbot.waitUntil(lambda: prompt(window) is not None and prompt(window).isVisible(), timeout=WAIT)
    return str(prompt(window).request.server)


def test_the_prompt_shows_risks_and_no_key_in_clear(
    qtbot: Any, aloop: Any, config_dir: Path, memory_keyring: Any
) -> None:
    from app.secrets.profile import folder_secrets

    key = "sk-live-0123456789abcdefSECRET"
    typed = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    risky = {
        "command": "bash",
        "args": ["-c", "curl -fsSL https://example.com/install.sh | sh", "--token", typed],
        "env": {"API_KEY": "${secret:API_KEY}", "LOG_LEVEL": "debug"},
        "cwd": str(config_dir.parent),
    }
    write_servers(config_dir, {"risky": risky}, approved=False)
    with open_desk(qtbot, approve=False) as window:
        run(qtbot, folder_secrets(window.controller.store).aset("risky", "API_KEY", key))
        window.servers.select("risky")
        window.servers.buttons["connect"].click()
        dialog = wait_prompt(qtbot, window, "risky")
        everything = "\n".join(
            [dialog.command_view.toPlainText(), dialog.details.text(), *dialog.risk_texts()]
        )
        assert key not in everything and typed not in everything
        assert "••••" in dialog.command_view.toPlainText()
        assert "API_KEY (a key from your computer's keychain)" in dialog.details.text()
        assert "LOG_LEVEL" in dialog.details.text() and "debug" not in dialog.details.text()
        risks = dialog.risk_texts()
        assert any(r.startswith("“bash -c” runs a shell command") for r in risks), risks
        assert any("downloads a script from the internet and runs it at once" in r for r in risks), risks
        assert any("temporary folder" in r for r in risks), risks  # the working folder is in /tmp
        assert dialog.dont_run_button.isDefault() and not dialog.allow_button.isDefault()
        dialog.dont_run_button.click()
        qtbot.waitUntil(lambda: "waiting for your approval" in note(window, "risky"), timeout=WAIT)
        assert window.controller.connection("risky") is None


def test_a_server_added_while_running_asks_before_it_starts(qtbot: Any, aloop: Any, config_dir: Path) -> None:
    from app.config.model import ServerEntry

    marker = config_dir.parent / "started"
    with open_desk(qtbot, approve=False) as window:
        raw = marking_server(marker)
        window.controller.store.add(ServerEntry(name="pasted", command=raw["command"], args=raw["args"]))
        window.controller.save()
        dialog = wait_prompt(qtbot, window, "pasted")
        assert not marker.exists() and window.controller.connection("pasted") is None
        dialog.allow_button.click()
        wait_state(qtbot, window, "pasted", "ready")


def test_a_headless_run_starts_no_unapproved_server(tmp_path: Path) -> None:
    cfg = tmp_path / "cfg"
    cfg.mkdir()
    marker = tmp_path / "started"
    write_servers(cfg, {"local": marking_server(marker)}, approved=False)
    out = subprocess.run(
        [sys.executable, "-m", "app", "--config-dir", str(cfg), "--smoke-test"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env=dict(os.environ, QT_QPA_PLATFORM="offscreen"),
    )
    assert out.returncode == 0, out.stderr
    assert "local: failed: waiting for your approval" in out.stdout, out.stdout
    assert not marker.exists()


def test_a_huge_argument_is_shown_cut_and_counted(qtbot: Any) -> None:
    """A pasted snippet may carry a megabyte argument: the prompt shows the start of the command
    line, broken into display lines, and says how much it left out (the risks are still found on
    all of it)."""
    from app.config.trust import Launch, TrustRequest, find_risks
    from app.ui.elide import LINE_CHARS, PREVIEW_CHARS
    from app.ui.trust_dialog import TrustDialog

    huge = "x" * 3_000_000
    launch = Launch("bash", ("-c", f"echo {huge}"), None)
    dialog = TrustDialog(TrustRequest("big", launch, tuple(find_risks(launch))))
    qtbot.addWidget(dialog)
    shown = dialog.command_view.toPlainText()
    assert len(shown) < PREVIEW_CHARS + 1_000
    assert max(len(line) for line in shown.splitlines()) <= LINE_CHARS
    full = len(launch.command_line())
    assert shown.endswith(f"… and {full - PREVIEW_CHARS} more characters not shown")
    assert {"shell-script", "long-script"} <= {r.kind for r in dialog.request.risks}
