"""The baseline check: predicted against recorded, per host and per VM, and where an imported
design's figures come from.

:func:`check` compares the design's base prediction with what the estate recorded: per host
the CPU and memory utilisation (percentage points; "not measured" stays None, never 0), per
VM the IOPS, latency and CPU MHz; a host's IOPS and a cluster's CPU and memory where they were
recorded (:mod:`models.analysis.recorded`).  It names what the baseline had to add or take away
to meet the record, so that nothing is hidden: the *partial* hosts (they run more VMs than the
export lists on them: ``measured.vms`` over ``measured.vms_listed``) and their *background*
load (the unlisted VMs' load: the recorded usage the listed VMs do not explain,
``background.*``), and the hosts whose measured VMs add up to more than the host recorded
(their CPU scaled to the record).  A host the export lists completely has no background: what
its record and its VMs disagree by is the model's error, and its residual shows it.  The
target on real exports is a median absolute host residual within 5 points and a 90th
percentile within 10 (issue 15).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from models.analysis import latency, recorded
from models.core.compiled import compile_design
from models.core.platform import HT_THROUGHPUT, REF_GHZ, host_speed, processor_text
from models.core.prediction import Prediction
from models.document.design import Component, Design
from models.document.numbers import NOT_MEASURED, counted
from models.document.words import kind_count
from models.engine.evaluation import run

TARGET_MEDIAN = 5.0
"""Median absolute host residual (percentage points) the baseline aims at (issue 15)."""
TARGET_P90 = 10.0

SCALED = "; scaled x"
"""How a measured VM's provenance marks the share of its host's record it was scaled to."""


@dataclass
class HostResidual:
    id: str
    name: str
    cpu_predicted: float | None
    cpu_recorded: float | None
    memory_predicted: float | None
    memory_recorded: float | None
    """Percent of the host's capacity; None where not recorded (or, predicted, not
    measured)."""
    background_cpu: float | None = None
    background_memory: float | None = None
    """The host's background load (recorded, not explained by its VMs in the design), in
    percent of its capacity; None where it has none."""
    vms_recorded: int | None = None
    vms_listed: int | None = None
    """VMs the host runs by the inventory, and those the export lists on it."""
    iops_predicted: float | None = None
    """Its VMs' IOPS and its background I/O."""
    iops_recorded: float | None = None
    background_iops: float | None = None
    """The I/O it recorded beyond its VMs' (``background.iops``, as served)."""
    recorded: dict[str, float] = field(default_factory=dict)
    """Recorded figures without a prediction (CPU demand, contention, ready: %)."""

    @property
    def cpu_residual(self) -> float | None:
        return _diff(self.cpu_predicted, self.cpu_recorded)

    @property
    def memory_residual(self) -> float | None:
        return _diff(self.memory_predicted, self.memory_recorded)

    @property
    def partial(self) -> bool:
        """Whether the host runs VMs the export does not list."""
        return (self.vms_recorded is not None and self.vms_listed is not None
                and self.vms_recorded > self.vms_listed)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "cpu_predicted_pct": self.cpu_predicted,
                "cpu_recorded_pct": self.cpu_recorded, "cpu_residual": self.cpu_residual,
                "memory_predicted_pct": self.memory_predicted,
                "memory_recorded_pct": self.memory_recorded,
                "memory_residual": self.memory_residual,
                "background_cpu_pct": self.background_cpu,
                "background_memory_pct": self.background_memory,
                "vms_recorded": self.vms_recorded, "vms_listed": self.vms_listed,
                "partial": self.partial, "iops_predicted": self.iops_predicted,
                "iops_recorded": self.iops_recorded, "background_iops": self.background_iops,
                "recorded": dict(self.recorded)}

    def partial_line(self) -> str:
        """``esx01: 39 VMs recorded, 36 in the export; background CPU 12.0%, memory 8.1%``."""
        return (f"{self.name}: {counted(self.vms_recorded or 0, 'VM')} recorded,"
                f" {self.vms_listed or 0:,} in the export; background CPU"
                f" {_pct(self.background_cpu).strip()}, memory"
                f" {_pct(self.background_memory).strip()}")


