"""The live dashboard: KPI tiles that follow every re-evaluation, with deltas against base
(an estate's capacity among them: cluster headroom, vCPUs per core, memory allocated of
installed, storage; a figure its data lacks reads "not measured", never 0).

Tiles are built once and updated in place (``setText``) on ``prediction_updated`` and
``baseline_updated``; each carries the study behind its figure as a tooltip.  The figures are
:data:`models.engine.kpis.KPIS` (the scenario comparison lists them too), as
:meth:`~models.engine.kpis.Kpi.text` writes them, the words after a figure ("of
installed") leading the line under it (:meth:`~models.engine.kpis.Kpi.note`).  Under a
figure that rests on a coefficient published as a range, the tile shows the figure's band
(``1.2–1.4 ms`` or ``±3 %``) once the document's :class:`~app.document.bands.BandTracker`
has computed it; its tooltip names the studies.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from PySide6.QtCore import QSize, Qt, QTimer
from PySide6.QtGui import QFont, QFontMetrics, QResizeEvent
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from app.document.bands import band_text, sources_text, tracker_for
from app.panels.fixes import Fix, fixes_for
from app.support import first_paint, theme
from models.core.prediction import Prediction
from models.core.uncertainty import Bands
from models.document import numbers as fmt
from models.document.design import every_component
from models.document.words import host_affixes, short_name
from models.engine.kpis import KPIS, Kpi
from models.report.growth import KEYS as GROWTH_KEYS
from models.report.growth import year_line
from models.report.wording import plain

if TYPE_CHECKING:
    from app.document.design_document import DesignDocument


EMPTY_HINT = ("No VMs yet. Drag a host from the Palette onto the canvas, then a VM onto the"
              " host (and a storage array, with the VM dropped on it for its disk): the"
              " predicted figures appear here.")
FIX_PROPS = ("ft", "split_rx", "vnic", "workload.profile")
"""Properties the suggested fixes depend on."""


class FitLabel(QLabel):
    """A tile's figure: large and bold, smaller when the tile is too narrow for it (never
    cut); its height stays that of the large size, so tiles keep their rows."""

    POINT_SIZE = 16.0
    MIN_POINT_SIZE = 9.0

    def __init__(self, text: str, parent: QWidget | None = None):
        super().__init__(text, parent)
        font = QFont(self.font())
        font.setPointSizeF(self.POINT_SIZE)
        font.setWeight(QFont.Weight.DemiBold)
        self._full = font
        self.setFont(font)
        self.setMinimumHeight(QFontMetrics(font).height())
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)

    def setText(self, text: str) -> None:  # noqa: N802 (Qt override)
        if text != self.text():
            super().setText(text)
            self._fit()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        room = self.contentsRect().width() - 2
        font = QFont(self._full)
        need = QFontMetrics(font).horizontalAdvance(self.text())
        if room > 0 and need > room:  # scale down, then step until it fits (hinting)
            font.setPointSizeF(max(self.MIN_POINT_SIZE, self.POINT_SIZE * room / need))
            while QFontMetrics(font).horizontalAdvance(self.text()) > room \
                    and font.pointSizeF() > self.MIN_POINT_SIZE:
                font.setPointSizeF(max(self.MIN_POINT_SIZE, font.pointSizeF() - 0.5))
        if abs(self.font().pointSizeF() - font.pointSizeF()) > 0.05:
            self.setFont(font)

    def fits(self) -> bool:
        """Whether the whole text shows."""
        return self.fontMetrics().horizontalAdvance(self.text()) <= self.contentsRect().width()


class KpiTile(QFrame):
    """A KPI's title, figure, detail line and delta against base; updated in place."""

    def __init__(self, kpi: Kpi, parent: QWidget | None = None):
        super().__init__(parent)
        self.kpi = kpi
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.tooltip = f"{kpi.title}: {kpi.doc}.\nStudy behind it: {kpi.source}"
        self.setToolTip(self.tooltip)
        self.setAccessibleName(f"{kpi.title} tile")
        self.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)  # five rows of tiles fit a 1366x768 dock
        layout.setSpacing(1)
        self.title_label = QLabel(kpi.title)
        theme.tone(self.title_label, "muted")
        self.value_label = FitLabel(fmt.NONE)
        self.value_label.setAccessibleName(kpi.title)
        self.value_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.band_label = QLabel()
        self.band_label.setStyleSheet("font-size: 8pt;")
        theme.tone(self.band_label, "band")
        self.band_label.setAccessibleName(f"{kpi.title} band")
        self.band_label.setVisible(False)
        self.detail_label = QLabel()
        self.detail_label.setStyleSheet("font-size: 8pt;")
        self.detail_label.setWordWrap(True)  # "max 495 by CPU, 517 by p95" on a narrow tile
        self.values: tuple[float | None, float | None] = (None, None)
        """The figure in the shown prediction and in base (None: nothing to measure, or no
        comparison), as the last update computed them."""
        self.unmeasured = False
        """The design's data lacks the figure: the tile says not measured (and stays)."""
        self.delta_label = QLabel()
        self.delta_label.setWordWrap(True)  # "+0.00261 ms (+0.0036 %)" on a narrow tile
        # small like the detail line, so that "vs base: −9.36 ms (−9.4 %)" fits a tile
        self.delta_label.setStyleSheet("font-size: 8pt;")
        self.delta_label.setAccessibleName(f"{kpi.title} change against base")
        for w in (self.title_label, self.value_label, self.band_label, self.detail_label,
                  self.delta_label):
            layout.addWidget(w)

    def update_band(self, bands: Bands | None) -> None:
        """Show the figure's band over the published ranges (hidden when it has no width)."""
        text = band_text(bands, self.kpi.value, self.kpi.unit)
        self.band_label.setText(f"range {text}" if text else "")
        self.band_label.setVisible(bool(text))
        tip = self.tooltip
        if text:
            tip += ("\nRange over the published ranges of its coefficients "
                    f"({text}):\n{sources_text(bands)}")
        self.setToolTip(tip)
        self.band_label.setToolTip(tip)

    def update_from(self, p: Prediction | None, base: Prediction | None, show_delta: bool,
                    name: fmt.Names = str) -> None:
        new = self.kpi.value(p) if p is not None else None
        old = self.kpi.value(base) if show_delta and p is not None and base is not None \
            else None
        self.values = (new, old)
        self.unmeasured = new is None and self.kpi.not_measured(p)
        # the figure large, the words after it ("of installed") leading the line under it
        self.value_label.setText(fmt.NOT_MEASURED if self.unmeasured
                                 else self.kpi.text(new, short=True))
        after = self.kpi.after if new is not None and self.kpi.after else ""
        self.detail_label.setText("; ".join(t for t in (after, self.kpi.note(p, name, new))
                                            if t))
        if not show_delta or p is None or base is None:
            self.delta_label.setText("")
            self.delta_label.setVisible(False)
            return
        if new is None and old is None:  # nothing to measure in either: nothing to compare
            self.delta_label.setText("")
            self.delta_label.setVisible(False)
            return
        self.delta_label.setText("vs base: " + fmt.delta(new, old, self.kpi.unit))
        role: theme.Role | None = None
        if self.kpi.higher_is_better is not None and new is not None and old is not None \
                and abs(new - old) > 0.005 * max(abs(old), 1e-9):  # ignore sub-0.5 % noise
            better = (new > old) == self.kpi.higher_is_better
            role = "good" if better else "bad"
        theme.tone(self.delta_label, role)
        self.delta_label.setVisible(True)


