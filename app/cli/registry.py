"""`mcp-desk registry search|show|add|url`: the server directory (MCP Registry) from a terminal.

    mcp-desk registry search TEXT [--json] [--limit N] [--all]
    mcp-desk registry show NAME [--json]
    mcp-desk registry add NAME [--set KEY=VALUE]... [--name NAME] [--use N] [--trust]
    mcp-desk registry url [URL | --reset]

`--registry URL` (on each) browses another directory than the one in settings.json (`app.registryUrl`,
the official registry by default). Adding goes through `app.cli.install.run_plan`, as install links
do: values given with `--set`, the rest asked on a terminal (keys without echo), exit 2 when a
required one is missing without a terminal, and the trust gate (`--trust`, a terminal's y/N, or exit
5: added but not allowed to run yet). Exit 1 with one line when the directory cannot be reached and
nothing was cached; a cached list shown offline says so on stderr.

Nothing here imports the MCP SDK; the registry client is imported inside the commands.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from typing import TYPE_CHECKING, Any

from app.cli.main import EXIT_OK, EXIT_USAGE, CommandError, add_group
from app.mcp.visible import visible, visible_line

if TYPE_CHECKING:
    from app.config.store import ConfigStore
    from app.registry.client import Page, RegistryClient
    from app.registry.model import RegistryServer


def _store() -> ConfigStore:
    from app.config.store import ConfigStore

    store = ConfigStore()
    store.load()
    return store


def _client(args: argparse.Namespace, store: ConfigStore | None = None) -> RegistryClient:
    from app.registry.client import RegistryClient
    from app.registry.settings import BadRegistryUrl, registry_url

    url = args.registry or registry_url(store if store is not None else _store())
    try:
        return RegistryClient(url)
    except BadRegistryUrl as exc:
        raise CommandError(str(exc), EXIT_USAGE) from None


def _run(client: RegistryClient, coro: Any) -> Any:
    from app.registry.client import RegistryError

    async def go() -> Any:
        try:
            return await coro
        finally:
            await client.aclose()

    try:
        return asyncio.run(go())
    except RegistryError as exc:
        raise CommandError(str(exc)) from None


def _when(ts: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(ts)) if ts else "?"


def _kind(server: RegistryServer) -> str:
    return "runs on the internet" if server.remotes else "runs on this computer"


def _as_json(server: RegistryServer) -> dict[str, Any]:
    from app.registry.convert import ways

    return {
        "name": server.name,
        "title": server.display_title,
        "description": server.description,
        "version": server.version,
        "status": server.status,
        "statusMessage": server.status_message,
        "repository": server.repository_url,
        "website": server.website_url,
        "kind": "remote" if server.remotes else "local",
        "ways": [
            {"kind": w.kind, "label": w.label, "available": w.available, "problem": w.problem}
            for w in ways(server)
        ],
    }


def cmd_search(args: argparse.Namespace) -> int:
    client = _client(args)

    async def pages() -> list[Page]:
        out = [await client.search(args.text, limit=args.limit, refresh=args.refresh)]
        while args.all and out[-1].next_cursor and len(out) < 100:
            nxt = out[-1].next_cursor
            out.append(await client.search(args.text, cursor=nxt, limit=args.limit, refresh=args.refresh))
        return out

    found: list[Page] = _run(client, pages())
    servers = [s for page in found for s in page.servers]
    offline = next((p for p in found if p.offline), None)
    if offline is not None:
        print(f"offline: showing the list from {_when(offline.fetched_at)}", file=sys.stderr)
    if args.json:
        print(json.dumps([_as_json(s) for s in servers], indent=2, ensure_ascii=False))
        return EXIT_OK
    for s in servers:
        status = "  [deprecated]" if s.status == "deprecated" else ""
        version = f" {visible_line(s.version)}" if s.version else ""
        print(f"{visible_line(s.name)}{version}  ({_kind(s)}){status}")
        if s.short_description:
            print(f"    {visible_line(s.short_description)}")
    if not servers:
        print("no servers found", file=sys.stderr)
    elif found[-1].next_cursor and not args.all:
        print("more servers match: add --all to list them all", file=sys.stderr)
    return EXIT_OK


def cmd_show(args: argparse.Namespace) -> int:
    from app.registry.client import status_note
    from app.registry.convert import ways

    client = _client(args)
    server: RegistryServer = _run(client, client.latest(args.name))
    if args.json:
        print(json.dumps(_as_json(server), indent=2, ensure_ascii=False))
        return EXIT_OK
    print(visible_line(server.display_title))
    print(f"  name: {visible_line(server.name)}")
    if server.version:
        print(f"  version: {visible_line(server.version)}")
    print(f"  {_kind(server)}")
    if server.description:
        print(f"  {visible(server.description)}")
    if server.repository_url:
        print(f"  source code: {visible_line(server.repository_url)}")
    if server.website_url:
        print(f"  website: {visible_line(server.website_url)}")
    note = status_note(server)
    if note:
        print(f"  note: {visible_line(note)}")
    print("  ways to run it (--use N):")
    for i, way in enumerate(ways(server), 1):
        extra = (
            f" — {way.problem}"
            if way.problem
            else ("" if way.available else " — needs a program not found here")
        )
        print(f"    {i}. {visible_line(way.label)}{extra}")
    return EXIT_OK


def cmd_add(args: argparse.Namespace) -> int:
    from app.cli.install import run_plan, set_pairs
    from app.registry.convert import CannotAdd, ways
    from app.registry.convert import to_plan as make_plan
    from app.secrets.profile import folder_secrets

    store = _store()
    client = _client(args, store)
    server: RegistryServer = _run(client, client.latest(args.name))
    found = ways(server)
    way = None
    if args.use is not None:
        if not 1 <= args.use <= len(found):
            raise CommandError(f"--use {args.use}: this entry has {len(found)} way(s) to run it", EXIT_USAGE)
        way = found[args.use - 1]
    try:
        plan = make_plan(server, way)
    except CannotAdd as exc:
        raise CommandError(f"{args.name}: {exc}") from None
    secrets = folder_secrets(store)
    return run_plan(
        plan,
        store,
        secrets,
        answers=set_pairs(args.set),
        trust=args.trust,
        out=sys.stderr,
        name=args.new_name,
    )


def cmd_url(args: argparse.Namespace) -> int:
    from app.registry.settings import BadRegistryUrl, registry_url, set_registry_url

    store = _store()
    if args.reset or args.url:
        try:
            set_registry_url(store, None if args.reset else args.url)
        except BadRegistryUrl as exc:
            raise CommandError(str(exc), EXIT_USAGE) from None
    print(registry_url(store))
    return EXIT_OK


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub = add_group(
        subparsers, "registry", help="browse the server directory (MCP Registry)", dest="registry_action"
    )

    def directory(p: argparse.ArgumentParser) -> None:
        p.add_argument("--registry", metavar="URL", help="another server directory (a sub-registry) to use")

    p = sub.add_parser("search", help="search the server directory by name or subject")
    p.add_argument("text", nargs="?", default="", metavar="TEXT")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--limit", type=int, default=30, help="servers per page (at most 100)")
    p.add_argument("--all", action="store_true", help="follow every page")
    p.add_argument("--refresh", action="store_true", help="ask the directory again (not its last answer)")
    directory(p)
    p.set_defaults(func=cmd_search)

    p = sub.add_parser("show", help="what the directory says of one server (NAME as in search)")
    p.add_argument("name", metavar="NAME")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    directory(p)
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("add", help="add a server from the directory to your list")
    p.add_argument("name", metavar="NAME", help="the directory's name, e.g. io.github.owner/repo")
    p.add_argument("--set", action="append", metavar="KEY=VALUE", help="answer a value the server asks for")
    p.add_argument("--name", dest="new_name", help="the server's name in your list (default: from NAME)")
    p.add_argument("--use", type=int, metavar="N", help="run it the N-th way `registry show` lists")
    p.add_argument(
        "--trust", action="store_true", help="allow the program it runs on this computer without asking"
    )
    directory(p)
    p.set_defaults(func=cmd_add)

    p = sub.add_parser("url", help="show or set which server directory is used")
    p.add_argument("url", nargs="?", metavar="URL")
    p.add_argument("--reset", action="store_true", help="use the official MCP Registry again")
    p.set_defaults(func=cmd_url)
