"""Importing and exporting servers: from Claude Desktop / Cursor / VS Code files or a chosen file,
the servers of a pasted snippet with several, and export back to those formats.

Import goes through app.config.importing (one parser with the CLI) in a worker thread because
storing secrets touches the keyring; values the file asks for are asked on the GUI thread.
"""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QDialog,
    QInputDialog,
    QLineEdit,
    QMessageBox,
)

from app.ui.async_dialogs import choose_path, inform, keyboard_rule, run_dialog
from app.ui.safe_text import plain_labels, visible_line

logger = logging.getLogger(__name__)


_TASKS: set[asyncio.Future[None]] = set()
"""Flows started from a menu (export) kept alive until they end (the loop holds tasks weakly)."""

APPS = {
    "claude": "Claude Desktop",
    "cursor": "Cursor",
    "vscode": "VS Code",
}
"""The apps whose server lists can be imported (their names are not translated)."""


def _tr(text: str, disambiguation: str | None = None, n: int = -1) -> str:
    return QCoreApplication.translate("ServerImport", text, disambiguation, n)


async def import_plans(window: Any, plans: list[Any], answers: list[dict[str, str | None]]) -> None:
    """Add the servers of a pasted snippet, each with its answers (keys to the keychain in a
    worker thread); what was added and what was not is reported as for a file."""
    from app.config.importing import add_applied
    from app.install.plan import apply

    controller = window.controller
    applied = [(p.title or p.name, apply(p, a)) for p, a in zip(plans, answers, strict=True)]
    try:
        result = await asyncio.to_thread(add_applied, controller.store, controller.secrets, applied)
    except Exception as exc:
        await inform(
            window,
            QCoreApplication.translate("ServerImport", "Import failed"),
            QCoreApplication.translate("ServerImport", "Nothing was imported:") + f"\n\n{exc}",
            icon=QMessageBox.Icon.Critical,
        )
        return
    await _imported(window, result)


async def import_servers(window: Any, source: str) -> None:
    """Import from Claude Desktop / Cursor / VS Code (their usual files) or a chosen file."""
    from app.config.locations import known_import_sources

    if source == "file":
        chosen = await choose_path(
            window,
            QCoreApplication.translate("ServerImport", "Import servers from"),
            str(Path.home()),
            filters=QCoreApplication.translate("ServerImport", "JSON files (*.json *.jsonc);;All files (*)"),
        )
        if chosen:
            await _import_file(window, Path(chosen[0]), "auto")
        return
    found = [s for s in known_import_sources() if s.format == source and s.exists]
    if not found:
        await inform(
            window,
            QCoreApplication.translate("ServerImport", "Nothing to import"),
            QCoreApplication.translate("ServerImport", "No %1 settings were found on this computer.").replace(
                "%1", APPS.get(source, source)
            ),
        )
        return
    await _import_file(window, found[0].path, found[0].format)


async def _import_file(window: Any, path: Path, fmt: Any) -> None:
    from app.config.importing import import_into
    from app.secrets.resolve import extract_secrets

    controller = window.controller
    loop = asyncio.get_running_loop()

    def ask_input(spec: Any) -> str | None:
        # Called in the worker thread: ask on the GUI thread and wait for the answer.
        fut = asyncio.run_coroutine_threadsafe(_ask_input(window, spec), loop)
        return fut.result()

    def extract(entry: Any, *, detect: bool, taken: set[str]) -> dict[str, str]:
        return extract_secrets(entry, detect=detect, taken=taken)

    try:
        result = await asyncio.to_thread(
            import_into, controller.store, controller.secrets, path, fmt, ask=ask_input, extract=extract
        )
    except Exception as exc:
        await inform(
            window,
            QCoreApplication.translate("ServerImport", "Import failed"),
            QCoreApplication.translate("ServerImport", "Nothing was imported from %1:").replace(
                "%1", str(path)
            )
            + f"\n\n{exc}",
            icon=QMessageBox.Icon.Critical,
        )
        return
    await _imported(window, result)


