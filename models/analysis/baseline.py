"""The baseline: solve each measured VM's free workload figures so that the design reproduces
what the estate measured, then check predicted against recorded.

A VM imported from an estate runs the ``measured`` profile and keeps what was measured in
``measured.*`` (with ``provenance.*`` saying from where).  :func:`solve` turns that into the
figures the engine reads, per VM:

* **storage I/O**: an open loop at the measured rate (``workload.io_iops``) with the measured
  read share and I/O size; a VM without measured I/O does none ("not measured");
* **memory**: ``workload.memory_gb`` = measured consumed memory;
* **CPU**: ``workload.cpu_pct`` such that the VM's whole demand on its host - guest work plus
  the I/O path and the hypervisor's cost that the engine adds for its I/O - equals the
  measured MHz.  vCenter's usage MHz is a share of the host's cores x clock; the model's
  host capacity counts a hyperthreaded core as ``HT_THROUGHPUT`` (1.22) cores, so a measured
  MHz is taken as the same share of that capacity.  The demand is linear in ``cpu_pct``
  below the VM's vCPUs, so two evaluations (at 0 and 100%) give each VM's intercept and
  slope.

VMs without a measured figure take a share of what their host recorded (RVTools vHost CPU
usage % and Memory usage %) beyond what the measured VMs explain, in proportion to their
vCPUs (CPU) or configured memory; their provenance says ``solved: ...``.  Whatever is not
explained stays as the residual of :func:`check`: predicted against recorded per host (CPU
and memory utilisation, percentage points) and per VM (IOPS, latency, CPU MHz).  The target
on real exports is a median absolute host residual within 5 points and a 90th percentile
within 10; the check shows the residual rather than hiding it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from models.analysis import recorded
from models.core.compiled import Compiled, compile_design
from models.core.platform import HT_THROUGHPUT, compute
from models.core.prediction import Prediction
from models.document.design import Design, Value
from models.document.schema import VM
from models.document.words import kind_count
from models.engine.evaluation import run

TARGET_MEDIAN = 5.0
"""Median absolute host residual (percentage points) the baseline aims at (issue 15)."""
TARGET_P90 = 10.0

Changes = dict[str, dict[str, Value]]
"""Component id -> {property: new value} (None removes an explicit value)."""


# =========================================================================== solve


def solve(design: Design) -> Changes:
    """The workload figures that reproduce the measured estate, as property changes (the
    design is not modified: :func:`apply` or an undoable edit applies them)."""
    vms = [c for c in design.of_kind("vm") if c.get("workload.profile") == "measured"]
    if not vms:
        return {}
    changes: Changes = {}
    work = design.copy()
    by_id = {c.id: c for c in work.components}
    for vm in vms:
        ch = _io_and_memory(vm.props)
        changes[vm.id] = ch
        by_id[vm.id].props.update({k: v for k, v in ch.items() if v is not None})
        for prop, value in ch.items():
            if value is None:
                by_id[vm.id].props.pop(prop, None)
        by_id[vm.id].props.pop("workload.cpu_ghz", None)  # solved at its host's own clock
    c = compile_design(work)
    idx = np.array([c.vm.index[v.id] for v in vms], dtype=np.int64)
    col = c.vm.cols["workload.cpu_pct"]
    col[idx] = 0.0
    cores0 = run(c).vms.cpu_cores.copy()
    col[idx] = 100.0
    cores100 = run(c).vms.cpu_cores.copy()
    slope = np.maximum((cores100 - cores0) / 100.0, 1e-12)
    host_cap = _host_cap(c)
    ghz = c.host.cols["ghz"]
    speed_ghz = compute(c).clock_ghz
    ht = np.where(c.host.cols["hyperthreading"], HT_THROUGHPUT, 1.0)
    mean_clock = (float(np.mean(ghz)), float(np.mean(ht))) if len(ghz) else (2.4, 1.0)
    pct = np.zeros(len(c.vm))
    measured = np.zeros(len(c.vm), bool)
    for k, vm in zip(idx.tolist(), vms, strict=True):
        mhz = vm.get("measured.cpu_mhz")
        if not isinstance(mhz, (int, float)):
            continue
        h = int(c.vm_host[k])
        g, f = (float(ghz[h]), float(ht[h])) if h >= 0 else mean_clock
        target = float(mhz) / (g * 1000.0) * f
        pct[k] = _clamp((target - cores0[k]) / slope[k])
        measured[k] = True
    in_scope = np.zeros(len(c.vm), bool)
    in_scope[idx] = True
    cpu_share = _host_share(c, design, in_scope & ~measured, cores0 + slope * pct, "cpu",
                            host_cap)
    for k, vm in zip(idx.tolist(), vms, strict=True):
        if k in cpu_share:
            target, why = cpu_share[k]
            pct[k] = _clamp((target - cores0[k]) / slope[k])
            changes[vm.id]["provenance.cpu"] = why
        elif not measured[k]:
            changes[vm.id]["provenance.cpu"] = "not measured (counted as idle)"
        changes[vm.id]["workload.cpu_pct"] = round(float(pct[k]), 6)
        # the clock that share was solved at: a what-if of another clock scales the work
        h = int(c.vm_host[k])
        # (as a reference core's clock: the host's per-core speed x 2.4 GHz, so that a host
        # of another processor scales the work by the speed of both)
        changes[vm.id]["workload.cpu_ghz"] = float(speed_ghz[h]) if h >= 0 else None
    held = c.vm.cols["workload.memory_gb"]
    no_memory = np.isnan(held)
    held = np.where(no_memory, c.vm.cols["memory_gb"], held)
    shares = _host_share(c, design, in_scope & no_memory, held, "memory", host_cap)
    configured = c.vm.cols["memory_gb"]
    for j, (gb, why) in shares.items():  # a VM holds at most what it is configured with
        changes[c.vm.ids[j]]["workload.memory_gb"] = round(min(gb, float(configured[j])), 4)
        changes[c.vm.ids[j]]["provenance.memory"] = why
    return changes


def apply(design: Design, changes: Changes) -> None:
    """Apply :func:`solve`'s changes to ``design`` in place."""
    for comp in design.components:
        ch = changes.get(comp.id)
        if not ch:
            continue
        for k, v in ch.items():
            if v is None:
                comp.props.pop(k, None)
            else:
                comp.props[k] = v


