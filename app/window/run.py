"""Start the desktop app: ``headroom [FILE]`` (the bundled example when no FILE is given).

``--self-test`` builds the window offscreen-capable, evaluates the design, prints
``self-test: ok`` and exits 0 (1 with the reason on stderr when it cannot).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from app.document.design_document import DesignDocument
from app.support import first_paint, gc_guard, jobs, qt_fixes
from app.support.theme import apply_theme
from app.window.file_menu import repairs_text
from app.window.main_window import MainWindow
from models.document.design import Design, DesignError
from models.examples import bundled as examples
from models.io.files import load_design

SELF_TEST_PAINT_S = 60.0
"""How long the self-test waits for the first paint."""


def run_app(path: str | None, self_test: bool = False) -> int:
    qt_fixes.install()  # before the first Qt object (app/support/qt_fixes.py)
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(sys.argv[:1])
    app.setApplicationName("Headroom")
    app.setOrganizationName("Headroom")
    app.setApplicationDisplayName("Headroom")
    apply_theme(app)
    gc_guard.install()  # collections on the GUI thread only (app/support/gc_guard.py)
    first_paint.expect()  # what the first picture does not need waits until it is painted
    try:
        return _run(app, path, self_test)
    finally:
        first_paint.flush()


def _run(app: QApplication, path: str | None, self_test: bool) -> int:
    design: Design | None = None
    error = ""
    try:
        design = load_design(path) if path else examples.load(examples.DEFAULT_EXAMPLE)
    except DesignError as err:
        error = err.describe()
    if self_test and design is None:
        print(f"self-test: {error}", file=sys.stderr)
        return 1
    document = DesignDocument(design)
    if design is not None and path:
        document.set_path(str(path))
    window = MainWindow(document, remember_layout=not self_test)
    if self_test:
        # the bench times the first window: the line is printed once it has painted
        first_paint.later(lambda: print("self-test: window shown", flush=True), first=True)
        try:
            if document.prediction is None:  # raises what made the document's evaluation fail
                document.evaluate_now()
            window.show()
            deadline = time.monotonic() + SELF_TEST_PAINT_S
            while first_paint.awaiting() and time.monotonic() < deadline:
                app.processEvents()
            if first_paint.awaiting():
                print(f"self-test: the window did not paint within {SELF_TEST_PAINT_S:.0f} s",
                      file=sys.stderr)
                return 1
            area = window.screen().availableGeometry()
            print(f"self-test: window {window.width()}x{window.height()} on a screen of"
                  f" {area.width()}x{area.height()}", flush=True)
            shown = all(window.scene.shows(c.id) for c in document.design.components)
        except Exception as err:  # report, do not crash
            print(f"self-test: {type(err).__name__}: {err}", file=sys.stderr)
            return 1
        finally:
            document.undo_stack.setClean()
            window.close()
            _dispose(window)
        if not shown:
            print("self-test: the canvas does not show every component", file=sys.stderr)
            return 1
        print("self-test: ok")
        return 0
    window.show()
    if error:
        QMessageBox.warning(window, "Could not open design", error)
    elif design is not None and design.repairs and path:
        QMessageBox.warning(window, "Text repaired while opening",
                            repairs_text(Path(path).name, design))
    status = int(app.exec())
    _dispose(window)
    return status


def _dispose(window: QWidget) -> None:
    """Destroy the window (and the document and charts it owns) while QApplication still
    exists: left to interpreter shutdown, the C++ side is torn down in an arbitrary order
    and segfaults.  Copied mime data on the clipboard goes first for the same reason."""
    QApplication.clipboard().clear()
    jobs.wait_idle()
    window.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
