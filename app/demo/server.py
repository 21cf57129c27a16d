"""The demo MCP server shipped inside MCP Desk.

It exists so a newcomer can connect to something at once, and so the app's own tests have a
server whose tools exercise every feature the GUI must render: rich input schemas, images,
progress and cancellation, structured output, tool annotations, tool errors, a catalog that
changes at run time, elicitation, sampling, resources, a resource template and a prompt.

Built on the SDK's `MCPServer`, so it speaks both protocol eras: the handshake era
(`initialize`, server→client requests) and 2026-07-28 (stateless, `input_required` results,
`subscriptions/listen`). Elicitation and sampling go through `Resolve(...)`, which picks the
right mechanism for the negotiated version.
"""

from __future__ import annotations

import datetime
import hashlib
import inspect
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, TypeVar

import anyio
from mcp.server.mcpserver import (
    AcceptedElicitation,
    Context,
    Elicit,
    ElicitationResult,
    Image,
    MCPServer,
    Resolve,
    Sample,
)
from mcp.server.mcpserver.prompts.base import Message, UserMessage
from mcp_types import (
    CallToolResult,
    Completion,
    CompletionArgument,
    CompletionContext,
    CreateMessageResult,
    PromptReference,
    ResourceTemplateReference,
    SamplingMessage,
    TextContent,
    ToolAnnotations,
)
from pydantic import Field

from app.demo.changes import ChangeNotifier
from app.demo.models import Contact, DayForecast, ServiceSettings, TableBooking, WeatherReport
from app.demo.png import Rgb, badge

logger = logging.getLogger(__name__)

F = TypeVar("F", bound=Callable[..., Any])

SERVER_NAME = "mcp-desk-demo"
SERVER_VERSION = "0.1.0"
BONUS_TOOL = "lucky_number"
TONES = ("friendly", "formal", "brief")
# What the person did when asked for the booking's details, in words (the protocol's actions).
REFUSALS = {"decline": "you said no", "cancel": "you closed the question without answering"}

INSTRUCTIONS = (
    "A demo server bundled with MCP Desk. Every tool is harmless: nothing leaves this computer. "
    "Try 'Echo' first, then 'Create a contact' to see a rich form."
)

COLORS: dict[str, Rgb] = {
    "teal": (0, 150, 136),
    "orange": (255, 140, 0),
    "purple": (103, 58, 183),
    "red": (211, 47, 47),
}

README = """# MCP Desk demo server

This server runs inside MCP Desk. It offers tools that show what MCP can do:

- **Echo** repeats what you type.
- **Create a contact** and **Configure a service** have rich forms.
- **Draw a badge** returns a picture.
- **Count slowly** shows how far it got; you can cancel it.
- **Weather report** answers with a table of (made-up) weather.
- **Book a table** asks you questions while it runs.
"""


@dataclass
class DemoState:
    """Everything the demo server remembers while it runs (in memory only)."""

    notes: dict[str, str] = field(
        default_factory=lambda: {
            "welcome": "Welcome to MCP Desk! This note is a resource you can read.",
            "shopping": "Milk, bread, coffee.",
        }
    )
    activity: deque[str] = field(default_factory=lambda: deque(maxlen=50))
    bonus_enabled: bool = False

    def record(self, line: str) -> None:
        stamp = datetime.datetime.now(datetime.UTC).strftime("%H:%M:%S")
        self.activity.append(f"{stamp} {line}")
        # Also on stderr, so a client's log pane has something real to show.
        logger.info("%s", line)


def _stable_number(text: str, low: int, high: int) -> int:
    """A deterministic pseudo-random number (the demo must answer the same way every time)."""
    digest = hashlib.sha256(text.encode()).digest()
    return low + int.from_bytes(digest[:4], "big") % (high - low + 1)


def _ask_booking(restaurant: str) -> Elicit[TableBooking]:
    return Elicit(f"Booking a table at {restaurant}. For how many people, and when?", TableBooking)


def _ask_model(question: str) -> Sample:
    return Sample(
        [SamplingMessage(role="user", content=TextContent(type="text", text=question))],
        max_tokens=200,
        system_prompt="Answer in one short paragraph.",
    )


