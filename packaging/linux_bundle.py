"""Check and wrap the PyInstaller folder on Linux: the ldd check, the .tar.gz, the .deb, an AppDir.

Used by packaging/build-linux (`python packaging/linux_bundle.py COMMAND ...`) and by
tests/packaging. Standard library only: it runs with the build's Python, no Qt; of the app only the Qt-free
app/qtcheck.py (the soname → package table).

    ldd-check BUNDLE            every library the bundled Qt plugins link to is found, else exit 1
    tarball BUNDLE OUT.tar.gz   the folder as mcp-desk-VERSION/ in a .tar.gz
    deb BUNDLE OUT.deb          /opt/mcp-desk, /usr/bin/mcp-desk, menu entry, MIME type, URL scheme
    appdir BUNDLE OUT.AppDir    the AppDir an AppImage is made of (appimagetool turns it into one)
    sizes PATH...               one line per path: its size in MB (folders: the sum of their files)
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TextIO

ROOT = Path(__file__).resolve().parent.parent
RESOURCES = ROOT / "resources"
APP_ID = "io.github.mcpdesk.MCPDesk"
NAME = "mcp-desk"
INSTALL_DIR = f"/opt/{NAME}"

# The Qt plugins whose libraries must all be there: without the xcb platform plugin the window
# cannot open on X11 (Qt then aborts with a misleading "xcb-cursor0 is needed"), and the others
# are what the app uses (wayland, TLS for https, SVG icons, image formats).
PLUGIN_FOLDERS = (
    "platforms",
    "tls",
    "imageformats",
    "iconengines",
    "platformthemes",
    "platforminputcontexts",
    "xcbglintegrations",
    "wayland-shell-integration",
    "wayland-graphics-integration-client",
    "wayland-decoration-client",
)
REQUIRED_PLUGIN = "platforms/libqxcb.so"

# soname -> (Debian/Ubuntu package, Fedora package): one table, app/qtcheck.py's, which ./run.sh
# uses for the same question at run time (stdlib only, no Qt: safe to import from here).
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from app.qtcheck import PACKAGES  # noqa: E402

_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found\s*$")
_RESOLVED = re.compile(r"^\s*(\S+)\s+=>\s+(/\S+)\s+\(0x[0-9a-f]+\)\s*$")


def version() -> str:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    return str(tomllib.loads(text)["project"]["version"])


def internal(bundle: Path) -> Path:
    """PyInstaller 6 puts everything but the executable in `_internal/`."""
    inner = bundle / "_internal"
    return inner if inner.is_dir() else bundle


def qt_plugins(bundle: Path) -> list[Path]:
    plugins = internal(bundle) / "PySide6" / "Qt" / "plugins"
    return sorted(p for folder in PLUGIN_FOLDERS for p in (plugins / folder).glob("*.so"))


def library_path(bundle: Path) -> str:
    """What the PyInstaller bootloader puts on LD_LIBRARY_PATH, plus Qt's own lib folder."""
    inner = internal(bundle)
    return os.pathsep.join(str(p) for p in (inner, inner / "PySide6" / "Qt" / "lib") if p.is_dir())


def ldd(files: Iterable[Path], *, library_path: str = "", tool: str = "ldd") -> dict[Path, str]:
    """`ldd FILE` for each file, with the bundle's library path (the environment otherwise)."""
    env = dict(os.environ)
    if library_path:
        env["LD_LIBRARY_PATH"] = library_path
    out: dict[Path, str] = {}
    for path in files:
        done = subprocess.run([tool, str(path)], capture_output=True, text=True, timeout=60, env=env)
        out[path] = done.stdout
    return out


def missing_libraries(outputs: dict[Path, str]) -> dict[str, list[Path]]:
    """soname -> the files that need it, for every `=> not found` line."""
    missing: dict[str, list[Path]] = {}
    for path, text in outputs.items():
        for line in text.splitlines():
            if match := _NOT_FOUND.match(line):
                users = missing.setdefault(match.group(1), [])
                if path not in users:
                    users.append(path)
    return missing


def system_libraries(outputs: dict[Path, str], bundle: Path) -> set[str]:
    """Resolved libraries that live outside the bundle: what the package has to depend on."""
    inside = internal(bundle).resolve()
    found = set()
    for text in outputs.values():
        for line in text.splitlines():
            if match := _RESOLVED.match(line):
                target = Path(match.group(2)).resolve()
                if not target.is_relative_to(inside):
                    found.add(str(target))
    return found


def install_lines(sonames: Iterable[str]) -> list[str]:
    """The apt and dnf lines that bring the missing libraries."""
    names = sorted(set(sonames))
    apt = [PACKAGES[s][0] for s in names if s in PACKAGES]
    dnf = sorted({PACKAGES[s][1] for s in names if s in PACKAGES})
    lines = []
    if apt:
        lines.append("sudo apt install " + " ".join(apt))
        lines.append("sudo dnf install " + " ".join(dnf))
    unknown = [s for s in names if s not in PACKAGES]
    if unknown:
        lines.append("(no package known for: " + ", ".join(unknown) + ")")
    return lines


