"""README snippets of every client's shape, example values asked for, keys only for what is added."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.config.importing import add_applied, import_into, read_import_file
from app.config.model import ServerEntry
from app.config.placeholders import find_placeholders, make_holes
from app.config.snippets import (
    SnippetError,
    parse_snippet,
    read_snippet,
    snippet_plans,
    split_command_line,
    suggest_name,
)
from app.config.store import ConfigStore
from app.install.plan import MissingAnswer, apply
from app.secrets.resolve import extract_secrets
from app.secrets.store import SecretStore
from tests.support.memory_keyring import MemoryKeyring


def entries(text: str) -> dict[str, dict[str, Any]]:
    """name → the entry as it would be written to servers.json."""
    return {p.name: p.entry.to_json() for p in snippet_plans(text, environ={})}


# -- shapes -------------------------------------------------------------------------------------


def test_fragment_without_outer_braces_with_comments_and_trailing_commas() -> None:
    text = """
# Add this to claude_desktop_config.json
// or to Cursor's mcp.json
"mcpServers": {
  "memory": {
    "command": "npx", // the package runner
    "args": ["-y", "@modelcontextprotocol/server-memory",],
  },
}
"""
    assert entries(text) == {
        "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}
    }


def test_single_named_entry_and_bare_entry() -> None:
    assert entries('"time": {"command": "uvx", "args": ["mcp-server-time"]}') == {
        "time": {"command": "uvx", "args": ["mcp-server-time"]}
    }
    # A bare entry is named after its package.
    bare = entries('{"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]}')
    assert list(bare) == ["filesystem"]
    # VS Code's `code --add-mcp '{...}'` carries the name inside.
    shell = 'code --add-mcp \'{"name":"playwright","command":"npx","args":["@playwright/mcp@latest"]}\''
    assert entries(shell) == {"playwright": {"command": "npx", "args": ["-y", "@playwright/mcp@latest"]}}


def test_markdown_fence_and_ellipsis_lines_are_dropped() -> None:
    text = (
        '```json\n{\n  "mcpServers": {\n    ...\n'
        '    "git": {"command": "uvx", "args": ["mcp-server-git"]}\n  }\n}\n```'
    )
    assert entries(text) == {"git": {"command": "uvx", "args": ["mcp-server-git"]}}


def test_windsurf_server_url() -> None:
    got = entries('{"mcpServers": {"ctx": {"serverUrl": "https://mcp.context7.com/mcp"}}}')
    assert got["ctx"]["url"] == "https://mcp.context7.com/mcp"
    assert "serverUrl" not in got["ctx"]
    assert (
        snippet_plans('{"mcpServers": {"ctx": {"serverUrl": "https://a.example/mcp"}}}')[0].entry.transport
        == "http"
    )


def test_gemini_http_url_and_sse_url() -> None:
    plans = {
        p.name: p.entry
        for p in snippet_plans(
            '{"mcpServers": {"h": {"httpUrl": "https://a.example/mcp"},'
            ' "s": {"url": "https://b.example/sse", "trust": false, "timeout": 5000}}}'
        )
    }
    assert plans["h"].transport == "http" and plans["h"].url == "https://a.example/mcp"
    assert plans["s"].transport == "sse"


def test_opencode_local_and_remote() -> None:
    text = """{
      "$schema": "https://opencode.ai/config.json",
      "mcp": {
        "fs": {"type": "local", "command": ["npx", "-y", "@modelcontextprotocol/server-filesystem", "/tmp"],
               "environment": {"LOG": "1"}, "enabled": true},
        "off": {"type": "local", "command": ["uvx", "mcp-server-time"], "enabled": false},
        "web": {"type": "remote", "url": "https://mcp.example.com/mcp", "headers": {"X-Team": "a"}}
      }
    }"""
    got = {p.name: p.entry for p in snippet_plans(text, environ={})}
    assert got["fs"].transport == "stdio" and got["fs"].command == "npx"
    assert got["fs"].args == ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]
    assert got["fs"].env == {"LOG": "1"} and not got["fs"].disabled
    assert "enabled" not in got["fs"].to_json() and "environment" not in got["fs"].to_json()
    assert got["off"].disabled
    assert got["web"].transport == "http" and got["web"].headers == {"X-Team": "a"}


def test_copilot_type_local() -> None:
    text = (
        '{"mcpServers": {"pw": {"type": "local", "command": "npx", '
        '"args": ["@playwright/mcp@latest"], "tools": ["*"]}}}'
    )
    (plan,) = snippet_plans(text)
    assert plan.entry.transport == "stdio" and plan.entry.problem is None
    assert plan.entry.extra == {"tools": ["*"]}


def test_zed_context_servers_old_and_custom() -> None:
    old = (
        '"context_servers": {"time": {"command": {"path": "uvx", "args": ["mcp-server-time"], "env": {}}, '
        '"settings": {}}}'
    )
    assert entries(old) == {"time": {"command": "uvx", "args": ["mcp-server-time"], "env": {}}}
    custom = (
        '{"context_servers": {"mem": {"source": "custom", "command": "npx", "args": ["-y", "m"], "env": {}}}}'
    )
    assert entries(custom) == {"mem": {"command": "npx", "args": ["-y", "m"], "env": {}}}


def test_vscode_servers_with_inputs_become_questions() -> None:
    text = json.dumps(
        {
            "inputs": [{"type": "promptString", "id": "gh", "description": "GitHub token", "password": True}],
            "servers": {
                "github": {
                    "type": "http",
                    "url": "https://api.githubcopilot.com/mcp/",
                    "headers": {"Authorization": "Bearer ${input:gh}"},
                }
            },
        }
    )
    (plan,) = snippet_plans(text, environ={}, extract=extract_secrets)
    assert plan.entry.headers == {"Authorization": "Bearer ${ask:gh}"}
    q = plan.question("gh")
    assert q.secret and q.label == "GitHub token" and q.required
    done = apply(plan, {"gh": "ghp_realtoken"})
    assert done.entry.headers == {"Authorization": "Bearer ${secret:gh}"}
    assert done.secrets == {"gh": "ghp_realtoken"}


def test_claude_and_cursor_shapes_still_read() -> None:
    text = (
        '{"mcpServers": {"a": {"command": "npx", "args": ["x"]}, '
        '"b": {"url": "https://b.example/mcp", "type": "streamable-http"}}}'
    )
    got = {p.name: p.entry for p in snippet_plans(text)}
    assert got["a"].command == "npx" and got["b"].transport == "http"


def test_codex_toml() -> None:
    text = '[mcp_servers.context7]\ncommand = "npx"\nargs = ["-y", "@upstash/context7-mcp"]\n'
    assert entries(text) == {"context7": {"command": "npx", "args": ["-y", "@upstash/context7-mcp"]}}


def test_command_lines() -> None:
    assert entries("npx -y @modelcontextprotocol/server-memory") == {
        "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}
    }
    got = entries("claude mcp add notion --transport http https://mcp.notion.com/mcp")
    assert got == {"notion": {"type": "http", "url": "https://mcp.notion.com/mcp"}}
    got = entries("claude mcp add fs -e LOG=1 -- npx -y @modelcontextprotocol/server-filesystem /tmp")
    assert got["fs"]["command"] == "npx" and got["fs"]["env"] == {"LOG": "1"}
    with pytest.raises(SnippetError):
        parse_snippet("npm install -g something")
    with pytest.raises(SnippetError):
        parse_snippet("Just some words about the server.\nAnd another line.")


def test_npx_gets_its_yes() -> None:
    """Without a terminal, `npx pkg` stops instead of asking to install: `-y` is added."""
    assert entries('"pw": {"command": "npx", "args": ["@playwright/mcp@latest"]}')["pw"]["args"] == [
        "-y",
        "@playwright/mcp@latest",
    ]
    kept = entries(
        '"a": {"command": "npx", "args": ["--yes", "pkg"]}, "b": {"command": "uvx", "args": ["y"]}'
    )
    assert kept["b"]["args"] == ["y"]
    assert kept["a"]["args"] == ["--yes", "pkg"]


def test_command_as_one_string_and_odd_values_are_made_text() -> None:
    (plan,) = snippet_plans('{"command": "npx -y pkg", "env": {"PORT": 8080, "DEBUG": true}}')
    assert plan.entry.command == "npx" and plan.entry.args == ["-y", "pkg"]
    assert plan.entry.env == {"PORT": "8080", "DEBUG": "true"}


def test_nothing_readable_says_so() -> None:
    for text in ("", "   ", '{"name": "firecrawl_search", "arguments": {"q": 1}}', "[1, 2]"):
        with pytest.raises(SnippetError):
            parse_snippet(text)


def test_split_command_line() -> None:
    assert split_command_line("npx -y pkg --flag") == ({}, "npx", ["-y", "pkg", "--flag"])
    assert split_command_line("python3 -m http.server") == ({}, "python3", ["-m", "http.server"])
    assert split_command_line('uvx tool --name "two words"') == ({}, "uvx", ["tool", "--name", "two words"])
    assert split_command_line("API_KEY=abc LOG=1 node server.js") == (
        {"API_KEY": "abc", "LOG": "1"},
        "node",
        ["server.js"],
    )
    # A Windows path keeps its backslashes; quotes group the words with spaces.
    assert split_command_line(r'"C:\Program Files\nodejs\npx.cmd" -y pkg C:\data\dir') == (
        {},
        r"C:\Program Files\nodejs\npx.cmd",
        ["-y", "pkg", r"C:\data\dir"],
    )
    with pytest.raises(ValueError):
        split_command_line('npx "unclosed')


def test_suggested_names() -> None:
    assert suggest_name({"command": "npx", "args": ["-y", "@playwright/mcp@latest"]}) == "playwright"
    assert suggest_name({"command": "npx", "args": ["-y", "@upstash/context7-mcp"]}) == "context7"
    assert suggest_name({"command": "uvx", "args": ["mcp-server-time"]}) == "time"
    assert (
        suggest_name({"command": "docker", "args": ["run", "-i", "--rm", "mcp/brave-search"]})
        == "brave-search"
    )
    assert suggest_name({"url": "https://mcp.notion.com/mcp"}) == "notion"
    assert suggest_name({"command": "node", "args": ["/x/build/index.js"]}) == "x"


# -- example values --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "found"),
    [
        ("YOUR_API_KEY_HERE", "YOUR_API_KEY_HERE"),
        ("<your-token>", "<your-token>"),
        ("your-api-key", "your-api-key"),
        ("sk-...", "sk-..."),
        ("xxx", "xxx"),
        ("${workspaceFolder}", "${workspaceFolder}"),
        ("/path/to/allowed/dir", "/path/to/allowed/dir"),
        ("/Users/username/Desktop", "/Users/username/Desktop"),
        ("<path>", "<path>"),
        ("Bearer YOUR_GITHUB_PAT", "YOUR_GITHUB_PAT"),
        ("--api-key=<key>", "<key>"),
        ("C:\\Users\\username\\Documents", "C:\\Users\\username\\Documents"),
    ],
)
def test_example_values_are_found(value: str, found: str) -> None:
    spans = find_placeholders(value)
    assert [value[s.start : s.end] for s in spans] == [found]


@pytest.mark.parametrize(
    "value",
    ["npx", "-y", "@modelcontextprotocol/server-filesystem", "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
     "/usr/local/bin/server", "https://mcp.notion.com/mcp", "--local-timezone=America/New_York", "10000",
     "${secret:API_KEY}", "${ask:API_KEY}", "mcp-server-time", "@upstash/context7-mcp@latest"],
)  # fmt: skip
def test_real_values_are_not_examples(value: str) -> None:
    assert find_placeholders(value) == []


def test_examples_become_questions_with_their_context_names() -> None:
    text = """{"mcpServers": {"brave": {
        "command": "npx",
        "args": ["-y", "@modelcontextprotocol/server-filesystem", "/Users/username/Desktop",
                 "/path/to/other/allowed/dir"],
        "env": {"BRAVE_API_KEY": "YOUR_API_KEY_HERE", "MODE": "fast"}
    }}}"""
    (plan,) = snippet_plans(text, environ={}, extract=extract_secrets)
    by_key = {q.key: q for q in plan.questions}
    assert set(by_key) == {"BRAVE_API_KEY", "DESKTOP", "ALLOWED_DIR"}
    key = by_key["BRAVE_API_KEY"]
    assert key.secret and key.required and key.placeholder == "YOUR_API_KEY_HERE"
    assert by_key["DESKTOP"].kind == "directory" and not by_key["DESKTOP"].secret
    # The example is not kept as a key: nothing to store before the person answers.
    assert plan.secrets == {}
    assert plan.entry.env["BRAVE_API_KEY"] == "${ask:BRAVE_API_KEY}"
    with pytest.raises(MissingAnswer):
        apply(plan, {"DESKTOP": "/home/me"})
    done = apply(plan, {"BRAVE_API_KEY": "BSAreal", "DESKTOP": "/home/me", "ALLOWED_DIR": "/srv"})
    assert done.entry.args[-2:] == ["/home/me", "/srv"]
    assert done.entry.env == {"BRAVE_API_KEY": "${secret:BRAVE_API_KEY}", "MODE": "fast"}
    assert done.secrets == {"BRAVE_API_KEY": "BSAreal"}


def test_example_inside_a_value_keeps_the_rest() -> None:
    text = (
        '{"mcpServers": {"gh": {"url": "https://api.githubcopilot.com/mcp/", '
        '"headers": {"Authorization": "Bearer <your-github-token>"}},'
        ' "ctx": {"url": "https://mcp.context7.com/mcp?api_key=YOUR_API_KEY&x=1"},'
        ' "fc": {"serverUrl": "https://mcp.firecrawl.dev/fc-YOUR_API_KEY/v2/mcp"},'
        ' "arg": {"command": "npx", "args": ["-y", "@upstash/context7-mcp", "--api-key", "YOUR_API_KEY"]}}}'
    )
    plans = {p.name: p for p in snippet_plans(text, environ={}, extract=extract_secrets)}
    gh = plans["gh"]
    assert gh.entry.headers == {"Authorization": "Bearer ${ask:GITHUB_TOKEN}"}  # not moved as a secret
    assert gh.question("GITHUB_TOKEN").secret
    assert apply(gh, {"GITHUB_TOKEN": "t0k"}).entry.headers == {
        "Authorization": "Bearer ${secret:GITHUB_TOKEN}"
    }
    assert plans["ctx"].entry.url == "https://mcp.context7.com/mcp?api_key=${ask:API_KEY}&x=1"
    assert plans["fc"].entry.url == "https://mcp.firecrawl.dev/${ask:API_KEY}/v2/mcp"
    assert plans["arg"].entry.args[-2:] == ["--api-key", "${ask:API_KEY}"]
    assert plans["arg"].question("API_KEY").secret


def test_an_unset_variable_is_asked_a_set_one_is_used() -> None:
    text = '{"mcpServers": {"gh": {"command": "npx", "env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}"}}}}'
    (plan,) = snippet_plans(text, environ={}, extract=extract_secrets)
    assert plan.question("GITHUB_TOKEN").secret
    (plan,) = snippet_plans(text, environ={"GITHUB_TOKEN": "ghp_fromenv"}, extract=extract_secrets)
    assert plan.questions == [] and plan.secrets == {"GITHUB_TOKEN": "ghp_fromenv"}


def test_the_same_example_twice_is_one_question() -> None:
    entry = ServerEntry(
        name="x", command="docker", args=["run", "-e", "TOKEN=<your-token>"], env={"TOKEN": "<your-token>"}
    )
    questions = make_holes(entry)
    assert [q.key for q in questions] == ["TOKEN"]
    assert entry.args[-1] == "TOKEN=${ask:TOKEN}" and entry.env["TOKEN"] == "${ask:TOKEN}"


def test_a_plan_without_examples_imports_directly(config_dir: Path, memory_keyring: MemoryKeyring) -> None:
    (plan,) = snippet_plans('"time": {"command": "uvx", "args": ["mcp-server-time"]}')
    assert plan.questions == [] and plan.runtime == "uv"
    store = ConfigStore()
    store.load()
    result = add_applied(store, SecretStore(), [(plan.name, apply(plan, {}))])
    assert result.added == [("time", "time")]
    again = ConfigStore()
    again.load()
    assert again.get("time").args == ["mcp-server-time"]


# -- keys only for what is added --------------------------------------------------------------


def stored_values(keyring: MemoryKeyring) -> set[str]:
    return {v for (_service, user), v in keyring.store.items() if "/" in user}


def test_keys_of_a_skipped_entry_are_never_stored(
    tmp_path: Path, config_dir: Path, memory_keyring: MemoryKeyring
) -> None:
    # "broken" has a key in clear and a wrongly typed field: it is skipped, and its key with it.
    path = tmp_path / "claude_desktop_config.json"
    path.write_text(
        json.dumps(
            {
                "mcpServers": {
                    "broken": {
                        "command": "npx",
                        "args": "-y",
                        "env": {"API_KEY": "sk-skipped-123456789"},
                        "disabled": "no",
                    },
                    "good": {"command": "npx", "env": {"API_KEY": "sk-kept-1234567890ab"}},
                }
            }
        )
    )
    store = ConfigStore()
    store.load()
    asked: list[str] = []
    result = import_into(
        store, SecretStore(), path, extract=extract_secrets, ask=lambda s: asked.append(s.id) or None
    )
    assert result.added == [("good", "good")]
    assert any("broken" in w for w in result.warnings)
    assert stored_values(memory_keyring) == {"sk-kept-1234567890ab"}


def test_a_vscode_input_of_a_skipped_entry_is_not_asked(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text(
        json.dumps(
            {
                "inputs": [{"id": "k", "password": True}],
                "servers": {"bad": {"command": "x", "env": {"K": "${input:k}"}, "disabled": "yes"}},
            }
        )
    )
    asked: list[str] = []
    result = read_import_file(path, ask=lambda s: asked.append(s.id) or "v")
    assert result.servers == [] and asked == []


def test_keys_of_a_server_not_added_leave_nothing_behind(
    config_dir: Path, memory_keyring: MemoryKeyring
) -> None:
    """Saving fails after the first server's key is stored: every key stored is removed again."""
    text = (
        '{"mcpServers": {"a": {"command": "npx", "env": {"API_KEY": "sk-aaaaaaaaaaaaaaaa1"}},'
        ' "b": {"command": "npx", "env": {"API_KEY": "<your-api-key>"}}}}'
    )
    plans = snippet_plans(text, environ={}, extract=extract_secrets)
    assert plans[0].secrets == {"API_KEY": "sk-aaaaaaaaaaaaaaaa1"}
    store = ConfigStore()
    store.load()

    def failing_save() -> None:
        raise OSError("disk full")

    store.save = failing_save  # type: ignore[method-assign]
    applied = [(p.name, apply(p, {"API_KEY": "typed-key-b"})) for p in plans]
    with pytest.raises(OSError):
        add_applied(store, SecretStore(), applied)
    assert stored_values(memory_keyring) == set()
    assert "a" not in store and "b" not in store


