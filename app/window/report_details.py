"""File > Report Title and Notes: what the report's title page leads with.

The title (the customer or the project) and the architect's notes are fields of the design
(``report.title``, ``report.notes``: saved with it, ``docs/design-format-report.md``); OK sets
both as one undo step, Cancel or Esc changes nothing.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QWidget,
)

from app.document.design_document import DesignDocument
from models.document.schema import prop_label
from models.document.snapshots import REPORT_NOTES, REPORT_TITLE

TITLE = "Report Title and Notes"


class ReportDetailsDialog(QDialog):
    """The report's title and notes, as the design holds them."""

    def __init__(self, document: DesignDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.setWindowTitle(TITLE)
        design = document.design
        self.title = QLineEdit(design.report_title)
        self.title.setPlaceholderText(design.name)
        self.title.setAccessibleName(prop_label("design", REPORT_TITLE))
        self.title.setToolTip("The customer or project the report is for: its title page"
                              " leads with it, the design's name under it (empty: the"
                              " design's name leads)")
        self.notes = QPlainTextEdit(design.report_notes)
        self.notes.setAccessibleName(prop_label("design", REPORT_NOTES))
        self.notes.setTabChangesFocus(True)
        self.notes.setToolTip("Shown under the title on the report's title page")
        form = QFormLayout(self)
        form.addRow(QLabel("What the title page of File > Export Report leads with."))
        form.addRow(prop_label("design", REPORT_TITLE), self.title)
        form.addRow(prop_label("design", REPORT_NOTES), self.notes)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.resize(560, 320)

    def accept(self) -> None:
        """Set what changed, as one undo step."""
        self.document.set_report_details(self.title.text().strip(),
                                         self.notes.toPlainText().strip())
        super().accept()


def edit_report_details(document: DesignDocument, parent: QWidget | None = None) -> bool:
    """Show the dialog; True when it was accepted."""
    return ReportDetailsDialog(document, parent).exec() == QDialog.DialogCode.Accepted
