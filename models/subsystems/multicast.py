"""Multicast receivers: the host's replication context(s) and the receivers' own CPU.

A multicast packet arriving at a host is copied once per receiving vNIC.  In the default
receive mode one context (one thread) on the host does every copy, so it is a single-server
queue with arrival rate ``sum over receivers of pps`` and service time :data:`T_COPY_US` per
copy: utilisation ``rho = sum(pps) x t_copy`` (utilisation law).  Its buffer holds
:data:`QUEUE_PACKETS` packets; the fraction lost is the M/M/1/K blocking probability
``(1 - rho) rho^K / (1 - rho^(K+1))`` (``1/(K+1)`` at ``rho = 1``, ``1 - 1/rho`` and more
beyond), negligible until ``rho`` nears 1 and then steep - the study's "up to 20 VMs at 40K
packets per second with less than 0.01% loss".

splitRxMode (``vm.split_rx``, VMXNET3 only) gives the vNIC its own context: its copies leave
the shared one and queue on their own, at :data:`SPLIT_COST` times the per-copy cost (the
study: fanning out "causes a slight increase in CPU consumption"; its test saw "no noticeable
difference").

Each receiver's guest spends :data:`GUEST_US_PER_PKT` of its vCPU per packet delivered (linear
in the packet rate, mcast-receiver-cpu-per-pps).  What the contexts deliver must also find CPU:
a receiver whose vCPUs cannot keep up, or a host whose cores the copies and the receivers
together exceed, drops the rest ('until host CPU, including the receivers' own, binds').  Costs
are microseconds of the reference core (models.core.platform), over the host's speed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from models.core import coefficients, uncertainty
from models.core.compiled import Compiled
from models.core.platform import compute
from models.core.prediction import Resource
from models.core.sections import Multicast, MulticastHost
from models.document.numbers import counted
from models.document.studies import MCAST

GUEST_US_PER_PKT = coefficients.declare(
    "multicast.guest_us_per_pkt", "us per packet of the reference core", 10.0,
    "Receiver vCPU time per multicast packet: '10-15% of its CPU for 10K packets per second'"
    " (mcast-receiver-cpu-per-pps); linearity in the packet rate is the check.  Prior: 10 us,"
    " a guest UDP receive.")
QUEUE_PACKETS = 256
"""Packets the replication context can hold waiting (a 256-entry receive ring); assumed."""
T_COPY_US = coefficients.declare(
    "multicast.t_copy_us", "us per copy of the reference core", 1.0,
    "Host time per copy of one packet to one receiver: the default context loses < 0.01% at"
    " 20 receivers x 40 Kpps and more at 21 (mcast-default-max-vms-40kpps: 'up to 20 VMs').  Prior:"
    " 1 us, a copy of an 800-byte packet and its vNIC descriptor.")
SPLIT_COST = 1.03
"""Per-copy cost in a split context relative to the shared one; assumed 'slight'
(mcast-splitrx-cpu-cost-claim: 'slight increase' in general, 'no noticeable difference' seen)."""
LOSS_MAX = 1e-4
"""The study's acceptable loss (0.01%)."""


@dataclass
class MulticastResult:
    vm_loss: np.ndarray
    """Fraction of each VM's multicast packets dropped by its replication context."""
    vm_copy_cores: np.ndarray
    """Host cores the copies to the VM take."""
    vm_guest_cores: np.ndarray
    """vCPU time the VM's guest spends receiving (cores)."""
    resources: list[Resource] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    section: Multicast | None = None


def loss_probability(rho: np.ndarray, k: int = QUEUE_PACKETS) -> np.ndarray:
    """M/M/1/K blocking probability at utilisation ``rho`` (a numerically safe form)."""
    r = np.asarray(rho, dtype=float)
    out = np.full(r.shape, 1.0 / (k + 1))
    lo = r < 1.0 - 1e-9
    hi = r > 1.0 + 1e-9
    rl = r[lo]
    out[lo] = (1.0 - rl) * rl ** k / (1.0 - rl ** (k + 1))
    inv = 1.0 / r[hi]  # divide through by rho^(K+1): stable for large rho
    out[hi] = (1.0 - inv) / (1.0 - inv ** (k + 1))
    return np.where(r <= 0.0, 0.0, out)


