"""Install links → install plans: our `mcp-desk://install`, Cursor's, VS Code's (and its GitHub
redirect), LM Studio's; keys typed in clear go to `plan.secrets`, holes and inputs become questions,
and hostile links are refused with a plain reason. The CLI's `mcp-desk install` adds the server."""

from __future__ import annotations

import base64
import json
import sys
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from app.cli.main import main
from app.config.links import MAX_JSON, MAX_LINK, LinkError, looks_like_link, make_link, parse_link
from app.install.plan import apply
from tests.support.memory_keyring import MemoryKeyring


def b64(data: Any, *, urlsafe: bool = False, pad: bool = True) -> str:
    raw = json.dumps(data).encode()
    text = (base64.urlsafe_b64encode if urlsafe else base64.b64encode)(raw).decode()
    return text if pad else text.rstrip("=")


MEMORY = {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}


# --- the formats ------------------------------------------------------------------------------


def test_our_own_link_in_every_base64_spelling() -> None:
    entry = {"command": "uvx", "args": ["mcp-server-time", "--local-timezone=Europe/Paris?&"]}
    for config in (
        b64(entry),
        b64(entry, pad=False),
        b64(entry, urlsafe=True),
        b64(entry, urlsafe=True, pad=False),
        quote(b64(entry), safe=""),
        b64(entry).replace("+", " "),  # a `+` a browser turned into a space
    ):
        plan = parse_link(f"mcp-desk://install?name=time&config={config}")
        assert plan.name == "time" and plan.source == "link"
        assert plan.entry.command == "uvx" and plan.entry.args == entry["args"]
        assert plan.runtime == "uv"
        assert plan.notes[0] == "From an MCP Desk install link."
    assert parse_link(make_link("time", entry)).entry.args == entry["args"]


def test_cursor_links_bare_and_wrapped() -> None:
    bare = parse_link(f"cursor://anysphere.cursor-deeplink/mcp/install?name=memory&config={b64(MEMORY)}")
    assert bare.name == "memory" and bare.entry.args == MEMORY["args"] and bare.runtime == "node"
    # Cursor's own generator wraps the entry in its name; some put `name` inside the entry.
    wrapped = parse_link(
        f"cursor://anysphere.cursor-deeplink/mcp/install?name=pg&config={b64({'postgres': MEMORY})}"
    )
    assert wrapped.name == "pg" and wrapped.entry.command == "npx"
    inner = parse_link(
        "cursor://anysphere.cursor-deeplink/mcp/install?config="
        + b64({"name": "orcho", "type": "stdio", **MEMORY})
    )
    assert inner.name == "orcho" and not any("Left out" in n for n in inner.notes)
    assert (
        parse_link(f"cursor://anysphere.cursor-deeplink/mcp/install?config={b64({'x': MEMORY})}").name == "x"
    )


def test_lm_studio_link_as_its_documentation_prints_it() -> None:
    # From https://lmstudio.ai/docs/app/mcp/deeplink (the Hugging Face example).
    link = (
        "lmstudio://add_mcp?name=hf-mcp-server&config=eyJ1cmwiOiJodHRwczovL2h1Z2dpbmdmYWNlLmNvL21jcCIs"
        "ImhlYWRlcnMiOnsiQXV0aG9yaXphdGlvbiI6IkJlYXJlciA8WU9VUl9IRl9UT0tFTj4ifX0%3D"
    )
    plan = parse_link(link)
    assert plan.name == "hf-mcp-server" and plan.entry.transport == "http"
    assert plan.entry.url == "https://huggingface.co/mcp"
    assert plan.runtime is None and plan.notes[0] == "From a LM Studio install link."
    # The header never reaches the file as written: a question (example value) or a keyring ref.
    assert "<YOUR_HF_TOKEN>" not in json.dumps(plan.entry.to_json())


