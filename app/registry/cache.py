"""Answers of the server directory kept on disk, so a list can be shown again without the internet.

One JSON file per request URL (named by its SHA-256) under `<data dir>/registry-cache/`, holding the
URL, when it was fetched and the answer's text. Written atomically; a damaged file is ignored. The
folder is kept small: past `MAX_FILES` the oldest files go. Nothing secret is in a directory's
answer, so nothing here is sensitive beyond what the person searched for.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import time
from dataclasses import dataclass
from pathlib import Path

from app.config.atomic import atomic_write

logger = logging.getLogger(__name__)

MAX_FILES = 300
FRESH_SECONDS = 300.0
"""An answer younger than this is used without asking the directory again."""


@dataclass(frozen=True)
class Cached:
    body: bytes
    fetched_at: float
    """Unix time."""

    @property
    def age(self) -> float:
        return max(0.0, time.time() - self.fetched_at)


def default_dir() -> Path:
    from app.crashreport import data_dir

    return data_dir() / "registry-cache"


class ResponseCache:
    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder if folder is not None else default_dir()

    def _path(self, url: str) -> Path:
        return self.folder / (hashlib.sha256(url.encode("utf-8")).hexdigest()[:40] + ".json")

    def get(self, url: str) -> Cached | None:
        path = self._path(url)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or data.get("url") != url:
            return None
        body, at = data.get("body"), data.get("fetchedAt")
        if not isinstance(body, str) or not isinstance(at, int | float):
            return None
        return Cached(body.encode("utf-8"), float(at))

    def put(self, url: str, body: bytes, fetched_at: float | None = None) -> None:
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            return
        record = {"url": url, "fetchedAt": time.time() if fetched_at is None else fetched_at, "body": text}
        try:
            atomic_write(self._path(url), json.dumps(record).encode("utf-8"), backup=False)
            self._prune()
        except OSError as exc:  # a full disk or a read-only data folder: browsing still works
            logger.info("the server directory's answer was not cached: %s", exc)

    def _prune(self) -> None:
        files = list(self.folder.glob("*.json"))
        if len(files) <= MAX_FILES:
            return
        files.sort(key=lambda p: p.stat().st_mtime)
        for path in files[: len(files) - MAX_FILES]:
            with contextlib.suppress(OSError):
                path.unlink()
