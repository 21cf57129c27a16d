"""Before the window opens on Linux: are the system libraries Qt's xcb plugin needs installed?

When one is missing, Qt aborts with a misleading line ("xcb-cursor0 or libxcb-cursor0 is needed
to load the Qt xcb platform plugin", on a desktop where libxcb-cursor0 is installed and
libxcb-icccm4 and libxcb-keysyms1 are what is missing). `ldd` of the plugin knows the truth;
this module asks it and says which libraries are missing and the one line that installs them.

    python -m app.qtcheck [MCP-DESK ARGUMENTS]     (what ./run.sh runs before a window starts)

Exit codes: 0 checked, nothing missing; 1 missing and the window would not open (X11);
4 missing but the window may still open (a Wayland session: the xcb plugin is only the fallback);
5 nothing to check (not Linux, another Qt platform such as offscreen, a CLI command, no PySide6,
no `ldd`). No Qt is imported here: importing PySide6's plugin is what aborts.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

OK, MISSING, MISSING_MAY_START, NOT_CHECKED = 0, 1, 4, 5
SKIP_VAR = "MCP_DESK_SKIP_QT_CHECK"

# The libraries the xcb plugin (and libQt6XcbQpa behind it) links to, by soname: the package that
# holds each on Debian/Ubuntu (apt) and on Fedora/RHEL (dnf). packaging/linux_bundle.py uses it too.
PACKAGES: dict[str, tuple[str, str]] = {
    "libxcb-icccm.so.4": ("libxcb-icccm4", "xcb-util-wm"),
    "libxcb-keysyms.so.1": ("libxcb-keysyms1", "xcb-util-keysyms"),
    "libxcb-cursor.so.0": ("libxcb-cursor0", "xcb-util-cursor"),
    "libxcb-image.so.0": ("libxcb-image0", "xcb-util-image"),
    "libxcb-render-util.so.0": ("libxcb-render-util0", "xcb-util-renderutil"),
    "libxcb-util.so.1": ("libxcb-util1", "xcb-util"),
    "libxcb-randr.so.0": ("libxcb-randr0", "libxcb"),
    "libxcb-shape.so.0": ("libxcb-shape0", "libxcb"),
    "libxcb-shm.so.0": ("libxcb-shm0", "libxcb"),
    "libxcb-sync.so.1": ("libxcb-sync1", "libxcb"),
    "libxcb-xfixes.so.0": ("libxcb-xfixes0", "libxcb"),
    "libxcb-render.so.0": ("libxcb-render0", "libxcb"),
    "libxcb-xkb.so.1": ("libxcb-xkb1", "libxcb"),
    "libxcb-xinerama.so.0": ("libxcb-xinerama0", "libxcb"),
    "libxcb-xinput.so.0": ("libxcb-xinput0", "libxcb"),
    "libxcb-glx.so.0": ("libxcb-glx0", "libxcb"),
    "libxcb.so.1": ("libxcb1", "libxcb"),
    "libxkbcommon-x11.so.0": ("libxkbcommon-x11-0", "libxkbcommon-x11"),
    "libxkbcommon.so.0": ("libxkbcommon0", "libxkbcommon"),
    "libX11-xcb.so.1": ("libx11-xcb1", "libX11-xcb"),
    "libX11.so.6": ("libx11-6", "libX11"),
    "libXau.so.6": ("libxau6", "libXau"),
    "libXdmcp.so.6": ("libxdmcp6", "libXdmcp"),
    "libSM.so.6": ("libsm6", "libSM"),
    "libICE.so.6": ("libice6", "libICE"),
    "libEGL.so.1": ("libegl1", "libglvnd-egl"),
    "libGL.so.1": ("libgl1", "libglvnd-glx"),
    "libGLX.so.0": ("libglx0", "libglvnd-glx"),
    "libOpenGL.so.0": ("libopengl0", "libglvnd-opengl"),
    "libfontconfig.so.1": ("libfontconfig1", "fontconfig"),
    "libfreetype.so.6": ("libfreetype6", "freetype"),
    "libdbus-1.so.3": ("libdbus-1-3", "dbus-libs"),
    "libglib-2.0.so.0": ("libglib2.0-0", "glib2"),
    "libgthread-2.0.so.0": ("libglib2.0-0", "glib2"),
    # The wayland plugin's (the build's ldd check covers it too).
    "libwayland-client.so.0": ("libwayland-client0", "libwayland-client"),
    "libwayland-cursor.so.0": ("libwayland-cursor0", "libwayland-cursor"),
    "libwayland-egl.so.1": ("libwayland-egl1", "libwayland-egl"),
}

_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found\s*$")


def xcb_plugin() -> Path | None:
    """PySide6's xcb platform plugin, found without importing PySide6."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        plugin = Path(folder) / "Qt" / "plugins" / "platforms" / "libqxcb.so"
        if plugin.is_file():
            return plugin
    return None


