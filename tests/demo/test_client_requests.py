"""Requests the demo server makes of the client: elicitation (form mode) and sampling, both eras."""

from __future__ import annotations

from typing import Any

import pytest
from mcp.client.context import ClientRequestContext
from mcp_types import (
    CallToolResult,
    CreateMessageRequestParams,
    CreateMessageResult,
    ElicitRequestFormParams,
    ElicitRequestParams,
    ElicitResult,
    ErrorData,
    TextContent,
)

from tests.demo.support import MODES, demo_client

pytestmark = [pytest.mark.anyio, pytest.mark.parametrize("mode", MODES)]


def text_of(result: CallToolResult) -> str:
    return "\n".join(b.text for b in result.content if isinstance(b, TextContent))


class Answerer:
    """An elicitation callback that records what it was asked and answers as told."""

    def __init__(self, action: str, content: dict[str, Any] | None = None) -> None:
        self.action = action
        self.content = content
        self.asked: list[ElicitRequestParams] = []

    async def __call__(
        self, context: ClientRequestContext, params: ElicitRequestParams
    ) -> ElicitResult | ErrorData:
        self.asked.append(params)
        return ElicitResult(action=self.action, content=self.content)  # type: ignore[arg-type]


async def test_book_table_asks_a_form_and_uses_the_answer(mode: str) -> None:
    answers = {
        "party_size": 4,
        "day": "2026-12-24",
        "seating": "terrace",
        "vegetarian": True,
        "contact_email": "kim@example.org",
    }
    answerer = Answerer("accept", answers)
    async with demo_client(mode, elicitation_callback=answerer) as client:
        result = await client.call_tool("book_table", {"restaurant": "Le Petit"})
    assert not result.is_error, text_of(result)
    assert text_of(result) == (
        "Booked a table for 4 at Le Petit on 2026-12-24, terrace, vegetarian. "
        "Confirmation goes to kim@example.org."
    )
    (asked,) = answerer.asked
    assert isinstance(asked, ElicitRequestFormParams)
    assert "Le Petit" in asked.message
    schema = asked.requested_schema
    props = schema["properties"]
    assert set(props) == {"party_size", "day", "seating", "vegetarian", "contact_email", "notes"}
    assert props["day"]["format"] == "date"
    assert props["contact_email"]["format"] == "email"
    assert (props["party_size"]["minimum"], props["party_size"]["maximum"]) == (1, 12)
    assert props["seating"]["enum"] == ["inside", "terrace", "bar"]
    assert set(schema["required"]) == {"day", "contact_email"}


@pytest.mark.parametrize("action", ["decline", "cancel"])
async def test_book_table_reports_a_refusal(mode: str, action: str) -> None:
    async with demo_client(mode, elicitation_callback=Answerer(action)) as client:
        result = await client.call_tool("book_table", {})
    from app.demo.server import REFUSALS

    assert text_of(result) == f"No booking made: {REFUSALS[action]}."


async def test_ask_model_samples_the_client(mode: str) -> None:
    seen: list[CreateMessageRequestParams] = []

    async def sample(
        context: ClientRequestContext, params: CreateMessageRequestParams
    ) -> CreateMessageResult:
        seen.append(params)
        return CreateMessageResult(
            role="assistant", content=TextContent(type="text", text="Hallo, hello, hola."), model="test-model"
        )

    async with demo_client(mode, sampling_callback=sample) as client:
        result = await client.call_tool("ask_model", {"question": "Greet me."})
    assert text_of(result) == "The model (test-model) answered: Hallo, hello, hola."
    (params,) = seen
    assert params.max_tokens == 200
    first = params.messages[0].content
    assert isinstance(first, TextContent)
    assert first.text == "Greet me."
