"""Installing a server package (.mcpb, .dxt) from the window: the file dialog, drag and drop, and
the Remove flow's clean-up.

`install_bundle_file(window, path)` reads the package off the GUI thread (`app.bundles`), and then:
- a package not installed yet: its files are unpacked into the data folder and the shared install
  dialog (`app.ui.install_dialog.install_plan`) shows what it is — icon, name, version and author,
  description, website, what it runs on, then as notes the tools and prompts it declares, what it
  needs and whether this computer has it, and whether it is signed — with its `user_config` as the
  form; Add stores the keys, adds the server and asks "allow this program to run?" before it
  connects. Cancel deletes the unpacked files again.
- a package installed already (same package name): "Update NAME from 1.0 to 1.1?", then the new
  files replace the old ones with the person's values and keys kept, and it reconnects (the trust
  prompt asks again, since the program changed).

All text from a package is plain text; the icon is the PNG inside the package, never fetched.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QMimeData
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from app.mcp.visible import visible_line
from app.ui.async_dialogs import ask, run_dialog
from app.ui.i18n import translate_reason

if TYPE_CHECKING:
    from app.bundles.archive import Bundle
    from app.bundles.compat import Compatibility
    from app.bundles.installed import Installed
    from app.bundles.signature import Signature
    from app.config.store import ConfigStore

logger = logging.getLogger(__name__)

SUFFIXES = (".mcpb", ".dxt")


def menu_text() -> str:
    return QCoreApplication.translate("BundleDialog", "Install a server package (.mcpb)…")


def signature_text(sig: Signature) -> str:
    """What the package's signature says, in the window's language (`Signature.describe()` is the
    command line's English)."""
    if sig.status == "unsigned":
        return QCoreApplication.translate(
            "BundleDialog", "This package is not signed: nothing says who made it."
        )
    if sig.status == "unreadable":
        return QCoreApplication.translate(
            "BundleDialog", "This package carries a signature that could not be read; it was not verified."
        )
    if sig.subject and sig.self_signed:
        text = QCoreApplication.translate(
            "BundleDialog", "Signed by %1 (a certificate it made itself); the signature was not verified."
        )
    elif sig.subject:
        text = QCoreApplication.translate("BundleDialog", "Signed by %1; the signature was not verified.")
    else:
        return QCoreApplication.translate(
            "BundleDialog", "Signed by an unknown signer; the signature was not verified."
        )
    return text.replace("%1", visible_line(sig.subject))


def is_bundle_path(path: Path) -> bool:
    return path.suffix.lower() in SUFFIXES


def dropped_bundles(mime: QMimeData) -> list[Path]:
    """The local .mcpb/.dxt files in a drag's data (nothing else is taken)."""
    if not mime.hasUrls():
        return []
    paths = [Path(u.toLocalFile()) for u in mime.urls() if u.isLocalFile()]
    return [p for p in paths if is_bundle_path(p)]


def choose_bundle(window: Any) -> None:
    """Servers → "Install a server package (.mcpb)…": pick a file, then install it."""
    window.controller.spawn(_choose_and_install(window), window._show_error)


async def _choose_and_install(window: Any) -> str | None:
    dialog = QFileDialog(window, QCoreApplication.translate("BundleDialog", "Install a server package"))
    dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
    dialog.setNameFilters(
        [
            QCoreApplication.translate("BundleDialog", "Server packages (*.mcpb *.dxt)"),
            QCoreApplication.translate("BundleDialog", "All files (*)"),
        ]
    )
    dialog.setObjectName("bundleFileDialog")
    window.bundle_file_dialog = dialog  # tests reach it here
    try:
        code = await run_dialog(dialog)
        files = dialog.selectedFiles() if code == QFileDialog.DialogCode.Accepted.value else []
    finally:
        window.bundle_file_dialog = None
        dialog.deleteLater()
    if not files:
        return None
    return await install_bundle_file(window, Path(files[0]))


async def _tell(window: QWidget, title: str, text: str, informative: str = "") -> None:
    from app.ui.safe_text import plain_box

    box = QMessageBox(window)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(title)
    box.setText(text)
    if informative:
        box.setInformativeText(informative)
    plain_box(box)
    box.setObjectName("bundleMessage")
    window.bundle_message = box  # type: ignore[attr-defined]  # tests reach it here
    try:
        await run_dialog(box)
    finally:
        window.bundle_message = None  # type: ignore[attr-defined]
        box.deleteLater()


def _read(path: Path) -> tuple[Bundle, Compatibility]:
    """Off the GUI thread: the package, and what this computer has of what it needs."""
    from app.bundles import compat
    from app.bundles.archive import read_bundle

    bundle = read_bundle(path)
    kind = compat.runtime_kind(bundle.manifest)
    runtime = compat.find_runtime(kind) if kind else None
    return bundle, compat.check(bundle.manifest, runtime=runtime)


async def install_bundle_file(window: Any, path: Path) -> str | None:
    """Install (or update) the server in the package at `path`; returns the server's name, or
    None when the person cancelled or the package could not be used (that is said in a box)."""
    from app.bundles import installed
    from app.bundles.archive import BundleError

    bar = window.statusBar()
    bar.showMessage(QCoreApplication.translate("BundleDialog", "Reading the server package…"))
    try:
        bundle, compat = await asyncio.to_thread(_read, Path(path))
    except BundleError as exc:
        bar.clearMessage()
        await _tell(
            window,
            QCoreApplication.translate("BundleDialog", "Server package"),
            QCoreApplication.translate("BundleDialog", "This server package cannot be installed."),
            translate_reason(str(exc)),  # the core's English, translated where it has a template
        )
        return None
    bar.clearMessage()
    controller = window.controller
    existing = installed.find(controller.store, bundle.manifest.name)
    if existing is not None:
        return await _update(window, existing, bundle)
    try:
        plan = installed.plan_for(bundle, compat=compat)
    except BundleError as exc:
        await _tell(
            window,
            QCoreApplication.translate("BundleDialog", "Server package"),
            QCoreApplication.translate("BundleDialog", "This server package cannot be installed."),
            translate_reason(str(exc)),  # the core's English, translated where it has a template
        )
        return None
    folder = installed.folder_for(bundle.manifest)
    fresh = not folder.exists()
    bar.showMessage(QCoreApplication.translate("BundleDialog", "Unpacking the server package…"))
    try:
        await asyncio.to_thread(installed.unpack, bundle)
    except (BundleError, OSError) as exc:
        bar.clearMessage()
        await _tell(
            window,
            QCoreApplication.translate("BundleDialog", "Server package"),
            QCoreApplication.translate("BundleDialog", "The server package could not be unpacked."),
            translate_reason(str(exc)),  # the core's English, translated where it has a template
        )
        return None
    bar.clearMessage()
    from app.ui.install_dialog import install_plan

    name: str | None = None
    try:
        name = await install_plan(window, plan)
    finally:
        if name is None and fresh:  # cancelled: the files it unpacked go again
            await asyncio.to_thread(installed.remove_files, folder)
    return name


async def _update(window: Any, rec: Installed, bundle: Bundle) -> str | None:
    from app.bundles import installed
    from app.bundles.archive import BundleError
    from app.install.plan import MissingAnswer

    controller = window.controller
    new = bundle.manifest.version
    if new == rec.version:
        text = QCoreApplication.translate(
            "BundleDialog", "%1 %2 is installed already. Install its files again?"
        )
    else:
        text = QCoreApplication.translate("BundleDialog", "%1 %2 is installed. Update it to version %3?")
    text = text.replace("%1", visible_line(rec.server)).replace("%2", visible_line(rec.version))
    text = text.replace("%3", visible_line(new))
    ok, _ = await ask(
        window,
        QCoreApplication.translate("BundleDialog", "Update server package"),
        text,
        informative=QCoreApplication.translate("BundleDialog", "Your settings and keys are kept.")
        + "\n"
        + signature_text(bundle.signature),
        yes=QCoreApplication.translate("BundleDialog", "Update"),
        no=QCoreApplication.translate("BundleDialog", "Cancel"),
    )
    if not ok:
        return None
    await controller.forget(rec.server)  # stopped before its files are replaced
    try:
        staged = await asyncio.to_thread(installed.stage_update, controller.store, rec, bundle)
    except MissingAnswer as exc:
        await _tell(
            window,
            QCoreApplication.translate("BundleDialog", "Update server package"),
            QCoreApplication.translate(
                "BundleDialog", "This version asks for something the installed one did not: %1."
            ).replace("%1", visible_line(exc.question.label)),
            QCoreApplication.translate(
                "BundleDialog", "Remove the server, then install the package again to answer it."
            ),
        )
        return None
    except (BundleError, OSError) as exc:
        title = QCoreApplication.translate("BundleDialog", "Update server package")
        await _tell(
            window,
            title,
            QCoreApplication.translate("BundleDialog", "The server package could not be unpacked."),
            translate_reason(str(exc)),  # the core's English, translated where it has a template
        )
        return None
    try:
        for key, value in staged.secrets.items():
            await controller.secrets.aset(rec.server, key, value)
        installed.finish_update(controller.store, staged)
        if not controller.save():
            raise RuntimeError(
                QCoreApplication.translate("BundleDialog", "the server list file is broken; fix it first")
            )
    except Exception as exc:
        await asyncio.to_thread(installed.drop_old_files, staged, failed=True)
        await _tell(
            window,
            QCoreApplication.translate("BundleDialog", "Update server package"),
            QCoreApplication.translate("BundleDialog", "The server was not updated."),
            translate_reason(str(exc)),  # the core's English, translated where it has a template
        )
        return None
    await asyncio.to_thread(installed.drop_old_files, staged)
    window.servers.select(rec.server)
    window.statusBar().showMessage(
        QCoreApplication.translate("BundleDialog", "%1 was updated to version %2.")
        .replace("%1", visible_line(rec.server))
        .replace("%2", new),
        8000,
    )
    await controller.connect_server(rec.server)
    return rec.server


def bundle_folder_of(store: ConfigStore, server: str) -> Path | None:
    """The install folder of a server that came from a package (for the Remove flow), else None."""
    from app.bundles.installed import record_of

    rec = record_of(store, server)
    return rec.folder if rec is not None else None


async def remove_bundle_files(folder: Path) -> None:
    """After a package's server was removed: its files go too (off the GUI thread)."""
    from app.bundles.installed import remove_files

    await asyncio.to_thread(remove_files, folder)
