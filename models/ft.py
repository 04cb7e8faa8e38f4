"""Fault Tolerance: logging bandwidth, logging-NIC stalls, output-commit latency, limits.

vSphere 4-5.x FT (record/replay, ``esxi_version`` < 6.0 on the primary's host) sends the
secondary every non-deterministic input: received packets, disk reads, timer and TSC events.
Logging = (disk reads x 8 + received Mbit/s) x 1.067, the ratio measured in the vSphere 4 FT
paper (890 Mbit/s received -> 950 Mbit/s logged); the paper's sizing rule (x 1.2) is reported
beside it.  vSphere 6+ FT (fast checkpointing) sends disk writes, received packets and dirtied
memory instead.  When the logging demand passes the FT NIC, the primary stalls until the
secondary catches up: throughput scales by capacity / demand.  Every transmit and disk write
waits for the secondary's acknowledgement (output commit): one FT-link round trip, plus half a
checkpoint interval and the checkpoint's transfer time with fast checkpointing.
"""

from __future__ import annotations

import numpy as np

from models.compiled import Compiled
from models.network import GOODPUT, pcie_usable_gbps, take
from models.prediction import Resource
from models.results import FtResult, NetworkResult, StorageResult

FT4 = "VMware vSphere 4 Fault Tolerance: Architecture and Performance"
FT6 = "Fault Tolerance Performance in vSphere 6"
FT_DOCS = "VMware vSphere Availability: Fault Tolerance Requirements, Limits, and Licensing"

LOG_OVERHEAD = 950.0 / 890.0
"""Logging traffic per received/read bit (protocol framing, event records); fitted to
ft4-netperf-rx-logging-bandwidth (890 Mbit/s received, 950 Mbit/s logged)."""
SIZING_RULE_FACTOR = 1.2
"""vSphere 4 sizing rule: (avg disk reads MB/s x 8 + avg network input Mbit/s) x 1.2
(ft4-logging-bandwidth-formula); 20% headroom for TCP/IP overhead and timer events."""
EVENT_MBPS = 1.0
"""Timer interrupts and TSC reads of a record/replay VM, Mbit/s; assumed small (the vSphere 4
paper logs them, ft4-mssql-dvdstore-tsc-logging; real applications log < 20 Mbit/s,
ft-scales-2010-overhead-and-bandwidth)."""
CHECKPOINT_MS = 2.0
"""Fast-checkpointing interval (vSphere 6+); assumed so that the packet-latency increase is
'on the order of milliseconds' (ft6-network-10gbps-ms-latency)."""
DIRTY_MBPS_PER_BUSY_VCPU = 250.0
"""Memory dirtied per fully busy vCPU that each checkpoint copies, Mbit/s; assumed (the
mechanism in ft6-fast-checkpointing-mechanism; no published rate)."""
MAX_FT_VMS_PER_HOST = 4
"""Primaries plus secondaries per host (ft4-max-ft-vms-per-host; vSphere 5.5+ docs agree)."""
MAX_FT_VCPUS_PER_HOST = 8
"""FT vCPUs per host from vSphere 6.0 on (das.maxftvcpusperhost, vSphere Availability)."""
RTT_MAX_MS = 1.0
"""Recommended primary-secondary round trip (ft4-link-rtt-and-host-homogeneity)."""
CPU_MHZ_DIFF_MAX = 400.0
"""Recommended clock difference between primary and secondary host (same case)."""

# (first version, max vCPUs, max memory GB or None, citation)
_LIMITS = (
    ("4.0", 1, None, "vSphere 4 FT supports only uniprocessor VMs (ft4-uniprocessor-only)"),
    ("5.0", 1, 64.0, "vSphere 5.x FT supports 1 vCPU and 64 GB (vSphere 5.5 Availability)"),
    ("6.0", 4, 64.0, "vSphere 6.0 FT supports at most 4 vCPUs and 64 GB (ft6-max-vm-size)"),
    ("6.7", 8, 128.0, "vSphere 6.7+ FT supports at most 8 vCPUs and 128 GB (" + FT_DOCS + ")"),
)


def _ft_mask(c: Compiled) -> np.ndarray:
    return np.asarray(c.vm.cols["ft"] & (c.vm_host >= 0))


def _rtt_ms(c: Compiled) -> np.ndarray:
    rtt = np.full(len(c.vm), np.nan)
    t = c.links["ft_secondary_on"]
    rtt[t.cols["src"]] = t.cols["rtt_ms"]
    return rtt


