"""The form model: JSON Schema -> a tree of fields, default arguments and validation. No Qt here."""

from app.forms.fields import (
    ArrayField,
    BooleanField,
    Choice,
    ChoiceField,
    ConstField,
    Field,
    JsonField,
    MultiChoiceField,
    NullField,
    NumberField,
    ObjectField,
    TextField,
    VariantField,
)
from app.forms.form import FieldError, Form, build_form
from app.forms.values import MISSING, json_equal

__all__ = [
    "MISSING",
    "ArrayField",
    "BooleanField",
    "Choice",
    "ChoiceField",
    "ConstField",
    "Field",
    "FieldError",
    "Form",
    "JsonField",
    "MultiChoiceField",
    "NullField",
    "NumberField",
    "ObjectField",
    "TextField",
    "VariantField",
    "build_form",
    "json_equal",
]
