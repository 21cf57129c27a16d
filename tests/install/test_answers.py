"""Questions from JSON and answers from text, shared by the install dialog and the CLI."""

from __future__ import annotations

import pytest

from app.install.answers import BadQuestion, answer_problem, parse_answer, problems, question_from_json
from app.install.plan import Question


def test_question_from_json_takes_the_usual_spellings() -> None:
    q = question_from_json(
        {"key": "units", "title": "Units", "type": "choice", "enum": ["a", "b"], "default": "a"}
    )
    assert (q.label, q.kind, q.choices, q.default) == ("Units", "choice", ("a", "b"), "a")
    n = question_from_json({"key": "n", "kind": "number", "min": 1, "max": 5, "default": 3})
    assert (n.minimum, n.maximum, n.default, n.label) == (1.0, 5.0, "3", "n")


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ([], "must be an object"),
        ({"label": "x"}, "needs a `key`"),
        ({"key": "k", "kind": "colour"}, "unknown kind"),
        ({"key": "k", "kind": "choice"}, "needs `choices`"),
        ({"key": "k", "choices": [1]}, "list of text"),
        ({"key": "k", "required": "yes"}, "true or false"),
        ({"key": "k", "min": "1"}, "must be a number"),
        ({"key": "k", "max": float("inf")}, "must be a number"),
        ({"key": "k", "label": {"a": 1}}, "must be text"),
    ],
)
def test_bad_questions_are_refused(data: object, reason: str) -> None:
    with pytest.raises(BadQuestion, match=reason):
        question_from_json(data)


def test_answers_from_text() -> None:
    flag = Question("v", "Verbose", kind="boolean")
    assert parse_answer(flag, "Yes") is True and parse_answer(flag, "off") is False
    with pytest.raises(ValueError, match="answer yes or no"):
        parse_answer(flag, "maybe")
    n = Question("n", "Count", kind="number", minimum=1, maximum=3)
    assert parse_answer(n, "2") == 2.0 and parse_answer(n, " ") is None
    with pytest.raises(ValueError, match="not a number"):
        parse_answer(n, "nan")
    assert answer_problem(n, 4.0) == "Count must be at most 3"
    assert answer_problem(n, 0.5) == "Count must be at least 1"
    roots = Question("r", "Roots", kind="directory", multiple=True)
    assert parse_answer(roots, "/a:/b:", list_sep=":") == ["/a", "/b"]
    required = Question("k", "Key", required=True, secret=True)
    assert problems([required, n], {}) == {"k": "Key is required"}
