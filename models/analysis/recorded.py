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


def host_iops(design: Design, pred: Prediction) -> dict[str, tuple[float, float]]:
    """Host id -> (predicted IOPS of its VMs, recorded IOPS) for the hosts that recorded it."""
    recorded = {h.id: v for h in design.of_kind("host")
                if (v := _num(h.get("measured.iops"))) is not None}
    if not recorded:
        return {}
    total = dict.fromkeys(recorded, 0.0)
    for host, iops in zip(pred.vms.host, pred.vms.iops, strict=True):
        if host in total and math.isfinite(float(iops)):
            total[host] += float(iops)
    return {h: (total[h], recorded[h]) for h in recorded}


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


def iops_line(pairs: list[tuple[float, float]]) -> str:
    """The check's line on host IOPS: the median relative residual and the totals."""
    rel = [abs(p - r) / r for p, r in pairs if r > 0]
    pred, rec = sum(p for p, _ in pairs), sum(r for _, r in pairs)
    median = f"median {float(np.median(rel)):.0%} off, " if rel else ""
    return (f"  host IOPS    {median}{pred:,.0f} predicted vs {rec:,.0f} recorded over"
            f" {counted(len(pairs), 'host')}")
