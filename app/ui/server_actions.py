"""What a person does to servers from the window: connect, edit, duplicate, rename, disable,
remove, add, import and export. Each action saves through the controller; the list, the overview
and the catalog follow the engine's events and the saved list, never a guess made here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Slot

from app.ui.safe_text import visible_line
from app.ui.wording import fill

if TYPE_CHECKING:
    from PySide6.QtWidgets import QInputDialog

    from app.ui.window import MainWindow


class ServerActions(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.rename_dialog: QInputDialog | None = None  # open while Rename… asks for a name

    @Slot(str, str)
    def on_action(self, action: str, name: str) -> None:
        c = self.window.controller
        # The row, the overview and the middle change with the engine's events, not here.
        if action == "connect":
            c.spawn(c.connect_server(name))
        elif action == "disconnect":
            c.spawn(c.disconnect_server(name))
        elif action == "reconnect":
            c.spawn(c.reconnect_server(name))
        elif action == "edit":
            self.edit_server(name)
        elif action == "duplicate":
            c.spawn(self.duplicate_server(name), self.window._show_error)
        elif action == "remove":
            c.spawn(self.remove_server(name), self.window._show_error)
        elif action == "rename":
            c.spawn(self.rename_server(name), self.window._show_error)
        elif action in ("disable", "enable"):
            self.set_server_enabled(name, action == "enable")
        elif action == "sign_in":
            c.spawn(c.sign_in(name), self.window._show_error)
        elif action == "cancel_sign_in":
            c.spawn(c.cancel_sign_in(name), self.window._show_error)
        elif action == "sign_out":
            c.spawn(c.sign_out(name), self.window._show_error)

    def config_broken(self) -> bool:
        """Changing the list while servers.json does not parse would overwrite what the user wrote."""
        err = self.window.controller.config_error
        if err:
            self.window.statusBar().showMessage(
                visible_line(fill(self.tr("Fix the server list file first: %1"), err)), 15000
            )
        return err is not None

    @Slot()
    def add_server(self) -> None:
        from app.ui.server_dialog import open_server_dialog

        if self.config_broken():
            return
        self.window.controller.spawn(open_server_dialog(self.window, None), self.window._show_error)

    def edit_server(self, name: str) -> None:
        from app.ui.server_dialog import open_server_dialog

        self.window.controller.spawn(open_server_dialog(self.window, name), self.window._show_error)

    def import_from(self, source: str) -> None:
        from app.ui.server_dialog import import_servers

        if self.config_broken():
            return
        self.window.controller.spawn(import_servers(self.window, source), self.window._show_error)

    def export_servers(self) -> None:
        from app.ui.server_dialog import export_servers

        export_servers(self.window)

    async def duplicate_server(self, name: str) -> None:
        import copy

        c = self.window.controller
        entry = c.entry(name)
        if entry is None:
            return
        new = copy.deepcopy(entry)
        new.name = c.store.unique_name(f"{name}-copy")
        # Secrets are stored per server: copy each referenced one to the new name (off the GUI thread).
        for ref in sorted(entry.secret_refs()):
            value = await c.secrets.aget(name, ref)
            if value is not None:
                await c.secrets.aset(new.name, ref, value)
        c.store.add(new)
        c.save()
        self.window.servers.select(new.name)

    async def rename_server(self, name: str) -> str | None:
        """Ask for a new name and rename the server (its keys and settings follow, as after Edit);
        returns the new name, None when nothing changed."""
        from PySide6.QtWidgets import QInputDialog, QLineEdit

        from app.config.store import name_problem
        from app.ui.async_dialogs import run_dialog

        c = self.window.controller
        if self.config_broken() or c.entry(name) is None:
            return None
        dialog = QInputDialog(self.window)
        dialog.setWindowTitle(self.tr("Rename server"))
        dialog.setLabelText(fill(self.tr("New name for “%1”:"), visible_line(name)))
        dialog.setTextEchoMode(QLineEdit.EchoMode.Normal)
        dialog.setTextValue(name)
        dialog.setOkButtonText(self.tr("Rename"))
        self.rename_dialog = dialog  # tests reach it here
        try:
            accepted = await run_dialog(dialog) == QInputDialog.DialogCode.Accepted
            new = dialog.textValue().strip()
        finally:
            self.rename_dialog = None
            dialog.deleteLater()
        if not accepted or not new or new == name:
            return None
        problem = name_problem(new)
        if problem is None and c.entry(new) is not None:
            problem = fill(self.tr("a server named “%1” already exists"), visible_line(new))
        if problem is not None:
            not_renamed = fill(self.tr("Not renamed: %1"), visible_line(problem))
            self.window.statusBar().showMessage(not_renamed, 15000)
            return None
        # As the Edit dialog does: the old connection goes, the keys move, then the list is saved
        # (the controller connects the server under its new name if it is enabled).
        await c.forget(name)
        await c.secrets.arename_server(name, new)
        c.store.rename(name, new)
        c.save()
        self.window.servers.select(new)
        return new

    def set_server_enabled(self, name: str, enabled: bool) -> None:
        """Disable or enable a server (saved; the controller disconnects or connects it)."""
        c = self.window.controller
        entry = c.entry(name)
        if entry is None or self.config_broken():
            return
        entry.disabled = not enabled
        c.store.update(entry)
        try:
            c.save()
        except Exception as exc:  # ConfigError, OSError: said, the list shows what the store holds
            self.window._show_error(exc)

    async def remove_server(self, name: str) -> None:
        from PySide6.QtWidgets import QMessageBox

        from app.ui.async_dialogs import ask

        c = self.window.controller
        ok, delete_secrets = await ask(
            self.window,
            self.tr("Remove server"),
            fill(self.tr("Remove the server “%1” from MCP Desk?"), name),
            yes=self.tr("Remove"),
            no=self.tr("Keep"),
            checkbox=self.tr("Also delete its saved keys from your computer's keychain"),
            icon=QMessageBox.Icon.Warning,
        )
        if not ok:
            return
        await c.forget(name)
        self.window._clear_server(name)
        from app.ui.bundle_dialog import bundle_folder_of, remove_bundle_files

        package_folder = bundle_folder_of(c.store, name)  # installed from a package: its files go too
        c.store.remove(name)
        c.save()
        if package_folder is not None:
            await remove_bundle_files(package_folder)
        if delete_secrets:
            await c.secrets.adelete_server(name)
