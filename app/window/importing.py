"""Import the estate from the GUI: one path for every design source of the importer registry
(:mod:`models.io.importers.registry`).

``start_import(window, document, importer)`` asks for what the import needs - a file, whose
format detection then decides (so any import format's file reads from any file entry), and the
fields and options the importer declares, in one dialog built from them - runs the import in
the background (:mod:`app.support.jobs`) behind a :class:`QProgressDialog` (with Cancel), then
``document.replace_design(design)`` and shows the import report.  The importers know nothing of
Qt.
"""

from __future__ import annotations

import importlib
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

from app.support.file_filters import file_filter
from app.support.jobs import Lane, Runner, Task, describe_error
from models.document import numbers as fmt
from models.document.design import Design, DesignError
from models.io.importers import ImportCancelledError, ImportReport, Progress, registry
from models.io.importers.importer import DESIGN, MIN_COVERAGE, Importer, Option, Options, Value

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
        lines = report.lines(limit=10_000, dialog=True)
        head = [lines[0], report.coverage.line()]
        head += [f"provenance: {p}" for p in report.provenance]
        head += [line.strip() for line in report.calibration[1:4]]
        icon = QMessageBox.Icon.Information
        if report.coverage.ratio < MIN_COVERAGE:  # the command line refuses it
            icon = QMessageBox.Icon.Warning
            head.insert(0, f"Only {fmt.percent(report.coverage.ratio)} of the VMs are on a"
                        " host of the export: the others are placed in their cluster or, with"
                        " neither, in the Unplaced area (an anonymised or partial export:"
                        " check the figures of the hosts that lack their VMs).")
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


class ImportDialog(QDialog):
    """The fields and options an importer declares with a label (a server, user and password;
    sites; powered-off VMs), one row each."""

    def __init__(self, parent: QWidget | None, importer: Importer) -> None:
        super().__init__(parent)
        self.importer = importer
        self.setWindowTitle(importer.window_title)
        self.form = QFormLayout(self)
        self.fields: dict[str, QWidget] = {}
        asked = [] if importer.reads_files else [importer.source]
        for option in [*asked, *importer.all_options]:
            if option.label:
                field = _field(option)
                self.fields[option.name] = field
                self.form.addRow("" if option.kind == "flag" else option.label, field)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.form.addRow(buttons)

    def values(self) -> dict[str, Value]:
        """Each field's value, by option name."""
        return {name: _value(field) for name, field in self.fields.items()}

    def forget_secrets(self) -> None:
        """Clear the secrets typed in (a password)."""
        for option in self.importer.all_options:
            field = self.fields.get(option.name)
            if option.kind == "secret" and isinstance(field, QLineEdit):
                field.clear()


def _field(option: Option) -> QWidget:
    if option.kind == "flag":
        box = QCheckBox(option.label)
        box.setChecked(bool(option.default))
        return box
    if option.kind == "int":
        spin = QSpinBox()
        spin.setRange(*option.bounds)
        spin.setValue(int(option.default or 0))
        spin.setAccessibleName(option.label)
        return spin
    if option.kind == "choice":
        combo = QComboBox()
        for value, words in option.choices:
            combo.addItem(words, value)
        combo.setCurrentIndex(max(combo.findData(option.default), 0))
        combo.setAccessibleName(option.label)
        return combo
    line = QLineEdit(str(option.default or ""))
    line.setPlaceholderText(option.placeholder)
    line.setAccessibleName(option.label)
    if option.kind == "secret":
        line.setEchoMode(QLineEdit.EchoMode.Password)
    return line


def _value(field: QWidget) -> Value:
    if isinstance(field, QCheckBox):
        return field.isChecked()
    if isinstance(field, QSpinBox):
        return field.value()
    if isinstance(field, QComboBox):
        return str(field.currentData())
    return field.text() if isinstance(field, QLineEdit) else None


def ask_import_file(window: QWidget | None, importer: Importer) -> str:
    """A file to import, chosen in a file dialog that offers ``importer``'s files first, then
    every other import format's; empty when the user cancels."""
    others = [i for i in registry.importers(DESIGN) if i.reads_files and i is not importer]
    path, _ = QFileDialog.getOpenFileName(window, importer.window_title, "",
                                          file_filter([importer, *others]))
    return path


def start_import(window: QWidget | None, document: _Document, importer: Importer,
                 source: str | None = None, options: Options | None = None) -> ImportJob | None:
    """Import an estate into ``document`` with ``importer``.  A file importer asks for the
    file unless ``source`` is given, and the format detected in it decides which importer
    reads it; the importer's fields and options are asked in one dialog unless ``options`` are
    given.  None when the user cancels, or when the file holds no design."""
    if importer.reads_files:
        if source is None:
            source = ask_import_file(window, importer)
            if not source:
                return None
        found = _reader_of(window, importer, source)
        if found is None:
            return None
        importer, source = found, found.source_path(source)
    values = importer.defaults()
    if options is not None:
        values.update(options)
    else:
        dialog = ImportDialog(window, importer)
        try:
            if dialog.exec() != QDialog.DialogCode.Accepted:
                return None
            values.update(dialog.values())
            if not importer.reads_files:
                source = str(values.pop(importer.source.name) or "")
            try:
                if importer.check is not None:
                    importer.check(source or "", values)
            except DesignError as err:
                QMessageBox.warning(window, importer.window_title, err.describe())
                return None
        finally:
            dialog.forget_secrets()
            dialog.deleteLater()
    if source is None:
        raise ValueError(f"import {importer.id}: no {importer.source.name} given")
    return run_import(window, document, importer, source, values)


def _reader_of(window: QWidget | None, chosen: Importer, path: str) -> Importer | None:
    """The design source that reads ``path``: the one whose sniff recognises it, else one that
    claims its suffix, else ``chosen`` (its reader says what is wrong).  A file of measurements
    only is no design: None, and the user is told where it goes."""
    found = registry.recognise(path)
    if found is not None and found.read_design is None:
        QMessageBox.information(
            window, chosen.window_title, f"{Path(path).name} is {found.description}: measured"
            " figures for a design, not a design. File > Import > Calibrate from Performance"
            " Data puts them onto the open design by name.")
        return None
    return found or registry.detect(path, DESIGN) or chosen


def run_import(window: QWidget | None, document: _Document, importer: Importer, source: str,
               options: Options) -> ImportJob:
    """Run ``importer`` on ``source`` with ``options`` in the background (the job is started)."""
    read = importer.read_design
    if read is None:
        raise ValueError(f"{importer.id} reads no design")
    # a reader's heavy first import (pyVmomi builds thousands of types) happens here, in the
    # GUI thread, not in the worker while the event loop runs (a fresh CI run aborted inside it)
    for module in importer.preload:
        importlib.import_module(module)
    name = Path(source).name if importer.reads_files else source
    settings = dict(options)
    job = ImportJob(window, document, importer.working.format(source=name),
                    lambda progress: read(source, settings, progress))
    job.start()
    return job
