"""Lets hypothesis-jsonschema 0.23 run on current Hypothesis (test-only glue).

hypothesis-jsonschema draws object properties through Hypothesis' private `cu.many(...)` with a
`.more()` / `.reject()` interface; Hypothesis 6.150+ replaced it with a context manager. This supplies
the old interface on top of the public-enough `ConjectureData.draw_boolean`.
"""

from __future__ import annotations

import types
from typing import Any

import hypothesis_jsonschema._from_schema as from_schema_module
from hypothesis.internal.conjecture import utils as cu


class LegacyMany:
    def __init__(self, data: Any, min_size: int, max_size: float, average_size: float) -> None:
        self.data = data
        self.min_size = min_size
        self.max_size = max_size
        self.count = 0
        self.p_continue = cu._calc_p_continue(average_size - min_size, max_size - min_size)

    def more(self) -> bool:
        if self.count < self.min_size:
            go = True
        elif self.count >= self.max_size:
            go = False
        else:
            go = bool(self.data.draw_boolean(self.p_continue))
        if go:
            self.count += 1
        return go

    def reject(self) -> None:
        self.count = max(0, self.count - 1)


def install() -> None:
    """Idempotent: give hypothesis-jsonschema a `cu` namespace whose `many` has the old interface."""
    current = from_schema_module.cu
    if getattr(current, "many", None) is LegacyMany:
        return
    if hasattr(cu.many, "more"):  # an older Hypothesis: nothing to do
        return
    shim = types.SimpleNamespace(**{k: getattr(cu, k) for k in dir(cu) if not k.startswith("__")})
    shim.many = LegacyMany
    from_schema_module.cu = shim  # type: ignore[assignment]
