"""Opening a package file and unpacking it safely.

A package is whoever made it: its zip may try to write outside the install folder (`../x`, `/etc/x`,
`C:\\x`), plant a link that points elsewhere, or be a zip bomb. So every entry is checked before
anything is written — a name that is relative, without `..`, without drive letters or NUL; a plain
file or folder (a symlink or device entry refuses the whole package); at most `MAX_FILES` entries,
`MAX_TOTAL` bytes unpacked, `MAX_RATIO` times the packed size — and while writing, the bytes
actually produced are counted (a header can lie about its size). The files go to a temporary folder
beside the destination, which is renamed into place only once everything is written: a failed or
interrupted unpack leaves the previous install as it was.
"""

from __future__ import annotations

import io
import json
import logging
import os
import shutil
import stat
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO, Any

from app.bundles import signature
from app.bundles.manifest import Manifest, ManifestError, parse
from app.words import QT_TRANSLATE_NOOP, fill

logger = logging.getLogger(__name__)

MAX_PACKAGE = 1 << 30
"""Largest package file opened (1 GiB): a Python package with its libraries is tens of MB."""
MAX_FILES = 20_000
MAX_TOTAL = 2 << 30
"""Largest total unpacked size (2 GiB)."""
MAX_RATIO = 200
"""Largest unpacked/packed ratio for the whole package once it unpacks to more than `RATIO_FLOOR`
(text compresses 5-10x; a zip bomb 1000x and more)."""
RATIO_FLOOR = 20 << 20
MAX_MANIFEST = 1 << 20
MAX_ICON = 1 << 20
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
CHUNK = 1 << 16


# Why a package cannot be used, as templates (app.ui.i18n.translate_reason); the rarer ones
# (sizes, paths outside the folder) stay English.
NOT_A_ZIP = QT_TRANSLATE_NOOP("Reasons", "This file is not a server package (it is not a zip file).")
NO_MANIFEST = QT_TRANSLATE_NOOP("Reasons", "This file is not a server package: it has no manifest.json.")
MANIFEST_UNREADABLE = QT_TRANSLATE_NOOP("Reasons", "The package's manifest.json cannot be read: %1.")
MANIFEST_INVALID = QT_TRANSLATE_NOOP("Reasons", "The package's manifest.json is not valid: %1.")
DAMAGED = QT_TRANSLATE_NOOP("Reasons", "The package is damaged: %1.")
CANNOT_OPEN = QT_TRANSLATE_NOOP("Reasons", "The package could not be opened: %1.")
ZIP_BOMB = QT_TRANSLATE_NOOP(
    "Reasons", "The package unpacks to far more than its size (a \u201czip bomb\u201d); it was refused."
)
HOLDS_LINK = QT_TRANSLATE_NOOP("Reasons", "The package holds a link (%1); packages with links are refused.")
TWICE = QT_TRANSLATE_NOOP("Reasons", "The package holds %1 twice; it was refused.")
TEMPLATES: tuple[str, ...] = (
    NOT_A_ZIP,
    NO_MANIFEST,
    MANIFEST_UNREADABLE,
    MANIFEST_INVALID,
    DAMAGED,
    CANNOT_OPEN,
    ZIP_BOMB,
    HOLDS_LINK,
    TWICE,
)


class BundleError(ValueError):
    """The package cannot be used; the message says why, in plain words."""


@dataclass(frozen=True)
class Bundle:
    """A package read (not unpacked): what it says about itself and what it holds."""

    path: Path
    manifest: Manifest
    signature: signature.Signature
    icon: bytes | None
    files: frozenset[str]
    """Every file's name in the package (posix, relative)."""
    unpacked_size: int


class _Window(io.RawIOBase):
    """The first `end` bytes of a file: the zip without the signature block after it."""

    def __init__(self, fp: IO[bytes], end: int) -> None:
        super().__init__()
        self._fp = fp
        self._end = end
        self._pos = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._pos

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        base = {os.SEEK_SET: 0, os.SEEK_CUR: self._pos, os.SEEK_END: self._end}[whence]
        self._pos = max(0, min(self._end, base + offset))
        return self._pos

    def read(self, size: int = -1) -> bytes:
        left = self._end - self._pos
        if size is None or size < 0 or size > left:
            size = left
        self._fp.seek(self._pos)
        data = self._fp.read(size)
        self._pos += len(data)
        return data

    def readinto(self, buffer: Any) -> int:
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def _safe_name(name: str) -> str | None:
    """The entry's path relative to the install folder, or None when it must be refused."""
    if "\0" in name:
        return None
    name = name.replace("\\", "/")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        return None
    parts = [p for p in PurePosixPath(name).parts if p not in ("", ".")]
    if not parts or any(p == ".." for p in parts):
        return None
    if any(":" in p for p in parts):  # NTFS alternate streams, drive-relative names
        return None
    return "/".join(parts)


