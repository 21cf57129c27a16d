"""`mcp-desk tools|call|resources|read|prompts|prompt|ping TARGET`: the engine, headless.

TARGET is a configured server NAME, or an ad-hoc server: `--stdio "COMMAND ARGS"` or `--url URL`.
`-e KEY=VALUE` and `--secret-env KEY` give a --stdio server its environment (as the Inspector's
`-e`; a secret's value comes from mcp-desk's own environment or is asked without echo, never from
argv). `--json` prints machine-readable output. Exit 0 ok, 1 failure (one line on stderr), 3 when
the tool answered with `isError: true`, 4 when the server needs you to sign in (`mcp-desk auth
login SERVER`), 5 when a configured local server was not allowed to run (`app.cli.approval`: asked
on a terminal, refused without one unless `--trust`), 6 when the tool's structuredContent does not
match its outputSchema (the result is printed all the same).

Startup time matters for scripts: this module imports only the standard library at import time;
the engine (and with it the SDK, about half a second) is imported inside the command that runs.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import sys
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from app.cli.main import (
    EXIT_OK,
    EXIT_SCHEMA_MISMATCH,
    EXIT_SIGN_IN,
    EXIT_TOOL_ERROR,
    EXIT_USAGE,
    CommandError,
)
from app.mcp.visible import visible, visible_json, visible_line

if TYPE_CHECKING:
    from app.mcp.connection import ServerConnection
    from app.mcp.events import CatalogKind
    from app.mcp.target import Target

T = TypeVar("T")

CONNECT_GRACE = 5.0
"""Seconds allowed to settle beyond the target's own timeout (which bounds the handshake)."""


def safe(text: str) -> str:
    """Server-supplied text as plain text: control characters (ESC and with it ANSI escapes, BEL...)
    must not drive the terminal, and bidi and invisible characters must not disguise a name; all
    are shown as ⟨U+XXXX⟩ (`app.mcp.visible`)."""
    return visible(text)


# --------------------------------------------------------------------------------- arguments


