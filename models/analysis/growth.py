"""Growth over years as a what-if: the design evaluated in year 0, 1, ... N at compound rates
(:mod:`models.core.growth`), each year's hosts needed with what binds, utilisation, storage
used against usable, licensed cores and vSAN TiB, and the month each cluster first needs more
hosts than it has, naming the resource.

Year n is exactly the design with ``design.growth.year`` set to n and the same rates (one
engine, one compile, the year patched in: ``evaluate --set design.growth.year=n`` gives the
same figures).  The month a cluster runs out is found among the months of the first year in
which it needs more hosts than it has (hosts needed only grow with positive rates), one
evaluation a month of that year.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from models.core.growth import RESOURCES
from models.core.prediction import Prediction
from models.document.design import Design, DesignError, Issue, Override
from models.document.numbers import counted, percent, with_unit
from models.engine.evaluation import Engine
from models.engine.kpis import limit_text

GIB_PER_TIB = 1024.0
MAX_YEARS = 30


@dataclass
class Year:
    """The design in one year."""

    year: float
    hosts: int
    hosts_needed: int | None
    binding: str | None
    cpu_util_mean: float | None
    memory_util_mean: float | None
    cpu_util_max: float | None
    memory_util_max: float | None
    storage_used_tib: float
    storage_usable_tib: float | None
    """The arrays' known capacity and the vSAN clusters' usable after reserves (None:
    nothing states one)."""
    p95_latency_ms: float | None
    licensed_cores: int | None
    vsan_raw_tib: float | None
    clusters: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class RunsOut:
    """The month a cluster first needs more hosts than it has."""

    cluster: str
    name: str
    resource: str | None
    """What binds then (``cpu``, ``memory``, ``storage``, ...)."""
    month: int
    """Months from today (1: within the first month)."""
    hosts: int
    hosts_needed: int

    @property
    def text(self) -> str:
        when = f"in month {self.month} (year {-(-self.month // 12)})"
        return (f"{cluster_words(self.name)} runs out {when}:"
                f" {limit_text(self.resource, True)} needs"
                f" {counted(self.hosts_needed, 'host')}, it has {self.hosts:,}")

    def to_dict(self) -> dict[str, Any]:
        return {"cluster": self.cluster, "name": self.name, "resource": self.resource,
                "month": self.month, "hosts": self.hosts, "hosts_needed": self.hosts_needed,
                "text": self.text}


@dataclass
class GrowthResult:
    rates: dict[str, float]
    """Per resource, % a year (``cpu``, ``memory``, ``storage``, ``iops``, ``vms``)."""
    years: list[Year]
    runs_out: list[RunsOut]
    already_short: list[str] = field(default_factory=list)
    """Clusters that need more hosts than they have today (year 0)."""

    def to_dict(self) -> dict[str, Any]:
        return {"rates": dict(self.rates), "years": [y.to_dict() for y in self.years],
                "runs_out": [r.to_dict() for r in self.runs_out],
                "already_short": list(self.already_short)}


def cluster_words(name: str) -> str:
    """``cluster prod``; a name that says it is a cluster as it is (``Cluster1``)."""
    return name if name.lower().startswith("cluster") else f"cluster {name}"


def rates_of(design: Design, given: Mapping[str, float | None]) -> dict[str, float]:
    """Each resource's rate: given, else the design's ``growth.<resource>_pct``."""
    out = {}
    for r in RESOURCES:
        v = given.get(r)
        stated = design.policy_value(f"growth.{r}_pct")
        out[r] = float(v) if v is not None else float(stated)  # type: ignore[arg-type]
    return out


def overrides(rates: Mapping[str, float], year: float | None = None) -> list[Override]:
    """The design overrides that set ``rates`` (and ``year``)."""
    out = [Override("design", f"growth.{r}_pct", float(v)) for r, v in rates.items()]
    if year is not None:
        out.append(Override("design", "growth.year", float(year)))
    return out


def grow(design: Design, years: int, rates: Mapping[str, float | None] | None = None,
         check: Callable[[], None] | None = None) -> GrowthResult:
    """``design`` (a scenario already applied) evaluated in years 0..``years`` at ``rates``
    (% a year per resource; missing ones the design's own); ``check`` is called before each
    evaluation (a background task's: it raises when cancelled, so Cancel stops the run within
    one evaluation)."""
    if not 1 <= years <= MAX_YEARS:
        raise DesignError([Issue("grow", f"--years takes 1 to {MAX_YEARS}, got {years}")])
    r = rates_of(design, rates or {})
    engine = Engine(design)
    for ov in overrides(r, 0.0):
        engine.patch(ov)

    def at(year: float) -> Prediction:
        if check is not None:
            check()
        engine.patch(Override("design", "growth.year", float(year)))
        return engine.evaluate()

    out: list[Year] = []
    preds: list[Prediction] = []
    for y in range(years + 1):
        p = at(y)
        preds.append(p)
        out.append(_year(float(y), p))
    short_now = [c["name"] for c in out[0].clusters if _short(c)]
    runs: list[RunsOut] = []
    for cid in [c["id"] for c in out[0].clusters if not _short(c)]:
        first = next((y for y in range(1, years + 1)
                      if _short(_cluster(out[y], cid))), None)
        if first is None:
            continue
        for month in range(12 * (first - 1) + 1, 12 * first + 1):
            row = _cluster(_year(month / 12.0, at(month / 12.0)), cid)
            if _short(row):
                runs.append(RunsOut(cid, row["name"], row["binding"], month, row["hosts"],
                                    row["hosts_needed"]))
                break
    runs.sort(key=lambda x: x.month)
    at(0.0)
    return GrowthResult(r, out, runs, short_now)


def _short(c: Mapping[str, Any]) -> bool:
    return c["hosts_needed"] is not None and c["hosts"] > 0 and c["hosts_needed"] > c["hosts"]


def _cluster(y: Year, cid: str) -> dict[str, Any]:
    return next(c for c in y.clusters if c["id"] == cid)


def _year(year: float, p: Prediction) -> Year:
    cap = p.sections.capacity
    cpu = np.asarray(p.hosts.cpu_util, np.float64)
    mem = np.asarray(p.hosts.memory_util, np.float64)
    arrays = [a for a in cap.storage.arrays if a.capacity_gb] if cap is not None else []
    vsan = list(cap.vsan or []) if cap is not None else []
    used = (sum(a.used_gb for a in cap.storage.arrays) + cap.storage.vms_without_array_gb) \
        / GIB_PER_TIB + sum(v.data_tib for v in vsan) if cap is not None else 0.0
    usable = sum(a.capacity_gb or 0.0 for a in arrays) / GIB_PER_TIB \
        + sum(v.usable_tib for v in vsan)
    lic = cap.licensing if cap is not None else None
    clusters = [{"id": g.id, "name": g.name, "hosts": g.hosts, "hosts_needed": g.hosts_needed,
                 "binding": g.binding,
                 "cpu_util_mean": g.cpu_demand_cores / g.cpu_capacity_cores
                 if g.cpu_capacity_cores else None,
                 "memory_util_mean": g.memory_gb / g.memory_capacity_gb
                 if g.memory_capacity_gb else None}
                for g in (cap.clusters if cap is not None else []) if g.hosts or g.vms]
    io = p.total_iops > 0
    return Year(
        year=year, hosts=len(p.hosts.ids), hosts_needed=p.consolidation.hosts_needed,
        binding=p.consolidation.binding, cpu_util_mean=_mean(cpu),
        memory_util_mean=_mean(mem), cpu_util_max=_max(cpu), memory_util_max=_max(mem),
        storage_used_tib=used, storage_usable_tib=usable if arrays or vsan else None,
        p95_latency_ms=p.p95_latency_ms if io else None,
        licensed_cores=lic.licensed_cores if lic is not None else None,
        vsan_raw_tib=sum(v.raw_tib for v in vsan) if vsan else None, clusters=clusters)


def _mean(x: np.ndarray) -> float | None:
    x = x[~np.isnan(x)]
    return float(x.mean()) if len(x) else None


def _max(x: np.ndarray) -> float | None:
    x = x[~np.isnan(x)]
    return float(x.max()) if len(x) else None


def lines(r: GrowthResult) -> list[str]:
    """The years in words, a line each, then when each cluster runs out."""
    shown = [f"{k} {with_unit(v, '%')}" for k, v in r.rates.items() if v]
    out = ["rates a year: " + ", ".join(shown) if shown else "no growth: every rate is 0"]
    for y in r.years:
        store = with_unit(y.storage_used_tib, "TiB") + (
            f" of {with_unit(y.storage_usable_tib, 'TiB')}" if y.storage_usable_tib else "")
        p95 = f", p95 {with_unit(y.p95_latency_ms, 'ms')}" if y.p95_latency_ms else ""
        lic = f", {counted(y.licensed_cores, 'licensed core')}" if y.licensed_cores else ""
        need = "none" if y.hosts_needed is None else f"{y.hosts_needed:,}"
        out.append(f"year {y.year:g}: {need} of {counted(y.hosts, 'host')} needed"
                   f" ({limit_text(y.binding, True)}), CPU mean {percent(y.cpu_util_mean)}"
                   f" busiest {percent(y.cpu_util_max)}, memory mean"
                   f" {percent(y.memory_util_mean)} busiest {percent(y.memory_util_max)},"
                   f" storage {store}{p95}{lic}")
        for c in y.clusters:
            if c["hosts_needed"] is not None and c["hosts"]:
                out.append(f"    {cluster_words(c['name'])}: {c['hosts_needed']:,} of"
                           f" {counted(c['hosts'], 'host')} needed"
                           f" ({limit_text(c['binding'], True)})")
    for name in r.already_short:
        out.append(f"{cluster_words(name)} needs more hosts than it has already today")
    out += [x.text for x in r.runs_out]
    if not r.runs_out and not r.already_short:
        out.append(f"no cluster runs out within {counted(len(r.years) - 1, 'year')}")
    return out
