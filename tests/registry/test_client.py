"""The registry client against the local directory: paging, search, which entries are shown, the
cache and the offline state, limits on what is read, icons, and the directory setting."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.registry import client as client_module
from app.registry.cache import ResponseCache
from app.registry.client import (
    OFFLINE_MESSAGE,
    NotInRegistry,
    RegistryClient,
    RegistryError,
    RegistryOffline,
    sniff_image,
    status_note,
)
from app.registry.model import OFFICIAL, RegistryServer
from app.registry.settings import DEFAULT_REGISTRY, BadRegistryUrl, registry_url, set_registry_url
from tests.servers.registry_server import RegistryFixture, start_registry

pytestmark = pytest.mark.anyio

SHOWN = {
    "io.github.modelcontextprotocol/server-memory",
    "io.github.modelcontextprotocol/time",
    "io.github.example/weather",
    "com.example/notes",
    "com.example/tenant-search",
    "io.github.example/old-weather",
    "io.github.joelverhagen/samplemcpserver",
    "io.modelcontextprotocol/text-editor",
    *(f"io.github.example/filler-{i}" for i in range(1, 7)),
}


def new_client(fx: RegistryFixture, tmp_path: Path, **kw: object) -> RegistryClient:
    return RegistryClient(fx.base, cache=ResponseCache(tmp_path / "cache"), **kw)  # type: ignore[arg-type]


async def test_every_page_by_next_cursor_shows_each_active_or_deprecated_latest_entry_once(
    registry: RegistryFixture, tmp_path: Path
) -> None:
    c = new_client(registry, tmp_path)
    names: list[str] = []
    page = await c.search("")
    pages = 1
    names += [s.name for s in page.servers]
    while page.next_cursor:
        page = await c.search("", cursor=page.next_cursor)
        names += [s.name for s in page.servers]
        pages += 1
    await c.aclose()
    assert len(names) == len(set(names))
    assert set(names) == SHOWN
    assert pages == 5  # 14 entries, 3 a page: the cursor was followed to the end
    assert all("version=latest" in url for url in registry.requests)


async def test_search_matches_names_and_descriptions(registry: RegistryFixture, tmp_path: Path) -> None:
    c = new_client(registry, tmp_path)
    memory = await c.search("memory")
    forecast = await c.search("Forecasts")
    await c.aclose()
    assert [s.name for s in memory.servers] == ["io.github.modelcontextprotocol/server-memory"]
    assert memory.servers[0].version == "2026.8.31"  # the latest, not the old 0.6.0
    assert [s.name for s in forecast.servers] == ["io.github.example/weather"]
    assert "search=memory" in registry.requests[0]


async def test_deleted_is_hidden_and_deprecated_is_shown_with_its_note(
    registry: RegistryFixture, tmp_path: Path
) -> None:
    c = new_client(registry, tmp_path)
    old = (await c.search("old-weather")).servers
    assert [s.status for s in old] == ["deprecated"]
    assert status_note(old[0]) == (
        "The server directory marks this server as deprecated: Use io.github.example/weather instead"
    )
    assert (await c.search("gone")).servers == []
    with pytest.raises(NotInRegistry):
        await c.latest("io.github.example/gone")
    await c.aclose()


async def test_a_directory_that_lists_deleted_and_old_versions_anyway_is_filtered_here(
    registry: RegistryFixture, tmp_path: Path
) -> None:
    # A sub-registry that ignores `version=latest` and `include_deleted`: the client filters too.
    registry.page_size = 100
    c = new_client(registry, tmp_path)
    url = c.list_url("", None, 100).replace("version=latest", "version=any") + "&include_deleted=true"
    fetched = await c._get(url, client_module.MAX_LIST_BYTES)
    import json

    raw = json.loads(fetched.body)["servers"]
    assert any(r["_meta"][OFFICIAL]["status"] == "deleted" for r in raw)
    servers = [RegistryServer.from_response(r) for r in raw]
    kept = {s.name for s in servers if s is not None and client_module.shown(s)}
    assert kept == SHOWN
    await c.aclose()


async def test_latest_asks_for_the_url_encoded_name(registry: RegistryFixture, tmp_path: Path) -> None:
    c = new_client(registry, tmp_path)
    server = await c.latest("com.example/notes")
    await c.aclose()
    assert server.title == "Notes (online)" and server.version == "3.1.0"
    assert registry.requests[-1].endswith("/v0.1/servers/com.example%2Fnotes/versions/latest")


async def test_a_fresh_answer_comes_from_the_cache_and_refresh_asks_again(
    registry: RegistryFixture, tmp_path: Path
) -> None:
    c = new_client(registry, tmp_path)
    first = await c.search("time")
    asked = len(registry.requests)
    again = await c.search("time")
    assert len(registry.requests) == asked
    assert [s.name for s in again.servers] == [s.name for s in first.servers]
    assert not again.offline
    await c.search("time", refresh=True)
    assert len(registry.requests) == asked + 1
    await c.aclose()


async def test_offline_shows_the_cached_list_with_its_time_and_says_so_otherwise(tmp_path: Path) -> None:
    with start_registry() as fx:
        base = fx.base
        c = RegistryClient(base, cache=ResponseCache(tmp_path / "cache"), fresh_seconds=0)
        online = await c.search("weather")
        await c.aclose()
    assert not online.offline and online.fetched_at is not None
    # The directory is gone (connections refused): the cached page, marked offline, with its time.
    c = RegistryClient(base, cache=ResponseCache(tmp_path / "cache"), fresh_seconds=0)
    offline = await c.search("weather")
    assert offline.offline and offline.fetched_at == online.fetched_at
    assert [s.name for s in offline.servers] == [s.name for s in online.servers]
    with pytest.raises(RegistryOffline) as info:
        await c.search("never searched before")
    assert str(info.value) == OFFLINE_MESSAGE
    await c.aclose()


async def test_a_directory_answering_errors_falls_back_to_the_cache(
    registry: RegistryFixture, tmp_path: Path
) -> None:
    c = new_client(registry, tmp_path, fresh_seconds=0)
    await c.search("time")
    registry.broken = True
    assert (await c.search("time")).offline
    with pytest.raises(RegistryError, match="HTTP 503"):
        await c.search("memory")
    await c.aclose()


async def test_an_answer_too_large_is_not_read(
    registry: RegistryFixture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(client_module, "MAX_LIST_BYTES", 2000)
    c = new_client(registry, tmp_path)
    with pytest.raises(RegistryError, match="too large"):
        await c.search("")
    assert await c.search("gone") is not None  # a small answer still is
    await c.aclose()


async def test_icons_are_images_within_limits_from_allowed_addresses(
    registry: RegistryFixture, tmp_path: Path
) -> None:
    c = new_client(registry, tmp_path)
    notes = await c.latest("com.example/notes")
    data = await c.icon(notes)
    assert data is not None and sniff_image(data) == "image/png"

    def with_icon(src: str) -> RegistryServer:
        return RegistryServer.from_response({"server": {"name": "a/b", "icons": [{"src": src}]}}) or notes

    assert await c.icon(with_icon(f"{registry.base}/icons/huge.png")) is None  # over 256 KB
    assert await c.icon(with_icon(f"{registry.base}/icons/not-an-image.png")) is None  # HTML, not PNG
    assert await c.icon(with_icon(f"{registry.base}/icons/x.svg")) is None  # SVG: never fetched
    before = len(registry.requests)
    assert await c.icon(with_icon("http://example.com/icon.png")) is None  # plain http elsewhere
    assert len(registry.requests) == before
    await c.aclose()
    https_dir = RegistryClient("https://registry.example.com", cache=None)
    assert https_dir.icon_allowed("https://cdn.example.com/i.png")
    assert not https_dir.icon_allowed("http://127.0.0.1:8000/i.png")  # loopback only for a loopback directory
    assert not https_dir.icon_allowed("file:///etc/passwd")
    assert not https_dir.icon_allowed("data:image/png;base64,AAAA")


async def test_the_directory_address_is_a_setting_of_the_config_folder(config_dir: Path) -> None:
    from app.config.store import ConfigStore

    store = ConfigStore(config_dir)
    store.load()
    assert registry_url(store) == DEFAULT_REGISTRY
    assert set_registry_url(store, "https://mcp.example.com/registry/") == "https://mcp.example.com/registry"
    again = ConfigStore(config_dir)
    again.load()
    assert registry_url(again) == "https://mcp.example.com/registry"
    assert '"registryUrl"' in (config_dir / "settings.json").read_text()
    with pytest.raises(BadRegistryUrl):
        set_registry_url(again, "ftp://example.com")
    set_registry_url(again, None)
    assert registry_url(again) == DEFAULT_REGISTRY
    again.app_settings["registryUrl"] = "javascript:alert(1)"
    assert registry_url(again) == DEFAULT_REGISTRY  # a bad value in the file: the official one


def test_odd_answers_never_raise() -> None:
    odd: list[object] = [
        None,
        [],
        {"server": "x"},
        {"server": {"name": 3}},
        {"server": {"name": "a/b", "packages": "npm", "remotes": [{"type": "sse"}], "icons": [1]}},
        {"server": {"name": "a/b", "packages": [{"registryType": "npm"}, {"identifier": "x"}]}},
        {
            "server": {"name": "a/b", "description": "x" * 100_000},
            "_meta": {"io.modelcontextprotocol.registry/official": []},
        },
    ]
    results = [RegistryServer.from_response(o) for o in odd]
    assert results[:4] == [None, None, None, None]
    assert results[4] is not None and results[4].packages == () and results[4].remotes == ()
    assert results[5] is not None and results[5].packages == ()
    assert results[6] is not None and len(results[6].description) == 2000 and results[6].status == "active"
