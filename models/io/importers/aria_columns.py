"""The columns of an Aria Operations (vRealize Operations) view as it is exported: what each
header names, in which unit, and how its cells read.

A metric header is ``<Object>|<Group>[|<Sub-group>]|<Metric>[ (<unit>)]|<Transformation>``:
``Host|CPU|Demand|Max``, ``Cluster|Memory|Utilization (MB)|Avg``, ``VM|CPU|Demand (MHz)|Avg``.
The object (VM, Host, Cluster) and the transformation (Avg, Max, Min, Last, ...) are optional
(a view's own column names, ``CPU|Demand (GHz)``, carry neither).  The unit appears only when
it is part of the metric's name or the view set it; without one a metric reads in its default
unit, from its metric key (VMware's metric definitions): CPU demand, usage and capacity in
MHz, a VM's consumed and active memory in KB, a host's or cluster's memory utilisation in MB
(as Aria shows it; checked against the host's memory where the design is known), network in
KBps, latency in ms, contention and ready in %.  Cells are English numbers with thousands
separators (``1,546.6``), ``-`` when missing, and may carry a unit of their own when the view
scales them (``34.89 GHz``, ``1.47 TB``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

OBJECTS = {"vm": "vm", "virtual machine": "vm", "host": "host", "host system": "host",
           "esxi host": "host", "cluster": "cluster", "cluster compute resource": "cluster"}
TRANSFORMS = re.compile(r"^(avg|average|max|maximum|min|minimum|last|first|sum|current|"
                        r"standard deviation|count|median|.*percentile.*|forecast.*|trend.*)$")
UNITS: dict[str, dict[str, float]] = {
    "mhz": {"hz": 1e-6, "khz": 1e-3, "mhz": 1.0, "ghz": 1000.0},
    "mib": {"b": 1 / 2**20, "bytes": 1 / 2**20, "kb": 1 / 1024, "kib": 1 / 1024, "mb": 1.0,
            "mib": 1.0, "gb": 1024.0, "gib": 1024.0, "tb": 1024.0**2, "tib": 1024.0**2},
    "mbps": {"kbps": 8 / 1000, "kb/s": 8 / 1000, "kbit/s": 1e-3, "mbit/s": 1.0, "mbps": 1.0,
             "gbit/s": 1000.0, "gbps": 1000.0, "mb/s": 8.0},
    "kbps": {"kbps": 1.0, "kb/s": 1.0, "mbps": 1024.0, "mb/s": 1024.0},
    "pct": {"%": 1.0},
    "ms": {"ms": 1.0, "s": 1000.0, "us": 1e-3},
    "": {},
}
"""Base unit of a kind of figure -> units seen in headers and cells, and their factor."""


@dataclass(frozen=True)
class Column:
    index: int
    header: str
    object: str
    """``vm``, ``host``, ``cluster``, or empty (a view's own column name)."""
    key: str
    """The metric without object, unit and transformation, lower case: ``cpu|demand``."""
    unit: str
    """The header's unit, lower case (``mhz``, ``%``), or empty."""
    transform: str
    """``avg``, ``max``, ``last``, ... or empty."""


def parse(index: int, header: str) -> Column:
    """What a header names."""
    parts = [p.strip() for p in header.split("|")]
    transform = ""
    if len(parts) > 1 and TRANSFORMS.match(parts[-1].lower()):
        transform = parts.pop().lower()
    obj = ""
    if len(parts) > 1 and parts[0].lower() in OBJECTS:
        obj = OBJECTS[parts.pop(0).lower()]
    unit = ""
    m = re.search(r"\(([^)]*)\)\s*$", parts[-1]) if parts else None
    if m:
        unit = m.group(1).strip().lower()
        parts[-1] = parts[-1][:m.start()].strip()
    return Column(index, header, obj, "|".join(p.lower() for p in parts), unit, transform)


Matcher = Callable[[Column], bool]


def _has(*words: str, unit: str | None = None, no: tuple[str, ...] = ()) -> Matcher:
    """All ``words`` in the key (or the header), none of ``no``; ``unit``: ``%`` only a
    percentage, ``-`` anything but one."""
    def match(c: Column) -> bool:
        text = c.key + " " + c.header.lower()
        if not all(w in text for w in words) or any(w in text for w in no):
            return False
        if unit == "%":
            return c.unit == "%" or "%" in c.key
        if unit == "-":
            return c.unit != "%" and "%" not in c.key and "percent" not in text
        return True
    return match


def _any(*ms: Matcher) -> Matcher:
    return lambda c: any(m(c) for m in ms)


@dataclass(frozen=True)
class Figure:
    name: str
    match: Matcher
    kind: str
    """The base unit's kind (:data:`UNITS`)."""
    default: str
    """The unit when the header names none (from the metric key)."""


CAPACITY = ("capacity", "provisioned", "entitlement", "limit", "reservation", "available")
FIGURES: tuple[Figure, ...] = (
    Figure("cpu_demand_pct", _has("cpu", "demand", unit="%"), "pct", "%"),
    Figure("cpu_demand", _has("cpu", "demand", unit="-", no=CAPACITY), "mhz", "mhz"),
    Figure("cpu_usage_pct", _has("cpu", "usage", unit="%"), "pct", "%"),
    Figure("cpu_usage", _any(_has("cpu", "usage", unit="-", no=CAPACITY),
                             _has("cpu", "used", unit="-", no=CAPACITY)), "mhz", "mhz"),
    Figure("cpu_capacity", _has("cpu", "total capacity", unit="-"), "mhz", "mhz"),
    Figure("cpu_contention", _has("cpu", "contention"), "pct", "%"),
    Figure("cpu_ready", _has("cpu", "ready", no=("ms",)), "pct", "%"),
    Figure("mem_usage_pct", _any(_has("mem", "usage", unit="%"),
                                 _has("mem", "utilization", unit="%")), "pct", "%"),
    Figure("mem_util", _has("mem", "utilization", unit="-", no=CAPACITY), "mib", "mb"),
    Figure("mem_capacity", _has("mem", "total capacity", unit="-"), "mib", "mb"),
    Figure("mem_consumed", _has("mem", "consumed", unit="-"), "mib", "kb"),
    Figure("mem_active", _any(_has("mem", "active", unit="-"),
                              _has("mem", "demand", unit="-", no=("machine",))), "mib", "kb"),
    Figure("iops", _any(_has("iops", no=("read", "write")),
                        _has("commands per second", no=("read", "write")),
                        _has("commands/s", no=("read", "write")),
                        _has("number of commands", no=("read", "write"))), "", ""),
    Figure("read_iops", _any(_has("read", "iops"), _has("reads per second"),
                             _has("read requests"), _has("read", "per second")), "", ""),
    Figure("write_iops", _any(_has("write", "iops"), _has("writes per second"),
                              _has("write requests"), _has("write", "per second")), "", ""),
    Figure("latency", _any(_has("latency", no=("read", "write", "network", "cpu", "mem")),
                           _has("response time", no=("read", "write"))), "ms", "ms"),
    Figure("read_latency", _has("read", "latency"), "ms", "ms"),
    Figure("write_latency", _has("write", "latency"), "ms", "ms"),
    Figure("read_kbps", _has("read", "rate"), "kbps", "kbps"),
    Figure("write_kbps", _has("write", "rate"), "kbps", "kbps"),
    Figure("oio", _any(_has("outstanding"), _has("oio")), "", ""),
    Figure("net", _any(_has("network", "usage"), _has("network", "throughput"),
                       _has("net", "usage rate")), "mbps", "kbps"),
)
"""Figure -> its test on a column; the first figure a column passes is what it is."""


def factor(unit: str, kind: str) -> float | None:
    """The factor from ``unit`` to ``kind``'s base unit; None for a unit not of that kind."""
    table = UNITS.get(kind, {})
    u = unit.strip().lower()
    if not table:
        return 1.0 if not u else None
    if u in table:
        return table[u]
    for name, scale in sorted(table.items(), key=lambda kv: -len(kv[0])):
        if re.search(rf"(^|[^a-z]){re.escape(name)}($|[^a-z])", u):
            return scale
    return None


NUMBER = re.compile(r"^\s*(-?[\d.,]+)\s*([A-Za-z%/]*)\s*$")


def number(cell: object, kind: str, scale: float) -> float:
    """A cell as a number of ``kind``'s base unit: ``scale`` converts the header's unit, a
    unit in the cell (``34.89 GHz``) converts by itself.  NaN for ``-``, text or nothing."""
    s = str(cell if cell is not None else "").replace("\u00a0", " ").strip()
    m = NUMBER.match(s)
    if not m:
        return float("nan")
    t, unit = m.group(1), m.group(2)
    if re.fullmatch(r"-?\d{1,3}(,\d{3})+(\.\d+)?", t):
        t = t.replace(",", "")
    elif t.count(",") == 1 and "." not in t:
        t = t.replace(",", ".")
    try:
        value = float(t)
    except ValueError:
        return float("nan")
    if unit:
        f = factor(unit, kind)
        if f is not None:
            return value * f
    return value * scale
