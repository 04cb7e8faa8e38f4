"""The pages of a Headroom report, each drawn on a :class:`~app.report.draw.Sheet`.

:func:`build_pages` returns one drawing function per page: title, diagram, knob settings and
scenario, KPIs, charts, bottlenecks, and the calibration appendix (as many pages as needed).
Every page starts with a heading that names it (tests look for these).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from typing import Any

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPen

from app import format as fmt
from app.report.baseline import baseline_page, has_baseline
from app.report.diagram import draw_diagram
from app.report.draw import (
    ACCENT,
    BAD,
    GOOD,
    INK,
    MARGIN,
    MUTED,
    PANEL,
    RULE,
    Column,
    Sheet,
    util_color,
)
from models.calibration import Check
from models.document.design import Design, apply_scenario
from models.document.knobs import Knob, knobs_for
from models.engine.kpis import KPI_BY_KEY, SUMMARY_FIGURES
from models.engine.prediction import Prediction

RIGHT = Qt.AlignmentFlag.AlignRight
Page = Callable[[Sheet], None]

HEADINGS = ("Headroom design report", "Design diagram", "Knob settings and scenario",
            "Key performance indicators", "Charts", "Bottlenecks",
            "Appendix: calibration studies", "Baseline: measured against recorded")
"""The heading of each kind of page (the appendix may span several pages; the baseline page,
for designs with measured figures, comes before it)."""

APPENDIX_ROWS = 30


@dataclass
class Report:
    design: Design
    scenario: str
    prediction: Prediction
    version: str
    checks: list[Check] = field(default_factory=list)
    checks_error: str = ""
    cross_validation: dict[str, Any] = field(default_factory=dict)
    """``{"summary": ..., "rows": {(case id, quantity): row}}`` from the stored
    cross-validation (models.calibration.crossval), empty when not available."""
    when: datetime = field(default_factory=lambda: datetime.now(UTC))

    @property
    def effective(self) -> Design:
        try:
            return apply_scenario(self.design, self.scenario)
        except Exception:  # an unknown scenario: show the base design's values
            return self.design

    @property
    def footer(self) -> str:
        return (f"Headroom {self.version} · {self.design.name} · scenario {self.scenario} · "
                f"{self.when:%Y-%m-%d %H:%M} UTC")


def build_pages(r: Report) -> list[Page]:
    pages: list[Page] = [partial(f, r=r) for f in (title_page, diagram_page, settings_page,
                                                    kpi_page, charts_page, bottlenecks_page)]
    if has_baseline(r.design):
        pages.append(partial(baseline_page, r=r, number=len(pages) + 1))
    first = len(pages) + 1
    n = max(1, math.ceil(len(r.checks) / APPENDIX_ROWS))
    pages.extend(partial(appendix_page, r=r, index=i, count=n, first=first) for i in range(n))
    return pages


# --------------------------------------------------------------------------- pages


def title_page(s: Sheet, r: Report) -> None:
    w = s.width - 2 * MARGIN
    s.box(QRectF(0, 0, s.width, 330), PANEL)
    s.text(QRectF(MARGIN, 70, w, 30), HEADINGS[0], 20, color=ACCENT, bold=True)
    s.text(QRectF(MARGIN, 110, w, 70), r.design.name, 44, True)
    s.text(QRectF(MARGIN, 190, w, 30), f"Scenario: {r.scenario}", 20)
    s.text(QRectF(MARGIN, 226, w, 26),
           f"{r.when:%d %B %Y, %H:%M} UTC  ·  Headroom {r.version}", 15, color=MUTED)
    counts = ", ".join(fmt.count(len(r.design.of_kind(k)), word) for k, word in
                       (("host", "host"), ("vm", "VM"), ("storage_array", "array"),
                        ("nic", "NIC"), ("site", "site")) if r.design.of_kind(k))
    s.text(QRectF(MARGIN, 262, w, 26), counts or "no components", 15, color=MUTED)
    y = 370.0
    tiles = kpi_tiles(r.prediction)
    tw = (w - 3 * 16) / 4
    for i, (label, value, note) in enumerate(tiles[:4]):
        x = MARGIN + i * (tw + 16)
        s.box(QRectF(x, y, tw, 120), PANEL, RULE)
        s.text(QRectF(x + 16, y + 10, tw - 32, 24), label, 14, color=MUTED)
        s.text(QRectF(x + 16, y + 38, tw - 32, 44), value, 30, True)
        s.text(QRectF(x + 16, y + 86, tw - 32, 22), note, 12, color=MUTED)
    y += 160
    if r.design.notes:
        s.text(QRectF(MARGIN, y, w, 24), "Notes", 16, True)
        s.wrapped(MARGIN, y + 30, w, r.design.notes, 14, max_h=s.height - y - 160)
    s.footer(r.footer, 1)


def diagram_page(s: Sheet, r: Report) -> None:
    y = s.heading(HEADINGS[1], f"{len(r.design.components)} components and "
                               f"{len(r.design.links)} links at their canvas positions; "
                               "outlines show predicted utilisation")
    draw_diagram(s, QRectF(MARGIN, y, s.width - 2 * MARGIN, s.height - y - MARGIN - 12),
                 r.design, r.prediction)
    s.footer(r.footer, 2)


def knob_value(design: Design, k: Knob) -> str:
    """The knob's value over the design's components (``mixed: a, b`` when they differ)."""
    if k.kind == "design":
        vals = [design.policy_value(k.prop.removeprefix("policy."))]
    elif any(lk.kind == k.kind for lk in design.links):
        vals = [lk.get(k.prop) for lk in design.links if lk.kind == k.kind]
    else:
        vals = [c.get(k.prop) for c in design.of_kind(k.kind)]
    shown: list[str] = []
    for v in vals:
        text = fmt.value(v, k.unit) if v is not None else "auto"
        if text not in shown:
            shown.append(text)
    if len(shown) > 1:
        return "mixed: " + ", ".join(shown[:4]) + (" …" if len(shown) > 4 else "")
    return shown[0] if shown else fmt.NONE


def settings_page(s: Sheet, r: Report) -> None:
    y = s.heading(HEADINGS[2], f"Values in scenario '{r.scenario}' for every knob that "
                               "applies to this design")
    w = s.width - 2 * MARGIN
    left = w * 0.64
    design = r.effective
    ks = knobs_for(design)
    rows = [[k.group, k.label, k.path, knob_value(design, k)] for k in ks]
    cols = [Column("Group", 0.17), Column("Knob", 0.28), Column("Path", 0.33),
            Column("Value", 0.22)]
    avail = s.height - y - MARGIN - 40
    row_h = max(15.0, min(21.0, avail / (len(rows) + 1)))
    max_rows = int(avail // row_h) - 1
    if len(rows) > max_rows:
        rows = [*rows[: max_rows - 1], ["", f"… and {len(rows) - max_rows + 1} more", "", ""]]
    s.table(MARGIN, y, left, cols, rows, min(11.5, row_h * 0.58), row_h)
    x = MARGIN + left + 28
    rw = w - left - 28
    s.text(QRectF(x, y, rw, 24), f"Scenario: {r.scenario}", 16, True)
    yy = y + 30
    if r.scenario == "base":
        yy += s.wrapped(x, yy, rw, "The base design: no overrides applied.", 12.5, MUTED)
    else:
        try:
            ovs = r.design.scenario(r.scenario).overrides
        except Exception:  # the scenario was renamed away
            ovs = []
        if not ovs:
            yy += s.wrapped(x, yy, rw, "This scenario has no overrides.", 12.5, MUTED)
        for o in ovs[:20]:
            yy += s.wrapped(x, yy, rw, f"{o.select} . {o.prop} = {fmt.value(o.value)}",
                            12.5) + 4
    yy += 24
    others = [sc.name for sc in r.design.scenarios if sc.name != r.scenario]
    s.text(QRectF(x, yy, rw, 22), "Other scenarios", 14, True)
    yy += 26
    s.wrapped(x, yy, rw, "\n".join(others) if others else "none", 12.5, MUTED)
    s.footer(r.footer, 3)


HEADLINE = ("total_iops", "mean_latency_ms", "p95_response_ms", "network_gbps", "wan_pct",
            "library_min", "ft_logging_mbps")
"""Dashboard figures the title page may lead with, in order: the first three the design has
(storage figures for a storage design, response time and network for a web farm, ...)."""


def kpi_tiles(p: Prediction) -> list[tuple[str, str, str]]:
    """Four headline (label, value, note) tiles: three of :data:`HEADLINE` that the design
    measures (hosts needed, IOPS and latency fill in), then consolidation."""
    keys = [k for k in HEADLINE if KPI_BY_KEY[k].value(p) is not None][:3]
    for k in ("hosts_needed", "total_iops", "mean_latency_ms"):
        if len(keys) < 3 and k not in keys:
            keys.append(k)
    notes = {"total_iops": f"{len(p.vms.ids)} VMs",
             "mean_latency_ms": f"p95 {fmt.with_unit(p.p95_latency_ms, 'ms')}",
             "ft_logging_mbps": f"adds {fmt.with_unit(p.ft_latency_add_ms, 'ms')} latency"}

    def note(k: str) -> str:  # the count of VMs even without I/O; else what is missing
        present = k == "total_iops" or KPI_BY_KEY[k].value(p) is not None
        return notes[k] if present and k in notes else fmt.kpi_detail(k, p)

    c = p.consolidation
    tiles = [(KPI_BY_KEY[k].title, fmt.kpi_text(KPI_BY_KEY[k], p), note(k)) for k in keys]
    return [*tiles, ("Consolidation", f"{fmt.number(c.vms_per_host)} VMs/host",
                     f"binding: {c.binding or 'none'}")]


LIBRARY_ROWS = 4
"""Content Library jobs listed on the KPI page (the slowest first)."""


def kpi_rows(p: Prediction) -> list[list[str]]:
    c = p.consolidation

    def opt(v: int | None) -> str:
        return fmt.NONE if v is None else str(v)

    io = p.total_iops > 0  # without storage I/O a latency is not 0 ms: it does not exist

    def lat(v: float) -> str:
        return fmt.number(v) if io else fmt.NONE

    rows = [
        ["Storage", "Total IOPS", fmt.number(p.total_iops), "IOPS"],
        ["Storage", "Mean latency (IOPS-weighted)", lat(p.mean_latency_ms), "ms"],
        ["Storage", "Highest VM p95 latency", lat(p.p95_latency_ms), "ms"],
    ]
    if p.vms.request_driven.any():
        rows += [["Web", "Mean response", fmt.number(p.mean_response_ms), "ms"],
                 ["Web", "Highest VM p95 response", fmt.number(p.p95_response_ms), "ms"]]
    net = p.total_net_gbps
    if net > 0:
        rows.append(["Network", "VM throughput (received + sent)", fmt.number(net), "Gbit/s"])
    jobs = sorted(p.library_transfers, key=lambda j: -float(j["completion_s"]))
    for j in jobs[:LIBRARY_ROWS]:
        rows.append(["Content Library", f"{j['name'] or j['id']} ({j['operation']})",
                     fmt.number(float(j["completion_s"]) / 60.0), "min"])
    if len(jobs) > LIBRARY_ROWS:
        rows.append(["Content Library", f"… and {len(jobs) - LIBRARY_ROWS} more jobs", "", ""])
    rows += [
        ["Fault Tolerance", "FT logging traffic", fmt.number(p.ft_logging_mbps), "Mbit/s"],
        ["Fault Tolerance", "Latency FT adds (worst VM)", fmt.number(p.ft_latency_add_ms),
         "ms"],
        ["Fault Tolerance", "Protected VMs", str(int(p.vms.ft.sum())), "VMs"],
        ["Consolidation", "VMs per host", fmt.number(c.vms_per_host), "VMs"],
        ["Consolidation", "Max VMs per host by CPU", opt(c.max_vms_per_host_by_cpu), "VMs"],
        ["Consolidation", "Max VMs per host by p95", opt(c.max_vms_per_host_by_p95), "VMs"],
        ["Consolidation", "Binding constraint", c.binding or "none", ""],
        ["Consolidation", "Hosts needed", opt(c.hosts_needed), "hosts"],
    ]
    return rows


def band_rows(r: Report, limit: int = 5) -> list[list[str]]:
    """Rows for the figures whose published-range band has a width, and the cases behind."""
    from models.engine.evaluation import Engine, evaluate_bands  # noqa: PLC0415 (only for the report)
    bands = r.prediction.bands
    if bands is None:
        try:
            bands = evaluate_bands(Engine(r.design, r.scenario), r.prediction)
        except Exception:  # the bands are an extra: a report without them still helps
            return []
    rows = []
    for key, (lo, hi) in bands.summary.items():
        label, unit = SUMMARY_FIGURES.get(key.removeprefix("summary."), (key, ""))
        if hi > lo:
            rows.append(["Range", label, f"{fmt.number(lo)}–{fmt.number(hi)}", unit])
    return rows[:limit] + [["Range from", b.case_id.split(";")[0], "", ""]
                           for b in bands.sources[:3]] if rows else []


def kpi_page(s: Sheet, r: Report) -> None:
    p = r.prediction
    y = s.heading(HEADINGS[3], "IOPS, latency, Fault Tolerance and consolidation as predicted")
    w = s.width - 2 * MARGIN
    half = (w - 30) / 2
    cols = [Column("Area", 0.24), Column("Figure", 0.46), Column("Value", 0.18, RIGHT),
            Column("Unit", 0.12)]
    y1 = s.table(MARGIN, y, half, cols, kpi_rows(p) + band_rows(r), 12.5, 24)
    h = p.hosts
    hrows = [[h.names[i] or hid, fmt.percent(float(h.cpu_util[i]), 2),
              fmt.percent(float(h.memory_util[i]), 2), str(int(h.vms[i])),
              fmt.number(float(h.ft_logging_mbps[i]))] for i, hid in enumerate(h.ids)]
    x2 = MARGIN + half + 30
    s.text(QRectF(x2, y, half, 22), "Hosts", 15, True)
    hcols = [Column("Host", 0.34), Column("CPU", 0.16, RIGHT), Column("Memory", 0.17, RIGHT),
             Column("VMs", 0.11, RIGHT), Column("FT Mbit/s", 0.22, RIGHT)]
    yh = s.table(x2, y + 28, half, hcols, hrows[:12], 12, 22)
    if len(hrows) > 12:
        s.text(QRectF(x2, yh, half, 20), f"… and {len(hrows) - 12} more hosts", 11,
               color=MUTED)
        yh += 22
    a = p.arrays
    arows = [[a.names[i] or aid, fmt.si(float(a.iops[i])), fmt.number(float(a.latency_ms[i])),
              fmt.percent(float(a.util[i]), 2)] for i, aid in enumerate(a.ids)]
    s.text(QRectF(x2, yh + 14, half, 22), "Storage arrays", 15, True)
    acols = [Column("Array", 0.4), Column("IOPS", 0.2, RIGHT), Column("Latency ms", 0.2, RIGHT),
             Column("Busy", 0.2, RIGHT)]
    s.table(x2, yh + 42, half, acols, arows[:8], 12, 22)
    if p.warnings:
        yy = y1 + 20
        s.text(QRectF(MARGIN, yy, half, 22), "Warnings", 15, True)
        yy += 28
        for wtext in p.warnings[:6]:
            yy += s.wrapped(MARGIN, yy, half, "• " + wtext, 12, BAD) + 4
    s.footer(r.footer, 4)


@dataclass
class PerVm:
    """The per-item bars a report shows: what the design does, per VM (or per library job)."""

    names: list[str]
    upper_title: str
    upper: np.ndarray
    upper_label: Callable[[float], str]
    lower_title: str
    lower: np.ndarray
    marks: np.ndarray | None = None
    """A tick per bar on the lower chart (p95 beside the mean)."""

    def top(self, n: int) -> list[int]:
        """Indices of the ``n`` largest upper figures."""
        return sorted(range(len(self.names)), key=lambda i: -_finite(float(self.upper[i])))[:n]


def per_vm_figures(p: Prediction) -> PerVm:
    """IOPS and latency per VM; network throughput and CPU for a design without storage I/O;
    time and MB/s per Content Library job for a design whose work is library jobs."""
    v = p.vms
    names = [v.names[i] or v.ids[i] for i in range(len(v.ids))]
    jobs = p.library_transfers
    if p.total_iops == 0 and p.total_net_gbps > 0:
        return PerVm(names, "Network throughput per VM, Gbit/s", v.net_gbps, fmt.number,
                     "CPU utilisation per VM (%)", 100 * v.cpu_util)
    if p.total_iops == 0 and jobs:
        return PerVm([str(j["name"] or j["id"]) for j in jobs], "Content Library job time, min",
                     np.array([float(j["completion_s"]) / 60.0 for j in jobs]), fmt.number,
                     "MB/s per library job",
                     np.array([float(j["throughput_MBps"] or 0.0) for j in jobs]))
    return PerVm(names, "IOPS per VM", v.iops, fmt.si, "Mean / p95 storage latency per VM (ms)",
                 v.latency_ms, v.p95_latency_ms)


def charts_page(s: Sheet, r: Report) -> None:
    p = r.prediction
    y = s.heading(HEADINGS[4], "Utilisation of the busiest resources, and per-VM figures")
    w = s.width - 2 * MARGIN
    half = (w - 40) / 2
    top = y
    utilisation_chart(s, QRectF(MARGIN, top, half, s.height - top - MARGIN - 20), p, r.design)
    x2 = MARGIN + half + 40
    hh = (s.height - top - MARGIN - 20 - 30) / 2
    f = per_vm_figures(p)
    order = f.top(16)
    bar_chart(s, QRectF(x2, top, half, hh), f"{f.upper_title} (top 16)",
              [(f.names[i], _finite(float(f.upper[i]))) for i in order], f.upper_label, ACCENT)
    bar_chart(s, QRectF(x2, top + hh + 30, half, hh), f.lower_title,
              [(f.names[i], _finite(float(f.lower[i]))) for i in order], fmt.number, GOOD,
              None if f.marks is None else [_finite(float(f.marks[i])) for i in order])
    s.footer(r.footer, 5)


def _finite(x: float) -> float:
    return x if math.isfinite(x) else 0.0


def utilisation_chart(s: Sheet, rect: QRectF, p: Prediction,
                      design: Design | None = None) -> None:
    s.text(QRectF(rect.x(), rect.y(), rect.width(), 22), "Utilisation (busiest 18)", 15, True)
    res = p.bottlenecks(18)
    if not res:
        s.text(QRectF(rect.x(), rect.y() + 30, rect.width(), 22), "no resources reported",
               12, color=MUTED)
        return
    row = min(34.0, (rect.height() - 34) / len(res))
    y = rect.y() + 34
    lw = rect.width() * 0.38
    for res_ in res:
        s.text(QRectF(rect.x(), y, lw - 8, row - 6),
               resource_label(design, res_.component, res_.resource) if design else
               f"{res_.component} · {res_.resource}", 11.5)
        s.bar(QRectF(rect.x() + lw, y + 4, rect.width() - lw - 64, row - 14), res_.util)
        s.text(QRectF(rect.right() - 60, y, 60, row - 6), fmt.percent(res_.util, 2), 11.5,
               align=RIGHT)
        y += row


def bar_chart(s: Sheet, rect: QRectF, title: str, items: list[tuple[str, float]],
              label: Callable[[float], str], color: QColor,
              marks: list[float] | None = None) -> None:
    """Horizontal bars scaled to the largest value; ``marks`` adds a tick per bar (p95)."""
    s.text(QRectF(rect.x(), rect.y(), rect.width(), 22), title, 15, True)
    if not items:
        s.text(QRectF(rect.x(), rect.y() + 30, rect.width(), 22), "no VMs", 12, color=MUTED)
        return
    top = max([v for _, v in items] + (marks or []) + [1e-12])
    row = min(26.0, (rect.height() - 30) / len(items))
    y = rect.y() + 30
    lw = rect.width() * 0.3
    bw = rect.width() - lw - 70
    for i, (name, val) in enumerate(items):
        s.text(QRectF(rect.x(), y, lw - 8, row - 4), name, 11)
        s.box(QRectF(rect.x() + lw, y + 3, bw * val / top, row - 10), color, None, 2)
        if marks is not None:
            mx = rect.x() + lw + bw * marks[i] / top
            s.painter.setPen(QPen(INK, 2))
            s.painter.drawLine(QPointF(mx, y + 1), QPointF(mx, y + row - 5))
        s.text(QRectF(rect.right() - 66, y, 66, row - 4), label(val), 11, align=RIGHT)
        y += row


def bottlenecks_page(s: Sheet, r: Report) -> None:
    p = r.prediction
    y = s.heading(HEADINGS[5], "The most utilised resources, why they are busy, "
                               "and the study behind the model")
    w = s.width - 2 * MARGIN
    items = p.bottlenecks(8)
    if not items:
        s.text(QRectF(MARGIN, y, w, 24), "No resource is reported as busy.", 14,
               color=MUTED)
    for res in items:
        if y > s.height - MARGIN - 100:
            break
        s.text(QRectF(MARGIN, y, w * 0.5, 24), resource_label(r.design, res.component,
                                                              res.resource), 15, True)
        s.bar(QRectF(MARGIN + w * 0.5, y + 5, w * 0.38, 14), res.util)
        s.text(QRectF(MARGIN + w * 0.88, y, w * 0.12, 24), fmt.percent(res.util, 3), 15,
               True, util_color(res.util), RIGHT)
        y += 28
        y += s.wrapped(MARGIN + 16, y, w - 16, res.explanation or "(no explanation)", 12.5)
        if res.source:
            y += s.wrapped(MARGIN + 16, y + 2, w - 16, f"Source: {res.source}", 11, MUTED) + 2
        y += 16
    s.footer(r.footer, 6)


def error_text(error: float) -> str:
    """A relative error as ``+4.2 %`` (one decimal; ``0 %`` below 0.05 %)."""
    if not math.isfinite(error):
        return fmt.NONE
    if abs(error) < 0.0005:
        return "0 %"
    return f"{error * 100:+.1f} %".replace("-", "−")


def resource_label(design: Design, component: str, resource: str) -> str:
    """``host_cpu · Dell R720 (h1)``: the resource first, so that a label cut short in a
    narrow column still says what is busy; the component's name when it has one."""
    c = design.component(component)
    name = f"{c.name} ({component})" if c is not None and c.name else component
    return f"{resource} · {name}"


