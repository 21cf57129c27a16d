"""The CLI's side of the trust gate: a configured local server runs only once it is approved.

On a terminal the person is shown what would run (the same command line, folder, environment
names and risks as the window's dialog) and asked y/N; without a terminal the command is refused
with its own exit code (`EXIT_NOT_APPROVED`) unless `--trust` is given. Both "y" and `--trust`
remember the approval in settings.json, as the window's Allow does. A `--stdio "CMD"` typed on the
command line is the person's own command and is never asked about.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from app.cli.main import CommandError
from app.mcp.visible import visible, visible_line

if TYPE_CHECKING:
    from app.config.store import ConfigStore
    from app.config.trust import TrustRequest

EXIT_NOT_APPROVED = 5
MASK = "••••"


def describe(request: TrustRequest) -> list[str]:
    """The lines shown before the question (no secret values: references stay references)."""
    from app.secrets.detect import redact_args

    launch = request.launch
    lines = [
        f"The server {visible_line(request.server)!r} runs a program on this computer, as you.",
        "It will run:",
        "  " + visible(launch.command_line(lambda args: redact_args(args, MASK))),
    ]
    program = launch.program()
    if program is None:
        lines.append(f"Program: {visible_line(launch.command)} is not found on this computer yet.")
    elif program != launch.command:
        lines.append(f"Program: {visible_line(program)}")
    lines.append(f"Working folder: {visible_line(launch.cwd) if launch.cwd else 'not set (this folder)'}")
    names = [
        f"{n} (a key from your computer's keychain)" if n in launch.secret_env else n
        for n in launch.env_names
    ]
    lines.append(f"Environment variables: {visible_line(', '.join(names)) if names else 'none'}")
    if request.risks:
        lines.append("Look carefully before you allow it:")
        lines += [f"  - {visible_line(r.message)}" for r in request.risks]
    else:
        lines.append(
            "Nothing unusual was found in this command. Allow it only if you trust where it came from."
        )
    return lines


def _on_terminal() -> bool:
    try:
        return sys.stdin.isatty() and sys.stderr.isatty()
    except (AttributeError, ValueError):  # closed or replaced streams
        return False


def ensure_approved(store: ConfigStore, name: str, *, trust: bool = False) -> None:
    """Return when `name` may run; ask on a terminal; otherwise raise `CommandError` (exit 4)."""
    from app.config.trust import Launch, TrustRequest, approve, find_risks, needs_approval

    entry = store.get(name)
    settings = store.settings(name)
    if not needs_approval(entry, settings):
        return
    if not trust:
        if not _on_terminal():
            raise CommandError(
                f"{name}: this server runs a program on this computer that you have not allowed yet, "
                "so nothing was started; run the command on a terminal to be asked, or add --trust "
                "to allow it (see `mcp-desk servers list` for what it runs)",
                EXIT_NOT_APPROVED,
            )
        launch = Launch.of(entry)
        assert launch is not None
        for line in describe(TrustRequest(name, launch, tuple(find_risks(launch)))):
            print(line, file=sys.stderr)
        print("Allow this program to run? [y/N] ", end="", file=sys.stderr, flush=True)
        answer = sys.stdin.readline().strip().lower()
        if answer not in ("y", "yes"):
            raise CommandError(f"{name}: not allowed to run; nothing was started", EXIT_NOT_APPROVED)
    approve(entry, settings)
    store.save()
