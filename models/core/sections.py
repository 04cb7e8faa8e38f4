"""The typed parts of a prediction beyond its per-component arrays.

Each subsystem that says more than the contract's arrays fills one section: capacity per
cluster, Content Library jobs, VDI links, multicast replication, stretched-cluster links, FT
logging, NIC cabling, CPU virtualisation and the consolidation's reference figures.  Readers
use their attributes; :meth:`Sections.to_json` writes them as the prediction JSON's
``extras``, every key and path as the contract has them (``docs/design-format-measured.md``).

A field's JSON name is its own unless its metadata says ``json``; ``omit`` leaves a None out
(a key the contract writes only when it has a value); ``flatten`` merges a dict into its
parent object.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any

import numpy as np

OMIT = {"omit": True}
"""Field metadata: leave the key out when the value is None."""


def to_json(x: Any) -> Any:
    """``x`` as JSON-ready values: sections and their parts as objects, numpy scalars as
    Python numbers."""
    if is_dataclass(x) and not isinstance(x, type):
        out: dict[str, Any] = {}
        for f in fields(x):
            value = getattr(x, f.name)
            if value is None and f.metadata.get("omit"):
                continue
            if f.metadata.get("flatten"):
                out.update(to_json(value))
            else:
                out[f.metadata.get("json", f.name)] = to_json(value)
        return out
    if isinstance(x, dict):
        return {k: to_json(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [to_json(v) for v in x]
    if isinstance(x, np.bool_):
        return bool(x)
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, np.floating):
        return float(x)
    return x


# ---------------------------------------------------------------------- capacity
@dataclass
class ClusterCapacity:
    """One cluster (or the hosts in no cluster) under its own admission control."""

    id: str
    name: str
    hosts: int
    vms: int
    unplaced_vms: int
    cpu_demand_cores: float
    cpu_capacity_cores: float
    memory_gb: float
    memory_capacity_gb: float
    admission_control: str
    """The policy in words: 'failover hosts 1', '25% CPU, 25% memory reserved', 'HA off'."""
    reserve_hosts: int
    hosts_needed: int | None
    """None when a VM of the cluster fits on none of its hosts."""
    binding: str | None
    """'cpu', 'memory', 'p95' or 'ft' (a secondary needs a host of its own): the count that
    sets ``hosts_needed``; None for a cluster without VMs."""
    drs: bool
    drs_imbalance: float
    short_by_hosts: int | None
    vcpu_per_core: float | None
    memory_overcommit: float | None
    physical_cores: int = 0
    """Physical cores of the cluster's ESXi hosts."""
    licensed_cores: int = 0
    """Cores its hosts license under the per-core rules (:class:`Licensing`)."""


@dataclass
class Licensing:
    """Licensed cores under the per-core subscription rules (``resources/licensing.json``):
    every physical core of every ESXi host, each CPU counting at least
    ``min_cores_per_cpu``; hosts running no hypervisor (``platform`` native) count none."""

    licensed_cores: int
    """Over the design, raised to the minimum per order where the policy turns it on."""
    physical_cores: int
    hosts: int
    """ESXi hosts counted."""
    min_cores_per_cpu: int
    order_minimum_cores: int | None
    """The minimum per order applied (the policy turned it on), else None."""
    edition: str
    edition_name: str
    price_per_core: float | None
    """Per core per year, in the user's currency; None where the policy gives no price."""
    cost_per_year: float | None
    rules: str
    """The rules in one line, with their date."""
    checked: str
    sources: list[str]
    vsan_raw_tib: float | None = field(default=None, metadata=OMIT)
    """Raw TiB of the design's vSAN clusters (None: no vSAN)."""
    vsan_entitled_tib: float | None = field(default=None, metadata=OMIT)
    """vSAN raw capacity the licensed cores entitle under the edition."""
    vsan_addon_tib: float | None = field(default=None, metadata=OMIT)
    """Raw TiB beyond the entitlement: the vSAN add-on to license."""


