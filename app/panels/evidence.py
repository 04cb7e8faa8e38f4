"""The calibration evidence: every published figure against the model, with the study's words.

This is where a user sees which study stands behind a prediction and how close the model
comes.  The checks evaluate whole testbeds, so they are computed once per process.
"""

from __future__ import annotations

import html
import math
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QBrush, QColor, QResizeEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from app.charts.plots import label_axis, plot_widget
from app.support import first_paint, theme
from models.calibration import Check, all_checks
from models.calibration.crossval import stored, stored_summary
from models.core.registry import SUBSYSTEMS, subsystem
from models.document import glossary
from models.document import numbers as fmt

if TYPE_CHECKING:
    from app.document.design_document import DesignDocument


@dataclass
class Evidence:
    checks: list[Check] = field(default_factory=list)
    subsystem: list[str] = field(default_factory=list)
    errors: dict[str, str] = field(default_factory=dict)
    """Subsystems whose checks could not be computed, with the reason."""
    cv: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    """Per (case id, quantity): the stored cross-validation (``headroom validate --cv``)."""


_EVIDENCE: Evidence | None = None


def evidence() -> Evidence:
    """Every calibration check, computed once per process (they evaluate whole testbeds)."""
    global _EVIDENCE  # noqa: PLW0603 (a process-wide cache)
    if _EVIDENCE is None:
        ev = Evidence(cv=stored())
        for sub in SUBSYSTEMS:
            try:
                checks = all_checks((sub.name,))
            except Exception as err:  # a broken subsystem must not take the view down
                ev.errors[sub.name] = f"{type(err).__name__}: {err}"
                continue
            ev.checks.extend(checks)
            ev.subsystem.extend([sub.name] * len(checks))
        _EVIDENCE = ev
    return _EVIDENCE


def cv_error(c: Check, row: dict[str, Any] | None) -> float | None:
    """A check's relative error with its study left out of the fit, None where there is none
    to show."""
    if c.role == "rule" or row is None or row["reproduced_only"]:
        return None
    err = row.get("cv_error")
    return float(err) if err is not None else None


def cv_text(c: Check, row: dict[str, Any] | None) -> str:
    """A check's error with its study left out of the fit, as the views show it (stored by
    the fit command): 'reproduced only' where only its own case pins its coefficients, 'rule'
    for a rule."""
    if c.role == "rule":
        return "rule"
    if row is None:
        return ""
    if row["reproduced_only"]:
        return "reproduced only"
    err = row.get("cv_error")
    return fmt.signed_percent(float(err)) if err is not None else ""


def _cv_of(c: Check) -> str:
    return cv_text(c, evidence().cv.get((c.case_id, c.quantity)))


def _case_field(c: Check, key: str) -> Any:
    try:
        return c.case().get(key, "")
    except KeyError:
        return ""


def _study(c: Check, citation: bool = False) -> str:
    """The title (or the citation) of a check's study; empty for an unknown case."""
    try:
        return c.study.citation if citation else c.study.title
    except KeyError:
        return ""


