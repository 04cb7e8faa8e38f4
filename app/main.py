"""Start the desktop app."""

from __future__ import annotations

import sys

from PySide6.QtWidgets import QApplication, QMainWindow, QMessageBox

from models import examples
from models.design import Design, DesignError
from models.engine import evaluate
from models.files import load_design


def run_app(path: str | None, self_test: bool = False) -> int:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Headroom")
    app.setOrganizationName("Headroom")
    design: Design | None = None
    error = ""
    try:
        design = load_design(path) if path else examples.load(examples.DEFAULT_EXAMPLE)
    except DesignError as err:
        error = err.describe()
    if self_test:
        if design is None:
            print(f"self-test: {error}", file=sys.stderr)
            return 1
        evaluate(design)
        print("self-test: ok")
        return 0
    window = QMainWindow()
    window.setWindowTitle(f"{design.name if design else 'Untitled'} - Headroom")
    window.resize(1400, 900)
    window.show()
    if error:
        QMessageBox.warning(window, "Could not open design", error)
    return int(app.exec())
