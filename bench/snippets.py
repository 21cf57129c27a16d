"""The import table: README config snippets of popular servers, how many import, how many start.

    .venv/bin/python bench/snippets.py                  # import only (fast)
    .venv/bin/python bench/snippets.py --start          # also start each stdio server for real
    PYTHONPATH=/work/main .venv/bin/python bench/snippets.py --importer legacy   # main's code

The snippets are `tests/fixtures/snippets/<server>/NN.txt`, taken verbatim from each package's
README (SOURCES.md says which). Per server the table gives: snippets found; imported (at least one
entry with a command or URL, no problem; the "legacy" importer is main's before app.config.snippets:
the CLI's `import FILE` and the Paste box's own parser, either one counting); how many of those
ask for example values; and with `--start`, how many of the snippets with local (stdio) entries
start (each of their entries answers `initialize`), and of the distinct stdio launches, how many
answer `initialize` within the time limit when run with dummy values for the asked keys (the command
resolved through app.runtimes when that package is there, else the PATH). Remote entries are only
checked to have a well-formed http(s) URL (a local proxy such as `npx mcp-remote URL` counts as
remote): this machine reaches no host but the package registries, so they are not contacted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
SNIPPETS = ROOT / "tests" / "fixtures" / "snippets"
DUMMY = "dummy-value-0123456789"


@dataclass
class Row:
    server: str
    found: int = 0
    imported: int = 0
    asking: int = 0
    failures: list[str] = field(default_factory=list)
    launches: set[tuple[str, ...]] = field(default_factory=set)
    remote_ok: int = 0
    remote: int = 0
    started: int = 0
    snippet_launches: list[set[tuple[str, ...]]] = field(default_factory=list)
    """Per imported snippet with stdio entries: the launches it needs (it starts if all do)."""
    snippets_started: int = 0
    start_notes: list[str] = field(default_factory=list)


# -- importers ------------------------------------------------------------------------------------


def legacy_entries(text: str) -> list[Any]:
    """Entries main's code gets from `text`: `servers import FILE`, else the Paste box's parser."""
    from app.config.importing import read_import_file
    from app.config.model import ServerEntry

    entries: list[Any] = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "snippet.json"
        path.write_text(text, encoding="utf-8")
        try:
            entries = [s.entry for s in read_import_file(path, environ={}).servers]
        except Exception:
            entries = []
    if any(not e.problem for e in entries):
        return entries
    try:
        from app.ui.server_dialog import parse_snippet  # type: ignore[attr-defined]
    except ImportError:
        return entries
    try:
        return [ServerEntry.from_json(n, raw, normalise=True) for n, raw in parse_snippet(text).items()]
    except Exception:
        return entries


def current_plans(text: str) -> list[Any]:
    from app.config.snippets import read_snippet

    return read_snippet(text, environ={}).plans


# -- starting --------------------------------------------------------------------------------------


def dummy_answers(plan: Any, folder: str) -> dict[str, Any]:
    return {q.key: folder if q.kind in ("directory", "file") else DUMMY for q in plan.questions}


def resolve(command: str, env: dict[str, str]) -> tuple[list[str], dict[str, str], str]:
    """(argv prefix, env, how it was found) for `command`, through app.runtimes when it exists
    (main's code before it: the PATH)."""
    try:
        from app.runtimes import resolve_command
    except ImportError:  # main's code, measured for "before"
        found = shutil.which(command, path=env.get("PATH"))
        if found is None:
            raise LookupError(f"command not found: {command}") from None
        return [found], env, "PATH"
    resolved = resolve_command(command, env)
    how = "runtimes" if resolved.runtime is None else f"runtimes ({resolved.runtime.kind})"
    return [resolved.executable, *resolved.args_prefix], dict(resolved.env), how


async def answers_initialize(argv: list[str], env: dict[str, str], cwd: str, limit: float) -> str | None:
    """None when the server answered `initialize` within `limit` seconds, else why not."""
    request = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "mcp-desk-bench", "version": "0"},
        },
    }
    try:
        proc = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=env,
            cwd=cwd,
            start_new_session=True,
        )
    except OSError as exc:
        return f"cannot start: {exc}"
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdin.write((json.dumps(request) + "\n").encode())
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        await proc.stdin.drain()

    async def read_answer() -> str | None:
        assert proc.stdout is not None
        while True:
            line = await proc.stdout.readline()
            if not line:
                return "exited before answering"
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if isinstance(msg, dict) and msg.get("id") == 1:
                return None if "result" in msg else f"error: {msg.get('error')}"

    try:
        outcome = await asyncio.wait_for(read_answer(), limit)
    except TimeoutError:
        outcome = f"no answer in {limit:.0f} s"
    finally:
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, 9)
        await proc.wait()
    if outcome is not None:
        err = (await proc.stderr.read())[-2000:].decode(errors="replace").strip().splitlines()
        if err:
            outcome += f" ({err[-1][:160]})"
    return outcome