def solve(c: Compiled, pps: np.ndarray, vmxnet3: np.ndarray) -> MulticastResult:
    """Replication per host for VMs receiving ``pps`` multicast packets/s (0 for others)."""
    n, nh = len(c.vm), len(c.host)
    vm = c.vm.cols
    h = c.vm_host
    recv = (pps > 0) & (h >= 0)
    zero = np.zeros(n)
    res = MulticastResult(vm_loss=zero, vm_copy_cores=zero.copy(), vm_guest_cores=zero.copy())
    if not recv.any():
        return res
    hv = np.maximum(h, 0)
    scale = 1.0 / compute(c).speed[hv]  # reference-core time on this host's cores
    split = vm["split_rx"] & vmxnet3 & recv
    t_copy = T_COPY_US.value * 1e-6 * scale * np.where(split, SPLIT_COST, 1.0)
    busy = np.where(recv, pps * t_copy, 0.0)
    shared = recv & ~split
    rho_host = np.bincount(hv[shared], busy[shared], minlength=nh)
    rho = np.where(split, busy, rho_host[hv])
    loss = np.where(recv, loss_probability(rho), 0.0)
    guest_us = uncertainty.value("multicast.guest_us_per_pkt", recv)  # band: 10-15 us
    # what the contexts deliver must still find CPU: the receiver's own vCPUs, and the host's
    # cores shared by every copy and every receiver ('until host CPU binds')
    copy = busy * (1.0 - loss)
    guest = np.where(recv, pps * (1.0 - loss) * guest_us * 1e-6 * scale, 0.0)
    vcpu_frac = np.minimum(1.0, vm["vcpus"] / np.maximum(guest, 1e-300))
    cores = compute(c).cores
    need = np.bincount(hv[recv], (copy + guest)[recv], minlength=nh)
    host_frac = np.minimum(1.0, cores / np.maximum(need, 1e-300))
    frac = np.where(recv, np.minimum(vcpu_frac, host_frac[hv]), 1.0)
    loss = np.where(recv, 1.0 - (1.0 - loss) * frac, 0.0)
    res.vm_loss = loss
    res.vm_copy_cores = copy * frac
    res.vm_guest_cores = guest * frac
    host_loss = loss_probability(rho_host)
    ignored = vm["split_rx"] & ~vmxnet3 & recv
    for i in np.nonzero(ignored)[0].tolist():
        res.warnings.append(f"vm {c.vm.ids[i]}: splitRxMode needs a VMXNET3 vNIC; ignored")
    out: dict[str, MulticastHost] = {}
    for hi in np.unique(hv[recv]).tolist():
        mine = recv & (hv == hi)
        nsplit = int((mine & split).sum())
        worst = float(rho[mine].max())
        hid = c.host.ids[hi]
        out[hid] = MulticastHost(receivers=int(mine.sum()), split_contexts=nsplit,
                                 shared_context_util=float(rho_host[hi]),
                                 shared_context_loss=float(host_loss[hi]),
                                 copies_per_s=float(pps[mine].sum()),
                                 worst_loss=float(loss[mine].max()))
        what = (f"one context copies {float(pps[mine & ~split].sum()) / 1e3:.0f} Kpps to"
                f" {counted(int((mine & ~split).sum()), 'receiver')}" if nsplit == 0 else
                f"{counted(nsplit, 'receiver')} in their own splitRxMode contexts, the busiest"
                " context at"
                f" {worst:.0%}")
        res.resources.append(Resource(hid, "multicast_replication", min(worst, 1.0),
                                      f"{what}; loss {float(loss[mine].max()):.3%}",
                                      MCAST.title + " (mcast-default-max-vms-40kpps)"))
        if float(loss[mine].max()) > LOSS_MAX:
            hint = "" if nsplit else "; enable splitRxMode on the receivers' VMXNET3 vNICs"
            res.warnings.append(
                f"host {hid}: multicast replication loses {float(loss[mine].max()):.3%} of"
                f" packets (> 0.01%){hint} ({MCAST.title})")
    ids = np.nonzero(recv)[0].tolist()
    util = res.vm_guest_cores / vm["vcpus"]
    res.section = Multicast(hosts=out, vm_loss={c.vm.ids[i]: float(loss[i]) for i in ids},
                            vm_vcpu_util={c.vm.ids[i]: float(util[i]) for i in ids})
    return res