async def _imported(window: Any, result: Any) -> None:
    controller = window.controller
    controller.servers_changed.emit()
    if result.added:
        msg = QCoreApplication.translate("ServerImport", "Imported %1.").replace(
            "%1", ", ".join(new for _, new in result.added)
        )
    else:
        msg = QCoreApplication.translate("ServerImport", "No server was imported.")
    secrets = len(result.secret_names)
    if secrets:
        msg += " " + QCoreApplication.translate(
            "ServerImport", "Keys moved to your computer's keychain: %1."
        ).replace("%1", str(secrets))
    if result.warnings:
        msg += "\n\n" + "\n".join(result.warnings)
    window.statusBar().showMessage(visible_line(msg.splitlines()[0]), 10000)
    if result.added:
        window.servers.select(result.added[0][1])
    if result.skipped:
        await _report_skipped(window, result)


async def _report_skipped(window: Any, result: Any) -> None:
    """Servers left out of an import (their keys had nowhere to go): each with its reason."""
    from app.secrets.backend import HELP_DOC

    lines = [f"{s.original_name}: {s.reason}" for s in result.skipped]
    text = (
        QCoreApplication.translate("ServerImport", "Imported %1 server(s); %2 could not be imported:")
        .replace("%1", str(len(result.added)))
        .replace("%2", str(len(result.skipped)))
    )
    forward = ""
    if any(s.needs_keychain for s in result.skipped):
        forward = QCoreApplication.translate(
            "ServerImport", "Set up a keychain (see %1) and add them again; the others are imported."
        ).replace("%1", HELP_DOC)
    await inform(
        window,
        QCoreApplication.translate("ServerImport", "Some servers were not imported"),
        text + "\n" + "\n".join(lines),
        informative=forward,
        icon=QMessageBox.Icon.Warning,
    )


async def _ask_input(window: Any, spec: Any) -> str | None:
    d = QInputDialog(window)
    d.setWindowTitle(QCoreApplication.translate("ServerImport", "A value the import needs"))
    d.setLabelText(spec.description or spec.id)
    plain_labels(d)  # the description comes from the imported file: never rendered as HTML
    d.setTextEchoMode(QLineEdit.EchoMode.Password if spec.password else QLineEdit.EchoMode.Normal)
    keyboard_rule(d)
    code = await run_dialog(d)
    value = d.textValue() if code == QDialog.DialogCode.Accepted.value else None
    d.deleteLater()
    return value


def export_servers(window: Any) -> asyncio.Future[None]:
    """Save the list in Claude Desktop or VS Code format (secrets stay references); the file is
    chosen in a dialog opened and awaited, so this starts the flow and returns its task."""
    task = asyncio.ensure_future(_export_servers(window))
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)
    return task


async def _export_servers(window: Any) -> None:
    from app.config.atomic import atomic_write
    from app.config.exporting import export_claude, export_vscode

    vscode = QCoreApplication.translate("ServerImport", "VS Code mcp.json (*.json)")
    chosen = await choose_path(
        window,
        QCoreApplication.translate("ServerImport", "Export servers"),
        str(Path.home() / "mcp-servers.json"),
        save=True,
        filters=QCoreApplication.translate("ServerImport", "Claude Desktop / Cursor (*.json)")
        + ";;"
        + vscode,
    )
    if not chosen:
        return
    path, chosen_filter = chosen
    data, warnings = (export_vscode if chosen_filter == vscode else export_claude)(window.controller.store)
    try:
        atomic_write(Path(path), (json.dumps(data, indent=2) + "\n").encode("utf-8"), backup=False)
    except OSError as exc:
        await inform(
            window,
            QCoreApplication.translate("ServerImport", "Export failed"),
            QCoreApplication.translate("ServerImport", "The file could not be written: %1").replace(
                "%1", str(exc)
            ),
            icon=QMessageBox.Icon.Critical,
        )
        return
    msg = QCoreApplication.translate("ServerImport", "Exported to %1").replace("%1", path)
    if warnings:
        msg += f" ({'; '.join(warnings)})"
    window.statusBar().showMessage(visible_line(msg), 10000)
