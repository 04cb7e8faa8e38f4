"""What to do about the bottleneck: design changes from the knob registry, each tried through
the engine, the one that helps most kept.

:data:`LEVERS` lists, per resource type, the changes an architect can make to relieve it
(more drives, a faster NIC, dense mode, ...) - never a lighter workload or a looser policy.
:func:`relieve` applies each one that fits the design to the busiest resource, evaluates the
result and returns the change that improves the design's headline figure most (or, failing
that, frees the resource most).  A report claims only what that evaluation computed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from models.core.prediction import Prediction, Resource
from models.document.design import Component, Design, Link, Override, apply_overrides, make_override
from models.document.design import targets as targets_of
from models.document.knobs import Knob, knob
from models.document.numbers import RESOLUTION
from models.document.schema import Value
from models.engine.evaluation import evaluate
from models.engine.kpis import KPI_BY_KEY, Kpi
from models.report.compare import judge

Target = Literal["self", "all", "host_vms", "host_nics", "host_ft_nics"]
Move = Literal["double", "next", "step", "set"]


@dataclass(frozen=True)
class Lever:
    resource: str
    """The resource type it relieves (as in :class:`~models.core.prediction.Resource`)."""
    path: str
    """The knob it moves (a registry path)."""
    target: Target
    """``self``: the busy component; ``all``: every component of the knob's kind;
    ``host_vms`` / ``host_nics`` / ``host_ft_nics``: the busy host's VMs, NICs, FT NICs."""
    move: Move
    """``double`` the value, the ``next`` larger choice, one ``step`` up, or ``set`` ``to``."""
    to: Value = None

    @property
    def knob(self) -> Knob:
        k = knob(self.path)
        assert k is not None, self.path
        return k


LEVERS: tuple[Lever, ...] = (
    Lever("array", "storage_array.disks", "self", "double"),
    Lever("array", "storage_array.raid", "self", "set", "raid10"),
    Lever("array", "storage_array.media", "self", "set", "ssd"),
    Lever("vcpu_io", "vm.vcpus", "self", "double"),
    Lever("vcpu_io", "vm.vscsi", "self", "set", "pvscsi"),
    Lever("host_cpu", "host.dense_mode", "self", "set", True),
    Lever("host_cpu", "vm.vscsi", "host_vms", "set", "pvscsi"),
    Lever("host_cpu", "nic.lro", "host_nics", "set", True),
    Lever("host_cpu", "host.hyperthreading", "self", "set", True),
    Lever("host_cpu", "host.cores_per_socket", "self", "double"),
    Lever("host_memory", "host.memory_gb", "self", "double"),
    Lever("nic", "nic.speed_gbps", "self", "next"),
    Lever("nic", "nic.vmdq", "self", "set", True),
    Lever("pcie", "nic.pcie_gen", "self", "step"),
    Lever("pcie", "nic.pcie_lanes", "self", "next"),
    Lever("ft_logging_nic", "nic.speed_gbps", "host_ft_nics", "next"),
    Lever("wan", "wan.gbps", "all", "double"),
    Lever("wan", "vm.workload.pcoip_codec", "all", "set", "view5"),
    Lever("wan", "vm.workload.pcoip_client_cache", "all", "set", True),
    Lever("multicast_replication", "vm.split_rx", "all", "set", True),
    Lever("library network", "content_library.network_gbps", "self", "next"),
    Lever("ESXi host copy", "content_library.network_gbps", "self", "next"),
    Lever("vCenter rhttpproxy", "content_library.rhttpproxy", "self", "set", False),
    Lever("Transfer Service TLS", "content_library.https", "self", "set", False),
    Lever("WAN", "content_library.mirror_server", "self", "set", True),
    Lever("WAN", "wan.gbps", "all", "double"),
    Lever("bandwidth limit", "content_library.max_bandwidth_mbps", "self", "set", 0),
)
"""Design changes per resource type, each a knob of the registry, tried in this order (a
setting before new hardware); the first that helps is the advice."""

HEADLINES = ("total_iops", "p95_response_ms", "library_min", "network_gbps", "wan_pct",
             "mean_latency_ms", "ft_latency_add_ms", "hosts_needed")