@dataclass
class ArrayCapacity:
    id: str
    name: str
    used_gb: float
    provisioned_gb: float
    needed_gb: float
    """Used space grown by ``policy.storage_growth_pct``."""
    capacity_gb: float | None
    thin: bool
    needed_util: float | None = field(default=None, metadata=OMIT)
    provisioned_ratio: float | None = field(default=None, metadata=OMIT)
    short_gb: float | None = field(default=None, metadata=OMIT)


@dataclass
class StorageCapacity:
    growth_pct: float
    needed_gb: float
    capacity_gb: float
    short_gb: float
    arrays: list[ArrayCapacity]
    vms_without_array_gb: float


@dataclass
class VsanCluster:
    """One vSAN cluster's datastore (:mod:`models.subsystems.vsan`): the top-level ``vsan``
    list of the prediction's JSON.  Capacities in TiB."""

    cluster: str
    name: str
    architecture: str
    """``esa`` or ``osa``."""
    policy: str
    """The cluster's default layout: ``raid1``, ``raid5``, ``raid6``."""
    ftt: int
    hosts: int
    raw_tib: float
    usable_tib: float
    """Data the cluster holds under its policy after reserves, before compression."""
    data_tib: float
    """What its VMs use (thin) or are provisioned (thick), before compression."""
    reserve_tib: float
    """Raw kept free: host rebuild and operations reserves, or the slack rule."""
    free_tib: float
    """Usable less the data after compression (negative: short)."""
    min_hosts: int
    """The policy's minimum (one more recommended)."""
    hosts_needed: int | None
    """The larger of the hosts the data needs and the policy's minimum (None: no devices)."""
    write_latency_ms: float | None
    read_latency_ms: float | None
    """The mean latency of the writes and of the reads its datastore serves (the model's:
    :mod:`models.subsystems.vsan_io`); None where it serves none."""
    storage_hosts: int | None = field(default=None, metadata=OMIT)
    """Hosts like the cluster's that the data needs (its reserves included)."""
    compression: float = field(default=1.0, metadata=OMIT)
    reserve_rule: str = field(default="reserved", metadata=OMIT)
    """``reserved`` (host rebuild and operations reserves) or ``slack`` (30 % free)."""
    used_tib: float = field(default=0.0, metadata=OMIT)
    """Raw the data takes under its policies, compressed."""


@dataclass
class Capacity:
    """Clusters' HA admission control, overcommit and storage space (``extras.capacity``)."""

    clusters: list[ClusterCapacity]
    vcpu_per_core: float | None
    memory_overcommit: float | None
    max_vcpu_per_core_host: float | None
    storage: StorageCapacity
    unplaced_vms: int
    sources: list[str]
    licensing: Licensing | None = field(default=None, metadata=OMIT)
    vsan: list[VsanCluster] | None = field(default=None, metadata=OMIT)
    """The vSAN clusters (the JSON's top-level ``vsan``); None where there are none."""


# ---------------------------------------------------------------------- content library
@dataclass
class LibraryJob:
    """What one library's operation does, end to end (an entry of
    ``extras.content_library``)."""

    id: str
    name: str
    operation: str
    mode: str
    items: int
    active: int
    queued: int
    completion_s: float | None
    """None when the job moves nothing (a publisher, an idle library)."""
    throughput_mbps: float | None = field(metadata={"json": "throughput_MBps"})
    """MB/s (megabytes)."""
    bound_by: str
    detail: dict[str, Any] = field(default_factory=dict, metadata={"flatten": True})
    """The operation's own counts (subscribers, WAN copies, ...), beside the others in JSON."""

    @property
    def moves_items(self) -> bool:
        return self.items > 0 and self.completion_s is not None


# ---------------------------------------------------------------------- VDI
@dataclass
class VdiLink:
    desktops: float
    mbps: float
    util: float
    max_desktops: int


@dataclass
class Vdi:
    desktops: int
    mean_desktop_kbps: float
    wan: dict[str, VdiLink] = field(default_factory=dict)
    """By link name (``"dc-branch"``)."""


