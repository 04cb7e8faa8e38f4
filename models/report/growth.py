"""Growth over years in words, and in the report.

The words every screen shares: which year a design shows and at what rates ("Year 3 at 15 %
CPU and 20 % memory a year"), and today's demand changes ("measured CPU demand +20 %"): the
dashboard's line under its title, the Growth tab and the report's growth page say them one way.

The report's growth page reads one run of :func:`models.analysis.growth.grow` (what ``headroom
grow`` and Analysis > Growth run) on the reported scenario, made where the design keeps growth
rates, over five years or the horizon asked (``headroom report --years N``): a row per year
(hosts needed and what binds, mean and busiest host CPU and memory, storage used against
usable, licensed cores), each cluster's hosts needed per year, and the month each cluster
runs out.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from models.analysis.growth import GrowthResult, Year, grow
from models.core.demand import RESOURCES as DEMANDS
from models.core.growth import RESOURCES
from models.document.design import Design, DesignError
from models.document.numbers import counted, number, percent, signed_percent, with_unit
from models.engine.kpis import limit_text

HORIZON = 5
"""The years the report shows where the design keeps growth rates and no horizon is asked."""

WORDS = {"cpu": "CPU", "memory": "memory", "storage": "storage", "iops": "I/O", "vms": "VMs"}
"""A resource as the rates name it ("15 % CPU a year")."""

KEYS = (*(f"growth.{r}_pct" for r in RESOURCES), "growth.year",
        *(f"demand.{r}_pct" for r in DEMANDS))
"""The design properties the words read."""

CLUSTERS_SHOWN = 8
"""The most clusters the page lists year by year (those that run out first, then the
tightest)."""


def values_of(design: Design) -> dict[str, float]:
    """The growth rates, the year and the demand changes ``design`` keeps (defaults filled)."""
    return {k: float(design.policy_value(k)) for k in KEYS}  # type: ignore[arg-type]


def rates_text(rates: Mapping[str, float]) -> str:
    """``15 % CPU, 20 % memory and 5 % VMs a year`` (``rates`` by resource, % a year); ``no
    growth`` when every rate is 0."""
    parts = [f"{with_unit(v, '%')} {WORDS[r]}" for r, v in rates.items() if v and r in WORDS]
    if not parts:
        return "no growth"
    return (parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]) \
        + " a year"


def demand_text(values: Mapping[str, float]) -> str:
    """Today's demand changes: ``measured CPU demand +20 %, memory −10 %`` ("" when none)."""
    words = {"cpu": "CPU demand", "memory": "memory held", "storage": "storage used",
             "iops": "I/O and network"}
    parts = [f"{words[r]} {signed_percent(values.get(f'demand.{r}_pct', 0.0) / 100.0)}"
             for r in DEMANDS if values.get(f"demand.{r}_pct", 0.0)]
    return "measured " + ", ".join(parts) if parts else ""


def year_line(values: Mapping[str, float]) -> str:
    """Which year a design shows and at what rates, and today's demand changes: ``Year 3 at
    15 % CPU a year``; ``Measured CPU demand +20 %``; "" for today's figures as they are."""
    year = values.get("growth.year", 0.0)
    rates = {r: values.get(f"growth.{r}_pct", 0.0) for r in RESOURCES}
    parts = []
    if year:
        parts.append(f"Year {number(year)} at {rates_text(rates)}")
    demand = demand_text(values)
    if demand:
        parts.append(demand if parts else demand[:1].upper() + demand[1:])
    return "; ".join(parts)


def has_rates(design: Design) -> bool:
    """Whether ``design`` keeps a growth rate other than 0."""
    return any(float(design.policy_value(f"growth.{r}_pct")) for r in RESOURCES)  # type: ignore[arg-type]


@dataclass
class GrowthView:
    """One growth run of the reported design, and what the page needs to word it."""

    result: GrowthResult
    years: int
    asked: bool
    """The horizon was asked for (``--years``), rather than the design's rates shown over
    :data:`HORIZON` years."""
    year: float
    """The year the rest of the report shows (the design's ``growth.year``)."""


