"""vSAN's I/O path: the service a vSAN cluster's hosts give its datastore, the CPU its I/O
costs them and the memory vSAN holds on each.

A VM on a vSAN cluster's datastore is, in a design, a VM whose ``disk_on`` array has protocol
``vsan``.  The array is the datastore of a vSAN cluster when the hosts reaching it
(``storage`` links; else its VMs' hosts) are in a cluster whose ``vsan.architecture`` is
``esa`` or ``osa`` and whose hosts have devices: the array's own drive figures (``disks``,
``disk_iops``, ``raid``) are then not read, its service is the cluster's.  An array of
protocol ``vsan`` without such a cluster keeps the storage model's array station.

Mechanism (VMware's published rules; ``../shared/reference/vsan-sizing.md`` collects them)
------------------------------------------------------------------------------------------
* **Devices.** The cluster's devices serve its I/O as one multi-server station (the storage
  model's Seidmann station, :mod:`models.subsystems.storage`): ESA every NVMe device of each
  host's storage pool (``vsan.devices``); OSA every disk group (``vsan.disk_groups``; a host
  stating none has one per :data:`OSA_DEVICES_PER_GROUP` capacity devices), OSA's unit of
  performance: its cache device absorbs the writes and the group serves reads as one.
* **Service rate.** An OSA disk group serves :data:`OSA_GROUP_IOPS`, fitted by code to the
  regular DVD Store cluster's 2.4 ms (:mod:`models.calibration.stretched`: the paper gives no
  hardware, so its figure is the only anchor); an ESA device :data:`ESA_SPEEDUP` times that.
  A device holds a request for its share of its flash channels (the storage model's flash
  drive), and a large request its transfer time.
* **The write path** (:func:`write_path`): a write completes when its FTT+1 replicas
  acknowledge, written in parallel: one device write on its critical path, FTT+1 device
  writes of work.  OSA RAID 5/6 partial stripes read-modify-write: 2 reads + 2 writes (RAID 6:
  3 + 3) of work, a read phase then a write phase on the critical path ("Improving RAID-5/6
  in vSAN 7 U3 using heuristics").  ESA lands every write on a RAID 1 performance leg of
  FTT+1 copies, acknowledged there, and its log-structured file system destages full stripes
  to the capacity leg in the object's layout (Broadcom KB 434061; VMware, "RAID-5/6 with the
  performance of RAID-1", 2022): one device write on the critical path, FTT+1 plus the
  layout's raw per data of work (the destage counted as that many device writes: its bytes,
  an upper bound of its device time, as it is coalesced into full stripes).
* **Reads are not amplified**: one device read, served where a replica is.
* **Replica round trips** (:data:`HOST_RTT_MS`): the replicas sit on FTT+1 hosts, so at least
  one is remote whichever host the VM runs on: a write waits one round trip per phase on its
  critical path (RAID 1 and ESA one, OSA RAID 5/6 two).  vSAN places components without
  regard to where a VM runs, so a read finds its copy on its own host with the chance
  1 / the hosts (of its site, in a stretched cluster: reads stay at the local site) and
  otherwise pays one round trip.  A stretched cluster's write also waits for the other site's
  replica: :mod:`models.subsystems.stretched` adds the inter-site round trip to every write
  ("the latency incurred by the inter-site link is additive", VMware, 2021).
* **CPU** (:func:`cpu_us`): vSAN's own work, in microseconds of the reference core
  (:mod:`models.core.platform`), per device I/O (a component's receive, checksum and write
  or read), the owner's per guest I/O counted as one more; charged to the host of the VM that
  issues the I/O (the cluster's sum is right; where its components' share lands is not
  modelled), and on the I/O's critical path the owner's and one component's.
* **Memory** (:func:`memory_gb`): OSA by Broadcom KB 2113954 (vSAN 6.2 and 6.6 constants),
  5,426 MB a host, 636 MB a disk group plus 14 MB per GB of its all-flash cache device (at
  most 600 GB counted) and 70 MB a capacity device; ESA :data:`ESA_BASE_MB` plus 70 MB a
  device (no published formula: an assumption, stated).  Held on every host of the cluster,
  beside its VMs' memory.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import cache

import numpy as np

from models.core import coefficients
from models.core.compiled import Compiled
from models.core.platform import HT_THROUGHPUT, processor_speed
from models.core.results import StorageResult
from models.core.sections import Capacity
from models.subsystems.vsan import layout

OSA_GROUP_IOPS = coefficients.declare(
    "vsan.osa_disk_group_iops", "IOPS per disk group", 6000.0,
    "An OSA disk group's service rate as the guest's I/O sees it (its cache device absorbing"
    " writes, its devices serving reads, vSAN's log on the way), a device with flash's"
    " channels: fitted through the write path (one device write, a replica round trip,"
    " vSAN's CPU) to the regular DVD Store cluster's 2.4 ms average latency, with the"
    " stretched cluster's write share and the orders' think time"
    " (stretch-vsan-avg-latency-vs-intersite-latency,"
    " stretch-vsan-opm-vs-intersite-latency; vSAN 6.1, one disk group per host assumed: the"
    " paper gives no hardware).  Prior: 6,000.")
ESA_SPEEDUP = 4.0
"""An ESA device's rate over an OSA disk group's: "We've seen customers easily reaching 4x the
number of IOPS with ESA than with OSA" (Epping, "vSAN ESA is using more CPU cycles than vSAN
OSA?", 2023), taken per device (an assumption no case checks)."""
OSA_DEVICES_PER_GROUP = 7
"""A disk group holds at most 7 capacity devices (vSAN configuration maximums): a host stating
devices but no disk groups has as few groups as hold them."""
HOST_RTT_MS = 0.2
"""Round trip between the hosts of a cluster: assumed, a fifth of vSAN's supported maximum
(at most 1 ms between the hosts of a single-site cluster, vSAN planning guide, network
requirements)."""
FLASH_CHANNELS = 8.0
"""Requests a device serves at once: the storage model's flash drive's
(:data:`models.subsystems.storage.DRIVE_PARALLEL`)."""
DEVICE_MBPS = 500.0
"""A device's transfer rate: the storage model's flash drive's."""

