"""The key performance indicators of a prediction, each with the studies behind it.

:data:`KPIS` is the one table of headline figures: the dashboard's tiles, the scenario
comparison, the report's title page and the sensitivity outputs' names all read it.  Each
figure is None where the design has nothing to measure (storage latency on a web farm, FT
figures without FT VMs), never a 0 that would claim an excellent result.  Each KPI also says
how it reads (:meth:`Kpi.text`, through :mod:`models.document.numbers`) and the line under it
(:meth:`Kpi.note`: the busiest host, the binding limit in :data:`LIMITS`' words, ...); the
dashboard, the report and the command line all read them here.

:data:`SUMMARY_FIGURES` names the prediction JSON's summary outputs (what a band is computed
for) as people read them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from models.core.prediction import Prediction, Resource
from models.core.sections import Capacity, ClusterCapacity, LibraryJob, Licensing
from models.document.glossary import CPU_PER_KIOPS, MEMORY_ALLOCATED, VCPUS_PER_CORE
from models.document.knobs import CAPACITY
from models.document.numbers import (
    NOT_MEASURED,
    SATURATED,
    Names,
    counted,
    number,
    percent,
    unbroken,
    with_unit,
)
from models.document.studies import (
    BEST_PRACTICES_4,
    CL_DEPLOY,
    CL_SYNC,
    CL_TUNING,
    DENSE,
    DRS,
    FEDEX,
    FT4,
    FT6,
    HA,
    LICENSING,
    LRO,
    MILLION,
    PCOIP,
    PVSCSI,
    RAIDPOOL,
    VAIO,
    VSAN,
    VSAN_PLANNING,
    cite,
)

Figure = Callable[[Prediction], float | None]
"""A KPI's value in a prediction; None when the design has nothing to measure."""
Detail = Callable[[Prediction, Names], str]
"""The line under a KPI's figure in a prediction, components named by the given function."""


HOST_UTIL = ("host_cpu_pct", "host_memory_pct")


@dataclass(frozen=True)
class Kpi:
    key: str
    title: str
    unit: str
    value: Figure
    source: str
    """The studies the figure's models were fitted to."""
    doc: str
    higher_is_better: bool | None = None
    """Colours the delta (None: neither direction is better)."""
    absent: str = ""
    """What is missing when the design has nothing to measure (the value is None)."""
    detail: Detail | None = None
    """The line under the figure (what it is made of, where it peaks, what binds it)."""
    unmeasured: Callable[[Prediction], bool] | None = None
    """Whether a figure with no value is one the design's data lacks (it reads
    :data:`~models.document.numbers.NOT_MEASURED`), rather than one it has nothing for."""
    estate: bool = False
    """A figure an estate is sized by: a testbed without it does not list it as missing."""
    optional: bool = False
    """A figure the user asks for (a licence price): where it is absent the dashboard does
    not list it among the figures the design has nothing to measure for."""
    after: str = ""
    """Words after the figure and its unit that say what it is a share of (the glossary's:
    ``34.5 % of installed``, ``2.7 % of a core``)."""

    def text(self, v: float | None, short: bool = False) -> str:
        """A value of this KPI as a table cell, a report and the command line show it, with
        the words after it (``short``: without them, a tile's figure with those words on the
        line under it); an unbounded time reads :data:`~models.document.numbers.SATURATED`."""
        if v is not None and math.isinf(v):
            return SATURATED
        figure = with_unit(v, self.unit)
        return f"{figure} {self.after}" if self.after and not short and v is not None \
            and math.isfinite(v) else figure

    def figure(self, p: Prediction | None, short: bool = False) -> str:
        """This KPI's figure in prediction ``p`` (``short``: as a tile shows it, without the
        words after it)."""
        v = self.value(p) if p is not None else None
        return NOT_MEASURED if v is None and self.not_measured(p) else self.text(v, short)

    def not_measured(self, p: Prediction | None) -> bool:
        """Whether ``p`` lacks the data for this figure (shown as not measured, not left
        out)."""
        return p is not None and self.unmeasured is not None and self.value(p) is None \
            and self.unmeasured(p)

    def note(self, p: Prediction | None, name: Names = str, value: object = ...) -> str:
        """The line under the figure: :attr:`absent` when there is nothing to measure, else
        :attr:`detail`'s; ``value``, when the caller has it already, saves computing the
        figure again; ``name`` gives components their names."""
        if p is None:
            return ""
        v = self.value(p) if value is ... else value
        if v is None and self.key in HOST_UTIL and len(p.hosts.ids):
            return NOT_MEASURED
        if v is None and not self.not_measured(p):
            return self.absent
        return self.detail(p, name) if self.detail is not None else ""


