"""Make MCP Desk crash while a secret is in the air, the two ways a crash is reported.

    python -m tests.leaks.crash_driver cli SERVER    # `mcp-desk tools SERVER`, with a bug in it
    python -m tests.leaks.crash_driver hook SERVER   # an exception nobody catches

The "bug" puts the server's resolved env, headers, arguments and URL into an exception message,
as a careless `raise ValueError(f"... {target.env}")` would: the report and stderr must mask them.
Runs with the test's file keyring (tests/leaks/file_keyring.py) and config/data folders.
"""

from __future__ import annotations

import sys
from typing import Any


def buggy(target: Any) -> None:
    raise RuntimeError(
        f"a bug while starting {target.name}: env={dict(target.env)} headers={dict(target.headers)} "
        f"args={list(target.args)} url={target.url}"
    )


def main() -> int:
    mode, server = sys.argv[1], sys.argv[2]
    if mode == "cli":
        from app.cli import remote
        from app.cli.main import main as cli_main

        def cmd_tools(args: Any) -> int:
            buggy(remote.resolve_target(args))
            return 0

        remote.cmd_tools = cmd_tools  # type: ignore[assignment]
        return cli_main(["-v", "tools", server])
    from app.cli.main import build_parser
    from app.cli.remote import resolve_target
    from app.crashreport import install

    install()
    buggy(resolve_target(build_parser().parse_args(["tools", server])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
