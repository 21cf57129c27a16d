"""The headless `mcp-desk SUBCOMMAND ...` entry point.

Each command module exposes `register(subparsers) -> None` and sets `func=` on the parsers it adds;
`func(args) -> int` returns the exit code. Modules are looked up by name so a module that does not
exist yet (the team builds them in parallel) is simply skipped.

A group parser (such as `servers`, made by `add_group`) sets `group_parser=itself` so a bare
group prints its own usage.

Exit codes: 0 ok, 2 usage error, 1 failure (one line on stderr), 3 a tool answered `isError`,
4 the server needs you to sign in (`mcp-desk auth login SERVER`), 5 a configured local server was
not allowed to run (`app.cli.approval`), 6 a tool's structuredContent does not match its
outputSchema (the result is still printed), 130 interrupted (Ctrl+C).
Nothing here imports Qt, and command modules import the MCP SDK only inside the commands that need
it: `mcp-desk servers list` must start fast.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Callable, Sequence
from typing import Any

logger = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2
EXIT_TOOL_ERROR = 3
EXIT_SIGN_IN = 4
EXIT_SCHEMA_MISMATCH = 6
"""`mcp-desk call`: the tool answered, but its structuredContent fails the tool's outputSchema; a
script must not take such a result for a good one (5 is `app.cli.approval.EXIT_NOT_APPROVED`)."""

# Order is the order of `--help`.
COMMAND_MODULES = (
    "servers",
    "secrets",
    "auth",
    "demo",
    "remote",
    "complete",
    "doctor",
    "install",
    "registry",
    "bundles",
)

COMMAND_MODULE_OF = {
    "servers": "servers",
    "secrets": "secrets",
    "auth": "auth",
    "demo-server": "demo",
    "tools": "remote",
    "call": "remote",
    "resources": "remote",
    "read": "remote",
    "prompts": "remote",
    "prompt": "remote",
    "ping": "remote",
    "complete": "complete",
    "doctor": "doctor",
    "install": "install",
    "registry": "registry",
    "bundles": "bundles",
}
"""The module that registers each command (tests/cli check it against what they register): a
command line that names one builds only that module's parser. Importing and registering all
of them costs ~20 ms, and every `mcp-desk call` paid for the nine it does not use."""


class CommandError(Exception):
    """A failure to report to the user as one line on stderr (no traceback)."""

    def __init__(self, message: str, exit_code: int = EXIT_FAILURE) -> None:
        super().__init__(message)
        self.exit_code = exit_code


Handler = Callable[[argparse.Namespace], int]


def add_group(subparsers: Any, name: str, *, help: str, dest: str) -> Any:
    """A command with actions under it (`mcp-desk servers list`); returns the actions' subparsers."""
    parser = subparsers.add_parser(name, help=help)
    parser.set_defaults(group_parser=parser)
    return parser.add_subparsers(dest=dest, metavar="ACTION")


def _load_command_modules() -> list[Any]:
    modules = []
    for name in COMMAND_MODULES:
        qualified = f"app.cli.{name}"
        try:
            module = importlib.import_module(qualified)
        except ModuleNotFoundError as exc:
            if exc.name == qualified:
                continue  # not written yet
            logger.warning("CLI command module %s cannot be imported: %s", qualified, exc)
            continue
        except ImportError as exc:
            # A teammate's module that is broken must not take the other commands down with it.
            logger.warning("CLI command module %s cannot be imported: %s", qualified, exc)
            continue
        modules.append(module)
    return modules


