"""The comparison window of the scenario bar: two scenarios' figures side by side
(:mod:`app.panels.scenarios` fills that table), and under them the settings that differ
between the two, so that a change in a figure comes with what changed it.

The settings are the report's knob table (:mod:`models.report.settings`): each knob's values
over the components it applies to, in the same words ("128 I/Os on 15 VMs, 0 I/Os on 1 VM").
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCloseEvent, QKeyEvent
from PySide6.QtWidgets import QHeaderView, QLabel, QTableWidget, QTableWidgetItem, QWidget

from models.document.catalogue import processors
from models.document.design import Component, Design, DesignError, apply_scenario
from models.document.knobs import knobs_for
from models.document.words import kind_count
from models.report.settings import listed, setting, setting_text, values

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
    out = hardware(a, b)
    for k in knobs_for(design):
        va, vb = values(a, k), values(b, k)
        if va == vb or (len(va) != len(vb) and set(va) == set(vb)):
            continue  # other components (a refresh's hosts) with the same values: no change
        out.append(Difference(k.label, setting_text(k, setting(va)),
                              setting_text(k, setting(vb)),
                              f"{k.spec.doc}.\nStudy behind it: {k.source}"))
    return out


def hardware(a: Design, b: Design) -> list[Difference]:
    """How many hosts and which processors, where they differ (a refresh): neither is a knob,
    and a refresh changes both."""
    ha, hb = a.of_kind("host"), b.of_kind("host")
    out = []
    if len(ha) != len(hb):
        out.append(Difference("Hosts", kind_count("host", len(ha)), kind_count("host", len(hb)),
                              "The hosts of the design."))
    pa, pb = [_processor(h) for h in ha], [_processor(h) for h in hb]
    if set(pa) != set(pb):
        out.append(Difference("Processor", _counted(pa), _counted(pb),
                              "The hosts' processors, as the catalogue names them (their"
                              " per-core performance is SPEC's)."))
    return out


def _processor(host: Component) -> str:
    text = str(host.get("cpu_model") or "").strip()
    found = processors.match(text) if text else None
    return found.model if found is not None else (text or "not given")


def _counted(names: list[str]) -> str:
    """``Intel Xeon Gold 6140 on 12 hosts, ...`` (one name: just the name)."""
    order = Counter(names).most_common()
    return order[0][0] if len(order) == 1 else listed(order, "host", "other processor")


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
