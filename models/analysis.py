"""Analyses over the engine: goal seek, host-failure what-if (N+1), sensitivity (tornado).

Every analysis takes an optional ``evaluate`` callable (compiled design -> prediction; by
default :func:`models.engine.run`) so that its search and bookkeeping can be tested with a
small stand-in model, whatever the subsystem models currently return.

Policy (``design.policy``): a design *meets policy* when no host is over ``cpu_util_max`` or
past 100% memory, no VM's p95 response time is over ``p95_ms_max``, and no storage array or
NIC is past 100% busy.  ``ha_spare_hosts`` is added on top of the hosts the load needs.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from models import engine as engine_mod
from models.compiled import Compiled, compile_design
from models.design import (
    Component,
    Design,
    DesignError,
    Issue,
    Link,
    Override,
    apply_scenario,
    normalise,
)
from models.knobs import Knob, knobs_for
from models.prediction import Prediction
from models.schema import Value

Evaluate = Callable[[Compiled], Prediction]
"""Compiled design -> prediction; :func:`models.engine.run` unless a test injects another."""

VMS_PER_HOST_CAP = 1024
"""Search cap for ``seek --goal vms``: the vSphere 6.0-8.0 configuration maximum of
1,024 virtual machines per host (VMware Configuration Maximums)."""

SLIDER_TICKS = 100
"""Steps across a knob's slider range when the knob declares no step (``--band step``)."""

_EPS = 1e-9


def _run(c: Compiled) -> Prediction:
    return engine_mod.run(c)


# =========================================================================== policy


@dataclass(frozen=True)
class Breach:
    """One component past a limit: ``resource`` is cpu, memory, p95, array, nic, restart
    or ft; ``before`` is the same figure in the intact design (None when not known)."""

    component: str
    resource: str
    value: float
    limit: float
    before: float | None = None

    def describe(self) -> str:
        if self.resource == "restart":
            return f"vm {self.component}: no surviving host can restart it"
        if self.resource == "ft":
            return f"vm {self.component}: FT cannot place a new secondary (unprotected)"
        if self.resource == "p95":
            return f"vm {self.component}: p95 {self.value:.4g} ms > {self.limit:.4g} ms"
        what = {"cpu": "host CPU", "memory": "host memory", "array": "array",
                "nic": "NIC"}.get(self.resource, self.resource)
        return f"{what} {self.component}: {self.value:.1%} > {self.limit:.1%}"

    def to_dict(self) -> dict[str, Any]:
        return {"component": self.component, "resource": self.resource,
                "value": _finite(self.value), "limit": _finite(self.limit),
                "before": None if self.before is None else _finite(self.before),
                "text": self.describe()}


