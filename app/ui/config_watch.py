"""Notice when `servers.json` or `settings.json` change outside this window (an editor, the CLI,
another window), so the window can take the change in place.

Saves replace a file atomically (a new inode), and a file watch ends with the file it was on, so
the folder itself is watched and the files are watched again after every event. Events come in
bursts (temp file, backup, rename), so `changed` is emitted once, a short while after the last.
Whether anything really changed (and not just our own save) is for the receiver to decide by
comparing contents: `ConfigStore.refresh()` does.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal, Slot

logger = logging.getLogger(__name__)

DEBOUNCE_MS = 200


class ConfigWatcher(QObject):
    """Watches a config folder for changes to some of its files.

    Signals:
        changed(): one of the files may have changed (debounced; possibly our own write).
    """

    changed = Signal()

    def __init__(
        self,
        directory: Path,
        names: Iterable[str],
        *,
        debounce_ms: int = DEBOUNCE_MS,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.directory = directory
        self.names = tuple(names)
        self._watcher = QFileSystemWatcher(self)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(debounce_ms)
        self._timer.timeout.connect(self._fire)
        self._watcher.directoryChanged.connect(self._poke)
        self._watcher.fileChanged.connect(self._poke)
        self._rewatch()

    def watched(self) -> list[str]:
        return [*self._watcher.directories(), *self._watcher.files()]

    def _wanted(self) -> list[str]:
        paths: list[Path] = []
        # The folder may not exist yet (first run, nothing saved): watch the nearest parent that
        # does, so its creation is seen.
        folder = self.directory
        while not folder.is_dir() and folder.parent != folder:
            folder = folder.parent
        paths.append(folder)
        for name in self.names:
            path = self.directory / name
            if path.exists():
                paths.append(path)
                if path.is_symlink():
                    # A servers.json linked from a dotfiles repo is replaced over there.
                    real = path.resolve()
                    paths += [real, real.parent]
        return list(dict.fromkeys(str(p) for p in paths))

    def _rewatch(self) -> None:
        have, wanted = set(self.watched()), self._wanted()
        # The parent watched before the folder existed, or a link's old target: no longer needed.
        stale = [p for p in have if p not in wanted]
        if stale:
            self._watcher.removePaths(stale)
        missing = [p for p in wanted if p not in have and Path(p).exists()]
        if missing:
            failed = self._watcher.addPaths(missing)
            if failed:
                logger.debug("cannot watch %s", failed)

    @Slot(str)
    def _poke(self, _path: str) -> None:
        self._rewatch()
        self._timer.start()

    @Slot()
    def _fire(self) -> None:
        self._rewatch()
        self.changed.emit()
