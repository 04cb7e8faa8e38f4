"""The engine's output: per-component arrays plus a summary, and its contract JSON.

Arrays stay arrays (the GUI reads them straight after every knob change); :meth:`to_dict`
builds the public ``headroom-prediction`` document only when asked.  NaN in an array means
"not modelled for this component" and becomes ``null`` in JSON.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, overload

import numpy as np

from models.core.sections import LibraryJob, Sections, to_json
from models.document.numbers import Names, percent

VSAN_KEYS = ("cluster", "name", "architecture", "policy", "ftt", "hosts", "raw_tib",
             "usable_tib", "data_tib", "reserve_tib", "free_tib", "min_hosts", "hosts_needed",
             "write_latency_ms", "read_latency_ms")
"""The keys of each vSAN cluster in the JSON's top-level ``vsan`` list (the public contract)."""

FORMAT = "headroom-prediction"
VERSION = 1

SATURATED_MS = 10_000.0
"""What a saturated response (host CPU or the VM's vCPUs at or over 100%: the queue grows
without bound) reads as in the arrays and the JSON: a finite stand-in (a typical 10 s client
timeout) that the contract's "every number is finite" allows.  Readers test
``VmArrays.saturated``, never this value."""


class Labels(Sequence[str]):
    """Per-component text built only when first read (most re-evaluations after a knob move
    are never shown as text, and building thousands of strings costs more than the model)."""

    __slots__ = ("_build", "_items")

    def __init__(self, build: Callable[[], list[str]]):
        self._build: Callable[[], list[str]] | None = build
        self._items: list[str] = []

    def _list(self) -> list[str]:
        if self._build is not None:
            self._items, self._build = self._build(), None
        return self._items

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> list[str]: ...
    def __getitem__(self, i: int | slice) -> str | list[str]:
        return self._list()[i]

    def __len__(self) -> int:
        return len(self._list())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Labels, list)):
            return self._list() == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Labels({self._list()!r})"


@dataclass(frozen=True)
class Resource:
    """A resource's utilisation, for the bottleneck list and the utilisation chart."""

    component: str
    resource: str
    """host_cpu, host_memory, nic, ft_logging_nic, hba, array, vcpu_io, wan, pcie, ..."""
    util: float
    explanation: str
    source: str


@dataclass(frozen=True)
class ResourceWords:
    """How a resource type of the bottleneck list reads."""

    word: str
    """After its component's name: ``esx01 CPU``, ``Intel S3700 drives``."""
    name: str
    """On its own, as a label: ``host CPU``, ``storage array``."""
    phrase: str
    """In a sentence, ``{}`` its component's name: ``the CPU of host {}``."""
    kind: str
    """The kind of component it belongs to (``host``; empty when it varies)."""


RESOURCE_WORDS: dict[str, ResourceWords] = {
    "host_cpu": ResourceWords("CPU", "host CPU", "the CPU of host {}", "host"),
    "host_memory": ResourceWords("memory", "host memory", "the memory of host {}", "host"),
    "nic": ResourceWords("NIC", "NIC", "the NIC {}", "nic"),
    "ft_logging_nic": ResourceWords("FT logging NIC", "FT logging NIC",
                                    "the FT logging network of host {}", "host"),
    "hba": ResourceWords("HBA ports", "storage HBA ports", "the storage HBA ports of host {}",
                         "host"),
    "array": ResourceWords("drives", "storage array", "the storage array {}", "storage_array"),
    "vcpu_io": ResourceWords("vCPU I/O issue", "vCPU I/O issue",
                             "the vCPU I/O issue path of VM {}", "vm"),
    "wan": ResourceWords("WAN link", "WAN link", "the WAN link {}", "wan"),
    "pcie": ResourceWords("PCIe slot", "PCIe slot", "the PCIe slot of NIC {}", "nic"),
    "multicast_replication": ResourceWords("multicast replication", "multicast replication",
                                           "multicast replication on host {}", "host"),
}
"""The engine's resource types in words (the one table the dashboard, the charts, the command
line and the report read); Content Library stages are words already."""


def resource_words(resource: str) -> ResourceWords:
    """:data:`RESOURCE_WORDS`' entry for ``resource``; a Content Library stage (``WAN``,
    ``vCenter``) reads as itself."""
    found = RESOURCE_WORDS.get(resource)
    if found is not None:
        return found
    word = resource.replace("_", " ")
    return ResourceWords(word, word, f"the {word} of {{}}", "")


