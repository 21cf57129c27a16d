"""The form model's own words in the person's language: validation problems and made-up titles.

The form model (app.forms, no Qt) speaks English. It says what is wrong with the failing keyword and
the schema's value for it (`FieldError.keyword`, `.detail`), and how it named an alternative the
schema left untitled (`Variant.words`). Here each gets its sentence through `tr`, with the plural
forms of the language; anything else keeps the model's English, and the server's words stay its own.
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QObject

from app.forms import FieldError
from app.forms.fields import Variant
from app.forms.registry import FORMAT_TITLES
from app.forms.validation import PATTERN_TOO_SLOW
from app.forms.values import dumps
from app.ui.forms.base import fill

logger = logging.getLogger(__name__)

_MAX_SHOWN = 200


def _shown(value: Any) -> str:
    text = value if isinstance(value, str) else dumps(value)
    return text if len(text) <= _MAX_SHOWN else text[: _MAX_SHOWN - 1] + "…"


class ErrorWords(QObject):
    """The sentences (a QObject so that lupdate finds the plural forms in `self.tr`)."""

    def text(self, error: FieldError) -> str:
        try:
            found = self._text(error.keyword, error.detail)
        except (TypeError, ValueError, OverflowError):  # a strange schema value: keep the English
            found = None
        return found if found is not None else error.message

    def _text(self, keyword: str, detail: Any) -> str | None:
        if keyword == "required":
            return self.tr("This field is required.")
        if keyword == "enum":
            return self.tr("Choose one of the listed values.")
        if keyword == "const":
            return fill(self.tr("Must be %1."), _shown(detail))
        if keyword == "minLength":
            return self.tr("Enter at least %n character(s).", "", int(detail))
        if keyword == "maxLength":
            return self.tr("Enter at most %n character(s).", "", int(detail))
        if keyword == "minItems":
            return self.tr("Add at least %n item(s).", "", int(detail))
        if keyword == "maxItems":
            return self.tr("Keep at most %n item(s).", "", int(detail))
        if keyword == "minimum":
            return fill(self.tr("Must be at least %1."), _shown(detail))
        if keyword == "maximum":
            return fill(self.tr("Must be at most %1."), _shown(detail))
        if keyword == "exclusiveMinimum":
            return fill(self.tr("Must be more than %1."), _shown(detail))
        if keyword == "exclusiveMaximum":
            return fill(self.tr("Must be less than %1."), _shown(detail))
        if keyword == "multipleOf":
            return fill(self.tr("Must be a multiple of %1."), _shown(detail))
        if keyword == "pattern":
            return fill(self.tr("Must match the pattern %1"), _shown(detail))
        if keyword == "format":
            return self._format(detail)
        if keyword == "uniqueItems":
            return self.tr("Items must all be different.")
        if keyword == PATTERN_TOO_SLOW:
            return self.tr("This field's pattern took too long to check.")
        if keyword == "type":
            names = [self._type(t) for t in (detail if isinstance(detail, list) else [detail])]
            if len(names) == 1:
                return fill(self.tr("Must be %1."), names[0])
            return fill(self.tr("Must be %1 or %2."), ", ".join(names[:-1]), names[-1])
        if keyword in ("oneOf", "anyOf") and detail == "ambiguous":
            return self.tr("The value matches more than one of the allowed forms.")
        if keyword in ("oneOf", "anyOf") and detail == "no fit":
            return self.tr("The value does not fit any of the allowed forms.")
        return None

    def _format(self, name: Any) -> str:
        word = FORMAT_TITLES.get(name) if isinstance(name, str) else None
        if word == "date":
            return self.tr("Not a valid date.")
        if word == "date and time":
            return self.tr("Not a valid date and time.")
        if word == "time":
            return self.tr("Not a valid time.")
        if word == "e-mail address":
            return self.tr("Not a valid e-mail address.")
        if word == "web address":
            return self.tr("Not a valid web address.")
        if word == "id":
            return self.tr("Not a valid id.")
        return self.tr("This value does not have the expected form.")

    def _type(self, name: Any) -> str:
        if name == "string":
            return self.tr("text")
        if name == "integer":
            return self.tr("a whole number")
        if name == "number":
            return self.tr("a number")
        if name == "boolean":
            return self.tr("yes or no")
        if name == "object":
            return self.tr("a group of fields")
        if name == "array":
            return self.tr("a list")
        if name == "null":
            return self.tr("empty")
        return str(name)


_WORDS: ErrorWords | None = None


def error_text(error: FieldError) -> str:
    """`error`'s message as shown: in the person's language when it is a common problem."""
    global _WORDS
    if _WORDS is None:
        _WORDS = ErrorWords()
    return _WORDS.text(error)


class TitleWords(QObject):
    """Titles the form made up for untitled alternatives ("Text", "List of numbers", "Option 2")."""

    def title(self, variant: Variant) -> str:
        words = variant.words
        found = self._title(words) if words else None
        if found is None:
            return variant.title
        return f"{found} ({variant.number})" if variant.number is not None else found

    def _title(self, words: tuple[str, ...]) -> str | None:
        kind, args = words[0], words[1:]
        if kind == "type" and args:
            return self.type_title(args[0])
        if kind == "from a list" and args:
            return fill(self.tr("%1 (from a list)"), self.type_title(args[0]))
        if kind == "list of" and args:
            return fill(self.tr("List of %1"), self.type_plural(args[0]))
        if kind == "format" and len(args) == 2:
            return fill(self.tr("%1 (%2)"), self.type_title(args[0]), self._format(args[1]))
        if kind == "with" and args:
            return fill(self.tr("With %1"), args[0])  # the property names: the server's words
        if kind == "kinds" and args:
            return self.tr("One of %n kind(s)", "", int(args[0]))
        if kind == "option" and args:
            return fill(self.tr("Option %1"), args[0])
        return None

    def type_title(self, name: str) -> str:
        titles = {
            "string": self.tr("Text"),
            "number": self.tr("Number"),
            "integer": self.tr("Whole number"),
            "boolean": self.tr("Yes/no"),
            "object": self.tr("Group of fields"),
            "array": self.tr("List"),
            "null": self.tr("Nothing"),
        }
        return titles.get(name, name)

    def type_plural(self, name: str) -> str:
        plurals = {
            "string": self.tr("texts"),
            "number": self.tr("numbers"),
            "integer": self.tr("whole numbers"),
            "boolean": self.tr("yes/no values"),
            "object": self.tr("groups of fields"),
            "array": self.tr("lists"),
            "null": self.tr("empty values"),
        }
        return plurals.get(name, name)

    def _format(self, name: str) -> str:
        formats = {
            "date": self.tr("date"),
            "date-time": self.tr("date and time"),
            "time": self.tr("time"),
            "email": self.tr("e-mail address"),
            "idn-email": self.tr("e-mail address"),
            "uri": self.tr("web address"),
            "url": self.tr("web address"),
            "iri": self.tr("web address"),
            "uuid": self.tr("id"),
            "password": self.tr("password"),
        }
        return formats.get(name, name)


_TITLES: TitleWords | None = None


def variant_title(variant: Variant) -> str:
    """An alternative's name as shown: the schema's title as it is, a made-up one translated."""
    global _TITLES
    if _TITLES is None:
        _TITLES = TitleWords()
    return _TITLES.title(variant)
