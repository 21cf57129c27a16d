"""`mcp-desk LINK` and `mcp-desk FILE.mcpb` (a browser's scheme handler, a double-click through the
desktop file's `%U`) start the window, which opens them; `mcp-desk install LINK` is the CLI."""

from __future__ import annotations

import subprocess
import sys

import pytest

from app.__main__ import wants_gui
from app.config.links import is_open_argument

LINK = "mcp-desk://install?name=a&config=e30"


@pytest.mark.parametrize(
    ("argv", "gui"),
    [
        ([LINK], True),
        (["--config-dir", "/tmp/x", LINK], True),
        (["cursor://anysphere.cursor-deeplink/mcp/install?name=a&config=e30"], True),
        (["vscode:mcp/install?%7B%7D"], True),
        (["/home/me/Downloads/Weather.MCPB"], True),
        (["file:///home/me/Downloads/weather%20tool.mcpb"], True),
        (["old.dxt"], True),
        (["install", LINK], False),
        (["servers", "list"], False),
        (["https://example.org"], False),
        ([], True),
    ],
)
def test_what_starts_the_window(argv: list[str], gui: bool) -> None:
    assert wants_gui(argv) is gui


def test_is_open_argument() -> None:
    assert is_open_argument(" lmstudio://add_mcp?name=x&config=e30 ")
    assert not is_open_argument("servers") and not is_open_argument("notes.txt")


def test_the_gui_takes_them_as_positional_arguments() -> None:
    from app.ui.main import parse_args

    args = parse_args(["--config-dir", "/tmp/x", LINK, "/a/b.mcpb"])
    assert args.open == [LINK, "/a/b.mcpb"] and args.config_dir == "/tmp/x"
    assert parse_args([]).open == []


def test_no_arguments_give_what_the_parser_gives_without_importing_argparse() -> None:
    # A start with no arguments skips the parser (argparse is not imported for it); its
    # options must be the parser's own defaults, whatever option is added later.
    from app.ui.main import build_parser, parse_args

    assert vars(parse_args([])) == vars(build_parser().parse_args([]))
    first = parse_args([])
    first.open.append("x")
    assert parse_args([]).open == []  # each start its own list
    code = "import sys\nfrom app.ui.main import parse_args\nparse_args([])\nprint('argparse' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "False", out.stderr
