"""The CLI root (`app.cli.main`): global options, tolerant registration, exit codes."""

from __future__ import annotations

import argparse
import importlib
import logging
import os
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from app.cli import main as cli_main
from app.cli.main import CommandError, main, run_handler


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "--config-dir" in out
    assert "servers" in out and "secrets" in out


def test_no_command_is_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "a command is required" in capsys.readouterr().err


def test_missing_and_broken_modules_are_skipped(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    real_import = importlib.import_module

    def fake_import(name: str, package: str | None = None) -> ModuleType:
        if name == "app.cli.broken":
            raise ImportError("cannot import name 'x' from 'app.mcp'")
        return real_import(name, package)

    monkeypatch.setattr(cli_main, "COMMAND_MODULES", ("servers", "not_written_yet", "broken", "secrets"))
    monkeypatch.setattr(cli_main.importlib, "import_module", fake_import)
    with caplog.at_level(logging.WARNING, logger="app.cli.main"):
        parser = cli_main.build_parser()
    assert parser.parse_args(["servers", "list"]).func is not None
    assert parser.parse_args(["secrets", "list"]).func is not None
    assert [r.getMessage() for r in caplog.records] == [
        "CLI command module app.cli.broken cannot be imported: cannot import name 'x' from 'app.mcp'"
    ]  # the module that does not exist yet is skipped silently


def test_config_dir_option_sets_env(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "cfg"
    assert main(["--config-dir", str(target), "servers", "list"]) == 0
    assert os.environ["MCP_DESK_CONFIG_DIR"] == str(target.resolve())


def ns() -> argparse.Namespace:
    return argparse.Namespace()


@pytest.mark.parametrize(
    ("exc", "code", "message"),
    [
        (CommandError("tool said no", 3), 3, "mcp-desk: error: tool said no\n"),
        (CommandError("bad\nthing"), 1, "mcp-desk: error: bad thing\n"),
        (
            FileNotFoundError(2, "No such file or directory", "x.json"),
            1,
            "mcp-desk: error: [Errno 2] No such file or directory: 'x.json'\n",
        ),
        (RuntimeError("boom"), 1, "mcp-desk: internal error: RuntimeError: boom\n"),
    ],
)
def test_errors_become_one_line_and_exit_code(
    capsys: pytest.CaptureFixture[str], exc: Exception, code: int, message: str
) -> None:
    def handler(args: Any) -> int:
        raise exc

    assert run_handler(handler, ns()) == code
    err = capsys.readouterr().err
    if isinstance(exc, RuntimeError):  # an internal error: the second line says where its report is
        err, _, report = err.partition("\n")
        err += "\n"
        assert report.startswith("mcp-desk: a report is in ") and "crash-reports" in report, report
    assert err == message
