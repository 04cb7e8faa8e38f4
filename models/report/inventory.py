"""The design as a listing for the report's design page: its clusters (and the hosts in no
cluster), each with its policy, what it needs and its hosts, then its storage arrays.

An estate of dozens of hosts in clusters drawn at its canvas positions reads as large empty
boxes with names too small to print; listed, every host and cluster is named at the page's
text size.  :func:`listed` says which designs are listed and which are drawn.  Qt-free:
:mod:`app.report.estate` lays it out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from models.core.prediction import Prediction
from models.core.sections import ClusterCapacity
from models.document import numbers as fmt
from models.document.design import Design
from models.document.words import component_summary
from models.engine.kpis import limit_text

DRAWN_HOSTS = 12
"""A design without clusters and with at most this many hosts is drawn (a testbed, a farm
on one host, a stretched cluster's two sites), not listed."""


@dataclass(frozen=True)
class HostRow:
    name: str
    hardware: str
    """``16 cores · 2.4 GHz · 256 GB`` (:func:`component_summary`)."""
    vms: int
    cpu: float | None
    """Predicted CPU utilisation (a fraction); None when not evaluated."""
    memory: float | None


@dataclass(frozen=True)
class Group:
    """A cluster, or the hosts in no cluster at one site or at none (``name`` empty)."""

    name: str
    policy: str
    """``HA N+1 · DRS on`` for a cluster; empty for the hosts in no cluster."""
    site: str
    """The site its hosts are at (all of them; empty when none or several)."""
    hosts: list[HostRow]
    vms: int
    needed: int | None
    """Hosts it needs under its admission control (None: not known)."""
    binding: str | None
    """What sets that count (``cpu``, ``memory``, ...)."""

    def facts(self) -> str:
        """``22 hosts · 540 VMs · needs 15 hosts (memory)``."""
        parts = [fmt.count(len(self.hosts), "host"), fmt.count(self.vms, "VM")]
        if self.needed is not None:
            why = f" ({limit_text(self.binding)})" if self.binding else ""
            parts.append(f"needs {fmt.count(self.needed, 'host')}{why}")
        return " · ".join(parts)


@dataclass(frozen=True)
class ArrayRow:
    name: str
    hardware: str
    space: str
    """``12.3 TB used of 19.5 TB`` where its capacity is known, else empty."""
    io: tuple[str, str, str] | None
    """(IOPS, latency, busy) as read; None when nothing was measured there (:attr:`why`)."""
    why: str = ""
    """Why there is no I/O to report: :data:`NOT_MEASURED`, or :data:`NO_DISKS`."""


NOT_MEASURED = fmt.NOT_MEASURED
"""An array whose VMs' I/O was not measured (its figures would read 0 IOPS, 0 ms, 0 %)."""
NO_DISKS = "no VM disks"
"""An array no VM's disk is on (an imported datastore without VMs): nothing to report."""


def disks_on(design: Design) -> dict[str, int]:
    """How many VMs' disks each array holds (by the ``disk_on`` links)."""
    out: dict[str, int] = {}
    for lk in design.links:
        if lk.kind == "disk_on":
            out[lk.target] = out.get(lk.target, 0) + 1
    return out


def array_io(p: Prediction, i: int, disks: int) -> tuple[tuple[str, str, str] | None, str]:
    """Array ``i``'s (IOPS, latency, busy) as the report reads them, or None and why: no
    figures where nothing was measured, rather than zeros."""
    if not disks:
        return None, NO_DISKS
    if not p.arrays.measured(i):
        return None, NOT_MEASURED
    arr = p.arrays
    latency = float(arr.latency_ms[i])
    return (fmt.with_unit(float(arr.iops[i]), "IOPS"),
            fmt.with_unit(latency, "ms") if np.isfinite(latency) else fmt.NONE,
            fmt.percent(float(arr.util[i]), 3)), ""


@dataclass
class Inventory:
    groups: list[Group] = field(default_factory=list)
    arrays: list[ArrayRow] = field(default_factory=list)
    unplaced_vms: int = 0


def listed(design: Design) -> bool:
    """Whether the design page lists the design (clusters, or more hosts than
    :data:`DRAWN_HOSTS`) rather than drawing it."""
    hosts = clusters = 0
    for c in design.components:
        hosts += c.kind == "host"
        clusters += c.kind == "cluster"
    return clusters > 0 or hosts > DRAWN_HOSTS


def inventory(design: Design, p: Prediction | None) -> Inventory:
    """The clusters in design order (then the hosts in no cluster), their hosts by name,
    and the arrays."""
    by_id = {c.id: c for c in design.components}
    cluster_of: dict[str, str] = {}
    site_of: dict[str, str] = {}
    vms_on: dict[str, int] = {}
    for lk in design.links:
        if lk.kind == "in_cluster":
            cluster_of.setdefault(lk.source, lk.target)
        elif lk.kind == "located_at":
            site_of.setdefault(lk.source, lk.target)
        elif lk.kind == "runs_on":
            vms_on[lk.target] = vms_on.get(lk.target, 0) + 1
    util: dict[str, tuple[float, float]] = {}
    capacity: dict[str, ClusterCapacity] = {}
    if p is not None:
        util = {hid: (float(p.hosts.cpu_util[i]), float(p.hosts.memory_util[i]))
                for i, hid in enumerate(p.hosts.ids)}
        if p.sections.capacity is not None:
            capacity = {c.id: c for c in p.sections.capacity.clusters}
    members: dict[str, list[str]] = {}
    for c in design.components:  # a host in no cluster goes with its site's (or none's)
        if c.kind == "host":
            members.setdefault(cluster_of.get(c.id) or f"@{site_of.get(c.id, '')}",
                               []).append(c.id)
    out = Inventory()
    order = [c.id for c in design.components if c.kind == "cluster"] + [
        f"@{c.id}" for c in design.components if c.kind == "site"] + ["@"]
    for cid in order:
        hosts = members.get(cid, [])
        if not hosts and cid.startswith("@"):
            continue
        rows = sorted((_host_row(by_id[h].name or h, component_summary(by_id[h]),
                                 vms_on.get(h, 0), util.get(h)) for h in hosts),
                      key=lambda r: _natural(r.name))
        sites = {site_of.get(h, "") for h in hosts}
        site = sites.pop() if len(sites) == 1 else ""
        comp = by_id.get(cid)
        cap = capacity.get(cid)
        out.groups.append(Group(
            (comp.name or comp.id) if comp is not None else "",
            component_summary(comp) if comp is not None else "",
            (by_id[site].name or site) if site in by_id else "", rows,
            sum(r.vms for r in rows), cap.hosts_needed if cap is not None else None,
            cap.binding if cap is not None else None))
    out.unplaced_vms = sum(1 for c in design.components if c.kind == "vm") - sum(
        n for h, n in vms_on.items() if h in by_id)
    out.arrays = _arrays(design, p)
    return out


def _host_row(name: str, hardware: str, vms: int, util: tuple[float, float] | None
              ) -> HostRow:
    return HostRow(name, hardware, vms, util[0] if util else None, util[1] if util else None)


def _natural(name: str) -> tuple[object, ...]:
    """Sort key reading digits as numbers: esx2 before esx10."""
    import re  # noqa: PLC0415 (only here)

    return tuple(int(t) if t.isdigit() else t.lower() for t in re.split(r"(\d+)", name))


DRIVE_PROPS = ("disks", "media", "raid", "disk_iops")
"""Properties that say an array's drives (an imported datastore has none of them: its
drives are the schema's defaults, which the report does not present as the estate's)."""


def _arrays(design: Design, p: Prediction | None) -> list[ArrayRow]:
    index = {aid: i for i, aid in enumerate(p.arrays.ids)} if p is not None else {}
    disks = disks_on(design)
    rows = []
    for a in design.of_kind("storage_array"):
        used, cap = a.props.get("used_gb"), a.props.get("capacity_gb")
        space = ""
        if isinstance(cap, (int, float)) and cap > 0:
            space = (f"{fmt.with_unit(float(used), 'GB')} used of {fmt.with_unit(cap, 'GB')}"
                     if isinstance(used, (int, float)) else fmt.with_unit(cap, "GB"))
        given = any(k in a.props for k in DRIVE_PROPS)
        hardware = component_summary(a) if given else fmt.value(a.get("protocol"))
        i = index.get(a.id)
        io, why = array_io(p, i, disks.get(a.id, 0)) if p is not None and i is not None \
            else (None, NOT_MEASURED)
        if io is not None and not given:  # its latency rests on drives nobody gave
            hardware += f"; drives not given, {component_summary(a)} assumed"
        rows.append(ArrayRow(a.name or a.id, hardware, space, io, why))
    return sorted(rows, key=lambda r: _natural(r.name))