def _clamp(pct: float) -> float:
    return min(max(pct, 0.0), 100.0) if math.isfinite(pct) else 0.0


def _max_memory() -> float:
    return float(VM.props["workload.memory_gb"].max or 24576)


def _io_and_memory(props: dict[str, Value]) -> dict[str, Value]:
    """The I/O and memory figures of one measured VM (its CPU comes later)."""
    ch: dict[str, Value] = {}
    iops = props.get("measured.iops")
    if isinstance(iops, (int, float)):
        ch["workload.io_iops"] = float(iops)
        read = props.get("measured.read_pct")
        if isinstance(read, (int, float)):
            ch["workload.io_read_pct"] = float(read)
        kb = props.get("measured.io_kb")
        if isinstance(kb, (int, float)) and kb > 0:
            spec = VM.props["workload.io_block_kb"]
            ch["workload.io_block_kb"] = min(max(float(kb), float(spec.min or 0.5)),
                                             float(spec.max or 4096))
    else:
        ch["workload.io_iops"] = None
    consumed = props.get("measured.memory_consumed_gb")
    if isinstance(consumed, (int, float)):
        ch["workload.memory_gb"] = min(float(consumed), _max_memory())
    return ch


def _host_cap(c: Compiled) -> np.ndarray:
    return compute(c).capacity


def _host_share(c: Compiled, design: Design, todo: np.ndarray, demand: np.ndarray,
                what: str, host_cap: np.ndarray) -> dict[int, tuple[float, str]]:
    """For the VMs ``todo`` (no measured ``what``, cpu or memory): their share of what their
    host recorded beyond what its other VMs explain (``demand``: core-equivalents or GB per
    VM), by vCPUs (CPU) or configured memory.  Returns VM index -> (figure, provenance)."""
    key = "measured.cpu_pct" if what == "cpu" else "measured.memory_pct"
    recorded = c.host.cols[key]
    total = host_cap if what == "cpu" else c.host.cols["memory_gb"]
    placed = c.vm_host >= 0
    todo = todo & placed
    if not todo.any():
        return {}
    hidx = np.where(placed, c.vm_host, 0)
    weight = c.vm.cols["vcpus"] if what == "cpu" else c.vm.cols["memory_gb"]
    rest = placed & ~todo
    explained = np.bincount(hidx[rest], demand[rest], minlength=len(c.host))
    weights = np.bincount(hidx[todo], weight[todo], minlength=len(c.host))
    names = {comp.id: comp.name or comp.id for comp in design.of_kind("host")}
    basis = "vCPUs" if what == "cpu" else "configured memory"
    label = "CPU usage" if what == "cpu" else "memory usage"
    out: dict[int, tuple[float, str]] = {}
    for k in np.flatnonzero(todo).tolist():
        h = int(hidx[k])
        rec = float(recorded[h])
        if math.isnan(rec) or weights[h] <= 0:
            continue
        left = max(rec / 100.0 * float(total[h]) - float(explained[h]), 0.0)
        hid = c.host.ids[h]
        src = design.component(hid)
        how = str(src.get("provenance.measured")) if src is not None else ""
        out[k] = (left * float(weight[k]) / float(weights[h]),
                  f"solved: share by {basis} of host {names.get(hid, hid)}'s recorded {label}"
                  f" {rec:.0f}% not explained by its measured VMs"
                  + (f" ({how})" if how else ""))
    return out


