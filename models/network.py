"""Network: the tightest of line rate, PCIe slot, per-stream and CPU limits. (stub)"""

from __future__ import annotations

import numpy as np

from models.compiled import Compiled
from models.results import NetworkResult


def solve(c: Compiled) -> NetworkResult:
    n, k = len(c.vm), len(c.nic)
    return NetworkResult(vm_rx_mbps=np.zeros(n), vm_tx_mbps=np.zeros(n),
                         vm_cpu_cores=np.zeros(n), vm_bound_by=[""] * n,
                         nic_gbps=np.zeros(k), nic_util=np.zeros(k))
