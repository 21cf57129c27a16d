"""Qt widgets for forms built from JSON Schema: `FormWidget`, and `ElicitationDialog` for server questions."""

from app.ui.forms.form_widget import FormWidget

__all__ = ["ElicitationDialog", "FormWidget"]


def __getattr__(name: str) -> object:
    # The dialog is imported on first use: most windows only need FormWidget.
    if name == "ElicitationDialog":
        from app.ui.forms.elicitation_dialog import ElicitationDialog

        return ElicitationDialog
    raise AttributeError(name)
