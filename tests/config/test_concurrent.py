"""Several writers at once (the window, the CLI, a second window): every change survives, because
each save applies its own change to the latest files under the config folder's lock."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.config.model import ServerEntry
from app.config.store import ConfigStore, ServerExistsError

ROOT = Path(__file__).resolve().parents[2]
WRITERS = 20


def on_disk(config_dir: Path) -> list[str]:
    return list(json.loads((config_dir / "servers.json").read_text(encoding="utf-8"))["mcpServers"])


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_parallel_cli_adds_all_survive(config_dir: Path) -> None:
    # The demo entry is on disk first, so every writer starts from the same file.
    seed = ConfigStore()
    seed.load()
    seed.save()
    env = dict(os.environ, PYTHON_KEYRING_BACKEND="keyring.backends.null.Keyring")
    children = [
        subprocess.Popen(
            [sys.executable, "-m", "app", "servers", "add", f"s{i}", "--command", "true"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(1, WRITERS + 1)
    ]
    failures = []
    for child in children:
        _out, err = child.communicate(timeout=240)
        if child.returncode != 0 or "changed on disk" in err:
            failures.append((child.args[4], child.returncode, err))
    assert failures == []
    names = on_disk(config_dir)
    assert sorted(names) == sorted(["demo", *(f"s{i}" for i in range(1, WRITERS + 1))])
    assert len(names) == WRITERS + 1


def test_two_stores_interleaving_edits_keep_both(config_dir: Path) -> None:
    seed = ConfigStore()
    seed.load()
    seed.add(ServerEntry(name="shared", command="x"))
    seed.save()
    window, cli = ConfigStore(), ConfigStore()
    window.load()
    cli.load()

    window.add(ServerEntry(name="from-window", command="w"))
    window.settings("demo").timeout = 5.0
    cli.add(ServerEntry(name="from-cli", command="c"))
    cli.app_settings["theme"] = "dark"
    window.save()
    cli.save()  # written over window's save without the lock and merge: from-window was lost

    again = ConfigStore()
    again.load()
    assert again.names() == ["demo", "shared", "from-window", "from-cli"]
    assert again.settings("demo").timeout == 5.0
    assert again.app_settings == {"theme": "dark"}
    # Each store now also holds the other's change.
    assert cli.names() == again.names()

    # A rename here and an edit of another server there; a removal there.
    window.rename("shared", "renamed")
    cli.update(ServerEntry(name="from-cli", command="c2"))
    cli.remove("from-window")
    cli.save()
    window.save()
    again.load()
    assert again.names() == ["demo", "renamed", "from-cli"]
    assert again.get("from-cli").command == "c2"
    assert again.settings("demo").timeout == 5.0


def test_the_same_name_added_twice_is_refused_not_overwritten(config_dir: Path) -> None:
    a, b = ConfigStore(), ConfigStore()
    a.load()
    b.load()
    a.add(ServerEntry(name="x", command="first"))
    b.add(ServerEntry(name="x", command="second"))
    a.save()
    with pytest.raises(ServerExistsError, match="'x'"):
        b.save()
    again = ConfigStore()
    again.load()
    assert again.get("x").command == "first"


def test_unchanged_keys_follow_the_file_and_unknown_top_keys_merge(config_dir: Path) -> None:
    (config_dir / "servers.json").write_text(
        json.dumps({"note": 1, "mcpServers": {"a": {"command": "x"}}}), encoding="utf-8"
    )
    a, b = ConfigStore(), ConfigStore()
    a.load()
    b.load()
    b.update(ServerEntry(name="a", command="changed-by-b"))
    b.save()
    a.add(ServerEntry(name="c", command="y"))
    a.save()  # a never touched "a": b's edit stays
    data = json.loads((config_dir / "servers.json").read_text(encoding="utf-8"))
    assert list(data) == ["note", "mcpServers"]
    assert data["mcpServers"]["a"] == {"command": "changed-by-b"}
    assert list(data["mcpServers"]) == ["a", "c"]


def test_refresh_takes_in_outside_changes_and_keeps_unsaved_ones(config_dir: Path) -> None:
    window = ConfigStore()
    window.load()
    window.save()
    assert window.refresh() is False
    cli = ConfigStore()
    cli.load()
    cli.add(ServerEntry(name="outside", command="o"))
    cli.save()
    window.add(ServerEntry(name="unsaved", command="u"))
    assert window.refresh() is True
    assert window.names() == ["demo", "outside", "unsaved"]
    window.save()
    again = ConfigStore()
    again.load()
    assert again.names() == ["demo", "outside", "unsaved"]
