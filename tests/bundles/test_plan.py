"""A manifest → an install plan: questions, holes, the spec's variables, platform overrides, how
each server type is started, what the summary says; and reading answers back for an update."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

import platformdirs
import pytest

from app.bundles import compat
from app.bundles.archive import BundleError, read_bundle
from app.bundles.installed import KEPT, recover_answers
from app.bundles.plan import build_plan
from app.install.plan import apply
from tests.bundles.builders import node_bundle, node_manifest, python_bundle, write_zip

FOLDER = Path("/opt/bundles/x/1")


def plan_of(tmp_path: Path, manifest: dict[str, Any], files: dict[str, str] | None = None, **kw: Any) -> Any:
    path = write_zip(tmp_path / "p.mcpb", {"manifest.json": json.dumps(manifest), **(files or {})})
    return build_plan(read_bundle(path), FOLDER, **kw)


def test_node_plan(tmp_path: Path) -> None:
    plan = build_plan(read_bundle(node_bundle(tmp_path / "n.mcpb")), FOLDER, platform="linux")
    assert plan.source == "bundle" and plan.runtime == "node"
    assert (plan.title, plan.version, plan.author) == ("Folder Helper", "1.0.0", "MCP Desk tests")
    assert plan.entry.command == "node"
    assert plan.entry.args == [f"{FOLDER}/server/index.js", "${ask:folder}"]
    assert plan.entry.env == {"API_KEY": "${ask:api_key}", "MODE": "${ask:mode}"}
    assert plan.entry.cwd == str(FOLDER)
    api, folder, mode = plan.questions
    assert (api.secret, api.required, api.kind) == (True, True, "string")
    assert (folder.kind, mode.default) == ("directory", "fast")
    assert plan.settings == {"bundle": {"name": "folder-helper", "version": "1.0.0", "folder": str(FOLDER)}}
    assert plan.icon is not None
    assert "Tools: whoami, list_folder." in plan.notes
    assert any("not signed" in n for n in plan.notes)
    applied = apply(plan, {"api_key": "k-123", "folder": "/data"})
    assert applied.entry.env == {"API_KEY": "${secret:api_key}", "MODE": "fast"}
    assert applied.secrets == {"api_key": "k-123"}
    assert "k-123" not in json.dumps(applied.entry.to_json())


def test_variables_are_substituted(tmp_path: Path) -> None:
    m = node_manifest()
    m["server"]["mcp_config"]["args"] = [
        "${__dirname}${/}server${/}index.js",
        "--home=${HOME}",
        "${DESKTOP}|${DOCUMENTS}|${DOWNLOADS}|${pathSeparator}",
        "${user_config.nope}",
        "${arguments.topic}",
    ]
    m["user_config"]["folder"]["default"] = "${HOME}/Desktop"
    plan = plan_of(tmp_path, m)
    assert plan.entry.args[0] == f"{FOLDER}{os.sep}server{os.sep}index.js"
    assert plan.entry.args[1] == f"--home={Path.home()}"
    assert plan.entry.args[2] == "|".join(
        [
            platformdirs.user_desktop_dir(),
            platformdirs.user_documents_dir(),
            platformdirs.user_downloads_dir(),
            os.sep,
        ]
    )
    assert plan.entry.args[3] == ""  # a user_config key the manifest does not define
    assert plan.entry.args[4] == "${arguments.topic}"  # not ours: left as written
    assert plan.question("folder").default == f"{Path.home()}/Desktop"


@pytest.mark.parametrize("ref", ["${secret:other}", "${env:AWS_SECRET}", "${ask:x}"])
def test_our_own_references_are_not_allowed_in_a_package(tmp_path: Path, ref: str) -> None:
    m = node_manifest()
    m["server"]["mcp_config"]["env"]["X"] = ref
    with pytest.raises(BundleError, match="may not use"):
        plan_of(tmp_path, m)


def test_platform_overrides(tmp_path: Path) -> None:
    m = node_manifest()
    m["server"]["mcp_config"]["platform_overrides"] = {
        "win32": {"args": ["${__dirname}\\server\\index.js"], "env": {"EXTRA": "win"}},
        "darwin": {"env": {"MODE": "mac"}},
    }
    win = plan_of(tmp_path, m, platform="win32")
    assert win.entry.args == [f"{FOLDER}\\server\\index.js"]
    assert win.entry.env == {"API_KEY": "${ask:api_key}", "MODE": "${ask:mode}", "EXTRA": "win"}
    mac = plan_of(tmp_path, m, platform="darwin")
    assert mac.entry.args == [f"{FOLDER}/server/index.js", "${ask:folder}"]
    assert mac.entry.env["MODE"] == "mac"
    linux = plan_of(tmp_path, m, platform="linux")
    assert linux.entry.env["MODE"] == "${ask:mode}"


def test_multiple_values_become_separate_arguments(tmp_path: Path) -> None:
    m = node_manifest()
    m["user_config"]["folder"].update(multiple=True, default=["${HOME}/a", "${HOME}/b"])
    plan = plan_of(tmp_path, m)
    q = plan.question("folder")
    assert q.multiple and q.default == os.pathsep.join([f"{Path.home()}/a", f"{Path.home()}/b"])
    applied = apply(plan, {"api_key": "k", "folder": ["/x", "/y z"]})
    assert applied.entry.args == [f"{FOLDER}/server/index.js", "/x", "/y z"]


def test_python_runs_on_uv(tmp_path: Path) -> None:
    plan = build_plan(read_bundle(python_bundle(tmp_path / "p.mcpb")), FOLDER)
    assert plan.entry.command == "uv"
    assert plan.entry.args == [
        "run",
        "--no-project",
        "--python",
        ">=3.10",
        "--with-requirements",
        f"{FOLDER}/requirements.txt",
        "python",
        f"{FOLDER}/server/main.py",
    ]
    assert plan.question("limit").default == "5"


def test_python_with_its_libraries_bundled(tmp_path: Path) -> None:
    m = json.loads(json.dumps(node_manifest()))
    m["server"] = {
        "type": "python",
        "entry_point": "server/main.py",
        "mcp_config": {
            "command": "python3",
            "args": ["${__dirname}/server/main.py"],
            "env": {"PYTHONPATH": "${__dirname}/server/lib"},
        },
    }
    plan = plan_of(
        tmp_path, m, {"server/main.py": "", "server/lib/dep/__init__.py": "", "requirements.txt": ""}
    )
    assert plan.entry.args == ["run", "--no-project", "python", f"{FOLDER}/server/main.py"]
    assert plan.entry.env == {"PYTHONPATH": f"{FOLDER}/server/lib"}


def test_uv_type_and_binary_type(tmp_path: Path) -> None:
    m = node_manifest()
    m["manifest_version"] = "0.4"
    m["server"] = {"type": "uv", "entry_point": "src/server.py"}
    m["compatibility"] = {"runtimes": {"python": ">=3.11"}}
    plan = plan_of(tmp_path, m)
    assert (plan.entry.command, plan.entry.args) == (
        "uv",
        ["run", "--project", str(FOLDER), "--python", ">=3.11", f"{FOLDER}/src/server.py"],
    )
    m["server"] = {"type": "binary", "entry_point": "server/tool", "mcp_config": {"command": "server/tool"}}
    assert plan_of(tmp_path, m, platform="linux").entry.command == str(FOLDER / "server" / "tool")
    assert plan_of(tmp_path, m, platform="win32").entry.command == str(FOLDER / "server" / "tool.exe")


def test_recover_answers_reads_back_what_was_given(tmp_path: Path) -> None:
    m = node_manifest()
    m["server"]["mcp_config"]["args"].append("--limit=${user_config.limit}")
    m["user_config"]["limit"] = {"type": "number", "title": "Limit", "description": ""}
    m["user_config"]["fast"] = {"type": "boolean", "title": "Fast", "description": ""}
    m["server"]["mcp_config"]["env"]["FAST"] = "${user_config.fast}"
    m["user_config"]["folder"]["multiple"] = True
    plan = plan_of(tmp_path, m)
    answers = {"api_key": "k", "folder": ["/a", "/b"], "mode": "slow", "limit": 7.0, "fast": True}
    entry = apply(plan, answers).entry
    assert entry.args[-1] == "--limit=7"
    back = recover_answers(plan, entry)
    assert back == {"api_key": KEPT, "folder": ["/a", "/b"], "mode": "slow", "limit": 7.0, "fast": True}


@pytest.mark.parametrize(
    ("version", "spec", "ok"),
    [
        ("20.20.2", ">=16.0.0", True),
        ("14.1.0", ">=16.0.0", False),
        ("20.1.0", "^18", False),
        ("18.5.0", "^18.2.0", True),
        ("18.1.0", "^18.2.0", False),
        ("18.2.9", "~18.2.0", True),
        ("18.3.0", "~18.2.0", False),
        ("20.0.0", ">=16 <21", True),
        ("22.0.0", ">=16 <21", False),
        ("22.0.0", "^18 || ^22", True),
        ("18.4.1", "18.x", True),
        ("3.11.4", ">=3.8,<4.0", True),
        ("3.7.1", ">=3.8,<4.0", False),
        ("3.12.0", "~=3.10", True),
        ("3.12.0", "==3.*", True),
        ("3.12.0", ">= 3.13", False),
    ],
)
def test_version_ranges(version: str, spec: str, ok: bool) -> None:
    assert compat.satisfies(version, spec) is ok


def test_unreadable_range() -> None:
    with pytest.raises(compat.BadRange):
        compat.satisfies("1.0.0", "latest please")


def test_compatibility_says_what_this_computer_lacks(tmp_path: Path) -> None:
    m = read_bundle(node_bundle(tmp_path / "n.mcpb")).manifest
    node20 = compat.RuntimeInfo("node", True, "20.1.0", "your Node.js 20.1.0")
    ok = compat.check(m, platform="linux", runtime=node20)
    assert ok.problems == () and ok.needs == ("Node.js >=16.0.0 — your Node.js 20.1.0",)
    data = copy.deepcopy(node_manifest())
    data["compatibility"] = {"platforms": ["darwin", "win32"], "runtimes": {"node": ">=22"}}
    path = write_zip(tmp_path / "m.mcpb", {"manifest.json": json.dumps(data)})
    bad = compat.check(read_bundle(path).manifest, platform="linux", runtime=node20)
    assert bad.problems == (
        "This package is made for macOS and Windows, not for Linux.",
        "It needs Node.js >=22; this computer has Node.js 20.1.0.",
    )
    none = compat.check(m, platform="linux", runtime=compat.RuntimeInfo("node", False, None, "not found"))
    assert none.problems == ("It needs Node.js >=16.0.0, and no Node.js was found on this computer.",)
