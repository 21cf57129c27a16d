"""`mcp-desk doctor TARGET`: a step-by-step diagnosis a person can follow.

stdio: is the command there (app.mcp.process, as the engine and the Add dialog look it up), does
the process start, does it exit (with what code, what stderr), does it print non-protocol text on
stdout, does it answer the handshake and with which protocol version. These steps are read from
one connection of the engine's (its process record and its traffic tap): the doctor is no second
stdio client, so what it finds is what the app meets. HTTP/SSE: name resolution, TCP connect,
TLS, HTTP status, `WWW-Authenticate`, content type, protocol version, spoken raw on purpose (the
engine hides what went wrong behind one sentence, the doctor shows each layer). Every step prints
OK, or the first failure with advice; the last connects through the engine, as the app would.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import socket
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

from app.cli.main import EXIT_FAILURE, EXIT_OK
from app.cli.remote import add_target_arguments, import_engine, resolve_target, safe

if TYPE_CHECKING:
    from app.mcp.target import Target

Status = Literal["ok", "warn", "fail", "info"]
MARKS: dict[Status, str] = {"ok": "[ ok ]", "warn": "[warn]", "fail": "[FAIL]", "info": "[info]"}
PROBE_VERSION = "2025-11-25"
STDERR_TAIL = 8
DEFAULT_DOCTOR_TIMEOUT = 20.0
HANDSHAKE_REFUSED = "the server refused the handshake: check its version and settings"

# What a stderr line usually means, and what to do about it (first match wins).
STDERR_ADVICE: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(r"ModuleNotFoundError|No module named|Cannot find module|ERR_MODULE_NOT_FOUND"),
        "a package the server needs is not installed: install the server's dependencies",
    ),
    (
        re.compile(r"E404|404 Not Found|is not in this registry|No matching distribution", re.I),
        "the package name is wrong or does not exist: check it against the server's README",
    ),
    (
        re.compile(r"api[_ -]?key|token|unauthori[sz]ed|credential|password|not set", re.I),
        "the server wants a credential: set it with `mcp-desk secrets set SERVER NAME` and reference it "
        "as ${secret:NAME} in the server's env",
    ),
    (
        re.compile(r"EADDRINUSE|address already in use", re.I),
        "a port the server wants is taken by another program",
    ),
    (re.compile(r"permission denied|EACCES", re.I), "the server may not read or run a file it needs"),
    (
        re.compile(r"SyntaxError|Unsupported engine|requires node", re.I),
        "the server needs a newer Node or Python",
    ),
)


class DoctorCancelled(Exception):
    """The person cancelled the diagnosis (the window's Cancel): raised at the next step."""


CANCEL_POLL = 0.2
"""How often a waiting step looks whether the diagnosis was cancelled."""


@dataclass
class Step:
    status: Status
    title: str
    details: list[str] = field(default_factory=list)
    advice: str | None = None


@dataclass
class Report:
    target: str
    steps: list[Step] = field(default_factory=list)
    secrets: frozenset[str] = frozenset()
    """The target's resolved secret values: masked in every step (an error may echo the URL)."""
    on_step: Callable[[Step], None] | None = None
    """Told of each step as it is added (the window lists them while the diagnosis runs)."""
    cancel: threading.Event | None = None
    """Set to stop the diagnosis: the next step raises DoctorCancelled, a wait ends early."""

    def cancelled(self) -> bool:
        return self.cancel is not None and self.cancel.is_set()

    def add(self, status: Status, title: str, *details: str, advice: str | None = None) -> Step:
        from app.mcp.masking import mask_text

        if self.cancelled():
            raise DoctorCancelled

        def m(text: str) -> str:
            return mask_text(text, self.secrets) if self.secrets else text

        step = Step(status, m(title), [m(d) for d in details if d], m(advice) if advice else advice)
        self.steps.append(step)
        if self.on_step is not None:
            self.on_step(step)
        return step

    @property
    def failed(self) -> bool:
        return any(s.status == "fail" for s in self.steps)

    def print(self) -> None:
        print(f"Diagnosing {self.target}")
        for step in self.steps:
            print(f"{MARKS[step.status]} {safe(step.title)}")
            for line in step.details:
                print(f"       {safe(line)}")
            if step.advice:
                print(f"       advice: {safe(step.advice)}")
        if self.failed:
            print("Result: the first failure above is what to fix.")
        elif any(s.status == "warn" for s in self.steps):
            print("Result: it works, but see the warnings above.")
        else:
            print("Result: no problem found.")

    def as_json(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "ok": not self.failed,
            "steps": [
                {"status": s.status, "title": s.title, "details": s.details, "advice": s.advice}
                for s in self.steps
            ],
        }


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "doctor",
        help="diagnose a server step by step",
        description="Check a server step by step (command, process, stdout, handshake; or DNS, TCP, TLS, "
        "HTTP status, content type) and say what to fix at the first failure.",
    )
    p.add_argument("server", nargs="?", metavar="SERVER", help="a configured server's name")
    add_target_arguments(p)
    p.set_defaults(func=cmd_doctor)


