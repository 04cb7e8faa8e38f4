"""A hardware refresh as a what-if: the hosts of a cluster (or of every cluster) replaced by
hosts of a catalogue server, with the processor and memory chosen, the VMs dealt over them
inside their cluster; how many the design's policy needs, where it binds, and what they
license.

Method
------
* **The new hosts** (:func:`template`): each keeps what its cluster's host had but the
  hardware (site, storage paths, NICs, dense mode, HBAs) and takes the server's sockets, the
  processor's cores, base clock, hyperthreading and name (its per-core speed comes from the
  processor catalogue, :mod:`models.core.platform`), the memory and ESXi 8.0; what the old
  host recorded (``measured.*``) is not carried over.
* **The VMs** move with their measured demand in normalised units: a VM's CPU share was
  solved at its old host's per-core speed (``workload.cpu_ghz``), so on a faster core the
  same work takes fewer cores (:mod:`models.subsystems.consolidation`); memory held is
  memory held.  They stay in their cluster (:func:`models.analysis.resize.resize`).
* **How many** (without a count): the one definition of hosts needed
  (:mod:`models.subsystems.capacity`: CPU and memory ceilings, the cluster's HA admission
  control, the p95 ceiling of the queueing model, FT's second host).  Resize, evaluate, take
  each cluster's hosts needed as its next count, until every cluster has what it needs:
  for identical hosts the count does not depend on how many there are, so it settles in
  two or three rounds; were it to cycle, the smallest count of the cycle that meets its own
  need is taken.
* **The result** is the refreshed design and the same change as a scenario's
  :class:`~models.document.design.Rebuild` (the old hosts out, the new in, the VMs placed
  on them), so that it can be kept, compared and reported; before and after read the same
  figures (hosts, hosts needed, mean host CPU and memory, tightest limit, licensed cores).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from models.analysis.bom import Bom, Bought, PriceList, bill
from models.analysis.common import Evaluate, _run, policy_breaches
from models.analysis.failure import fail_hosts, loads_of
from models.analysis.growth import overrides as growth_overrides
from models.analysis.growth import rates_of
from models.analysis.resize import groups_of, resize
from models.core.compiled import Compiled, compile_design
from models.core.platform import pin_work
from models.core.prediction import VSAN_KEYS, Prediction
from models.core.sections import ClusterCapacity, to_json
from models.document.catalogue import servers
from models.document.catalogue.processors import Processor
from models.document.catalogue.servers import Server
from models.document.design import (
    Component,
    Design,
    DesignError,
    Issue,
    Link,
    Override,
    Rebuild,
    apply_overrides,
    rebuilt,
)
from models.document.numbers import NONE, counted, percent, prop_value, with_unit
from models.document.schema import Value, choice_label
from models.document.words import prop_text
from models.engine.kpis import limit_text

HARDWARE = ("sockets", "cores_per_socket", "ghz", "cpu_model", "specrate_per_core",
            "hyperthreading", "memory_gb", "esxi_version")
"""Host properties a refresh replaces (the rest stay as the old host had them)."""
ROW_STEP = 400.0
"""Canvas units between rows of new hosts where there are more than the old (a card's
height with a VM grid, and a gap)."""
MAX_ROUNDS = 12
"""Resize-and-evaluate rounds before a count that has not settled is taken as it stands."""
MAX_GROWTH = 64
"""Hosts a placement check may add over the totals' count before the refresh gives up."""


DEVICES = 6
DEVICE_TB = 3.84
"""The vSAN devices a refresh gives each new host unless told: six 3.84 TB NVMe devices, a
mid ESA ReadyNode profile (AF-2 is 5 x 3.2 TB; the profiles rise in device count to AF-8;
Broadcom's Compatibility Guide holds the authoritative table): an assumption, said so."""