def add_target_arguments(parser: argparse.ArgumentParser) -> None:
    """The ad-hoc target options and the output options every command here shares."""
    group = parser.add_argument_group("ad-hoc server (instead of a configured SERVER)")
    group.add_argument(
        "--stdio",
        metavar='"COMMAND ARGS"',
        help="start this command and speak MCP on its stdio (your own command: it runs without asking)",
    )
    group.add_argument(
        "--url", metavar="URL", help="a Streamable HTTP server (an URL ending in /sse: legacy SSE)"
    )
    group.add_argument(
        "--transport", choices=("http", "sse"), help="the transport of --url (default: guessed)"
    )
    group.add_argument(
        "-e",
        "--env",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an environment variable for the --stdio command (repeatable)",
    )
    group.add_argument(
        "--secret-env",
        action="append",
        default=[],
        metavar="KEY",
        help="an environment variable for the --stdio command whose value is a key: taken from "
        "this environment's KEY, else asked without echo (never typed on the command line)",
    )
    parser.add_argument("--mode", metavar="MODE", help="protocol mode: auto (default), legacy, or a version")
    parser.add_argument(
        "--timeout", type=float, metavar="S", help="seconds to wait (connecting, and each request)"
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument(
        "--trust",
        action="store_true",
        help="allow a configured SERVER's program to run on this computer, and remember it "
        "(otherwise it is asked on a terminal, and refused without one: exit 5)",
    )


def _positional_server(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("server", nargs="?", metavar="SERVER", help="a configured server's name")


def _call_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("tool", metavar="TOOL")
    args_group = p.add_mutually_exclusive_group()
    args_group.add_argument("--args", metavar="JSON", help="the arguments, a JSON object")
    args_group.add_argument("--args-file", metavar="FILE", type=Path, help="read the arguments from FILE")
    p.add_argument(
        "--accept-defaults",
        action="store_true",
        help="when the server asks for input, accept its default values (otherwise decline)",
    )


def _read_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("uri", metavar="URI")


def _prompt_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("name", metavar="NAME")
    p.add_argument("--args", metavar="JSON", help="the prompt's arguments, a JSON object of strings")


def _add_command(
    subparsers: Any,
    name: str,
    func: Callable[[argparse.Namespace], int],
    own_arguments: Callable[[argparse.ArgumentParser], None] | None = None,
    **parser_options: Any,
) -> None:
    """One command on a server: SERVER, then its own arguments, then the shared target options."""
    p = subparsers.add_parser(name, **parser_options)
    _positional_server(p)
    if own_arguments is not None:
        own_arguments(p)
    add_target_arguments(p)
    p.set_defaults(func=func)


def register(subparsers: Any) -> None:
    _add_command(subparsers, "tools", cmd_tools, help="list a server's tools")
    _add_command(
        subparsers,
        "call",
        cmd_call,
        _call_arguments,
        help="call a tool",
        description="Call TOOL on SERVER (or on --stdio/--url). SERVER/TOOL also works. "
        "Exit 3 when the tool answers with an error, 6 when its structured result does not match "
        "its output schema.",
    )
    _add_command(
        subparsers, "resources", cmd_resources, help="list a server's resources and resource templates"
    )
    _add_command(subparsers, "read", cmd_read, _read_arguments, help="read a resource")
    _add_command(subparsers, "prompts", cmd_prompts, help="list a server's prompts")
    _add_command(subparsers, "prompt", cmd_prompt, _prompt_arguments, help="get a prompt")
    _add_command(subparsers, "ping", cmd_ping, help="check that a server answers")


# ----------------------------------------------------------------------------------- targets


def resolve_target(args: argparse.Namespace) -> Target:
    """The Target the arguments name: a configured server, or --stdio / --url."""
    adhoc = args.stdio is not None or args.url is not None
    if adhoc and args.server is not None:
        raise CommandError("give a SERVER name or --stdio/--url, not both", EXIT_USAGE)
    if args.stdio is not None and args.url is not None:
        raise CommandError("give --stdio or --url, not both", EXIT_USAGE)
    if args.transport is not None and args.url is None:
        raise CommandError("--transport goes with --url", EXIT_USAGE)
    if (args.env or args.secret_env) and args.stdio is None:
        raise CommandError(
            "-e/--env and --secret-env go with --stdio (a configured server's environment is "
            "changed with `mcp-desk servers add`)",
            EXIT_USAGE,
        )
    if adhoc:
        from app.mcp.target import target_from_command_line

        extra: dict[str, Any] = {}
        if args.stdio is not None:
            env, secret_values = adhoc_environment(args.env, args.secret_env)
            extra.update(env=env, secret_values=secret_values)
        if args.mode:
            extra["mode"] = args.mode
        if args.timeout is not None:
            extra["timeout"] = args.timeout
        try:
            return target_from_command_line(args.stdio, args.url, transport=args.transport, **extra)
        except ValueError as exc:
            raise CommandError(str(exc), EXIT_USAGE) from exc
    if args.server is None:
        raise CommandError("name a configured SERVER, or give --stdio or --url", EXIT_USAGE)
    return configured_target(
        args.server, mode=args.mode, timeout=args.timeout, trust=getattr(args, "trust", False)
    )


def adhoc_environment(pairs: list[str], secret_names: list[str]) -> tuple[dict[str, str], frozenset[str]]:
    """The environment `-e KEY=VALUE` and `--secret-env KEY` give an ad-hoc --stdio server, and the
    values to mask in everything shown (every --secret-env value, and a -e value that looks like
    a key by its name, as `servers add` would have kept it in the keyring)."""
    from app.secrets.detect import is_secret_env

    env: dict[str, str] = {}
    secret_values: set[str] = set()
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not key or not sep:
            raise CommandError(f"-e expects KEY=VALUE, got {pair!r}", EXIT_USAGE)
        env[key] = value
        if is_secret_env(key, value):
            secret_values.add(value)
    for key in secret_names:
        if not key or "=" in key:
            # A value typed here would be in the shell's history and in `ps` for everyone to see.
            raise CommandError(
                "--secret-env takes a KEY only: its value is read from this environment or asked "
                "for, never typed on the command line (-e KEY=VALUE is for values that are not secret)",
                EXIT_USAGE,
            )
        value = secret_env_value(key)
        env[key] = value
        if value:
            secret_values.add(value)
    return env, frozenset(secret_values)


def secret_env_value(key: str) -> str:
    """--secret-env KEY: this process's own KEY if set, else asked on the terminal without echo;
    with neither, a usage error that says how to give it."""
    import os

    if key in os.environ:
        return os.environ[key]
    if not _can_ask():
        raise CommandError(
            f"--secret-env {key}: {key} is not set in this environment and there is no terminal "
            f"to ask on; set {key} in the environment of mcp-desk",
            EXIT_USAGE,
        )
    import getpass

    # getpass writes the question to the terminal itself and does not echo what is typed.
    return getpass.getpass(f"{key} (a key, not shown as you type): ")


def _can_ask() -> bool:
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):  # closed or replaced stdin
        return False


def configured_target(
    name: str, *, mode: str | None = None, timeout: float | None = None, trust: bool = False
) -> Target:
    """The target of a configured server; a local one only once it is allowed to run."""
    from app.cli.approval import ensure_approved
    from app.config.store import ConfigStore
    from app.mcp.target import target_from_config
    from app.secrets.profile import folder_secrets

    store = ConfigStore()
    store.load()
    entry = store.get(name)  # ConfigError "no server named ..." is reported by the CLI root
    ensure_approved(store, name, trust=trust)  # before any key is read from the keyring
    try:
        target = target_from_config(entry, store.settings(name), folder_secrets(store))
    except ValueError as exc:
        raise CommandError(f"{name}: {exc}") from exc
    changes: dict[str, Any] = {}
    if mode:
        changes["mode"] = mode
    if timeout is not None:
        changes["timeout"] = timeout
    return dataclasses.replace(target, **changes) if changes else target


def split_qualified(args: argparse.Namespace) -> None:
    """`call SERVER/TOOL` is the same as `call SERVER TOOL` (the qualified name used everywhere)."""
    if args.server is None and args.stdio is None and args.url is None and "/" in args.tool:
        args.server, args.tool = args.tool.split("/", 1)


# -------------------------------------------------------------------------------- connection


def run_on_server(
    target: Target,
    action: Callable[[ServerConnection], Awaitable[T]],
    present: Callable[[T], int],
    *,
    accept_defaults: bool = False,
    lists: Iterable[CatalogKind] | None = None,
) -> int:
    """Connect, run `action` on the ready connection, `present` its result, then disconnect (no
    child left behind). The answer is printed before disconnecting: a server may take a while to
    exit once its stdin is closed, and the person (or script) should not wait for that. `lists`:
    the catalog kinds `action` needs listed first (every one the server offers by default)."""

    async def main() -> int:
        from app.mcp.process import quick_stop

        quick_stop()  # the answer is printed before the stop: a shorter wait for an idle server
        early = await _start_early(target)
        try:
            return await connected()
        finally:
            if early is not None:  # a server no connection took over (it failed before) is stopped
                import anyio

                from app.mcp.process import discard_early

                with anyio.CancelScope(shield=True):
                    await discard_early(early)

    async def connected() -> int:
        import_engine(http=target.transport != "stdio")
        from app.cli.auth import needs_sign_in_message, stored_sign_in
        from app.mcp.connection import ServerConnection
        from app.mcp.events import CATALOG_KINDS, ConnectionState
        from app.mcp.handlers import HeadlessHandlers
        from app.mcp.results import CallFailed

        sink = progress_sink()
        conn = ServerConnection(
            target,
            handlers=HeadlessHandlers(accept_defaults),
            traffic=False,
            sink=sink,
            secrets=stored_sign_in(target),
            lists=CATALOG_KINDS if lists is None else lists,
        )
        conn.start()
        try:
            state = await conn.wait_settled(target.timeout + CONNECT_GRACE)
            if state == ConnectionState.NEEDS_SIGN_IN:
                if target.name == target.url:  # an ad-hoc --url has no sign-in of its own
                    raise CommandError(
                        f"{safe(target.name)} needs you to sign in: add it with `mcp-desk servers add NAME "
                        "--url URL`, then run `mcp-desk auth login NAME`",
                        EXIT_SIGN_IN,
                    )
                raise CommandError(needs_sign_in_message(target.name), EXIT_SIGN_IN)
            if state != ConnectionState.READY:
                reason = conn.reason or f"did not connect within {target.timeout:g} s"
                raise CommandError(f"{target.name}: {safe(reason)}")  # the reason quotes its stderr
            try:
                result = await action(conn)
            except CallFailed as exc:
                raise CommandError(f"{target.name}: {safe(str(exc))}") from exc
            if sink is not None:
                print("\r\x1b[K", end="", file=sys.stderr)  # clear the progress line
            code = present(result)
            sys.stdout.flush()
            sys.stderr.flush()
            return code
        finally:
            await conn.stop()

    return asyncio.run(main())


def import_engine(*, http: bool = True) -> None:
    """Import the engine and the MCP SDK for a command (every CLI command that connects calls this
    first): the SDK without its server package (app.mcp.sdk_client_only: a command never serves;
    without `http`, a command on a stdio server, without its HTTP client either until something
    uses it), and with the cyclic garbage collector paused, then what they made frozen. The SDK builds
    thousands of pydantic classes, and the collections they set off while importing (~50 ms) and
    the interpreter's last ones at exit (~120 ms) would walk every one of them, though none is ever
    garbage. What a command creates later is collected as always."""
    import gc

    if "app.mcp.connection" in sys.modules or not gc.isenabled():
        return
    gc.disable()
    try:
        from app.mcp.sdk_client_only import import_client_only

        import_client_only(http=http)
        import app.cli.auth
        import app.mcp.connection
        import app.mcp.handlers  # noqa: F401
    finally:
        gc.freeze()
        gc.enable()


async def _start_early(target: Target) -> Any:
    """A local server's process, started before the engine (and the MCP SDK, ~0.8 s) is imported,
    so that the server starts up meanwhile; its stdio transport takes it over
    (app.mcp.process.start_early). None for a remote server or when it cannot start here."""
    if target.transport != "stdio" or not target.command:
        return None
    from app.mcp.process import server_environment, start_early

    # The same command, environment (secrets only in it, never in argv) and cwd as
    # app.mcp.transports.open_stdio gives the transport: anything else is not taken over.
    return await start_early(target.command, target.args, server_environment(target.env), target.cwd)


def progress_sink() -> Callable[[Any], None] | None:
    """On a terminal, show a tool's progress notifications on stderr (scripts see nothing)."""
    if not sys.stderr.isatty():
        return None
    from app.mcp.events import Progress
    from app.mcp.tasks import status_line
    from app.mcp.tasks_events import TaskUpdate

    def show(event: Any) -> None:
        if isinstance(event, Progress):
            total = f"/{event.total:g}" if event.total is not None else ""
            message = f" {safe(event.message)}" if event.message else ""
            print(f"\r\x1b[Kprogress {event.progress:g}{total}{message}", end="", file=sys.stderr, flush=True)
        elif isinstance(event, TaskUpdate) and not event.finished:  # a tool run as a task: its status
            print(f"\r\x1b[K{safe(status_line(event))}", end="", file=sys.stderr, flush=True)

    return show


def _json_object(text: str, what: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise CommandError(f"{what} is not valid JSON: {exc}", EXIT_USAGE) from exc
    if not isinstance(value, dict):
        raise CommandError(f"{what} must be a JSON object", EXIT_USAGE)
    return value


def print_json(value: Any) -> None:
    """JSON as the server sent it; invisible characters written as JSON escapes (same value)."""
    print(visible_json(value, indent=2))


def first_line(text: str | None) -> str:
    return safe((text or "").strip().split("\n", 1)[0])


# ---------------------------------------------------------------------------------- commands


def with_description(head: str, description: str | None) -> str:
    """`head — the description's first line`, or `head` alone when there is none."""
    described = first_line(description)
    return head + (f" — {described}" if described else "")


def _list_entries(args: argparse.Namespace, kind: CatalogKind, line: Callable[[Any], str]) -> int:
    """A listing command: the `kind` entries' wire dicts with --json, else one `line(entry)` each
    (only that kind is listed)."""
    target = resolve_target(args)

    async def action(conn: ServerConnection) -> list[Any]:
        return list(conn.catalog.of(kind).values())

    def present(found: list[Any]) -> int:
        if args.json:
            print_json([entry.raw for entry in found])
            return EXIT_OK
        for entry in found:
            print(visible_line(line(entry)))  # one line per entry, even if a name holds a newline
        return EXIT_OK

    return run_on_server(target, action, present, lists=(kind,))


def _tool_line(tool: Any) -> str:
    title = f" ({safe(tool.title)})" if tool.title and tool.title != tool.name else ""
    return with_description(f"{safe(tool.name)}{title}", tool.description)


def cmd_tools(args: argparse.Namespace) -> int:
    return _list_entries(args, "tools", _tool_line)


def cmd_call(args: argparse.Namespace) -> int:
    split_qualified(args)
    if args.args_file is not None:
        try:
            arguments = _json_object(args.args_file.read_text(encoding="utf-8"), str(args.args_file))
        except OSError as exc:
            raise CommandError(f"cannot read {args.args_file}: {exc.strerror or exc}") from exc
    else:
        arguments = _json_object(args.args, "--args") if args.args is not None else {}
    target = resolve_target(args)

    async def action(conn: ServerConnection) -> Any:
        return await conn.call_tool(args.tool, arguments, timeout=args.timeout)

    def present(result: Any) -> int:
        if args.json:
            print_json(result.raw)
        else:
            print_content(result.content)
            if result.structured_content is not None and not any(
                b.get("type") == "text" for b in result.content
            ):
                print_json(result.structured_content)
        if result.is_error:
            print(f"mcp-desk: {args.tool} answered with an error", file=sys.stderr)
            return EXIT_TOOL_ERROR
        if result.structured_valid is False:
            problem = safe(str(result.structured_error))  # the validator quotes the server's values
            print(
                f"mcp-desk: {args.tool}'s structured result does not match its output schema: {problem}",
                file=sys.stderr,
            )
            return EXIT_SCHEMA_MISMATCH
        return EXIT_OK

    # Only the tools are listed first: the call needs its tool (task support, output schema), and
    # waiting for the server's resources and prompts would only delay the answer.
    return run_on_server(target, action, present, accept_defaults=args.accept_defaults, lists=("tools",))


def print_content(blocks: list[dict[str, Any]]) -> None:
    """Content blocks for a person: text as text, anything else as a one-line summary."""
    for block in blocks:
        kind = block.get("type")
        if kind == "text":
            print(safe(str(block.get("text", ""))))
        elif kind in ("image", "audio"):
            size = len(str(block.get("data", ""))) * 3 // 4
            print(f"[{kind}: {safe(str(block.get('mimeType', '?')))}, about {size:,} bytes]")
        elif kind == "resource_link":
            name = f" {safe(str(block['name']))}" if block.get("name") else ""
            print(f"[link: {safe(str(block.get('uri', '')))}{name}]")
        elif kind == "resource":
            print_resource_contents([block.get("resource") or {}])
        else:
            print(f"[{safe(str(kind))} block]")


def print_resource_contents(contents: list[dict[str, Any]]) -> None:
    for item in contents:
        if "text" in item:
            print(safe(str(item["text"])))
        else:
            size = len(str(item.get("blob", ""))) * 3 // 4
            uri, mime = safe(str(item.get("uri", ""))), safe(str(item.get("mimeType", "binary")))
            print(f"[{uri}: {mime}, about {size:,} bytes]")


def cmd_resources(args: argparse.Namespace) -> int:
    target = resolve_target(args)

    async def action(conn: ServerConnection) -> tuple[list[Any], list[Any]]:
        return list(conn.catalog.resources.values()), list(conn.catalog.resource_templates.values())

    def present(found: tuple[list[Any], list[Any]]) -> int:
        resources, templates = found
        if args.json:
            print_json(
                {"resources": [r.raw for r in resources], "resourceTemplates": [t.raw for t in templates]}
            )
            return EXIT_OK
        for res in resources:
            print(with_description(f"{safe(res.uri)}  {safe(res.name)}", res.raw.get("description")))
        for tpl in templates:
            uri, name = safe(str(tpl.raw.get("uriTemplate", ""))), safe(str(tpl.raw.get("name", "")))
            print(with_description(f"{uri}  {name} (template)", tpl.raw.get("description")))
        return EXIT_OK

    return run_on_server(target, action, present, lists=("resources", "resource_templates"))


def cmd_read(args: argparse.Namespace) -> int:
    target = resolve_target(args)

    async def action(conn: ServerConnection) -> dict[str, Any]:
        return await conn.read_resource(args.uri)

    def present(result: dict[str, Any]) -> int:
        if args.json:
            print_json(result)
        else:
            print_resource_contents(list(result.get("contents") or []))
        return EXIT_OK

    return run_on_server(target, action, present, lists=())  # nothing listed first


def _prompt_line(prompt: Any) -> str:
    names = [
        safe(str(a.get("name", ""))) + ("*" if a.get("required") else "")
        for a in prompt.raw.get("arguments") or []
    ]
    line = safe(str(prompt.raw.get("name", "")))
    if names:
        line += f" ({', '.join(names)})"
    return with_description(line, prompt.raw.get("description"))


def cmd_prompts(args: argparse.Namespace) -> int:
    return _list_entries(args, "prompts", _prompt_line)


def cmd_prompt(args: argparse.Namespace) -> int:
    arguments = _json_object(args.args, "--args") if args.args is not None else None
    if arguments is not None:
        arguments = {k: v if isinstance(v, str) else json.dumps(v) for k, v in arguments.items()}
    target = resolve_target(args)

    async def action(conn: ServerConnection) -> dict[str, Any]:
        return await conn.get_prompt(args.name, arguments)

    def present(result: dict[str, Any]) -> int:
        if args.json:
            print_json(result)
            return EXIT_OK
        for message in result.get("messages") or []:
            print(f"{safe(str(message.get('role', '?')))}:")
            print_content([message.get("content") or {}])
        return EXIT_OK

    return run_on_server(target, action, present, lists=())  # nothing listed first


def cmd_ping(args: argparse.Namespace) -> int:
    target = resolve_target(args)

    async def action(conn: ServerConnection) -> float:
        return await conn.ping()

    def present(seconds: float) -> int:
        if args.json:
            print_json({"ok": True, "ms": round(seconds * 1000, 3)})
        else:
            print(f"ok: {target.name} answered in {seconds * 1000:.1f} ms")
        return EXIT_OK

    return run_on_server(target, action, present, lists=())  # nothing listed first
