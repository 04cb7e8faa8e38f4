"""Network: each VM gets the tightest of its offered load and the limits on its path.

Per VM and per direction (receive, transmit; full duplex) the throughput is the minimum of

* the offered load (``workload.net_rx_mbps``/``net_tx_mbps``; ``netperf`` and ``file_transfer``
  with no offered load receive as fast as they can, as the studies' netperf runs do);
* the NIC port's line rate times TCP goodput efficiency (1448-byte MSS in a 1538-byte frame);
* the PCIe slot: lanes x per-lane rate x 0.75 transaction-layer efficiency, shared by the ports;
* the transfer tool's streams (``models.subsystems.transfer``: CPU cycles per byte of the tool, the
ssh
  channel and its cipher on the stream's critical thread, the wire, the flow-control window);
* the serial receive/transmit path of one vNIC: a per-packet cost (vmkernel + vNIC emulation;
  LRO aggregates received packets, TSO sends large ones) plus a per-message cost in the guest.

VMs on one host share the host's ``vm`` NICs; without NetQueue/VMDq they also share one
receive queue (one per-packet path) per NIC, which is why many small VMs beat one large VM
only with VMDq.  A ``passthrough`` NIC (VMDirectPath) belongs to one VM and skips the
vmkernel path.  CPU cost = per packet + per byte + per message, all cores (hypervisor + VM),
plus the transfer tool's threads.  Multicast receivers (profile ``multicast_rx``) receive
``multicast_pps`` packets of ``multicast_packet_bytes`` (UDP: no LRO) through the host's
replication context(s), which drop packets as they saturate (``models.subsystems.multicast``).  A
VDI desktop (profile ``vdi``) transmits its PCoIP display stream (``models.subsystems.vdi``).
"""

from __future__ import annotations

import numpy as np

from models.core import coefficients, events
from models.core.compiled import Compiled
from models.core.platform import REF_GHZ as PLATFORM_GHZ
from models.core.platform import compute
from models.core.prediction import Resource
from models.core.results import NetworkResult
from models.core.sections import Cabling, NetworkDetail
from models.document.numbers import counted, with_unit
from models.document.schema import KINDS
from models.document.studies import FEDEX, LRO, cite
from models.subsystems import multicast, transfer, vdi

MSS_BYTES = 1448.0
"""TCP payload per 1500-byte MTU frame (IPv4 + TCP with timestamps)."""
GOODPUT = events.TCP_GOODPUT
"""Payload over wire bytes (:mod:`models.core.events`): 10GbE -> 9.41 Gbit/s, the 9.3-9.5
Gbit/s of net-esx4-single-vm-netperf (native) and net-lro-native-to-vm-throughput."""
PCIE_LANE_GBPS = np.array([0.0, 2.0, 4.0, 7.877, 15.754, 31.508])
"""Raw data rate per lane after line coding: Gen1 2.5 GT/s 8b/10b ... Gen5 32 GT/s 128b/130b."""
PCIE_EFFICIENCY = 0.8
"""PCIe transaction-layer efficiency, from the protocol: a 128-byte payload travels in a TLP
with about 24 bytes of header, sequence number, LCRC and framing (128 / 152 = 0.84), and the
link's ACK and flow-control packets take a few percent more.  Not fitted: a Gen1 x4 slot then
carries 4 x 2.0 x 0.8 = 6.4 Gbit/s, the check against the study's 6.0
(net-pcie-gen1-x4-limits-10g-to-6gbps); Gen1 x8 / Gen2 x4 carry one 10G port and a dual-port
card needs Gen2 x8 (net-pcie-slot-rules)."""
T_PKT_NS = coefficients.declare(
    "network.t_pkt_ns", "ns per packet of the reference core", 1000.0,
    "Serial per-packet cost of one vNIC's receive path (vmkernel + vmxnet3).  Bounded by"
    " net-lro-native-to-vm-packet-rate: the path carried 815 Kpps (<= 1.23 us a packet).  Prior:"
    " 1 us.")
