"""The `mcp-desk` entry point: no subcommand starts the GUI, a subcommand runs the CLI.

The CLI path must never import Qt (it is used headless and in scripts), so the GUI package
is imported only when the arguments ask for the window.
"""

from __future__ import annotations

import sys

# Options that belong to the GUI; anything else that is not a global option is a CLI subcommand.
GUI_FLAGS = ("--smoke-test", "--screenshot")
GLOBAL_OPTIONS_WITH_VALUE = ("--config-dir",)


def wants_gui(argv: list[str]) -> bool:
    """True when argv holds no CLI subcommand (only global options and GUI flags)."""
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in GLOBAL_OPTIONS_WITH_VALUE or arg == "--screenshot":
            i += 2
            continue
        if arg.startswith(("--config-dir=", "--screenshot=")) or arg in GUI_FLAGS:
            i += 1
            continue
        if _opens_in_window(arg):  # an install link or a server package: the window opens it
            i += 1
            continue
        return False
    return True


def _opens_in_window(arg: str) -> bool:
    if ":" not in arg and not arg.lower().endswith((".mcpb", ".dxt")):
        return False  # a subcommand's name: nothing more is imported on the CLI's path
    from app.config.links import is_open_argument

    return is_open_argument(arg)


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    # Orphans of the servers we start (a helper's double fork) become our children, not init's,
    # so stopping a server still finds them (app.mcp.proctree). Cheap: one prctl, no psutil yet.
    from app.mcp.proctree import enable_subreaper

    enable_subreaper()
    if wants_gui(args):
        from app.ui.main import run_gui

        return run_gui(args)
    from app.cli.main import main as cli_main

    code = cli_main(args)
    if argv is None:  # the program itself (a caller that passes argv gets the code back)
        exit_after_the_engine(code)
    return code


def exit_after_the_engine(code: int) -> None:
    """End a CLI command that ran the engine without the interpreter's teardown: by then its
    answer is printed and its servers are stopped, and freeing the SDK's many thousands of
    objects one by one (~15 ms) changes nothing. As at a normal exit, the threads still running
    are waited for (an idle AnyIO worker that is ending) and the exit handlers run; the output is
    flushed. When a flush fails (a closed pipe) this returns and the interpreter exits as always,
    reporting what it reports."""
    import threading

    if "app.mcp.connection" not in sys.modules:
        return
    for thread in threading.enumerate():
        if thread is not threading.main_thread() and not thread.daemon:
            thread.join()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    import atexit
    import os

    atexit._run_exitfuncs()  # logging.shutdown and the like, as at a normal exit
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    os._exit(code)


if __name__ == "__main__":
    sys.exit(main())
