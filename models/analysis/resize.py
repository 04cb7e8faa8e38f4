"""A design with each cluster's hosts counted anew and its VMs dealt over them, inside the
cluster: what Goal seek's answer and a hardware refresh apply.

A *group* is a cluster (``in_cluster``), or ``""``: the hosts in no cluster with their VMs and
the VMs on no host (as the capacity model groups them, :mod:`models.subsystems.capacity`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from models.analysis.common import (
    _mix_key,
    _replica,
    _topology,
    background_of,
    io_background_of,
    with_background,
)
from models.document.design import Component, Design, DesignError, Issue, Link
from models.document.words import counted

Template = Callable[[Component, int], Component]
"""Makes host ``i`` of a group from one of the group's hosts (a copy by default; a refresh
gives it another server's hardware)."""

Weights = Mapping[str, tuple[float, float]]
"""VM id -> (CPU, memory) it takes of one host, each as a share of what the policy lets a host
give (a VM on no list weighs nothing): what a balanced deal weighs."""


def groups_of(design: Design) -> dict[str, tuple[list[Component], list[Component]]]:
    """Each group's hosts and VMs, in design order: ``{cluster id or "": (hosts, VMs)}``."""
    t = _topology(design)
    out: dict[str, tuple[list[Component], list[Component]]] = {}
    for h in t.hosts:
        out.setdefault(t.cluster_of.get(h.id, ""), ([], []))[0].append(h)
    for vm in t.vms:
        host = t.runs_on.get(vm.id)
        gid = t.cluster_of.get(host, "") if host is not None else ""
        out.setdefault(gid, ([], []))[1].append(vm)
    return out


def resize(design: Design, hosts: Mapping[str, int], template: Template | None = None,
           weights: Weights | None = None) -> tuple[Design, list[str]]:
    """A new design whose groups named in ``hosts`` have that many hosts, each VM of such a
    group running on one of them: like VMs dealt round robin, so every host gets the same
    mix, an FT secondary on the next host of the group; or, given ``weights``, spread as DRS
    balances a cluster (:func:`balanced`).  Host ``i`` of a group is made from
    the group's host ``i mod H`` (with its NICs, storage paths, site and cluster; copies get
    ids ``<id>~2``...) by ``template``.  Groups not named keep their hosts and placement.
    The input design is never changed."""
    t = _topology(design)
    found = groups_of(design)
    unknown = [g for g in hosts if g not in found]
    if unknown:
        raise DesignError([Issue("resize", f"no cluster '{unknown[0]}' in the design")])
    make = template or _replica
    notes: list[str] = []
    out = Design(name=design.name, notes=design.notes, policy=dict(design.policy),
                 scenarios=list(design.scenarios))
    out.components.extend(t.kept)
    out.links.extend(lk for lk in design.links if lk.kind not in _PLACEMENT)
    fallback = t.hosts[:1]
    local = {c.id for c in t.kept if c.kind == "storage_array" and c.get("local") is True}
    dropped_ft = 0
    for gid, (members, vms) in found.items():
        if gid not in hosts:  # as it is
            _keep(design, members, vms, out)
            continue
        templates = members or fallback
        n = hosts[gid]
        if vms and n < 1:
            raise DesignError([Issue(f"cluster '{gid}'" if gid else "hosts in no cluster",
                                     "needs at least one host for its VMs")])
        made: list[str] = []
        # every host of a resized cluster reaches the shared storage any of its hosts reached
        # (a VM restarts only where its datastore is); a host's local disks stay its own
        shared = {lk.target: lk for m in members for lk in t.storage_of.get(m.id, [])
                  if lk.target not in local}
        work, memory = background_of(members)  # what the VMs do not explain: spread evenly
        io = io_background_of(members)
        if (work or memory or io.iops) and n:
            cluster = design.component(gid) if gid else None
            group = f"cluster {(cluster.name if cluster else '') or gid}" if gid else \
                "hosts in no cluster"
            notes.append(f"{group}: the"
                         f" background load of its {counted(len(members), 'host')} (VMs the"
                         f" export does not list, the hypervisor's own) spread over"
                         f" {counted(n, 'host')}")
        for i in range(n):
            tpl, r = templates[i % len(templates)], i // len(templates)
            host = make(tpl, r)
            if work or memory or io.iops:
                host = with_background(host, work / n, memory / n, "spread evenly over the"
                                       f" cluster's {counted(n, 'host')} from "
                                       + str(tpl.get("provenance.background") or "the record"),
                                       io.scaled(1.0 / n))
            made.append(host.id)
            out.components.append(host)
            for nic in t.nics_of.get(tpl.id, []):
                copy = _replica(nic, r)
                out.components.append(copy)
                out.links.append(Link(copy.id, host.id, "installed_in"))
            own = {lk.target: lk for lk in t.storage_of.get(tpl.id, [])}
            out.links.extend(Link(host.id, lk.target, "storage", dict(lk.props))
                             for lk in {**shared, **own}.values())
            if tpl.id in t.site_of:
                out.links.append(Link(host.id, t.site_of[tpl.id].target, "located_at"))
            if gid:
                out.links.append(Link(host.id, gid, "in_cluster"))
        dealt = sorted(vms, key=_mix_key)
        ft = [vm.id in t.secondary for vm in dealt]
        if weights is not None and made:
            where = balanced([weights.get(vm.id, (0.0, 0.0)) for vm in dealt], ft, len(made))
        else:
            where = [(j % len(made), (j + 1) % len(made) if f else None) if made else (-1, None)
                     for j, f in enumerate(ft)]
        for vm, f, (h, s) in zip(dealt, ft, where, strict=True):
            out.components.append(vm)
            if not made:
                continue
            out.links.append(Link(vm.id, made[h], "runs_on"))
            if f:
                if len(made) >= 2 and s is not None:
                    out.links.append(Link(vm.id, made[s], "ft_secondary_on"))
                else:
                    dropped_ft += 1
    if dropped_ft:
        notes.append(f"{counted(dropped_ft, 'FT secondary', 'FT secondaries')} left out:"
                     " FT needs a second host in the cluster")
    moved = {vm.id for gid in hosts for vm in found[gid][1]}
    cut = sum(1 for lk in design.links if lk.kind == "passthrough" and lk.target in moved)
    if cut:
        notes.append(f"{counted(cut, 'passthrough NIC link')} left out: a passed-through NIC"
                     " cannot follow its VM to another host")
    return out, notes


