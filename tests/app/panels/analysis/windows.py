"""A main window on a bundled example (or a design), shown and active (window shortcuts
need it), and the Analysis menu driven by its entries' text."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from app.document.design_document import DesignDocument
from app.window.main_window import MainWindow
from models.document.design import Design
from models.examples import bundled as examples

SLOW_MS = 60000


def make(qtbot: QtBot, name: str | Design) -> MainWindow:
    """A window on the example ``name``, or on a design."""
    design = examples.load(name) if isinstance(name, str) else name
    window = MainWindow(DesignDocument(design), remember_layout=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)  # window shortcuts (Ctrl+Z ...) need it active
    return window


def menu_action(window: MainWindow, text: str) -> None:
    for act in window.analysis_menu.actions():
        if act.text().replace("&", "").startswith(text):
            act.trigger()
            return
    raise AssertionError(f"no Analysis menu entry {text!r}")