def build_server() -> MCPServer:
    """Create the demo server with all its tools, resources and prompts registered."""
    state = DemoState()
    server: MCPServer = MCPServer(
        SERVER_NAME,
        title="MCP Desk demo",
        description="Tools that show what MCP servers can do.",
        instructions=INSTRUCTIONS,
        version=SERVER_VERSION,
        log_level="WARNING",
    )
    notifier = ChangeNotifier(server)
    # MCPServer configured the root logger at WARNING (on stderr); let our activity lines through.
    logging.getLogger(__name__).setLevel(logging.INFO)
    read_only = ToolAnnotations(read_only_hint=True, open_world_hint=False)

    def tool(*, structured_output: bool = False, **options: Any) -> Callable[[F], F]:
        """Register a tool whose description is its docstring without the source indentation
        (the SDK passes `__doc__` through as is, and clients show it as plain text).

        Structured output is off unless asked for: otherwise the SDK would publish an
        outputSchema for every `-> str` tool, and only `weather` is meant to show one.
        """

        def register(fn: F) -> F:
            description = inspect.cleandoc(fn.__doc__ or "")
            server.add_tool(fn, description=description, structured_output=structured_output, **options)
            return fn

        return register

    @tool(title="Echo", annotations=read_only)
    def echo(
        message: Annotated[str, Field(title="Message", description="Any text; it comes back unchanged.")],
    ) -> str:
        """Repeat the message back. The simplest possible tool: a good first try."""
        return message

    @tool(title="Create a contact", annotations=ToolAnnotations(idempotent_hint=False))
    def create_contact(
        contact: Annotated[Contact, Field(title="Contact")],
        notify: Annotated[bool, Field(title="Send a welcome email")] = False,
    ) -> str:
        """Add a person to the (imaginary) address book.

        A form to try: an address, a list of phone numbers, choices, optional fields, a date, an
        email address and a web address.
        """
        state.record(f"create_contact {contact.name}")
        phones = ", ".join(f"{p.kind} {p.number}" for p in contact.phones) or "no phone"
        lines = [
            f"Created contact {contact.name} <{contact.email}> ({contact.priority} priority).",
            f"Address: {contact.address.street}, {contact.address.postal_code} {contact.address.city}, "
            f"{contact.address.country}.",
            f"Phones: {phones}.",
        ]
        if contact.birthday is not None:
            lines.append(f"Birthday: {contact.birthday.isoformat()}.")
        if notify:
            lines.append("A welcome email would be sent (not really: this is a demo).")
        return "\n".join(lines)

    @tool(title="Configure a service")
    def configure_service(settings: Annotated[ServiceSettings, Field(title="Settings")]) -> str:
        """Check the settings of an imaginary web service.

        The API key field is write-only: the answer says how long it was, never what it was.
        """
        secret = settings.api_key.get_secret_value()
        state.record("configure_service")
        window = settings.maintenance_window
        maintenance = f"{window.start_hour}:00–{window.end_hour}:00" if window else "none"
        return (
            f"Service {settings.service_url} in {settings.mode} mode, timeout {settings.timeout_seconds} s, "
            f"{settings.retries} retries, active {settings.active_hours.start_hour}:00–"
            f"{settings.active_hours.end_hour}:00, maintenance {maintenance}. "
            f"API key received ({len(secret)} characters, not shown)."
        )

    @tool(title="Draw a badge", annotations=read_only)
    def draw_badge(
        color: Annotated[Literal["teal", "orange", "purple", "red"], Field(title="Colour")] = "teal",
        size: Annotated[int, Field(title="Size (pixels)", ge=8, le=256)] = 64,
    ) -> list[Any]:
        """Draw a coloured circle and return it as a PNG image."""
        return [f"A {color} badge, {size}×{size} pixels.", Image(data=badge(size, size, COLORS[color]))]

    @tool(title="Count slowly")
    async def slow_count(
        ctx: Context,
        to: Annotated[int, Field(title="Count to", ge=1, le=60)] = 5,
        delay_seconds: Annotated[float, Field(title="Seconds between numbers", ge=0.01, le=5)] = 1.0,
    ) -> str:
        """Count from 1, one number at a time, showing how far it got. You can cancel it."""
        done = 0
        try:
            for i in range(1, to + 1):
                await anyio.sleep(delay_seconds)
                done = i
                await ctx.report_progress(i, to, f"Counted {i} of {to}")
        except anyio.get_cancelled_exc_class():
            state.record(f"slow_count cancelled at {done} of {to}")
            raise
        state.record(f"slow_count finished {to}")
        return f"Counted to {to}."

    @tool(structured_output=True, title="Weather report", annotations=read_only)
    def weather(
        city: Annotated[str, Field(title="City", min_length=1, max_length=80)],
        unit: Annotated[Literal["celsius", "fahrenheit"], Field(title="Unit")] = "celsius",
    ) -> WeatherReport:
        """Made-up (but repeatable) weather for a city: today and the next three days."""
        kinds: list[Literal["sunny", "cloudy", "rain", "snow", "windy"]] = [
            "sunny",
            "cloudy",
            "rain",
            "snow",
            "windy",
        ]

        def temp(celsius: int) -> float:
            return float(celsius) if unit == "celsius" else round(celsius * 9 / 5 + 32, 1)

        base = _stable_number(city.lower(), -5, 30)
        today = datetime.date(2026, 1, 1) + datetime.timedelta(days=_stable_number(city, 0, 364))
        forecast = [
            DayForecast(
                day=today + datetime.timedelta(days=d),
                high=temp(base + _stable_number(f"{city}{d}h", 0, 6)),
                low=temp(base - _stable_number(f"{city}{d}l", 0, 8)),
                conditions=kinds[_stable_number(f"{city}{d}", 0, 4)],
            )
            for d in range(1, 4)
        ]
        return WeatherReport(
            city=city,
            unit=unit,
            temperature=temp(base),
            conditions=kinds[_stable_number(city, 0, 4)],
            humidity_percent=_stable_number(city + "h", 20, 95),
            forecast=forecast,
        )

    @tool(title="List notes", annotations=read_only)
    def list_notes() -> str:
        """List the names of the notes this server keeps. It changes nothing."""
        return "\n".join(sorted(state.notes)) or "(no notes)"

    @tool(title="Add a note", annotations=ToolAnnotations(destructive_hint=False))
    async def add_note(
        ctx: Context,
        name: Annotated[str, Field(title="Name", pattern=r"^[a-z0-9-]{1,40}$")],
        text: Annotated[str, Field(title="Text", max_length=2000)],
    ) -> str:
        """Add a note, or replace the one with that name. Read it later under Resources, “A note”."""
        state.notes[name] = text
        state.record(f"add_note {name}")
        await notifier.resource_updated(ctx, f"demo://notes/{name}")
        return f"Saved note {name}."

    @tool(
        title="Delete a note",
        annotations=ToolAnnotations(destructive_hint=True, idempotent_hint=True, open_world_hint=False),
    )
    async def delete_note(ctx: Context, name: Annotated[str, Field(title="Name")]) -> CallToolResult:
        """Delete a note for good. MCP Desk asks you before it runs."""
        if state.notes.pop(name, None) is None:
            return CallToolResult(
                content=[TextContent(type="text", text=f"No note named {name}.")], is_error=True
            )
        state.record(f"delete_note {name}")
        await notifier.resource_updated(ctx, f"demo://notes/{name}")
        return CallToolResult(content=[TextContent(type="text", text=f"Deleted note {name}.")])

    @tool(title="Always fails")
    def fail(
        reason: Annotated[str, Field(title="Reason")] = "This tool fails on purpose.",
    ) -> CallToolResult:
        """Always answer with a problem, to show how a tool's error looks."""
        return CallToolResult(content=[TextContent(type="text", text=reason)], is_error=True)

    def lucky_number(name: Annotated[str, Field(title="Your name")]) -> str:
        """A tool that exists only while the bonus is switched on."""
        return f"{name}, your lucky number is {_stable_number(name, 1, 99)}."

    @tool(title="Add or remove the bonus tool")
    async def toggle_bonus_tool(ctx: Context) -> str:
        """Add the “Lucky number” tool, or remove it if it is there: the tools change as you watch."""
        if state.bonus_enabled:
            server.remove_tool(BONUS_TOOL)
            state.bonus_enabled = False
            verb = "Removed"
        else:
            tool(name=BONUS_TOOL, title="Lucky number", annotations=read_only)(lucky_number)
            state.bonus_enabled = True
            verb = "Added"
        state.record(f"toggle_bonus_tool {verb.lower()}")
        await notifier.tools_changed(ctx)
        return f"{verb} the tool “Lucky number”."

    @tool(title="Book a table")
    def book_table(
        booking: Annotated[ElicitationResult[TableBooking], Resolve(_ask_booking)],
        restaurant: Annotated[str, Field(title="Restaurant")] = "Chez Demo",
    ) -> str:
        """Book a table at a restaurant: the server asks you for the details while it runs."""
        if not isinstance(booking, AcceptedElicitation):
            state.record(f"book_table {booking.action}")
            return f"No booking made: {REFUSALS.get(booking.action, 'you did not answer')}."
        b: TableBooking = booking.data
        state.record(f"book_table {b.party_size} at {restaurant}")
        extras = ", vegetarian" if b.vegetarian else ""
        notes = f" Notes: {b.notes}" if b.notes else ""
        return (
            f"Booked a table for {b.party_size} at {restaurant} on {b.day.isoformat()}, "
            f"{b.seating}{extras}. Confirmation goes to {b.contact_email}.{notes}"
        )

    @tool(title="Ask your AI model")
    def ask_model(
        answer: Annotated[CreateMessageResult, Resolve(_ask_model)],
        question: Annotated[str, Field(title="Question")] = "Say hello in three languages.",
    ) -> str:
        """Ask your AI model a question and show its answer (MCP Desk asks you first)."""
        content = answer.content
        text = content.text if isinstance(content, TextContent) else f"({content.type} content)"
        return f"The model ({answer.model}) answered: {text}"

    @server.resource("demo://readme", name="readme", title="About this server", mime_type="text/markdown")
    async def readme() -> str:
        return README

    @server.resource("demo://activity", name="activity", title="Recent activity", mime_type="text/plain")
    async def activity() -> str:
        """What the tools did recently, one line each (newest last)."""
        return "\n".join(state.activity)

    @server.resource("demo://badge.png", name="badge", title="A small picture", mime_type="image/png")
    async def badge_png() -> bytes:
        return badge(32, 32, COLORS["purple"])

    @server.resource(
        "demo://notes/{name}",
        name="note",
        title="A note",
        description="One note, by name.",
        mime_type="text/plain",
    )
    async def note(name: str) -> str:
        if name not in state.notes:
            raise ValueError(f"No note named {name}.")
        return state.notes[name]

    @server.prompt(title="Write an email")
    def write_email(
        recipient: Annotated[str, Field(description="Who the email is for.")],
        topic: Annotated[str, Field(description="What it is about.")],
        tone: Annotated[
            str, Field(description="How it should sound: " + ", ".join(TONES) + ".")
        ] = "friendly",
    ) -> list[Message]:
        """Draft an email to someone about a topic, in a chosen tone."""
        return [UserMessage(f"Write a {tone} email to {recipient} about {topic}. Keep it under 120 words.")]

    async def complete(
        ref: PromptReference | ResourceTemplateReference,
        argument: CompletionArgument,
        context: CompletionContext | None,
    ) -> Completion | None:
        """Suggest values for the prompt's tone and the note template's name, by prefix."""
        if isinstance(ref, PromptReference) and ref.name == "write_email" and argument.name == "tone":
            choices = list(TONES)
        elif isinstance(ref, ResourceTemplateReference) and argument.name == "name":
            choices = sorted(state.notes)
        else:
            return None
        values = [c for c in choices if c.startswith(argument.value)]
        return Completion(values=values, total=len(values), has_more=False)

    # The SDK's `completion()` decorator has no annotations; registering by call keeps ours typed.
    server.completion()(complete)  # type: ignore[no-untyped-call]

    return server
