"""Measurements read from performance data (esxtop, Aria Operations, a fresher RVTools export)
and put onto an existing design by name: ``headroom calibrate DESIGN --from FILE``.

A reader returns :class:`Measurements` (per VM, per host, per physical NIC, each with its
source); :func:`apply_measurements` writes them into the design's ``measured.*`` and
``provenance.*`` properties, switches the matched VMs to the ``measured`` profile and returns
an :class:`ApplyReport` that names every VM or host it could not match.  The baseline solver
(:mod:`models.analysis.baseline`) then turns them into workload figures.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from models.document.design import Component, Design, Value
from models.document.numbers import NOT_MEASURED
from models.document.schema import HOST, VM
from models.document.words import counted
from models.io.importers import Measured, drop_invalid_values
from models.io.importers.build import measured_props

STATS = ("p95", "mean", "max")


def statistic(values: list[float] | np.ndarray, stat: str) -> float | None:
    """``p95``, ``mean`` or ``max`` of the finite values (None when there are none)."""
    a = np.asarray(values, dtype=np.float64)
    a = a[np.isfinite(a)]
    if not len(a):
        return None
    if stat == "mean":
        return float(a.mean())
    if stat == "max":
        return float(a.max())
    return float(np.percentile(a, 95))


def latencies(weighted: np.ndarray, rate: np.ndarray, stat: str
              ) -> tuple[float | None, float | None]:
    """A VM's latency in both statistics from per-sample latency x rate (``weighted``) and
    rate: the mean over its I/Os (all samples' time over all their I/Os), and ``stat`` (p95
    or max) of the per-sample latencies (None for ``mean``): the check compares the first
    with the model's mean latency and the second with its p95."""
    w, r = np.asarray(weighted, dtype=np.float64), np.asarray(rate, dtype=np.float64)
    ok = np.isfinite(w) & np.isfinite(r) & (r > 0)
    mean = float(w[ok].sum() / r[ok].sum()) if ok.any() else None
    peak = statistic(w[ok] / r[ok], stat) if stat != "mean" and ok.any() else None
    return mean, peak


@dataclass
class HostMeasured:
    """What a file recorded for a host (or a cluster): percentages, or absolute figures that
    :func:`apply_measurements` turns into percentages of the design's capacity (or of the
    capacity the file gives)."""

    cpu_pct: float | None = None
    memory_pct: float | None = None
    iops: float | None = None
    """Recorded IOPS (Live Optics ESX Performance, vCenter's datastore counters, an Aria
    Operations host view)."""
    read_pct: float | None = None
    io_kb: float | None = None
    """The recorded I/O's share of reads (%) and mean size (KB): a host's only."""
    cpu_mhz: float | None = None
    """CPU usage in MHz (Aria Operations CPU|Usage)."""
    cpu_demand_mhz: float | None = None
    cpu_demand_pct: float | None = None
    cpu_contention_pct: float | None = None
    cpu_ready_pct: float | None = None
    memory_mib: float | None = None
    """Memory in use (Aria Operations Memory|Utilization), MiB."""
    memory_unit_guessed: bool = False
    """The file did not say :attr:`memory_mib`'s unit (MB taken): checked against capacity."""
    cpu_capacity_mhz: float | None = None
    memory_capacity_mib: float | None = None

    def percentages(self, cap_mhz: float, mem_mib: float, name: str,
                    notes: list[str]) -> None:
        """Fill the percentages from the absolute figures, against the file's capacity where
        it gives one, else ``cap_mhz`` (cores x clock) and ``mem_mib``."""
        cpu_cap = self.cpu_capacity_mhz or cap_mhz
        if cpu_cap > 0:
            if self.cpu_pct is None and self.cpu_mhz is not None:
                self.cpu_pct = self.cpu_mhz / cpu_cap * 100.0
            if self.cpu_demand_pct is None and self.cpu_demand_mhz is not None:
                self.cpu_demand_pct = self.cpu_demand_mhz / cpu_cap * 100.0
            if self.cpu_pct is None and self.cpu_demand_pct is not None:
                self.cpu_pct = self.cpu_demand_pct  # a view with demand only: the closest
        mem_cap = self.memory_capacity_mib or mem_mib
        if self.memory_pct is None and self.memory_mib is not None and mem_cap > 0:
            pct = self.memory_mib / mem_cap * 100.0
            if self.memory_unit_guessed and not 0.5 <= pct <= 150.0:
                for unit, f in (("KB", 1 / 1024), ("GB", 1024.0)):
                    if 0.5 <= pct * f <= 150.0:
                        notes.append(f"{name}: memory read in {unit} (the header gives no"
                                     f" unit and MB would be {pct:,.0f}% of its memory)")
                        pct *= f
                        break
            self.memory_pct = pct


