"""Must show: on a computer without Node or uv, `npx -y @modelcontextprotocol/server-memory` and
`uvx mcp-server-time` connect and answer a call, from the CLI and in the window.

These reach the real npm registry and PyPI (the first start downloads the servers into an
empty HOME: npm's cache ~/.npm and uv's ~/.cache/uv are their defaults there), hence `slow`.
The PATH is /usr/bin and /bin without node, npm, npx, uv and uvx (tests/runtimes/conftest.py),
and HOME is empty, so nvm, volta, fnm, ~/.local/bin and ~/.cargo/bin have nothing either.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from app.runtimes import search_path

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
MEMORY = ["npx", "-y", "@modelcontextprotocol/server-memory"]
TIME = ["uvx", "mcp-server-time"]


def _assert_bare(path: str, home: Path) -> None:
    """The proof: none of the runtimes is on the PATH, nor where GUI apps miss them."""
    env = {"PATH": path, "HOME": str(home)}
    for name in ("node", "npx", "npm", "uv", "uvx"):
        assert shutil.which(name, path=path) is None, name
        assert shutil.which(name, path=os.pathsep.join(search_path.extra_dirs(env))) is None, name


def _cli(
    home: Path, config: Path, path: str, *args: str, timeout: float = 120
) -> tuple[subprocess.CompletedProcess[str], float]:
    env = {
        # What a desktop session gives: PATH and HOME; the machine's certificate settings, which
        # reach the package managers as they would behind a company firewall.
        **{
            k: v
            for k, v in os.environ.items()
            if k in ("NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR", "LANG")
        },
        "PATH": path,
        "HOME": str(home),
        "MCP_DESK_CONFIG_DIR": str(config),
        "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
    }
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "app", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=timeout,
    )
    return done, time.monotonic() - started


def test_cli_first_and_second_use(tmp_path_factory: pytest.TempPathFactory, no_runtime_path: str) -> None:
    home = tmp_path_factory.mktemp("cli-home")
    config = tmp_path_factory.mktemp("cli-config")
    _assert_bare(no_runtime_path, home)
    for name, (command, *args) in (("memory", MEMORY), ("time", TIME)):
        added, _ = _cli(
            home,
            config,
            no_runtime_path,
            "servers",
            "add",
            name,
            "--command",
            command,
            *[f"--arg={a}" for a in args],
        )
        assert added.returncode == 0, added.stderr
    times: dict[str, float] = {}
    for use in ("first", "second"):
        done, took = _cli(home, config, no_runtime_path, "call", "memory", "read_graph", "--trust", "--json")
        assert done.returncode == 0, done.stderr
        times[f"memory {use}"] = took
        result = json.loads(done.stdout)
        assert "entities" in json.dumps(result), done.stdout
        done, took = _cli(
            home,
            config,
            no_runtime_path,
            "call",
            "time",
            "get_current_time",
            "--args",
            '{"timezone": "UTC"}',
            "--trust",
            "--json",
        )
        assert done.returncode == 0, done.stderr
        times[f"time {use}"] = took
        assert '"timezone": "UTC"' in json.dumps(json.loads(done.stdout)) or "UTC" in done.stdout, done.stdout
    # The downloads went to the defaults inside this HOME: npm's ~/.npm/_npx, uv's ~/.cache/uv.
    assert (home / ".npm" / "_npx").is_dir()
    assert (home / ".cache" / "uv").is_dir()
    print("CLI seconds:", {k: round(v, 1) for k, v in times.items()})


# ------------------------------------------------------------------------------------ window

from tests.ui.conftest import _qasync_loop, aloop, open_desk, run, run_tool_and_wait, select_tool  # noqa: E402, F401


# Showing the window offscreen makes Qt say this platform cannot propagate size hints.
@pytest.mark.qt_log_ignore("propagateSizeHints")
def test_window_first_use(
    qtbot: Any,
    aloop: Any,  # noqa: F811
    config_dir: Path,
    tmp_path_factory: pytest.TempPathFactory,
    no_runtime_path: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.ui.conftest import fill_text_field, wait_state, write_servers

    home = tmp_path_factory.mktemp("gui-home")
    monkeypatch.setenv("PATH", no_runtime_path)  # the window's own PATH: the servers inherit it
    monkeypatch.setenv("HOME", str(home))
    _assert_bare(no_runtime_path, home)
    write_servers(
        config_dir,
        {
            "memory": {"command": MEMORY[0], "args": MEMORY[1:]},
            "time": {"command": TIME[0], "args": TIME[1:]},
        },
    )
    with open_desk(qtbot) as window:
        seen: list[tuple[str, str, str]] = []
        window.controller.bridge.state_changed.connect(lambda s, st, r: seen.append((s, st, r)))
        shown: list[str] = []
        window.server_model.dataChanged.connect(
            lambda *_: shown.extend(
                window.server_model.server(n).status_text()
                for n in ("memory", "time")
                if window.server_model.server(n)
            )
        )
        for name in ("memory", "time"):
            assert window.servers.select(name)
            window.servers.buttons["connect"].click()
        wait_state(qtbot, window, "memory", "ready", timeout=90)
        wait_state(qtbot, window, "time", "ready", timeout=90)
        for name in ("memory", "time"):
            conn = window.controller.connection(name)
            runtime = conn.process.resolved.runtime
            assert runtime is not None and runtime.builtin, runtime
        # The first start downloaded: the list said so, with what was being fetched.
        assert any(
            s == "memory" and st == "installing" and r.startswith("installing the server… (fetching ")
            for s, st, r in seen
        ), seen
        assert any(t.startswith("installing the server… (fetching ") for t in shown), shown
        assert ("memory", "failed") not in {(s, st) for s, st, _ in seen}

        select_tool(qtbot, window, "read_graph", "memory")
        run_tool_and_wait(qtbot, window, timeout=60)
        assert window.tool_panel.result.status_text().startswith("Done")
        assert "entities" in window.tool_panel.result.json_text()

        select_tool(qtbot, window, "get_current_time", "time")
        fill_text_field(qtbot, window.tool_panel.form, 0, "UTC")
        run_tool_and_wait(qtbot, window, timeout=60)
        assert window.tool_panel.result.status_text().startswith("Done"), (
            window.tool_panel.result.status_text()
        )
        assert "UTC" in window.tool_panel.result.json_text()
