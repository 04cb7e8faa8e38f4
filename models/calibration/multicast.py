"""Multicast calibration: 'Multicast Performance on vSphere 5.0' rebuilt as a design: a Dell
R810 (2 x 8-core Xeon E7-8837 2.67 GHz, no HT, 64 GB, ESXi 5.0) with a Broadcom 57711 10GbE,
1-vCPU RHEL receivers (VMXNET3) of 800-byte multicast packets from a sender on another host.

Fitted: the receiver's vCPU time per packet (12.5% per 10 Kpps) and the replication context's
per-copy cost (20 VMs at 40 Kpps is the most with < 0.01% loss).  Checked: linearity in the
packet rate, and splitRxMode's CPU cost ('slight', 'no noticeable difference').
"""

from __future__ import annotations

import numpy as np

from models.calibration import Check, middle, published, speed_of_host
from models.calibration.fit import Fitter
from models.calibration.network import Props, make_testbed
from models.core.sections import Multicast
from models.document.design import Design
from models.engine.evaluation import evaluate
from models.subsystems import multicast

R810: Props = {"sockets": 2, "cores_per_socket": 8, "ghz": 2.67, "hyperthreading": False,
               "cpu_model": "Intel Xeon E7-8837",
               "memory_gb": 64.0, "esxi_version": "5.0"}
BROADCOM: Props = {"speed_gbps": 10.0, "ports": 2, "pcie_gen": 2, "pcie_lanes": 8}


def receivers(n: int, kpps: float = 40.0, split: bool = False) -> Design:
    """``n`` 1-vCPU receivers of ``kpps`` x 1000 packets/s each on one R810."""
    vm: Props = {"vcpus": 1, "memory_gb": 1.0, "vnic": "vmxnet3", "guest_os": "linux",
                 "workload.profile": "multicast_rx", "workload.multicast_pps": kpps * 1000.0,
                 "workload.multicast_packet_bytes": 800.0, "workload.cpu_pct": 0.0,
                 "split_rx": split}
    return make_testbed(R810, [BROADCOM], [vm] * n, name=f"{n} multicast receivers")


def _mc(design: Design) -> Multicast:
    section = evaluate(design).sections.multicast  # the engine's run: what it saturates named
    assert section is not None, "a design of multicast receivers has a multicast section"
    return section


def vcpu_util(kpps: float) -> float:
    """The one receiver's vCPU utilisation at ``kpps``."""
    return float(_mc(receivers(1, kpps)).vm_vcpu_util["v1"])


def max_vms(kpps: float = 40.0, split: bool = False, most: int = 64) -> int:
    """Most receivers whose worst loss stays below 0.01%."""
    best = 0
    for n in range(1, most + 1):
        if max(_mc(receivers(n, kpps, split)).vm_loss.values()) >= multicast.LOSS_MAX:
            break
        best = n
    return best


def checks() -> list[Check]:
    out: list[Check] = []
    cpu = "mcast-receiver-cpu-per-pps"
    u10 = vcpu_util(10.0)
    out.append(Check(cpu, "receiver vCPU % for 10 Kpps", 12.5, 100.0 * u10, 0.2, "fit",
                     note="published 10-15% (middle 12.5, tolerance = the range)"))
    out.append(Check(cpu, "receiver vCPU at 40 Kpps / at 10 Kpps (linear: 4)", 4.0,
                     vcpu_util(40.0) / u10, 0.05, "check"))
    out.append(Check("mcast-default-max-vms-40kpps",
                     "most receivers at 40 Kpps with < 0.01% loss (default mode)", 20.0,
                     float(max_vms(40.0, most=36)), 0.0, "fit"))
    claim = "mcast-splitrx-cpu-cost-claim"
    off = float(evaluate(receivers(20)).hosts.cpu_util[0])
    on = float(evaluate(receivers(20, split=True)).hosts.cpu_util[0])
    out.append(Check(claim, "host CPU, splitRxMode on / off, 20 x 40 Kpps", 1.0, on / off,
                     0.02, "check", note="'no noticeable difference' in the test"))
    out.append(Check(claim, "host CPU, splitRxMode on / off: not lower", 1.0, on / off, 0.0,
                     "check", "gt", note="'a slight increase in CPU consumption'"))
    return out


def fit(f: Fitter) -> None:
    """Two closed forms, one published figure each."""
    cpu, most = "mcast-receiver-cpu-per-pps", "mcast-default-max-vms-40kpps"
    speed = speed_of_host(R810)  # times on the testbed's cores -> reference-core time
    f.closed(multicast.GUEST_US_PER_PKT, [cpu],
             lambda: middle(cpu, "pct_per_10kpps") / 100.0 / 10_000.0 * 1e6 * speed,
             note="the middle of the stated 10-15% of a vCPU per 10 Kpps")

    def t_copy() -> float:
        # the copy time at which the shared context's loss reaches 0.01% midway between the
        # largest count that stays below it and the next (loss rises steeply with load)
        n = float(published(most, "max_vms"))
        lo, hi = 0.5, 1.5
        for _ in range(80):
            mid = 0.5 * (lo + hi)
            lo, hi = (mid, hi) if multicast.loss_probability(np.array([mid]))[0] \
                < multicast.LOSS_MAX else (lo, mid)
        return 0.5 * (lo + hi) / ((n + 0.5) * 40_000.0) * 1e6 * speed

    f.closed(multicast.T_COPY_US, [most], t_copy,
             note="utilisation at 0.01% loss over 20.5 receivers x 40 Kpps (the study's host)")