@dataclass
class VmResidual:
    id: str
    name: str
    iops_predicted: float | None
    iops_recorded: float | None
    latency_predicted: float | None
    latency_recorded: float | None
    """The model's mean latency and the recorded average (like with like)."""
    cpu_mhz_predicted: float | None
    cpu_mhz_recorded: float | None
    provenance: dict[str, str] = field(default_factory=dict)
    p95_predicted: float | None = None
    peak_recorded: float | None = None
    """The model's p95 latency and the recorded peak (the highest sample, or the p95 or
    maximum of the samples)."""

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "iops_predicted": self.iops_predicted,
                "iops_recorded": self.iops_recorded,
                "latency_ms_predicted": self.latency_predicted,
                "latency_ms_recorded": self.latency_recorded,
                "p95_latency_ms_predicted": self.p95_predicted,
                "peak_latency_ms_recorded": self.peak_recorded,
                "cpu_mhz_predicted": self.cpu_mhz_predicted,
                "cpu_mhz_recorded": self.cpu_mhz_recorded, "provenance": dict(self.provenance)}


def _diff(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else a - b


def _stats(values: list[float]) -> dict[str, float | int | None]:
    if not values:
        return {"hosts": 0, "median": None, "p90": None, "max": None}
    a = np.array(values)
    return {"hosts": len(values), "median": float(np.median(a)),
            "p90": float(np.percentile(a, 90)), "max": float(a.max())}


@dataclass
class BaselineCheck:
    """Predicted against recorded for the design's base scenario."""

    hosts: list[HostResidual]
    vms: list[VmResidual]
    vms_without_io: int
    vms_without_cpu: int
    vms_total: int
    scaled: dict[str, float] = field(default_factory=dict)
    """Host id -> the factor its measured VMs' CPU was scaled by to meet its record."""
    clusters: list[HostResidual] = field(default_factory=list)
    """Clusters that recorded their utilisation (an Aria Operations cluster view)."""
    iops: dict[str, recorded.HostIops] = field(default_factory=dict)
    """Host id -> its IOPS, for the hosts that recorded them."""
    arrays: list[latency.ArrayLatency] = field(default_factory=list)
    """Arrays whose VMs recorded their average latency: the model's beside the record's."""

    def stats(self, what: str) -> dict[str, float | int | None]:
        """Median, 90th percentile and largest absolute residual of ``cpu`` or ``memory``
        over the hosts that recorded it (points), and how many hosts that is."""
        return _stats([abs(r) for r in (h.cpu_residual if what == "cpu" else h.memory_residual
                                        for h in self.hosts) if r is not None])

    def background_stats(self, what: str) -> dict[str, float | int | None]:
        """The same over the partial hosts' background load (points of the host; 0 where
        none) on the partial hosts that recorded ``what`` (a complete host has none)."""
        cpu = what == "cpu"
        return _stats([(h.background_cpu if cpu else h.background_memory) or 0.0
                       for h in self.partial
                       if (h.cpu_recorded if cpu else h.memory_recorded) is not None])

    @property
    def partial(self) -> list[HostResidual]:
        """The hosts that run VMs the export does not list, the most unlisted first."""
        return sorted((h for h in self.hosts if h.partial),
                      key=lambda h: -((h.vms_recorded or 0) - (h.vms_listed or 0)))

    @property
    def not_measured(self) -> list[HostResidual]:
        """Hosts whose predicted CPU nothing measured (None: their VMs measured nothing and
        the host recorded nothing)."""
        return [h for h in self.hosts if h.cpu_predicted is None]

    def vm_stats(self) -> dict[str, float | int | None]:
        """Median relative IOPS residual and median latency residual (ms) over the VMs that
        recorded them."""
        iops = [abs(v.iops_predicted - v.iops_recorded) / max(v.iops_recorded, 1e-9)
                for v in self.vms if v.iops_predicted is not None
                and v.iops_recorded is not None and v.iops_recorded > 0]
        lat = [abs(v.latency_predicted - v.latency_recorded) for v in self.vms
               if v.latency_predicted is not None and v.latency_recorded is not None]
        peak = [abs(v.p95_predicted - v.peak_recorded) for v in self.vms
                if v.p95_predicted is not None and v.peak_recorded is not None]
        return {"vms_iops": len(iops), "iops_median_rel": float(np.median(iops)) if iops
                else None, "vms_latency": len(lat),
                "latency_median_ms": float(np.median(lat)) if lat else None,
                "vms_peak_latency": len(peak),
                "peak_latency_median_ms": float(np.median(peak)) if peak else None}

    @property
    def within_target(self) -> bool | None:
        """Whether host CPU and memory residuals meet the target (None: nothing recorded)."""
        verdicts = []
        for what in ("cpu", "memory"):
            s = self.stats(what)
            if s["hosts"]:
                verdicts.append(float(s["median"] or 0) <= TARGET_MEDIAN
                                and float(s["p90"] or 0) <= TARGET_P90)
        return all(verdicts) if verdicts else None

    def lines(self, limit: int = 10, partial_limit: int = 10) -> list[str]:
        """The check as text: residuals, the target, the ``limit`` worst hosts, then the
        partial hosts one a line (``partial_limit`` of them, then a count), the background,
        the scaled hosts and what the VMs lack."""
        out = ["baseline check (predicted - recorded, percentage points):"]
        for what, label in (("cpu", "host CPU"), ("memory", "host memory")):
            s = self.stats(what)
            if s["hosts"]:
                out.append(f"  {label:<12} median {s['median']:.1f}  p90 {s['p90']:.1f}  max"
                           f" {s['max']:.1f} over {kind_count('host', int(s['hosts']))}")
            else:
                out.append(f"  {label:<12} nothing recorded to compare with")
        if self.iops:
            names = {h.id: h.name for h in self.hosts}
            out += recorded.iops_lines(list(self.iops.values()),
                                       [names.get(k, k) for k in self.iops])
        verdict = self.within_target
        if verdict is not None:
            out.append(f"  target (median <= {TARGET_MEDIAN:g}, p90 <= {TARGET_P90:g}):"
                       f" {'met' if verdict else 'not met'}")
        worst = sorted((h for h in self.hosts if h.cpu_residual is not None
                        or h.memory_residual is not None),
                       key=lambda h: -max(abs(h.cpu_residual or 0), abs(h.memory_residual or 0)))
        for h in worst[:limit]:
            out.append(f"  {h.name:<24} CPU {_pct(h.cpu_predicted)} vs {_pct(h.cpu_recorded)}"
                       f"  memory {_pct(h.memory_predicted)} vs {_pct(h.memory_recorded)}"
                       + _more(h))
        for h in self.clusters:
            out.append(f"  cluster {h.name:<16} CPU {_pct(h.cpu_predicted)} vs"
                       f" {_pct(h.cpu_recorded)}  memory {_pct(h.memory_predicted)} vs"
                       f" {_pct(h.memory_recorded)}" + _more(h))
        out += self._partial_lines(partial_limit)
        out += self._added_lines()
        v = self.vm_stats()
        if v["vms_iops"]:
            out.append(f"  VM IOPS      median {float(v['iops_median_rel'] or 0):.1%} off over"
                       f" {kind_count('vm', int(v['vms_iops']))}")
        if v["vms_latency"]:
            out.append(f"  VM latency   average: median {float(v['latency_median_ms'] or 0):.2f}"
                       f" ms off over {kind_count('vm', int(v['vms_latency']))} (the model's mean"
                       " against the recorded average)")
        if v["vms_peak_latency"]:
            out.append(f"  VM latency   peak: median {float(v['peak_latency_median_ms'] or 0):.2f}"
                       f" ms off over {kind_count('vm', int(v['vms_peak_latency']))} (the model's"
                       " p95 against the recorded peak)")
        out += latency.check_lines(self.arrays)
        if self.vms_without_io:
            out.append(f"  {self.vms_without_io:,} of {kind_count('vm', self.vms_total)} lack"
                       " I/O data:"
                       " their storage figures read 'not measured'")
        if self.vms_without_cpu:
            out.append(f"  {self.vms_without_cpu:,} of {kind_count('vm', self.vms_total)} have"
                       " no measured CPU (shared from their host's record where there is one)")
        return out

    def _partial_lines(self, limit: int) -> list[str]:
        partial = self.partial
        if not partial:
            return []
        out = [f"  {counted(len(partial), 'partial host')}: they run VMs the export does not list"
               " (a filter, or host names that differ between sheets); the unlisted VMs'"
               " load, their recorded usage less the listed VMs', is their background load"]
        out += [f"    {h.partial_line()}" for h in partial[:limit]]
        if len(partial) > limit:
            out.append(f"    ... and {counted(len(partial) - limit, 'more partial host')} (headroom"
                       " calibrate DESIGN --check --json lists all)")
        return out

    def _added_lines(self) -> list[str]:
        out = []
        for what, label in (("cpu", "CPU"), ("memory", "memory")):
            s = self.background_stats(what)
            if s["hosts"]:
                out.append(f"  background {label} (the unlisted VMs' load):"
                           f" median {s['median']:.1f}  p90 {s['p90']:.1f}  max"
                           f" {s['max']:.1f} points of the host over"
                           f" {counted(int(s['hosts']), 'partial host')}")
        if self.scaled:
            low, high = min(self.scaled.values()), max(self.scaled.values())
            by = f"x{low:.2f}" if f"{low:.2f}" == f"{high:.2f}" else f"x{low:.2f} to x{high:.2f}"
            out.append(f"  {counted(len(self.scaled), 'host')} whose VMs' measured CPU adds up"
                       " to more than the host recorded (VM usage counts each hyperthread, the"
                       f" host's each core; samples a moment apart): their VMs scaled to it"
                       f" ({by})")
        unknown = self.not_measured
        if unknown:
            hosts = counted(len(unknown), "host's", "hosts'")
            out.append(f"  {hosts} CPU not measured (no VM on them measured any, nor did the"
                       " host record its usage)")
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"format": "headroom-baseline-check", "version": 1,
                "summary": {"cpu": self.stats("cpu"), "memory": self.stats("memory"),
                            "vms": self.vm_stats(), "within_target": self.within_target,
                            "target": {"median": TARGET_MEDIAN, "p90": TARGET_P90},
                            "vms_without_io": self.vms_without_io,
                            "vms_without_cpu": self.vms_without_cpu,
                            "vms_measured_profile": self.vms_total,
                            "partial_hosts": len(self.partial),
                            "background": {"cpu": self.background_stats("cpu"),
                                           "memory": self.background_stats("memory")},
                            "scaled_hosts": {k: round(v, 4) for k, v in self.scaled.items()},
                            "hosts_not_measured": len(self.not_measured)},
                "hosts": [h.to_dict() for h in self.hosts],
                "clusters": [h.to_dict() for h in self.clusters],
                "arrays": [a.to_dict() for a in self.arrays],
                "vms": [v.to_dict() for v in self.vms]}


