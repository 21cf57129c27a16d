"""Crash reports (app/crashreport.py): written to the data folder on an unhandled exception, with
the traceback, the versions and the log tail, and no secret value the process knows."""

from __future__ import annotations

import json
import logging
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import quote

import pytest

from app import crashreport
from app.mcp.masking import MASK, remember_secrets

REPO = Path(__file__).resolve().parents[2]
SECRET = 'crash-secret-4711"& +zz'


def reports(data_dir: Path) -> list[Path]:
    return sorted((data_dir / "logs" / "crash-reports").glob("crash-*.txt"))  # the log folder


def boom(message: str) -> BaseException:
    try:
        raise RuntimeError(message)
    except RuntimeError as exc:
        return exc


def test_a_report_has_traceback_versions_and_log_tail_and_masks_every_spelling(tmp_path: Path) -> None:
    remember_secrets([SECRET])
    crashreport._LogTail().emit(
        logging.LogRecord("app.x", logging.WARNING, __file__, 1, "a log line with %s", (SECRET,), None)
    )
    exc = boom(f"failed with {SECRET} and {json.dumps(SECRET)} and {quote(SECRET, safe='')}")
    path = crashreport.write_report(type(exc), exc, exc.__traceback__, "a test")
    # In the log folder, which is under the data folder when only that one is moved (conftest).
    assert path is not None
    assert path.parent == Path(os.environ["MCP_DESK_DATA_DIR"]) / "logs" / "crash-reports"
    text = path.read_text(encoding="utf-8")
    assert "Traceback" in text and "def boom" not in text and "in boom" in text
    assert "MCP Desk 0." in text and "Python 3." in text and "where: a test" in text
    assert "a log line with" in text
    assert "crash-secret-4711" not in text and MASK in text
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_only_the_newest_reports_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(crashreport, "KEEP", 3)
    exc = boom("x")
    for _ in range(5):
        crashreport.write_report(type(exc), exc, exc.__traceback__)
    assert len(reports(Path(os.environ["MCP_DESK_DATA_DIR"]))) == 3


def test_an_uncaught_exception_in_a_program_writes_a_report_and_says_where(tmp_path: Path) -> None:
    data = tmp_path / "data"
    code = (
        "from app.crashreport import install\n"
        "from app.mcp.masking import remember_secrets\n"
        "import threading\n"
        "install()\n"
        f"remember_secrets([{SECRET!r}])\n"
        f"t = threading.Thread(target=lambda: 1 / 0, name='worker'); t.start(); t.join()\n"
        f"raise ValueError('the key is ' + {SECRET!r})\n"
    )
    env = dict(os.environ, MCP_DESK_DATA_DIR=str(data), PYTHONPATH=str(REPO))
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "crash-secret" not in done.stderr and "ValueError: the key is " + MASK in done.stderr
    written = reports(data)
    assert len(written) == 2, done.stderr
    assert done.stderr.count("A report is in ") == 2 and str(written[0]) in done.stderr
    texts = [p.read_text(encoding="utf-8") for p in written]
    assert any("where: thread worker" in t and "ZeroDivisionError" in t for t in texts)
    assert any("ValueError: the key is " + MASK in t for t in texts)


def test_the_cli_writes_a_report_for_an_internal_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.cli import servers
    from app.cli.main import main

    remember_secrets([SECRET])

    def broken(args: object) -> int:
        raise KeyError(f"no {SECRET}")

    monkeypatch.setattr(servers, "cmd_list", broken)
    assert main(["servers", "list"]) == 1
    err = capsys.readouterr().err
    assert "internal error: KeyError" in err and "crash-secret" not in err
    (path,) = reports(Path(os.environ["MCP_DESK_DATA_DIR"]))
    assert str(path) in err
    assert "KeyError" in path.read_text(encoding="utf-8")


def test_install_is_idempotent_and_hooks_threads() -> None:
    before = sys.excepthook, threading.excepthook
    try:
        crashreport.install()
        crashreport.install()
        assert sys.excepthook is crashreport._excepthook
        assert threading.excepthook is crashreport._thread_excepthook
    finally:
        sys.excepthook, threading.excepthook = before
