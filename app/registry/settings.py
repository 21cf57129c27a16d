"""Which server directory to browse: `app.registryUrl` in the config folder's settings.json.

The official MCP Registry by default; a sub-registry (a company's own, a curated one) is simply
another base URL serving the same API.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:  # only passed through
    from app.config.store import ConfigStore

DEFAULT_REGISTRY = "https://registry.modelcontextprotocol.io"
SETTING_KEY = "registryUrl"


class BadRegistryUrl(ValueError):
    pass


def normalise_url(url: str) -> str:
    """`url` without a trailing slash; raises `BadRegistryUrl` unless it is an http(s) URL."""
    text = url.strip()
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BadRegistryUrl(
            f"not a web address of a server directory: {text!r} (it must start with https://)"
        )
    if parts.query or parts.fragment:
        raise BadRegistryUrl(f"a server directory's address has no ?query or #fragment: {text!r}")
    return text.rstrip("/")


def registry_url(store: ConfigStore | None) -> str:
    """The configured directory's base URL, or the official one (also when the setting is bad)."""
    if store is None:
        return DEFAULT_REGISTRY
    value = store.app_settings.get(SETTING_KEY)
    if isinstance(value, str):
        try:
            return normalise_url(value)
        except BadRegistryUrl:
            pass
    return DEFAULT_REGISTRY


def set_registry_url(store: ConfigStore, url: str | None) -> str:
    """Remember `url` (None or the default: forget the setting) and save; returns the URL in use."""
    if url is None or normalise_url(url) == DEFAULT_REGISTRY:
        store.app_settings.pop(SETTING_KEY, None)
    else:
        store.app_settings[SETTING_KEY] = normalise_url(url)
    store.save()
    return registry_url(store)
