"""What each subsystem model returns to the engine.

The engine (:mod:`models.engine.evaluation`) runs the subsystems in a fixed order and assembles a
:class:`~models.core.prediction.Prediction` from these.  A model may add fields to its result; it
keeps the ones listed here.  Arrays are indexed like the compiled tables (``c.vm``, ``c.host``,
``c.nic``, ``c.array``); NaN means "not modelled for this component".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from models.core.prediction import Consolidation, Resource
from models.core.sections import (
    ConsolidationDetail,
    CpuVirtualization,
    FtDetail,
    Multicast,
    NetworkDetail,
)


@dataclass
class Common:
    resources: list[Resource] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


@dataclass
class StretchedResult(Common):
    vm_write_delay_ms: np.ndarray = field(default_factory=lambda: np.zeros(0))
    """Extra latency each write of the VM pays for crossing sites (0 for local clusters)."""
    witness_required_mbps: dict[str, float] = field(default_factory=dict)
    """Witness traffic each witness link needs, by link name."""


@dataclass
class StorageResult(Common):
    vm_not_measured: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    """bool: VMs whose storage I/O is not measured (a ``measured`` VM without io_iops): they
    do no I/O here and their storage figures are reported as NaN."""
    vm_iops: np.ndarray = field(default_factory=lambda: np.zeros(0))
    vm_mbps: np.ndarray = field(default_factory=lambda: np.zeros(0))
    vm_latency_ms: np.ndarray = field(default_factory=lambda: np.zeros(0))
    vm_p95_ms: np.ndarray = field(default_factory=lambda: np.zeros(0))
    vm_read_mbps: np.ndarray = field(default_factory=lambda: np.zeros(0))
    """Disk reads in MB/s (FT logs them)."""
    vm_cpu_cores: np.ndarray = field(default_factory=lambda: np.zeros(0))
    """Host cores the VM's I/O path consumes."""
    vm_cpu_cost_per_kiops: np.ndarray = field(default_factory=lambda: np.zeros(0))
    """% of one core per 1,000 IOPS."""
    vm_bound_by: Sequence[str] = field(default_factory=list)
    array_iops: np.ndarray = field(default_factory=lambda: np.zeros(0))
    array_latency_ms: np.ndarray = field(default_factory=lambda: np.zeros(0))
    array_util: np.ndarray = field(default_factory=lambda: np.zeros(0))
    host_background_iops: np.ndarray = field(default_factory=lambda: np.zeros(0))
    """Per host, the background I/O served (what it recorded beyond its VMs: issue 36); the
    arrays' IOPS, latency and utilisation count it."""
    vm_txn_per_s: np.ndarray | None = None
    """Transactions/s of application VMs (``workload.app_users`` > 0), NaN for the others;
    None when the design has none."""
    vm_txn_response_ms: np.ndarray | None = None
    """Their transaction response time (think time excluded)."""
    vm_max_users: np.ndarray | None = None
    """Users an application VM carries before its response passes policy.p95_ms_max."""
    vm_app_cores: np.ndarray | None = None
    """Guest CPU (cores at the host's clock) their transactions keep busy."""
    app_net_mbps: tuple[np.ndarray, np.ndarray] | None = None
    """(receive, transmit) Mbit/s their transactions offer the network."""
    mva_iterations: int | None = None
    """Steps the MVA took to converge."""
    wan_required_mbps: dict[str, float] = field(default_factory=dict)
    """What each stretched cluster's site link needs for its writes, by link name."""
    vm_read_latency_ms: np.ndarray | None = None
    vm_write_latency_ms: np.ndarray | None = None
    """A vSAN VM's read and write latency apart (:mod:`models.subsystems.vsan_io`), NaN for
    the others; None when no vSAN cluster serves a VM."""


@dataclass
class NetworkResult(Common):
    vm_rx_mbps: np.ndarray = field(default_factory=lambda: np.zeros(0))
    vm_tx_mbps: np.ndarray = field(default_factory=lambda: np.zeros(0))
    vm_cpu_cores: np.ndarray = field(default_factory=lambda: np.zeros(0))
    """Host cores the VM's network path consumes."""
    vm_bound_by: list[str] = field(default_factory=list)
    """'' where the network does not limit the VM."""
    vm_rx_pps: np.ndarray = field(default_factory=lambda: np.zeros(0))
    """Packets per second delivered to the VM (after LRO aggregation)."""
    vm_tx_pps: np.ndarray = field(default_factory=lambda: np.zeros(0))
    nic_gbps: np.ndarray = field(default_factory=lambda: np.zeros(0))
    nic_util: np.ndarray = field(default_factory=lambda: np.zeros(0))
    detail: NetworkDetail | None = None
    multicast: Multicast | None = None


