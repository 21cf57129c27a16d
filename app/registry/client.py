"""A client of the MCP Registry's read API, v0.1 (the official one or any sub-registry).

    GET {base}/v0.1/servers?search=&cursor=&limit=&version=latest   → a page, `metadata.nextCursor`
    GET {base}/v0.1/servers/{name}/versions/latest                  → one server (name URL-encoded)

What a person sees is decided here, once: a `deleted` entry is never shown; a `deprecated` one is
shown with its note, as the registry's changelog says ("deprecated but still visible with a warning
message"), because it still runs; an entry that is not the latest version is left out.

Limits, since the directory is someone else's server: an answer is read as a stream (on a worker
thread) and dropped past `MAX_LIST_BYTES` (a page) or `MAX_DETAIL_BYTES` (one server); connect and
read time-outs are short; no redirects are followed. Every answer is cached on disk
(`app.registry.cache`): a fresh one is used as is, and when the directory cannot be reached the
cached one is shown, marked offline with its age. Icons are fetched only from https addresses (plain
http only from this computer, when the directory itself is on this computer: a test's fixture), up
to `MAX_ICON_BYTES`, and only PNG, JPEG or WebP data is returned (checked by its first bytes, not by
what the server says). An SVG may carry scripts and is not fetched.
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import json
import logging
import ssl
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

import httpx2

from app.registry.cache import FRESH_SECONDS, ResponseCache
from app.registry.model import Icon, RegistryServer
from app.registry.settings import normalise_url
from app.words import QT_TRANSLATE_NOOP, fill

logger = logging.getLogger(__name__)

API = "/v0.1"
MAX_LIST_BYTES = 4 * 1024 * 1024
MAX_DETAIL_BYTES = 1024 * 1024
MAX_ICON_BYTES = 256 * 1024
CONNECT_TIMEOUT = 8.0
READ_TIMEOUT = 20.0
PAGE_SIZE = 30
MAX_LIMIT = 100

OFFLINE_MESSAGE = QT_TRANSLATE_NOOP(
    "Reasons", "the server directory cannot be reached: check your internet connection"
)
RASTER_MIME = ("image/png", "image/jpeg", "image/jpg", "image/webp")


# What went wrong, as the window shows it (translated back by app.ui.i18n.translate_reason).
NOT_THERE = QT_TRANSLATE_NOOP("Reasons", "this server is not in the server directory (any more)")
TOO_LARGE = QT_TRANSLATE_NOOP("Reasons", "the server directory's answer is too large to read")
NOT_JSON = QT_TRANSLATE_NOOP("Reasons", "the server directory's answer could not be read (not JSON)")
NOT_A_LIST = QT_TRANSLATE_NOOP("Reasons", "the server directory's answer is not a list of servers")
NOT_A_SERVER = QT_TRANSLATE_NOOP("Reasons", "the server directory's answer does not describe a server")
REMOVED = QT_TRANSLATE_NOOP("Reasons", "this server was removed from the server directory")
ANSWERED_ERROR = QT_TRANSLATE_NOOP("Reasons", "the server directory answered with an error (HTTP %1)")
SENT_ELSEWHERE = QT_TRANSLATE_NOOP("Reasons", "the server directory sent us elsewhere (HTTP %1)")
DEPRECATED = QT_TRANSLATE_NOOP("Reasons", "The server directory marks this server as deprecated: %1")
DEPRECATED_NO_WORD = QT_TRANSLATE_NOOP(
    "Reasons", "The server directory marks this server as deprecated; it may stop working or be replaced."
)
TEMPLATES: tuple[str, ...] = (
    OFFLINE_MESSAGE,
    ANSWERED_ERROR,
    NOT_THERE,
    TOO_LARGE,
    NOT_JSON,
    NOT_A_LIST,
    NOT_A_SERVER,
    REMOVED,
    SENT_ELSEWHERE,
    DEPRECATED,
    DEPRECATED_NO_WORD,
)


class RegistryError(Exception):
    """The directory answered, but not with something usable; the message is a plain sentence."""


class RegistryOffline(RegistryError):
    """The directory could not be reached, and nothing was cached for this request."""

    def __init__(self, detail: str = "") -> None:
        super().__init__(OFFLINE_MESSAGE)
        self.detail = detail


class NotInRegistry(RegistryError):
    pass


@dataclass
class Page:
    servers: list[RegistryServer]
    next_cursor: str | None
    hidden: int = 0
    """Entries left out (deleted, or not the latest version)."""
    offline: bool = False
    """The directory could not be reached: this is the cached answer from `fetched_at`."""
    fetched_at: float | None = None
    query: str = ""
    cursor: str | None = None


@dataclass
class _Fetched:
    body: bytes
    fetched_at: float
    offline: bool = False


@functools.cache
def _ssl_context() -> ssl.SSLContext:
    """One TLS context for every read: making one loads the CA bundle (about 35 ms, measured),
    most of what a new client costs."""
    return httpx2.create_ssl_context()


def shown(server: RegistryServer) -> bool:
    """Whether a person sees this entry: active or deprecated (with a note), and the latest."""
    return server.status in ("active", "deprecated") and server.is_latest


def status_note(server: RegistryServer) -> str | None:
    if server.status != "deprecated":
        return None
    if server.status_message:
        return fill(DEPRECATED, " ".join(server.status_message.split()))
    return DEPRECATED_NO_WORD


def _is_loopback(host: str | None) -> bool:
    if not host:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def sniff_image(data: bytes) -> str | None:
    """The MIME type of PNG, JPEG or WebP data, from its first bytes; None for anything else."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


