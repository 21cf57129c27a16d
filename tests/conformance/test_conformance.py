"""The official conformance suite's client scenarios this issue must pass, run through run.sh
against the adapter built on app.mcp (about 5 s a scenario)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.servers.fixtures import *  # noqa: F403

HERE = Path(__file__).resolve().parent
REQUIRED = ["initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry"]

pytestmark = [pytest.mark.node, pytest.mark.slow]


def test_required_scenarios_pass(node22_path: Path) -> None:
    done = subprocess.run(
        ["bash", str(HERE / "run.sh"), *REQUIRED], capture_output=True, text=True, timeout=300, check=False
    )
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    for scenario in REQUIRED:
        section = out.split(f"== {scenario}\n", 1)[1].split("\n== ", 1)[0]
        assert "✅ OVERALL: PASSED" in section, section
    assert out.splitlines()[-1] == (
        "conformance: 4 scenarios passed, 0 failed as the baseline expects, 0 not as expected"
    )


def test_baseline_names_only_known_scenarios(node22_path: Path) -> None:
    listed = subprocess.run(
        [
            str(node22_path),
            str(HERE.parents[1] / "tests/node/node_modules/@modelcontextprotocol/conformance/dist/index.js"),
            "list",
            "--client",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    known = {line.split()[1] for line in listed.splitlines() if line.startswith("  - ")}
    baseline = [
        line.split()[0]
        for line in (HERE / "baseline.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert baseline, "baseline.txt lists nothing"
    assert set(baseline) <= known
    assert not set(REQUIRED) & set(baseline)
    assert all("#" in line for line in (HERE / "baseline.txt").read_text().splitlines() if line.strip())