def _checkpointing(c: Compiled) -> np.ndarray:
    ver = take(c.host.cols["esxi_version"], c.vm_host, 0)
    return np.asarray(ver >= c.host.code("esxi_version", "6.0"))


def io_delay_ms(c: Compiled) -> np.ndarray:
    """Extra latency each disk write of a protected VM pays for output commit (ms)."""
    ft = _ft_mask(c) & (c.vm_secondary >= 0)
    hold = np.nan_to_num(_rtt_ms(c)) + np.where(_checkpointing(c), CHECKPOINT_MS / 2.0, 0.0)
    return np.where(ft, hold, 0.0)


def _ft_capacity(c: Compiled) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """FT-logging NIC mask, per-NIC and per-host capacity (Mbit/s, one direction)."""
    nic = c.nic.cols
    cap = np.minimum(nic["speed_gbps"] * nic["ports"] * GOODPUT,
                     pcie_usable_gbps(nic["pcie_gen"], nic["pcie_lanes"])) * 1000.0
    mask = c.nic.is_("role", "ft_logging") & (c.nic_host >= 0)
    host_cap = np.bincount(c.nic_host[mask], cap[mask], minlength=len(c.host))
    return mask, cap, host_cap


def solve(c: Compiled, sto: StorageResult, net: NetworkResult) -> FtResult:
    """Logging bandwidth, stall ratio and added latency of every FT-protected VM."""
    n, nh, k = len(c.vm), len(c.host), len(c.nic)
    vm = c.vm.cols
    ft = _ft_mask(c)
    sec = c.vm_secondary
    paired = ft & (sec >= 0)
    cp = _checkpointing(c)

    reads = _arr(sto.vm_read_mbps, n)
    writes = np.maximum(_arr(sto.vm_mbps, n) - reads, 0.0)
    rx = _arr(net.vm_rx_mbps, n)
    busy_vcpus = vm["vcpus"] * vm["workload.cpu_pct"] / 100.0
    replay = (reads * 8.0 + rx) * LOG_OVERHEAD + EVENT_MBPS
    checkpoint = (writes * 8.0 + rx) * LOG_OVERHEAD + busy_vcpus * DIRTY_MBPS_PER_BUSY_VCPU
    demand = np.where(paired, np.where(cp, checkpoint, replay), 0.0)
    rule = np.where(ft, (reads * 8.0 + rx) * SIZING_RULE_FACTOR, 0.0)

    nic_mask, nic_cap, host_cap = _ft_capacity(c)
    ph = np.maximum(c.vm_host, 0)
    sh = np.maximum(sec, 0)
    out_d = np.bincount(ph[paired], demand[paired], minlength=nh)
    in_d = np.bincount(sh[paired], demand[paired], minlength=nh)
    host_load = np.maximum(out_d, in_d)
    util = np.divide(host_load, host_cap, out=np.zeros(nh), where=host_cap > 0)
    has_link = (take(host_cap, c.vm_host) > 0) & (take(host_cap, sec) > 0)
    worst = np.maximum(take(util, c.vm_host), take(util, sec))
    ratio = np.where(paired & has_link & (worst > 1.0), 1.0 / np.maximum(worst, 1.0), 1.0)

    logging = demand * ratio
    out_a = np.bincount(ph[paired], logging[paired], minlength=nh)
    in_a = np.bincount(sh[paired], logging[paired], minlength=nh)
    nic_h = c.nic_host[nic_mask]
    share = np.divide(nic_cap[nic_mask], host_cap[nic_h], out=np.zeros(nic_h.size),
                      where=host_cap[nic_h] > 0)
    nic_gbps = np.zeros(k)
    nic_util = np.zeros(k)
    nic_gbps[nic_mask] = (out_a + in_a)[nic_h] * share / 1000.0
    nic_util[nic_mask] = np.divide(np.maximum(out_a, in_a)[nic_h], host_cap[nic_h],
                                   out=np.zeros(nic_h.size), where=host_cap[nic_h] > 0)

    _stall_vm_nics(c, net, ratio)
    served_util = np.minimum(worst, 1.0)
    latency = io_delay_ms(c) + np.where(paired & cp, CHECKPOINT_MS * served_util, 0.0)
    res = FtResult(vm_logging_mbps=logging, vm_latency_add_ms=latency,
                   vm_throughput_ratio=ratio, host_logging_mbps=out_a, nic_gbps=nic_gbps,
                   nic_util=nic_util, vm_sizing_rule_mbps=rule)
    if ft.any():
        _report(c, res, ft, paired, cp, demand, rule, host_load, host_cap, util, nic_mask)
    return res


