"""The File menu: New, Open, Save, Save As, recent files, Import, report and workbook export,
"save changes?".

File > Import lists the design sources of the importer registry
(:mod:`models.io.importers.registry`), each through :func:`app.window.importing.start_import`.

:class:`FileController` owns the file side of one main window.  Dialogs go through small
methods (:meth:`FileController.ask_open_path`, :meth:`ask_save_path`, :meth:`ask_save_changes`,
:meth:`show_error`) so tests replace them and never open a real modal dialog.
"""

from __future__ import annotations

import os
import uuid
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QSettings, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMenu, QMessageBox

from app.support.jobs import Task
from app.window import importing, report_details
from app.window.progress import Outcome, run_with_progress
from app.window.recovery import RecoveryManager
from models.document.design import Design
from models.document.numbers import counted
from models.examples import bundled as examples
from models.io.atomic import fsync_dir, write_atomic
from models.io.files import load_design, save_design
from models.io.importers import registry
from models.io.importers.importer import DESIGN

if TYPE_CHECKING:
    from app.document.design_document import DesignDocument
    from app.report.job import ReportExport
    from app.window.importing import ImportJob

MAX_RECENT = 8
RECENT_KEY = "files/recent"
DESIGN_FILTER = "Headroom designs (*.headroom *.json);;Headroom file (*.headroom);;JSON (*.json)"
SAVE_FILTER = "Headroom file (*.headroom);;JSON design (*.json)"
WORKBOOK_FILTER = "Excel workbook (*.xlsx)"
WORKBOOK_TIP = ("The design (and the scenario shown, a refresh beside the base) as an Excel"
                " workbook: summary, clusters, hosts, VMs, bill of materials, licences,"
                " assumptions")


