"""Which keyring entries belong to a config folder: its secrets profile id.

The id is made on first need and kept in the folder's `settings.json` (`app.secretsProfile`), so it
travels with the folder (moved, copied to another machine's path) and two folders never share
keyring entries even when both have a server called `github`.
"""

from __future__ import annotations

import logging
import re
import secrets as _random
from typing import TYPE_CHECKING

from keyring.backend import KeyringBackend

from app.secrets.store import SecretStore

if TYPE_CHECKING:  # the config store is only passed through; importing it at run time is not needed
    from app.config.store import ConfigStore

logger = logging.getLogger(__name__)

PROFILE_KEY = "secretsProfile"
_VALID = re.compile(r"[0-9a-z][0-9a-z-]{7,63}")


def profile_id(config: ConfigStore) -> str:
    """The folder's id, created (and saved with the folder's settings) when it has none yet.

    `config` is a loaded `app.config.store.ConfigStore`. Saving writes its current state, so call
    this before changing the list, never between a change and its own save.
    """
    current = config.app_settings.get(PROFILE_KEY)
    if isinstance(current, str) and _VALID.fullmatch(current):
        return current
    on_disk = _on_disk(config)
    if on_disk is not None:
        # Another process (the CLI beside the window) made it since this store was loaded.
        config.app_settings[PROFILE_KEY] = on_disk
        return on_disk
    if current is not None:
        logger.warning("the secrets profile id in %s is not valid; making a new one", config.settings_file)
    new = _random.token_hex(8)
    config.app_settings[PROFILE_KEY] = new
    config.save()
    return new


def _on_disk(config: ConfigStore) -> str | None:
    from app.config.store import ConfigStore

    fresh = ConfigStore(config.dir)
    try:
        fresh.load()
    except Exception:  # unreadable now: the caller's loaded copy is what we have
        return None
    value = fresh.app_settings.get(PROFILE_KEY)
    return value if isinstance(value, str) and _VALID.fullmatch(value) else None


def folder_secrets(config: ConfigStore, backend: KeyringBackend | None = None) -> SecretStore:
    """The secret store of this config folder; its pre-scoping entries move into it on first use.

    Without a usable keyring the move is left for a later run (nothing can be lost by waiting).
    """
    store = SecretStore(backend, scope=profile_id(config))
    store.adopt_unscoped_on_first_use(config.names())
    return store
