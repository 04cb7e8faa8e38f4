"""The scenario bar: pick the active scenario, add or remove one, compare two side by side.

Switching calls :meth:`DesignDocument.set_scenario` (not an undoable edit); adding and
removing are undoable.  The comparison lists every dashboard KPI for two scenarios with the
change between them; scenarios other than the active one and base are evaluated on demand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QKeyEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.support import theme
from models.core.prediction import Prediction
from models.document import numbers as fmt
from models.document.design import DesignError
from models.engine.evaluation import evaluate
from models.engine.kpis import KPIS, limit_text

if TYPE_CHECKING:
    from app.document.design_document import DesignDocument

BASE = "base"


class ComparePanel(QWidget):
    """The floating window of the comparison table; Esc closes it."""

    closed = Signal()

    def __init__(self, parent: QWidget):
        super().__init__(parent, Qt.WindowType.Tool)
        self.setWindowTitle("Compare scenarios")
        self.setAccessibleName("Scenario comparison window")


    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        super().closeEvent(event)
        self.closed.emit()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        if event.key() == Qt.Key.Key_Escape:
            self.close()
            return
        super().keyPressEvent(event)


class ScenarioBar(QWidget):
    """Active-scenario switcher with add/remove and a KPI comparison of two scenarios."""

    def __init__(self, document: DesignDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.setAccessibleName("Scenario bar")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        row = QHBoxLayout()
        label = QLabel("&Scenario")
        self.combo = QComboBox()
        self.combo.setAccessibleName("Active scenario")
        self.combo.setToolTip("The scenario the knobs edit and the dashboard shows; 'base' is"
                              " the design itself, a named scenario holds overrides on it.")
        label.setBuddy(self.combo)
        self.combo.activated.connect(self._on_activated)
        row.addWidget(label)
        row.addWidget(self.combo, 1)
        self.name_edit = QLineEdit()
        self.name_edit.setPlaceholderText("new scenario name")
        self.name_edit.setAccessibleName("New scenario name")
        self.name_edit.returnPressed.connect(self.add_from_edit)
        row.addWidget(self.name_edit)
        self.add_button = QPushButton("&Add")
        self.add_button.setAccessibleName("Add scenario")
        self.add_button.setToolTip("Add a scenario (a set of overrides on the base design) and"
                                   " make it active")
        self.add_button.clicked.connect(self.add_from_edit)
        row.addWidget(self.add_button)
        self.remove_button = QPushButton("&Remove")
        self.remove_button.setAccessibleName("Remove active scenario")
        self.remove_button.clicked.connect(self.remove_active)
        row.addWidget(self.remove_button)
        self.compare_button = QPushButton("&Compare")
        self.compare_button.setCheckable(True)
        self.compare_button.setAccessibleName("Compare scenarios")
        self.compare_button.toggled.connect(self._on_compare_toggled)
        row.addWidget(self.compare_button)
        layout.addLayout(row)
        self.error_label = QLabel()
        theme.tone(self.error_label, "error")
        self.error_label.setAccessibleName("Scenario error")
        self.error_label.hide()
        layout.addWidget(self.error_label)

        # a tool window of its own: the bar usually sits in a toolbar, which a table would
        # stretch
        self.compare_panel = ComparePanel(self)
        self.compare_panel.closed.connect(lambda: self.compare_button.setChecked(False))
        cp = QVBoxLayout(self.compare_panel)
        pick = QHBoxLayout()
        self.left_combo = QComboBox()
        self.left_combo.setAccessibleName("Compare from scenario")
        self.right_combo = QComboBox()
        self.right_combo.setAccessibleName("Compare to scenario")
        pick.addWidget(QLabel("Compare"))
        pick.addWidget(self.left_combo, 1)
        pick.addWidget(QLabel("with"))
        pick.addWidget(self.right_combo, 1)
        cp.addLayout(pick)
        self.table = QTableWidget(len(KPIS) + 1, 4)
        self.table.setHorizontalHeaderLabels(["KPI", "", "", "Change"])
        self.table.setAccessibleName("Scenario comparison")
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        # sized by fit_compare to the contents, with room in the last column for a longer
        # change (a stretched last section could be wider than the room the table has)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        for i, kpi in enumerate(KPIS):
            item = QTableWidgetItem(kpi.title)
            item.setToolTip(f"{kpi.doc}.\nStudy behind it: {kpi.source}")
            self.table.setItem(i, 0, item)
        self.table.setItem(len(KPIS), 0, QTableWidgetItem("Binding limit"))
        cp.addWidget(self.table)
        self.compare_panel.hide()
        self.left_combo.activated.connect(self.refresh_compare)
        self.right_combo.activated.connect(self.refresh_compare)

        self._compare_timer = QTimer(self)
        self._compare_timer.setSingleShot(True)
        self._compare_timer.setInterval(100)
        self._compare_timer.timeout.connect(self.refresh_compare)
        document.scenarios_changed.connect(self.refresh_names)
        document.design_replaced.connect(self.refresh_names)
        document.scenario_changed.connect(self._on_scenario_changed)
        document.prediction_updated.connect(self._schedule_compare)
        self.refresh_names()

    # ------------------------------------------------------------------ names
    def names(self) -> list[str]:
        return [BASE, *(s.name for s in self.document.design.scenarios)]

    def refresh_names(self, *_: object) -> None:
        names = self.names()
        # at first the base design against the active scenario, or the first one when the
        # base design is active (not base against itself)
        other = self.document.scenario if self.document.scenario != BASE else (
            names[1] if len(names) > 1 else BASE)
        for combo, current in ((self.combo, self.document.scenario),
                               (self.left_combo, self.left_combo.currentText() or BASE),
                               (self.right_combo, self.right_combo.currentText() or other)):
            combo.blockSignals(True)
            combo.clear()
            combo.addItems(names)
            combo.setCurrentIndex(max(0, combo.findText(current)))
            combo.blockSignals(False)
        self.remove_button.setEnabled(self.document.scenario != BASE)
        self._schedule_compare()

    def _on_scenario_changed(self, name: str) -> None:
        self.combo.setCurrentIndex(max(0, self.combo.findText(name)))
        self.remove_button.setEnabled(name != BASE)
        if self.left_combo.currentText() == BASE or not self.left_combo.currentText():
            self.right_combo.setCurrentIndex(max(0, self.right_combo.findText(name)))
        self._schedule_compare()

    # ------------------------------------------------------------------ actions
    def _show_error(self, text: str) -> None:
        self.error_label.setText(text)
        self.error_label.setVisible(bool(text))

    def _on_activated(self, index: int) -> None:
        self.switch_to(self.combo.itemText(index))

    def switch_to(self, name: str) -> None:
        try:
            self.document.set_scenario(name)
        except DesignError as err:
            self._show_error(str(err))
            return
        self._show_error("")

    def add_from_edit(self) -> None:
        """Add the scenario typed in the name field and make it active."""
        name = self.name_edit.text().strip()
        try:
            self.document.add_scenario(name)
        except DesignError as err:
            self._show_error(str(err))
            return
        self._show_error("")
        self.name_edit.clear()
        self.refresh_names()
        self.switch_to(name)

    def remove_active(self) -> None:
        name = self.document.scenario
        if name == BASE:
            return
        try:
            self.document.set_scenario(BASE)
            self.document.remove_scenario(name)
        except DesignError as err:
            self._show_error(str(err))
            return
        self._show_error("")
        self.refresh_names()

    # ------------------------------------------------------------------ comparison
    def _on_compare_toggled(self, on: bool) -> None:
        if on:
            self.refresh_compare()
        self.compare_panel.setVisible(on)
        if on:
            self.fit_compare()

    def _schedule_compare(self, *_: object) -> None:
        """Base and the active scenario are already evaluated: refresh at most every 100 ms.
        Any other scenario costs a full evaluation: wait until the edits pause (400 ms)."""
        if not self.compare_panel.isVisible():
            return
        cheap = {BASE, self.document.scenario}
        if {self.left_combo.currentText(), self.right_combo.currentText()} <= cheap:
            if not self._compare_timer.isActive():
                self._compare_timer.start(100)
        else:
            self._compare_timer.start(400)

    def prediction_of(self, name: str) -> Prediction | None:
        """The prediction of scenario ``name`` (the document's own for active and base)."""
        doc = self.document
        if name == doc.scenario:
            return doc.prediction
        if name == BASE:
            return doc.baseline
        try:
            return evaluate(doc.design, name)
        except Exception as err:  # a model failure shows in the table, never crashes
            self._show_error(f"Cannot evaluate scenario '{name}': {err}")
            return None

    def refresh_compare(self, *_: object) -> None:
        self._compare_timer.stop()
        left_name = self.left_combo.currentText() or BASE
        right_name = self.right_combo.currentText() or self.document.scenario
        left, right = self.prediction_of(left_name), self.prediction_of(right_name)
        self.table.setHorizontalHeaderLabels(["KPI", left_name, right_name, "Change"])
        rows = self.table.rowCount()
        for i, kpi in enumerate(KPIS):
            a = kpi.value(left) if left is not None else None
            b = kpi.value(right) if right is not None else None
            cells = (kpi.text(a), kpi.text(b), fmt.delta(b, a, kpi.unit))
            for col, text in enumerate(cells, start=1):
                self._set_cell(i, col, text)
            # a figure neither scenario has (FT logging without FT VMs) is not a row
            self.table.setRowHidden(i, a is None and b is None)
        row = len(KPIS)
        for col, p in ((1, left), (2, right)):
            self._set_cell(row, col, limit_text(p.consolidation.binding) if p is not None
                           else "")
        self._set_cell(row, 3, "")
        if self.compare_panel.isVisible() and rows:
            self.fit_compare()

    def fit_compare(self) -> None:
        """Size the comparison window to its table: every shown row and column, no scroll
        bars, no empty space (within the screen)."""
        table = self.table
        header = table.horizontalHeader()
        for c in range(table.columnCount()):
            need = max(table.sizeHintForColumn(c), header.sectionSizeHint(c))
            table.setColumnWidth(c, need + (24 if c == table.columnCount() - 1 else 0))
        width = table.verticalHeader().width() + 2 * table.frameWidth() + sum(
            table.columnWidth(c) for c in range(table.columnCount()))
        height = header.height() + 2 * table.frameWidth() + sum(
            table.rowHeight(r) for r in range(table.rowCount()) if not table.isRowHidden(r))
        table.setFixedSize(width, height)
        panel = self.compare_panel
        panel.adjustSize()
        screen = panel.screen().availableGeometry() if panel.screen() else None
        if screen is not None:
            panel.resize(min(panel.width(), screen.width()),
                         min(panel.height(), screen.height()))

    def _set_cell(self, row: int, col: int, text: str) -> None:
        item = self.table.item(row, col)
        if item is None:
            item = QTableWidgetItem()
            item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(row, col, item)
        item.setText(text)