def _pct(x: float | None) -> str:
    return "  -  " if x is None else f"{x:5.1f}%"


def _more(h: HostResidual) -> str:
    """A check line's recorded IOPS and the figures without a prediction."""
    parts = []
    if h.iops_recorded is not None:
        own = f" ({h.background_iops:,.0f} background)" if h.background_iops else ""
        parts.append(f"IOPS {h.iops_predicted or 0:,.0f} vs {h.iops_recorded:,.0f}{own}")
    parts += [f"{label} {v:.1f}%" for label, v in h.recorded.items()]
    return ("  " + ", ".join(parts)) if parts else ""


def background_pct(comp: Component) -> tuple[float | None, float | None]:
    """A host's background CPU and memory in percent of its capacity (None: none)."""
    cores = _num(comp.get("background.cpu_cores"))
    memory = _num(comp.get("background.memory_gb"))
    cpu = None
    if cores is not None:
        ghz = _num(comp.get("ghz")) or REF_GHZ
        speed = host_speed(ghz, _num(comp.get("specrate_per_core")) or math.nan,
                           str(comp.get("cpu_model") or ""))
        own = speed * REF_GHZ if speed is not None else ghz  # the clock its speed stands for
        clock = _num(comp.get("background.cpu_ghz")) or own
        cap = float(comp.get("sockets") or 0) * float(comp.get("cores_per_socket") or 0) * (
            HT_THROUGHPUT if comp.get("hyperthreading") else 1.0)
        cpu = cores * clock / own / cap * 100.0 if cap > 0 else None
    installed = _num(comp.get("memory_gb"))
    mem = memory / installed * 100.0 if memory is not None and installed else None
    return cpu, mem


