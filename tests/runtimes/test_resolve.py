"""Resolution order for node/npm/npx/uv/uvx: the child's PATH, the places GUI apps miss, then
the built-in runtimes; other commands unchanged."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from app.runtimes import (
    CommandNotFound,
    describe,
    forget,
    node_command,
    resolve_command,
    runtime_for,
    search_path,
    uv_command,
    where,
)
from app.runtimes.private import private_node, private_uv


def _script(path: Path, body: str = "#!/bin/sh\necho v22.3.0\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A HOME with nothing in it, and no system folder (Homebrew's) searched."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for var in ("NVM_DIR", "FNM_DIR", "VOLTA_HOME"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(search_path, "HOMEBREW_DIRS", ())
    forget()
    return home


def _env(home: Path, path: str) -> dict[str, str]:
    return {"HOME": str(home), "PATH": path}


def test_builtin_node_runs_npx_cli_on_the_private_node(home: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    node = private_node()
    assert node is not None
    r = resolve_command("npx", _env(home, str(empty)))
    assert r.executable == node.node
    assert r.args_prefix == (node.npx_cli,)
    assert Path(node.npx_cli).is_file()
    # The private bin dir first: `#!/usr/bin/env node` in a package's script finds this Node.
    assert r.env["PATH"].split(os.pathsep) == [node.bin_dir, str(empty)]
    assert r.env["npm_config_loglevel"] == "http"
    assert r.runtime is not None and r.runtime.builtin and r.runtime.kind == "node"
    assert describe(r.runtime) == f"Node.js {'.'.join((node.version or '').split('.')[:2])} (built in)"
    assert describe(r.runtime).startswith("Node.js 24.")
    assert where("npx", _env(home, str(empty))) == f"npx of the built-in {describe(r.runtime)[:-11]}"


def test_builtin_npm_and_node(home: Path, tmp_path: Path) -> None:
    node = private_node()
    assert node is not None
    npm = resolve_command("npm", _env(home, str(tmp_path)))
    assert (npm.executable, npm.args_prefix) == (node.node, (node.npm_cli,))
    assert "npm_config_loglevel" not in npm.env  # only npx: it is the one that installs servers
    plain = resolve_command("node", _env(home, str(tmp_path)))
    assert (plain.executable, plain.args_prefix) == (node.node, ())


def test_builtin_uv_and_uvx(home: Path, tmp_path: Path) -> None:
    uv = private_uv()
    assert uv is not None
    r = resolve_command("uvx", _env(home, str(tmp_path)))
    if uv.uvx:
        assert (r.executable, r.args_prefix) == (uv.uvx, ())
    else:
        assert (r.executable, r.args_prefix) == (uv.uv, ("tool", "run"))
    assert r.runtime is not None and r.runtime.kind == "uv" and r.runtime.builtin
    assert resolve_command("uv", _env(home, str(tmp_path))).executable == uv.uv
    # The venv's bin folder (our own Python) is not put on the server's PATH.
    assert r.env["PATH"] == str(tmp_path)


def test_own_node_on_path_wins(home: Path, tmp_path: Path) -> None:
    bin_dir = tmp_path / "mine"
    _script(bin_dir / "node")
    npx = _script(bin_dir / "npx")
    r = resolve_command("npx", _env(home, str(bin_dir)))
    assert (r.executable, r.args_prefix) == (str(npx), ())
    assert r.runtime is not None and not r.runtime.builtin
    assert r.runtime.path == str(bin_dir / "node")
    assert r.runtime.version == "22.3.0"
    assert describe(r.runtime) == "your Node.js 22.3"
    assert where("npx", _env(home, str(bin_dir))) == f"{npx} (your Node.js 22.3)"


def test_nvm_default_alias_is_found_and_put_first_on_path(home: Path, tmp_path: Path) -> None:
    versions = home / ".nvm" / "versions" / "node"
    for v in ("v18.20.1", "v22.3.0", "v22.11.0", "v23.1.0"):
        _script(versions / v / "bin" / "node", f"#!/bin/sh\necho {v}\n")
        _script(versions / v / "bin" / "npx")
    (home / ".nvm" / "alias").mkdir()
    (home / ".nvm" / "alias" / "default").write_text("22\n")
    empty = tmp_path / "empty"
    empty.mkdir()
    r = resolve_command("npx", _env(home, str(empty)))
    chosen = versions / "v22.11.0" / "bin"
    assert r.executable == str(chosen / "npx")
    assert r.env["PATH"].split(os.pathsep)[0] == str(chosen)
    assert r.runtime is not None and r.runtime.version == "22.11.0"


def test_nvm_without_alias_takes_the_newest(home: Path, tmp_path: Path) -> None:
    versions = home / ".nvm" / "versions" / "node"
    for v in ("v9.0.0", "v20.1.0", "v18.2.0"):
        _script(versions / v / "bin" / "node", f"#!/bin/sh\necho {v}\n")
    r = resolve_command("node", _env(home, str(tmp_path)))
    assert r.executable == str(versions / "v20.1.0" / "bin" / "node")


@pytest.mark.parametrize(
    "where_",
    [".volta/bin", ".local/bin", ".cargo/bin", ".local/share/fnm/aliases/default/bin"],
)
def test_user_folders_gui_apps_miss(home: Path, tmp_path: Path, where_: str) -> None:
    uv = _script(home / where_ / "uv", "#!/bin/sh\necho uv 0.5.1\n")
    _script(home / where_ / "uvx")
    r = resolve_command("uvx", _env(home, str(tmp_path)))
    assert r.executable == str(home / where_ / "uvx")
    assert r.runtime is not None and r.runtime.path == str(uv) and r.runtime.version == "0.5.1"
    assert describe(r.runtime) == "your uv 0.5"


def test_homebrew_folders_are_searched(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    brew = tmp_path / "opt-homebrew-bin"
    _script(brew / "node")
    monkeypatch.setattr(search_path, "HOMEBREW_DIRS", (str(brew),))
    r = resolve_command("node", _env(home, str(tmp_path / "nothing")))
    assert r.executable == str(brew / "node")


def test_login_shell_path_on_macos(home: Path, tmp_path: Path) -> None:
    """The login shell is asked once (markers keep a chatty profile out), then cached."""
    count = tmp_path / "count"
    shell = _script(
        tmp_path / "fake-zsh",
        f"#!/bin/sh\necho hi there\necho x >> {count}\n"
        'printf "%s" "__MCP_DESK_PATH__/opt/a:/opt/b__MCP_DESK_PATH__"\n',
    )
    search_path.forget_login_shell()
    env = {**_env(home, "/usr/bin"), "SHELL": str(shell)}
    assert search_path.login_shell_path(env, "darwin") == ["/opt/a", "/opt/b"]
    assert search_path.login_shell_path(env, "darwin") == ["/opt/a", "/opt/b"]
    assert count.read_text().count("x") == 1
    assert search_path.login_shell_path(env, "linux") == []
    search_path.forget_login_shell()


def test_other_commands_are_unchanged(home: Path, tmp_path: Path) -> None:
    tool = _script(tmp_path / "bin" / "my-server")
    assert resolve_command("my-server", _env(home, str(tmp_path / "bin"))).executable == str(tool)
    assert resolve_command("my-server", _env(home, str(tmp_path / "bin"))).runtime is None
    with pytest.raises(CommandNotFound):
        resolve_command("my-server", _env(home, str(tmp_path)))
    # Another command found only in ~/.local/bin stays not found: only runtimes are searched for.
    _script(home / ".local" / "bin" / "other-server")
    with pytest.raises(CommandNotFound):
        resolve_command("other-server", _env(home, str(tmp_path)))
    with pytest.raises(CommandNotFound):
        resolve_command(str(tmp_path / "missing" / "npx"), _env(home, str(tmp_path)))


def test_runtime_for_entry_and_commands(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.config.model import ServerEntry

    monkeypatch.setenv("PATH", str(tmp_path))
    entry = ServerEntry(name="mem", command="npx", args=["-y", "@modelcontextprotocol/server-memory"])
    runtime = runtime_for(entry)
    assert runtime is not None and runtime.builtin and runtime.kind == "node"
    assert runtime_for("uvx") is not None
    assert runtime_for("python3") is None
    assert runtime_for(ServerEntry(name="web", transport="http", url="https://example.com/mcp")) is None
    assert node_command() == [private_node().node]  # type: ignore[union-attr]
    assert uv_command() == [private_uv().uv]  # type: ignore[union-attr]


def test_network_settings_reach_package_managers(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.example:3128")
    monkeypatch.setenv("NODE_EXTRA_CA_CERTS", "/etc/company-ca.pem")
    r = resolve_command("npx", _env(home, str(tmp_path)))
    assert r.env["HTTPS_PROXY"] == "http://proxy.example:3128"
    assert r.env["NODE_EXTRA_CA_CERTS"] == "/etc/company-ca.pem"
    # The entry's own value wins; other programs get nothing added.
    r = resolve_command("uvx", {**_env(home, str(tmp_path)), "HTTPS_PROXY": "http://other:1"})
    assert r.env["HTTPS_PROXY"] == "http://other:1"
    tool = _script(tmp_path / "server")
    assert "HTTPS_PROXY" not in resolve_command(str(tool), _env(home, str(tmp_path))).env


def test_starting_does_not_ask_the_version(home: Path, tmp_path: Path) -> None:
    # The engine's resolve (app.mcp.process.resolve_command) does not run `node --version`
    # before every server start; the doctor and the screens still ask.
    bin_dir = tmp_path / "mine"
    asked = tmp_path / "asked"
    _script(bin_dir / "node", f"#!/bin/sh\n: > {asked}\necho v22.3.0\n")
    npx = _script(bin_dir / "npx")
    quiet = resolve_command("npx", _env(home, str(bin_dir)), ask_version=False)
    assert (quiet.executable, quiet.args_prefix) == (str(npx), ())
    assert quiet.runtime is not None and quiet.runtime.path == str(bin_dir / "node")
    assert quiet.runtime.version is None and not asked.exists()
    assert resolve_command("npx", _env(home, str(bin_dir))).runtime.version == "22.3.0"  # type: ignore[union-attr]
    assert asked.exists()


def test_the_engine_starts_without_asking(home: Path, tmp_path: Path) -> None:
    import anyio

    from app.mcp import process

    bin_dir = tmp_path / "mine"
    asked = tmp_path / "asked"
    node = _script(bin_dir / "node", f"#!/bin/sh\n: > {asked}\necho v22.3.0\n")
    env = _env(home, str(bin_dir))
    resolved = anyio.run(process.resolve_command, "node", env)
    assert resolved.executable == str(node)
    assert not asked.exists()
    assert process.find_command("node", env).runtime.version == "22.3.0"  # type: ignore[union-attr]


def test_the_module_that_starts_servers_does_not_import_package_metadata() -> None:
    # The CLI imports app.mcp.process (and with it app.runtimes) before it starts a server's
    # process: importlib.metadata (~8 ms) is imported only when a built-in runtime's version is.
    import subprocess
    import sys

    code = (
        "import sys, app.mcp.process\n"
        "print('importlib.metadata' in sys.modules)\n"
        "from app.runtimes.private import private_node\n"
        "private_node()\n"
        "print('importlib.metadata' in sys.modules)\n"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=root)
    assert done.stdout.split() == ["False", "True"], done.stderr