def cpu_per_kiops(p: Prediction) -> float | None:
    """IOPS-weighted mean host CPU per 1,000 IOPS (% of a core), None when no VM does I/O."""
    w = np.nan_to_num(p.vms.iops)
    total = w.sum()
    return float((w * np.nan_to_num(p.vms.cpu_cost_per_kiops)).sum() / total) if total > 0 \
        else None


def _if_io(value: Callable[[Prediction], float]) -> Figure:
    """A storage figure, or None (shown as a dash) when no VM does storage I/O: a design
    without storage has no latency, which "0 ms" would claim is excellent."""
    return lambda p: value(p) if p.total_iops > 0 else None


def network_gbps(p: Prediction) -> float | None:
    """Network throughput summed over VMs, None when no VM sends or receives."""
    return p.total_net_gbps or None


def busiest(p: Prediction, resource: str) -> Resource | None:
    """The most utilised resource of a type (``"nic"``, ``"array"``); None without one."""
    found = [r for r in p.resources if r.resource == resource]
    return max(found, key=lambda r: r.util) if found else None


def busiest_wan(p: Prediction) -> Resource | None:
    """The most utilised inter-site link (PCoIP desktops, vSAN replication, library syncs)."""
    links = [r for r in p.resources if r.resource.lower() == "wan"]
    return max(links, key=lambda r: r.util) if links else None


def _wan_percent(p: Prediction) -> float | None:
    r = busiest_wan(p)
    return 100.0 * r.util if r is not None else None


def library_minutes(p: Prediction) -> float | None:
    """The longest Content Library job, minutes; None without library transfers."""
    return p.library_slowest_s / 60.0 if p.library_transfers else None


def slowest_library_job(p: Prediction) -> LibraryJob | None:
    """The Content Library transfer that takes longest."""
    jobs = p.library_transfers
    return max(jobs, key=lambda j: j.completion_s or 0.0) if jobs else None


NO_IO = "no storage I/O"


def mean_pct(util: np.ndarray) -> float | None:
    """Mean of a per-host utilisation over the hosts something measured, in per cent; None
    without hosts or when nothing measured any (NaN: "not measured", never 0)."""
    known = util[np.isfinite(util)]
    return float(np.mean(known)) * 100.0 if len(known) else None


def p95_response(p: Prediction) -> float | None:
    """The highest p95 web response: infinite when a VM's requests saturate its host or
    vCPUs (the queue grows without bound); None without request-driven VMs."""
    if not p.vms.request_driven.any():
        return None
    return math.inf if p.response_saturated else p.p95_response_ms


def licensing_of(p: Prediction) -> Licensing | None:
    """The prediction's licensing (licensed cores under the per-core rules), if any."""
    cap = p.sections.capacity
    return cap.licensing if cap is not None else None


def licensed_cores(p: Prediction) -> float | None:
    """Licensed cores, None without ESXi hosts."""
    lic = licensing_of(p)
    return float(lic.licensed_cores) if lic is not None and lic.hosts else None


def licence_cost(p: Prediction) -> float | None:
    """Their yearly cost, None without a price per core."""
    lic = licensing_of(p)
    return lic.cost_per_year if lic is not None and lic.hosts else None


def licence_rule_text(lic: Licensing) -> str:
    """How the count was made, in words short enough for a tile's line: ``min 16 per CPU;
    448 physical``."""
    text = f"min {lic.min_cores_per_cpu} per CPU"
    if lic.order_minimum_cores is not None:
        text += f", {lic.order_minimum_cores} an order"
    return f"{text}; {lic.physical_cores:,} physical"


def hosts_needed(p: Prediction) -> float | None:
    h = p.consolidation.hosts_needed
    return float(h) if h is not None else None


# --------------------------------------------------------------------------- binding limits


@dataclass(frozen=True)
class Limit:
    """A limit that binds how many VMs a host takes (or how far a goal seek goes), in words."""

    word: str
    """After "binding limit:" on a tile or in a table: ``CPU``."""
    phrase: str
    """In a sentence, after "limited by": ``host CPU``."""


