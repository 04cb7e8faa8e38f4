"""The report's charts: utilisation of the busiest resources and per-VM figures, both
aggregated when items are many (alike resources as one bar; identical VMs as one bar; more
distinct values than fit as a histogram of how many VMs fall in each range)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPen

from app.report.draw import INK, MUTED, Sheet
from models.core.prediction import Prediction, Resource, resource_words
from models.document import numbers as fmt
from models.document.design import Design
from models.document.words import kind_count
from models.engine.metrics import capacity_only
from models.report.wording import resource_label

RIGHT = Qt.AlignmentFlag.AlignRight

MAX_BARS = 14
"""Bars a chart shows before it aggregates into a histogram."""

BINS = 10
"""Ranges of a histogram."""


def _finite(x: float) -> float:
    return x if math.isfinite(x) else 0.0


# --------------------------------------------------------------------------- utilisation

def utilisation_groups(p: Prediction, n: int) -> list[tuple[Resource, int]]:
    """The ``n`` busiest resources, each with how many of the same type are as busy (one
    bar for 36 identical VMs)."""
    groups: list[tuple[Resource, int]] = []
    for r in p.bottlenecks(len(p.resources)):
        for i, (g, count) in enumerate(groups):
            if g.resource == r.resource and abs(g.util - r.util) <= 1e-3 * max(g.util, 1e-9):
                groups[i] = (g, count + 1)
                break
        else:
            if len(groups) == n:
                break
            groups.append((r, 1))
    return groups


def group_label(design: Design, r: Resource, count: int) -> str:
    label = resource_label(design, r.component, r.resource)
    if count > 1:
        kind = resource_words(r.resource).kind
        label += f" and {kind_count(kind, count - 1, 'more')}" if kind else \
            f" and {count - 1:,} more"
    return label


def utilisation_chart(s: Sheet, rect: QRectF, p: Prediction, design: Design,
                      n: int = 14, title: str = "Utilisation of the busiest resources") -> None:
    s.text(QRectF(rect.x(), rect.y(), rect.width(), 22), title, 15, True)
    groups = utilisation_groups(p, n)
    if not groups:
        s.text(QRectF(rect.x(), rect.y() + 30, rect.width(), 22), "no resources reported",
               12, color=MUTED)
        return
    row = min(34.0, (rect.height() - 34) / len(groups))
    y = rect.y() + 34
    lw = rect.width() * 0.58
    for r, count in groups:
        s.text(QRectF(rect.x(), y, lw - 8, row - 6), group_label(design, r, count), 11.5)
        s.bar(QRectF(rect.x() + lw, y + 4, rect.width() - lw - 64, row - 14), r.util)
        s.text(QRectF(rect.right() - 60, y, 60, row - 6), fmt.percent(r.util, 3), 11.5,
               align=RIGHT)
        y += row


# --------------------------------------------------------------------------- per VM


@dataclass
class PerVm:
    """The per-item figures a report charts: per VM (or per Content Library job)."""

    names: list[str]
    upper_title: str
    upper: np.ndarray
    upper_label: Callable[[float], str]
    lower_title: str
    lower: np.ndarray
    marks: np.ndarray | None = None
    """A tick per item on the lower chart (p95 beside the mean)."""
    item: str = "VM"
    lower_label: Callable[[float], str] = fmt.number

    def top(self, n: int) -> list[int]:
        """Indices of the ``n`` largest upper figures."""
        return sorted(range(len(self.names)), key=lambda i: -_finite(float(self.upper[i])))[:n]


def per_vm_figures(p: Prediction) -> PerVm:
    """IOPS and latency per VM; CPU and response time for a web farm; network throughput
    and CPU for a design that only moves traffic; time and MB/s per Content Library job for
    a design whose work is library jobs; CPU utilisation and demand for one whose only work
    is CPU and memory (an estate imported without I/O data)."""
    v = p.vms
    names = [v.names[i] or v.ids[i] for i in range(len(v.ids))]
    jobs = p.library_transfers
    if p.total_iops == 0 and v.request_driven.any():
        return PerVm(names, "CPU utilisation per VM", 100 * v.cpu_util, _pct,
                     "Mean / p95 web response per VM", v.latency_ms, v.p95_latency_ms,
                     lower_label=_unit("ms"))
    if p.total_iops == 0 and p.total_net_gbps > 0:
        return PerVm(names, "Network throughput per VM", v.net_gbps, _unit("Gbit/s"),
                     "CPU utilisation per VM", 100 * v.cpu_util, lower_label=_pct)
    if p.total_iops == 0 and jobs:
        return PerVm([j.name or j.id for j in jobs], "Content Library job time",
                     np.array([(j.completion_s or 0.0) / 60.0 for j in jobs]), _unit("min"),
                     "Throughput per library job",
                     np.array([j.throughput_mbps or 0.0 for j in jobs]),
                     item="job", lower_label=_unit("MB/s"))
    if capacity_only(p):  # an estate measured without I/O: its CPU, never a 0 IOPS
        return PerVm(names, "CPU utilisation per VM", 100 * v.cpu_util, _pct,
                     "CPU demand per VM (cores)", v.cpu_cores, lower_label=_unit("cores"))
    return PerVm(names, "IOPS per VM", v.iops, fmt.si, "Mean / p95 storage latency per VM",
                 v.latency_ms, v.p95_latency_ms, lower_label=_unit("ms"))


def _unit(unit: str) -> Callable[[float], str]:
    return lambda x: fmt.with_unit(x, unit)


def _pct(x: float) -> str:
    return fmt.with_unit(x, "%")


@dataclass(frozen=True)
class Bar:
    label: str
    value: float
    mark: float | None = None
    count: int = 1


def grouped(names: Sequence[str], values: np.ndarray, marks: np.ndarray | None = None,
            item: str = "VM") -> list[Bar]:
    """One bar per distinct (value, mark) as the report prints them, largest first: 16
    identical VMs are one bar ``16 VMs: ioanalyzer1 … ioanalyzer16``."""
    keys: dict[tuple[str, str], list[int]] = {}
    for i in range(len(names)):
        key = (fmt.number(_finite(float(values[i]))),
               fmt.number(_finite(float(marks[i]))) if marks is not None else "")
        keys.setdefault(key, []).append(i)
    bars = []
    for idx in keys.values():
        first = idx[0]
        if len(idx) == 1:
            label = names[first]
        elif len(idx) == 2:
            label = f"{names[idx[0]]} and {names[idx[1]]}"
        else:
            label = f"{fmt.count(len(idx), item)}: {names[idx[0]]} … {names[idx[-1]]}"
        bars.append(Bar(label, _finite(float(values[first])),
                        _finite(float(marks[first])) if marks is not None else None, len(idx)))
    return sorted(bars, key=lambda b: -b.value)


def histogram(values: np.ndarray, label: Callable[[float], str], item: str = "VM") -> list[Bar]:
    """How many items fall in each of :data:`BINS` ranges (a bar's value is the count)."""
    vals = np.asarray([_finite(float(x)) for x in values])
    lo, hi = float(vals.min()), float(vals.max())
    edges = np.linspace(lo, hi, BINS + 1)
    counts, _ = np.histogram(vals, bins=edges)
    return [Bar(f"{label(float(edges[i]))} – {label(float(edges[i + 1]))}", float(c),
                count=int(c)) for i, c in enumerate(counts.tolist())]


def chart_height(names: Sequence[str], values: np.ndarray, marks: np.ndarray | None = None,
                 item: str = "VM", most: float = 400.0) -> float:
    """The height :func:`figure_chart` needs (at most ``most``)."""
    n = len(grouped(names, values, marks, item)) if len(names) else 1
    return min(most, 30 + 26 * min(n if n <= MAX_BARS else BINS, MAX_BARS) + 8)


def figure_chart(s: Sheet, rect: QRectF, title: str, names: Sequence[str], values: np.ndarray,
                 label: Callable[[float], str], color: QColor,
                 marks: np.ndarray | None = None, item: str = "VM") -> None:
    """A per-item figure: one bar per group of identical items, or a histogram when there
    are more distinct values than :data:`MAX_BARS`."""
    if not len(names):
        s.text(QRectF(rect.x(), rect.y(), rect.width(), 22), title, 15, True)
        s.text(QRectF(rect.x(), rect.y() + 30, rect.width(), 22), f"no {fmt.plural(item)}", 12,
               color=MUTED)
        return
    bars = grouped(names, values, marks, item)
    if len(bars) > MAX_BARS:
        bars = histogram(values, label, item)
        bar_chart(s, rect, f"{title}: {fmt.plural(item)} in each range",
                  bars, lambda c: fmt.count(int(c), item), color)
        return
    bar_chart(s, rect, title, bars, label, color)


def bar_chart(s: Sheet, rect: QRectF, title: str, bars: Sequence[Bar],
              label: Callable[[float], str], color: QColor) -> None:
    """Horizontal bars scaled to the largest value; a bar's mark adds a tick (p95)."""
    s.text(QRectF(rect.x(), rect.y(), rect.width(), 22), title, 15, True)
    if not bars:
        return
    top = max([b.value for b in bars] + [b.mark or 0.0 for b in bars] + [1e-12])
    row = min(26.0, (rect.height() - 30) / len(bars))
    y = rect.y() + 30
    marks = any(b.mark is not None for b in bars)
    tw = 118.0 if marks else 78.0
    lw = rect.width() * 0.42
    bw = rect.width() - lw - tw
    for b in bars:
        s.text(QRectF(rect.x(), y, lw - 8, row - 4), b.label, 11)
        s.box(QRectF(rect.x() + lw, y + 3, max(bw * b.value / top, 0.5), row - 10), color,
              None, 2)
        if b.mark is not None:
            mx = rect.x() + lw + bw * b.mark / top
            s.painter.setPen(QPen(INK, 2))
            s.painter.drawLine(QPointF(mx, y + 1), QPointF(mx, y + row - 5))
        text = label(b.value) + (f" / {label(b.mark)}" if b.mark is not None else "")
        s.text(QRectF(rect.right() - tw + 2, y, tw - 2, row - 4), text, 11, align=RIGHT)
        y += row
