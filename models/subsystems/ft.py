"""Fault Tolerance: logging bandwidth, logging-NIC stalls, output-commit latency, limits.

vSphere 4-5.x FT (record/replay, ``esxi_version`` < 6.0 on the primary's host) ships the
secondary every non-deterministic input the replay needs, each as a log entry:

* **disk reads**: the data (the secondary never reads the disk) and one completion event each;
* **received packets**: the data and one event per packet delivered to the guest (after LRO);
* **acknowledgements received** by a VM that transmits: small packets, data and event;
* **transmit completions**: one event per packet the vNIC sends (its own data is not logged:
  the secondary regenerates it), including the ACKs a receiving VM sends;
* **timer interrupts** at the guest OS's tick rate (``vm.guest_timer_hz``), per vCPU.

Logging = 8 x (read bytes + received bytes + ACK bytes + events x :data:`EVENT_BYTES`), the
per-event size fitted on the vSphere 4 paper's netperf receive run (890 Mbit/s received ->
950 Mbit/s logged); an idle guest logs its timer floor.  The paper's sizing rule (reads x 8 +
input) x 1.2 is reported beside it.  vSphere 6+ FT (fast checkpointing) sends disk writes,
received packets and dirtied memory instead.  When the logging demand passes the FT NIC, the
primary stalls until the secondary catches up: throughput scales by capacity / demand.  Every
transmit and disk write waits for the secondary's acknowledgement (output commit): one
FT-link round trip, plus half a checkpoint interval and the checkpoint's transfer time with
fast checkpointing; a stream that keeps one window in flight loses throughput in proportion
(the network model's window cap, ``workload.net_window_kb``).
"""

from __future__ import annotations

import numpy as np

from models.core import coefficients, uncertainty
from models.core.compiled import Compiled
from models.core.prediction import Resource
from models.core.results import FtResult, NetworkResult, StorageResult
from models.core.sections import FtDetail, FtVm
from models.document.numbers import counted, with_unit
from models.document.schema import KINDS
from models.document.studies import FT4, FT_LIMITS
from models.subsystems.cpu_virt import guest_timer_hz
from models.subsystems.network import GOODPUT, MSS_BYTES, code, pcie_usable_gbps

EVENT_BYTES = coefficients.declare(
    "ft.event_bytes", "bytes per logged event", 64.0,
    "Log entry per non-deterministic event (a packet delivered, a transmit completion, a disk"
    " read completion, a timer interrupt): the vSphere 4 netperf receive run logged 950 Mbit/s"
    " for 890 Mbit/s received (ft4-netperf-rx-logging-bandwidth).  Prior: 64 bytes (an event"
    " header and its payload's descriptor).")
ACK_BYTES = 66.0
"""A TCP acknowledgement on the wire (Ethernet 14 + IPv4 20 + TCP with timestamps 32)."""
SIZING_RULE_FACTOR = 1.2
"""vSphere 4 sizing rule: (avg disk reads MB/s x 8 + avg network input Mbit/s) x 1.2
(ft4-logging-bandwidth-formula); 20% headroom for TCP/IP overhead and timer events."""
CHECKPOINT_MS = coefficients.declare(
    "ft.checkpoint_ms", "ms", 2.0,
    "Fast-checkpointing interval (vSphere 6+): the packet-latency increase is 'on the order of"
    " milliseconds' (ft6-network-10gbps-ms-latency, a bound).  Prior: 2 ms.")
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

# (first version, max vCPUs, max memory GB or None (not checked), citation)
_LIMITS = (
    ("4.0", 1, None, "vSphere 4 FT supports only uniprocessor VMs (ft4-uniprocessor-only)"),
    ("5.0", 1, 64.0, "vSphere 5.x FT supports 1 vCPU and 64 GB (vSphere 5.5 Availability)"),
    ("6.0", 4, 64.0, "vSphere 6.0 FT supports at most 4 vCPUs and 64 GB (ft6-max-vm-size)"),
    ("6.7", 8, 128.0, f"vSphere 6.7+ FT supports at most 8 vCPUs and 128 GB ({FT_LIMITS.title})"),
)