T_MSG_NS = coefficients.declare(
    "network.t_msg_ns", "ns per message of the reference core", 2000.0,
    "Per-message cost on the stream's guest thread: 256-byte messages without LRO reach"
    " 0.6 Gbit/s (net-lro-native-to-vm-throughput, 256B off).  Prior: 2 us (a socket call).")
ESX4_PKT_FACTOR = coefficients.declare(
    "network.esx4_pkt_factor", "x ESXi 6 per-packet cost", 1.5,
    "ESX 4.x per-packet cost relative to ESXi 6: one 8-vCPU VM receives 5.8 Gbit/s of netperf"
    " on ESX 4.0 (net-esx4-single-vm-netperf; guest RHEL 5.3, kernel 2.6.18: no LRO).  Prior:"
    " 1.5.")
NATIVE_PKT_FACTOR = 0.35
"""Per-packet cost of a native driver (bare metal or DirectPath) relative to the vmxnet3
path; assumed (no case isolates it) - it keeps native at line rate (9.3 Gbit/s, FedEx)."""
VNIC_PKT_FACTOR = np.array([1.0, 1.3, 2.5])
"""vmxnet3, vmxnet2, e1000: emulated e1000 exits per packet; assumed from VMware's
'Performance Evaluation of VMXNET3 Virtual Network Device' ordering (no calibration case)."""
LRO_SEGMENTS = coefficients.declare(
    "network.lro_segments", "segments per packet", 4.0,
    "Segments LRO merges into one packet: the packet size grows 1.5 KB -> 10.5 KB"
    " (net-lro-native-to-vm-packet-rate).  Prior: 4.")
TSO_BYTES = 65536.0
RX_BYTE_PASSES = events.RX_BYTE_PASSES
"""Passes over a received byte (:mod:`models.core.events`: vmkernel to guest, guest kernel to
user, checksum); a sent byte makes as many (user to kernel, checksum, vmkernel)."""


def cpu_byte_ns() -> float:
    """CPU per byte a VM receives or sends, ns of the reference core: its passes over it at the
    one per-pass cost (:data:`models.core.events.BYTE_PASS_NS`)."""
    return RX_BYTE_PASSES * events.BYTE_PASS_NS.value


CPU_MSG_NS = coefficients.declare(
    "network.cpu_msg_ns", "ns per message of the reference core", 500.0,
    "CPU per message (socket calls), fitted with the per-pass cost (events.byte_pass_ns) to"
    " LRO's CPU-efficiency gains (same case).  Prior: 0.5 us.")

VSWITCH_COPY_PASSES = 1.0
"""The virtual switch's copy of a VM-to-VM byte into the receiving VM's buffer: one more pass
(:data:`models.core.events.BYTE_PASS_NS`).  Mechanism, not fitted (no case gives VM-to-VM
figures)."""
VSWITCH_SEGMENT_SHARE = 0.5
"""Cutting a large packet into one MTU-sized segment for a vNIC without LRO (a header, a
descriptor, its own pass through the switch port) as a share of the per-packet cost of the
receive path (T_PKT_NS); assumed, not fitted (no case gives VM-to-VM figures)."""


def vswitch_copy_ns() -> float:
    """ns per byte (of the reference core) the virtual switch copies between two VMs on one
    host."""
    return VSWITCH_COPY_PASSES * events.BYTE_PASS_NS.value


def vswitch_segment_ns() -> float:
    """ns (of the reference core) to cut one MSS segment off a large packet for a vNIC
    without LRO."""
    return VSWITCH_SEGMENT_SHARE * T_PKT_NS.value


CABLING: dict[str, tuple[float, float | None, float | None]] = {
    "twinax": (400.0, 3.0, 7.0),
    "10gbase_t": (400.0, 10.0, 100.0),
    "10gbase_sr": (700.0, None, None),
}
"""Per adapter port: list price USD (an upper bound for twinax and 10GBASE-T: 'under $400'),
watts, reach in metres; None where the study is silent (net-10g-cabling-cost-power, 2010)."""

# bound-by codes (order = reported priority among equal caps)
_OFFERED, _LINE, _PCIE, _TOOL, _PATH, _SHARE, _NOQUEUE, _NONIC, _WINDOW = range(9)