def cmd_doctor(args: argparse.Namespace) -> int:
    name = args.server or args.stdio or args.url or "?"
    report = Report(name)
    try:
        target = resolve_target(args)
    except Exception as exc:
        from app.cli.main import CommandError

        if isinstance(exc, CommandError) and exc.exit_code != EXIT_FAILURE:
            raise  # a usage error
        report.add("fail", "read the server's definition", str(exc), advice=definition_advice(exc))
        return finish(report, args.json)
    if args.timeout is None:
        import dataclasses

        target = dataclasses.replace(target, timeout=min(target.timeout, DEFAULT_DOCTOR_TIMEOUT))
    run_steps(target, report)
    return finish(report, args.json)


def run_steps(target: Target, report: Report) -> None:
    """Every step for `target` into `report` (the CLI prints it; the window lists it as it goes).
    Blocking: run it in a worker thread from an event loop. DoctorCancelled when cancelled."""
    report.secrets = target.secret_values
    described = target.describe()
    report.target = described if described.startswith(target.name) else f"{target.name} ({described})"
    report.add("ok", "read the server's definition", f"transport: {target.transport}, mode: {target.mode}")
    if target.transport == "stdio":
        diagnose_stdio(target, report)  # its last step is the engine's connection itself
        return
    ok = diagnose_http(target, report)
    refused = report.steps[-1]
    if ok:
        engine_step(target, report)
    elif (
        refused.title == "answer initialize"
        and refused.advice == HANDSHAKE_REFUSED
        and engine_step(target, report)
    ):
        # A server of the stateless 2026-07-28 era may refuse the handshake and still be fine: the
        # app connects with server/discover first, so the real connection decides.
        refused.status = "info"
        refused.advice = None
        refused.details.append("it does not take the initialize handshake, but discovery works (below)")


def finish(report: Report, as_json: bool) -> int:
    if as_json:
        print(json.dumps(report.as_json(), indent=2, ensure_ascii=False))
    else:
        report.print()
    return EXIT_FAILURE if report.failed else EXIT_OK


def definition_advice(exc: Exception) -> str:
    from app.config.errors import ConfigError
    from app.secrets.errors import KeyringLockedError, KeyringUnavailableError
    from app.secrets.resolve import MissingSecretError

    if isinstance(exc, MissingSecretError):
        return "store the missing secret with `mcp-desk secrets set SERVER NAME`"
    if isinstance(exc, KeyringLockedError):
        return "unlock your keyring (log in to the desktop session), then try again"
    if isinstance(exc, KeyringUnavailableError):
        return "start your desktop's keyring (Secret Service, Keychain or Credential Manager)"
    if isinstance(exc, ConfigError):
        return "fix the file at the place the message names, or check `mcp-desk servers list`"
    return "check the server's entry with `mcp-desk servers list`"


def stderr_advice(lines: list[str]) -> str | None:
    for pattern, advice in STDERR_ADVICE:
        if any(pattern.search(line) for line in lines):
            return advice
    return None


# ------------------------------------------------------------------------------------- stdio


