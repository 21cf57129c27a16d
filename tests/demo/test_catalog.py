"""The demo server's catalog, as a client sees it over stdio in both protocol eras."""

from __future__ import annotations

from typing import Any

import anyio
import jsonschema
import pytest

from tests.demo.support import MODES, demo_client

EXPECTED_TOOLS = {
    "echo",
    "create_contact",
    "configure_service",
    "draw_badge",
    "slow_count",
    "weather",
    "list_notes",
    "add_note",
    "delete_note",
    "fail",
    "toggle_bonus_tool",
    "book_table",
    "ask_model",
}


def resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    """Follow a local `$ref` (the only kind pydantic emits)."""
    while "$ref" in node:
        ref = node["$ref"]
        assert ref.startswith("#/$defs/"), ref
        node = schema["$defs"][ref.removeprefix("#/$defs/")]
    return node


def nullable_inner(node: dict[str, Any]) -> dict[str, Any]:
    """For `anyOf: [X, {type: null}]` return X; fail if the field is not nullable."""
    variants = node["anyOf"]
    assert {"type": "null"} in variants
    (inner,) = [v for v in variants if v != {"type": "null"}]
    return inner


@pytest.fixture(params=MODES)
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


async def _fetch_tools(mode: str) -> dict[str, Any]:
    async with demo_client(mode) as client:
        result = await client.list_tools()
        assert result.next_cursor is None
        return {t.name: t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in result.tools}


@pytest.fixture(scope="module", params=MODES)
def tools_by_mode(request: pytest.FixtureRequest) -> dict[str, Any]:
    """One server per era for the read-only schema checks (each spawn costs about a second)."""
    return anyio.run(_fetch_tools, request.param)


def test_every_tool_is_listed_with_a_title_description_and_valid_schema(
    tools_by_mode: dict[str, Any],
) -> None:
    tools = tools_by_mode
    assert set(tools) == EXPECTED_TOOLS
    for name, tool in tools.items():
        assert tool.get("title"), name
        description = tool.get("description", "")
        assert len(description) > 10, name
        assert description == description.strip() and "\n " not in description, f"{name}: indented docstring"
        jsonschema.Draft202012Validator.check_schema(tool["inputSchema"])
        assert tool["inputSchema"]["type"] == "object"
    # Only the weather tool publishes an output schema; the others answer with plain content.
    assert [n for n, t in tools.items() if "outputSchema" in t] == ["weather"]
    jsonschema.Draft202012Validator.check_schema(tools["weather"]["outputSchema"])


def test_contact_schema_has_nesting_arrays_titled_enums_nullables_and_formats(
    tools_by_mode: dict[str, Any],
) -> None:
    schema = tools_by_mode["create_contact"]["inputSchema"]
    assert schema["required"] == ["contact"]
    contact = resolve(schema, schema["properties"]["contact"])
    props = contact["properties"]
    assert {"Contact", "Address", "Phone"} <= set(schema["$defs"])
    # Nested object by $ref, array of objects by $ref.
    assert resolve(schema, props["address"])["properties"]["city"]["minLength"] == 1
    assert props["phones"]["type"] == "array"
    assert props["phones"]["maxItems"] == 5
    phone = resolve(schema, props["phones"]["items"])
    assert phone["type"] == "object"
    assert set(phone["properties"]) == {"kind", "number"}
    # Titled enum: oneOf of const/title.
    assert props["priority"]["oneOf"][2] == {"const": "urgent", "title": "Urgent — today"}
    assert props["priority"]["default"] == "normal"
    # Nullable fields and formats.
    assert nullable_inner(props["nickname"]) == {"type": "string"}
    assert nullable_inner(props["birthday"])["format"] == "date"
    assert nullable_inner(props["website"])["format"] == "uri"
    assert props["email"]["format"] == "email"
    age = nullable_inner(props["age"])
    assert (age["minimum"], age["maximum"]) == (0, 150)
    assert set(contact["required"]) == {"name", "email", "address"}


def test_service_schema_has_secret_bounds_and_shared_nullable_ref(tools_by_mode: dict[str, Any]) -> None:
    schema = tools_by_mode["configure_service"]["inputSchema"]
    settings = resolve(schema, schema["properties"]["settings"])
    props = settings["properties"]
    assert props["api_key"]["writeOnly"] is True
    assert props["api_key"]["format"] == "password"
    timeout = props["timeout_seconds"]
    assert (timeout["minimum"], timeout["maximum"], timeout["multipleOf"]) == (0.5, 120, 0.5)
    assert props["mode"]["oneOf"][0] == {"const": "safe", "title": "Safe (recommended)"}
    # The same $defs entry is used by a plain field and by a nullable one.
    assert props["active_hours"]["$ref"] == "#/$defs/TimeWindow"
    assert nullable_inner(props["maintenance_window"]) == {"$ref": "#/$defs/TimeWindow"}


def test_annotations_mark_destructive_and_read_only_tools(tools_by_mode: dict[str, Any]) -> None:
    tools = tools_by_mode
    assert tools["delete_note"]["annotations"]["destructiveHint"] is True
    for name in ("echo", "list_notes", "weather", "draw_badge"):
        assert tools[name]["annotations"]["readOnlyHint"] is True, name
    assert "destructiveHint" not in tools["list_notes"]["annotations"]


@pytest.mark.anyio
async def test_resources_template_and_prompt_are_listed(mode: str) -> None:
    async with demo_client(mode) as client:
        resources = {str(r.uri): r for r in (await client.list_resources()).resources}
        templates = (await client.list_resource_templates()).resource_templates
        prompts = (await client.list_prompts()).prompts
        assert set(resources) == {"demo://readme", "demo://activity", "demo://badge.png"}
        assert resources["demo://readme"].mime_type == "text/markdown"
        assert [t.uri_template for t in templates] == ["demo://notes/{name}"]
        (prompt,) = prompts
        assert prompt.name == "write_email"
        assert prompt.title == "Write an email"
        args = {a.name: a.required for a in prompt.arguments or []}
        assert args == {"recipient": True, "topic": True, "tone": False}
        assert client.server_info is not None
        assert client.server_info.name == "mcp-desk-demo"