def appendix_page(s: Sheet, r: Report, index: int, count: int, first: int = 7) -> None:
    title = HEADINGS[6] + (f" ({index + 1} of {count})" if count > 1 else "")
    checks = r.checks
    numeric = sorted(abs(c.error) for c in checks if c.bound == "eq")
    med = numeric[len(numeric) // 2] if numeric else math.nan
    cv = r.cross_validation
    cv_med = (cv.get("summary") or {}).get("cv_median")
    sub = (f"{len(checks)} comparisons over {len({c.case_id for c in checks})} published "
           f"cases; {sum(c.ok for c in checks)} within tolerance; median |error| "
           f"{error_text(med).lstrip('+')} fitted") if checks else "The studies behind the numbers"
    if checks and cv_med is not None:
        sub += f", {error_text(float(cv_med)).lstrip('+')} cross-validated"
    y = s.heading(title, sub)
    w = s.width - 2 * MARGIN
    if not checks:
        msg = r.checks_error or "No calibration checks are available in this build."
        s.wrapped(MARGIN, y, w, msg, 14, MUTED)
        s.footer(r.footer, first + index)
        return
    part = checks[index * APPENDIX_ROWS:(index + 1) * APPENDIX_ROWS]
    cols = [Column("Study", 0.29), Column("Quantity", 0.27), Column("Role", 0.05),
            Column("Published", 0.09, RIGHT), Column("Model", 0.09, RIGHT),
            Column("Error", 0.09, RIGHT), Column("CV error", 0.12, RIGHT)]
    stored_cv = cv.get("rows") or {}
    rows, colors = [], []
    for c in part:
        try:
            study = str(c.case().get("study", c.case_id))
        except Exception:  # a case id missing from cases.jsonl
            study = c.case_id
        pub = ("> " if c.bound == "gt" else "< " if c.bound == "lt" else "") + \
            fmt.number(c.published)
        err = error_text(c.error) + ("" if c.ok else " (out)")
        row = stored_cv.get((c.case_id, c.quantity))
        if c.role == "rule":
            cv_text = fmt.NONE
        elif row is None:
            cv_text = ""
        elif row["reproduced_only"]:
            cv_text = "reproduced only"
        else:
            cv_text = error_text(float(row["cv_error"])) if row.get("cv_error") is not None \
                else ""
        rows.append([study, c.quantity, c.role, pub, fmt.number(c.model), err, cv_text])
        colors.append(GOOD if c.ok else BAD)
    y = s.table(MARGIN, y, w, cols, rows, 11, 22, colors)
    s.wrapped(MARGIN, y + 10, w, "Role: fit = a coefficient was fitted to this figure; "
              "check = not used in fitting; rule = the study's rule as stated. Error = (model "
              "- published) / published. CV error = the same with the subsystem refitted "
              "without this case (headroom validate --cv); reproduced only = only this case "
              "pins the coefficients it depends on, so no independent check is possible.",
              11, MUTED)
    s.footer(r.footer, first + index)