def child_environment(target: Target) -> dict[str, str]:
    """The environment the engine gives the server (app.mcp.process: one definition)."""
    from app.mcp.process import server_environment

    return server_environment(target.env)


def diagnose_stdio(target: Target, report: Report) -> bool:
    """The command's steps, then the process's, read from one connection of the engine's."""
    from app.mcp.process import find_command
    from app.runtimes import CommandNotFound, RuntimeMissing, describe

    command = target.command or ""
    env = child_environment(target)
    try:
        resolved = find_command(command, env, target.cwd)
    except RuntimeMissing as exc:
        report.add("fail", f"find the runtime of {command!r}", exc.reason)
        return False
    except CommandNotFound:
        advice = f"install {command!r}, or give its full path in the server's command"
        report.add("fail", f"find the command {command!r}", f"PATH: {env.get('PATH', '')}", advice=advice)
        return False
    report.add("ok", f"find the command {command!r}", " ".join([resolved.executable, *resolved.args_prefix]))
    runtime = resolved.runtime
    if runtime is not None:
        # Which Node / uv / Docker: the person's own (found where?) or MCP Desk's built-in one.
        report.add("ok", "the runtime it runs on", describe(runtime), runtime.path)
    if target.cwd and not os.path.isdir(target.cwd):
        report.add("fail", "working directory", f"{target.cwd} does not exist", advice="fix the server's cwd")
        return False
    return asyncio.run(stdio_through_engine(target, report))


@dataclass
class EngineRun:
    """What one connection of the engine's showed: its end state, what it found, and the raw
    messages of the handshake (from its traffic tap), kept after it was stopped."""

    state: Any
    reason: str | None
    elapsed: float
    process: Any
    traffic: list[Any]
    protocol: str | None = None
    server: str = "?"
    counts: str = ""
    warnings: list[str] = field(default_factory=list)

    def handshake(self) -> tuple[str, dict[str, Any], float] | None:
        """The handshake's answer: (method, the JSON-RPC answer, seconds it took); initialize's
        when it was sent (after a refused discovery too), else server/discover's."""
        asked: dict[Any, tuple[str, float]] = {}
        answers: dict[str, tuple[str, dict[str, Any], float]] = {}
        for item in self.traffic:
            message = item.message
            if item.direction == "out" and message.get("method") in ("initialize", "server/discover"):
                asked[message.get("id")] = (message["method"], item.time)
            elif (
                item.direction == "in"
                and message.get("id") in asked
                and ("result" in message or "error" in message)
            ):
                method, sent = asked[message["id"]]
                answers[method] = (method, message, item.time - sent)
        return answers.get("initialize") or answers.get("server/discover")


async def stdio_through_engine(target: Target, report: Report) -> bool:
    """Connect as the app does — the engine starts the process (app.mcp.process), so the doctor
    is no second stdio client — and turn what happened into the process's steps."""
    import_engine()
    from app.mcp.connection import ServerConnection
    from app.mcp.events import SETTLED_STATES, ConnectionState, Traffic

    traffic: list[Traffic] = []

    def sink(event: Any) -> None:
        if isinstance(event, Traffic):
            traffic.append(event)

    conn = ServerConnection(target, sink=sink, traffic=True)
    started = time.monotonic()
    conn.start()
    try:
        deadline = started + target.timeout + 5.0
        shown = False  # "start the process" is listed as soon as it runs (the window shows it)
        state = await conn.wait_settled(CANCEL_POLL)
        while True:
            if not shown and conn.process is not None and conn.process.pid is not None:
                report.add("ok", "start the process", f"pid {conn.process.pid}")
                shown = True
            if state in SETTLED_STATES or time.monotonic() >= deadline:
                break
            if report.cancelled():
                raise DoctorCancelled
            state = await conn.wait_settled(CANCEL_POLL)
        run = EngineRun(state, conn.reason, time.monotonic() - started, None, traffic, conn.protocol_version)
        if state == ConnectionState.READY:
            info = conn.server_info
            run.server = f"{info.name} {info.version or ''}".strip() if info is not None else "?"
            catalog = conn.catalog
            run.counts = (
                f"{len(catalog.tools)} tools, {len(catalog.resources)} resources, "
                f"{len(catalog.resource_templates)} resource templates, {len(catalog.prompts)} prompts"
            )
            run.warnings = [line.text for line in conn.log if line.level in ("warning", "error")]
    finally:
        await conn.stop()  # the process's exit code and last lines are known once it is stopped
    run.process = conn.process
    if report.cancelled():
        raise DoctorCancelled
    return report_stdio_run(run, target, report, started_shown=shown)


