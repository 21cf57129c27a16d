"""`mcp-desk complete TARGET (--prompt NAME | --resource TEMPLATE) ARGUMENT [VALUE]`: the values a
server suggests for a prompt argument or a resource template variable (completion/complete).

    mcp-desk complete demo --prompt travel city Par
    mcp-desk complete demo --resource 'weather://{country}/{city}' city Par --context country=FR

One suggestion a line (`--json`: `{"values": [...]}`), in the server's order; none is not a failure.
The prompt or template must be one the server lists, and the argument one it declares: a typo is
named with what exists instead of being sent (servers answer unknown names with an empty list).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from app.cli.main import EXIT_OK, EXIT_USAGE, CommandError
from app.cli.remote import add_target_arguments, print_json, resolve_target, run_on_server, safe
from app.mcp.visible import visible_line

if TYPE_CHECKING:
    from app.mcp.connection import ServerConnection
    from app.mcp.events import CatalogKind


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "complete",
        help="suggest values for a prompt argument or a resource template variable",
        description="Ask SERVER (or --stdio/--url) which values fit ARGUMENT of a prompt (--prompt) "
        "or a variable of a resource template (--resource), given what is typed so far (VALUE). "
        "One suggestion a line.",
    )
    # [SERVER] ARGUMENT [VALUE]: which words are which depends on --stdio/--url (split_words).
    p.add_argument(
        "words",
        nargs="+",
        metavar="[SERVER] ARGUMENT [VALUE]",
        help="a configured server's name (not with --stdio/--url), the prompt argument or template "
        "variable, and what is typed so far (default: '')",
    )
    ref = p.add_mutually_exclusive_group(required=True)
    ref.add_argument("--prompt", metavar="NAME", help="a prompt the server lists")
    ref.add_argument(
        "--resource", metavar="TEMPLATE", help="a resource template the server lists (its URI template)"
    )
    p.add_argument(
        "--context",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="the value of another argument already chosen (repeatable); servers narrow by it",
    )
    add_target_arguments(p)
    p.set_defaults(func=cmd_complete)


def split_words(args: argparse.Namespace) -> None:
    """`words` as `server`, `argument` and `value`: a SERVER comes first unless --stdio/--url name
    the server (argparse cannot tell an optional SERVER from ARGUMENT by position)."""
    words = list(args.words)
    adhoc = args.stdio is not None or args.url is not None
    args.server = None if adhoc else words.pop(0)
    if not words or len(words) > 2:
        usage = "ARGUMENT [VALUE]" if adhoc else "SERVER ARGUMENT [VALUE]"
        raise CommandError(f"expected {usage} (got {len(args.words)} words)", EXIT_USAGE)
    args.argument = words[0]
    args.value = words[1] if len(words) > 1 else ""


def context_arguments(items: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not name or not sep:
            raise CommandError(f"--context expects NAME=VALUE, got {item!r}", EXIT_USAGE)
        out[name] = value
    return out


def _names(found: list[str]) -> str:
    return ", ".join(safe(n) for n in found) if found else "none"


def completion_ref(conn: ServerConnection, args: argparse.Namespace) -> dict[str, Any]:
    """The `ref` of the request, after checking the prompt/template and the argument exist."""
    server = safe(conn.name)
    if "completions" not in conn.capabilities:
        raise CommandError(f"{server} does not offer completion (no `completions` capability)")
    if args.prompt is not None:
        prompt = conn.catalog.prompts.get(args.prompt)
        if prompt is None:
            raise CommandError(
                f"{server} has no prompt named {safe(args.prompt)!r} "
                f"(its prompts: {_names(sorted(conn.catalog.prompts))})"
            )
        declared = [str(a.get("name", "")) for a in prompt.arguments]
        if args.argument not in declared:
            raise CommandError(
                f"prompt {safe(args.prompt)!r} has no argument named {safe(args.argument)!r} "
                f"(its arguments: {_names(declared)})"
            )
        return {"type": "ref/prompt", "name": args.prompt}
    from mcp.shared.uri_template import InvalidUriTemplate, UriTemplate

    templates = {t.uri_template: t for t in conn.catalog.resource_templates.values()}
    if args.resource not in templates:
        raise CommandError(
            f"{server} has no resource template {safe(args.resource)!r} "
            f"(its templates: {_names(sorted(templates))})"
        )
    try:
        variables = UriTemplate.parse(args.resource).variable_names
    except InvalidUriTemplate as exc:
        raise CommandError(f"{server}'s template {safe(args.resource)!r} cannot be read: {exc}") from exc
    if args.argument not in variables:
        raise CommandError(
            f"template {safe(args.resource)!r} has no variable named {safe(args.argument)!r} "
            f"(its variables: {_names(list(variables))})"
        )
    return {"type": "ref/resource", "uri": args.resource}


def cmd_complete(args: argparse.Namespace) -> int:
    split_words(args)
    context = context_arguments(args.context)
    target = resolve_target(args)

    async def action(conn: ServerConnection) -> list[str]:
        ref = completion_ref(conn, args)
        return await conn.complete(ref, args.argument, args.value, context or None)

    def present(values: list[str]) -> int:
        if args.json:
            print_json({"values": values})
            return EXIT_OK
        for value in values:
            print(visible_line(str(value)))  # one line per value, even if a value holds a newline
        return EXIT_OK

    # Only what the ref is checked against is listed first.
    kind: CatalogKind = "prompts" if args.prompt is not None else "resource_templates"
    return run_on_server(target, action, present, lists=(kind,))
