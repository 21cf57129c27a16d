"""How much a server should log: the person's per-server setting, applied in either era.

- 2025 era (handshake): `logging/setLevel`, sent once connected when the server declares the
  `logging` capability and the person chose a level (without a choice the server keeps its own
  default, as before), and again whenever they change it.
- 2026-07-28: there is no setLevel; a request opts in to log messages with the level in its
  `_meta` (`io.modelcontextprotocol/logLevel`), and the server sends only messages about that
  request at or above it. The SDK's Client takes one level for the whole connection; the
  session's stamp is wrapped so every request carries the level chosen *now* (a change applies
  from the next request; a request already running keeps the level it was sent with).

Qt-free. The wrapped stamp is the session's private `_stamp`, reached through `app/mcp/sdk_private.py`
(whose canary test, with tests/mcp/test_log_level.py's, fails on an SDK without it).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

logger = logging.getLogger(__name__)

LEVELS: tuple[str, ...] = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
"""The protocol's levels (RFC 5424), least severe first."""
DEFAULT_LEVEL = "info"
"""What a server is asked for when the person chose nothing (2026-07-28 needs an opt-in)."""
LOG_LEVEL_META_KEY = "io.modelcontextprotocol/logLevel"

Stamp = Callable[[dict[str, Any], Any], None]


def known_level(value: object) -> str | None:
    """`value` as a protocol level ("Warning" → "warning"), None when it is not one."""
    if not isinstance(value, str):
        return None
    level = value.strip().lower()
    return level if level in LEVELS else None


def stamp_with_level(stamp: Stamp, level: Callable[[], str]) -> Stamp:
    """A 2026-07-28 session stamp whose requests opt in at `level()` (read per request). A
    request that set the key itself keeps its own."""

    def stamped(data: dict[str, Any], opts: Any) -> None:
        params = data.setdefault("params", {})
        if isinstance(params, dict):
            meta = params.setdefault("_meta", {})
            if isinstance(meta, dict):
                meta.setdefault(LOG_LEVEL_META_KEY, level())
        stamp(data, opts)

    stamped.__wrapped__ = stamp  # type: ignore[attr-defined]
    return stamped


class ServerLogLevel:
    """One server's log level: `chosen` (the setting; None: never chosen) and how to apply it."""

    def __init__(self, chosen: str | None = None) -> None:
        self.chosen = known_level(chosen)

    @property
    def level(self) -> str:
        """The level asked for: the chosen one, else DEFAULT_LEVEL."""
        return self.chosen or DEFAULT_LEVEL

    def attach(self, session: Any, *, modern: bool) -> None:
        """2026-07-28: make `session`'s requests carry the current level (after every adopt(),
        which replaces the stamp). Nothing for a 2025-era session."""
        if not modern:
            return
        from app.mcp.sdk_private import replace_request_stamp, request_stamp

        stamp = request_stamp(session)
        if stamp is None:
            logger.warning("the SDK session has no request stamp: the log level stays as connected")
            return
        if getattr(stamp, "__wrapped__", None) is not None:
            return  # already ours (reads the level per request)
        replace_request_stamp(session, stamp_with_level(stamp, lambda: self.level))

    async def tell(
        self,
        set_level: Callable[[str], Awaitable[Any]],
        *,
        modern: bool,
        capabilities: dict[str, Any],
        on_connect: bool = False,
    ) -> bool:
        """2025 era: `logging/setLevel` through `set_level(level)` when the server has the logging
        capability (on connect only when the person chose a level). True when a request was sent;
        2026-07-28 never sends (the next request carries the level)."""
        if modern or "logging" not in capabilities:
            return False
        if on_connect and self.chosen is None:
            return False
        await set_level(self.level)
        return True