def ldd_check(bundle: Path, *, tool: str = "ldd", out: TextIO | None = None) -> int:
    """Print what every bundled Qt plugin links to that is missing; 1 when anything is."""
    out = out or sys.stdout
    plugins = qt_plugins(bundle)
    rel = {p.relative_to(internal(bundle) / "PySide6" / "Qt" / "plugins").as_posix() for p in plugins}
    if REQUIRED_PLUGIN not in rel:
        print(f"ldd check: the xcb platform plugin ({REQUIRED_PLUGIN}) is not in {bundle}", file=out)
        return 1
    outputs = ldd(plugins, library_path=library_path(bundle), tool=tool)
    missing = missing_libraries(outputs)
    if not missing:
        print(f"ldd check: {len(plugins)} Qt plugins, every library found", file=out)
        return 0
    print(f"ldd check: libraries missing for the bundled Qt plugins ({len(missing)}):", file=out)
    for soname, users in sorted(missing.items()):
        print(f"  {soname}: needed by {', '.join(sorted(p.name for p in users))}", file=out)
    for line in install_lines(missing):
        print(f"  {line}", file=out)
    return 1


def debian_packages(paths: Iterable[str]) -> list[str]:
    """The Debian packages holding these files (`dpkg -S`; /lib and /usr/lib both tried)."""
    packages: set[str] = set()
    for path in sorted(paths):
        candidates = [path]
        if path.startswith("/usr/lib/"):
            candidates.append(path.removeprefix("/usr"))
        elif path.startswith("/lib/"):
            candidates.append("/usr" + path)
        for candidate in candidates:
            done = subprocess.run(["dpkg", "-S", candidate], capture_output=True, text=True, timeout=60)
            if done.returncode == 0:
                for line in done.stdout.splitlines():
                    name = line.split(":", 1)[0].split(",")[0].strip()
                    if name and not name.startswith("diversion"):
                        packages.add(name)
                break
    return sorted(packages)


def bundle_depends(bundle: Path) -> list[str]:
    """Every system package an ELF file in the bundle links to (ldd, then dpkg -S)."""
    elves = [p for p in internal(bundle).rglob("*") if p.is_file() and not p.is_symlink() and _is_elf(p)]
    elves.append(bundle / NAME)
    outputs = ldd(elves, library_path=library_path(bundle))
    return debian_packages(system_libraries(outputs, bundle))


def _is_elf(path: Path) -> bool:
    if not path.name.endswith(".so") and ".so." not in path.name:
        return False
    with path.open("rb") as f:
        return f.read(4) == b"\x7fELF"


def _copy_tree(src: Path, dest: Path) -> None:
    shutil.copytree(src, dest, symlinks=True)


def _install_desktop_files(root: Path, exec_line: str | None = None) -> None:
    """Menu entry, AppStream metadata, icons and the MIME type under root/usr/share."""
    share = root / "usr" / "share"
    (share / "applications").mkdir(parents=True, exist_ok=True)
    desktop = (RESOURCES / f"{APP_ID}.desktop").read_text(encoding="utf-8")
    if exec_line is not None:
        desktop = re.sub(r"^Exec=.*$", f"Exec={exec_line}", desktop, flags=re.M)
    (share / "applications" / f"{APP_ID}.desktop").write_text(desktop, encoding="utf-8")
    (share / "metainfo").mkdir(parents=True, exist_ok=True)
    shutil.copy2(RESOURCES / f"{APP_ID}.metainfo.xml", share / "metainfo" / f"{APP_ID}.metainfo.xml")
    for size_dir, icon in (("256x256", "mcp-desk.png"), ("scalable", "mcp-desk.svg")):
        target = share / "icons" / "hicolor" / size_dir / "apps"
        target.mkdir(parents=True, exist_ok=True)
        shutil.copy2(RESOURCES / icon, target / icon)
    (share / "mime" / "packages").mkdir(parents=True, exist_ok=True)
    shutil.copy2(ROOT / "packaging" / "mcp-desk-mime.xml", share / "mime" / "packages" / f"{NAME}.xml")


def make_tarball(bundle: Path, out: Path) -> Path:
    top = f"{NAME}-{version()}"
    with tarfile.open(out, "w:gz", compresslevel=6) as tar:
        tar.add(bundle, arcname=top)
    return out


