"""What the window's cold start leaves for later (bench/bench_ui.py start measures the time).

The first paint reads servers.json and shows the lists; the file lock, the package dialog, the
dialog helpers, the catalog lists' models, the text and button widgets of app/ui/widgets.py (their
Qt classes' enums) and `platform` (only a crash report's text names it) are imported when first
used. These tests pin that, and that what was deferred still works when it is used.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import filelock
import pytest

from app.config import store as store_module
from app.config.errors import ConfigWriteError
from app.config.model import ServerEntry
from app.config.store import ConfigStore

ROOT = Path(__file__).resolve().parents[2]

# Started as run_gui starts the window (bench/bench_ui.py's desk child), stopped at its first
# paint; prints which of the deferred modules were imported by then.
FIRST_PAINT = """
import asyncio, json, sys
from app.crashreport import install as install_crash_reports
install_crash_reports()
from app.ui.main import preload_core
preload_core()
import qasync
from PySide6.QtWidgets import QApplication
app = QApplication([])
from app.ui.i18n import install_translators
install_translators(app)
loop = qasync.QEventLoop(app)
asyncio.set_event_loop(loop)
from app.ui.controller import DeskController
from app.ui.window import MainWindow
c = DeskController()
c.load_config()
w = MainWindow(c)
w.restore_state()
seen = []
def painted():
    seen.extend(m for m in sys.argv[1:] if m in sys.modules)
    loop.stop()
w.first_painted.connect(painted)
w.show()
with loop:
    loop.run_forever()
print("LOADED " + json.dumps(seen))
"""

DEFERRED = [
    "filelock",
    "app.ui.bundle_dialog",
    "app.ui.async_dialogs",
    "app.ui.models.catalog",
    "mcp",
    "app.ui.widgets",
    "platform",
]


@pytest.mark.timeout(120)
def test_first_paint_imports_neither_the_file_lock_nor_the_package_dialog(config_dir: Path) -> None:
    (config_dir / "servers.json").write_text(
        json.dumps({"mcpServers": {f"s{i}": {"command": "true", "disabled": True} for i in range(3)}}),
        encoding="utf-8",
    )
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", MCP_DESK_CONFIG_DIR=str(config_dir))
    out = subprocess.run(
        [sys.executable, "-c", FIRST_PAINT, *DEFERRED],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=100,
    )
    line = next((ln for ln in out.stdout.splitlines() if ln.startswith("LOADED ")), None)
    assert line is not None, out.stderr
    assert json.loads(line.removeprefix("LOADED ")) == []


def test_a_save_still_waits_for_the_lock_imported_on_first_write(
    config_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = ConfigStore()
    store.load()
    store.add(ServerEntry(name="one", command="x"))
    monkeypatch.setattr(store_module, "LOCK_TIMEOUT", 0.2)
    other = filelock.FileLock(store.lock_file)  # another program holds the config folder's lock
    with other, pytest.raises(ConfigWriteError, match="held the lock"):
        store.save()
    store.save()  # the lock is free again: the save goes through
    assert "one" in json.loads((config_dir / "servers.json").read_text(encoding="utf-8"))["mcpServers"]


def test_the_config_files_codec_is_found_before_qt() -> None:
    # servers.json is decoded as utf-8-sig after Qt is imported; the codec's first lookup imports
    # its module, whose source PySide's import hook would then read. preload_core does it first.
    code = (
        "import sys\n"
        "from app.ui.main import preload_core\n"
        "preload_core()\n"
        "print('encodings.utf_8_sig' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "True", out.stderr


def test_modules_loaded_before_qt_are_not_read_again_by_pysides_import_hook() -> None:
    # PySide's hook reads (into linecache) the source of each module an import statement names
    # for the first time after PySide6; set_up spares it the modules loaded before.
    code = (
        "import dataclasses, json, linecache, sys\n"
        "from app.ui.main import _skip_feature_scan_of_loaded_modules\n"
        "import PySide6\n"
        "_skip_feature_scan_of_loaded_modules()\n"
        "import dataclasses, json\n"
        "print(sorted(k for k in linecache.cache if k.endswith(('dataclasses.py', 'json/__init__.py'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "[]", out.stderr


def test_the_windows_engine_comes_without_the_sdks_server_package(tmp_path: Path) -> None:
    # The real start (the demo server configured, as on a first run): the engine the window
    # imports in its worker thread is the SDK's client side only, and the demo still answers.
    code = (
        "import sys\n"
        "from app.__main__ import main\n"
        f"code = main(['--config-dir', {str(tmp_path)!r}, '--smoke-test'])\n"
        "from app.mcp.sdk_client_only import is_client_only\n"
        "print('RESULT', code, is_client_only(), 'starlette' in sys.modules)\n"
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120, env=env
    )
    assert "demo: echo answered" in out.stdout, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "RESULT 0 True False", out.stderr


# Through run_gui's own set_up and open_window: the collector is off while the window is built
# and painted, and on again (with what the start made frozen) once open_window returns.
COLLECTOR = """
import asyncio, gc, sys
from app.ui.main import open_window, set_up
started = set_up([])
seen = {}
def painted():
    seen["at_paint"] = gc.isenabled()