@dataclass
class RegistryClient:
    base_url: str
    cache: ResponseCache | None = field(default_factory=ResponseCache)
    fresh_seconds: float = FRESH_SECONDS
    _icons: dict[str, bytes | None] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        self.base_url = normalise_url(self.base_url)

    # --- plumbing ------------------------------------------------------------------------------
    # Each read runs on a worker thread with its own httpx2 blocking client, closed when the read
    # ends. Why not the async client on the qasync loop: a read cut short (an answer too large, a
    # search superseded and cancelled) leaves httpcore's inner async generator to the garbage
    # collector, and qasync installs no async-generator hooks, so it is finalized outside any
    # running loop and fails. On a thread the awaiting task is cancelled at once and the read,
    # bounded by the time-outs and the size limit, ends there on its own, closing its sockets;
    # nothing is shared between reads, so nothing is left open when the browser closes.
    # (A new connection per search costs one TLS handshake; searches are debounced.)
    @staticmethod
    def _new_http() -> httpx2.Client:
        return httpx2.Client(
            verify=_ssl_context(),
            timeout=httpx2.Timeout(CONNECT_TIMEOUT, read=READ_TIMEOUT),
            follow_redirects=False,
            headers={"Accept": "application/json", "User-Agent": "MCP-Desk"},
        )

    async def aclose(self) -> None:
        """Nothing is kept open between reads; kept so callers need not know."""

    def _read(self, url: str, limit: int, accept: str) -> bytes:
        with self._new_http() as http, http.stream("GET", url, headers={"Accept": accept}) as response:
            if response.status_code == 404:
                raise NotInRegistry(NOT_THERE)
            if response.status_code >= 400:
                raise RegistryError(fill(ANSWERED_ERROR, response.status_code))
            if 300 <= response.status_code < 400:
                raise RegistryError(fill(SENT_ELSEWHERE, response.status_code))
            length = response.headers.get("content-length")
            if length is not None and length.isdigit() and int(length) > limit:
                raise RegistryError(TOO_LARGE)
            chunks: list[bytes] = []
            size = 0
            for chunk in response.iter_bytes():
                size += len(chunk)
                if size > limit:
                    raise RegistryError(TOO_LARGE)
                chunks.append(chunk)
            return b"".join(chunks)

    async def _download(self, url: str, limit: int, *, accept: str = "application/json") -> bytes:
        """The body of a GET, at most `limit` bytes; raises RegistryError / transport errors."""
        return await asyncio.to_thread(self._read, url, limit, accept)

    async def _get(self, url: str, limit: int, *, refresh: bool = False) -> _Fetched:
        # The cache is files (an fsync on each write): on a worker thread, like the reads.
        cached = await asyncio.to_thread(self.cache.get, url) if self.cache is not None else None
        if cached is not None and not refresh and cached.age < self.fresh_seconds:
            return _Fetched(cached.body, cached.fetched_at)
        try:
            body = await self._download(url, limit)
        except httpx2.TransportError as exc:
            logger.info("server directory unreachable (%s): %s", url, exc)
            if cached is not None:
                return _Fetched(cached.body, cached.fetched_at, offline=True)
            raise RegistryOffline(str(exc)) from None
        except NotInRegistry:
            raise
        except RegistryError:
            if cached is not None:  # a directory answering 503 for a while: show what we had
                return _Fetched(cached.body, cached.fetched_at, offline=True)
            raise
        now = time.time()
        if self.cache is not None:
            await asyncio.to_thread(self.cache.put, url, body, now)
        return _Fetched(body, now)

    @staticmethod
    def _json(body: bytes) -> Any:
        try:
            return json.loads(body)
        except ValueError:
            raise RegistryError(NOT_JSON) from None

    # --- the API -------------------------------------------------------------------------------
    def list_url(self, search: str = "", cursor: str | None = None, limit: int = PAGE_SIZE) -> str:
        params: dict[str, str] = {"limit": str(max(1, min(limit, MAX_LIMIT))), "version": "latest"}
        if search.strip():
            params["search"] = search.strip()
        if cursor:
            params["cursor"] = cursor
        return f"{self.base_url}{API}/servers?{urlencode(params)}"

    def latest_url(self, name: str) -> str:
        return f"{self.base_url}{API}/servers/{quote(name, safe='')}/versions/latest"

    async def search(
        self, text: str = "", *, cursor: str | None = None, limit: int = PAGE_SIZE, refresh: bool = False
    ) -> Page:
        """One page of entries matching `text` (the directory matches names and descriptions)."""
        fetched = await self._get(self.list_url(text, cursor, limit), MAX_LIST_BYTES, refresh=refresh)
        data = await asyncio.to_thread(self._json, fetched.body)  # up to 4 MB: not on the GUI thread
        if not isinstance(data, dict) or not isinstance(data.get("servers"), list):
            raise RegistryError(NOT_A_LIST)
        servers: list[RegistryServer] = []
        seen: set[str] = set()
        hidden = 0
        for item in data["servers"]:
            server = RegistryServer.from_response(item)
            if server is None:
                continue
            if not shown(server) or server.name in seen:
                hidden += 1
                continue
            seen.add(server.name)
            servers.append(server)
        meta = data.get("metadata")
        nxt = meta.get("nextCursor") if isinstance(meta, dict) else None
        return Page(
            servers=servers,
            next_cursor=nxt if isinstance(nxt, str) and nxt else None,
            hidden=hidden,
            offline=fetched.offline,
            fetched_at=fetched.fetched_at,
            query=text,
            cursor=cursor,
        )

    async def latest(self, name: str, *, refresh: bool = False) -> RegistryServer:
        """The latest version of `name`; raises `NotInRegistry` for one deleted or unknown."""
        fetched = await self._get(self.latest_url(name), MAX_DETAIL_BYTES, refresh=refresh)
        server = RegistryServer.from_response(self._json(fetched.body))
        if server is None:
            raise RegistryError(NOT_A_SERVER)
        if server.status == "deleted":
            raise NotInRegistry(REMOVED)
        return server

    # --- icons ---------------------------------------------------------------------------------
    def icon_allowed(self, src: str) -> bool:
        parts = urlsplit(src)
        if parts.scheme == "https" and parts.hostname:
            return True
        base = urlsplit(self.base_url)
        # Plain http only for a directory on this computer pointing at this computer (tests).
        return parts.scheme == "http" and _is_loopback(parts.hostname) and _is_loopback(base.hostname)

    def pick_icon(self, server: RegistryServer, theme: str | None = None) -> Icon | None:
        best: Icon | None = None
        for icon in server.icons:
            if icon.mime_type is not None and icon.mime_type not in RASTER_MIME:
                continue
            if icon.src.lower().split("?")[0].endswith(".svg") or not self.icon_allowed(icon.src):
                continue
            if icon.theme in (None, theme):
                return icon
            best = best or icon
        return best

    async def icon(self, server: RegistryServer, theme: str | None = None) -> bytes | None:
        """PNG/JPEG/WebP bytes of the entry's icon, or None (no icon, not allowed, too big, broken,
        unreachable). Never raises for a bad icon: an icon is decoration."""
        icon = self.pick_icon(server, theme)
        if icon is None:
            return None
        if icon.src in self._icons:
            return self._icons[icon.src]
        data: bytes | None = None
        try:
            body = await self._download(icon.src, MAX_ICON_BYTES, accept="image/png, image/jpeg, image/webp")
            data = body if sniff_image(body) else None
        except (RegistryError, httpx2.HTTPError, ValueError) as exc:
            logger.info("icon of %s not fetched: %s", server.name, exc)
        self._icons[icon.src] = data
        return data