def test_a_plan_not_applied_stores_nothing(config_dir: Path, memory_keyring: MemoryKeyring) -> None:
    """A key in clear in a snippet waits in the plan: reading (and cancelling) stores nothing."""
    found = read_snippet(
        '"x": {"command": "npx", "env": {"GITHUB_TOKEN": "ghp_16C7e42F292c6912E7710c838347Ae178B4a"}}',
        extract=extract_secrets,
    )
    assert found.plans[0].secrets == {"GITHUB_TOKEN": "ghp_16C7e42F292c6912E7710c838347Ae178B4a"}
    assert stored_values(memory_keyring) == set()


def test_a_snippet_file_imports_through_the_file_importer(tmp_path: Path) -> None:
    path = tmp_path / "from-readme.txt"
    path.write_text('# put this in your config\n"mcpServers": {"m": {"command": "npx", "args": ["m"],},}\n')
    result = read_import_file(path)
    assert [s.entry.name for s in result.servers] == ["m"]


def test_a_variable_that_is_set_is_a_reference_not_an_example(monkeypatch: pytest.MonkeyPatch) -> None:
    # `${env:NAME}` is filled from MCP Desk's environment at start (README "Secrets"): asking for it
    # would make `servers add --arg=--outer=${env:OUTER}` stop with "value(s) needed".
    monkeypatch.setenv("MCPDESK_TEST_SET", "x")
    monkeypatch.delenv("MCPDESK_TEST_UNSET", raising=False)
    entry = ServerEntry(
        name="s",
        command="srv",
        args=["--outer=${env:MCPDESK_TEST_SET}", "--other=${MCPDESK_TEST_UNSET}"],
        env={"A": "${MCPDESK_TEST_SET}"},
    )
    questions = make_holes(entry)
    assert [q.placeholder for q in questions] == ["${MCPDESK_TEST_UNSET}"]  # named after its flag
    assert entry.args[0] == "--outer=${env:MCPDESK_TEST_SET}" and entry.env["A"] == "${MCPDESK_TEST_SET}"
    assert find_placeholders("${env:MCPDESK_TEST_SET}") == []
    assert find_placeholders("${env:MCPDESK_TEST_SET}", environ={}) != []


