"""The Host failure (N+1) tab: each host failed in turn (:func:`models.analysis.host_failure`),
then each site where the design has sites, in the background with a busy bar and Cancel; a
table lists per failure the VMs restarted, FT fail-overs, new breaches, the busiest surviving
host after the restarts and what breaks (the failures that break policy first, the worst at
the top), and a line says whether the design survives.  The failure selected in it shows each
surviving host's VMs, CPU and memory before and after."""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.document.design_document import DesignDocument
from app.panels.analysis.common import LANE, analysis_copy, plain, stoppable
from app.support import theme
from app.support.jobs import Runner
from models.analysis import FailureReport, host_failure
from models.document import numbers as fmt

COLUMNS = ["Fails", "Restarted", "FT fail-overs", "New breaches", "Busiest host after",
           "What breaks"]
"""The failure table's columns: what fails, the VMs HA restarts, the FT VMs that fail over
to their secondary, breaches that were not there before, the busiest host that took VMs
(CPU and memory after), and what breaks (whole in each cell's tooltip)."""
BUSIEST = COLUMNS.index("Busiest host after")
BUSIEST_MAX = 220
"""Widest the busiest host's column grows (px): past it the text is elided."""
HOST_COLUMNS = ["Host", "VMs", "CPU", "Memory"]