_V60 = code("host", "esxi_version", "6.0")
_FT_ROLE, _VM_ROLE = code("nic", "role", "ft_logging"), code("nic", "role", "vm")
_HIGH = code("vm", "latency_sensitivity", "high")
_VERSIONS = KINDS["host"].props["esxi_version"].choices or ()
_LIMIT_OF = np.array([max(j for j, lim in enumerate(_LIMITS) if float(lim[0]) <= float(v))
                      for v in _VERSIONS])
"""Index into _LIMITS for each esxi_version code."""
_MAX_VCPUS = np.array([lim[1] for lim in _LIMITS], dtype=float)
_MAX_MEM = np.array([np.inf if lim[2] is None else lim[2] for lim in _LIMITS])


def _rtt_ms(c: Compiled) -> np.ndarray:
    rtt = np.zeros(len(c.vm))
    t = c.links["ft_secondary_on"]
    rtt[t.cols["src"]] = t.cols["rtt_ms"]
    return rtt


def io_delay_ms(c: Compiled) -> np.ndarray:
    """Extra latency each disk write of a protected VM pays for output commit (ms)."""
    out = np.zeros(len(c.vm))
    f = np.nonzero(c.vm.cols["ft"] & (c.vm_host >= 0) & (c.vm_secondary >= 0))[0]
    if f.size:
        cp = c.host.cols["esxi_version"][c.vm_host[f]] >= _V60
        out[f] = _rtt_ms(c)[f] + np.where(cp, CHECKPOINT_MS.value / 2.0, 0.0)
    return out


def _ft_capacity(c: Compiled) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """FT-logging NIC indices, their capacity and per-host capacity (Mbit/s, one way)."""
    nic = c.nic.cols
    idx = np.nonzero((nic["role"] == _FT_ROLE) & (c.nic_host >= 0))[0]
    cap = np.minimum(nic["speed_gbps"][idx] * nic["ports"][idx] * GOODPUT,
                     pcie_usable_gbps(nic["pcie_gen"][idx], nic["pcie_lanes"][idx])) * 1000.0
    host_cap = np.bincount(c.nic_host[idx], cap, minlength=len(c.host))
    return idx, cap, host_cap


class _Static:
    """What FT needs from the design alone (placement, versions, NICs, limits): a knob that
    moves only the workload's I/O reuses it (:meth:`Compiled.memo`)."""

    def __init__(self, c: Compiled):
        vm = c.vm.cols
        nh = len(c.host)
        self.f = f = np.nonzero(vm["ft"] & (c.vm_host >= 0))[0]
        self.ph, self.sh = ph, sh = c.vm_host[f], c.vm_secondary[f]
        self.paired = paired = sh >= 0
        self.cp = cp = c.host.cols["esxi_version"][ph] >= _V60
        self.busy_vcpus = vm["vcpus"][f] * vm["workload.cpu_pct"][f] / 100.0
        self.read_share = vm["workload.io_read_pct"][f] / 100.0
        self.ticks = guest_timer_hz(c)[f] * vm["vcpus"][f]
        self.nic_idx, self.nic_cap, self.host_cap = _ft_capacity(c)
        self.rtt = _rtt_ms(c)[f]
        self.warnings: list[str] = []
        if not f.size:
            return
        _warn_vms(c, self.warnings, f, paired, cp)
        # per-host limits that do not depend on the load (_report_hosts)
        sh_p = sh[paired]
        count = np.bincount(ph, minlength=nh) + np.bincount(sh_p, minlength=nh)
        vc = vm["vcpus"][f]
        vcpus = np.bincount(ph, vc, minlength=nh) + np.bincount(sh_p, vc[paired], minlength=nh)
        cp_h = (np.bincount(ph, cp, minlength=nh) + np.bincount(sh_p, cp[paired],
                                                                 minlength=nh)) > 0
        speeds = np.zeros(nh)
        np.maximum.at(speeds, c.nic_host[self.nic_idx], c.nic.cols["speed_gbps"][self.nic_idx])
        host_cap = self.host_cap
        self.on = on = count > 0
        self.count, self.vcpus_h = count, vcpus
        self.too_many = on & (count > MAX_FT_VMS_PER_HOST)
        self.too_many_vcpus = on & cp_h & (vcpus > MAX_FT_VCPUS_PER_HOST)
        self.no_nic = on & (host_cap <= 0)
        self.slow = on & (host_cap > 0) & cp_h & (speeds < 10.0)
        self.bad = self.too_many | self.too_many_vcpus | self.no_nic | self.slow


