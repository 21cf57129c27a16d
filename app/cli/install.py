"""`mcp-desk install LINK [--set KEY=VALUE]... [--name NAME] [--trust]`, and `run_plan`, the terminal's
side of every install plan (links here; registry entries and bundles call it from their commands).

`run_plan` takes the answers given with `--set`, asks the rest on a terminal (a key with getpass,
never echoed; the default and what the example said shown), and without a terminal stops with
exit 2 naming every required value still missing, before anything is written. Then the keys go to
the keyring, the entry to servers.json, and the trust gate is passed as `servers`/`remote` do
it (app/cli/approval.py): `--trust` approves, a terminal asks y/N, otherwise the server is added
but not allowed to run yet (exit 5, said so).
"""

from __future__ import annotations

import argparse
import contextlib
import getpass
import sys
from collections.abc import Callable, Mapping
from typing import IO, TYPE_CHECKING

from app.cli.main import EXIT_USAGE, CommandError

if TYPE_CHECKING:
    from app.config.store import ConfigStore
    from app.install.plan import Answer, InstallPlan, Question
    from app.secrets.store import SecretStore

EXIT_NOT_APPROVED = 5
TRIES = 3
"""A terminal answer that does not do is asked again this many times, then the command stops."""
SETTINGS_NOT_FROM_PLANS = frozenset({"approved_launch", "trusted_tools"})


def on_terminal() -> bool:
    """Both stdin and stderr are a terminal: questions can be asked and seen."""
    try:
        return sys.stdin.isatty() and sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def _prompt_text(q: Question) -> str:
    from app.mcp.visible import visible_line

    parts = [visible_line(q.label)]
    if q.kind == "choice" and q.choices:
        parts.append("(" + " / ".join(visible_line(c) for c in q.choices) + ")")
    if q.kind == "boolean":
        parts.append("[y/n]")
    if q.multiple:
        parts.append("(several: separate with ':')")
    if q.default is not None and not q.secret:
        parts.append(f"[{visible_line(q.default)}]")
    if not q.required:
        parts.append("(optional)")
    return " ".join(parts) + ": "


def ask_on_terminal(
    q: Question,
    out: IO[str],
    *,
    read_line: Callable[[str], str] | None = None,
    read_secret: Callable[[str], str] | None = None,
) -> Answer:
    """Ask one question on the terminal until it is answered as it must be (or TRIES times)."""
    from app.install.answers import answer_problem, default_answer, is_unset, parse_answer
    from app.mcp.visible import visible, visible_line

    def line(prompt: str) -> str:
        out.write(prompt)
        out.flush()
        return sys.stdin.readline().rstrip("\n")

    read_line = read_line or line
    read_secret = read_secret or getpass.getpass  # the prompt and the typing go to the terminal
    if q.description:
        out.write(visible(q.description[:2000]) + "\n")
    if q.placeholder:
        out.write(f"  (the example said {visible_line(q.placeholder)[:200]})\n")
    for _ in range(TRIES):
        text = (read_secret if q.secret else read_line)(_prompt_text(q))
        try:
            value = parse_answer(q, text)
        except ValueError as exc:
            out.write(f"  {exc}\n")
            continue
        if is_unset(value):
            value = default_answer(q)
        problem = answer_problem(q, value)
        if problem is None:
            return value
        out.write(f"  {problem}\n")
    raise CommandError(f"{q.label}: no usable answer", EXIT_USAGE)


def answers_from_sets(plan: InstallPlan, answers: Mapping[str, str]) -> dict[str, Answer]:
    """`--set KEY=VALUE` answers read as their questions' kinds; exit 2 for an unknown key or a
    value that does not do."""
    from app.install.answers import answer_problem, parse_answer

    known = {q.key: q for q in plan.questions}
    out: dict[str, Answer] = {}
    for key, text in answers.items():
        q = known.get(key)
        if q is None:
            offered = ", ".join(known) or "none"
            raise CommandError(
                f"--set {key}: this server asks no such value (it asks: {offered})", EXIT_USAGE
            )
        try:
            value = parse_answer(q, text)
        except ValueError as exc:
            raise CommandError(f"--set {key}: {exc}", EXIT_USAGE) from None
        problem = answer_problem(q, value)
        if problem is not None:
            raise CommandError(f"--set {key}: {problem}", EXIT_USAGE)
        out[key] = value
    return out


