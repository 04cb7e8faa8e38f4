"""Read an Aria Operations (vRealize Operations) view or report exported as CSV: VM, host and
cluster views, as Aria writes them (:mod:`models.io.importers.aria_columns` reads the headers,
their units and the cells).

A file is one row per object (``Name``), or per object and interval (``Interval Breakdown``,
"12:00 AM 21 July 2026"; a ``Time`` column of older views): an object's intervals are reduced
by ``--stat`` (p95, mean or max).  Where a metric comes as several transformations, the stat
picks its column: ``max`` the interval maxima (``|Max``), the others the interval averages
(``|Avg``).  What is read:

=========== ===============================================================================
VM view     CPU demand (usage where the view has no demand) in MHz, ready and contention
            (%), memory consumed and active, IOPS (or reads + writes per second), read
            share, I/O size (read + write rate over IOPS), latency, outstanding I/Os,
            network usage
host view   CPU usage and demand (MHz, or %), contention and ready (%), memory utilisation
            (MB, or %), onto the host's recorded figures (a percentage of its cores x clock
            and memory where the view gives MHz and MB); IOPS with its read share and size
            (what passes its VMs' is its background I/O)
cluster     the same onto the cluster (a percentage of its hosts' capacity)
=========== ===============================================================================

Export lines before the header (the view's name, "Generated on ...") are skipped.  A file
without a name column, or without any column above, is refused with the headers found.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import numpy as np

from models.document.design import DesignError, Issue
from models.document.numbers import counted
from models.document.words import kind_text
from models.io.importers import Measured
from models.io.importers.aria_columns import FIGURES, Column, factor, number, parse
from models.io.importers.importer import Importer, Option
from models.io.importers.measurements import (
    STATS,
    HostMeasured,
    Measurements,
    latencies,
    statistic,
)
from models.io.importers.workbook import Row, csv_rows, head_rows

NAME = re.compile(r"^(name|object name|virtual machine( name)?|vm( name)?|object)$")
TIME = ("time", "timestamp", "date", "date/time", "collection time", "interval breakdown",
        "interval")
UNIT_WORDS = {"mhz": "MHz", "mb": "MB", "kb": "KB", "kbps": "KBps"}
SUMMARY = {"summary", "total", "totals", "aggregate"}
"""Names of the summary row a view adds when asked to (one more "object")."""


def _header_index(rows: list[Row]) -> int:
    for i, r in enumerate(rows[:30]):
        cells = [str(c).strip().lower() for c in r]
        if len([c for c in cells if c]) >= 2 and any(NAME.match(c) for c in cells):
            return i
    return -1


class _View:
    """The header of a view: its name and time columns and each figure's column (or, for a
    figure exported as several transformations, the one the statistic reads)."""

    def __init__(self, header: list[str], stat: str) -> None:
        low = [c.lower() for c in header]
        self.header = header
        self.name = next(i for i, c in enumerate(low) if NAME.match(c))
        self.time = next((i for i, c in enumerate(low) if c in TIME), None)
        columns = [parse(i, h) for i, h in enumerate(header) if i not in (self.name, self.time)]
        objects = Counter(c.object for c in columns if c.object)
        self.object = objects.most_common(1)[0][0] if objects else "vm"
        self.mixed = len(objects) > 1
        want = ("max", "maximum") if stat == "max" else ("avg", "average", "")
        self.found: dict[str, Column] = {}
        taken: set[int] = set()
        for fig in FIGURES:
            fits = [c for c in columns if c.index not in taken and fig.match(c)
                    and (not c.object or c.object == self.object)]
            if not fits:
                continue
            best = next((c for c in fits if c.transform in want), fits[0])
            same = [c for c in fits if c.key == best.key and c.unit == best.unit]
            taken.update(c.index for c in same)  # its other transformations are not others
            self.found[fig.name] = best
        self.kinds = {f.name: f for f in FIGURES}

    def guessed(self, figure: str) -> bool:
        c = self.found.get(figure)
        return c is not None and not c.unit

    def values(self, figure: str, rows: list[Row]) -> np.ndarray | None:
        c = self.found.get(figure)
        if c is None:
            return None
        fig = self.kinds[figure]
        scale = factor(c.unit or fig.default, fig.kind)
        if scale is None:
            scale = factor(fig.default, fig.kind) or 1.0
        i = c.index
        return np.array([number(r[i] if i < len(r) else None, fig.kind, scale) for r in rows])

    def used(self) -> str:
        def unit(fig: str, c: Column) -> str:
            default = self.kinds[fig].default
            return "" if c.unit or not default else f" (in {UNIT_WORDS.get(default, default)})"
        return "; ".join(f"{fig} = '{c.header}'{unit(fig, c)}" for fig, c in self.found.items())


def read(path: Path, stat: str = "p95") -> Measurements:
    """Read an Aria Operations CSV view; raises :class:`DesignError` when it is not one."""
    if stat not in STATS:
        raise DesignError([Issue("--stat", f"expected one of {', '.join(STATS)}, got {stat!r}")])
    rows = list(csv_rows(path))
    h = _header_index(rows)
    if h < 0:
        first = ", ".join(str(c) for c in (rows[0] if rows else ())[:8]) or "nothing"
        raise DesignError([Issue(str(path), "not an Aria Operations view export: no 'Name'"
                                 " (or 'Object Name', 'Virtual Machine') column"
                                 f" (found: {first})")])
    view = _View([str(c).strip() for c in rows[h]], stat)
    if not view.found:
        raise DesignError([Issue(str(path), "no column this import reads (CPU demand or"
                                 " usage, memory consumed or utilisation, IOPS, latency,"
                                 " contention, ...): found " + ", ".join(view.header[:12]))])
    per_object: dict[str, list[Row]] = {}
    for r in rows[h + 1:]:
        name = str(r[view.name]).strip() if view.name < len(r) else ""
        if name and name.lower() not in SUMMARY:
            per_object.setdefault(name, []).append(r)
    what = {"vm": "VM", "host": "host", "cluster": "cluster"}[view.object]
    if not per_object:
        raise DesignError([Issue(str(path), f"the view lists no {kind_text(view.object, 2)}"
                                 " under its header")])
    samples = max(len(v) for v in per_object.values())
    how = (f"{stat} of up to {counted(samples, 'interval')} per {what}"
           if view.time is not None or samples > 1 else f"one row per {what}")
    src = f"Aria Operations {what} view {path.name}, {how}"
    meas = Measurements(source=src)
    meas.notes.append("columns read: " + view.used())
    if view.mixed:
        meas.notes.append(f"the view mixes objects: its {what} columns are read")
    for name, obj_rows in per_object.items():
        if view.object == "vm":
            m = _vm(view, obj_rows, stat, src)
            if m.sources:
                meas.vms[name] = m
        else:
            hm = _host(view, obj_rows, stat)
            if hm is not None:
                (meas.hosts if view.object == "host" else meas.clusters)[name] = hm
    if view.object != "vm" and "cpu_usage" not in view.found \
            and "cpu_usage_pct" not in view.found and ("cpu_demand" in view.found
                                                       or "cpu_demand_pct" in view.found):
        meas.notes.append(f"the view has CPU demand but no usage: each {what}'s recorded CPU"
                          " is its demand (demand includes what ready and contention held"
                          " back)")
    return meas


def _stat(view: _View, figure: str, rows: list[Row], stat: str) -> float | None:
    values = view.values(figure, rows)
    return None if values is None else statistic(values, stat)


def _host(view: _View, rows: list[Row], stat: str) -> HostMeasured | None:
    """A host's or cluster's figures (absolute ones turned into percentages when applied)."""
    hm = HostMeasured(
        cpu_pct=_stat(view, "cpu_usage_pct", rows, stat),
        memory_pct=_stat(view, "mem_usage_pct", rows, stat),
        cpu_mhz=_stat(view, "cpu_usage", rows, stat),
        cpu_demand_mhz=_stat(view, "cpu_demand", rows, stat),
        cpu_demand_pct=_stat(view, "cpu_demand_pct", rows, stat),
        cpu_contention_pct=_stat(view, "cpu_contention", rows, stat),
        cpu_ready_pct=_stat(view, "cpu_ready", rows, stat),
        memory_mib=_stat(view, "mem_util", rows, stat),
        memory_unit_guessed=view.guessed("mem_util"),
        cpu_capacity_mhz=_stat(view, "cpu_capacity", rows, "max"),
        memory_capacity_mib=_stat(view, "mem_capacity", rows, "max"))
    if view.object == "host":  # a host's own I/O: what passes its VMs' is its background
        io = Measured()
        iops, reads, writes = _iops(view, rows)
        if iops is not None and (v := statistic(iops, stat)) is not None:
            io.iops = v
            _io(io, view, rows, stat, iops, reads, writes)
            hm.iops, hm.read_pct, hm.io_kb = io.iops, io.read_pct, io.io_kb
    figures = (hm.cpu_pct, hm.memory_pct, hm.cpu_mhz, hm.cpu_demand_mhz, hm.cpu_demand_pct,
               hm.cpu_contention_pct, hm.cpu_ready_pct, hm.memory_mib, hm.iops)
    return hm if any(v is not None for v in figures) else None


def _iops(view: _View, rows: list[Row]
          ) -> tuple[np.ndarray | None, np.ndarray | None, np.ndarray | None]:
    """IOPS per interval (or reads + writes per second), with the reads and writes."""
    reads, writes = view.values("read_iops", rows), view.values("write_iops", rows)
    iops = view.values("iops", rows)
    if iops is None and reads is not None and writes is not None:
        iops = np.where(np.isnan(reads) & np.isnan(writes), np.nan,
                        np.nan_to_num(reads) + np.nan_to_num(writes))
    return iops, reads, writes


def _vm(view: _View, rows: list[Row], stat: str, src: str) -> Measured:
    def col(fig: str) -> np.ndarray | None:
        return view.values(fig, rows)

    m = Measured()
    cpu = col("cpu_demand")
    what = "CPU demand"
    if cpu is None:
        cpu, what = col("cpu_usage"), "CPU usage"
    if cpu is not None and (v := statistic(cpu, stat)) is not None:
        m.cpu_mhz = v
        m.sources["cpu"] = f"{src}: {what} MHz"
    m.cpu_ready_pct = _stat(view, "cpu_ready", rows, stat)
    m.cpu_contention_pct = _stat(view, "cpu_contention", rows, stat)
    consumed = col("mem_consumed")
    if consumed is not None and (v := statistic(consumed, stat)) is not None:
        m.memory_consumed_mib = v
        m.sources["memory"] = f"{src}: memory consumed"
    active = col("mem_active")
    if active is not None:
        m.memory_active_mib = statistic(active, stat)
    iops, reads, writes = _iops(view, rows)
    if iops is not None and (v := statistic(iops, stat)) is not None:
        m.iops = v
        m.sources["io"] = f"{src}: IOPS"
        _io(m, view, rows, stat, iops, reads, writes)
    net = col("net")
    if net is not None and (v := statistic(net, stat)) is not None:
        m.net_mbps = v
        m.sources["net"] = f"{src}: network usage"
    return m


def _io(m: Measured, view: _View, rows: list[Row], stat: str, iops: np.ndarray,
        reads: np.ndarray | None, writes: np.ndarray | None) -> None:
    if reads is not None and writes is not None:
        total = np.nansum(reads) + np.nansum(writes)
        if total > 0:
            m.read_pct = float(np.nansum(reads) / total * 100.0)
    rk, wk = view.values("read_kbps", rows), view.values("write_kbps", rows)
    if rk is not None and wk is not None and np.nansum(iops) > 0:
        m.io_kb = float((np.nansum(rk) + np.nansum(wk)) / np.nansum(iops))
    lat = view.values("latency", rows)
    rl, wl = view.values("read_latency", rows), view.values("write_latency", rows)
    if lat is None and rl is not None and wl is not None and reads is not None \
            and writes is not None:
        w = np.nan_to_num(reads) + np.nan_to_num(writes)
        lat = (np.nan_to_num(rl) * np.nan_to_num(reads)
               + np.nan_to_num(wl) * np.nan_to_num(writes)) / np.where(w > 0, w, np.nan)
    if lat is not None:
        m.latency_ms, m.latency_peak_ms = latencies(
            np.nan_to_num(lat) * np.nan_to_num(iops), np.where(np.isnan(lat), np.nan, iops),
            stat)
    oio = view.values("oio", rows)
    if oio is not None:
        m.oio = statistic(oio, stat)


SUFFIXES = (".csv", ".txt", ".tsv")


def is_aria_view(path: Path) -> bool:
    """Whether ``path`` looks like an Aria Operations view export: a text file with a name
    column (Name, Object Name, Virtual Machine) among its first rows."""
    return path.suffix.lower() in SUFFIXES and _header_index(head_rows(path)) >= 0


IMPORTER = Importer(
    id="aria", name="Aria Operations", title="Aria Operations CSV view",
    description="an Aria Operations CSV view or report (VMs, hosts or clusters)",
    source=Option("source", "path", help="the view exported as CSV"), command="calibrate",
    patterns=("*.csv",), suffixes=SUFFIXES, sniff=is_aria_view, read_measurements=read,
)
