"""Questions from JSON and answers from text: what the dialog and the CLI share.

A source that keeps its questions as JSON (an install link, a bundle's `user_config`, a registry's
variables, a test) turns each into a `Question` with `question_from_json`, which refuses a bad shape
with a plain sentence. `parse_answer` turns what was typed (`--set KEY=VALUE`, a terminal line)
into the answer `apply()` takes, and `answer_problem` says what is wrong with one (a number out of
range, a choice not offered), so both front ends check answers the same way.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from typing import Any, get_args

from app.install.plan import Answer, Kind, Question

KINDS: tuple[str, ...] = get_args(Kind)
MAX_TEXT = 4000
"""Longest label, description, default or placeholder taken from JSON (the rest is cut)."""
MAX_CHOICES = 200
TRUE_WORDS = frozenset({"1", "true", "yes", "y", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "n", "off"})


class BadQuestion(ValueError):
    """A question's JSON that cannot be used (the message says why, in plain words)."""


def _opt_text(data: Mapping[str, Any], key: str) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
    if not isinstance(value, str):
        raise BadQuestion(f"`{key}` must be text")
    return value[:MAX_TEXT]


def _opt_number(data: Mapping[str, Any], key: str) -> float | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise BadQuestion(f"`{key}` must be a number")
    return float(value)


def question_from_json(data: Any) -> Question:
    """A `Question` from `{"key", "label", "kind", "required", "secret", "default", ...}` (the
    field names of `Question`; `type` is taken for `kind`, `title` for `label`, `options` and
    `enum` for `choices`, `min`/`max` for `minimum`/`maximum`)."""
    if not isinstance(data, Mapping):
        raise BadQuestion("a question must be an object")
    key = data.get("key")
    if not isinstance(key, str) or not key.strip():
        raise BadQuestion("a question needs a `key`")
    kind = data.get("kind", data.get("type", "string"))
    if kind not in KINDS:
        raise BadQuestion(f"{key}: unknown kind {str(kind)[:40]!r} (one of {', '.join(KINDS)})")
    raw_choices = data.get("choices", data.get("options", data.get("enum", ())))
    if not isinstance(raw_choices, list | tuple) or not all(isinstance(c, str) for c in raw_choices):
        raise BadQuestion(f"{key}: `choices` must be a list of text")
    if kind == "choice" and not raw_choices:
        raise BadQuestion(f"{key}: a choice needs `choices`")
    flags = {}
    for flag in ("required", "secret", "multiple"):
        value = data.get(flag, False)
        if not isinstance(value, bool):
            raise BadQuestion(f"{key}: `{flag}` must be true or false")
        flags[flag] = value
    minimum = _opt_number(data, "minimum") if "minimum" in data else _opt_number(data, "min")
    maximum = _opt_number(data, "maximum") if "maximum" in data else _opt_number(data, "max")
    return Question(
        key=key[:200],
        label=_opt_text(data, "label") or _opt_text(data, "title") or key[:200],
        description=_opt_text(data, "description") or "",
        kind=kind,
        required=flags["required"],
        secret=flags["secret"],
        default=_opt_text(data, "default"),
        choices=tuple(c[:MAX_TEXT] for c in raw_choices[:MAX_CHOICES]),
        multiple=flags["multiple"],
        minimum=minimum,
        maximum=maximum,
        placeholder=_opt_text(data, "placeholder"),
        secret_name=_opt_text(data, "secret_name"),
    )


def is_unset(value: Answer) -> bool:
    return value is None or value == "" or value == []


def parse_answer(question: Question, text: str, *, list_sep: str = os.pathsep) -> Answer:
    """What `text` (typed on a terminal or given as `--set KEY=TEXT`) answers; raises ValueError
    with a plain sentence when it cannot be read as this question's kind."""
    if question.multiple:
        return [part.strip() for part in text.split(list_sep) if part.strip()]
    if question.kind == "boolean":
        word = text.strip().lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
        if not word:
            return None
        raise ValueError(f"{question.label}: answer yes or no")
    if question.kind == "number":
        word = text.strip()
        if not word:
            return None
        try:
            number = float(word)
        except ValueError:
            raise ValueError(f"{question.label}: {word[:40]!r} is not a number") from None
        if not math.isfinite(number):
            raise ValueError(f"{question.label}: {word[:40]!r} is not a number")
        return number
    return text


def answer_problem(question: Question, value: Answer) -> str | None:
    """Why `value` does not answer `question`, or None (an unset value is only a problem when the
    question is required)."""
    if is_unset(value):
        return f"{question.label} is required" if question.required else None
    if question.kind == "number" and not question.multiple:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return f"{question.label} must be a number"
        if question.minimum is not None and value < question.minimum:
            return f"{question.label} must be at least {_num(question.minimum)}"
        if question.maximum is not None and value > question.maximum:
            return f"{question.label} must be at most {_num(question.maximum)}"
    if question.kind == "choice" and question.choices:
        chosen = value if isinstance(value, list) else [value]
        for v in chosen:
            if str(v) not in question.choices:
                return f"{question.label} must be one of: {', '.join(question.choices)}"
    return None


def problems(questions: list[Question], answers: Mapping[str, Answer]) -> dict[str, str]:
    """key → what is wrong, for every question whose answer (or default) does not do."""
    out: dict[str, str] = {}
    for q in questions:
        value = answers.get(q.key, default_answer(q))
        problem = answer_problem(q, value)
        if problem is not None:
            out[q.key] = problem
    return out


def default_answer(question: Question) -> Answer:
    """The question's default as an answer of its kind (None when it has none or it does not
    read as one)."""
    if question.default is None:
        return None
    try:
        return parse_answer(question, question.default)
    except ValueError:
        return None


def _num(value: float) -> str:
    value = float(value)
    return str(int(value)) if math.isfinite(value) and value.is_integer() else str(value)
