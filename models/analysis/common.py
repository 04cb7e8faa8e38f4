"""What the analyses share: evaluation, policy checks, and designs rebuilt with N hosts.

Every analysis takes an optional ``evaluate`` callable (compiled design -> prediction; by
default :func:`models.engine.evaluation.run`) so that its search and bookkeeping can be tested with
a small stand-in model, whatever the subsystem models currently return.

Policy (``design.policy``): a design *meets policy* when no host is over ``cpu_util_max`` or
``memory_util_max`` (100% memory by default), no VM's p95 response time is over
``p95_ms_max``, and no storage array or NIC is past 100% busy.  ``ha_spare_hosts`` is added
on top of the hosts the load needs.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from models.core.compiled import Compiled
from models.core.prediction import Prediction
from models.document.design import (
    Component,
    Design,
    DesignError,
    Issue,
    Link,
    Value,
)
from models.document.numbers import percent, with_unit
from models.document.words import counted
from models.engine import evaluation as engine_mod
from models.subsystems.storage_background import IO_KB, READ_PCT

Evaluate = Callable[[Compiled], Prediction]
"""Compiled design -> prediction; :func:`models.engine.evaluation.run` unless a test injects
another."""

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
    or ft; ``before`` is the same figure in the intact design (None when not known);
    ``name`` is how the user knows the component (its id when it has no name)."""

    component: str
    resource: str
    value: float
    limit: float
    before: float | None = None
    name: str = ""

    def describe(self) -> str:
        who = self.name or self.component
        if self.resource == "restart":
            return f"VM {who}: no surviving host can restart it"
        if self.resource == "ft":
            return f"VM {who}: FT cannot place a new secondary (unprotected)"
        if self.resource == "p95":
            value = apart(self.value, self.limit, lambda x, d: f"{x:.{d + 2}g} ms")
            return f"VM {who}: p95 {value}, over the {with_unit(self.limit, 'ms')} ceiling"
        what = {"cpu": "host CPU", "memory": "host memory", "array": "array",
                "nic": "NIC"}.get(self.resource, self.resource)
        value = apart(self.value * 100, self.limit * 100, lambda x, d: f"{x:.{d - 1}f} %")
        return f"{what} {who}: {value}, over {percent(self.limit)}"

    def to_dict(self) -> dict[str, Any]:
        return {"component": self.component, "resource": self.resource,
                "value": _finite(self.value), "limit": _finite(self.limit),
                "before": None if self.before is None else _finite(self.before),
                "text": self.describe()}


