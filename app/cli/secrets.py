"""`mcp-desk secrets list|set|delete`: names only on screen; values come from stdin, never argv."""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import Any

from app.cli.main import add_group


def register(subparsers: Any) -> None:
    sub = add_group(
        subparsers,
        "secrets",
        help="manage the secrets servers use (kept in the OS keyring)",
        dest="secrets_command",
    )

    p = sub.add_parser("list", help="list secret names (never values)")
    p.add_argument("server", nargs="?", metavar="SERVER")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("set", help="store a secret; the value is read from stdin (or asked for)")
    p.add_argument("server", metavar="SERVER")
    p.add_argument("name", metavar="NAME")
    p.set_defaults(func=cmd_set)

    p = sub.add_parser("delete", help="remove a secret from the keyring")
    p.add_argument("server", metavar="SERVER")
    p.add_argument("name", metavar="NAME")
    p.set_defaults(func=cmd_delete)


def read_secret(prompt: str) -> str:
    """A secret from the terminal (not echoed) or, when piped, one line of stdin."""
    if sys.stdin.isatty():
        return getpass.getpass(prompt)
    line = sys.stdin.readline()
    return line.rstrip("\r\n")


def cmd_list(args: argparse.Namespace) -> int:
    from app.config.store import ConfigStore
    from app.secrets.profile import folder_secrets

    store = ConfigStore()
    store.load()
    secrets = folder_secrets(store)
    if args.server is not None:
        entry = store.get(args.server)
        stored = secrets.names(args.server)
        for name in sorted(set(stored) | entry.secret_refs()):
            note = "" if name in stored else "  (referenced, not set)"
            print(f"{name}{note}")
        return 0
    index = secrets.all_names()
    for server in store.names():
        entry = store.get(server)
        stored = index.get(server, [])
        for name in sorted(set(stored) | entry.secret_refs()):
            note = "" if name in stored else "  (referenced, not set)"
            print(f"{server}/{name}{note}")
    for server in sorted(set(index) - set(store.names())):
        for name in index[server]:
            print(f"{server}/{name}  (no such server)")
    return 0


def cmd_set(args: argparse.Namespace) -> int:
    from app.cli.main import CommandError
    from app.config.refs import is_valid_secret_name
    from app.config.store import ConfigStore
    from app.secrets.profile import folder_secrets

    if not is_valid_secret_name(args.name):
        raise CommandError(f"invalid secret name {args.name!r} (letters, digits, '_', '-', '.')", 2)
    store = ConfigStore()
    store.load()
    entry = store.get(args.server)
    secrets = folder_secrets(store)
    secrets.check_available()  # before asking for a value we could not keep
    value = read_secret(f"{args.name} for {args.server}: ")
    if not value:
        raise CommandError("no value given (nothing read from stdin)")
    secrets.set(args.server, args.name, value)
    if args.name not in entry.secret_refs():
        print(
            f"note: server {args.server!r} does not reference ${{secret:{args.name}}} in its env or headers",
            file=sys.stderr,
        )
    print(f"stored secret {args.name!r} of {args.server!r} in the keyring")
    return 0


def cmd_delete(args: argparse.Namespace) -> int:
    from app.cli.main import CommandError
    from app.config.store import ConfigStore
    from app.secrets.profile import folder_secrets

    store = ConfigStore()
    store.load()
    # A server removed from the list may still have keys in this folder's entries: no get() here.
    if not folder_secrets(store).delete(args.server, args.name):
        raise CommandError(f"server {args.server!r} has no secret {args.name!r}")
    print(f"deleted secret {args.name!r} of {args.server!r}")
    return 0
