"""A command line that names a command builds only that command's parser (app.cli.main): the same
parse, help and errors as the whole parser, without importing the other command modules."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import main as cli_main

ROOT = Path(__file__).resolve().parents[2]


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_the_table_names_the_module_of_every_command() -> None:
    registered: dict[str, str] = {}
    for name in cli_main.COMMAND_MODULES:
        subparsers = argparse.ArgumentParser().add_subparsers()
        importlib.import_module(f"app.cli.{name}").register(subparsers)
        registered |= dict.fromkeys(subparsers.choices, name)
    assert registered == cli_main.COMMAND_MODULE_OF


@pytest.mark.parametrize("command", sorted(cli_main.COMMAND_MODULE_OF))
def test_a_command_gets_the_same_parser_as_with_all_of_them(command: str) -> None:
    alone = _commands(cli_main.build_parser([command, "--whatever"]))
    full = _commands(cli_main.build_parser())
    assert command in alone and len(alone) < len(full)
    assert alone[command].format_help() == full[command].format_help()


def _parse(parser: argparse.ArgumentParser, argv: list[str]) -> tuple[object, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            parsed = vars(parser.parse_args(argv))
        except SystemExit as exc:
            return exc.code, err.getvalue()
    parsed.pop("group_parser", None)  # the parser object itself, one per build
    return parsed, err.getvalue()


@pytest.mark.parametrize(
    "argv",
    [
        ["call", "--stdio", "srv --flag", "echo", "--args", "{}"],
        ["-v", "--config-dir", "call", "tools", "--url", "http://x/mcp", "--json"],
        ["--config-dir=d", "servers", "list"],
        ["call"],  # a usage error: the same message
        ["call", "--stdio", "x", "t", "--args", "{}", "--args-file", "f"],
        ["tools", "--nope"],
        ["servers", "frobnicate"],
        ["-v", "ping", "a", "b"],
    ],
)
def test_the_same_parse_and_the_same_errors(argv: list[str]) -> None:
    assert _parse(cli_main.build_parser(argv), argv) == _parse(cli_main.build_parser(), argv)


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (["call", "x"], "call"),
        (["-v", "--verbose", "--config-dir", "tools", "doctor"], "doctor"),
        (["--config-dir=x", "demo-server"], "demo-server"),
        (["--help", "call"], None),
        (["--conf", "x", "call"], None),  # an abbreviation: argparse's to read
        (["-vv", "call"], None),
        (["cal", "x"], None),  # a typo: the whole parser says what exists
        (["--config-dir"], None),
        ([], None),
    ],
)
def test_named_command(argv: list[str], command: str | None) -> None:
    assert cli_main.named_command(argv) == command


def test_a_command_imports_only_its_own_module() -> None:
    code = (
        "import sys\n"
        "from app.cli.main import build_parser\n"
        "build_parser(['call', '--stdio', 'x', 'echo'])\n"
        "print(sorted(m for m in sys.modules if m.startswith('app.cli.')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.stdout.strip() == "['app.cli.main', 'app.cli.remote']", done.stderr
