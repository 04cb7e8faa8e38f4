"""File > Report Title and Notes: both set as one undo step, Cancel changes nothing
(app/window/report_details.py)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.document.design_document import DesignDocument
from app.window.main_window import MainWindow
from app.window.report_details import ReportDetailsDialog
from models.examples import bundled as examples


def _doc() -> DesignDocument:
    return DesignDocument(examples.load("vaio-scaling"))


def test_title_and_notes_are_one_undo_step(qtbot: QtBot) -> None:
    doc = _doc()
    dialog = ReportDetailsDialog(doc)
    qtbot.addWidget(dialog)
    assert dialog.title.placeholderText() == doc.design.name
    dialog.title.setText("Contoso Ltd ")
    dialog.notes.setPlainText("Sized for the 2027 budget.")
    dialog.accept()
    d = doc.design
    assert (d.report_title, d.report_notes) == ("Contoso Ltd", "Sized for the 2027 budget.")
    assert doc.undo_stack.count() == 1
    assert doc.undo_stack.undoText() == "Edit the report title and report notes"
    doc.undo_stack.undo()
    assert (d.report_title, d.report_notes) == ("", "")
    doc.undo_stack.redo()
    assert d.report_title == "Contoso Ltd" and doc.is_modified


def test_only_what_changed_is_set_and_nothing_when_nothing_changed(qtbot: QtBot) -> None:
    doc = _doc()
    assert not doc.set_report_details("", "")
    assert doc.undo_stack.count() == 0
    assert doc.set_report_details("", "notes only")
    assert doc.undo_stack.undoText() == "Edit the design's report notes"


def test_cancel_changes_nothing(qtbot: QtBot) -> None:
    doc = _doc()
    dialog = ReportDetailsDialog(doc)
    qtbot.addWidget(dialog)
    dialog.title.setText("Contoso")
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert doc.design.report_title == "" and doc.undo_stack.count() == 0


def test_the_file_menu_opens_it(qtbot: QtBot) -> None:
    window = MainWindow(_doc(), remember_layout=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    seen: list[str] = []

    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, ReportDetailsDialog)
        seen.append(dialog.windowTitle())
        dialog.title.setText("Fabrikam")
        dialog.accept()

    from PySide6.QtCore import QTimer  # noqa: PLC0415

    QTimer.singleShot(0, answer)
    window.files.action_report_details.trigger()
    assert seen == ["Report Title and Notes"]
    assert window.document.design.report_title == "Fabrikam"