"""The figure a change is judged by: the first of these the design measures."""

BUSY = 0.7
"""From this utilisation a resource is worth relieving (the theme's amber), unless the design's
policy sets its ceiling (:data:`CEILINGS`)."""

CEILINGS = {"host_cpu": "cpu_util_max", "host_memory": "memory_util_max"}
"""Resources the design's policy holds to a ceiling of its own: worth relieving only at it (a
host at 82% CPU under a 90% ceiling is what the architect planned for, not a problem)."""


def worth_relieving(design: Design, r: Resource) -> bool:
    """Whether ``r`` is busy enough that the report looks for a change: at the design's own
    ceiling for host CPU and memory, else from :data:`BUSY`."""
    policy = CEILINGS.get(r.resource)
    ceiling = design.policy_value(policy) if policy is not None else None
    limit = float(ceiling) if isinstance(ceiling, int | float) else BUSY
    return r.util >= limit * (1.0 - 1e-9)


def headline(p: Prediction) -> Kpi | None:
    """The design's main figure with a better side (:data:`HEADLINES`; the WAN link for
    remote desktops, whose traffic is a cost, not a result)."""
    for key in ("wan_pct", *HEADLINES) if p.sections.vdi is not None else HEADLINES:
        kpi = KPI_BY_KEY[key]
        if kpi.value(p) is not None:
            return kpi
    return None


@dataclass(frozen=True)
class Remedy:
    """One lever tried on one bottleneck, and what the engine made of it."""

    lever: Lever
    resource: Resource
    overrides: tuple[Override, ...]
    before: Value
    after: Value
    """The knob's value on the (first) changed component, before and after."""
    util_after: float | None
    """The bottleneck's utilisation after the change (None: no longer listed)."""
    kpi: Kpi | None
    kpi_before: float | None
    kpi_after: float | None
    prediction: Prediction

    @property
    def helps(self) -> bool:
        """The headline figure gets better, or the resource comes out of saturation (and is
        less busy) without the headline getting worse."""
        if self.kpi is not None:
            cell = judge(self.kpi, self.kpi_after, self.kpi_before)
            if cell.change == "better":
                return True
            if cell.change == "worse":
                return False
        util = self.util_after  # else the resource must come out of saturation
        return util is None or util < min(self.resource.util * (1 - RESOLUTION), 1.0 - 1e-6)



def _targets(design: Design, lever: Lever, component: list[str]) -> list[str]:
    """The selectors (``id:x`` or a kind) the lever changes for the busy ``component`` (and
    the others as busy with the same resource)."""
    kind = lever.knob.kind
    if lever.target == "all":
        return [kind]
    if lever.target == "self":
        found = [design.component(cid) for cid in component]
        return [f"id:{c.id}" for c in found if c is not None and c.kind == kind]
    link = {"host_vms": ("runs_on", "vm"), "host_nics": ("installed_in", "nic"),
            "host_ft_nics": ("installed_in", "nic")}[lever.target]
    ids = [lk.source for lk in design.links if lk.kind == link[0] and lk.target in component]
    if lever.target == "host_ft_nics":
        ids = [i for i in ids if (c := design.component(i)) and c.get("role") == "ft_logging"]
    return [f"id:{i}" for i in ids if (c := design.component(i)) and c.kind == kind]


def _moved(k: Knob, lever: Lever, current: Value) -> Value | None:
    """The lever's new value for a component now at ``current``; None when it cannot move."""
    if lever.move == "set":
        return None if current == lever.to else lever.to
    if not isinstance(current, (int, float)) or isinstance(current, bool):
        return None
    spec = k.spec
    top = min(x for x in (k.max, spec.max, math.inf) if x is not None)
    if lever.move == "next":
        bigger = [float(c) for c in spec.choices or () if not isinstance(c, str)
                  and float(c) > current]
        new: float | None = min(bigger) if bigger else None
    elif lever.move == "step":
        new = current + (k.step or 1)
    else:
        new = current * 2 if current > 0 else None
    if new is None or new > top or new <= current:
        return None
    return int(new) if spec.type == "int" else new


