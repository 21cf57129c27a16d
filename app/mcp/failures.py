"""What a failed request means: one small piece shared by every request of a connection.

An exception from the SDK or the transport becomes a `CallFailed` with a sentence a person can
read (secrets masked). When it says the connection itself is gone (the server closed it, the
network failed), the connection is told through `FailureRules.lost`; this module never writes
the connection's state itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from mcp.shared.exceptions import MCPError

from app.mcp import reasons
from app.mcp.results import CONNECTION_CLOSED, CallFailed


@dataclass(frozen=True, slots=True)
class FailureRules:
    """How one connection wants its failures told, built once per connection."""

    lost: Callable[[str | None], None]
    """The connection is gone: with a reason, or None for "the server closed the connection"
    (which keeps a reason already known)."""
    refusal: Callable[[], str | None]
    """Why the last step-up sign-in did not happen, once (None when there was none)."""
    mask: Callable[[str], str]
    masked: Callable[[Any], Any]
    explain: Callable[[BaseException], str]
    """A network failure in words (app.mcp.reasons.explain with the connection's target)."""


def failure_of(exc: Exception, what: str, rules: FailureRules) -> CallFailed:
    """The `CallFailed` for `exc` raised while doing `what`; tells `rules.lost` when the
    connection is gone."""
    if isinstance(exc, MCPError):
        if exc.error.code == CONNECTION_CLOSED:
            rules.lost(None)
            return CallFailed(f"{what} failed: the connection to the server was lost", CONNECTION_CLOSED)
        refusal = rules.refusal()
        if refusal is not None:
            return CallFailed(f"{what} needs more permissions: {refusal}", exc.error.code)
        return CallFailed(rules.mask(exc.error.message), exc.error.code, rules.masked(exc.error.data))
    if reasons.is_network_error(exc):
        rules.lost(rules.explain(exc))
    return CallFailed(rules.mask(f"{what} failed: {reasons.short(exc)}"))


class Failures:
    """`with Failures(rules, "calling echo"):` turns what fails inside into a `CallFailed`
    (a `CallFailed`, a cancellation or a BaseException passes through untouched)."""

    __slots__ = ("rules", "what")

    def __init__(self, rules: FailureRules, what: str) -> None:
        self.rules = rules
        self.what = what

    def __enter__(self) -> None:
        return None

    def __exit__(self, exc_type: Any, exc: BaseException | None, tb: Any) -> Literal[False]:
        if exc is None or isinstance(exc, CallFailed) or not isinstance(exc, Exception):
            return False
        raise failure_of(exc, self.what, self.rules) from exc