# vSAN's CPU per I/O: VMware publishes no figure; sizers assume about 10 % of a host's CPU
# (vsan-sizing.md, "Host overheads").  Derived from that rule at a ReadyNode profile's stated
# rate: the vSAN 6.2 AF-8 profile, 2 x 12 cores and 80,000 IOPS (vSAN 6.2 ReadyNode table,
# "vSAN Essentials", chapter 9).
SIZER_CPU_SHARE = 0.10
READYNODE_CORES = 24
READYNODE_IOPS = 80_000.0
READYNODE_PROCESSOR = "Intel Xeon E5-2680 v3"
"""The AF-8 profile's 12-core processor: assumed, the profile names cores, not a model."""
READYNODE_READ = 0.70
"""The profiles' workload: 4 KB, 70 % reads, RAID 1 (assumed, VMware's usual "typical
commercial application" mix in its vSAN 6 performance papers)."""

# OSA memory, Broadcom KB 2113954 (vSAN 6.2, ESXi 6.0 U3 and later; vSAN 6.6, 6.5.0d)
OSA_BASE_MB = 5426.0
OSA_GROUP_MB = 636.0
OSA_CACHE_MB_PER_GB = 14.0
"""All-flash; a hybrid cache device takes 8 MB per GB (not modelled: Headroom's OSA hosts are
all-flash)."""
OSA_CACHE_CAP_GB = 600.0
OSA_DEVICE_MB = 70.0
ESA_BASE_MB = OSA_BASE_MB + OSA_GROUP_MB + OSA_CACHE_MB_PER_GB * OSA_CACHE_CAP_GB
"""ESA's memory a host beyond 70 MB a device: no published formula was found (vsan-sizing.md,
"Host overheads"), so assumed as KB 2113954's all-flash host with one disk group whose cache
is the 600 GB the formula counts at most (14,462 MB), its log-structured file system's
in-memory state standing for the cache's."""


@cache
def cpu_us() -> float:
    """vSAN's CPU per device I/O (the owner's per guest I/O counted as one more), in
    microseconds of the reference core: :data:`SIZER_CPU_SHARE` of the AF-8 ReadyNode's cores
    (hyperthreading on) at its :data:`READYNODE_IOPS`, each guest I/O 1 + reads + 2 x writes
    such units (RAID 1)."""
    capacity = READYNODE_CORES * HT_THROUGHPUT * processor_speed(READYNODE_PROCESSOR)
    units = 1.0 + READYNODE_READ + 2.0 * (1.0 - READYNODE_READ)
    return SIZER_CPU_SHARE * capacity / (READYNODE_IOPS * units) * 1e6


