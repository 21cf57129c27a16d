"""Argument and result shapes of the demo tools.

The JSON Schemas the client sees are generated from these pydantic models, so each model is
written to produce one schema feature the app must render: nested objects (`$ref`/`$defs`),
arrays of objects, titled enums (`oneOf` of `const`/`title`), nullable fields, string formats,
bounded numbers and a write-only secret.

A model's docstring becomes its schema's description, which the app shows to people beside the
field: docstrings here speak to them; what a model is for (for developers) is a comment.
"""

from __future__ import annotations

import datetime
from typing import Annotated, Literal

from pydantic import AnyUrl, BaseModel, Field, SecretStr, WithJsonSchema


def titled_enum(title: str, choices: dict[str, str], description: str) -> WithJsonSchema:
    """A string enum whose choices carry display titles (`oneOf` of `const` + `title`)."""
    return WithJsonSchema(
        {
            "type": "string",
            "title": title,
            "description": description,
            "oneOf": [{"const": value, "title": label} for value, label in choices.items()],
        }
    )


Priority = Annotated[
    Literal["low", "normal", "urgent"],
    titled_enum(
        "Priority",
        {"low": "Low — whenever", "normal": "Normal", "urgent": "Urgent — today"},
        "How soon this contact expects an answer.",
    ),
]

Email = Annotated[
    str,
    Field(
        title="Email",
        description="An email address such as ada@example.org.",
        pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$",
        json_schema_extra={"format": "email"},
    ),
]


# A nested object (referenced through $defs).
class Address(BaseModel):
    """Where the person lives."""

    street: str = Field(title="Street", min_length=1, max_length=120)
    city: str = Field(title="City", min_length=1, max_length=80)
    postal_code: str = Field(
        title="Postal code", pattern=r"^[A-Za-z0-9 -]{3,10}$", description="3 to 10 letters or digits."
    )
    country: Literal["DE", "FR", "GB", "US", "OTHER"] = Field("DE", title="Country")


# An element of an array of objects.
class Phone(BaseModel):
    """One phone number."""

    kind: Literal["mobile", "home", "work"] = Field("mobile", title="Kind")
    number: str = Field(title="Number", pattern=r"^\+?[0-9 ()-]{4,20}$", examples=["+49 30 1234567"])


class Contact(BaseModel):
    """A person in the demo address book."""

    name: str = Field(title="Full name", min_length=1, max_length=80)
    email: Email
    birthday: datetime.date | None = Field(None, title="Birthday", description="Leave empty if unknown.")
    website: AnyUrl | None = Field(None, title="Website")
    age: int | None = Field(None, title="Age", ge=0, le=150)
    priority: Priority = "normal"
    nickname: str | None = Field(
        None, title="Nickname", description="Optional: leave it empty if there is none."
    )
    address: Address
    phones: list[Phone] = Field(default_factory=list, title="Phone numbers", max_length=5)


# Used twice in one schema, so its `$ref` is shared.
class TimeWindow(BaseModel):
    """A time of day, from one hour to another."""

    start_hour: int = Field(8, title="From (hour)", ge=0, le=23)
    end_hour: int = Field(18, title="Until (hour)", ge=1, le=24)


ServiceMode = Annotated[
    Literal["safe", "fast", "debug"],
    titled_enum(
        "Mode",
        {"safe": "Safe (recommended)", "fast": "Fast", "debug": "Debug — verbose logs"},
        "How the service should run.",
    ),
]


# With a secret that must never be echoed back.
class ServiceSettings(BaseModel):
    """Settings of an imaginary web service."""

    service_url: AnyUrl = Field(title="Service URL", description="Where the service lives (https://…).")
    api_key: SecretStr = Field(title="API key", description="Kept secret: never shown or logged.")
    timeout_seconds: float = Field(30.0, title="Timeout (s)", ge=0.5, le=120, multiple_of=0.5)
    retries: int = Field(3, title="Retries", ge=0, le=10)
    mode: ServiceMode = "safe"
    active_hours: TimeWindow = Field(
        default_factory=lambda: TimeWindow(start_hour=8, end_hour=18), title="Active hours"
    )
    maintenance_window: TimeWindow | None = Field(None, title="Maintenance window")
    tags: list[str] = Field(default_factory=list, title="Tags", max_length=10)


class DayForecast(BaseModel):
    """The weather of one day."""

    day: datetime.date
    high: float
    low: float
    conditions: Literal["sunny", "cloudy", "rain", "snow", "windy"]


# The structured result of `weather` (published as the tool's outputSchema).
class WeatherReport(BaseModel):
    """Today's weather in a city and the next three days."""

    city: str
    unit: Literal["celsius", "fahrenheit"]
    temperature: float
    conditions: Literal["sunny", "cloudy", "rain", "snow", "windy"]
    humidity_percent: int = Field(ge=0, le=100)
    forecast: list[DayForecast]


# What `book_table` asks the person for (elicitation: flat, primitive fields only).
class TableBooking(BaseModel):
    """The details of your booking."""

    party_size: int = Field(2, title="Number of people", ge=1, le=12)
    day: datetime.date = Field(title="Day")
    seating: Literal["inside", "terrace", "bar"] = Field("inside", title="Seating")
    vegetarian: bool = Field(False, title="Vegetarian menu")
    contact_email: str = Field(title="Contact email", json_schema_extra={"format": "email"})
    notes: str | None = Field(None, title="Notes", max_length=200)
