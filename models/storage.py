"""Storage: closed-loop MVA on outstanding I/Os. (stub)"""

from __future__ import annotations

import numpy as np

from models.compiled import Compiled
from models.results import StorageResult


def solve(c: Compiled, write_delay_ms: np.ndarray) -> StorageResult:
    n, a = len(c.vm), len(c.array)
    z = np.zeros(n)
    return StorageResult(vm_iops=z, vm_mbps=z, vm_latency_ms=z, vm_p95_ms=z, vm_read_mbps=z,
                         vm_cpu_cores=z, vm_cpu_cost_per_kiops=z, vm_bound_by=[""] * n,
                         array_iops=np.zeros(a), array_latency_ms=np.zeros(a),
                         array_util=np.zeros(a))
