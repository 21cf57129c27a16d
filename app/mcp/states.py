"""A connection's states and the words its reasons use; catalog kinds. Plain Python, no dataclass.

Split from `app.mcp.events` so that the window's first paint (server rows show each state) does
not build the event dataclasses: each frozen dataclass compiles its methods when it is defined,
about 1 ms apiece, and the events are needed only once the engine runs. `app.mcp.events`
re-exports every name here.
"""

from __future__ import annotations

import enum
from typing import Literal


class ConnectionState(enum.StrEnum):
    """A `str` enum: each state equals its word ("ready"), so the GUI's Qt signals carry it as that
    word and `ConnectionState(word)` turns it back; `.value` is the word too."""

    IDLE = "idle"
    CONNECTING = "connecting"
    READY = "ready"
    FAILED = "failed"
    CLOSED = "closed"
    NEEDS_SIGN_IN = "needs_sign_in"
    """The server wants a sign-in (HTTP 401 with a challenge, an expired or refused sign-in,
    a sign-in cancelled or timed out): settled, never reconnected by itself."""
    INSTALLING = "installing"
    """npx/uvx download the server before it starts (its first start, a new version): like
    CONNECTING, not settled, but the connect timeout waits (the download has its own limit: no
    output for INSTALL_IDLE_LIMIT). The reason says what is fetched: "installing the server…
    (fetching NAME)". Back to CONNECTING when the package manager is done."""


SETTLED_STATES = frozenset(
    {ConnectionState.READY, ConnectionState.FAILED, ConnectionState.CLOSED, ConnectionState.NEEDS_SIGN_IN}
)

SIGN_IN_NEEDED = "sign in needed"
SIGN_IN_EXPIRED = "your sign-in has expired: sign in again"
SIGN_IN_CANCELLED = "sign-in was cancelled"
SIGN_IN_TIMED_OUT = "sign-in timed out"
SIGN_IN_DECLINED = "you declined the sign-in"
SIGNED_OUT = "signed out"
WAITING_FOR_BROWSER = "waiting for you to sign in in your browser"
WAITING_FOR_APPROVAL = "waiting for your approval"
"""IDLE with this reason: a local server waits for the person to allow it to run (its turn for
the trust prompt, or the prompt is open). Published by `ConnectionManager.report`."""


CatalogKind = Literal["tools", "resources", "resource_templates", "prompts"]
CATALOG_KINDS: tuple[CatalogKind, ...] = ("tools", "resources", "resource_templates", "prompts")
