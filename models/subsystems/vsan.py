"""vSAN capacity: a cluster's datastore built from its hosts' devices, what its storage policy
takes of it, the reserves, and the hosts the data needs.

Mechanism (VMware's published rules; ``../shared/reference/vsan-sizing.md`` collects them)
-----------------------------------------------------------------------------------------
* **Raw**: each host's capacity devices x their size (decimal TB, as vendors state it), in
  TiB; the cluster's raw is its hosts' sum, so there is no array to keep in step.
* **The policy's layout** (vSAN planning guide; Broadcom KB 428941, KB 405876): RAID 1 with
  FTT=n keeps n+1 copies; OSA RAID 5 is 3+1 (1.33), RAID 6 4+2 (1.5); ESA RAID 5 is 2+1 (1.5)
  below 6 hosts and 4+1 (1.25) from 6 (adaptive RAID 5).  ESA's log-structured file system
  adds 13.1 % of data and replicas (KB 394410: 10 GB thin is 22.62 GB on RAID 1, 14.13 GB on
  RAID 5 4+1, 16.96 GB on RAID 6); OSA's on-disk format is assumed to take
  :data:`OSA_FORMAT` more.  A VM may name another layout (``vm.vsan.policy``).
* **Data**: what the cluster's VMs use (thin disks) or are provisioned (thick), over the
  compression ratio assumed (``vsan.compression``, 1.0 by default: nothing pre-spent).
* **Reserves** (vSAN 7.0 U1 and later, "About Reserved Capacity"): the host rebuild reserve,
  the largest host's raw, and the operations reserve, ``vsan.operations_reserve_pct`` of raw
  (no single published figure: an assumption the design states).  Where reserved capacity
  cannot apply (a stretched cluster, hosts at two sites; a two-node cluster) the older rule:
  :data:`SLACK` of raw kept free.
* **Hosts needed**: the fewest hosts like the cluster's (its mean raw per host) whose raw less
  the reserves holds the data under the policy; and the policy's minimum (2 x FTT + 1 for
  mirroring, 4 for OSA RAID 5, 3 for ESA RAID 5, 6 for RAID 6), VMware recommending one more
  so that a failed host's components can be rebuilt.

Nothing here is fitted.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.core.compiled import Compiled
from models.core.sections import VsanCluster
from models.document.numbers import counted, with_unit
from models.document.schema import choice_label

TIB_PER_TB = 1.0e12 / 2.0**40
"""A decimal TB (vendors' device sizes) in TiB."""
GIB_PER_TIB = 1024.0
ESA_LFS = 0.131
"""ESA's log-structured file system: 13.1 % of data and replicas (Broadcom KB 394410)."""
OSA_FORMAT = 0.01
"""OSA's on-disk format overhead: an assumption (VMware calls it small and states no figure)."""
SLACK = 0.30
"""Raw kept free where reserved capacity cannot apply (stretched and two-node clusters): the
upper end of VMware's 25-30 % guidance (vSAN administration guide)."""
MAX_HOSTS = 64
"""A vSAN cluster's largest size (vSAN configuration maximums): no count beyond it."""


def layout(architecture: str, policy: str, ftt: int, hosts: int) -> float:
    """Raw TiB per TiB of data under ``policy`` with ``ftt`` on ``hosts`` hosts, the
    architecture's on-disk overhead included."""
    if policy == "raid5":
        factor = 4.0 / 3.0 if architecture == "osa" else (1.25 if hosts >= 6 else 1.5)
    elif policy == "raid6":
        factor = 1.5
    else:
        factor = float(ftt + 1)
    return factor * (1.0 + (ESA_LFS if architecture == "esa" else OSA_FORMAT))


def min_hosts(architecture: str, policy: str, ftt: int) -> int:
    """The fewest hosts ``policy`` places its components on (KB 428941)."""
    if policy == "raid5":
        return 4 if architecture == "osa" else 3
    if policy == "raid6":
        return 6
    return 2 * ftt + 1


@dataclass(frozen=True)
class Cluster:
    """What the capacity model needs of one vSAN cluster (indices into the compiled design)."""

    index: int
    hosts: np.ndarray
    vms: np.ndarray
    stretched: bool


@dataclass(frozen=True)
class Settings:
    """A vSAN cluster's settings (its ``vsan.*`` properties)."""

    architecture: str
    policy: str
    ftt: int
    compression: float
    operations: float
    """The operations reserve, a fraction of raw."""
    rebuild: bool
    slack: bool
    """Reserved capacity cannot apply (stretched): :data:`SLACK` of raw kept free."""

    def data_raw(self, data: dict[str, float], hosts: int) -> float:
        """Raw TiB that ``data`` (TiB by layout, ``cluster`` for the default) takes on
        ``hosts`` hosts, compressed."""
        total = 0.0
        for name, tib in data.items():
            p = self.policy if name == "cluster" else name
            f = 1 if p == "raid5" else 2 if p == "raid6" else self.ftt
            total += tib * layout(self.architecture, p, f, hosts)
        return total / self.compression

    def reserve(self, hosts: int, per_host: float, largest: float) -> tuple[float, str]:
        """Raw TiB kept free on ``hosts`` hosts of ``per_host`` raw (the largest
        ``largest``), and the rule that keeps it."""
        if self.slack or hosts <= 2:
            return SLACK * hosts * per_host, "slack"
        return (largest if self.rebuild else 0.0) + self.operations * hosts * per_host, \
            "reserved"

    def hosts_for(self, data: dict[str, float], per_host: float) -> int | None:
        """The fewest hosts of ``per_host`` raw whose raw less the reserves holds ``data``
        (None: none up to :data:`MAX_HOSTS`, or no devices)."""
        if per_host <= 0:
            return 0 if not any(data.values()) else None
        for k in range(1, MAX_HOSTS + 1):
            if self.data_raw(data, k) <= k * per_host - self.reserve(k, per_host,
                                                                     per_host)[0] + 1e-9:
                return k
        return None


def solve(c: Compiled, groups: list[Cluster]) -> list[VsanCluster]:
    """Every vSAN cluster's capacity (clusters with ``vsan.architecture`` none are left out)."""
    if not len(c.cluster):
        return []
    cc, hc, vc = c.cluster.cols, c.host.cols, c.vm.cols
    arch_of = c.cluster.specs["vsan.architecture"].choices or ()
    pol_of = c.cluster.specs["vsan.policy"].choices or ()
    vm_pol_of = c.vm.specs["vsan.policy"].choices or ()
    raw_host = hc["vsan.devices"] * hc["vsan.device_tb"] * TIB_PER_TB
    used = np.nan_to_num(vc["disk.used_gb"])
    provisioned = np.where(np.isnan(vc["disk.provisioned_gb"]), used,
                           vc["disk.provisioned_gb"])
    out = []
    for g in groups:
        j = g.index
        arch = str(arch_of[int(cc["vsan.architecture"][j])])
        if arch == "none":
            continue
        policy = str(pol_of[int(cc["vsan.policy"][j])])
        ftt = 1 if policy == "raid5" else 2 if policy == "raid6" else int(cc["vsan.ftt"][j])
        st = Settings(arch, policy, ftt,
                      max(float(cc["vsan.compression"][j]), 1.0),
                      float(cc["vsan.operations_reserve_pct"][j]) / 100.0,
                      bool(cc["vsan.host_rebuild_reserve"][j]), g.stretched)
        gb = (used if bool(cc["vsan.thin"][j]) else provisioned)[g.vms]
        own = vc["vsan.policy"][g.vms]
        data = {str(vm_pol_of[int(k)]): float(gb[own == k].sum()) / GIB_PER_TIB
                for k in np.unique(own)}
        n = len(g.hosts)
        raw = float(raw_host[g.hosts].sum())
        per_host = raw / n if n else 0.0
        largest = float(raw_host[g.hosts].max()) if n else 0.0
        held, rule = st.reserve(n, per_host, largest)
        need = st.data_raw(data, n)
        total = sum(data.values())
        factor = need * st.compression / total if total > 0 else \
            layout(arch, st.policy, st.ftt, n)
        usable = max(raw - held, 0.0) / factor if factor > 0 else 0.0
        storage_hosts = st.hosts_for(data, per_host)
        least = min_hosts(arch, st.policy, st.ftt)
        cid = c.cluster.ids[j]
        out.append(VsanCluster(
            cluster=cid, name=c.names.get(cid, cid), architecture=arch, policy=st.policy,
            ftt=st.ftt, hosts=n, raw_tib=raw, usable_tib=usable, data_tib=total,
            reserve_tib=held, free_tib=usable - total / st.compression, min_hosts=least,
            hosts_needed=None if storage_hosts is None else max(storage_hosts, least),
            write_latency_ms=None, read_latency_ms=None, storage_hosts=storage_hosts,
            compression=st.compression, reserve_rule=rule, used_tib=need))
    return out


def words(v: VsanCluster) -> str:
    """The cluster's vSAN in words: ``ESA RAID 5 FTT 1 on 6 hosts: 38.2 TiB usable after
    reserves, 12.1 TiB of data, 26.1 TiB free; its data needs 3 hosts, the policy at least
    3 (4 recommended, ...)``."""
    need = "no device holds it" if v.storage_hosts is None else \
        f"its data needs {counted(v.storage_hosts, 'host')}"
    return (f"{choice_label(v.architecture).split()[0]} {choice_label(v.policy)} FTT"
            f" {v.ftt} on {counted(v.hosts, 'host')}: {with_unit(v.usable_tib, 'TiB')} usable"
            f" after reserves, {with_unit(v.data_tib, 'TiB')} of data,"
            f" {with_unit(v.free_tib, 'TiB')} free; {need}, the policy at least"
            f" {counted(v.min_hosts, 'host')} ({counted(v.min_hosts + 1, 'host')} recommended,"
            " to rebuild a failed host's components)")
