"""Property: two stores that started from the same files and edit different servers (add, edit,
remove, rename, per-server and app settings) both end up in the file, whichever saves first."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from app.config.model import ServerEntry
from app.config.store import ConfigStore

BASE = {f"{side}{i}": f"cmd-{side}{i}" for side in "ab" for i in range(3)}

# One edit: (kind, index, value). Each side touches only names that start with its letter.
ops = st.lists(
    st.tuples(
        st.sampled_from(["add", "edit", "remove", "rename", "timeout", "app"]),
        st.integers(0, 4),
        st.integers(1, 99),
    ),
    max_size=6,
)


def apply(store: ConfigStore | None, model: dict[str, Any], side: str, edits: list[Any]) -> None:
    """Apply `edits` to the store (when given) and to the plain model of what must result."""
    servers, timeouts, app = model["servers"], model["timeouts"], model["app"]
    for kind, i, value in edits:
        mine = [n for n in servers if n.startswith(side)]
        if kind == "add":
            name = f"{side}new{i}-{value}"
            if name in servers:
                continue
            servers[name] = f"cmd-{value}"
            if store is not None:
                store.add(ServerEntry(name=name, command=f"cmd-{value}"))
        elif not mine:
            continue
        elif kind == "app":
            app[f"{side}-key"] = value
            if store is not None:
                store.app_settings[f"{side}-key"] = value
        else:
            name = mine[i % len(mine)]
            if kind == "edit":
                servers[name] = f"edited-{value}"
                if store is not None:
                    store.update(ServerEntry(name=name, command=f"edited-{value}"))
            elif kind == "remove":
                del servers[name]
                timeouts.pop(name, None)
                if store is not None:
                    store.remove(name)
            elif kind == "rename":
                new = f"{side}renamed{value}"
                if new in servers:
                    continue
                model["servers"] = servers = {(new if k == name else k): v for k, v in servers.items()}
                if name in timeouts:
                    timeouts[new] = timeouts.pop(name)
                if store is not None:
                    store.rename(name, new)
            elif kind == "timeout":
                timeouts[name] = float(value)
                if store is not None:
                    store.settings(name).timeout = float(value)


@settings(max_examples=60, deadline=None)
@given(ops, ops, st.booleans(), st.booleans())
def test_both_stores_changes_survive(a_ops: Any, b_ops: Any, a_first: bool, refresh: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        (directory / "servers.json").write_text(
            json.dumps({"mcpServers": {n: {"command": c} for n, c in BASE.items()}}), encoding="utf-8"
        )
        a, b = ConfigStore(directory), ConfigStore(directory)
        a.load()
        b.load()
        model: dict[str, Any] = {"servers": dict(BASE), "timeouts": {}, "app": {}}
        apply(a, model, "a", a_ops)
        apply(b, model, "b", b_ops)
        first, second = (a, b) if a_first else (b, a)
        first.save()
        if refresh:
            second.refresh()
        second.save()

        result = ConfigStore(directory)
        result.load()
        assert {e.name: e.command for e in result.entries} == model["servers"]
        assert {n: result.settings(n).timeout for n in model["timeouts"]} == model["timeouts"]
        assert result.app_settings == model["app"]
        # The second store now holds exactly what the file holds.
        assert second.servers_json() == result.servers_json()