def code(kind: str, prop: str, choice: str) -> int:
    """The int code of enum ``choice`` (module-level constants: no lookups per evaluation)."""
    choices = KINDS[kind].props[prop].choices
    assert choices is not None
    return list(choices).index(choice)


def take(arr: np.ndarray, idx: np.ndarray, fill: float | int | bool = 0) -> np.ndarray:
    """``arr[idx]`` with ``fill`` where ``idx`` is -1 (no host, no NIC); safe on empty arrays."""
    if not len(arr):
        return np.full(idx.shape, fill, dtype=arr.dtype)
    return np.where(idx >= 0, arr[idx], fill)


_VM_ROLE, _FT_ROLE = code("nic", "role", "vm"), code("nic", "role", "ft_logging")
_NATIVE = code("host", "platform", "native")
_V41, _V60 = code("host", "esxi_version", "4.1"), code("host", "esxi_version", "6.0")
_NETPERF, _FILE = code("vm", "workload.profile", "netperf"), code("vm", "workload.profile",
                                                                  "file_transfer")
_WEB, _MCAST = code("vm", "workload.profile", "web"), code("vm", "workload.profile",
                                                           "multicast_rx")
_WINDOWS, _E1000 = code("vm", "guest_os", "windows"), code("vm", "vnic", "e1000")
_VMXNET3 = code("vm", "vnic", "vmxnet3")
_SAME_HOST = code("vm", "workload.net_peer", "same_host")
_NO_CABLING = code("nic", "cabling", "unspecified")


def pcie_usable_gbps(gen: np.ndarray, lanes: np.ndarray) -> np.ndarray:
    """Usable PCIe bandwidth (Gbit/s) per direction of a slot."""
    g = np.clip(gen.astype(np.int64), 1, 5)
    return PCIE_LANE_GBPS[g] * lanes * PCIE_EFFICIENCY