LIMITS: dict[str, Limit] = {
    "cpu": Limit("CPU", "host CPU"),
    "p95": Limit("p95 response", "the p95 response time"),
    "memory": Limit("memory", "host memory"),
    "vcpu": Limit("vCPU:core", "the vCPU:core ceiling"),
    "overcommit": Limit("memory overcommit", "the memory overcommit ceiling"),
    "ft": Limit("FT secondary", "the FT secondary's own host"),
    "array": Limit("storage array", "a storage array"),
    "nic": Limit("NIC", "a NIC"),
    "restart": Limit("HA restart", "a VM no surviving host can restart"),
    "storage": Limit("vSAN storage", "vSAN storage capacity"),
    "vsan_min": Limit("vSAN policy minimum", "the vSAN policy's minimum hosts"),
}
"""The consolidation's binding limits (``Consolidation.binding``, a cluster's ``binding``) and
the policy checks a goal seek reports failing (``cpu+memory``), in words."""

NO_LIMIT = Limit("none", "nothing")
"""What binds when nothing does (no hosts or no VMs)."""


def limit_text(binding: str | None, phrase: bool = False) -> str:
    """``binding`` in words: ``CPU`` (``host CPU`` as a ``phrase``), ``CPU and memory`` for
    ``cpu+memory``, ``none`` for None; a text that names no limit is kept as it is."""
    if not binding:
        return NO_LIMIT.phrase if phrase else NO_LIMIT.word
    parts = binding.split("+")
    if not all(b in LIMITS for b in parts):
        return binding
    words = [LIMITS[b].phrase if phrase else LIMITS[b].word for b in parts]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


# --------------------------------------------------------------------------- detail lines


def _busiest_host(util_of: Callable[[Prediction], np.ndarray]) -> Detail:
    def detail(p: Prediction, name: Names) -> str:
        util = util_of(p)
        i = int(np.nanargmax(util))  # hosts nothing measured (NaN) are not the busiest
        if len(util) == 1:  # the mean is that host's own figure
            return name(p.hosts.ids[i])
        return f"busiest {name(p.hosts.ids[i])} at {unbroken(percent(float(util[i])))}"
    return detail


def _vms_doing_io(p: Prediction, name: Names) -> str:
    return counted(int(np.count_nonzero(np.nan_to_num(p.vms.iops) > 0)), "VM") + " doing I/O"


def _highest_p95(p: Prediction, name: Names) -> str:
    return f"highest VM p95 {KPI_BY_KEY['p95_latency_ms'].figure(p)}"


def _busiest_nic(p: Prediction, name: Names) -> str:
    nic = busiest(p, "nic")
    if nic is None:
        return "no NIC in the design"
    return f"busiest NIC {name(nic.component)} at {unbroken(percent(nic.util))}"


def _mean_response(p: Prediction, name: Names) -> str:
    return f"mean {with_unit(p.mean_response_ms, 'ms')}"


def _ft_vms(p: Prediction, name: Names) -> str:
    return counted(int(p.vms.ft.sum()), "FT-protected VM")


def _wan(p: Prediction, name: Names) -> str:
    wan = busiest_wan(p)
    return wan.explanation if wan is not None else ""


def _library_job(p: Prediction, name: Names) -> str:
    t = slowest_library_job(p)
    if t is None:
        return ""
    bound = f", bound by {t.bound_by}" if t.bound_by else ""
    return f"{t.name or name(t.id)} ({t.operation}){bound}"


def _per_host_limits(p: Prediction, name: Names) -> str:
    c = p.consolidation
    limits = [f"{v:,} by {w}" for v, w in ((c.max_vms_per_host_by_cpu, "CPU"),
                                             (c.max_vms_per_host_by_p95, "p95"))
              if v is not None]
    return f"max {', '.join(limits)}" if limits else ""


def _binding(p: Prediction, name: Names) -> str:
    return f"binding limit: {limit_text(p.consolidation.binding)}"


def _licence_rule(p: Prediction, name: Names) -> str:
    lic = licensing_of(p)
    return licence_rule_text(lic) if lic is not None else ""


def _licence_price(p: Prediction, name: Names) -> str:
    lic = licensing_of(p)
    if lic is None or lic.price_per_core is None:
        return ""
    return f"{lic.edition_name} at {with_unit(lic.price_per_core, 'per core per year')}"


# --------------------------------------------------------------------------- capacity


def _capacity(p: Prediction) -> Capacity | None:
    return p.sections.capacity


def _estate(p: Prediction) -> Capacity | None:
    """The capacity section of a design sized as an estate is (one with clusters: a
    testbed's VMs per host say what these would), else None."""
    cap = _capacity(p)
    return cap if cap is not None and len(p.vms.ids) and any(c.id for c in cap.clusters) \
        else None


