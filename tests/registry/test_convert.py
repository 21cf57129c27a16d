"""Directory entries → install plans: every package type, remotes, questions, and the way picked."""

from __future__ import annotations

import pytest

from app.install.plan import MissingAnswer, apply
from app.registry.convert import CannotAdd, best_way, suggest_name, to_plan, ways
from app.registry.model import RegistryServer
from tests.servers.registry_server import MEMORY_VERSION, TIME_VERSION, entries

BASE = "http://127.0.0.1:1"
REMOTE = "http://127.0.0.1:2/mcp"


def entry(name: str) -> RegistryServer:
    for item in entries(BASE, REMOTE):
        server = RegistryServer.from_response(item)
        if server is not None and server.name == name and server.is_latest:
            return server
    raise KeyError(name)


def everything(_: str) -> bool:
    return True


def test_npm_runs_with_npx_at_the_exact_version() -> None:
    plan = to_plan(entry("io.github.modelcontextprotocol/server-memory"), have=everything)
    assert (plan.entry.command, plan.entry.args) == (
        "npx",
        ["-y", f"@modelcontextprotocol/server-memory@{MEMORY_VERSION}"],
    )
    assert plan.entry.env == {"MEMORY_FILE_PATH": "${ask:MEMORY_FILE_PATH}"}
    (q,) = plan.questions
    assert (q.key, q.kind, q.required, q.secret) == ("MEMORY_FILE_PATH", "file", False, False)
    assert plan.runtime == "node" and plan.source == "registry" and plan.name == "server-memory"
    assert (plan.title, plan.version) == ("Memory", MEMORY_VERSION)
    assert plan.repository == "https://github.com/modelcontextprotocol/servers"
    assert plan.website == "https://modelcontextprotocol.io/examples"
    assert apply(plan, {}).entry.env == {}  # an optional value left empty is not set at all


def test_pypi_runs_with_uvx_and_a_named_argument_with_choices() -> None:
    plan = to_plan(entry("io.github.modelcontextprotocol/time"), have=everything)
    assert plan.entry.command == "uvx"
    assert plan.entry.args == [
        f"mcp-server-time=={TIME_VERSION}",
        "--local-timezone",
        "${ask:local-timezone}",
    ]
    (q,) = plan.questions
    assert (q.kind, q.choices, q.required) == ("choice", ("UTC", "Europe/Paris", "Asia/Shanghai"), False)
    assert apply(plan, {}).entry.args == [f"mcp-server-time=={TIME_VERSION}"]  # flag dropped with its value
    assert apply(plan, {"local-timezone": "Asia/Shanghai"}).entry.args[-2:] == [
        "--local-timezone",
        "Asia/Shanghai",
    ]
    assert plan.runtime == "uv"


def test_oci_runs_with_docker_passing_each_variable_by_name() -> None:
    plan = to_plan(entry("io.github.example/weather"), have=everything)
    assert plan.entry.command == "docker"
    assert plan.entry.args == [
        "run", "-i", "--rm",
        "--mount", "type=bind,src=${ask:cache_dir},dst=/cache",
        "-e", "OPENWEATHER_API_KEY", "-e", "LOG_LEVEL",
        "example/weather-mcp:1.2.0",
        "${ask:units}",
    ]  # fmt: skip
    by_key = {q.key: q for q in plan.questions}
    assert set(by_key) == {"cache_dir", "units", "OPENWEATHER_API_KEY", "LOG_LEVEL"}
    assert (by_key["cache_dir"].kind, by_key["cache_dir"].required) == ("directory", True)
    assert (by_key["units"].kind, by_key["units"].default) == ("choice", "metric")
    key = by_key["OPENWEATHER_API_KEY"]
    assert (key.secret, key.required) == (True, True)
    assert by_key["LOG_LEVEL"].default == "info"
    assert (key.label, by_key["LOG_LEVEL"].label) == ("Your OpenWeather API key", "LOG_LEVEL")
    with pytest.raises(MissingAnswer):
        apply(plan, {"cache_dir": "/tmp/c"})
    done = apply(plan, {"cache_dir": "/tmp/c", "OPENWEATHER_API_KEY": "ow-123"})
    assert done.entry.env == {"OPENWEATHER_API_KEY": "${secret:OPENWEATHER_API_KEY}", "LOG_LEVEL": "info"}
    assert done.secrets == {"OPENWEATHER_API_KEY": "ow-123"}
    assert "ow-123" not in repr(done.entry)
    assert done.entry.args[4] == "type=bind,src=/tmp/c,dst=/cache" and done.entry.args[-1] == "metric"
    assert plan.runtime == "docker"


def test_a_remote_becomes_an_http_entry_whose_secret_header_goes_to_the_keychain() -> None:
    plan = to_plan(entry("com.example/notes"), have=everything)
    assert (plan.entry.transport, plan.entry.url) == ("http", REMOTE)
    assert plan.entry.headers == {"Authorization": "Bearer ${ask:api_key}"}
    (q,) = plan.questions
    assert (q.key, q.secret, q.required) == ("api_key", True, True)
    assert (q.label, q.description) == ("Your notes API key", "")  # its short description, not "api_key"
    assert plan.icon is None and plan.runtime is None
    done = apply(plan, {"api_key": "k-1"})
    assert done.entry.headers == {"Authorization": "Bearer ${secret:api_key}"}
    assert done.secrets == {"api_key": "k-1"}
    with pytest.raises(MissingAnswer):
        apply(plan, {})