def test_windows_cmd_wrapper_is_unwrapped_elsewhere() -> None:
    import sys

    from app.config.snippets import _unwrap_cmd

    text = (
        '{"mcpServers": {"everything": {"command": "cmd", '
        '"args": ["/c", "npx", "@modelcontextprotocol/server-everything"]}}}'
    )
    (plan,) = snippet_plans(text)
    if sys.platform != "win32":
        assert plan.entry.command == "npx"
        assert plan.entry.args == ["-y", "@modelcontextprotocol/server-everything"]
    entry: dict[str, Any] = {"command": "cmd", "args": ["/c", "npx", "x"]}
    _unwrap_cmd(entry, platform="win32")
    assert entry == {"command": "cmd", "args": ["/c", "npx", "x"]}


@pytest.mark.parametrize(
    "text",
    [
        '{"mcpServers": {"a": {"command": "npx", "args": ["' + "x" * 5_000_000 + '"]}}}',
        "npx -y " + "a " * 1_000_000,
    ],
    ids=["5 MB value", "2 MB command line"],
)
def test_a_huge_paste_is_refused_with_a_reason(text: str) -> None:
    # Both took seconds (13 s for the command line) on the Paste box's GUI thread before the cap.
    with pytest.raises(SnippetError, match="too long to be a server's snippet"):
        snippet_plans(text)


def test_a_huge_command_line_is_not_split() -> None:
    with pytest.raises(ValueError, match="too long"):
        split_command_line("npx -y " + "a " * 100_000)
    # Inside a snippet, a command string too long to split stays one word, and the rest imports.
    (plan,) = snippet_plans('{"a": {"command": "npx -y ' + "b " * 20_000 + '"}}')
    assert plan.entry.command.startswith("npx -y b")