def write_path(architecture: str, policy: str, ftt: int, hosts: int) -> tuple[float, float]:
    """A guest write's device I/Os (work) and the device I/Os in series on its critical path,
    under ``policy`` with ``ftt`` on ``hosts`` hosts."""
    if architecture == "osa":
        if policy == "raid5":
            return 4.0, 2.0  # read data and parity, then write both
        if policy == "raid6":
            return 6.0, 2.0  # 3 + 3
        return float(ftt + 1), 1.0
    # ESA: the performance leg's FTT+1 copies, then the destage to the capacity leg
    stripe = layout("esa", policy, ftt, hosts) / layout("esa", "raid1", 0, hosts)
    return float(ftt + 1) + stripe, 1.0


@dataclass(frozen=True)
class Service:
    """The vSAN service of the VMs on a vSAN cluster's datastore (arrays indexed like the
    compiled tables; NaN or -1 where a VM or array has none)."""

    vm: np.ndarray
    """bool: VMs whose disk a vSAN cluster's devices serve."""
    cluster: np.ndarray
    """Per VM, the vSAN cluster's index (-1: none)."""
    array_devices: np.ndarray
    """Per array, its cluster's devices (OSA: disk groups); 0 for an array no cluster serves."""
    device_iops: np.ndarray
    """Per VM, its cluster's rate per device."""
    write_ios: np.ndarray
    """Per VM, device I/Os per guest write under its policy."""
    write_serial: np.ndarray
    """Per VM, device I/Os in series on a write's critical path."""
    read_rtt_ms: np.ndarray
    """Per VM, a read's mean round-trip wait (a remote copy)."""
    write_rtt_ms: np.ndarray
    """Per VM, a write's round-trip wait (its remote replicas, within the cluster)."""
    array_cluster: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    """Per array, the vSAN cluster that serves it (-1: none)."""

    @property
    def any(self) -> bool:
        return bool(self.vm.any())


def service(c: Compiled) -> Service:
    """The vSAN service of every VM and array (memoised on the columns it reads)."""
    return c.memo("vsan.service", lambda: _service(c))


def _choice(c: Compiled, kind: str, prop: str, code: int) -> str:
    choices = c.tables[kind].specs[prop].choices or ()
    return str(choices[code])


def _units(c: Compiled, esa: np.ndarray) -> np.ndarray:
    """Per host, the devices that serve vSAN I/O: ESA its devices, OSA its disk groups (as
    many as hold its capacity devices where it states none)."""
    hc = c.host.cols
    devices = hc["vsan.devices"].astype(float)
    groups = hc["vsan.disk_groups"].astype(float)
    osa_groups = np.where(groups > 0, groups, np.ceil(devices / OSA_DEVICES_PER_GROUP))
    return np.where(esa, devices, osa_groups)


def _array_cluster(c: Compiled, vsan_cluster: np.ndarray) -> np.ndarray:
    """Per array of protocol vsan, the vSAN cluster whose hosts reach it (its VMs' hosts when
    no host links to it; the most of them where they differ); -1 for none."""
    n_arr = len(c.array)
    out = np.full(n_arr, -1, np.int64)
    if not n_arr or not len(c.cluster):
        return out
    hc = c.host_cluster
    src, dst = c.host_array_pairs()
    on = c.vm_array >= 0
    vm_hosts = c.vm_host[on]
    vm_arrays = c.vm_array[on]
    for j in np.flatnonzero(c.array.is_("protocol", "vsan")):
        hosts = src[dst == j]
        if not len(hosts):
            hosts = vm_hosts[(vm_arrays == j) & (vm_hosts >= 0)]
        clusters = hc[hosts] if len(hosts) else np.zeros(0, np.int64)
        clusters = clusters[clusters >= 0]
        clusters = clusters[vsan_cluster[clusters]]
        if len(clusters):
            out[j] = int(np.bincount(clusters).argmax())
    return out


