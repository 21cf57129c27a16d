"""`mcp-desk registry search|show|add|url` against the local directory, in this process (the
in-memory keyring): listing, JSON, offline, adding a remote with a key (→ `tools` connects) and
local programs through the trust gate."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from app.cli.main import main
from tests.servers.registry_fixtures import NOTES_TOKEN
from tests.servers.registry_server import TIME_VERSION, RegistryFixture, start_registry
from tests.support.memory_keyring import MemoryKeyring


def run(
    args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # not a terminal: nothing is asked
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_search_lists_pages_and_json(
    registry: RegistryFixture, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(["registry", "url", registry.base], capsys, monkeypatch)
    assert (code, out) == (0, registry.base + "\n")
    code, out, err = run(["registry", "search", "weather"], capsys, monkeypatch)
    assert code == 0, err
    assert out.splitlines() == [
        "io.github.example/weather 1.2.0  (runs on this computer)",
        "    Forecasts from OpenWeather, in a container.",
        "io.github.example/old-weather 0.9.5  (runs on this computer)  [deprecated]",
        "    The first weather server.",
    ]
    code, out, err = run(["registry", "search"], capsys, monkeypatch)
    assert len([line for line in out.splitlines() if not line.startswith(" ")]) == 3
    assert "add --all" in err
    code, out, err = run(["registry", "search", "--all", "--json"], capsys, monkeypatch)
    found = json.loads(out)
    assert len(found) == 14 and "io.github.example/gone" not in {s["name"] for s in found}
    notes = next(s for s in found if s["name"] == "com.example/notes")
    assert [w["kind"] for w in notes["ways"]] == ["remote", "remote", "npm"]


def test_show_names_the_ways_to_run_it(
    registry: RegistryFixture, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(
        ["registry", "show", "com.example/notes", "--registry", registry.base], capsys, monkeypatch
    )
    assert code == 0, err
    assert "  source code: https://github.com/example/notes-mcp" in out
    assert f"    1. runs on the internet ({registry.remote_url})" in out
    assert "    3. npm package @example/notes-mcp 3.1.0" in out
    code, out, err = run(
        ["registry", "show", "io.github.example/gone", "--registry", registry.base], capsys, monkeypatch
    )
    assert code == 1 and "not in the server directory" in err


def test_add_a_remote_with_its_key_and_it_answers(
    notes_server: str,
    registry: RegistryFixture,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    config_dir: Path,
    memory_keyring: MemoryKeyring,
) -> None:
    base = ["--registry", registry.base]
    code, out, err = run(["registry", "add", "com.example/notes", *base], capsys, monkeypatch)
    assert code == 2 and "api_key" in err  # required, and no terminal to ask on
    assert (
        not (config_dir / "servers.json").exists() or "notes" not in (config_dir / "servers.json").read_text()
    )
    code, out, err = run(
        ["registry", "add", "com.example/notes", "--set", f"api_key={NOTES_TOKEN}", *base],
        capsys,
        monkeypatch,
    )
    assert code == 0, err
    saved = json.loads((config_dir / "servers.json").read_text())["mcpServers"]["notes"]
    assert saved["headers"] == {"Authorization": "Bearer ${secret:api_key}"}
    assert NOTES_TOKEN not in (config_dir / "servers.json").read_text()
    assert NOTES_TOKEN in memory_keyring.store.values()
    code, out, err = run(["tools", "notes"], capsys, monkeypatch)
    assert code == 0, err
    assert "echo" in out


def test_a_local_program_is_added_but_runs_only_once_allowed(
    registry: RegistryFixture,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    config_dir: Path,
) -> None:
    from app.config.store import ConfigStore
    from app.config.trust import needs_approval

    base = ["--registry", registry.base]
    code, _out, err = run(
        ["registry", "add", "io.github.modelcontextprotocol/time", *base], capsys, monkeypatch
    )
    assert code == 5, err
    store = ConfigStore(config_dir)
    store.load()
    entry = store.get("time")
    assert (entry.command, entry.args) == ("uvx", [f"mcp-server-time=={TIME_VERSION}"])
    assert needs_approval(entry, store.settings("time"))
    code, _out, err = run(
        ["registry", "add", "io.github.modelcontextprotocol/time", "--trust", "--name", "clock",
         "--set", "local-timezone=Asia/Shanghai", *base],
        capsys, monkeypatch,
    )  # fmt: skip
    assert code == 0, err
    store.load()
    clock = store.get("clock")
    assert clock.args[-2:] == ["--local-timezone", "Asia/Shanghai"]
    assert not needs_approval(clock, store.settings("clock"))
    code, _out, err = run(
        ["registry", "add", "io.modelcontextprotocol/text-editor", *base], capsys, monkeypatch
    )
    assert code == 1 and "server package (.mcpb)" in err
    code, _out, err = run(["registry", "add", "com.example/notes", "--use", "9", *base], capsys, monkeypatch)
    assert code == 2 and "3 way(s)" in err


def test_offline(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    with start_registry() as fx:
        base = fx.base
        assert run(["registry", "search", "time", "--registry", base], capsys, monkeypatch)[0] == 0
    code, out, err = run(["registry", "search", "time", "--refresh", "--registry", base], capsys, monkeypatch)
    assert code == 0 and err.startswith("offline: showing the list from ")
    assert out.startswith("io.github.modelcontextprotocol/time")
    code, out, err = run(["registry", "search", "memory", "--registry", base], capsys, monkeypatch)
    assert code == 1
    assert err == "mcp-desk: error: the server directory cannot be reached: check your internet connection\n"


@pytest.mark.slow
def test_a_pypi_entry_added_with_trust_runs_and_answers(
    registry: RegistryFixture, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The real mcp-server-time from PyPI, through uvx (the person's own or the built-in uv).
    base = ["--registry", registry.base]
    code, _, err = run(
        ["registry", "add", "io.github.modelcontextprotocol/time", "--trust", *base], capsys, monkeypatch
    )
    assert code == 0, err
    code, out, err = run(
        ["call", "time", "get_current_time", "--args", '{"timezone": "UTC"}'], capsys, monkeypatch
    )
    assert code == 0, err
    assert '"timezone": "UTC"' in out or "UTC" in out
