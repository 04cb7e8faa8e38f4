"""The main window at 1280x720, as a laptop shows it: no dock scrolls sideways, no knob value
or tile figure is cut, and the toolbar stays where it is while the user edits."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QApplication,
    QDockWidget,
    QGroupBox,
    QLabel,
    QWidget,
)
from pytestqt.qtbot import QtBot

from app.document.design_document import DesignDocument
from app.window.main_window import MainWindow
from models.document.words import no_link_text
from models.examples import bundled as examples


def window_at(qtbot: QtBot, name: str, width: int = 1280, height: int = 720) -> MainWindow:
    doc = DesignDocument(examples.load(name))
    window = MainWindow(doc, remember_layout=False)
    qtbot.addWidget(window)
    window.resize(width, height)
    window.show()
    qtbot.waitExposed(window)
    QApplication.processEvents()
    return window


def sideways(window: MainWindow) -> list[str]:
    """The scroll areas in docks that show a horizontal scroll bar."""
    return [f"{dock.objectName()}: {type(area).__name__} {area.accessibleName()}"
            for dock in window.findChildren(QDockWidget) if dock.isVisible()
            for area in dock.findChildren(QAbstractScrollArea)
            if area.isVisible() and area.horizontalScrollBar().isVisible()]


def cut(label: QLabel) -> bool:
    """Whether ``label``'s text is wider than the label or than the part of it on screen."""
    need = label.fontMetrics().horizontalAdvance(label.text())
    shown = label.visibleRegion().boundingRect().width()
    return need > label.contentsRect().width() or 0 < shown < label.width()


@pytest.mark.parametrize("name", ["vaio-scaling", "dense-web-farm", "content-library",
                                  "stretched-vsan"])
def test_nothing_is_cut_and_nothing_scrolls_sideways_at_1280x720(qtbot: QtBot,
                                                                  name: str) -> None:
    window = window_at(qtbot, name)
    bad = sideways(window)
    for dock in (window.evidence_dock, window.analysis_dock):  # the other bottom tabs
        dock.raise_()
        QApplication.processEvents()
        if dock is window.evidence_dock:
            window.evidence.ensure_loaded()
            QApplication.processEvents()
        bad += sideways(window)
    assert not bad
    rows = window.knob_panel.rows.values()
    shown = [r for r in rows if r.value_label.visibleRegion().boundingRect().height() > 0]
    # each group's title after the first takes about one knob's place
    titles = [b for b in window.knob_panel.findChildren(QGroupBox)
              if b.visibleRegion().boundingRect().height() > 0]
    # seven: the palette above shows every kind's row at rest (issue 39: "HPE servers" was cut
    # in half), one knob's height at 1280 x 720; it yields its height while in use
    assert len(shown) + max(len(titles) - 1, 0) >= 7, "a knob takes three lines: many fit"
    assert not [r.knob.path for r in shown if cut(r.value_label)]
    tiles = [t for t in window.dashboard.tiles.values() if t.isVisible()]
    assert tiles and all(t.value_label.fits() for t in tiles)
    assert window.dashboard.columns == 2


def test_the_toolbar_stays_put_while_editing(qtbot: QtBot) -> None:
    window = window_at(qtbot, "vaio-scaling")
    bar = window.toolbar_undo.associatedObjects()[-1]
    assert isinstance(bar, QWidget)

    def geometry() -> list[object]:
        return [w.geometry().getRect() for w in bar.findChildren(QWidget) if w.isVisible()]

    before = geometry()
    doc = window.document
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        doc.set_value("vm", "workload.io_oio", 16)
    QApplication.processEvents()
    assert doc.undo_stack.undoText() == "Set Outstanding I/Os on 16 VMs"
    assert window.toolbar_undo.text() == "Undo" and window.toolbar_undo.isEnabled()
    assert "Set Outstanding I/Os on 16 VMs" in window.toolbar_undo.toolTip()
    assert geometry() == before
    window.toolbar_undo.trigger()
    QApplication.processEvents()
    assert doc.value("vm", "workload.io_oio") != 16 and window.toolbar_redo.isEnabled()
    assert geometry() == before


@pytest.mark.parametrize("size", [(1366, 768), (1280, 720)])
def test_a_selected_vm_shows_most_of_its_fields_and_every_tile(qtbot: QtBot,
                                                              size: tuple[int, int]) -> None:
    """The inspector showed about four fields at 1366x768 (two once a VM's predicted figures
    and their sources stood above them); the dashboard keeps every tile in view at 1366x768,
    and at 1280x720 its first eight (the licensing tile scrolls into view below them)."""
    window = window_at(qtbot, "vaio-scaling", *size)
    window.document.set_selection(["v1"])
    QApplication.processEvents()
    inspector = window.inspector
    viewport = inspector.fields_area.viewport()
    shown = [f for f in inspector.fields.values()
             if viewport.rect().contains(QRect(f.mapTo(viewport, QPoint(0, 0)), f.size()))]
    assert len(shown) >= 7, [f.prop for f in shown]
    dashboard = window.dashboard
    tiles = [t for t in dashboard.tiles.values() if t.isVisible()]
    if size[1] < 768:
        tiles = tiles[:8]
    assert tiles and all(t.visibleRegion().boundingRect().size() == t.size() for t in tiles)


def test_a_status_message_gets_the_whole_bar(qtbot: QtBot) -> None:
    """A refused link's reason was cut beside the figures; while a message shows, the
    figures step aside, and they come back after it."""
    window = window_at(qtbot, "vaio-scaling")
    reason = ("Link refused: " + no_link_text("vm", "site"))
    window.show_status(reason)
    bar = window.statusBar()
    assert not window.status_detail.isVisible()
    assert bar.fontMetrics().horizontalAdvance(reason) < bar.width() - 24
    bar.clearMessage()
    assert window.status_detail.isVisible()
