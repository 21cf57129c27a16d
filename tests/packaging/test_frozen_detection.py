"""app/frozen.py: a frozen MCP Desk is told apart from a Python running our source, beyond `sys.frozen`."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import app.frozen as frozen
from app.config.store import DEMO_NAME, demo_entry
from app.config.trust import is_app_own


def test_a_source_run_is_not_frozen_and_seeds_python_m_app() -> None:
    assert not frozen.running_frozen()
    entry = demo_entry()
    assert (entry.name, entry.command, entry.args) == (
        DEMO_NAME,
        sys.executable,
        ["-m", "app", "demo-server"],
    )


@pytest.mark.parametrize("how", ["sys.frozen", "_MEIPASS", "nuitka", "no source file"])
def test_each_freezer_is_recognised(how: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    if how == "sys.frozen":
        monkeypatch.setattr(sys, "frozen", True, raising=False)
    elif how == "_MEIPASS":
        monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    elif how == "nuitka":
        monkeypatch.setitem(vars(frozen), "__compiled__", object())
    else:  # a freezer that sets nothing: our code came out of an archive, not a .py file
        monkeypatch.setitem(
            vars(frozen), "__file__", str(tmp_path / "base_library.zip" / "app" / "frozen.pyc")
        )
    assert frozen.running_frozen()
    entry = demo_entry()
    assert entry.args == ["demo-server"]  # the bundle takes the subcommand itself: no `-m app`
    assert is_app_own(entry)  # and it is still the app's own server (no trust prompt)


def test_an_appimage_records_its_stable_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    appdir = tmp_path / ".mount_MCPabc"
    exe = appdir / "usr" / "lib" / "mcp-desk" / "mcp-desk"
    exe.parent.mkdir(parents=True)
    exe.write_text("")
    image = tmp_path / "MCP_Desk-x86_64.AppImage"
    image.write_text("")
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(exe))
    monkeypatch.setenv("APPDIR", str(appdir))
    monkeypatch.setenv("APPIMAGE", str(image))
    assert frozen.app_executable() == str(image)  # the mount folder changes on every start
    assert demo_entry().command == str(image)
    # A program started by the AppImage inherits the variables but is not inside it.
    monkeypatch.setattr(sys, "executable", str(tmp_path / "elsewhere" / "mcp-desk"))
    assert frozen.app_executable() == str(tmp_path / "elsewhere" / "mcp-desk")
