"""Packaging files: the desktop entry, the AppStream metadata, the icon and the PyInstaller spec."""

from __future__ import annotations

import ast
import importlib.util
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.conftest import skip_or_fail

ROOT = Path(__file__).resolve().parent.parent
RESOURCES = ROOT / "resources"
APP_ID = "io.github.mcpdesk.MCPDesk"
DESKTOP = RESOURCES / f"{APP_ID}.desktop"
METAINFO = RESOURCES / f"{APP_ID}.metainfo.xml"
SPEC = ROOT / "packaging" / "mcp-desk.spec"


def desktop_entry() -> dict[str, str]:
    """Parse the [Desktop Entry] group by the spec's rules (keys are case-sensitive, no duplicates)."""
    group, keys = None, {}
    for raw in DESKTOP.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            group = line
            continue
        assert group == "[Desktop Entry]", f"key outside [Desktop Entry]: {line}"
        key, sep, value = line.partition("=")
        assert sep, f"not a key=value line: {line}"
        assert key.strip() not in keys, f"duplicate key {key}"
        keys[key.strip()] = value.strip()
    return keys


def test_desktop_entry_has_the_required_keys() -> None:
    keys = desktop_entry()
    assert keys["Type"] == "Application"
    assert keys["Name"] == "MCP Desk"
    assert keys["Exec"].split()[0] == "mcp-desk"
    assert keys["Icon"] == "mcp-desk"
    assert keys["Terminal"] == "false"
    assert keys["Categories"].endswith(";")
    assert "Development" in keys["Categories"].split(";")


def test_desktop_file_validate_accepts_the_entry() -> None:
    tool = shutil.which("desktop-file-validate")
    if tool is None:
        skip_or_fail("desktop-file-validate not installed (Debian package desktop-file-utils)")
    out = subprocess.run([str(tool), str(DESKTOP)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.strip() == "", out.stdout  # no hints or warnings either


def test_metainfo_is_well_formed_with_the_required_tags() -> None:
    root = ET.parse(METAINFO).getroot()
    assert root.tag == "component"
    assert root.get("type") == "desktop-application"
    text = {tag: (root.findtext(tag) or "").strip() for tag in ("id", "name", "summary", "metadata_license")}
    assert text["id"] == APP_ID
    assert text["name"] == desktop_entry()["Name"]
    assert 0 < len(text["summary"]) <= 80
    assert text["metadata_license"] in {"CC0-1.0", "FSFAP", "MIT"}
    assert (root.findtext("project_license") or "") == "MIT"
    description = root.find("description")
    assert description is not None and description.find("p") is not None
    launchable = root.find("launchable")
    assert launchable is not None and launchable.get("type") == "desktop-id"
    assert launchable.text == DESKTOP.name
    assert root.find("content_rating") is not None
    releases = root.findall("releases/release")
    assert releases and all(r.get("version") and r.get("date") for r in releases)


def test_appstreamcli_accepts_the_metainfo() -> None:
    tool = shutil.which("appstreamcli")
    if tool is None:
        skip_or_fail("appstreamcli not installed (Debian package appstream)")
    out = subprocess.run(
        [str(tool), "validate", "--no-net", "--pedantic", str(METAINFO)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_icon_png_and_svg() -> None:
    png = (RESOURCES / "mcp-desk.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert (width, height) == (256, 256)
    svg = ET.parse(RESOURCES / "mcp-desk.svg").getroot()
    assert svg.tag == "{http://www.w3.org/2000/svg}svg"
    assert svg.get("viewBox") == "0 0 256 256"


def _spec_literals() -> tuple[set[str], list[str]]:
    """The hidden-import strings and data sources the spec names (read, not executed)."""
    tree = ast.parse(SPEC.read_text(encoding="utf-8"), filename=str(SPEC))
    strings = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    calls = [
        n.args[0].value
        for n in ast.walk(tree)
        if isinstance(n, ast.Call)
        and getattr(n.func, "id", None) in {"collect_submodules", "copy_metadata"}
        and n.args
        and isinstance(n.args[0], ast.Constant)
    ]
    return strings, calls


def test_pyinstaller_spec_bundles_resources_keyring_backends_and_the_demo_server() -> None:
    strings, collected = _spec_literals()
    assert "resources" in strings  # the data folder, under its own name
    backends = {s for s in strings if s.startswith("keyring.backends.")}
    assert {
        "keyring.backends.SecretService",
        "keyring.backends.libsecret",
        "keyring.backends.kwallet",
        "keyring.backends.macOS",
        "keyring.backends.Windows",
    } <= backends
    for name in backends:
        assert importlib.util.find_spec(name) is not None, f"spec names a missing module {name}"
    # The whole app package (which holds app.demo and the lazily imported CLI commands).
    assert "app" in collected
    assert "uvicorn" in collected  # demo-server --http
    launcher = ROOT / "packaging" / "launcher.py"
    assert launcher.name in SPEC.read_text(encoding="utf-8")
    compile(launcher.read_text(encoding="utf-8"), str(launcher), "exec")


@pytest.mark.parametrize("path", ["build", "dist", "packaging/build", "packaging/dist"])
def test_no_build_output_in_the_tree(path: str) -> None:
    tracked = subprocess.run(
        ["git", "ls-files", path], cwd=ROOT, capture_output=True, text=True, timeout=60
    ).stdout.strip()
    assert tracked == ""