def _finite(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None


def apart(value: float, limit: float, digits: Callable[[float, int], str]) -> str:
    """``value`` worded by ``digits(x, d)`` with the fewest digits (1 to 8) at which it
    still reads above ``limit``: a breach never reads '100 ms, over 100 ms'."""
    for d in range(1, 9):
        text = digits(value, d)
        if float(text.split()[0]) > limit:
            return text
    return digits(value, 8)


def policy_breaches(pred: Prediction, policy: dict[str, float]) -> list[Breach]:
    """Every way ``pred`` is outside the policy (NaN, "not modelled", never breaches)."""
    out: list[Breach] = []
    cpu_max, p95_max = policy["cpu_util_max"], policy["p95_ms_max"]
    checks: tuple[tuple[str, Any, np.ndarray, float], ...] = (
        ("cpu", pred.hosts, pred.hosts.cpu_util, cpu_max),
        ("memory", pred.hosts, pred.hosts.memory_util, policy.get("memory_util_max", 1.0)),
        ("p95", pred.vms, pred.vms.p95_latency_ms, p95_max),
        ("array", pred.arrays, pred.arrays.util, 1.0),
        ("nic", pred.nics, pred.nics.util, 1.0),
    )
    for resource, arrays, values, limit in checks:
        vals = np.asarray(values, dtype=float)
        over = np.flatnonzero(np.nan_to_num(vals, nan=-np.inf) > limit * (1 + _EPS))
        names = getattr(arrays, "names", None) or arrays.ids
        out.extend(Breach(arrays.ids[i], resource, float(vals[i]), limit, name=names[i])
                   for i in over)
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
    cluster_of: dict[str, str] = field(default_factory=dict)
    """Host -> the cluster it belongs to (``in_cluster``)."""


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
        elif lk.kind == "in_cluster":
            t.cluster_of[lk.source] = lk.target
    t.kept = [c for c in design.components
              if c.kind not in ("host", "vm") and c.id not in installed]
    return t


def _mix_key(vm: Component) -> tuple[str, float, float, str]:
    """Sort key that groups like VMs (workload profile, size, then every other property) so
    that dealing them round robin gives every host the same mix."""
    rest = repr(sorted((k, repr(v)) for k, v in vm.props.items()))
    return (str(vm.get("workload.profile")), float(vm.get("vcpus") or 0),
            float(vm.get("memory_gb") or 0), rest)


BACKGROUND = ("background.cpu_cores", "background.cpu_ghz", "background.memory_gb",
              "provenance.background")
"""A host's background load (:mod:`models.analysis.baseline` solves it)."""
BACKGROUND_IO = ("background.iops", "background.read_pct", "background.io_kb")
"""A host's background I/O (issue 36)."""


@dataclass
class IoBackground:
    """Hosts' background I/O summed: IOPS, and reads and KB moved per second (their mix)."""

    iops: float = 0.0
    reads: float = 0.0
    kb: float = 0.0
    """Reads per second and KB per second (None figures of a host: a VM's defaults)."""

    def scaled(self, f: float) -> IoBackground:
        return IoBackground(self.iops * f, self.reads * f, self.kb * f)

    def __add__(self, other: IoBackground) -> IoBackground:
        return IoBackground(self.iops + other.iops, self.reads + other.reads,
                            self.kb + other.kb)

    def props(self) -> dict[str, Value]:
        if self.iops <= 0:
            return {}
        return {"background.iops": round(self.iops, 4),
                "background.read_pct": round(self.reads / self.iops * 100.0, 3),
                "background.io_kb": round(self.kb / self.iops, 3)}


def io_background_of(hosts: list[Component]) -> IoBackground:
    """The hosts' background I/O summed, with its mix."""
    out = IoBackground()
    for h in hosts:
        iops = h.get("background.iops")
        if not isinstance(iops, (int, float)) or iops <= 0:
            continue
        read, kb = h.get("background.read_pct"), h.get("background.io_kb")
        out += IoBackground(float(iops), float(iops) * float(
            read if isinstance(read, (int, float)) else READ_PCT) / 100.0,
            float(iops) * float(kb if isinstance(kb, (int, float)) else IO_KB))
    return out


def background_of(hosts: list[Component]) -> tuple[float, float]:
    """The hosts' background load summed: CPU as work (core-equivalents x the clock they
    were measured at, GHz; the same work at another clock is that many of its cores) and
    memory (GB)."""
    work = memory = 0.0
    for h in hosts:
        cores, ghz = h.get("background.cpu_cores"), h.get("background.cpu_ghz")
        if isinstance(cores, (int, float)):
            clock = ghz if isinstance(ghz, (int, float)) else h.get("ghz")
            work += float(cores) * float(clock if isinstance(clock, (int, float)) else 2.4)
        mem = h.get("background.memory_gb")
        memory += float(mem) if isinstance(mem, (int, float)) else 0.0
    return work, memory


def with_background(host: Component, work: float, memory: float, why: str,
                    io: IoBackground | None = None) -> Component:
    """A copy of ``host`` whose background load is ``work`` (GHz x core-equivalents, at its
    own clock) and ``memory`` GB (none where both are zero), and its background I/O ``io``
    (None: the host's own, as it was)."""
    drop = BACKGROUND + (BACKGROUND_IO if io is not None else ())
    props = {k: v for k, v in host.props.items() if k not in drop}
    if io is not None:
        props.update(io.props())
    if work > 0 or memory > 0 or (io is not None and io.iops > 0):
        ghz = host.get("ghz")
        clock = float(ghz) if isinstance(ghz, (int, float)) else 2.4
        if work > 0:
            props["background.cpu_cores"] = round(work / clock, 6)
            props["background.cpu_ghz"] = clock
        if memory > 0:
            props["background.memory_gb"] = round(memory, 6)
        props["provenance.background"] = why
    return Component(host.id, host.kind, host.name, host.x, host.y, list(host.tags), props)


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
        notes.append(f"{counted(t.passthrough, 'passthrough NIC link')} left out: a"
                     " passed-through NIC cannot follow its VM to another host")
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
        if tpl.id in t.cluster_of:
            out.links.append(Link(host.id, t.cluster_of[tpl.id], "in_cluster"))
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


def _light_copy(design: Design) -> Design:
    """A copy whose components and links are new objects with their own props dicts (all
    that patching writes to); values are immutable, so nothing else needs copying."""
    return Design(design.name, design.notes, dict(design.policy),
                  [Component(c.id, c.kind, c.name, c.x, c.y, list(c.tags), dict(c.props))
                   for c in design.components],
                  [Link(lk.source, lk.target, lk.kind, dict(lk.props)) for lk in design.links],
                  list(design.scenarios))