def report_stdio_run(run: EngineRun, target: Target, report: Report, *, started_shown: bool = False) -> bool:
    from app.mcp.events import ConnectionState

    proc = run.process
    if proc is None or proc.pid is None:
        report.add(
            "fail", "start the process", run.reason or "", advice="check the command and its permissions"
        )
        return False
    if not started_shown:
        report.add("ok", "start the process", f"pid {proc.pid}")
    handshake = run.handshake()
    tail = list(proc.stderr_tail)[-STDERR_TAIL:]
    exited = proc.exited_by_itself and run.state != ConnectionState.READY
    if handshake is None and exited:
        report.add(
            "fail",
            "the process keeps running",
            f"it exited with code {proc.returncode} after {run.elapsed:.1f} s without answering",
            *(["stderr (last lines):", *tail] if tail else ["it wrote nothing on stderr"]),
            advice=stderr_advice(tail) or "run the command in a terminal to see why it stops",
        )
    else:
        report.add("ok", "the process keeps running")

    noise = list(proc.stdout_noise)
    if noise:
        report.add(
            "fail" if handshake is None else "warn",
            "stdout carries only protocol messages",
            f"{len(noise)} line(s) on stdout are not JSON-RPC:",
            *[f"stdout: {line[:200]}" for line in noise[:3]],
            advice="the server prints to stdout (a print() or console.log); MCP needs stdout for itself, "
            "so logging must go to stderr",
        )
    elif handshake is not None:
        report.add("ok", "stdout carries only protocol messages")

    if handshake is None:
        if not exited:
            report.add(
                "fail",
                "answer initialize",
                f"no answer within {target.timeout:g} s",
                *(["stderr (last lines):", *tail] if tail else []),
                advice=stderr_advice(tail)
                or "the server may still be installing (npx/uvx download on first run: try again), "
                "wait for input in a terminal, or not be an MCP server",
            )
        return False
    method, answer, took = handshake
    if method == "initialize":
        if not check_initialize(answer, took, report):
            return False
    else:  # a 2026-07-28 server: discovery is its handshake
        report.add(
            "ok",
            "answer initialize",
            f"in {took * 1000:.0f} ms: {run.server}, protocol {run.protocol} (server/discover)",
        )
    if run.state != ConnectionState.READY:
        report.add("fail", "connect as MCP Desk does", run.reason or "did not connect in time")
        return False
    report.add(
        "ok",
        "connect as MCP Desk does",
        f"in {run.elapsed * 1000:.0f} ms, protocol {run.protocol} ({target.mode} mode)",
        run.counts,
    )
    if run.warnings:
        report.add("warn", "the server's log", *run.warnings[:3])
    return True


def initialize_request(request_id: int) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "initialize",
        "params": {
            "protocolVersion": PROBE_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "mcp-desk-doctor", "version": "0.1.0"},
        },
    }


def check_initialize(answer: dict[str, Any], elapsed: float, report: Report) -> bool:
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

    if "error" in answer:
        error = answer.get("error") or {}
        report.add(
            "fail",
            "answer initialize",
            f"error {error.get('code')}: {error.get('message')}",
            advice=HANDSHAKE_REFUSED,
        )
        return False
    result = answer.get("result") or {}
    version = result.get("protocolVersion")
    info = result.get("serverInfo") or {}
    who = f"{info.get('name', '?')} {info.get('version', '')}".strip()
    if version not in HANDSHAKE_PROTOCOL_VERSIONS:
        report.add(
            "fail",
            "answer initialize",
            f"{who} offers protocol version {version!r}",
            f"MCP Desk speaks {', '.join(HANDSHAKE_PROTOCOL_VERSIONS)}",
            advice="update the server (or MCP Desk) so they share a protocol version",
        )
        return False
    report.add("ok", "answer initialize", f"in {elapsed * 1000:.0f} ms: {who}, protocol {version}")
    return True


