"""The live dashboard: KPI tiles that follow every re-evaluation, with deltas against base.

Tiles are built once and updated in place (``setText``) on ``prediction_updated`` and
``baseline_updated``; each carries the study behind its figure as a tooltip.  The figures are
:data:`models.engine.kpis.KPIS` (the scenario comparison lists them too), as
:func:`app.format.kpi_value` writes them.  Under a figure that rests on a coefficient published
as a range, the tile shows the figure's band (``1.2–1.4 ms`` or ``±3 %``) once the document's
:class:`~app.document.bands.BandTracker` has computed it; its tooltip names the studies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QVBoxLayout, QWidget

from app import format as fmt
from app import theme
from app.document.bands import band_text, sources_text, tracker_for
from models.engine.kpis import KPIS, Kpi
from models.engine.prediction import Prediction
from models.engine.uncertainty import Bands

if TYPE_CHECKING:
    from app.document.design_document import DesignDocument


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
        layout.setContentsMargins(8, 6, 8, 6)
        layout.setSpacing(2)
        self.title_label = QLabel(kpi.title)
        theme.tone(self.title_label, "muted")
        self.value_label = QLabel(fmt.NONE)
        self.value_label.setStyleSheet("font-size: 16pt; font-weight: 600;")
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
        text = band_text(bands, self.kpi.value, self.kpi.unit, self.kpi.short)
        self.band_label.setText(f"range {text}" if text else "")
        self.band_label.setVisible(bool(text))
        tip = self.tooltip
        if text:
            tip += ("\nRange over the published ranges of its coefficients "
                    f"({text}):\n{sources_text(bands)}")
        self.setToolTip(tip)
        self.band_label.setToolTip(tip)

    def update_from(self, p: Prediction | None, base: Prediction | None, show_delta: bool) -> None:
        new = self.kpi.value(p) if p is not None else None
        old = self.kpi.value(base) if show_delta and p is not None and base is not None \
            else None
        self.values = (new, old)
        self.value_label.setText(fmt.kpi_value(self.kpi, new))
        self.detail_label.setText(fmt.kpi_detail(self.kpi.key, p, new))
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


class Dashboard(QWidget):
    """KPI tiles for the active scenario, with deltas against base when a scenario is active."""

    TILE_WIDTH = 165
    """Tiles reflow to as many columns of about this width as the dock allows (at most 4)."""

    def __init__(self, document: DesignDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.setAccessibleName("Dashboard")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        self.scenario_label = QLabel()
        self.scenario_label.setAccessibleName("Dashboard scenario")
        outer.addWidget(self.scenario_label)
        self.grid = QGridLayout()
        self.grid.setSpacing(6)
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
        self.warnings_label = QLabel()
        self.warnings_label.setWordWrap(True)
        theme.tone(self.warnings_label, "warning")
        self.warnings_label.setAccessibleName("Model warnings")
        outer.addWidget(self.warnings_label)
        outer.addStretch(1)
        document.prediction_updated.connect(self.refresh)
        document.baseline_updated.connect(self._on_baseline)
        document.scenario_changed.connect(self.refresh)
        self.bands = tracker_for(document)
        self.bands.bands_updated.connect(self._on_bands)
        self.refresh()
        self._on_bands(self.bands.bands)

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

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        """One tile wide: a narrower dock reflows the tiles instead of being held wide by the
        current number of columns (which squeezed the canvas)."""
        return QSize(self.TILE_WIDTH, super().minimumSizeHint().height())

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        return QSize(2 * self.TILE_WIDTH + 20, super().sizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        self._reflow(max(1, min(4, event.size().width() // self.TILE_WIDTH)))

    def _hide_unmeasured(self, p: Prediction | None) -> None:
        """Hide the tiles a design has nothing to measure for (storage latency on a web farm,
        FT figures without FT VMs) in the shown prediction or base, so that its own figures
        lead; a design without VMs shows every tile, as the map of what Headroom computes."""
        hidden: set[str] = set()
        if p is not None and len(p.vms.ids):
            hidden = {key for key, t in self.tiles.items() if t.values == (None, None)}
        if hidden != self.hidden:
            self.hidden = hidden
            self._reflow(self.columns or 4, force=True)
        names = [k.title for k in KPIS if k.key in hidden]
        self.hidden_label.setText("Nothing to measure in this design: " + ", ".join(names)
                                  if names else "")
        self.hidden_label.setVisible(bool(names))

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
        for tile in self.tiles.values():
            tile.update_from(p, base, show_delta)
        self._hide_unmeasured(p)
        warnings = p.warnings if p is not None else []
        text = "\n".join(f"⚠ {w}" for w in warnings[:4])
        if len(warnings) > 4:
            text += f"\n… and {len(warnings) - 4} more"
        self.warnings_label.setText(text)
        self.warnings_label.setVisible(bool(text))
