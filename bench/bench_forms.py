"""Forms figures: FormWidget build time (largest and median corpus schema), corpus coverage, screenshots.

Run: `.venv/bin/python bench/bench_forms.py [--shots]` (offscreen). Prints milliseconds and counts; with
`--shots` it also saves the screenshots of five representative tools to docs/forms/ (and docs/forms.png).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.support.corpus import SCHEMAS_DIR  # noqa: E402

SCHEMAS = SCHEMAS_DIR
DOCS = REPO / "docs"

SHOTS: list[tuple[str, str, int, int, Any]] = [
    # (server, tool, width, height, arguments to show: None = the untouched form, with its errors shown)
    (
        "google-calendar-mcp",
        "create-event",
        720,
        940,
        {
            "calendarId": "primary",
            "summary": "Team lunch",
            "start": "2026-12-04T12:30:00",
            "end": "2026-12-04T13:30:00",
            "attendees": [{"email": "ana@example.com"}, {"email": "bo@example.com"}],
        },
    ),
    (
        "notion-mcp-server",
        "API-post-page",
        720,
        620,
        {
            "parent": {"type": "workspace"},
            "properties": {"title": "Notes", "Tags": ["home", "ideas"]},
        },
    ),
    ("rootly-mcp", "create_workflow_task", 720, 940, None),
    ("mcp-server-github", "create_pull_request", 640, 700, {"owner": "octo", "repo": "desk", "draft": True}),
    (
        "mcp-server-everything",
        "trigger-sampling-request",
        600,
        380,
        {"prompt": "Write a haiku", "maxTokens": 100},
    ),
]
BEST = ("google-calendar-mcp", "create-event")


def corpus() -> list[tuple[str, str, Any]]:
    out = []
    for path in sorted(SCHEMAS.glob("*.json")):
        for tool in json.loads(path.read_text(encoding="utf-8")).get("tools") or []:
            out.append((path.stem, tool["name"], tool.get("inputSchema")))
    return out


def nodes(schema: Any) -> int:
    """Schema nodes (dicts), for "largest" and "median": the measure the design notes use."""
    if isinstance(schema, dict):
        return 1 + sum(nodes(v) for v in schema.values())
    if isinstance(schema, list):
        return sum(nodes(v) for v in schema)
    return 0


def fallbacks(form: Any, max_depth: int = 10) -> collections.Counter[str]:
    """JSON editors in a form, by reason, walking every alternative and level (recursion cut at depth)."""
    from app.forms import ArrayField, JsonField, ObjectField, VariantField

    found: collections.Counter[str] = collections.Counter()

    def walk(field: Any, depth: int, free_value: bool = False) -> None:
        if depth > max_depth:
            return
        if isinstance(field, JsonField):
            if free_value:
                found["(value of a free-form map: any JSON by design)"] += 1
            else:
                found[", ".join(field.keywords) or field.reason or "?"] += 1
        elif isinstance(field, ObjectField):
            for prop in field.properties:
                walk(prop, depth + 1)
            if field.additional_field is not None:
                walk(field.additional_field, depth + 1, free_value=not field.additional_schema)
        elif isinstance(field, ArrayField):
            walk(field.item_field, depth + 1)
        elif isinstance(field, VariantField):
            for option in field.options:
                walk(option, depth + 1)

    walk(form.root, 0)
    return found


def time_build(schema: Any, repeat: int) -> tuple[float, float, float]:
    """Median ms: construct the FormWidget (first screen of rows); construct and paint once (grab);
    construct and build every row a wide form leaves for later event-loop turns."""
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    from app.ui.forms import FormWidget

    build, paint, full = [], [], []
    for _ in range(repeat):
        started = time.perf_counter()
        widget = FormWidget(schema)
        build.append(time.perf_counter() - started)
        widget.resize(720, 800)
        widget.grab()
        paint.append(time.perf_counter() - started)
        widget.deleteLater()
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        started = time.perf_counter()
        widget = FormWidget(schema)
        widget.finish_building()
        full.append(time.perf_counter() - started)
        widget.deleteLater()
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    return statistics.median(build) * 1000, statistics.median(paint) * 1000, statistics.median(full) * 1000


def top_level_fields(schema: Any) -> int:
    props = schema.get("properties") if isinstance(schema, dict) else None
    return len(props) if isinstance(props, dict) else 0


def shots() -> list[Path]:
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    from app.ui.forms import FormWidget

    tools = {(s, t): schema for s, t, schema in corpus()}
    out_dir = DOCS / "forms"
    out_dir.mkdir(parents=True, exist_ok=True)
    saved = []
    for server, tool, width, height, value in SHOTS:
        widget = FormWidget(tools[(server, tool)])
        if value is not None:
            widget.set_value(value)
        widget.show_errors()
        widget.setWindowTitle(f"{server} / {tool}")
        widget.resize(width, height)
        widget.show()
        QApplication.processEvents()
        path = out_dir / f"{server}__{tool}.png"
        widget.grab().save(str(path))
        saved.append(path)
        if (server, tool) == BEST:
            widget.grab().save(str(DOCS / "forms.png"))
        widget.close()
        widget.deleteLater()
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    return saved


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shots", action="store_true", help="also save the screenshots under docs/")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    if not SCHEMAS.is_dir():
        print(f"no corpus at {SCHEMAS}", file=sys.stderr)
        return 1

    from PySide6.QtCore import QEvent, qInstallMessageHandler
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    qt_warnings: list[str] = []
    qInstallMessageHandler(lambda _mode, _ctx, message: qt_warnings.append(message))

    from app.forms import build_form
    from app.ui.forms import FormWidget

    tools = corpus()
    by_size = sorted(tools, key=lambda t: nodes(t[2]))
    largest, median = by_size[-1], by_size[len(by_size) // 2]
    time_build(median[2], 2)  # warm up imports and Qt's caches

    widest = max(tools, key=lambda t: (top_level_fields(t[2]), nodes(t[2])))
    print(
        f"FormWidget build time, median of {args.repeat} runs (load average {os.getloadavg()[0]:.1f} on "
        f"{os.cpu_count()} CPUs): construct / construct + first paint / construct + every row built"
    )
    for label, (server, tool, schema) in (("largest", largest), ("median", median), ("widest", widest)):
        build_ms, paint_ms, full_ms = time_build(schema, args.repeat)
        print(
            f"  {label:8} {server}/{tool} ({nodes(schema)} schema nodes, "
            f"{top_level_fields(schema)} top-level fields, {len(json.dumps(schema))} bytes): "
            f"{build_ms:.1f} / {paint_ms:.1f} / {full_ms:.1f} ms"
        )
    print("  goal: <= 50 ms for the largest")

    built = widgets = valid = only_required = 0
    reasons: collections.Counter[str] = collections.Counter()
    tools_with_fallback = 0
    examples: list[str] = []
    build_times = []
    started = time.perf_counter()
    for _server, _tool, schema in tools:
        form = build_form(schema)
        built += 1
        errors = form.validate(form.default_value())
        valid += not errors
        only_required += bool(errors) and all(e.keyword == "required" for e in errors)
        found = fallbacks(form)
        reasons.update(found)
        real = sorted(k for k in found if not k.startswith("(value of"))
        tools_with_fallback += bool(real)
        if real:
            examples.append(f"{_server}/{_tool}: {', '.join(real)}")
        t0 = time.perf_counter()
        widget = FormWidget(schema, form=form)
        build_times.append(time.perf_counter() - t0)
        widgets += 1
        widget.deleteLater()
        app.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    elapsed = time.perf_counter() - started

    print(f"\nCorpus: {len(tools)} tools from {len(list(SCHEMAS.glob('*.json')))} servers")
    print(f"  forms built (model):           {built}")
    print(f"  FormWidgets built (offscreen): {widgets}, Qt warnings: {len(qt_warnings)}")
    print(f"  default arguments valid:       {valid}")
    print(f"  ... else only 'required' errors for fields without a default: {only_required}")
    print(f"  other default problems:        {len(tools) - valid - only_required}")
    build_times.sort()
    print(
        f"  widget build ms: median {build_times[len(build_times) // 2] * 1000:.1f}, "
        f"p95 {build_times[int(len(build_times) * 0.95)] * 1000:.1f}, max {build_times[-1] * 1000:.1f}; "
        f"whole corpus {elapsed:.1f} s"
    )
    print(f"  tools with a JSON-editor fallback (not counting free-form maps): {tools_with_fallback}")
    print("  JSON editors by reason (all levels and alternatives, depth <= 10):")
    for reason, count in reasons.most_common():
        print(f"    {count:6}  {reason}")
    print("  tools with a fallback:")
    for example in examples:
        print(f"    {example}")

    if args.shots:
        print("\nScreenshots:")
        for path in shots():
            print(f"  {path.relative_to(REPO)}")
        print(f"  best: {(DOCS / 'forms.png').relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
