"""Every use of a private part of the MCP SDK (mcp 2.3) or of httpx2/asyncio, in one place.

The engine needs a few things the SDK has no public API for; each is wrapped here, named for
what it does, so an SDK upgrade that moves one breaks this module (and its canary test,
tests/mcp/test_sdk_canary.py, which checks every one of them is still there) instead of failing
somewhere deep in a connection. `missing()` lists what is gone; pyproject.toml pins `mcp` to the
minor version these were checked against.

- `send_raw` — a request sent through the session with its per-era stamp (protocol version,
  headers, 2026-07-28 `_meta`), answered as the raw result dict: a 10,000-tool listing does not
  pay for pydantic models it throws away (`ClientSession._stamp`, `._dispatcher.send_raw_request`).
- `absorb_tool_listing` — a tools/list page the engine fetched itself shown to the session, which
  drops tools with invalid x-mcp-header annotations and mirrors valid ones into HTTP headers on
  2026-07-28 calls (`ClientSession._absorb_tool_listing`).
- `run_input_required` — the SDK's 2026-07-28 input-required driver for tools/call (its public
  `Client.call_tool` has no progress callback and no cancel scope of ours around each round)
  (`mcp.client._input_required.run_input_required_driver`).
- `http_pool` — the connection pool of the shared httpx2 client (`AsyncClient._transport`).
- `close_process_transport` — the asyncio subprocess transport behind an anyio `Process`, closed
  even when `aclose()` gave up (left open it warns at garbage collection)
  (`anyio Process._process._transport`).

One more private dependency has a module of its own, app/mcp/sdk_client_only.py (canary:
tests/mcp/test_sdk_client_only.py): which names of its server package the SDK's client imports,
so that the CLI can import the SDK without that package.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Awaitable, Callable
from contextlib import suppress
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # annotations only: app.mcp.process.release uses this module before the SDK loads
    import mcp_types as types

logger = logging.getLogger(__name__)

_T = TypeVar("_T")

TESTED_SDK = "2.3"
"""The `mcp` minor version every private use below was checked against (pyproject pins it)."""


async def send_raw(session: Any, method: str, params: dict[str, Any] | None) -> dict[str, Any]:
    """Send `method` through `session` (its per-era stamp included) and return the raw result."""
    data: dict[str, Any] = {"method": method}
    if params:
        data["params"] = params
    opts: Any = {}
    session._stamp(data, opts)
    result: dict[str, Any] = await session._dispatcher.send_raw_request(method, data.get("params"), opts)
    return result


def absorb_tool_listing(
    session: Any, page: types.ListToolsResult, *, complete: bool
) -> types.ListToolsResult:
    """The tools of `page` the session keeps (2026-07-28 header rules), the session told of them."""
    kept: types.ListToolsResult = session._absorb_tool_listing(page, complete=complete)
    return kept


async def run_input_required(
    first: types.InputRequiredResult,
    *,
    dispatch: Callable[[str, types.InputRequest], Awaitable[types.InputResponse | types.ErrorData]],
    retry: Callable[[types.InputResponses | None, str | None], Awaitable[Any]],
) -> Any:
    """Answer a 2026-07-28 InputRequiredResult round by round until the final result."""
    from mcp.client._input_required import run_input_required_driver

    return await run_input_required_driver(first, dispatch=dispatch, retry=retry)


def http_pool(client: Any) -> Any:
    """The transport (connection pool) an httpx2.AsyncClient sends through."""
    return client._transport


def request_stamp(session: Any) -> Any:
    """The 2026-07-28 session's per-request stamp (`session._stamp`: adds `_meta` to each
    request), or None when the SDK has none."""
    stamp = getattr(session, "_stamp", None)
    return stamp if callable(stamp) else None


def replace_request_stamp(session: Any, stamp: Any) -> None:
    """Make `session` stamp its requests with `stamp` (the log level's wrapper)."""
    session._stamp = stamp


def close_process_transport(process: Any) -> None:
    """Close the asyncio subprocess transport of an anyio Process, if it is still there."""
    transport = getattr(getattr(process, "_process", None), "_transport", None)
    close = getattr(transport, "close", None)
    if callable(close):
        with suppress(Exception):
            close()


def _has_attr_path(module: str, path: str) -> bool:
    try:
        obj: Any = importlib.import_module(module)
    except ImportError:
        return False
    for part in path.split("."):
        if isinstance(obj, type):
            # A method must be the class's own: a Protocol base only declares it.
            owners = [c for c in obj.__mro__ if not getattr(c, "_is_protocol", False)]
            if not any(part in vars(c) for c in owners):
                return False
        elif not hasattr(obj, part):
            return False
        obj = getattr(obj, part)
    return True


_CLASS_PARTS: tuple[tuple[str, str], ...] = (
    ("mcp.client.session", "ClientSession._absorb_tool_listing"),
    ("mcp.client._input_required", "run_input_required_driver"),
    ("mcp.shared.jsonrpc_dispatcher", "JSONRPCDispatcher.send_raw_request"),
)


def missing(session: Any = None) -> list[str]:
    """The private parts used above that this SDK (and httpx2, asyncio) no longer has, by name.

    Without a session only what can be seen on the classes is checked; with an entered
    `ClientSession` also its instance attributes (`_stamp`, `_dispatcher`)."""
    gone = [f"{module}.{path}" for module, path in _CLASS_PARTS if not _has_attr_path(module, path)]
    try:
        import httpx2

        if not hasattr(httpx2.AsyncClient(), "_transport"):
            gone.append("httpx2.AsyncClient._transport")
    except ImportError:
        gone.append("httpx2")
    if not _has_attr_path("anyio._backends._asyncio", "Process"):
        gone.append("anyio._backends._asyncio.Process")
    if session is not None:
        for name in ("_stamp", "_dispatcher"):
            if not hasattr(session, name):
                gone.append(f"ClientSession.{name}")
        dispatcher = getattr(session, "_dispatcher", None)
        if dispatcher is not None and not hasattr(dispatcher, "send_raw_request"):
            gone.append("ClientSession._dispatcher.send_raw_request")
    return gone