def replay_mbps(read_mbps: np.ndarray, read_iops: np.ndarray, rx_mbps: np.ndarray,
                tx_mbps: np.ndarray, rx_pps: np.ndarray, tx_pps: np.ndarray,
                ticks: np.ndarray) -> np.ndarray:
    """Record/replay logging (Mbit/s) from the inputs the secondary must replay: disk reads
    (MB/s and completions), received bytes and packets, the ACKs a sender receives, transmit
    completions (packets sent, the ACKs of a receiver included) and timer interrupts.  Packet
    rates of 0 fall back to one packet per TCP segment."""
    rx_segs = rx_mbps * 125000.0 / MSS_BYTES
    tx_segs = tx_mbps * 125000.0 / MSS_BYTES
    rx_pkts = np.where(rx_pps > 0, rx_pps, rx_segs)
    tx_pkts = np.where(tx_pps > 0, tx_pps, tx_segs)
    acks_in = tx_segs / 2.0  # delayed ACK: one per two segments sent
    acks_out = np.minimum(rx_pkts, rx_segs / 2.0)  # one per delivered (merged) packet at most
    events = read_iops + rx_pkts + acks_in + tx_pkts + acks_out + ticks
    data = read_mbps * 1e6 + rx_mbps * 125000.0 + acks_in * ACK_BYTES
    return (data + events * EVENT_BYTES.value) * 8e-6


