"""Host-failure what-if (N+1): fail a host, restart its VMs like HA, report what breaks."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from models.analysis.common import (
    _EPS,
    Breach,
    Evaluate,
    _finite,
    _run,
    _topology,
    _worst,
    background_of,
    io_background_of,
    policy_breaches,
    with_background,
)
from models.core.compiled import Compiled, compile_design
from models.core.platform import compute
from models.core.prediction import Prediction
from models.document.design import (
    Component,
    Design,
    DesignError,
    Issue,
    Link,
)
from models.document.words import counted

# =========================================================================== host failure


@dataclass(frozen=True)
class FtImpact:
    vm: str
    lost: str
    """``primary`` (the secondary took over) or ``secondary``."""
    primary: str
    """Where the VM runs after the failure."""
    secondary: str | None
    """Where the new secondary runs; None when no host can take it (unprotected)."""

    def to_dict(self) -> dict[str, Any]:
        return {"vm": self.vm, "lost": self.lost, "primary": self.primary,
                "secondary": self.secondary, "protected": self.secondary is not None}


@dataclass
class FailureResult:
    """What happens when ``host`` (a host, or a site and every host at it) fails and HA
    restarts its VMs elsewhere."""

    host: str
    restarted: list[tuple[str, str]]
    """(VM, surviving host it restarts on)."""
    not_restarted: list[str]
    ft: list[FtImpact]
    breaches: list[Breach]
    """Everything over policy after the failure (``before`` holds the intact figure)."""
    vms_before: dict[str, int]
    vms_after: dict[str, int]
    """VMs per surviving host before and after."""
    notes: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    """The hosts that fail: ``host`` itself, or every host at the site ``host``."""
    site: bool = False
    """``host`` is a site: every host there fails at once."""
    util_before: dict[str, tuple[float, float]] = field(default_factory=dict)
    util_after: dict[str, tuple[float, float]] = field(default_factory=dict)
    """(CPU, memory) utilisation of each surviving host before and after the restarts
    (NaN where nothing measured it)."""

    def busiest_after(self) -> tuple[str, float, float] | None:
        """(host, CPU, memory) of the busiest host after the restarts (the higher of its CPU
        and memory utilisation) among those that took VMs (among all survivors when none
        did); None when none survives."""
        took = {h for h in self.vms_after if self.vms_after[h] > self.vms_before[h]}
        ok = [(h, c, m) for h, (c, m) in self.util_after.items() if not took or h in took]
        if not ok:
            return None
        return max(ok, key=lambda t: max(_or_low(t[1]), _or_low(t[2])))

    @property
    def ok(self) -> bool:
        return not self.breaches

    @property
    def new_breaches(self) -> list[Breach]:
        """Breaches that were not already there before the failure."""
        return [b for b in self.breaches
                if b.before is None or not b.before > b.limit * (1 + _EPS)]

    def to_dict(self) -> dict[str, Any]:
        return {"host": self.host, "ok": self.ok,
                "restarted": [{"vm": v, "host": h} for v, h in self.restarted],
                "not_restarted": list(self.not_restarted),
                "ft": [f.to_dict() for f in self.ft],
                "breaches": [b.to_dict() for b in _worst(self.breaches)],
                "new_breaches": len(self.new_breaches),
                "site": self.site, "failed": list(self.failed or [self.host]),
                "hosts": [{"id": h, "vms_before": self.vms_before[h],
                           "vms_after": self.vms_after[h],
                           **_utils(self.util_before.get(h), "before"),
                           **_utils(self.util_after.get(h), "after")}
                          for h in self.vms_after],
                "notes": list(self.notes)}


def _or_low(x: float) -> float:
    return x if math.isfinite(x) else -1.0


def _utils(u: tuple[float, float] | None, when: str) -> dict[str, float | None]:
    if u is None:
        return {}
    return {f"cpu_{when}": _finite(u[0]), f"memory_{when}": _finite(u[1])}


@dataclass
class FailureReport:
    policy: dict[str, float]
    baseline: list[Breach]
    """Breaches of the intact design."""
    failures: list[FailureResult]
    """Each host failed in turn, then (where the design has sites) each site."""

    @property
    def survives(self) -> bool:
        """True when no single host failure (of those tried) adds a breach."""
        return all(not f.new_breaches for f in self.failures if not f.site)

    @property
    def sites(self) -> list[FailureResult]:
        """The site failures tried."""
        return [f for f in self.failures if f.site]

    def to_dict(self) -> dict[str, Any]:
        out = {"policy": dict(self.policy), "survives": self.survives,
               "baseline": [b.to_dict() for b in _worst(self.baseline)],
               "failures": [f.to_dict() for f in self.failures if not f.site]}
        if self.sites:
            out["site_failures"] = [f.to_dict() for f in self.sites]
            out["survives_site_failure"] = all(not f.new_breaches for f in self.sites)
        return out


@dataclass(frozen=True)
class Loads:
    """What the intact design's hosts carry and each VM weighs, for restarts placed as HA
    places them: where there is most room, not where there are fewest VMs."""

    host: dict[str, tuple[float, float, float, float, float]]
    """Host -> (CPU in use, CPU room, memory in use, memory room, per-core speed): CPU in the
    host's core-equivalents, room as the policy lets it give; memory in GB."""
    vm: dict[str, tuple[float, float]]
    """VM -> (CPU work in reference cores, memory held in GB)."""


