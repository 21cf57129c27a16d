"""Opening the transport a target names: a local program (stdio), Streamable HTTP, or the
legacy SSE transport. What happens on the connection's side (its process record, the install
watch, the sign-in, the traffic tap) stays in app.mcp.connection."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AsyncExitStack
from typing import Any

from app.mcp.masking import mask_text
from app.mcp.stdio import ProcessInfo, stdio_transport
from app.mcp.target import Target


def open_stdio(
    target: Target,
    info: ProcessInfo,
    *,
    on_stderr: Callable[[str], None],
    on_noise: Callable[[str], None],
) -> Any:
    """The stdio transport of `target` (the program starts when the client enters it)."""
    from mcp.client.stdio import get_default_environment

    t = target
    env = get_default_environment() | dict(t.env)
    return stdio_transport(
        t.command or "",
        t.args,
        env,
        t.cwd,
        info=info,
        on_stderr=on_stderr,
        on_noise=on_noise,
        mask=lambda text: mask_text(text, t.secret_values) if t.secret_values else text,
    )


async def open_http(
    target: Target,
    stack: AsyncExitStack,
    *,
    shared_client: Any,
    observer: Any,
    auth: Any,
    on_client: Callable[[Any], Any] | None = None,
    log: Callable[[str], None] | None = None,
) -> Any:
    """The Streamable HTTP (`type: http`) or legacy SSE transport of `target`, its HTTP client
    drawing on `shared_client`'s pool and reporting to `observer` (an HttpObserver).
    `on_client` is handed the Streamable HTTP client (the session watch hooks into it); `log`
    hears what the SSE transport has to say (a message the server refused)."""
    from app.mcp.http import connection_client

    t = target
    if t.transport == "http":
        from mcp.client.streamable_http import streamable_http_client

        # The SDK does not close a client it was given: the exit stack does.
        http = await stack.enter_async_context(
            connection_client(shared_client, t.headers, observer, auth=auth)
        )
        if on_client is not None:
            on_client(http)
        return streamable_http_client(t.url or "", http_client=http)
    # Legacy SSE: a message the server refuses fails alone (app/mcp/legacy_sse.py).
    from app.mcp.legacy_sse import Refusal, legacy_sse_client

    def refused(refusal: Refusal) -> None:
        if log is not None:
            log(refusal.describe())

    return legacy_sse_client(
        t.url or "",
        headers=dict(t.headers),
        auth=auth,
        # The transport closes the client this makes.
        make_client=lambda auth: connection_client(shared_client, t.headers, observer, auth=auth),
        on_refusal=refused,
    )