def solve(c: Compiled, app_net: tuple[np.ndarray, np.ndarray] | None = None,
          hold_ms: np.ndarray | None = None) -> NetworkResult:
    """Per-VM throughput, packet rates, CPU cost and per-NIC load.  ``app_net`` is the
    (receive, transmit) Mbit/s application VMs' transactions offer (the storage model's);
    ``hold_ms`` what FT's output commit adds to each round trip (``ft.io_delay_ms``)."""
    n, k, nh = len(c.vm), len(c.nic), len(c.host)
    vm, nic, host = c.vm.cols, c.nic.cols, c.host.cols
    if k == 0 or nh == 0:
        return _no_nics(c, app_net)

    # ---- NICs
    speed = nic["speed_gbps"]
    pcie = pcie_usable_gbps(nic["pcie_gen"], nic["pcie_lanes"])
    line_port = speed * GOODPUT
    port_cap = np.minimum(line_port, pcie)
    total_cap = np.minimum(line_port * nic["ports"], pcie)
    nhost = c.nic_host
    pool = (nic["role"] == _VM_ROLE) & (nhost >= 0) & (c.nic_vm < 0)
    pool_cap = np.bincount(nhost[pool], total_cap[pool], minlength=nh)
    pool_nics = np.bincount(nhost[pool], minlength=nh).astype(float)
    novmdq_nics = np.bincount(nhost[pool & ~nic["vmdq"]], minlength=nh)
    lro_nics = np.bincount(nhost[pool & nic["lro"]], minlength=nh)
    # the best pool NIC of each host (a VM's vNIC rides one uplink port)
    best = np.full(nh, -1, np.int64)
    idx = np.nonzero(pool)[0]
    if idx.size:
        order = idx[np.lexsort((-port_cap[idx], nhost[idx]))]
        hosts_sorted, first = np.unique(nhost[order], return_index=True)
        best[hosts_sorted] = order[first]

    # ---- VMs: where their traffic goes
    h = c.vm_host
    hv = np.maximum(h, 0)
    pt = np.full(n, -1, np.int64)
    pt_nics = np.nonzero(c.nic_vm >= 0)[0]
    pt[c.nic_vm[pt_nics]] = pt_nics
    use = np.where(pt >= 0, pt, np.where(h >= 0, best[hv], -1))
    # traffic with a VM on the same host crosses the virtual switch in memory, never a pNIC
    local = (vm["workload.net_peer"] == _SAME_HOST) & (h >= 0) & (pt < 0) & (
        vm["workload.profile"] != _MCAST)
    has_nic = (use >= 0) | local
    native = (pt >= 0) | (host["platform"][hv] == _NATIVE)

    # VMs without a host have no NIC: their values do not matter.  Costs are reference-core
    # time (models.core.platform); the transfer tools count cycles of a reference-core clock
    cpu_speed = compute(c).speed[hv] if len(c.host) else np.ones(len(hv))
    ghz = cpu_speed * PLATFORM_GHZ
    scale = 1.0 / cpu_speed
    ver = host["esxi_version"][hv]
    esx4 = ver <= _V41
    vnic = vm["vnic"]
    pkt_factor = np.where(native, NATIVE_PKT_FACTOR,
                          VNIC_PKT_FACTOR[vnic] * np.where(esx4, ESX4_PKT_FACTOR.value, 1.0))

    # ---- offered load (Mbit/s)
    rx, tx = _offered(c, app_net)
    prof = vm["workload.profile"]
    streaming = (prof == _NETPERF) | (prof == _FILE)

    # ---- packet sizes
    mcast = prof == _MCAST
    msg = np.where(mcast, vm["workload.multicast_packet_bytes"], vm["workload.net_msg_bytes"])
    windows = vm["guest_os"] == _WINDOWS
    lro_ok = ((lro_nics[hv] > 0) & ~native & (vnic != _E1000) & ~mcast
              & (~windows | (ver >= _V60)))
    pkt_wire = np.minimum(MSS_BYTES, msg)
    lro_size = np.minimum(LRO_SEGMENTS.value * pkt_wire, 65535.0)
    lro_size = np.where(streaming, lro_size, np.minimum(lro_size, np.maximum(msg, pkt_wire)))
    pkt_tx = np.minimum(msg, TSO_BYTES)
    # in the virtual switch, LRO keeps the sender's large packet whole; without it the host
    # cuts it to MTU-sized packets for the receiving vNIC, which handles every one
    pkt_rx = np.where(lro_ok, np.where(local, np.maximum(pkt_tx, lro_size), lro_size),
                      pkt_wire)

    # ---- caps (Mbit/s)
    par = np.minimum(vm["workload.net_streams"], vm["vcpus"])
    t_pkt = T_PKT_NS.value * pkt_factor * scale
    t_msg = T_MSG_NS.value * scale / par
    path_rx = 8000.0 / (t_pkt / pkt_rx + t_msg / msg)
    path_tx = 8000.0 / (t_pkt / pkt_tx + t_msg / msg)
    if local.any():
        # the sending vNIC's context: per packet, the copy into the receiver's buffer and,
        # without LRO, cutting each large packet into MSS segments; both ends' paths bind
        cut = np.where(~lro_ok & (pkt_tx > MSS_BYTES), vswitch_segment_ns() / MSS_BYTES, 0.0)
        sender = 8000.0 / (t_pkt / pkt_tx + (vswitch_copy_ns() + cut) * scale)
        path_rx = np.where(local, np.minimum(path_rx, sender), path_rx)
        path_tx = np.where(local, np.minimum(path_tx, np.minimum(sender, path_rx)), path_tx)
    line = np.where(local, np.inf, line_port[use] * 1000.0)  # use = -1: zeroed below
    # a path that never leaves the host has no wire: its round trip is a packet through the
    # sender's and the receiver's paths and back, not the LAN's net_rtt_ms
    path_rtt_ms = np.where(local, 2.0 * (t_pkt + T_MSG_NS.value * scale) * 1e-6,
                           vm["workload.net_rtt_ms"])
    tool, crypto = vm["workload.net_tool"], vm["workload.net_crypto"]
    cipher, mac = vm["workload.net_cipher"], vm["workload.net_mac"]
    aes_ni = host["aes_ni"][hv]
    tool_cap = transfer.stream_cap_mbps(tool, crypto, vm["workload.net_streams"],
                                        vm["vcpus"], ghz, line, path_rtt_ms,
                                        cipher, mac, aes_ni,
                                        host["hyperthreading"][hv] & native)
    # streams that fill the wire to within 0.5% are bound by the line, not the tool
    tool_cap = np.where(tool_cap >= 0.995 * line, np.maximum(tool_cap, line), tool_cap)
    slot = np.where(local, np.inf, pcie[use] * 1000.0)
    # a stream keeps one window in flight per round trip (plus FT's output commit)
    rtt_ms = path_rtt_ms + (hold_ms if hold_ms is not None else 0.0)
    window = np.where(np.isnan(vm["workload.net_window_kb"]), np.inf,
                      vm["workload.net_window_kb"] * 8.192e-3 * vm["workload.net_streams"]
                      / np.maximum(rtt_ms, 1e-6) * 1000.0)

    # the tightest cap, both directions at once (row 0 receive, row 1 transmit)
    x = np.stack([rx, tx])
    codes = np.zeros((2, n), np.int64)
    for cd, cap in ((_LINE, line), (_PCIE, slot), (_TOOL, tool_cap),
                    (_PATH, np.stack([path_rx, path_tx])), (_WINDOW, window)):
        lower = cap < x
        x = np.where(lower, cap, x)
        codes[lower] = cd
    x_rx, x_tx = x[0], x[1]
    code_rx, code_tx = codes[0], codes[1]

    # ---- sharing the host's vm NICs (proportional) and, without VMDq, their receive queues
    shared = has_nic & (pt < 0) & ~local
    hs = hv[shared]
    for x, code in ((x_rx, code_rx), (x_tx, code_tx)):
        demand = np.bincount(hs, x[shared], minlength=nh)
        s = np.ones(nh)
        np.divide(pool_cap * 1000.0, demand, out=s, where=demand > pool_cap * 1000.0)
        f = np.where(shared, s[hv], 1.0)
        hit = f < 1.0
        np.multiply(x, f, out=x)
        code[hit] = _SHARE
    pps_cost = np.where(shared, x_rx * 125000.0 / pkt_rx * t_pkt, 0.0)  # ns busy per second
    busy = np.bincount(hs, pps_cost[shared], minlength=nh) / 1e9
    budget = np.where(novmdq_nics > 0, pool_nics, np.inf)
    s = np.ones(nh)
    np.divide(budget, busy, out=s, where=busy > budget)
    f = np.where(shared, s[hv], 1.0)
    code_rx[f < 1.0] = _NOQUEUE
    x_rx *= f

    demanded = (rx > 0) | (tx > 0)
    code_rx[~has_nic & demanded] = _NONIC
    x_rx = np.where(has_nic, x_rx, 0.0)
    x_tx = np.where(has_nic, x_tx, 0.0)

    # ---- multicast replication: packets reaching the host, lost where a context saturates
    mc_mbps = np.where(mcast, vm["workload.multicast_pps"]
                       * vm["workload.multicast_packet_bytes"] * 8e-6, 0.0)
    got = np.divide(x_rx, rx, out=np.ones(n), where=rx > 0)
    mc_pps = np.where(mcast & has_nic & (pt < 0), vm["workload.multicast_pps"] * got, 0.0)
    mc = multicast.solve(c, mc_pps, vnic == _VMXNET3)
    x_rx = np.maximum(x_rx - mc_mbps * got * mc.vm_loss, 0.0)

    # ---- packets and CPU
    rx_pps = x_rx * 125000.0 / pkt_rx
    tx_pps = x_tx * 125000.0 / pkt_tx
    msgs = (x_rx + x_tx) * 125000.0 / msg
    cpu_ns = ((rx_pps + tx_pps) * T_PKT_NS.value * pkt_factor
              + (x_rx + x_tx) * 125000.0 * cpu_byte_ns() + msgs * CPU_MSG_NS.value)
    if local.any():  # the peer VM's mirror image of it, the copy and the cutting
        cut_ns = np.where(~lro_ok & (pkt_tx > MSS_BYTES), vswitch_segment_ns() / MSS_BYTES,
                          0.0)
        peer_ns = ((x_rx * 125000.0 / pkt_tx + x_tx * 125000.0 / pkt_rx)
                   * T_PKT_NS.value * pkt_factor
                   + (x_rx + x_tx) * 125000.0 * (cpu_byte_ns() + vswitch_copy_ns()
                                                 + cut_ns) + msgs * CPU_MSG_NS.value)
        cpu_ns = cpu_ns + np.where(local, peer_ns, 0.0)
    cores = (cpu_ns * scale / 1e9 + mc.vm_copy_cores + mc.vm_guest_cores
             + transfer.stream_cores(tool, crypto, np.maximum(x_rx, x_tx), ghz, cipher, mac,
                                     aes_ni))

    # ---- NIC load
    host_rx = np.bincount(hs, x_rx[shared], minlength=nh)
    host_tx = np.bincount(hs, x_tx[shared], minlength=nh)
    nic_gbps = np.zeros(k)
    nic_util = np.zeros(k)
    pool_h = nhost[pool]
    share = np.divide(total_cap[pool], pool_cap[pool_h], out=np.zeros(pool_h.size),
                      where=pool_cap[pool_h] > 0)
    nic_gbps[pool] = (host_rx + host_tx)[pool_h] * share / 1000.0
    nic_util[pool] = np.divide(np.maximum(host_rx, host_tx)[pool_h], pool_cap[pool_h] * 1000.0,
                               out=np.zeros(pool_h.size), where=pool_cap[pool_h] > 0)
    pv = c.nic_vm[pt_nics]
    nic_gbps[pt_nics] = (x_rx[pv] + x_tx[pv]) / 1000.0
    nic_util[pt_nics] = np.maximum(x_rx[pv], x_tx[pv]) / (total_cap[pt_nics] * 1000.0)

    res = NetworkResult(vm_rx_mbps=x_rx, vm_tx_mbps=x_tx, vm_cpu_cores=cores,
                        vm_bound_by=_bound_by(c, x_rx, x_tx, code_rx, code_tx, use, rx, tx,
                                              speed, pcie),
                        vm_rx_pps=rx_pps, vm_tx_pps=tx_pps, nic_gbps=nic_gbps,
                        nic_util=nic_util)
    _resources(c, res, speed, pcie, line_port)
    res.resources.extend(mc.resources)
    res.warnings.extend(mc.warnings)
    res.multicast = mc.section
    _cabling(c, res)
    _warnings(c, res, pt_nics, speed, pcie, line_port, h, demanded, has_nic)
    return res


