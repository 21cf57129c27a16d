"""Keyring usernames as a config folder's secret store writes them: `PROFILE/SERVER/NAME`."""

from __future__ import annotations

import json
from pathlib import Path


def profile_of(config_dir: Path) -> str:
    """The folder's secrets profile id, from its settings.json."""
    data = json.loads((config_dir / "settings.json").read_text(encoding="utf-8"))
    profile = data["app"]["secretsProfile"]
    assert isinstance(profile, str)
    return profile


def folder_user(config_dir: Path, user: str) -> str:
    """`SERVER/NAME` as stored for the folder `config_dir`."""
    return f"{profile_of(config_dir)}/{user}"


def unscope(config_dir: Path, users: list[str]) -> list[str]:
    """The folder's usernames without their profile prefix (others' entries dropped)."""
    prefix = profile_of(config_dir) + "/"
    return [u[len(prefix) :] for u in users if u.startswith(prefix)]