def _finite(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None


def policy_breaches(pred: Prediction, policy: dict[str, float]) -> list[Breach]:
    """Every way ``pred`` is outside the policy (NaN, "not modelled", never breaches)."""
    out: list[Breach] = []
    cpu_max, p95_max = policy["cpu_util_max"], policy["p95_ms_max"]
    checks: tuple[tuple[str, list[str], np.ndarray, float], ...] = (
        ("cpu", pred.hosts.ids, pred.hosts.cpu_util, cpu_max),
        ("memory", pred.hosts.ids, pred.hosts.memory_util, 1.0),
        ("p95", pred.vms.ids, pred.vms.p95_latency_ms, p95_max),
        ("array", pred.arrays.ids, pred.arrays.util, 1.0),
        ("nic", pred.nics.ids, pred.nics.util, 1.0),
    )
    for resource, ids, values, limit in checks:
        vals = np.asarray(values, dtype=float)
        over = np.flatnonzero(np.nan_to_num(vals, nan=-np.inf) > limit * (1 + _EPS))
        out.extend(Breach(ids[i], resource, float(vals[i]), limit) for i in over)
    return out


def storage_p95_breaches(pred: Prediction, policy: dict[str, float]) -> list[Breach]:
    """VMs that do I/O whose p95 is over ``p95_ms_max`` (what ``seek --goal oio`` holds to:
    the p95 the prediction's summary reports)."""
    io = set(np.asarray(pred.vms.ids)[np.nan_to_num(pred.vms.iops) > 0].tolist())
    return [b for b in policy_breaches(pred, policy) if b.resource == "p95"
            and b.component in io]


def _worst(breaches: list[Breach]) -> list[Breach]:
    """Breaches ordered by how far past their limit they are."""
    return sorted(breaches, key=lambda b: -(b.value / b.limit if b.limit > 0 else math.inf))


def _binding(breaches: list[Breach]) -> str:
    """The resources that failed, the worst first (``p95``, ``cpu+memory``...)."""
    seen: list[str] = []
    for b in _worst(breaches):
        if b.resource not in seen:
            seen.append(b.resource)
    return "+".join(seen)


# =========================================================================== design builders


@dataclass
class _Topology:
    hosts: list[Component]
    vms: list[Component]
    nics_of: dict[str, list[Component]]
    storage_of: dict[str, list[Link]]
    site_of: dict[str, Link]
    runs_on: dict[str, str]
    secondary: dict[str, str]
    disk_on: dict[str, str]
    kept: list[Component]
    """Components other than hosts, VMs and installed NICs (arrays, sites, loose NICs)."""
    wan: list[Link]
    passthrough: int


def _topology(design: Design) -> _Topology:
    hosts, vms = design.of_kind("host"), design.of_kind("vm")
    comps = {c.id: c for c in design.components}
    t = _Topology(hosts, vms, {h.id: [] for h in hosts}, {h.id: [] for h in hosts}, {}, {}, {},
                  {}, [], [], 0)
    installed: set[str] = set()
    for lk in design.links:
        if lk.kind == "installed_in":
            t.nics_of[lk.target].append(comps[lk.source])
            installed.add(lk.source)
        elif lk.kind == "storage":
            t.storage_of[lk.source].append(lk)
        elif lk.kind == "located_at":
            t.site_of[lk.source] = lk
        elif lk.kind == "runs_on":
            t.runs_on[lk.source] = lk.target
        elif lk.kind == "ft_secondary_on":
            t.secondary[lk.source] = lk.target
        elif lk.kind == "disk_on":
            t.disk_on[lk.source] = lk.target
        elif lk.kind == "wan":
            t.wan.append(lk)
        elif lk.kind == "passthrough":
            t.passthrough += 1
    t.kept = [c for c in design.components
              if c.kind not in ("host", "vm") and c.id not in installed]
    return t


def _mix_key(vm: Component) -> tuple[str, float, float, str]:
    """Sort key that groups like VMs (workload profile, size, then every other property) so
    that dealing them round robin gives every host the same mix."""
    rest = repr(sorted((k, repr(v)) for k, v in vm.props.items()))
    return (str(vm.get("workload.profile")), float(vm.get("vcpus") or 0),
            float(vm.get("memory_gb") or 0), rest)


def _replica(comp: Component, r: int) -> Component:
    if r == 0:
        return comp
    return Component(f"{comp.id}~{r + 1}", comp.kind, f"{comp.name or comp.id} #{r + 1}",
                     comp.x, comp.y, list(comp.tags), dict(comp.props))


def rebuild(design: Design, n_hosts: int | None = None,
            vms_per_host: int | None = None) -> tuple[Design, list[str]]:
    """A new design with ``n_hosts`` hosts and/or ``vms_per_host`` VMs on every host.

    Method (documented for ``seek``): host ``i`` is a copy of the design's host
    ``i mod H`` with that host's NICs, storage paths and site (copies get ids ``<id>~2``,
    ``<id>~3``...), so the hardware mix stays the same.  The design's VMs are sorted so that
    like VMs (profile, vCPUs, memory, other properties) sit together; VM ``j`` is a copy of
    VM ``j mod V`` of that list (same workload, same datastore) and runs on host
    ``j mod n_hosts``: dealt round robin, every host gets the same count (within one) and the
    same mix of VM kinds.  An FT secondary goes to the next host.  Passthrough NICs
    cannot follow a VM to another host and are left out (a note says so).  Components the
    original design holds are shared, not copied: the input design is never changed.
    """
    t = _topology(design)
    if not t.hosts:
        raise DesignError([Issue("design", "has no hosts to replicate")])
    m = len(t.hosts) if n_hosts is None else n_hosts
    nv = len(t.vms) if vms_per_host is None else vms_per_host * m
    notes: list[str] = []
    if t.passthrough:
        notes.append(f"{t.passthrough} passthrough NIC link(s) left out: a passed-through NIC"
                     " cannot follow its VM to another host")
    out = Design(name=design.name, notes=design.notes, policy=dict(design.policy),
                 scenarios=[])
    out.components.extend(t.kept)
    out.links.extend(t.wan)
    hosts: list[str] = []
    for i in range(m):
        tpl, r = t.hosts[i % len(t.hosts)], i // len(t.hosts)
        host = _replica(tpl, r)
        hosts.append(host.id)
        out.components.append(host)
        for nic in t.nics_of[tpl.id]:
            copy = _replica(nic, r)
            out.components.append(copy)
            out.links.append(Link(copy.id, host.id, "installed_in"))
        out.links.extend(Link(host.id, lk.target, "storage", dict(lk.props))
                         for lk in t.storage_of[tpl.id])
        if tpl.id in t.site_of:
            out.links.append(Link(host.id, t.site_of[tpl.id].target, "located_at"))
    dropped_ft = 0
    dealt = sorted(t.vms, key=_mix_key)
    for j in range(nv if t.vms else 0):
        tpl, r = dealt[j % len(dealt)], j // len(dealt)
        vm = _replica(tpl, r)
        out.components.append(vm)
        h = j % m
        out.links.append(Link(vm.id, hosts[h], "runs_on"))
        if tpl.id in t.disk_on:
            out.links.append(Link(vm.id, t.disk_on[tpl.id], "disk_on"))
        if tpl.id in t.secondary:
            if m >= 2:
                out.links.append(Link(vm.id, hosts[(h + 1) % m], "ft_secondary_on"))
            else:
                dropped_ft += 1
    if dropped_ft:
        notes.append(f"{dropped_ft} FT secondary(ies) left out: FT needs a second host")
    return out, notes


# =========================================================================== goal seek


@dataclass(frozen=True)
class Trial:
    value: int
    ok: bool
    breaches: list[Breach]

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "ok": self.ok, "binding": _binding(self.breaches) or None,
                "worst": [b.to_dict() for b in _worst(self.breaches)[:3]]}


