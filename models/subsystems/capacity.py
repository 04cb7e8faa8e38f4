"""Capacity and policy: clusters' HA admission control, hosts needed, overcommit, storage.

Mechanism
---------
* **Groups.** Every ``cluster`` component with its hosts (``in_cluster``) is a group; hosts in
  no cluster, and VMs on no host (imported unplaced), form one more group that keeps the
  design's ``policy.ha_spare_hosts``.  A design without clusters keeps the consolidation
  model's ``hosts_needed`` unchanged (the same prediction as before clusters existed).
* **Hosts needed** per group: the CPU its VMs demand (core-equivalents, FT secondaries
  included, as the consolidation model sums them) over ``policy.cpu_util_max`` of an average
  host of the group; the memory its VMs hold over an average host's memory; the VM count over
  the p95 limit where web VMs set one.  The largest count binds.  With DRS off a cluster's
  VMs stay where they are, so its busiest host binds: the CPU count is scaled by the busiest
  host's utilisation over the cluster's mean.  The hosts' background load (the VMs an export
  does not list, the hypervisor's own) counts as that many more VMs of the group's mix: its
  CPU over ``cpu_util_max`` of the reference host adds to the CPU and p95 counts, its memory
  to the memory count; a group of background alone needs the hosts that hold it.
* **HA admission control** (vSphere Availability): *failover hosts* keeps ``failover_hosts``
  hosts' worth of capacity free, so that many hosts are added to the count; *percentage*
  keeps ``cpu_failover_pct`` / ``memory_failover_pct`` of the cluster free, so each count is
  taken over the remaining share; *disabled*, or HA off, reserves nothing.
* **Overcommit**: vCPUs per physical core and configured VM memory per installed memory, per
  cluster and over the design (placed VMs).
* **Storage capacity**: per array, the space in use (the array's ``used_gb``, else the sum of
  its VMs' ``disk.used_gb``) grown by ``policy.storage_growth_pct`` against its
  ``capacity_gb``; thin provisioning shows as provisioned over capacity.

Nothing here is fitted: the rules are vSphere's own (admission control and DRS as the vSphere
Availability and Resource Management guides state them).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from models.core.compiled import Compiled
from models.core.platform import compute
from models.core.prediction import Consolidation
from models.core.results import ConsolidationResult
from models.core.sections import ArrayCapacity, Capacity, ClusterCapacity, StorageCapacity
from models.document.numbers import counted
from models.document.studies import DRS, HA
from models.subsystems import licensing, vsan
from models.subsystems.consolidation import background, density, fewest_hosts
from models.subsystems.limits import limits_for


@dataclass
class CapacityResult:
    consolidation: Consolidation
    """The consolidation summary, ``hosts_needed`` honouring each cluster's policy."""
    capacity: Capacity
    warnings: list[str]


class _Static:
    """What no load knob moves: capacities, the groups, overcommit and storage (memoised)."""

    def __init__(self, c: Compiled) -> None:
        host, vm = c.host.cols, c.vm.cols
        hc = compute(c)
        self.cores = cores = hc.cores
        self.cap = hc.capacity
        self.mem_installed = mem_installed = host["memory_gb"]
        self.placed = placed = c.vm_host >= 0
        held = vm["workload.memory_gb"]
        self.held = np.where(np.isnan(held), vm["memory_gb"], held)
        self.vcpus, self.memory = vm["vcpus"], vm["memory_gb"]
        self.groups = groups = _groups(c)
        bg_cpu, bg_memory = background(c)
        self.physical, self.licensed = licensing.host_cores(c)
        for g in groups:  # what each group's VMs need whatever the load
            vms = g["vms"]
            on = vms[placed[vms]]
            g["fewest"] = fewest_hosts(c, vms) if len(vms) else 0
            g["vcpus"] = float(self.vcpus[on].sum())
            g["memory"] = float(self.memory[on].sum())
            # its reference host and density (links only: a slider step took 3 ms at
            # 50,000 VMs to find them again)
            g["ref"] = _reference(c, vms, g["hosts"])
            g["density"] = density(c, vms) if len(vms) else 0.0
            g["background"] = (float(bg_cpu[g["hosts"]].sum()),
                               float(bg_memory[g["hosts"]].sum()))
        cores_all = float(cores.sum())
        self.vcpu_per_core = (float(vm["vcpus"][placed].sum()) / cores_all) if cores_all \
            else None
        self.memory_overcommit = (float(vm["memory_gb"][placed].sum())
                                  / float(mem_installed.sum())) if len(c.host) else None
        self.max_vcpu_per_core_host = _max_ratio(c, vm["vcpus"], cores)
        self.unplaced_vms = int((~placed).sum())
        sites = c.host_site
        self.vsan = vsan.solve(c, [vsan.Cluster(
            g["cluster"], g["hosts"], g["vms"],
            len(np.unique(sites[g["hosts"]][sites[g["hosts"]] >= 0])) >= 2)
            for g in groups if g["cluster"] is not None])
        self.vsan_of = {v.cluster: v for v in self.vsan}
        on_vsan = np.zeros(len(c.vm), bool)  # their space is their cluster's vSAN's
        for g in groups:
            if g["id"] in self.vsan_of:
                on_vsan[g["vms"]] = True
        self.storage = _storage(c, on_vsan)


