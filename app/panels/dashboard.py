"""The live dashboard: KPI tiles that follow every re-evaluation, with deltas against base.

Tiles are built once and updated in place (``setText``) on ``prediction_updated`` and
``baseline_updated``; each carries the study behind its figure as a tooltip.  :data:`KPIS` is
also what the scenario comparison table lists.  Under a figure that rests on a coefficient
published as a range, the tile shows the figure's band (``1.2–1.4 ms`` or ``±3 %``) once the
document's :class:`~app.document.bands.BandTracker` has computed it; its tooltip names the studies.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QVBoxLayout, QWidget

from app import format as fmt
from app.document.bands import band_text, sources_text, tracker_for
from models.document.knobs import (
    CL_DEPLOY,
    CL_SYNC,
    CL_TUNING,
    DENSE,
    FEDEX,
    FT4,
    FT6,
    LRO,
    MILLION,
    PCOIP,
    RAIDPOOL,
    VAIO,
    VSAN,
)
from models.engine.prediction import Prediction, Resource
from models.engine.uncertainty import PVSCSI, Bands

if TYPE_CHECKING:
    from app.document.design_document import DesignDocument


@dataclass(frozen=True)
class Kpi:
    key: str
    title: str
    unit: str
    value: Callable[[Prediction], float | None]
    source: str
    doc: str
    higher_is_better: bool | None = None
    """Colours the delta (None: neither direction is better)."""
    short: bool = False
    """Shorten large counts with k/M."""
    absent: str = ""
    """The detail line when the design has nothing to measure (the value is None)."""

    def text(self, p: Prediction | None) -> str:
        """The figure as the tile shows it."""
        return self.format(self.value(p) if p is not None else None)

    def format(self, v: float | None) -> str:
        """A value of this figure as the tile shows it."""
        if self.short:
            return fmt.si(v) + (f" {self.unit}" if v is not None else "")
        return fmt.with_unit(v, self.unit)


def _cpu_per_kiops(p: Prediction) -> float | None:
    """IOPS-weighted mean host CPU per 1K IOPS (% of a core), None when no VM does I/O."""
    w = np.nan_to_num(p.vms.iops)
    total = w.sum()
    return float((w * np.nan_to_num(p.vms.cpu_cost_per_kiops)).sum() / total) if total > 0 \
        else None


def _if_io(value: Callable[[Prediction], float]) -> Callable[[Prediction], float | None]:
    """A storage figure, or None (shown as a dash) when no VM does storage I/O: a design
    without storage has no latency, which "0 ms" would claim is excellent."""
    return lambda p: value(p) if p.total_iops > 0 else None


def _network_gbps(p: Prediction) -> float | None:
    """Network throughput summed over VMs, None when no VM sends or receives."""
    return p.total_net_gbps or None


def _busiest_wan(p: Prediction) -> Resource | None:
    """The most utilised inter-site link (PCoIP desktops, vSAN replication, library syncs)."""
    links = [r for r in p.resources if r.resource.lower() == "wan"]
    return max(links, key=lambda r: r.util) if links else None


def _wan_percent(p: Prediction) -> float | None:
    r = _busiest_wan(p)
    return 100.0 * r.util if r is not None else None


def _library_minutes(p: Prediction) -> float | None:
    """The longest Content Library job, minutes; None without library transfers."""
    return p.library_slowest_s / 60.0 if p.library_transfers else None


NO_IO = "no storage I/O"


def _hosts_needed(p: Prediction) -> float | None:
    h = p.consolidation.hosts_needed
    return float(h) if h is not None else None


KPIS: tuple[Kpi, ...] = (
    Kpi("total_iops", "Total IOPS", "IOPS", _if_io(lambda p: p.total_iops),
        f"{VAIO}; {MILLION}; {RAIDPOOL}",
        "Sum of every VM's predicted IOPS (closed loop on outstanding I/Os)", True, True,
        NO_IO),
    Kpi("mean_latency_ms", "Mean latency", "ms", _if_io(lambda p: p.mean_latency_ms),
        f"{VAIO}; {MILLION}; {RAIDPOOL}",
        "IOPS-weighted mean storage latency over VMs that do I/O", False, absent=NO_IO),
    Kpi("p95_latency_ms", "p95 latency", "ms", _if_io(lambda p: p.p95_latency_ms),
        f"{RAIDPOOL}; {VAIO}", "Highest per-VM 95th-percentile storage latency", False,
        absent=NO_IO),
    Kpi("cpu_per_kiops", "CPU per 1K IOPS", "% core", _cpu_per_kiops, f"{VAIO}; {PVSCSI}",
        "Host CPU per 1,000 IOPS (IOPS-weighted over VMs that do I/O), % of a core", False,
        absent=NO_IO),
    Kpi("network_gbps", "Network", "Gbit/s", _network_gbps, f"{FEDEX}; {LRO}",
        "Network throughput summed over VMs (received + sent): the tightest of line rate, PCIe"
        " slot, per-stream tool and crypto limits and the vNIC's per-packet CPU path", True,
        absent="no network traffic"),
    Kpi("p95_response_ms", "p95 response", "ms",
        lambda p: p.p95_response_ms if p.vms.request_driven.any() else None, DENSE,
        "Highest 95th-percentile response time of a request-driven (web) VM: M/M/c per host",
        False, absent="no request-driven VMs"),
    Kpi("ft_logging_mbps", "FT logging", "Mbit/s",
        lambda p: p.ft_logging_mbps if p.vms.ft.any() else None,
        f"{FT4}; {FT6}", "Fault Tolerance logging traffic summed over hosts", False),
    Kpi("ft_latency_add_ms", "FT added latency", "ms",
        lambda p: p.ft_latency_add_ms if p.vms.ft.any() else None,
        f"{FT4}; {FT6}", "Largest latency FT adds to a protected VM", False,
        absent="no FT-protected VMs"),
    Kpi("wan_pct", "Busiest WAN link", "%", _wan_percent, f"{PCOIP}; {VSAN}; {CL_SYNC}",
        "Utilisation of the busiest inter-site link: PCoIP desktops at a branch, vSAN"
        " replication between sites, Content Library syncs while they run", False,
        absent="no WAN links"),
    Kpi("library_min", "Slowest library job", "min", _library_minutes,
        f"{CL_DEPLOY}; {CL_SYNC}; {CL_TUNING}",
        "Longest Content Library deploy, sync, import or export: its items through the slowest"
        " stage of the data path, queued behind the concurrency limits", False,
        absent="no library transfers"),
    Kpi("vms_per_host", "VMs per host", "", lambda p: p.consolidation.vms_per_host, DENSE,
        "VMs per host in the design as placed"),
    Kpi("hosts_needed", "Hosts needed", "", _hosts_needed, DENSE,
        "Hosts the VMs need under the policy ceilings (CPU, p95, memory, HA spares)", False),
)

KPI_BY_KEY = {k.key: k for k in KPIS}


def detail_text(key: str, p: Prediction | None, value: object = ...) -> str:
    """The small line under a tile's figure (the binding limit for consolidation, what is
    missing when there is nothing to measure); ``value``, when the caller has it already,
    saves computing the figure again."""
    if p is None:
        return ""
    kpi = KPI_BY_KEY[key]
    if kpi.absent and (kpi.value(p) if value is ... else value) is None:
        return kpi.absent
    c = p.consolidation
    if key == "vms_per_host":
        return (f"max {fmt.number(c.max_vms_per_host_by_cpu)} by CPU, "
                f"{fmt.number(c.max_vms_per_host_by_p95)} by p95")
    if key == "hosts_needed":
        return f"binding limit: {c.binding or 'none'}"
    if key == "p95_response_ms":
        return f"mean {fmt.with_unit(p.mean_response_ms, 'ms')}"
    if key == "ft_logging_mbps":
        return f"{int(p.vms.ft.sum())} FT-protected VMs"
    if key == "wan_pct":
        wan = _busiest_wan(p)
        return wan.explanation if wan is not None else ""
    if key == "library_min":
        t = max(p.library_transfers, key=lambda j: float(j["completion_s"]))
        bound = f", bound by {t['bound_by']}" if t.get("bound_by") else ""
        return f"{t['name'] or t['id']} ({t['operation']}){bound}"
    if key == "network_gbps":
        nics = [r for r in p.resources if r.resource == "nic"]
        if not nics:
            return "no NIC in the design"
        busiest = max(nics, key=lambda r: r.util)
        return f"busiest NIC {busiest.component} {fmt.percent(busiest.util)}"
    return ""


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
        self.title_label.setStyleSheet("color: palette(mid);")
        self.value_label = QLabel(fmt.NONE)
        self.value_label.setStyleSheet("font-size: 16pt; font-weight: 600;")
        self.value_label.setAccessibleName(kpi.title)
        self.value_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.band_label = QLabel()
        self.band_label.setStyleSheet("font-size: 8pt; color: #7d6608;")
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
        self.value_label.setText(self.kpi.format(new))
        self.detail_label.setText(detail_text(self.kpi.key, p, new))
        if not show_delta or p is None or base is None:
            self.delta_label.setText("")
            self.delta_label.setVisible(False)
            return
        if new is None and old is None:  # nothing to measure in either: nothing to compare
            self.delta_label.setText("")
            self.delta_label.setVisible(False)
            return
        self.delta_label.setText("vs base: " + fmt.delta(new, old, self.kpi.unit))
        colour = "palette(text)"
        if self.kpi.higher_is_better is not None and new is not None and old is not None \
                and abs(new - old) > 0.005 * max(abs(old), 1e-9):  # ignore sub-0.5 % noise
            better = (new > old) == self.kpi.higher_is_better
            colour = "#1e8449" if better else "#c0392b"
        # small like the detail line, so that "vs base: −9.36 ms (−9.4 %)" fits a tile
        self.delta_label.setStyleSheet(f"font-size: 8pt; color: {colour};")
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
        self.hidden_label.setStyleSheet("font-size: 8pt; color: palette(mid);")
        self.hidden_label.setAccessibleName("Figures not shown")
        self.hidden_label.setVisible(False)
        outer.addWidget(self.hidden_label)
        self.warnings_label = QLabel()
        self.warnings_label.setWordWrap(True)
        self.warnings_label.setStyleSheet("color: #b9770e;")
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
