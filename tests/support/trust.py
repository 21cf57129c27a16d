"""Approving servers in tests, as the person would have done before the test started.

The trust gate (`app.config.trust`) keeps every local command from running until it is allowed.
A test that writes a server list and then starts its servers means them approved: these helpers
write the same approval the app writes when the person presses Allow (a fingerprint of the
entry, in `settings.json`), and nothing else.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from app.config.model import ServerEntry
from app.config.trust import fingerprint, is_app_own


def approvals_for(servers: dict[str, Any]) -> dict[str, str]:
    """name → the approval of each stdio entry in an `mcpServers` object (as JSON)."""
    out: dict[str, str] = {}
    for name, raw in servers.items():
        if not isinstance(raw, dict):
            continue
        try:
            entry = ServerEntry.from_json(name, raw)
        except ValueError:
            continue  # a malformed entry a test writes on purpose: the app refuses it anyway
        fp = fingerprint(entry)
        if fp is not None and not is_app_own(entry):  # the demo needs no approval
            out[name] = fp
    return out


def write_approvals(config_dir: Path, approvals: dict[str, str]) -> None:
    """Merge approvals into `config_dir/settings.json` (atomically: a window may be watching)."""
    if not approvals:
        return
    path = config_dir / "settings.json"
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        data = {"version": 1}
    servers = data.setdefault("servers", {})
    for name, fp in approvals.items():
        servers.setdefault(name, {})["approved_launch"] = fp
    tmp = path.with_name(path.name + ".approving")
    tmp.write_text(json.dumps(data, indent=2), encoding="utf-8")
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)


def approve_servers(config_dir: Path, names: Iterable[str] | None = None) -> list[str]:
    """Approve the stdio servers in `config_dir/servers.json` (all, or `names`); returns them."""
    path = config_dir / "servers.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        return []
    servers = data.get("mcpServers") if isinstance(data, dict) else None
    if not isinstance(servers, dict):
        return []
    wanted = set(names) if names is not None else None
    approvals = {n: fp for n, fp in approvals_for(servers).items() if wanted is None or n in wanted}
    write_approvals(config_dir, approvals)
    return sorted(approvals)


def write_approved_servers(config_dir: Path, servers: dict[str, Any], **top: Any) -> None:
    """Write `servers.json` with these servers, approved. The approvals go first, so a window
    following the folder never sees the servers without them."""
    write_approvals(config_dir, approvals_for(servers))
    (config_dir / "servers.json").write_text(json.dumps({**top, "mcpServers": servers}), encoding="utf-8")


def allow_when_asked(window: Any) -> None:
    """Press Allow on every trust prompt `window` opens from now on, as the person would (for
    tests that add servers while the window runs and mean them to start)."""
    from PySide6.QtCore import QTimer

    prompter = window.trust_prompter

    def asked(_server: str) -> None:
        dialog = prompter.dialog

        def allow() -> None:
            from shiboken6 import isValid

            # Still open: not answered, and not gone with its window (a test that just ended).
            if dialog is not None and prompter.dialog is dialog and isValid(dialog.allow_button):
                dialog.allow_button.click()

        QTimer.singleShot(0, allow)

    prompter.asked.connect(asked)


# A real MCP server (tests/mcp/sdk_server.py) that first touches a file: the proof that it ran.
_MARKING = (
    "import pathlib, runpy, sys; pathlib.Path(sys.argv[1]).touch(); sys.argv = sys.argv[2:]; "
    "runpy.run_path(sys.argv[0], run_name='__main__')"
)


def marking_server(marker: Path, *extra_args: str) -> dict[str, Any]:
    """An `mcpServers` entry whose process creates `marker` when it starts, then serves MCP."""
    import sys

    server = Path(__file__).resolve().parents[1] / "mcp" / "sdk_server.py"
    return {"command": sys.executable, "args": ["-c", _MARKING, str(marker), str(server), *extra_args]}
