"""Read an Aria Operations (vRealize Operations) view exported as CSV.

A list view of virtual machines, one row per VM (or per VM and time for a trend view), with
the columns a capacity view carries.  Columns are recognised by what their header says, so
renamed views still read (``CPU|Demand (MHz)``, ``CPU Demand (MHz)``, ``Virtual Disk:Aggregate of
all Instances|Commands per second``, ``Total IOPS``, ``Memory|Consumed (GB)`` ...):

============== =====================================================================
name           Name, Object Name, Virtual Machine, VM Name
time           a Time / Timestamp column: several rows per VM, reduced by --stat
CPU            CPU demand in MHz or GHz (usage MHz when the view has no demand)
memory         consumed (KB, MB or GB), active / demand memory
IOPS           total IOPS or commands per second (else reads + writes per second)
read share     read IOPS over total
I/O size       read + write rate (KBps) over IOPS
latency        total latency (ms), else read and write latency weighted by their IOPS
OIO            outstanding I/Os
network        usage rate (KBps or Mbps)
============== =====================================================================

Export lines before the header (the view's name, "Generated on ...") are skipped.  A file
without a name column, or without any column above, is refused with the headers found.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import numpy as np

from models.document.design import DesignError, Issue
from models.document.numbers import counted
from models.io.importers import Measured
from models.io.importers.importer import Importer, Option
from models.io.importers.measurements import STATS, Measurements, statistic, unit_scale
from models.io.importers.workbook import Row, csv_rows, head_rows

NAME = re.compile(r"^(name|object name|virtual machine( name)?|vm( name)?|object)$")

Matcher = Callable[[str], bool]


def _has(*words: str) -> Matcher:
    return lambda h: all(w in h for w in words)


def _any_of(*ms: Matcher) -> Matcher:
    return lambda h: any(m(h) for m in ms)


def _not(m: Matcher, *words: str) -> Matcher:
    return lambda h: m(h) and not any(w in h for w in words)


COLUMNS: dict[str, Matcher] = {
    "cpu_demand": _any_of(_has("cpu", "demand", "mhz"), _has("cpu", "demand", "ghz")),
    "cpu_usage": _any_of(_has("cpu", "usage", "mhz"), _has("cpu", "usage", "ghz")),
    "mem_consumed": _has("mem", "consumed"),
    "mem_active": _any_of(_has("mem", "active"), _not(_has("mem", "demand"), "%")),
    "iops": _not(_any_of(_has("iops"), _has("commands per second"), _has("commands/s"),
                         _has("number of commands")), "read", "write"),
    "read_iops": _any_of(_has("read", "iops"), _has("reads per second"),
                         _has("read requests"), _has("read", "per second")),
    "write_iops": _any_of(_has("write", "iops"), _has("writes per second"),
                          _has("write requests"), _has("write", "per second")),
    "latency": _not(_any_of(_has("latency"), _has("response time")), "read", "write",
                    "network", "cpu", "mem"),
    "read_latency": _has("read", "latency"),
    "write_latency": _has("write", "latency"),
    "read_kbps": _has("read", "rate"),
    "write_kbps": _has("write", "rate"),
    "oio": _any_of(_has("outstanding"), _has("oio")),
    "net": _any_of(_has("network", "usage"), _has("network", "throughput"),
                   _has("net", "usage rate")),
}
"""Figure -> test on the lower-case header; the first column that passes is used."""


def _header_index(rows: list[Row]) -> int:
    for i, r in enumerate(rows[:30]):
        cells = [str(c).strip().lower() for c in r]
        if len([c for c in cells if c]) >= 2 and any(NAME.match(c) for c in cells):
            return i
    return -1


def _number(v: object) -> float:
    s = str(v).strip().replace("\u00a0", "").replace(" ", "")
    if not s or s.lower() in ("-", "n/a", "na", "none", "null"):
        return float("nan")
    m = re.match(r"^-?[\d.,]+", s)
    if not m:
        return float("nan")
    t = m.group(0)
    if re.fullmatch(r"-?\d{1,3}(,\d{3})+(\.\d+)?", t):
        t = t.replace(",", "")
    else:
        t = t.replace(",", ".")
    try:
        return float(t)
    except ValueError:
        return float("nan")


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
    header = [str(c).strip() for c in rows[h]]
    low = [c.lower() for c in header]
    name_col = next(i for i, c in enumerate(low) if NAME.match(c))
    time_col = next((i for i, c in enumerate(low) if c in ("time", "timestamp", "date",
                                                            "date/time", "collection time")),
                    None)
    found: dict[str, int] = {}
    for fig, match in COLUMNS.items():
        for i, c in enumerate(low):
            if i not in (name_col, time_col) and i not in found.values() and match(c):
                found[fig] = i
                break
    if not found:
        raise DesignError([Issue(str(path), "no column this import reads (CPU demand MHz,"
                                 " memory consumed, IOPS, latency, ...): found "
                                 + ", ".join(header[:12]))])
    per_vm: dict[str, list[Row]] = {}
    for r in rows[h + 1:]:
        name = str(r[name_col]).strip() if name_col < len(r) else ""
        if name:
            per_vm.setdefault(name, []).append(r)
    if not per_vm:
        raise DesignError([Issue(str(path), "the view lists no VMs under its header")])
    samples = max(len(v) for v in per_vm.values())
    how = f"{stat} of up to {counted(samples, 'row')} per VM" if time_col is not None \
        or samples > 1 \
        else "one row per VM"
    src = f"Aria Operations view {path.name}, {how}"
    meas = Measurements(source=src)
    used = [f"{fig} = '{header[i]}'" for fig, i in found.items()]
    meas.notes.append("columns read: " + "; ".join(used))
    for name, vm_rows in per_vm.items():
        m = _vm(vm_rows, found, header, stat, src)
        if m.sources:
            meas.vms[name] = m
    return meas


def _vm(rows: list[Row], found: dict[str, int], header: list[str], stat: str,
        src: str) -> Measured:
    def col(fig: str, kind: str | None = None) -> np.ndarray | None:
        i = found.get(fig)
        if i is None:
            return None
        scale = unit_scale(header[i], kind) if kind else 1.0
        return np.array([_number(r[i]) if i < len(r) else np.nan for r in rows]) * scale

    m = Measured()
    cpu = col("cpu_demand", "mhz")
    what = "CPU demand"
    if cpu is None:
        cpu, what = col("cpu_usage", "mhz"), "CPU usage"
    if cpu is not None and (v := statistic(cpu, stat)) is not None:
        m.cpu_mhz = v
        m.sources["cpu"] = f"{src}: {what} MHz"
    consumed = col("mem_consumed", "mib")
    if consumed is not None and (v := statistic(_kb_default(consumed, header,
                                                            found["mem_consumed"]),
                                                stat)) is not None:
        m.memory_consumed_mib = v
        m.sources["memory"] = f"{src}: memory consumed"
    active = col("mem_active", "mib")
    if active is not None:
        m.memory_active_mib = statistic(_kb_default(active, header, found["mem_active"]), stat)
    reads, writes = col("read_iops"), col("write_iops")
    iops = col("iops")
    if iops is None and reads is not None and writes is not None:
        iops = np.where(np.isnan(reads) & np.isnan(writes), np.nan,
                        np.nan_to_num(reads) + np.nan_to_num(writes))
    if iops is not None and (v := statistic(iops, stat)) is not None:
        m.iops = v
        m.sources["io"] = f"{src}: IOPS"
        if reads is not None and writes is not None:
            total = np.nansum(reads) + np.nansum(writes)
            if total > 0:
                m.read_pct = float(np.nansum(reads) / total * 100.0)
        rk, wk = col("read_kbps", "kbps"), col("write_kbps", "kbps")
        if rk is not None and wk is not None and np.nansum(iops) > 0:
            m.io_kb = float((np.nansum(rk) + np.nansum(wk)) / np.nansum(iops))
        lat = col("latency")
        rl, wl = col("read_latency"), col("write_latency")
        if lat is None and rl is not None and wl is not None and reads is not None \
                and writes is not None:
            w = np.nan_to_num(reads) + np.nan_to_num(writes)
            lat = (np.nan_to_num(rl) * np.nan_to_num(reads)
                   + np.nan_to_num(wl) * np.nan_to_num(writes)) / np.where(w > 0, w, np.nan)
        if lat is not None:
            m.latency_ms = statistic(lat, stat)
        oio = col("oio")
        if oio is not None:
            m.oio = statistic(oio, stat)
    net = col("net", "mbps")
    if net is not None and (v := statistic(net, stat)) is not None:
        m.net_mbps = v
        m.sources["net"] = f"{src}: network usage"
    return m


def _kb_default(values: np.ndarray, header: list[str], i: int) -> np.ndarray:
    """Aria reports memory in KB unless its header names a unit."""
    if re.search(r"\((k|m|g|t)i?b\)", header[i].lower()):
        return values
    return values / 1024.0


SUFFIXES = (".csv", ".txt", ".tsv")


def is_aria_view(path: Path) -> bool:
    """Whether ``path`` looks like an Aria Operations view export: a text file with a name
    column (Name, Object Name, Virtual Machine) among its first rows."""
    return path.suffix.lower() in SUFFIXES and _header_index(head_rows(path)) >= 0


IMPORTER = Importer(
    id="aria", name="Aria Operations", title="Aria Operations CSV view",
    description="an Aria Operations CSV view export",
    source=Option("source", "path", help="the view exported as CSV"), command="calibrate",
    patterns=("*.csv",), suffixes=SUFFIXES, sniff=is_aria_view, read_measurements=read,
)