def vcpu_per_core(p: Prediction) -> float | None:
    """vCPUs of the placed VMs per physical core (the capacity section's), for an estate."""
    cap = _estate(p)
    return cap.vcpu_per_core if cap is not None else None


def memory_overcommit(p: Prediction) -> float | None:
    """Configured VM memory over installed memory (the capacity section's overcommit), per
    cent, for an estate: memory 34.5 % allocated of installed."""
    cap = _estate(p)
    ratio = cap.memory_overcommit if cap is not None else None
    return 100.0 * ratio if ratio is not None else None


def storage_used_pct(p: Prediction) -> float | None:
    """Space in use over the capacity of the arrays whose capacity is known, per cent; None
    where none is (:func:`storage_unmeasured` tells whether the data lacks it)."""
    cap = _capacity(p)
    if cap is None:
        return None
    sized = [a for a in cap.storage.arrays if a.capacity_gb]
    total = sum(a.capacity_gb or 0.0 for a in sized)
    return 100.0 * sum(a.used_gb for a in sized) / total if total > 0 else None


def vsan_free(p: Prediction) -> float | None:
    """Free TiB over the vSAN clusters (None without one)."""
    cap = _capacity(p)
    if cap is None or not cap.vsan:
        return None
    return sum(v.free_tib for v in cap.vsan)


def _vsan_detail(p: Prediction, name: Names) -> str:
    cap = _capacity(p)
    if cap is None or not cap.vsan:
        return ""
    rows = {c.id: c for c in cap.clusters}
    out = []
    for v in cap.vsan[:2]:
        row = rows.get(v.cluster)
        sets = f", {LIMITS[row.binding].word} binds" if row is not None and \
            row.binding in ("storage", "vsan_min") else ""
        out.append(f"{v.name} {with_unit(v.data_tib, 'TiB')} of"
                   f" {with_unit(v.usable_tib, 'TiB')}{sets}")
    more = f"; {counted(len(cap.vsan) - 2, 'more cluster')}" if len(cap.vsan) > 2 else ""
    return "; ".join(out) + more


def storage_unmeasured(p: Prediction) -> bool:
    """The design knows space its VMs use but no capacity to hold it (an RVTools export
    without its datastores): its storage capacity is not measured."""
    cap = _capacity(p)
    return cap is not None and cap.storage.needed_gb > 0


def clusters_of(p: Prediction) -> list[ClusterCapacity]:
    """The clusters with hosts and VMs, the tightest first (fewest spare hosts after HA)."""
    cap = _capacity(p)
    rows = [c for c in (cap.clusters if cap is not None else []) if c.id and c.hosts and c.vms]
    return sorted(rows, key=lambda c: (_spare(c), c.name))


def _spare(c: ClusterCapacity) -> float:
    """Hosts a cluster has beyond what its VMs and its HA admission control need."""
    return c.hosts - c.hosts_needed if c.hosts_needed is not None else -math.inf


def cluster_headroom(p: Prediction) -> float | None:
    """Spare hosts after HA in the tightest cluster (negative: short); None without
    clusters."""
    rows = clusters_of(p)
    if not rows:
        return None
    spare = _spare(rows[0])
    return spare if math.isfinite(spare) else None


def _busiest_vcpus(p: Prediction, name: Names) -> str:
    cap = _capacity(p)
    if cap is None or cap.max_vcpu_per_core_host is None:
        return ""
    return f"busiest host {number(cap.max_vcpu_per_core_host)}"


def _memory_detail(p: Prediction, name: Names) -> str:
    rows = [c for c in clusters_of(p) if c.memory_overcommit is not None]
    if len(rows) < 2:
        return "configured in the VMs"
    top = max(rows, key=lambda c: c.memory_overcommit or 0.0)
    return f"highest {top.name} {with_unit(100.0 * (top.memory_overcommit or 0.0), '%')}"


def _storage_detail(p: Prediction, name: Names) -> str:
    cap = _capacity(p)
    if cap is None:
        return ""
    st = cap.storage
    sized = [a for a in st.arrays if a.capacity_gb]
    growth = (f"; with {with_unit(st.growth_pct, '%')} growth"
              f" {with_unit(st.needed_gb, 'GB')}" if st.growth_pct else "")
    if not sized:
        used = sum(a.used_gb for a in st.arrays) + st.vms_without_array_gb
        return f"used {with_unit(used, 'GB')}, capacity {NOT_MEASURED}{growth}"
    used = sum(a.used_gb for a in sized)
    prov = sum(a.provisioned_gb for a in sized)
    thin = f", provisioned {with_unit(prov, 'GB')}" if prov > used else ""
    short = f", short {with_unit(st.short_gb, 'GB')}" if st.short_gb else ""
    return (f"used {with_unit(used, 'GB')} of {with_unit(st.capacity_gb, 'GB')}{thin}"
            f"{growth}{short}")