def _offered(c: Compiled, app_net: tuple[np.ndarray, np.ndarray] | None = None
             ) -> tuple[np.ndarray, np.ndarray]:
    """Offered receive and transmit load (Mbit/s); inf for streaming tools without one."""
    vm = c.vm.cols
    prof = vm["workload.profile"]
    streaming = (prof == _NETPERF) | (prof == _FILE)
    rx = vm["workload.net_rx_mbps"]
    tx = vm["workload.net_tx_mbps"]
    rx = np.where(streaming & (rx <= 0) & (tx <= 0), np.inf, rx)
    tx = tx + np.where(prof == _WEB,
                       vm["workload.req_per_s"] * vm["workload.resp_kb"] * 8.192e-3, 0.0)
    tx = tx + vdi.desktop_mbps(c)
    rx = rx + np.where(prof == _MCAST, vm["workload.multicast_pps"]
                       * vm["workload.multicast_packet_bytes"] * 8e-6, 0.0)
    if app_net is not None:
        rx, tx = rx + app_net[0], tx + app_net[1]
    return rx, tx


def _no_nics(c: Compiled, app_net: tuple[np.ndarray, np.ndarray] | None) -> NetworkResult:
    """A design without NICs or hosts: no VM moves any traffic."""
    n, k = len(c.vm), len(c.nic)
    rx, tx = _offered(c, app_net)
    demanded = (rx > 0) | (tx > 0)
    names = np.array([f"host {hid}: no NIC with role vm" for hid in c.host.ids]
                     + ["not placed on a host (no NIC)"], dtype=object)
    bound = np.where(demanded, names[c.vm_host], "")
    z = np.zeros(n)
    res = NetworkResult(vm_rx_mbps=z, vm_tx_mbps=z.copy(), vm_cpu_cores=z.copy(),
                        vm_bound_by=bound.tolist(), vm_rx_pps=z.copy(), vm_tx_pps=z.copy(),
                        nic_gbps=np.zeros(k), nic_util=np.zeros(k))
    if demanded.any():
        res.warnings.append("VMs offer network load but the design has no NIC with role vm:"
                            " their network throughput is 0")
    return res


