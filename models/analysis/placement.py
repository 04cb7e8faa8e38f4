"""Place the unplaced: VMs an import could not put on a host (neither their host nor their
cluster was in the inventory) go where the design has room, like DRS's initial placement.

Each unplaced VM, the largest CPU demand first, goes to the host that is least loaded after
taking it - the larger of its CPU utilisation over ``policy.cpu_util_max`` and its memory
utilisation over ``policy.memory_util_max`` - among the hosts of its cluster (its
``cluster-<name>`` tag) when there are any, else among all hosts.  Demand is the
baseline's: each VM's predicted core demand and the memory it holds (consumed where
measured).  A VM that fits nowhere still goes to the least
loaded host, and the result says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from models.core.compiled import compile_design
from models.core.platform import compute
from models.document.design import Design, Link
from models.document.words import kind_count
from models.engine.evaluation import run


@dataclass(frozen=True)
class Placed:
    vm: str
    host: str
    cpu_util: float
    """The host's CPU utilisation after taking the VM."""
    memory_util: float
    fits: bool

    def to_dict(self) -> dict[str, Any]:
        return {"vm": self.vm, "host": self.host, "cpu_util": self.cpu_util,
                "memory_util": self.memory_util, "fits": self.fits}


@dataclass
class PlacementResult:
    placed: list[Placed] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    """The ``runs_on`` (and missing ``storage``) links that place them."""

    def lines(self) -> list[str]:
        if not self.placed:
            return ["no unplaced VMs"]
        bad = [p for p in self.placed if not p.fits]
        out = [f"placed {kind_count('vm', len(self.placed))}"
               + (f", {len(bad)} over policy where they went" if bad else "")]
        for p in self.placed:
            out.append(f"  {p.vm} -> {p.host}: host CPU {p.cpu_util:.0%}, memory"
                       f" {p.memory_util:.0%}" + ("" if p.fits else "  (over policy)"))
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"placed": [p.to_dict() for p in self.placed]}


def place_unplaced(design: Design) -> PlacementResult:
    """Where each VM without a ``runs_on`` link should go (the design is not changed)."""
    c = compile_design(design)
    res = PlacementResult()
    todo = np.flatnonzero(c.vm_host < 0)
    if not len(todo) or not len(c.host):
        return res
    pred = run(c)
    host = c.host.cols
    cap = compute(c).capacity
    mem_cap = host["memory_gb"].astype(np.float64)
    placed = c.vm_host >= 0
    cores = np.nan_to_num(pred.vms.cpu_cores)
    held = c.vm.cols["workload.memory_gb"]
    held = np.where(np.isnan(held), c.vm.cols["memory_gb"], held)
    cpu = np.bincount(c.vm_host[placed], cores[placed], minlength=len(c.host))
    mem = np.bincount(c.vm_host[placed], held[placed], minlength=len(c.host))
    u_max, m_max = c.policy["cpu_util_max"], c.policy["memory_util_max"]
    comps = {comp.id: comp for comp in design.components}
    host_tags = [set(comps[h].tags) for h in c.host.ids]
    arrays_of = {(lk.source, lk.target) for lk in design.links if lk.kind == "storage"}
    disk_on = {lk.source: lk.target for lk in design.links if lk.kind == "disk_on"}
    for k in sorted(todo.tolist(), key=lambda i: -cores[i]):
        vid = c.vm.ids[k]
        tags = {t for t in comps[vid].tags if t.startswith("cluster-")}
        pool = [j for j in range(len(c.host)) if tags & host_tags[j]] or list(range(len(c.host)))
        load = [max((cpu[j] + cores[k]) / cap[j] / u_max,
                    (mem[j] + held[k]) / mem_cap[j] / m_max)
                for j in pool]
        j = pool[int(np.argmin(load))]
        cpu[j] += cores[k]
        mem[j] += held[k]
        hid = c.host.ids[j]
        res.placed.append(Placed(vid, hid, float(cpu[j] / cap[j]), float(mem[j] / mem_cap[j]),
                                 bool(min(load) <= 1.0)))
        res.links.append(Link(vid, hid, "runs_on"))
        array = disk_on.get(vid)
        if array is not None and (hid, array) not in arrays_of:
            arrays_of.add((hid, array))
            res.links.append(Link(hid, array, "storage"))
    return res


def apply_placement(design: Design, result: PlacementResult) -> None:
    """Add the placement's links to ``design`` and drop the VMs' ``unplaced`` tag."""
    design.links.extend(result.links)
    moved = {p.vm for p in result.placed}
    for comp in design.components:
        if comp.id in moved and "unplaced" in comp.tags:
            comp.tags = [t for t in comp.tags if t != "unplaced"]