def alike(p: Prediction, r: Resource) -> list[Resource]:
    """``r`` and the resources of its type as busy as it (16 identical VMs, 9 hosts):
    a change to relieve one is made to all of them."""
    return [x for x in p.resources if x.resource == r.resource
            and abs(x.util - r.util) <= RESOLUTION * max(abs(r.util), 1e-9)]


def _representative(found: list[Component | Link], component: str) -> Component | Link:
    """Whose value a change starts from: the busy link itself when a resource names one by
    its ends (``siteA-siteB``), else the first target."""
    for t in found:
        if isinstance(t, Link) and f"{t.source}-{t.target}" == component:
            return t
    return found[0]


def _util(p: Prediction, r: Resource) -> float | None:
    """``r``'s utilisation in ``p``: from the resource list, else (a list that names only
    the busiest) from the per-component arrays; None when neither has it."""
    found = [x.util for x in p.resources if x.component == r.component
             and x.resource == r.resource]
    if found:
        return max(found)
    arrays = {"host_cpu": (p.hosts.ids, p.hosts.cpu_util),
              "host_memory": (p.hosts.ids, p.hosts.memory_util),
              "array": (p.arrays.ids, p.arrays.util), "nic": (p.nics.ids, p.nics.util)}
    if r.resource in arrays:
        ids, util = arrays[r.resource]
        if r.component in ids:
            return float(util[list(ids).index(r.component)])
    return None


STEPS = 5
"""A numeric lever is moved up to this many times (doubling: up to 32x) until it helps."""


def try_lever(design: Design, lever: Lever, busy: Resource, p: Prediction) -> Remedy | None:
    """``lever`` applied to the busy resource of ``design`` (the scenario already applied)
    and evaluated: the smallest move that helps (a numeric lever moves again while the
    resource stays saturated); None when the lever does not fit the design."""
    k = lever.knob
    if not k.applies_to(design):
        return None
    starts = []
    for select in _targets(design, lever, [r.component for r in alike(p, busy)]):
        found = targets_of(design, select)
        if found:
            starts.append((select, _representative(found, busy.component).get(k.prop)))
    kpi = headline(p)
    remedy: Remedy | None = None
    values: list[Value] = [v for _, v in starts]
    for _ in range(1 if lever.move == "set" else STEPS):
        moved = [_moved(k, lever, v) for v in values]
        overrides = tuple(make_override(design, sel, k.prop, new)
                          for (sel, _), new in zip(starts, moved, strict=True)
                          if new is not None)
        if not overrides:
            break
        q = evaluate(apply_overrides(design, list(overrides)))
        i = next(i for i, new in enumerate(moved) if new is not None)
        remedy = Remedy(lever, busy, overrides, starts[i][1], moved[i], _util(q, busy), kpi,
                        kpi.value(p) if kpi else None, kpi.value(q) if kpi else None, q)
        if remedy.helps:
            break
        values = [new if new is not None else v for v, new in zip(values, moved, strict=True)]
    return remedy


def binding_resource(p: Prediction) -> Resource | None:
    """The resource that binds: the busiest one, host memory only when it is over-committed
    or binds the consolidation (configured memory is capacity, not load: no change to the
    workload moves it)."""
    for r in p.bottlenecks(len(p.resources)):
        if r.resource != "host_memory" or r.util >= 1.0 or \
                p.consolidation.binding == "memory":
            return r
    return None


def relieve(design: Design, p: Prediction, busy: Resource | None = None) -> Remedy | None:
    """The lever that helps the busiest resource of ``p`` most (``design`` is the design
    ``p`` was evaluated from, its scenario applied); None when the resource is not busy or
    no lever helps."""
    busy = busy or binding_resource(p)
    if busy is None or not worth_relieving(design, busy):
        return None
    for lever in tried_levers(busy.resource):  # the cheapest change that helps wins
        remedy = try_lever(design, lever, busy, p)
        if remedy is not None and remedy.helps:
            return remedy
    return None


def tried_levers(resource: str) -> list[Lever]:
    """The levers :func:`relieve` would try on a resource type."""
    return [lv for lv in LEVERS if lv.resource == resource]