# ---------------------------------------------------------------------- multicast
@dataclass
class MulticastHost:
    receivers: int
    split_contexts: int
    shared_context_util: float
    shared_context_loss: float
    copies_per_s: float
    worst_loss: float


@dataclass
class Multicast:
    hosts: dict[str, MulticastHost]
    vm_loss: dict[str, float]
    vm_vcpu_util: dict[str, float]


# ---------------------------------------------------------------------- stretched cluster
@dataclass
class Stretched:
    """What each inter-site link needs: writes (data and resync) and witness traffic, Mbit/s
    by link name.  In JSON each is a key of ``extras`` of its own
    (``"wan_required_mbps siteA-siteB"``)."""

    witness_required_mbps: dict[str, float] = field(default_factory=dict)
    wan_required_mbps: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, float]:
        return {**{f"witness_required_mbps {k}": v
                   for k, v in self.witness_required_mbps.items()},
                **{f"wan_required_mbps {k}": v for k, v in self.wan_required_mbps.items()}}


# ---------------------------------------------------------------------- FT, network
@dataclass
class FtVm:
    mechanism: str
    """'fast_checkpointing' or 'record_replay'."""
    logging_demand_mbps: float
    sizing_rule_mbps: float


@dataclass
class FtDetail:
    vms: dict[str, FtVm]
    event_bytes: float
    logging_overhead: float
    sizing_rule_factor: float


@dataclass
class Cabling:
    cabling: str
    usd: float
    watts: float | None = field(default=None, metadata=OMIT)
    reach_m: float | None = field(default=None, metadata=OMIT)


@dataclass
class NetworkDetail:
    cabling: dict[str, Cabling]
    """By NIC id, for the NICs whose cabling is given."""


# ---------------------------------------------------------------------- CPU, consolidation
@dataclass
class CpuVirtualization:
    hypervisor_cores_by_host: dict[str, float]
    vm_efficiency: dict[str, float]
    """By VM id, the least efficient VMs first (at most a few dozen)."""
    vm_interrupts_per_s: dict[str, float]
    vm_context_switches_per_s: dict[str, float]
    vm_remote_memory_share: dict[str, float]
    mean_vm_efficiency: float
    event_us_by_esxi: dict[str, float]


@dataclass
class ConsolidationDetail:
    """The reference host's figures behind ``summary.consolidation``."""

    reference_host: str
    max_vms_per_host_by_memory: int | None
    cpu_cores_per_vm: float
    dense_activation_vms: int
    dense_context_share_removed: float
    web_core_ms_at_2_4ghz: float
    web_context_core_ms_per_vm_per_pcpu: float
    web_wall_per_cpu: float
    max_vms_per_host_by_exclusive_cores: int | None = field(default=None, metadata=OMIT)


# ---------------------------------------------------------------------- all of them
@dataclass
class Sections:
    """Every section a prediction may carry; None where the design has nothing of it."""

    stretched: Stretched | None = None
    storage_mva_iterations: int | None = None
    network: NetworkDetail | None = None
    multicast: Multicast | None = None
    ft: FtDetail | None = None
    cpu_virtualization: CpuVirtualization | None = None
    consolidation: ConsolidationDetail | None = None
    vdi: Vdi | None = None
    content_library: list[LibraryJob] | None = None
    capacity: Capacity | None = None

    def to_json(self) -> dict[str, Any]:
        """The prediction JSON's ``extras``."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None:
                continue
            if isinstance(value, Stretched):
                out.update(value.to_json())
            else:
                out[f.name] = to_json(value)
        return out

    @property
    def library_transfers(self) -> list[LibraryJob]:
        """Content Library jobs that move items (publishers and idle libraries left out)."""
        return [j for j in self.content_library or [] if j.moves_items]


def finite(x: float) -> float | None:
    """``x``, or None when it is not a finite non-negative number (a job that never ends)."""
    return float(x) if math.isfinite(x) and x >= 0 else None