def solve(c: Compiled, sto: StorageResult, net: NetworkResult) -> FtResult:
    """Logging bandwidth, stall ratio and added latency of every FT-protected VM."""
    n, nh, k = len(c.vm), len(c.host), len(c.nic)
    res = FtResult(vm_logging_mbps=np.zeros(n), vm_latency_add_ms=np.zeros(n),
                   vm_throughput_ratio=np.ones(n), host_logging_mbps=np.zeros(nh),
                   nic_gbps=np.zeros(k), nic_util=np.zeros(k), vm_sizing_rule_mbps=np.zeros(n))
    st = c.memo("ft.static", lambda: _Static(c))
    f = st.f
    if not f.size:
        return res
    ph, sh = st.ph, st.sh
    paired = st.paired
    cp = st.cp

    reads = _pick(sto.vm_read_mbps, f, n)
    writes = np.maximum(_pick(sto.vm_mbps, f, n) - reads, 0.0)
    rx = _pick(net.vm_rx_mbps, f, n)
    busy_vcpus = st.busy_vcpus
    log_overhead = uncertainty.value("ft.log_overhead")  # band: as fitted .. the rule's 20%
    replay = replay_mbps(reads, _pick(sto.vm_iops, f, n) * st.read_share, rx,
                         _pick(net.vm_tx_mbps, f, n), _pick(net.vm_rx_pps, f, n),
                         _pick(net.vm_tx_pps, f, n), st.ticks) * log_overhead
    checkpoint = (writes * 8.0 + rx) * log_overhead + busy_vcpus * DIRTY_MBPS_PER_BUSY_VCPU
    demand = np.where(paired, np.where(cp, checkpoint, replay), 0.0)
    rule = (reads * 8.0 + rx) * SIZING_RULE_FACTOR

    nic_idx, nic_cap, host_cap = st.nic_idx, st.nic_cap, st.host_cap
    p, s = ph[paired], sh[paired]
    out_d = np.bincount(p, demand[paired], minlength=nh)
    in_d = np.bincount(s, demand[paired], minlength=nh)
    host_load = np.maximum(out_d, in_d)
    util = np.divide(host_load, host_cap, out=np.zeros(nh), where=host_cap > 0)
    sv = np.maximum(sh, 0)
    has_link = paired & (host_cap[ph] > 0) & (host_cap[sv] > 0)
    worst = np.where(paired, np.maximum(util[ph], util[sv]), 0.0)
    ratio = np.where(has_link & (worst > 1.0), 1.0 / np.maximum(worst, 1.0), 1.0)

    logging = demand * ratio
    out_a = np.bincount(p, logging[paired], minlength=nh)
    in_a = np.bincount(s, logging[paired], minlength=nh)
    nic_h = c.nic_host[nic_idx]
    hc = host_cap[nic_h]
    res.nic_gbps[nic_idx] = np.divide((out_a + in_a)[nic_h] * nic_cap, hc * 1000.0,
                                      out=np.zeros(nic_h.size), where=hc > 0)
    res.nic_util[nic_idx] = np.divide(np.maximum(out_a, in_a)[nic_h], hc,
                                      out=np.zeros(nic_h.size), where=hc > 0)
    res.vm_logging_mbps[f] = logging
    res.vm_throughput_ratio[f] = ratio
    res.vm_sizing_rule_mbps[f] = rule
    res.host_logging_mbps = out_a
    hold = st.rtt + np.where(cp, CHECKPOINT_MS.value * (0.5 + np.minimum(worst, 1.0)), 0.0)
    res.vm_latency_add_ms[f] = np.where(paired, hold, 0.0)
    if (ratio < 1.0).any():
        _stall_vm_nics(c, net, f, ratio)
        _name_stalls(c, net, f, ratio, worst, util)
    res.warnings.extend(st.warnings)
    _report_hosts(c, st, res, rule, host_load, util)
    if not c.detail:
        return res
    ids = c.vm.ids
    res.detail = FtDetail(
        vms={ids[i]: FtVm("fast_checkpointing" if cpj else "record_replay", dj, rj)
             for i, cpj, dj, rj in zip(f.tolist(), cp.tolist(), demand.tolist(),
                                       rule.tolist(), strict=True)},
        event_bytes=EVENT_BYTES.value, logging_overhead=float(log_overhead),
        sizing_rule_factor=SIZING_RULE_FACTOR)
    return res


def _name_stalls(c: Compiled, net: NetworkResult, f: np.ndarray, ratio: np.ndarray,
                 worst: np.ndarray, util: np.ndarray) -> None:
    """A stalled VM's network bottleneck is its FT logging link (the engine reads
    ``net.vm_bound_by`` after this model has run)."""
    if len(net.vm_bound_by) != len(c.vm):
        return
    for j in np.nonzero(ratio < 1.0)[0].tolist():
        i = int(f[j])
        ph, sh = int(c.vm_host[i]), int(c.vm_secondary[i])
        hi = ph if util[ph] >= util[sh] else sh
        net.vm_bound_by[i] = (f"host {c.host.ids[hi]}: FT logging NIC asked"
                              f" {worst[j]:.0%} of its capacity (throughput x{ratio[j]:.2f})")


def _passthrough(c: Compiled) -> np.ndarray:
    """Per VM: it has a DirectPath NIC."""
    out = np.zeros(len(c.vm), bool)
    out[c.nic_vm[c.nic_vm >= 0]] = True
    return out


def _pick(a: np.ndarray, f: np.ndarray, n: int) -> np.ndarray:
    """``a[f]`` as finite floats, zeros when a subsystem returned no per-VM array."""
    a = np.asarray(a, dtype=float)
    if a.shape != (n,):
        return np.zeros(f.size)
    v = a[f]
    return np.where(np.isfinite(v), v, 0.0)