def _stall_vm_nics(c: Compiled, net: NetworkResult, ratio: np.ndarray) -> None:
    """A stalled primary sends and receives less: scale its host's vm-NIC load in place
    (the engine adds ``net.nic_gbps``/``nic_util`` after this model has run)."""
    n = len(c.vm)
    if (ratio >= 1.0).all() or net.nic_gbps.shape != (len(c.nic),):
        return
    h = c.vm_host
    shared = (h >= 0) & np.isin(np.arange(n), c.nic_vm, invert=True)
    lost = (1.0 - ratio) * (_arr(net.vm_rx_mbps, n) + _arr(net.vm_tx_mbps, n)) / 1000.0
    host_lost = np.bincount(h[shared], lost[shared], minlength=len(c.host))
    pool = c.nic.is_("role", "vm") & (c.nic_host >= 0) & (c.nic_vm < 0)
    nh = c.nic_host[pool]
    host_gbps = np.bincount(nh, net.nic_gbps[pool], minlength=len(c.host))
    keep = np.divide(host_gbps - host_lost, host_gbps, out=np.ones(len(c.host)),
                     where=host_gbps > 0)
    keep = np.clip(keep, 0.0, 1.0)
    net.nic_gbps[pool] *= keep[nh]
    net.nic_util[pool] *= keep[nh]
    pt = np.nonzero(c.nic_vm >= 0)[0]
    net.nic_gbps[pt] *= ratio[c.nic_vm[pt]]
    net.nic_util[pt] *= ratio[c.nic_vm[pt]]


def _arr(a: np.ndarray, n: int) -> np.ndarray:
    a = np.asarray(a, dtype=float)
    return np.nan_to_num(a) if a.shape == (n,) else np.zeros(n)


def _report(c: Compiled, res: FtResult, ft: np.ndarray, paired: np.ndarray, cp: np.ndarray,
            demand: np.ndarray, rule: np.ndarray, host_load: np.ndarray,
            host_cap: np.ndarray, util: np.ndarray, nic_mask: np.ndarray) -> None:
    """Warnings, resources and extras; only FT VMs and their hosts are visited."""
    vm, host = c.vm.cols, c.host.cols
    versions = c.host.specs["esxi_version"].choices
    assert versions is not None
    rtt = _rtt_ms(c)
    ids = c.vm.ids
    extras: dict[str, dict[str, float | str]] = {}
    for i in np.nonzero(ft)[0].tolist():
        v, hi = ids[i], int(c.vm_host[i])
        ver = str(versions[int(host["esxi_version"][hi])])
        vcpus, mem = int(vm["vcpus"][i]), float(vm["memory_gb"][i])
        limit = [lim for lim in _LIMITS if float(lim[0]) <= float(ver)][-1]
        if vcpus > limit[1]:
            res.warnings.append(f"FT on a {vcpus}-vCPU VM ({v}): vSphere {ver} FT supports"
                                f" at most {limit[1]} vCPU{'s' if limit[1] > 1 else ''}"
                                f" ({limit[3]})")
        if limit[2] is not None and mem > limit[2]:
            res.warnings.append(f"FT on a {mem:g} GB VM ({v}): vSphere {ver} FT supports at"
                                f" most {limit[2]:g} GB ({limit[3]})")
        if vm["latency_sensitivity"][i] == c.vm.code("latency_sensitivity", "high"):
            res.warnings.append(f"FT on latency-sensitive VM {v}: every transmit waits for the"
                                " secondary; FT is not recommended for VOIP or trading"
                                " workloads (ft6-not-for-latency-sensitive)")
        if (c.nic_vm == i).any():
            res.warnings.append(f"FT on VM {v} with a DirectPath (passthrough) NIC: DirectPath"
                                " VMs cannot be FT-protected (net-esx4-vmdirectpath-near-native)")
        if not paired[i]:
            res.warnings.append(f"FT VM {v} has no ft_secondary_on link: no secondary host,"
                                " so FT logging and latency are not modelled")
            continue
        si = int(c.vm_secondary[i])
        if rtt[i] > RTT_MAX_MS:
            res.warnings.append(f"FT VM {v}: primary-secondary round trip {rtt[i]:g} ms"
                                f" exceeds the recommended {RTT_MAX_MS:g} ms"
                                " (ft4-link-rtt-and-host-homogeneity)")
        dmhz = abs(float(host["ghz"][hi]) - float(host["ghz"][si])) * 1000.0
        if dmhz > CPU_MHZ_DIFF_MAX:
            res.warnings.append(f"FT VM {v}: hosts {c.host.ids[hi]} and {c.host.ids[si]}"
                                f" differ by {dmhz:.0f} MHz (recommended <= 400 MHz)")
        extras[v] = {"mechanism": "fast_checkpointing" if cp[i] else "record_replay",
                     "logging_demand_mbps": float(demand[i]),
                     "sizing_rule_mbps": float(rule[i])}
    _host_report(c, res, ft, paired, cp, rule, host_load, host_cap, util, nic_mask)
    res.extras["ft"] = {"vms": extras, "logging_overhead": LOG_OVERHEAD,
                        "sizing_rule_factor": SIZING_RULE_FACTOR}