def _kind(info: zipfile.ZipInfo) -> str:
    """ "file", "dir" or what else the entry is (a link, a device...), from the Unix file type
    bits; entries without them (zips made on Windows, or with permission bits only, as Python's
    `writestr` makes them) are plain files."""
    kind = stat.S_IFMT(info.external_attr >> 16)
    if info.is_dir() or kind == stat.S_IFDIR:
        return "dir"
    if kind in (0, stat.S_IFREG):
        return "file"
    if kind == stat.S_IFLNK:
        return "link"
    return "special"


def _check_entries(zf: zipfile.ZipFile, packed_size: int) -> tuple[list[tuple[zipfile.ZipInfo, str]], int]:
    infos = zf.infolist()
    if len(infos) > MAX_FILES:
        raise BundleError(f"The package holds too many files ({len(infos):,}; at most {MAX_FILES:,}).")
    out: list[tuple[zipfile.ZipInfo, str]] = []
    total = 0
    seen: set[str] = set()
    for info in infos:
        name = _safe_name(info.filename)
        if name is None:
            raise BundleError(
                f"The package tries to write outside its folder ({info.filename[:120]!r}); it was refused."
            )
        kind = _kind(info)
        if kind == "link":
            raise BundleError(fill(HOLDS_LINK, name[:120]))
        if kind == "special":
            raise BundleError(
                f"The package holds something that is not a file ({name[:120]}); it was refused."
            )
        if kind == "file":
            if name.lower() in seen:
                raise BundleError(fill(TWICE, name[:120]))
            seen.add(name.lower())
            total += info.file_size
            if total > MAX_TOTAL:
                raise BundleError(
                    f"The package would unpack to more than {MAX_TOTAL >> 30} GB; it was refused."
                )
        out.append((info, name))
    if total > RATIO_FLOOR and total > MAX_RATIO * max(packed_size, 1):
        raise BundleError(ZIP_BOMB)
    return out, total


def _open(path: Path) -> tuple[IO[bytes], signature.Signature]:
    try:
        fp = open(path, "rb")  # noqa: SIM115 - handed to the caller, closed there
    except OSError as exc:
        raise BundleError(fill(CANNOT_OPEN, exc.strerror or exc)) from None
    try:
        size = os.fstat(fp.fileno()).st_size
        if size > MAX_PACKAGE:
            raise BundleError(
                f"The package is too large ({size >> 20:,} MB; at most {MAX_PACKAGE >> 20:,} MB)."
            )
        tail_size = min(size, signature.MAX_BLOCK)
        fp.seek(size - tail_size)
        sig = signature.read(fp.read(tail_size), size)
    except BaseException:
        fp.close()
        raise
    return fp, sig


def _read_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int) -> bytes:
    with zf.open(info) as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise BundleError(f"{info.filename[:120]} is too large ({limit >> 10} KB at most).")
    return data


def _find(entries: list[tuple[zipfile.ZipInfo, str]], name: str) -> zipfile.ZipInfo | None:
    wanted = _safe_name(name)
    for info, safe in entries:
        if safe == wanted and not info.is_dir():
            return info
    return None


def _icon(
    zf: zipfile.ZipFile, entries: list[tuple[zipfile.ZipInfo, str]], manifest: Manifest
) -> bytes | None:
    """The package's PNG icon: the largest light (or theme-less) one of `icons`, else `icon`.
    An `https://` icon is not fetched (nothing is fetched for a package that is not installed)."""
    candidates: list[str] = []

    def area(size: str) -> int:
        w, _, h = size.partition("x")
        return int(w) * int(h) if w.isdigit() and h.isdigit() else 0

    for src, _size, theme in sorted(manifest.icons, key=lambda i: -area(i[1])):
        if theme in (None, "light"):
            candidates.append(src)
    if manifest.icon:
        candidates.append(manifest.icon)
    for src in candidates:
        if "://" in src:
            continue
        info = _find(entries, src)
        if info is None:
            continue
        try:
            data = _read_member(zf, info, MAX_ICON)
        except BundleError:
            continue
        if data.startswith(PNG_MAGIC):
            return data
    return None