@dataclass
class SeekResult:
    goal: str
    """``hosts``, ``oio`` or ``vms``."""
    value: int | None
    """The answer (total hosts including HA spares, OIO per VM, VMs per host); None when no
    value in the searched range meets policy."""
    unit: str
    feasible: bool
    binding: str
    """What stops the answer from being better: the resource(s) that fail one step past it
    (cpu, memory, p95, array, nic), or the search limit."""
    binding_detail: list[Breach]
    current: float | None
    """The design's own figure (hosts, median OIO, VMs per host)."""
    search: tuple[int, int]
    method: str
    trials: list[Trial]
    notes: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"goal": self.goal, "value": self.value, "unit": self.unit,
                "feasible": self.feasible, "binding": self.binding,
                "binding_detail": [b.to_dict() for b in _worst(self.binding_detail)[:5]],
                "current": self.current, "search": list(self.search), "method": self.method,
                "trials": [tr.to_dict() for tr in sorted(self.trials, key=lambda x: x.value)],
                "notes": list(self.notes), **self.extra}


class _Probe:
    """Memoised policy test of one integer setting."""

    def __init__(self, fn: Callable[[int], list[Breach]]):
        self.fn = fn
        self.trials: dict[int, Trial] = {}

    def __call__(self, x: int) -> bool:
        if x not in self.trials:
            breaches = self.fn(x)
            self.trials[x] = Trial(x, not breaches, breaches)
        return self.trials[x].ok


