"""Import the estate from the GUI: RVTools exports and a live vCenter.

``import_rvtools(window, document)`` and ``import_vcenter(window, document)`` ask for what they
need, run the import in the background (:mod:`app.support.jobs`) behind a :class:`QProgressDialog`
(with Cancel), then ``document.replace_design(design)`` and show the import report.  The importers
themselves live in :mod:`models.io.importers` and know nothing of Qt.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QObject, Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLineEdit,
    QMessageBox,
    QProgressDialog,
    QSpinBox,
    QWidget,
)

from app.support.jobs import Lane, Runner, Task, describe_error
from models.document.design import Design, DesignError
from models.io.importers import ImportCancelledError, ImportReport, Progress, SiteBy

PARTIAL = 0.95
"""Below this share of VMs on their own host the report warns (the command line refuses)."""

Job = Callable[[Progress], tuple[Design, ImportReport]]


class _Document(Protocol):
    def replace_design(self, design: Design, path: str = "", modified: bool = False) -> None:
        ...


LANE = Lane("import", workers=1)
"""Imports run one at a time, on a thread of their own (an import is long and mostly waits)."""


def _describe(err: Exception) -> str:
    return err.describe() if isinstance(err, DesignError) else describe_error(err)


class ImportJob(QObject):
    """One import: run in the background behind a progress dialog (with Cancel), then the
    design and its report."""

    finished = Signal(bool)
    """True when the document's design was replaced by the imported one."""

    def __init__(self, window: QWidget | None, document: _Document, title: str,
                 job: Job) -> None:
        super().__init__(window)
        self.window = window
        self.document = document
        self.report: ImportReport | None = None
        self.error = ""
        self.message_box: QMessageBox | None = None
        self._job = job
        self._started = False
        self._cancelled = False
        self.runner = Runner(self, lane=LANE, describe=_describe)
        self.runner.progressed.connect(self._on_progress)
        self.runner.finished.connect(self._on_succeeded)
        self.runner.failed.connect(self._on_failed)
        self.dialog = QProgressDialog(title, "Cancel", 0, 0, window)
        self.dialog.setWindowTitle("Import")
        self.dialog.setWindowModality(Qt.WindowModality.WindowModal)
        self.dialog.setMinimumDuration(300)
        self.dialog.setAutoClose(False)
        self.dialog.setAutoReset(False)
        self.dialog.canceled.connect(self.cancel)

    @property
    def running(self) -> bool:
        return self.runner.busy

    def start(self) -> None:
        if self._started:
            return
        self._started = True
        if self._cancelled:  # before it started: report it as any cancel, from the loop
            QTimer.singleShot(0, self, self._on_cancelled)
            return
        job = self._job

        def work(task: Task) -> tuple[Design, ImportReport]:
            def progress(done: int, total: int, what: str) -> None:
                if task.cancelled():
                    raise ImportCancelledError  # what the importers expect to stop them
                task.progress(done, total, what)

            return job(progress)  # laid out as the canvas draws it (build_design)

        self.runner.submit(work)

    @Slot()
    def cancel(self) -> None:
        """Stop the import: the worker stops at its next step, the design stays as it was."""
        if not self._started:
            self._cancelled = True  # start() reports it
        elif self.runner.busy:
            self.runner.cancel()
            self._on_cancelled()

    @Slot(int, int, str)
    def _on_progress(self, done: int, total: int, what: str) -> None:
        self.dialog.setMaximum(max(total, 0))
        if total:
            self.dialog.setValue(min(done, total))
        self.dialog.setLabelText(f"{what}... {done:,}" + (f" of {total:,}" if total else ""))

    def _stop(self) -> None:
        self.dialog.canceled.disconnect(self.cancel)
        self.dialog.close()

    def _show(self, icon: QMessageBox.Icon, title: str, text: str, details: str = "") -> None:
        box = QMessageBox(icon, title, text, QMessageBox.StandardButton.Ok, self.window)
        if details:
            box.setDetailedText(details)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.message_box = box
        box.open()

    @Slot(object)
    def _on_succeeded(self, result: tuple[Design, ImportReport]) -> None:
        self._stop()
        design, report = result
        self.report = report
        self.document.replace_design(design, modified=True)  # in no file yet: ask on close
        lines = report.lines(limit=10_000)
        head = [lines[0], report.coverage.line()]
        head += [f"provenance: {p}" for p in report.provenance]
        head += [line.strip() for line in report.calibration[1:4]]
        icon = QMessageBox.Icon.Information
        if report.coverage.ratio < PARTIAL:
            icon = QMessageBox.Icon.Warning
            head.insert(0, f"Only {report.coverage.ratio:.0%} of the VMs are on a host of the"
                        " export: the others are placed in their cluster or, with neither, in"
                        " the Unplaced area (the command line refuses such an export unless"
                        " --allow-partial).")
        self._show(icon, "Import report", "\n".join(head) + (
            "\n\nDetails list every skipped or moved VM, where each figure comes from and"
            " the baseline check." if len(lines) > len(head) else ""), "\n".join(lines))
        self.finished.emit(True)

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self._stop()
        self.error = message
        self._show(QMessageBox.Icon.Warning, "Import failed", message)
        self.finished.emit(False)

    @Slot()
    def _on_cancelled(self) -> None:
        self._stop()
        self.error = "cancelled"
        self.finished.emit(False)


