"""The doctor's steps in people's words, for the Diagnose window.

The doctor (app/cli/doctor.py) writes for a terminal and a developer: "answer initialize",
"stdout carries only protocol messages", "POST initialize", advice naming `mcp-desk secrets set`.
The window shows each known step by what it means to a person ("Start the program", "It answers
MCP Desk"), keeps the details that help (what the program printed, its last error lines, how long
it waited) and leaves out protocol details; developer mode shows the doctor's own text. A step
this table does not know keeps the doctor's words (a new step is never hidden).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

if TYPE_CHECKING:
    from app.cli.doctor import Step

CTX = "DiagnoseWords"

# Words a person should not meet outside developer mode: a detail holding one is left out.
PROTOCOL_WORDS = re.compile(
    r"JSON-RPC|initialize|stdout|stdin|transport|protocol|WWW-Authenticate|content type|mode\)|"
    r"text/event-stream|application/json|\bpid\b|PATH:",
    re.IGNORECASE,
)


def _tr(text: str) -> str:
    return QCoreApplication.translate(CTX, text)


# (pattern of the doctor's title, the title for people with %1, %2 for the groups)
# QT_TRANSLATE_NOOP marks the English for lupdate (typed `object`: str() where read).
TITLES: tuple[tuple[re.Pattern[str], object], ...] = (
    (
        re.compile(r"read the server's definition$"),
        QT_TRANSLATE_NOOP("DiagnoseWords", "Read the server's settings"),
    ),
    (re.compile(r"find the runtime of '(.*)'$"), QT_TRANSLATE_NOOP("DiagnoseWords", "Find what runs “%1”")),
    (re.compile(r"find the command '(.*)'$"), QT_TRANSLATE_NOOP("DiagnoseWords", "Find the program “%1”")),
    (re.compile(r"the runtime it runs on$"), QT_TRANSLATE_NOOP("DiagnoseWords", "What it runs on")),
    (re.compile(r"working directory$"), QT_TRANSLATE_NOOP("DiagnoseWords", "The folder it starts in")),
    (re.compile(r"start the process$"), QT_TRANSLATE_NOOP("DiagnoseWords", "Start the program")),
    (
        re.compile(r"the process keeps running$"),
        QT_TRANSLATE_NOOP("DiagnoseWords", "The program keeps running"),
    ),
    (
        re.compile(r"stdout carries only protocol messages$"),
        QT_TRANSLATE_NOOP("DiagnoseWords", "What the program prints"),
    ),
    (re.compile(r"answer initialize$"), QT_TRANSLATE_NOOP("DiagnoseWords", "Its answer to MCP Desk")),
    (re.compile(r"read the URL$"), QT_TRANSLATE_NOOP("DiagnoseWords", "Read the address")),
    (re.compile(r"resolve the name (.*)$"), QT_TRANSLATE_NOOP("DiagnoseWords", "Find “%1” on the internet")),
    (re.compile(r"connect to (.*):(\d+)$"), QT_TRANSLATE_NOOP("DiagnoseWords", "Reach %1 (port %2)")),
    (re.compile(r"TLS handshake$"), QT_TRANSLATE_NOOP("DiagnoseWords", "Check the secure connection")),
    (re.compile(r"POST initialize$"), QT_TRANSLATE_NOOP("DiagnoseWords", "Greeting the server")),
    (
        re.compile(r"GET the event stream$"),
        QT_TRANSLATE_NOOP("DiagnoseWords", "Open the server's message stream"),
    ),
    (re.compile(r"content type$"), QT_TRANSLATE_NOOP("DiagnoseWords", "The kind of answer")),
    (re.compile(r"endpoint event$"), QT_TRANSLATE_NOOP("DiagnoseWords", "Where to send messages")),
    (
        re.compile(r"connect as MCP Desk does$"),
        QT_TRANSLATE_NOOP("DiagnoseWords", "Connecting as MCP Desk does"),
    ),
    (re.compile(r"the server's log$"), QT_TRANSLATE_NOOP("DiagnoseWords", "Warnings the server wrote")),
)


def _exit_line(m: re.Match[str]) -> str:
    return (
        QCoreApplication.translate("DiagnoseWords", "It stopped (exit code %1) after %2 s without answering.")
        .replace("%1", m.group(1))
        .replace("%2", m.group(2))
    )


def _noise_line(m: re.Match[str]) -> str:
    return QCoreApplication.translate(
        "DiagnoseWords", "Lines it printed that MCP Desk cannot read (%1):"
    ).replace("%1", m.group(1))


# (pattern of a detail line, how it reads for people; None: the line is shown without the prefix)
DETAILS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (re.compile(r"^stdout: (.*)$", re.S), lambda m: "“" + m.group(1) + "”"),
    (re.compile(r"^(\d+) line\(s\) on stdout are not JSON-RPC:$"), _noise_line),
    (re.compile(r"^it exited with code (-?\d+) after ([\d.]+) s without answering$"), _exit_line),
    (
        re.compile(r"^stderr \(last lines\):$"),
        lambda m: QCoreApplication.translate("DiagnoseWords", "The last lines it wrote as errors:"),
    ),
    (
        re.compile(r"^it wrote nothing on stderr$"),
        lambda m: QCoreApplication.translate("DiagnoseWords", "It wrote no error message."),
    ),
    (
        re.compile(r"^no answer within ([\d.]+) s$"),
        lambda m: QCoreApplication.translate("DiagnoseWords", "No answer within %1 s.").replace(
            "%1", m.group(1)
        ),
    ),
    (
        re.compile(r"^nothing within ([\d.]+) s$"),
        lambda m: QCoreApplication.translate("DiagnoseWords", "No answer within %1 s.").replace(
            "%1", m.group(1)
        ),
    ),
    (
        re.compile(r"^HTTP (\d+)(.*)$"),
        lambda m: QCoreApplication.translate("DiagnoseWords", "The server answered %1.").replace(
            "%1", (m.group(1) + m.group(2)).strip()
        ),
    ),
    (
        re.compile(r"^(.*) does not exist$"),
        lambda m: QCoreApplication.translate("DiagnoseWords", "“%1” does not exist.").replace(
            "%1", m.group(1)
        ),
    ),
    (
        re.compile(r"^it does not take the initialize handshake, but discovery works \(below\)$"),
        lambda m: QCoreApplication.translate(
            "DiagnoseWords", "It uses the newer way to start; connecting works (below)."
        ),
    ),
    (
        re.compile(r"^(\d+) tools, (\d+) resources, (\d+) resource templates, (\d+) prompts$"),
        lambda m: (
            QCoreApplication.translate(
                "DiagnoseWords", "Offers %1 tools, %2 resources, %3 templates and %4 prompts."
            )
            .replace("%1", m.group(1))
            .replace("%2", m.group(2))
            .replace("%3", m.group(3))
            .replace("%4", m.group(4))
        ),
    ),
)

# The doctor's advice (exact or by its start) -> what to do, in the window's words.
ADVICE: tuple[tuple[str, object], ...] = (
    (
        "a package the server needs is not installed",
        QT_TRANSLATE_NOOP(
            "DiagnoseWords", "A part the server needs is not installed. Follow the setup steps in its README."
        ),
    ),
    (
        "the package name is wrong or does not exist",
        QT_TRANSLATE_NOOP(
            "DiagnoseWords", "The package name looks wrong. Compare it with the server's README."
        ),
    ),
    (
        "the server wants a credential",
        QT_TRANSLATE_NOOP(
            "DiagnoseWords",
            "The server needs a key. Add it under Edit server (marked as secret), then try again.",
        ),
    ),
    (
        "a port the server wants is taken",
        QT_TRANSLATE_NOOP("DiagnoseWords", "Another program uses the port this server needs."),
    ),
    (
        "the server may not read or run a file",
        QT_TRANSLATE_NOOP("DiagnoseWords", "The server is not allowed to open or run a file it needs."),
    ),
    (
        "the server needs a newer Node or Python",
        QT_TRANSLATE_NOOP("DiagnoseWords", "The server needs a newer Node.js or Python."),
    ),
    (
        "run the command in a terminal",
        QT_TRANSLATE_NOOP("DiagnoseWords", "The program stopped. Its last messages above may say why."),
    ),
    (
        "the server prints to stdout",
        QT_TRANSLATE_NOOP(
            "DiagnoseWords",
            "This does not look like an MCP server: it printed ordinary text where MCP Desk expects "
            "its messages. Check the command against the server's README.",
        ),
    ),
    (
        "the server may still be installing",
        QT_TRANSLATE_NOOP(
            "DiagnoseWords",
            "It did not answer. It may still be downloading on its first start (try again in a "
            "minute), or it is not an MCP server.",
        ),
    ),
    (
        "the server refused the handshake",
        QT_TRANSLATE_NOOP(
            "DiagnoseWords", "The server refused to talk to MCP Desk. Check its version and settings."
        ),
    ),
    (
        "update the server (or MCP Desk)",
        QT_TRANSLATE_NOOP(
            "DiagnoseWords", "The server and MCP Desk speak different versions. Update the server."
        ),
    ),
    (
        "install '",
        QT_TRANSLATE_NOOP("DiagnoseWords", "Install this program, or give its full path in Edit server."),
    ),
    (
        "fix the server's cwd",
        QT_TRANSLATE_NOOP("DiagnoseWords", "Choose an existing folder under Edit server → Advanced."),
    ),
    (
        "check the command and its permissions",
        QT_TRANSLATE_NOOP("DiagnoseWords", "Check the command and that it may be run."),
    ),
    (
        "use an http:// or https:// URL",
        QT_TRANSLATE_NOOP("DiagnoseWords", "The address must start with http:// or https://."),
    ),
    (
        "check the host name",
        QT_TRANSLATE_NOOP("DiagnoseWords", "Check the address, and that you are online."),
    ),
    (
        "nothing listens there",
        QT_TRANSLATE_NOOP(
            "DiagnoseWords", "Nothing answers there. Is the server running, and is the address right?"
        ),
    ),
    (
        "a firewall or proxy may be in the way",
        QT_TRANSLATE_NOOP("DiagnoseWords", "A firewall or proxy may be in the way, or the server is down."),
    ),
    (
        "the server's certificate is not trusted",
        QT_TRANSLATE_NOOP(
            "DiagnoseWords",
            "The server's certificate is not trusted (expired, self-made or for another name).",
        ),
    ),
    (
        "this URL serves something else",
        QT_TRANSLATE_NOOP(
            "DiagnoseWords", "This address serves something else (a web page?). Check the address."
        ),
    ),
    (
        "check the path (often /sse)",
        QT_TRANSLATE_NOOP("DiagnoseWords", "Check the address (it often ends in /sse)."),
    ),
    ("the server hangs", QT_TRANSLATE_NOOP("DiagnoseWords", "The server does not answer.")),
    (
        "the answer is not valid MCP",
        QT_TRANSLATE_NOOP("DiagnoseWords", "The answer is not what an MCP server sends."),
    ),
    (
        "store the missing secret",
        QT_TRANSLATE_NOOP("DiagnoseWords", "A key is missing. Add it under Keys, then try again."),
    ),
    (
        "unlock your keyring",
        QT_TRANSLATE_NOOP("DiagnoseWords", "Unlock your computer's keychain, then try again."),
    ),
    (
        "start your desktop's keyring",
        QT_TRANSLATE_NOOP("DiagnoseWords", "Your computer's keychain is not running."),
    ),
)


@dataclass
class ShownStep:
    """A doctor's step as the window shows it."""

    status: str
    title: str
    details: list[str] = field(default_factory=list)
    advice: str | None = None


