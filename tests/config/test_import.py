"""Import of the four formats from realistic fixture files, and export back."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from app.config.errors import ConfigError
from app.config.exporting import export_claude, export_vscode
from app.config.importing import ImportInput, detect_format, import_into, read_import_file
from app.config.locations import known_import_sources
from app.config.model import ServerEntry
from app.config.store import ConfigStore
from app.secrets.resolve import extract_secrets, resolve_entry
from app.secrets.store import SecretStore

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "import"
EXPECTED: dict[str, Any] = json.loads((FIXTURES / "expected.json").read_text())


def grep_dir(directory: Path, needle: str) -> list[str]:
    """Files under `directory` whose bytes contain `needle` (what `grep -r` would find)."""
    return [str(p) for p in directory.rglob("*") if p.is_file() and needle.encode() in p.read_bytes()]


def answers(spec: ImportInput) -> str | None:
    value: str | None = EXPECTED["answers"].get(spec.id)
    return value


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in EXPECTED["environ"].items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("MCP_DESK_TEST_HOME_DIR", raising=False)


@pytest.mark.parametrize("fixture", sorted(EXPECTED["formats"]))
@pytest.mark.usefixtures("env")
def test_import_round_trip_keeps_secrets_out_of_files(fixture: str, config_dir: Path) -> None:
    expected = EXPECTED["formats"][fixture]
    store = ConfigStore()
    store.load()
    secrets = SecretStore()
    asked: list[str] = []

    def ask(spec: ImportInput) -> str | None:
        asked.append(spec.id)
        return answers(spec)

    result = import_into(store, secrets, FIXTURES / fixture, ask=ask, extract=extract_secrets)
    assert result.format == expected["format"]
    assert [new for _, new in result.added] == expected["servers"]
    assert len(asked) == len(set(asked))  # each input asked once

    reloaded = ConfigStore()
    reloaded.load()
    assert reloaded.names() == ["demo", *expected["servers"]]
    for server, values in expected["secrets"].items():
        assert secrets.names(server) == sorted(values)
        entry = reloaded.get(server)
        env, headers, used = resolve_entry(entry, secrets)
        for name, value in values.items():
            assert secrets.get(server, name) == value
            assert grep_dir(config_dir, value) == []  # not on disk in clear
            assert value in used
            assert any(value in v for v in [*env.values(), *headers.values()])
    # Nothing secret-looking stayed behind in clear.
    for entry in reloaded.entries:
        for value in [*entry.env.values(), *entry.headers.values()]:
            assert "Fixture" not in value, (entry.name, value)


def test_import_details_claude(config_dir: Path) -> None:
    store = ConfigStore()
    store.load()
    import_into(store, SecretStore(), FIXTURES / "claude_desktop_config.json", extract=extract_secrets)
    brave = store.get("brave-search")
    assert brave.env == {"BRAVE_API_KEY": "${secret:BRAVE_API_KEY}", "LOG_LEVEL": "info"}
    assert store.get("filesystem").args[-1] == "/Users/alex/Downloads"


@pytest.mark.usefixtures("env")
def test_import_details_cursor(config_dir: Path) -> None:
    store = ConfigStore()
    store.load()
    import_into(store, SecretStore(), FIXTURES / "cursor_mcp.json", extract=extract_secrets)
    linear = store.get("linear")
    assert linear.transport == "http"
    assert linear.headers == {"Authorization": "${secret:Authorization}"}
    stripe = store.get("stripe")
    assert stripe.env["HOME_DIR"] == "${env:MCP_DESK_TEST_HOME_DIR}"  # unset: kept as written
    assert stripe.env["STRIPE_SECRET_KEY"] == "${secret:STRIPE_SECRET_KEY}"
    assert store.get("notion").env["OPENAPI_MCP_HEADERS"] == '{"Notion-Version": "2022-06-28"}'


def test_import_details_vscode(config_dir: Path) -> None:
    store = ConfigStore()
    store.load()
    result = import_into(
        store, SecretStore(), FIXTURES / "vscode_mcp.json", ask=answers, extract=extract_secrets
    )
    github = store.get("github")
    assert github.headers == {"Authorization": "Bearer ${secret:github_token}"}
    files = store.get("files")
    assert files.args[-1] == "/home/alex/project"  # non-password input: asked, written in clear
    assert files.extra == {"envFile": "${workspaceFolder}/.env"}
    playwright = store.get("playwright")
    assert playwright.transport == "stdio"
    assert playwright.extra == {"dev": {"watch": "src/**/*.ts"}}
    assert result.warnings == []
    saved = json.loads((config_dir / "servers.json").read_text())
    assert saved["mcpServers"]["github"]["type"] == "http"
    assert "type" not in saved["mcpServers"]["perplexity"]  # stdio written the Claude way


def test_import_details_inspector(config_dir: Path) -> None:
    store = ConfigStore()
    store.load()
    import_into(store, SecretStore(), FIXTURES / "inspector_config.json", extract=extract_secrets)
    assert store.get("weather").transport == "http"
    saved = json.loads((config_dir / "servers.json").read_text())
    assert saved["mcpServers"]["weather"]["type"] == "http"  # normalised on import
    assert saved["mcpServers"]["legacy-sse"]["type"] == "sse"
    assert store.get("everything").env == {"HELLO": "Hello MCP!"}


def test_vscode_without_answers_keeps_references(config_dir: Path) -> None:
    store = ConfigStore()
    store.load()
    result = import_into(store, SecretStore(), FIXTURES / "vscode_mcp.json", extract=extract_secrets)
    assert store.get("github").headers == {"Authorization": "Bearer ${secret:github_token}"}
    assert SecretStore().names("github") == []
    assert any("github_token" in w for w in result.warnings)
    assert store.get("files").args[-1] == "${input:project-dir}"


@pytest.mark.parametrize("spelling", ["streamable-http", "streamableHttp", "streamable_http", "HTTP"])
def test_type_spellings_normalised_on_import(tmp_path: Path, spelling: str) -> None:
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": {"r": {"type": spelling, "url": "http://h/mcp"}}}))
    result = read_import_file(path, "cursor")
    entry = result.servers[0].entry
    assert entry.transport == "http"
    assert entry.to_json()["type"] == "http"


def test_name_clashes_get_suffix_and_never_overwrite(config_dir: Path) -> None:
    store = ConfigStore()
    store.load()
    store.add(ServerEntry(name="github", command="mine", env={"KEEP": "1"}))
    store.add(ServerEntry(name="github-2", command="mine-too"))
    store.save()
    secrets = SecretStore()
    fixture = FIXTURES / "claude_desktop_config.json"
    result = import_into(store, secrets, fixture, extract=extract_secrets)
    assert ("github", "github-3") in result.added
    again = import_into(store, secrets, fixture, extract=extract_secrets)
    assert ("github", "github-4") in again.added
    assert ("postgres", "postgres-2") in again.added
    assert store.get("github").command == "mine"
    assert (
        secrets.get("github-4", "GITHUB_PERSONAL_ACCESS_TOKEN") == "ghp_claudeFixture1234567890abcdefABCDEF"
    )


def test_detect_format_from_shape(tmp_path: Path) -> None:
    assert detect_format({"servers": {}}) == "vscode"
    assert detect_format({"mcp": {"servers": {}}}) == "vscode"
    assert detect_format({"mcpServers": {"a": {"command": "x"}}}) == "claude"
    assert detect_format({"mcpServers": {"a": {"url": "http://x"}}}) == "cursor"
    assert detect_format({"mcpServers": {"a": {"type": "streamable-http", "url": "u"}}}) == "inspector"
    assert detect_format({"command": "x"}) == "inspector"
    with pytest.raises(ValueError):
        detect_format({"other": 1})


def seventeen_servers(tmp_path: Path) -> Path:
    """A Claude Desktop file of 17 servers; only `github` has a value that must go to a keychain."""
    servers: dict[str, Any] = {
        f"tool-{i:02d}": {"command": "npx", "args": ["-y", f"pkg-{i}"]} for i in range(16)
    }
    servers["github"] = {"command": "npx", "env": {"GITHUB_TOKEN": "ghp_seventeenth", "LOG": "1"}}
    path = tmp_path / "claude_desktop_config.json"
    path.write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    return path


def test_import_without_keyring_imports_the_rest_and_reports_the_skipped_one(
    config_dir: Path, tmp_path: Path
) -> None:
    import keyring
    from keyring.backends import fail

    keyring.set_keyring(fail.Keyring())
    store = ConfigStore()
    store.load()
    result = import_into(store, SecretStore(), seventeen_servers(tmp_path), extract=extract_secrets)
    assert len(result.added) == 16
    assert [(s.original_name, s.needs_keychain) for s in result.skipped] == [("github", True)]
    assert "GITHUB_TOKEN" in result.skipped[0].reason and "cannot be stored" in result.skipped[0].reason
    on_disk = json.loads((config_dir / "servers.json").read_text())["mcpServers"]
    assert len(on_disk) == 17 and "github" not in on_disk  # demo + 16
    assert grep_dir(config_dir, "ghp_seventeenth") == []


def test_import_with_no_detect_secrets_and_no_keyring_keeps_values_as_written(
    config_dir: Path, tmp_path: Path
) -> None:
    # The person asked for values to stay as they are in the file: nothing needs a keychain.
    import keyring
    from keyring.backends import fail

    keyring.set_keyring(fail.Keyring())
    store = ConfigStore()
    store.load()
    result = import_into(
        store, SecretStore(), seventeen_servers(tmp_path), extract=extract_secrets, detect_secrets=False
    )
    assert len(result.added) == 17 and result.skipped == []
    assert store.get("github").env["GITHUB_TOKEN"] == "ghp_seventeenth"


def test_import_skips_only_the_server_whose_secret_the_keyring_refuses(
    config_dir: Path, tmp_path: Path, memory_keyring: Any
) -> None:
    import keyring.errors

    path = tmp_path / "cursor_mcp.json"
    path.write_text(
        json.dumps(
            {
                "mcpServers": {
                    "a": {"command": "x", "env": {"A_TOKEN": "value-a", "B_KEY": "value-b"}},
                    "refused": {"command": "x", "env": {"R_TOKEN": "value-r", "S_TOKEN": "value-s"}},
                    "c": {"command": "x", "env": {"C_TOKEN": "value-c"}},
                }
            }
        )
    )
    real_set = memory_keyring.set_password

    def refuse_some(service: str, user: str, value: str) -> None:
        if user.endswith("refused/S_TOKEN"):
            raise keyring.errors.PasswordSetError("the keyring said no")
        real_set(service, user, value)

    memory_keyring.set_password = refuse_some
    store = ConfigStore()
    store.load()
    secrets = SecretStore()
    result = import_into(store, secrets, path, extract=extract_secrets)
    assert [new for _, new in result.added] == ["a", "c"]
    assert [s.original_name for s in result.skipped] == ["refused"]
    assert "the keyring said no" in result.skipped[0].reason
    assert secrets.get("a", "A_TOKEN") == "value-a" and secrets.get("c", "C_TOKEN") == "value-c"
    assert secrets.names("refused") == []  # R_TOKEN, stored before S_TOKEN failed, was taken back
    assert store.names() == ["demo", "a", "c"]


def test_import_broken_file_reports_position(tmp_path: Path) -> None:
    path = tmp_path / "claude_desktop_config.json"
    path.write_text('{\n  "mcpServers": {\n    "a": {"command": }\n  }\n}')
    with pytest.raises(ConfigError) as info:
        read_import_file(path)
    assert (info.value.line, info.value.col) == (3, 22)


def test_export_claude_refs_or_values(config_dir: Path) -> None:
    store = ConfigStore()
    store.load()
    secrets = SecretStore()
    import_into(store, secrets, FIXTURES / "claude_desktop_config.json", extract=extract_secrets)
    data, warnings = export_claude(store)
    assert data["mcpServers"]["github"]["env"] == {
        "GITHUB_PERSONAL_ACCESS_TOKEN": "${secret:GITHUB_PERSONAL_ACCESS_TOKEN}"
    }
    revealed, _ = export_claude(store, secrets.get)
    original = json.loads((FIXTURES / "claude_desktop_config.json").read_text())["mcpServers"]
    for name, entry in original.items():
        assert revealed["mcpServers"][name] == entry
    assert warnings == []


def test_export_vscode_turns_secrets_into_password_inputs(config_dir: Path, tmp_path: Path) -> None:
    store = ConfigStore()
    store.load()
    secrets = SecretStore()
    import_into(store, secrets, FIXTURES / "cursor_mcp.json", extract=extract_secrets)
    data, _ = export_vscode(store)
    assert data["servers"]["linear"]["headers"] == {"Authorization": "${input:linear-Authorization}"}
    assert {
        "type": "promptString",
        "id": "linear-Authorization",
        "description": "Authorization for linear",
        "password": True,
    } in data["inputs"]
    assert data["servers"]["stripe"]["type"] == "stdio"
    # And VS Code's file imports back into an equal list, asking for each input once.
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps(data))
    shutil.rmtree(config_dir)
    config_dir.mkdir()
    values = {f"{s}-{n}": secrets.get(s, n) for s in store.names() for n in secrets.names(s)}
    other = ConfigStore()
    other.load()
    other.remove("demo")
    import_into(other, SecretStore(), path, ask=lambda spec: values[spec.id], extract=extract_secrets)
    for entry in store.entries:
        env, headers, _ = resolve_entry(entry, secrets)
        env2, headers2, _ = resolve_entry(other.get(entry.name), SecretStore())
        assert (env, headers) == (env2, headers2)


@pytest.mark.parametrize(
    ("platform", "claude", "vscode"),
    [
        (
            "darwin",
            "Library/Application Support/Claude/claude_desktop_config.json",
            "Library/Application Support/Code/User/mcp.json",
        ),
        ("win32", "AppData/Roaming/Claude/claude_desktop_config.json", "AppData/Roaming/Code/User/mcp.json"),
        ("linux", ".config/Claude/claude_desktop_config.json", ".config/Code/User/mcp.json"),
    ],
)
def test_known_locations(tmp_path: Path, platform: str, claude: str, vscode: str) -> None:
    sources = known_import_sources(platform, tmp_path, {})
    by_app = {s.app: s for s in sources}
    assert by_app["Claude Desktop"].path == tmp_path / claude
    assert by_app["VS Code"].path == tmp_path / vscode
    assert by_app["Cursor"].path == tmp_path / ".cursor" / "mcp.json"
    assert not by_app["Cursor"].exists
    (tmp_path / ".cursor").mkdir()
    (tmp_path / ".cursor" / "mcp.json").write_text("{}")
    assert by_app["Cursor"].exists


def test_values_from_secret_looking_env_vars_go_to_keyring(
    tmp_path: Path, config_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MCP_DESK_T_GITHUB_TOKEN", "ghp_fromEnvironment42")
    monkeypatch.setenv("MCP_DESK_T_REGION", "eu")
    path = tmp_path / "mcp.json"
    path.write_text(
        json.dumps(
            {
                "mcpServers": {
                    "s": {
                        "command": "x",
                        "env": {
                            "X_AUTH_VALUE": "${env:MCP_DESK_T_GITHUB_TOKEN}",
                            "REGION": "${MCP_DESK_T_REGION}",
                        },
                    }
                }
            }
        )
    )
    store = ConfigStore()
    store.load()
    secrets = SecretStore()
    import_into(store, secrets, path, extract=extract_secrets)
    assert store.get("s").env == {"X_AUTH_VALUE": "${secret:X_AUTH_VALUE}", "REGION": "eu"}
    assert secrets.get("s", "X_AUTH_VALUE") == "ghp_fromEnvironment42"
    assert grep_dir(config_dir, "ghp_fromEnvironment42") == []


def test_vscode_settings_json_mcp_block(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(
        '{\n  "editor.fontSize": 14,\n  // MCP servers\n  "mcp": {"servers": {"fs": '
        '{"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem"]}}},\n}'
    )
    result = read_import_file(path)
    assert result.format == "vscode"
    assert [s.entry.name for s in result.servers] == ["fs"]


def test_inspector_single_server_entry(tmp_path: Path) -> None:
    path = tmp_path / "weather.json"
    path.write_text(json.dumps({"type": "streamable-http", "url": "http://localhost:3001/mcp"}))
    result = read_import_file(path)
    assert result.format == "inspector"
    assert result.servers[0].entry.name == "weather"
    assert result.servers[0].entry.transport == "http"


def test_awkward_names_and_shapes(tmp_path: Path, config_dir: Path) -> None:
    path = tmp_path / "claude_desktop_config.json"
    path.write_text(
        json.dumps({"mcpServers": {"acme/tools ": {"command": "x"}, "bad": [1], "odd": {"args": 5}}})
    )
    store = ConfigStore()
    store.load()
    result = import_into(store, SecretStore(), path, extract=extract_secrets)
    assert result.added == [("acme/tools ", "acme-tools")]
    assert len(result.warnings) == 3  # renamed, not an object, wrong shape
    listing = tmp_path / "list.json"
    listing.write_text("[1, 2]")
    with pytest.raises(ConfigError):
        read_import_file(listing, "claude")
