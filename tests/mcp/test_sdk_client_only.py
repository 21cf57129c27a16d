"""The SDK imported as a client only (app/mcp/sdk_client_only.py): the CLI's import without the
SDK's server package. Each test runs a fresh interpreter: what it imports is its own, and this
test process keeps the whole SDK (other tests serve in-process)."""

from __future__ import annotations

import ast
import importlib.util
import json
import shlex
import subprocess
import sys
from pathlib import Path

from app.mcp import sdk_client_only
from tests.mcp.conftest import SDK_SERVER
from tests.servers.harness import STDIO_FAULT
from tests.servers.process import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
HEALTHY = (sys.executable, str(STDIO_FAULT), "healthy")


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)


def _last_json(done: subprocess.CompletedProcess[str]) -> object:
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def _server_imports_of_the_client() -> dict[str, set[str]]:
    """Every `from <mcp.server...> import NAME` in the SDK's modules that are not its server side
    (at any depth: an import inside a function counts too), by module imported from."""
    spec = importlib.util.find_spec("mcp")
    assert spec is not None and spec.submodule_search_locations
    package = Path(next(iter(spec.submodule_search_locations)))
    found: dict[str, set[str]] = {}
    for path in sorted(package.rglob("*.py")):
        module = ".".join(path.relative_to(package.parent).with_suffix("").parts).removesuffix(".__init__")
        if module in ("mcp.server", "mcp.cli") or module.startswith(("mcp.server.", "mcp.cli.")):
            continue  # the server side itself, and the SDK's `mcp` command line tool (it serves)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
                assert not [n for n in names if n.startswith("mcp.server")], f"{module} imports {names}"
            if not isinstance(node, ast.ImportFrom):
                continue
            target = node.module or ""
            if node.level:  # relative: from the module's package, up level - 1
                base = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            if target == "mcp.server" or target.startswith("mcp.server."):
                found.setdefault(target, set()).update(alias.name for alias in node.names)
    return found


def test_the_stand_ins_are_exactly_what_the_tested_sdks_client_imports() -> None:
    """The canary: an SDK whose client imports another server name (or no longer one of these)
    fails here by name. At run time such an SDK is imported whole, as without the stand-ins."""
    wanted = {module: set(names) for module, names in sdk_client_only.STAND_INS.items()}
    assert _server_imports_of_the_client() == wanted


def _echo_over_stdio(prelude: str, report: str, *, traffic: bool = False) -> str:
    """The code of a fresh interpreter that runs `prelude` (the SDK's import), connects to the
    healthy fault server over stdio, calls echo (`state` and `text`), then runs `report`."""
    return (
        "import asyncio, json, sys\n"
        f"{prelude}"
        "from app.mcp.connection import ServerConnection\n"
        "from app.mcp.target import Target\n"
        f"t = Target(name='f', transport='stdio', command={HEALTHY[0]!r}, args={HEALTHY[1:]!r})\n"
        "async def main():\n"
        f"    conn = ServerConnection(t, traffic={traffic!r})\n"
        "    conn.start()\n"
        "    state = await conn.wait_settled(60)\n"
        "    text = (await conn.call_tool('echo', {'message': 'hi'})).text()\n"
        "    await conn.stop()\n"
        "    return state.value, text\n"
        "state, text = asyncio.run(main())\n"
        f"{report}"
    )


def test_a_command_process_calls_a_real_server_without_the_server_package() -> None:
    code = _echo_over_stdio(
        "from app.mcp.sdk_client_only import import_client_only, is_client_only\n"
        "first = import_client_only()\n",
        "real = sorted(m for m, v in sys.modules.items()\n"
        "              if m.startswith('mcp.server') and getattr(v, '__file__', None))\n"
        "print(json.dumps({'first': first, 'again': import_client_only(), 'client_only': is_client_only(),\n"
        "                  'state': state, 'text': text, 'real_server_modules': real,\n"
        "                  'starlette': 'starlette' in sys.modules}))\n",
    )
    assert _last_json(_python(code)) == {
        "first": True,
        "again": True,
        "client_only": True,
        "state": "ready",
        "text": "Echo: hi",
        "real_server_modules": [],
        "starlette": False,
    }