def check(design: Design, prediction: Prediction | None = None) -> BaselineCheck:
    """Predicted against recorded, per host and per VM, for ``design``'s base scenario."""
    pred = prediction if prediction is not None else run(compile_design(design))
    by_id = {c.id: c for c in design.components}
    hosts = []
    ghz: dict[str, float] = {}
    ht: dict[str, float] = {}
    n_hosts = max(len(pred.hosts.ids), 1)
    iops = recorded.host_iops(design, pred)
    for i, hid in enumerate(pred.hosts.ids):
        comp = by_id[hid]
        ghz[hid] = _num(comp.get("ghz")) or 2.4
        ht[hid] = HT_THROUGHPUT if comp.get("hyperthreading") else 1.0
        cpu_rec, mem_rec = comp.get("measured.cpu_pct"), comp.get("measured.memory_pct")
        bg_cpu, bg_mem = background_pct(comp)
        runs, listed = comp.get("measured.vms"), comp.get("measured.vms_listed")
        hosts.append(HostResidual(
            hid, pred.hosts.names[i], _finite(pred.hosts.cpu_util[i] * 100.0),
            _num(cpu_rec), _finite(pred.hosts.memory_util[i] * 100.0), _num(mem_rec),
            bg_cpu, bg_mem, runs if isinstance(runs, int) else None,
            listed if isinstance(listed, int) else None,
            iops_predicted=iops[hid].predicted if hid in iops else None,
            iops_recorded=iops[hid].recorded if hid in iops else None,
            background_iops=iops[hid].background if hid in iops else None,
            recorded=recorded.extras(comp)))
    # an unplaced VM's MHz convert at the hosts' mean clock, as solve() converted them
    mean = (sum(ghz.values()) / n_hosts if ghz else 2.4, sum(ht.values()) / n_hosts
            if ht else 1.0)
    vms = []
    scaled: dict[str, float] = {}
    without_io = without_cpu = total = 0
    v = pred.vms
    for i, vid in enumerate(v.ids):
        comp = by_id[vid]
        if comp.get("workload.profile") != "measured":
            continue
        total += 1
        without_io += bool(v.io_not_measured[i]) if len(v.io_not_measured) else 0
        mhz_rec = _num(comp.get("measured.cpu_mhz"))
        without_cpu += mhz_rec is None
        host = v.host[i]
        g, f = (ghz[host], ht[host]) if host in ghz else mean
        cores = float(v.cpu_cores[i]) if len(v.cpu_cores) else float("nan")
        why = str(comp.get("provenance.cpu") or "")
        if SCALED in why and host is not None:
            scaled[host] = _scale_of(why)
        peak = _num(comp.get("measured.latency_peak_ms"))
        vms.append(VmResidual(
            vid, v.names[i], _finite(v.iops[i]), _num(comp.get("measured.iops")),
            _finite(v.latency_ms[i]) if comp.get("measured.latency_ms") is not None else None,
            _num(comp.get("measured.latency_ms")), _finite(cores / f * g * 1000.0),
            mhz_rec, {k: str(comp.get(f"provenance.{k}")) for k in ("cpu", "memory", "io")},
            _finite(v.p95_latency_ms[i]) if peak is not None else None, peak))
    clusters = [HostResidual(f.id, f.name, f.cpu_predicted, f.cpu_recorded,
                             f.memory_predicted, f.memory_recorded, recorded=f.extras)
                for f in recorded.clusters(design, pred)]
    return BaselineCheck(hosts, vms, without_io, without_cpu, total, scaled, clusters, iops,
                         latency.arrays(design, pred))