def _service(c: Compiled) -> Service:
    n, n_arr = len(c.vm), len(c.array)
    none = Service(np.zeros(n, bool), np.full(n, -1, np.int64), np.zeros(n_arr),
                   np.full(n, np.nan), np.full(n, np.nan), np.full(n, np.nan),
                   np.full(n, np.nan), np.full(n, np.nan))
    if not len(c.cluster) or not n_arr or not n:
        return none
    cc = c.cluster.cols
    arch = cc["vsan.architecture"]
    vsan_cluster = arch != c.cluster.code("vsan.architecture", "none")
    if not vsan_cluster.any():
        return none
    hc = c.host_cluster
    in_vsan = hc >= 0
    host_esa = np.zeros(len(c.host), bool)
    host_esa[in_vsan] = arch[hc[in_vsan]] == c.cluster.code("vsan.architecture", "esa")
    units = np.where(in_vsan, _units(c, host_esa), 0.0)
    per_cluster = np.bincount(hc[in_vsan], units[in_vsan], minlength=len(c.cluster))
    served = vsan_cluster & (per_cluster > 0)
    array_cluster = _array_cluster(c, served)
    array_devices = np.where(array_cluster >= 0,
                             per_cluster[np.maximum(array_cluster, 0)], 0.0)
    vm_cluster = np.where(c.vm_array >= 0, array_cluster[np.maximum(c.vm_array, 0)], -1)
    on = vm_cluster >= 0
    if not on.any():  # no VM on it; a host's background I/O may be
        return replace(none, array_devices=array_devices, array_cluster=array_cluster)
    own = c.vm.cols["vsan.policy"]
    out = {k: np.full(n, np.nan) for k in ("iops", "wio", "ws", "rr", "wr")}
    for k in np.unique(vm_cluster[on]):
        for code in np.unique(own[vm_cluster == k]):
            name = _choice(c, "vm", "vsan.policy", int(code))
            rows = (vm_cluster == k) & (own == code)
            for key, v in zip(out, _path(c, int(k), name), strict=True):
                out[key][rows] = v
    return Service(on, vm_cluster, array_devices, out["iops"], out["wio"], out["ws"],
                   out["rr"], out["wr"], array_cluster)


def _path(c: Compiled, k: int, policy: str) -> tuple[float, float, float, float, float]:
    """Cluster ``k``'s device rate, a write's device I/Os (work and in series) and a read's
    and a write's round-trip wait under the VM policy ``policy`` (``cluster``: its default)."""
    cc, hc = c.cluster.cols, c.host_cluster
    arch = _choice(c, "cluster", "vsan.architecture", int(cc["vsan.architecture"][k]))
    if policy == "cluster":
        policy = _choice(c, "cluster", "vsan.policy", int(cc["vsan.policy"][k]))
    hosts = int(np.count_nonzero(hc == k))
    # data sites of the cluster: reads stay at the VM's own site
    sites = len(set(c.host_site[(hc == k) & (c.host_site >= 0)].tolist())) or 1
    per_site = max(hosts / sites, 1.0)
    ftt = 1 if policy == "raid5" else 2 if policy == "raid6" else int(cc["vsan.ftt"][k])
    wio, ws = write_path(arch, policy, ftt, hosts)
    return (OSA_GROUP_IOPS.value * (ESA_SPEEDUP if arch == "esa" else 1.0), wio, ws,
            HOST_RTT_MS * (1.0 - 1.0 / per_site), HOST_RTT_MS * ws)


def rows(c: Compiled, arrays: np.ndarray) -> Service:
    """The vSAN service of I/O on the arrays ``arrays`` (one row each) under their cluster's
    default policy: a host's background I/O (:mod:`models.subsystems.storage_background`)."""
    s = service(c)
    n = len(arrays)
    cluster = (s.array_cluster[arrays] if len(s.array_cluster) and n
               else np.full(n, -1, np.int64))
    out = {k: np.full(n, np.nan) for k in ("iops", "wio", "ws", "rr", "wr")}
    for k in np.unique(cluster[cluster >= 0]):
        for key, v in zip(out, _path(c, int(k), "cluster"), strict=True):
            out[key][cluster == k] = v
    return Service(cluster >= 0, cluster, s.array_devices, out["iops"], out["wio"], out["ws"],
                   out["rr"], out["wr"], s.array_cluster)


def memory_gb(c: Compiled) -> np.ndarray:
    """Per host, the memory vSAN holds (GB; 0 on a host in no vSAN cluster): KB 2113954 for
    OSA, :data:`ESA_BASE_MB` and 70 MB a device for ESA."""
    return c.memo("vsan.memory", lambda: _memory_gb(c))