def solve(c: Compiled, con: ConsolidationResult) -> CapacityResult:
    n_host = len(c.host)
    st = c.memo("capacity.static", lambda: _Static(c))
    cores, cap, mem_installed = st.cores, st.cap, st.mem_installed
    held, groups = st.held, st.groups
    demand_h = _arr(con.host_cpu_demand, n_host)
    mem_h = _arr(con.host_memory_gb, n_host)
    vm_cores = _arr(con.vm_cpu_cores, len(c.vm))
    cons = con.consolidation
    out: list[ClusterCapacity] = []
    warnings: list[str] = []
    total = 0
    complete = True
    ranked: list[tuple[float, str | None]] = []  # each group's hosts needed and binding
    fits = True
    for g in groups:
        hs = g["hosts"]
        vms = g["vms"]
        d = float(demand_h[hs].sum()) + float(vm_cores[g["unplaced"]].sum())
        m = float(mem_h[hs].sum()) + float(held[g["unplaced"]].sum())
        if not n_host:
            complete = False
            continue
        cpu_free = mem_free = 1.0
        reserve = 0
        policy = "none"
        if g["cluster"] is None:
            reserve = int(c.policy["ha_spare_hosts"])
            policy = f"policy.ha_spare_hosts {reserve}"
        else:
            j = g["cluster"]
            ccols = c.cluster.cols
            ac = c.cluster.specs["admission_control"].choices or ()
            mode = str(ac[int(ccols["admission_control"][j])])
            if not ccols["ha_enabled"][j]:
                policy = "HA off"
            elif mode == "failover_hosts":
                reserve = int(ccols["failover_hosts"][j])
                policy = f"failover hosts {reserve}"
            elif mode == "percentage":
                cpu_free = 1.0 - float(ccols["cpu_failover_pct"][j]) / 100.0
                mem_free = 1.0 - float(ccols["memory_failover_pct"][j]) / 100.0
                policy = (f"{ccols['cpu_failover_pct'][j]:g}% CPU,"
                          f" {ccols['memory_failover_pct'][j]:g}% memory reserved")
            else:
                policy = "admission control disabled"
        imbalance = 1.0
        drs = g["cluster"] is None or bool(c.cluster.cols["drs_enabled"][g["cluster"]])
        if not drs and len(hs) > 1 and d > 0:
            util = demand_h[hs] / cap[hs]
            imbalance = float(util.max() / (d / cap[hs].sum()))
        counts, binding = _counts(c, con, g, max(cpu_free, 1e-9), max(mem_free, 1e-9),
                                  imbalance)
        loaded = bool(len(vms)) or any(g["background"])
        needed: int | None = 0
        if counts is None:  # a VM of the group fits on no host
            needed, fits = None, False
        elif loaded:
            base = max(max(counts.values(), default=0), g["fewest"])
            if g["fewest"] > max(counts.values(), default=0):
                binding = "ft"  # a secondary needs a host of its own
            needed = base + reserve
        vs = st.vsan_of.get(g["id"])
        if vs is not None and needed is not None and vs.hosts_needed is not None:
            # a vSAN cluster: its data under its policy, and the policy's minimum hosts
            if (vs.storage_hosts or 0) > needed:
                needed, binding = vs.storage_hosts, "storage"
            if vs.min_hosts > (needed or 0):
                needed, binding = vs.min_hosts, "vsan_min"
            if binding in ("storage", "vsan_min"):  # vSAN's count holds its own reserve
                reserve = 0
        if loaded:
            ranked.append((math.inf if needed is None else needed, binding))
        total += needed or 0
        out.append(ClusterCapacity(
            id=g["id"], name=g["name"], hosts=len(hs), vms=len(vms),
            unplaced_vms=len(g["unplaced"]), cpu_demand_cores=d,
            cpu_capacity_cores=float(cap[hs].sum()), memory_gb=m,
            memory_capacity_gb=float(mem_installed[hs].sum()), admission_control=policy,
            reserve_hosts=reserve, hosts_needed=needed, binding=binding, drs=drs,
            drs_imbalance=imbalance,
            short_by_hosts=max(needed - len(hs), 0) if len(hs) and needed is not None
            else None,
            vcpu_per_core=(g["vcpus"] / float(cores[hs].sum())) if len(hs) else None,
            memory_overcommit=(g["memory"] / float(mem_installed[hs].sum())) if len(hs)
            else None, physical_cores=round(float(st.physical[hs].sum())),
            licensed_cores=round(float(st.licensed[hs].sum()))))
        if g["cluster"] is not None and len(hs) and needed is not None and needed > len(hs):
            warnings.append(f"cluster {g['id']}: {counted(len(hs), 'host')}, {needed} needed to"
                            " run its"
                            f" VMs within policy with its admission control ({policy})")
    if complete and len(c.vm):
        # the binding of the group that needs most hosts (one a VM fits in no host of first)
        binding = max(ranked, key=lambda r: r[0])[1] if ranked else None
        cons = replace(cons, hosts_needed=total if fits else None, binding=binding)
    capacity = Capacity(clusters=out, vcpu_per_core=st.vcpu_per_core,
                        memory_overcommit=st.memory_overcommit,
                        max_vcpu_per_core_host=st.max_vcpu_per_core_host, storage=st.storage,
                        unplaced_vms=st.unplaced_vms, sources=[HA.title, DRS.title],
                        licensing=licensing.section(
                            c, st.physical, st.licensed,
                            sum(v.raw_tib for v in st.vsan) if st.vsan else None),
                        vsan=st.vsan or None)
    return CapacityResult(cons, capacity, warnings)