@dataclass
class FtResult(Common):
    vm_logging_mbps: np.ndarray = field(default_factory=lambda: np.zeros(0))
    vm_latency_add_ms: np.ndarray = field(default_factory=lambda: np.zeros(0))
    vm_throughput_ratio: np.ndarray = field(default_factory=lambda: np.zeros(0))
    """FT-on throughput over FT-off (1 for VMs without FT); the engine scales the VM's IOPS
    and network throughput by it."""
    host_logging_mbps: np.ndarray = field(default_factory=lambda: np.zeros(0))
    nic_gbps: np.ndarray = field(default_factory=lambda: np.zeros(0))
    """FT logging traffic carried by each NIC, added to the network model's."""
    nic_util: np.ndarray = field(default_factory=lambda: np.zeros(0))
    vm_sizing_rule_mbps: np.ndarray = field(default_factory=lambda: np.zeros(0))
    """Logging bandwidth the vSphere 4 sizing rule asks for (reads x 8 + rx) x 1.2; 0 w/o FT."""
    detail: FtDetail | None = None


@dataclass(frozen=True)
class Demand:
    """What the per-host limits (:mod:`models.subsystems.limits`) count, per host and per VM
    (indexed like the compiled tables): the consolidation model fills it once per
    evaluation, and the capacity model counts each cluster's hosts with it."""

    cap: np.ndarray
    """Host core-equivalents."""
    pcpus: np.ndarray
    """Host logical processors (threads with hyperthreading)."""
    ghz_scale: np.ndarray
    """Per host: a reference core's time over this host's (1 / per-core speed)."""
    dense_capable: np.ndarray
    req_rate: np.ndarray
    """Per VM: requests/1000 per second (core-s per core-ms of cost); 0 for non-web VMs."""
    other: np.ndarray
    """Per VM: guest cores of work that is not requests."""
    path: np.ndarray
    """Per VM: host cores of its I/O, network and hypervisor paths."""
    vcpus: np.ndarray
    web: np.ndarray
    mult: np.ndarray
    """Per VM: 1, or 2 for an FT VM (its secondary: same CPU and memory,
    ft-secondary-doubles-cpu-memory)."""
    held: np.ndarray
    """Per VM: memory it holds (consumed where measured, else configured)."""
    exclusive_vcpus: np.ndarray
    """Per VM: vCPUs that need a physical core of their own (latency sensitivity high, FT
    secondaries included); 0 for the others."""
    mixes: dict[object, tuple[Any, ...]] = field(default_factory=dict, repr=False,
                                                    compare=False)
    """What :func:`models.subsystems.limits.limits_for` averages over a mix of these VMs,
    kept for this evaluation: the consolidation model and a one-cluster design's capacity
    ask for the same 50,000 VMs' means."""


@dataclass
class ConsolidationResult(Common):
    vm_cpu_util: np.ndarray = field(default_factory=lambda: np.zeros(0))
    """Fraction of the VM's vCPUs busy."""
    vm_cpu_cores: np.ndarray = field(default_factory=lambda: np.zeros(0))
    """Host core-equivalents the VM demands: its guest work and its I/O, network and
    hypervisor paths (what vCenter's usage MHz measures, as a share of host capacity)."""
    host_cpu_demand: np.ndarray = field(default_factory=lambda: np.zeros(0))
    """Core-equivalents the host's VMs demand (uncapped; ``host_cpu_util`` caps at 1)."""
    host_memory_gb: np.ndarray = field(default_factory=lambda: np.zeros(0))
    """Memory the host's VMs hold (consumed where measured, else configured)."""
    vm_response_ms: np.ndarray = field(default_factory=lambda: np.zeros(0))
    """Mean response time of request-driven VMs (web); NaN for others."""
    vm_response_p95_ms: np.ndarray = field(default_factory=lambda: np.zeros(0))
    vm_saturated: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    """bool: request-driven VMs whose host CPU or vCPUs cannot keep up: their response is
    unbounded (the arrays hold :data:`~models.core.prediction.SATURATED_MS`)."""
    host_cpu_util: np.ndarray = field(default_factory=lambda: np.zeros(0))
    host_memory_util: np.ndarray = field(default_factory=lambda: np.zeros(0))
    host_dense_active: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    consolidation: Consolidation = field(
        default_factory=lambda: Consolidation(0.0, None, None, None, None))
    cpu_virtualization: CpuVirtualization | None = None
    detail: ConsolidationDetail | None = None
    demand: Demand | None = None
    """What the per-host limits count (None without hosts or VMs)."""
