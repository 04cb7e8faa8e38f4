"""The comparison window of the scenario bar: two scenarios' figures side by side
(:mod:`app.panels.scenarios` fills that table), and under them the settings that differ
between the two, so that a change in a figure comes with what changed it.

The settings are the report's knob table (:mod:`models.report.settings`): each knob's values
over the components it applies to, in the same words ("128 I/Os on 15 VMs, 0 I/Os on 1 VM").
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCloseEvent, QKeyEvent
from PySide6.QtWidgets import QHeaderView, QLabel, QTableWidget, QTableWidgetItem, QWidget

from models.document.design import Design, DesignError, apply_scenario
from models.document.knobs import knobs_for
from models.report.settings import setting, setting_text, values

BASE = "base"


@dataclass(frozen=True)
class Difference:
    """A knob whose values differ between two scenarios, in words."""

    label: str
    left: str
    right: str
    doc: str
    """What the knob is (its tooltip), with the study behind it."""


def differences(design: Design, left: str, right: str) -> list[Difference]:
    """The knobs whose values differ between scenarios ``left`` and ``right`` (``base``: the
    design itself), in registry order; none when either no longer applies."""
    try:
        a = design if left == BASE else apply_scenario(design, left)
        b = design if right == BASE else apply_scenario(design, right)
    except DesignError:
        return []
    out = []
    for k in knobs_for(design):
        va, vb = values(a, k), values(b, k)
        if va != vb:
            out.append(Difference(k.label, setting_text(k, setting(va)),
                                  setting_text(k, setting(vb)),
                                  f"{k.spec.doc}.\nStudy behind it: {k.source}"))
    return out


class ComparePanel(QWidget):
    """The floating window of the comparison; Esc closes it."""

    closed = Signal()

    def __init__(self, parent: QWidget):
        super().__init__(parent, Qt.WindowType.Tool)
        self.setWindowTitle("Compare scenarios")
        self.setAccessibleName("Scenario comparison window")
        self.settings_label = QLabel()
        self.settings_label.setAccessibleName("Settings that differ")
        font = self.settings_label.font()
        font.setBold(True)
        self.settings_label.setFont(font)
        self.settings = QTableWidget(0, 3)
        self.settings.setAccessibleName("Settings that differ between the scenarios")
        self.settings.verticalHeader().setVisible(False)
        self.settings.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.settings.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.settings.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.settings.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

    def show_settings(self, design: Design, left: str, right: str) -> None:
        """List the settings that differ between ``left`` and ``right``."""
        rows = differences(design, left, right)
        table = self.settings
        table.setHorizontalHeaderLabels(["Setting", left, right])
        table.setRowCount(len(rows))
        for r, d in enumerate(rows):
            for c, text in enumerate((d.label, d.left, d.right)):
                item = QTableWidgetItem(text)
                item.setToolTip(d.doc if c == 0 else text)
                table.setItem(r, c, item)
        self.settings_label.setText(
            f"Settings that differ ({len(rows)})" if rows
            else f"No knob is set differently in {left} and {right}" if left != right
            else "The same scenario on both sides")
        table.setVisible(bool(rows))
        fit_table(table)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        super().closeEvent(event)
        self.closed.emit()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        if event.key() == Qt.Key.Key_Escape:
            self.close()
            return
        super().keyPressEvent(event)


def fit_table(table: QTableWidget, spare: int = 24) -> None:
    """Size ``table`` to its contents: every shown row and column, no scroll bars (the last
    column ``spare`` pixels wider, for a longer text to come)."""
    header = table.horizontalHeader()
    for c in range(table.columnCount()):
        need = max(table.sizeHintForColumn(c), header.sectionSizeHint(c))
        table.setColumnWidth(c, need + (spare if c == table.columnCount() - 1 else 0))
    width = table.verticalHeader().width() + 2 * table.frameWidth() + sum(
        table.columnWidth(c) for c in range(table.columnCount()))
    height = header.height() + 2 * table.frameWidth() + sum(
        table.rowHeight(r) for r in range(table.rowCount()) if not table.isRowHidden(r))
    table.setFixedSize(width, height)
