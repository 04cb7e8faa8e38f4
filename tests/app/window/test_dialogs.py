"""Esc closes every dialog the window opens (and means no, never yes)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from app.document.design_document import DesignDocument
from app.window import importing
from app.window.main_window import MainWindow
from models.examples import bundled as examples
from models.io.importers import registry


def press_esc_on_the_dialog(qtbot: QtBot, seen: list[str]) -> None:
    dialog = QApplication.activeModalWidget()
    if not isinstance(dialog, QDialog) or not dialog.isVisible():
        QTimer.singleShot(20, lambda: press_esc_on_the_dialog(qtbot, seen))
        return
    seen.append(dialog.windowTitle())
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)


def window(qtbot: QtBot) -> MainWindow:
    w = MainWindow(DesignDocument(examples.load("vaio-scaling")), remember_layout=False)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    return w


OPENERS: dict[str, Callable[[MainWindow], object]] = {
    "Canvas gestures": lambda w: w.show_gestures(),
    "About Headroom": lambda w: w.show_about(),
    "Save changes?": lambda w: w.files.ask_save_changes(),
    "Import RVTools export": lambda w: importing.start_import(w, w.document,
                                                             registry.get("rvtools"), "x.xlsx"),
    "Import from vCenter": lambda w: importing.start_import(w, w.document,
                                                           registry.get("vcenter")),
}


@pytest.mark.parametrize("title", list(OPENERS))
def test_esc_closes_the_dialog(qtbot: QtBot, title: str) -> None:
    w = window(qtbot)
    seen: list[str] = []
    QTimer.singleShot(0, lambda: press_esc_on_the_dialog(qtbot, seen))
    answer = OPENERS[title](w)
    assert seen == [title]
    assert QApplication.activeModalWidget() is None
    if title == "Save changes?":
        assert answer == QMessageBox.StandardButton.Cancel  # Esc never saves or discards
    if title.startswith("Import"):
        assert answer is None  # nothing imported
    assert not [x for x in QApplication.topLevelWidgets()
                if isinstance(x, QDialog) and x.isVisible()]


def test_esc_closes_compare(qtbot: QtBot) -> None:
    w = window(qtbot)
    bar = w.scenario_bar
    bar.compare_button.click()
    panel: QWidget = bar.compare_panel
    qtbot.waitExposed(panel)
    qtbot.keyClick(bar.table, Qt.Key.Key_Escape)  # from the table, where the focus is
    assert not panel.isVisible() and not bar.compare_button.isChecked()