def shown_step(step: Step, *, developer: bool) -> ShownStep:
    """`step` in people's words, or as the doctor wrote it in developer mode."""
    if developer:
        return ShownStep(step.status, step.title, list(step.details), step.advice)
    return ShownStep(step.status, _title(step.title), _details(step.details), _advice(step.advice))


def _title(title: str) -> str:
    for pattern, words in TITLES:
        m = pattern.match(title)
        if m:
            text = _tr(str(words))
            for i, group in enumerate(m.groups(), start=1):
                text = text.replace(f"%{i}", group)
            return text
    return title


def _details(details: list[str]) -> list[str]:
    out: list[str] = []
    server_lines = False  # after "stderr (last lines):" come the program's own lines, as they are
    for line in details:
        if server_lines:
            out.append(line)
            continue
        server_lines = line == "stderr (last lines):"
        for pattern, words in DETAILS:
            m = pattern.match(line)
            if m:
                out.append(words(m))
                break
        else:
            if not PROTOCOL_WORDS.search(line):
                out.append(line)  # the server's own text (its error lines), or a plain detail
    return out


def _advice(advice: str | None) -> str | None:
    if not advice:
        return advice
    advice = advice.split(" (store it as a secret")[0]  # the command line's way to a key: not here
    for start, words in ADVICE:
        if advice.startswith(start):
            return _tr(str(words))
    return None if PROTOCOL_WORDS.search(advice) or "mcp-desk " in advice else advice