def loads_of(c: Compiled, p: Prediction) -> Loads:
    """The hosts' load and room, and each VM's weight, in ``p`` of ``c``."""
    hc = compute(c)
    mem_gb = c.host.cols["memory_gb"]
    cpu_max = c.policy["cpu_util_max"]
    mem_max = c.policy.get("memory_util_max", 1.0)
    cpu_u = np.nan_to_num(np.asarray(p.hosts.cpu_util, np.float64))
    mem_u = np.nan_to_num(np.asarray(p.hosts.memory_util, np.float64))
    host = {h: (float(cpu_u[i] * hc.capacity[i]), float(hc.capacity[i] * cpu_max),
                float(mem_u[i] * mem_gb[i]), float(mem_gb[i] * mem_max), float(hc.speed[i]))
            for i, h in enumerate(c.host.ids)}
    vm = c.vm.cols
    held = np.nan_to_num(np.where(np.isnan(vm["workload.memory_gb"]), vm["memory_gb"],
                                  vm["workload.memory_gb"]))
    cores = np.nan_to_num(np.asarray(p.vms.cpu_cores, np.float64)) \
        if len(p.vms.cpu_cores) == len(c.vm) else np.zeros(len(c.vm))
    speed = np.where(c.vm_host >= 0, hc.speed[np.maximum(c.vm_host, 0)], 1.0) \
        if len(c.host) else np.ones(len(c.vm))
    return Loads(host, {v: (float(cores[i] * speed[i]), float(held[i]))
                        for i, v in enumerate(c.vm.ids)})


def fail_host(design: Design, host_id: str, loads: Loads | None = None
              ) -> tuple[Design, FailureResult]:
    """``design`` without ``host_id`` (and its NICs), its VMs restarted on surviving hosts.

    HA placement: each VM of the failed host, in design order, restarts on the surviving host
    with the fewest VMs among those that reach the VM's datastore (every surviving host when
    the design draws no storage paths to it); given the intact design's ``loads``, on the one
    whose busier resource (CPU or memory, as a share of what the policy lets it give) is
    least loaded with the VM, as HA places a restart where there is room.  A host in a
    ``cluster`` fails over only to the cluster's other hosts, and not at all when the
    cluster's HA is off.  An FT VM whose primary fails continues on its secondary's host and
    gets a new secondary on the least-loaded other host; one that loses its secondary gets
    a new one the same way.
    Returns the new design and the placement part of the result (breaches are filled in by
    :func:`host_failure`).
    """
    host = design.component(host_id)
    if host is None or host.kind != "host":
        known = ", ".join(h.id for h in design.of_kind("host")) or "none"
        raise DesignError([Issue(f"--host {host_id}", f"no host with that id (hosts: {known})")])
    return _fail(design, host_id, [host_id], site=False, loads=loads)


