"""Consolidation: host CPU and memory, web response times, VMs per host. (stub)"""

from __future__ import annotations

import numpy as np

from models.compiled import Compiled
from models.prediction import Consolidation
from models.results import ConsolidationResult, FtResult, NetworkResult, StorageResult


def solve(c: Compiled, sto: StorageResult, net: NetworkResult,
          fto: FtResult) -> ConsolidationResult:
    n, h = len(c.vm), len(c.host)
    return ConsolidationResult(
        vm_cpu_util=np.zeros(n), vm_response_ms=np.full(n, np.nan),
        vm_response_p95_ms=np.full(n, np.nan), host_cpu_util=np.zeros(h),
        host_memory_util=np.zeros(h), host_dense_active=np.zeros(h, bool),
        consolidation=Consolidation(0.0, None, None, None, None))
