"""How every figure, unit, count, change and id reads on screen, in the app and the CLI.

One place decides how a figure reads, so a tile, a table cell, a status line and a test that
compares a tile's text with the prediction all agree:

- one format per quantity: about three significant digits with thousands separators, whole
  numbers shown whole (``74,983 IOPS``, ``27.3 ms``), never ``75k`` beside ``7,263``;
- the unit chosen per magnitude (``9.1 Mbit/s`` rather than ``0.0091 Gbit/s``, ``16 KB``
  rather than ``16,384 bytes``, ``10 s`` rather than ``10,000 ms``);
- counts and count units singular for one (``1 drive``, ``1 FT-protected VM``);
- a change below the models' resolution reads ``no change`` (:data:`RESOLUTION`);
- components by their names, properties and choices by their labels
  (:func:`models.document.schema.prop_label`), resources in words, and no calibration case
  ids in a sentence (:func:`plain`).

The KPIs themselves (what each figure is, its unit and studies) are
:mod:`models.engine.kpis`; here is how they read.  No Qt: the command line uses it too.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from functools import cache

import numpy as np

from models.core.prediction import Prediction, Resource
from models.document.schema import Value, choice_label
from models.document.words import counted
from models.engine.kpis import (
    KPI_BY_KEY,
    Kpi,
    busiest,
    busiest_wan,
    change_unit,
    slowest_library_job,
)

MIXED = "mixed"
"""Shown where the selected components disagree on a value."""
NONE = "–"
"""Shown where a figure is not modelled (NaN) or not defined."""
NO_CHANGE = "no change"
"""A change smaller than :data:`RESOLUTION`."""


def number(x: float | None, digits: int = 3) -> str:
    """``x`` with about ``digits`` significant digits and thousands separators.

    >>> number(123456.7)
    '123,457'
    >>> number(0.01234)
    '0.0123'
    >>> number(4.0)
    '4'
    """
    if x is None or not math.isfinite(x):
        return NONE
    if x == 0:
        return "0"
    mag = math.floor(math.log10(abs(x)))
    decimals = max(0, digits - 1 - mag)
    text = f"{x:,.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "−0") else text


def si(x: float | None, digits: int = 3) -> str:
    """Large counts shortened with k/M (``123.5k``); small ones as :func:`number`.  For axis
    ticks and tight report cells only: a figure on screen reads as :func:`with_unit`."""
    if x is None or not math.isfinite(x):
        return NONE
    for factor, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= 10 * factor:
            return number(x / factor, digits) + suffix
    return number(x, digits)


# --------------------------------------------------------------------------- units

_FAMILIES: tuple[tuple[tuple[str, float], ...], ...] = (
    (("bit/s", 1.0), ("kbit/s", 1e3), ("Mbit/s", 1e6), ("Gbit/s", 1e9), ("Tbit/s", 1e12)),
    (("bytes", 1.0), ("KB", 1024.0), ("MB", 1024.0 ** 2), ("GB", 1024.0 ** 3),
     ("TB", 1024.0 ** 4)),
    (("KB/s", 1e3), ("MB/s", 1e6), ("GB/s", 1e9)),
    (("µs", 1e-3), ("ms", 1.0), ("s", 1e3), ("min", 6e4), ("h", 3.6e6)),
)
"""Units that step to the next one as a figure grows, with their size in the first unit."""
_STEP_UP = {"ms": 10_000.0, "s": 120.0, "min": 120.0}
"""How much of a unit it takes to step up to the next (default: one of the next): a
response of 10,000 ms reads 10 s, but 90 min stays 90 min."""
_STEP_DOWN = {"ms": 0.01}
"""Below how much of a unit it steps down to the next smaller one (default: 1)."""
_ALIASES = {"us": "µs"}


def scaled(x: float, unit: str) -> tuple[float, str]:
    """``x`` in the unit of its family that suits its magnitude: ``(0.0091, "Gbit/s")`` is
    ``(9.1, "Mbit/s")``; a unit of no family (``%``, ``IOPS``) is kept."""
    unit = _ALIASES.get(unit, unit)
    family = next((f for f in _FAMILIES if unit in dict(f)), None)
    if family is None or x == 0 or not math.isfinite(x):
        return x, unit
    names = [name for name, _ in family]
    sizes = dict(family)
    i = names.index(unit)
    size = abs(x) * sizes[unit]  # in the family's first unit
    while i + 1 < len(names) and size >= sizes[names[i + 1]] \
            and size / sizes[names[i]] >= _STEP_UP.get(names[i], 0.0):
        i += 1
    while i > 0 and size / sizes[names[i]] < _STEP_DOWN.get(names[i], 1.0):
        i -= 1
    return math.copysign(size / sizes[names[i]], x), names[i]


SINGULAR = {"drives": "drive", "hosts": "host", "ports": "port", "sockets": "socket",
            "cores": "core", "lanes": "lane", "I/Os": "I/O", "items": "item",
            "transfers": "transfer", "containers": "container", "streams": "stream",
            "vCPUs": "vCPU", "shares": "share", "VMs": "VM", "bytes": "byte",
            "desktops": "desktop", "receivers": "receiver", "round trips": "round trip",
            "users": "user", "datastores": "datastore", "VMs per host": "VM per host"}
"""Count units and their singular (``1 drive``)."""


def with_unit(x: float | None, unit: str, digits: int = 3) -> str:
    """A figure and its unit as shown everywhere: the unit per magnitude (:func:`scaled`),
    singular for one (``1 drive``), none for fractions and unitless figures."""
    if x is None or not math.isfinite(x):
        return NONE
    if not unit or unit == "fraction":
        return number(x, digits)
    x, unit = scaled(x, unit)
    text = number(x, digits)
    if text == "1":
        unit = SINGULAR.get(unit, unit)
    return f"{text} {unit}"


def span(lo: float, hi: float, unit: str, digits: int = 3) -> str:
    """``30.1–32.2 ms``: a range with one unit, the one that suits its upper end."""
    top, name = scaled(hi, unit) if unit and unit != "fraction" else (hi, "")
    factor = top / hi if hi else 1.0
    text = f"{number(lo * factor, digits)}–{number(top, digits)}"
    return f"{text} {name}" if name else text


def percent(fraction: float | None, digits: int = 3) -> str:
    """A fraction as a percentage (``0.873`` -> ``87.3 %``)."""
    if fraction is None or not math.isfinite(fraction):
        return NONE
    v = fraction * 100.0
    if v != 0 and abs(v) < 0.01:
        return "< 0.01 %" if v > 0 else "> −0.01 %"
    if abs(v) < 1:  # at most two decimals: 0.02 %, not 0.0242 %
        return f"{v:.2f}".rstrip("0").rstrip(".") + " %"
    return number(v, digits) + " %"


def signed_percent(error: float) -> str:
    """A relative error as a signed percentage (``-0.042`` -> ``−4.2 %``)."""
    if not math.isfinite(error):
        return NONE
    if abs(error) < 5e-5:  # below 0.005 %: rounding in the model, not an error
        return "0 %"
    sign = "+" if error > 0 else "−"
    return f"{sign}{number(abs(error) * 100.0, 2)} %"


count = counted
"""``1 host``, ``470 VMs``, ``1 FT-protected VM``: a count and its word, plural with an s
(or ``plural``) unless it is one (the models' own, :func:`models.document.words.counted`)."""


def value(v: Value, unit: str = "") -> str:
    """A property value as the knob panel shows it (``None`` reads as mixed)."""
    if v is None:
        return MIXED
    if isinstance(v, bool):
        return "on" if v else "off"
    if isinstance(v, str):
        return choice_label(v)
    return with_unit(float(v), unit)


def choice(prop: str, v: Value, unit: str = "") -> str:
    """A knob or property value as shown: a named choice in words (``raid5`` reads
    ``RAID 5``, the VAIO ``null`` filter ``null filter (pass-through)``)."""
    del prop  # the words of a choice are the same for every property that offers it
    return value(v, unit)


# --------------------------------------------------------------------------- changes

RESOLUTION = 1e-3
"""Changes smaller than this share of the figure are below what the models resolve (their
coefficients carry two or three significant digits from the studies, and the fixed-point
solvers stop at a relative tolerance): they read :data:`NO_CHANGE`, not ``−2.28 IOPS
(−0.003 %)``."""


def unchanged(new: float, base: float) -> bool:
    """Whether ``new`` and ``base`` differ by less than :data:`RESOLUTION` of the figure."""
    return abs(new - base) <= RESOLUTION * max(abs(new), abs(base))


def delta(new: float | None, base: float | None, unit: str = "", digits: int = 3) -> str:
    """The change from ``base`` to ``new``: ``+12.5 ms (+8.1 %)``, ``+1.65 points (+4 %)`` for
    a percentage; ``no change`` below the models' resolution."""
    if new is None or base is None or not (math.isfinite(new) and math.isfinite(base)):
        return NONE
    if unchanged(new, base):
        return NO_CHANGE
    d = new - base
    sign = "+" if d > 0 else "−"
    # a change of a percentage is in points (41.5 % -> 43.2 % is +1.7 points, +4 %)
    text = sign + with_unit(abs(d), change_unit(unit), digits)
    if base != 0:
        text += f" ({sign}{number(abs(d) / abs(base) * 100.0, 2)} %)"
    return text


# --------------------------------------------------------------------------- KPIs

Names = Callable[[str], str]
"""Component id -> the name the user knows it by."""


def _same(cid: str) -> str:
    return cid


SATURATED = "saturated"
"""An unbounded time (a queue past its capacity: the KPI table gives it as infinity)."""


def kpi_value(kpi: Kpi, v: float | None) -> str:
    """A value of ``kpi`` as a tile, a table cell and the report show it."""
    if v is not None and math.isinf(v):
        return SATURATED
    return with_unit(v, kpi.unit)


def kpi_text(kpi: Kpi, p: Prediction | None) -> str:
    """``kpi``'s figure in prediction ``p`` as a tile shows it."""
    return kpi_value(kpi, kpi.value(p) if p is not None else None)


def kpi_detail(key: str, p: Prediction | None, value: object = ...,
               name: Names = _same) -> str:
    """The small line under a KPI's figure (the binding limit for consolidation, what is
    missing when there is nothing to measure); ``value``, when the caller has it already,
    saves computing the figure again; ``name`` gives components their names."""
    if p is None:
        return ""
    kpi = KPI_BY_KEY[key]
    util = p.hosts.cpu_util if key == "host_cpu_pct" else p.hosts.memory_util
    if key in ("host_cpu_pct", "host_memory_pct") and len(util) \
            and not np.isfinite(util).any():
        return "not measured"  # NaN: nothing measured the hosts' figure (never 0)
    if kpi.absent and (kpi.value(p) if value is ... else value) is None:
        return kpi.absent
    c = p.consolidation
    if key in ("host_cpu_pct", "host_memory_pct"):
        i = int(np.nanargmax(util))
        if len(util) == 1:  # the mean is that host's own figure
            return name(p.hosts.ids[i])
        return f"busiest {name(p.hosts.ids[i])} at {_unbroken(percent(float(util[i])))}"
    if key == "vms_per_host":
        return (f"max {number(c.max_vms_per_host_by_cpu)} by CPU, "
                f"{number(c.max_vms_per_host_by_p95)} by p95")
    if key == "hosts_needed":
        return f"binding limit: {LIMIT_WORDS.get(c.binding or '', c.binding or 'none')}"
    if key == "p95_response_ms":
        return f"mean {with_unit(p.mean_response_ms, 'ms')}"
    if key == "ft_logging_mbps":
        return count(int(p.vms.ft.sum()), "FT-protected VM")
    if key == "wan_pct":
        wan = busiest_wan(p)
        return wan.explanation if wan is not None else ""
    if key == "library_min":
        t = slowest_library_job(p)
        if t is None:
            return ""
        bound = f", bound by {t.bound_by}" if t.bound_by else ""
        return f"{t.name or name(t.id)} ({t.operation}){bound}"
    if key == "network_gbps":
        nic = busiest(p, "nic")
        if nic is None:
            return "no NIC in the design"
        return f"busiest NIC {name(nic.component)} at {_unbroken(percent(nic.util))}"
    return ""


def _unbroken(figure: str) -> str:
    """A figure and its unit kept on one line where a narrow tile wraps ("100 %", not "100"
    above "%")."""
    return figure.replace(" ", "\u00a0")


LIMIT_WORDS = {"cpu": "CPU", "p95": "p95 response", "memory": "memory", "none": "none"}
"""The consolidation's binding limits in words."""


# --------------------------------------------------------------------------- words

RESOURCE_WORDS = {"host_cpu": "CPU", "host_memory": "memory", "nic": "NIC",
                  "ft_logging_nic": "FT logging NIC", "hba": "HBA ports", "array": "drives",
                  "vcpu_io": "vCPU I/O issue", "wan": "WAN link", "pcie": "PCIe slot",
                  "multicast_replication": "multicast replication"}
"""How a resource of the bottleneck list reads (``array`` is its drives)."""


def resource_text(resource: str) -> str:
    return RESOURCE_WORDS.get(resource, resource.replace("_", " "))


def bottleneck(r: Resource, name: Names = _same) -> str:
    """``Intel S3700 SSD drives at 100 %``: a resource of the bottleneck list in words."""
    return f"{name(r.component)} {resource_text(r.resource)} at {percent(r.util)}"


_KIND_WORDS = r"(?:host|hosts|vm|VM|VMs|nic|NIC|array|storage_array|site|wan|WAN|library" \
              r"|content library|link)"


def plain(text: str, names: dict[str, str], case_ids: Iterable[str] = ()) -> str:
    """``text`` (a model's warning or explanation) with the components it names by id given
    by name (``host h1`` reads ``host Dell R720``) and the calibration case ids it cites
    left out (``(ft6-network-10gbps-ms-latency)``).  ``names`` maps ids to names (only ids
    whose name differs need be there).

    An id is replaced where a kind word leads it (``host h1``, ``content library 'pub'``),
    where it opens the text (``h1: VMs demand ...``), or anywhere when it holds a digit (ids
    such as ``v12``); so a library called ``export`` leaves the word "export" alone."""
    for cid in case_ids:
        if cid in text:
            text = re.sub(rf"\s*\(\s*{re.escape(cid)}\s*\)", "", text)
            text = re.sub(rf"\s*[,;]\s*{re.escape(cid)}(?=\))", "", text)
            text = re.sub(rf"\s*\(\s*{re.escape(cid)}\s*[,;]\s*", " (", text)
    words = set(re.findall(r"[\w~.-]+", text))  # only the ids the text holds are looked up
    words |= {w.rstrip(".-~") for w in words}  # "h1." at the end of a sentence
    cited = sorted((w for w in words if w in names), key=len, reverse=True)
    for cid in cited:
        name = names[cid]
        if not name or name == cid:
            continue
        word = re.escape(cid)
        text = re.sub(rf"(\b{_KIND_WORDS} )'?{word}'?(?![\w~-])", rf"\g<1>{_escape(name)}",
                      text)
        text = re.sub(rf"^{word}(?=:)", _escape(name), text)
        if any(ch.isdigit() for ch in cid):
            text = re.sub(rf"(?<![\w~'-]){word}(?![\w~-])", _escape(name), text)
    return re.sub(r"\b(vm|nic)(?= )", lambda m: m.group(1).upper(), text)


def _escape(name: str) -> str:
    return name.replace("\\", r"\\")


@cache
def case_ids() -> tuple[str, ...]:
    """The calibration case ids (a warning that cites one leaves it out on screen)."""
    from models.calibration import cases  # noqa: PLC0415 (reads the case file once)

    return tuple(sorted(cases(), key=len, reverse=True))