def test_a_stdio_only_process_never_imports_the_http_client() -> None:
    # Also the canary of LATER: an SDK whose client imports another name of those modules loads
    # the real one through the forwarders' __getattr__, and httpx2 with it.
    code = _echo_over_stdio(
        "from app.mcp.sdk_client_only import deferred, import_client_only\n"
        "first = import_client_only(http=False)\n",
        "print(json.dumps({'first': first, 'state': state, 'text': text, 'deferred': deferred(),\n"
        "                  'httpx2': 'httpx2' in sys.modules}))\n",
        traffic=True,
    )
    assert _last_json(_python(code)) == {
        "first": True,
        "state": "ready",
        "text": "Echo: hi",
        "deferred": sorted(sdk_client_only.LATER, key=list(sdk_client_only.LATER).index),
        "httpx2": False,
    }


def test_a_command_builds_only_the_wire_models_its_session_uses() -> None:
    # Also the canary of WIRE_BASE: an SDK whose wire models no longer share that base (or whose
    # base sets defer_build itself) has none deferred, and fails here.
    code = _echo_over_stdio(
        "from app.mcp.sdk_client_only import import_client_only, wire_models_deferred\n"
        "import_client_only(http=False)\n"
        "before = wire_models_deferred()\n",
        "import mcp_types._wire_base as base, mcp_types.methods as methods\n"
        "after_call = wire_models_deferred()\n"
        "rows = methods.SERVER_RESULTS.values()\n"
        "wire = {f'{t.__module__}.{t.__name__}' for t in rows if isinstance(t, type)}\n"
        "note = methods.parse_server_notification(\n"
        "    'notifications/message', '2025-11-25', {'level': 'info', 'data': 'hello'})\n"
        "built = sorted(set(after_call) - set(wire_models_deferred()))\n"
        "print(json.dumps({'state': state, 'text': text, 'before': len(before),\n"
        "                  'all_results_deferred': wire <= set(before),\n"
        "                  'built_by_the_session': len(before) - len(after_call),\n"
        "                  'note': [type(note).__name__, note.params.data], 'built_by_the_note': built,\n"
        "                  'base_config': base.WireModel.model_config}))\n",
    )
    found = _last_json(_python(code))
    assert isinstance(found, dict)
    assert found.pop("before") > 250  # about 300: both eras' models, none built by the import
    # The engine reads its answers itself (app.mcp.calls): a call needs none of them.
    assert found.pop("built_by_the_session") < 40
    assert found == {
        "state": "ready",
        "text": "Echo: hi",
        "all_results_deferred": True,
        # A server's log message, checked against its era's shape: that model is built then.
        "note": ["LoggingMessageNotification", "hello"],
        "built_by_the_note": ["mcp_types._v2025_11_25.LoggingMessageNotification"],
        "base_config": {"populate_by_name": True},  # the SDK's base is left as it was
    }


def test_the_window_engine_defers_them_and_an_sdk_imported_whole_builds_them() -> None:
    done = _python(
        "import json\n"
        "from app.ui.controller import _import_engine\n"
        "from app.mcp.sdk_client_only import wire_models_deferred\n"
        "_import_engine()  # what the window runs on its worker thread\n"
        "print(json.dumps(len(wire_models_deferred())))\n"
    )
    assert _last_json(done) > 250
    whole = _python(
        "import json\n"
        "import mcp, app.mcp.connection\n"
        "from app.mcp.sdk_client_only import wire_models_deferred\n"
        "print(json.dumps(wire_models_deferred()))\n"
    )
    assert _last_json(whole) == []


def test_the_http_client_left_for_later_works_when_first_used() -> None:
    with ServerProcess([sys.executable, str(SDK_SERVER), "--http"]) as server:
        host, port = server.wait_listening(30)
        code = (
            "import asyncio, json, sys\n"
            "from app.mcp.sdk_client_only import deferred, import_client_only\n"
            "assert import_client_only(http=False)\n"
            "import mcp\n"
            "from app.mcp.connection import ServerConnection\n"
            "from app.mcp.target import Target\n"
            f"t = Target(name='web', transport='http', url='http://{host}:{port}/mcp', mode='legacy')\n"
            "async def main():\n"
            "    conn = ServerConnection(t, traffic=False)\n"
            "    conn.start()\n"
            "    state = await conn.wait_settled(60)\n"
            "    text = (await conn.call_tool('echo', {'text': 'over http'})).text()\n"
            "    await conn.stop()\n"
            "    return state.value, text\n"
            "before = deferred()\n"
            "state, text = asyncio.run(main())\n"
            "after = deferred()\n"
            "group = mcp.ClientSessionGroup()\n"
            "import mcp.client.streamable_http as real\n"
            "print(json.dumps({'before': before, 'state': state, 'text': text, 'after': after,\n"
            "                  'group': type(group).__module__, 'left': deferred(),\n"
            "                  'real': bool(getattr(real, '__file__', None))}))\n"
        )
        assert _last_json(_python(code)) == {
            "before": ["mcp.client.streamable_http", "mcp.client.session_group"],
            "state": "ready",
            "text": "echo: over http",
            "after": ["mcp.client.session_group"],
            "group": "mcp.client.session_group",
            "left": [],
            "real": True,
        }


