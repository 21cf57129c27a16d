"""What npx and uvx print while they download a server, turned into what a person needs.

npx (at npm's `http` log level, which app.runtimes.resolve sets for it) prints one line per
request, `npm http fetch GET 200 https://registry.npmjs.org/ajv/-/ajv-8.17.1.tgz 31ms (cache
miss)`; uv prints `Downloading pydantic-core (2.2MiB)` and `Installed 31 packages in 106ms`.
A cache miss or a download means the server is being installed: "installing the server…
(fetching ajv)". When the download fails, the lines say why — offline, no such package, a
proxy in the way — and `InstallWatch.failure()` puts it in a sentence.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal
from urllib.parse import unquote, urlsplit

from app.runtimes.pathext import command_name
from app.words import QT_TRANSLATE_NOOP, fill

Tool = Literal["npm", "uv"]

INSTALLING = QT_TRANSLATE_NOOP("Reasons", "installing the server…")
# Why a download failed, as templates (%1, %2: the values); the window translates a finished
# sentence back through them (app.ui.i18n.translate_reason).
FETCHING = QT_TRANSLATE_NOOP("Reasons", "%1 (fetching %2)")
REGISTRY = QT_TRANSLATE_NOOP("Reasons", "the package registry")
REGISTRY_AT = QT_TRANSLATE_NOOP("Reasons", "the package registry (%1)")
THIS_PACKAGE = QT_TRANSLATE_NOOP("Reasons", "this package")
NO_SUCH_PACKAGE = QT_TRANSLATE_NOOP(
    "Reasons",
    "installing the server failed: there is no package %1 in %2; check the server's command for a typo",
)
PROXY_SIGN_IN = QT_TRANSLATE_NOOP(
    "Reasons",
    "installing the server failed: the proxy asks for a sign-in (407 Proxy Authentication Required): put "
    "the user name and password in the proxy setting (HTTPS_PROXY=http://user:password@host:port)",
)
PROXY_SIGN_IN_AT = QT_TRANSLATE_NOOP(
    "Reasons",
    "installing the server failed: the proxy (%1) asks for a sign-in (407 Proxy Authentication Required): "
    "put the user name and password in the proxy setting (HTTPS_PROXY=http://user:password@host:port)",
)
PROXY_BLOCKS = QT_TRANSLATE_NOOP(
    "Reasons",
    "installing the server failed: the proxy does not let the download through: check the proxy setting "
    "(HTTPS_PROXY), or unset it",
)
PROXY_BLOCKS_AT = QT_TRANSLATE_NOOP(
    "Reasons",
    "installing the server failed: the proxy (%1) does not let the download through: check the proxy "
    "setting (HTTPS_PROXY), or unset it",
)
OFFLINE = QT_TRANSLATE_NOOP(
    "Reasons",
    "installing the server failed: MCP Desk could not reach %1: are you offline? Check the internet "
    "connection, then try again",
)
NOT_TRUSTED = QT_TRANSLATE_NOOP(
    "Reasons",
    "installing the server failed: the secure connection to %1 was not trusted (a firewall or proxy that "
    "inspects traffic?): set NODE_EXTRA_CA_CERTS / SSL_CERT_FILE to your organisation's certificate",
)
TEMPLATES: tuple[str, ...] = (
    NO_SUCH_PACKAGE,
    PROXY_SIGN_IN_AT,
    PROXY_SIGN_IN,
    PROXY_BLOCKS_AT,
    PROXY_BLOCKS,
    OFFLINE,
    NOT_TRUSTED,
    FETCHING,
    REGISTRY_AT,
    REGISTRY,
    THIS_PACKAGE,
    INSTALLING,
)

PROXY_VARS = ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy")

_NPM_FETCH = re.compile(r"^npm http fetch (?:GET|POST) (\d{3} )?(\S+)(?: .*?)?(?:\((cache [a-z]+)\))?\s*$")
_NPM_WILL_INSTALL = re.compile(r"The following packages? (?:was|were) not found and will be installed: (.+)$")
_NPM_ATTEMPT = re.compile(r"^npm http fetch \S+ (\S+) attempt \d+ failed with (\S+)")
_NPM_CODE = re.compile(r"^npm (?:error|ERR!) code (\S+)")
_NPM_404 = re.compile(r"^npm (?:error|ERR!) 404\s+(?:Not Found - \S+ (\S+)|'?(\S+?)@\S*'? is not in)")
_UV_DOWNLOADING = re.compile(r"^\s*(Downloading|Building|Downloaded|Built)\s+(\S+)")
_UV_COUNT = re.compile(r"^\s*(Resolved|Prepared|Installed|Uninstalled|Audited)\s+\d+\s+packages?")
_UV_NOT_FOUND = re.compile(r"Because (\S+) was not found in the package registry")
_UV_FETCH_URL = re.compile(r"Failed to fetch:? `?(\S+?)`?$")
_UV_DIAGNOSTIC = re.compile(r"^(error|cause|Caused by|help):|^(×|╰─▶)")
_UV_DOWNLOAD_ERROR = re.compile(
    r"Failed to fetch|was not found in the package registry|Request failed after|No solution found|"
    r"error sending request|Failed to download"
)
"""uv's own words for a download that went wrong: without them an error line is the server's."""
_URL = re.compile(r"https?://[^\s'\")]+")


@dataclass(frozen=True)
class Fetching:
    """The package manager fetches `name` (a package, a dependency): the server is installing."""

    name: str

    @property
    def reason(self) -> str:
        return installing_reason(self.name)


@dataclass(frozen=True)
class Installed:
    """The package manager says it is done: the server itself starts now."""


Step = Fetching | Installed


def installing_reason(name: str | None) -> str:
    """ "installing the server… (fetching @modelcontextprotocol/server-memory)"."""
    return fill(FETCHING, INSTALLING, name) if name else INSTALLING


def tool_for(
    command: str, args: tuple[str, ...] | list[str] = (), platform: str | None = None
) -> Tool | None:
    """Which package manager's output to watch: npx (and `npm exec`), uvx and uv; else None."""
    import sys

    name = command_name(command, platform or sys.platform)
    if name == "npx" or (name == "npm" and args[:1] and args[0] in ("exec", "x")):
        return "npm"
    if name in ("uvx", "uv"):
        return "uv"
    return None


