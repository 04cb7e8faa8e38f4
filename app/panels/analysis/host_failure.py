"""The Host failure (N+1) tab: each host failed in turn (:func:`models.analysis.host_failure`),
in the background with a busy bar and Cancel; a table lists per host the VMs restarted, FT
fail-overs, new breaches and what breaks, and a line says whether the design survives."""

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
        self.failure_table = QTableWidget(0, 5)
        self.failure_table.setAccessibleName("Host failure table")
        self.failure_table.setHorizontalHeaderLabels(
            ["Failed host", "VMs restarted", "FT fail-overs", "New breaches", "What breaks"])
        self.failure_table.horizontalHeader().setSectionResizeMode(
            4, QHeaderView.ResizeMode.Stretch)
        self.failure_table.verticalHeader().hide()
        self.failure_table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        v.addWidget(self.failure_table, 1)

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
        rows = report.failures
        self.failure_table.setRowCount(len(rows))
        for i, f in enumerate(rows):
            new = f.new_breaches
            took = sum(x.lost == "primary" for x in f.ft)
            worst = "; ".join(plain(self.document, b.describe()) for b in new[:3]) + (
                f" (+{len(new) - 3} more)" if len(new) > 3 else "")
            if f.not_restarted:
                worst = f"{fmt.count(len(f.not_restarted), 'VM')} cannot restart. " + worst
            cells: list[Any] = [self._name(f.host), len(f.restarted), took, len(new),
                                worst or "nothing new breaks"]
            for j, value in enumerate(cells):
                item = QTableWidgetItem(str(value))
                if j in (1, 2, 3):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                          | Qt.AlignmentFlag.AlignVCenter)
                if new:
                    item.setForeground(QColor(theme.tones().error))
                self.failure_table.setItem(i, j, item)
        pol = report.policy
        already = (f" {fmt.count(len(report.baseline), 'breach', 'breaches')} already before"
                   " any failure."
                   if report.baseline else "")
        self.failure_summary.setText(
            ("Survives any single host failure." if report.survives else
             f"Does NOT survive: {sum(bool(f.new_breaches) for f in rows)} of"
             f" {fmt.count(len(rows), 'host failure')} break policy.")
            + f" Policy: CPU <= {fmt.percent(pol.get('cpu_util_max', math.nan))},"
            f" p95 <= {fmt.with_unit(pol.get('p95_ms_max', math.nan), 'ms')}.{already}")
        self.failure_finished.emit(report)

    def _failure_failed(self, message: str) -> None:
        self._failure_running(False)
        self.failure_summary.setText(f"Host failure failed: {message}")

    def _name(self, cid: str) -> str:
        c = self.document.component(cid)
        return f"{c.name} ({cid})" if c is not None and c.name else cid