def named_command(argv: Sequence[str]) -> str | None:
    """The command `argv` names when only plain global options come before it (`-v`,
    `--config-dir DIR`); None for anything argparse might read otherwise (`--help`, an
    abbreviated option, a typo), so that such a line gets the whole parser and its messages."""
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("-v", "--verbose") or arg.startswith("--config-dir="):
            i += 1
        elif arg == "--config-dir":
            i += 2
        elif arg.startswith("-"):
            return None
        else:
            return arg if arg in COMMAND_MODULE_OF else None
    return None


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser; with `argv` that names a command, only that command's module is registered
    (the same parse, the same usage and error lines: the root's usage names no commands).
    Without, or when that module cannot be imported, all of them (`--help` lists them all)."""
    parser = argparse.ArgumentParser(
        prog="mcp-desk",
        description="MCP Desk: connect to MCP servers, list and call their tools. "
        "Without a command, the desktop app starts.",
    )
    parser.add_argument(
        "--config-dir",
        metavar="DIR",
        help="use DIR for servers.json and settings.json (default: the platform's user config dir; "
        "also MCP_DESK_CONFIG_DIR)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages to stderr")
    from app import __version__  # h13-life: `mcp-desk --version`

    parser.add_argument("--version", action="version", version=f"mcp-desk {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in _command_module(argv) or _load_command_modules():
        module.register(subparsers)
    return parser


def _command_module(argv: Sequence[str] | None) -> list[Any]:
    """[the module of the command `argv` names], or [] (then all are loaded, and a module that
    cannot be imported is reported there, once)."""
    command = named_command(argv) if argv is not None else None
    name = COMMAND_MODULE_OF.get(command or "")
    if name is None or name not in COMMAND_MODULES:
        return []
    try:
        return [importlib.import_module(f"app.cli.{name}")]
    except ImportError:
        return []


def _one_line(text: str) -> str:
    """An error on one line; a server's words in it (a reason, an SDK message) cannot drive the
    terminal or hide behind bidi controls."""
    from app.mcp.visible import visible

    return " ".join(visible(text).split())


def main(argv: Sequence[str] | None = None) -> int:
    """Run one CLI command and return its exit code (never raises SystemExit)."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(args_list)
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE

    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    from app.crashreport import install as install_crash_reports

    install_crash_reports()
    if args.config_dir:
        from app.config.paths import set_config_dir

        set_config_dir(args.config_dir)

    func: Handler | None = getattr(args, "func", None)
    if func is None:
        # `mcp-desk servers` without a subcommand: show that group's help.
        sub_parser: argparse.ArgumentParser | None = getattr(args, "group_parser", None)
        (sub_parser or parser).print_usage(sys.stderr)
        print("mcp-desk: error: a command is required", file=sys.stderr)
        return EXIT_USAGE
    return run_handler(func, args)


def run_handler(func: Handler, args: argparse.Namespace) -> int:
    """Call a command; turn the errors a user can act on into one line on stderr."""
    from app.config.errors import ConfigError
    from app.secrets.errors import SecretStoreError

    try:
        return func(args)
    except CommandError as exc:
        print(f"mcp-desk: error: {_one_line(str(exc))}", file=sys.stderr)
        return exc.exit_code
    except (ConfigError, SecretStoreError) as exc:
        print(f"mcp-desk: error: {_one_line(str(exc))}", file=sys.stderr)
        return EXIT_FAILURE
    except BrokenPipeError:
        # `mcp-desk servers list | head`: the reader left; say nothing more on a dead pipe.
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FAILURE
    except OSError as exc:
        print(f"mcp-desk: error: {_one_line(str(exc))}", file=sys.stderr)
        return EXIT_FAILURE
    except KeyboardInterrupt:
        print("mcp-desk: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        # Only the type and message, masked: a traceback could show locals holding secret values.
        # The whole story (masked too) goes to a crash report.
        from app.crashreport import write_report
        from app.mcp.masking import mask_known

        logger.debug("command failed", exc_info=True)
        print(
            f"mcp-desk: internal error: {type(exc).__name__}: {_one_line(mask_known(str(exc)))}",
            file=sys.stderr,
        )
        path = write_report(type(exc), exc, exc.__traceback__, f"mcp-desk {getattr(args, 'command', '')}")
        if path is not None:
            print(f"mcp-desk: a report is in {path}", file=sys.stderr)
        return EXIT_FAILURE


if __name__ == "__main__":
    sys.exit(main())
