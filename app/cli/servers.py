"""`mcp-desk servers list|add|remove|rename|import|export`.

Secret values are never printed (except by `export --include-secrets`, which the user asks for)
and should not be typed on the command line: `--secret-env NAME` without `=VALUE` asks for it.

`import -` reads a README snippet of any client's shape from stdin (app.config.snippets), and
`add NAME -- CMD ARG...` takes a whole command line. Example values in either (`YOUR_API_KEY`,
`/path/to/dir`) are asked for on a terminal (keys without echo, app.cli.install.ask_on_terminal)
or given with `--set KEY=VALUE`; without a terminal a missing one stops the command (exit 2)
before anything is written.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.cli.main import add_group

if TYPE_CHECKING:
    from app.config.importing import ImportInput, ImportResult
    from app.config.model import ServerEntry
    from app.install.plan import Answer, Question

USAGE = 2


def register(subparsers: Any) -> None:
    sub = add_group(
        subparsers,
        "servers",
        help="list, add, remove, rename, import and export servers",
        dest="servers_command",
    )

    p = sub.add_parser("list", help="list configured servers")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser(
        "add",
        help="add a server",
        description="Add a stdio server (--command, or the whole command line after --: "
        "`servers add memory -- npx -y @modelcontextprotocol/server-memory`) or a remote one (--url). "
        "With --command, arguments that start with '-' are written --arg=-y. Example values such as "
        "YOUR_API_KEY or /path/to/dir are asked for (or given with --set KEY=VALUE). Env names that "
        "look secret (TOKEN, KEY, SECRET, PASSWORD, PAT, "
        "CREDENTIAL), the Authorization header, values of secret flags (--api-key X, --token=X), known "
        "token shapes (ghp_..., sk-...) and secret URL parameters (?token=, ?api_key=) go to the "
        "keyring unless --no-detect-secrets.",
    )
    p.__class__ = _CommandLineParser  # everything after `--` is the command line
    p.add_argument("name", metavar="NAME")
    target = p.add_mutually_exclusive_group()
    target.add_argument("--command", metavar="CMD", help="program to start (stdio server)")
    target.add_argument("--url", metavar="URL", help="address of a remote server")
    p.add_argument("--arg", action=_OrderedArg, default=[], metavar="A", help="argument (repeatable)")
    p.add_argument(
        "--secret-arg",
        action=_OrderedArg,
        nargs="?",
        default=[],
        metavar="A",
        help="secret argument, kept in the keyring and passed at start (without =A it is asked for); "
        "an environment variable is safer where the server reads one: other local users can read "
        "a program's arguments",
    )
    p.add_argument("--cwd", metavar="DIR", help="working directory of the server")
    p.add_argument("--type", choices=("http", "sse"), help="remote transport (default http)")
    p.add_argument("--env", action="append", default=[], metavar="K=V", help="environment variable")
    p.add_argument(
        "--secret-env",
        action="append",
        default=[],
        metavar="K[=V]",
        help="secret environment variable, kept in the keyring (without =V the value is asked for)",
    )
    p.add_argument("--header", action="append", default=[], metavar="K=V", help="HTTP header")
    p.add_argument("--secret-header", action="append", default=[], metavar="K[=V]", help="secret HTTP header")
    p.add_argument("--no-detect-secrets", action="store_true", help="keep only the marked values as secrets")
    _set_option(p)
    p.set_defaults(func=cmd_add)

    p = sub.add_parser("remove", help="remove a server and its secrets")
    p.add_argument("name", metavar="NAME")
    p.set_defaults(func=cmd_remove)

    p = sub.add_parser("rename", help="rename a server (its secrets move with it)")
    p.add_argument("old", metavar="OLD")
    p.add_argument("new", metavar="NEW")
    p.set_defaults(func=cmd_rename)

    p = sub.add_parser(
        "import",
        help="import servers from Claude Desktop, Cursor, VS Code or Inspector, or a README snippet",
        description="Import the servers of FILE: a Claude Desktop, Cursor, VS Code or Inspector "
        "config file, or a config snippet from a server's README in any client's shape (`-` reads it "
        "from stdin). Example values in a snippet (YOUR_API_KEY, /path/to/dir) are asked for, or "
        "given with --set KEY=VALUE.",
    )
    p.add_argument("file", metavar="FILE", help="the file, or - for stdin")
    p.add_argument("--format", choices=("auto", "claude", "cursor", "vscode", "inspector"), default="auto")
    p.add_argument(
        "--no-detect-secrets",
        action="store_true",
        help="move only VS Code password inputs to the keychain; other values stay as written (in clear)",
    )
    _set_option(p)
    p.set_defaults(func=cmd_import)

    p = sub.add_parser("export", help="export servers for Claude Desktop/Cursor or VS Code")
    p.add_argument("--format", choices=("claude", "vscode"), default="claude")
    p.add_argument("-o", "--output", metavar="FILE", type=Path, help="write to FILE (mode 0600)")
    p.add_argument(
        "--include-secrets",
        action="store_true",
        help="Claude format only: write secret values instead of ${secret:NAME} references",
    )
    p.set_defaults(func=cmd_export)


# -- helpers -------------------------------------------------------------------------------


class _CommandLineParser(argparse.ArgumentParser):
    """`servers add NAME [options] -- CMD ARG...`: the words after `--` are the server's command
    line, kept whole (argparse alone would give them to no positional once NAME is taken, and
    `-y` among them is not an option of ours)."""

    def parse_known_args(  # type: ignore[override]
        self, args: list[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        words = list(sys.argv[1:] if args is None else args)
        tail: list[str] = []
        if "--" in words:
            cut = words.index("--")
            words, tail = words[:cut], words[cut + 1 :]
        parsed, extras = super().parse_known_args(words, namespace)
        parsed.command_line = tail
        return parsed, extras


def _set_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="the value for an example value of the snippet or command (the key it is asked as)",
    )


class _OrderedArg(argparse.Action):
    """`--arg` and `--secret-arg` fill one list of (value, secret?) in the order given (a secret's
    place among the arguments matters); `--secret-arg` without a value has None, to be asked."""

    def __call__(self, parser: Any, namespace: argparse.Namespace, values: Any, option: Any = None) -> None:
        # New lists each time: the parser's default list is shared between parses.
        setattr(namespace, self.dest, [*(getattr(namespace, self.dest, None) or []), values])
        ordered = getattr(namespace, "ordered_args", None) or []
        namespace.ordered_args = [*ordered, (values, self.dest == "secret_arg")]


def _usage(message: str) -> Exception:
    from app.cli.main import CommandError

    return CommandError(message, USAGE)


def _pairs(values: list[str], option: str, *, value_optional: bool = False) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for item in values:
        key, sep, value = item.partition("=")
        if not key or (not sep and not value_optional):
            raise _usage(f"{option} expects K=V, got {item!r}")
        out[key] = value if sep else None
    return out


def _asked(values: dict[str, str | None], what: str, server: str) -> dict[str, str]:
    from app.cli.secrets import read_secret

    out: dict[str, str] = {}
    for key, value in values.items():
        if value is None:
            value = read_secret(f"{what} {key} for {server}: ")
            if not value:
                raise _usage(f"no value given for {what} {key}")
        out[key] = value
    return out


def _ordered_args(ordered: list[tuple[str | None, bool]], server: str) -> tuple[list[str], set[int]]:
    """The arguments in order (secret ones without a value asked for) and the secret positions."""
    from app.cli.secrets import read_secret

    values: list[str] = []
    marked: set[int] = set()
    for value, secret in ordered:
        if secret:
            if value is None:
                value = read_secret(f"secret argument {len(values) + 1} for {server}: ")
                if not value:
                    raise _usage("no value given for --secret-arg")
            marked.add(len(values))
        values.append(value or "")
    return values, marked


def _load() -> Any:
    from app.config.store import ConfigStore

    store = ConfigStore()
    store.load()
    return store


def _target(entry: ServerEntry) -> str:
    # A secret written in clear into the file by hand is not printed (references are).
    from app.secrets.detect import redact_args, redact_url

    if entry.transport == "stdio":
        return " ".join([entry.command or "", *redact_args(entry.args)]).strip()
    return redact_url(entry.url or "")


# -- commands ------------------------------------------------------------------------------


def cmd_list(args: argparse.Namespace) -> int:
    store = _load()
    entries: list[ServerEntry] = store.entries
    # Entries whose names cannot be used (`a/b`, `../x`) stay in the file but are not listed.
    for warning in store.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if args.json:
        from app.secrets.detect import redact_args, redact_url

        rows = [
            {
                "name": e.name,
                "transport": e.transport,
                "command": e.command,
                "args": redact_args(e.args),
                "cwd": e.cwd,
                "url": redact_url(e.url) if e.url is not None else None,
                "env": e.env,
                "headers": e.headers,
                "disabled": e.disabled,
                "problem": e.problem,
                "secrets": sorted(e.secret_refs()),
            }
            for e in entries
        ]
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return 0
    if not entries:
        print("no servers configured")
        return 0
    width = max(len(e.name) for e in entries)
    for e in entries:
        flags = []
        if e.disabled:
            flags.append("disabled")
        if e.problem:
            flags.append(f"problem: {e.problem}")
        suffix = f"  [{'; '.join(flags)}]" if flags else ""
        print(f"{e.name:<{width}}  {e.transport:<5}  {_target(e)}{suffix}")
    return 0


def cmd_add(args: argparse.Namespace) -> int:
    from app.config.model import ServerEntry
    from app.secrets.profile import folder_secrets
    from app.secrets.resolve import extract_secrets

    if args.command_line:
        if args.command is not None or args.url is not None:
            raise _usage("give the command after --, or --command/--url, not both")
        args.command = args.command_line[0]
        rest = [(a, False) for a in args.command_line[1:]]
        args.ordered_args = [*rest, *(getattr(args, "ordered_args", None) or [])]
        args.arg = [*args.command_line[1:], *args.arg]
    elif args.command is None and args.url is None:
        raise _usage("give the command after -- (servers add NAME -- npx -y PACKAGE), --command or --url")
    if args.command is not None and (args.type is not None):
        raise _usage("--type applies to --url servers only")
    if args.url is not None and (args.arg or args.secret_arg or args.cwd):
        raise _usage("--arg, --secret-arg and --cwd apply to --command servers only")
    env = {k: v or "" for k, v in _pairs(args.env, "--env").items()}
    headers = {k: v or "" for k, v in _pairs(args.header, "--header").items()}
    if args.command is not None and (headers or args.secret_header):
        raise _usage("--header applies to --url servers only")
    secret_env_raw = _pairs(args.secret_env, "--secret-env", value_optional=True)
    secret_header_raw = _pairs(args.secret_header, "--secret-header", value_optional=True)
    ordered: list[tuple[str | None, bool]] = getattr(args, "ordered_args", None) or []
    typed = [v for v, secret in ordered if secret and v is not None]
    if typed or any(v is not None for v in [*secret_env_raw.values(), *secret_header_raw.values()]):
        print(
            "note: a secret typed on the command line can stay in your shell history; "
            "give only the name (--secret-env NAME) to be asked for the value",
            file=sys.stderr,
        )

    store = _load()
    if args.name in store:
        from app.config.store import ServerExistsError

        raise ServerExistsError(store.path, f"a server named {args.name!r} already exists")
    secrets = folder_secrets(store)
    if secret_env_raw or secret_header_raw or args.secret_arg:
        secrets.check_available()  # before asking for values we could not keep
    arg_values, secret_args = _ordered_args(ordered, args.name)
    entry = ServerEntry(
        name=args.name,
        transport="stdio" if args.command is not None else (args.type or "http"),
        command=args.command,
        args=arg_values,
        env=env,
        cwd=args.cwd,
        url=args.url,
        headers=headers,
    )
    asked = _fill_examples(entry, _sets(args.set))
    arg_values = list(entry.args)
    values = extract_secrets(
        entry,
        secret_env=_asked(secret_env_raw, "env", args.name),
        secret_headers=_asked(secret_header_raw, "header", args.name),
        secret_args=secret_args,
        detect=not args.no_detect_secrets,
    )
    if not args.no_detect_secrets and any(a != b for a, b in zip(arg_values, entry.args, strict=True)):
        print(
            "note: an --arg looked secret and goes to the keyring; it may still be in your shell "
            "history (--secret-arg without a value asks for it instead)",
            file=sys.stderr,
        )
    values = {**asked, **values}
    store.add(entry)
    stored: list[str] = []
    try:
        if values:
            secrets.check_available()
        for name, value in values.items():
            secrets.set(entry.name, name, value)
            stored.append(name)
        store.save()
    except BaseException:
        for name in stored:
            with contextlib.suppress(Exception):  # best effort; report the first error
                secrets.delete(entry.name, name)
        raise
    note = f" ({len(stored)} secret(s) in the keyring: {', '.join(stored)})" if stored else ""
    print(f"added {entry.name!r}{note}")
    return 0


@contextlib.contextmanager
def _keyring_optional(entry: ServerEntry) -> Iterator[None]:
    """Run a keyring step that may be skipped without a keyring, unless `entry` uses secrets
    (they would be left behind where the user cannot see them)."""
    from app.secrets.errors import KeyringUnavailableError

    try:
        yield
    except KeyringUnavailableError:
        if entry.secret_refs():
            raise


def cmd_remove(args: argparse.Namespace) -> int:
    from app.secrets.profile import folder_secrets

    store = _load()
    secrets = folder_secrets(store)  # before the change: it may save the folder's new profile id
    entry = store.remove(args.name)
    removed: list[str] = []
    with _keyring_optional(entry):
        removed = secrets.delete_server(args.name)
    store.save()
    note = f" and {len(removed)} secret(s)" if removed else ""
    print(f"removed {args.name!r}{note}")
    return 0


def cmd_rename(args: argparse.Namespace) -> int:
    from app.secrets.profile import folder_secrets

    store = _load()
    secrets = folder_secrets(store)  # before the change: it may save the folder's new profile id
    entry = store.get(args.old)
    store.rename(args.old, args.new)
    moved = False
    with _keyring_optional(entry):
        if secrets.names(args.old):
            secrets.rename_server(args.old, args.new)
            moved = True
    try:
        store.save()
    except BaseException:
        if moved:
            secrets.rename_server(args.new, args.old)
        raise
    print(f"renamed {args.old!r} to {args.new!r}")
    return 0


def _ask(spec: ImportInput) -> str | None:
    from app.cli.secrets import read_secret

    label = spec.description or spec.id
    if spec.password:
        return read_secret(f"{label} (secret, {spec.id}): ") or None
    if sys.stdin.isatty():
        return input(f"{label} ({spec.id}): ") or None
    return sys.stdin.readline().rstrip("\r\n") or None


def cmd_import(args: argparse.Namespace) -> int:
    from app.config.importing import import_into
    from app.secrets.profile import folder_secrets
    from app.secrets.resolve import extract_secrets

    if args.file == "-":
        return _import_snippet(args, sys.stdin.read(), "stdin")
    path = Path(args.file)
    if args.format == "auto" and not _is_config_file(path):
        return _import_snippet(args, path.read_text(encoding="utf-8-sig"), str(path))
    if args.set:
        raise _usage("--set applies to README snippets (`-` or a file that is not a config file)")
    store = _load()
    result = import_into(
        store,
        folder_secrets(store),
        path,
        args.format,
        ask=_ask,
        extract=extract_secrets,
        detect_secrets=not args.no_detect_secrets,
    )
    return _report_import(result, str(path))


def _is_config_file(path: Path) -> bool:
    """A Claude Desktop / Cursor / VS Code / Inspector file (imported as it is), not a snippet."""
    from app.config.errors import ConfigError
    from app.config.importing import detect_format
    from app.config.jsonc import load_jsonc

    try:
        detect_format(load_jsonc(path), path)
    except (ConfigError, ValueError):
        return not path.exists()  # a missing file: let the importer say so
    return True


def _import_snippet(args: argparse.Namespace, text: str, source: str) -> int:
    """A README snippet: its example values asked for (or --set), then its servers added."""
    from app.config.importing import add_applied
    from app.config.snippets import SnippetError, read_snippet
    from app.install.plan import apply
    from app.secrets.profile import folder_secrets
    from app.secrets.resolve import extract_secrets

    try:
        found = read_snippet(text, extract=extract_secrets, detect_secrets=not args.no_detect_secrets)
    except SnippetError as exc:
        raise _usage(f"{source}: {exc}") from None
    given = _sets(args.set)
    asked = {q.key for plan in found.plans for q in plan.questions}
    unknown = sorted(set(given) - asked)
    if unknown:
        offered = ", ".join(sorted(asked)) or "none"
        raise _usage(f"--set {unknown[0]}: the snippet asks no such value (it asks: {offered})")
    answers = [_answers(plan.name, plan.questions, given) for plan in found.plans]
    store = _load()
    applied = [(p.title or p.name, apply(p, a)) for p, a in zip(found.plans, answers, strict=True)]
    result = add_applied(store, folder_secrets(store), applied)
    result.warnings = found.warnings
    return _report_import(result, f"{source} ({found.shape} snippet)")


def _sets(values: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in values or []:
        key, sep, value = item.partition("=")
        if not key or not sep:
            raise _usage(f"--set expects KEY=VALUE, got {item!r}")
        out[key] = value
    return out


def _on_terminal() -> bool:
    try:
        return sys.stdin.isatty() and sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def _answers(server: str, questions: list[Question], given: dict[str, str]) -> dict[str, Answer]:
    """Answers to `questions`: from --set, else asked on a terminal; without one, exit 2 naming
    every value still missing (before anything is written)."""
    from app.install.answers import answer_problem, parse_answer

    out: dict[str, Answer] = {}
    missing: list[Question] = []
    for q in questions:
        if q.key in given:
            try:
                value = parse_answer(q, given[q.key])
            except ValueError as exc:
                raise _usage(f"--set {q.key}: {exc}") from None
            problem = answer_problem(q, value)
            if problem is not None:
                raise _usage(f"--set {q.key}: {problem}")
            out[q.key] = value
        elif q.required and q.default is None:
            missing.append(q)
    if missing and not _on_terminal():
        names = ", ".join(
            f"{q.key} (the example said {q.placeholder!r})" if q.placeholder else q.key for q in missing
        )
        raise _usage(
            f"{server}: value(s) needed: {names}; give them with --set KEY=VALUE or run the command "
            "on a terminal to be asked"
        )
    if missing:
        from app.cli.install import ask_on_terminal

        print(f"{server} needs your own values in place of the examples of the snippet:", file=sys.stderr)
        for q in missing:
            out[q.key] = ask_on_terminal(q, sys.stderr)
    return out


def _fill_examples(entry: ServerEntry, given: dict[str, str]) -> dict[str, str]:
    """Replace example values in a typed command (`/path/to/dir`) by the real ones; returns the
    secret answers by keyring name (the entry gets references to them)."""
    from app.config.placeholders import make_holes
    from app.install.plan import InstallPlan, apply

    questions = make_holes(entry)
    unknown = sorted(set(given) - {q.key for q in questions})
    if unknown:
        offered = ", ".join(q.key for q in questions) or "none"
        raise _usage(f"--set {unknown[0]}: this server asks no such value (it asks: {offered})")
    if not questions:
        return {}
    applied = apply(InstallPlan(entry.name, entry, questions), _answers(entry.name, questions, given))
    entry.command, entry.args = applied.entry.command, applied.entry.args
    entry.env, entry.headers, entry.url, entry.cwd = (
        applied.entry.env,
        applied.entry.headers,
        applied.entry.url,
        applied.entry.cwd,
    )
    return applied.secrets


def _report_import(result: ImportResult, source: str) -> int:
    for warning in result.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if not result.servers and not result.skipped:
        print(f"no servers found in {source} ({result.format} format)")
        return 0
    names = [new if old == new else f"{new} (was {old})" for old, new in result.added]
    what = source if source.endswith(" snippet)") else f"{result.format} file"
    print(f"imported {len(names)} server(s) from {what}: {', '.join(names) or '(none)'}")
    if result.secret_names:
        refs = ", ".join(f"{s}/{n}" for s, n in result.secret_names)
        print(f"secrets stored in the keyring: {refs}")
    if not result.skipped:
        return 0
    print(f"skipped {len(result.skipped)} server(s):", file=sys.stderr)
    for skipped in result.skipped:
        print(f"  {skipped.original_name}: {skipped.reason}", file=sys.stderr)
    if any(s.needs_keychain for s in result.skipped):
        from app.secrets.backend import HELP_DOC

        print(
            f"to import them: set up the keychain ({HELP_DOC}) and import them again, or add them with "
            "`mcp-desk servers add`; --no-detect-secrets keeps env/header values as written in the file "
            "(in clear in servers.json; VS Code password inputs still need the keychain)",
            file=sys.stderr,
        )
    return 1


def cmd_export(args: argparse.Namespace) -> int:
    from app.config.atomic import atomic_write
    from app.config.exporting import export_claude, export_vscode
    from app.secrets.profile import folder_secrets

    if args.include_secrets and args.format != "claude":
        raise _usage("--include-secrets applies to --format claude only (VS Code asks for them)")
    store = _load()
    if args.format == "vscode":
        data, warnings = export_vscode(store)
    else:
        reveal = folder_secrets(store).get if args.include_secrets else None
        data, warnings = export_claude(store, reveal)
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if args.output is None:
        sys.stdout.write(text)
    else:
        atomic_write(args.output, text.encode("utf-8"), backup=False)
        print(f"wrote {len(data.get('mcpServers') or data.get('servers') or {})} server(s) to {args.output}")
    return 0