# -------------------------------------------------------------------------------------- HTTP

SECRET_HEADER_HINT = (
    "store it as a secret: `mcp-desk secrets set SERVER NAME`, header value `Bearer ${secret:NAME}`"
)
"""Added to the engine's advice for HTTP 401: how to put a token in the headers without writing it down."""


def http_advice(status: int) -> str:
    # The table lives with the engine's reasons (one wording for the app and the doctor); imported
    # here, not at the top: this module loads with every CLI command, the engine only when needed.
    from app.mcp.reasons import http_advice as engine_advice

    advice = engine_advice(status) or "see the HTTP status"
    if status == 401:
        advice += f" ({SECRET_HEADER_HINT})"
    return advice


def diagnose_http(target: Target, report: Report) -> bool:
    url = target.url or ""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        report.add("fail", "read the URL", url, advice="use an http:// or https:// URL")
        return False
    host = parts.hostname
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        addresses = sorted(
            {str(info[4][0]) for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)}
        )
    except socket.gaierror as exc:
        report.add(
            "fail",
            f"resolve the name {host}",
            str(exc),
            advice="check the host name, and that you are online",
        )
        return False
    report.add("ok", f"resolve the name {host}", ", ".join(addresses[:4]))
    try:
        sock = socket.create_connection((host, port), timeout=min(target.timeout, 10.0))
    except OSError as exc:
        advice = (
            "nothing listens there: is the server running, and is the port right?"
            if isinstance(exc, ConnectionRefusedError)
            else "a firewall or proxy may be in the way, or the server is down"
        )
        report.add("fail", f"connect to {host}:{port}", exc.strerror or str(exc), advice=advice)
        return False
    with sock:
        report.add("ok", f"connect to {host}:{port}")
        if parts.scheme == "https":
            try:
                context = ssl.create_default_context()
                with context.wrap_socket(sock, server_hostname=host) as tls:
                    report.add("ok", "TLS handshake", f"{tls.version()}")
            except (ssl.SSLError, OSError) as exc:
                report.add(
                    "fail",
                    "TLS handshake",
                    str(exc),
                    advice="the server's certificate is not trusted (expired, self-signed, for another name)",
                )
                return False
    if target.transport == "sse":
        return probe_sse(target, report)
    return probe_streamable(target, report)


def http_client(target: Target) -> Any:
    import httpx2

    return httpx2.Client(headers=dict(target.headers), timeout=httpx2.Timeout(min(target.timeout, 30.0)))


def check_status(response: Any, report: Report, what: str) -> bool:
    status = response.status_code
    if status < 400:
        report.add("ok", what, f"HTTP {status} {response.reason_phrase}".rstrip())
        return True
    details = [f"HTTP {status} {response.reason_phrase}".rstrip()]
    if response.headers.get("www-authenticate"):
        details.append(f"WWW-Authenticate: {response.headers['www-authenticate'][:300]}")
    report.add("fail", what, *details, advice=http_advice(status))
    return False


def probe_streamable(target: Target, report: Report) -> bool:
    import httpx2

    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    started = time.monotonic()
    try:
        with (
            http_client(target) as client,
            client.stream("POST", target.url or "", json=initialize_request(1), headers=headers) as response,
        ):
            if not check_status(response, report, "POST initialize"):
                return False
            ctype = response.headers.get("content-type", "").split(";")[0].strip().lower()
            if ctype == "application/json":
                answer = json.loads(response.read() or b"null")
            elif ctype == "text/event-stream":
                answer = first_sse_message(response.iter_lines())
            else:
                report.add(
                    "fail",
                    "content type",
                    f"got {ctype or 'none'}; MCP answers application/json or text/event-stream",
                    advice="this URL serves something else (a web page?): check the path",
                )
                return False
            report.add("ok", "content type", ctype)
            session = response.headers.get("mcp-session-id")
        if session:  # end the session our probe opened, so it does not linger on the server
            with contextlib.suppress(httpx2.HTTPError), http_client(target) as client:
                client.delete(target.url or "", headers={"mcp-session-id": session})
    except httpx2.TimeoutException:
        report.add(
            "fail", "POST initialize", f"no answer within {target.timeout:g} s", advice="the server hangs"
        )
        return False
    except (httpx2.HTTPError, ValueError) as exc:
        report.add("fail", "POST initialize", str(exc), advice="the answer is not valid MCP")
        return False
    if not isinstance(answer, dict):
        report.add("fail", "answer initialize", "no JSON-RPC answer in the response")
        return False
    return check_initialize(answer, time.monotonic() - started, report)