def _stall_vm_nics(c: Compiled, net: NetworkResult, f: np.ndarray, ratio: np.ndarray) -> None:
    """A stalled primary sends and receives less: scale its host's vm-NIC load in place
    (the engine adds ``net.nic_gbps``/``nic_util`` after this model has run)."""
    n, nh = len(c.vm), len(c.host)
    if net.nic_gbps.shape != (len(c.nic),):
        return
    lost_vm = (1.0 - ratio) * (_pick(net.vm_rx_mbps, f, n) + _pick(net.vm_tx_mbps, f, n))
    pt_vm = _passthrough(c)[f]
    host_lost = np.bincount(c.vm_host[f][~pt_vm], lost_vm[~pt_vm] / 1000.0, minlength=nh)
    pool = (c.nic.cols["role"] == _VM_ROLE) & (c.nic_host >= 0) & (c.nic_vm < 0)
    nhost = c.nic_host[pool]
    host_gbps = np.bincount(nhost, net.nic_gbps[pool], minlength=nh)
    keep = np.divide(host_gbps - host_lost, host_gbps, out=np.ones(nh), where=host_gbps > 0)
    keep = np.clip(keep, 0.0, 1.0)[nhost]
    net.nic_gbps[pool] *= keep
    net.nic_util[pool] *= keep
    full = np.ones(n)
    full[f] = ratio
    pt = np.nonzero(c.nic_vm >= 0)[0]
    net.nic_gbps[pt] *= full[c.nic_vm[pt]]
    net.nic_util[pt] *= full[c.nic_vm[pt]]


def _warn_vms(c: Compiled, warnings: list[str], f: np.ndarray, paired: np.ndarray,
              cp: np.ndarray) -> None:
    """Size limits, latency sensitivity, DirectPath, missing secondary, RTT, clock skew."""
    vm, host = c.vm.cols, c.host.cols
    ids = c.vm.ids
    ver = host["esxi_version"][c.vm_host[f]]
    lim = _LIMIT_OF[ver]
    vcpus, mem = vm["vcpus"][f], vm["memory_gb"][f]
    rtt = _rtt_ms(c)[f]
    sv = np.maximum(c.vm_secondary[f], 0)
    dmhz = np.abs(host["ghz"][c.vm_host[f]] - host["ghz"][sv]) * 1000.0
    bad = ((vcpus > _MAX_VCPUS[lim]) | (mem > _MAX_MEM[lim])
           | (vm["latency_sensitivity"][f] == _HIGH) | _passthrough(c)[f] | ~paired
           | (paired & (rtt > RTT_MAX_MS)) | (paired & (dmhz > CPU_MHZ_DIFF_MAX)))
    for j in np.nonzero(bad)[0].tolist():
        i, v = int(f[j]), ids[int(f[j])]
        name = str(_VERSIONS[int(ver[j])])
        _, max_vcpus, max_mem, why = _LIMITS[int(lim[j])]
        if vcpus[j] > max_vcpus:
            warnings.append(f"FT on a {int(vcpus[j])}-vCPU VM ({v}): vSphere {name} FT"
                                f" supports at most {counted(max_vcpus, 'vCPU')} ({why})")
        if max_mem is not None and mem[j] > max_mem:
            warnings.append(f"FT on a {with_unit(mem[j], 'GB')} VM ({v}): vSphere {name} FT"
                                f" supports at most {with_unit(max_mem, 'GB')} ({why})")
        if vm["latency_sensitivity"][i] == _HIGH:
            warnings.append(f"FT on latency-sensitive VM {v}: every transmit waits for the"
                                " secondary; FT is not recommended for VOIP or trading"
                                " workloads (ft6-not-for-latency-sensitive)")
        if _passthrough(c)[i]:
            warnings.append(f"FT on VM {v} with a DirectPath (passthrough) NIC: DirectPath"
                                " VMs cannot be FT-protected (net-esx4-vmdirectpath-near-native)")
        if not paired[j]:
            warnings.append(f"FT VM {v} has no ft_secondary_on link: no secondary host,"
                                " so FT logging and latency are not modelled")
            continue
        if rtt[j] > RTT_MAX_MS:
            warnings.append(f"FT VM {v}: primary-secondary round trip"
                                f" {with_unit(rtt[j], 'ms')} exceeds the recommended"
                                f" {with_unit(RTT_MAX_MS, 'ms')}"
                                " (ft4-link-rtt-and-host-homogeneity)")
        if dmhz[j] > CPU_MHZ_DIFF_MAX:
            warnings.append(f"FT VM {v}: its primary and secondary hosts' clocks differ by"
                                f" {dmhz[j]:.0f} MHz (recommended <= 400 MHz,"
                                " ft4-link-rtt-and-host-homogeneity)")


