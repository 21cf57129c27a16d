"""Turning connection failures into sentences a person can act on.

"ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)" helps nobody; "the server
exited with code 1 — last stderr line: ModuleNotFoundError: No module named 'foo'" does.

The sentences are English (the command line and the logs say them so), built from templates
marked with `QT_TRANSLATE_NOOP("Reasons", …)` (app.words: a function that only returns its
text, so no Qt here), but lupdate (packaging/translations.py) finds the calls and the window's
translators get them. The window turns a finished sentence back into its template and values
(`app.ui.i18n.translate_reason`, through `TEMPLATES`) and shows it in the person's language;
a sentence no template matches stays English.
"""

from __future__ import annotations

from typing import Any

from app.mcp.stdio import CommandNotFound, ProcessInfo, RuntimeMissing, WorkingDirectoryMissing
from app.mcp.target import Target
from app.words import QT_TRANSLATE_NOOP, fill

STDERR_LINES_IN_REASON = 3


HTTP_ADVICE: dict[int, str] = {
    400: QT_TRANSLATE_NOOP(
        "Reasons", "the server rejected the request: is this an MCP endpoint, and the right transport?"
    ),
    401: QT_TRANSLATE_NOOP(
        "Reasons", "the server wants credentials: sign in, or put a key or token in this server's headers"
    ),
    403: QT_TRANSLATE_NOOP("Reasons", "the credentials were refused or lack permission"),
    404: QT_TRANSLATE_NOOP(
        "Reasons", "nothing at this URL: check the path (often /mcp, or /sse for the SSE transport)"
    ),
    405: QT_TRANSLATE_NOOP(
        "Reasons",
        "this URL does not take MCP requests this way: check the path and the transport (HTTP or SSE)",
    ),
    406: QT_TRANSLATE_NOOP(
        "Reasons", "the server refused our content types: it may speak the other HTTP transport"
    ),
    415: QT_TRANSLATE_NOOP("Reasons", "the server refused JSON: it may not be an MCP endpoint"),
    429: QT_TRANSLATE_NOOP("Reasons", "the server is rate limiting: try again later"),
}
"""What an HTTP error status usually means for an MCP endpoint (the engine's reasons and the doctor)."""

SERVER_ERROR_ADVICE = QT_TRANSLATE_NOOP("Reasons", "the server had an internal error: see its logs")
HEADER_CREDENTIALS_ADVICE = QT_TRANSLATE_NOOP(
    "Reasons", "the server refused the credentials: check the API key or token in this server's headers"
)
"""401 for a server whose credentials are in its headers (it does not sign in with OAuth)."""