def run_plan(
    plan: InstallPlan,
    store: ConfigStore,
    secrets: SecretStore,
    *,
    answers: dict[str, str],
    trust: bool,
    out: IO[str],
    name: str | None = None,
    interactive: bool | None = None,
) -> int:
    """Add the server of `plan` (answers from `answers`, the rest asked on a terminal); returns
    the exit code. `out` gets the questions and what happened (stderr for the command)."""
    from app.cli.approval import describe
    from app.config.store import ServerExistsError, name_problem
    from app.config.trust import Launch, TrustRequest, approve, find_risks, needs_approval
    from app.install.answers import answer_problem, default_answer
    from app.install.plan import apply
    from app.mcp.visible import visible, visible_line

    terminal = on_terminal() if interactive is None else interactive
    wanted = name or plan.name.strip() or "server"
    problem = name_problem(wanted)
    if problem is not None:
        raise CommandError(f"{wanted!r} cannot name a server: {problem}", EXIT_USAGE)
    if name is not None and name in store:
        raise ServerExistsError(store.path, f"a server named {name!r} already exists")
    server = name or store.unique_name(wanted)

    given = answers_from_sets(plan, answers)
    for note in plan.notes:
        out.write(f"note: {visible(note)}\n")
    missing = [
        q for q in plan.questions if q.key not in given and answer_problem(q, default_answer(q)) is not None
    ]
    if missing and not terminal:
        names = ", ".join(
            f"{q.key} ({visible_line(q.label)})" if q.label != q.key else q.key for q in missing
        )
        raise CommandError(
            f"{server}: required value(s) missing: {names}; give them with --set KEY=VALUE "
            "or run the command on a terminal to be asked",
            EXIT_USAGE,
        )
    if terminal:
        for q in plan.questions:
            if q.key not in given:
                given[q.key] = ask_on_terminal(q, out)
    applied = apply(plan, given)
    entry = applied.entry
    entry.name = server
    if applied.secrets:
        secrets.check_available()  # before anything is written: a key must have somewhere to go

    stored: list[str] = []
    added = False
    try:
        for key, value in applied.secrets.items():
            secrets.set(server, key, value)
            stored.append(key)
        store.add(entry)
        added = True
        settings = store.settings(server)
        for key, value in plan.settings.items():
            if key in SETTINGS_NOT_FROM_PLANS:
                continue
            if key in ("timeout", "protocol_mode", "roots", "order", "oauth"):
                setattr(settings, key, value)
            else:
                settings.extra[key] = value
        store.save()
    except BaseException:
        if added:
            with contextlib.suppress(Exception):
                store.remove(server)
        for key in stored:
            with contextlib.suppress(Exception):  # best effort; report the first error
                secrets.delete(server, key)
        raise
    keys = f" ({len(stored)} key(s) in the keyring: {', '.join(stored)})" if stored else ""
    out.write(f"added {server!r}{keys}\n")

    settings = store.settings(server)
    if not needs_approval(entry, settings):
        return 0
    if not trust:
        if not terminal:
            out.write(
                f"{server}: added, but not allowed to run yet: it runs a program on this computer. "
                "Add --trust to allow it, or you will be asked when it first starts.\n"
            )
            return EXIT_NOT_APPROVED
        launch = Launch.of(entry)
        assert launch is not None
        for line in describe(TrustRequest(server, launch, tuple(find_risks(launch)))):
            out.write(line + "\n")
        out.write("Allow this program to run? [y/N] ")
        out.flush()
        if sys.stdin.readline().strip().lower() not in ("y", "yes"):
            out.write(f"{server}: added, not allowed to run; you will be asked when it first starts.\n")
            return EXIT_NOT_APPROVED
    approve(entry, settings)
    store.save()
    out.write(f"{server}: allowed to run\n")
    return 0


# -- the command ---------------------------------------------------------------------------


def set_pairs(values: list[str] | None) -> dict[str, str]:
    """The `--set KEY=VALUE` options as a mapping (exit 2 for one without `=`)."""
    out: dict[str, str] = {}
    for item in values or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise CommandError(f"--set {item!r}: write it KEY=VALUE", EXIT_USAGE)
        out[key] = value
    return out


def cmd_install(args: argparse.Namespace) -> int:
    from app.config.links import LinkError, parse_link
    from app.config.store import ConfigStore
    from app.secrets.profile import folder_secrets

    try:
        plan = parse_link(args.link)
    except LinkError as exc:
        raise CommandError(f"not an install link MCP Desk can use: {exc}", EXIT_USAGE) from None
    store = ConfigStore()
    store.load()
    secrets = folder_secrets(store)
    return run_plan(
        plan, store, secrets, answers=set_pairs(args.set), trust=args.trust, out=sys.stderr, name=args.name
    )


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "install",
        help="add a server from an install link (mcp-desk://, cursor://, vscode:, lmstudio://)",
        description="Add the server an install link describes. Values it needs are asked on a "
        "terminal (keys without echo) or given with --set; keys go to the keyring.",
    )
    p.add_argument("link", metavar="LINK", help="the install link (quote it in the shell)")
    p.add_argument("--set", action="append", metavar="KEY=VALUE", help="answer a value the server asks for")
    p.add_argument("--name", help="the server's name (default: the link's, made unique)")
    p.add_argument(
        "--trust", action="store_true", help="allow the program it runs on this computer without asking"
    )
    p.set_defaults(func=cmd_install)