def _report_hosts(c: Compiled, st: _Static, res: FtResult, rule: np.ndarray,
                  host_load: np.ndarray, util: np.ndarray, top: int = 8) -> None:
    """Per-host FT limits, missing or undersized FT NICs, and FT-NIC utilisation."""
    nh = len(c.host)
    ph, sh, cp, paired = st.ph, st.sh[st.paired], st.cp, st.paired
    count, vcpus, host_cap = st.count, st.vcpus_h, st.host_cap
    rule_rr = np.where(cp, 0.0, rule)  # the sizing rule is for record/replay (vSphere 4-5)
    rule_h = np.maximum(np.bincount(ph, rule_rr, minlength=nh),
                        np.bincount(sh, rule_rr[paired], minlength=nh))
    too_many, too_many_vcpus, no_nic, slow = (st.too_many, st.too_many_vcpus, st.no_nic,
                                              st.slow)
    below_rule = st.on & (host_cap > 0) & (rule_h > host_cap)
    bad = st.bad | below_rule
    for hi in np.nonzero(bad)[0].tolist():
        hid = c.host.ids[hi]
        if too_many[hi]:
            res.warnings.append(f"host {hid} runs {int(count[hi])} FT VMs (primaries and"
                                f" secondaries); at most {MAX_FT_VMS_PER_HOST} per host are"
                                " recommended (ft4-max-ft-vms-per-host)")
        if too_many_vcpus[hi]:
            res.warnings.append(f"host {hid} carries {int(vcpus[hi])} FT vCPUs; vSphere 6+"
                                f" allows {MAX_FT_VCPUS_PER_HOST} per host")
        if no_nic[hi]:
            res.warnings.append(f"host {hid} has FT VMs but no NIC with role ft_logging")
        if below_rule[hi]:
            res.warnings.append(
                f"host {hid}: FT logging NICs ({host_cap[hi] / 1000.0:.2f} Gbit/s) are below"
                f" the vSphere 4 sizing rule's {rule_h[hi] / 1000.0:.2f} Gbit/s for its FT VMs"
                " ((reads x 8 + rx) x 1.2, ft4-logging-bandwidth-formula)")
        if slow[hi]:
            res.warnings.append(f"host {hid}: FT logging NIC below 10 Gbit/s; vSphere 6+ FT"
                                " asks for 10 Gbit/s or more (ft6-network-10gbps-ms-latency)")
    if not c.detail:
        return
    busy = np.nonzero(host_load > 0)[0]
    busy = busy[np.argsort(-util[busy])][:top]
    src = FT4.title + " (ft4-logging-saturation-stalls-primary)"
    for hi, u, load, cap in zip(busy.tolist(), util[busy].tolist(), host_load[busy].tolist(),
                                host_cap[busy].tolist(), strict=True):
        res.resources.append(Resource(
            c.host.ids[hi], "ft_logging_nic", u, f"FT logging {load:.0f} Mbit/s of {cap:.0f}"
            " Mbit/s; above 100% the primary stalls (capacity / demand)", src))
