"""Results and failures of requests, as plain objects.

A tool error (`isError: true`) is the tool's answer: a `ToolCallResult` with `is_error=True`.
A JSON-RPC error, a timeout or a lost connection is a failed call: `CallFailed`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

# JSON-RPC / MCP error codes we tell apart (the SDK's values, repeated so importing this module
# does not import the SDK).
REQUEST_TIMEOUT = -32001
CONNECTION_CLOSED = -32000
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
CANCELLED = -32800  # ours: the caller cancelled (never on the wire)
NOT_CONNECTED = -32099  # ours: no ready connection


class CallFailed(Exception):
    """A request failed at the protocol level (JSON-RPC error, timeout, connection lost)."""

    def __init__(self, message: str, code: int | None = None, data: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.data = data

    def __str__(self) -> str:
        return self.message


class CallTimedOut(CallFailed):
    """No answer (and no progress) within the call's timeout; the server was told to stop."""


class ToolGone(CallFailed):
    """The server no longer knows the tool, even after one re-discovery.

    `renamed_to` names the tool that looks like its successor (same input schema and description,
    or the only tool added in the same refresh), or None when the tool is simply gone.
    """

    def __init__(self, server: str, tool: str, renamed_to: str | None, *, known: bool = True) -> None:
        if renamed_to:
            msg = f"{server}/{tool} no longer exists; it seems to be called {renamed_to!r} now"
        elif known:
            msg = f"{server}/{tool} no longer exists on the server"
        else:
            msg = f"{server} has no tool named {tool!r}"
        super().__init__(msg, code=INVALID_PARAMS)
        self.server = server
        self.tool = tool
        self.renamed_to = renamed_to


class NotConnected(CallFailed):
    def __init__(self, server: str, reason: str | None = None) -> None:
        msg = f"{server} is not connected" + (f" ({reason})" if reason else "")
        super().__init__(msg, code=NOT_CONNECTED)


class ToolCallResult:
    """A tool's answer. `content` (content blocks as wire dicts: text, image, audio,
    resource_link, resource), `structured_content`, `is_error`, `structured_valid` (None when
    the tool declares no outputSchema, or answered isError), `structured_error`, `elapsed` and
    `raw` (the whole answer as a wire dict).

    Made by `answered` from the SDK's result, it puts the answer in wire form (a dump that cost
    as much as a sixth of what the engine adds to a call) only when `content` or `raw` is first
    read; a caller that looks at `is_error` alone never pays for it. The engine makes it so only
    for a server with no secrets to mask: an answer that may repeat one is dumped and masked at
    once, as before, so a result never holds a secret in clear (app/mcp/calls.py)."""

    __slots__ = (
        "_answer",
        "_content",
        "_raw",
        "elapsed",
        "is_error",
        "structured_content",
        "structured_error",
        "structured_valid",
    )

    def __init__(
        self,
        content: list[dict[str, Any]],
        is_error: bool,
        structured_content: Any,
        structured_valid: bool | None,
        structured_error: str | None,
        elapsed: float,
        raw: dict[str, Any],
    ) -> None:
        self._content: list[dict[str, Any]] | None = content
        self.is_error = is_error
        self.structured_content = structured_content
        self.structured_valid = structured_valid
        self.structured_error = structured_error
        self.elapsed = elapsed
        self._raw: dict[str, Any] | None = raw
        self._answer: Any = None

    @classmethod
    def answered(
        cls, answer: Any, structured_valid: bool | None, structured_error: str | None, elapsed: float
    ) -> ToolCallResult:
        """The result for the SDK's `CallToolResult` `answer`, held as it is until read."""
        self = cls.__new__(cls)
        self._answer = answer
        self._content = None
        self._raw = None
        self.is_error = bool(answer.is_error)
        self.structured_content = answer.structured_content
        self.structured_valid = structured_valid
        self.structured_error = structured_error
        self.elapsed = elapsed
        return self

    @property
    def raw(self) -> dict[str, Any]:
        raw = self._raw
        if raw is None:
            answer = self._answer
            # model_dump(by_alias=True, mode="json", exclude_unset=True), from the serializer itself.
            raw = self._raw = answer.__pydantic_serializer__.to_python(
                answer, by_alias=True, mode="json", exclude_unset=True
            )
        return raw

    @raw.setter
    def raw(self, value: dict[str, Any]) -> None:
        self._raw = value

    @property
    def content(self) -> list[dict[str, Any]]:
        content = self._content
        if content is None:
            content = self._content = list(self.raw.get("content") or [])
        return content

    @content.setter
    def content(self, value: list[dict[str, Any]]) -> None:
        self._content = value

    def _fields(self) -> tuple[Any, ...]:
        return (
            self.content,
            self.is_error,
            self.structured_content,
            self.structured_valid,
            self.structured_error,
            self.elapsed,
            self.raw,
        )

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, ToolCallResult)
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass it was

    def __repr__(self) -> str:
        return (
            f"ToolCallResult(content={self.content!r}, is_error={self.is_error!r},"
            f" structured_content={self.structured_content!r}, structured_valid={self.structured_valid!r},"
            f" structured_error={self.structured_error!r}, elapsed={self.elapsed!r})"
        )

    def text(self) -> str:
        """All text blocks joined: what a person reads first."""
        return "\n".join(str(b.get("text", "")) for b in self.content if b.get("type") == "text")


def compile_validator(schema: dict[str, Any]) -> Validator:
    """A validator for an output schema. Built lazily (first result of that tool), never upfront:
    compiling a whole catalog costs seconds on large servers."""
    from app.forms.validation import make_validator

    # Never fetches a `$ref`, never lets a pattern run unbounded: the form's rules, formats unchecked.
    validator: Validator = make_validator(schema, check_formats=False)
    return validator


def check_structured(validator: Validator, value: Any) -> str | None:
    """The most relevant validation error as text, or None when `value` is valid."""
    from jsonschema import exceptions as jse
    from referencing.exceptions import Unresolvable

    from app.forms.validation import pattern_budget

    try:
        with pattern_budget():
            error = jse.best_match(validator.iter_errors(value))
    except Unresolvable as exc:
        return f"the output schema has a $ref that does not resolve: {exc}"
    except Exception as exc:  # a broken schema is the server's fault, not ours
        return f"the output schema cannot be used: {exc}"
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path)
    return f"{where}: {error.message}" if where else error.message