class EvidenceView(QWidget):
    """Published figures against the model, per calibration check, with the study's words."""

    COLUMNS: tuple[Column, ...] = ()  # set below the class (the table's columns)

    def __init__(self, document: DesignDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.evidence: Evidence | None = None
        self.setAccessibleName("Calibration evidence")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        top = QHBoxLayout()
        top.addWidget(QLabel("Subsystem"))
        self.filter = QComboBox()
        self.filter.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.filter.setMinimumContentsLength(12)  # as narrow as its dock needs, never wider
        self.filter.setAccessibleName("Evidence subsystem filter")
        self.filter.addItem("All subsystems", "")
        for sub in SUBSYSTEMS:
            self.filter.addItem(sub.title, sub.name)
        self.filter.currentIndexChanged.connect(self._apply_filter)
        top.addWidget(self.filter)
        self.summary = QLabel("Calibration checks are computed when this view is first shown.")
        # one line whatever the text: the checks load after the window is shown, and a label
        # that grew a line then would resize the dock (and move the canvas under the user)
        self.summary.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.summary.setAccessibleName("Evidence summary")
        top.addWidget(self.summary, 1)
        layout.addLayout(top)
        # plot beside the table in a wide dock, above it in a tall one (see resizeEvent)
        split = QSplitter(Qt.Orientation.Vertical)
        self.split = split
        self.plots = plot_widget()
        self.plot = self.plots.addPlot()
        label_axis(self.plot, "bottom", "published")
        label_axis(self.plot, "left", "model")
        for name in ("bottom", "left"):
            self.plot.getAxis(name).setLogMode(True)
        self.plot.showGrid(x=True, y=True, alpha=0.2)
        # beside the plot, not on it: ten subsystems would cover the points of a short plot
        self.legend = pg.LegendItem(verSpacing=-4, labelTextSize="8pt")  # compact: the plot
        # keeps the width
        self.plots.addItem(self.legend, row=0, col=1)
        band = pg.mkPen("#bdc3c7")
        self.band_hi = pg.PlotDataItem([], [], pen=band)
        self.band_lo = pg.PlotDataItem([], [], pen=band)
        self.band = pg.FillBetweenItem(self.band_hi, self.band_lo, brush=_band_brush())
        self.identity = pg.PlotDataItem([], [], pen=pg.mkPen("#7f8c8d", width=1))
        for item in (self.band_hi, self.band_lo, self.band, self.identity):
            self.plot.addItem(item)
        self.points: dict[str, pg.PlotDataItem] = {}
        for sub in SUBSYSTEMS:
            item = self.plot.plot([], [], pen=None, symbol="o", symbolSize=8,
                                  symbolPen=None, symbolBrush=pg.mkBrush(sub.colour))
            self.points[sub.name] = item
        self.failing = self.plot.plot([], [], pen=None, symbol="o", symbolSize=13,
                                      symbolPen=pg.mkPen("#c0392b", width=2), symbolBrush=None)
        self.selected = self.plot.plot([], [], pen=None, symbol="s", symbolSize=16,
                                       symbolPen=pg.mkPen(theme.tones().marker_edge, width=2),
                                       symbolBrush=None)
        self.plots.restyled.connect(self._restyle)
        split.addWidget(self.plots)
        self.details = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.details)
        # beside each other, nearly halves: the plot (square on log-log axes) beside its
        # legend needs about what the table's first five columns do
        split.setStretchFactor(0, 5)
        split.setStretchFactor(1, 6)
        self.table = FittedTable(self.COLUMNS)
        self.table.setAccessibleName("Calibration checks")
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.currentCellChanged.connect(self._on_current)
        self.studies = FittedTable(STUDY_COLUMNS)
        self.studies.setAccessibleName("Cross-validation by study")
        self.studies.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.studies.verticalHeader().setVisible(False)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.table, "Figures")
        self.tabs.addTab(self.studies, "Each study left out")
        self.tabs.currentChanged.connect(lambda _i: QTimer.singleShot(
            0, self.studies.fit_columns))  # its width is known once shown
        self.details.addWidget(self.tabs)
        self.quote = QTextBrowser()
        self.quote.setAccessibleName("Study quote")
        self.quote.setPlaceholderText("Select a check to read what the study says.")
        self.details.addWidget(self.quote)
        self.details.setSizes([250, 120])
        layout.addWidget(split, 1)
        self._load_timer = QTimer(self)
        self._load_timer.setSingleShot(True)
        self._load_timer.setInterval(100)
        self._load_timer.timeout.connect(self._load_if_seen)

    def _restyle(self) -> None:
        self.band.setBrush(_band_brush())
        self.selected.setSymbolPen(pg.mkPen(theme.tones().marker_edge, width=2))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        size = event.size()
        wide = size.width() > 1.6 * size.height()
        self.split.setOrientation(Qt.Orientation.Horizontal if wide
                                  else Qt.Orientation.Vertical)

    def showEvent(self, event: Any) -> None:  # noqa: N802 (Qt override)
        super().showEvent(event)
        self.load_soon()

    def load_soon(self) -> None:
        """Compute the checks shortly after the panel is first seen, once the window has
        painted (the main window calls it when the Evidence tab is raised: a dock behind
        another tab is "visible" to Qt, only moved off screen, and computing the checks there
        held a new window for two seconds)."""
        if self.evidence is None and not self._load_timer.isActive():
            self.summary.setText("Computing the calibration checks…")
            first_paint.later(self._load_timer.start)

    def _load_if_seen(self) -> None:
        if self.isVisible() and not self.visibleRegion().isEmpty():
            self.ensure_loaded()

    def ensure_loaded(self) -> None:
        """Compute the checks (once per process) and fill the plot and table."""
        self._load_timer.stop()
        if self.evidence is not None:
            return
        self.evidence = evidence()
        self._fill_table()
        self._fill_studies()
        self._apply_filter()

    def _visible(self) -> list[int]:
        ev = self.evidence
        if ev is None:
            return []
        wanted = self.filter.currentData()
        return [i for i, s in enumerate(ev.subsystem) if not wanted or s == wanted]

    def _fill_table(self) -> None:
        ev = self.evidence
        assert ev is not None
        self.table.setSortingEnabled(False)
        self.table.setRowCount(len(ev.checks))
        for row, (c, sub) in enumerate(zip(ev.checks, ev.subsystem, strict=True)):
            tip = f"{_study(c)}: {c.quantity} (calibration case {c.case_id})"
            for col, column in enumerate(self.COLUMNS):
                item = QTableWidgetItem(column.cell(c, sub))
                item.setData(Qt.ItemDataRole.UserRole, row)
                item.setToolTip(tip)
                if column.numeric:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                          | Qt.AlignmentFlag.AlignVCenter)
                if column.title == "OK" and not c.ok:
                    item.setForeground(QColor(theme.tones().error))
                self.table.setItem(row, col, item)
        self.table.fit_columns()
        self.table.setSortingEnabled(True)
        self.table.sortItems(self.table.index_of("Subsystem"), Qt.SortOrder.AscendingOrder)

    def _fill_studies(self) -> None:
        """Each study's figures as the other studies predict them (the stored
        cross-validation, leaving whole studies out)."""
        studies = {t: st for t, st in stored_summary().get("studies", {}).items()
                   if st["figures"]}  # a study of bounds only has no error to show
        self.studies.setRowCount(len(studies))
        for row, (title, st) in enumerate(studies.items()):
            for col, column in enumerate(STUDY_COLUMNS):
                item = QTableWidgetItem(column.cell(title, st))
                item.setToolTip(title)
                if column.numeric:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                          | Qt.AlignmentFlag.AlignVCenter)
                if column.title in (glossary.LEFT_OUT_TYPICAL, glossary.LEFT_OUT_LARGEST) \
                        and off_target(st):
                    item.setForeground(QColor(theme.tones().error))
                self.studies.setItem(row, col, item)
        self.studies.fit_columns()

    def _apply_filter(self, *_: object) -> None:
        ev = self.evidence
        if ev is None:
            return
        visible = set(self._visible())
        for row in range(self.table.rowCount()):
            item = self.table.item(row, 0)
            index = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
            self.table.setRowHidden(row, index not in visible)
        logs: list[tuple[float, float]] = []
        fails: list[tuple[float, float]] = []
        for name, item in self.points.items():
            xs, ys = [], []
            for i in sorted(visible):
                c = ev.checks[i]
                if ev.subsystem[i] != name:
                    continue
                xy = _log_point(c)
                if xy is None:
                    continue
                xs.append(xy[0])
                ys.append(xy[1])
                logs.append(xy)
                if not c.ok:
                    fails.append(xy)
            item.setData(xs, ys)
            self.legend.removeItem(item)
            if xs:
                self.legend.addItem(item, subsystem(name).title)
        self.legend.removeItem(self.failing)
        if fails:
            self.legend.addItem(self.failing, "outside tolerance")
        self.failing.setData([f[0] for f in fails], [f[1] for f in fails])
        self.selected.setData([], [])
        lo = min((min(x, y) for x, y in logs), default=0.0) - 0.5
        hi = max((max(x, y) for x, y in logs), default=3.0) + 0.5
        tols = [ev.checks[i].tolerance for i in visible if 0 < ev.checks[i].tolerance < 1]
        tol = statistics.median(tols) if tols else 0.1
        line = np.array([lo, hi])
        self.identity.setData(line, line)
        self.band_hi.setData(line, line + math.log10(1 + tol))
        self.band_lo.setData(line, line + math.log10(1 - tol))
        self.plot.setRange(xRange=(lo, hi), yRange=(lo, hi), padding=0)
        checks = [ev.checks[i] for i in visible]
        ok = sum(c.ok for c in checks)
        honest = [abs(c.error) for c in checks if c.role == "check" and math.isfinite(c.error)]
        text = (f"{fmt.count(len(checks), 'check')}, {ok} within tolerance"
                f" ({sum(c.role == 'fit' for c in checks)} fit,"
                f" {sum(c.role == 'check' for c in checks)} check,"
                f" {sum(c.role == 'rule' for c in checks)} rule)")
        if honest:
            text += "; " + glossary.unseen_error(fmt.percent(statistics.median(honest)))
        rows = [(c, ev.cv.get((c.case_id, c.quantity))) for c in checks
                if c.bound == "eq" and c.role != "rule"]
        cv_errs = [abs(e) for c, r in rows if (e := cv_error(c, r)) is not None]
        if cv_errs:
            text += ("; " + glossary.left_out_error(fmt.percent(statistics.median(cv_errs)),
                                                    fmt.count(len(cv_errs), "figure"))
                     + f" ({sum(cv_text(c, r) == 'reproduced only' for c, r in rows)}"
                     " reproduced only)")
        text += f". Band: ±{fmt.percent(tol)} (median tolerance)."
        not_plotted = len(checks) - len(logs)
        if not_plotted:
            text += f" {not_plotted} not plotted (zero or negative values)."
        if ev.errors:
            text += " Unavailable: " + "; ".join(f"{k} ({v})" for k, v in ev.errors.items())
        self.summary.setText(text)
        self.summary.setToolTip(text)

    def _on_current(self, row: int, _col: int, _prow: int, _pcol: int) -> None:
        ev = self.evidence
        item = self.table.item(row, 0) if row >= 0 else None
        if ev is None or item is None:
            return
        c = ev.checks[int(item.data(Qt.ItemDataRole.UserRole))]
        xy = _log_point(c)
        self.selected.setData([xy[0]] if xy else [], [xy[1]] if xy else [])
        study = html.escape(_study(c, citation=True))
        quote = html.escape(str(_case_field(c, "quote")))
        note = f"<p>{html.escape(c.note)}</p>" if c.note else ""
        saturates = f"<p>The model's run {html.escape(c.saturates)}.</p>" if c.saturates \
            else ""
        cv = _cv_of(c)
        cv_html = ""
        if cv == "reproduced only":
            cv_html = (" — <i>reproduced only</i>: only its own study pins the coefficients it"
                       " depends on, so no other study can check it")
        elif cv and cv != "rule":
            cv_html = f"; {cv} {glossary.LEFT_OUT_ONE}"
        self.quote.setHtml(
            f"<p><b>{study}</b> ({ROLE_WORDS.get(c.role, c.role)})</p>"
            f"<p>{html.escape(c.quantity)}: published"
            f" {fmt.number(c.published)}, model {fmt.number(c.model)}"
            f" ({fmt.signed_percent(c.error)}){cv_html}</p>"
            f"<blockquote>“{quote}”</blockquote>{note}{saturates}")


