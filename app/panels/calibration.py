"""The Calibration view: does the baseline match what the estate recorded?

Per host the predicted CPU and memory utilisation beside what vCenter (RVTools, Live Optics,
esxtop, Aria Operations) recorded, with the residual, the VMs the export lists of those the
host runs (a partial host, named in the summary with its background load) and the host's IOPS
where recorded (Live Optics); per cluster the same where an Aria Operations cluster view
recorded it; CPU demand, contention and ready as recorded; per VM the IOPS, latency and CPU MHz
where recorded; a summary against the target (median within 5 points, 90th percentile within
10).  It follows
the document's base prediction (``baseline_updated``), recomputed 0.3 s after the last change
and only while it is shown.  Its buttons change the design as one undo step each: calibrate
from a performance file (esxtop, Aria Operations, RVTools), solve the baseline again from the
measured figures, place the unplaced VMs.  The file's format is detected among the measurement
sources of the importer registry (:mod:`models.io.importers.registry`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QColor, QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.support.file_filters import file_filter
from models.analysis import baseline
from models.document import numbers as fmt
from models.document.design import DesignError
from models.io.importers import registry
from models.io.importers.importer import MEASUREMENTS
from models.io.importers.measurements import STATS

if TYPE_CHECKING:
    from app.document.design_document import DesignDocument

VM_ROWS = 500
"""VM rows shown at most (the largest residuals first)."""
HOST_HEADERS = ("Host", "CPU\npredicted", "CPU\nrecorded", "CPU\nresidual", "Memory\npredicted",
                "Memory\nrecorded", "Memory\nresidual", "VMs\nlisted", "IOPS\npredicted",
                "IOPS\nrecorded", "Also\nrecorded")
"""Hosts, then the clusters that recorded their utilisation; the VMs the export lists (of
those the host runs); the IOPS columns (a Live Optics collection's host IOPS) and what was
recorded without a prediction (CPU demand, contention, ready: Aria Operations) show only where
a host or cluster has them."""
IOPS_COLUMNS = (8, 9)
ALSO_COLUMN = 10
VM_HEADERS = ("VM", "IOPS\npredicted", "IOPS\nrecorded", "Latency\npredicted (ms)",
              "Latency\nrecorded (ms)", "CPU\npredicted (MHz)", "CPU\nrecorded (MHz)", "I/O from")
"""Two-line headers: the figures' columns as narrow as their numbers, the names get the rest."""


def _pct(x: float | None) -> str:
    """A utilisation in per cent; "not measured" where nothing recorded it (it read "-")."""
    return fmt.NOT_MEASURED if x is None else f"{x:.1f}%"


def _listed(h: baseline.HostResidual) -> QTableWidgetItem:
    """``36 of 39`` for a partial host (its tooltip names the background), ``39`` for a whole
    one, "not measured" where the inventory did not count them."""
    if h.vms_recorded is None or h.vms_listed is None:
        return QTableWidgetItem(fmt.NOT_MEASURED)
    item = QTableWidgetItem(f"{h.vms_listed:,} of {h.vms_recorded:,}" if h.partial
                            else f"{h.vms_listed:,}")
    item.setData(Qt.ItemDataRole.UserRole, h.vms_listed - h.vms_recorded)
    if h.partial:
        item.setForeground(QColor("#b9770e"))
        item.setToolTip(f"Partial: the export lists {h.vms_listed:,} of the"
                        f" {fmt.counted(h.vms_recorded, 'VM')} the host runs; the others' load"
                        " is its"
                        f" background (CPU {_pct(h.background_cpu)}, memory"
                        f" {_pct(h.background_memory)} of the host)")
    return item


def _predicted(x: float | None) -> QTableWidgetItem:
    """A predicted utilisation; "not measured" where nothing measured it (never 0)."""
    item = QTableWidgetItem(_pct(x) if x is not None else fmt.NOT_MEASURED)
    if x is None:
        item.setForeground(QColor("#7f8c8d"))
        item.setToolTip("No VM on this host measured it, nor did the host record its usage")
    return item


def _num(x: float | None, digits: int = 0) -> str:
    return fmt.NOT_MEASURED if x is None else f"{x:,.{digits}f}"


def _residual_item(value: float | None, unit: str = "") -> QTableWidgetItem:
    item = QTableWidgetItem(fmt.NOT_MEASURED if value is None else f"{value:+.1f}{unit}")
    if value is not None:
        item.setData(Qt.ItemDataRole.UserRole, abs(value))
        if abs(value) > baseline.TARGET_P90:
            item.setForeground(QColor("#c0392b"))
        elif abs(value) > baseline.TARGET_MEDIAN:
            item.setForeground(QColor("#b9770e"))
    return item


class CalibrationPanel(QWidget):
    status_message = Signal(str)

    def __init__(self, document: DesignDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.setAccessibleName("Calibration")
        self.check: baseline.BaselineCheck | None = None
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setAccessibleName("Calibration summary")
        self.calibrate_button = QPushButton("Calibrate from File…")
        sources = registry.listed([i.title for i in registry.importers(MEASUREMENTS)])
        self.calibrate_button.setToolTip(f"Measured figures from a file ({sources}; its format"
                                         " is detected), onto the design by VM name (one undo"
                                         " step)")
        self.stat = QComboBox()
        self.stat.addItems(list(STATS))
        self.stat.setToolTip("Statistic over a file's samples")
        self.solve_button = QPushButton("Solve Baseline")
        self.solve_button.setToolTip("Set each measured VM's workload from its measured"
                                     " figures again (one undo step)")
        self.place_button = QPushButton("Place Unplaced VMs")
        self.place_button.setToolTip("Put the VMs on no host where the design has room"
                                     " (one undo step)")
        self.calibrate_button.clicked.connect(self._choose_file)
        self.solve_button.clicked.connect(self.solve)
        self.place_button.clicked.connect(self.place)
        buttons = QHBoxLayout()
        for w in (self.calibrate_button, self.stat, self.solve_button, self.place_button):
            buttons.addWidget(w)
        buttons.addStretch(1)
        self.hosts = self._table(HOST_HEADERS, "Hosts: predicted vs recorded")
        self.vms = self._table(VM_HEADERS, "VMs: predicted vs recorded")
        self.tabs = QTabWidget()
        self.tabs.addTab(self.hosts, "Hosts")
        self.tabs.addTab(self.vms, "VMs")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(buttons)
        layout.addWidget(self.summary)
        layout.addWidget(self.tabs, 1)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(300)
        self._timer.timeout.connect(self._refresh_if_seen)
        self._dirty = True
        document.baseline_updated.connect(self._schedule)
        document.design_replaced.connect(self._schedule)

    def _table(self, headers: tuple[str, ...], name: str) -> QTableWidget:
        t = QTableWidget(0, len(headers))
        t.setAccessibleName(name)
        t.setHorizontalHeaderLabels(list(headers))
        t.verticalHeader().setVisible(False)
        t.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        # the name takes what the figures leave: the dock never scrolls sideways
        t.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        t.setWordWrap(False)
        header = t.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setMinimumSectionSize(40)
        t.itemSelectionChanged.connect(lambda: self._select(t))
        return t

    # ------------------------------------------------------------------ following the document
    def _schedule(self, *_: object) -> None:
        self._dirty = True
        if self.seen():
            self._timer.start()

    def seen(self) -> bool:
        """Whether the panel is on screen: a dock behind another tab is "visible" to Qt,
        only moved off screen (checking a 50,000-VM baseline there after every edit cost the
        GUI thread 0.4 s)."""
        return self.isVisible() and not self.visibleRegion().isEmpty()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt override)
        super().showEvent(event)
        self.follow()

    def follow(self) -> None:
        """Catch up with the document (the main window calls it when the tab is raised)."""
        if self._dirty:
            self._timer.start()

    def _refresh_if_seen(self) -> None:
        if self.seen():
            self.refresh()

    def refresh(self) -> None:
        """Predicted vs recorded for the base design, from the document's base prediction."""
        self._dirty = False
        pred = self.document.baseline
        if pred is None:
            self.check = None
            self.summary.setText("No prediction yet.")
            return
        try:
            self.check = check = baseline.check(self.document.design, pred)
        except (KeyError, IndexError):  # a prediction of a design being replaced
            self._dirty = True
            return
        lines = [line.strip() for line in check.lines(limit=0)[1:]]
        if not check.vms_total and not any(h.cpu_recorded is not None or h.memory_recorded
                                           is not None for h in check.hosts):
            lines = ["Nothing measured in this design: import an estate (File > Import) or"
                     " calibrate from a performance file."]
        self.summary.setText("\n".join(lines))
        self._fill_hosts(check)
        self._fill_vms(check)

    def _fill_hosts(self, check: baseline.BaselineCheck) -> None:
        rows = sorted(check.hosts, key=lambda h: -max(abs(h.cpu_residual or 0),
                                                      abs(h.memory_residual or 0)))
        rows += check.clusters
        t = self.hosts
        t.setSortingEnabled(False)
        t.setRowCount(len(rows))
        clusters = {c.id for c in check.clusters}
        for r, h in enumerate(rows):
            name = QTableWidgetItem(f"{h.name} (cluster)" if h.id in clusters else h.name)
            name.setData(Qt.ItemDataRole.UserRole + 1, h.id)
            also = ", ".join(f"{label} {v:.1f}%" for label, v in h.recorded.items())
            for c, item in enumerate((name, _predicted(h.cpu_predicted),
                                      QTableWidgetItem(_pct(h.cpu_recorded)),
                                      _residual_item(h.cpu_residual),
                                      _predicted(h.memory_predicted),
                                      QTableWidgetItem(_pct(h.memory_recorded)),
                                      _residual_item(h.memory_residual), _listed(h),
                                      QTableWidgetItem(_num(h.iops_predicted
                                                            if h.iops_recorded is not None
                                                            else None)),
                                      QTableWidgetItem(_num(h.iops_recorded)),
                                      QTableWidgetItem(also))):
                t.setItem(r, c, item)
        for c in IOPS_COLUMNS:
            t.setColumnHidden(c, all(h.iops_recorded is None for h in rows))
        t.setColumnHidden(ALSO_COLUMN, not any(h.recorded for h in rows))

    def _fill_vms(self, check: baseline.BaselineCheck) -> None:
        def off(v: baseline.VmResidual) -> float:
            if v.cpu_mhz_recorded and v.cpu_mhz_predicted is not None:
                return abs(v.cpu_mhz_predicted - v.cpu_mhz_recorded) / v.cpu_mhz_recorded
            return 0.0

        rows = [v for v in check.vms if v.iops_recorded is not None
                or v.latency_recorded is not None or off(v) > 0.01]
        rows.sort(key=lambda v: -max(off(v), abs((v.latency_predicted or 0)
                                                 - (v.latency_recorded or 0))))
        rows = rows[:VM_ROWS]
        t = self.vms
        t.setRowCount(len(rows))
        for r, v in enumerate(rows):
            name = QTableWidgetItem(v.name)
            name.setData(Qt.ItemDataRole.UserRole + 1, v.id)
            cells = (name, QTableWidgetItem(_num(v.iops_predicted)),
                     QTableWidgetItem(_num(v.iops_recorded)),
                     QTableWidgetItem(_num(v.latency_predicted, 2)),
                     QTableWidgetItem(_num(v.latency_recorded, 2)),
                     QTableWidgetItem(_num(v.cpu_mhz_predicted)),
                     QTableWidgetItem(_num(v.cpu_mhz_recorded)),
                     QTableWidgetItem(v.provenance.get("io", "")))
            for c, item in enumerate(cells):
                t.setItem(r, c, item)

    def _select(self, table: QTableWidget) -> None:
        """Selecting a row selects its host or VM on the canvas and in the inspector."""
        ids = {str(first.data(Qt.ItemDataRole.UserRole + 1))
               for i in table.selectedItems() if (first := table.item(i.row(), 0)) is not None}
        if ids:
            self.document.set_selection(sorted(ids))

    # ------------------------------------------------------------------ edits
    def _choose_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, "Calibrate from performance data", "",
            file_filter(registry.importers(MEASUREMENTS), "Performance data"))
        if path:
            self.calibrate_from(path)

    def calibrate_from(self, path: str) -> bool:
        """Measured figures from ``path`` onto the design by name, then the baseline solved:
        one undo step.  False (and a status message) when the file cannot be used."""
        from models.io.importers.measurements import apply_measurements  # noqa: PLC0415
        from models.io.importers.perfdata import read_performance  # noqa: PLC0415

        design = self.document.design.copy()
        try:
            meas = read_performance(path, self.stat.currentText())
        except DesignError as err:
            self.status_message.emit(f"Cannot calibrate: {err}")
            return False
        rep = apply_measurements(design, meas)
        if rep.vms_matched == 0 and rep.hosts_matched == 0 and rep.clusters_matched == 0:
            self.status_message.emit(f"Cannot calibrate: no VM or host of {Path(path).name}"
                                     " matches the design by name")
            return False
        baseline.calibrate(design)
        self.document.replace_contents(design, f"Calibrate from {Path(path).name}")
        self.status_message.emit(rep.lines()[0])
        return True

    def solve(self) -> None:
        """The baseline solved again from the design's measured figures (one undo step)."""
        design = self.document.design.copy()
        changes = baseline.solve(design)
        if not changes:
            self.status_message.emit("No measured VMs to solve the baseline for")
            return
        baseline.apply(design, changes)
        self.document.replace_contents(design, "Solve the baseline")
        self.status_message.emit(f"Baseline solved for {len(changes)} measured VMs")

    def place(self) -> None:
        """The unplaced VMs onto hosts with room (one undo step)."""
        from models.analysis.placement import apply_placement, place_unplaced  # noqa: PLC0415

        design = self.document.design.copy()
        result = place_unplaced(design)
        if not result.placed:
            self.status_message.emit("No unplaced VMs")
            return
        apply_placement(design, result)
        self.document.replace_contents(design, f"Place {len(result.placed)} unplaced VMs")
        self.status_message.emit(result.lines()[0])