def balanced(weights: list[tuple[float, float]], ft: list[bool], n: int
             ) -> list[tuple[int, int | None]]:
    """Where each VM runs among ``n`` like hosts, and its FT secondary (None: none), spread
    as DRS balances a cluster: the largest VMs first (by the larger of their CPU and memory
    shares of a host), each on the host whose busier resource is least loaded with it (of
    equals, the host with fewer VMs), its secondary on the least loaded of the others (it
    costs that host as much again).  Greedy largest-first: every host ends within one VM's
    share of the mean on the resource that binds."""
    w = np.asarray(weights, np.float64).reshape(len(weights), 2)
    load = np.zeros((n, 2))
    count = np.zeros(n)
    out: list[tuple[int, int | None]] = [(0, None)] * len(weights)
    for j in sorted(range(len(weights)), key=lambda k: -float(w[k].max())):
        score = (load + w[j]).max(axis=1)
        h = int(np.lexsort((count, score))[0])
        load[h] += w[j]
        count[h] += 1
        s = None
        if ft[j] and n >= 2:
            score = (load + w[j]).max(axis=1)
            score[h] = np.inf
            s = int(np.lexsort((count, score))[0])
            load[s] += w[j]
            count[s] += 1
        out[j] = (h, s)
    return out


_PLACEMENT = ("installed_in", "storage", "located_at", "in_cluster", "runs_on",
              "ft_secondary_on", "passthrough")
"""Links that say where hosts, NICs and VMs are: rebuilt for every host and VM."""


def _keep(design: Design, members: list[Component], vms: list[Component], out: Design) -> None:
    """A group left as it is: its hosts with their NICs and links, its VMs where they run."""
    ids = {c.id for c in members} | {c.id for c in vms}
    nics = {lk.source for lk in design.links
            if lk.kind == "installed_in" and lk.target in ids}
    out.components.extend(members)
    out.components.extend(c for c in design.components if c.id in nics)
    out.components.extend(vms)
    out.links.extend(lk for lk in design.links if lk.kind in _PLACEMENT
                     and (lk.source in ids or lk.source in nics))