# =========================================================================== check


@dataclass
class HostResidual:
    id: str
    name: str
    cpu_predicted: float | None
    cpu_recorded: float | None
    memory_predicted: float | None
    memory_recorded: float | None
    """Percent of the host's capacity; None where not recorded."""
    iops_predicted: float | None = None
    iops_recorded: float | None = None
    recorded: dict[str, float] = field(default_factory=dict)
    """Recorded figures without a prediction (CPU demand, contention, ready: %)."""

    @property
    def cpu_residual(self) -> float | None:
        return _diff(self.cpu_predicted, self.cpu_recorded)

    @property
    def memory_residual(self) -> float | None:
        return _diff(self.memory_predicted, self.memory_recorded)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "cpu_predicted_pct": self.cpu_predicted,
                "cpu_recorded_pct": self.cpu_recorded, "cpu_residual": self.cpu_residual,
                "memory_predicted_pct": self.memory_predicted,
                "memory_recorded_pct": self.memory_recorded,
                "memory_residual": self.memory_residual, "iops_predicted": self.iops_predicted,
                "iops_recorded": self.iops_recorded, "recorded": dict(self.recorded)}


@dataclass
class VmResidual:
    id: str
    name: str
    iops_predicted: float | None
    iops_recorded: float | None
    latency_predicted: float | None
    latency_recorded: float | None
    cpu_mhz_predicted: float | None
    cpu_mhz_recorded: float | None
    provenance: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "iops_predicted": self.iops_predicted,
                "iops_recorded": self.iops_recorded,
                "latency_ms_predicted": self.latency_predicted,
                "latency_ms_recorded": self.latency_recorded,
                "cpu_mhz_predicted": self.cpu_mhz_predicted,
                "cpu_mhz_recorded": self.cpu_mhz_recorded, "provenance": dict(self.provenance)}


def _diff(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else a - b


@dataclass
class BaselineCheck:
    """Predicted against recorded for the design's base scenario."""

    hosts: list[HostResidual]
    vms: list[VmResidual]
    vms_without_io: int
    vms_without_cpu: int
    vms_total: int
    clusters: list[HostResidual] = field(default_factory=list)
    """Clusters that recorded their utilisation (an Aria Operations cluster view)."""

    def stats(self, what: str) -> dict[str, float | int | None]:
        """Median, 90th percentile and largest absolute residual of ``cpu`` or ``memory``
        over the hosts that recorded it (points), and how many hosts that is."""
        res = [abs(r) for r in (h.cpu_residual if what == "cpu" else h.memory_residual
                                for h in self.hosts) if r is not None]
        if not res:
            return {"hosts": 0, "median": None, "p90": None, "max": None}
        a = np.array(res)
        return {"hosts": len(res), "median": float(np.median(a)),
                "p90": float(np.percentile(a, 90)), "max": float(a.max())}

    def vm_stats(self) -> dict[str, float | int | None]:
        """Median relative IOPS residual and median latency residual (ms) over the VMs that
        recorded them."""
        iops = [abs(v.iops_predicted - v.iops_recorded) / max(v.iops_recorded, 1e-9)
                for v in self.vms if v.iops_predicted is not None
                and v.iops_recorded is not None and v.iops_recorded > 0]
        lat = [abs(v.latency_predicted - v.latency_recorded) for v in self.vms
               if v.latency_predicted is not None and v.latency_recorded is not None]
        return {"vms_iops": len(iops), "iops_median_rel": float(np.median(iops)) if iops
                else None, "vms_latency": len(lat),
                "latency_median_ms": float(np.median(lat)) if lat else None}

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

    def lines(self, limit: int = 10) -> list[str]:
        out = ["baseline check (predicted - recorded, percentage points):"]
        for what, label in (("cpu", "host CPU"), ("memory", "host memory")):
            s = self.stats(what)
            if s["hosts"]:
                out.append(f"  {label:<12} median {s['median']:.1f}  p90 {s['p90']:.1f}  max"
                           f" {s['max']:.1f} over {kind_count('host', int(s['hosts']))}")
            else:
                out.append(f"  {label:<12} nothing recorded to compare with")
        iops = [(h.iops_predicted, h.iops_recorded) for h in self.hosts
                if h.iops_predicted is not None and h.iops_recorded is not None]
        if iops:
            out.append(recorded.iops_line(iops))
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
        v = self.vm_stats()
        if v["vms_iops"]:
            out.append(f"  VM IOPS      median {float(v['iops_median_rel'] or 0):.1%} off over"
                       f" {kind_count('vm', int(v['vms_iops']))}")
        if v["vms_latency"]:
            out.append(f"  VM latency   median {float(v['latency_median_ms'] or 0):.2f} ms off"
                       f" over {kind_count('vm', int(v['vms_latency']))} (the model's array, not a"
                       " fit)")
        if self.vms_without_io:
            out.append(f"  {self.vms_without_io:,} of {kind_count('vm', self.vms_total)} lack"
                       " I/O data:"
                       " their storage figures read 'not measured'")
        if self.vms_without_cpu:
            out.append(f"  {self.vms_without_cpu:,} of {kind_count('vm', self.vms_total)} have"
                       " no measured CPU (shared from their host's record where there is one)")
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"format": "headroom-baseline-check", "version": 1,
                "summary": {"cpu": self.stats("cpu"), "memory": self.stats("memory"),
                            "vms": self.vm_stats(), "within_target": self.within_target,
                            "target": {"median": TARGET_MEDIAN, "p90": TARGET_P90},
                            "vms_without_io": self.vms_without_io,
                            "vms_without_cpu": self.vms_without_cpu,
                            "vms_measured_profile": self.vms_total},
                "hosts": [h.to_dict() for h in self.hosts],
                "clusters": [h.to_dict() for h in self.clusters],
                "vms": [v.to_dict() for v in self.vms]}