def _package_from_url(url: str) -> str:
    path = unquote(urlsplit(url).path).strip("/")
    if "/-/" in path:  # a tarball: /ajv/-/ajv-8.17.1.tgz, /@scope/name/-/name-1.0.0.tgz
        path = path.split("/-/", 1)[0]
    return path or url


class InstallWatch:
    """Fed every stderr line of one npx/uvx start; says when it installs and why it failed."""

    def __init__(self, tool: Tool, env: Mapping[str, str] | None = None) -> None:
        self.tool = tool
        self.env = dict(env or {})
        self.installing = False
        self.fetched: list[str] = []
        self._codes: list[str] = []
        self._missing: str | None = None
        self._failed_url: str | None = None
        self._lines: list[str] = []
        self.done = False
        """The package manager handed over to the server: its lines are the server's now."""

    def feed(self, line: str) -> Step | None:
        """A step when this line changes what is going on (a new package fetched, done)."""
        if self.done:
            return None
        text = line.rstrip()
        step = self._feed_npm(text) if self.tool == "npm" else self._feed_uv(text)
        if isinstance(step, Installed):
            self.done = True
        return step

    def _fetching(self, name: str) -> Fetching:
        self.installing = True
        self.fetched.append(name)
        return Fetching(name)

    def _feed_npm(self, text: str) -> Step | None:
        if not text.startswith("npm "):
            # npm says nothing when it is done: the first line of the server's own is the sign.
            return Installed() if self.installing and text.strip() else None
        self._lines.append(text)
        del self._lines[:-40]
        if (m := _NPM_ATTEMPT.match(text)) is not None:
            self._failed_url = m.group(1)
            self._codes.append(m.group(2))
            return None
        if (m := _NPM_CODE.match(text)) is not None:
            self._codes.append(m.group(1))
            return None
        if (m := _NPM_404.match(text)) is not None:
            url, name = m.group(1), m.group(2)
            self._missing = self._missing or (_package_from_url(url) if url else name)
            self._failed_url = self._failed_url or url
            return None
        if (m := _NPM_WILL_INSTALL.search(text)) is not None:
            return self._fetching(m.group(1).split()[0])
        if (m := _NPM_FETCH.match(text)) is not None:
            status, url, cache = m.group(1), m.group(2), m.group(3)
            if status and status.strip() in ("404", "407"):
                self._failed_url = url
                return None
            # Only a request that went to the network for a package counts: "cache hit",
            # "cache revalidated", "cache updated" are a warm cache asking for news.
            if cache == "cache miss" and "/-/npm/" not in url:
                return self._fetching(_package_from_url(url))
        return None

    def _feed_uv(self, text: str) -> Step | None:
        stripped = text.strip()
        if not stripped:
            return None
        if _UV_DIAGNOSTIC.match(stripped):
            # Only uv's own error lines: a server's "Connection refused" is not a download's.
            self._lines.append(stripped)
            del self._lines[:-40]
        if (m := _UV_NOT_FOUND.search(stripped)) is not None:
            self._missing = m.group(1)
            return None
        if (m := _UV_FETCH_URL.search(stripped)) is not None:
            self._failed_url = m.group(1)
            return None
        if (m := _UV_COUNT.match(stripped)) is not None:
            if m.group(1) == "Installed" and self.installing:
                return Installed()
            if m.group(1) in ("Resolved", "Prepared") and not self.installing:
                return self._fetching("the packages")
            return None
        if (m := _UV_DOWNLOADING.match(stripped)) is not None:
            if m.group(1) in ("Downloading", "Building"):
                return self._fetching(m.group(2))
            return None
        return None

    # -------------------------------------------------------------- failure

    def _proxy(self) -> str | None:
        for var in PROXY_VARS:
            if self.env.get(var):
                return self.env[var]
        return None

    def _registry(self) -> str:
        url = self._failed_url
        if url is None:
            for line in reversed(self._lines):
                if (m := _URL.search(line)) is not None:
                    url = m.group(0)
                    break
        host = urlsplit(url).netloc if url else ""
        return fill(REGISTRY_AT, host) if host else REGISTRY

    def failure(self) -> str | None:
        """Why the download failed, as a sentence; None when the lines show no download problem."""
        text = "\n".join(self._lines)
        if self.tool == "uv" and not _UV_DOWNLOAD_ERROR.search(text):
            return None
        codes = set(self._codes)
        proxy = self._proxy()
        registry = self._registry()
        if self._missing or "E404" in codes:
            name = self._missing or THIS_PACKAGE
            return fill(NO_SUCH_PACKAGE, name, registry)
        if "E407" in codes or re.search(r"\b407\b|proxy authori[sz]ation required", text, re.I):
            return fill(PROXY_SIGN_IN_AT, proxy) if proxy else PROXY_SIGN_IN
        if re.search(r"tunnel(ing)? (socket|error)", text, re.I) or (
            proxy and (codes & {"ECONNREFUSED", "ECONNRESET", "ETIMEDOUT"} or "Connection refused" in text)
        ):
            return fill(PROXY_BLOCKS_AT, proxy) if proxy else PROXY_BLOCKS
        offline_codes = {"ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ETIMEDOUT", "ENETUNREACH", "ECONNRESET"}
        if codes & offline_codes or re.search(
            r"dns error|failed to lookup address|Connection refused|Network is unreachable|"
            r"timed out|error sending request",
            text,
            re.I,
        ):
            return fill(OFFLINE, registry)
        if codes & {"SELF_SIGNED_CERT_IN_CHAIN", "UNABLE_TO_GET_ISSUER_CERT_LOCALLY", "CERT_HAS_EXPIRED"} or (
            re.search(r"certificate|invalid peer certificate", text, re.I)
        ):
            return fill(NOT_TRUSTED, registry)
        return None