def bottleneck_text(r: Resource, name: Names) -> str:
    """``Intel S3700 SSD drives at 100 %``: a resource of the bottleneck list in words
    (``name`` gives its component its name)."""
    return f"{name(r.component)} {resource_words(r.resource).word} at {percent(r.util)}"


@dataclass
class VmArrays:
    ids: list[str]
    names: list[str]
    host: list[str | None]
    iops: np.ndarray
    storage_mbps: np.ndarray
    latency_ms: np.ndarray
    p95_latency_ms: np.ndarray
    net_gbps: np.ndarray
    cpu_util: np.ndarray
    cpu_cost_per_kiops: np.ndarray
    ft: np.ndarray
    """bool mask: VM is FT-protected (its ft_* entries are meaningful)."""
    ft_logging_mbps: np.ndarray
    ft_latency_add_ms: np.ndarray
    ft_throughput_ratio: np.ndarray
    bound_by: Sequence[str]
    request_driven: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    """bool mask: VMs whose latency is a request response time (web), not storage latency."""
    rx_pps: np.ndarray = field(default_factory=lambda: np.zeros(0))
    """Packets per second delivered to the VM's vNIC (after LRO)."""
    tx_pps: np.ndarray = field(default_factory=lambda: np.zeros(0))
    """Packets per second the VM's vNIC sends (TSO packets count once)."""
    txn_per_s: np.ndarray = field(default_factory=lambda: np.zeros(0))
    """Transactions per second of an application VM (``workload.app_users``); NaN otherwise.
    Orders per minute are 60 x this."""
    txn_response_ms: np.ndarray = field(default_factory=lambda: np.zeros(0))
    """An application VM's transaction response time, think time excluded; NaN otherwise."""
    max_users: np.ndarray = field(default_factory=lambda: np.zeros(0))
    """Users an application VM carries before its mean response reaches the response ceiling
    (policy.p95_ms_max taken as 3x the mean): its bottleneck rate x (ceiling + think)."""
    cpu_cores: np.ndarray = field(default_factory=lambda: np.zeros(0))
    """Host core-equivalents each VM demands (guest work plus its I/O, network and hypervisor
    paths)."""
    io_not_measured: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    """bool mask: VMs whose storage I/O is not measured; their storage figures are NaN."""
    saturated: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    """bool mask: request-driven VMs whose response is unbounded (their host CPU or vCPUs
    cannot keep up); their latencies read :data:`SATURATED_MS`, which is not a time."""


@dataclass
class HostArrays:
    ids: list[str]
    names: list[str]
    cpu_util: np.ndarray
    memory_util: np.ndarray
    vms: np.ndarray
    dense_mode_active: np.ndarray
    ft_logging_mbps: np.ndarray
    background_iops: np.ndarray = field(default_factory=lambda: np.zeros(0))
    """The I/O each host recorded beyond its VMs' (``background.iops``), as served: in the
    total IOPS and its arrays' figures, not in any VM's."""


@dataclass
class NicArrays:
    ids: list[str]
    host: list[str | None]
    util: np.ndarray
    gbps: np.ndarray


@dataclass
class ArrayArrays:
    ids: list[str]
    names: list[str]
    iops: np.ndarray
    """NaN (``null`` in JSON) on an array whose VMs' I/O is not measured, as theirs."""
    latency_ms: np.ndarray
    util: np.ndarray
    io_not_measured: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    """bool: the array has VMs and none of them has measured I/O."""

    def measured(self, i: int) -> bool:
        """Whether array ``i``'s I/O figures stand for something measured or assumed."""
        return not (len(self.io_not_measured) and self.io_not_measured[i])


@dataclass
class Consolidation:
    vms_per_host: float
    max_vms_per_host_by_cpu: int | None
    max_vms_per_host_by_p95: int | None
    binding: str | None
    """'cpu', 'p95', 'memory' or None when nothing binds (no hosts or no VMs)."""
    hosts_needed: int | None


