"""The Growth tab: the active scenario year by year at compound growth rates
(:func:`models.analysis.growth.grow`, what ``headroom grow`` runs), in the background with a
busy bar and Cancel.  The rates start as the design's (``design.growth.*``); the chart shows
hosts needed per year by cluster with the month each runs out, and storage used against
usable; a table lists the years; "Keep as the design's growth" sets the rates on the design
(ONE undo step), so that the Year knob, the dashboard and the report follow them.  "Suggest
from history..." fits a rate to each resource of a measured history
(:mod:`models.analysis.trend`) and shows it with its spread and span; "Use the suggested
rates" puts them in the boxes, and only Keep changes the design."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDoubleSpinBox,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.charts.growth import GrowthChart
from app.document.design_document import DesignDocument
from app.panels.analysis.common import LANE, analysis_copy
from app.support import theme, wheel
from app.support.jobs import Runner
from models.analysis.growth import MAX_YEARS, GrowthResult, grow
from models.analysis.trend import History, read_aria_history
from models.analysis.trend import lines as trend_lines
from models.core.growth import RESOURCES
from models.document.numbers import counted
from models.document.schema import prop_spec
from models.report.growth import (
    COLUMNS,
    HORIZON,
    GrowthView,
    clusters,
    rates_text,
    runs_out_lines,
    short,
    year_cells,
)

RATES = {"cpu": "CPU", "memory": "Memory held", "storage": "Storage used",
         "iops": "I/O and network", "vms": "VM count"}
"""Each rate's row in the tab (``design.growth.<resource>_pct``)."""
LEFT_MAX = 360
"""The widest the rates and the words grow (px): the chart takes the rest."""


