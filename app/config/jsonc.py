"""JSON with comments and trailing commas, as VS Code writes `mcp.json` and `settings.json`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.config.store import parse_json_text


def strip_jsonc(text: str) -> str:
    """Blank out `//` and `/* */` comments and trailing commas, keeping every line and column."""
    return _scan(_scan(text, comments=True), comments=False)


def _scan(text: str, *, comments: bool) -> str:
    # Pass one blanks comments; pass two (comments already gone) blanks trailing commas.
    out: list[str] = []
    i, n = 0, len(text)
    in_string = False
    while i < n:
        ch = text[i]
        if in_string:
            out.append(ch)
            if ch == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 2
                continue
            if ch == '"':
                in_string = False
            i += 1
        elif ch == '"':
            in_string = True
            out.append(ch)
            i += 1
        elif comments and text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
        elif comments and text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append("".join(c if c == "\n" else " " for c in text[i:end]))
            i = end
        elif not comments and ch == ",":
            j = i + 1
            while j < n and text[j] in " \t\r\n":
                j += 1
            out.append(" " if j < n and text[j] in "}]" else ",")
            i += 1
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def load_jsonc(path: Path) -> Any:
    """Parse a JSON or JSONC file; errors say `file:line:col`."""
    text = path.read_text(encoding="utf-8-sig")
    return parse_json_text(path, strip_jsonc(text))
