"""Change notifications of the demo server, in both protocol eras.

`MCPServer` covers 2026-07-28 well (`subscriptions/listen` plus `ctx.notify_*`), but for the
handshake era it advertises `tools.listChanged: false` and serves no `resources/subscribe`, even
though a server may send both. The demo does change its tools and its notes at run time, so it
says so honestly and lets a client subscribe to a note.
"""

from __future__ import annotations

import logging
from typing import Any

from mcp.server.connection import Connection
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import NotificationOptions
from mcp.server.mcpserver import Context, MCPServer
from mcp_types import EmptyResult, SubscribeRequestParams, UnsubscribeRequestParams
from mcp_types.version import is_version_at_least

logger = logging.getLogger(__name__)

MODERN_ERA = "2026-07-28"


def is_modern(ctx: Context) -> bool:
    version = ctx.protocol_version
    return version is not None and is_version_at_least(version, MODERN_ERA)


class ChangeNotifier:
    """Sends list-changed and resource-updated notifications the way each client's era expects."""

    def __init__(self, server: MCPServer) -> None:
        # Handshake-era client connections subscribed to each URI (`resources/subscribe`).
        self._subscribers: dict[str, list[Connection]] = {}
        self._install(server)

    def _install(self, server: MCPServer) -> None:
        # The SDK exposes no public seam for these two: the low-level server is reached through
        # MCPServer's private attribute. Checked by tests/demo (capabilities and subscriptions).
        lowlevel = server._lowlevel_server
        default_options = lowlevel.create_initialization_options

        def initialization_options(
            notification_options: NotificationOptions | None = None, *args: Any, **kw: Any
        ) -> Any:
            options = notification_options or NotificationOptions(tools_changed=True)
            return default_options(options, *args, **kw)

        setattr(lowlevel, "create_initialization_options", initialization_options)  # noqa: B010
        lowlevel.add_request_handler("resources/subscribe", SubscribeRequestParams, self._subscribe)
        lowlevel.add_request_handler("resources/unsubscribe", UnsubscribeRequestParams, self._unsubscribe)

    @staticmethod
    def _connection(ctx: ServerRequestContext[Any]) -> Connection:
        # `ctx.session` is a new proxy for every request; the connection behind it is what lasts
        # (and what unsolicited notifications are sent on). The SDK has no public accessor.
        connection: Connection = ctx.session._connection
        return connection

    async def _subscribe(self, ctx: ServerRequestContext[Any], params: SubscribeRequestParams) -> EmptyResult:
        connections = self._subscribers.setdefault(str(params.uri), [])
        connection = self._connection(ctx)
        if not any(c is connection for c in connections):
            connections.append(connection)
        return EmptyResult()

    async def _unsubscribe(
        self, ctx: ServerRequestContext[Any], params: UnsubscribeRequestParams
    ) -> EmptyResult:
        connection = self._connection(ctx)
        connections = self._subscribers.get(str(params.uri), [])
        connections[:] = [c for c in connections if c is not connection]
        return EmptyResult()

    async def tools_changed(self, ctx: Context) -> None:
        if is_modern(ctx):
            await ctx.notify_tools_changed()  # reaches subscriptions/listen streams
        else:
            await ctx.session.send_tool_list_changed()

    async def resource_updated(self, ctx: Context, uri: str) -> None:
        # Both: a 2026-07-28 client listening, and handshake-era sessions that subscribed.
        await ctx.notify_resource_updated(uri)
        for connection in list(self._subscribers.get(uri, [])):
            # Best effort by design: Connection.notify drops (and never raises) on a closed stream.
            await connection.send_resource_updated(uri)
