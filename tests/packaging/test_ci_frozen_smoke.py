"""packaging/ci-frozen-smoke: the CI step reuses a cached bundle, checks its smoke test's output, and
skips (loudly, exit 0) a build the CI budget has no time for instead of pushing .ci/run over it."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "packaging" / "ci-frozen-smoke"


def tree_key() -> str:
    """The script's cache key for this tree (what goes into the bundle)."""
    out = subprocess.run([str(SCRIPT), "--key"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and len(out.stdout.strip()) == 16, out.stderr
    return out.stdout.strip()


def cached_bundle(cache: Path, smoke_line: str) -> None:
    """A stand-in bundle in the cache: its `mcp-desk` prints what the real one's smoke test does."""
    bundle = cache / "dist" / "mcp-desk"
    xcb = bundle / "_internal" / "PySide6" / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    xcb.parent.mkdir(parents=True)
    xcb.write_bytes(b"not an ELF file: ldd finds nothing missing")
    exe = bundle / "mcp-desk"
    exe.write_text(
        "#!/bin/sh\n"
        'case "$*" in *--smoke-test*) echo "demo: ready, 13 tools"; echo "' + smoke_line + '";; esac\n',
        encoding="utf-8",
    )
    exe.chmod(0o755)
    (cache / "key").write_text(tree_key() + "\n", encoding="utf-8")


def run(cache: Path, left: int) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, MCP_DESK_BUNDLE_CACHE=str(cache))
    return subprocess.run(
        [str(SCRIPT), str(left)], cwd=ROOT, capture_output=True, text=True, timeout=120, env=env
    )


def test_a_build_that_does_not_fit_the_budget_is_skipped_not_started(tmp_path: Path) -> None:
    (tmp_path / "build-seconds").write_text("300\n", encoding="utf-8")
    done = run(tmp_path, left=200)
    assert done.returncode == 0, done.stderr
    assert "SKIPPED: a build takes about 300 s and the CI budget has 200 s left" in done.stdout
    assert not (tmp_path / "dist").exists()  # PyInstaller never ran
    assert not (tmp_path / "build-seconds").exists()  # the next run tries again (under timeout)


def test_the_key_covers_what_goes_into_the_bundle_only() -> None:
    line = next(x for x in SCRIPT.read_text(encoding="utf-8").splitlines() if "git ls-files" in x)
    for path in ("app", "resources", "pyproject.toml", "packaging/mcp-desk.spec", "packaging/launcher.py"):
        assert f" {path} " in f"{line} ", path
    assert "measure_startup" not in line and "build-linux" not in line


def test_a_cached_bundle_for_this_tree_is_smoke_tested_without_a_build(tmp_path: Path) -> None:
    cached_bundle(tmp_path, "demo: echo answered 'hello from the smoke test'")
    done = run(tmp_path, left=10)  # no time for a build: the cached bundle is all it can use
    assert "is cached: no build" in done.stdout
    assert "called a tool in" in done.stdout, done.stdout + done.stderr
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_smoke_test_without_the_tool_call_fails_the_step(tmp_path: Path) -> None:
    cached_bundle(tmp_path, "demo: echo failed: timed out")
    done = run(tmp_path, left=10)
    assert done.returncode != 0
    assert "called a tool" not in done.stdout