class _OptionsForm(QFormLayout):
    def __init__(self) -> None:
        super().__init__()
        self.site_by = QComboBox()
        self.site_by.addItem("one site per datacenter", "datacenter")
        self.site_by.addItem("one site per cluster", "cluster")
        self.powered_off = QCheckBox("Import powered-off VMs too (idle, tagged powered-off)")
        self.addRow("Sites", self.site_by)
        self.addRow("", self.powered_off)

    def values(self) -> tuple[SiteBy, bool]:
        site: SiteBy = "cluster" if self.site_by.currentData() == "cluster" else "datacenter"
        return site, self.powered_off.isChecked()


class _Dialog(QDialog):
    def __init__(self, parent: QWidget | None, title: str) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.form = _OptionsForm()
        self.setLayout(self.form)

    def finish(self) -> None:
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.form.addRow(buttons)


class VCenterDialog(_Dialog):
    """Server, user, password and options.  The password is cleared when the dialog closes."""

    def __init__(self, parent: QWidget | None) -> None:
        super().__init__(parent, "Import from vCenter")
        self.server = QLineEdit()
        self.server.setPlaceholderText("vcenter.example.com")
        self.port = QSpinBox()
        self.port.setRange(1, 65535)
        self.port.setValue(443)
        self.user = QLineEdit()
        self.user.setPlaceholderText("administrator@vsphere.local")
        self.password = QLineEdit()
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.insecure = QCheckBox("Do not verify the TLS certificate (labs and simulators only)")
        for i, (label, w) in enumerate((("Server", self.server), ("Port", self.port),
                                        ("User", self.user), ("Password", self.password),
                                        ("", self.insecure))):
            self.form.insertRow(i, label, w)
        self.finish()


def import_rvtools(window: QWidget | None, document: _Document, path: str | None = None, *,
                   site_by: SiteBy | None = None,
                   include_powered_off: bool | None = None) -> ImportJob | None:
    """Import an RVTools export into ``document``; asks for the file (an .xlsx, or any csv of
    an "Export all to csv" folder) and the options unless given.  None if the user cancels."""
    from models.io.importers.rvtools import import_rvtools as run  # noqa: PLC0415

    if path is None:
        path, _ = QFileDialog.getOpenFileName(
            window, "Import RVTools export", "",
            "RVTools export (*.xlsx *.csv);;All files (*)")
        if not path:
            return None
        if path.lower().endswith(".csv"):
            path = str(Path(path).parent)
    if site_by is None or include_powered_off is None:
        dialog = _Dialog(window, "Import RVTools export")
        dialog.finish()
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        site_by, include_powered_off = dialog.form.values()
    src, sb, off = path, site_by, include_powered_off
    import openpyxl  # noqa: F401, PLC0415  (first import in the GUI thread, as for pyVmomi)
    job = ImportJob(window, document, f"Importing {Path(src).name}",
                    lambda progress: run(src, site_by=sb, include_powered_off=off,
                                         progress=progress))
    job.start()
    return job


def import_vcenter(window: QWidget | None, document: _Document,
                   conn: object | None = None, *, site_by: SiteBy = "datacenter",
                   include_powered_off: bool = False) -> ImportJob | None:
    """Import a live vCenter inventory into ``document``; asks for the server and credentials
    unless ``conn`` (a :class:`models.io.importers.vcenter.Connection`) is given."""
    from models.io.importers.vcenter import Connection, parse_server  # noqa: PLC0415
    from models.io.importers.vcenter import import_vcenter as run  # noqa: PLC0415

    if conn is None:
        dialog = VCenterDialog(window)
        try:
            if dialog.exec() != QDialog.DialogCode.Accepted:
                return None
            try:
                host, port = parse_server(dialog.server.text(), dialog.port.value())
            except DesignError as err:
                QMessageBox.warning(window, "Import from vCenter", err.describe())
                return None
            conn = Connection(host, dialog.user.text(), dialog.password.text(), port,
                              insecure=dialog.insecure.isChecked())
            site_by, include_powered_off = dialog.form.values()
        finally:
            dialog.password.clear()
            dialog.deleteLater()
    if not isinstance(conn, Connection):
        raise TypeError("conn must be a models.io.importers.vcenter.Connection")
    c, sb, off = conn, site_by, include_powered_off
    # pyVmomi's first import builds thousands of types: do it here, in the GUI thread, not in
    # the worker while the event loop runs (a fresh CI run aborted inside that import)
    import pyVmomi  # noqa: F401, PLC0415
    job = ImportJob(window, document, f"Reading vCenter {c.host}",
                    lambda progress: run(c, site_by=sb, include_powered_off=off,
                                         progress=progress))
    job.start()
    return job
