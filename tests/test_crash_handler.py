"""The app's life (issue 13 §4): the platform folders, the asyncio loop's exception handler, the
notifier the window's dialog listens to, and the log file — none of them with a secret in it."""

from __future__ import annotations

import asyncio
import logging
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app import crashreport, logfile
from app.config import locations
from app.mcp.masking import MASK, remember_secrets

REPO = Path(__file__).resolve().parent.parent
SECRET = "life-secret-0815%&x"


def data() -> Path:
    return Path(os.environ["MCP_DESK_DATA_DIR"])


def test_the_folders_are_the_platforms_unless_moved(tmp_path: Path) -> None:
    import platformdirs

    assert locations.log_dir({}) == Path(platformdirs.user_log_dir("mcp-desk", appauthor=False))
    assert locations.data_dir({}) == Path(platformdirs.user_data_dir("mcp-desk", appauthor=False))
    assert locations.crash_dir({}) == locations.log_dir({}) / "crash-reports"
    # A moved data folder takes the logs along (tests, portable set-ups); the log variable wins.
    assert locations.log_dir({"MCP_DESK_DATA_DIR": str(tmp_path)}) == tmp_path / "logs"
    moved = {"MCP_DESK_DATA_DIR": str(tmp_path), "MCP_DESK_LOG_DIR": str(tmp_path / "elsewhere")}
    assert locations.crash_dir(moved) == tmp_path / "elsewhere" / "crash-reports"
    assert crashreport.crash_dir() == data() / "logs" / "crash-reports"
    assert crashreport.data_dir() == data()


@pytest.fixture
def notified() -> Iterator[list[tuple[Path | None, str]]]:
    seen: list[tuple[Path | None, str]] = []
    crashreport.set_notifier(lambda path, summary: seen.append((path, summary)))
    try:
        yield seen
    finally:
        crashreport.set_notifier(None)


def reports() -> list[Path]:
    return sorted(crashreport.crash_dir().glob("crash-*.txt"))


def test_an_exception_nobody_awaited_on_the_loop_is_a_report_and_the_window_is_told(
    notified: list[tuple[Path | None, str]],
) -> None:
    remember_secrets([SECRET])

    async def scene() -> None:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(crashreport.loop_exception_handler)
        done = asyncio.Event()

        def broken() -> None:
            loop.call_soon(done.set)
            raise LookupError(f"no entry for {SECRET}")

        loop.call_soon(broken)
        await asyncio.wait_for(done.wait(), 10)

    asyncio.run(scene())
    (path,) = reports()
    text = path.read_text(encoding="utf-8")
    assert "where: the event loop (Exception in callback" in text
    assert "LookupError: no entry for " + MASK in text and "life-secret" not in text
    assert notified == [(path, "LookupError: no entry for " + MASK)]


def test_a_peer_hanging_up_is_logged_not_reported(
    notified: list[tuple[Path | None, str]], caplog: pytest.LogCaptureFixture
) -> None:
    loop = asyncio.new_event_loop()
    try:
        crashreport.loop_exception_handler(
            loop,
            {
                "message": "Fatal error on transport",
                "exception": ConnectionResetError(104, "reset"),
                "transport": 1,
            },
        )
        crashreport.loop_exception_handler(loop, {"message": "just a message from the loop"})
    finally:
        loop.close()
    assert reports() == [] and notified == []
    assert "Fatal error on transport" in caplog.text and "just a message from the loop" in caplog.text


@pytest.fixture
def log_file() -> Iterator[Path]:
    stderr = logging.StreamHandler(sys.stderr)
    root = logging.getLogger()
    root.addHandler(stderr)
    app_level = logging.getLogger("app").level
    try:
        path = logfile.install()
        assert path is not None
        # The terminal shows what it showed before (WARNING), the file the app's INFO too.
        assert stderr.level == logging.WARNING
        yield path
    finally:
        logfile.uninstall()
        root.removeHandler(stderr)
        logging.getLogger("app").setLevel(app_level)


def test_the_log_file_is_in_the_log_folder_private_and_masked(log_file: Path) -> None:
    crashreport.install()  # as both entry points do first: records are masked as they are made
    assert log_file == data() / "logs" / "mcp-desk.log"
    logging.getLogger("app.somewhere").info("connected with %s", SECRET)
    logging.getLogger("app.somewhere").debug("not in the file")
    # A key learnt after the record was made is still masked when the line is written.
    later = "life-later-secret-42"
    record = logging.LogRecord("app.x", logging.WARNING, __file__, 1, "late %s", (later,), None)
    remember_secrets([SECRET, later])
    logging.getLogger("app.x").handle(record)
    for handler in logging.getLogger().handlers:
        handler.flush()
    text = log_file.read_text(encoding="utf-8")
    assert "MCP Desk 0." in text and "started" in text
    assert f"INFO app.somewhere: connected with {MASK}" in text and "not in the file" not in text
    assert f"late {MASK}" in text
    assert "life-secret" not in text and later not in text
    assert stat.S_IMODE(log_file.stat().st_mode) == 0o600


def test_the_log_file_rotates(log_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    logfile.uninstall()
    monkeypatch.setattr(logfile, "MAX_BYTES", 2000)
    assert logfile.install() == log_file
    for i in range(100):
        logging.getLogger("app.rotation").warning("line %d of a long story", i)
    backups = sorted(log_file.parent.glob("mcp-desk.log.*"))
    assert [p.name for p in backups] == [f"mcp-desk.log.{n}" for n in range(1, logfile.BACKUPS + 1)]
    assert log_file.stat().st_size <= 2000
    assert "line 99 of" in log_file.read_text(encoding="utf-8")


@pytest.mark.slow
def test_the_window_writes_its_log_file_and_the_terminal_stays_quiet(tmp_path: Path) -> None:
    """`mcp-desk --smoke-test` (the real GUI, offscreen): the log file has its INFO lines in the
    log folder; stderr has none."""
    config = tmp_path / "cfg"
    config.mkdir()
    env = dict(
        os.environ,
        QT_QPA_PLATFORM="offscreen",
        PYTHONPATH=str(REPO),
        MCP_DESK_CONFIG_DIR=str(config),
        MCP_DESK_DATA_DIR=str(tmp_path / "data"),
        PYTHON_KEYRING_BACKEND="keyring.backends.null.Keyring",
    )
    (config / "servers.json").write_text('{"mcpServers": {}}', encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "app", "--smoke-test"],
        env=env,
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "data" / "logs" / "mcp-desk.log").read_text(encoding="utf-8")
    assert "INFO app.logfile: MCP Desk" in text and "started" in text
    assert "INFO" not in done.stderr