def _bound_by(c: Compiled, x_rx: np.ndarray, x_tx: np.ndarray, code_rx: np.ndarray,
              code_tx: np.ndarray, use: np.ndarray, rx: np.ndarray, tx: np.ndarray,
              speed: np.ndarray, pcie: np.ndarray) -> list[str]:
    """One phrase per VM naming what limits its larger direction ('' if nothing does)."""
    n = len(c.vm)
    main_rx = x_rx >= x_tx
    code = np.where(main_rx, code_rx, code_tx)
    val = np.where(main_rx, x_rx, x_tx)
    limited = (code != _OFFERED) & ((rx > 0) | (tx > 0))
    out = np.full(n, "", dtype=object)
    sel = np.nonzero(limited)[0]
    if sel.size == 0:
        return out.tolist()
    # one phrase per distinct (code, nic or host, value): build each once
    cs = code[sel]
    comp = np.where(cs >= _SHARE, c.vm_host[sel], use[sel])
    key = ((cs * 1_000_003 + comp + 1) * 100_000_000
           + np.minimum(np.round(val[sel] / 10.0), 99_999_999).astype(np.int64))
    _, first, inv = np.unique(key, return_index=True, return_inverse=True)
    texts = [_phrase(c, int(cs[j]), int(comp[j]), int(sel[j]), float(val[sel[j]]), speed,
                     pcie) for j in first.tolist()]
    out[sel] = np.array(texts, dtype=object)[inv.ravel()]
    return out.tolist()


