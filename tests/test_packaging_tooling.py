"""The project's own tooling is as strict as promised: pytest, mypy, and the set-up scripts."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"
SCRIPTS = ["run.sh", "run-tests.sh", ".ci/run"]


def pytest_options() -> dict[str, object]:
    options: dict[str, object] = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["pytest"][
        "ini_options"
    ]
    return options


def test_pytest_is_configured_strictly() -> None:
    options = pytest_options()
    assert "--strict-markers" in str(options["addopts"]).split()
    assert options["xfail_strict"] is True
    assert options["qt_log_level_fail"] == "WARNING"
    assert isinstance(options["timeout"], int) and 0 < options["timeout"] <= 300
    warnings = options["filterwarnings"]
    assert isinstance(warnings, list) and warnings[0] == "error"


def test_every_warnings_exception_is_explained() -> None:
    """Each `ignore:`/`default:` entry after "error" sits under a comment giving its reason."""
    text = PYPROJECT.read_text(encoding="utf-8")
    block = re.search(r"^filterwarnings = \[\n(.*?)^\]", text, re.S | re.M)
    assert block is not None
    previous = ""
    for line in block.group(1).splitlines():
        stripped = line.strip()
        if stripped.startswith('"') and stripped != '"error",':
            assert previous.startswith("#") and len(previous) > 10, f"no reason written above {stripped}"
        if stripped:
            previous = stripped


def _run_pytest_on(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    test = tmp_path / "test_probe.py"
    test.write_text(body, encoding="utf-8")
    env = dict(os.environ, PYTEST_ADDOPTS="")
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-c",
            str(PYPROJECT),
            "--rootdir",
            str(tmp_path),
            "-p",
            "no:cacheprovider",
            "-q",
            str(test),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env=env,
    )


def test_a_stray_warning_fails_a_test(tmp_path: Path) -> None:
    out = _run_pytest_on(
        tmp_path, "import warnings\n\ndef test_x():\n    warnings.warn('stray', UserWarning)\n"
    )
    assert out.returncode == 1, out.stdout
    assert "UserWarning: stray" in out.stdout


def test_an_unknown_marker_is_an_error(tmp_path: Path) -> None:
    out = _run_pytest_on(tmp_path, "import pytest\n\n@pytest.mark.not_registered\ndef test_x():\n    pass\n")
    assert out.returncode != 0
    assert "not_registered" in out.stdout + out.stderr


def test_mypy_is_strict_on_all_of_app() -> None:
    mypy = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["mypy"]
    assert mypy.get("strict") is True and mypy.get("files") == ["app"]
    # No module may opt out again.
    loosened = [o for o in mypy.get("overrides", []) if o.get("strict") is False or o.get("ignore_errors")]
    assert not loosened, loosened


@pytest.mark.parametrize("script", SCRIPTS)
def test_setup_scripts_are_executable_and_parse(script: str) -> None:
    path = ROOT / script
    assert path.stat().st_mode & stat.S_IXUSR, f"{script} is not executable"
    assert path.read_text(encoding="utf-8").startswith("#!/usr/bin/env bash\n")
    out = subprocess.run(["bash", "-n", str(path)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr


def test_readme_shows_both_setup_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "./run.sh" in readme
    assert "./run-tests.sh" in readme
    assert "docs/screenshots/main.png" in readme
