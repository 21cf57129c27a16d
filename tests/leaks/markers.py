"""Marker secrets and the search for them, for the leak test.

A marker is a unique value per run, `LEAKMARK-KIND-<hex>"& +<hex>`: the quote, ampersand, space
and plus make its JSON, Python and URL spellings differ from the plain one, and the two random
hex cores are searched on their own too, so a piece of a marker (cut, re-encoded, quoted) is a hit
as well. Its base64 forms are searched at the three byte alignments, so a marker inside a larger
base64 text (`Basic user:secret`) is found.

`Search` keeps what it looked at (each output's or file's name and size, grouped), so the test can
print the list of what was searched with counts, and every hit with the place it was found.
"""

from __future__ import annotations

import base64
import json
import math
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, quote_plus

PREFIX = "LEAKMARK"


@dataclass(frozen=True)
class Marker:
    kind: str
    value: str
    cores: tuple[str, ...]

    @classmethod
    def new(cls, kind: str, *, header_safe: bool = False) -> Marker:
        a, b = uuid.uuid4().hex[:16], uuid.uuid4().hex[:16]
        # A header value or a bearer token may not hold every character; these do.
        value = f"{PREFIX}-{kind}-{a}&+{b}" if header_safe else f'{PREFIX}-{kind}-{a}"& +{b}'
        return cls(kind, value, (a, b))

    @classmethod
    def token_prefix(cls, kind: str) -> Marker:
        """A prefix for tokens a server issues (token characters only): every token is a hit."""
        a, b = uuid.uuid4().hex[:16], uuid.uuid4().hex[:16]
        return cls(kind, f"{PREFIX}-{kind}-{a}-{b}-", (a, b))

    def needles(self) -> dict[str, str]:
        """Spelling name -> text to look for."""
        v = self.value
        out = {
            "plain": v,
            "json-escaped": json.dumps(v)[1:-1],
            "python-repr": repr(v)[1:-1],
            "url-encoded": quote(v, safe=""),
            "url-encoded (form)": quote_plus(v, safe=""),
        }
        for i, core in enumerate(self.cores):
            out[f"core {i + 1}"] = core
        raw = v.encode()
        for k in range(3):
            for name, enc in (("base64", base64.b64encode), ("base64url", base64.urlsafe_b64encode)):
                text = enc(b"\0" * k + raw).decode()
                # Only the characters that depend on the marker's bytes alone.
                out[f"{name} (offset {k})"] = text[math.ceil(8 * k / 6) : (8 * (k + len(raw))) // 6]
        return out


@dataclass
class Hit:
    where: str
    marker: str
    spelling: str
    context: str

    def __str__(self) -> str:
        return f"{self.where}: marker {self.marker!r} ({self.spelling}) in ...{self.context}..."


@dataclass
class Search:
    markers: list[Marker]
    searched: dict[str, list[tuple[str, int]]] = field(default_factory=lambda: defaultdict(list))
    hits: list[Hit] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._needles = [(m.kind, name, n) for m in self.markers for name, n in m.needles().items()]

    def text(self, group: str, where: str, text: str) -> None:
        """Search one output (a CLI command's stdout, a pane's text, an exception's message)."""
        self.searched[group].append((where, len(text)))
        for kind, spelling, needle in self._needles:
            at = text.find(needle)
            if at >= 0:
                context = text[max(0, at - 60) : at + len(needle) + 20].replace("\n", "⏎")
                self.hits.append(Hit(f"{group}: {where}", kind, spelling, context))

    def tree(self, group: str, root: Path) -> None:
        """Search every file under `root` (bytes, decoded as UTF-8 with replacement)."""
        if not root.exists():
            self.searched[group].append((f"{root} (does not exist)", 0))
            return
        for path in sorted(p for p in root.rglob("*") if p.is_file() and not p.is_symlink()):
            self.text(group, str(path.relative_to(root.parent)), path.read_bytes().decode("utf-8", "replace"))

    def summary(self) -> str:
        per_marker = len(self._needles) // len(self.markers)
        lines = [f"Searched for {len(self.markers)} markers x {per_marker} spellings in:"]
        total_items = total_chars = 0
        for group, items in self.searched.items():
            chars = sum(n for _, n in items)
            total_items += len(items)
            total_chars += chars
            lines.append(f"  {group}: {len(items)} item(s), {chars} characters")
            for where, n in items:
                lines.append(f"      {where} ({n})")
        lines.append(f"  total: {total_items} item(s), {total_chars} characters; {len(self.hits)} hit(s)")
        return "\n".join(lines)

    def report_hits(self) -> str:
        return "\n".join(str(h) for h in self.hits)