def _counts(c: Compiled, con: ConsolidationResult, g: dict[str, Any], cpu_free: float,
            mem_free: float, imbalance: float) -> tuple[dict[str, int] | None, str | None]:
    """Hosts the group's VMs need under each limit (:func:`limits_for`: how many VMs of the
    group's mix its busiest host holds within the policy and the admission control's free
    share), and the one that binds (the most hosts; of equal counts, the limit holding the
    fewest VMs).  With DRS off the busiest host binds: the CPU count is scaled by its
    utilisation over the group's mean (``imbalance``).  None for the counts when a VM of
    the mix fits on no host (the limit that stops it binds)."""
    vms, hs = g["vms"], g["hosts"]
    bg_cpu, bg_memory = g["background"]
    if not len(vms):  # no VM, perhaps a background: hosts like its own hold it
        if not len(hs) or not (bg_cpu or bg_memory):
            return {}, None
        ref = int(hs[0])
        filled = _background_hosts(c, ref, bg_cpu, bg_memory, cpu_free, mem_free)
        counts = {k: _ceil(v) for k, v in zip(("cpu", "memory"), filled, strict=True)}
        top = max(counts.values())
        return counts, next(k for k, v in counts.items() if v == top)
    if con.demand is None:
        return {}, None
    ref = int(g["ref"])
    lim = limits_for(c, con.demand, vms, ref, g["density"], cpu_free, mem_free,
                     key=g["id"] or "loose")
    if not lim.fits:
        return None, lim.binding
    counts = lim.counts(len(vms))
    if "cpu" in counts and imbalance != 1.0 and lim.by_cpu:
        counts["cpu"] = _ceil(len(vms) * imbalance / lim.by_cpu)
    if bg_cpu or bg_memory:  # as many more VMs of the mix as demand what it demands
        cpu_hosts, memory_hosts = _background_hosts(c, ref, bg_cpu, bg_memory, cpu_free,
                                                    mem_free)
        for key, by, extra in (("cpu", lim.by_cpu, cpu_hosts), ("p95", lim.by_p95, cpu_hosts),
                               ("memory", lim.by_memory, memory_hosts)):
            if key in counts and by:
                counts[key] = _ceil(len(vms) * (imbalance if key == "cpu" else 1.0) / by
                                    + extra)
    top = max(counts.values(), default=0)
    binding = lim.binding if lim.binding in counts and counts[lim.binding] == top \
        else next((k for k, v in counts.items() if v == top), None)
    return counts, binding


def _reference(c: Compiled, vms: np.ndarray, hs: np.ndarray) -> int:
    """The group's reference host: the one of its hosts running most of its VMs (its first
    host when none runs one; for VMs on no host, the design's busiest host)."""
    on = c.vm_host[vms]
    on = on[on >= 0]
    if len(hs) and len(on):
        return int(hs[np.argmax(np.bincount(on, minlength=len(c.host))[hs])])
    if len(hs):
        return int(hs[0])
    placed = c.vm_host[c.vm_host >= 0]
    return int(np.argmax(np.bincount(placed, minlength=len(c.host)))) if len(placed) else 0