@dataclass(frozen=True)
class VsanTarget:
    """The vSAN a refresh builds: the clusters' architecture and default storage policy, and
    each new host's capacity devices."""

    architecture: str
    policy: str
    ftt: int
    devices: int
    device_tb: float
    compression: float = 1.0

    @property
    def text(self) -> str:
        """``vSAN ESA, RAID 5 FTT 1, 6 x 3.84 TB a host``."""
        return (f"vSAN {self.architecture.upper()}, {choice_label(self.policy)} FTT"
                f" {self.ftt}, {self.devices:,} x {with_unit(self.device_tb, 'TB')} a host"
                + (f", compression {self.compression:g}" if self.compression != 1.0 else ""))

    def host_props(self) -> dict[str, Value]:
        """A new host's vSAN devices (OSA: a disk group per seven capacity devices)."""
        props: dict[str, Value] = {"vsan.devices": self.devices,
                                   "vsan.device_tb": self.device_tb}
        if self.architecture == "osa":
            props["vsan.disk_groups"] = max(1, -(-self.devices // 7))
        return props

    def overrides(self, clusters: list[str]) -> list[Override]:
        """The refreshed clusters' vSAN settings, as a scenario's overrides."""
        return [Override(f"id:{g}", prop, value) for g in clusters for prop, value in (
            ("vsan.architecture", self.architecture), ("vsan.policy", self.policy),
            ("vsan.ftt", self.ftt), ("vsan.compression", self.compression))]

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def vsan_target(architecture: str, policy: str | None = None, ftt: int | None = None,
                devices: int | None = None, device_tb: float | None = None,
                compression: float | None = None) -> VsanTarget:
    """A refresh's vSAN: ``esa`` or ``osa``; policy default RAID 5 on ESA, RAID 1 on OSA
    (FTT 1); :data:`DEVICES` x :data:`DEVICE_TB` a host unless given; DesignError naming
    what is out of range."""
    problems = []
    if architecture not in ("esa", "osa"):
        problems.append(f"--vsan takes esa or osa, got '{architecture}'")
    chosen = policy or ("raid5" if architecture == "esa" else "raid1")
    if chosen not in ("raid1", "raid5", "raid6"):
        problems.append(f"--policy takes raid1, raid5 or raid6, got '{chosen}'")
    level = 1 if chosen == "raid5" else 2 if chosen == "raid6" else (ftt or 1)
    if ftt is not None and ftt != level:
        problems.append(f"{choice_label(chosen)} tolerates {level} failure"
                        f"{'s' if level > 1 else ''}, not {ftt}")
    if not 1 <= level <= 3:
        problems.append(f"--ftt takes 1 to 3, got {level}")
    n = DEVICES if devices is None else devices
    tb = DEVICE_TB if device_tb is None else device_tb
    if not 1 <= n <= 64:
        problems.append(f"--devices takes 1 to 64, got {n}")
    if not 0 < tb <= 100:
        problems.append(f"--device-tb takes more than 0 to 100 TB, got {tb:g}")
    ratio = 1.0 if compression is None else compression
    if not 1.0 <= ratio <= 4.0:
        problems.append(f"--compression takes 1.0 to 4.0, got {ratio:g}")
    if problems:
        raise DesignError([Issue("refresh", p) for p in problems])
    return VsanTarget(architecture, chosen, level, n, tb, ratio)


@dataclass(frozen=True)
class Target:
    """The hardware a refresh brings: a server of the catalogue, one of its processors and
    the memory per host (and, for a move to vSAN, its devices and the clusters' policy)."""

    server: Server
    processor: Processor
    memory_gb: float | None
    """None: the refresh sizes it (:func:`sized_memory`)."""
    memory: Memory | None = None
    """How the memory was chosen, where the refresh sized it."""
    vsan: VsanTarget | None = None
    """The vSAN the refreshed clusters run (None: their storage as it is)."""

    @property
    def text(self) -> str:
        """``Dell PowerEdge R760, 2 x Intel Xeon Gold 6548Y+ (32 cores), 1 TB``."""
        cores = f" ({counted(self.processor.cores, 'core')})" if self.processor.cores else ""
        memory = "memory sized" if self.memory_gb is None else \
            with_unit(self.memory_gb, "GB")
        vsan = f", {self.vsan.text}" if self.vsan is not None else ""
        return (f"{self.server.title}, {self.server.sockets} x {self.processor.model}{cores},"
                f" {memory}{vsan}")

    def to_dict(self) -> dict[str, Any]:
        return {"server": self.server.id, "server_name": self.server.title,
                "processor": self.processor.model, "sockets": self.server.sockets,
                "cores_per_socket": self.processor.cores, "ghz": self.processor.ghz,
                "specrate_per_core": self.processor.specrate_per_core,
                "memory_gb": self.memory_gb,
                "memory": self.memory.to_dict() if self.memory is not None else None,
                "vsan": self.vsan.to_dict() if self.vsan is not None else None}


@dataclass(frozen=True)
class Memory:
    """The memory per host a refresh chose: a balanced DIMM population of the server, the
    smallest at which memory no longer sets any refreshed cluster's count."""

    population: servers.Population
    reason: str
    tried: tuple[tuple[int, int], ...]
    """(GB per host, hosts) of each population tried, smallest first."""

    @property
    def source(self) -> str:
        """Where its module sizes come from, in words."""
        if self.population.source == servers.PLATFORM:
            return ("module sizes of the catalogue's servers of the same memory platform (no"
                    " document of this server lists them)")
        doc = servers.sources().get(self.population.source)
        return doc["title"] if doc else self.population.source

    def to_dict(self) -> dict[str, Any]:
        p = self.population
        return {"population": p.text, "total_gb": p.total_gb, "dimms": p.dimms,
                "dimm_gb": p.dimm_gb, "kind": p.kind, "source": p.source,
                "source_text": self.source, "reason": self.reason,
                "tried": [{"memory_gb": gb, "hosts": n} for gb, n in self.tried]}


def target(server: str, cpu: str | None = None, memory_gb: float | None = None) -> Target:
    """The target of a server's id or name, a processor of its options (default: the fastest
    per core with at least 16 cores) and memory per host (default: None, sized by the
    refresh from the server's balanced DIMM populations); DesignError naming what is
    unknown."""
    found = servers.find(server)
    if found is None:  # "R760": the one server whose name has these words
        hits = servers.search(server)
        found = hits[0] if len(hits) == 1 else None
    if found is None:
        words = server.split()
        close = ", ".join(s.id for s in servers.search(words[-1] if words else "")[:6])
        raise DesignError([Issue("refresh", f"no server '{server}' in the catalogue"
                                 + (f" (close: {close})" if close else "")
                                 + "; headroom catalogue servers lists them")])
    try:
        proc = servers.processor_option(found, cpu) if cpu else \
            servers.default_processor(found)
    except ValueError as err:
        raise DesignError([Issue("refresh", str(err))]) from None
    if proc is None or not proc.cores:
        raise DesignError([Issue("refresh", f"{found.title} has no processor with a known"
                                 " core count in the catalogue")])
    if memory_gb is None:
        if not servers.memory_populations(found):
            raise DesignError([Issue("refresh", f"the catalogue knows no memory population of"
                                     f" {found.title}: give the memory per host"
                                     " (--memory-gb)")])
        return Target(found, proc, None)
    if not 1 <= memory_gb <= 24576:
        raise DesignError([Issue("refresh", "give the memory per host (--memory-gb): from 1"
                                 " to 24576 GB")])
    return Target(found, proc, float(memory_gb))


def template(t: Target, ht: bool | None = None) -> Any:
    """A resize template: host ``r`` made from an old host ``tpl`` with the target's
    hardware (a temporary id; :func:`refresh` names the hosts once dealt), hyperthreading
    as ``tpl`` had it unless ``ht`` says otherwise (like for like)."""
    if t.memory_gb is None:
        raise ValueError("a template's target has its memory")
    hardware = servers.host_props(t.server, t.processor, t.memory_gb)

    def make(tpl: Component, r: int) -> Component:
        props = {k: v for k, v in tpl.props.items()
                 if k not in HARDWARE and not k.startswith(("measured.", "provenance."))}
        props.update(hardware)
        props["hyperthreading"] = tpl.get("hyperthreading") if ht is None else ht
        if t.vsan is not None:
            props.update(t.vsan.host_props())
        return Component(f"{tpl.id}~refresh~{r}", "host", tpl.name, tpl.x, tpl.y,
                         list(tpl.tags), props)
    return make


@dataclass
class Side:
    """The design before or after the refresh, in the figures the refresh is judged by."""

    hosts: int
    hosts_needed: int | None
    cpu_util_mean: float | None
    """Mean host CPU utilisation, a fraction."""
    memory_util_mean: float | None
    binding: str | None
    licensed_cores: int | None
    physical_cores: int
    licence_cost_per_year: float | None
    p95_latency_ms: float | None
    """The highest VM p95 storage latency where I/O is measured (None: no I/O)."""
    p95_response_ms: float | None
    """The highest web p95 response (None: no request-driven VMs)."""
    clusters: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def side(p: Prediction) -> Side:
    """The figures of prediction ``p``."""
    cap = p.sections.capacity
    lic = cap.licensing if cap is not None else None
    util = np.asarray(p.hosts.cpu_util, np.float64)
    mem = np.asarray(p.hosts.memory_util, np.float64)
    rows = []
    vsan = {v.cluster: v for v in cap.vsan or []} if cap is not None else {}
    for g in cap.clusters if cap is not None else []:
        rows.append({"id": g.id, "name": g.name, "hosts": g.hosts,
                     "hosts_needed": g.hosts_needed, "binding": g.binding,
                     "cpu_util_mean": g.cpu_demand_cores / g.cpu_capacity_cores
                     if g.cpu_capacity_cores else None,
                     "memory_util_mean": g.memory_gb / g.memory_capacity_gb
                     if g.memory_capacity_gb else None,
                     "licensed_cores": g.licensed_cores, "physical_cores": g.physical_cores,
                     "admission_control": g.admission_control,
                     "vsan": {k: to_json(getattr(vsan[g.id], k)) for k in VSAN_KEYS}
                     if g.id in vsan else None})
    io = p.total_iops > 0
    return Side(
        hosts=len(p.hosts.ids), hosts_needed=p.consolidation.hosts_needed,
        cpu_util_mean=float(util.mean()) if len(util) else None,
        memory_util_mean=float(mem.mean()) if len(mem) else None,
        binding=p.consolidation.binding,
        licensed_cores=lic.licensed_cores if lic is not None else None,
        physical_cores=lic.physical_cores if lic is not None else 0,
        licence_cost_per_year=lic.cost_per_year if lic is not None else None,
        p95_latency_ms=p.p95_latency_ms if io else None,
        p95_response_ms=p.p95_response_ms if p.vms.request_driven.any() else None,
        clusters=rows)


@dataclass
class RefreshResult:
    target: Target
    groups: list[str]
    """The groups refreshed: cluster ids, ``""`` for the hosts in no cluster."""
    names: dict[str, str]
    counts: dict[str, int]
    """Hosts each refreshed group has after the refresh."""
    given: bool
    """The counts were given (``--hosts``), not sought."""
    rounds: list[dict[str, int]]
    """The counts tried, round by round (sought counts only)."""
    before: Side
    after: Side
    design: Design
    """The refreshed design (the base's scenarios kept)."""
    rebuild: Rebuild
    """The same change as a scenario's rebuild of the base design."""
    prediction: Prediction
    notes: list[str] = field(default_factory=list)
    changed: list[dict[str, Any]] = field(default_factory=list)
    """Every host setting the refresh changed (:data:`SETTINGS`): ``setting``, ``label``,
    ``before`` and ``after`` (the values, each once), ``text``."""
    problems: list[str] = field(default_factory=list)
    """What a count given breaks (hosts over the policy, host failures), in words."""
    overrides: list[Override] = field(default_factory=list)
    """What the refresh sets beside its rebuild (the clusters' vSAN): the scenario keeps both."""
    horizon: dict[str, Any] | None = None
    """Sized for a horizon (:func:`for_horizon`): ``years`` and the ``rates`` (% a year);
    :attr:`before` and :attr:`after` are then that year's figures."""
    today: Side | None = None
    """With a horizon, the refreshed design's figures today (year 0)."""

    def rows(self) -> list[tuple[str, str, str]]:
        """(figure, before, after) in words: what a table of the refresh shows."""
        return rows(self.before, self.after)

    def cluster_lines(self) -> list[str]:
        """Per refreshed cluster: hosts, hosts needed and what binds, licensed cores."""
        before = {c["id"]: c for c in self.before.clusters}
        after = {c["id"]: c for c in self.after.clusters}
        out = []
        for g in self.groups:
            b, a = before.get(g), after.get(g)
            if b is None or a is None:
                continue
            who = f"cluster {self.names[g]}" if g else "hosts in no cluster"
            why = a.get("set_by_text") or \
                f"{limit_text(a['binding'], True)} binds; {a['admission_control']}"
            out.append(f"{who}: {counted(b['hosts'], 'host')} ->"
                       f" {counted(a['hosts'], 'host')} ({why}), CPU"
                       f" {percent(b['cpu_util_mean'])} -> {percent(a['cpu_util_mean'])},"
                       f" memory {percent(b['memory_util_mean'])} ->"
                       f" {percent(a['memory_util_mean'])}, licensed cores"
                       f" {b['licensed_cores']:,} -> {a['licensed_cores']:,}")
        return out

    def method(self) -> str:
        """How the count was found, in words."""
        if self.given:
            return "hosts as given"
        steps = " -> ".join(str(sum(r.values())) for r in self.rounds)
        return (f"the fewest hosts for which the placed design holds, per cluster: the"
                f" capacity model's count, then the VMs spread as DRS would, every host within"
                f" the policy and, with HA on, any one host's failure survived ({steps})")

    def bom(self, prices: PriceList | None = None) -> Bom:
        """The refreshed design's bill of materials (:mod:`models.analysis.bom`), priced over
        the horizon's years (1 without one)."""
        t, m = self.target, self.target.memory
        return bill(self.design, self.prediction, Bought(
            t.server, t.processor, frozenset(c.id for c in self.rebuild.components
                                             if c.kind == "host"),
            m.population if m is not None else None, m.source if m is not None else "",
            m.reason if m is not None else "",
            "" if t.vsan is None else f"{t.vsan.text}: " + (
                "assumed, the refresh's default (a mid ESA ReadyNode profile; Broadcom's vSAN"
                " Compatibility Guide holds the profiles)"
                if (t.vsan.devices, t.vsan.device_tb) == (DEVICES, DEVICE_TB) else
                "as the refresh was given them")),
            years=float(self.horizon["years"]) if self.horizon else 1.0, prices=prices)

    def to_dict(self, prices: PriceList | None = None) -> dict[str, Any]:
        after = self.after.to_dict()
        b = self.bom(prices)
        after["bom"] = [x.to_dict() for x in b.lines]
        if prices is not None:
            after["bom_totals"] = {k: v for k, v in b.to_dict().items() if k != "lines"}
        return {"target": self.target.to_dict(),
                "clusters": [{"id": g, "name": self.names[g], "hosts": self.counts[g]}
                             for g in self.groups],
                "hosts_given": self.given, "rounds": self.rounds,
                "before": self.before.to_dict(), "after": after,
                "label": self.rebuild.label, "notes": list(self.notes),
                "changed_settings": list(self.changed), "horizon": self.horizon,
                "today": self.today.to_dict() if self.today is not None else None}


def refresh(design: Design, to: Target, hosts: int | None = None,
            clusters: list[str] | None = None, evaluate: Evaluate | None = None,
            ht: bool | None = None) -> RefreshResult:
    """Refresh ``design`` (its base: scenarios are not applied) to ``to``.

    ``clusters``: names or ids of the clusters to refresh (``""`` or "hosts in no cluster"
    for the hosts in none); default every group with hosts and VMs.  ``hosts``: that many
    hosts per refreshed group; default the fewest for which the placed design holds
    (:func:`_sized`).  ``ht``: hyperthreading on the new hosts; default as each old host
    had it (like for like).  Memory per host: ``to``'s, or where it has none the one
    :func:`sized_memory` picks."""
    if to.memory_gb is None:
        return sized_memory(design, to, hosts, clusters, evaluate, ht)
    return _refresh(design, to, hosts, clusters, evaluate, ht)


def for_horizon(design: Design, to: Target, years: float,
                rates: dict[str, float | None] | None = None, hosts: int | None = None,
                clusters: list[str] | None = None, evaluate: Evaluate | None = None,
                ht: bool | None = None) -> RefreshResult:
    """The refresh sized for the horizon's end: ``design`` grown ``years`` at ``rates`` (%
    a year per resource, the design's own where not given; :mod:`models.core.growth`), then
    refreshed; its before and after are that year's, and :attr:`RefreshResult.today` the
    refreshed design today.  The rebuild is the same hardware for either year."""
    r = rates_of(design, rates or {})
    out = refresh(apply_overrides(design, growth_overrides(r, years)), to, hosts, clusters,
                  evaluate, ht)
    now = apply_overrides(out.design, [Override("design", "growth.year", 0.0)])
    out.today = side((evaluate or _run)(compile_design(now)))
    out.horizon = {"years": years, "rates": r}
    out.notes.insert(0, f"sized for year {years:g} at {_rates_text(r)}; today the new hosts"
                        f" run at {percent(out.today.cpu_util_mean)} CPU and"
                        f" {percent(out.today.memory_util_mean)} memory (mean)")
    return out


def _rates_text(rates: dict[str, float]) -> str:
    shown = [f"{k} {with_unit(v, '%')}" for k, v in rates.items() if v]
    return (", ".join(shown) + " a year") if shown else "no growth"


def sized_memory(design: Design, to: Target, hosts: int | None = None,
                 clusters: list[str] | None = None, evaluate: Evaluate | None = None,
                 ht: bool | None = None) -> RefreshResult:
    """The refresh with the smallest of the server's balanced DIMM populations at which
    memory no longer sets the count: every refreshed cluster needs as many hosts as with its
    largest population (with ``hosts`` given, the smallest at which they hold).  A binary
    search over the populations (hosts needed only fall as memory grows)."""
    pops: list[servers.Population] = []
    for p in servers.memory_populations(to.server):  # the fewest DIMMs of each total
        if not pops or pops[-1].total_gb != p.total_gb:
            pops.append(p)
    results: dict[int, RefreshResult | None] = {}

    def at(i: int) -> RefreshResult | None:
        if i not in results:
            try:
                results[i] = _refresh(design, replace(to, memory_gb=float(pops[i].total_gb)),
                                      hosts, clusters, evaluate, ht)
            except DesignError:  # a VM fits on no host of that memory
                results[i] = None
        return results[i]

    top = at(len(pops) - 1)
    if top is None:
        return _refresh(design, replace(to, memory_gb=float(pops[-1].total_gb)), hosts,
                        clusters, evaluate, ht)

    def enough(r: RefreshResult | None) -> bool:
        if r is None:
            return False
        return not r.problems if hosts is not None else r.counts == top.counts

    lo, hi = 0, len(pops) - 1  # pops[hi] is enough
    while lo < hi:
        mid = (lo + hi) // 2
        if enough(at(mid)):
            hi = mid
        else:
            lo = mid + 1
    chosen = at(hi)
    assert chosen is not None
    tried = tuple((pops[i].total_gb, r.after.hosts) for i, r in sorted(results.items())
                  if r is not None)
    below = [(i, r) for i, r in sorted(results.items()) if i < hi]
    if not below:
        reason = ("the smallest balanced population of the server: memory sets no count"
                  " even there")
    else:
        i, r = below[-1]
        then = f"{counted(r.after.hosts, 'host')}" if r is not None else "no host fits a VM"
        reason = (f"the smallest balanced population at which memory no longer sets the"
                  f" count ({with_unit(pops[i].total_gb, 'GB')}: {then}; from"
                  f" {with_unit(pops[hi].total_gb, 'GB')}:"
                  f" {counted(chosen.after.hosts, 'host')})")
        if hosts is not None:
            reason = (f"the smallest balanced population at which"
                      f" {counted(hosts, 'host')} as given hold")
    memory = Memory(pops[hi], reason, tried)
    chosen.target = replace(chosen.target, memory=memory)
    return chosen


def _refresh(base: Design, to: Target, hosts: int | None, clusters: list[str] | None,
             evaluate: Evaluate | None, ht: bool | None) -> RefreshResult:
    ev = evaluate or _run
    found = groups_of(base)
    names = {c.id: c.name or c.id for c in base.of_kind("cluster")}
    names[""] = "hosts in no cluster"
    chosen = _chosen(found, names, clusters)
    if hosts is not None and hosts < 1:
        raise DesignError([Issue("refresh", f"--hosts must be at least 1, got {hosts}")])
    if to.vsan is not None and "" in chosen:
        raise DesignError([Issue("refresh", "vSAN runs in a cluster: the hosts in no cluster"
                                 " cannot move to it (--cluster names the clusters)")])
    overrides = to.vsan.overrides(chosen) if to.vsan is not None else []
    # the clusters' vSAN as the scenario sets it; every VM's CPU share pinned to the
    # processor it was entered on, so that on the new one it takes SPEC's ratio more or less
    design = pin_work(apply_overrides(base, overrides))
    make = template(to, ht)
    before_c = compile_design(base)
    before_p = ev(before_c)
    notes: list[str] = []
    said: dict[tuple[int, ...], list[str]] = {}
    """What each count's resize said (the count kept is the one whose notes are given)."""
    weights: dict[str, tuple[float, float]] | None = None

    def attempt(counts: dict[str, int]) -> Attempt:
        new, found_notes = resize(design, counts, make, weights)
        said[tuple(counts[g] for g in chosen)] = found_notes
        rb = _as_rebuild(design, new, chosen, names, to)
        d = rebuilt(design, rb)
        c = compile_design(d)
        return Attempt(rb, d, c, ev(c))

    rounds: list[dict[str, int]] = []
    problems: list[str] = []
    if hosts is not None:
        counts = dict.fromkeys(chosen, hosts)
        a = attempt(counts)
        weights = _weights(a, chosen)
        a = attempt(counts)
        sizing = {g: Sizing(hosts, 0, "hosts") for g in chosen}
        problems = _checks(design, a, chosen, names, ev)
        notes += [f"with {counted(hosts, 'host')} as given, {line}" for line in problems]
    else:
        counts = {g: max(len(found[g][0]), 1) for g in chosen}
        tried: dict[tuple[int, ...], tuple[Attempt, dict[str, int]]] = {}
        while True:  # the totals: each cluster's hosts needed, as the capacity model counts
            key = tuple(counts[g] for g in chosen)
            a = attempt(counts)
            rounds.append(dict(counts))
            need = _needed(a.prediction, chosen, names)
            tried[key] = (a, need)
            nxt = {g: max(need[g], 1) for g in chosen}
            if nxt == counts:
                break
            if tuple(nxt[g] for g in chosen) in tried or len(rounds) >= MAX_ROUNDS:
                counts = _settle(chosen, tried)
                k = tuple(counts[g] for g in chosen)
                a = tried[k][0] if k in tried else attempt(counts)
                notes.append("the count did not settle on one value: the smallest tried that"
                             " meets its own need is taken")
                break
            counts = nxt
        weights = _weights(a, chosen)
        a, sizing = _sized(design, a, counts, chosen, names, attempt, ev, rounds)
        counts = {g: sizing[g].hosts for g in chosen}
    notes[:0] = said.get(tuple(counts[g] for g in chosen), [])
    after = side(a.prediction)
    for row in after.clusters:
        if row["id"] in sizing:
            row.update(sizing[row["id"]].to_dict())
    return RefreshResult(to, chosen, {g: names[g] for g in chosen}, counts, hosts is not None,
                         rounds, side(before_p), after, a.design, a.rebuild, a.prediction,
                         notes, changed=_changed(design, a.design, chosen, found),
                         problems=problems, overrides=overrides)


@dataclass
class Attempt:
    """One count tried: the rebuild, the refreshed design, compiled, and its prediction."""

    rebuild: Rebuild
    design: Design
    compiled: Compiled
    prediction: Prediction


@dataclass
class Sizing:
    """What set a refreshed cluster's count: the hosts its load needs and the resource that
    decides them, and the hosts HA keeps on top (its admission control's reserve, its
    minimum of two, and any more a host failure showed it needs)."""

    hosts: int
    ha_hosts: int
    """Of :attr:`hosts`, those HA adds to the load's."""
    set_by: str
    """``cpu``, ``memory``, ``p95``, ``ft``, ... (the resource at its limit with one host
    fewer), ``one`` (one host holds the load: nothing binds) or ``hosts`` (as given)."""
    ha_why: list[str] = field(default_factory=list)
    """Why HA adds its hosts, in words."""

    @property
    def load_hosts(self) -> int:
        return self.hosts - self.ha_hosts

    def text(self) -> str:
        """The count in words: ``host memory sets 7 hosts for the load; HA adds 1 (room to
        restart the largest host's VMs)``."""
        if self.set_by == "hosts":
            return f"{counted(self.hosts, 'host')} as given"
        if self.set_by == "one":
            load = "1 host holds the load (nothing reaches its limit)"
        elif self.set_by in ("storage", "vsan_min"):
            load = f"{limit_text(self.set_by, True)} sets {counted(self.load_hosts, 'host')}"
        else:
            load = (f"{limit_text(self.set_by, True)} sets"
                    f" {counted(self.load_hosts, 'host')} for the load")
        if not self.ha_hosts:
            return load
        return f"{load}; HA adds {self.ha_hosts:,} ({', '.join(self.ha_why)})"

    def to_dict(self) -> dict[str, Any]:
        return {"set_by": self.set_by, "hosts_for_load": self.load_hosts,
                "ha_hosts": self.ha_hosts, "set_by_text": self.text()}


RESTART = "room to restart any one host's VMs"
"""Why HA adds a host beyond its admission control's reserve: with one host fewer, a host
failure leaves a VM down, an FT VM unprotected or a survivor over the policy."""


def capacity_sizing(design: Design, g: str, row: ClusterCapacity | None, count: int
                    ) -> Sizing:
    """What sets group ``g``'s ``count`` hosts where the capacity model's count decides it
    (``row``, its row of the capacity section): the resource that binds the load's hosts
    (``one`` where the load takes one host), the hosts its admission control reserves, and
    with HA on at least two hosts.  The refresh starts from it; the report says a kept
    refresh's count with it, so both read the count alike."""
    reserve = row.reserve_hosts if row is not None and row.binding not in (
        "storage", "vsan_min") else 0  # vSAN's count holds its own rebuild reserve
    load = max(count - reserve, 1)
    binding = row.binding if row is not None else None
    sz = Sizing(count, count - load, binding if load > 1 and binding else "one")
    if reserve:
        sz.ha_why.append(f"admission control reserves {counted(reserve, 'host')}"
                         if row is not None and row.admission_control.startswith("fail")
                         else f"admission control's {row.admission_control if row else ''}")
    least = 2 if ha_on(design, g) else 1
    if sz.hosts < least:
        sz.ha_why.append("HA needs two hosts")
        sz.ha_hosts += least - sz.hosts
        sz.hosts = least
    return sz


def ha_on(design: Design, g: str) -> bool:
    """Whether group ``g`` restarts a failed host's VMs: a cluster with HA on, or the hosts in
    no cluster where the policy keeps spare hosts for HA (``policy.ha_spare_hosts``)."""
    if not g:
        spare = design.policy.get("ha_spare_hosts", 0)
        return isinstance(spare, (int, float)) and spare > 0
    comp = design.component(g)
    return comp is not None and comp.get("ha_enabled") is True


def _sized(design: Design, a: Attempt, counts: dict[str, int], chosen: list[str],
           names: dict[str, str], attempt: Any, ev: Evaluate, rounds: list[dict[str, int]]
           ) -> tuple[Attempt, dict[str, Sizing]]:
    """From the totals' counts, the fewest hosts for which the placed design holds: the VMs
    spread as DRS would (:func:`~models.analysis.resize.balanced`), a host more wherever a
    host is over ``policy.cpu_util_max`` or ``memory_util_max``; in a cluster with HA on, at
    least two hosts and room to restart any one host's VMs on the others within the policy
    (:func:`_failure_breaks`, each host failed in turn, whatever admission control
    reserves), a host more until that holds."""
    caps = {r.id: r for r in a.prediction.sections.capacity.clusters} \
        if a.prediction.sections.capacity is not None else {}
    sizing = {g: capacity_sizing(design, g, caps.get(g), counts[g]) for g in chosen}
    checked: set[tuple[str, int]] = set()
    for _ in range(MAX_GROWTH):
        counts = {g: sizing[g].hosts for g in chosen}
        a = attempt(counts)
        rounds.append(dict(counts))
        over = _host_breaches(a, chosen)
        if over:
            for g, resource in over.items():
                sz = sizing[g]
                sz.hosts += 1
                sz.set_by = resource
            continue
        todo = [g for g in chosen if ha_on(design, g) and (g, sizing[g].hosts) not in checked]
        broken = _failure_breaks(a, todo, ev) if todo else {}
        checked |= {(g, sizing[g].hosts) for g in todo if g not in broken}
        if not broken:
            return a, sizing
        for g in broken:
            sz = sizing[g]
            sz.hosts += 1
            sz.ha_hosts += 1
            if RESTART not in sz.ha_why:
                sz.ha_why.append(RESTART)
    raise DesignError([Issue("refresh", f"no count up to {counted(MAX_GROWTH, 'host')} more"
                             " than the totals need holds on every host: another processor or more"
                             " memory per host")])


def _host_breaches(a: Attempt, chosen: list[str]) -> dict[str, str]:
    """The refreshed clusters with a host over the policy's CPU or memory ceiling, and the
    resource (memory first where both)."""
    group = _group_of_host(a.design, chosen)
    out: dict[str, str] = {}
    for b in policy_breaches(a.prediction, a.compiled.policy):
        g = group.get(b.component)
        if b.resource in ("cpu", "memory") and g is not None:
            out[g] = "memory" if "memory" in (out.get(g), b.resource) else b.resource
    return out


def _group_of_host(d: Design, chosen: list[str]) -> dict[str, str]:
    """Host id -> its group, for the hosts of the refreshed groups."""
    return {h.id: g for g, (hs, _) in groups_of(d).items() if g in chosen for h in hs}


def _failure_breaks(a: Attempt, groups: list[str], ev: Evaluate) -> dict[str, str]:
    """The groups (clusters with HA on) one of whose hosts, failing, leaves a VM down, an FT
    VM unprotected or a surviving host over the policy: the first such breach in words.  The
    k-th host of every group fails at once (a cluster's VMs restart inside it), so a group
    of n hosts costs n evaluations however many groups there are."""
    members = {g: hs for g, (hs, _) in groups_of(a.design).items() if g in groups}
    group = {h.id: g for g, hs in members.items() for h in hs}
    out: dict[str, str] = {}
    loads = loads_of(a.compiled, a.prediction)
    on_local = _on_local(a.design)
    for k in range(max((len(hs) for hs in members.values()), default=0)):
        ids = [hs[k].id for g, hs in members.items() if len(hs) > k and g not in out]
        if not ids:
            continue
        failed, res = fail_hosts(a.design, ids, loads)
        c = compile_design(failed)
        for b in policy_breaches(ev(c), c.policy):
            g = group.get(b.component)
            if b.resource in ("cpu", "memory") and g is not None and g not in out:
                out[g] = b.describe()
        home = {vm: group.get(h) for vm, h in _runs_on(a.design).items()}
        for vm in res.not_restarted + [f.vm for f in res.ft if f.secondary is None]:
            g = home.get(vm)
            if g is not None and g not in out and vm not in on_local:
                out[g] = f"VM {vm} is left without a host"
    return out


def _on_local(d: Design) -> set[str]:
    """VMs whose disk is on one host's local storage: no other host can restart them, with
    any number of hosts (the estate's own limit: a refresh adds no host for it)."""
    local = {c.id for c in d.of_kind("storage_array") if c.get("local") is True}
    return {lk.source for lk in d.links if lk.kind == "disk_on" and lk.target in local}


def _runs_on(d: Design) -> dict[str, str]:
    return {lk.source: lk.target for lk in d.links if lk.kind == "runs_on"}


def _checks(design: Design, a: Attempt, chosen: list[str], names: dict[str, str],
            ev: Evaluate) -> list[str]:
    """What a given count breaks, in words: hosts over the policy, host failures."""
    out = [f"cluster {names[g]} has a host over its {limit_text(r, True)} limit"
           for g, r in _host_breaches(a, chosen).items()]
    ha = [g for g in chosen if ha_on(design, g)]
    out += [f"cluster {names[g]} does not survive a host failure ({why})"
            for g, why in _failure_breaks(a, ha, ev).items()]
    return out


def _weights(a: Attempt, chosen: list[str]) -> dict[str, tuple[float, float]]:
    """Each VM of the refreshed groups as (CPU, memory) shares of one new host's room under
    the policy (what :func:`~models.analysis.resize.balanced` weighs), from the loads HA
    restarts weigh (:func:`~models.analysis.failure.loads_of`) on the new hardware."""
    loads = loads_of(a.compiled, a.prediction)
    group = _group_of_host(a.design, chosen)
    out: dict[str, tuple[float, float]] = {}
    for vid, host in _runs_on(a.design).items():
        if host not in group or vid not in loads.vm:
            continue
        work, held = loads.vm[vid]
        _, cpu_room, _, mem_room, speed = loads.host[host]
        out[vid] = (work / max(speed, 1e-9) / cpu_room if cpu_room > 0 else 0.0,
                    held / mem_room if mem_room > 0 else 0.0)
    return out


SETTINGS = ("hyperthreading", "esxi_version")
"""Host settings a refresh may change (the rest of a host's settings it keeps); Compare and
the report list each that it does."""


def _changed(before: Design, after: Design, chosen: list[str],
             found: dict[str, tuple[list[Component], list[Component]]]
             ) -> list[dict[str, Any]]:
    new_found = groups_of(after)
    return changed_settings([h for g in chosen for h in found[g][0]],
                            [h for g in chosen for h in new_found.get(g, ([], []))[0]])


def changed_settings(old: list[Component], new: list[Component]) -> list[dict[str, Any]]:
    """Every host setting (:data:`SETTINGS`) the ``new`` hosts have otherwise than the
    ``old`` they replace: what the old hosts had (each value once, in order) and what the new
    have, with the change in words (``Hyperthreading off -> on``)."""
    out = []
    for prop in SETTINGS:
        was = list(dict.fromkeys(h.get(prop) for h in old))
        now = list(dict.fromkeys(h.get(prop) for h in new))
        if was != now:
            out.append({"setting": prop, "label": prop_text("host", prop),
                        "before": was, "after": now,
                        "text": f"{prop_text('host', prop)}"
                                f" {' / '.join(prop_value('host', prop, v) for v in was)}"
                                f" -> {' / '.join(prop_value('host', prop, v) for v in now)}"})
    return out


def rows(b: Side, a: Side) -> list[tuple[str, str, str]]:
    """(figure, before, after) in words: hosts, hosts needed, mean host CPU and memory, the
    tightest limit (the one that holds the fewest VMs per host, reached or not), licensed
    and physical cores, the yearly licence cost where priced, the p95 storage latency and
    web response where there are any."""
    out = [("Hosts", f"{b.hosts:,}", f"{a.hosts:,}"),
           ("Hosts needed", _count(b.hosts_needed), _count(a.hosts_needed)),
           ("Host CPU (mean)", percent(b.cpu_util_mean), percent(a.cpu_util_mean)),
           ("Host memory (mean)", percent(b.memory_util_mean), percent(a.memory_util_mean)),
           ("Tightest limit", limit_text(b.binding), limit_text(a.binding)),
           ("Licensed cores", _count(b.licensed_cores), _count(a.licensed_cores)),
           ("Physical cores", f"{b.physical_cores:,}", f"{a.physical_cores:,}")]
    if b.licence_cost_per_year is not None or a.licence_cost_per_year is not None:
        out.append(("Licence cost", with_unit(b.licence_cost_per_year, "per year"),
                    with_unit(a.licence_cost_per_year, "per year")))
    if b.p95_latency_ms is not None or a.p95_latency_ms is not None:
        out.append(("p95 storage latency", with_unit(b.p95_latency_ms, "ms"),
                    with_unit(a.p95_latency_ms, "ms")))
    if b.p95_response_ms is not None or a.p95_response_ms is not None:
        out.append(("p95 web response", with_unit(b.p95_response_ms, "ms"),
                    with_unit(a.p95_response_ms, "ms")))
    return out


def _count(n: int | None) -> str:
    return NONE if n is None else f"{n:,}"


def _chosen(found: dict[str, tuple[list[Component], list[Component]]],
            names: dict[str, str], clusters: list[str] | None) -> list[str]:
    if not clusters:
        chosen = [g for g, (hs, vms) in found.items() if hs and vms]
        if not chosen:
            raise DesignError([Issue("refresh", "no cluster has both hosts and VMs to"
                                     " refresh")])
        return chosen
    out = []
    for wanted in clusters:
        w = wanted.strip().lower()
        match = [g for g in found if g.lower() == w or names.get(g, g).lower() == w]
        if not match:
            known = ", ".join(names.get(g, g) for g in found)
            raise DesignError([Issue("refresh", f"no cluster '{wanted}' (known: {known})")])
        if match[0] not in out:
            out.append(match[0])
    return out


def _needed(p: Prediction, chosen: list[str], names: dict[str, str]) -> dict[str, int]:
    cap = p.sections.capacity
    rows = {g.id: g for g in cap.clusters} if cap is not None else {}
    out = {}
    for g in chosen:
        row = rows.get(g)
        if row is None or row.hosts_needed is None:
            raise DesignError([Issue("refresh", f"a VM of {names[g]} fits on no host of the"
                                     " new hardware (binding:"
                                     f" {row.binding if row is not None else 'none'}): more"
                                     " memory per host or another processor")])
        out[g] = row.hosts_needed
    return out


def _settle(chosen: list[str], tried: dict[tuple[int, ...], tuple[Attempt, dict[str, int]]]
            ) -> dict[str, int]:
    """Per group, the smallest count tried that meets its own need (else the largest
    tried)."""
    out = {}
    for i, g in enumerate(chosen):
        ok = sorted(k[i] for k, (_, need) in tried.items() if need[g] <= k[i])
        out[g] = ok[0] if ok else max(k[i] for k in tried)
    return out


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "hosts"


def _renamed(name: str, old_host: str, new_host: str) -> str:
    """A NIC's name on the host that replaces its own: the old host's name in it (an
    importer's "esx01.corp vmnic0") becomes the new host's; a name without it stays."""
    return name.replace(old_host, new_host) if old_host and old_host in name else name


def _as_rebuild(base: Design, new: Design, chosen: list[str], names: dict[str, str],
                to: Target) -> Rebuild:
    """The refreshed groups of ``new`` as a rebuild of ``base``: the old hosts out, the new
    (named ``<cluster> <server> 01``...) with their NICs, links and VMs placed on them."""
    found = groups_of(base)
    new_groups = groups_of(new)
    removed = [h.id for g in chosen for h in found[g][0]]
    taken = {c.id for c in base.components}
    rename: dict[str, str] = {}
    comps: list[Component] = []
    for g in chosen:
        label = names[g] if g else "host"
        old = found[g][0] or new_groups[g][0]
        below = max((h.y for h in old), default=0.0) + ROW_STEP
        for k, h in enumerate(new_groups[g][0], start=1):
            hid = f"{_slug(label)}-{to.server.id}-{k:02d}"
            while hid in taken:
                hid += "~"
            taken.add(hid)
            rename[h.id] = hid
            # where the old hosts were; more hosts than that in rows below them
            at = old[(k - 1) % len(old)]
            row = (k - 1) // len(old)
            x, y = at.x, (at.y if not row else below + (row - 1) * ROW_STEP)
            comps.append(Component(hid, "host", f"{label} {to.server.name} {k:02d}", x, y,
                                   list(h.tags), dict(h.props)))
    by_id = {c.id: c for c in new.components}
    host_names = {c.id: c.name for c in comps}
    nic_count: dict[str, int] = {}
    for lk in new.links:
        if lk.kind == "installed_in" and lk.target in rename:
            owner = rename[lk.target]
            nic_count[owner] = nic_count.get(owner, 0) + 1
            nid = f"{owner}-nic{nic_count[owner]}"
            while nid in taken:
                nid += "~"
            taken.add(nid)
            rename[lk.source] = nid
            nic = by_id[lk.source]
            comps.append(Component(nid, "nic", _renamed(nic.name, by_id[lk.target].name,
                                                        host_names[owner]),
                                   nic.x, nic.y, list(nic.tags), dict(nic.props)))
    links = [Link(rename.get(lk.source, lk.source), rename.get(lk.target, lk.target),
                  lk.kind, dict(lk.props))
             for lk in new.links if lk.source in rename or lk.target in rename]
    n_new = sum(1 for c in comps if c.kind == "host")
    named = ", ".join(names[g] for g in chosen if g)
    where = " and ".join([f"of {named}"] * bool(named) + ["in no cluster"] * ("" in chosen))
    label = (f"{counted(len(removed), 'host')} {where} replaced by"
             f" {counted(n_new, 'host')} of {to.text}")
    return Rebuild(removed, comps, links, label)
