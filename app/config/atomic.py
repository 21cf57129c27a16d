"""Write a file so that a crash at any moment leaves either the old or the new version.

Temp file in the same directory (so `os.replace` is a rename, not a copy), fsync, keep the previous
version as `NAME.bak`, replace, fsync the directory. Files are created with mode 0600: they may
name tokens' whereabouts and other apps' settings.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import time
from pathlib import Path

FILE_MODE = 0o600


def atomic_write(path: Path, data: bytes, *, backup: bool = True) -> None:
    if path.is_symlink():
        # A servers.json linked from a dotfiles repo stays a link: write where it points.
        path = path.resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    # The writer's pid in the name lets a later save clear temp files of writers that died.
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, FILE_MODE)  # mkstemp already uses 0600; be explicit for other platforms
        if backup and path.exists():
            _keep_backup(path)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_dir(path.parent)


def _keep_backup(path: Path) -> None:
    """Make `NAME.bak` the current version, itself atomically (link or copy to temp, then replace)."""
    bak = path.with_name(path.name + ".bak")
    tmp = path.with_name(f".{path.name}.bak.{os.getpid()}.tmp")
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()
    try:
        try:
            # A hard link costs nothing and is the old version itself once `path` is replaced.
            os.link(path, tmp)
        except OSError:
            shutil.copyfile(path, tmp)
            os.chmod(tmp, FILE_MODE)
        os.replace(tmp, bak)
    except BaseException:
        # A full or read-only disk: leave no half-made backup behind (the caller reports it).
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def remove_stale_temp_files(path: Path, max_age: float = 600.0) -> int:
    """Delete temp files next to `path` left by writers that were killed; returns how many.

    A temp file whose writer process is gone goes at once; otherwise (or where we cannot tell)
    only once it is older than `max_age` seconds, so a concurrent writer is never disturbed.
    """
    removed = 0
    cutoff = time.time() - max_age
    for tmp in path.parent.glob(f".{path.name}.*.tmp"):
        parts = tmp.name[len(path.name) + 2 :].split(".")
        writer = int(parts[0]) if parts and parts[0].isdigit() else None
        try:
            if (writer is not None and writer != os.getpid() and not _alive(writer)) or (
                tmp.stat().st_mtime < cutoff
            ):
                tmp.unlink()
                removed += 1
        except OSError:
            continue  # vanished meanwhile, or not ours to remove
    return removed


def _alive(pid: int) -> bool:
    if os.name != "posix":
        return True  # cannot tell cheaply: rely on the age rule
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _fsync_dir(directory: Path) -> None:
    if os.name != "posix":
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
