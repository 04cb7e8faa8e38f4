"""Number and unit formatting shared by the knob panel, dashboard, charts and scenario bar.

One place decides how a figure reads on screen, so a tile, a table cell and a test that
compares a tile's text with the prediction all agree.  The KPIs themselves (what each figure
is, its unit and studies) are :mod:`models.engine.kpis`; here is how they read.
"""

from __future__ import annotations

import math

from models.document.schema import Value
from models.engine.kpis import KPI_BY_KEY, Kpi, busiest, busiest_wan, slowest_library_job
from models.engine.prediction import Prediction

MIXED = "mixed"
"""Shown where the selected components disagree on a value."""
NONE = "–"
"""Shown where a figure is not modelled (NaN) or not defined."""


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
    return text


def si(x: float | None, digits: int = 3) -> str:
    """Large counts shortened with k/M (``123.5k``); small ones as :func:`number`."""
    if x is None or not math.isfinite(x):
        return NONE
    for factor, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= 10 * factor:
            return number(x / factor, digits) + suffix
    return number(x, digits)


def with_unit(x: float | None, unit: str, digits: int = 3) -> str:
    """``number`` followed by its unit (none for fractions and unitless figures)."""
    text = number(x, digits)
    if text == NONE or not unit or unit == "fraction":
        return text
    return f"{text} {unit}"


def percent(fraction: float | None, digits: int = 3) -> str:
    """A fraction as a percentage (``0.873`` -> ``87.3 %``)."""
    if fraction is None or not math.isfinite(fraction):
        return NONE
    return number(fraction * 100.0, digits) + " %"


def value(v: Value, unit: str = "") -> str:
    """A property value as the knob panel shows it (``None`` reads as mixed)."""
    if v is None:
        return MIXED
    if isinstance(v, bool):
        return "on" if v else "off"
    if isinstance(v, str):
        return v
    if unit == "fraction":
        return number(float(v))
    return with_unit(float(v), unit)


CHOICE_TEXT: dict[tuple[str, str], str] = {
    ("vaio_filter", "null"): "null filter (pass-through)",
    ("vaio_filter", "cache"): "caching filter",
    ("vaio_filter", "replication"): "replication filter",
}
"""How a choice reads where its bare name would mislead ("null" is the VAIO study's
pass-through filter, not a missing value); keyed by (property, choice)."""


def count(n: int, word: str) -> str:
    """``1 host``, ``470 VMs``: a count and its word, plural with an s."""
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def choice(prop: str, v: Value, unit: str = "") -> str:
    """A knob or property value as shown, with :data:`CHOICE_TEXT` for named choices."""
    if isinstance(v, str):
        return CHOICE_TEXT.get((prop, v), v)
    return value(v, unit)


SAME_REL = 1e-5
"""Changes smaller than this share of the figure are solver noise (the fixed-point
iterations stop at a relative tolerance): shown as ``±0``, not ``+0.00203 IOPS``."""


def delta(new: float | None, base: float | None, unit: str = "", digits: int = 3) -> str:
    """The change from ``base`` to ``new``: ``+12.5 ms (+8.1 %)``; ``±0`` when unchanged."""
    if new is None or base is None or not (math.isfinite(new) and math.isfinite(base)):
        return NONE
    d = new - base
    if abs(d) <= SAME_REL * max(abs(new), abs(base)):
        return "±0"
    sign = "+" if d > 0 else "−"
    text = sign + number(abs(d), digits)
    if unit and unit != "fraction":
        text += f" {unit}"
    if base != 0:
        text += f" ({sign}{number(abs(d) / abs(base) * 100.0, 2)} %)"
    return text


def signed_percent(error: float) -> str:
    """A relative error as a signed percentage (``-0.042`` -> ``−4.2 %``)."""
    if not math.isfinite(error):
        return NONE
    sign = "+" if error > 0 else ("−" if error < 0 else "")
    return f"{sign}{number(abs(error) * 100.0, 2)} %"


# --------------------------------------------------------------------------- KPIs


def kpi_value(kpi: Kpi, v: float | None) -> str:
    """A value of ``kpi`` as a tile shows it (large counts shortened where the KPI asks)."""
    if kpi.short:
        return si(v) + (f" {kpi.unit}" if v is not None else "")
    return with_unit(v, kpi.unit)


def kpi_text(kpi: Kpi, p: Prediction | None) -> str:
    """``kpi``'s figure in prediction ``p`` as a tile shows it."""
    return kpi_value(kpi, kpi.value(p) if p is not None else None)


def kpi_detail(key: str, p: Prediction | None, value: object = ...) -> str:
    """The small line under a KPI's figure (the binding limit for consolidation, what is
    missing when there is nothing to measure); ``value``, when the caller has it already,
    saves computing the figure again."""
    if p is None:
        return ""
    kpi = KPI_BY_KEY[key]
    if kpi.absent and (kpi.value(p) if value is ... else value) is None:
        return kpi.absent
    c = p.consolidation
    if key == "vms_per_host":
        return (f"max {number(c.max_vms_per_host_by_cpu)} by CPU, "
                f"{number(c.max_vms_per_host_by_p95)} by p95")
    if key == "hosts_needed":
        return f"binding limit: {c.binding or 'none'}"
    if key == "p95_response_ms":
        return f"mean {with_unit(p.mean_response_ms, 'ms')}"
    if key == "ft_logging_mbps":
        return f"{int(p.vms.ft.sum())} FT-protected VMs"
    if key == "wan_pct":
        wan = busiest_wan(p)
        return wan.explanation if wan is not None else ""
    if key == "library_min":
        t = slowest_library_job(p)
        if t is None:
            return ""
        bound = f", bound by {t['bound_by']}" if t.get("bound_by") else ""
        return f"{t['name'] or t['id']} ({t['operation']}){bound}"
    if key == "network_gbps":
        nic = busiest(p, "nic")
        if nic is None:
            return "no NIC in the design"
        return f"busiest NIC {nic.component} {percent(nic.util)}"
    return ""
