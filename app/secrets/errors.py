"""Errors raised by the secret store. Messages never contain a secret value."""

from __future__ import annotations


class SecretStoreError(Exception):
    """A secret could not be read, stored or removed."""


class KeyringUnavailableError(SecretStoreError):
    """No secure keyring: missing, the `null`/`fail` backend or a plaintext one.

    The message says what is missing and how to fix it on this OS.
    """


class KeyringLockedError(SecretStoreError):
    """The keyring is locked, or the user dismissed the unlock prompt."""
