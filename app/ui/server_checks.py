"""What the Add/Edit dialog checks where it is typed, and the names it shares with its parts.

No widgets here: a command that cannot start, a URL that is not http(s), which runtime a local
server runs on (looked up in a worker thread), and the constants of the server's secrets.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

logger = logging.getLogger(__name__)


SECRET_REF_PREFIX = "${secret:"
PROTOCOL_MODES = ("auto", "legacy", "2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
# Shown in an empty field whose value is in the keychain (translated where shown: secret_placeholder()).
SECRET_PLACEHOLDER = QT_TRANSLATE_NOOP("ServerChecks", "stored in the keychain — type to replace")
# The keyring secret that holds a pre-registered OAuth client's secret (never settings.json):
# app.secrets.oauth.CLIENT_SECRET, spelled here so opening the dialog imports no keyring code.
OAUTH_CLIENT_SECRET = "oauth.client_secret"
# settings.json `oauth` keys the dialog edits; others (grant, client_metadata_url) are kept as found.
OAUTH_FIELDS = ("client_id", "scope")


def _tr(text: str) -> str:
    return QCoreApplication.translate("ServerChecks", text)


def secret_placeholder() -> str:
    return _tr(str(SECRET_PLACEHOLDER))


def is_ref(value: str) -> bool:
    return value.startswith(SECRET_REF_PREFIX) and value.endswith("}")


def looks_secret(name: str, kind: str) -> bool:
    try:
        from app.secrets.detect import is_secret_env, is_secret_header
    except ImportError:
        return False
    return is_secret_header(name, "x") if kind == "header" else is_secret_env(name, "x")


def validate_command(command: str, cwd: str = "", env: Mapping[str, str] | None = None) -> str | None:
    """A message when the command cannot be started as typed (with the server's `env`), else None."""
    command = command.strip()
    if not command:
        return QCoreApplication.translate(
            "ServerChecks", "Enter the command that starts the server (for example npx or uvx)."
        )
    if any(c.isspace() for c in command) and not Path(command).exists():
        # A whole command line as READMEs print it (`python3 -m http.server`): the program is
        # its first word (the dialog splits the rest into arguments); judge that, not the line.
        from app.config.snippets import split_command_line

        try:
            _env, command, _args = split_command_line(command)
        except ValueError as exc:
            return QCoreApplication.translate("ServerChecks", "This command line cannot be read: %1").replace(
                "%1", str(exc)
            )
    if os.sep in command or (os.altsep and os.altsep in command):
        path = Path(command) if Path(command).is_absolute() or not cwd else Path(cwd) / command
        if not path.exists():
            return QCoreApplication.translate("ServerChecks", "There is no file %1.").replace("%1", str(path))
        if not os.access(path, os.X_OK):
            return QCoreApplication.translate("ServerChecks", "%1 is not a program that can be run.").replace(
                "%1", str(path)
            )
        return None
    # Looked up as the engine will start it (app.mcp.process): on the server's own PATH (its env
    # may set one), also where GUI apps do not look, and MCP Desk's built-in Node.js and uv.
    from app.mcp.process import locate, server_environment

    if locate(command, server_environment(env or {})) is None:
        return QCoreApplication.translate(
            "ServerChecks",
            "“%1” was not found on PATH. Install it, or give its full path.",
        ).replace("%1", command)
    return None


def validate_url(url: str) -> str | None:
    from urllib.parse import urlsplit

    url = url.strip()
    if not url:
        return QCoreApplication.translate(
            "ServerChecks", "Enter the server's address (for example https://example.com/mcp)."
        )
    try:
        parts = urlsplit(url)
    except ValueError:
        return QCoreApplication.translate("ServerChecks", "This is not a web address.")
    if parts.scheme not in ("http", "https"):
        return QCoreApplication.translate("ServerChecks", "The address must start with http:// or https://.")
    if not parts.hostname:
        return QCoreApplication.translate("ServerChecks", "The address has no host name.")
    return None


def describe_runtime(entry: Any) -> str | None:
    """Which runtime the entry's command runs on, in words ("Node.js 24.19 (built in)", "your
    Node.js 22.3"), or None when it needs none or it cannot be told. Off the GUI thread: the
    lookup may start `node --version`."""
    if getattr(entry, "transport", "stdio") != "stdio" or not getattr(entry, "command", None):
        return None
    from app.runtimes import describe, runtime_for

    try:
        runtime = runtime_for(entry)
    except Exception as exc:  # a lookup that fails is no reason to fail the dialog
        logger.info("no runtime for %s: %s", getattr(entry, "name", "?"), exc)
        return None
    if runtime is None:
        return None
    from app.ui.i18n import translate_reason  # "your Node.js 22.3" in the window's language

    return translate_reason(str(describe(runtime)))
