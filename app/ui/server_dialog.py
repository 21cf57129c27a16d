"""Add/Edit server dialog (placeholder until the full dialog lands)."""

from __future__ import annotations

from typing import Any


async def open_server_dialog(window: Any, name: str | None) -> None:
    return None


async def import_servers(window: Any, source: str) -> None:
    return None


def export_servers(window: Any) -> None:
    return None
