"""packaging/linux_bundle.py: the ldd check, the .deb (into a scratch root), the .tar.gz and the AppDir.

Made from a small stand-in bundle (a shell script as `mcp-desk`), so no PyInstaller build is
needed; tests/packaging/test_frozen_bundle.py checks a real one.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import stat
import subprocess
import sys
import tarfile
from pathlib import Path
from types import ModuleType

import pytest

from tests.conftest import skip_or_fail

ROOT = Path(__file__).resolve().parents[2]
APP_ID = "io.github.mcpdesk.MCPDesk"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("linux_bundle", ROOT / "packaging" / "linux_bundle.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["linux_bundle"] = module
    spec.loader.exec_module(module)
    return module


lb = _load()


def fake_bundle(tmp_path: Path) -> Path:
    bundle = tmp_path / "dist" / "mcp-desk"
    plugins = bundle / "_internal" / "PySide6" / "Qt" / "plugins"
    for rel in ("platforms/libqxcb.so", "platforms/libqwayland.so", "tls/libqopensslbackend.so"):
        (plugins / rel).parent.mkdir(parents=True, exist_ok=True)
        (plugins / rel).write_bytes(b"\x7fELF not really")
    exe = bundle / "mcp-desk"
    exe.write_text('#!/bin/sh\necho "mcp-desk $*"\n', encoding="utf-8")
    exe.chmod(0o755)
    return bundle


def fake_ldd(tmp_path: Path, missing_for_xcb: list[str]) -> Path:
    """A stand-in `ldd` that reports the given sonames missing for libqxcb.so only."""
    lines = "".join(f'    echo "\t{s} => not found"\n' for s in missing_for_xcb)
    script = tmp_path / "ldd"
    script.write_text(
        "#!/bin/sh\n"
        'echo "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f0000000000)"\n'
        'case "$1" in *libqxcb.so)\n' + lines + "    ;;\nesac\n",
        encoding="utf-8",
    )
    script.chmod(0o755)
    return script


def test_the_ldd_check_names_the_missing_libraries_and_the_install_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bundle = fake_bundle(tmp_path)
    ldd = fake_ldd(tmp_path, ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"])
    assert lb.main(["ldd-check", str(bundle), "--ldd", str(ldd)]) == 1
    out = capsys.readouterr().out
    assert "libxcb-icccm.so.4: needed by libqxcb.so" in out
    assert "libxcb-keysyms.so.1: needed by libqxcb.so" in out
    assert "sudo apt install libxcb-icccm4 libxcb-keysyms1" in out
    assert "sudo dnf install xcb-util-keysyms xcb-util-wm" in out
    assert "libxcb-cursor" not in out  # Qt's own message blames it; it is not the one missing


def test_the_ldd_check_passes_when_everything_is_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bundle = fake_bundle(tmp_path)
    assert lb.main(["ldd-check", str(bundle), "--ldd", str(fake_ldd(tmp_path, []))]) == 0
    assert "3 Qt plugins, every library found" in capsys.readouterr().out


def test_the_ldd_check_fails_without_the_xcb_plugin(tmp_path: Path) -> None:
    bundle = fake_bundle(tmp_path)
    (bundle / "_internal" / "PySide6" / "Qt" / "plugins" / "platforms" / "libqxcb.so").unlink()
    assert lb.main(["ldd-check", str(bundle), "--ldd", str(fake_ldd(tmp_path, []))]) == 1


def test_real_ldd_finds_every_library_of_the_installed_xcb_plugin(capsys: pytest.CaptureFixture[str]) -> None:
    """The PySide6 wheel's own xcb plugin on this machine: what the bundle carries (the real ldd).
    Fails on a desktop without libxcb-icccm4 / libxcb-keysyms1 (.ci/run installs them)."""
    import PySide6

    qt = Path(PySide6.__file__).parent / "Qt"
    plugin = qt / "plugins" / "platforms" / "libqxcb.so"
    if shutil.which("ldd") is None or not plugin.is_file():
        skip_or_fail("no ldd or no xcb plugin in this PySide6")
    outputs = lb.ldd([plugin], library_path=str(qt / "lib"))
    assert "libQt6XcbQpa.so.6 =>" in outputs[plugin]  # ldd ran and resolved through Qt's lib folder
    missing = lb.missing_libraries(outputs)
    assert not missing, lb.install_lines(missing)


def _need(tool: str, package: str) -> str:
    path = shutil.which(tool)
    if path is None:
        skip_or_fail(f"{tool} not installed (Debian package {package})")
        raise AssertionError  # not reached
    return path


def test_the_deb_installs_into_a_scratch_root_with_launcher_menu_entry_and_mime_type(tmp_path: Path) -> None:
    _need("dpkg-deb", "dpkg")
    bundle = fake_bundle(tmp_path)
    deb = lb.make_deb(bundle, tmp_path / "mcp-desk.deb", depends=["libc6", "libxcb-icccm4"])
    fields = subprocess.run(
        ["dpkg-deb", "-f", str(deb)], capture_output=True, text=True, timeout=60, check=True
    ).stdout
    assert "Package: mcp-desk\n" in fields and f"Version: {lb.version()}\n" in fields
    assert "Depends: libc6, libxcb-icccm4\n" in fields
    root = tmp_path / "root"
    subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True, timeout=60)
    launcher = root / "usr" / "bin" / "mcp-desk"
    target = os.readlink(launcher)
    assert target == "/opt/mcp-desk/mcp-desk"
    installed = root / target.lstrip("/")
    assert installed.is_file() and installed.stat().st_mode & stat.S_IXUSR
    ran = subprocess.run([str(installed), "--version"], capture_output=True, text=True, timeout=60)
    assert ran.stdout.strip() == "mcp-desk --version"
    desktop = root / "usr" / "share" / "applications" / f"{APP_ID}.desktop"
    text = desktop.read_text(encoding="utf-8")
    assert "x-scheme-handler/mcp-desk;" in text and "application/x-mcpb;" in text
    assert "Exec=mcp-desk %U" in text  # /usr/bin/mcp-desk, the launcher above
    mime = (root / "usr" / "share" / "mime" / "packages" / "mcp-desk.xml").read_text(encoding="utf-8")
    assert 'type="application/x-mcpb"' in mime
    assert (root / "usr" / "share" / "icons" / "hicolor" / "256x256" / "apps" / "mcp-desk.png").is_file()
    validate = _need("desktop-file-validate", "desktop-file-utils")
    out = subprocess.run([validate, str(desktop)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and not out.stdout.strip(), out.stdout + out.stderr
    appstream = _need("appstreamcli", "appstream")
    metainfo = root / "usr" / "share" / "metainfo" / f"{APP_ID}.metainfo.xml"
    out = subprocess.run(
        [appstream, "validate", "--no-net", str(metainfo)], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_tarball_holds_one_versioned_folder_with_the_executable(tmp_path: Path) -> None:
    bundle = fake_bundle(tmp_path)
    tgz = lb.make_tarball(bundle, tmp_path / "mcp-desk.tar.gz")
    with tarfile.open(tgz) as tar:
        names = tar.getnames()
        top = f"mcp-desk-{lb.version()}"
        assert {n.split("/")[0] for n in names} == {top}
        exe = tar.getmember(f"{top}/mcp-desk")
        assert exe.mode & stat.S_IXUSR


def test_the_appdir_runs_the_bundle_through_apprun(tmp_path: Path) -> None:
    bundle = fake_bundle(tmp_path)
    appdir = lb.make_appdir(bundle, tmp_path / "MCP_Desk.AppDir")
    assert (appdir / f"{APP_ID}.desktop").is_file() and (appdir / "mcp-desk.png").is_file()
    ran = subprocess.run([str(appdir / "AppRun"), "demo-server"], capture_output=True, text=True, timeout=60)
    assert ran.stdout.strip() == "mcp-desk demo-server", ran.stderr


@pytest.mark.parametrize("script", ["packaging/build-linux", "packaging/ci-frozen-smoke"])
def test_the_build_scripts_are_executable_and_parse(script: str) -> None:
    path = ROOT / script
    assert path.stat().st_mode & stat.S_IXUSR, f"{script} is not executable"
    assert path.read_text(encoding="utf-8").startswith("#!/usr/bin/env bash\n")
    out = subprocess.run(["bash", "-n", str(path)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr


def test_ci_runs_the_frozen_smoke_step_with_the_time_left() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert 'packaging/ci-frozen-smoke "$((budget - $(date +%s) + start))"' in ci
    for package in ("libxcb-icccm4", "libxcb-keysyms1", "libxcb-cursor0"):
        assert package in ci  # the ldd check of the bundle needs them on the build machine