def _host_report(c: Compiled, res: FtResult, ft: np.ndarray, paired: np.ndarray,
                 cp: np.ndarray, rule: np.ndarray, host_load: np.ndarray,
                 host_cap: np.ndarray, util: np.ndarray, nic_mask: np.ndarray) -> None:
    nh = len(c.host)
    ph = c.vm_host[ft]
    sh = c.vm_secondary[paired]
    count = np.bincount(ph, minlength=nh) + np.bincount(sh, minlength=nh)
    vc = c.vm.cols["vcpus"]
    vcpus = np.bincount(ph, vc[ft], minlength=nh) + np.bincount(sh, vc[paired], minlength=nh)
    rule_rr = np.where(cp, 0.0, rule)  # the sizing rule is for record/replay (vSphere 4-5)
    rule_h = np.maximum(np.bincount(ph, rule_rr[ft], minlength=nh),
                        np.bincount(sh, rule_rr[paired], minlength=nh))
    cp_h = np.bincount(ph, cp[ft], minlength=nh) + np.bincount(sh, cp[paired], minlength=nh)
    speeds = np.zeros(nh)
    np.maximum.at(speeds, c.nic_host[nic_mask], c.nic.cols["speed_gbps"][nic_mask])
    for hi in np.nonzero(count)[0].tolist():
        hid = c.host.ids[hi]
        if count[hi] > MAX_FT_VMS_PER_HOST:
            res.warnings.append(f"host {hid} runs {int(count[hi])} FT VMs (primaries and"
                                f" secondaries); at most {MAX_FT_VMS_PER_HOST} per host are"
                                " recommended (ft4-max-ft-vms-per-host)")
        if cp_h[hi] and vcpus[hi] > MAX_FT_VCPUS_PER_HOST:
            res.warnings.append(f"host {hid} carries {int(vcpus[hi])} FT vCPUs; vSphere 6+"
                                f" allows {MAX_FT_VCPUS_PER_HOST} per host")
        if host_cap[hi] <= 0:
            res.warnings.append(f"host {hid} has FT VMs but no NIC with role ft_logging")
            continue
        if rule_h[hi] > host_cap[hi]:
            res.warnings.append(
                f"host {hid}: FT logging NICs ({host_cap[hi] / 1000.0:.2f} Gbit/s) are below"
                f" the vSphere 4 sizing rule's {rule_h[hi] / 1000.0:.2f} Gbit/s for its FT VMs"
                " ((reads x 8 + rx) x 1.2, ft4-logging-bandwidth-formula)")
        if cp_h[hi] and speeds[hi] < 10.0:
            res.warnings.append(f"host {hid}: FT logging NIC below 10 Gbit/s; vSphere 6+ FT"
                                " asks for 10 Gbit/s or more (ft6-network-10gbps-ms-latency)")
        if host_load[hi] > 0:
            res.resources.append(Resource(
                hid, "ft_logging_nic", float(util[hi]),
                f"FT logging {host_load[hi]:.0f} Mbit/s of {host_cap[hi]:.0f} Mbit/s; above"
                " 100% the primary stalls (capacity / demand)",
                FT4 + " (ft4-logging-saturation-stalls-primary)"))
