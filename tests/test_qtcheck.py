"""./run.sh on a Linux desktop that lacks a library Qt's xcb plugin needs (app/qtcheck.py,
packaging/venv.sh): before Qt aborts, the missing libraries and the exact apt/dnf line.

`ldd` is faked by a script first on PATH that prints what a fresh Debian desktop's `ldd` of the
plugin prints (libxcb-icccm4, libxcb-keysyms1 and, here too, libxcb-cursor0 missing)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app import qtcheck

REPO = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the xcb plugin is Linux's")

LDD_MISSING = """\
\tlinux-vdso.so.1 (0x00007ffd6b3f9000)
\tlibQt6XcbQpa.so.6 => /venv/PySide6/Qt/plugins/platforms/../../lib/libQt6XcbQpa.so.6 (0x00007f)
\tlibxkbcommon-x11.so.0 => /lib/x86_64-linux-gnu/libxkbcommon-x11.so.0 (0x00007fc346138000)
\tlibxcb-cursor.so.0 => not found
\tlibxcb-icccm.so.4 => not found
\tlibxcb-util.so.1 => /lib/x86_64-linux-gnu/libxcb-util.so.1 (0x00007fc346129000)
\tlibxcb-keysyms.so.1 => not found
\tlibxcb.so.1 => /lib/x86_64-linux-gnu/libxcb.so.1 (0x00007fc344d73000)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
"""
LDD_ALL_THERE = "\n".join(line for line in LDD_MISSING.splitlines() if "not found" not in line) + "\n"
DEBIAN = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n'
FEDORA = 'NAME="Fedora Linux"\nID=fedora\n'
X11 = {"DISPLAY": ":0", "XDG_SESSION_TYPE": "x11"}
APT_LINE = "sudo apt install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1"
DNF_LINE = "sudo dnf install xcb-util-cursor xcb-util-wm xcb-util-keysyms"


def fake_ldd(folder: Path, output: str) -> Path:
    """A directory holding an `ldd` that prints `output` (put it first on PATH)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ldd-output.txt").write_text(output, encoding="utf-8")
    script = folder / "ldd"
    script.write_text(f"#!/bin/sh\ncat '{folder / 'ldd-output.txt'}'\n", encoding="utf-8")
    script.chmod(0o755)
    return folder


def a_plugin(tmp_path: Path) -> Path:
    plugin = tmp_path / "libqxcb.so"
    plugin.write_bytes(b"\x7fELF")
    return plugin


def test_the_missing_libraries_each_once_and_the_apt_and_dnf_lines(tmp_path: Path) -> None:
    assert qtcheck.parse_ldd(LDD_MISSING) == [
        "libxcb-cursor.so.0",
        "libxcb-icccm.so.4",
        "libxcb-keysyms.so.1",
    ]
    ldd = str(fake_ldd(tmp_path / "bin", LDD_MISSING) / "ldd")
    plugin = a_plugin(tmp_path)
    code, text = qtcheck.check([], X11, plugin=plugin, ldd=ldd, os_release=DEBIAN)
    assert code == qtcheck.MISSING
    assert APT_LINE in text and "dnf" not in text
    assert "libxcb-icccm.so.4" in text and "libxcb-keysyms.so.1" in text
    code, text = qtcheck.check([], X11, plugin=plugin, ldd=ldd, os_release=FEDORA)
    assert code == qtcheck.MISSING and DNF_LINE in text and "apt" not in text
    # An unknown system gets both lines; an unknown library is named (dnf installs by soname).
    assert qtcheck.install_lines(["libxcb-icccm.so.4", "libfoo.so.3"], "") == [
        "sudo apt install libxcb-icccm4",
        "sudo dnf install xcb-util-wm 'libfoo.so.3()(64bit)'",
        "(for libfoo.so.3: apt-file search libfoo.so.3)",
    ]