def read_bundle(path: Path | str) -> Bundle:
    """Read a package's manifest, icon and file list (nothing is unpacked); raises `BundleError`.
    Blocking (file I/O, inflating): call it off the GUI thread."""
    path = Path(path)
    fp, sig = _open(path)
    with fp:
        try:
            zf = zipfile.ZipFile(_Window(fp, sig.zip_end))
        except (zipfile.BadZipFile, OSError, ValueError):
            raise BundleError(NOT_A_ZIP) from None
        with zf:
            entries, total = _check_entries(zf, sig.zip_end)
            info = _find(entries, "manifest.json")
            if info is None:
                raise BundleError(NO_MANIFEST)
            try:
                raw = _read_member(zf, info, MAX_MANIFEST)
                data = json.loads(raw.decode("utf-8-sig"))
            except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                raise BundleError(fill(MANIFEST_UNREADABLE, exc)) from None
            except (zipfile.BadZipFile, OSError, EOFError) as exc:
                raise BundleError(fill(DAMAGED, exc)) from None
            try:
                manifest = parse(data)
            except ManifestError as exc:
                raise BundleError(fill(MANIFEST_INVALID, exc)) from None
            icon = _icon(zf, entries, manifest)
            files = frozenset(name for i, name in entries if not i.is_dir())
    return Bundle(path, manifest, sig, icon, files, total)


def extract(bundle: Bundle, dest: Path) -> Path:
    """Unpack `bundle` into `dest` (replacing what is there), safely; returns `dest`.
    The package file is read again and checked again: it may have changed since `read_bundle`."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".unpacking-", dir=dest.parent))
    try:
        fp, sig = _open(bundle.path)
        with fp, zipfile.ZipFile(_Window(fp, sig.zip_end)) as zf:
            entries, _total = _check_entries(zf, sig.zip_end)
            written = 0
            for info, name in entries:
                target = tmp.joinpath(*name.split("/"))
                # Belt and braces: the checked name cannot leave `tmp`, and no link exists in it.
                if os.path.commonpath([tmp, target.resolve()]) != str(tmp.resolve()):
                    raise BundleError(f"The package tries to write outside its folder ({name[:120]!r}).")
                if info.is_dir():
                    target.mkdir(parents=True, exist_ok=True)
                    continue
                target.parent.mkdir(parents=True, exist_ok=True)
                written += _write_member(zf, info, target)
                if written > MAX_TOTAL:
                    raise BundleError(
                        f"The package unpacks to more than {MAX_TOTAL >> 30} GB; it was refused."
                    )
                mode = (info.external_attr >> 16) & 0o777
                os.chmod(target, 0o755 if mode & 0o111 else 0o644)
        _replace(tmp, dest)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return dest


def _write_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, target: Path) -> int:
    written = 0
    try:
        with zf.open(info) as src, open(target, "xb") as out:
            while chunk := src.read(CHUNK):
                written += len(chunk)
                if written > info.file_size:  # the header lied about the size
                    raise BundleError(
                        f"{info.filename[:120]} is larger than the package says; it was refused."
                    )
                out.write(chunk)
    except (zipfile.BadZipFile, EOFError) as exc:
        raise BundleError(f"The package is damaged ({info.filename[:120]}: {exc}).") from None
    except FileExistsError:
        raise BundleError(fill(TWICE, info.filename[:120])) from None
    return written


def _replace(new: Path, dest: Path) -> None:
    """Put `new` at `dest`; an old `dest` is moved aside first and removed once `new` is in place."""
    old: Path | None = None
    if dest.exists():
        old = dest.with_name(f".old-{dest.name}-{os.getpid()}")
        shutil.rmtree(old, ignore_errors=True)
        os.replace(dest, old)
    try:
        os.replace(new, dest)
    except BaseException:
        if old is not None:
            os.replace(old, dest)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
