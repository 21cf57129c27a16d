"""Every config snippet collected from popular servers' READMEs imports (none is started here:
bench/snippets.py --start does that)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.config.snippets import read_snippet
from app.install.plan import apply

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "snippets"
SNIPPETS = sorted(CORPUS.glob("*/*.txt"))


def test_the_corpus_is_there() -> None:
    servers = {p.parent.name for p in SNIPPETS}
    assert len(servers) >= 12 and len(SNIPPETS) >= 100
    sources = (CORPUS / "SOURCES.md").read_text(encoding="utf-8")
    for path in SNIPPETS:
        assert f"| {path.parent.name} |" in sources and f"| {path.name} |" in sources


@pytest.mark.parametrize("path", SNIPPETS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_snippet_imports(path: Path) -> None:
    found = read_snippet(path.read_text(encoding="utf-8"), environ={})
    assert found.plans, found.warnings
    for plan in found.plans:
        assert plan.entry.problem is None, plan.entry.problem
        # Answering the questions gives a whole entry: no hole, no example value left.
        answers = {q.key: "/tmp" if q.kind == "directory" else "answer" for q in plan.questions}
        entry = apply(plan, answers).entry
        text = " ".join(
            [entry.command or "", *entry.args, *entry.env.values(), *entry.headers.values(), entry.url or ""]
        )
        assert "${ask:" not in text
        for q in plan.questions:
            assert not q.placeholder or q.placeholder not in text