def test_vscode_links_with_inputs_and_the_github_redirect() -> None:
    config = {
        "name": "github",
        "command": "docker",
        "args": ["run", "-i", "--rm", "-e", "GITHUB_TOKEN", "ghcr.io/github/github-mcp-server"],
        "env": {"GITHUB_TOKEN": "${input:github_token}", "GITHUB_HOST": "${input:host}"},
        "inputs": [
            {"type": "promptString", "id": "github_token", "description": "GitHub token", "password": True},
            {"type": "pickString", "id": "host", "description": "Host", "options": ["github.com", "ghe.io"]},
        ],
    }
    direct = "vscode:mcp/install?" + quote(json.dumps(config))
    for link in (
        direct,
        direct.replace("vscode:", "vscode-insiders:"),
        "https://insiders.vscode.dev/redirect?url=" + quote(direct, safe=""),
    ):
        plan = parse_link(link)
        assert plan.name == "github" and plan.runtime == "docker"
        assert plan.entry.env == {"GITHUB_TOKEN": "${ask:github_token}", "GITHUB_HOST": "${ask:host}"}
        token, host = plan.questions
        assert (token.key, token.label, token.secret, token.required) == (
            "github_token",
            "GitHub token",
            True,
            True,
        )
        assert (host.kind, host.choices) == ("choice", ("github.com", "ghe.io"))
        assert plan.secrets == {}
    applied = apply(plan, {"github_token": "ghp_" + "a" * 36, "host": "ghe.io"})
    assert applied.entry.env["GITHUB_TOKEN"] == "${secret:github_token}"
    assert applied.secrets == {"github_token": "ghp_" + "a" * 36}
    remote = parse_link(
        "vscode:mcp/install?"
        + quote(json.dumps({"name": "r", "type": "http", "url": "https://x.example/mcp"}))
    )
    assert remote.entry.transport == "http" and remote.entry.url == "https://x.example/mcp"


def test_holes_and_our_inputs_become_questions() -> None:
    entry = {
        "command": "npx",
        "args": ["-y", "@modelcontextprotocol/server-filesystem", "${ask:folder}"],
        "env": {"API_KEY": "${ask:API_KEY}", "LEVEL": "${ask:level}"},
        "inputs": [
            {"key": "folder", "label": "Folder to share", "kind": "directory", "required": True},
            {"key": "level", "kind": "number", "min": 1, "max": 5, "default": 3},
        ],
    }
    plan = parse_link(f"mcp-desk://install?name=fs&config={b64(entry)}")
    by_key = {q.key: q for q in plan.questions}
    assert by_key["folder"].kind == "directory" and by_key["folder"].label == "Folder to share"
    assert (by_key["level"].minimum, by_key["level"].maximum, by_key["level"].default) == (1, 5, "3")
    # A hole nobody described: asked, required, masked since its name says it is a key.
    assert by_key["API_KEY"].required and by_key["API_KEY"].secret
    assert plan.secrets == {} and plan.entry.env["API_KEY"] == "${ask:API_KEY}"


def test_a_key_typed_in_clear_goes_to_the_plan_secrets_not_the_entry(memory_keyring: MemoryKeyring) -> None:
    key = "tvly-dev-" + "Q" * 32
    entry = {"command": "npx", "args": ["-y", "tavily-mcp"], "env": {"TAVILY_API_KEY": key}}
    plan = parse_link(f"cursor://anysphere.cursor-deeplink/mcp/install?name=tavily&config={b64(entry)}")
    assert plan.entry.env == {"TAVILY_API_KEY": "${secret:TAVILY_API_KEY}"}
    assert plan.secrets == {"TAVILY_API_KEY": key}
    assert key not in json.dumps(plan.entry.to_json())
    assert memory_keyring.store == {}  # only when the plan is added


def test_names_are_cleaned() -> None:
    plan = parse_link(f"mcp-desk://install?name=..%2Fevil%2Fname%0A&config={b64(MEMORY)}")
    assert "/" not in plan.name and "\n" not in plan.name and plan.name
    assert parse_link(f"mcp-desk://install?config={b64(MEMORY)}").name == "server"


def test_example_values_become_questions() -> None:
    entry = {"command": "npx", "args": ["-y", "brave"], "env": {"BRAVE_API_KEY": "YOUR_API_KEY_HERE"}}
    plan = parse_link(f"mcp-desk://install?name=brave&config={b64(entry)}")
    (q,) = plan.questions
    assert q.placeholder == "YOUR_API_KEY_HERE" and q.secret and q.required
    assert plan.secrets == {}  # the example value is not a key to keep
    assert "YOUR_API_KEY_HERE" not in json.dumps(plan.entry.to_json())


