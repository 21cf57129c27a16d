"""Every secret MCP Desk holds for one config folder: what it is, where it is used, when it changed.

The keyring index (`SecretStore.names_with_times`) says which secrets exist; the server list says
what each one is for. A `${secret:NAME}` reference in an entry's `env`, `headers`, `args` or `url`
gives its kind and place; the OAuth names (`oauth.tokens`, `oauth.client`, `oauth.client_secret`)
are the sign-in's own. A secret whose server is no longer in the list is an orphan: nothing can
use it any more, and `orphans()` lists what a clean-up removes. A referenced secret that is not
stored is listed too (`stored=False`), so the person sees what is missing and can set it.

Plain data and plain English (`describe`) for the CLI; the window words its own through Qt.
Names only, never values.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from app.config.refs import secret_refs
from app.secrets.oauth import CLIENT, TOKENS

if TYPE_CHECKING:
    from app.config.model import ServerEntry
    from app.secrets.store import SecretStore

logger = logging.getLogger(__name__)

CLIENT_SECRET = "oauth.client_secret"


class Kind(enum.Enum):
    """What a secret is, from where the server's entry uses it (or from its OAuth name)."""

    ENV = "env"
    HEADER = "header"
    ARGUMENT = "argument"
    URL = "url"
    OAUTH_TOKENS = "oauth_tokens"
    OAUTH_CLIENT_SECRET = "oauth_client_secret"
    OAUTH_REGISTRATION = "oauth_registration"
    UNUSED = "unused"  # stored for a server whose entry no longer refers to it


OAUTH_KINDS = (Kind.OAUTH_TOKENS, Kind.OAUTH_CLIENT_SECRET, Kind.OAUTH_REGISTRATION)


def oauth_kind(name: str) -> Kind | None:
    """The sign-in's own secrets. Tokens and registrations may carry a suffix (one per issuer)."""
    if name == CLIENT_SECRET:
        return Kind.OAUTH_CLIENT_SECRET
    if name == TOKENS or name.startswith(TOKENS + "."):
        return Kind.OAUTH_TOKENS
    if name == CLIENT or name.startswith(CLIENT + "."):
        return Kind.OAUTH_REGISTRATION
    return None


@dataclass(frozen=True)
class Usage:
    """One place a secret is used: `where` is the env variable or header name, the argument's
    position counted from 1, or empty (URL, sign-in)."""

    kind: Kind
    where: str = ""


@dataclass(frozen=True)
class SecretItem:
    server: str
    name: str
    usages: tuple[Usage, ...]
    stored: bool  # in the keyring (or this session's memory); False: referenced but not set
    changed_at: float | None  # epoch seconds of the last set; None when unknown or not stored
    orphan: bool  # its server is no longer in the list

    @property
    def kind(self) -> Kind:
        return self.usages[0].kind if self.usages else Kind.UNUSED


@dataclass
class ServerSecrets:
    server: str
    exists: bool  # False: the server was removed; every item is an orphan
    items: list[SecretItem] = field(default_factory=list)

    @property
    def signed_in(self) -> bool:
        """OAuth tokens or a client registration are stored: there is something to sign out of."""
        return any(i.stored and i.kind in (Kind.OAUTH_TOKENS, Kind.OAUTH_REGISTRATION) for i in self.items)


@dataclass
class Inventory:
    servers: list[ServerSecrets]

    def items(self) -> list[SecretItem]:
        return [i for s in self.servers for i in s.items]

    def orphans(self) -> list[SecretItem]:
        return [i for i in self.items() if i.orphan]

    def server(self, name: str) -> ServerSecrets | None:
        return next((s for s in self.servers if s.server == name), None)


def usages_of(entry: ServerEntry) -> dict[str, list[Usage]]:
    """secret name -> where the entry refers to it, in the entry's own order."""
    found: dict[str, list[Usage]] = {}

    def add(value: str, usage: Usage) -> None:
        for name in secret_refs(value):
            places = found.setdefault(name, [])
            if usage not in places:
                places.append(usage)

    for key, value in entry.env.items():
        add(value, Usage(Kind.ENV, key))
    for key, value in entry.headers.items():
        add(value, Usage(Kind.HEADER, key))
    for i, value in enumerate(entry.args, start=1):
        add(value, Usage(Kind.ARGUMENT, str(i)))
    if entry.url:
        add(entry.url, Usage(Kind.URL))
    return found


def build_inventory(
    entries: Iterable[ServerEntry], stored: Mapping[str, Mapping[str, float | None]]
) -> Inventory:
    """The inventory from the server list and the keyring's index (`names_with_times()`).

    Servers keep the list's order; servers no longer in the list follow, by name. Within a
    server: the entry's references first (in its order), then the sign-in's, then the rest by name.
    """
    servers: list[ServerSecrets] = []
    seen: set[str] = set()
    for entry in entries:
        seen.add(entry.name)
        have = stored.get(entry.name, {})
        refs = usages_of(entry)
        group = ServerSecrets(entry.name, exists=True)
        for name, places in refs.items():
            group.items.append(
                SecretItem(entry.name, name, tuple(places), name in have, have.get(name), orphan=False)
            )
        rest = sorted((n for n in have if n not in refs), key=lambda n: (oauth_kind(n) is None, n))
        for name in rest:
            kind = oauth_kind(name) or Kind.UNUSED
            group.items.append(
                SecretItem(entry.name, name, (Usage(kind),), True, have.get(name), orphan=False)
            )
        if group.items:
            servers.append(group)
    for server in sorted(set(stored) - seen):
        names = stored[server]
        if not names:
            continue
        group = ServerSecrets(server, exists=False)
        for name in sorted(names, key=lambda n: (oauth_kind(n) is None, n)):
            usage = Usage(oauth_kind(name) or Kind.UNUSED)
            group.items.append(SecretItem(server, name, (usage,), True, names[name], orphan=True))
        servers.append(group)
    return Inventory(servers)


async def read_inventory(store: SecretStore, entries: Iterable[ServerEntry]) -> Inventory:
    """Read the keyring's index in a worker thread (never the caller's) and build the inventory.

    Raises the store's errors (`KeyringUnavailableError`, `KeyringLockedError`...) as they are.
    """
    entries = list(entries)
    stored = await store.anames_with_times()
    return build_inventory(entries, stored)


async def clean_up_orphans(store: SecretStore, inventory: Inventory) -> list[tuple[str, str]]:
    """Delete every secret whose server is gone; returns (server, name) of those removed."""
    removed: list[tuple[str, str]] = []
    for item in inventory.orphans():
        if await store.adelete(item.server, item.name):
            removed.append((item.server, item.name))
    if removed:
        logger.info("removed %d key(s) of servers no longer in the list", len(removed))
    return removed


def describe(usage: Usage) -> str:
    """Where a secret is used, in plain English ("environment BRAVE_API_KEY", "argument 3")."""
    match usage.kind:
        case Kind.ENV:
            return f"environment {usage.where}"
        case Kind.HEADER:
            return f"header {usage.where}"
        case Kind.ARGUMENT:
            return f"argument {usage.where}"
        case Kind.URL:
            return "URL"
        case Kind.OAUTH_TOKENS:
            return "sign-in"
        case Kind.OAUTH_CLIENT_SECRET:
            return "sign-in (client secret)"
        case Kind.OAUTH_REGISTRATION:
            return "sign-in (registration)"
        case Kind.UNUSED:
            return "not used by the server's settings"