def platform_plan(environ: Mapping[str, str]) -> str:
    """Which platform plugin Qt will try: "xcb" (it must load), "wayland" (xcb is the fallback)
    or "other" (offscreen, eglfs, …: the xcb plugin is not loaded)."""
    wanted = environ.get("QT_QPA_PLATFORM", "").strip().lower()
    if wanted:
        first = wanted.split(";")[0].split(":")[0]
        if first == "xcb":
            return "xcb"
        if first.startswith("wayland"):
            return "wayland" if "xcb" in wanted else "other"
        return "other"
    if environ.get("WAYLAND_DISPLAY") or environ.get("XDG_SESSION_TYPE") == "wayland":
        return "wayland"
    return "xcb"


def parse_ldd(output: str) -> list[str]:
    """The sonames `ldd` could not find, each once, in its order."""
    missing: list[str] = []
    for line in output.splitlines():
        match = _NOT_FOUND.match(line)
        if match and match.group(1) not in missing:
            missing.append(match.group(1))
    return missing


def missing_libraries(plugin: Path, ldd: str = "ldd") -> list[str] | None:
    """What `ldd` says is missing for `plugin` (and every library it pulls in); None when `ldd`
    could not run."""
    try:
        done = subprocess.run(
            [ldd, str(plugin)], capture_output=True, text=True, timeout=20, env=_plain_environ()
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return parse_ldd(done.stdout)


def _plain_environ() -> dict[str, str]:
    # ldd runs the dynamic loader: LD_PRELOAD/LD_LIBRARY_PATH stay as the app will see them, but
    # its output must be in English ("not found") whatever the person's language.
    return dict(os.environ, LC_ALL="C", LANG="C")


def distro_family(os_release: str) -> str:
    """ "apt", "dnf" or "" (unknown) from the text of /etc/os-release."""
    fields: dict[str, str] = {}
    for line in os_release.splitlines():
        key, sep, value = line.partition("=")
        if sep:
            fields[key.strip()] = value.strip().strip("\"'").lower()
    ids = {fields.get("ID", ""), *fields.get("ID_LIKE", "").split()}
    if ids & {"debian", "ubuntu", "linuxmint", "pop", "elementary", "raspbian", "kali"}:
        return "apt"
    if ids & {"fedora", "rhel", "centos", "rocky", "almalinux", "ol", "amzn"}:
        return "dnf"
    return ""


def install_lines(missing: Sequence[str], family: str) -> list[str]:
    """The exact command that installs `missing` on this family of systems (both when unknown)."""
    apt: list[str] = []
    dnf: list[str] = []
    unknown: list[str] = []
    for soname in missing:
        known = PACKAGES.get(soname)
        if known is None:
            unknown.append(soname)
            # dnf installs by what a package provides; apt has no such spelling.
            dnf.append(f"'{soname}()(64bit)'")
            continue
        if known[0] not in apt:
            apt.append(known[0])
        if known[1] not in dnf:
            dnf.append(known[1])
    lines = []
    if family in ("apt", "") and apt:
        lines.append("sudo apt install " + " ".join(apt))
    if family in ("dnf", "") and dnf:
        lines.append("sudo dnf install " + " ".join(dnf))
    if unknown and family in ("apt", ""):
        lines.append("(for " + ", ".join(unknown) + ": apt-file search " + unknown[0] + ")")
    return lines


def message(missing: Sequence[str], family: str, plan: str) -> str:
    lines = [
        "MCP Desk cannot open its window: Qt's X11 (xcb) plugin needs "
        + ("this system library, which is" if len(missing) == 1 else "these system libraries, which are")
        + " not installed:",
        *(f"    {soname}" for soname in missing),
        "Install " + ("it" if len(missing) == 1 else "them") + " with:",
        *(f"    {line}" for line in install_lines(missing, family)),
    ]
    if plan == "wayland":
        lines[0] = lines[0].replace("cannot open its window", "may not open its window (if Wayland fails)")
    lines.append(f"(Qt's own message about xcb-cursor0 may be misleading. To start anyway: {SKIP_VAR}=1)")
    return "\n".join(lines)


def check(
    argv: Sequence[str] = (),
    environ: Mapping[str, str] | None = None,
    *,
    plugin: Path | None = None,
    ldd: str = "ldd",
    os_release: str | None = None,
) -> tuple[int, str]:
    """The exit code (see the module's doc) and what to print on stderr."""
    environ = os.environ if environ is None else environ
    if not sys.platform.startswith("linux") or environ.get(SKIP_VAR):
        return NOT_CHECKED, ""
    from app.__main__ import wants_gui

    if not wants_gui(list(argv)):
        return NOT_CHECKED, ""
    plan = platform_plan(environ)
    if plan == "other":
        return NOT_CHECKED, ""
    plugin = plugin or xcb_plugin()
    if plugin is None:
        return NOT_CHECKED, ""
    missing = missing_libraries(plugin, ldd)
    if missing is None:
        return NOT_CHECKED, ""
    if not missing:
        return OK, ""
    if os_release is None:
        try:
            os_release = Path("/etc/os-release").read_text(encoding="utf-8", errors="replace")
        except OSError:
            os_release = ""
    text = message(missing, distro_family(os_release), plan)
    return (MISSING_MAY_START if plan == "wayland" else MISSING), text


def main(argv: Sequence[str] | None = None) -> int:
    code, text = check(list(sys.argv[1:] if argv is None else argv))
    if text:
        print(text, file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
