"""Turning connection failures into sentences a person can act on.

"ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)" helps nobody; "the server
exited with code 1 — last stderr line: ModuleNotFoundError: No module named 'foo'" does.
"""

from __future__ import annotations

from typing import Any

from app.mcp.stdio import CommandNotFound, ProcessInfo, RuntimeMissing, WorkingDirectoryMissing
from app.mcp.target import Target

STDERR_LINES_IN_REASON = 3

HTTP_ADVICE: dict[int, str] = {
    400: "the server rejected the request: is this an MCP endpoint, and the right transport?",
    401: "the server wants credentials: sign in, or put a key or token in this server's headers",
    403: "the credentials were refused or lack permission",
    404: "nothing at this URL: check the path (often /mcp, or /sse for the SSE transport)",
    405: "this URL does not take MCP requests this way: check the path and the transport (HTTP or SSE)",
    406: "the server refused our content types: it may speak the other HTTP transport",
    415: "the server refused JSON: it may not be an MCP endpoint",
    429: "the server is rate limiting: try again later",
}
"""What an HTTP error status usually means for an MCP endpoint (the engine's reasons and the doctor)."""

SERVER_ERROR_ADVICE = "the server had an internal error: see its logs"
HEADER_CREDENTIALS_ADVICE = (
    "the server refused the credentials: check the API key or token in this server's headers"
)
"""401 for a server whose credentials are in its headers (it does not sign in with OAuth)."""


def http_advice(code: int) -> str | None:
    """Advice for an HTTP error status, or None when there is nothing useful to say."""
    advice = HTTP_ADVICE.get(code)
    if advice is None and code >= 500:
        advice = SERVER_ERROR_ADVICE
    return advice


def leaf(exc: BaseException) -> BaseException:
    """The first real error inside nested exception groups (anyio wraps everything)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def short(exc: BaseException) -> str:
    exc = leaf(exc)
    text = str(exc).strip()
    return text or type(exc).__name__


def stderr_hint(proc: ProcessInfo | None) -> str:
    if proc is None:
        return ""
    lines = [line for line in proc.stderr_tail if line.strip()][-STDERR_LINES_IN_REASON:]
    if not lines:
        return ""
    return " — last stderr: " + " | ".join(line.strip() for line in lines)


def exited(proc: ProcessInfo) -> str:
    code = proc.returncode
    if code is None:
        what = "the server closed its output"
    elif code < 0:
        what = f"the server was killed by signal {-code}"
    else:
        what = f"the server exited with code {code}"
    hint = stderr_hint(proc)
    if not hint and proc.stdout_noise:
        hint = f" — it printed non-protocol text on stdout: {proc.stdout_noise[-1]!r}"
    return what + hint


NOT_MCP = "this does not look like an MCP server"
NOISE_SHOWN = 3
"""Lines of what a program printed that a "not an MCP server" reason quotes."""


def not_mcp(proc: ProcessInfo, after: str, silent: str | None = None) -> str:
    """A program that does not speak MCP: what it printed, then `after` ("instead of answering",
    "and exited with code 0"); `silent` when it printed nothing on stdout."""
    from app.mcp.stdio import ECHO_NOISE

    if ECHO_NOISE.decode() in proc.stdout_noise:
        return f"{NOT_MCP}: it sends back what it is sent (it repeats its input)"
    printed = [line for line in proc.stdout_noise if line.strip()][:NOISE_SHOWN]
    if printed:
        quoted = ", ".join(f"“{line[:200]}”" for line in printed)
        return f"{NOT_MCP}: it printed {quoted} {after}"
    return f"{NOT_MCP}: {silent or after}{stderr_hint(proc)}"


def is_network_error(exc: BaseException) -> bool:
    exc = leaf(exc)
    try:
        import httpx2
    except ImportError:  # pragma: no cover
        return False
    return isinstance(exc, httpx2.TransportError | ConnectionError)


def _http_status_reason(obs: Any, target: Target) -> str | None:
    status = getattr(obs, "last_error", None)
    if status is None:
        return None
    advice = http_advice(status.code)
    if status.code == 401 and target.headers and not target.uses_oauth:
        advice = HEADER_CREDENTIALS_ADVICE
    text = f"HTTP {status.code} {status.reason}".rstrip()
    if advice:
        text += f": {advice}"
    if status.code == 401 and status.www_authenticate:
        text += f" (WWW-Authenticate: {status.www_authenticate[:200]})"
    return text


def explain(exc: BaseException | None, target: Target, proc: ProcessInfo | None, http: Any = None) -> str:
    """One sentence for a connection that could not be established."""
    if exc is None:
        return "the connection ended"
    err = leaf(exc)
    if isinstance(err, CommandNotFound):
        return f"command not found: {err.command} — is it installed, and on the PATH?"
    if isinstance(err, RuntimeMissing):
        return err.reason
    if isinstance(err, WorkingDirectoryMissing):
        return f"the working directory does not exist: {err.cwd}"
    if isinstance(err, PermissionError) and target.transport == "stdio":
        return f"permission denied starting {target.command}"
    if isinstance(err, ValueError) and "mode must be" in str(err):
        return f"unknown protocol mode {target.mode!r} in this server's settings (use auto or legacy)"
    if proc is not None and proc.exited_by_itself:
        if proc.messages == 0 and proc.stdout_noise:
            return not_mcp(proc, "and " + exited(proc).split(" — ")[0].removeprefix("the server "))
        return exited(proc)
    if "Unsupported protocol version" in str(err) or "No mutually supported" in str(err):
        return f"the server speaks a protocol version MCP Desk does not support ({short(err)})"
    from app.mcp.auth import SignInProblem

    if isinstance(err, SignInProblem):
        return err.reason
    http_reason = _http_status_reason(http, target)
    if http_reason is not None:
        return http_reason
    from mcp.shared.exceptions import MCPError

    if isinstance(err, MCPError):
        return f"the server refused the connection: {err.error.message} (error {err.error.code})"
    try:
        import httpx2
    except ImportError:  # pragma: no cover
        httpx2 = None  # type: ignore[assignment]
    if httpx2 is not None:
        if isinstance(err, httpx2.ConnectError):
            return f"could not connect to {target.url}: {short(err)} (is the server running?)"
        if isinstance(err, httpx2.TimeoutException):
            return f"{target.url} did not answer in time"
        if isinstance(err, httpx2.HTTPStatusError):
            return f"HTTP {err.response.status_code} from {target.url}"
        if isinstance(err, httpx2.TransportError):
            return f"network error talking to {target.url}: {short(err)}"
    if isinstance(err, OSError):
        return f"could not start the server: {short(err)}"
    return f"could not connect: {short(err)}"