@dataclass(frozen=True)
class Column:
    """A column of the checks table: its title, the text of a check's cell, whether it
    stretches (long text, cut with "…" when narrow) or is sized to its contents, whether it
    is a number (right-aligned), and its priority: when the table is too narrow for every
    column, the highest numbers step aside first (never a sideways scroll bar)."""

    title: str
    cell: Callable[[Any, Any], str]
    """(check, subsystem) in the checks table; (study title, its statistics) in the studies
    table."""
    stretch: bool = False
    numeric: bool = False
    priority: int = 5


ROLE_WORDS = {"fit": "fitted", "check": "check (not fitted)", "rule": "rule"}


def _bound(c: Check) -> str:
    return {"gt": "> ", "lt": "< "}.get(c.bound, "") + fmt.number(c.published)


COLUMNS: tuple[Column, ...] = (
    Column("Study", lambda c, _s: _study(c), stretch=True, priority=2),
    Column("Figure", lambda c, _s: c.quantity, stretch=True, priority=1),
    Column("Published", lambda c, _s: _bound(c), numeric=True, priority=0),
    Column("Model", lambda c, _s: fmt.number(c.model), numeric=True, priority=0),
    Column("Error", lambda c, _s: fmt.signed_percent(c.error), numeric=True, priority=1),
    Column(glossary.LEFT_OUT_ERROR, lambda c, _s: _cv_of(c), numeric=True, priority=2),
    Column("Tolerance", lambda c, _s: "±" + fmt.percent(c.tolerance), numeric=True,
           priority=4),
    Column("Subsystem", lambda _c, s: subsystem(s).title, priority=5),
    Column("Role", lambda c, _s: c.role, priority=3),
    Column("OK", lambda c, _s: "yes" if c.ok else "NO", priority=0),
)
"""The checks table, left to right (a new column goes here)."""
EvidenceView.COLUMNS = COLUMNS


