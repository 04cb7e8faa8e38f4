"""Fault Tolerance: logging bandwidth, stalls, output-commit latency. (stub)"""

from __future__ import annotations

import numpy as np

from models.compiled import Compiled
from models.results import FtResult, NetworkResult, StorageResult


def io_delay_ms(c: Compiled) -> np.ndarray:
    return np.zeros(len(c.vm))


def solve(c: Compiled, sto: StorageResult, net: NetworkResult) -> FtResult:
    n, h, k = len(c.vm), len(c.host), len(c.nic)
    return FtResult(vm_logging_mbps=np.zeros(n), vm_latency_add_ms=np.zeros(n),
                    vm_throughput_ratio=np.ones(n), host_logging_mbps=np.zeros(h),
                    nic_gbps=np.zeros(k), nic_util=np.zeros(k))