def fail_hosts(design: Design, host_ids: list[str], loads: Loads | None = None
               ) -> tuple[Design, FailureResult]:
    """``design`` without every host of ``host_ids`` at once, each one's VMs restarted as
    :func:`fail_host` places them: with one host of each cluster, what each cluster's own
    failure of it does, in one evaluation (a cluster's VMs restart inside it)."""
    return _fail(design, " + ".join(host_ids), list(host_ids), site=False, loads=loads)


def fail_site(design: Design, site_id: str, loads: Loads | None = None
              ) -> tuple[Design, FailureResult]:
    """``design`` without every host at ``site_id``: each one's VMs restart on the surviving
    hosts of its cluster (a stretched cluster's other site; a cluster wholly at the site has
    none, so its VMs stay down), as :func:`fail_host` places them."""
    site = design.component(site_id)
    if site is None or site.kind != "site":
        known = ", ".join(s.id for s in design.of_kind("site")) or "none"
        raise DesignError([Issue(f"--site {site_id}", f"no site with that id (sites: {known})")])
    hosts = [lk.source for lk in design.links if lk.kind == "located_at"
             and lk.target == site_id and (c := design.component(lk.source)) is not None
             and c.kind == "host"]
    return _fail(design, site_id, hosts, site=True, loads=loads)


def sites_with_hosts(design: Design) -> list[str]:
    """The sites that hold hosts, when there are two or more (one site failing is then a
    question the design can answer)."""
    held = {lk.target for lk in design.links if lk.kind == "located_at"
            and (c := design.component(lk.source)) is not None and c.kind == "host"}
    sites = [s.id for s in design.of_kind("site") if s.id in held]
    return sites if len(sites) > 1 else []