def largest_ok(ok: Callable[[int], bool], lo: int, hi: int, start: int) -> int | None:
    """The largest ``x`` in [lo, hi] with ``ok(x)``, for ``ok`` true up to a threshold and
    false after it: gallop up from ``start`` by doubling, then bisect."""
    if not ok(lo):
        return None
    good, bad = lo, None
    x = min(max(start, lo), hi)
    if ok(x):
        good = x
    else:
        bad = x
    while bad is None:
        if good >= hi:
            return hi
        x = min(hi, max(good + 1, good * 2))
        if ok(x):
            good = x
        else:
            bad = x
    while bad - good > 1:
        mid = (good + bad) // 2
        if ok(mid):
            good = mid
        else:
            bad = mid
    return good


def smallest_ok(ok: Callable[[int], bool], lo: int, hi: int, start: int) -> int | None:
    """The smallest ``x`` in [lo, hi] with ``ok(x)``, for ``ok`` false below a threshold and
    true from it: gallop up from ``start`` by doubling until it holds, then bisect."""
    x = min(max(start, lo), hi)
    good: int | None = x if ok(x) else None
    bad: int | None = None if good is not None else x
    while good is None:
        assert bad is not None
        if bad >= hi:
            return None
        x = min(hi, bad * 2)
        if ok(x):
            good = x
        else:
            bad = x
    if bad is None:
        if ok(lo):
            return lo
        bad = lo
    while good - bad > 1:
        mid = (good + bad) // 2
        if ok(mid):
            good = mid
        else:
            bad = mid
    return good


GOALS = ("hosts", "oio", "vms")


