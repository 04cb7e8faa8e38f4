"""Host-failure what-if (N+1): fail a host, restart its VMs like HA, report what breaks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from models.analysis.common import (
    _EPS,
    Breach,
    Evaluate,
    _run,
    _topology,
    _worst,
    background_of,
    policy_breaches,
    with_background,
)
from models.core.compiled import compile_design
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
    """What happens when ``host`` fails and HA restarts its VMs elsewhere."""

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
                "hosts": [{"id": h, "vms_before": self.vms_before[h],
                           "vms_after": self.vms_after[h]} for h in self.vms_after],
                "notes": list(self.notes)}


@dataclass
class FailureReport:
    policy: dict[str, float]
    baseline: list[Breach]
    """Breaches of the intact design."""
    failures: list[FailureResult]

    @property
    def survives(self) -> bool:
        """True when no single host failure (of those tried) adds a breach."""
        return all(not f.new_breaches for f in self.failures)

    def to_dict(self) -> dict[str, Any]:
        return {"policy": dict(self.policy), "survives": self.survives,
                "baseline": [b.to_dict() for b in _worst(self.baseline)],
                "failures": [f.to_dict() for f in self.failures]}


def fail_host(design: Design, host_id: str) -> tuple[Design, FailureResult]:
    """``design`` without ``host_id`` (and its NICs), its VMs restarted on surviving hosts.

    HA placement: each VM of the failed host, in design order, restarts on the surviving host
    with the fewest VMs among those that reach the VM's datastore (every surviving host when
    the design draws no storage paths to it).  A host in a ``cluster`` fails over only to the
    cluster's other hosts, and not at all when the cluster's HA is off.  An FT VM whose
    primary fails continues on its secondary's host and gets a new secondary on the
    least-loaded other host; one that loses its secondary gets a new one the same way.
    Returns the new design and the placement part of the result (breaches are filled in by
    :func:`host_failure`).
    """
    host = design.component(host_id)
    if host is None or host.kind != "host":
        known = ", ".join(h.id for h in design.of_kind("host")) or "none"
        raise DesignError([Issue(f"--host {host_id}", f"no host with that id (hosts: {known})")])
    t = _topology(design)
    gone = {host_id} | {n.id for n in t.nics_of[host_id]}
    cluster = t.cluster_of.get(host_id)
    survivors = [h.id for h in t.hosts if h.id != host_id
                 and (cluster is None or t.cluster_of.get(h.id) == cluster)]
    comp = design.component(cluster) if cluster is not None else None
    ha_off = comp is not None and comp.get("ha_enabled") is False
    reach: dict[str, set[str]] = {}
    for hid, lks in t.storage_of.items():
        for lk in lks:
            reach.setdefault(lk.target, set()).add(hid)
    count = {h: 0 for h in survivors}
    for h in t.runs_on.values():
        if h in count:
            count[h] += 1
    before = dict(count)

    def place(vm: str, avoid: str | None = None) -> str | None:
        array = t.disk_on.get(vm)
        ok = [h for h in survivors if h != avoid
              and (array is None or array not in reach or h in reach[array])]
        return min(ok, key=lambda h: count[h]) if ok else None

    runs, second = dict(t.runs_on), dict(t.secondary)
    res = FailureResult(host_id, [], [], [], [], before, count)
    for vm in (v.id for v in t.vms):
        if runs.get(vm) == host_id:
            if vm in second:
                new_primary = second.pop(vm)
                runs[vm] = new_primary
                count[new_primary] += 1
                new_sec = place(vm, avoid=new_primary)
                if new_sec is not None:
                    second[vm] = new_sec
                res.ft.append(FtImpact(vm, "primary", new_primary, new_sec))
                continue
            target = None if ha_off else place(vm)
            if target is None:
                del runs[vm]
                res.not_restarted.append(vm)
                continue
            runs[vm] = target
            count[target] += 1
            res.restarted.append((vm, target))
        elif second.get(vm) == host_id:
            del second[vm]
            new_sec = place(vm, avoid=runs.get(vm))
            if new_sec is not None:
                second[vm] = new_sec
            res.ft.append(FtImpact(vm, "secondary", runs[vm], new_sec))
    out = Design(name=design.name, notes=design.notes, policy=dict(design.policy),
                 scenarios=[])
    out.components = [c for c in design.components if c.id not in gone]
    _restart_background(host, out, survivors if not ha_off else [], res)
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
    if comp is not None:
        res.notes.append(_cluster_note(comp, len(survivors), ha_off))
    return out, res


def _restart_background(host: Component, out: Design, survivors: list[str],
                        res: FailureResult) -> None:
    """A partial host's background load is mostly VMs the export does not list: HA restarts
    them too, spread evenly over the survivors (a whole host has none from the baseline; one
    set on it by hand goes down with it)."""
    recorded, listed = host.get("measured.vms"), host.get("measured.vms_listed")
    work, memory = background_of([host])
    if not (isinstance(recorded, int) and isinstance(listed, int) and recorded > listed) \
            or not (work or memory):
        return
    if not survivors:
        res.notes.append(f"the background load of {host.name or host.id}"
                         f" ({counted(recorded - listed, 'VM')} the export does not list) stays"
                         " down with it")
        return
    share = 1.0 / len(survivors)
    for i, comp in enumerate(out.components):
        if comp.id in survivors:
            own_work, own_memory = background_of([comp])
            out.components[i] = with_background(
                comp, own_work + work * share, own_memory + memory * share,
                str(comp.get("provenance.background") or "")
                + f"; a share of failed host {host.name or host.id}'s")
    res.notes.append(f"the background load of {host.name or host.id}"
                     f" ({counted(recorded - listed, 'VM')} the export does not list) restarts"
                     " spread over"
                     f" {counted(len(survivors), 'host')}")


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
                 evaluate: Evaluate | None = None) -> FailureReport:
    """Fail each host of ``hosts`` in turn (default: every host, N+1) and report what breaks:
    hosts over ``cpu_util_max`` or 100% memory, VMs over ``p95_ms_max``, arrays and NICs past
    100%, VMs no host can restart, FT VMs left without a secondary."""
    ev = evaluate or _run
    c0 = compile_design(design)
    base_pred = ev(c0)
    baseline = policy_breaches(base_pred, c0.policy)
    before = _figures(base_pred)
    out = FailureReport(dict(c0.policy), baseline, [])
    for hid in hosts if hosts is not None else [h.id for h in design.of_kind("host")]:
        failed, res = fail_host(design, hid)
        breaches: list[Breach] = []
        if failed.of_kind("host"):
            c = compile_design(failed)
            breaches = policy_breaches(ev(c), c.policy)
        else:
            res.notes.append("no host survives: nothing is left to evaluate")
        res.breaches = [Breach(b.component, b.resource, b.value, b.limit,
                               before.get((b.resource, b.component)), b.name)
                        for b in breaches]
        res.breaches += [Breach(vm, "restart", 1.0, 0.0, name=_name(design, vm))
                         for vm in res.not_restarted]
        res.breaches += [Breach(f.vm, "ft", 1.0, 0.0, name=_name(design, f.vm))
                         for f in res.ft if f.secondary is None]
        out.failures.append(res)
    return out


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
