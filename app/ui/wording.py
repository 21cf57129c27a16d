"""Sentences the window builds from pieces: placeholders filled in, and the "tools changed" notice.

`fill("Couldn't connect to %1: %2", name, reason)` puts each value in its place in one pass, so a
server name that itself holds "%2" stays as it is (a chain of `.replace` calls would fill it in).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from PySide6.QtCore import QObject

# Re-exported: the window's modules take the app's one placeholder filler from here.
from app.words import fill as fill


def english_plural(text: str, n: int) -> str:
    """A `%n …(s)` string that no translation answered (no English .qm loaded, as in a test or a
    bare run): "1 tool(s)" → "1 tool", "2 tool(s)" → "2 tools". A translation has no "(s)"."""
    return text.replace("(s)", "" if n == 1 else "s")


class Diff(Protocol):
    added: Sequence[str]
    removed: Sequence[str]
    changed: Sequence[str]


class CatalogNotice(QObject):
    """The sentences of the "tools changed" notice. A QObject for its `tr`: lupdate marks a
    string as a plural only in a `tr(text, "", n)` call."""

    def first(self, kind: str, label: str, n: int) -> str | None:
        """The first part, naming the kind ("2 tools added"); each sentence written out whole,
        with its plural, so a translation can order it freely."""
        sentences = {
            ("tools", "added"): lambda: self.tr("%n tool(s) added", "", n),
            ("tools", "removed"): lambda: self.tr("%n tool(s) removed", "", n),
            ("tools", "changed"): lambda: self.tr("%n tool(s) changed", "", n),
            ("resources", "added"): lambda: self.tr("%n resource(s) added", "", n),
            ("resources", "removed"): lambda: self.tr("%n resource(s) removed", "", n),
            ("resources", "changed"): lambda: self.tr("%n resource(s) changed", "", n),
            ("resource_templates", "added"): lambda: self.tr("%n template(s) added", "", n),
            ("resource_templates", "removed"): lambda: self.tr("%n template(s) removed", "", n),
            ("resource_templates", "changed"): lambda: self.tr("%n template(s) changed", "", n),
            ("prompts", "added"): lambda: self.tr("%n prompt(s) added", "", n),
            ("prompts", "removed"): lambda: self.tr("%n prompt(s) removed", "", n),
            ("prompts", "changed"): lambda: self.tr("%n prompt(s) changed", "", n),
        }
        sentence = sentences.get((kind, label))
        return english_plural(sentence(), n) if sentence is not None else None

    def next(self, label: str, n: int) -> str:
        """A later part ("1 removed"): the kind was named by the first."""
        if label == "added":
            return self.tr("%n added", "", n)
        if label == "removed":
            return self.tr("%n removed", "", n)
        return self.tr("%n changed", "", n)

    def detail(self, label: str, names: str) -> str:
        if label == "added":
            return fill(self.tr("added: %1"), names)
        if label == "removed":
            return fill(self.tr("removed: %1"), names)
        return fill(self.tr("changed: %1"), names)

    def separator(self) -> str:
        return self.tr(", ")


def describe_diff(kind: str, diff: Diff) -> tuple[str, str]:
    """("2 tools added, 1 removed", "added: a, b\nremoved: c") for the notice and its tooltip."""
    words = CatalogNotice()
    parts: list[str] = []
    details: list[str] = []
    for label, names in (("added", diff.added), ("removed", diff.removed), ("changed", diff.changed)):
        if not names:
            continue
        n = len(names)
        first = None if parts else words.first(kind, label, n)
        parts.append(first if first is not None else words.next(label, n))
        details.append(words.detail(label, ", ".join(names)))
    return words.separator().join(parts), "\n".join(details)
