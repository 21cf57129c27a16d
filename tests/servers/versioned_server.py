"""An SDK stdio server whose one tool changes its form from one start to the next.

    python -m tests.servers.versioned_server VERSION_FILE

It reads VERSION_FILE when it starts: "1" gives `book_trip(city, nights: int)`, "2" gives
`book_trip(guests: int, city, nights: "one" | "two" | "many")` — `city` the same, `nights` now
a choice (a number typed for it no longer fits) and a new required `guests`. A test rewrites the
file between two connections to see what the window keeps of what was typed.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from pydantic import Field


def main() -> int:
    version = Path(sys.argv[1]).read_text(encoding="utf-8").strip()
    server: MCPServer = MCPServer("versioned", log_level="WARNING")

    if version == "1":

        def book_trip(
            city: Annotated[str, Field(title="City")],
            nights: Annotated[int, Field(title="Nights", ge=1, le=30)] = 1,
        ) -> str:
            """Book a trip (version 1)."""
            return f"{nights} night(s) in {city}"

    else:

        def book_trip(  # type: ignore[misc]  # the other version of the same tool
            guests: Annotated[int, Field(title="Guests", ge=1)],
            city: Annotated[str, Field(title="City")],
            nights: Annotated[Literal["one", "two", "many"], Field(title="Nights")] = "one",
        ) -> str:
            """Book a trip (version 2)."""
            return f"{nights} night(s) in {city} for {guests}"

    server.add_tool(book_trip)
    server.add_tool(other_tool)
    server.run("stdio")
    return 0


def other_tool(note: Annotated[str, Field(title="Note")] = "") -> str:
    """Somewhere else to look."""
    return note


if __name__ == "__main__":
    sys.exit(main())