async def start_all(
    launches: dict[tuple[str, ...], Any], limit: float, parallel: int
) -> dict[tuple[str, ...], str | None]:
    sem = asyncio.Semaphore(parallel)
    out: dict[tuple[str, ...], str | None] = {}

    async def one(key: tuple[str, ...], entry: Any, folder: str) -> None:
        async with sem:
            from app.config.refs import SECRET_REF

            def dummy(text: str) -> str:  # a key reference: a dummy key (nothing is stored)
                return SECRET_REF.sub(DUMMY, text)

            env = {**os.environ, **{k: dummy(v) for k, v in entry.env.items()}}
            args = [dummy(a) for a in entry.args]
            try:
                argv, env, _how = resolve(entry.command, env)
            except Exception as exc:
                out[key] = str(exc).splitlines()[0]
                return
            started = time.monotonic()
            out[key] = await answers_initialize([*argv, *args], env, folder, limit)
            mark = "ok " if out[key] is None else "NO "
            print(
                f"  {mark} {time.monotonic() - started:5.1f}s  {' '.join(key)[:100]}"
                + ("" if out[key] is None else f"  — {out[key]}"),
                file=sys.stderr,
            )

    await asyncio.gather(*(one(k, e, f) for k, (e, f) in launches.items()))
    return out


# -- the table -------------------------------------------------------------------------------------