def seek(design: Design, goal: str, *, limit: int | None = None,
         evaluate: Evaluate | None = None) -> SeekResult:
    """Goal seek on ``design`` (scenario and overrides already applied).

    ``hosts``: the fewest hosts meeting policy, plus ``policy.ha_spare_hosts`` (see
    :func:`rebuild` for how hosts are added or removed).  ``oio``: the largest
    ``workload.io_oio`` given to every VM that keeps the p95 latency of every VM doing I/O
    within ``p95_ms_max`` (:func:`storage_p95_breaches`).  ``vms``: the largest number of
    VMs per host (same mix, spread evenly) meeting policy.  ``limit`` caps the search
    (defaults: as many hosts as VMs, the OIO knob's maximum, 1,024 VMs per host).
    """
    ev = evaluate or _run
    if goal not in GOALS:
        raise DesignError([Issue("seek", f"unknown goal '{goal}' (known: {', '.join(GOALS)})")])
    vms, hosts = design.of_kind("vm"), design.of_kind("host")
    if not vms:
        raise DesignError([Issue("seek", "the design has no VMs, so nothing constrains it")])
    if goal in ("hosts", "vms") and not hosts:
        raise DesignError([Issue("seek", "the design has no hosts to replicate")])
    if limit is not None and limit < 1:
        raise DesignError([Issue("seek", f"--max must be at least 1, got {limit}")])
    notes: list[str] = []

    def check(d: Design) -> list[Breach]:
        c = compile_design(d)
        return policy_breaches(ev(c), c.policy)

    if goal == "hosts":
        has_ft = any(lk.kind == "ft_secondary_on" for lk in design.links)
        lo = 2 if has_ft else 1
        hi = max(lo, limit if limit is not None else len(vms))
        spare = int(design.policy_value("ha_spare_hosts") or 0)

        def hosts_fn(m: int) -> list[Breach]:
            d, n = rebuild(design, n_hosts=m)
            for note in n:
                if note not in notes:
                    notes.append(note)
            return check(d)

        probe = _Probe(hosts_fn)
        best = smallest_ok(probe, lo, hi, min(max(len(hosts) - spare, lo), hi))
        neighbour = None if best is None else best - 1
        edge = f"{'FT needs two hosts' if has_ft else 'one host'}"
        result = _result("hosts", best, "hosts", probe, neighbour, (lo, hi), float(len(hosts)),
                         edge, "max hosts searched", notes)
        result.method = ("fewest hosts: host i is a copy of design host (i mod H) with its "
                         "NICs and storage paths; like VMs dealt round robin over the hosts; "
                         "smallest count meeting policy by doubling then bisection; plus "
                         "policy.ha_spare_hosts")
        result.extra = {"active_hosts": best, "ha_spare_hosts": spare}
        if best is not None:
            result.value = best + spare
        return result

    if goal == "oio":
        cc = compile_design(_light_copy(design))
        lo, hi = 1, limit if limit is not None else 256
        current = float(np.median(cc.vm.cols["workload.io_oio"]))

        def oio_fn(x: int) -> list[Breach]:
            cc.patch(Override("vm", "workload.io_oio", x))
            return storage_p95_breaches(ev(cc), cc.policy)

        probe = _Probe(oio_fn)
        best = largest_ok(probe, lo, hi, max(lo, min(int(current), hi)))
        result = _result("oio", best, "I/Os", probe, None if best is None else best + 1,
                         (lo, hi), current, "", f"OIO search limit {hi}", notes)
        result.method = ("largest workload.io_oio set on every VM that keeps every I/O VM's "
                         "p95 within policy: galloping then bisection on one compiled design "
                         "(patch + evaluate)")
        return result

    per_host = math.ceil(len(vms) / len(hosts))
    base_pred = ev(compile_design(design))
    con = base_pred.consolidation
    hints = [x for x in (con.max_vms_per_host_by_cpu, con.max_vms_per_host_by_p95)
             if x is not None and x > 0]
    hi = limit if limit is not None else VMS_PER_HOST_CAP

    def vms_fn(k: int) -> list[Breach]:
        d, n = rebuild(design, vms_per_host=k)
        for note in n:
            if note not in notes:
                notes.append(note)
        return check(d)

    probe = _Probe(vms_fn)
    start = min(hints) if hints else per_host
    best = largest_ok(probe, 1, hi, max(1, min(start, hi)))
    cap = ("vSphere maximum of 1,024 VMs per host" if limit is None
           else f"VMs-per-host search limit {hi}")
    result = _result("vms", best, "VMs per host", probe, None if best is None else best + 1,
                     (1, hi), len(vms) / len(hosts), "", cap, notes)
    result.method = ("largest VMs per host meeting policy: every host runs k VMs copied "
                     "from the design's (like VMs dealt round robin, so each host gets the "
                     "design's mix); galloping then bisection")
    result.extra = {"engine_max_vms_per_host_by_cpu": con.max_vms_per_host_by_cpu,
                    "engine_max_vms_per_host_by_p95": con.max_vms_per_host_by_p95,
                    "total_vms": None if best is None else best * len(hosts)}
    return result