class FileController(QObject):
    """File actions for ``window`` acting on ``document``."""

    file_opened = Signal(str)
    file_saved = Signal(str)

    def __init__(self, window: QMainWindow, document: DesignDocument,
                 recovery: bool = True) -> None:
        super().__init__(window)
        self.window = window
        self.document = document
        self.recovery = RecoveryManager(document, self)
        self.report_job: ReportExport | None = None
        """The latest report export (it runs in the background)."""
        self.menu = QMenu("&File", window)
        first = self._first_menu_action()
        if first is None:
            window.menuBar().addMenu(self.menu)
        else:
            window.menuBar().insertMenu(first, self.menu)
        self.action_new = self._action("&New", QKeySequence.StandardKey.New, self.new)
        self.action_open = self._action("&Open...", QKeySequence.StandardKey.Open,
                                        self.open)
        self.examples_menu = self.menu.addMenu("Open &Example")
        for name, (title, _study) in example_titles().items():
            act = self.examples_menu.addAction(title)
            act.setData(name)
            act.triggered.connect(lambda _=False, n=name: self.open_example(n))
        self.recent_menu = self.menu.addMenu("Open &Recent")
        self.menu.addSeparator()
        self.action_save = self._action("&Save", QKeySequence.StandardKey.Save, self.save)
        self.action_save_as = self._action("Save &As...", QKeySequence("Ctrl+Shift+S"),
                                           self.save_as)
        self.menu.addSeparator()
        self.import_menu = self.menu.addMenu("&Import")
        self.import_actions: dict[str, QAction] = {}
        for importer in registry.importers(DESIGN):
            act = self.import_menu.addAction(f"{importer.menu_text}...")
            act.setStatusTip(importer.tip)
            act.setToolTip(importer.tip)
            act.setData(importer.id)
            act.triggered.connect(lambda _=False, i=importer.id: self.import_from(i))
            self.import_actions[importer.id] = act
        self.action_report_details = self._action(f"{report_details.TITLE}...", None,
                                                  self.edit_report_details)
        self.action_export_pdf = self._action("Export Report (&PDF)...", None,
                                              lambda: self.export_report(".pdf"))
        self.action_export_png = self._action("Export Report (P&NG)...", None,
                                              lambda: self.export_report(".png"))
        self.action_export_xlsx = self._action("Export &Workbook (Excel)...", None,
                                               self.export_workbook)
        self.action_export_xlsx.setStatusTip(WORKBOOK_TIP)
        self.menu.addSeparator()
        self.action_quit = self._action("&Quit", QKeySequence("Ctrl+Q"), window.close)
        self._rebuild_recent()
        window.installEventFilter(self)
        if recovery:
            QTimer.singleShot(0, self, self.offer_recovery)

    def offer_recovery(self) -> bool:
        """Offer to recover an autosave left by a session that crashed."""
        return self.recovery.offer_recovery(self.window)

    # ------------------------------------------------------------------ setup
    def _first_menu_action(self) -> QAction | None:
        acts = self.window.menuBar().actions()
        return acts[0] if acts else None

    def _action(self, text: str, shortcut: QKeySequence | QKeySequence.StandardKey | None,
                slot: object) -> QAction:
        act = QAction(text, self)
        if shortcut is not None:
            act.setShortcut(shortcut)
        act.triggered.connect(slot)
        self.menu.addAction(act)
        return act

    # ------------------------------------------------------------------ dialogs (patchable)
    def ask_open_path(self) -> str:
        path, _ = QFileDialog.getOpenFileName(self.window, "Open design", self._folder(),
                                              DESIGN_FILTER)
        return path

    def ask_save_path(self, suggested: str, file_filter: str = SAVE_FILTER) -> str:
        path, _ = QFileDialog.getSaveFileName(self.window, "Save", suggested, file_filter)
        return path

    def ask_save_changes(self) -> QMessageBox.StandardButton:
        name = Path(self.document.path).name if self.document.path else "Untitled"
        return QMessageBox.question(
            self.window, "Save changes?",
            f"Save the changes to {name} before closing?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Save)

    def show_error(self, title: str, message: str) -> None:
        QMessageBox.warning(self.window, title, message)

    # ------------------------------------------------------------------ actions
    def new(self) -> None:
        if self.maybe_save():
            self.document.replace_design(Design(), "")

    def open(self) -> None:
        if not self.maybe_save():
            return
        path = self.ask_open_path()
        if path:
            self.open_path(path)

    def import_from(self, importer_id: str) -> ImportJob | None:
        """A new design from an estate, read by the importer ``importer_id`` (the current
        design is offered for saving first); None when nothing is imported."""
        if not self.maybe_save():
            return None
        return importing.start_import(self.window, self.document, registry.get(importer_id))

    def open_example(self, name: str) -> None:
        if self.maybe_save():
            self.document.replace_design(examples.load(name), "")

    def open_path(self, path: str) -> bool:
        """Load ``path`` into the document (in the background, with a progress dialog and
        Cancel after half a second); an error is shown, and on an error or Cancel nothing
        changes."""
        name = Path(path).name
        outcome = run_with_progress(self.window, "Open", f"Opening {name}…",
                                    lambda _task: load_design(path))
        if not outcome.ok or not isinstance(outcome.result, Design):
            if outcome.error:
                self.show_error("Could not open design", outcome.error)
            return False
        design = outcome.result
        self.document.replace_design(design, str(Path(path).resolve()))
        self.add_recent(str(Path(path).resolve()))
        self.file_opened.emit(self.document.path)
        if design.repairs:
            self.show_error("Text repaired while opening", repairs_text(name, design))
        return True

    def save(self) -> bool:
        if not self.document.path:
            return self.save_as()
        return self.save_to(self.document.path)

    def save_as(self) -> bool:
        suggested = self.document.path or str(Path(self._folder()) /
                                              f"{_safe_name(self.document.design.name)}.headroom")
        path = self.ask_save_path(suggested)
        if not path:
            return False
        if Path(path).suffix.lower() not in (".json", ".headroom"):
            path += ".headroom"
        return self.save_to(path)

    def save_to(self, path: str) -> bool:
        """Write the design to ``path`` in the background (a progress dialog with Cancel
        after half a second): into a staged file beside it, renamed over ``path`` only when
        the write is done and not cancelled, so Cancel leaves the old file and the document
        as they were."""
        target = Path(path)
        staged = target.with_name(f".{target.stem}.saving-{uuid.uuid4().hex[:8]}"
                                  f"{target.suffix}")
        design = self.document.design.copy()

        def write(task: Task) -> None:
            task.check()
            try:
                save_design(design, staged)
            finally:
                if task.cancelled():  # nobody will commit it: leave nothing behind
                    staged.unlink(missing_ok=True)

        outcome = run_with_progress(self.window, "Save", f"Saving {target.name}…", write)
        try:
            if outcome.ok:
                commit_staged(staged, target)
        except OSError as err:
            outcome = Outcome(False, error=str(err))
        finally:
            if not outcome.ok:
                staged.unlink(missing_ok=True)
        if not outcome.ok:
            if outcome.error:  # about the file asked for, not the staged one
                self.show_error("Could not save design", outcome.error.replace(
                    str(staged), str(target)).replace(staged.name, target.name))
            return False
        full = str(target.resolve())
        self.document.mark_saved(full)
        self.add_recent(full)
        self.file_saved.emit(full)
        return True

    def edit_report_details(self) -> bool:
        """File > Report Title and Notes: True when the dialog was accepted."""
        return report_details.edit_report_details(self.document, self.window)

    def export_report(self, ext: str) -> bool:
        """Ask where, then export the report in the background (:attr:`report_job`, with a
        progress dialog and Cancel); False when the user chose no file."""
        base = Path(self.document.path).with_suffix(ext).name if self.document.path else \
            f"{_safe_name(self.document.design.name)}{ext}"
        filt = "PDF report (*.pdf)" if ext == ".pdf" else "PNG image (*.png)"
        path = self.ask_save_path(str(Path(self._folder()) / base), filt)
        if not path:
            return False
        if not path.lower().endswith(ext):
            path += ext
        from app.report.job import ReportExport  # noqa: PLC0415  (heavy; only when used)

        self.report_job = ReportExport(self.window, self.document.design,
                                       self.document.scenario, Path(path))
        self.report_job.failed.connect(lambda msg: self.show_error("Could not export report",
                                                                   msg))
        self.report_job.start()
        return True

    def export_workbook(self) -> bool:
        """File > Export Workbook: ask where, then build the Excel workbook of the design in
        its scenario in the background (:mod:`models.io.workbook_export`; a progress dialog
        with Cancel after half a second) and write it; the status bar says what was written.
        False when no file was chosen, or the export was cancelled or failed (nothing
        written)."""
        base = Path(self.document.path).with_suffix(".xlsx").name if self.document.path else \
            f"{_safe_name(self.document.design.name)}.xlsx"
        path = self.ask_save_path(str(Path(self._folder()) / base), WORKBOOK_FILTER)
        if not path:
            return False
        if not path.lower().endswith(".xlsx"):
            path += ".xlsx"
        target = Path(path)
        design, scenario = self.document.design.copy(), self.document.scenario

        def build(task: Task) -> tuple[int, bytes]:
            from models.io.workbook_export import (  # noqa: PLC0415  (openpyxl: when used)
                contents,
                to_bytes,
                workbook,
            )

            c = contents(design, scenario, progress=task.progress)
            task.check()
            return len(c.tables), to_bytes(workbook(c))

        outcome = run_with_progress(self.window, "Export Workbook",
                                    f"Exporting {target.name}…", build)
        error = outcome.error
        if outcome.ok and isinstance(outcome.result, tuple):
            sheets, data = outcome.result
            try:
                write_atomic(target, data)
            except OSError as err:
                error = str(err)
            else:
                self.window.statusBar().showMessage(
                    f"Exported {target.name}: {counted(sheets, 'sheet')}", 8000)
                return True
        if error:
            self.show_error("Could not export workbook", error)
        return False

    def maybe_save(self) -> bool:
        """Ask to save a modified document; False means the user cancelled."""
        if not self.document.is_modified:
            return True
        answer = self.ask_save_changes()
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    # ------------------------------------------------------------------ recent files
    def recent_files(self) -> list[str]:
        raw = QSettings().value(RECENT_KEY, [])
        items: list[object] = [raw] if isinstance(raw, str) else list(raw or []) \
            if isinstance(raw, (list, tuple)) else []
        return [str(p) for p in items if p]

    def add_recent(self, path: str) -> None:
        items = [path] + [p for p in self.recent_files() if p != path]
        QSettings().setValue(RECENT_KEY, items[:MAX_RECENT])
        self._rebuild_recent()

    def clear_recent(self) -> None:
        QSettings().remove(RECENT_KEY)
        self._rebuild_recent()

    def _rebuild_recent(self) -> None:
        self.recent_menu.clear()
        items = self.recent_files()
        for i, path in enumerate(items):
            act = self.recent_menu.addAction(f"&{i + 1} {Path(path).name}")
            act.setToolTip(path)
            act.setData(path)
            act.triggered.connect(lambda _=False, p=path: self.open_recent(p))
        if items:
            self.recent_menu.addSeparator()
            self.recent_menu.addAction("Clear Recent Files").triggered.connect(self.clear_recent)
        self.recent_menu.setEnabled(bool(items))

    def open_recent(self, path: str) -> None:
        if self.maybe_save():
            self.open_path(path)

    # ------------------------------------------------------------------ window
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802  (Qt)
        if watched is self.window and event.type() == QEvent.Type.Close:
            if not self.maybe_save():
                event.ignore()
                return True
            self.recovery.finish()
        return super().eventFilter(watched, event)

    def _folder(self) -> str:
        if self.document.path:
            return str(Path(self.document.path).parent)
        recent = self.recent_files()
        return str(Path(recent[0]).parent) if recent else str(Path.home())


@cache
def example_titles() -> dict[str, tuple[str, str]]:
    """Example name -> (its design's name, the study it rebuilds: its notes up to the
    first colon); read once per process (the menu and the start page show them)."""
    out = {}
    for name in examples.names():
        design = examples.load(name)
        study = design.notes.split(": ")[0].split(". ")[0].strip().rstrip(".")
        out[name] = (design.name or name, study)
    return out


def commit_staged(staged: Path, target: Path) -> None:
    """Rename a fully written ``staged`` file over ``target``, keeping ``target``'s
    permissions (the rename is atomic: readers see the old file or the new one)."""
    try:
        mode = target.stat().st_mode & 0o777
    except OSError:
        mode = None
    if mode is not None:
        os.chmod(staged, mode)
    os.replace(staged, target)
    fsync_dir(target.resolve().parent)


def _safe_name(name: str) -> str:
    keep = "".join(ch if ch.isalnum() or ch in " -_." else "_" for ch in name).strip()
    return keep or "design"


def repairs_text(name: str, design: Design) -> str:
    """What was repaired while reading ``design`` from ``name``, for a warning dialog."""
    lines = [f"{name}: {issue}" for issue in design.repairs[:10]]
    if len(design.repairs) > 10:
        lines.append(f"… and {len(design.repairs) - 10} more")
    return ("Some text in the file was not valid Unicode and was replaced with the"
            " replacement character (save to keep the repair):\n\n" + "\n".join(lines))

