"""Keeping the catalog in step with the server: paging, debounced refresh after list_changed,
resource subscriptions, and the 2026-07-28 listener (subscriptions/listen)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from functools import partial
from typing import Any

import anyio
import mcp_types as types
from mcp.client.subscriptions import ListenNotSupportedError, SubscriptionLost
from mcp.shared.exceptions import MCPError
from pydantic import ValidationError

from app.mcp import sdk_private
from app.mcp.catalog import ToolInfo, add_entry, duplicates
from app.mcp.connection_base import ConnectionCore
from app.mcp.events import CATALOG_KINDS, CatalogChanged, CatalogDiff, CatalogKind, ResourceUpdated
from app.mcp.results import CallFailed
from app.mcp.url_elicitation import UrlSteps

logger = logging.getLogger(__name__)

DEBOUNCE = 0.1
"""Quiet time after a list_changed before refreshing: a burst becomes one refresh."""

DEBOUNCE_MAX = 1.0
"""A flood of notifications still refreshes at least this often."""

MAX_PAGES = 10_000

LISTEN_READY_WAIT = 10.0
"""2026-07-28: READY waits at most this long for the server to acknowledge the change
subscription (subscriptions/listen). A change the server makes before that is lost (the spec
keeps no backlog), so "ready" means "a change from now on is heard"; a server slow to answer
the listen request is still made ready (and heard once it answers)."""

_LIST_METHODS: dict[CatalogKind, tuple[str, str]] = {
    "tools": ("tools/list", "tools"),
    "resources": ("resources/list", "resources"),
    "resource_templates": ("resources/templates/list", "resourceTemplates"),
    "prompts": ("prompts/list", "prompts"),
}

_NOUNS: dict[CatalogKind, str] = {
    "tools": "tools named",
    "resources": "resources with the URI",
    "resource_templates": "resource templates with the URI template",
    "prompts": "prompts named",
}


class CatalogSync(ConnectionCore):
    """Lists what the server offers into `self.catalog` and keeps it current."""

    refresh_counts: dict[CatalogKind, int]
    _dirty: set[CatalogKind]
    _dirty_event: asyncio.Event
    _refresh_locks: dict[CatalogKind, asyncio.Lock]
    _validators: dict[str, tuple[ToolInfo, Any]]
    _subscribed: set[str]
    url_steps: UrlSteps  # h12-elicit: told when the server says a -32042 web page step is done
    _listen_restart: asyncio.Event
    _listen_wanted: int
    _listen_served: int
    _listen_acked: asyncio.Event
    _listener_done: bool
    listening: bool
    _assume_all_kinds: bool
    _lists: frozenset[CatalogKind]

    def _has(self, kind: CatalogKind) -> bool:
        """Whether `kind` is listed (and kept listed): the server offers it and it was asked for."""
        if kind not in self._lists:
            return False
        if self._assume_all_kinds:
            return True
        key = {
            "tools": "tools",
            "resources": "resources",
            "resource_templates": "resources",
            "prompts": "prompts",
        }
        return key[kind] in self.capabilities

    async def _initial_listing(self) -> None:
        """List every kind at once: a connect waits for the slowest list, not for the four one
        after the other (four round trips to a remote server). Each listing is applied when it
        comes back, as a refresh is; a failed one is said in the log and the others go on."""
        self.catalog.clear()
        self._validators.clear()
        kinds = [kind for kind in CATALOG_KINDS if self._has(kind)]
        if len(kinds) == 1:
            await self._refresh_kind(kinds[0], quiet_errors=True)  # no task group for one list
            return
        try:
            async with anyio.create_task_group() as tg:
                for kind in kinds:
                    tg.start_soon(partial(self._refresh_kind, kind, quiet_errors=True))
        except BaseExceptionGroup as group:
            # What ended a listing (the server went away, a sign-in is needed) ends the connect as
            # it did when they ran one by one: the first failure, not a group the mapper can't read.
            raise _first_leaf(group) from None

    async def _resubscribe(self) -> None:
        """After a reconnect, subscriptions made before the drop are renewed (2025 era; the
        2026 listener opens its stream with them anyway)."""
        if self._modern or not self._subscribed:
            return
        session = self._require_client().session
        for uri in sorted(self._subscribed):
            try:
                with self._failures(f"subscribing to {uri}"):
                    await self._timed(
                        session.send_request(
                            types.SubscribeRequest(params=types.SubscribeRequestParams(uri=uri)),
                            types.EmptyResult,
                        )
                    )
            except CallFailed as exc:
                self._log("warning", "client", f"could not renew the subscription to {uri}: {exc}")

    async def refresh(self, kind: CatalogKind | None = None) -> dict[CatalogKind, CatalogDiff]:
        """List again now (one kind or all the server offers); returns the diffs."""
        self._require_client()
        kinds = [kind] if kind is not None else [k for k in CATALOG_KINDS if self._has(k)]
        return {k: await self._refresh_kind(k) for k in kinds}

    async def _refresh_kind(self, kind: CatalogKind, *, quiet_errors: bool = False) -> CatalogDiff:
        async with self._refresh_locks[kind]:
            try:
                entries = await self._list_all(kind)
            except CallFailed as exc:
                if not quiet_errors:
                    raise
                self._log("warning", "client", f"listing {kind.replace('_', ' ')} failed: {exc}")
                return CatalogDiff()
            self.refresh_counts[kind] += 1
            self._report_mistakes(kind, entries)
            diff = self.catalog.replace(kind, entries)
            if kind == "tools":
                for name in (*diff.removed, *diff.changed):
                    self._validators.pop(name, None)
            if diff:
                self._emit(CatalogChanged(self.name, kind, diff))
            return diff

    def _report_mistakes(self, kind: CatalogKind, entries: dict[str, Any]) -> None:
        """Say in the log what is wrong with a fresh listing, once (not again on each refresh)."""
        before = self.catalog.of(kind)
        noun = _NOUNS[kind]
        for key, count in duplicates(entries).items():
            old = before.get(key)
            if old is None or old.listed != count:
                text = f"the server lists {count} {noun} {key!r}; only the first is used"
                self._log("warning", "client", text)
        if kind != "tools":
            return
        for name, tool in entries.items():
            old = before.get(name)
            if tool.problem and (old is None or old.problem != tool.problem):
                verb = "cannot be used" if not tool.runnable else "is not fully usable"
                self._log("warning", "client", f"tool {name!r} {verb}: {tool.problem}")

    async def _list_all(self, kind: CatalogKind) -> dict[str, Any]:
        """Every page, following nextCursor ourselves (the SDK's own re-list stops at 100 pages).

        Pages are taken as raw dicts: the catalog keeps exactly what the server sent, and a
        10,000-tool catalog does not pay for two pydantic validations and a dump per tool.
        """
        session = self._require_client().session
        method, key = _LIST_METHODS[kind]
        entries: dict[str, Any] = {}
        cursor: str | None = None
        seen: set[str] = set()
        for _ in range(MAX_PAGES):
            with self._failures(method):
                page = await self._timed(self._raw_request(method, {"cursor": cursor} if cursor else None))
            items = page.get(key)
            if not isinstance(items, list):
                raise CallFailed(f"the server answered {method} without a {key!r} list")
            next_cursor = page.get("nextCursor")
            if kind == "tools" and self._modern:
                # 2026-07-28: the SDK must see the listing (it drops tools with invalid
                # x-mcp-header annotations and mirrors valid ones into HTTP headers on calls).
                parsed = self._parse_tools_page(page)
                complete = cursor is None and next_cursor is None
                kept = {
                    t.name for t in sdk_private.absorb_tool_listing(session, parsed, complete=complete).tools
                }
                items = [i for i in items if isinstance(i, dict) and i.get("name") in kept]
            for item in items:
                if isinstance(item, dict):
                    add_entry(entries, kind, self._masked_listing(item))
            cursor = next_cursor if isinstance(next_cursor, str) else None
            if cursor is None or cursor in seen:
                break
            seen.add(cursor)
        return entries

    def _parse_tools_page(self, page: dict[str, Any]) -> types.ListToolsResult:
        """The page as the SDK's model; a malformed tool is left out (and logged), not fatal."""
        try:
            return types.ListToolsResult.model_validate(page, by_name=False)
        except ValidationError:
            good: list[types.Tool] = []
            for item in page.get("tools") or []:
                try:
                    good.append(types.Tool.model_validate(item, by_name=False))
                except ValidationError as exc:
                    name = item.get("name") if isinstance(item, dict) else None
                    self._log(
                        "warning", "client", f"ignoring malformed tool {name!r}: {exc.errors()[0]['msg']}"
                    )
            return types.ListToolsResult(tools=good)

    async def _raw_request(self, method: str, params: dict[str, Any] | None) -> dict[str, Any]:
        """Send a request through the session (its per-era stamp included) and return the raw
        result dict, without the SDK's typed parsing."""
        return await sdk_private.send_raw(self._require_client().session, method, params)

    def _mark_dirty(self, *kinds: CatalogKind) -> None:
        self._dirty.update(kinds)
        self._dirty_event.set()

    async def _refresher(self) -> None:
        """Debounce and coalesce change notifications into few refreshes."""
        while True:
            await self._dirty_event.wait()
            started = anyio.current_time()
            while True:  # wait for a quiet moment, but not forever under a flood
                self._dirty_event.clear()
                with anyio.move_on_after(DEBOUNCE) as quiet:
                    await self._dirty_event.wait()
                if quiet.cancelled_caught or anyio.current_time() - started >= DEBOUNCE_MAX:
                    break
            self._dirty_event.clear()
            kinds, self._dirty = self._dirty, set()
            for kind in CATALOG_KINDS:
                if kind in kinds:
                    try:
                        await self._refresh_kind(kind)
                    except CallFailed as exc:
                        self._log("warning", "client", f"refreshing {kind.replace('_', ' ')} failed: {exc}")

    async def _listener(self) -> None:
        """2026-07-28: change notifications come through `subscriptions/listen`, re-opened when
        the set of subscribed resources changes or the stream drops."""
        self._listener_done = False
        try:
            await self._listen_loop()
        finally:
            self._listener_done = True
            self._listen_acked.set()  # wake subscribers: they see the listener is gone

    async def _listen_loop(self) -> None:
        client = self._require_client()
        caps = self.capabilities
        backoff = 0.5
        while True:
            self._listen_restart.clear()
            generation = self._listen_wanted
            lists = self._lists  # a kind not listed here is not listened to either
            flags = {
                "tools_list_changed": "tools" in lists and bool((caps.get("tools") or {}).get("listChanged")),
                "prompts_list_changed": "prompts" in lists
                and bool((caps.get("prompts") or {}).get("listChanged")),
                "resources_list_changed": not lists.isdisjoint(("resources", "resource_templates"))
                and bool((caps.get("resources") or {}).get("listChanged")),
            }
            if not any(flags.values()) and not self._subscribed:
                self._acknowledge(generation)
                await self._listen_restart.wait()  # nothing to listen for until a subscription
                continue
            try:
                async with client.listen(**flags, resource_subscriptions=sorted(self._subscribed)) as sub:
                    backoff = 0.5
                    self.listening = True
                    self._acknowledge(generation)
                    try:
                        async with anyio.create_task_group() as tg:

                            async def restart_on_change() -> None:
                                await self._listen_restart.wait()
                                tg.cancel_scope.cancel()

                            tg.start_soon(restart_on_change)
                            async for event in sub:
                                self._on_server_event(event)
                            tg.cancel_scope.cancel()
                    finally:
                        self.listening = False
                if not self._listen_restart.is_set():
                    return  # the server closed the stream gracefully: nothing more will come
            except ListenNotSupportedError:
                return
            except (SubscriptionLost, MCPError) as exc:
                self._log("warning", "client", f"change subscription ended: {exc}; listening again")
                with anyio.move_on_after(backoff):
                    await self._listen_restart.wait()
                backoff = min(backoff * 2, 30.0)
                # Events may have been missed while the stream was down: refetch.
                self._mark_dirty(*[k for k in CATALOG_KINDS if self._has(k)])

    async def _first_listen(self) -> None:
        """Wait (at most LISTEN_READY_WAIT) until the listener has opened its first stream, has
        nothing to listen for, or has given up (the server does not offer it)."""
        self._listen_wanted += 1
        generation = self._listen_wanted
        # The previous connection's listener set the event as it ended (and left it set): a new
        # one, or this loop would never wait.
        self._listen_acked = asyncio.Event()
        with anyio.move_on_after(LISTEN_READY_WAIT) as late:
            while self._listen_served < generation and not self._listener_done:
                await self._listen_acked.wait()
        if late.cancelled_caught:
            self._log("warning", "client", "the server has not confirmed change notifications yet")

    def _acknowledge(self, generation: int) -> None:
        self._listen_served = generation
        self._listen_acked.set()
        self._listen_acked = asyncio.Event()

    async def _relisten(self) -> None:
        """Re-open the listen stream with the current subscriptions and wait for the server's ack."""
        self._listen_wanted += 1
        generation = self._listen_wanted
        self._listen_restart.set()

        async def acked() -> None:
            while self._listen_served < generation:
                if self._listener_done:
                    raise CallFailed("the server does not offer change subscriptions (subscriptions/listen)")
                await self._listen_acked.wait()

        await self._timed(acked())

    def _on_server_event(self, event: Any) -> None:
        from mcp.client.subscriptions import (
            PromptsListChanged,
            ResourcesListChanged,
            ToolsListChanged,
        )
        from mcp.client.subscriptions import ResourceUpdated as SdkResourceUpdated

        if isinstance(event, ToolsListChanged):
            self._mark_dirty("tools")
        elif isinstance(event, PromptsListChanged):
            self._mark_dirty("prompts")
        elif isinstance(event, ResourcesListChanged):
            self._mark_dirty("resources", "resource_templates")
        elif isinstance(event, SdkResourceUpdated):
            self._resource_updated(str(event.uri))

    async def _on_message(self, message: Any) -> None:
        if isinstance(message, Exception):
            self._log("warning", "client", f"transport problem: {message}")
            return
        root = getattr(message, "root", message)
        if isinstance(root, types.ToolListChangedNotification):
            self._mark_dirty("tools")
        elif isinstance(root, types.PromptListChangedNotification):
            self._mark_dirty("prompts")
        elif isinstance(root, types.ResourceListChangedNotification):
            self._mark_dirty("resources", "resource_templates")
        elif isinstance(root, types.ElicitCompleteNotification):  # 2025-11-25: a URL step is done
            self.url_steps.completed(root.params.elicitation_id)
        elif isinstance(root, types.ResourceUpdatedNotification) and not self._modern:
            # On 2026-07-28 the listen stream delivers the same event; the tee copy is skipped.
            self._resource_updated(str(root.params.uri))

    def _resource_updated(self, uri: str) -> None:
        """Publish a resource change only for a URI we follow: a server that announces changes
        nobody subscribed to (or after an unsubscribe) must not make the window re-read them."""
        if uri in self._subscribed:
            self._emit(ResourceUpdated(self.name, uri))
        else:
            logger.debug("%s: ignoring an update of %s (not subscribed)", self.name, uri)

    async def subscribe_resource(self, uri: str) -> None:
        """Get `ResourceUpdated` events for `uri` (resources/subscribe, or listen on 2026-07-28).

        The connection is the one owner of its subscriptions: they are renewed after every
        reconnect (and handed on by the manager when a changed target replaces the connection),
        so no caller keeps a set of its own or subscribes again."""
        await self._set_subscribed(uri, True)

    @property
    def subscriptions(self) -> frozenset[str]:
        """The resources this connection is subscribed to (kept across reconnects)."""
        return frozenset(self._subscribed)

    def is_subscribed(self, uri: str) -> bool:
        return uri in self._subscribed

    def adopt_subscriptions(self, uris: Iterable[str]) -> None:
        """Take over the subscriptions of the connection this one replaces, before it starts:
        its first connect subscribes to them (nothing is sent now)."""
        self._subscribed.update(uris)

    async def unsubscribe_resource(self, uri: str) -> None:
        await self._set_subscribed(uri, False)

    async def _set_subscribed(self, uri: str, on: bool) -> None:
        client = self._require_client()
        if on:
            self._subscribed.add(uri)
        else:
            self._subscribed.discard(uri)
        if self._modern:
            await self._relisten()
            return
        request: types.SubscribeRequest | types.UnsubscribeRequest
        if on:
            request = types.SubscribeRequest(params=types.SubscribeRequestParams(uri=uri))
            doing = "subscribing to"
        else:
            request = types.UnsubscribeRequest(params=types.UnsubscribeRequestParams(uri=uri))
            doing = "unsubscribing from"
        with self._failures(f"{doing} {uri}"):
            await self._timed(client.session.send_request(request, types.EmptyResult))


def _first_leaf(group: BaseExceptionGroup[BaseException]) -> BaseException:
    first = group.exceptions[0]
    return _first_leaf(first) if isinstance(first, BaseExceptionGroup) else first
