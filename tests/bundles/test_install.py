"""Install → run a tool → update → uninstall, for the Node and the Python test packages, through
the CLI and the real engine (real processes: node, uv)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from app.bundles import installed
from app.cli.main import main
from app.config.store import ConfigStore
from tests.bundles.builders import node_bundle, node_manifest, python_bundle, write_zip


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def store() -> ConfigStore:
    s = ConfigStore()
    s.load()
    return s


@pytest.fixture(params=["own", "built-in"])
def node(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The person's own Node.js, and none at all (an empty PATH and HOME): the package then runs
    on MCP Desk's built-in Node.js."""
    from app import runtimes

    if request.param == "built-in":
        empty = tmp_path / "empty-path"
        empty.mkdir()
        monkeypatch.setenv("PATH", str(empty))
        monkeypatch.setenv("HOME", str(tmp_path / "home"))
    runtimes.forget()
    request.addfinalizer(runtimes.forget)
    runtime = runtimes.runtime_for("node")
    if runtime is None:
        pytest.skip("no Node.js, own or built in")
    assert runtime.builtin is (request.param == "built-in")
    return str(request.param)


@pytest.fixture
def uv_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Python package runs on the resolved uv (the built-in one here). uv is pointed at the
    test's own environment, which has the `mcp` SDK the package asks for, so nothing is downloaded
    (a person's first start fetches it into uv's cache instead)."""
    from app import runtimes

    if runtimes.runtime_for("uv") is None:
        pytest.skip("no uv, own or built in")
    monkeypatch.setenv("VIRTUAL_ENV", sys.prefix)
    monkeypatch.setenv("UV_OFFLINE", "1")


def test_node_package_install_call_update_uninstall(
    tmp_path: Path, node: str, capsys: pytest.CaptureFixture[str]
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (work / "a.txt").write_text("a")
    (work / "b.txt").write_text("b")
    v1 = node_bundle(tmp_path / "folder-helper-1.0.0.mcpb")
    code, out, err = run(
        [
            "bundles",
            "install",
            str(v1),
            "--set",
            f"folder={work}",
            "--set",
            "api_key=sk-test-1234",
            "--trust",
        ],
        capsys,
    )
    assert code == 0, err
    assert "installed 'folder-helper'" in out
    assert "Tools: whoami, list_folder." in err
    folder1 = installed.bundles_dir() / "folder-helper" / "1.0.0"
    assert (folder1 / "server" / "index.js").exists()
    servers = json.loads((Path(os.environ["MCP_DESK_CONFIG_DIR"]) / "servers.json").read_text())
    assert "sk-test-1234" not in json.dumps(servers)
    assert servers["mcpServers"]["folder-helper"]["env"]["API_KEY"] == "${secret:api_key}"

    code, out, err = run(["call", "folder-helper", "whoami"], capsys)
    assert code == 0, err
    assert out.strip() == f"version=1.0.0 key_length=12 mode=fast dir={work} here=server"
    code, out, _ = run(["call", "folder-helper", "list_folder"], capsys)
    assert (code, out.strip()) == (0, "a.txt,b.txt")

    code, out, _ = run(["bundles", "list"], capsys)
    assert out.split("\t")[:3] == ["folder-helper", "folder-helper", "1.0.0"]

    # Update: a newer version of the same package keeps the folder, the mode and the key.
    v2 = node_bundle(tmp_path / "folder-helper-1.1.0.mcpb", version="1.1.0")
    code, out, err = run(["bundles", "install", str(v2), "--trust"], capsys)
    assert code == 0, err
    assert "updated 'folder-helper' from 1.0.0 to 1.1.0" in out
    assert not folder1.exists()
    code, out, err = run(["call", "folder-helper", "whoami"], capsys)
    assert code == 0, err
    assert out.strip() == f"version=1.1.0 key_length=12 mode=fast dir={work} here=server"
    assert store().names().count("folder-helper") == 1

    code, out, _ = run(["bundles", "uninstall", "folder-helper"], capsys)
    assert code == 0
    assert "folder-helper" not in store()
    assert not (installed.bundles_dir() / "folder-helper").exists()
    from app.secrets.profile import folder_secrets

    assert folder_secrets(store()).names("folder-helper") == []


def test_python_package_install_call_uninstall(
    tmp_path: Path, uv_env: None, capsys: pytest.CaptureFixture[str]
) -> None:
    path = python_bundle(tmp_path / "greeter.mcpb")
    code, out, err = run(["bundles", "install", str(path), "--set", "greeting=Hej", "--trust"], capsys)
    assert code == 0, err
    entry = store().get("greeter-python")
    assert entry.command == "uv" and entry.args[:2] == ["run", "--no-project"]
    from app import runtimes

    uv = runtimes.runtime_for(entry)
    assert uv is not None and uv.kind == "uv"
    code, out, err = run(["call", "greeter-python", "greet", "--args", '{"name": "Ada"}'], capsys)
    assert code == 0, err
    assert out.strip() == "Hej, Ada! (limit 5)"
    code, out, _ = run(["bundles", "uninstall", "greeter-python"], capsys)
    assert code == 0
    assert not (installed.bundles_dir() / "greeter-python").exists()
    assert "greeter-python" not in store()


def test_update_keeps_values_when_the_command_changes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    work = tmp_path / "w"
    v1 = node_bundle(tmp_path / "1.mcpb")
    assert (
        run(["bundles", "install", str(v1), "--set", f"folder={work}", "--set", "api_key=k1"], capsys)[0] == 5
    )
    m = node_manifest("2.0.0")
    m["server"]["mcp_config"]["args"] = ["${__dirname}/server/index.js", "--dir", "${user_config.folder}"]
    m["user_config"]["mode"]["default"] = "slow"
    v2 = node_bundle(tmp_path / "2.mcpb", version="2.0.0", manifest=m)
    code, _, _ = run(["bundles", "install", str(v2), "--set", "mode=medium"], capsys)
    assert code == 5  # installed, but not allowed to run yet without a terminal or --trust
    entry = store().get("folder-helper")
    folder = installed.bundles_dir() / "folder-helper" / "2.0.0"
    assert entry.args == [f"{folder}/server/index.js", "--dir", str(work)]
    assert entry.env == {"API_KEY": "${secret:api_key}", "MODE": "medium"}
    from app.secrets.profile import folder_secrets

    assert folder_secrets(store()).get("folder-helper", "api_key") == "k1"


def test_a_new_required_question_on_update_is_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    v1 = node_bundle(tmp_path / "1.mcpb")
    run(["bundles", "install", str(v1), "--set", "folder=/w", "--set", "api_key=k1", "--trust"], capsys)
    m = node_manifest("2.0.0")
    m["user_config"]["region"] = {"type": "string", "title": "Region", "description": "", "required": True}
    m["server"]["mcp_config"]["env"]["REGION"] = "${user_config.region}"
    v2 = node_bundle(tmp_path / "2.mcpb", version="2.0.0", manifest=m)
    code, _, err = run(["bundles", "install", str(v2), "--trust"], capsys)
    assert code == 2 and "region" in err
    assert (installed.bundles_dir() / "folder-helper" / "1.0.0").exists()  # nothing changed
    code, _, err = run(["bundles", "install", str(v2), "--set", "region=eu", "--trust"], capsys)
    assert code == 0, err
    assert store().get("folder-helper").env["REGION"] == "eu"


def test_missing_required_value_without_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(["bundles", "install", str(node_bundle(tmp_path / "n.mcpb"))], capsys)
    assert code == 2
    assert "api_key (API key) is required: give it with --set api_key=VALUE" in err
    assert "folder-helper" not in store()
    assert not installed.bundles_dir().exists()
    code, _, err = run(
        ["bundles", "install", str(node_bundle(tmp_path / "n.mcpb")), "--set", "nope=1"], capsys
    )
    assert code == 2 and "asks no such value" in err


def test_show_and_bad_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["bundles", "show", str(node_bundle(tmp_path / "n.mcpb"))], capsys)
    assert code == 0
    assert out.splitlines()[0] == "Folder Helper 1.0.0 by MCP Desk tests"
    assert "  api_key: API key (string, required, a key, kept in your computer's keychain)" in out
    bomb = write_zip(tmp_path / "bomb.mcpb", {"manifest.json": "{}", "zeros": b"\0" * (40 << 20)})
    code, _, err = run(["bundles", "show", str(bomb)], capsys)
    assert code == 1 and "zip bomb" in err
    code, _, err = run(["bundles", "uninstall", "nothing"], capsys)
    assert code == 1 and "no server or package named 'nothing'" in err


def test_uninstall_never_deletes_outside_the_bundles_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    v1 = node_bundle(tmp_path / "1.mcpb")
    run(["bundles", "install", str(v1), "--set", "folder=/w", "--set", "api_key=k1", "--trust"], capsys)
    precious = tmp_path / "precious"
    precious.mkdir()
    s = store()
    s.settings("folder-helper").extra["bundle"]["folder"] = str(precious)  # edited by hand
    s.save()
    assert run(["bundles", "uninstall", "folder-helper"], capsys)[0] == 0
    assert precious.exists()


def test_a_legacy_dxt_file_installs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    m = node_manifest()
    del m["manifest_version"]
    m["dxt_version"] = "0.1"
    del m["display_name"]
    dxt = node_bundle(tmp_path / "folder-helper.dxt", manifest=m)
    code, _, err = run(
        ["bundles", "install", str(dxt), "--set", "folder=/w", "--set", "api_key=k", "--trust"], capsys
    )
    assert code == 0, err
    assert installed.record_of(store(), "folder-helper") is not None