def run(design: Design, years: int | None = None) -> GrowthView | None:
    """Growth of ``design`` (the reported scenario applied) over ``years`` (asked), else over
    :data:`HORIZON` years, where it keeps growth rates; None where it keeps none (every year
    would read as today: a page of the same row), or where the engine cannot evaluate it."""
    if not has_rates(design):
        return None
    year = float(design.policy_value("growth.year"))  # type: ignore[arg-type]
    n = years if years is not None else max(HORIZON, math.ceil(year))
    if not design.of_kind("vm"):
        return None
    try:
        result = grow(design, n)
    except (DesignError, ArithmeticError, ValueError):
        return None
    return GrowthView(result, n, years is not None, year)


def method_text(view: GrowthView) -> str:
    """How the years were computed, under the page's heading."""
    return (f"Years 0 to {view.years} at {rates_text(view.result.rates)}, as headroom grow"
            f" --years {view.years} computes them")


NO_FIT = "a VM fits on no host"
"""Hosts needed where no count would do (the capacity model's None), as the dashboard says."""

COLUMNS = ("Year", "Hosts needed", "What binds", "Host CPU", "Host memory", "Storage used",
           "Licensed cores")


def year_cells(y: Year) -> list[str]:
    """One year's row: hosts needed of the hosts there are, what binds, mean (busiest) CPU and
    memory, storage used of usable, licensed cores."""
    need = NO_FIT if y.hosts_needed is None else f"{y.hosts_needed:,} of {y.hosts:,}"
    store = with_unit(y.storage_used_tib, "TiB") + (
        f" of {with_unit(y.storage_usable_tib, 'TiB')}" if y.storage_usable_tib else "")
    return [number(y.year), need, limit_text(y.binding, True),
            f"{percent(y.cpu_util_mean)} ({percent(y.cpu_util_max)})",
            f"{percent(y.memory_util_mean)} ({percent(y.memory_util_max)})", store,
            f"{y.licensed_cores:,}" if y.licensed_cores else "–"]


def short(y: Year) -> bool:
    """Whether the design needs more hosts than it has in year ``y`` (or no count would do)."""
    return y.hosts_needed is None or y.hosts_needed > y.hosts


def clusters(view: GrowthView) -> list[tuple[str, list[tuple[int | None, int]]]]:
    """Each cluster's (hosts needed, hosts) per year (None: :data:`NO_FIT`, or the cluster
    gone), those that run out first (by month),
    then those short today, then the tightest in the last year; at most
    :data:`CLUSTERS_SHOWN`."""
    r = view.result
    first = r.years[0].clusters
    month = {x.cluster: x.month for x in r.runs_out}
    last = {c["id"]: c for c in r.years[-1].clusters}

    def tight(cid: str) -> float:
        c = last.get(cid)
        return -(c["hosts_needed"] or 0) / max(c["hosts"], 1) if c else 0.0

    order = sorted((c["id"] for c in first if c["hosts_needed"] is not None),
                   key=lambda cid: (month.get(cid, 10 ** 6), tight(cid)))
    out = []
    for cid in order[:CLUSTERS_SHOWN]:
        per_year = []
        for y in r.years:
            c = next((x for x in y.clusters if x["id"] == cid), None)
            per_year.append((c["hosts_needed"], c["hosts"]) if c else (None, 0))
        name = next(c["name"] for c in first if c["id"] == cid)
        out.append((name, per_year))
    return out


def runs_out_lines(view: GrowthView) -> list[str]:
    """When each cluster first needs more hosts than it has, in words, the first first; the
    clusters short already today; or that none runs out within the horizon."""
    r = view.result
    out = [f"Cluster {name} needs more hosts than it has already today." for name in
           r.already_short]
    out += [x.text[:1].upper() + x.text[1:] + "." for x in r.runs_out]
    if not out:
        out.append(f"No cluster runs out within {counted(view.years, 'year')}.")
    return out
