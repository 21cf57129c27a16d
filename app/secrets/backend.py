"""Is the active keyring backend one we may store secrets in?

Checked by class, never by priority: keyring's `fail` and `null` backends store nothing, and
keyrings.alt's PlaintextKeyring writes secrets to a file in clear — exactly what we promise not to do.
"""

from __future__ import annotations

import sys

from keyring.backend import KeyringBackend

# Fully qualified class names; keyrings.alt is not a dependency, so it is never imported here.
INSECURE_BACKENDS = {
    "keyring.backends.fail.Keyring": "no keyring backend is available",
    "keyring.backends.null.Keyring": "the keyring is disabled (keyring's 'null' backend is selected)",
    "keyrings.alt.file.PlaintextKeyring": "the selected keyring (keyrings.alt PlaintextKeyring) "
    "stores secrets in a file in clear",
}


def _qualified(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def effective_backend(backend: KeyringBackend) -> KeyringBackend:
    """The backend writes go to: for keyring's chainer, its first (highest priority) backend."""
    inner = getattr(backend, "backends", None)
    if isinstance(inner, list) and inner and all(isinstance(b, KeyringBackend) for b in inner):
        first: KeyringBackend = inner[0]
        return first
    return backend


def insecure_reason(backend: KeyringBackend) -> str | None:
    """Why `backend` must not hold secrets, or None when it is fine."""
    target = effective_backend(backend)
    for cls in type(target).__mro__:
        reason = INSECURE_BACKENDS.get(_qualified(cls))
        if reason is not None:
            return reason
    if getattr(backend, "backends", None) == []:
        return INSECURE_BACKENDS["keyring.backends.fail.Keyring"]
    return None


# What to do, at length and per OS (the D-Bus and keyringrc.cfg details live there, not in a message).
HELP_DOC = "docs/keyring.md"


def fix_advice(platform: str | None = None) -> str:
    """What the user can do on this OS to get a secure keyring, in one sentence."""
    platform = platform or sys.platform
    if platform.startswith("linux") or platform.startswith("freebsd"):
        return (
            "Install and start a keychain (Secret Service), for example GNOME Keyring "
            "(Debian/Ubuntu: `sudo apt install gnome-keyring`) or KDE Wallet."
        )
    if platform == "darwin":
        return "Make sure your macOS login Keychain exists and is unlocked."
    if platform.startswith("win"):
        return "Make sure Windows Credential Manager is available for your account."
    return "Install a keychain supported by the Python 'keyring' package."


def insecure_message(reason: str, platform: str | None = None) -> str:
    """Two lines: what is missing, and the way forward."""
    return (
        f"Cannot store secrets: {reason} (MCP Desk keeps them only in the system keychain, "
        "never in a file).\n"
        f"{fix_advice(platform)} Details: {HELP_DOC}."
    )


def unreadable_message(server: str, name: str, reason: str) -> str:
    """Reading is not storing: which key cannot be had, why, and where the fix is."""
    return (
        f"the key {name} of {server!r} cannot be read: this computer has no usable keychain ({reason}); "
        f"see {HELP_DOC}"
    )