def test_a_stand_in_refuses_to_serve_and_the_rest_of_the_server_side_is_not_there() -> None:
    code = (
        "import json\n"
        "from app.mcp.sdk_client_only import ServerSideNotLoaded, import_client_only\n"
        "assert import_client_only()\n"
        "import mcp, mcp.server\n"
        "out = {'an_object_is_a_server': isinstance(object(), mcp.server.Server), 'refused': []}\n"
        "for make in (lambda: mcp.server.Server('x'), lambda: mcp.stdio_server()):\n"
        "    try:\n"
        "        make()\n"
        "        out['served'] = True\n"
        "    except ServerSideNotLoaded as exc:\n"
        "        out['refused'].append(str(exc).split(' ')[0])\n"
        "try:\n"
        "    import mcp.server.lowlevel\n"
        "except ModuleNotFoundError:\n"
        "    out['lowlevel'] = 'not found'\n"
        "try:\n"
        "    from mcp.server import FastMCP\n"
        "except ImportError:\n"
        "    out['another_name'] = 'not importable'\n"
        "print(json.dumps(out))\n"
    )
    assert _last_json(_python(code)) == {
        "an_object_is_a_server": False,
        "refused": ["mcp.server.Server", "mcp.server.stdio.stdio_server"],
        "lowlevel": "not found",
        "another_name": "not importable",
    }


def test_an_sdk_that_needs_more_of_its_server_side_is_imported_whole() -> None:
    # As an SDK whose client imports a server name the stand-ins lack: the import falls back.
    code = (
        "import json, sys\n"
        "from app.mcp import sdk_client_only as c\n"
        "c.STAND_INS['mcp.server.mcpserver'] = ()\n"
        "done = c.import_client_only()\n"
        "import mcp\n"
        "from mcp.server.mcpserver import MCPServer\n"
        "real = bool(getattr(sys.modules['mcp.server'], '__file__', None))\n"
        "print(json.dumps({'done': done, 'client_only': c.is_client_only(), 'real': real,\n"
        "                  'Client': hasattr(mcp, 'Client')}))\n"
    )
    assert _last_json(_python(code)) == {"done": False, "client_only": False, "real": True, "Client": True}


def test_an_untested_sdk_version_and_an_sdk_imported_already_are_left_whole() -> None:
    code = (
        "import json, sys\n"
        "from app.mcp import sdk_client_only as c\n"
        "c.TESTED_SDK = '0.9'\n"
        "untested = c.import_client_only()\n"
        "loaded = 'mcp' in sys.modules\n"
        "c.TESTED_SDK = '2.3'\n"
        "import mcp\n"
        "again = c.import_client_only()\n"
        "print(json.dumps({'untested': untested, 'loaded': loaded,\n"
        "                  'after_a_whole_import': again, 'client_only': c.is_client_only()}))\n"
    )
    assert _last_json(_python(code)) == {
        "untested": False,
        "loaded": False,
        "after_a_whole_import": False,
        "client_only": False,
    }


def test_the_cli_connects_with_the_sdk_as_a_client_only(tmp_path: Path) -> None:
    code = (
        "import json\n"
        "from app.__main__ import main\n"
        f"code = main(['--config-dir', {str(tmp_path)!r}, 'tools', '--stdio', {shlex.join(HEALTHY)!r}])\n"
        "import sys\n"
        "from app.mcp.sdk_client_only import is_client_only\n"
        "out = {'code': code, 'client_only': is_client_only(), 'httpx2': 'httpx2' in sys.modules}\n"
        "print(json.dumps(out))\n"
    )
    done = _python(code)
    assert done.stdout.startswith("echo"), done.stderr
    # A stdio server: the SDK's HTTP client (and httpx2) is not imported either.
    assert _last_json(done) == {"code": 0, "client_only": True, "httpx2": False}


def test_the_installed_version_is_read_without_importing_the_sdk() -> None:
    import importlib.metadata

    code = (
        "import json, sys\n"
        "from app.mcp.sdk_client_only import installed_sdk\n"
        "print(json.dumps({'version': installed_sdk(), 'imported': 'mcp' in sys.modules}))\n"
    )
    assert _last_json(_python(code)) == {"version": importlib.metadata.version("mcp"), "imported": False}
