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


def fix_advice(platform: str | None = None) -> str:
    """What the user can do on this OS to get a secure keyring."""
    platform = platform or sys.platform
    common = (
        " If keyring was configured to use another backend, remove that setting "
        "(PYTHON_KEYRING_BACKEND or keyringrc.cfg)."
    )
    if platform.startswith("linux") or platform.startswith("freebsd"):
        return (
            "Install and start a Secret Service provider, for example GNOME Keyring "
            "(Debian/Ubuntu: `sudo apt install gnome-keyring`) or KDE Wallet, or enable Secret Service "
            "in KeePassXC; it must run in your desktop session (D-Bus)." + common
        )
    if platform == "darwin":
        return (
            "MCP Desk uses the macOS Keychain; make sure the login keychain exists and is unlocked." + common
        )
    if platform.startswith("win"):
        return (
            "MCP Desk uses Windows Credential Manager; make sure it is available for your account." + common
        )
    return "Install a keyring supported by the Python 'keyring' package." + common


def insecure_message(reason: str, platform: str | None = None) -> str:
    return (
        f"Cannot store secrets: {reason}. MCP Desk keeps secrets only in the OS keyring, never in a file. "
        + fix_advice(platform)
        + " You can also keep secrets for this session only (forgotten when MCP Desk exits)."
    )