def make_deb(
    bundle: Path, out: Path, *, depends: Sequence[str] | None = None, work: Path | None = None
) -> Path:
    """A .deb of the folder: /opt/mcp-desk, the launcher /usr/bin/mcp-desk, menu entry, MIME type.

    zstd, not xz: xz took over 20 minutes for the 370 MB folder on a busy 2-core machine; zstd
    takes seconds and dpkg reads it since 1.21.18 (Debian 12, Ubuntu 21.10), the oldest systems
    whose glibc the bundle runs on anyway. No maintainer scripts: dpkg's triggers of
    desktop-file-utils, shared-mime-info and the icon cache pick up the files in /usr/share.
    """
    staging = (work or out.parent) / f"{NAME}-deb-root"
    if staging.exists():
        shutil.rmtree(staging)
    _copy_tree(bundle, staging / INSTALL_DIR.lstrip("/"))
    (staging / "usr" / "bin").mkdir(parents=True)
    (staging / "usr" / "bin" / NAME).symlink_to(f"{INSTALL_DIR}/{NAME}")
    _install_desktop_files(staging)
    deps = list(bundle_depends(bundle) if depends is None else depends)
    size_kb = sum(p.stat().st_size for p in staging.rglob("*") if p.is_file() and not p.is_symlink()) // 1024
    control = staging / "DEBIAN" / "control"
    control.parent.mkdir()
    fields = {
        "Package": NAME,
        "Version": version(),
        "Architecture": _deb_arch(),
        "Maintainer": "MCP Desk <mcp-desk@users.noreply.github.com>",
        "Installed-Size": str(size_kb),
        "Depends": ", ".join(deps),
        "Recommends": "gnome-keyring | kwalletmanager, xdg-utils",
        "Section": "devel",
        "Priority": "optional",
        "Homepage": "https://github.com/mcpdesk/mcp-desk",
        "Description": "Desktop app to install, connect to, try and manage MCP servers\n"
        " MCP Desk installs MCP servers, connects to them, lets you try their tools and\n"
        " keeps their keys in the system keyring.",
    }
    control.write_text("".join(f"{k}: {v}\n" for k, v in fields.items() if v), encoding="utf-8")
    subprocess.run(
        ["dpkg-deb", "--root-owner-group", "-Zzstd", "--build", str(staging), str(out)],
        check=True,
        capture_output=True,
        timeout=3600,
    )
    shutil.rmtree(staging)
    return out


def _deb_arch() -> str:
    done = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True, timeout=60)
    return done.stdout.strip() or "amd64"


APPRUN = """#!/bin/sh
# AppImage entry: the bundle sits in usr/lib/mcp-desk; $APPIMAGE (set by the AppImage runtime)
# is the stable path MCP Desk records to start itself again (app/frozen.py).
here="$(dirname "$(readlink -f "$0")")"
export APPDIR="${APPDIR:-$here}"
exec "$here/usr/lib/mcp-desk/mcp-desk" "$@"
"""


def make_appdir(bundle: Path, out: Path) -> Path:
    if out.exists():
        shutil.rmtree(out)
    _copy_tree(bundle, out / "usr" / "lib" / NAME)
    _install_desktop_files(out)
    shutil.copy2(out / "usr" / "share" / "applications" / f"{APP_ID}.desktop", out / f"{APP_ID}.desktop")
    shutil.copy2(RESOURCES / "mcp-desk.png", out / "mcp-desk.png")
    (out / ".DirIcon").symlink_to("mcp-desk.png")
    apprun = out / "AppRun"
    apprun.write_text(APPRUN, encoding="utf-8")
    apprun.chmod(0o755)
    return out


def size_mb(path: Path) -> float:
    if path.is_dir():
        total = sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())
    else:
        total = path.stat().st_size
    return total / 1e6


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="linux_bundle.py", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("ldd-check")
    check.add_argument("bundle", type=Path)
    check.add_argument("--ldd", default="ldd", help=argparse.SUPPRESS)
    for name in ("tarball", "deb", "appdir"):
        p = sub.add_parser(name)
        p.add_argument("bundle", type=Path)
        p.add_argument("out", type=Path)
    sizes = sub.add_parser("sizes")
    sizes.add_argument("paths", type=Path, nargs="+")
    sub.add_parser("version")
    args = parser.parse_args(argv)
    if args.command == "ldd-check":
        return ldd_check(args.bundle, tool=args.ldd)
    if args.command == "tarball":
        make_tarball(args.bundle, args.out)
    elif args.command == "deb":
        deb = make_deb(args.bundle, args.out)
        info = subprocess.run(
            ["dpkg-deb", "-f", str(deb), "Depends"], capture_output=True, text=True, timeout=60
        )
        print(f"Depends: {info.stdout.strip()}")
    elif args.command == "appdir":
        make_appdir(args.bundle, args.out)
    elif args.command == "sizes":
        for path in args.paths:
            print(f"{size_mb(path):8.1f} MB  {path}")
    elif args.command == "version":
        print(version())
    return 0


if __name__ == "__main__":
    sys.exit(main())