def _phrase(c: Compiled, code: int, comp: int, i: int, mbps: float, speed: np.ndarray,
            pcie: np.ndarray) -> str:
    gb = f"{mbps / 1000.0:.1f} Gbit/s"
    vm = c.vm.cols
    if code == _LINE:
        return (f"nic {c.nic.ids[comp]}: {with_unit(speed[comp], 'Gbit/s')} line rate"
                f" ({speed[comp] * GOODPUT:.2f} Gbit/s TCP goodput)")
    if code == _PCIE:
        gen = int(c.nic.cols["pcie_gen"][comp])
        lanes = int(c.nic.cols["pcie_lanes"][comp])
        return f"nic {c.nic.ids[comp]}: PCIe Gen{gen} x{lanes} slot ({pcie[comp]:.1f} Gbit/s)"
    if code == _TOOL:
        tool = c.vm.specs["workload.net_tool"].choices[int(vm["workload.net_tool"][i])]  # type: ignore[index]
        crypto = c.vm.specs["workload.net_crypto"].choices[  # type: ignore[index]
            int(vm["workload.net_crypto"][i])]
        streams = int(vm["workload.net_streams"][i])
        what = f"{tool} with {crypto} encryption" if crypto != "none" else tool
        return f"transfer tool: {what}, {counted(streams, 'stream')} ({gb})"
    if code == _PATH:
        vnic = c.vm.specs["vnic"].choices[int(vm["vnic"][i])]  # type: ignore[index]
        return (f"vm {c.vm.ids[i]}: per-packet/per-message cost of the {vnic} path ({gb})")
    if code == _WINDOW:
        return (f"vm {c.vm.ids[i]}: {with_unit(vm['workload.net_window_kb'][i], 'KB')} window"
                f" per round trip ({gb})")
    hid = c.host.ids[comp] if comp >= 0 else "?"
    if code == _SHARE:
        return f"host {hid}: vm NICs shared by its VMs ({gb} for this VM)"
    if code == _NOQUEUE:
        return f"host {hid}: one receive queue per NIC without NetQueue/VMDq ({gb})"
    if comp < 0:
        return f"vm {c.vm.ids[i]}: not placed on a host (no NIC)"
    return f"host {hid}: no NIC with role vm"


