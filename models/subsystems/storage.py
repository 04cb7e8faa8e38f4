"""Storage: closed-loop MVA on each VM's outstanding I/Os.

Every VM that does I/O is one class of a queueing network.  A closed class keeps
``workload.io_oio`` I/Os in flight; an open class (``workload.io_iops`` given) offers a fixed
rate.  Each I/O visits, in order:

1. the VM's **vCPU I/O path**: guest issue, vSCSI adapter emulation (PVSCSI or LSI Logic SAS)
   and the vmkernel's synchronous issue, all in the issuing vCPU's context; a multi-server
   station with one server per vCPU (Seidmann).  Guest application CPU per I/O
   (``workload.io_app_cpu_us``) is spent here too.
2. the **VAIO filter context** when a filter is attached: it takes over part of the issue work
   (so a 1-vCPU VM is no longer capped by one core) and adds the framework's own CPU.
3. the **per-VM I/O world** (ESXi 5.0 and older: one world per VM caps it near 300K IOPS).
4. the host's **HBA/fabric**: block size x IOPS against ``hba_count x fabric_gbps``; shared by
   the VMs of the host.
5. the **array**: ``disks x per-drive IOPS / (read + write x RAID penalty)``, a multi-server
   station (Seidmann) shared by every VM whose disk is on it.
6. a **delay** for the rest: Seidmann's delay parts and the per-write delay handed in by the
   engine (inter-site round trip, FT output commit).

Sharing is solved with Schweitzer's approximate MVA (:mod:`models.subsystems.mva`), vectorised over
VMs; a single VM is a single class and gets the same answer as exact MVA within 1e-6.  Storage I/O
Control (``sioc``) caps each VM's concurrency at a congested array to its share of the queue
that keeps latency at the congestion threshold; unused slots go to the others.

p95 latency: each queueing station's residence is taken as exponential (an M/M/1 sojourn
time is), independent across stations; p95 = mean + 1.645 x sqrt(sum of squared
residences) (normal approximation on the sum), never below the mean.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from models.core import coefficients, uncertainty
from models.core.compiled import Compiled
from models.core.platform import REF_GHZ, speed_of
from models.core.prediction import Labels
from models.core.results import StorageResult
from models.document.schema import NO_IO_PROFILES
from models.document.words import counted
from models.subsystems import mva, storage_background, stretched, vsan_io
from models.subsystems.storage_mva import (
    _expand,
    _Gathered,
    _gathered,
    _open_load,
    _sioc,
    _solve_live,
    _warm_start,
)
from models.subsystems.storage_report import (
    _application,
    _bound_labels,
    _check_links,
    _resources,
)

# CPU costs below are microseconds of the reference core (models.core.platform: the VAIO
# study's 2.4 GHz Xeon E5-2665) and scale with the host's per-core speed.

GUEST_US = 2.0
"""Guest driver/Iometer issue cost per I/O (assumed; only its sum with the issue path is
identified by the fits below)."""
PVSCSI_US = 1.0
"""PVSCSI emulation per I/O (assumed; LSI Logic SAS's is fitted relative to it)."""
PVSCSI_CUT = coefficients.declare(
    "storage.pvscsi_cpio_cut", "share of LSI Logic SAS's CPU per I/O", 0.15,
    "How much less CPU per I/O PVSCSI spends than LSI Logic SAS on FC: 'PVSCSI reduces the CPIO"
    " by 10%-30%' (storage-pvscsi-cpio-reduction, the middle); LSI's emulation cost follows."
    "  Prior: 15%.")
ISSUE_SAS_US = coefficients.declare(
    "storage.issue_us_sas", "us per I/O of the reference core", 15.0,
    "vmkernel synchronous issue path per I/O through a SAS RAID controller (LSI MegaRAID), in"
    " the issuing vCPU's context: a 1-vCPU VM gains 80% IOPS when a VAIO filter's context takes"
    " part of it over (storage-vaio-single-vm-iops-plus80).  Prior: 15 us.")
ISSUE_FC_US = coefficients.declare(
    "storage.issue_us_fc", "us per I/O of the reference core", 4.0,
    "vmkernel synchronous issue path per I/O through a FC HBA: one 8-vCPU VM drives over 1M"
    " IOPS (storage-vsphere51-flash-1m-iops-vm, a bound).  Prior: 4 us.")
SOFTWARE_INITIATOR = 2.0
"""iSCSI, NFS and vSAN issue through a software initiator: this many times FC's path
(assumed; no case isolates it)."""
COMPLETION_US = 3.0
"""vmkernel completion handling per I/O (interrupt, other PCPUs; assumed)."""
VAIO_OFFLOAD = 0.55
"""Share of the vmkernel issue path a VAIO filter's context takes off the vCPU: 'VAIO's
contexts take over much of that work' (mechanism; 55% assumed, the issue cost is fitted)."""
VAIO_CPU_EXTRA = coefficients.declare(
    "storage.vaio_cpu_extra", "x CPU per I/O", 0.1,
    "Extra host CPU per I/O with an active filter: 'VAIO introduces 10%-20% higher CPU overhead"
    " per 1K IOPS' (storage-vaio-cpu-per-kiops-overhead, the middle).  It runs in the framework's"
    " further contexts, off the I/O's critical path.  Prior: 10%.")
VM_WORLD_IOPS_LEGACY = coefficients.declare(
    "storage.vm_world_iops_legacy", "IOPS", 250_000.0,
    "ESXi <= 5.0: one I/O world per VM caps it: '300,000 I/O operations per second can be"
    " achieved from a single virtual machine' (storage-300k-iops-single-vm).  Prior: 250K.")
DRIVE_IOPS = {"ssd": 75_000.0, "hdd10k": 150.0, "hdd7k": 80.0}
"""Per-drive random IOPS by media.  ssd: Intel S3700 datasheet 4K read (the VAIO testbed;
a multi-vCPU VM 'is also able to drive over 70K IOPS', storage-vaio-default-multi-vcpu-70k).
hdd10k/hdd7k: usual planning figures (not fitted).  hdd15k: :data:`HDD15K_IOPS`."""
HDD15K_IOPS = coefficients.declare(
    "storage.drive_iops_hdd15k", "IOPS per drive", 200.0,
    "A 15K FC spindle behind array cache: 495 of them gave 'over 100,000 IOPS'"
    " (storage-esx35-100k-iops, a bound).  Prior: 200, a planning figure.")
DRIVE_MBPS = {"ssd": 500.0, "hdd15k": 200.0, "hdd10k": 160.0, "hdd7k": 120.0}
"""Per-drive transfer rate: IOPS stay flat up to the drive's native block, then throughput
keeps scaling (storage-vsphere51-flash-1m-iops-vm)."""
DRIVE_PARALLEL = {"ssd": 8.0, "hdd15k": 1.0, "hdd10k": 1.0, "hdd7k": 1.0}
"""Requests a drive serves at once (flash channels), the server count per drive."""
STRIPE_KB = 64.0
"""The stripe unit: a request larger than it is split over ``ceil(size / STRIPE_KB)`` of the
array's drives (at most all of them), which move their pieces at once.  Assumed: 64 KB is the
common default element size of midrange arrays (VNX, Unity, PowerVault, MSA); no case here
ran requests over 64 KB."""
RAID_PENALTY = {"none": 1.0, "raid0": 1.0, "raid1": 2.0, "raid10": 2.0, "raid5": 4.0,
                "raid6": 6.0}
"""Back-end I/Os per front-end write; 'RAID group performance = all drives minus the RAID
overhead' (storage-raid-group-performance-formula).  Layout (group or pool) does not enter:
on all-SSD arrays the study found no difference."""


def issue_us() -> dict[str, float]:
    """vmkernel issue path per I/O by protocol (us of the reference core)."""
    fc = ISSUE_FC_US.value
    return {"sas": ISSUE_SAS_US.value, "fc": fc, "iscsi": SOFTWARE_INITIATOR * fc,
            "nfs": SOFTWARE_INITIATOR * fc, "vsan": SOFTWARE_INITIATOR * fc}


def lsi_adapter_us(cut: float) -> float:
    """LSI Logic SAS's emulation per I/O such that PVSCSI spends ``cut`` less CPU per I/O on
    FC: ``pv / (1 - cut) - (pv - PVSCSI_US)`` with ``pv`` PVSCSI's whole CPU per I/O."""
    pv = GUEST_US + PVSCSI_US + ISSUE_FC_US.value + COMPLETION_US
    return pv / (1.0 - cut) - (pv - PVSCSI_US)


def _choices(c: Compiled, kind: str, prop: str) -> tuple[str, ...]:
    table = c.tables[kind]
    ch = table.specs[prop].choices
    assert ch is not None
    return tuple(str(x) for x in ch)


def _lookup(c: Compiled, kind: str, prop: str, table: dict[str, float]) -> np.ndarray:
    codes = c.tables[kind].cols[prop]
    values = np.array([table.get(ch, np.nan) for ch in _choices(c, kind, prop)])
    return values[codes] if len(codes) else np.zeros(0)


def _cache(c: Compiled) -> dict[str, Any]:
    out: dict[str, Any] = c.__dict__.setdefault("_storage_cache", {})
    return out


@dataclass
class _Params:
    """Everything the MVA needs but the populations (``workload.io_oio``): a knob that only
    moves outstanding I/Os reuses it (:meth:`Compiled.memo`)."""

    open_: Any
    rate: Any
    read: Any
    write: Any
    bs_kb: Any
    h: Any
    a: Any
    ghz: Any
    scale: Any
    issue: Any
    adapter: Any
    cpio_base: Any
    extra: Any
    vcpu_us: Any
    vcpus: Any
    vd: Any
    ad: Any
    per_io: Any
    backend: Any
    disks: Any
    demand: Any
    lam: Any
    saturated_open: Any
    infl: Any
    d_closed: Any
    closed0: Any
    no_path0: Any
    shared_st: Any
    """Per VM, the shared stations (host HBA, array; -1 for none) it visits."""
    demand_t: Any
    """``demand`` transposed: one contiguous row per slot (row operations are cheap)."""
    util0: Any
    """vCPU I/O path utilisation per IOPS."""
    cores_per_io: Any
    cpio_pct: Any
    backend_per_io: Any
    app_share: Any
    app: Any
    """Application VMs (``workload.app_users`` > 0): a closed loop of transactions."""
    ios: Any
    """I/Os per transaction of the application VMs."""
    think_s: Any
    """Think time per I/O of the application VMs (a delay, not I/O latency)."""
    lat0: Any
    """Latency of a VM that does no I/O: 0, NaN without a disk."""
    vsan: vsan_io.Station | None
    bg: storage_background.Background | None
    """The hosts' background I/O (None: none)."""
    bg_x: Any
    """Its served rate per (host, array) row."""
    bg_infl: Any
    """Its array's inflation 1/(1-U) per row."""


def _params(c: Compiled, write_delay_ms: np.ndarray) -> _Params:
    n, n_arr, n_host = len(c.vm), len(c.array), len(c.host)
    v = c.vm.cols
    arr = c.vm_array
    host = c.vm_host
    profile = c.vm.cols["workload.profile"]
    profiles = _choices(c, "vm", "workload.profile")
    no_io = np.array([p in NO_IO_PROFILES for p in profiles])[profile]
    rate = v["workload.io_iops"]
    # an application (users > 0) is a closed loop of transactions: each user thinks, then
    # spends its CPU and I/Os; it takes precedence over io_iops and the profile's default
    app = ((v["workload.app_users"] > 0) & (arr >= 0)
           & (profile != c.vm.code("workload.profile", "web")))
    open_ = ~np.isnan(rate) & (arr >= 0) & ~app
    closed0 = (arr >= 0) & ~open_ & (~no_io | app)  # closed loop when io_oio (users) > 0
    open_ &= ~no_io | ~np.isnan(rate)
    active0 = closed0 | open_
    # per I/O of an application: its share of the transaction's CPU and think time
    ios = np.maximum(v["workload.app_ios_per_txn"], 1e-9)
    app_cpu_us = np.where(app, v["workload.app_cpu_ms"] * 1000.0 / ios, 0.0)
    think_s = np.where(app, v["workload.app_think_ms"] / 1000.0 / ios, 0.0)

    # -- per-VM parameters ------------------------------------------------------------
    bs_kb = v["workload.io_block_kb"]
    read = v["workload.io_read_pct"] / 100.0
    write = 1.0 - read
    h = np.where(host >= 0, host, 0)
    a = np.where(arr >= 0, arr, 0)
    speed = speed_of(c, host)
    scale = 1e-6 / speed  # us of the reference core -> seconds on this host

    protocols = _choices(c, "storage_array", "protocol")
    proto_code = c.array.cols["protocol"][a] if n_arr else np.zeros(n, np.int64)
    issue_by_proto = np.array([issue_us()[p] for p in protocols])
    issue = issue_by_proto[proto_code] if n else np.zeros(0)
    cut = uncertainty.value("storage.pvscsi_cpio_cut",  # band: 10-30%
                            active0 & (v["vscsi"] == c.vm.code("vscsi", "lsi_sas")))
    adapter = _lookup(c, "vm", "vscsi", {"pvscsi": PVSCSI_US, "lsi_sas": lsi_adapter_us(cut)})
    filt = v["vaio_filter"] != c.vm.code("vaio_filter", "none")
    cpio_base = GUEST_US + adapter + issue + COMPLETION_US
    extra = np.where(filt, uncertainty.value("storage.vaio_cpu_extra", filt & active0)
                     * cpio_base, 0.0)
    offload = np.where(filt, VAIO_OFFLOAD * issue, 0.0)
    own_cpu_us = v["workload.io_app_cpu_us"] + app_cpu_us
    vcpu_us = GUEST_US + adapter + issue - offload + own_cpu_us
    filter_us = offload  # the framework's extra CPU runs off this critical path
    vcpus = v["vcpus"].astype(float)
    vq, vd = mva.seidmann(vcpu_us * scale, vcpus)

    versions = _choices(c, "host", "esxi_version")
    legacy_codes = [i for i, ver in enumerate(versions) if float(ver) <= 5.0]
    legacy_code = np.zeros(len(versions), bool)
    legacy_code[legacy_codes] = True
    legacy = legacy_code[c.host.cols["esxi_version"][h]] if n_host else np.zeros(n, bool)
    world = np.where(legacy & (host >= 0), 1.0 / VM_WORLD_IOPS_LEGACY.value, 0.0)

    # host HBA/fabric: ports x link speed (an array over Ethernet needs no HBA port)
    hba_s, no_path0 = _hba(c, host, a, bs_kb)
    # array: disks x per-drive IOPS / (read + write x penalty), Seidmann multi-server
    disks = c.array.cols["disks"].astype(float)
    if n_arr:
        per_io, backend, aq, ad = _array(c, a, read, bs_kb)
    else:
        per_io, backend, aq, ad = np.zeros(n), read + write, np.zeros(n), np.zeros(n)
    # a vSAN cluster's datastore: its hosts' devices, its policy's write path, round trips
    vsan = vsan_io.station(c, read, bs_kb, scale, write_delay_ms) if n_arr else None
    if vsan is not None:
        per_io, backend, aq, ad, disks = vsan.merged(read, per_io, backend, aq, ad, disks)

    delay = vd + ad + write * np.nan_to_num(write_delay_ms) / 1000.0 + think_s

    # -- network of stations: slots 0-2 the VM's own, 3 HBA, 4 array, 5 delay ----------
    demand = np.stack([vq, filter_us * scale, world, hba_s, aq, delay], axis=1)
    demand[~active0] = 0.0
    lam = np.where(open_, np.nan_to_num(rate), 0.0)
    saturated_open = np.zeros(n, bool)
    infl = np.ones_like(demand)
    bg = _background(c, disks)  # the hosts' own I/O beyond their VMs', open loop too
    bg_x = bg_infl = np.zeros(0)
    if open_.any() or bg is not None:
        lam, infl, saturated_open, bg_x, bg_infl = _open_load(demand, lam, open_, h, a,
                                                              n_host, n_arr, bg)
    d_closed = demand * infl
    shared_st = np.where(demand[:, 3:5] > 0, np.stack([h, n_host + a], axis=1), -1)
    own_us = extra + (vsan.cpu_us if vsan is not None else 0.0)  # vSAN's: the VM's host
    cpio = (cpio_base + own_us) / speed
    return _Params(
        open_=open_,
        rate=rate,
        read=read,
        write=write,
        bs_kb=bs_kb,
        h=h,
        a=a,
        ghz=speed * REF_GHZ,
        scale=scale,
        issue=issue,
        adapter=adapter,
        cpio_base=cpio_base,
        extra=extra,
        vcpu_us=vcpu_us,
        vcpus=vcpus,
        vd=vd,
        ad=ad,
        per_io=per_io,
        backend=backend,
        disks=disks,
        demand=demand,
        lam=lam,
        saturated_open=saturated_open,
        infl=infl,
        d_closed=d_closed,
        closed0=closed0,
        no_path0=no_path0,
        shared_st=shared_st,
        demand_t=np.ascontiguousarray(demand.T),
        util0=vcpu_us * scale / vcpus,
        cores_per_io=(adapter + issue + COMPLETION_US + own_us) * scale,
        cpio_pct=cpio / 10.0,  # us per I/O -> % of a core per 1K IOPS
        backend_per_io=per_io * backend,
        app_share=own_cpu_us / np.maximum(vcpu_us, 1e-300),
        app=app,
        ios=ios,
        think_s=think_s,
        lat0=np.where(arr < 0, np.nan, 0.0),
        vsan=vsan,
        bg=bg,
        bg_x=bg_x,
        bg_infl=bg_infl,
    )


def _hba(c: Compiled, host: np.ndarray, a: np.ndarray, bs_kb: np.ndarray
         ) -> tuple[np.ndarray, np.ndarray]:
    """Per row of I/O from ``host`` (-1: none) to array ``a``: its HBA/fabric time (s; block
    size against ports x link speed) and whether the host has no HBA port for a FC/SAS
    array."""
    n = len(host)
    ports = c.host.cols["hba_count"][np.maximum(host, 0)].astype(float) if len(c.host) \
        else np.ones(n)
    ports = np.where(host >= 0, ports, 1.0)
    fabric = c.array.cols["fabric_gbps"][a] if len(c.array) else np.ones(n)
    protocols = _choices(c, "storage_array", "protocol")
    proto = c.array.cols["protocol"][a] if len(c.array) else np.zeros(n, np.int64)
    ethernet = np.array([p in ("iscsi", "nfs", "vsan") for p in protocols])[proto]
    no_path = (ports <= 0) & ~ethernet
    ports = np.maximum(ports, 1.0)
    return np.where(host >= 0, bs_kb * 8192.0 / (ports * fabric * 1e9), 0.0), no_path


def _array(c: Compiled, a: np.ndarray, read: np.ndarray, bs_kb: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per row of I/O on array ``a`` (read share ``read``, ``bs_kb`` each): the drive work
    per back-end I/O, the back-end I/Os per I/O and the Seidmann station's queueing and delay
    demand, from the array's drive figures."""
    drive_iops, par = drives(c)
    drive_mbps = _lookup(c, "storage_array", "media", DRIVE_MBPS)
    penalty = _lookup(c, "storage_array", "raid", RAID_PENALTY)
    disks = c.array.cols["disks"].astype(float)
    backend = read + (1.0 - read) * penalty[a]
    # a drive does max(1 / IOPS, transfer time) of work per request (its capacity) on `par`
    # channels (flash): a small request holds one channel for `par` / IOPS; one that moves
    # more than a channel's share of the drive's bandwidth has every channel and takes its
    # transfer time, not `par` times it.  The station's servers keep the drive's capacity:
    # the work per request over the time one holds a channel.
    # A request over the stripe unit is split over `k` drives, which move their pieces at once:
    # it holds each for one piece's time and costs the array k pieces' work.
    k = np.clip(np.ceil(bs_kb / STRIPE_KB), 1.0, np.maximum(disks[a], 1.0))
    transfer = bs_kb / k / (drive_mbps[a] * 1000.0)
    per_io = k * np.maximum(1.0 / drive_iops[a], transfer)
    held = np.maximum(par[a] / drive_iops[a], transfer)
    aq, ad = mva.seidmann(held * backend, disks[a] * held / per_io)
    return per_io, backend, aq, ad


def drives(c: Compiled) -> tuple[np.ndarray, np.ndarray]:
    """Per array, its drives' random IOPS (``disk_iops``, else its media's) and the requests
    each serves at once: a drive's service time per request is the second over the first."""
    rate = np.where(np.isnan(c.array.cols["disk_iops"]),
                    _lookup(c, "storage_array", "media",
                            DRIVE_IOPS | {"hdd15k": HDD15K_IOPS.value}),
                    c.array.cols["disk_iops"])
    return rate, _lookup(c, "storage_array", "media", DRIVE_PARALLEL)


def _background(c: Compiled, disks: np.ndarray) -> storage_background.Background | None:
    """The hosts' background I/O over their arrays and what each of its I/Os demands there
    (:mod:`models.subsystems.storage_background`); None where no host has any."""
    pairs = storage_background.pairs(c)
    if pairs is None:
        return None
    h, a, read, bs_kb = pairs.host, pairs.array, pairs.read, pairs.bs_kb
    hba, _ = _hba(c, h, a, bs_kb)
    per_io, backend, aq, ad = _array(c, a, read, bs_kb)
    vsan = vsan_io.station(c, read, bs_kb, 1e-6 / speed_of(c, h), np.zeros(len(h)),
                           vsan_io.rows(c, a), a)
    if vsan is not None:
        per_io, backend, aq, ad, _ = vsan.merged(read, per_io, backend, aq, ad, disks)
    return storage_background.Background(pairs, hba, aq, ad, per_io * backend)


def solve(c: Compiled, write_delay_ms: np.ndarray) -> StorageResult:
    n, n_arr, n_host = len(c.vm), len(c.array), len(c.host)
    v = c.vm.cols
    warnings: list[str] = []

    p = c.memo("storage.params", lambda: _params(c, write_delay_ms), write_delay_ms)
    open_ = p.open_
    read = p.read
    write = p.write
    bs_kb = p.bs_kb
    h = p.h
    a = p.a
    vcpus = p.vcpus
    ad = p.ad
    disks = p.disks
    demand = p.demand
    lam = p.lam
    saturated_open = p.saturated_open
    d_closed = p.d_closed
    oio = np.where(p.app, v["workload.app_users"], v["workload.io_oio"]).astype(float)
    closed = p.closed0 & (oio > 0)
    active = closed | open_
    no_path = p.no_path0 & active
    served = active & ~no_path

    pops = np.where(closed, oio, 0.0)
    cache = _cache(c)
    key = f"{n}:{n_host}:{n_arr}"
    sioc_on = c.array.cols["sioc"] if n_arr else np.zeros(0, bool)
    shared_st = p.shared_st  # stations of inactive VMs do not matter: they have no population
    # the closed classes (VMs keeping I/Os in flight) are solved as one network of their own
    live = np.flatnonzero(closed)
    pops_l = pops[live]
    hist = cache.get(key)
    q0 = _warm_start(hist, pops_l, live)
    res = _solve_live(d_closed, shared_st, pops_l, live, n_host + n_arr, q0, cache)
    prev = ((hist[1], hist[2]) if hist is not None and np.array_equal(hist[0], live)
            else (None, None))
    cache[key] = (live, res.queue, pops_l, *prev)  # before SIOC: the same function of OIO
    eff_l = pops_l
    if sioc_on.any():
        eff, full = _sioc(c, d_closed, shared_st, pops, _expand(res, live, n), closed, a, ad,
                          cache)
        if eff is not pops:
            eff_l = eff[live]
            res = mva.MvaResult(full.throughput[live], full.response[live],
                                full.queue[live], full.iterations)
    thr_l = res.throughput
    x = lam.copy()  # closed classes from MVA, open ones at their (capped) offered rate
    x[live] = thr_l

    # per-VM latency only where there is I/O: the closed classes, or every VM when open
    # classes see the closed queues (their latency is not in the MVA)
    if open_.any():
        ix: Any = slice(None)
        q_t = np.zeros((5, n))
        q_t[:, live] = res.queue.T
        thr = np.zeros(n)
        thr[live] = thr_l
        r_t = np.empty((6, n))
        np.divide(q_t, np.maximum(thr, 1e-300), out=r_t[:5])
        r_t[5] = np.where(closed, d_closed[:, 5], 0.0)
        q_tot = np.concatenate([np.bincount(h, q_t[3], n_host), np.bincount(a, q_t[4], n_arr)])
        r_open = demand * p.infl
        r_open[:, 3] *= 1.0 + q_tot[h]
        r_open[:, 4] *= 1.0 + q_tot[n_host + a]
        r_open[:, 5] = demand[:, 5]
        r_t = np.where(open_, r_open.T, r_t)
        g = _Gathered(p, ix, d_closed)
    else:
        ix = live
        r_t = np.empty((6, len(live)))
        np.divide(res.queue.T, np.maximum(thr_l, 1e-300), out=r_t[:5])
        g = _gathered(cache, p, live, d_closed)
        r_t[5] = g.d5
    resp = r_t.sum(axis=0)
    # a SIOC-throttled VM also waits in the host queue: its latency is OIO / throughput
    if eff_l is not pops_l:
        eff = pops.copy()
        eff[live] = eff_l
        resp = np.where((closed & (eff < pops))[ix], pops[ix] / np.maximum(x[ix], 1e-300),
                        resp)
    # the guest times an I/O from issue to completion: the application's own CPU time on
    # the vCPUs (and its share of their queue) is not I/O latency
    app_share = g.app_share
    resp -= (r_t[0] + g.vd) * app_share + g.think_s
    queueing = r_t[:5] * r_t[:5]
    queueing[0] *= (1.0 - app_share) ** 2
    p95 = resp + 1.645 * np.sqrt(queueing.sum(axis=0))

    x = np.where(served, x, 0.0)
    served_ix = served[ix]
    lat = p.lat0.copy()
    lat[ix] = np.where(served_ix, resp * 1000.0, np.where(active[ix], np.nan, lat[ix]))
    p95_ms = lat.copy()
    p95_ms[ix] = np.where(served_ix, p95 * 1000.0, lat[ix])
    mbps = x * bs_kb / 1024.0
    cpio_pct = np.where(active, p.cpio_pct, 0.0)
    cpu_cores = x * p.cores_per_io

    # -- utilisations and what bounds each VM -------------------------------------------
    # (x is 0 for VMs without I/O, so sums over the VMs with I/O are sums over all)
    x_ix = x[ix]
    h_ix, a_ix = g.h, g.a
    vm_util = g.demand5 * x_ix
    vm_util[0] = x_ix * g.util0
    hba_util = np.bincount(h_ix, vm_util[3], n_host)
    array_util = np.zeros(n_arr)
    arr_x = np.bincount(a_ix, weights=x_ix, minlength=n_arr) if n_arr else np.zeros(0)
    arr_lat = np.full(n_arr, np.nan)
    bg, bg_x = p.bg, p.bg_x
    if n_arr:
        backend_x = np.bincount(a_ix, weights=x_ix * g.backend_per_io, minlength=n_arr)
        w = np.bincount(a_ix, weights=x_ix * (r_t[4] + g.ad), minlength=n_arr)
        if bg is not None:  # the hosts' background: its work, rate and time at the arrays
            hba_util += np.bincount(bg.host, bg_x * bg.hba, n_host)
            backend_x += np.bincount(bg.array, bg_x * bg.work, n_arr)
            arr_x = arr_x + np.bincount(bg.array, bg_x, n_arr)
            q_arr = np.bincount(a[live], res.queue[:, 4], n_arr)  # the closed classes'
            w += np.bincount(bg.array, bg_x * (bg.aq * p.bg_infl * (1.0 + q_arr[bg.array])
                                               + bg.ad), n_arr)
        array_util = np.minimum(backend_x / disks, 1.0)
        arr_lat = np.where(arr_x > 0, w / np.maximum(arr_x, 1e-300) * 1000.0, 0.0)
    vm_util[3] = hba_util[h_ix] if n_host else 0.0
    vm_util[4] = array_util[a_ix] if n_arr else 0.0
    if open_.any():
        vm_util[:, ~active] = 0.0
    top = np.zeros(n, np.int64)
    top_u = np.zeros(n)
    vcpu_util = np.zeros(n)
    if vm_util.shape[1]:
        top[ix] = top_ix = vm_util.argmax(axis=0)
        top_u[ix] = vm_util[top_ix, np.arange(vm_util.shape[1])]
        vcpu_util[ix] = vm_util[0]
    bound = Labels(lambda: _bound_labels(c, top, top_u, active, no_path,
                                         saturated_open, vcpus, h, a, hba_util, array_util))

    resources = _resources(c, array_util, hba_util, vcpu_util, active) if c.detail else []
    if no_path.any():
        n = int(no_path.sum())
        warnings.append(f"{counted(n, 'VM')} run{'s' if n == 1 else ''} on hosts with no HBA"
                        " port for a FC/SAS array: no I/O")
    if saturated_open.any():
        n = int(saturated_open.sum())
        warnings.append(f"{counted(n, 'open-loop VM')} offer{'s' if n == 1 else ''} more IOPS"
                        " than the path can serve: capped at saturation")
    _check_links(c, active, warnings)
    warnings.extend(storage_background.warnings(c, bg, bg_x))
    read_mbps = mbps * read
    # writes of stretched VMs cross the inter-site link (decimal units, as the sizing guide)
    wan_res, wan_warn, wan_need = stretched.wan_usage(c, x * write * bs_kb * 8.0 / 1000.0)
    resources.extend(wan_res)
    warnings.extend(wan_warn)
    not_measured = c.vm.is_("workload.profile", "measured") & np.isnan(v["workload.io_iops"])
    out = StorageResult(
        vm_not_measured=not_measured, vm_iops=x, vm_mbps=mbps, vm_latency_ms=lat,
        vm_p95_ms=p95_ms, vm_read_mbps=read_mbps,
        vm_cpu_cores=cpu_cores, vm_cpu_cost_per_kiops=cpio_pct, vm_bound_by=bound,
        array_iops=arr_x, array_latency_ms=arr_lat, array_util=array_util,
        host_background_iops=(np.bincount(bg.host, bg_x, n_host) if bg is not None
                              else np.zeros(n_host)),
        resources=resources, warnings=warnings,
        mva_iterations=res.iterations, wan_required_mbps=wan_need)
    if p.vsan is not None:  # a vSAN VM's reads and writes apart
        out.vm_read_latency_ms, out.vm_write_latency_ms = p.vsan.split(
            n, ix, served_ix, read, resp, r_t[4], p.demand_t[4, ix])
    if p.app.any():
        _application(c, p, out, pops, served)
    return out
