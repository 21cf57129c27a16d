"""Property: whatever unknown keys a file holds, at any level, load + save keeps them (and the
known ones) exactly."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from app.config.model import KNOWN_ENTRY_KEYS
from app.config.store import ConfigStore

json_scalars = st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=20)
json_values = st.recursive(
    json_scalars | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
unknown_keys = st.text(min_size=1, max_size=12).filter(lambda k: k not in KNOWN_ENTRY_KEYS)
strings = st.text(max_size=20)

stdio_entry = st.fixed_dictionaries(
    {"command": st.text(min_size=1, max_size=20)},
    optional={
        "args": st.lists(strings, max_size=4),
        "env": st.dictionaries(st.text(min_size=1, max_size=10), strings, max_size=4),
        "cwd": strings,
        "disabled": st.booleans(),
        "type": st.just("stdio"),
    },
)
remote_entry = st.fixed_dictionaries(
    {"url": st.text(min_size=1, max_size=20)},
    optional={
        "headers": st.dictionaries(st.text(min_size=1, max_size=10), strings, max_size=4),
        "type": st.sampled_from(["http", "sse", "streamable-http", "streamableHttp"]),
        "disabled": st.booleans(),
    },
)


@st.composite
def entries(draw: st.DrawFn) -> dict[str, Any]:
    entry: dict[str, Any] = draw(stdio_entry | remote_entry)
    extra = draw(st.dictionaries(unknown_keys, json_values, max_size=3))
    merged = {**extra, **entry}
    keys = draw(st.permutations(list(merged)))
    return {k: merged[k] for k in keys}  # any key order


files = st.fixed_dictionaries(
    {
        "mcpServers": st.dictionaries(
            st.text(min_size=1, max_size=10).filter(lambda n: "/" not in n and n == n.strip()),
            entries(),
            max_size=4,
        )
    },
).flatmap(
    lambda base: st.dictionaries(
        st.text(min_size=1, max_size=10).filter(lambda k: k != "mcpServers"), json_values, max_size=3
    ).map(lambda top: {**top, **base})
)


@settings(max_examples=100, deadline=None)
@given(files)
def test_load_save_keeps_every_key(data: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        original = json.dumps(data, indent=2, ensure_ascii=False)
        (directory / "servers.json").write_text(original, encoding="utf-8")
        store = ConfigStore(directory)
        store.load()
        store.save()
        saved = json.loads((directory / "servers.json").read_text(encoding="utf-8"))
        assert saved == data
        # Same key order at every level too, so a diff of the file shows nothing.
        assert json.dumps(saved, indent=2, ensure_ascii=False) == original


settings_files = st.fixed_dictionaries(
    {
        "servers": st.dictionaries(
            st.text(min_size=1, max_size=6).filter(lambda n: "/" not in n and n == n.strip()),
            st.fixed_dictionaries(
                {},
                optional={
                    "timeout": st.floats(min_value=0.5, max_value=1e6),
                    "protocol_mode": st.sampled_from(["legacy", "2025-11-25"]),
                    "roots": st.lists(strings, min_size=1, max_size=3),
                    "oauth": st.dictionaries(st.text(max_size=6), json_values, min_size=1, max_size=3),
                    "approved_launch": st.text(min_size=1, max_size=70),
                },
            ).flatmap(
                lambda known: st.dictionaries(
                    st.text(min_size=1, max_size=8).filter(
                        lambda k: (
                            k
                            not in (
                                "timeout",
                                "protocol_mode",
                                "roots",
                                "trusted_tools",
                                "order",
                                "oauth",
                                "approved_launch",
                            )
                        )
                    ),
                    json_values,
                    max_size=3,
                ).map(lambda extra: {**extra, **known})
            ),
            max_size=3,
        )
    }
)


@settings(max_examples=50, deadline=None)
@given(settings_files)
def test_settings_file_keeps_every_key(data: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        servers = {"mcpServers": {name: {"command": "x"} for name in data["servers"]}}
        (directory / "servers.json").write_text(json.dumps(servers), encoding="utf-8")
        (directory / "settings.json").write_text(json.dumps(data), encoding="utf-8")
        store = ConfigStore(directory)
        store.load()
        store.save()
        saved = json.loads((directory / "settings.json").read_text(encoding="utf-8"))
        expected = {"version": 1, "servers": {k: v for k, v in data["servers"].items() if v}}
        assert saved == expected