def osa_memory_mb(disk_groups: float, cache_gb: float, capacity_devices: float) -> float:
    """vSAN's memory on an all-flash OSA host, MB (Broadcom KB 2113954)."""
    return (OSA_BASE_MB + disk_groups * (OSA_GROUP_MB + OSA_CACHE_MB_PER_GB
                                         * min(cache_gb, OSA_CACHE_CAP_GB))
            + OSA_DEVICE_MB * capacity_devices)


def _memory_gb(c: Compiled) -> np.ndarray:
    h = len(c.host)
    if not h or not len(c.cluster):
        return np.zeros(h)
    arch = c.cluster.cols["vsan.architecture"]
    hc = c.host_cluster
    code = np.where(hc >= 0, arch[np.maximum(hc, 0)], c.cluster.code("vsan.architecture",
                                                                    "none"))
    esa = code == c.cluster.code("vsan.architecture", "esa")
    osa = code == c.cluster.code("vsan.architecture", "osa")
    if not (esa.any() or osa.any()):
        return np.zeros(h)
    cols = c.host.cols
    devices = cols["vsan.devices"].astype(float)
    groups = cols["vsan.disk_groups"].astype(float)
    groups = np.where((groups > 0) | (devices <= 0), groups,
                      np.ceil(devices / OSA_DEVICES_PER_GROUP))
    cache = np.minimum(cols["vsan.cache_gb"], OSA_CACHE_CAP_GB)
    mb = np.where(osa, OSA_BASE_MB + groups * (OSA_GROUP_MB + OSA_CACHE_MB_PER_GB * cache)
                  + OSA_DEVICE_MB * devices,
                  np.where(esa, ESA_BASE_MB + OSA_DEVICE_MB * devices, 0.0))
    return mb / 1024.0


def with_latency(c: Compiled, capacity: Capacity, sto: StorageResult) -> Capacity:
    """``capacity`` with each vSAN cluster's write and read latency: the mean of the I/Os its
    datastore serves (ms), each VM weighted by its writes and reads; None where it serves
    none."""
    s = service(c)
    if not capacity.vsan or not s.any or sto.vm_read_latency_ms is None \
            or sto.vm_write_latency_ms is None:
        return capacity
    x = np.nan_to_num(sto.vm_iops)
    read = c.vm.cols["workload.io_read_pct"] / 100.0
    index = c.cluster.index
    rows = []
    for v in capacity.vsan:
        on = s.vm & (s.cluster == index.get(v.cluster, -2)) & (x > 0)
        rows.append(replace(
            v, write_latency_ms=_mean(sto.vm_write_latency_ms[on], x[on] * (1.0 - read[on])),
            read_latency_ms=_mean(sto.vm_read_latency_ms[on], x[on] * read[on])))
    return replace(capacity, vsan=rows)


def _mean(values: np.ndarray, weights: np.ndarray) -> float | None:
    ok = np.isfinite(values) & (weights > 0)
    total = float(weights[ok].sum())
    if total <= 0 or not math.isfinite(total):
        return None
    return float((values[ok] * weights[ok]).sum() / total)