# --- hostile input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("link", "reason"),
    [
        ("", "empty"),
        ("x" * (MAX_LINK + 1), "too long"),
        ("mcp-desk://install?name=a&config=" + "A" * (MAX_JSON * 3 // 2), "too big"),
        ("mcp-desk://install?name=a&config=" + base64.b64encode(b" " * (MAX_JSON + 10)).decode(), "too big"),
        ("mcp-desk://install?name=a&config=%%%%", "not valid base64"),
        ("mcp-desk://install?name=a&config=abcde", "not valid base64"),
        ("mcp-desk://install?name=a", "no config"),
        ("mcp-desk://install?name=a&config=" + b64([1, 2]), "one JSON object, not a list"),
        ("mcp-desk://install?name=a&config=" + b64("npx"), "one JSON object, not text"),
        ("mcp-desk://install?name=a&config=" + base64.b64encode(b"{nope").decode(), "not valid JSON"),
        ("mcp-desk://install?name=a&config=" + base64.b64encode(b"\xff\xfe{}").decode(), "not text (UTF-8)"),
        ("mcp-desk://install?name=a&config=" + b64({"a": [[[[[[[[[[1]]]]]]]]]]}), "nested too deeply"),
        ("mcp-desk://install?name=a&config=" + b64({"command": 5}), "not usable"),
        ("mcp-desk://install?name=a&config=" + b64({"env": {"A": "b"}}), "does not describe a server"),
        ("mcp-desk://install?name=a&config=" + b64({"a": MEMORY, "b": MEMORY}), "several servers"),
        (
            "mcp-desk://install?name=a&config=" + b64({"command": "x", "env": {"K": "${secret:K}"}}),
            "keys in a keychain",
        ),
        ("mcp-desk://install?config=" + b64(MEMORY) + "&config=" + b64(MEMORY), "more than once"),
        ("mcp-desk://remove?config=" + b64(MEMORY), "expected mcp-desk://install"),
        ("cursor://anysphere.cursor-deeplink/rules/install?config=" + b64(MEMORY), "expected cursor://"),
        ("vscode:extension/ms-python.python", "expected vscode:mcp/install"),
        ("vscode:mcp/install?" + quote("[]"), "not a list"),
        ("https://insiders.vscode.dev/redirect?url=https%3A%2F%2Fevil.example", "does not hold"),
        ("javascript:alert(1)", "does not read 'javascript' links"),
        ("just some words", "not a link"),
        ("mcp-desk://install?name=a\n&config=" + b64(MEMORY), "control characters"),
        (
            "mcp-desk://install?config=" + b64({**MEMORY, "inputs": [{"key": "k", "kind": "colour"}]}),
            "unknown kind",
        ),
    ],
)
def test_hostile_links_are_refused_with_a_reason(link: str, reason: str) -> None:
    with pytest.raises(LinkError, match=None) as err:
        parse_link(link)
    assert reason in str(err.value), str(err.value)


def test_looks_like_link() -> None:
    assert looks_like_link(" mcp-desk://install?x") and looks_like_link("VSCODE:mcp/install?{}")
    assert looks_like_link("https://insiders.vscode.dev/redirect?url=vscode%3A")
    assert not looks_like_link("/home/me/server.mcpb") and not looks_like_link("https://example.org")


# --- the CLI ----------------------------------------------------------------------------------


def test_cli_install_with_set_and_trust(
    capsys: pytest.CaptureFixture[str], config_dir: Path, memory_keyring: MemoryKeyring
) -> None:
    server = Path(__file__).resolve().parents[1] / "servers" / "env_key_server.py"
    entry = {"command": sys.executable, "args": [str(server)], "env": {"BRAVE_API_KEY": "${ask:key}"}}
    link = make_link(
        "brave", {**entry, "inputs": [{"key": "key", "label": "API key", "secret": True, "required": True}]}
    )

    code = main(["install", link])
    _, err = capsys.readouterr()
    assert code == 2 and "key (API key)" in err and "--set" in err
    assert (
        "brave" not in (config_dir / "servers.json").read_text()
        if (config_dir / "servers.json").exists()
        else True
    )

    code = main(["install", link, "--set", "key=sk-cli-0123456789abcdef"])
    _, err = capsys.readouterr()
    assert code == 5 and "not allowed to run yet" in err

    code = main(
        ["install", link, "--set", "key=sk-cli-0123456789abcdef", "--trust", "--name", "brave-trusted"]
    )
    _, err = capsys.readouterr()
    assert code == 0, err
    saved = json.loads((config_dir / "servers.json").read_text())["mcpServers"]
    assert saved["brave"]["env"] == {"BRAVE_API_KEY": "${secret:key}"}
    assert saved["brave-trusted"]["env"] == {"BRAVE_API_KEY": "${secret:key}"}
    assert "sk-cli-0123456789abcdef" in memory_keyring.store.values()
    settings = json.loads((config_dir / "settings.json").read_text())["servers"]
    assert settings["brave-trusted"].get("approved_launch") and not settings.get("brave", {}).get(
        "approved_launch"
    )

    code = main(["install", "cursor://anysphere.cursor-deeplink/mcp/install?config=bad!"])
    _, err = capsys.readouterr()
    assert code == 2 and "not valid base64" in err