RECORDED_KEYS = ("measured.cpu_pct", "measured.memory_pct", "measured.iops",
                 "measured.cpu_demand_pct", "measured.cpu_contention_pct",
                 "measured.cpu_ready_pct")
HOST_ONLY = ("measured.read_pct", "measured.io_kb")


@dataclass
class NicMeasured:
    mbps: float | None = None
    pps: float | None = None


@dataclass
class Measurements:
    """What a performance file measured, by inventory name."""

    source: str
    """Provenance of the VM figures, e.g. ``esxtop batch esx01.csv, p95 of 60 samples``."""
    vms: dict[str, Measured] = field(default_factory=dict)
    hosts: dict[str, HostMeasured] = field(default_factory=dict)
    clusters: dict[str, HostMeasured] = field(default_factory=dict)
    nics: dict[tuple[str, str], NicMeasured] = field(default_factory=dict)
    """(host, vmnic) -> traffic."""
    cpu_used_pct: dict[str, float] = field(default_factory=dict)
    """VM -> CPU used as % of one core at nominal clock (esxtop %USED): converted to MHz
    with the clock of the VM's host when applied."""
    notes: list[str] = field(default_factory=list)


@dataclass
class ApplyReport:
    source: str
    vms_matched: int = 0
    vms_in_design: int = 0
    hosts_matched: int = 0
    clusters_matched: int = 0
    nics_matched: int = 0
    unmatched_vms: list[str] = field(default_factory=list)
    unmatched_hosts: list[str] = field(default_factory=list)
    switched_profiles: list[str] = field(default_factory=list)
    """VMs that ran a named (assumed) profile and now run what was measured."""
    notes: list[str] = field(default_factory=list)

    def lines(self, limit: int = 20) -> list[str]:
        out = [f"calibrated from {self.source}: {self.vms_matched:,} of"
               f" {counted(self.vms_in_design, 'VM')} matched,"
               f" {counted(self.hosts_matched, 'host')}, {counted(self.nics_matched, 'NIC')}"
               + (f", {counted(self.clusters_matched, 'cluster')}" if self.clusters_matched
                  else "")]
        if self.unmatched_vms:
            n = len(self.unmatched_vms)
            out.append(f"  {counted(n, 'VM')} in the file {'is' if n == 1 else 'are'} not in"
                       " the design: " + ", ".join(self.unmatched_vms[:limit])
                       + (" ..." if n > limit else ""))
        if self.unmatched_hosts:
            n = len(self.unmatched_hosts)
            out.append(f"  {counted(n, 'host')} in the file {'is' if n == 1 else 'are'} not in"
                       " the design: " + ", ".join(self.unmatched_hosts[:limit]))
        if self.switched_profiles:
            n = len(self.switched_profiles)
            out.append(f"  {counted(n, 'VM')} ran an assumed profile and now"
                       f" {'runs' if n == 1 else 'run'} what was measured: "
                       + ", ".join(self.switched_profiles[:limit]))
        out.extend(f"  note: {n}" for n in self.notes)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "vms_matched": self.vms_matched,
                "vms_in_design": self.vms_in_design, "hosts_matched": self.hosts_matched,
                "nics_matched": self.nics_matched,
                "clusters_matched": self.clusters_matched, "unmatched_vms": self.unmatched_vms,
                "unmatched_hosts": self.unmatched_hosts,
                "switched_profiles": self.switched_profiles, "notes": self.notes}


def _key(name: str) -> str:
    return name.strip().lower()