def _fail(design: Design, failed_id: str, host_ids: list[str], site: bool,
          loads: Loads | None = None) -> tuple[Design, FailureResult]:
    """``design`` without the hosts ``host_ids`` (and their NICs), their VMs restarted."""
    t = _topology(design)
    failed = set(host_ids)
    gone = failed | {n.id for h in host_ids for n in t.nics_of[h]}
    alive = [h.id for h in t.hosts if h.id not in failed]
    clusters = {h: t.cluster_of.get(h) for h in host_ids}
    comps = {k: design.component(k) for k in set(clusters.values()) if k is not None}
    ha_off = {k for k, c in comps.items() if c is not None and c.get("ha_enabled") is False}
    reach: dict[str, set[str]] = {}
    for hid, lks in t.storage_of.items():
        for lk in lks:
            reach.setdefault(lk.target, set()).add(hid)
    count = {h: 0 for h in alive}
    for h in t.runs_on.values():
        if h in count:
            count[h] += 1
    before = dict(count)
    used = {h: [v[0], v[2]] for h, v in loads.host.items()} if loads is not None else {}

    def place(vm: str, cluster: str | None, avoid: str | None = None) -> str | None:
        array = t.disk_on.get(vm)
        ok = [h for h in alive if h != avoid
              and (cluster is None or t.cluster_of.get(h) == cluster)
              and (array is None or array not in reach or h in reach[array])]
        if not ok:
            return None
        if loads is None or vm not in loads.vm:
            return min(ok, key=lambda h: count[h])
        work, held = loads.vm[vm]

        def fill(h: str) -> tuple[float, int]:  # the busier resource with the VM on it
            _, cpu_room, _, mem_room, speed = loads.host[h]
            cpu = (used[h][0] + work / max(speed, 1e-9)) / cpu_room if cpu_room > 0 else 0.0
            mem = (used[h][1] + held) / mem_room if mem_room > 0 else 0.0
            return max(cpu, mem), count[h]
        best = min(ok, key=fill)
        used[best][0] += work / max(loads.host[best][4], 1e-9)
        used[best][1] += held
        return best

    runs, second = dict(t.runs_on), dict(t.secondary)
    res = FailureResult(failed_id, [], [], [], [], before, count, failed=list(host_ids),
                        site=site)
    for vm in (v.id for v in t.vms):
        primary, secondary = runs.get(vm), second.get(vm)
        if primary in failed:
            cluster = clusters[primary]
            if secondary is not None and secondary not in failed:
                del second[vm]
                runs[vm] = secondary
                count[secondary] += 1
                new_sec = place(vm, cluster, avoid=secondary)
                if new_sec is not None:
                    second[vm] = new_sec
                res.ft.append(FtImpact(vm, "primary", secondary, new_sec))
                continue
            second.pop(vm, None)  # both gone (a site): HA restarts it like any VM
            target = None if cluster in ha_off else place(vm, cluster)
            if target is None:
                del runs[vm]
                res.not_restarted.append(vm)
                continue
            runs[vm] = target
            count[target] += 1
            res.restarted.append((vm, target))
        elif secondary in failed and primary is not None:
            del second[vm]
            new_sec = place(vm, t.cluster_of.get(primary), avoid=primary)
            if new_sec is not None:
                second[vm] = new_sec
            res.ft.append(FtImpact(vm, "secondary", primary, new_sec))
    out = Design(name=design.name, notes=design.notes, policy=dict(design.policy),
                 scenarios=[])
    out.components = [c for c in design.components if c.id not in gone]
    for hid in host_ids:  # each failed host's unlisted VMs restart in its own cluster
        cluster, comp = clusters[hid], design.component(hid)
        takers = [] if cluster in ha_off else [
            a for a in alive if cluster is None or t.cluster_of.get(a) == cluster]
        if comp is not None:
            _restart_background(comp, out, takers, res)
    dropped = 0
    for lk in design.links:
        if lk.kind in ("runs_on", "ft_secondary_on"):
            continue
        if lk.source in gone or lk.target in gone:
            continue
        if lk.kind == "passthrough" and runs.get(lk.target) != t.runs_on.get(lk.target):
            dropped += 1
            continue
        out.links.append(lk)
    out.links.extend(Link(vm, h, "runs_on") for vm, h in runs.items())
    out.links.extend(Link(vm, h, "ft_secondary_on") for vm, h in second.items())
    if dropped:
        its = "loses its" if dropped == 1 else "lose their"
        res.notes.append(f"{counted(dropped, 'restarted VM')} {its} passthrough NIC")
    for k, comp in comps.items():
        if comp is not None:
            survivors = sum(1 for h in alive if t.cluster_of.get(h) == k)
            res.notes.append(_cluster_note(comp, survivors, k in ha_off))
    return out, res


def _restart_background(host: Component, out: Design, survivors: list[str],
                        res: FailureResult) -> None:
    """A partial host's background load is mostly VMs the export does not list: HA restarts
    them too, spread evenly over the survivors (a whole host has none from the baseline; one
    set on it by hand goes down with it).  A host's background I/O (its own beyond its VMs',
    issue 36) moves with its VMs too: the arrays keep serving it, from the survivors."""
    recorded, listed = host.get("measured.vms"), host.get("measured.vms_listed")
    work, memory = background_of([host])
    io = io_background_of([host])
    unlisted = recorded - listed if isinstance(recorded, int) and isinstance(listed, int) \
        else 0
    if unlisted <= 0:
        work = memory = 0.0
    if not (work or memory or io.iops):
        return
    name = host.name or host.id
    parts = []
    if work or memory:
        parts.append(f"the background load of {name} ({counted(unlisted, 'VM')} the export"
                     " does not list)")
    if io.iops:
        parts.append(("its" if parts else f"{name}'s") + f" background I/O ({io.iops:,.0f}"
                     " IOPS)")
    what = " and ".join(parts)
    if not survivors:
        res.notes.append(f"{what} stays down with it")
        return
    share = 1.0 / len(survivors)
    for i, comp in enumerate(out.components):
        if comp.id in survivors:
            own_work, own_memory = background_of([comp])
            out.components[i] = with_background(
                comp, own_work + work * share, own_memory + memory * share,
                str(comp.get("provenance.background") or "")
                + f"; a share of failed host {host.name or host.id}'s",
                io_background_of([comp]) + io.scaled(share))
    res.notes.append(f"{what} restarts spread over {counted(len(survivors), 'host')}")


