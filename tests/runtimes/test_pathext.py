"""Windows shims: `npx` runs `npx.cmd` through PATHEXT (a fake folder, the platform injected)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.runtimes import resolve as resolve_mod
from app.runtimes import search_path
from app.runtimes.pathext import command_name, has_directory, which


@pytest.fixture
def npm_dir(tmp_path: Path) -> Path:
    d = tmp_path / "npm"
    d.mkdir()
    # What `npm install -g` leaves on Windows: a POSIX script, a .cmd shim and a .ps1 one.
    for name in ("npx", "npx.cmd", "npx.ps1", "node.exe"):
        (d / name).write_text("@echo off\n")
    return d


def test_pathext_order_picks_the_cmd_shim(npm_dir: Path, tmp_path: Path) -> None:
    other = tmp_path / "empty"
    other.mkdir()
    path = f"{other};{npm_dir}"
    assert which("npx", path, "win32", ".COM;.EXE;.BAT;.CMD") == str(npm_dir / "npx.cmd")
    assert which("node", path, "win32", ".COM;.EXE;.BAT;.CMD") == str(npm_dir / "node.exe")
    # PATHEXT unset: the default list; a name with its extension is taken as it is.
    assert which("npx", path, "win32", None) == str(npm_dir / "npx.cmd")
    assert which("npx.cmd", path, "win32", None) == str(npm_dir / "npx.cmd")
    # Without .CMD in PATHEXT the shim is not runnable, and the extensionless script never is.
    assert which("npx", path, "win32", ".COM;.EXE") is None
    assert which("uvx", path, "win32", None) is None


def test_quoted_and_empty_path_parts(npm_dir: Path) -> None:
    assert which("npx", f';"{npm_dir}";', "win32", ".CMD") == str(npm_dir / "npx.cmd")


def test_command_names_on_windows() -> None:
    assert command_name("C:\\Program Files\\nodejs\\NPX.CMD", "win32", ".COM;.EXE;.BAT;.CMD") == "npx"
    assert command_name("uvx.exe", "win32") == "uvx"
    assert command_name("npx.js", "win32") == "npx.js"
    assert command_name("/usr/bin/npx", "linux") == "npx"
    assert has_directory("C:\\nodejs\\npx.cmd", "win32")
    assert not has_directory("npx.cmd", "win32")
    assert not has_directory("a\\b", "linux")


def test_resolve_finds_the_shim_as_the_persons_own(
    npm_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search_path, "HOMEBREW_DIRS", ())
    # No version question to a fake Windows program here.
    monkeypatch.setattr(resolve_mod, "_ask_version", lambda executable, env: "22.3.0")
    env = {"PATH": str(npm_dir), "PATHEXT": ".COM;.EXE;.BAT;.CMD", "HOME": str(tmp_path)}
    r = resolve_mod.resolve_command("npx", env, platform="win32")
    assert r.executable == str(npm_dir / "npx.cmd")
    assert r.runtime is not None and not r.runtime.builtin
    assert r.runtime.path == str(npm_dir / "node.exe")
