"""The npm test set-up: installing is idempotent and quick once done, and server-everything over
HTTP listens on 127.0.0.1 only (the bind-localhost preload), on the port it reports."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.servers.fixtures import *  # noqa: F403
from tests.servers.node import SETUP_SCRIPT

pytestmark = pytest.mark.node


def listening_addresses(port: int) -> set[str]:
    """Local addresses of the TCP sockets in LISTEN state on `port`, from /proc/net/tcp{,6}."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            local, _, state = line.split()[1:4]
            address, port_hex = local.split(":")
            if state == "0A" and int(port_hex, 16) == port:  # 0A: LISTEN
                if len(address) == 8:  # IPv4, little-endian
                    found.add(".".join(str(int(address[i : i + 2], 16)) for i in (6, 4, 2, 0)))
                else:
                    found.add(f"ipv6:{address}")
    return found


def test_setup_is_quick_when_done(node22_path: Path) -> None:
    started = time.monotonic()
    done = subprocess.run(["bash", str(SETUP_SCRIPT)], capture_output=True, text=True, timeout=60, check=True)
    assert time.monotonic() - started < 5.0
    assert done.stdout.strip().splitlines()[-1] == str(node22_path)
    version = subprocess.run([str(node22_path), "--version"], capture_output=True, text=True, check=True)
    assert version.stdout.startswith("v22.")


@pytest.mark.parametrize("transport", ["everything_http", "everything_sse"])
def test_everything_listens_on_localhost_only(transport: str, request: pytest.FixtureRequest) -> None:
    server: Any = request.getfixturevalue(transport)
    port = int(server.url.split(":")[2].split("/")[0])
    assert listening_addresses(port) == {"127.0.0.1"}