def _result(goal: str, best: int | None, unit: str, probe: _Probe, neighbour: int | None,
            search: tuple[int, int], current: float | None, low_edge: str, high_edge: str,
            notes: list[str]) -> SeekResult:
    trials = list(probe.trials.values())
    lo, hi = search
    if best is None:
        # the most favourable end of the range failed: its breaches say why
        end = hi if goal == "hosts" else lo
        detail = probe.trials[end].breaches if end in probe.trials else []
        return SeekResult(goal, None, unit, False, _binding(detail) or "no value meets policy",
                          detail, current, search, "", trials, notes)
    if neighbour is None or neighbour < lo or neighbour > hi or neighbour not in probe.trials:
        binding = high_edge if goal != "hosts" else low_edge
        return SeekResult(goal, best, unit, True, binding, [], current, search, "", trials,
                          notes)
    detail = probe.trials[neighbour].breaches
    return SeekResult(goal, best, unit, True, _binding(detail), detail, current, search, "",
                      trials, notes)


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
    the design draws no storage paths to it).  An FT VM whose primary fails continues on its
    secondary's host and gets a new secondary on the least-loaded other host; one that loses
    its secondary gets a new one the same way.  Returns the new design and the placement part
    of the result (breaches are filled in by :func:`host_failure`).
    """
    host = design.component(host_id)
    if host is None or host.kind != "host":
        known = ", ".join(h.id for h in design.of_kind("host")) or "none"
        raise DesignError([Issue(f"--host {host_id}", f"no host with that id (hosts: {known})")])
    t = _topology(design)
    gone = {host_id} | {n.id for n in t.nics_of[host_id]}
    survivors = [h.id for h in t.hosts if h.id != host_id]
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
            target = place(vm)
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
        res.notes.append(f"{dropped} restarted VM(s) lose their passthrough NIC")
    return out, res


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
                               before.get((b.resource, b.component))) for b in breaches]
        res.breaches += [Breach(vm, "restart", 1.0, 0.0) for vm in res.not_restarted]
        res.breaches += [Breach(f.vm, "ft", 1.0, 0.0) for f in res.ft if f.secondary is None]
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


# =========================================================================== sensitivity


def _hosts_needed(p: Prediction) -> float:
    n = p.consolidation.hosts_needed
    return math.nan if n is None else float(n)


OUTPUTS: dict[str, tuple[str, Callable[[Prediction], float]]] = {
    "total_iops": ("IOPS", lambda p: p.total_iops),
    "mean_latency_ms": ("ms", lambda p: p.mean_latency_ms),
    "p95_latency_ms": ("ms", lambda p: p.p95_latency_ms),
    "ft_logging_mbps": ("Mbit/s", lambda p: p.ft_logging_mbps),
    "vms_per_host": ("VMs", lambda p: p.consolidation.vms_per_host),
    "hosts_needed": ("hosts", _hosts_needed),
}
"""The outputs a sensitivity study can rank knobs by: name -> (unit, reader)."""

BANDS = ("range", "step")


@dataclass
class KnobSwing:
    """One bar of the tornado: the output at the two ends of the knob's band."""

    path: str
    label: str
    unit: str
    group: str
    low: Value
    high: Value
    """Numeric knobs: the settings at the two ends of the band.  Enums and bools: the choices
    giving the smallest and the largest output."""
    output_low: float
    output_high: float
    swing: float
    """Largest minus smallest output over every setting tried (NaN: not modelled)."""
    points: list[tuple[Value, float]]

    def to_dict(self, baseline: float) -> dict[str, Any]:
        rel = self.swing / abs(baseline) if abs(baseline) > 0 and math.isfinite(self.swing) \
            else None
        return {"path": self.path, "label": self.label, "unit": self.unit, "group": self.group,
                "low": self.low, "high": self.high, "output_low": _finite(self.output_low),
                "output_high": _finite(self.output_high), "swing": _finite(self.swing),
                "relative_swing": _finite(rel) if rel is not None else None,
                "points": [{"value": v, "output": _finite(o)} for v, o in self.points]}


@dataclass
class Sensitivity:
    output: str
    unit: str
    band: str
    baseline: float
    knobs: list[KnobSwing]
    """Largest swing first (knobs whose output is not modelled last)."""
    evaluations: int
    elapsed_ms: float
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"output": self.output, "unit": self.unit, "band": self.band,
                "baseline": _finite(self.baseline), "evaluations": self.evaluations,
                "knobs": [k.to_dict(self.baseline) for k in self.knobs],
                "notes": list(self.notes)}


