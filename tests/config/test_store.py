"""The server list file: seeding, round trips, atomic writes, broken files kept intact."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from app.config import paths
from app.config.errors import ConfigError
from app.config.model import ServerEntry
from app.config.store import ConfigStore, ServerExistsError, UnknownServerError


def write(path: Path, data: object) -> bytes:
    raw = json.dumps(data, indent=2).encode()
    path.write_bytes(raw)
    return raw


def test_paths_follow_env(config_dir: Path) -> None:
    assert paths.config_dir() == config_dir
    assert paths.servers_path() == config_dir / "servers.json"
    assert paths.settings_path() == config_dir / "settings.json"


def test_first_run_seeds_demo_entry_and_saves_it(config_dir: Path) -> None:
    store = ConfigStore()
    store.load()
    assert store.seeded
    assert store.names() == ["demo"]
    demo = store.get("demo")
    assert demo.command == sys.executable
    assert demo.args == ["-m", "app", "demo-server"]
    assert not (config_dir / "servers.json").exists()  # loading alone writes nothing
    store.save()
    data = json.loads((config_dir / "servers.json").read_text())
    assert data == {"mcpServers": {"demo": {"command": sys.executable, "args": ["-m", "app", "demo-server"]}}}
    again = ConfigStore()
    again.load()
    assert not again.seeded
    # Once the user removed the demo entry, it does not come back.
    again.remove("demo")
    again.save()
    third = ConfigStore()
    third.load()
    assert third.names() == []


def test_unknown_keys_at_every_level_survive(config_dir: Path) -> None:
    original = {
        "$schema": "https://example.com/schema.json",
        "mcpServers": {
            "a": {
                "command": "npx",
                "args": ["-y", "pkg"],
                "env": {"X": "1"},
                "autoApprove": ["read"],
                "nested": {"deep": [1, {"k": None}]},
                "type": "stdio",
            },
            "b": {"type": "streamableHttp", "url": "https://x/mcp", "headers": {}, "timeout": 30},
        },
        "globalShortcut": "Ctrl+Space",
        "preferences": {"x": [True, 1.5]},
    }
    raw = write(config_dir / "servers.json", original)
    store = ConfigStore()
    store.load()
    assert store.get("b").transport == "http"
    assert store.get("a").extra == {"autoApprove": ["read"], "nested": {"deep": [1, {"k": None}]}}
    store.save()
    saved = (config_dir / "servers.json").read_bytes()
    assert json.loads(saved) == original
    # Order of keys too: the file reads as the user wrote it.
    assert list(json.loads(saved)["mcpServers"]["a"]) == list(original["mcpServers"]["a"])  # type: ignore[index]
    assert saved == raw + b"\n"  # same text: indent 2, our only change is a final newline


def test_save_is_mode_0600_and_keeps_backup(config_dir: Path) -> None:
    store = ConfigStore()
    store.load()
    store.save()
    first = (config_dir / "servers.json").read_bytes()
    mode = stat.S_IMODE((config_dir / "servers.json").stat().st_mode)
    assert mode == 0o600
    store.add(ServerEntry(name="x", command="echo"))
    store.save()
    assert (config_dir / "servers.json.bak").read_bytes() == first
    assert stat.S_IMODE((config_dir / "servers.json.bak").stat().st_mode) == 0o600
    assert "x" in json.loads((config_dir / "servers.json").read_text())["mcpServers"]
    leftovers = [p.name for p in config_dir.iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []


@pytest.mark.parametrize(
    ("text", "line", "col"),
    [
        ('{\n  "mcpServers": {\n    "a": {"command": "x",}\n  }\n}\n', 3, 26),
        ('{"mcpServers": {}\n', 2, 1),
        ("", 1, 1),
        ('{\n  "mcpServers": [1, 2]\n}', 2, 3),
        ('{\n  "mcpServers": {\n    "a": {"command": 5}\n  }\n}', 3, 11),
    ],
)
def test_broken_file_reports_position_and_is_not_touched(
    config_dir: Path, text: str, line: int, col: int
) -> None:
    path = config_dir / "servers.json"
    path.write_text(text)
    before = path.read_bytes()
    store = ConfigStore()
    with pytest.raises(ConfigError) as info:
        store.load()
    err = info.value
    assert (err.path, err.line, err.col) == (path, line, col)
    assert str(err).startswith(f"{path}:{line}:{col}: ")
    with pytest.raises(ConfigError):
        store.save()  # refuses: it never overwrites what it could not read
    assert path.read_bytes() == before
    assert not (config_dir / "servers.json.bak").exists()


def test_broken_settings_file_reports_position(config_dir: Path) -> None:
    path = config_dir / "settings.json"
    path.write_text('{"servers": {"a": {"timeout": "soon"}}}')
    with pytest.raises(ConfigError) as info:
        ConfigStore().load()
    assert info.value.path == path
    assert info.value.line == 1


def test_settings_live_in_second_file(config_dir: Path) -> None:
    store = ConfigStore()
    store.load()
    s = store.settings("demo")
    s.timeout = 5
    s.trusted_tools.add("echo")
    s.protocol_mode = "legacy"
    s.roots.append("/tmp/project")
    s.oauth["client_id"] = "abc"
    s.approved_launch = "sha256:00ff"
    store.app_settings["window"] = {"w": 800}
    store.save()
    servers = json.loads((config_dir / "servers.json").read_text())
    assert servers == {"mcpServers": {"demo": store.get("demo").to_json()}}  # nothing of ours in it
    settings = json.loads((config_dir / "settings.json").read_text())
    assert settings["servers"]["demo"] == {
        "timeout": 5.0,
        "protocol_mode": "legacy",
        "roots": ["/tmp/project"],
        "trusted_tools": ["echo"],
        "oauth": {"client_id": "abc"},
        "approved_launch": "sha256:00ff",
    }
    assert stat.S_IMODE((config_dir / "settings.json").stat().st_mode) == 0o600
    again = ConfigStore()
    again.load()
    assert again.settings("demo").trusted_tools == {"echo"}
    assert again.settings("demo").timeout == 5.0
    assert again.settings("demo").approved_launch == "sha256:00ff"
    assert again.app_settings == {"window": {"w": 800}}


def test_settings_unknown_keys_survive(config_dir: Path) -> None:
    write(config_dir / "servers.json", {"mcpServers": {"a": {"command": "x"}}})
    original = {"version": 1, "future": {"x": 1}, "servers": {"a": {"timeout": 3.0, "pinned": True}}}
    write(config_dir / "settings.json", original)
    store = ConfigStore()
    store.load()
    assert store.settings("a").extra == {"pinned": True}
    store.save()
    assert json.loads((config_dir / "settings.json").read_text()) == original


def test_add_rename_remove(config_dir: Path) -> None:
    store = ConfigStore()
    store.load()
    store.add(ServerEntry(name="one", command="a"))
    store.add(ServerEntry(name="two", transport="sse", url="http://x/sse"))
    with pytest.raises(ServerExistsError):
        store.add(ServerEntry(name="one", command="b"))
    with pytest.raises(ConfigError):
        store.add(ServerEntry(name="a/b", command="b"))
    store.settings("one").timeout = 9
    store.rename("one", "uno")
    assert store.names() == ["demo", "uno", "two"]  # position kept
    assert store.settings("uno").timeout == 9
    with pytest.raises(ServerExistsError):
        store.rename("uno", "two")
    store.remove("two")
    with pytest.raises(UnknownServerError):
        store.get("two")
    store.save()
    data = json.loads((config_dir / "servers.json").read_text())
    assert list(data["mcpServers"]) == ["demo", "uno"]
    assert json.loads((config_dir / "settings.json").read_text())["servers"] == {"uno": {"timeout": 9.0}}


def test_order_setting_sorts_entries(config_dir: Path) -> None:
    write(config_dir / "servers.json", {"mcpServers": {n: {"command": "x"} for n in "abc"}})
    store = ConfigStore()
    store.load()
    store.settings("c").order = 0
    assert store.names() == ["c", "a", "b"]


def test_entry_problems_do_not_break_the_list(config_dir: Path) -> None:
    write(
        config_dir / "servers.json",
        {"mcpServers": {"ok": {"command": "x"}, "odd": {"type": "websocket", "url": "ws://x"}, "empty": {}}},
    )
    store = ConfigStore()
    store.load()
    assert store.get("ok").problem is None
    assert "websocket" in (store.get("odd").problem or "")
    assert store.get("empty").problem == "no command given"
    store.save()
    assert json.loads((config_dir / "servers.json").read_text())["mcpServers"]["odd"] == {
        "type": "websocket",
        "url": "ws://x",
    }


def test_explicit_dir_overrides_env(tmp_path: Path, config_dir: Path) -> None:
    other = tmp_path / "elsewhere"
    store = ConfigStore(other)
    store.load()
    store.save()
    assert (other / "servers.json").exists()
    assert not (config_dir / "servers.json").exists()


def test_changed_on_disk_is_noticed_and_the_other_change_is_kept(config_dir: Path) -> None:
    store = ConfigStore()
    store.load()
    assert store.changed_on_disk() is False  # first run: no file, none expected
    store.save()
    assert store.changed_on_disk() is False
    other = ConfigStore()
    other.load()
    other.add(ServerEntry(name="from-cli", command="x"))
    other.save()
    assert store.changed_on_disk() is True
    edited = (config_dir / "servers.json").read_bytes()
    store.add(ServerEntry(name="from-window", command="y"))
    store.save()  # applied to the file as it is now: the other change stays
    assert store.names() == ["demo", "from-cli", "from-window"]
    assert (config_dir / "servers.json.bak").read_bytes() == edited
    store.load()
    assert store.changed_on_disk() is False
    assert store.names() == ["demo", "from-cli", "from-window"]


def test_symlinked_file_stays_a_link(config_dir: Path, tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "servers.json"
    real.parent.mkdir()
    write(real, {"mcpServers": {"a": {"command": "x"}}})
    (config_dir / "servers.json").symlink_to(real)
    store = ConfigStore()
    store.load()
    store.add(ServerEntry(name="b", command="y"))
    store.save()
    assert (config_dir / "servers.json").is_symlink()
    assert list(json.loads(real.read_text())["mcpServers"]) == ["a", "b"]


@pytest.mark.skipif(os.name != "posix", reason="pid liveness check is POSIX-only")
def test_temp_files_of_dead_writers_are_cleared(config_dir: Path) -> None:
    child = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True
    )
    dead = int(child.stdout)
    stale = config_dir / f".servers.json.{dead}.abc123.tmp"
    stale.write_text("half a file")
    live = config_dir / f".servers.json.{os.getppid()}.def456.tmp"  # our parent: alive
    live.write_text("someone is writing")
    store = ConfigStore()
    store.load()
    store.save()
    assert not stale.exists()
    assert live.exists()
