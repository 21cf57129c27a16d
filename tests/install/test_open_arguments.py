"""`mcp-desk LINK` and `mcp-desk FILE.mcpb` (a browser's scheme handler, a double-click through the
desktop file's `%U`) start the window, which opens them; `mcp-desk install LINK` is the CLI."""

from __future__ import annotations

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
