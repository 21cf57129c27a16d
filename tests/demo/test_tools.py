"""Calling every demo tool, reading its resources and getting its prompt, in both protocol eras."""

from __future__ import annotations

import base64
from typing import Any

import jsonschema
import pytest
from mcp import Client
from mcp_types import (
    BlobResourceContents,
    CallToolResult,
    ImageContent,
    PromptReference,
    ResourceTemplateReference,
    TextContent,
    TextResourceContents,
)

from tests.demo.support import MODES, decode_png_b64, demo_client

pytestmark = [pytest.mark.anyio, pytest.mark.parametrize("mode", MODES)]

CONTACT = {
    "name": "Ada Lovelace",
    "email": "ada@example.org",
    "birthday": "1815-12-10",
    "website": "https://example.org/ada",
    "age": 36,
    "priority": "urgent",
    "nickname": None,
    "address": {"street": "1 St James's Square", "city": "London", "postal_code": "SW1Y 4", "country": "GB"},
    "phones": [
        {"kind": "home", "number": "+44 20 7946 0000"},
        {"kind": "mobile", "number": "+44 7700 900000"},
    ],
}


def text_of(result: CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, TextContent))


async def call_ok(client: Client, name: str, args: dict[str, Any]) -> CallToolResult:
    result = await client.call_tool(name, args)
    assert not result.is_error, text_of(result)
    return result


async def test_plain_tools_answer(mode: str) -> None:
    async with demo_client(mode) as client:
        assert text_of(await call_ok(client, "echo", {"message": "héllo <b>"})) == "héllo <b>"

        created = text_of(await call_ok(client, "create_contact", {"contact": CONTACT, "notify": True}))
        assert "Ada Lovelace <ada@example.org> (urgent priority)" in created
        assert "home +44 20 7946 0000, mobile +44 7700 900000" in created
        assert "Birthday: 1815-12-10" in created

        secret = "sk-demo-0123456789"
        configured = text_of(
            await call_ok(
                client,
                "configure_service",
                {
                    "settings": {
                        "service_url": "https://api.example.com",
                        "api_key": secret,
                        "timeout_seconds": 2.5,
                        "maintenance_window": {"start_hour": 1, "end_hour": 3},
                    }
                },
            )
        )
        assert "API key received (18 characters, not shown)" in configured
        assert "maintenance 1:00–3:00" in configured
        assert secret not in configured


async def test_invalid_arguments_come_back_as_tool_errors(mode: str) -> None:
    async with demo_client(mode) as client:
        bad = dict(CONTACT, email="not-an-email", age=200)
        result = await client.call_tool("create_contact", {"contact": bad})
        assert result.is_error
        assert "email" in text_of(result)
        out_of_range = await client.call_tool(
            "configure_service", {"settings": {"service_url": "x", "api_key": ""}}
        )
        assert out_of_range.is_error


async def test_fail_returns_is_error(mode: str) -> None:
    async with demo_client(mode) as client:
        result = await client.call_tool("fail", {"reason": "Nope."})
        assert result.is_error is True
        assert text_of(result) == "Nope."


async def test_weather_structured_content_matches_its_output_schema(mode: str) -> None:
    async with demo_client(mode) as client:
        schema = {t.name: t for t in (await client.list_tools()).tools}["weather"].output_schema
        assert schema is not None
        result = await call_ok(client, "weather", {"city": "Lyon", "unit": "fahrenheit"})
        data = result.structured_content
        assert data is not None
        jsonschema.validate(data, schema)
        assert data["city"] == "Lyon"
        assert data["unit"] == "fahrenheit"
        assert len(data["forecast"]) == 3
        # The same city gives the same weather (the demo must be predictable).
        again = await call_ok(client, "weather", {"city": "Lyon", "unit": "fahrenheit"})
        assert again.structured_content == data
        assert text_of(result)  # structured results also carry a text rendering


async def test_draw_badge_returns_a_png(mode: str) -> None:
    async with demo_client(mode) as client:
        result = await call_ok(client, "draw_badge", {"color": "red", "size": 40})
        images = [b for b in result.content if isinstance(b, ImageContent)]
        assert len(images) == 1
        assert images[0].mime_type == "image/png"
        width, height, rows = decode_png_b64(images[0].data)
        assert (width, height) == (40, 40)
        assert rows[0][:3] == b"\xff\xff\xff"
        r, g, b = rows[20][60:63]
        assert r > 150 and g < 80 and b < 80  # red in the middle
        assert "40×40" in text_of(result)


async def test_notes_add_list_read_delete(mode: str) -> None:
    async with demo_client(mode) as client:
        assert text_of(await call_ok(client, "list_notes", {})).splitlines() == ["shopping", "welcome"]
        await call_ok(client, "add_note", {"name": "todo", "text": "Write tests"})
        assert "todo" in text_of(await call_ok(client, "list_notes", {}))
        read = await client.read_resource("demo://notes/todo")
        (contents,) = read.contents
        assert isinstance(contents, TextResourceContents)
        assert contents.text == "Write tests"
        assert text_of(await call_ok(client, "delete_note", {"name": "todo"})) == "Deleted note todo."
        missing = await client.call_tool("delete_note", {"name": "todo"})
        assert missing.is_error
        activity = await client.read_resource("demo://activity")
        assert isinstance(activity.contents[0], TextResourceContents)
        assert "delete_note todo" in activity.contents[0].text


async def test_resources_and_prompt(mode: str) -> None:
    async with demo_client(mode) as client:
        readme = (await client.read_resource("demo://readme")).contents[0]
        assert isinstance(readme, TextResourceContents)
        assert readme.text.startswith("# MCP Desk demo server")
        picture = (await client.read_resource("demo://badge.png")).contents[0]
        assert isinstance(picture, BlobResourceContents)
        assert picture.mime_type == "image/png"
        assert decode_png_b64(picture.blob)[:2] == (32, 32)
        assert base64.b64decode(picture.blob)[:4] == b"\x89PNG"

        prompt = await client.get_prompt(
            "write_email", {"recipient": "Sam", "topic": "the picnic", "tone": "formal"}
        )
        (message,) = prompt.messages
        assert message.role == "user"
        assert isinstance(message.content, TextContent)
        assert message.content.text.startswith("Write a formal email to Sam about the picnic.")


async def test_completion_suggests_prompt_and_template_values(mode: str) -> None:
    async with demo_client(mode) as client:
        assert client.server_capabilities.completions is not None
        tone = await client.complete(PromptReference(name="write_email"), {"name": "tone", "value": "f"})
        assert tone.completion.values == ["friendly", "formal"]
        notes = await client.complete(
            ResourceTemplateReference(uri="demo://notes/{name}"), {"name": "name", "value": ""}
        )
        assert notes.completion.values == ["shopping", "welcome"]
        nothing = await client.complete(
            PromptReference(name="write_email"), {"name": "recipient", "value": "A"}
        )
        assert nothing.completion.values == []