def _scale_of(text: str) -> float:
    try:
        return float(text.split(SCALED, 1)[1].split(" ", 1)[0])
    except (IndexError, ValueError):
        return math.nan


def _num(v: Any) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _finite(x: float) -> float | None:
    f = float(x)
    return f if math.isfinite(f) else None


# =========================================================================== provenance


def provenance_lines(comp: Any) -> list[tuple[str, str]]:
    """Where a component's workload figures come from, as (figure, text) pairs for the
    inspector, tooltips and reports: a VM's CPU, memory, storage I/O and network, a host's
    processor, recorded utilisation, its VM count and background load.  Empty for kinds without
    measured figures."""
    out: list[tuple[str, str]] = []
    if comp.kind == "vm":
        profile = str(comp.get("workload.profile"))
        if profile != "measured":
            return [("workload", f"assumed: profile {profile}"
                     + (" (chosen)" if "workload.profile" in comp.props else " (the default)"))]
        mhz, iops = comp.get("measured.cpu_mhz"), comp.get("measured.iops")
        consumed = comp.get("measured.memory_consumed_gb")
        for key, label, figure in (
                ("cpu", "CPU", f"{mhz:,.0f} MHz" if isinstance(mhz, (int, float)) else ""),
                ("memory", "memory", f"{consumed:,.1f} GB consumed"
                 if isinstance(consumed, (int, float)) else ""),
                ("io", "storage I/O", f"{iops:,.0f} IOPS" if isinstance(iops, (int, float))
                 else ""),
                ("net", "network", "")):
            text = str(comp.get(f"provenance.{key}") or "")
            if key == "net" and not text.startswith("measured"):
                continue
            out.append((label, (f"{figure}, " if figure and text.startswith("measured")
                                else "") + (text or NOT_MEASURED)))
    elif comp.kind in ("host", "nic"):
        if comp.kind == "host":  # what its cores are worth, and where that comes from
            out.append(("processor", processor_text(
                {k: comp.get(k) for k in ("ghz", "cpu_model", "specrate_per_core")})))
        text = str(comp.get("provenance.measured") or "")
        if comp.kind == "host":
            cpu, mem = comp.get("measured.cpu_pct"), comp.get("measured.memory_pct")
            figures = ", ".join(f"{label} {v:.0f}%" for label, v in (("CPU", cpu),
                                                                     ("memory", mem))
                                if isinstance(v, (int, float)))
        else:
            mbps = comp.get("measured.mbps")
            figures = f"{mbps:,.0f} Mbit/s" if isinstance(mbps, (int, float)) else ""
        if figures:
            out.append(("recorded", f"{figures} ({text})" if text else figures))
        if comp.kind == "host":
            out += _host_lines(comp)
    return out


def _host_lines(comp: Any) -> list[tuple[str, str]]:
    """A host's VM count (partial: fewer listed than it runs) and background load."""
    out: list[tuple[str, str]] = []
    recorded, listed = comp.get("measured.vms"), comp.get("measured.vms_listed")
    if isinstance(recorded, int) and isinstance(listed, int) and recorded > listed:
        out.append(("VMs", f"partial: {counted(recorded, 'VM')} recorded, {listed:,} in the"
                            " export"))
    cpu, mem = background_pct(comp)
    if cpu is not None or mem is not None:
        figures = ", ".join(f"{label} {v:.1f}%" for label, v in (("CPU", cpu), ("memory", mem))
                            if v is not None)
        text = str(comp.get("provenance.background") or "")
        out.append(("background", f"{figures} ({text})" if text else figures))
    return out
