"""Manifests of every version the spec has had (0.1 with `dxt_version`, 0.2, 0.3, 0.4 with `uv`),
and the shapes that are refused with a sentence naming the key."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from app.bundles.manifest import ManifestError, parse
from tests.bundles.builders import node_manifest, python_manifest

V01_DXT: dict[str, Any] = {
    "dxt_version": "0.1",
    "name": "old-extension",
    "version": "0.0.1",
    "description": "An extension from the .dxt days",
    "author": {"name": "Someone", "email": "someone@example.com"},
    "server": {
        "type": "binary",
        "entry_point": "server/tool",
        "mcp_config": {
            "command": "server/tool",
            "args": ["--config", "server/config.json"],
            "platform_overrides": {"win32": {"command": "server/tool.exe"}},
        },
    },
    "prompts": [{"name": "poem", "arguments": ["topic"], "text": "Write about ${arguments.topic}"}],
}

V04_UV: dict[str, Any] = {
    "manifest_version": "0.4",
    "name": "hello-uv",
    "display_name": "Hello (uv)",
    "version": "1.0.0",
    "description": "uv runs it",
    "author": {"name": "Someone"},
    "server": {"type": "uv", "entry_point": "src/server.py"},
    "compatibility": {"platforms": ["darwin", "linux", "win32"], "runtimes": {"python": ">=3.10"}},
}


def test_version_01_with_dxt_version() -> None:
    m = parse(V01_DXT)
    assert (m.manifest_version, m.server_type, m.mcp_config.command) == ("0.1", "binary", "server/tool")
    assert m.platform_overrides["win32"].command == "server/tool.exe"
    assert m.platform_overrides["win32"].args is None  # an override replaces only what it gives
    assert [p.name for p in m.prompts] == ["poem"]
    assert m.author_email == "someone@example.com"
    assert not m.newer_than_known


def test_version_02_python() -> None:
    m = parse(python_manifest())
    assert (m.manifest_version, m.server_type, m.runtimes) == ("0.2", "python", {"python": ">=3.10"})
    limit = next(o for o in m.user_config if o.key == "limit")
    assert (limit.type, limit.default, limit.maximum) == ("number", 5.0, 10.0)


def test_version_03_full() -> None:
    data = node_manifest()
    data["icons"] = [{"src": "a.png", "size": "16x16", "theme": "dark"}, {"src": "b.png", "size": "64x64"}]
    data["localization"] = {"resources": "res/${locale}.json", "default_locale": "en-US"}
    data["_meta"] = {"com.example": {"x": 1}}
    m = parse(data)
    assert m.title == "Folder Helper"
    assert m.repository == "https://example.com/folder-helper.git"
    assert m.icons == (("a.png", "16x16", "dark"), ("b.png", "64x64", None))
    assert [t.name for t in m.tools] == ["whoami", "list_folder"]
    assert m.platforms == ("darwin", "win32", "linux")
    api = m.user_config[0]
    assert (api.key, api.sensitive, api.required) == ("api_key", True, True)


def test_version_04_uv_needs_no_mcp_config() -> None:
    m = parse(V04_UV)
    assert (m.server_type, m.entry_point, m.mcp_config.command) == ("uv", "src/server.py", None)


def test_a_newer_version_is_read_and_flagged() -> None:
    data = copy.deepcopy(V04_UV)
    data["manifest_version"] = "0.9"
    assert parse(data).newer_than_known


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.pop("manifest_version"), "manifest_version"),
        (lambda d: d.pop("name"), "`name` is missing"),
        (lambda d: d.pop("author"), "author"),
        (lambda d: d["server"].update(type="ruby"), "server.type"),
        (lambda d: d["server"].pop("mcp_config"), "mcp_config"),
        (lambda d: d["server"]["mcp_config"].update(args="x"), "server.mcp_config.args"),
        (lambda d: d["server"]["mcp_config"].update(env={"A": 1}), "env"),
        (lambda d: d["user_config"]["api_key"].update(type="secret"), "user_config.api_key.type"),
        (lambda d: d["user_config"].update({"bad key": {"type": "string"}}), "bad key"),
        (lambda d: d["user_config"]["mode"].update(required="yes"), "user_config.mode.required"),
        (lambda d: d.update(tools=[{"description": "no name"}]), "tools[0].name"),
    ],
)
def test_bad_shapes_are_refused_with_the_key(change: Any, words: str) -> None:
    data = node_manifest()
    change(data)
    with pytest.raises(ManifestError, match=None) as info:
        parse(data)
    assert words in str(info.value)


def test_not_an_object() -> None:
    with pytest.raises(ManifestError):
        parse([1, 2])
