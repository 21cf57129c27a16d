"""The MIME types for .mcpb/.dxt (packaging/mcp-desk-mime.xml) are what shared-mime-info reads."""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

MIME = Path(__file__).resolve().parents[2] / "packaging" / "mcp-desk-mime.xml"
NS = "{http://www.freedesktop.org/standards/shared-mime-info}"


def test_the_types_and_globs() -> None:
    root = ET.parse(MIME).getroot()
    types = {
        t.get("type"): [g.get("pattern") for g in t.iter(f"{NS}glob")] for t in root.iter(f"{NS}mime-type")
    }
    assert types == {"application/x-mcpb": ["*.mcpb"], "application/x-dxt": ["*.dxt"]}


def test_update_mime_database_accepts_it(tmp_path: Path) -> None:
    tool = shutil.which("update-mime-database")
    if tool is None:
        pytest.skip("shared-mime-info is not installed")
    (tmp_path / "packages").mkdir()
    shutil.copy(MIME, tmp_path / "packages" / "mcp-desk.xml")
    done = subprocess.run([tool, str(tmp_path)], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert "error" not in done.stderr.lower() and "warning" not in done.stderr.lower(), done.stderr
    globs = (tmp_path / "globs2").read_text(encoding="utf-8")
    assert ":application/x-mcpb:*.mcpb" in globs and ":application/x-dxt:*.dxt" in globs
