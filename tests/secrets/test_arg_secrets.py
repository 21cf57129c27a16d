"""Secrets in arguments and URLs: detected on add and import, kept in the keyring, never printed."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from app.cli.main import main
from app.config.importing import import_into
from app.config.model import ServerEntry
from app.config.store import ConfigStore
from app.mcp.target import target_from_config
from app.secrets.resolve import extract_secrets
from app.secrets.store import SecretStore
from tests.support.memory_keyring import MemoryKeyring

OPENAI = "sk-abc123def456ghi789jkl012"
GITHUB = "ghp_" + "A1b2C3d4E5" * 4
URL_KEY = "k3y-Value-42"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out + err


def servers_file(config_dir: Path) -> dict[str, dict[str, object]]:
    data = json.loads((config_dir / "servers.json").read_text(encoding="utf-8"))
    servers: dict[str, dict[str, object]] = data["mcpServers"]
    return servers


def everything_on_disk(config_dir: Path) -> str:
    return "".join(p.read_text(errors="replace") for p in config_dir.rglob("*") if p.is_file())


# -- detection -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "secret", "name"),
    [
        (["--api-key", OPENAI], OPENAI, "ARG_API_KEY"),
        (["--token=abc123xyz"], "abc123xyz", "ARG_TOKEN"),
        (["--password", "hunter22"], "hunter22", "ARG_PASSWORD"),
        (["--clientSecret=s3cr3t"], "s3cr3t", "ARG_CLIENT_SECRET"),
        (["-y", GITHUB], GITHUB, "GITHUB_TOKEN"),
        (
            ["github_pat_11ABCDEFG0123456789_abcdefghijklmnop"],
            "github_pat_11ABCDEFG0123456789_abcdefghijklmnop",
            "GITHUB_TOKEN",
        ),
        (["sk-ant-api03-abcdEFGH1234ijkl"], "sk-ant-api03-abcdEFGH1234ijkl", "ANTHROPIC_API_KEY"),
        (["xoxb-1234567890-abcdefghij"], "xoxb-1234567890-abcdefghij", "SLACK_TOKEN"),
        (["xoxp-1234567890-abcdefghij"], "xoxp-1234567890-abcdefghij", "SLACK_TOKEN"),
        (["AKIAIOSFODNN7EXAMPLE"], "AKIAIOSFODNN7EXAMPLE", "AWS_ACCESS_KEY_ID"),
        (["glpat-abcdefghij0123456789"], "glpat-abcdefghij0123456789", "GITLAB_TOKEN"),
        (["AIza" + "B" * 30 + "12345"], "AIza" + "B" * 30 + "12345", "GOOGLE_API_KEY"),
        (["https://x.test/mcp?token=" + URL_KEY], URL_KEY, "URL_TOKEN"),
        (["--header", "Authorization: Bearer abc123def"], "abc123def", "ARG_AUTHORIZATION"),
    ],
)
def test_secret_arguments_are_found(args: list[str], secret: str, name: str) -> None:
    from app.secrets.detect import find_arg_secrets, redact_args

    found = find_arg_secrets(args)
    assert [(args[f.index][f.start : f.end], f.name) for f in found] == [(secret, name)]
    assert secret not in " ".join(redact_args(args))


@pytest.mark.parametrize(
    "args",
    [
        ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/docs"],
        ["--token-file", "/run/secrets/token"],
        ["--api-key-env", "OPENAI_API_KEY"],
        ["--max-tokens", "1000"],
        ["--token", "${secret:ARG_TOKEN}"],
        ["--auth", "none"],
        ["sk-learn-extra-utilities"],  # a package name, not a key
        ["--key=${env:MY_KEY}"],
    ],
)
def test_plain_arguments_are_left_alone(args: list[str]) -> None:
    from app.secrets.detect import find_arg_secrets

    assert find_arg_secrets(args) == []


@pytest.mark.parametrize(
    ("url", "secrets"),
    [
        ("https://x.test/mcp?token=abc123", {"abc123": "URL_TOKEN"}),
        (
            "https://x.test/mcp?key=a1&api_key=b2&apikey=c3",
            {"a1": "URL_KEY", "b2": "URL_API_KEY", "c3": "URL_APIKEY"},
        ),
        (
            "https://x.test/mcp?access_token=a%2Bb&auth=zz9&page=2",
            {"a%2Bb": "URL_ACCESS_TOKEN", "zz9": "URL_AUTH"},
        ),
        ("https://me:pa55word@x.test/mcp", {"pa55word": "URL_PASSWORD"}),
        ("https://x.test/mcp?mode=fast#token=notaquery", {}),
        ("https://x.test/mcp?token=${secret:URL_TOKEN}", {}),
    ],
)
def test_url_secrets_are_found(url: str, secrets: dict[str, str]) -> None:
    from app.secrets.detect import find_url_secrets, redact_url

    assert {url[f.start : f.end]: f.name for f in find_url_secrets(url)} == secrets
    for value in secrets:
        assert value not in redact_url(url)


def test_extract_names_collide_into_suffixes_and_unnamed_values_are_numbered() -> None:
    entry = ServerEntry(
        name="s",
        command="x",
        args=["--api-key", "one111", "--api-key=two222", "pos1tional"],
        env={"ARG_API_KEY": "${secret:ARG_API_KEY}"},
    )
    values = extract_secrets(entry, secret_args={3})
    assert values == {"ARG_API_KEY_2": "one111", "ARG_API_KEY_3": "two222", "TOKEN_1": "pos1tional"}
    assert entry.args == [
        "--api-key",
        "${secret:ARG_API_KEY_2}",
        "--api-key=${secret:ARG_API_KEY_3}",
        "${secret:TOKEN_1}",
    ]


def test_resolve_launch_fills_args_and_url_and_masks_every_spelling(memory_keyring: MemoryKeyring) -> None:
    from app.secrets.resolve import resolve_launch

    store = SecretStore()
    store.set("s", "ARG_API_KEY", OPENAI)
    store.set("s", "URL_TOKEN", "a b&c")
    entry = ServerEntry(
        name="s",
        transport="http",
        url="https://x.test/mcp?token=${secret:URL_TOKEN}&region=${env:MCP_DESK_T_REGION}",
        args=["--api-key=${secret:ARG_API_KEY}"],
    )
    got = resolve_launch(entry, store, environ={"MCP_DESK_T_REGION": "eu-west-1"})
    assert got.args == [f"--api-key={OPENAI}"]
    # A value that would break the URL is encoded; both spellings (and the env value) are masked.
    assert got.url == "https://x.test/mcp?token=a%20b%26c&region=eu-west-1"
    assert {OPENAI, "a b&c", "a%20b%26c", "eu-west-1"} <= got.secret_values
    assert entry.args == ["--api-key=${secret:ARG_API_KEY}"]  # the entry keeps references


# -- the command line ------------------------------------------------------------------------


def _folder() -> SecretStore:
    """The secret store of the config folder the CLI used (entries are scoped per folder)."""
    from app.secrets.profile import folder_secrets

    store = ConfigStore()
    store.load()
    return folder_secrets(store)


def test_cli_add_moves_a_secret_argument_to_the_keyring(
    capsys: pytest.CaptureFixture[str], config_dir: Path, memory_keyring: MemoryKeyring
) -> None:
    code, output = run(
        ["servers", "add", "ai", "--command", "ai-mcp", "--arg=--api-key", f"--arg={OPENAI}", "--arg=--fast"],
        capsys,
    )
    assert code == 0, output
    assert servers_file(config_dir)["ai"]["args"] == ["--api-key", "${secret:ARG_API_KEY}", "--fast"]
    assert _folder().get("ai", "ARG_API_KEY") == OPENAI
    assert OPENAI not in everything_on_disk(config_dir)
    assert OPENAI not in output

    for listing in (["servers", "list"], ["servers", "list", "--json"], ["secrets", "list", "ai"]):
        code, output = run(listing, capsys)
        assert code == 0 and OPENAI not in output
    assert "ARG_API_KEY" in output


def test_cli_add_secret_arg_asked_for_and_url_token(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    config_dir: Path,
    memory_keyring: MemoryKeyring,
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("typed-in-secret-7\n"))
    code, output = run(
        ["servers", "add", "gh", "--command", "gh-mcp", "--arg=--pat", "--secret-arg", "--arg=--verbose"],
        capsys,
    )
    assert code == 0, output
    assert servers_file(config_dir)["gh"]["args"] == ["--pat", "${secret:ARG_PAT}", "--verbose"]
    assert _folder().get("gh", "ARG_PAT") == "typed-in-secret-7"

    code, output = run(
        ["servers", "add", "web", "--url", f"https://x.test/mcp?api_key={URL_KEY}&v=2"], capsys
    )
    assert code == 0, output
    assert servers_file(config_dir)["web"]["url"] == "https://x.test/mcp?api_key=${secret:URL_API_KEY}&v=2"
    assert _folder().get("web", "URL_API_KEY") == URL_KEY
    assert URL_KEY not in output and URL_KEY not in everything_on_disk(config_dir)


def test_cli_add_without_detection_keeps_only_marked(
    capsys: pytest.CaptureFixture[str], config_dir: Path, memory_keyring: MemoryKeyring
) -> None:
    code, output = run(
        [
            "servers",
            "add",
            "s",
            "--command",
            "x",
            f"--arg={GITHUB}",
            "--secret-arg=m4rked",
            "--no-detect-secrets",
        ],
        capsys,
    )
    assert code == 0, output
    assert servers_file(config_dir)["s"]["args"] == [GITHUB, "${secret:TOKEN_1}"]


def test_servers_list_hides_a_secret_written_in_clear_by_hand(
    capsys: pytest.CaptureFixture[str], config_dir: Path
) -> None:
    servers = {
        "hand": {"command": "x", "args": ["--token", GITHUB]},
        "web": {"url": f"https://x.test/mcp?key={URL_KEY}"},
    }
    (config_dir / "servers.json").write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    for listing in (["servers", "list"], ["servers", "list", "--json"]):
        code, output = run(listing, capsys)
        assert code == 0 and "hand" in output
        assert GITHUB not in output and URL_KEY not in output


# -- import ----------------------------------------------------------------------------------


def test_import_claude_file_with_url_and_argument_secrets(
    tmp_path: Path, config_dir: Path, memory_keyring: MemoryKeyring
) -> None:
    path = tmp_path / "claude_desktop_config.json"
    servers = {
        "remote": {"command": "npx", "args": ["-y", "mcp-remote", f"https://r.test/mcp?api_key={URL_KEY}"]},
        "ai": {"command": "ai-mcp", "args": [f"--token={OPENAI}"]},
        "web": {"type": "http", "url": f"https://w.test/mcp?token={URL_KEY}x&page=1"},
        "gh": {"command": "gh-mcp", "args": ["--pat", "${env:MCP_DESK_T_GITHUB_TOKEN}"]},
    }
    path.write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    store = ConfigStore()
    store.load()
    secrets = SecretStore()
    result = import_into(
        store,
        secrets,
        path,
        extract=extract_secrets,
        environ={"MCP_DESK_T_GITHUB_TOKEN": GITHUB},
    )
    assert result.warnings == []
    saved = servers_file(config_dir)
    assert saved["remote"]["args"] == ["-y", "mcp-remote", "https://r.test/mcp?api_key=${secret:URL_API_KEY}"]
    assert saved["ai"]["args"] == ["--token=${secret:ARG_TOKEN}"]
    assert saved["web"]["url"] == "https://w.test/mcp?token=${secret:URL_TOKEN}&page=1"
    assert saved["gh"]["args"] == ["--pat", "${secret:MCP_DESK_T_GITHUB_TOKEN}"]
    assert secrets.get("remote", "URL_API_KEY") == URL_KEY
    assert secrets.get("ai", "ARG_TOKEN") == OPENAI
    assert secrets.get("web", "URL_TOKEN") == URL_KEY + "x"
    assert secrets.get("gh", "MCP_DESK_T_GITHUB_TOKEN") == GITHUB
    disk = everything_on_disk(config_dir)
    assert URL_KEY not in disk and OPENAI not in disk and GITHUB not in disk
    # And back: resolved only when the server starts.
    assert target_from_config(store.get("ai"), None, secrets).args == (f"--token={OPENAI}",)


def test_import_vscode_password_input_in_args_is_no_longer_refused(tmp_path: Path, config_dir: Path) -> None:
    path = tmp_path / "mcp.json"
    data = {
        "inputs": [{"type": "promptString", "id": "api-key", "password": True}],
        "servers": {"ai": {"command": "ai-mcp", "args": ["--api-key", "${input:api-key}"]}},
    }
    path.write_text(json.dumps(data), encoding="utf-8")
    store = ConfigStore()
    store.load()
    secrets = SecretStore()
    result = import_into(store, secrets, path, ask=lambda spec: "v4lue-typed", extract=extract_secrets)
    assert result.warnings == []
    assert servers_file(config_dir)["ai"]["args"] == ["--api-key", "${secret:api-key}"]
    assert target_from_config(store.get("ai"), None, secrets).args == ("--api-key", "v4lue-typed")


def test_export_reveals_or_turns_argument_and_url_secrets_into_inputs(
    capsys: pytest.CaptureFixture[str], config_dir: Path, memory_keyring: MemoryKeyring
) -> None:
    assert run(["servers", "add", "ai", "--command", "ai-mcp", f"--arg=--token={OPENAI}"], capsys)[0] == 0
    assert run(["servers", "add", "web", "--url", f"https://x.test/mcp?key={URL_KEY}"], capsys)[0] == 0
    code, output = run(["servers", "export"], capsys)
    assert code == 0 and OPENAI not in output and URL_KEY not in output
    code, output = run(["servers", "export", "--include-secrets"], capsys)
    data = json.loads(output[: output.rindex("}") + 1])
    assert data["mcpServers"]["ai"]["args"] == [f"--token={OPENAI}"]
    assert data["mcpServers"]["web"]["url"] == f"https://x.test/mcp?key={URL_KEY}"
    code, output = run(["servers", "export", "--format", "vscode"], capsys)
    data = json.loads(output)
    assert data["servers"]["ai"]["args"] == ["--token=${input:ai-ARG_TOKEN}"]
    assert data["servers"]["web"]["url"] == "https://x.test/mcp?key=${input:web-URL_KEY}"
    assert {i["id"] for i in data["inputs"]} == {"ai-ARG_TOKEN", "web-URL_KEY"}