def _cluster_note(cluster: Component, survivors: int, ha_off: bool) -> str:
    """What the failed host's cluster does about it, by its own policy."""
    name = cluster.name or cluster.id
    if ha_off:
        return f"cluster {name}: HA is off, so the failed host's VMs stay down"
    mode = cluster.get("admission_control")
    if mode == "failover_hosts":
        n = cluster.get("failover_hosts")
        policy = f"admission control reserves {counted(n, 'host') if isinstance(n, int) else n}"
    elif mode == "percentage":
        policy = (f"admission control reserves {cluster.get('cpu_failover_pct')}% CPU and"
                  f" {cluster.get('memory_failover_pct')}% memory")
    else:
        policy = "admission control is disabled: nothing reserves room for restarts"
    return f"cluster {name}: VMs restart on its {counted(survivors, 'other host')}; {policy}"


def host_failure(design: Design, hosts: list[str] | None = None, *,
                 sites: list[str] | None = None, evaluate: Evaluate | None = None
                 ) -> FailureReport:
    """Fail each host of ``hosts`` in turn (default: every host, N+1), then each site of
    ``sites`` (default: every site holding hosts when there are two or more, unless hosts
    were given), and report what breaks: hosts over ``cpu_util_max`` or ``memory_util_max``,
    VMs over ``p95_ms_max``, arrays and NICs past 100%, VMs no host can restart, FT VMs left
    without a secondary; and each surviving host's CPU and memory after the restarts."""
    ev = evaluate or _run
    c0 = compile_design(design)
    base_pred = ev(c0)
    baseline = policy_breaches(base_pred, c0.policy)
    before = _figures(base_pred)
    utils = _host_utils(base_pred)
    out = FailureReport(dict(c0.policy), baseline, [])
    if sites is None:
        sites = sites_with_hosts(design) if hosts is None else []
    loads = loads_of(c0, base_pred)
    runs = [fail_host(design, hid, loads) for hid in
            (hosts if hosts is not None else [h.id for h in design.of_kind("host")])]
    runs += [fail_site(design, sid, loads) for sid in sites]
    for failed, res in runs:
        breaches: list[Breach] = []
        if failed.of_kind("host"):
            c = compile_design(failed)
            pred = ev(c)
            breaches = policy_breaches(pred, c.policy)
            after = _host_utils(pred)
            res.util_after = {h: after[h] for h in res.vms_after if h in after}
        else:
            res.notes.append("no host survives: nothing is left to evaluate")
        res.util_before = {h: utils[h] for h in res.vms_after if h in utils}
        res.breaches = [Breach(b.component, b.resource, b.value, b.limit,
                               before.get((b.resource, b.component)), b.name)
                        for b in breaches]
        res.breaches += [Breach(vm, "restart", 1.0, 0.0, name=_name(design, vm))
                         for vm in res.not_restarted]
        res.breaches += [Breach(f.vm, "ft", 1.0, 0.0, name=_name(design, f.vm))
                         for f in res.ft if f.secondary is None]
        out.failures.append(res)
    return out


def _host_utils(pred: Prediction) -> dict[str, tuple[float, float]]:
    """Each host's (CPU, memory) utilisation in ``pred``."""
    return {h: (float(pred.hosts.cpu_util[i]), float(pred.hosts.memory_util[i]))
            for i, h in enumerate(pred.hosts.ids)}


def _figures(pred: Prediction) -> dict[tuple[str, str], float]:
    out: dict[tuple[str, str], float] = {}
    for resource, ids, values in (("cpu", pred.hosts.ids, pred.hosts.cpu_util),
                                  ("memory", pred.hosts.ids, pred.hosts.memory_util),
                                  ("p95", pred.vms.ids, pred.vms.p95_latency_ms),
                                  ("array", pred.arrays.ids, pred.arrays.util),
                                  ("nic", pred.nics.ids, pred.nics.util)):
        for i, cid in enumerate(ids):
            out[(resource, cid)] = float(values[i])
    return out


def _name(design: Design, cid: str) -> str:
    comp = design.component(cid)
    return (comp.name or cid) if comp is not None else cid
