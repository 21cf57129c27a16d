"""The inventory of a folder's secrets: kinds and places from the server list, times from the index,
orphans and their clean-up; the index keeps old layouts readable."""

from __future__ import annotations

import asyncio
import json
import time

import pytest

from app.config.model import ServerEntry
from app.secrets.inventory import (
    Kind,
    Usage,
    build_inventory,
    clean_up_orphans,
    describe,
    read_inventory,
    usages_of,
)
from app.secrets.store import CHANGED_KEY, SERVICE, SecretStore, index_username
from tests.support.memory_keyring import MemoryKeyring


def entries() -> list[ServerEntry]:
    return [
        ServerEntry(
            "brave",
            command="npx",
            args=["-y", "--token", "${secret:CLI_TOKEN}"],
            env={"BRAVE_API_KEY": "${secret:BRAVE_API_KEY}", "PLAIN": "x"},
        ),
        ServerEntry(
            "search",
            transport="http",
            url="https://api.example.com/mcp?key=${secret:URL_KEY}",
            headers={"Authorization": "Bearer ${secret:API_TOKEN}", "X-Also": "${secret:API_TOKEN}"},
        ),
        ServerEntry("notion", transport="http", url="https://mcp.example.com/mcp"),
    ]


def test_usages_name_kind_and_place_in_the_entrys_order() -> None:
    brave, search, _ = entries()
    assert usages_of(brave) == {
        "CLI_TOKEN": [Usage(Kind.ARGUMENT, "3")],
        "BRAVE_API_KEY": [Usage(Kind.ENV, "BRAVE_API_KEY")],
    }
    assert usages_of(search) == {
        "API_TOKEN": [Usage(Kind.HEADER, "Authorization"), Usage(Kind.HEADER, "X-Also")],
        "URL_KEY": [Usage(Kind.URL)],
    }
    assert describe(Usage(Kind.ENV, "BRAVE_API_KEY")) == "environment BRAVE_API_KEY"
    assert describe(Usage(Kind.HEADER, "Authorization")) == "header Authorization"
    assert describe(Usage(Kind.ARGUMENT, "3")) == "argument 3"
    assert describe(Usage(Kind.URL)) == "URL"


def test_inventory_groups_by_server_with_kinds_orphans_and_missing() -> None:
    stored = {
        "brave": {"BRAVE_API_KEY": 1700000000.0, "OLD_KEY": None},
        "search": {"API_TOKEN": 1700000100.5},
        "notion": {"oauth.tokens": 1700000200.0, "oauth.client": None, "oauth.client_secret": 1.0},
        "gone": {"GONE_KEY": None, "oauth.tokens": 5.0},
    }
    inv = build_inventory(entries(), stored)
    assert [s.server for s in inv.servers] == ["brave", "search", "notion", "gone"]
    brave = inv.server("brave")
    assert brave is not None and brave.exists and not brave.signed_in
    assert [(i.name, i.kind, i.stored, i.changed_at) for i in brave.items] == [
        ("BRAVE_API_KEY", Kind.ENV, True, 1700000000.0),
        ("CLI_TOKEN", Kind.ARGUMENT, False, None),  # referenced, not set: listed so it can be set
        ("OLD_KEY", Kind.UNUSED, True, None),
    ]
    search = inv.server("search")
    assert search is not None
    assert [(i.name, i.kind, i.stored) for i in search.items] == [
        ("API_TOKEN", Kind.HEADER, True),
        ("URL_KEY", Kind.URL, False),
    ]
    notion = inv.server("notion")
    assert notion is not None and notion.signed_in
    assert {i.name: i.kind for i in notion.items} == {
        "oauth.tokens": Kind.OAUTH_TOKENS,
        "oauth.client": Kind.OAUTH_REGISTRATION,
        "oauth.client_secret": Kind.OAUTH_CLIENT_SECRET,
    }
    gone = inv.server("gone")
    assert gone is not None and not gone.exists
    assert [(i.name, i.orphan) for i in gone.items] == [("oauth.tokens", True), ("GONE_KEY", True)]
    assert {(i.server, i.name) for i in inv.orphans()} == {("gone", "GONE_KEY"), ("gone", "oauth.tokens")}
    # A server with nothing stored and nothing referenced is not listed.
    assert build_inventory([ServerEntry("bare", command="x")], {}).servers == []