def first_sse_message(lines: Any) -> Any:
    """The first `data:` payload of an event stream that is a JSON-RPC response."""
    data: list[str] = []
    for line in lines:
        if line.startswith("data:"):
            data.append(line[5:].strip())
        elif not line.strip() and data:
            payload, data = "\n".join(data).strip(), []
            if not payload:
                continue  # a priming event (resumable streams send an empty one first)
            message = json.loads(payload)
            if isinstance(message, dict) and ("result" in message or "error" in message):
                return message
    return None


def probe_sse(target: Target, report: Report) -> bool:
    import httpx2

    try:
        with (
            http_client(target) as client,
            client.stream("GET", target.url or "", headers={"Accept": "text/event-stream"}) as response,
        ):
            if not check_status(response, report, "GET the event stream"):
                return False
            ctype = response.headers.get("content-type", "").split(";")[0].strip().lower()
            if ctype != "text/event-stream":
                report.add(
                    "fail",
                    "content type",
                    f"got {ctype or 'none'}; an SSE endpoint answers text/event-stream",
                    advice="check the path (often /sse), or try the Streamable HTTP transport",
                )
                return False
            report.add("ok", "content type", ctype)
            event = None
            for line in response.iter_lines():
                if line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:") and event == "endpoint":
                    report.add("ok", "endpoint event", line[5:].strip())
                    return True
            report.add("fail", "endpoint event", "the stream ended without telling where to post messages")
            return False
    except httpx2.TimeoutException:
        report.add(
            "fail", "endpoint event", f"nothing within {target.timeout:g} s", advice="the server hangs"
        )
        return False
    except httpx2.HTTPError as exc:
        report.add("fail", "GET the event stream", str(exc))
        return False


# ------------------------------------------------------------------------------------ engine


def engine_step(target: Target, report: Report) -> bool:
    """The real thing: connect as the app does (protocol mode, discovery, every catalog page)."""
    import asyncio

    async def connect() -> bool:
        import_engine()
        from app.mcp.connection import ServerConnection
        from app.mcp.events import SETTLED_STATES, ConnectionState

        conn = ServerConnection(target, traffic=False)
        started = time.monotonic()
        conn.start()
        try:
            deadline = started + target.timeout + 5.0
            state = await conn.wait_settled(CANCEL_POLL)
            while state not in SETTLED_STATES and time.monotonic() < deadline:
                if report.cancelled():
                    raise DoctorCancelled
                state = await conn.wait_settled(CANCEL_POLL)
            elapsed = time.monotonic() - started
            if state != ConnectionState.READY:
                report.add("fail", "connect as MCP Desk does", conn.reason or "did not connect in time")
                return False
            catalog = conn.catalog
            report.add(
                "ok",
                "connect as MCP Desk does",
                f"in {elapsed * 1000:.0f} ms, protocol {conn.protocol_version} ({target.mode} mode)",
                f"{len(catalog.tools)} tools, {len(catalog.resources)} resources, "
                f"{len(catalog.resource_templates)} resource templates, {len(catalog.prompts)} prompts",
            )
            warnings = [line.text for line in conn.log if line.level in ("warning", "error")]
            if warnings:
                report.add("warn", "the server's log", *warnings[:3])
            return True
        finally:
            await conn.stop()

    return asyncio.run(connect())