def _pct(key: str) -> Callable[[str, dict[str, Any]], str]:
    return lambda _t, st: glossary.NONE_PREDICTED if st.get(key) is None \
        else fmt.percent(st[key])


STUDY_COLUMNS: tuple[Column, ...] = (
    Column("Study", lambda t, _st: t, stretch=True, priority=0),
    Column("Predicted", lambda _t, st: f"{st['cv_figures']} of {st['figures']}", numeric=True,
           priority=0),
    Column(glossary.LEFT_OUT_TYPICAL, _pct("cv_median"), numeric=True, priority=0),
    Column(glossary.LEFT_OUT_LARGEST, _pct("cv_max"), numeric=True, priority=1),
    Column("Reproduced only", lambda _t, st: str(st["reproduced_only"]), numeric=True,
           priority=1),
    Column("Target", lambda _t, st: f"{fmt.percent(st['target_median'])} median,"
           f" {fmt.percent(st['target_max'])} max", numeric=True, priority=3),
)
"""The studies table: each study left out whole, its figures predicted by the others."""


def off_target(st: dict[str, Any]) -> bool:
    """Whether a study's figures, predicted with it left out, miss their targets."""
    med, top = st.get("cv_median"), st.get("cv_max")
    return ((med is not None and med > st["target_median"])
            or (top is not None and top > st["target_max"]))