@dataclass(frozen=True)
class Station:
    """The storage model's array station for the VMs a vSAN cluster serves (per VM; the
    others keep their array's): what it merges into the MVA's parameters, and each VM's read
    and write apart (seconds) for their latencies."""

    on: np.ndarray
    array_devices: np.ndarray
    per_io: np.ndarray
    """Device work per device I/O (s): the larger of 1 / rate and the transfer time."""
    backend: np.ndarray
    """Device I/Os per guest I/O: reads + writes x the write path's."""
    aq_read: np.ndarray
    aq_write: np.ndarray
    """Queueing demand of a read and of a write (the Seidmann station's queue part)."""
    delay_read: np.ndarray
    delay_write: np.ndarray
    """Everything else a read and a write wait for but the engine's per-write delay
    (inter-site, FT): the station's delay part (at no load a read waits one device read, a
    write its device I/Os in series), the round trips and vSAN's CPU on the path."""
    cpu_us: np.ndarray
    """vSAN's CPU per guest I/O, us of the reference core (the VM's read and write mix)."""
    write_delay_s: np.ndarray
    """The engine's per-write delay (inter-site round trip, FT output commit)."""

    def merged(self, read: np.ndarray, per_io: np.ndarray, backend: np.ndarray,
               aq: np.ndarray, ad: np.ndarray, disks: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The array station's per-VM ``per_io``, ``backend``, queueing and delay demand (the
        delay: all a vSAN VM's I/O waits for but the queue, round trips and CPU included)
        and per-array ``disks``, the vSAN VMs' replaced."""
        on, write = self.on, 1.0 - read
        return (np.where(on, self.per_io, per_io), np.where(on, self.backend, backend),
                np.where(on, read * self.aq_read + write * self.aq_write, aq),
                np.where(on, read * self.delay_read + write * self.delay_write, ad),
                np.where(self.array_devices > 0, self.array_devices, disks))

    def split(self, n: int, ix: np.ndarray | slice, served: np.ndarray, read: np.ndarray,
              resp: np.ndarray, r_queue: np.ndarray, d_queue: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray]:
        """Every VM's read and write latency (ms; NaN but for the ``served`` VMs of ``ix`` a
        vSAN cluster serves) from its mixed response ``resp`` (s, of the VMs ``ix``): the
        array's residence ``r_queue`` of its queueing demand ``d_queue`` shared in proportion
        to a read's and a write's demand (both wait behind the same queue), and each its own
        delay."""
        on = self.on[ix] & served
        rd = read[ix]
        inflation = np.where(d_queue > 0, r_queue / np.maximum(d_queue, 1e-300), 1.0)
        d_r, d_w = self.delay_read[ix], self.delay_write[ix] + self.write_delay_s[ix]
        rest = resp - r_queue - (rd * d_r + (1.0 - rd) * d_w)  # what reads and writes share
        out = []
        for aq, d in ((self.aq_read[ix], d_r), (self.aq_write[ix], d_w)):
            ms = np.full(n, np.nan)
            ms[ix] = np.where(on, (rest + aq * inflation + d) * 1000.0, np.nan)
            out.append(ms)
        return out[0], out[1]


def station(c: Compiled, read: np.ndarray, bs_kb: np.ndarray, scale: np.ndarray,
            write_delay_ms: np.ndarray, s: Service | None = None,
            arrays: np.ndarray | None = None) -> Station | None:
    """The vSAN station of the VMs a vSAN cluster serves (None without any): ``read`` the
    VMs' read shares, ``bs_kb`` their request sizes, ``scale`` seconds per microsecond of the
    reference core on their hosts, ``write_delay_ms`` the engine's per-write delay.  With
    ``s`` and ``arrays`` (:func:`rows`), the same for other rows of I/O on those arrays."""
    s = service(c) if s is None else s
    if not s.any:
        return None
    on = s.vm
    rate = np.where(on, s.device_iops, 1.0)
    transfer = bs_kb / (DEVICE_MBPS * 1000.0)
    per_io = np.maximum(1.0 / rate, transfer)
    held = np.maximum(FLASH_CHANNELS / rate, transfer)  # a request's time on its device
    devices = s.array_devices[np.maximum(c.vm_array if arrays is None else arrays, 0)]
    servers = np.maximum(devices * held / per_io, 1.0)
    wio, ws = np.nan_to_num(s.write_ios), np.nan_to_num(s.write_serial)
    aq_r, aq_w = held / servers, held * wio / servers
    # the critical path: one device read, or a write's device I/Os in series; at no load
    # the queue part is the first of it, the Seidmann delay the rest
    part_r, part_w = np.maximum(held - aq_r, 0.0), np.maximum(held * ws - aq_w, 0.0)
    cpu = cpu_us()
    on_path = 2.0 * cpu * scale  # the owner's and one component's work
    write = 1.0 - read
    return Station(
        on=on, array_devices=s.array_devices, per_io=per_io,
        backend=read + write * wio, aq_read=aq_r, aq_write=aq_w,
        delay_read=part_r + np.nan_to_num(s.read_rtt_ms) / 1000.0 + on_path,
        delay_write=part_w + np.nan_to_num(s.write_rtt_ms) / 1000.0 + on_path,
        cpu_us=np.where(on, cpu * (1.0 + read + write * wio), 0.0),
        write_delay_s=np.nan_to_num(write_delay_ms) / 1000.0)