def _clusters_detail(p: Prediction, name: Names) -> str:
    rows = clusters_of(p)
    shown = [f"{c.name} {counted(c.hosts, 'host')}, {c.hosts_needed} needed"
             if c.hosts_needed is not None else f"{c.name}: a VM fits on no host"
             for c in rows[:3]]
    more = f"; {counted(len(rows) - 3, 'more cluster')}" if len(rows) > 3 else ""
    return "; ".join(shown) + more


KPIS: tuple[Kpi, ...] = (
    Kpi("total_iops", "Total IOPS", "IOPS", _if_io(lambda p: p.total_iops),
        cite(VAIO, MILLION, RAIDPOOL),
        "Sum of every VM's predicted IOPS (closed loop on outstanding I/Os)", True, NO_IO,
        _vms_doing_io),
    Kpi("mean_latency_ms", "Mean latency", "ms", _if_io(lambda p: p.mean_latency_ms),
        cite(VAIO, MILLION, RAIDPOOL),
        "IOPS-weighted mean storage latency over VMs that do I/O", False, NO_IO, _highest_p95),
    Kpi("p95_latency_ms", "p95 latency", "ms", _if_io(lambda p: p.p95_latency_ms),
        cite(RAIDPOOL, VAIO), "Highest per-VM 95th-percentile storage latency", False,
        absent=NO_IO),
    Kpi("cpu_per_kiops", CPU_PER_KIOPS.title, CPU_PER_KIOPS.unit, cpu_per_kiops,
        cite(VAIO, PVSCSI), "Host CPU per 1,000 IOPS (IOPS-weighted over VMs that do I/O),"
        " as a share of one core", False, absent=NO_IO, after=CPU_PER_KIOPS.after),
    Kpi("network_gbps", "Network", "Gbit/s", network_gbps, cite(FEDEX, LRO),
        "Network throughput summed over VMs (received + sent): the tightest of line rate, PCIe"
        " slot, per-stream tool and crypto limits and the vNIC's per-packet CPU path", True,
        "no network traffic", _busiest_nic),
    Kpi("p95_response_ms", "p95 response", "ms", p95_response, cite(DENSE),
        "Highest 95th-percentile response time of a request-driven (web) VM: M/M/c per host",
        False, "no request-driven VMs", _mean_response),
    Kpi("ft_logging_mbps", "FT logging", "Mbit/s",
        lambda p: p.ft_logging_mbps if p.vms.ft.any() else None,
        cite(FT4, FT6), "Fault Tolerance logging traffic summed over hosts", False,
        "no FT-protected VMs", _ft_vms),
    Kpi("ft_latency_add_ms", "FT added latency", "ms",
        lambda p: p.ft_latency_add_ms if p.vms.ft.any() else None,
        cite(FT4, FT6), "Largest latency FT adds to a protected VM", False,
        absent="no FT-protected VMs"),
    Kpi("wan_pct", "Busiest WAN link", "%", _wan_percent, cite(PCOIP, VSAN, CL_SYNC),
        "Utilisation of the busiest inter-site link: PCoIP desktops at a branch, vSAN"
        " replication between sites, Content Library syncs while they run", False,
        "no WAN links", _wan),
    Kpi("library_min", "Slowest library job", "min", library_minutes,
        cite(CL_DEPLOY, CL_SYNC, CL_TUNING),
        "Longest Content Library deploy, sync, import or export: its items through the slowest"
        " stage of the data path, queued behind the concurrency limits", False,
        "no library transfers", _library_job),
    Kpi("host_cpu_pct", "Host CPU", "%", lambda p: mean_pct(p.hosts.cpu_util), cite(DENSE),
        "Mean CPU utilisation over the hosts: the VMs' guest work, their I/O and network"
        " paths, the hypervisor's cost per blocking I/O and the hosts' background load,"
        " against their capacity (each core at its processor's SPEC per-core speed,"
        " hyperthreads adding 22%); hosts whose CPU nothing measured are left out", None,
        "no hosts", _busiest_host(lambda p: p.hosts.cpu_util)),
    Kpi("host_memory_pct", "Host memory", "%", lambda p: mean_pct(p.hosts.memory_util),
        cite(DENSE), "Mean memory utilisation over the hosts: memory the VMs hold"
        " (consumed where measured, else configured), FT secondaries included, and the"
        " hosts' background load, against installed memory; hosts whose memory nothing"
        " measured are left out", None, "no hosts",
        _busiest_host(lambda p: p.hosts.memory_util)),
    Kpi("vms_per_host", "VMs per host", "", lambda p: p.consolidation.vms_per_host, cite(DENSE),
        "VMs per host in the design as placed", detail=_per_host_limits),
    Kpi("hosts_needed", "Hosts needed", "", hosts_needed, cite(DENSE),
        "Hosts the VMs need under the policy ceilings (CPU, p95, memory, HA spares)", False,
        detail=_binding),
    Kpi("licensed_cores", "Licensed cores", "cores", licensed_cores, cite(LICENSING),
        "Cores the ESXi hosts license under per-core subscription rules: physical cores (not"
        " hyperthreads), each CPU counting at least 16 (VMware by Broadcom, 2024)", False,
        "no ESXi hosts", _licence_rule),
    Kpi("licence_cost", "Licence cost", "per year", licence_cost, cite(LICENSING),
        "Licensed cores times the policy's price per core per year (Licence price per core)",
        False, "no licence price per core", _licence_price, optional=True),
    Kpi("cluster_headroom", "Cluster headroom", "hosts", cluster_headroom, cite(HA, DRS),
        "Hosts the tightest cluster has beyond what its VMs need under the policy and its HA"
        " admission control keeps for failover (negative: short); each cluster's hosts and"
        " hosts needed below, the tightest first", True, "no clusters", _clusters_detail,
        estate=True),
    Kpi("vcpu_per_core", VCPUS_PER_CORE.title, VCPUS_PER_CORE.unit, vcpu_per_core,
        cite(BEST_PRACTICES_4),
        "vCPUs of the placed VMs per physical core (the busiest host's below), in a design"
        " of clusters", False, "no clusters", _busiest_vcpus, estate=True),
    Kpi("memory_overcommit", MEMORY_ALLOCATED.title, MEMORY_ALLOCATED.unit, memory_overcommit,
        cite(BEST_PRACTICES_4), "Memory configured in the placed VMs as a share of the memory"
        " installed in the hosts (overcommit; above 100 %: the hosts rely on reclamation), in"
        " a design of clusters", False, "no clusters", _memory_detail, estate=True,
        after=MEMORY_ALLOCATED.after),
    Kpi("vsan_free_tib", "vSAN free", "TiB", vsan_free, cite(VSAN_PLANNING),
        "Data the vSAN clusters can still take under their storage policies after the host"
        " rebuild and operations reserves (or 30 % slack where those cannot apply), before"
        " compression; below it each cluster's data against its usable capacity and what"
        " sets its hosts", True, "no vSAN cluster", _vsan_detail, estate=True),
    Kpi("storage_used_pct", "Storage capacity", "%", storage_used_pct, CAPACITY,
        "Space in use over the capacity of the arrays (datastores) whose capacity is known;"
        " below it the space used, provisioned and needed with the planned growth"
        " (policy.storage_growth_pct)", False, "no storage capacity data", _storage_detail,
        storage_unmeasured, estate=True),
)

KPI_BY_KEY = {k.key: k for k in KPIS}


SUMMARY_FIGURES: dict[str, tuple[str, str]] = {
    "total_iops": ("Total IOPS", "IOPS"),
    "mean_latency_ms": ("Mean latency", "ms"),
    "p95_latency_ms": ("Highest VM p95 latency", "ms"),
    "mean_response_ms": ("Mean web response", "ms"),
    "p95_response_ms": ("Highest web p95 response", "ms"),
    "ft_logging_mbps": ("FT logging traffic", "Mbit/s"),
    "ft_latency_add_ms": ("Latency FT adds", "ms"),
    "consolidation.vms_per_host": ("VMs per host", "VMs"),
    "consolidation.max_vms_per_host_by_cpu": ("Max VMs per host by CPU", "VMs"),
    "consolidation.max_vms_per_host_by_p95": ("Max VMs per host by p95", "VMs"),
    "consolidation.hosts_needed": ("Hosts needed", "hosts"),
}
"""(label, unit) of each summary output of the prediction JSON (keys as in its ``summary``,
without the prefix)."""
