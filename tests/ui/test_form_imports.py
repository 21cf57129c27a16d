"""Issue 11, section 5: the form's modules import one way (base <- editor <- row <- editors <- form), with
no cycle — not even one hidden in a function or under TYPE_CHECKING — and the editor registry is typed.
"""

from __future__ import annotations

import ast
from pathlib import Path

from app.ui.forms.editor import EDITORS, Editor, EditorMixin

PACKAGE = "app.ui.forms"
FOLDER = Path(__file__).resolve().parents[2] / "app" / "ui" / "forms"


def imports_of(path: Path) -> set[str]:
    """The `app.ui.forms` modules `path` imports, anywhere in the file."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == PACKAGE:
                found.update(f"{PACKAGE}.{alias.name}" for alias in node.names)
            elif node.module.startswith(PACKAGE + "."):
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith(PACKAGE + "."))
    return found


def graph() -> dict[str, set[str]]:
    modules = {f"{PACKAGE}.{p.stem}": p for p in FOLDER.glob("*.py") if p.stem != "__init__"}
    return {name: imports_of(path) & set(modules) for name, path in modules.items()}


def cycle(edges: dict[str, set[str]]) -> list[str]:
    """One import cycle, as the list of modules along it, or [] when there is none."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return []

    for start in sorted(edges):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return []


def test_the_cycle_finder_finds_one() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) == []


def test_the_form_modules_import_each_other_without_a_cycle() -> None:
    edges = graph()
    assert f"{PACKAGE}.row" in edges and f"{PACKAGE}.base" in edges
    assert cycle(edges) == []
    # The foundations know nothing above them.
    assert edges[f"{PACKAGE}.base"] == set()
    assert edges[f"{PACKAGE}.editor"] <= {f"{PACKAGE}.completion"}
    assert f"{PACKAGE}.row" not in edges[f"{PACKAGE}.editor"] | edges[f"{PACKAGE}.base"]


def test_every_registered_editor_has_the_editor_interface() -> None:
    import app.ui.forms.form_widget  # noqa: F401  (registers the editors)

    assert {"text", "number", "boolean", "choice", "object", "array", "variants", "json"} <= set(EDITORS)
    names = [n for n in Editor.__dict__ if not n.startswith("_") and n not in ("field", "env")]
    for kind, cls in EDITORS.items():
        assert issubclass(cls, EditorMixin), kind
        for name in names:
            assert hasattr(cls, name), (kind, name)