class _Column:
    """A knob's column in a compiled design, saved so it can be put back exactly (rows may
    hold different values, which one override could not restore)."""

    def __init__(self, c: Compiled, knob: Knob):
        self.c, self.kind, self.prop = c, knob.kind, knob.prop
        if self.kind == "design":
            self.policy = dict(c.policy)
            self.design_policy = dict(c.design.policy)
            return
        self.table = c.tables[self.kind] if self.kind in c.tables else c.links[self.kind]
        self.saved = self.table.cols[self.prop].copy()
        self.owners: list[Component | Link] = (
            [x for x in c.design.components if x.kind == self.kind] if self.kind in c.tables
            else [lk for lk in c.design.links if lk.kind == self.kind])
        self.props = [o.props.get(self.prop, _MISSING) for o in self.owners]

    def values(self) -> np.ndarray:
        return self.saved

    def write(self, values: np.ndarray) -> None:
        """Per-row numeric values (already valid), straight into the column and the
        design's components (what :meth:`Compiled.patch` does for one value)."""
        spec = self.table.specs[self.prop]
        self.table.cols[self.prop][:] = values
        for o, v in zip(self.owners, values.tolist(), strict=True):
            if math.isfinite(v):
                o.props[self.prop] = normalise(spec, v)

    def restore(self) -> None:
        if self.kind == "design":
            self.c.policy.clear()
            self.c.policy.update(self.policy)
            self.c.design.policy.clear()
            self.c.design.policy.update(self.design_policy)
            return
        self.table.cols[self.prop][:] = self.saved
        for o, v in zip(self.owners, self.props, strict=True):
            if v is _MISSING:
                o.props.pop(self.prop, None)
            else:
                o.props[self.prop] = v  # type: ignore[assignment]


_MISSING = object()


def _bounds(knob: Knob) -> tuple[float | None, float | None]:
    spec = knob.spec
    lo = knob.min if knob.min is not None else spec.min
    hi = knob.max if knob.max is not None else spec.max
    if spec.min is not None and lo is not None:
        lo = max(lo, spec.min)
    if spec.max is not None and hi is not None:
        hi = min(hi, spec.max)
    return lo, hi


def band_settings(knob: Knob, current: np.ndarray, band: str) -> list[Value | np.ndarray]:
    """The settings a sensitivity study tries for ``knob``.

    Enums and bools: every choice.  Numbers restricted to a set (NIC speed, PCIe lanes): every
    allowed value within the knob's range (``range``) or each row's neighbours in the set
    (``step``).  Other numbers: ``range`` tries the knob's slider min and max (the schema's
    range when the knob has none); ``step`` moves each row's own value one slider step down
    and up (the knob's step, or 1/100 of its range, geometric for log knobs), kept in range.
    A setting is a single value for every row or an array with one value per row.
    """
    spec = knob.spec
    if spec.type == "bool":
        return [False, True]
    if spec.type == "enum" and spec.choices is not None and isinstance(spec.choices[0], str):
        return list(spec.choices)
    lo, hi = _bounds(knob)
    if spec.choices is not None:
        allowed = sorted(float(x) for x in spec.choices
                         if (lo is None or float(x) >= lo) and (hi is None or float(x) <= hi))
        if band == "range":
            return [normalise(spec, x) for x in allowed]
        arr = np.asarray(allowed)
        idx = np.clip(np.searchsorted(arr, current), 0, len(arr) - 1)
        return [arr[np.maximum(idx - 1, 0)], arr[np.minimum(idx + 1, len(arr) - 1)]]
    if lo is None or hi is None:
        return []
    if band == "range":
        return [normalise(spec, lo), normalise(spec, hi)]
    if knob.step is not None:
        down, up = current - knob.step, current + knob.step
    elif knob.log and lo > 0:
        f = (hi / lo) ** (1.0 / SLIDER_TICKS)
        down, up = current / f, current * f
    else:
        d = (hi - lo) / SLIDER_TICKS
        down, up = current - d, current + d
    out: list[Value | np.ndarray] = []
    for moved in (down, up):
        arr = np.clip(moved, lo, hi)
        if spec.type == "int":
            arr = np.round(arr)
        out.append(np.where(np.isnan(current), current, arr))
    return out


