"""What hosts and clusters recorded beyond CPU and memory usage, beside what the design
predicts: a host's IOPS (Live Optics ESX Performance) against the IOPS of its VMs, a cluster's
CPU and memory (an Aria Operations cluster view) against its hosts', and the figures the
model has no prediction of (CPU demand, contention, ready), shown as recorded.

:func:`models.analysis.residuals.check` adds these to its host rows and its cluster rows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from models.core.prediction import Prediction
from models.document.design import Component, Design
from models.document.numbers import counted

EXTRAS = (("measured.cpu_demand_pct", "CPU demand"),
          ("measured.cpu_contention_pct", "contention"),
          ("measured.cpu_ready_pct", "ready"))
"""Recorded figures without a prediction: property and how they read."""


def _num(v: object) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def extras(comp: Component) -> dict[str, float]:
    """A host's or cluster's recorded CPU demand, contention and ready (%), as recorded."""
    return {label: v for key, label in EXTRAS if (v := _num(comp.get(key))) is not None}


@dataclass
class HostIops:
    """A host's recorded IOPS beside the design's: its VMs' (as predicted) and its background
    I/O (what it recorded beyond its VMs', as served), and its VMs' measured IOPS."""

    vms: float
    background: float
    recorded: float
    measured: float

    @property
    def predicted(self) -> float:
        return self.vms + self.background


def host_iops(design: Design, pred: Prediction) -> dict[str, HostIops]:
    """Host id -> its IOPS, for the hosts that recorded them."""
    recorded = {h.id: v for h in design.of_kind("host")
                if (v := _num(h.get("measured.iops"))) is not None}
    if not recorded:
        return {}
    total = dict.fromkeys(recorded, 0.0)
    measured = dict.fromkeys(recorded, 0.0)
    runs = {lk.source: lk.target for lk in design.links if lk.kind == "runs_on"}
    for vm in design.of_kind("vm"):
        host = runs.get(vm.id)
        if host in measured and vm.get("workload.profile") == "measured":
            measured[host] += _num(vm.get("measured.iops")) or 0.0
    for host, iops in zip(pred.vms.host, pred.vms.iops, strict=True):
        if host in total and math.isfinite(float(iops)):
            total[host] += float(iops)
    bg = pred.hosts.background_iops
    own = {hid: float(bg[i]) for i, hid in enumerate(pred.hosts.ids)
           if len(bg) > i and math.isfinite(float(bg[i]))}
    return {h: HostIops(total[h], own.get(h, 0.0), recorded[h], measured[h]) for h in recorded}


@dataclass
class ClusterFigures:
    id: str
    name: str
    cpu_predicted: float | None
    cpu_recorded: float | None
    memory_predicted: float | None
    memory_recorded: float | None
    extras: dict[str, float]


def clusters(design: Design, pred: Prediction) -> list[ClusterFigures]:
    """Per cluster that recorded its CPU or memory: its hosts' predicted utilisation weighted
    by their capacity (cores x clock, memory), beside the recorded figure (%)."""
    recorded = [c for c in design.of_kind("cluster")
                if _num(c.get("measured.cpu_pct")) is not None
                or _num(c.get("measured.memory_pct")) is not None or extras(c)]
    if not recorded:
        return []
    index = {hid: i for i, hid in enumerate(pred.hosts.ids)}
    hosts = {h.id: h for h in design.of_kind("host")}
    members: dict[str, list[int]] = {}
    for lk in design.links:
        if lk.kind == "in_cluster" and lk.source in index:
            members.setdefault(lk.target, []).append(index[lk.source])
    out = []
    for c in recorded:
        idx = members.get(c.id, [])
        cpu = mem = None
        if idx:
            comps = [hosts[pred.hosts.ids[i]] for i in idx]
            cap = np.array([_cap(h) for h in comps])
            gb = np.array([_num(h.get("memory_gb")) or 0.0 for h in comps])
            util = pred.hosts.cpu_util[idx]
            mutil = pred.hosts.memory_util[idx]
            if cap.sum() > 0:
                cpu = float(np.nansum(util * cap) / cap.sum() * 100.0)
            if gb.sum() > 0:
                mem = float(np.nansum(mutil * gb) / gb.sum() * 100.0)
        out.append(ClusterFigures(c.id, c.name or c.id, cpu, _num(c.get("measured.cpu_pct")),
                                  mem, _num(c.get("measured.memory_pct")), extras(c)))
    return out


def _cap(h: Component) -> float:
    sockets = _num(h.get("sockets")) or 0.0
    cores = _num(h.get("cores_per_socket")) or 0.0
    return sockets * cores * (_num(h.get("ghz")) or 0.0)


def iops_lines(hosts: list[HostIops], names: list[str]) -> list[str]:
    """The check's lines on host IOPS: the median relative residual and the totals, the
    background I/O (what the hosts recorded beyond their VMs') and the hosts whose VMs
    measured more than they recorded (``names``: the hosts' names, in the same order)."""
    rel = [abs(h.predicted - h.recorded) / h.recorded for h in hosts if h.recorded > 0]
    pred, rec = sum(h.predicted for h in hosts), sum(h.recorded for h in hosts)
    median = f"median {float(np.median(rel)):.0%} off, " if rel else ""
    out = [f"  host IOPS    {median}{pred:,.0f} predicted vs {rec:,.0f} recorded over"
           f" {counted(len(hosts), 'host')}"]
    own = sorted(((h.background, n) for h, n in zip(hosts, names, strict=True)
                  if h.background > 0), reverse=True)
    if own:
        top = ", ".join(f"{n} {v:,.0f}" for v, n in own[:3]) + (" ..." if len(own) > 3 else "")
        out.append(f"  background I/O {sum(v for v, _ in own):,.0f} IOPS on"
                   f" {counted(len(own), 'host')} ({top}): what they recorded beyond their"
                   " VMs' (the hypervisor's own, VMs without measured I/O or not listed), on"
                   " the arrays each reaches")
    over = [h.measured / h.recorded for h in hosts if h.recorded > 0
            and h.measured > h.recorded + 0.5]
    if over:
        by = f"x{min(over):.2f}" if f"{min(over):.2f}" == f"{max(over):.2f}" \
            else f"x{min(over):.2f} to x{max(over):.2f}"
        out.append(f"  {counted(len(over), 'host')} whose VMs' measured IOPS add up to more"
                   f" than the host recorded ({by}; samples a moment apart): no background"
                   " I/O there, the VMs keep their own")
    return out