def test_an_sse_remote_with_a_url_variable_and_a_header_without_value() -> None:
    plan = to_plan(entry("com.example/tenant-search"), have=everything)
    assert (plan.entry.transport, plan.entry.url) == ("sse", "https://${ask:region}.search.example.com/sse")
    assert plan.entry.headers == {"X-Api-Key": "${ask:X-Api-Key}"}
    region = plan.question("region")
    assert (region.kind, region.choices, region.default) == ("choice", ("eu", "us"), "eu")
    assert plan.question("X-Api-Key").secret
    done = apply(plan, {"X-Api-Key": "xyz"})
    assert done.entry.url == "https://eu.search.example.com/sse"
    assert done.entry.headers == {"X-Api-Key": "${secret:X-Api-Key}"}


def test_nuget_runs_with_dnx_and_fixed_arguments() -> None:
    plan = to_plan(entry("io.github.joelverhagen/samplemcpserver"), have=everything)
    assert (plan.entry.command, plan.entry.args) == (
        "dnx",
        ["Knapcode.SampleMcpServer@0.5.0", "--yes", "--", "mcp", "start"],
    )
    assert plan.questions == []


def test_an_mcpb_package_is_not_added_here_and_says_where_to_go() -> None:
    server = entry("io.modelcontextprotocol/text-editor")
    (way,) = ways(server, everything)
    assert way.kind == "mcpb" and way.problem and "server package (.mcpb)" in way.problem
    with pytest.raises(CannotAdd, match="Install a server package"):
        to_plan(server, have=everything)


def test_the_way_picked_first_and_the_others_offered() -> None:
    notes = entry("com.example/notes")
    assert [w.kind for w in ways(notes, everything)] == ["remote", "remote", "npm"]
    assert best_way(notes, everything) == ways(notes, everything)[0]
    npm = ways(notes, everything)[2]
    plan = to_plan(notes, npm, have=everything)
    assert plan.entry.args == ["-y", "@example/notes-mcp@3.1.0"]
    # Docker not found: the plan still says so; an entry with npm and Docker would pick npm.
    weather = to_plan(entry("io.github.example/weather"), have=lambda c: c != "docker")
    assert weather.notes == ["This server needs Docker, which was not found on this computer."]
    both = RegistryServer.from_response(
        {
            "server": {
                "name": "x/both",
                "packages": [
                    {"registryType": "oci", "identifier": "x/img", "version": "1"},
                    {"registryType": "pypi", "identifier": "x-mcp", "version": "1"},
                ],
            }
        }
    )
    assert both is not None
    assert [w.kind for w in ways(both, lambda c: c != "docker")] == ["pypi", "oci"]
    assert [w.kind for w in ways(both, everything)] == ["pypi", "oci"]


def test_a_deprecated_entry_keeps_its_note_in_the_plan() -> None:
    plan = to_plan(entry("io.github.example/old-weather"), have=everything)
    assert plan.notes == [
        "The server directory marks this server as deprecated: Use io.github.example/weather instead"
    ]


def test_images_of_other_registries_are_named_with_their_host() -> None:
    def image(pkg: dict[str, object]) -> str:
        server = RegistryServer.from_response({"server": {"name": "a/b", "packages": [pkg]}})
        assert server is not None
        return to_plan(server, have=everything).entry.args[3]

    assert image({"registryType": "oci", "identifier": "ghcr.io/o/i:2.0.0"}) == "ghcr.io/o/i:2.0.0"
    assert (
        image(
            {"registryType": "oci", "identifier": "o/i", "version": "2", "registryBaseUrl": "https://ghcr.io"}
        )
        == "ghcr.io/o/i:2"
    )
    assert (
        image(
            {
                "registryType": "oci",
                "identifier": "o/i",
                "version": "2",
                "registryBaseUrl": "https://docker.io",
            }
        )
        == "o/i:2"
    )
    assert image({"registryType": "oci", "identifier": "o/i@sha256:ab", "version": "2"}) == "o/i@sha256:ab"


def test_a_package_that_serves_http_itself_is_not_offered() -> None:
    server = RegistryServer.from_response(
        {"server": {"name": "a/web", "packages": [
            {"registryType": "npm", "identifier": "w", "version": "1",
             "transport": {"type": "streamable-http", "url": "http://localhost:{port}/mcp"}}]}}
    )  # fmt: skip
    assert server is not None
    with pytest.raises(CannotAdd, match="web server"):
        to_plan(server, have=everything)


def test_repeated_positional_arguments_and_names() -> None:
    server = RegistryServer.from_response(
        {"server": {"name": "io.github.x/Files Server!", "packages": [
            {"registryType": "npm", "identifier": "@x/files", "version": "1",
             "packageArguments": [{"type": "positional", "valueHint": "target_dir", "isRequired": True,
                                   "isRepeated": True, "format": "filepath",
                                   "description": "Folders to share"}]}]}}
    )  # fmt: skip
    assert server is not None
    plan = to_plan(server, have=everything)
    q = plan.question("target_dir")
    assert (q.multiple, q.kind, q.required) == (True, "directory", True)
    assert apply(plan, {"target_dir": ["/a", "/b"]}).entry.args == ["-y", "@x/files@1", "/a", "/b"]
    assert suggest_name(server) == "files-server"
