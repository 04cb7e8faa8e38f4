"""A wheel over a control the user has not clicked scrolls its panel and changes nothing
(app/support/wheel.py): scrolling the Knobs dock once moved every knob it passed over, and
the untouched example then asked to be saved."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from app.document.design_document import DesignDocument
from app.window.main_window import MainWindow
from models.examples import bundled as examples


def turn_wheel(widget: QWidget, notches: int = -1) -> None:
    """One wheel event over the middle of ``widget`` (down for a negative ``notches``)."""
    pos = QPointF(widget.rect().center())
    event = QWheelEvent(pos, QPointF(widget.mapToGlobal(pos.toPoint())), QPoint(0, 0),
                        QPoint(0, 120 * notches), Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


def test_the_wheel_scrolls_the_knobs_and_the_untouched_example_stays_unsaved(
        qtbot: QtBot) -> None:
    doc = DesignDocument(examples.load(examples.DEFAULT_EXAMPLE))
    window = MainWindow(doc, remember_layout=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    panel = window.knob_panel
    bar = panel.scroll_area.verticalScrollBar()
    assert bar.maximum() > 0, "the knobs need scrolling at 1366x768"
    for row in panel.rows.values():
        if row.slider is not None or row.combo is not None:
            turn_wheel(row.control)
    assert bar.value() > 0  # the panel scrolled
    assert not doc.is_modified and doc.undo_stack.count() == 0
    asked: list[str] = []

    def ask() -> QMessageBox.StandardButton:
        asked.append("save?")
        return QMessageBox.StandardButton.Cancel

    window.files.ask_save_changes = ask  # type: ignore[method-assign]
    window.files.ask_open_path = lambda: ""  # type: ignore[method-assign]
    window.files.open()
    assert asked == []  # "Save the changes to Untitled before closing?" before
    row = panel.rows["vm.workload.io_oio"]
    assert row.slider is not None
    before = row.slider.value()
    row.slider.setFocus()  # clicked or tabbed to: the wheel is the slider's now
    qtbot.waitUntil(row.slider.hasFocus)
    turn_wheel(row.slider)
    assert row.slider.value() != before
    assert doc.is_modified
