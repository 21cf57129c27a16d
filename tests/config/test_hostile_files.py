"""Files as people and other tools leave them: a byte-order mark, names we would never accept,
and disks that are full or read-only."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

from app.config import atomic
from app.config.errors import ConfigError, ConfigWriteError
from app.config.importing import read_import_file
from app.config.model import ServerEntry
from app.config.store import ConfigStore

BOM = b"\xef\xbb\xbf"


def test_files_with_a_byte_order_mark_load(config_dir: Path) -> None:
    servers = {"mcpServers": {"a": {"command": "x"}}}
    (config_dir / "servers.json").write_bytes(BOM + json.dumps(servers).encode())
    (config_dir / "settings.json").write_bytes(BOM + json.dumps({"servers": {"a": {"timeout": 7}}}).encode())
    store = ConfigStore()
    store.load()
    assert store.names() == ["a"]
    assert store.settings("a").timeout == 7
    store.add(ServerEntry(name="b", command="y"))
    store.save()
    again = ConfigStore()
    again.load()
    assert again.names() == ["a", "b"]
    assert again.settings("a").timeout == 7


def test_import_file_with_a_byte_order_mark(tmp_path: Path) -> None:
    f = tmp_path / "claude_desktop_config.json"
    f.write_bytes(BOM + json.dumps({"mcpServers": {"a": {"command": "x"}}}).encode())
    result = read_import_file(f, "auto")
    assert [s.entry.name for s in result.servers] == ["a"]


BAD_NAMES = ["a/b", "../x", "", " padded", "..\\x", ".."]


def test_names_add_would_refuse_are_reported_and_kept_untouched(config_dir: Path) -> None:
    servers: dict[str, object] = {"good": {"command": "x"}}
    servers.update({name: {"command": "evil", "args": [name], "odd": True} for name in BAD_NAMES})
    servers["last"] = {"command": "z"}
    (config_dir / "servers.json").write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    (config_dir / "settings.json").write_text(
        json.dumps({"servers": {"a/b": {"timeout": 3}}}), encoding="utf-8"
    )
    store = ConfigStore()
    store.load()
    # The rest of the file loads; the bad names are never handed out (no keyring key, no path).
    assert store.names() == ["good", "last"]
    assert [e.name for e in store.bad_entries] == BAD_NAMES
    for name in BAD_NAMES:
        assert name not in store
        with pytest.raises(ConfigError):
            store.get(name)
    assert len(store.warnings) == len(BAD_NAMES)
    assert all("servers.json:" in w and "cannot be used" in w for w in store.warnings)
    assert "'a/b'" in store.warnings[0]
    # Saving another change writes the bad entries back exactly as they were, in place.
    store.add(ServerEntry(name="new", command="n"))
    store.save()
    data = json.loads((config_dir / "servers.json").read_text(encoding="utf-8"))
    assert list(data["mcpServers"]) == ["good", *BAD_NAMES, "last", "new"]
    for name in BAD_NAMES:
        assert data["mcpServers"][name] == servers[name]
    settings = json.loads((config_dir / "settings.json").read_text(encoding="utf-8"))
    assert settings["servers"]["a/b"] == {"timeout": 3}


def test_cli_list_reports_bad_names(config_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from app.cli.main import main

    (config_dir / "servers.json").write_text(
        json.dumps({"mcpServers": {"ok": {"command": "x"}, "../x": {"command": "y"}}}), encoding="utf-8"
    )
    assert main(["servers", "list"]) == 0
    out, err = capsys.readouterr()
    assert out.split()[0] == "ok" and "../x" not in out
    assert "warning:" in err and "'../x'" in err and "cannot be used" in err
    assert main(["servers", "list", "--json"]) == 0
    out, err = capsys.readouterr()
    assert [r["name"] for r in json.loads(out)] == ["ok"]
    assert "'../x'" in err


def _saved_store(config_dir: Path) -> tuple[ConfigStore, bytes]:
    store = ConfigStore()
    store.load()
    store.save()
    store.add(ServerEntry(name="more", command="m"))
    return store, (config_dir / "servers.json").read_bytes()


def _no_temp_files(config_dir: Path) -> None:
    assert [p.name for p in config_dir.iterdir() if p.name.endswith(".tmp")] == []


@pytest.mark.parametrize(
    ("where", "code", "words"),
    [
        ("fsync", errno.ENOSPC, "the disk is full"),
        ("replace", errno.ENOSPC, "the disk is full"),
        ("mkstemp", errno.EROFS, "read-only"),
        ("replace", errno.EACCES, "permission denied"),
    ],
)
def test_write_errors_name_the_file_and_leave_it_as_it_was(
    config_dir: Path, monkeypatch: pytest.MonkeyPatch, where: str, code: int, words: str
) -> None:
    store, before = _saved_store(config_dir)

    def fail(*_args: object, **_kwargs: object) -> None:
        raise OSError(code, os.strerror(code))

    target = {"fsync": atomic.os, "replace": atomic.os, "mkstemp": atomic.tempfile}[where]
    monkeypatch.setattr(target, where, fail)
    with pytest.raises(ConfigWriteError) as caught:
        store.save()
    monkeypatch.undo()
    message = str(caught.value)
    assert message.startswith(str(config_dir / "servers.json") + ": could not save: ")
    assert words in message and "left as it was" in message
    assert caught.value.errno == code
    assert (config_dir / "servers.json").read_bytes() == before
    _no_temp_files(config_dir)
    # Once the disk has room again, the same store saves its change.
    store.save()
    assert "more" in json.loads((config_dir / "servers.json").read_text(encoding="utf-8"))["mcpServers"]


def test_settings_file_write_error_names_settings_json(
    config_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, _ = _saved_store(config_dir)
    store.save()
    store.settings("more").timeout = 9
    real = atomic.os.replace

    def full_for_settings(src: str, dst: str | os.PathLike[str]) -> None:
        if Path(dst).name == "settings.json":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(src, dst)

    monkeypatch.setattr(atomic.os, "replace", full_for_settings)
    with pytest.raises(ConfigWriteError, match=r"settings\.json: could not save: the disk is full"):
        store.save()
    assert not (config_dir / "settings.json").exists()


def test_real_write_failure_names_the_file(config_dir: Path) -> None:
    # Root ignores chmod, so use a real failure root cannot bypass: the backup's place is a folder.
    store, before = _saved_store(config_dir)
    (config_dir / "servers.json.bak").mkdir()
    with pytest.raises(ConfigWriteError) as caught:
        store.save()
    message = str(caught.value)
    assert message.startswith(str(config_dir / "servers.json") + ": could not save: ")
    assert "servers.json.bak" in message
    assert (config_dir / "servers.json").read_bytes() == before
    _no_temp_files(config_dir)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root ignores chmod")
def test_real_read_only_folder_names_the_file(config_dir: Path) -> None:
    store, before = _saved_store(config_dir)
    config_dir.chmod(0o500)
    try:
        with pytest.raises(ConfigWriteError, match="permission denied"):
            store.save()
    finally:
        config_dir.chmod(0o700)
    assert (config_dir / "servers.json").read_bytes() == before