class _Index:
    """Components found by name: exact, then case-insensitive, then the short name (before
    the first dot, as ``esx01`` for ``esx01.corp.local``)."""

    def __init__(self, comps: list[Component]) -> None:
        self.exact: dict[str, Component] = {}
        self.lower: dict[str, Component] = {}
        self.short: dict[str, Component] = {}
        for c in comps:
            name = c.name or c.id
            self.exact.setdefault(name, c)
            self.lower.setdefault(_key(name), c)
            self.short.setdefault(_key(name).split(".", 1)[0], c)

    def find(self, name: str) -> Component | None:
        return (self.exact.get(name) or self.lower.get(_key(name))
                or self.short.get(_key(name).split(".", 1)[0]))


def apply_measurements(design: Design, meas: Measurements) -> ApplyReport:
    """Write ``meas`` into ``design`` (in place) by name; see the module docstring."""
    rep = ApplyReport(meas.source, notes=list(meas.notes))
    vms = _Index(design.of_kind("vm"))
    hosts = _Index(design.of_kind("host"))
    rep.vms_in_design = len(design.of_kind("vm"))
    runs_on = {lk.source: lk.target for lk in design.links if lk.kind == "runs_on"}
    host_ghz = {h.id: float(str(h.get("ghz") or 2.4)) for h in design.of_kind("host")}
    mean_ghz = float(np.mean(list(host_ghz.values()))) if host_ghz else 2.4
    for name, m in meas.vms.items():
        comp = vms.find(name)
        if comp is None:
            rep.unmatched_vms.append(name)
            continue
        used = meas.cpu_used_pct.get(name)
        if used is not None and m.cpu_mhz is None:
            ghz = host_ghz.get(runs_on.get(comp.id, ""), mean_ghz)
            m.cpu_mhz = used / 100.0 * ghz * 1000.0
            vcpus = comp.get("vcpus")
            if isinstance(vcpus, int):
                m.cpu_max_mhz = vcpus * ghz * 1000.0
        rep.vms_matched += 1
        _apply_vm(comp, m, rep)
    for name, hm in meas.hosts.items():
        comp = hosts.find(name)
        if comp is None:
            rep.unmatched_hosts.append(name)
            continue
        rep.hosts_matched += 1
        hm.percentages(*_capacity([comp]), f"host {comp.name}", rep.notes)
        _record(comp, hm, meas.source)
    clusters = _Index(design.of_kind("cluster"))
    members: dict[str, list[Component]] = {}
    by_id = {c.id: c for c in design.of_kind("host")}
    for lk in design.links:
        if lk.kind == "in_cluster" and lk.source in by_id:
            members.setdefault(lk.target, []).append(by_id[lk.source])
    for name, cm in meas.clusters.items():
        comp = clusters.find(name)
        if comp is None:
            rep.notes.append(f"cluster '{name}' of the file is not in the design")
            continue
        rep.clusters_matched += 1
        cm.percentages(*_capacity(members.get(comp.id, [])), f"cluster {comp.name}", rep.notes)
        _record(comp, cm, meas.source)
    nics = {(lk.target, c.name.rsplit(" ", 1)[-1].lower()): c
            for c in design.of_kind("nic") for lk in design.links
            if lk.kind == "installed_in" and lk.source == c.id}
    for (hname, dev), nm in meas.nics.items():
        h = hosts.find(hname)
        comp = nics.get((h.id, dev.lower())) if h is not None else None
        if comp is None:
            continue
        rep.nics_matched += 1
        if nm.mbps is not None:
            comp.props["measured.mbps"] = round(nm.mbps, 3)
        if nm.pps is not None:
            comp.props["measured.pps"] = round(nm.pps, 3)
        comp.props["provenance.measured"] = meas.source
    drop_invalid_values(design, rep.notes.append)
    return rep


def _capacity(hosts: list[Component]) -> tuple[float, float]:
    """CPU (cores x clock, MHz) and memory (MiB) of hosts, as the design has them."""
    spec = HOST.props
    cpu = mem = 0.0
    for h in hosts:
        def get(key: str, c: Component = h) -> float:
            v = c.get(key)
            return float(v) if isinstance(v, (int, float)) else float(spec[key].default or 0)
        cpu += get("sockets") * get("cores_per_socket") * get("ghz") * 1000.0
        mem += get("memory_gb") * 1024.0
    return cpu, mem


