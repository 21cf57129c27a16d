"""The core must not know Qt: only app/ui (and the GUI entry point) may import PySide6 or qasync."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

APP = Path(__file__).resolve().parent.parent / "app"
QT_MODULES = ("PySide6", "qasync", "shiboken6")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_core_modules_do_not_import_qt() -> None:
    offenders = []
    for path in APP.rglob("*.py"):
        rel = path.relative_to(APP)
        if rel.parts[0] == "ui":
            continue
        for name in _imports(path):
            if name.split(".")[0] in QT_MODULES:
                offenders.append(f"{rel}: {name}")
    assert offenders == []


def test_cli_runs_without_importing_qt() -> None:
    code = (
        "import sys\n"
        "from app.__main__ import main\n"
        "try:\n"
        "    main(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'qasync', 'shiboken6')]\n"
        "print('QT:' + ','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "QT:" in out.stdout, out.stderr
    assert out.stdout.strip().endswith("QT:"), out.stdout


# The seam to the core (issue 11, section 5): the controller and the bridge use the engine's and
# the config's real types, never guesses about them.
SEAM = [APP / "ui" / "controller.py", APP / "ui" / "bridge.py"]
CORE_ATTRIBUTES = ("manager", "handlers", "_store", "_secrets", "_watcher", "_engine_import")
CORE_RESULTS = ("store", "secrets", "entries", "entry", "settings", "connection", "ensure_engine", "state")


GUESSES = ("getattr", "hasattr")


def _guesses(tree: ast.AST) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in GUESSES:
            found.append((line, f"{node.func.id}()"))
        elif isinstance(node, ast.Compare) and any(
            isinstance(n, ast.Attribute) and n.attr == "__name__" for n in ast.walk(node)
        ):
            found.append((line, "compares a class name"))  # (logging one is fine)
        elif (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Attribute)
            and node.target.attr in CORE_ATTRIBUTES
            and "Any" in ast.unparse(node.annotation)
        ):
            found.append((line, f"self.{node.target.attr} is Any"))
        elif (
            isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and node.name in CORE_RESULTS
            and (node.returns is None or "Any" in ast.unparse(node.returns))
        ):
            found.append((line, f"{node.name}() returns Any"))
    return found


def test_the_seam_does_not_guess_at_core_objects() -> None:
    problems = []
    for path in SEAM:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        problems += [f"{path.name}:{line}: {what}" for line, what in _guesses(tree)]
    assert problems == []
    # The check itself sees a guess when there is one.
    assert _guesses(ast.parse("if type(e).__name__ == 'StateChanged': getattr(e, 'state')")) == [
        (1, "compares a class name"),
        (1, "getattr()"),
    ]