# The sentences, as templates (%1, %2: the values). Those below are built in this module; the
# ones in TEMPLATES only are built by app.mcp.connection from these pieces.
LAST_STDERR = QT_TRANSLATE_NOOP("Reasons", "%1 — last stderr: %2")
PRINTED_NOISE = QT_TRANSLATE_NOOP("Reasons", "%1 — it printed non-protocol text on stdout: %2")
CLOSED_OUTPUT = QT_TRANSLATE_NOOP("Reasons", "the server closed its output")
KILLED = QT_TRANSLATE_NOOP("Reasons", "the server was killed by signal %1")
EXITED = QT_TRANSLATE_NOOP("Reasons", "the server exited with code %1")
NOT_MCP = QT_TRANSLATE_NOOP("Reasons", "this does not look like an MCP server")
ECHOES = QT_TRANSLATE_NOOP("Reasons", "%1: it sends back what it is sent (it repeats its input)")
PRINTED = QT_TRANSLATE_NOOP("Reasons", "%1: it printed %2 %3")
CONNECTION_ENDED = QT_TRANSLATE_NOOP("Reasons", "the connection ended")
COMMAND_NOT_FOUND = QT_TRANSLATE_NOOP("Reasons", "command not found: %1 — is it installed, and on the PATH?")
NO_WORKING_DIRECTORY = QT_TRANSLATE_NOOP("Reasons", "the working directory does not exist: %1")
PERMISSION_DENIED = QT_TRANSLATE_NOOP("Reasons", "permission denied starting %1")
UNKNOWN_MODE = QT_TRANSLATE_NOOP(
    "Reasons", "unknown protocol mode %1 in this server's settings (use auto or legacy)"
)
UNSUPPORTED_VERSION = QT_TRANSLATE_NOOP(
    "Reasons", "the server speaks a protocol version MCP Desk does not support (%1)"
)
HTTP_STATUS = QT_TRANSLATE_NOOP("Reasons", "HTTP %1 %2")
WWW_AUTHENTICATE = QT_TRANSLATE_NOOP("Reasons", "%1 (WWW-Authenticate: %2)")
WITH_ADVICE = QT_TRANSLATE_NOOP("Reasons", "%1: %2")
REFUSED = QT_TRANSLATE_NOOP("Reasons", "the server refused the connection: %1 (error %2)")
CANNOT_CONNECT_TO = QT_TRANSLATE_NOOP("Reasons", "could not connect to %1: %2 (is the server running?)")
NO_ANSWER_IN_TIME = QT_TRANSLATE_NOOP("Reasons", "%1 did not answer in time")
HTTP_FROM = QT_TRANSLATE_NOOP("Reasons", "HTTP %1 from %2")
NETWORK_ERROR = QT_TRANSLATE_NOOP("Reasons", "network error talking to %1: %2")
CANNOT_START = QT_TRANSLATE_NOOP("Reasons", "could not start the server: %1")
CANNOT_CONNECT = QT_TRANSLATE_NOOP("Reasons", "could not connect: %1")

TEMPLATES: tuple[str, ...] = (
    # Longest context first: a sentence is matched by the first template it fits, and a value
    # that is itself a sentence ("connection lost: %1") is matched again.
    QT_TRANSLATE_NOOP("Reasons", "connection lost: %1"),
    QT_TRANSLATE_NOOP("Reasons", "connection lost: the server closed the connection"),
    QT_TRANSLATE_NOOP("Reasons", "%1; it printed non-protocol text on stdout: %2"),
    QT_TRANSLATE_NOOP("Reasons", "%1; last stderr line: %2"),
    QT_TRANSLATE_NOOP("Reasons", "the server did not finish connecting within %1 s"),
    QT_TRANSLATE_NOOP(
        "Reasons", "installing the server stopped: nothing came from the download for %1 minutes"
    ),
    QT_TRANSLATE_NOOP("Reasons", "instead of answering"),
    QT_TRANSLATE_NOOP("Reasons", "and exited with code %1"),
    QT_TRANSLATE_NOOP("Reasons", "and was killed by signal %1"),
    QT_TRANSLATE_NOOP("Reasons", "and closed its output"),
    QT_TRANSLATE_NOOP("Reasons", "and has not answered in %1 s"),
    QT_TRANSLATE_NOOP("Reasons", "it has not answered in %1 s"),
    QT_TRANSLATE_NOOP("Reasons", "no answer yet after %1 s: this may not be an MCP server"),
    LAST_STDERR,
    PRINTED_NOISE,
    WWW_AUTHENTICATE,
    ECHOES,
    PRINTED,
    COMMAND_NOT_FOUND,
    UNKNOWN_MODE,
    UNSUPPORTED_VERSION,
    REFUSED,
    CANNOT_CONNECT_TO,
    NETWORK_ERROR,
    CANNOT_START,
    CANNOT_CONNECT,
    NO_WORKING_DIRECTORY,
    PERMISSION_DENIED,
    HTTP_FROM,
    NO_ANSWER_IN_TIME,
    WITH_ADVICE,
    HTTP_STATUS,
    CLOSED_OUTPUT,
    KILLED,
    EXITED,
    NOT_MCP,
    CONNECTION_ENDED,
    SERVER_ERROR_ADVICE,
    HEADER_CREDENTIALS_ADVICE,
    *HTTP_ADVICE.values(),
)
"""Every sentence (and piece of one) the window can translate back (app.ui.i18n)."""

