"""One MCP Desk per person and config folder: a second start hands what it was asked to open (an
install link from the browser, a server package double-clicked) to the window already running,
and exits.

The running instance listens on a local socket (`QLocalServer`: a Unix socket, a named pipe on
Windows) whose name is made from the user and the config folder, with access for this user only.
A second start connects, writes one message (`{"open": [...]}` as JSON on one line, at most
`MAX_MESSAGE` bytes) and waits for "ok". When nothing answers, it becomes the instance itself;
a socket file left by a crash is removed first. Messages are read with the same limit, and only
their `open` list of text is taken: the sender is this user's own program, but it is text all the
same and goes through the same checks as a pasted link.
"""

from __future__ import annotations

import getpass
import hashlib
import json
import logging
import os

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtNetwork import QLocalServer, QLocalSocket

logger = logging.getLogger(__name__)

MAX_MESSAGE = 64_000
"""Largest message read or sent, in bytes (install links are limited to half of that)."""
MAX_ITEMS = 20
TIMEOUT_MS = 3000
"""How long a second start waits for the running one to take its message."""


def socket_name(config_dir: str | None = None) -> str:
    """The per-user, per-config-folder name of the instance socket."""
    if config_dir is None:
        from app.config.paths import config_dir as current

        config_dir = str(current())
    try:
        user = getpass.getuser()
    except Exception:  # no user name (a container without one): the uid keeps it apart
        user = str(getattr(os, "getuid", lambda: "user")())
    digest = hashlib.sha256(f"{user}\0{os.path.realpath(config_dir)}".encode()).hexdigest()[:16]
    return f"mcp-desk-{digest}"


def hand_off(name: str, items: list[str], timeout_ms: int = TIMEOUT_MS) -> bool:
    """Give `items` to the instance listening on `name`; True once it said it took them.
    Blocking (it runs before this process has an event loop)."""
    message = (json.dumps({"open": items[:MAX_ITEMS]}) + "\n").encode("utf-8")
    if len(message) > MAX_MESSAGE:
        logger.warning("what was to be opened is too long to hand over (%d bytes)", len(message))
        return False
    sock = QLocalSocket()
    sock.connectToServer(name)
    if not sock.waitForConnected(timeout_ms):
        return False  # nobody there (or a socket file left by a crash)
    try:
        sock.write(message)
        if not sock.waitForBytesWritten(timeout_ms):
            return False
        reply = b""
        while b"\n" not in reply and len(reply) < 16:
            if not sock.waitForReadyRead(timeout_ms):
                return False
            reply += bytes(sock.readAll().data())
        return reply.startswith(b"ok")
    finally:
        sock.disconnectFromServer()


class SingleInstance(QObject):
    """The running instance's end. Signals: received(list) — texts a second start asked to open."""

    received = Signal(list)

    def __init__(self, name: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self.server = QLocalServer(self)
        self.server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        self.server.newConnection.connect(self._accept)
        self._buffers: dict[QLocalSocket, bytes] = {}

    def listen(self) -> bool:
        """Become the instance; False when another one is listening already.

        The live-instance probe comes first: with `UserAccessOption` Qt puts its socket in place
        by a rename, which would take the name from a running instance without an error."""
        probe = QLocalSocket()
        probe.connectToServer(self.name)
        alive = probe.waitForConnected(500)
        probe.abort()
        if alive:
            return False
        if self.server.listen(self.name):
            return True
        # Nobody answered, yet the name is taken: a socket file left by a crash.
        QLocalServer.removeServer(self.name)
        ok = self.server.listen(self.name)
        if not ok:
            logger.warning("cannot listen for a second start: %s", self.server.errorString())
        return ok

    def close(self) -> None:
        self.server.close()

    @Slot()
    def _accept(self) -> None:
        while self.server.hasPendingConnections():
            sock = self.server.nextPendingConnection()
            if sock is None:
                break
            self._buffers[sock] = b""
            sock.readyRead.connect(lambda s=sock: self._read(s))
            sock.disconnected.connect(lambda s=sock: self._gone(s))
            if sock.bytesAvailable():
                self._read(sock)

    def _read(self, sock: QLocalSocket) -> None:
        if sock not in self._buffers:
            return
        data = self._buffers[sock] + bytes(sock.readAll().data())
        if len(data) > MAX_MESSAGE:
            logger.warning("a message from a second start was too long; dropped")
            self._buffers.pop(sock, None)
            sock.abort()
            return
        self._buffers[sock] = data
        if b"\n" not in data:
            return
        line = data.split(b"\n", 1)[0]
        self._buffers.pop(sock, None)
        items = _items(line)
        sock.write(b"ok\n" if items is not None else b"no\n")
        sock.flush()
        sock.disconnectFromServer()
        if items:
            self.received.emit(items)

    def _gone(self, sock: QLocalSocket) -> None:
        self._buffers.pop(sock, None)
        sock.deleteLater()


def _items(line: bytes) -> list[str] | None:
    try:
        data = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    raw = data.get("open") if isinstance(data, dict) else None
    if not isinstance(raw, list):
        return None
    return [item for item in raw[:MAX_ITEMS] if isinstance(item, str) and item.strip()]