class GrowthTab(QWidget):
    """The rates and the horizon, Grow and Cancel, the chart, the years, Keep."""

    growth_finished = Signal(object)
    """The GrowthResult shown (tests and the status bar follow it)."""
    status_message = Signal(str)

    def __init__(self, document: DesignDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.result: GrowthResult | None = None
        self._edits = -1
        self.runner = Runner(self, lane=LANE)
        self.runner.finished.connect(self._done)
        self.runner.failed.connect(self._failed)
        outer = QHBoxLayout(self)
        split = QSplitter(Qt.Orientation.Horizontal)
        outer.addWidget(split)
        left = QWidget()
        v = QVBoxLayout(left)
        v.setContentsMargins(0, 0, 4, 0)
        title = QLabel("Growth a year (compound), and the horizon")
        theme.tone(title, "muted")
        v.addWidget(title)
        grid = QGridLayout()  # two rates a row: the tab fits a short dock at 1366x768
        grid.setVerticalSpacing(2)
        self.rate_spins: dict[str, QDoubleSpinBox] = {}
        for i, (key, text) in enumerate(RATES.items()):
            spec = prop_spec("design", f"growth.{key}_pct")
            assert spec is not None
            spin = QDoubleSpinBox()
            spin.setAccessibleName(f"{text} growth a year")
            spin.setRange(float(spec.min or -50), float(spec.max or 500))
            spin.setDecimals(1)
            spin.setSingleStep(1.0)
            spin.setSuffix(" %")
            spin.setToolTip(f"{spec.doc} (the design's growth.{key}_pct)")
            spin.valueChanged.connect(self._rates_changed)
            wheel.guard(spin)  # a wheel over it scrolls until it is clicked
            label = QLabel(text)
            label.setBuddy(spin)
            grid.addWidget(label, i // 2, 2 * (i % 2))
            grid.addWidget(spin, i // 2, 2 * (i % 2) + 1)
            self.rate_spins[key] = spin
        self.years_spin = QSpinBox()
        self.years_spin.setAccessibleName("Years")
        self.years_spin.setRange(1, MAX_YEARS)
        self.years_spin.setValue(HORIZON)
        self.years_spin.setSuffix(" years")
        self.years_spin.setToolTip("The horizon: years 0 (today) to N")
        wheel.guard(self.years_spin)
        years_label = QLabel("Horizon")
        years_label.setBuddy(self.years_spin)
        n = len(RATES)
        grid.addWidget(years_label, n // 2, 2 * (n % 2))
        grid.addWidget(self.years_spin, n // 2, 2 * (n % 2) + 1)
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(3, 1)
        v.addLayout(grid)
        hints = QHBoxLayout()
        self.history_button = QPushButton("Suggest from history...")
        self.history_button.setToolTip("Fit a rate a year to each resource of a measured"
                                       " history (an Aria Operations view with an interval"
                                       " breakdown): a suggestion, applied only when you use"
                                       " it")
        self.history_button.clicked.connect(self._choose_history)
        self.use_button = QPushButton("Use the suggested rates")
        self.use_button.setToolTip("Put the suggested rates in the boxes above (the design"
                                   " changes only with Keep)")
        self.use_button.clicked.connect(self.use_suggested)
        self.use_button.hide()
        hints.addWidget(self.history_button)
        hints.addWidget(self.use_button)
        hints.addStretch(1)
        v.addLayout(hints)
        self.suggestion = QLabel()
        self.suggestion.setAccessibleName("Suggested growth")
        self.suggestion.setWordWrap(True)
        self.suggestion.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.suggestion.hide()
        self.suggested: dict[str, float] = {}
        """The rates the last history read suggests (none: too short, or none read)."""
        self.history_runner = Runner(self, lane=LANE)
        self.history_runner.finished.connect(self._history_read)
        self.history_runner.failed.connect(self._history_failed)
        buttons = QHBoxLayout()
        self.run_button = QPushButton("Grow")
        self.run_button.setToolTip("The design year by year at these rates (the design is not"
                                   " changed)")
        self.run_button.clicked.connect(self.run_growth)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel_growth)
        self.keep_button = QPushButton("Keep as the design's growth")
        self.keep_button.setToolTip("Set these rates on the design (one undo step): the Year"
                                    " knob, the dashboard and the report then use them")
        self.keep_button.clicked.connect(self.keep)
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.keep_button)
        buttons.addStretch(1)
        v.addLayout(buttons)
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)
        self.busy.setAccessibleName("Growth running")
        self.busy.hide()
        v.addWidget(self.busy)
        self.summary = QLabel("Set the rates and press Grow.")
        self.summary.setAccessibleName("Growth summary")
        self.summary.setWordWrap(True)
        self.summary.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # the suggestion and a run-out line per cluster: an estate of 40 scrolls here
        said = QWidget()
        lines = QVBoxLayout(said)
        lines.setContentsMargins(0, 0, 0, 0)
        lines.addWidget(self.suggestion)
        lines.addWidget(self.summary, 1)
        words = QScrollArea()
        words.setWidgetResizable(True)
        words.setFrameShape(QScrollArea.Shape.NoFrame)
        words.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        words.setWidget(said)
        words.viewport().setBackgroundRole(QPalette.ColorRole.Window)  # the panel's, not a box
        v.addWidget(words, 1)
        split.addWidget(left)
        left.setMaximumWidth(LEFT_MAX)
        right = QTabWidget()  # the chart and the years each take the dock's whole height
        right.setAccessibleName("Growth views")
        self.views = right
        self.chart = GrowthChart()
        right.addTab(self.chart, "Chart")
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setAccessibleName("Growth years")
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        right.addTab(self.table, "Years")
        split.addWidget(right)
        split.setStretchFactor(0, 0)
        split.setStretchFactor(1, 1)
        self._loading = False
        self.load_rates()
        document.design_replaced.connect(self.load_rates)
        document.scenario_changed.connect(self.load_rates)
        document.values_changed.connect(self._values_changed)
        document.prediction_updated.connect(self._design_changed)

    # ------------------------------------------------------------------ rates
    def rates(self) -> dict[str, float]:
        """The rates in the tab, % a year by resource."""
        return {key: round(spin.value(), 1) for key, spin in self.rate_spins.items()}

    def design_rates(self) -> dict[str, float]:
        """The active scenario's ``design.growth.*`` rates."""
        out = {}
        for r in RESOURCES:
            v = self.document.value("design", f"growth.{r}_pct")
            out[r] = float(v) if isinstance(v, (int, float)) else 0.0
        return out

    def load_rates(self, *_: object) -> None:
        """The spin boxes at the design's rates."""
        self._loading = True
        try:
            for key, value in self.design_rates().items():
                self.rate_spins[key].setValue(value)
        finally:
            self._loading = False
        self._rates_changed()

    def set_rates(self, rates: dict[str, float]) -> None:
        """Type ``rates`` into the tab (the suggestions, the tests)."""
        for key, value in rates.items():
            self.rate_spins[key].setValue(value)

    def _values_changed(self, select: str, prop: str) -> None:
        if select == "design" and prop.startswith("growth.") and prop != "growth.year":
            self.load_rates()

    def _rates_changed(self, *_: object) -> None:
        self.keep_button.setEnabled(self.rates() != {k: round(v, 1) for k, v in
                                                     self.design_rates().items()})

    # ------------------------------------------------------------------ running
    def run_growth(self) -> None:
        """Grow the active scenario over the horizon at the tab's rates, in the background."""
        self.cancel_growth()
        design = analysis_copy(self.document)
        years, rates = self.years_spin.value(), self.rates()
        self._edits = self.document.edits
        self.summary.setText(f"Growing over {counted(years, 'year')} at {rates_text(rates)}...")
        self._running(True)
        # grow() checks before each evaluation: Cancel stops it within one
        self.runner.submit(lambda task: grow(design, years, rates, check=task.check))

    def cancel_growth(self) -> None:
        if self.history_runner.busy:
            self.history_runner.cancel()
        if self.runner.busy:
            self.runner.cancel()
            self.summary.setText("Cancelled.")
        self._running(False)

    def _running(self, on: bool) -> None:
        self.busy.setVisible(on)
        self.cancel_button.setEnabled(on)
        self.run_button.setEnabled(not on)

    def _done(self, result: object) -> None:
        if not isinstance(result, GrowthResult):
            return
        self._running(False)
        self.result = result
        view = GrowthView(result, len(result.years) - 1, True, 0.0)
        self.chart.show_result(result, clusters(view))
        self.table.setRowCount(len(result.years))
        bad = theme.tones().error
        for i, y in enumerate(result.years):
            for j, text in enumerate(year_cells(y)):
                item = QTableWidgetItem(text)
                if j != 2:  # what binds reads as words; the figures right-aligned
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                          | Qt.AlignmentFlag.AlignVCenter)
                if j == 1 and short(y):
                    item.setForeground(QColor(bad))
                self.table.setItem(i, j, item)
        lines = runs_out_lines(view)
        self.summary.setText(f"At {rates_text(result.rates)}:\n" + "\n".join(lines))
        self.growth_finished.emit(result)
        self.status_message.emit("Growth: " + lines[0])

    def _failed(self, message: str) -> None:
        self._running(False)
        self.summary.setText(f"Growth failed: {message}")

    def _design_changed(self, *_: object) -> None:
        if self.result is not None and self.document.edits != self._edits \
                and not self.summary.text().endswith("again to see it."):
            self.summary.setText(self.summary.text() + "\nThe design changed since: Grow"
                                 " again to see it.")

    # ------------------------------------------------------------------ history
    def _choose_history(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, "Suggest growth from a measured history", "",
            "Aria Operations view with intervals (*.csv *.txt *.tsv);;All files (*)")
        if path:
            self.suggest_from(Path(path))

    def suggest_from(self, path: Path) -> None:
        """Read ``path``'s history in the background and show the rates it suggests."""
        self.suggestion.setText(f"Reading {path.name}...")
        self.suggestion.show()
        self.use_button.hide()
        self.history_runner.submit(lambda task: read_aria_history(path))

    def _history_read(self, history: object) -> None:
        if not isinstance(history, History):
            return
        self.suggested = history.suggested()
        self.suggestion.setText(f"From {history.source}:\n" + "\n".join(trend_lines(history))
                                + ("" if self.suggested else "\nNothing to suggest: the boxes"
                                   " keep their rates."))
        self.use_button.setVisible(bool(self.suggested))
        self.status_message.emit("Growth suggested from the history: use it, or not")

    def _history_failed(self, message: str) -> None:
        self.suggested = {}
        self.suggestion.setText(f"No history read: {message}")
        self.use_button.hide()

    def use_suggested(self) -> None:
        """The suggested rates into the boxes (the design changes only with Keep)."""
        self.set_rates(self.suggested)

    # ------------------------------------------------------------------ keeping
    def keep(self) -> None:
        """Set the tab's rates as the design's growth (ONE undo step)."""
        rates = self.rates()
        values = {f"growth.{k}_pct": v for k, v in rates.items()}
        if self.document.set_design_values(values, f"Keep the growth rates:"
                                           f" {rates_text(rates)}"):
            self.status_message.emit(f"The design grows at {rates_text(rates)} (Ctrl+Z undoes"
                                     " it); the Year evaluated knob shows any year")
        self._rates_changed()
