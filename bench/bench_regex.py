"""Regex figures: how long a form takes to answer on a pattern that backtracks without end, and how
long the window stalls meanwhile (target: answer <= 200 ms, stall <= 50 ms).

Run: `.venv/bin/python bench/bench_regex.py [--before-limit S]` (offscreen). "before" is jsonschema's
own validator with Python's `re` (what the app used until the patterns were bounded), run in a child
process that is stopped after S seconds; "after" is the app's Form.validate, the form widget's
error check on the Qt event loop, and the output-schema check.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

CASES = [
    # (label, pattern, text): the pattern, and one that is exponential in `regex` too
    ("^(a+)+$ on 34 a + !", "^(a+)+$", "a" * 34 + "!"),
    ("^(a|a)*$ on 34 a + !", "^(a|a)*$", "a" * 34 + "!"),
]


def schema_of(pattern: str) -> dict[str, object]:
    return {"type": "object", "properties": {"code": {"type": "string", "pattern": pattern}}}


def before(pattern: str, text: str, limit: float) -> str:
    code = (
        "import json, sys, jsonschema\n"
        "schema, value = json.loads(sys.argv[1]), json.loads(sys.argv[2])\n"
        "list(jsonschema.Draft202012Validator(schema).iter_errors(value))\n"
    )
    args = [sys.executable, "-c", code, json.dumps(schema_of(pattern)), json.dumps({"code": text})]
    started = time.perf_counter()
    try:
        subprocess.run(args, timeout=limit, check=True, capture_output=True)
    except subprocess.TimeoutExpired:
        return f"no answer after {limit:g} s (stopped)"
    return f"{(time.perf_counter() - started) * 1000:.0f} ms (incl. ~interpreter start)"


def fresh() -> None:
    """Forget remembered answers: each figure is a first check."""
    from app.forms.validation import forget_pattern_results

    forget_pattern_results()


def after_model(pattern: str, text: str) -> tuple[float, list[str]]:
    from app.forms import build_form

    fresh()
    form = build_form(schema_of(pattern))
    started = time.perf_counter()
    errors = form.validate({"code": text})
    ms = (time.perf_counter() - started) * 1000
    return ms, [f"{'/'.join(map(str, e.path))}: {e.message}" for e in errors]


def after_output(pattern: str, text: str) -> float:
    from app.mcp.results import check_structured, compile_validator

    validator = compile_validator(schema_of(pattern))
    fresh()
    started = time.perf_counter()
    check_structured(validator, {"code": text})
    return (time.perf_counter() - started) * 1000


def after_widget(pattern: str, text: str) -> tuple[float, float]:
    """(answer ms, longest event-loop stall ms) of the widget's error check, run on the loop."""
    from PySide6.QtCore import QElapsedTimer, QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    from app.ui.forms import FormWidget

    app = QApplication.instance() or QApplication([])
    widget = FormWidget(schema_of(pattern))
    widget.show()
    clock = QElapsedTimer()
    clock.start()
    last = [clock.elapsed()]
    worst = [0]
    answer = [0.0]

    def tick() -> None:
        now = clock.elapsed()
        worst[0] = max(worst[0], now - last[0])
        last[0] = now

    ticker = QTimer()
    ticker.setInterval(2)
    ticker.timeout.connect(tick)
    loop = QEventLoop()

    def check() -> None:
        fresh()
        started = time.perf_counter()
        widget.set_value({"code": text})
        widget.show_errors(widget.errors())
        answer[0] = (time.perf_counter() - started) * 1000
        QTimer.singleShot(50, loop.quit)

    ticker.start()
    QTimer.singleShot(50, lambda: (last.__setitem__(0, clock.elapsed()), worst.__setitem__(0, 0)))
    QTimer.singleShot(80, check)
    loop.exec()
    ticker.stop()
    widget.close()
    app.processEvents()
    return answer[0], float(worst[0])


def after_many(pattern: str, text: str, fields: int) -> tuple[float, int]:
    """Form.validate on a form with `fields` runaway fields: (ms, fields reported as too slow)."""
    from app.forms import build_form
    from app.forms.validation import PATTERN_TOO_SLOW

    names = [f"f{i}" for i in range(fields)]
    schema = {"type": "object", "properties": {n: {"type": "string", "pattern": pattern} for n in names}}
    form = build_form(schema)
    fresh()
    started = time.perf_counter()
    errors = form.validate({n: text + n for n in names})
    ms = (time.perf_counter() - started) * 1000
    return ms, sum(1 for e in errors if e.keyword == PATTERN_TOO_SLOW)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before-limit", type=float, default=10.0)
    opts = parser.parse_args()
    for label, pattern, text in CASES:
        print(f"== pattern {label}")
        print(f"  before  jsonschema + re:        {before(pattern, text, opts.before_limit)}")
        ms, errors = after_model(pattern, text)
        print(f"  after   Form.validate:          {ms:.1f} ms -> {errors}")
        print(f"  after   output-schema check:    {after_output(pattern, text):.1f} ms")
        answer, stall = after_widget(pattern, text)
        print(f"  after   widget error check:     answer {answer:.1f} ms, longest loop stall {stall:.0f} ms")
        ms, slow = after_many(pattern, text, 20)
        print(f"  after   20 such fields at once: {ms:.1f} ms, {slow} reported as too slow")


if __name__ == "__main__":
    main()