class HostFailureTab(QWidget):
    """A button, a summary line and the table of what each host's failure breaks."""

    failure_finished = Signal(object)
    """The FailureReport shown."""

    def __init__(self, document: DesignDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.failure_report: FailureReport | None = None
        self.runner = Runner(self, lane=LANE)
        self.runner.finished.connect(self._failure_done)
        self.runner.failed.connect(self._failure_failed)
        v = QVBoxLayout(self)
        row = QHBoxLayout()
        self.failure_button = QPushButton("Fail each host in turn")
        self.failure_button.setToolTip("HA restarts each failed host's VMs on the survivors;"
                                       " the table lists what then breaks policy")
        self.failure_button.clicked.connect(self.run_failure)
        row.addWidget(self.failure_button)
        self.failure_cancel = QPushButton("Cancel")
        self.failure_cancel.setEnabled(False)
        self.failure_cancel.clicked.connect(self.cancel_failure)
        row.addWidget(self.failure_cancel)
        row.addStretch(1)
        v.addLayout(row)
        self.failure_busy = QProgressBar()
        self.failure_busy.setRange(0, 0)
        self.failure_busy.hide()
        v.addWidget(self.failure_busy)
        self.failure_summary = QLabel("Press the button to fail each host in turn.")
        self.failure_summary.setWordWrap(True)
        self.failure_summary.setAccessibleName("Host failure summary")
        v.addWidget(self.failure_summary)
        self.failure_table = QTableWidget(0, len(COLUMNS))
        self.failure_table.setAccessibleName("Host failure table")
        self.failure_table.setHorizontalHeaderLabels(COLUMNS)
        header = self.failure_table.horizontalHeader()
        for j in range(len(COLUMNS) - 1):  # names whole: the table exists to name them
            header.setSectionResizeMode(j, QHeaderView.ResizeMode.ResizeToContents)
        # ... but the busiest host's figures, whole in the table below and the tooltip, give
        # way to what breaks (fitted to their text up to BUSIEST_MAX when the table fills)
        header.setSectionResizeMode(BUSIEST, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(len(COLUMNS) - 1, QHeaderView.ResizeMode.Stretch)
        # the stretched column takes what the others leave, never less than its own header:
        # past that the table scrolls sideways instead of clipping "What breaks"
        header.setMinimumSectionSize(header.sectionSizeFromContents(len(COLUMNS) - 1).width())
        self.failure_table.verticalHeader().hide()
        self.failure_table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.failure_table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.failure_table.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        self.failure_table.itemSelectionChanged.connect(self._show_hosts)
        self.hosts_label = QLabel("")
        self.hosts_label.setWordWrap(True)  # what breaks, whole (the table's cell is short)
        self.hosts_label.setAccessibleName("Hosts after the failure")
        self.hosts_table = QTableWidget(0, len(HOST_COLUMNS))
        self.hosts_table.setAccessibleName("Host utilisation after the failure")
        self.hosts_table.setHorizontalHeaderLabels(HOST_COLUMNS)
        self.hosts_table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.hosts_table.horizontalHeader().setStretchLastSection(True)
        self.hosts_table.verticalHeader().hide()
        self.hosts_table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for table in (self.failure_table, self.hosts_table):  # rows as high as their text:
            rows = table.verticalHeader()  # a short dock shows more of them
            rows.setDefaultSectionSize(table.fontMetrics().height() + 6)
            rows.setMinimumSectionSize(table.fontMetrics().height() + 2)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.failure_table)
        below = QWidget()
        lay = QVBoxLayout(below)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.hosts_label)
        lay.addWidget(self.hosts_table, 1)
        split.addWidget(below)
        split.setStretchFactor(0, 3)  # the failures first: the one selected has the rest
        split.setStretchFactor(1, 2)
        self.split = split
        v.addWidget(split, 1)
        self.order: list[int] = []
        """Row -> its failure in the report: the failures that break policy first."""

    def run_failure(self) -> None:
        self.cancel_failure()
        design = analysis_copy(self.document)
        self.failure_summary.setText("Failing each host in turn...")
        self._failure_running(True)
        self.runner.submit(lambda task: host_failure(design, evaluate=stoppable(task)))

    def cancel_failure(self) -> None:
        if self.runner.busy:
            self.runner.cancel()
            self.failure_summary.setText("Cancelled.")
        self._failure_running(False)

    def _failure_running(self, on: bool) -> None:
        self.failure_busy.setVisible(on)
        self.failure_cancel.setEnabled(on)
        self.failure_button.setEnabled(not on)

    def _failure_done(self, report: object) -> None:
        if not isinstance(report, FailureReport):
            return
        self._failure_running(False)
        self.failure_report = report
        self.order = failing_first(report)
        rows = [report.failures[k] for k in self.order]
        self.failure_table.setRowCount(len(rows))
        for i, f in enumerate(rows):
            new = f.new_breaches
            took = sum(x.lost == "primary" for x in f.ft)
            worst = "; ".join(plain(self.document, b.describe()) for b in new[:3]) + (
                f" (+{len(new) - 3} more)" if len(new) > 3 else "")
            if f.not_restarted:
                worst = f"{fmt.count(len(f.not_restarted), 'VM')} cannot restart. " + worst
            busiest = f.busiest_after()
            after = (f"{self._name(busiest[0])}: CPU {fmt.percent(busiest[1])}, memory"
                     f" {fmt.percent(busiest[2])}" if busiest is not None else "no host left")
            what = (f"site {self._name(f.host)} ({fmt.count(len(f.failed), 'host')})"
                    if f.site else self._name(f.host))
            cells: list[Any] = [what, len(f.restarted), took, len(new), after,
                                worst or "nothing"]
            for j, value in enumerate(cells):
                item = QTableWidgetItem(str(value))
                item.setToolTip(str(value))
                if j in (1, 2, 3):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                          | Qt.AlignmentFlag.AlignVCenter)
                if new:
                    item.setForeground(QColor(theme.tones().error))
                self.failure_table.setItem(i, j, item)
        self.failure_table.resizeColumnToContents(BUSIEST)
        self.failure_table.setColumnWidth(
            BUSIEST, min(self.failure_table.columnWidth(BUSIEST), BUSIEST_MAX))
        if rows:
            self.failure_table.selectRow(0)
        pol = report.policy
        already = (f" {fmt.count(len(report.baseline), 'breach', 'breaches')} already before"
                   " any failure."
                   if report.baseline else "")
        hosts = [f for f in rows if not f.site]
        sites = report.sites
        site_line = ""
        if sites:
            broken = sum(bool(f.new_breaches) for f in sites)
            site_line = (" Survives any single site failure." if not broken else
                         f" {broken} of {fmt.count(len(sites), 'site failure')} break policy.")
        self.failure_summary.setText(
            ("Survives any single host failure." if report.survives else
             f"Does NOT survive: {sum(bool(f.new_breaches) for f in hosts)} of"
             f" {fmt.count(len(hosts), 'host failure')} break policy.") + site_line
            + f" Policy: CPU <= {fmt.percent(pol.get('cpu_util_max', math.nan))},"
            f" memory <= {fmt.percent(pol.get('memory_util_max', 1.0))}"
            + (f", p95 <= {fmt.with_unit(pol.get('p95_ms_max', math.nan), 'ms')}"
               if self._has_response() else "") + f".{already}")
        self.failure_finished.emit(report)

    def _failure_failed(self, message: str) -> None:
        self._failure_running(False)
        self.failure_summary.setText(f"Host failure failed: {message}")

    def _has_response(self) -> bool:
        """Whether the p95 ceiling bears on the design (the latest prediction has a latency or
        a response to hold to it); said when nothing tells."""
        p = self.document.prediction
        return p is None or p.has_response

    def _name(self, cid: str) -> str:
        return self.document.name_of(cid)

    def _show_hosts(self) -> None:
        """The surviving hosts of the selected failure: VMs, CPU and memory, before and
        after the restarts; the hosts that took VMs first, the busiest after first."""
        report = self.failure_report
        rows = self.failure_table.selectionModel().selectedRows()
        if report is None or not rows or rows[0].row() >= len(self.order):
            self.hosts_table.setRowCount(0)
            self.hosts_label.setText("")
            return
        f = report.failures[self.order[rows[0].row()]]
        what = f"site {self._name(f.host)}" if f.site else self._name(f.host)
        breaks = self.failure_table.item(rows[0].row(), len(COLUMNS) - 1)
        self.hosts_label.setText(f"After {what} fails: {breaks.text() if breaks else ''}."
                                 " Each surviving host, before → after:")
        order = sorted(f.vms_after, key=lambda h: (
            f.vms_after[h] == f.vms_before[h],
            -(f.util_after.get(h, (0.0, 0.0))[0] if math.isfinite(
                f.util_after.get(h, (0.0, 0.0))[0]) else -1.0)))
        self.hosts_table.setRowCount(len(order))
        for i, h in enumerate(order):
            b = f.util_before.get(h, (math.nan, math.nan))
            a = f.util_after.get(h, (math.nan, math.nan))
            cells = [self._name(h), f"{f.vms_before[h]} → {f.vms_after[h]}",
                     f"{fmt.percent(b[0])} → {fmt.percent(a[0])}",
                     f"{fmt.percent(b[1])} → {fmt.percent(a[1])}"]
            over = (math.isfinite(a[0]) and a[0] > report.policy.get("cpu_util_max", 1.0)) or (
                math.isfinite(a[1]) and a[1] > report.policy.get("memory_util_max", 1.0))
            for j, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if over:
                    item.setForeground(QColor(theme.tones().error))
                self.hosts_table.setItem(i, j, item)


def failing_first(report: FailureReport) -> list[int]:
    """The report's failures in the order the table lists them: those that break policy
    first (VMs that cannot restart, then the most new breaches), then the rest as the
    design lists them; hosts before sites within each."""
    fs = report.failures
    return sorted(range(len(fs)), key=lambda i: (
        not (fs[i].new_breaches or fs[i].not_restarted), -len(fs[i].not_restarted),
        -len(fs[i].new_breaches), fs[i].site, i))