def test_nothing_missing_nothing_said_and_no_check_where_xcb_is_not_used(tmp_path: Path) -> None:
    plugin = a_plugin(tmp_path)
    ok = str(fake_ldd(tmp_path / "ok", LDD_ALL_THERE) / "ldd")
    assert qtcheck.check([], X11, plugin=plugin, ldd=ok, os_release=DEBIAN) == (qtcheck.OK, "")
    bad = str(fake_ldd(tmp_path / "bad", LDD_MISSING) / "ldd")
    offscreen = {"QT_QPA_PLATFORM": "offscreen"}
    assert qtcheck.check([], offscreen, plugin=plugin, ldd=bad)[0] == qtcheck.NOT_CHECKED
    # A CLI command opens no window; the escape hatch skips the check.
    assert qtcheck.check(["servers", "list"], X11, plugin=plugin, ldd=bad)[0] == qtcheck.NOT_CHECKED
    skip = {**X11, qtcheck.SKIP_VAR: "1"}
    assert qtcheck.check([], skip, plugin=plugin, ldd=bad)[0] == qtcheck.NOT_CHECKED
    # On Wayland, xcb is the fallback: said, but the window may still open.
    code, text = qtcheck.check(
        [], {"WAYLAND_DISPLAY": "wayland-0"}, plugin=plugin, ldd=bad, os_release=DEBIAN
    )
    assert code == qtcheck.MISSING_MAY_START and APT_LINE in text
    assert qtcheck.platform_plan({"QT_QPA_PLATFORM": "xcb"}) == "xcb"
    assert qtcheck.platform_plan({"QT_QPA_PLATFORM": "wayland;xcb"}) == "wayland"
    assert qtcheck.platform_plan({"QT_QPA_PLATFORM": "wayland"}) == "other"


def test_the_real_plugin_is_found_without_importing_pyside6() -> None:
    code = "import sys; from app import qtcheck; print(qtcheck.xcb_plugin()); print('PySide6' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=REPO)
    plugin, imported = done.stdout.split()
    assert plugin.endswith("Qt/plugins/platforms/libqxcb.so") and Path(plugin).is_file()
    assert imported == "False"


def run_sh_check(venv_home: Path, bin_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """packaging/venv.sh's `check_qt_libraries` as ./run.sh calls it, in a folder whose .venv
    is this test run's Python (so the real venv's stamp is not touched)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY", qtcheck.SKIP_VAR)
    }
    env.update(X11, PATH=f"{bin_dir}:{env.get('PATH', '')}", PYTHONPATH=str(REPO))
    script = f"source '{REPO / 'packaging' / 'venv.sh'}'; check_qt_libraries \"$@\" || exit 1; echo started"
    return subprocess.run(
        ["bash", "-c", script, "run.sh", *args],
        cwd=venv_home,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_run_sh_stops_before_qt_with_the_apt_line_and_remembers_a_good_check(tmp_path: Path) -> None:
    home = tmp_path / "checkout"
    (home / ".venv" / "bin").mkdir(parents=True)
    python = home / ".venv" / "bin" / "python"  # this run's venv (a symlink would lose it)
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    python.chmod(0o755)
    (home / ".venv" / ".mcp-desk-installed").write_text("abc123 app\n", encoding="utf-8")
    missing = fake_ldd(tmp_path / "missing", LDD_MISSING)
    done = run_sh_check(home, missing)
    assert done.returncode == 1, done.stderr
    assert "started" not in done.stdout
    if qtcheck.distro_family(Path("/etc/os-release").read_text(encoding="utf-8")) == "apt":
        assert APT_LINE in done.stderr
    assert "libxcb-icccm.so.4" in done.stderr and "libxcb-keysyms.so.1" in done.stderr
    # A CLI command starts whatever the libraries.
    assert run_sh_check(home, missing, "servers", "list").stdout.strip() == "started"
    # Once all is found, the check is remembered for this install of the venv.
    assert run_sh_check(home, fake_ldd(tmp_path / "ok", LDD_ALL_THERE)).stdout.strip() == "started"
    assert (home / ".venv" / ".qt-libraries-ok").read_text(encoding="utf-8") == "abc123 app\n"
    assert run_sh_check(home, missing).stdout.strip() == "started"