@dataclass
class Prediction:
    design: str
    scenario: str
    vms: VmArrays
    hosts: HostArrays
    nics: NicArrays
    arrays: ArrayArrays
    consolidation: Consolidation
    resources: list[Resource] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    sections: Sections = field(default_factory=Sections)
    """The subsystems' typed outputs beyond the arrays (the JSON's ``extras``)."""

    # ------------------------------------------------------------------ summary
    # (each figure over the VMs' arrays once: the dashboard, the curve and the charts ask
    # for the same figures of one prediction, which nothing changes once made)
    @cached_property
    def total_iops(self) -> float:
        """The VMs' IOPS and the hosts' background I/O (what they recorded beyond their
        VMs')."""
        return float(np.nansum(self.vms.iops) + np.nansum(self.hosts.background_iops))

    @cached_property
    def mean_latency_ms(self) -> float:
        """IOPS-weighted mean storage latency over VMs that do I/O (0 when none do)."""
        w = np.nan_to_num(self.vms.iops)
        lat = np.nan_to_num(self.vms.latency_ms)
        total = w.sum()
        return float((w * lat).sum() / total) if total > 0 else 0.0

    @cached_property
    def p95_latency_ms(self) -> float:
        """The highest per-VM p95 storage latency among VMs that do I/O."""
        mask = np.nan_to_num(self.vms.iops) > 0
        return float(np.nanmax(self.vms.p95_latency_ms[mask])) if mask.any() else 0.0

    @cached_property
    def has_response(self) -> bool:
        """Whether a p95 ceiling bears on the design: a VM does storage I/O or serves requests
        (an estate measured for CPU and memory has neither)."""
        return self.total_iops > 0 or bool(np.any(self.vms.request_driven))

    @cached_property
    def response_saturated(self) -> bool:
        """Whether any request-driven VM's response is unbounded (see VmArrays.saturated)."""
        s = self.vms.saturated
        return bool(s.any()) if len(s) else False

    @cached_property
    def mean_response_ms(self) -> float:
        """Mean response time over request-driven (web) VMs, weighted equally (0 if none)."""
        m = self.vms.request_driven
        return float(np.nanmean(self.vms.latency_ms[m])) if m.any() else 0.0

    @cached_property
    def p95_response_ms(self) -> float:
        """The highest p95 response time of any request-driven (web) VM (0 if none)."""
        m = self.vms.request_driven
        return float(np.nanmax(self.vms.p95_latency_ms[m])) if m.any() else 0.0

    @cached_property
    def total_txn_per_s(self) -> float:
        """Application transactions per second summed over VMs (0 without applications)."""
        t = self.vms.txn_per_s
        return float(np.nansum(t)) if len(t) else 0.0

    @cached_property
    def ft_logging_mbps(self) -> float:
        return float(np.nansum(self.hosts.ft_logging_mbps))

    @cached_property
    def ft_latency_add_ms(self) -> float:
        """The largest latency FT adds to any protected VM (0 without FT)."""
        m = self.vms.ft
        return float(np.nanmax(self.vms.ft_latency_add_ms[m])) if m.any() else 0.0

    @cached_property
    def total_net_gbps(self) -> float:
        """Network throughput summed over VMs (received + sent), Gbit/s."""
        return float(np.nansum(self.vms.net_gbps))

    @property
    def library_transfers(self) -> list[LibraryJob]:
        """Content Library operations that move items (publishers and idle libraries left
        out)."""
        return self.sections.library_transfers

    @property
    def library_slowest_s(self) -> float:
        """The longest Content Library operation, seconds (0 without any)."""
        return max((j.completion_s or 0.0 for j in self.library_transfers), default=0.0)

    @property
    def library_mean_s(self) -> float:
        """The mean time of the Content Library operations, seconds (0 without any)."""
        times = [j.completion_s or 0.0 for j in self.library_transfers]
        return sum(times) / len(times) if times else 0.0

    @property
    def library_mb_per_s(self) -> float:
        """Content Library throughput summed over operations, MB/s."""
        return sum(j.throughput_mbps or 0.0 for j in self.library_transfers)

    @property
    def licensed_cores(self) -> int | None:
        """Cores the design's hosts license under the per-core rules (None without the
        capacity section)."""
        cap = self.sections.capacity
        lic = cap.licensing if cap is not None else None
        return lic.licensed_cores if lic is not None else None

    @property
    def licence_cost_per_year(self) -> float | None:
        """Their yearly cost at the policy's price per core (None without a price)."""
        cap = self.sections.capacity
        lic = cap.licensing if cap is not None else None
        return lic.cost_per_year if lic is not None else None

    def bottlenecks(self, n: int = 5) -> list[Resource]:
        return sorted(self.resources, key=lambda r: -r.util)[:n]

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        v = self.vms
        vms = []
        for i, vid in enumerate(v.ids):
            ft = None
            if v.ft[i]:
                ft = {"logging_mbps": _num(v.ft_logging_mbps[i]),
                      "latency_add_ms": _num(v.ft_latency_add_ms[i]),
                      "throughput_ratio": _num(v.ft_throughput_ratio[i])}
            vms.append({"id": vid, "name": v.names[i], "host": v.host[i],
                        "iops": _num(v.iops[i]), "storage_mbps": _num(v.storage_mbps[i]),
                        "latency_ms": _num(v.latency_ms[i]),
                        "p95_latency_ms": _num(v.p95_latency_ms[i]),
                        "net_gbps": _num(v.net_gbps[i]), "cpu_util": _num(v.cpu_util[i]),
                        "cpu_cost_per_kiops": _num(v.cpu_cost_per_kiops[i]),
                        "ft": ft, "bound_by": v.bound_by[i],
                        "rx_pps": _opt(v.rx_pps, i), "tx_pps": _opt(v.tx_pps, i),
                        "txn_per_s": _opt(v.txn_per_s, i),
                        "txn_response_ms": _opt(v.txn_response_ms, i),
                        "max_users": _opt(v.max_users, i),
                        "saturated": bool(v.saturated[i]) if len(v.saturated) > i
                        else False})
        h, n = self.hosts, self.nics
        hosts = []
        for i, hid in enumerate(h.ids):
            nics = [{"id": n.ids[j], "util": _num(n.util[j]), "gbps": _num(n.gbps[j])}
                    for j in range(len(n.ids)) if n.host[j] == hid]
            hosts.append({"id": hid, "name": h.names[i], "cpu_util": _num(h.cpu_util[i]),
                          "memory_util": _num(h.memory_util[i]), "vms": int(h.vms[i]),
                          "dense_mode_active": bool(h.dense_mode_active[i]),
                          "ft_logging_mbps": _num(h.ft_logging_mbps[i]),
                          "background_iops": _opt(h.background_iops, i), "nics": nics})
        a = self.arrays
        arrays = [{"id": aid, "name": a.names[i], "iops": _num(a.iops[i]),
                   "latency_ms": _num(a.latency_ms[i]), "util": _num(a.util[i])}
                  for i, aid in enumerate(a.ids)]
        out: dict[str, Any] = {
            "format": FORMAT, "version": VERSION, "design": self.design,
            "scenario": self.scenario, "vms": vms, "hosts": hosts, "arrays": arrays,
            "summary": self.summary_dict(),
            "bottlenecks": [{"component": r.component, "resource": r.resource,
                             "util": _num(r.util), "explanation": r.explanation,
                             "source": r.source} for r in self.bottlenecks()],
            "warnings": list(self.warnings),
        }
        cap = self.sections.capacity
        if cap is not None and cap.vsan:
            out["vsan"] = [{k: to_json(getattr(v, k)) for k in VSAN_KEYS} for v in cap.vsan]
        extras = self.sections.to_json()
        if extras:
            out["extras"] = extras
        return out

    def summary_dict(self) -> dict[str, Any]:
        """The ``summary`` block of the JSON (also one row of a sweep)."""
        c = self.consolidation
        return {
            "total_iops": _num(self.total_iops),
            "mean_latency_ms": _num(self.mean_latency_ms),
            "p95_latency_ms": _num(self.p95_latency_ms),
            "mean_response_ms": _num(self.mean_response_ms),
            "p95_response_ms": _num(self.p95_response_ms),
            "ft_logging_mbps": _num(self.ft_logging_mbps),
            "ft_latency_add_ms": _num(self.ft_latency_add_ms),
            "total_txn_per_s": _num(self.total_txn_per_s),
            "response_saturated": self.response_saturated,
            "consolidation": {
                "vms_per_host": _num(c.vms_per_host),
                "max_vms_per_host_by_cpu": c.max_vms_per_host_by_cpu,
                "max_vms_per_host_by_p95": c.max_vms_per_host_by_p95,
                "binding": c.binding, "hosts_needed": c.hosts_needed},
            "licensed_cores": self.licensed_cores,
            "licence_cost_per_year": _opt_num(self.licence_cost_per_year),
        }


def _opt(arr: np.ndarray, i: int) -> float | None:
    """``arr[i]`` as :func:`_num`, None when the array was not filled (an older caller)."""
    return _num(arr[i]) if len(arr) > i else None


def _opt_num(x: float | None) -> float | None:
    return None if x is None else _num(x)


def _num(x: Any) -> float | None:
    """A finite non-negative float, or None for NaN (not modelled)."""
    f = float(x)
    if math.isnan(f):
        return None
    if math.isinf(f) or f < 0:
        raise ValueError(f"model produced an invalid value {f!r}")
    return f
