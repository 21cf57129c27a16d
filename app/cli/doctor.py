"""`mcp-desk doctor TARGET`: a step-by-step diagnosis a person can follow.

stdio: is the command on the PATH, does the process start, does it exit (with what code, what
stderr), does it print non-protocol text on stdout, does it answer `initialize` and with which
protocol version. HTTP/SSE: name resolution, TCP connect, TLS, HTTP status, `WWW-Authenticate`,
content type, protocol version. Every step prints OK, or the first failure with advice; a last
step connects through the engine itself, exactly as the app would.

The early steps speak raw JSON-RPC on purpose: the engine hides what went wrong behind one
sentence, the doctor shows each layer.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import queue
import re
import signal
import socket
import ssl
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

from app.cli.main import EXIT_FAILURE, EXIT_OK
from app.cli.remote import add_target_arguments, resolve_target, safe

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
    ok = diagnose_stdio(target, report) if target.transport == "stdio" else diagnose_http(target, report)
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


class Child:
    """The server process, with stdout lines in a queue and the stderr tail in a ring."""

    def __init__(self, argv: list[str], env: Mapping[str, str], cwd: str | None) -> None:
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=dict(env),
            cwd=cwd,
            start_new_session=True,  # so stop() reaches everything it forks
        )
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.stderr: deque[str] = deque(maxlen=200)
        self.noise: list[str] = []
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self._threads = [
            threading.Thread(target=self._read_stdout, args=(self.proc.stdout,), daemon=True),
            threading.Thread(target=self._read_stderr, args=(self.proc.stderr,), daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def _read_stdout(self, stream: IO[bytes]) -> None:
        for line in stream:
            self.lines.put(line)
        self.lines.put(None)

    def _read_stderr(self, stream: IO[bytes]) -> None:
        for line in stream:
            self.stderr.append(line.decode("utf-8", "replace").rstrip())

    def send(self, message: dict[str, Any]) -> bool:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(message).encode() + b"\n")
            self.proc.stdin.flush()
        except OSError:
            return False
        return True

    def answer(
        self, request_id: int, deadline: float, cancel: threading.Event | None = None
    ) -> dict[str, Any] | None:
        """The response to `request_id`; None if stdout closed, the deadline passed or `cancel`
        was set. Lines that are not JSON-RPC are kept in `noise`."""
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or (cancel is not None and cancel.is_set()):
                return None
            try:
                raw = self.lines.get(timeout=min(remaining, CANCEL_POLL))
            except queue.Empty:
                continue
            if raw is None:
                self.lines.put(None)  # stay closed for the next caller
                return None
            text = raw.decode("utf-8", "replace").strip()
            if not text:
                continue
            try:
                message = json.loads(text)
            except ValueError:
                self.noise.append(text)
                continue
            if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
                self.noise.append(text)
                continue
            if message.get("id") == request_id and ("result" in message or "error" in message):
                return message

    def exit_code(self, wait: float = 0.0) -> int | None:
        try:
            return self.proc.wait(wait) if wait else self.proc.poll()
        except subprocess.TimeoutExpired:
            return None

    def stop(self) -> None:
        if self.proc.stdin is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
        if self.exit_code(1.0) is None:
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(self.proc.pid, sig)
                except ProcessLookupError:
                    break
                if self.exit_code(2.0) is not None:
                    break
        self.proc.wait()
        for thread in self._threads:
            thread.join(2.0)
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


def child_environment(target: Target) -> dict[str, str]:
    """The environment the engine gives the server: the SDK's small allowlist plus the entry's env."""
    from mcp.client.stdio import get_default_environment

    return get_default_environment() | dict(target.env)


def diagnose_stdio(target: Target, report: Report) -> bool:
    from app.runtimes import CommandNotFound, RuntimeMissing, describe, resolve_command

    command = target.command or ""
    env = child_environment(target)
    try:
        resolved = resolve_command(command, env)
    except RuntimeMissing as exc:
        report.add("fail", f"find the runtime of {command!r}", exc.reason)
        return False
    except CommandNotFound:
        advice = f"install {command!r}, or give its full path in the server's command"
        report.add("fail", f"find the command {command!r}", f"PATH: {env.get('PATH', '')}", advice=advice)
        return False
    path = resolved.executable
    report.add("ok", f"find the command {command!r}", " ".join([path, *resolved.args_prefix]))
    runtime = resolved.runtime
    if runtime is not None:
        # Which Node / uv / Docker: the person's own (found where?) or MCP Desk's built-in one.
        report.add("ok", "the runtime it runs on", describe(runtime), runtime.path)
    if target.cwd and not os.path.isdir(target.cwd):
        report.add("fail", "working directory", f"{target.cwd} does not exist", advice="fix the server's cwd")
        return False

    try:
        child = Child([path, *resolved.args_prefix, *target.args], resolved.env, target.cwd)
    except OSError as exc:
        report.add("fail", "start the process", str(exc), advice="check the command and its permissions")
        return False
    try:
        return talk_stdio(child, target, report)
    finally:
        child.stop()


def talk_stdio(child: Child, target: Target, report: Report) -> bool:
    report.add("ok", "start the process", f"pid {child.proc.pid}")
    started = time.monotonic()
    deadline = started + target.timeout
    child.send(initialize_request(1))
    answer = child.answer(1, deadline, report.cancel)
    if report.cancelled():
        raise DoctorCancelled
    elapsed = time.monotonic() - started
    code = child.exit_code(0.5 if answer is None else 0.0)

    tail = list(child.stderr)[-STDERR_TAIL:]
    if answer is None:
        if code is not None:
            report.add(
                "fail",
                "the process keeps running",
                f"it exited with code {code} after {elapsed:.1f} s without answering",
                *(["stderr (last lines):", *tail] if tail else ["it wrote nothing on stderr"]),
                advice=stderr_advice(tail) or "run the command in a terminal to see why it stops",
            )
        else:
            report.add("ok", "the process keeps running")
    else:
        report.add("ok", "the process keeps running")

    if child.noise:
        shown = [f"stdout: {line[:200]}" for line in child.noise[:3]]
        report.add(
            "fail" if answer is None else "warn",
            "stdout carries only protocol messages",
            f"{len(child.noise)} line(s) on stdout are not JSON-RPC:",
            *shown,
            advice="the server prints to stdout (a print() or console.log); MCP needs stdout for itself, "
            "so logging must go to stderr",
        )
    elif answer is not None:
        report.add("ok", "stdout carries only protocol messages")

    if answer is None:
        if code is None:
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
    return check_initialize(answer, elapsed, report)


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
