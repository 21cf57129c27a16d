"""The demo server speaks to people: what MCP Desk shows of it (tool, field, prompt and resource
descriptions) has no protocol or schema words, and its results none either."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.demo.support import demo_client

# Words a person should not meet in the demo's texts (they belong to developer mode).
PROTOCOL_WORDS = (
    "$ref",
    "$defs",
    "isError",
    "is_error",
    "elicitation",
    "sampling",
    "null",
    "schema",
    "structured",
    "destructive",
    "read-only",
    "client",
)


def descriptions(node: Any) -> Iterator[str]:
    """Every "description" and "title" string anywhere in a schema (its $defs too)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("description", "title") and isinstance(value, str):
                yield value
            else:
                yield from descriptions(value)
    elif isinstance(node, list):
        for value in node:
            yield from descriptions(value)


def protocol_words(text: str) -> list[str]:
    return [w for w in PROTOCOL_WORDS if w.lower() in text.lower()]


@pytest.mark.anyio
async def test_texts_shown_to_people_have_no_protocol_words() -> None:
    async with demo_client("legacy") as client:
        texts: list[tuple[str, str]] = []
        for tool in (await client.list_tools()).tools:
            texts += [(tool.name, tool.description or ""), (tool.name, tool.title or "")]
            texts += [(tool.name, t) for t in descriptions(tool.input_schema)]
            texts += [(tool.name, t) for t in descriptions(tool.output_schema or {})]
        for prompt in (await client.list_prompts()).prompts:
            texts.append((prompt.name, prompt.description or ""))
            texts += [(prompt.name, a.description or "") for a in prompt.arguments or []]
        for res in (await client.list_resources()).resources:
            texts.append((str(res.uri), res.description or ""))
        for tpl in (await client.list_resource_templates()).resource_templates:
            texts.append((tpl.uri_template, tpl.description or ""))
        texts.append(("instructions", getattr(client, "instructions", None) or ""))
        found = [(where, text, protocol_words(text)) for where, text in texts if protocol_words(text)]
        assert not found, found
        # …nor in what the tools answer.
        failed = await client.call_tool("fail", {})
        answer = " ".join(getattr(c, "text", "") for c in failed.content)
        assert failed.is_error and not protocol_words(answer), answer