def _record(comp: Component, hm: HostMeasured, source: str) -> None:
    """A host's or cluster's recorded figures onto it (each within its property's range; a
    host's I/O mix on a host alone, beside its IOPS)."""
    specs = HOST.props
    wrote = False
    keys = RECORDED_KEYS + (HOST_ONLY if comp.kind == "host" and hm.iops is not None else ())
    for key in keys:
        value = getattr(hm, key.removeprefix("measured."), None)
        if value is not None:
            top = float(specs[key].max or 1000)
            comp.props[key] = round(min(max(float(value), 0.0), top), 3)
            wrote = True
        elif key in HOST_ONLY:  # a mix recorded with other IOPS is not this one's
            comp.props.pop(key, None)
    if wrote:
        comp.props["provenance.measured"] = source


def _apply_vm(comp: Component, m: Measured, rep: ApplyReport) -> None:
    """Record one VM's measured figures: each figure the file has replaces the design's;
    figures it lacks keep what the design had (an RVTools CPU with an esxtop I/O)."""
    from models.io.importers import VmRecord  # noqa: PLC0415  (records only)

    fresh = measured_props(VmRecord(name=comp.name, where="", measured=m))
    profile = comp.props.get("workload.profile")
    if profile is not None and profile != "measured":
        rep.switched_profiles.append(comp.name or comp.id)
    new: dict[str, Value] = {"workload.profile": "measured"}
    for group, keys in _GROUPS.items():
        if fresh.get(f"provenance.{group}", NOT_MEASURED) == NOT_MEASURED:
            if f"provenance.{group}" not in comp.props:
                new[f"provenance.{group}"] = NOT_MEASURED
            continue
        for k in keys:  # a group measured here replaces the group as a whole
            comp.props.pop(k, None)
        new.update({k: v for k, v in fresh.items() if k in keys})
        new[f"provenance.{group}"] = fresh[f"provenance.{group}"]
    comp.props.update(new)


_GROUPS: dict[str, tuple[str, ...]] = {
    "cpu": ("measured.cpu_mhz", "measured.cpu_max_mhz", "measured.cpu_ready_pct",
            "measured.cpu_contention_pct"),
    "memory": ("measured.memory_active_gb", "measured.memory_consumed_gb",
               "measured.memory_ballooned_gb", "measured.memory_swapped_gb"),
    "io": ("measured.iops", "measured.read_pct", "measured.io_kb", "measured.latency_ms",
           "measured.latency_peak_ms", "measured.oio"),
    "net": ("measured.net_mbps",),
}
assert all(k in VM.props for keys in _GROUPS.values() for k in keys)


def unit_scale(header: str, kind: str) -> float:
    """The factor from a header's unit to the base unit of ``kind``: ``mhz`` (MHz), ``mib``
    (MiB), ``mbps`` (Mbit/s), ``kbps`` (KB/s).  Unknown units scale by 1."""
    h = header.lower()
    unit = re.search(r"\(([^)]*)\)\s*$", h)
    u = unit.group(1).strip() if unit else h
    table = {
        "mhz": {"ghz": 1000.0, "mhz": 1.0, "hz": 1e-6},
        "mib": {"kb": 1 / 1024, "kib": 1 / 1024, "mb": 1.0, "mib": 1.0, "gb": 1024.0,
                "gib": 1024.0, "tb": 1024.0 ** 2},
        "mbps": {"kbps": 8 / 1000, "kb/s": 8 / 1000, "kbit/s": 1e-3, "mbit/s": 1.0,
                 "mbps": 1.0, "gbit/s": 1000.0, "gbps": 1000.0, "mb/s": 8.0},
        "kbps": {"kbps": 1.0, "kb/s": 1.0, "mbps": 1024.0, "mb/s": 1024.0},
    }[kind]
    for name, scale in sorted(table.items(), key=lambda kv: -len(kv[0])):
        if re.search(rf"(^|[^a-z]){re.escape(name)}($|[^a-z])", u):
            return scale
    return 1.0
