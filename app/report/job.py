"""Exporting a report from the GUI, behind a progress dialog with Cancel.

What the report says (every scenario evaluated, levers tried, calibration checks run) is
computed in the background through :mod:`app.support.jobs` from a copy of the design; the pages are
then drawn in the GUI thread one per turn of the event loop (a QPdfWriter is a QObject, which
the job runner keeps out of worker threads), so the dialog moves and Cancel is heard between
pages.  The dialog appears only when the export takes longer than :data:`SHOW_AFTER_MS`.
Cancelled or failed, nothing is written.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import QProgressDialog, QWidget

from app.report.document import Report
from app.report.export import PdfRender, check_path, ensure_gui_app, prepare, render_png
from app.support.jobs import Lane, Runner, Task, describe_error
from models.document.design import Design, DesignError
from models.io.atomic import write_atomic

LANE = Lane("report", workers=1)
"""Reports are prepared one at a time, on a thread of their own."""

SHOW_AFTER_MS = 500
"""The progress dialog shows once an export has taken this long."""


def _describe(err: Exception) -> str:
    return err.describe() if isinstance(err, DesignError) else describe_error(err)


class ReportExport(QObject):
    """One export of ``design`` in ``scenario`` to ``path`` (``.pdf`` or ``.png``)."""

    finished = Signal(bool)
    """True when the file was written; False when cancelled or failed."""
    failed = Signal(str)
    """Why the export failed (before ``finished(False)``)."""

    def __init__(self, parent: QWidget | None, design: Design, scenario: str, path: Path):
        super().__init__(parent)
        self.path = Path(path)
        self.kind = check_path(self.path)
        self.design = design.copy()  # the worker reads plain data only
        self.scenario = scenario
        self.render: PdfRender | None = None
        self.done = False
        self.written = False
        self.runner = Runner(self, lane=LANE, describe=_describe)
        self.runner.progressed.connect(self._on_progress)
        self.runner.finished.connect(self._on_prepared)
        self.runner.failed.connect(self._fail)
        self.dialog = QProgressDialog("Preparing the report...", "Cancel", 0, 0, parent)
        self.dialog.setWindowTitle("Export Report")
        self.dialog.setWindowModality(Qt.WindowModality.WindowModal)
        self.dialog.setMinimumDuration(SHOW_AFTER_MS)
        self.dialog.setAutoClose(False)
        self.dialog.setAutoReset(False)
        self.dialog.canceled.connect(self.cancel)

    def start(self) -> None:
        ensure_gui_app()
        design, scenario, pdf = self.design, self.scenario, self.kind == ".pdf"

        def work(task: Task) -> Report:
            return prepare(design, scenario, with_checks=pdf, progress=task.progress)

        self.runner.submit(work)

    @Slot()
    def cancel(self) -> None:
        """Stop the export; nothing is written."""
        if self.done:
            return
        self.runner.cancel()
        if self.render is not None:
            self.render.close()
            self.render = None
        self._end(False)

    @Slot(int, int, str)
    def _on_progress(self, done: int, total: int, what: str) -> None:
        self.dialog.setMaximum(max(total, 0))
        if total:
            self.dialog.setValue(min(done, total))
        self.dialog.setLabelText(f"{what}...")

    @Slot(object)
    def _on_prepared(self, report: Report) -> None:
        if self.done:
            return
        if self.kind == ".png":
            self._write(lambda: render_png(report))
            return
        try:
            self.render = PdfRender(report)
        except DesignError as err:
            self._fail(err.describe())
            return
        self.dialog.setMaximum(self.render.total)
        self.dialog.setValue(0)
        self.dialog.setLabelText(f"Drawing page 1 of {self.render.total}...")
        QTimer.singleShot(0, self, self._next_page)

    @Slot()
    def _next_page(self) -> None:
        render = self.render
        if render is None or self.done:
            return  # cancelled between pages
        try:
            more = render.draw_next()
        except Exception as err:  # a drawing bug: reported, nothing written
            render.close()
            self.render = None
            self._fail(describe_error(err))
            return
        self.dialog.setValue(render.done)
        if more:
            self.dialog.setLabelText(f"Drawing page {render.done + 1} of {render.total}...")
            QTimer.singleShot(0, self, self._next_page)
            return
        self.render = None
        self._write(render.finish)

    def _write(self, data: Callable[[], bytes]) -> None:
        try:
            write_atomic(self.path, data())
        except (OSError, DesignError) as err:
            self._fail(err.describe() if isinstance(err, DesignError) else str(err))
            return
        self.written = True
        self._end(True)

    @Slot(str)
    def _fail(self, message: str) -> None:
        if self.done:
            return
        self.failed.emit(message)
        self._end(False)

    def _end(self, ok: bool) -> None:
        self.done = True
        self.dialog.canceled.disconnect(self.cancel)
        self.dialog.close()
        self.finished.emit(ok)
