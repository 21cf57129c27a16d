"""`mcp-desk bundles show|install|list|uninstall`: server packages (.mcpb, .dxt) from a terminal.

`install FILE` asks the package's questions on a terminal (keys without echo) unless given with
`--set KEY=VALUE`; without a terminal a missing required value is exit 2. Installing a package
whose name is installed already updates that server, keeping its values and keys. The server then
goes through the trust gate like any other: asked y/N on a terminal, or `--trust`; otherwise it is
installed but not allowed to run (exit 5).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.cli.main import EXIT_USAGE, CommandError, add_group
from app.mcp.visible import visible, visible_line

if TYPE_CHECKING:
    from app.bundles.archive import Bundle
    from app.install.plan import Answer, InstallPlan


def register(subparsers: Any) -> None:
    sub = add_group(
        subparsers, "bundles", help="install server packages (.mcpb, .dxt)", dest="bundles_command"
    )

    p = sub.add_parser("show", help="what a package holds and needs (nothing is installed)")
    p.add_argument("file", metavar="FILE")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("install", help="install (or update) a server from a package")
    p.add_argument("file", metavar="FILE")
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="answer a question of the package (a key's value is better typed when asked)",
    )
    p.add_argument("--name", help="the server's name (default: the package's name)")
    p.add_argument("--trust", action="store_true", help="allow the package's program to run without asking")
    p.set_defaults(func=cmd_install)

    p = sub.add_parser("list", help="servers installed from packages")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("uninstall", help="remove a server installed from a package: entry, keys and files")
    p.add_argument("name", metavar="NAME", help="the server's name or the package's name")
    p.set_defaults(func=cmd_uninstall)


def _read(path: str) -> Bundle:
    from app.bundles.archive import BundleError, read_bundle

    try:
        return read_bundle(Path(path))
    except BundleError as exc:
        raise CommandError(str(exc)) from None


def _summary(bundle: Bundle, plan: InstallPlan) -> list[str]:
    m = bundle.manifest
    lines = [f"{visible_line(m.title)} {visible_line(m.version)} by {visible_line(m.author)}"]
    if m.description:
        lines.append(visible(m.description))
    if m.repository or m.homepage:
        lines.append(f"Website: {visible_line(m.homepage or m.repository or '')}")
    lines += [visible_line(n) for n in plan.notes]
    if plan.questions:
        lines.append("It asks for:")
        for q in plan.questions:
            bits: list[str] = [q.kind]
            if q.required:
                bits.append("required")
            if q.secret:
                bits.append("a key, kept in your computer's keychain")
            if q.default is not None and not q.secret:
                bits.append(f"default {visible_line(q.default)}")
            lines.append(f"  {q.key}: {visible_line(q.label)} ({', '.join(bits)})")
    return lines


def _plan(bundle: Bundle) -> InstallPlan:
    from app.bundles import compat
    from app.bundles.installed import plan_for

    kind = compat.runtime_kind(bundle.manifest)
    runtime = compat.find_runtime(kind) if kind else None
    return plan_for(bundle, compat=compat.check(bundle.manifest, runtime=runtime))


def cmd_show(args: argparse.Namespace) -> int:
    bundle = _read(args.file)
    for line in _summary(bundle, _plan(bundle)):
        print(line)
    return 0


def _ask(plan: InstallPlan, given: dict[str, Answer], skip: set[str]) -> dict[str, Answer]:
    """Ask on a terminal for every question not given or kept from the installed version (the
    same asking as `mcp-desk install`); without a terminal, a missing required value is exit 2."""
    from app.cli.install import ask_on_terminal, on_terminal
    from app.install.answers import answer_problem, default_answer

    answers = dict(given)
    terminal = on_terminal()
    for q in plan.questions:
        if q.key in answers or q.key in skip:
            continue
        if terminal:
            answers[q.key] = ask_on_terminal(q, sys.stderr)
        elif answer_problem(q, default_answer(q)) is not None:
            raise CommandError(
                f"{q.key} ({visible_line(q.label)}) is required: give it with --set {q.key}=VALUE",
                EXIT_USAGE,
            )
    for q in plan.questions:  # defaults of several values arrive as one joined text
        if q.key not in answers and q.default is not None:
            answers[q.key] = default_answer(q)
    return answers


def cmd_install(args: argparse.Namespace) -> int:
    from app.bundles import installed
    from app.bundles.archive import BundleError
    from app.cli.approval import ensure_approved
    from app.cli.install import answers_from_sets, set_pairs
    from app.config.store import ConfigStore
    from app.install.plan import MissingAnswer
    from app.secrets.profile import folder_secrets

    bundle = _read(args.file)
    plan = _plan(bundle)
    for line in _summary(bundle, plan):
        print(line, file=sys.stderr)
    store = ConfigStore()
    store.load()
    secrets = folder_secrets(store)
    given = answers_from_sets(plan, set_pairs(args.set))
    existing = installed.find(store, bundle.manifest.name)
    try:
        if existing is not None:
            _new_plan, kept = installed.plan_update(store, existing, bundle)
            answers = _ask(plan, given, set(kept))
            if any(q.secret and q.key in answers for q in plan.questions):
                secrets.check_available()
            result = installed.update(store, secrets, existing, bundle, answers=answers)
            name = result.server
            print(
                f"updated {name!r} from {result.old_version} to {result.new_version}; your values were kept"
            )
        else:
            answers = _ask(plan, given, set())
            if any(q.secret and q.key in answers for q in plan.questions):
                secrets.check_available()  # before a key is asked for that could not be kept
            name = installed.install(store, secrets, bundle, answers, name=args.name)
            print(
                f"installed {name!r} ({bundle.manifest.version}) in {installed.folder_for(bundle.manifest)}"
            )
    except MissingAnswer as exc:
        raise CommandError(f"{exc.question.key}: {exc}", EXIT_USAGE) from None
    except BundleError as exc:
        raise CommandError(str(exc)) from None
    store.load()
    ensure_approved(store, name, trust=args.trust)
    return 0


def _resolve(store: Any, name: str) -> str:
    from app.bundles import installed

    if name in store and installed.record_of(store, name) is not None:
        return name
    found = installed.find(store, name)
    if found is not None:
        return found.server
    if name in store:
        raise CommandError(
            f"{name!r} was not installed from a package; remove it with `mcp-desk servers remove`"
        )
    raise CommandError(f"no server or package named {name!r}")


def cmd_list(args: argparse.Namespace) -> int:
    from app.bundles import installed
    from app.config.store import ConfigStore

    store = ConfigStore()
    store.load()
    for rec in installed.installed(store):
        print(
            f"{visible_line(rec.server)}\t{visible_line(rec.name)}\t{visible_line(rec.version)}\t{rec.folder}"
        )
    return 0


def cmd_uninstall(args: argparse.Namespace) -> int:
    from app.bundles import installed
    from app.config.store import ConfigStore
    from app.secrets.profile import folder_secrets

    store = ConfigStore()
    store.load()
    server = _resolve(store, args.name)
    rec = installed.uninstall(store, folder_secrets(store), server)
    where = f"; its files in {rec.folder} were deleted" if rec is not None else ""
    print(f"removed {server!r} and its keys{where}")
    return 0
