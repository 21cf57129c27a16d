"""Secret values in the raw JSON view: shown as a mask, and put back when the JSON is read in again."""

from __future__ import annotations

from typing import Any

from app.forms.fields import Field, ObjectField, TextField, VariantField

SECRET_MASK = "••••••••"


def _is_secret(field: Field) -> bool:
    return isinstance(field, TextField) and field.secret


def _property(field: Field, name: str) -> Field | None:
    if isinstance(field, ObjectField):
        return field.property_field(name)
    if isinstance(field, VariantField):
        for option in field.built_options():  # a secret can only have been typed into a built one
            found = _property(option, name)
            if found is not None:
                return found
    return None


def mask_secrets(value: Any, field: Field) -> Any:
    """`value` with every non-empty secret string (password, token...) replaced by `SECRET_MASK`."""
    if _is_secret(field) and isinstance(value, str) and value:
        return SECRET_MASK
    if isinstance(value, dict) and isinstance(field, ObjectField | VariantField):
        out = {}
        for key, item in value.items():
            sub = _property(field, key)
            out[key] = mask_secrets(item, sub) if sub is not None else item
        return out
    return value


def unmask_secrets(parsed: Any, current: Any, field: Field) -> Any:
    """JSON read back from the view: masks still in place get the real value from `current` again."""
    if _is_secret(field) and parsed == SECRET_MASK and isinstance(current, str):
        return current
    if isinstance(parsed, dict) and isinstance(field, ObjectField | VariantField):
        out = {}
        for key, item in parsed.items():
            sub = _property(field, key)
            was = current.get(key) if isinstance(current, dict) else None
            out[key] = unmask_secrets(item, was, sub) if sub is not None else item
        return out
    return parsed