def sensitivity(design: Design, output: str, *, band: str = "range",
                knobs: list[Knob] | None = None, evaluate: Evaluate | None = None,
                scenario: str | None = None) -> Sensitivity:
    """Rank the knobs of ``design`` by how far each moves ``output``.

    The design is compiled once (like :class:`models.engine.Engine`, on a copy whose
    components are copied one level deep, far cheaper than a deep copy); for each knob every
    setting of :func:`band_settings` is patched in (:meth:`Compiled.patch` for a single value,
    a column write for per-row values), evaluated, and the knob's column is then put back
    exactly before the next knob.  Nothing is re-parsed or recompiled per step.
    """
    if output not in OUTPUTS:
        raise DesignError([Issue("sensitivity", f"unknown output '{output}' (known: "
                                 + ", ".join(OUTPUTS) + ")")])
    if band not in BANDS:
        raise DesignError([Issue("sensitivity", f"unknown band '{band}' (known: "
                                 + ", ".join(BANDS) + ")")])
    t0 = time.perf_counter()
    ev = evaluate or _run
    unit, read = OUTPUTS[output]
    c = compile_design(_light_copy(apply_scenario(design, scenario)))
    baseline = read(ev(c))
    n_eval = 1
    rows: list[KnobSwing] = []
    notes: list[str] = []
    for k in knobs if knobs is not None else knobs_for(design):
        col = _Column(c, k)
        current = (np.array([c.policy[k.prop.removeprefix("policy.")]]) if k.kind == "design"
                   else col.values().astype(float) if k.spec.type in ("int", "float")
                   else np.zeros(0))
        settings = band_settings(k, current, band)
        if not settings:
            notes.append(f"{k.path}: no range to move it over")
            continue
        points: list[tuple[Value, float]] = []
        for s in settings:
            if isinstance(s, np.ndarray):
                if k.kind == "design":
                    c.patch(Override("design", k.prop, normalise(k.spec, float(s[0]))))
                    label: Value = normalise(k.spec, float(s[0]))
                else:
                    col.write(s)
                    label = _row_label(k, s, len(points))
            else:
                c.patch(Override(k.kind, k.prop, s))
                label = s
            try:
                value = read(ev(c))
            except (ValueError, ArithmeticError) as err:
                notes.append(f"{k.path}={label}: the engine failed ({err})")
                value = math.nan
            n_eval += 1
            points.append((label, value))
        col.restore()
        rows.append(_swing(k, points))
    rows.sort(key=lambda r: (not math.isfinite(r.swing), -r.swing if math.isfinite(r.swing)
                             else 0.0, r.path))
    return Sensitivity(output, unit, band, baseline, rows, n_eval,
                       (time.perf_counter() - t0) * 1000.0, notes)


def _light_copy(design: Design) -> Design:
    """A copy whose components and links are new objects with their own props dicts (all
    that patching writes to); values are immutable, so nothing else needs copying."""
    return Design(design.name, design.notes, dict(design.policy),
                  [Component(c.id, c.kind, c.name, c.x, c.y, list(c.tags), dict(c.props))
                   for c in design.components],
                  [Link(lk.source, lk.target, lk.kind, dict(lk.props)) for lk in design.links],
                  list(design.scenarios))


def _row_label(k: Knob, values: np.ndarray, i: int) -> Value:
    finite = values[np.isfinite(values)]
    if finite.size and np.all(finite == finite[0]):
        return normalise(k.spec, float(finite[0]))
    return "-1 step" if i == 0 else "+1 step"


def _swing(k: Knob, points: list[tuple[Value, float]]) -> KnobSwing:
    outs = np.array([o for _, o in points], dtype=float)
    finite = np.isfinite(outs)
    swing = float(outs[finite].max() - outs[finite].min()) if finite.any() else math.nan
    spec = k.spec
    numeric = spec.type in ("int", "float")
    if numeric or not finite.any() or swing == 0.0:
        lo_i, hi_i = 0, len(points) - 1
    else:
        lo_i = int(np.nanargmin(np.where(finite, outs, np.nan)))
        hi_i = int(np.nanargmax(np.where(finite, outs, np.nan)))
    return KnobSwing(k.path, k.label, spec.unit, k.group, points[lo_i][0], points[hi_i][0],
                     float(outs[lo_i]), float(outs[hi_i]), swing, points)
