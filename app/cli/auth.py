"""`mcp-desk auth login|logout|status`: sign in to a server that asks for it (OAuth), headless.

`login SERVER` prints the sign-in link, opens the system browser when there is a display
(DISPLAY/WAYLAND_DISPLAY on Linux; always on macOS and Windows) unless `--no-browser`, waits for
the browser to come back to MCP Desk's loopback listener, then says who is signed in and until when.
Ctrl+C cancels cleanly (exit 130). On a machine without a browser, open the printed link anywhere
that can reach this computer's 127.0.0.1 — or, like the tests, fetch it with any HTTP client.

The sign-in is the engine's (`ServerConnection.sign_in` with a `Browser`); tokens go to the config
folder's keyring entries (`app.secrets.profile.folder_secrets`), never to a file or the screen.
Only the standard library is imported at module level: `mcp-desk servers list` must start fast.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from app.cli.main import EXIT_OK, EXIT_SIGN_IN, CommandError, add_group
from app.mcp.visible import visible

if TYPE_CHECKING:
    from app.config.store import ConfigStore
    from app.mcp.auth import AuthStatus
    from app.mcp.target import Target
    from app.secrets.store import SecretStore

EXIT_CANCELLED = 130
LOGIN_TIMEOUT = 300.0
"""Seconds `login` waits for the person in the browser by default."""


def register(subparsers: Any) -> None:
    sub = add_group(
        subparsers,
        "auth",
        help="sign in to a server that asks for it, sign out, or show who is signed in",
        dest="auth_command",
    )

    p = sub.add_parser(
        "login",
        help="sign in to SERVER in your browser",
        description="Print the sign-in link for SERVER, open it in your browser (when there is a "
        "display) and wait until you have signed in. Ctrl+C cancels.",
    )
    p.add_argument("server", metavar="SERVER")
    p.add_argument("--no-browser", action="store_true", help="only print the link; do not open a browser")
    p.add_argument(
        "--timeout",
        type=float,
        default=LOGIN_TIMEOUT,
        metavar="S",
        help=f"seconds to wait for you to sign in (default {LOGIN_TIMEOUT:g})",
    )
    p.set_defaults(func=cmd_login)

    p = sub.add_parser("logout", help="sign out of SERVER (its tokens and registration are removed)")
    p.add_argument("server", metavar="SERVER")
    p.set_defaults(func=cmd_logout)

    p = sub.add_parser(
        "status",
        help="who is signed in, to SERVER or to every server on the internet",
        description="Show the account, issuer, expiry and scopes of each sign-in. With SERVER the exit "
        f"code says whether it is signed in: 0 yes, {EXIT_SIGN_IN} no.",
    )
    p.add_argument("server", nargs="?", metavar="SERVER")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_status)


# ------------------------------------------------------------------------------------ helpers


def can_open_browser(platform: str | None = None, env: Mapping[str, str] | None = None) -> bool:
    """Whether a system browser can be shown: on Linux and the BSDs only with a display."""
    platform = platform or sys.platform
    env = os.environ if env is None else env
    if platform == "darwin" or platform.startswith(("win", "cygwin")):
        return True
    return bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))


def sign_in_command(server: str) -> str:
    return f"mcp-desk auth login {server}"


def needs_sign_in_message(server: str) -> str:
    """What every command says about a server in "sign in needed" (exit `EXIT_SIGN_IN`)."""
    return f"{server} needs you to sign in: run `{sign_in_command(server)}`"


def when(epoch: float) -> str:
    """A local date and time for a person: `2026-12-01 11:20`."""
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(epoch))


def describe(server: str, status: AuthStatus) -> str:
    """One line: `github: signed in as alice (until 2026-12-01 11:20)`."""
    if not status.signed_in:
        return f"{server}: not signed in"
    who = f" as {visible(status.account)}" if status.account else ""
    until = ""
    if status.expires_at is not None:
        renews = ", renewed automatically" if status.can_refresh else ""
        until = f" (until {when(status.expires_at)}{renews})"
    return f"{server}: signed in{who}{until}"


def details(status: AuthStatus) -> list[str]:
    """The lines under `describe` in `status SERVER`: issuer, scopes, client."""
    lines = []
    if status.issuer:
        lines.append(f"  issuer: {visible(status.issuer)}")
    if status.scopes:
        lines.append(f"  scopes: {visible(' '.join(status.scopes))}")
    if status.client:
        lines.append(f"  client: {status.client}")
    return lines


def status_json(server: str, status: AuthStatus) -> dict[str, Any]:
    return {
        "server": server,
        "signedIn": status.signed_in,
        "account": status.account,
        "issuer": status.issuer,
        "expiresAt": status.expires_at,
        "scopes": list(status.scopes),
        "canRefresh": status.can_refresh,
        "client": status.client,
    }


def _store() -> ConfigStore:
    from app.config.store import ConfigStore

    store = ConfigStore()
    store.load()
    return store


def _secrets(store: ConfigStore) -> SecretStore:
    from app.secrets.profile import folder_secrets

    return folder_secrets(store)


def _remote_target(store: ConfigStore, name: str, secrets: SecretStore) -> Target:
    """The configured server `name`, which must be one on the internet that signs in by OAuth."""
    from app.mcp.target import target_from_config

    entry = store.get(name)  # ConfigError "no server named ..." is reported by the CLI root
    try:
        target = target_from_config(entry, store.settings(name), secrets)
    except ValueError as exc:
        raise CommandError(f"{name}: {exc}") from exc
    if target.transport == "stdio":
        raise CommandError(f"{name} runs on this computer: it has no sign-in")
    if any(key.lower() == "authorization" for key in target.headers):
        raise CommandError(
            f"{name} uses a key (its Authorization header), not a sign-in: "
            f"change it with `mcp-desk secrets set {name} NAME`"
        )
    return target


def _is_remote(store: ConfigStore, name: str) -> bool:
    return store.get(name).transport in ("http", "sse")


def stored_sign_in(target: Target) -> SecretStore | None:
    """For the other commands: the folder's secrets when `target` is a configured server on the
    internet, so its stored sign-in is used (silently: they never open a browser); else None."""
    if target.transport == "stdio":
        return None
    store = _store()
    if target.name not in store.names():
        return None  # an ad-hoc --url: no stored sign-in of its own
    return _secrets(store)


# -------------------------------------------------------------------------------------- login


class TerminalBrowser:
    """`app.mcp.auth.Browser` for a terminal: prints the link and, when it can, opens the system
    browser. Everything goes to stderr; stdout keeps the result line for scripts."""

    def __init__(self, open_system_browser: bool) -> None:
        self.open_system_browser = open_system_browser
        self.opened = 0

    async def open(self, server: str, url: str) -> None:
        self.opened += 1
        link = visible(url)  # the authorization server's URL: it must not drive the terminal
        print(
            f"To sign in to {server}, open this link in your browser:\n\n    {link}\n",
            file=sys.stderr,
            flush=True,
        )
        if self.open_system_browser:
            import webbrowser

            # webbrowser may run a program and wait for it: not on the event loop.
            shown = await asyncio.to_thread(webbrowser.open, url)
            if not shown:
                print("(no browser could be opened: open the link yourself)", file=sys.stderr, flush=True)
        print("Waiting for you to sign in… (Ctrl+C to cancel)", file=sys.stderr, flush=True)


def cmd_login(args: argparse.Namespace) -> int:
    store = _store()
    secrets = _secrets(store)
    target = _remote_target(store, args.server, secrets)
    browser = TerminalBrowser(open_system_browser=not args.no_browser and can_open_browser())
    try:
        status = asyncio.run(_login(target, secrets, browser, args.timeout))
    except KeyboardInterrupt:
        # asyncio.run cancelled `_login`, whose finally cancelled the sign-in and closed the connection.
        print(f"mcp-desk: sign-in to {args.server} cancelled", file=sys.stderr)
        return EXIT_CANCELLED
    print(describe(args.server, status))
    return EXIT_OK


async def _login(
    target: Target, secrets: SecretStore, browser: TerminalBrowser, timeout: float
) -> AuthStatus:
    from app.cli.remote import import_engine

    import_engine()
    from app.mcp.auth import read_status
    from app.mcp.connection import ServerConnection
    from app.mcp.events import ConnectionState
    from app.mcp.handlers import HeadlessHandlers

    conn = ServerConnection(
        target, handlers=HeadlessHandlers(False), traffic=False, secrets=secrets, browser=browser
    )
    try:
        # The engine's own timeout: past it the sign-in settles in NEEDS_SIGN_IN ("sign-in timed out").
        state = await conn.sign_in(timeout=timeout)
        if state != ConnectionState.READY:
            reason = visible(conn.reason or "sign-in did not finish")
            raise CommandError(f"{target.name}: {reason}")
        return await read_status(secrets, target.name)
    except asyncio.CancelledError:
        # Ctrl+C: asyncio.run cancels this task; the loopback listener must close with it.
        conn.cancel_sign_in()
        raise
    finally:
        await conn.stop()


# ------------------------------------------------------------------------------------- logout


def cmd_logout(args: argparse.Namespace) -> int:
    from app.mcp.auth import forget, read_status

    store = _store()
    secrets = _secrets(store)
    _remote_target(store, args.server, secrets)

    async def main() -> bool:
        was = await read_status(secrets, args.server)
        await forget(secrets, args.server)
        return was.signed_in

    was_signed_in = asyncio.run(main())
    print(f"signed out of {args.server}" if was_signed_in else f"{args.server}: was not signed in")
    return EXIT_OK


# ------------------------------------------------------------------------------------- status


def cmd_status(args: argparse.Namespace) -> int:
    from app.mcp.auth import read_status

    store = _store()
    secrets = _secrets(store)
    if args.server is not None:
        _remote_target(store, args.server, secrets)
        names = [args.server]
    else:
        names = [name for name in store.names() if _is_remote(store, name)]

    async def main() -> list[AuthStatus]:
        return [await read_status(secrets, name) for name in names]

    statuses = asyncio.run(main())
    if args.json:
        found = [status_json(n, s) for n, s in zip(names, statuses, strict=True)]
        print(json.dumps(found[0] if args.server is not None else found, indent=2))
        return EXIT_OK
    if not names:
        print("no servers on the internet are configured")
    for name, status in zip(names, statuses, strict=True):
        print(describe(name, status))
        if args.server is not None or status.signed_in:
            for line in details(status):
                print(line)
    # `status SERVER` answers a script too: signed in (0) or not (the "needs sign-in" code).
    if args.server is not None and not statuses[0].signed_in:
        return EXIT_SIGN_IN
    return EXIT_OK