def _background_hosts(c: Compiled, ref: int, cpu: float, memory: float, cpu_free: float,
                      mem_free: float) -> tuple[float, float]:
    """Hosts like ``ref`` a group's background load fills (CPU within the policy's ceiling,
    and memory, each of the share admission control leaves free): what as many VMs of the
    group's mix as demand as much would add to its count."""
    cap = float(compute(c).capacity[ref]) * c.policy["cpu_util_max"] * cpu_free
    mem = float(c.host.cols["memory_gb"][ref]) * mem_free
    return (cpu / cap if cap > 0 else 0.0), (memory / mem if mem > 0 else 0.0)


def _arr(x: np.ndarray, n: int) -> np.ndarray:
    return x if len(x) == n else np.zeros(n)


def _ceil(x: float) -> int:
    if not math.isfinite(x):
        return 0
    return max(math.ceil(x - 1e-9), 0)


def _groups(c: Compiled) -> list[dict[str, Any]]:
    """The clusters with their host and VM indices, then the hosts in no cluster with the VMs
    on them and the unplaced VMs."""
    hc = c.host_cluster
    vh = c.vm_host
    vm_cluster = np.where(vh >= 0, hc[np.maximum(vh, 0)] if len(hc) else -1, -2)
    out = []
    for j, cid in enumerate(c.cluster.ids):
        out.append({"id": cid, "name": c.names.get(cid, cid), "cluster": j,
                    "hosts": np.flatnonzero(hc == j), "vms": np.flatnonzero(vm_cluster == j),
                    "unplaced": np.zeros(0, np.int64)})
    free_hosts = np.flatnonzero(hc < 0)
    loose = np.flatnonzero((vm_cluster == -1) | (vm_cluster == -2))
    unplaced = np.flatnonzero(vm_cluster == -2)
    if len(free_hosts) or len(loose) or not len(c.cluster):
        out.append({"id": "", "name": "hosts in no cluster" if len(c.cluster) else "design",
                    "cluster": None, "hosts": free_hosts, "vms": loose,
                    "unplaced": unplaced})
    return out


def _max_ratio(c: Compiled, vcpus: np.ndarray, cores: np.ndarray) -> float | None:
    placed = c.vm_host >= 0
    if not len(cores) or not placed.any():
        return None
    per = np.bincount(c.vm_host[placed], vcpus[placed], minlength=len(cores))
    return float((per / np.maximum(cores, 1.0)).max())


def _storage(c: Compiled, on_vsan: np.ndarray | None = None) -> StorageCapacity:
    """Space in use, grown by the policy's growth, against each array's capacity."""
    a, vm = c.array.cols, c.vm.cols
    n_arr = len(c.array)
    growth = c.policy["storage_growth_pct"] / 100.0
    on = c.vm_array >= 0
    used_vm = np.nan_to_num(vm["disk.used_gb"])
    prov_vm = np.nan_to_num(vm["disk.provisioned_gb"])
    known_vm = ~np.isnan(vm["disk.used_gb"])
    used_sum = np.bincount(c.vm_array[on], used_vm[on], minlength=n_arr) if n_arr else \
        np.zeros(0)
    prov_sum = np.bincount(c.vm_array[on], prov_vm[on], minlength=n_arr) if n_arr else \
        np.zeros(0)
    arrays: list[ArrayCapacity] = []
    need_total = cap_total = short_total = 0.0
    for j, aid in enumerate(c.array.ids):
        used = a["used_gb"][j] if not np.isnan(a["used_gb"][j]) else used_sum[j]
        prov = a["provisioned_gb"][j] if not np.isnan(a["provisioned_gb"][j]) else prov_sum[j]
        capacity = a["capacity_gb"][j]
        if np.isnan(capacity) and not used:
            continue
        needed = float(used) * (1.0 + growth)
        row = ArrayCapacity(id=aid, name=c.names.get(aid, aid), used_gb=float(used),
                            provisioned_gb=float(prov), needed_gb=needed,
                            capacity_gb=None if np.isnan(capacity) else float(capacity),
                            thin=bool(a["thin"][j]))
        if not np.isnan(capacity) and capacity > 0:
            row.needed_util = needed / float(capacity)
            row.provisioned_ratio = float(prov) / float(capacity)
            row.short_gb = max(needed - float(capacity), 0.0)
            cap_total += float(capacity)
            short_total += row.short_gb
        need_total += needed
        arrays.append(row)
    loose = known_vm & ~on & (~on_vsan if on_vsan is not None else True)
    need_total += float(used_vm[loose].sum()) * (1.0 + growth)
    return StorageCapacity(growth_pct=growth * 100.0, needed_gb=need_total,
                           capacity_gb=cap_total, short_gb=short_total, arrays=arrays,
                           vms_without_array_gb=float(used_vm[loose].sum()))
