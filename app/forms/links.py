"""Markdown links in a schema's descriptions, for plain-text display.

Servers write field descriptions in Markdown (`See [the docs](https://example.com/x)`). Shown as
plain text the brackets and the address get in the way, and rendering them as rich text would be a
link into the server's hands. So a description is shown with each link's text only, and the
addresses are listed separately (the form puts them in a plain-text tooltip): nothing is fetched and
nothing is opened.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_LINK = re.compile(r"(!?)\[([^\[\]\n]{0,500})\]\(\s*<?([^()\s<>]{1,2000})>?(?:\s+\"[^\"\n]{0,500}\")?\s*\)")
"""`[text](url)`, `[text](<url> "title")`, and images `![alt](url)`."""
_AUTOLINK = re.compile(r"<((?:https?|mailto):[^<>\s]{1,2000})>")
"""`<https://example.com>`: the address itself is the text."""


@dataclass(frozen=True)
class Link:
    text: str
    url: str


def split_links(text: str) -> tuple[str, list[Link]]:
    """`text` with Markdown links replaced by their text (an image by its alt text), and the links."""
    links: list[Link] = []

    def inline(match: re.Match[str]) -> str:
        shown = match.group(2).strip() or match.group(3)
        links.append(Link(shown, match.group(3)))
        return shown

    def auto(match: re.Match[str]) -> str:
        links.append(Link(match.group(1), match.group(1)))
        return match.group(1)

    if "](" in text:
        text = _LINK.sub(inline, text)
    if "<" in text:
        text = _AUTOLINK.sub(auto, text)
    return text, links


def links_note(links: list[Link]) -> str:
    """The addresses, one a line (`text: url`), for a tooltip; empty when there are none."""
    lines = [link.url if link.text == link.url else f"{link.text}: {link.url}" for link in links]
    return "\n".join(dict.fromkeys(lines))