def _pct(x: float | None) -> str:
    return "  -  " if x is None else f"{x:5.1f}%"


def _more(h: HostResidual) -> str:
    """A check line's recorded IOPS and the figures without a prediction."""
    parts = []
    if h.iops_recorded is not None:
        parts.append(f"IOPS {h.iops_predicted or 0:,.0f} vs {h.iops_recorded:,.0f}")
    parts += [f"{label} {v:.1f}%" for label, v in h.recorded.items()]
    return ("  " + ", ".join(parts)) if parts else ""


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
        hosts.append(HostResidual(
            hid, pred.hosts.names[i], _finite(pred.hosts.cpu_util[i] * 100.0),
            _num(cpu_rec), _finite(pred.hosts.memory_util[i] * 100.0), _num(mem_rec),
            iops_predicted=iops[hid][0] if hid in iops else None,
            iops_recorded=iops[hid][1] if hid in iops else None,
            recorded=recorded.extras(comp)))
    # an unplaced VM's MHz convert at the hosts' mean clock, as solve() converted them
    mean = (sum(ghz.values()) / n_hosts if ghz else 2.4, sum(ht.values()) / n_hosts
            if ht else 1.0)
    vms = []
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
        vms.append(VmResidual(
            vid, v.names[i], _finite(v.iops[i]), _num(comp.get("measured.iops")),
            _finite(v.latency_ms[i]) if comp.get("measured.latency_ms") is not None else None,
            _num(comp.get("measured.latency_ms")), _finite(cores / f * g * 1000.0),
            mhz_rec, {k: str(comp.get(f"provenance.{k}")) for k in ("cpu", "memory", "io")}))
    clusters = [HostResidual(f.id, f.name, f.cpu_predicted, f.cpu_recorded,
                             f.memory_predicted, f.memory_recorded, recorded=f.extras)
                for f in recorded.clusters(design, pred)]
    return BaselineCheck(hosts, vms, without_io, without_cpu, total, clusters)


def _num(v: Any) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _finite(x: float) -> float | None:
    f = float(x)
    return f if math.isfinite(f) else None


def calibrate(design: Design) -> BaselineCheck:
    """Solve the baseline into ``design`` (in place) and check it."""
    apply(design, solve(design))
    return check(design)


def calibrate_after_import(design: Design, report: Any) -> BaselineCheck:
    """What an import does last: solve, check, and put the check into the report
    (:class:`models.io.importers.ImportReport`)."""
    result = calibrate(design)
    report.calibration = result.lines()
    return result


# =========================================================================== provenance


def provenance_lines(comp: Any) -> list[tuple[str, str]]:
    """Where a component's workload figures come from, as (figure, text) pairs for the
    inspector, tooltips and reports: a VM's CPU, memory, storage I/O and network, a host's
    recorded utilisation.  Empty for kinds without measured figures."""
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
                                else "") + (text or "not measured")))
    elif comp.kind in ("host", "nic"):
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
    return out
