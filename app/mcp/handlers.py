"""Server→client requests: the interface the GUI implements, and headless handlers for the CLI.

Requests and responses are plain dataclasses (no SDK types), so the UI never touches the SDK.
Form elicitations arrive with `defaults` already filled from the schema's `default` values.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

logger = logging.getLogger(__name__)

# Field names come from the server: control characters (ANSI escapes...) must not reach a terminal.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")

ElicitAction = Literal["accept", "decline", "cancel"]


@dataclass(frozen=True)
class ElicitationRequest:
    message: str
    mode: Literal["form", "url"]
    requested_schema: dict[str, Any] | None = None
    """Form mode: a flat object schema of primitive fields."""
    defaults: dict[str, Any] = field(default_factory=dict)
    """Form mode: each field's schema `default`, ready to prefill the form."""
    url: str | None = None
    elicitation_id: str | None = None
    then_retry: bool = False
    """URL mode, a page a request's -32042 answer named: once the person agreed and the server
    says the step is done, the request is sent again by itself (app.mcp.url_elicitation)."""


@dataclass(frozen=True)
class ElicitationResponse:
    action: ElicitAction
    content: dict[str, Any] | None = None


@dataclass(frozen=True)
class SamplingRequest:
    messages: list[dict[str, Any]]
    system_prompt: str | None
    max_tokens: int
    raw: dict[str, Any] = field(repr=False, default_factory=dict)


@dataclass(frozen=True)
class SamplingResponse:
    """`action="accept"` answers with `content` (a content block dict, e.g. {"type": "text", ...})."""

    action: Literal["accept", "decline"]
    content: dict[str, Any] | None = None
    model: str = "mcp-desk"
    role: Literal["assistant", "user"] = "assistant"
    stop_reason: str | None = "endTurn"
    message: str | None = None
    """Why it was declined (sent back to the server as the error message)."""


class ClientHandlers(Protocol):
    async def elicit(self, server: str, request: ElicitationRequest) -> ElicitationResponse: ...

    async def sample(self, server: str, request: SamplingRequest) -> SamplingResponse: ...


def schema_defaults(schema: dict[str, Any] | None) -> dict[str, Any]:
    """The `default` of each property of an elicitation schema (flat, primitive fields)."""
    props = (schema or {}).get("properties")
    if not isinstance(props, dict):
        return {}
    out: dict[str, Any] = {}
    for name, sub in props.items():
        if isinstance(sub, dict) and "default" in sub:
            out[name] = sub["default"]
    return out


def unmet_by_defaults(schema: dict[str, Any] | None, content: dict[str, Any]) -> list[str]:
    """Why `content` (the schema's defaults) cannot be sent as the answer: one text per problem,
    e.g. `day: no default` for a required field without one. `[]` when it validates."""
    # Imported here: app.forms pulls in jsonschema, which the CLI should only pay for when asked.
    from app.forms.elicitation import elicitation_form

    problems: list[str] = []
    for error in elicitation_form(schema).errors(content):
        where = "/".join(map(str, error.path)) or "answer"
        if error.keyword == "required" and len(error.path) == 1:
            problems.append(f"{where}: no default")
        else:
            problems.append(f"{where}: {error.message}")
    return problems


class HeadlessHandlers:
    """For the CLI: accept elicitations with their defaults only when told to, and only when the
    defaults make a valid answer (a required field without a default would be rejected by the server,
    failing the call); never sample."""

    def __init__(self, accept_defaults: bool = False) -> None:
        self.accept_defaults = accept_defaults

    async def elicit(self, server: str, request: ElicitationRequest) -> ElicitationResponse:
        if not (self.accept_defaults and request.mode == "form"):
            return ElicitationResponse("decline")
        content = dict(request.defaults)
        problems = unmet_by_defaults(request.requested_schema, content)
        if problems:
            logger.warning(
                "%s: declined the request for input: its defaults are not a valid answer (%s)",
                server,
                _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", "; ".join(problems)),
            )
            return ElicitationResponse("decline")
        return ElicitationResponse("accept", content)

    async def sample(self, server: str, request: SamplingRequest) -> SamplingResponse:
        return SamplingResponse("decline", message="sampling is not available without a person")