SCROLL_SLACK = 16
"""Pixels a tile column may give up to a vertical scroll bar."""


class Dashboard(QWidget):
    """KPI tiles for the active scenario, with deltas against base when a scenario is active."""

    TILE_WIDTH = 150
    """Tiles reflow to as many columns of about this width as the dock allows (at most 4)."""

    def __init__(self, document: DesignDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.setAccessibleName("Dashboard")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        self.scenario_label = QLabel()
        self.scenario_label.setAccessibleName("Dashboard scenario")
        self.scenario_label.setWordWrap(True)  # a refresh's name is long
        outer.addWidget(self.scenario_label)
        self.year_label = QLabel()
        self.year_label.setAccessibleName("Dashboard year")
        self.year_label.setWordWrap(True)
        self.year_label.setToolTip("The figures below are of this year at these growth rates"
                                   " (Growth knobs, Analysis > Growth), and today's demand"
                                   " changes (Measured demand knobs)")
        self.year_label.setVisible(False)
        outer.addWidget(self.year_label)
        self.grid = QGridLayout()
        self.grid.setSpacing(4)
        self.columns = 0
        self.hidden: set[str] = set()
        """Tiles with nothing to measure in the design (no value in the scenario or base)."""
        self.tiles: dict[str, KpiTile] = {}
        for kpi in KPIS:
            self.tiles[kpi.key] = KpiTile(kpi)
        self._reflow(4)
        outer.addLayout(self.grid)
        self.hidden_label = QLabel()
        self.hidden_label.setWordWrap(True)
        self.hidden_label.setStyleSheet("font-size: 8pt;")
        theme.tone(self.hidden_label, "muted")
        self.hidden_label.setAccessibleName("Figures not shown")
        self.hidden_label.setVisible(False)
        outer.addWidget(self.hidden_label)
        self.measured_label = QLabel()
        self.measured_label.setWordWrap(True)
        self.measured_label.setStyleSheet("font-size: 8pt;")
        self.measured_label.setAccessibleName("What was not measured")
        self.measured_label.setVisible(False)
        outer.addWidget(self.measured_label)
        self.empty_label = QLabel(EMPTY_HINT)
        self.empty_label.setWordWrap(True)
        self.empty_label.setAccessibleName("Dashboard hint")
        self.empty_label.setVisible(False)
        outer.addWidget(self.empty_label)
        self.warnings_label = QLabel()
        self.warnings_label.setWordWrap(True)
        theme.tone(self.warnings_label, "warning")
        self.warnings_label.setAccessibleName("Model warnings")
        outer.addWidget(self.warnings_label)
        self.fixes: list[Fix] = []
        self.fix_label = QLabel()
        self.fix_label.setWordWrap(True)
        self.fix_label.setTextFormat(Qt.TextFormat.RichText)
        self.fix_label.setAccessibleName("Suggested fixes")
        self.fix_label.linkActivated.connect(self._apply_fix)
        self.fix_label.setVisible(False)
        outer.addWidget(self.fix_label)
        outer.addStretch(1)
        self._names: dict[str, str] | None = None
        self._plain_cache: dict[str, str] = {}
        self._structure_timer = QTimer(self)
        self._structure_timer.setSingleShot(True)
        self._structure_timer.setInterval(0)
        self._structure_timer.timeout.connect(self._structure_changed)
        for signal in (document.design_replaced, document.component_added,
                       document.component_removed, document.link_added,
                       document.link_removed, document.scenarios_changed):
            signal.connect(self._schedule_structure)
        document.component_changed.connect(self._on_component_changed)
        document.values_changed.connect(self._on_values_changed)
        document.prediction_updated.connect(self.refresh)
        document.baseline_updated.connect(self._on_baseline)
        document.scenario_changed.connect(self.refresh)
        self.bands = tracker_for(document)
        self.bands.bands_updated.connect(self._on_bands)
        self.refresh()
        # the fixes (a pass over every VM and link) once the window has painted; the tiles
        # just shown stand
        first_paint.later(self._show_fixes)
        self._on_bands(self.bands.bands)

    # ------------------------------------------------------------------ names and fixes
    def _schedule_structure(self, *_: object) -> None:
        self._structure_timer.start()

    def _on_component_changed(self, _cid: str, prop: str) -> None:
        if prop == "name":
            self._schedule_structure()

    def _on_values_changed(self, _select: str, prop: str) -> None:
        if prop in FIX_PROPS:  # what the fixes look at (a slider step is none of them)
            self._schedule_structure()

    def _structure_changed(self) -> None:
        """Names and fixes follow the design's structure, not every knob step."""
        self._names = None
        self._plain_cache.clear()
        self._show_fixes()
        self.refresh()

    def _show_fixes(self) -> None:
        self.fixes = fixes_for(self.document.design)
        links = "<br>".join(f"{html.escape(f.problem)}: <a href=\"{i}\">"
                            f"{html.escape(f.action)}</a>" for i, f in enumerate(self.fixes))
        self.fix_label.setText(links)
        self.fix_label.setVisible(bool(self.fixes))

    def _apply_fix(self, href: str) -> None:
        if href.isdigit() and int(href) < len(self.fixes):
            self.fixes[int(href)].apply(self.document)

    def names(self) -> dict[str, str]:
        """Component id -> name, for the ids a model's text cites (kept until the
        structure or a name changes)."""
        if self._names is None:
            comps = [c for c in every_component(self.document.design) if c.name]
            # the hosts' shared start and domain left off, as the canvas does ('prod1-01',
            # not 'bru-esx-prod1-01.infra.example.org'): the tiles' lines are short
            prefix, suffix = host_affixes([c.name for c in comps if c.kind == "host"])
            self._names = {c.id: short_name(c.name, suffix, prefix) if c.kind == "host"
                           else c.name for c in comps}
        return self._names

    def _plain(self, warning: str) -> str:
        """A warning in words (kept: the same warnings come back at every knob step)."""
        text = self._plain_cache.get(warning)
        if text is None:
            text = plain(warning, self.names())
            if len(self._plain_cache) > 200:
                self._plain_cache.clear()
            self._plain_cache[warning] = text
        return text

    def name_of(self, cid: str) -> str:
        return self.names().get(cid, cid)

    def _on_bands(self, bands: Bands | None) -> None:
        for tile in self.tiles.values():
            tile.update_band(bands)

    def _reflow(self, columns: int, force: bool = False) -> None:
        """Place the shown tiles in ``columns`` columns (the same tiles, moved)."""
        if columns == self.columns and not force:
            return
        self.columns = columns
        shown = [t for t in self.tiles.values() if t.kpi.key not in self.hidden]
        for t in self.tiles.values():
            if t.kpi.key in self.hidden:
                self.grid.removeWidget(t)
                t.setVisible(False)
        for i, tile in enumerate(shown):
            self.grid.addWidget(tile, i // columns, i % columns)
            tile.setVisible(True)
        for c in range(4):  # columns of one width, whatever their texts
            self.grid.setColumnStretch(c, 1 if c < columns else 0)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        """One tile wide: a narrower dock reflows the tiles instead of being held wide by the
        current number of columns (which squeezed the canvas)."""
        return QSize(self.TILE_WIDTH, super().minimumSizeHint().height())

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        return QSize(2 * self.TILE_WIDTH + 20, super().sizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        # a scroll bar's width of slack: once the tiles scroll, the bar takes ~15 px, and
        # 285 // 150 reflowed two columns into one, taller, which kept the bar (1280 x 720)
        self._reflow(max(1, min(4, (event.size().width() + SCROLL_SLACK) // self.TILE_WIDTH)))

    def _hide_unmeasured(self, p: Prediction | None) -> None:
        """Hide the tiles a design has nothing to measure for (storage latency on a web farm,
        FT figures without FT VMs) in the shown prediction or base, so that its own figures
        lead; a design without VMs shows no tile but a line saying how to begin."""
        empty = p is None or not len(p.vms.ids)
        hidden = set(self.tiles) if empty else \
            {key for key, t in self.tiles.items() if t.values == (None, None)
             and not t.unmeasured}
        self.empty_label.setVisible(empty)
        if hidden != self.hidden:
            self.hidden = hidden
            self._reflow(self.columns or 4, force=True)
        names = [] if empty else [k.title for k in KPIS if k.key in hidden
                                  and not k.optional and not k.estate]
        self.hidden_label.setText("Nothing to measure in this design: " + ", ".join(names)
                                  if names else "")
        self.hidden_label.setVisible(bool(names))

    def _show_measured(self, p: Prediction | None) -> None:
        """How many VMs lack I/O data (their storage figures read 'not measured') and how
        many are on no host: an imported estate's figures are only as good as its data."""
        parts = []
        if p is not None:
            missing = int(p.vms.io_not_measured.sum()) if len(p.vms.io_not_measured) else 0
            if missing:
                parts.append(f"{missing:,} of {fmt.count(len(p.vms.ids), 'VM')} lack I/O data:"
                             " their storage figures read 'not measured' (assign a profile or"
                             " calibrate from esxtop or Aria Operations data)")
            cap = p.sections.capacity
            unplaced = cap.unplaced_vms if cap is not None else 0
            if unplaced:
                parts.append(f"{fmt.count(unplaced, 'VM is', 'VMs are')} on no host (the"
                             " Unplaced area): counted in hosts needed")
        self.measured_label.setText("\n".join(parts))
        self.measured_label.setVisible(bool(parts))

    def _on_baseline(self, _p: object) -> None:
        if self.document.scenario != "base":  # in base it is the prediction just shown
            self.refresh()

    def refresh(self, *_: object) -> None:
        p = self.document.prediction
        base = self.document.baseline
        active = self.document.scenario
        show_delta = active != "base"
        self.scenario_label.setText(
            f"Scenario: {active}" + (" (deltas against base)" if show_delta else ""))
        year = year_line({k: float(v) if isinstance(v, (int, float)) else 0.0
                          for k in GROWTH_KEYS
                          if (v := self.document.value("design", k)) is not None})
        self.year_label.setText(year)  # "Year 3 at 15 % CPU a year": which year this is
        self.year_label.setVisible(bool(year))
        for tile in self.tiles.values():
            tile.update_from(p, base, show_delta, self.name_of)
        self._hide_unmeasured(p)
        self._show_measured(p)
        warnings = p.warnings if p is not None else []
        text = "\n".join(f"⚠ {self._plain(w)}" for w in warnings[:4])
        if len(warnings) > 4:
            text += f"\n… and {len(warnings) - 4} more"
        self.warnings_label.setText(text)
        self.warnings_label.setVisible(bool(text))
