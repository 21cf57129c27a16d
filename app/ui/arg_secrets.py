"""Secret arguments in the server dialog's argument list.

A person marks an argument secret (the "Keep secret" button or the list's context menu), or one is
detected as it is typed or pasted (`--api-key X`, `--token=X`, `ghp_...`, `?token=` in a URL
argument): the secret part of the item is replaced by `${secret:NAME}` at once, so the value is no
longer on screen, and kept on the item until Save stores it in the keychain. Other local users can
read a running program's arguments, so while an argument holds a secret a note says so and
suggests an environment variable.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject, Qt, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QPushButton, QWidget

from app.ui.dialog_style import note
from app.ui.safe_text import plain_label

if TYPE_CHECKING:
    from app.config.model import ServerEntry

# Per item: {secret name: value} of the values this dialog took out of it and has not stored yet.
PENDING_ROLE = Qt.ItemDataRole.UserRole + 41


def _tr(text: str) -> str:
    return QCoreApplication.translate("ServerDialog", text)


def argv_warning_text() -> str:
    return QCoreApplication.translate(
        "ServerDialog",
        "Other people signed in to this computer can see the arguments of a running program, so a "
        "key passed as an argument is not hidden from them. If the server can read the key from an "
        "environment variable, add it under Environment instead.",
    )


class ArgSecrets(QObject):
    """Keeps the argument list's secrets out of sight; `taken()` names the dialog's other secrets."""

    def __init__(self, args: QListWidget, taken: Callable[[], set[str]], parent: QWidget) -> None:
        super().__init__(parent)
        self.list = args
        self._taken = taken
        self._busy = False
        self.mark_button = QPushButton(QCoreApplication.translate("ServerDialog", "Keep secret"))
        self.mark_button.setToolTip(
            QCoreApplication.translate(
                "ServerDialog", "Keep the selected argument in your computer's keychain"
            )
        )
        self.mark_button.clicked.connect(self.mark_current)
        self.mark_action = QAction(
            QCoreApplication.translate("ServerDialog", "Keep secret (in the keychain)"), args
        )
        self.mark_action.triggered.connect(self.mark_current)
        args.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        args.addAction(self.mark_action)
        self.warning = plain_label(argv_warning_text(), wrap=True)
        self.warning.setObjectName("argvWarning")
        note(self.warning, "warning")
        self.warning.hide()
        args.itemChanged.connect(self._item_changed)
        args.model().rowsInserted.connect(self.update_warning)
        args.model().rowsRemoved.connect(self.update_warning)

    def _texts(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())]

    def _names_in_use(self) -> set[str]:
        from app.config.refs import secret_refs

        names = set(self._taken())
        for i in range(self.list.count()):
            item = self.list.item(i)
            names.update(secret_refs(item.text()))
            names.update(item.data(PENDING_ROLE) or {})
        return names

    def _take(self, row: int, spans: list[tuple[int, int, str]]) -> None:
        """Replace `spans` (start, end, wanted name) of item `row` by references."""
        from app.config.refs import secret_ref
        from app.config.secret_names import numbered_secret_name, unique_secret_name

        item = self.list.item(row)
        text = item.text()
        pending = dict(item.data(PENDING_ROLE) or {})
        taken = self._names_in_use()
        named = [
            (s, e, unique_secret_name(w, taken) if w else numbered_secret_name("TOKEN", taken))
            for s, e, w in spans
        ]
        for start, end, name in sorted(named, reverse=True):
            pending[name] = text[start:end]
            text = text[:start] + secret_ref(name) + text[end:]
        self._busy = True
        try:
            item.setText(text)
            item.setData(PENDING_ROLE, pending)
        finally:
            self._busy = False
        self.update_warning()

    @Slot()
    def mark_current(self) -> bool:
        """Move the selected argument (the value part of `--flag=VALUE`) to the keychain."""
        from app.secrets.detect import marked_arg_secret

        row = self.list.currentRow()
        if row < 0:
            return False
        found = marked_arg_secret(self._texts(), row)
        if found is None:
            return False
        self._take(row, [(found.start, found.end, found.name)])
        return True

    def detect(self, rows: list[int] | None = None) -> int:
        """Take detected secrets out of the given rows (all by default); how many were found."""
        from app.secrets.detect import find_arg_secrets

        found = [f for f in find_arg_secrets(self._texts()) if rows is None or f.index in rows]
        for row in sorted({f.index for f in found}):
            self._take(row, [(f.start, f.end, f.name) for f in found if f.index == row])
        return len(found)

    @Slot(QListWidgetItem)
    def _item_changed(self, item: QListWidgetItem) -> None:
        if self._busy:
            return
        self.detect([self.list.row(item)])
        self.update_warning()

    @Slot()
    def update_warning(self) -> None:
        from app.secrets import detect

        secret = any("${secret:" in text for text in self._texts())
        self.warning.setVisible(secret and detect.argv_visible_to_others())

    def pending(self, args: list[str]) -> dict[str, str]:
        """Values taken out of the items whose reference is still in `args` (to store on Save)."""
        from app.config.refs import secret_refs

        used = {name for arg in args for name in secret_refs(arg)}
        out: dict[str, str] = {}
        for i in range(self.list.count()):
            for name, value in (self.list.item(i).data(PENDING_ROLE) or {}).items():
                if name in used:
                    out[name] = value
        return out


def take_launch_secrets(
    entry: ServerEntry, secrets: dict[str, str], pending: dict[str, str]
) -> dict[str, str]:
    """The dialog's arguments' pending secrets, plus any secret still in clear in the arguments or
    the URL (moved into references in `entry` now); names already in `secrets` are avoided."""
    from app.secrets.resolve import extract_launch_secrets

    taken = set(secrets) | set(pending) | entry.secret_refs()
    return {**pending, **extract_launch_secrets(entry, taken=taken)}