VALUE_PATTERNS: dict[str, dict[str, str]] = {PRINTED: {"2": "“.*”"}}
"""Where a value is not simply the shortest text that fits: the quoted lines a program printed
(which may hold spaces) before the words that follow them."""


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
    return fill(LAST_STDERR, "", " | ".join(line.strip() for line in lines))


def exited(proc: ProcessInfo) -> str:
    code = proc.returncode
    if code is None:
        what = CLOSED_OUTPUT
    elif code < 0:
        what = fill(KILLED, -code)
    else:
        what = fill(EXITED, code)
    hint = stderr_hint(proc)
    if not hint and proc.stdout_noise:
        hint = fill(PRINTED_NOISE, "", repr(proc.stdout_noise[-1]))
    return what + hint


NOISE_SHOWN = 3
"""Lines of what a program printed that a "not an MCP server" reason quotes."""


def not_mcp(proc: ProcessInfo, after: str, silent: str | None = None) -> str:
    """A program that does not speak MCP: what it printed, then `after` ("instead of answering",
    "and exited with code 0"); `silent` when it printed nothing on stdout."""
    from app.mcp.stdio import ECHO_NOISE

    if ECHO_NOISE.decode() in proc.stdout_noise:
        return fill(ECHOES, NOT_MCP)
    printed = [line for line in proc.stdout_noise if line.strip()][:NOISE_SHOWN]
    if printed:
        quoted = ", ".join(f"“{line[:200]}”" for line in printed)
        return fill(PRINTED, NOT_MCP, quoted, after)
    return fill(WITH_ADVICE, NOT_MCP, silent or after) + stderr_hint(proc)


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
    text = fill(HTTP_STATUS, status.code, status.reason).rstrip()
    if advice:
        text = fill(WITH_ADVICE, text, advice)
    if status.code == 401 and status.www_authenticate:
        text = fill(WWW_AUTHENTICATE, text, status.www_authenticate[:200])
    return text


def explain(exc: BaseException | None, target: Target, proc: ProcessInfo | None, http: Any = None) -> str:
    """One sentence for a connection that could not be established."""
    if exc is None:
        return CONNECTION_ENDED
    err = leaf(exc)
    if isinstance(err, CommandNotFound):
        return fill(COMMAND_NOT_FOUND, err.command)
    if isinstance(err, RuntimeMissing):
        return err.reason
    if isinstance(err, WorkingDirectoryMissing):
        return fill(NO_WORKING_DIRECTORY, err.cwd)
    if isinstance(err, PermissionError) and target.transport == "stdio":
        return fill(PERMISSION_DENIED, target.command)
    if isinstance(err, ValueError) and "mode must be" in str(err):
        return fill(UNKNOWN_MODE, repr(target.mode))
    if proc is not None and proc.exited_by_itself:
        if proc.messages == 0 and proc.stdout_noise:
            return not_mcp(proc, "and " + exited(proc).split(" — ")[0].removeprefix("the server "))
        return exited(proc)
    if "Unsupported protocol version" in str(err) or "No mutually supported" in str(err):
        return fill(UNSUPPORTED_VERSION, short(err))
    from app.mcp.auth import SignInProblem

    if isinstance(err, SignInProblem):
        return err.reason
    http_reason = _http_status_reason(http, target)
    if http_reason is not None:
        return http_reason
    from mcp.shared.exceptions import MCPError

    if isinstance(err, MCPError):
        return fill(REFUSED, err.error.message, err.error.code)
    try:
        import httpx2
    except ImportError:  # pragma: no cover
        httpx2 = None  # type: ignore[assignment]
    if httpx2 is not None:
        if isinstance(err, httpx2.ConnectError):
            return fill(CANNOT_CONNECT_TO, target.url, short(err))
        if isinstance(err, httpx2.TimeoutException):
            return fill(NO_ANSWER_IN_TIME, target.url)
        if isinstance(err, httpx2.HTTPStatusError):
            return fill(HTTP_FROM, err.response.status_code, target.url)
        if isinstance(err, httpx2.TransportError):
            return fill(NETWORK_ERROR, target.url, short(err))
    if isinstance(err, OSError):
        return fill(CANNOT_START, short(err))
    return fill(CANNOT_CONNECT, short(err))