def measure(
    importer: str, start: bool, limit: float, parallel: int, only: Callable[[str], bool]
) -> list[Row]:
    rows: list[Row] = []
    launches: dict[tuple[str, ...], Any] = {}
    folder = tempfile.mkdtemp(prefix="mcp-desk-bench-")
    # The dummy folder is a git repository, so a git server given it as --repository can start.
    import subprocess

    subprocess.run(["git", "init", "-q", folder], check=False)
    by_launch: dict[tuple[str, ...], list[Row]] = {}
    for server_dir in sorted(p for p in SNIPPETS.iterdir() if p.is_dir() and only(p.name)):
        row = Row(server_dir.name)
        rows.append(row)
        for snippet in sorted(server_dir.glob("*.txt")):
            row.found += 1
            text = snippet.read_text(encoding="utf-8")
            if importer == "legacy":
                entries = [e for e in legacy_entries(text) if not e.problem]
                if entries:
                    row.imported += 1
                else:
                    row.failures.append(snippet.name)
                continue
            try:
                plans = [p for p in current_plans(text) if not p.entry.problem]
            except Exception as exc:
                plans = []
                row.failures.append(f"{snippet.name}: {exc}")
            if not plans:
                if not row.failures or not row.failures[-1].startswith(snippet.name):
                    row.failures.append(snippet.name)
                continue
            row.imported += 1
            row.asking += any(p.questions for p in plans)
            if not start:
                continue
            from app.install.plan import apply

            needs: set[tuple[str, ...]] = set()
            for plan in plans:
                entry = apply(plan, dummy_answers(plan, folder)).entry
                if entry.transport == "stdio" and any(
                    a.startswith(("http://", "https://")) for a in entry.args
                ):
                    # A local proxy to a remote server (mcp-remote URL): it would reach the internet.
                    row.remote += 1
                    row.remote_ok += any(_url_ok(a) for a in entry.args)
                    continue
                if entry.transport == "stdio":
                    key = (entry.command or "", *entry.args)
                    launches.setdefault(key, (entry, folder))
                    by_launch.setdefault(key, [])
                    if row not in by_launch[key]:
                        by_launch[key].append(row)
                    row.launches.add(key)
                    needs.add(key)
                else:
                    row.remote += 1
                    row.remote_ok += _url_ok(entry.url or "")
            if needs:
                row.snippet_launches.append(needs)
    if start and launches:
        print(
            f"starting {len(launches)} distinct stdio launches, {limit:.0f} s each at most:", file=sys.stderr
        )
        results = asyncio.run(start_all(launches, limit, parallel))
        for key, outcome in results.items():
            for row in by_launch[key]:
                if outcome is None:
                    row.started += 1
                else:
                    row.start_notes.append(f"{' '.join(key)[:80]}: {outcome[:120]}")
        for row in rows:
            row.snippets_started = sum(
                all(results.get(k, "") is None for k in n) for n in row.snippet_launches
            )
    return rows


def _url_ok(url: str) -> bool:
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.hostname)


def print_table(rows: list[Row], importer: str, start: bool) -> None:
    head = "| server | snippets | imported | ask for example values |"
    line = "|---|---:|---:|---:|"
    if start:
        head += " local snippets | they start | distinct launches | start | remote (URL ok) |"
        line += "---:|---:|---:|---:|---:|"
    import app

    print(f"importer: {importer} (code in {Path(app.__file__).parent})\n")
    print(head)
    print(line)
    total = Row("total")
    for r in rows:
        cells = f"| {r.server} | {r.found} | {r.imported} | {r.asking} |"
        if start:
            cells += f" {len(r.snippet_launches)} | {r.snippets_started} | {len(r.launches)} | {r.started} |"
            cells += f" {r.remote} ({r.remote_ok}) |"
        print(cells)
        total.found += r.found
        total.imported += r.imported
        total.asking += r.asking
        total.started += r.started
        total.remote += r.remote
        total.remote_ok += r.remote_ok
        total.launches |= r.launches
        total.snippet_launches += r.snippet_launches
        total.snippets_started += r.snippets_started
    cells = f"| **total** | {total.found} | {total.imported} | {total.asking} |"
    if start:
        cells += f" {len(total.snippet_launches)} | {total.snippets_started} |"
        cells += (
            f" {sum(len(r.launches) for r in rows)} | {total.started} | {total.remote} ({total.remote_ok}) |"
        )
    print(cells)
    failures = [(r.server, f) for r in rows for f in r.failures]
    if failures:
        print("\nnot imported:")
        for server, f in failures:
            print(f"- {server}/{f}")
    notes = [(r.server, n) for r in rows for n in r.start_notes]
    if notes:
        print("\ndid not start:")
        for server, n in notes:
            print(f"- {server}: {n}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--importer", choices=("current", "legacy"), default="current")
    parser.add_argument("--start", action="store_true", help="start every distinct stdio launch for real")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds a server has to answer")
    parser.add_argument("--parallel", type=int, default=2)
    parser.add_argument("--only", nargs="*", help="server folders to measure (default: all)")
    args = parser.parse_args()
    chosen = set(args.only or [])
    rows = measure(args.importer, args.start, args.limit, args.parallel, lambda n: not chosen or n in chosen)
    print_table(rows, args.importer, args.start)


if __name__ == "__main__":
    main()