def test_store_records_when_each_secret_was_set(memory_keyring: MemoryKeyring) -> None:
    store = SecretStore(scope="folder-0001")
    before = time.time()
    store.set("brave", "BRAVE_API_KEY", "v1")
    store.set("brave", "OTHER", "v2")
    after = time.time()
    times = store.names_with_times()
    stamp = times["brave"]["BRAVE_API_KEY"]
    assert stamp is not None and before - 0.01 <= stamp <= after + 0.01
    raw = memory_keyring.store[(SERVICE, index_username("folder-0001"))]
    assert "v1" not in raw and "v2" not in raw  # names and times only
    # Deleting one drops its time; the other keeps its own.
    assert store.delete("brave", "OTHER")
    assert set(store.names_with_times()["brave"]) == {"BRAVE_API_KEY"}
    assert CHANGED_KEY not in store.all_names()  # the times' key is never taken for a server


def test_old_index_reads_with_unknown_times_and_gains_them(memory_keyring: MemoryKeyring) -> None:
    # As written before this version: names only.
    user = index_username("folder-0001")
    memory_keyring.store[(SERVICE, user)] = json.dumps({"brave": ["BRAVE_API_KEY", "OTHER"]})
    memory_keyring.store[(SERVICE, "folder-0001/brave/BRAVE_API_KEY")] = "old"
    memory_keyring.store[(SERVICE, "folder-0001/brave/OTHER")] = "old2"
    store = SecretStore(scope="folder-0001")
    assert store.names_with_times() == {"brave": {"BRAVE_API_KEY": None, "OTHER": None}}
    store.set("brave", "OTHER", "new")
    times = store.names_with_times()["brave"]
    assert times["BRAVE_API_KEY"] is None and times["OTHER"] is not None
    # What an older version reads of the new index: its own layout, the times' key skipped.
    data = json.loads(memory_keyring.store[(SERVICE, user)])
    old_reader = {k: v for k, v in data.items() if isinstance(v, list) and v}
    assert old_reader == {"brave": ["BRAVE_API_KEY", "OTHER"]}


@pytest.mark.parametrize("damaged", [{"/changed": "nope"}, {"/changed": {"brave": {"K": "x"}}}])
def test_damaged_times_read_as_unknown(memory_keyring: MemoryKeyring, damaged: dict[str, object]) -> None:
    memory_keyring.store[(SERVICE, index_username(None))] = json.dumps({"brave": ["K"], **damaged})
    memory_keyring.store[(SERVICE, "brave/K")] = "v"
    assert SecretStore().names_with_times() == {"brave": {"K": None}}


def test_rename_keeps_when_a_secret_was_set(memory_keyring: MemoryKeyring) -> None:
    store = SecretStore()
    store.set("a", "K", "v")
    when = store.names_with_times()["a"]["K"]
    store.rename_server("a", "b")
    assert store.names_with_times() == {"b": {"K": when}}


def test_read_inventory_and_clean_up_orphans(memory_keyring: MemoryKeyring) -> None:
    store = SecretStore(scope="folder-0001")
    store.set("brave", "BRAVE_API_KEY", "keep-me")
    store.set("gone", "GONE_KEY", "x")
    store.set("gone", "oauth.tokens", '{"access_token": "t"}')

    async def scenario() -> tuple[list[tuple[str, str]], list[str]]:
        inv = await read_inventory(store, entries())
        removed = await clean_up_orphans(store, inv)
        after = await read_inventory(store, entries())
        return removed, [s.server for s in after.servers]

    removed, servers = asyncio.run(scenario())
    assert sorted(removed) == [("gone", "GONE_KEY"), ("gone", "oauth.tokens")]
    assert "gone" not in servers and "brave" in servers
    assert store.get("brave", "BRAVE_API_KEY") == "keep-me"
    assert not any("/gone/" in user for (_, user) in memory_keyring.store)