def _resources(c: Compiled, res: NetworkResult, speed: np.ndarray, pcie: np.ndarray,
               line_port: np.ndarray, top: int = 8) -> None:
    """NIC and PCIe utilisation of the busiest NICs, for the bottleneck list."""
    util = res.nic_util
    busy = np.nonzero(util > 0)[0]
    busy = busy[np.argsort(-util[busy])][:top]
    ports = c.nic.cols["ports"].tolist()
    util_l, gbps_l, pcie_l = util.tolist(), res.nic_gbps.tolist(), pcie.tolist()
    speed_l, line_l = speed.tolist(), line_port.tolist()
    for j in busy.tolist():
        nid = c.nic.ids[j]
        line_total = line_l[j] * ports[j]
        if pcie_l[j] < line_total:
            gen, lanes = int(c.nic.cols["pcie_gen"][j]), int(c.nic.cols["pcie_lanes"][j])
            res.resources.append(Resource(
                nid, "pcie", util_l[j],
                f"{gbps_l[j]:.2f} Gbit/s through a PCIe Gen{gen} x{lanes} slot that"
                f" passes {pcie_l[j]:.1f} Gbit/s; {int(ports[j])} x {speed_l[j]:g}G ports need"
                f" {line_total:.1f}", FEDEX.title + " (net-pcie-slot-rules)"))
        else:
            res.resources.append(Resource(
                nid, "nic", util_l[j],
                f"{gbps_l[j]:.2f} Gbit/s on {int(ports[j])} x {with_unit(speed_l[j], 'Gbit/s')}"
                f" ({line_total:.2f} Gbit/s TCP goodput per direction)",
                cite(FEDEX, LRO)))


def _cabling(c: Compiled, res: NetworkResult) -> None:
    """Cost, power and reach of the NICs whose cabling is given (the network section)."""
    cab = c.nic.cols["cabling"]
    given = np.nonzero(cab != _NO_CABLING)[0]
    if not given.size:
        return
    choices = c.nic.specs["cabling"].choices
    assert choices is not None
    out: dict[str, Cabling] = {}
    for j in given.tolist():
        name = str(choices[int(cab[j])])
        usd, watts, reach = CABLING[name]
        ports = float(c.nic.cols["ports"][j])
        out[c.nic.ids[j]] = Cabling(name, usd * ports,
                                    watts * ports if watts is not None else None, reach)
    res.detail = NetworkDetail(out)


def _warnings(c: Compiled, res: NetworkResult, pt_nics: np.ndarray, speed: np.ndarray,
              pcie: np.ndarray, line_port: np.ndarray, h: np.ndarray, demanded: np.ndarray,
              has_nic: np.ndarray) -> None:
    for j in pt_nics.tolist():
        v = int(c.nic_vm[j])
        res.warnings.append(
            f"vm {c.vm.ids[v]} uses DirectPath NIC {c.nic.ids[j]}: near-native throughput, but"
            " vMotion, suspend/resume, FT, HA and DRS are unavailable for it (FedEx case study)")
        if c.nic_host[j] != h[v]:
            res.warnings.append(f"nic {c.nic.ids[j]} is passed through to vm {c.vm.ids[v]}"
                                " but is installed in another host")
    narrow = np.nonzero((pcie < line_port * c.nic.cols["ports"]) & (c.nic_host >= 0))[0]
    for j in narrow.tolist():
        gen, lanes = int(c.nic.cols["pcie_gen"][j]), int(c.nic.cols["pcie_lanes"][j])
        ports = int(c.nic.cols["ports"][j])
        res.warnings.append(
            f"nic {c.nic.ids[j]}: PCIe Gen{gen} x{lanes} slot ({pcie[j]:.1f} Gbit/s) is"
            f" narrower than {ports} x {with_unit(speed[j], 'Gbit/s')}"
            f" {'port needs' if ports == 1 else 'ports need'}; one 10G port needs Gen1 x8 or"
            " Gen2 x4, two need twice that (FedEx case study)")
    stranded = demanded & ~has_nic & (h >= 0)
    for hi in (np.unique(h[stranded]).tolist() if stranded.any() else []):
        res.warnings.append(f"host {c.host.ids[hi]} has VMs with network load but no NIC with"
                            " role vm: their network throughput is 0")