async def main():
    window = await open_window(started, on_painted=painted)
    seen["after"] = gc.isenabled()
    seen["frozen"] = gc.get_freeze_count() > 0
    window.close()
with started.loop:
    started.loop.run_until_complete(main())
started.close()
print("COLLECTOR", seen["at_paint"], seen["after"], seen["frozen"])
"""


def _child_line(code: str, prefix: str, **env: str) -> tuple[str | None, str]:
    """Run `code` in a fresh offscreen interpreter: its stdout line that starts with `prefix`
    (None if there is none), and its stderr."""
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=dict(os.environ, QT_QPA_PLATFORM="offscreen", **env),
        capture_output=True,
        text=True,
        timeout=100,
    )
    return next((ln for ln in out.stdout.splitlines() if ln.startswith(prefix)), None), out.stderr


@pytest.mark.timeout(120)
def test_the_collector_waits_for_the_first_paint_and_runs_after_it(config_dir: Path) -> None:
    line, err = _child_line(COLLECTOR, "COLLECTOR ", MCP_DESK_CONFIG_DIR=str(config_dir))
    assert line == "COLLECTOR False True True", err


# run_gui's set_up holds the log's records; the file (and logging.handlers) comes after the paint.
LOG_AFTER_PAINT = """
import asyncio, logging, sys
from app.ui.main import open_window, set_up
started = set_up([])
logging.getLogger("app.somewhere").info("made before the first paint")
seen = {}
def painted():
    seen["handlers"] = "logging.handlers" in sys.modules
async def main():
    window = await open_window(started, on_painted=painted)
    from app.logfile import install
    path = install()
    for handler in logging.getLogger().handlers:
        handler.flush()
    text = path.read_text(encoding="utf-8")
    seen["started"] = "MCP Desk" in text and "started" in text
    seen["record"] = "INFO app.somewhere: made before the first paint" in text
    window.close()
with started.loop:
    started.loop.run_until_complete(main())
started.close()
print("LOG", seen["handlers"], seen["started"], seen["record"])
"""


@pytest.mark.timeout(120)
def test_the_log_file_opens_after_the_first_paint_with_what_was_logged_before(
    config_dir: Path, tmp_path: Path
) -> None:
    line, err = _child_line(
        LOG_AFTER_PAINT, "LOG ", MCP_DESK_CONFIG_DIR=str(config_dir), MCP_DESK_LOG_DIR=str(tmp_path / "logs")
    )
    assert line == "LOG False True True", err


def test_the_window_modules_are_not_read_by_pysides_import_hook(config_dir: Path) -> None:
    # set_up enters app.ui's modules in PySide's feature table before they are imported: its
    # hook would otherwise read each one's source (into linecache) to look for `__feature__`.
    code = (
        "import linecache\n"
        "from app.ui.main import set_up\n"
        "started = set_up([])\n"
        "import app.ui.window, app.ui.server_list\n"
        "print(sorted(k for k in linecache.cache if '/app/ui/' in k.replace(chr(92), '/')))\n"
        "started.close()\n"
    )
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", MCP_DESK_CONFIG_DIR=str(config_dir))
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert out.stdout.strip().splitlines()[-1:] == ["[]"], out.stderr


def test_no_window_module_selects_a_pyside_feature() -> None:
    # What makes entering them as "default features" (0) right: none imports from __feature__.
    sources = sorted((ROOT / "app" / "ui").rglob("*.py"))
    assert len(sources) > 50
    selects = re.compile(r"^\s*(from|import)\s+__feature__", re.MULTILINE)
    assert [p.name for p in sources if selects.search(p.read_text(encoding="utf-8"))] == []