class FittedTable(QTableWidget):
    """A table whose columns fit its width: long-text columns stretch, the others take
    their contents' width, and columns of low priority step aside when there is no room."""

    STRETCH_MIN = 90

    def __init__(self, columns: tuple[Column, ...]):
        super().__init__(0, len(columns))
        self.columns = columns
        self.setHorizontalHeaderLabels([c.title for c in columns])
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setWordWrap(False)
        header = self.horizontalHeader()
        for i, c in enumerate(columns):
            header.setSectionResizeMode(i, QHeaderView.ResizeMode.Stretch if c.stretch
                                        else QHeaderView.ResizeMode.ResizeToContents)

    def index_of(self, title: str) -> int:
        return next(i for i, c in enumerate(self.columns) if c.title == title)

    def fit_columns(self) -> None:
        """Show the columns that fit the width, most important first."""
        room = self.viewport().width()
        header = self.horizontalHeader()
        shown: set[int] = set()
        for i in sorted(range(len(self.columns)), key=lambda i: self.columns[i].priority):
            c = self.columns[i]
            need = self.STRETCH_MIN if c.stretch else max(
                self.sizeHintForColumn(i), header.sectionSizeHint(i))
            if need > room and shown:
                break  # this one and every less important one step aside
            shown.add(i)
            room -= need
        for i in range(len(self.columns)):
            self.setColumnHidden(i, i not in shown)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        self.fit_columns()


def _band_brush() -> QBrush:
    """The tolerance band: the chart's text colour, faint."""
    colour = QColor(theme.tones().chart_text)
    colour.setAlpha(40)
    return QBrush(colour)


def _log_point(c: Check) -> tuple[float, float] | None:
    if not (c.published > 0 and c.model > 0 and math.isfinite(c.model)):
        return None
    return math.log10(c.published), math.log10(c.model)
