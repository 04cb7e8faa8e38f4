"""Growth over years: the design's demand compounded to ``design.growth.year``.

``design.growth.cpu_pct``, ``memory_pct``, ``storage_pct``, ``iops_pct`` and ``vms_pct`` are
compound rates a year; ``design.growth.year`` (0 = today, fractional allowed) is the year the
design is evaluated in.  A resource's factor is ``(1 + rate)^year`` times the VM count's
``(1 + vms_pct)^year``: new VMs of the average size in their clusters add their share to every
resource, which is each VM standing for that many VMs of its own kind (the totals, and so
hosts needed, are the same; the vCPU:core and configured-memory ratios count the VMs there
are).

Growth scales the columns that hold demand, measured or designed alike, when the design is
compiled (and again, by the ratio of the new factor to the old, when a knob moves a rate or
the year): every figure the engine computes from them follows (CPU, memory, storage used,
IOPS and latency, network).  What each resource scales:

* ``cpu``: a VM's CPU share (``workload.cpu_pct``), the request rate of a web VM, an
  application VM's CPU per transaction, a host's background CPU;
* ``memory``: the memory a VM holds (``workload.memory_gb`` where measured, else its
  configured memory), a host's background memory;
* ``storage``: a VM's disk space used and provisioned, an array's recorded used and
  provisioned space;
* ``iops``: a VM's measured I/O rate, a host's background I/O, and a VM's network traffic
  (streams, multicast, PCoIP).

Nothing here is fitted: it is the compound-growth convention of the sizers
(``../shared/reference/vsan-sizing.md``, "Growth conventions").
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

RESOURCES = ("cpu", "memory", "storage", "iops", "vms")
"""The rates ``design.growth.<resource>_pct``."""

COLUMNS: dict[tuple[str, str], str] = {
    ("vm", "workload.cpu_pct"): "cpu",
    ("vm", "workload.req_per_s"): "cpu",
    ("vm", "workload.app_cpu_ms"): "cpu",
    ("host", "background.cpu_cores"): "cpu",
    ("vm", "workload.memory_gb"): "memory",
    ("vm", "memory_gb"): "memory",
    ("host", "background.memory_gb"): "memory",
    ("vm", "disk.used_gb"): "storage",
    ("vm", "disk.provisioned_gb"): "storage",
    ("storage_array", "used_gb"): "storage",
    ("storage_array", "provisioned_gb"): "storage",
    ("vm", "workload.io_iops"): "iops",
    ("vm", "workload.net_rx_mbps"): "iops",
    ("vm", "workload.net_tx_mbps"): "iops",
    ("vm", "workload.multicast_pps"): "iops",
    ("vm", "workload.pcoip_kbps"): "iops",
    ("host", "background.iops"): "iops",
}
"""Each column growth scales, and the resource whose factor it takes."""

def factors(policy: Mapping[str, float]) -> dict[str, float]:
    """Each resource's factor at ``growth.year`` (the VM count's folded into each)."""
    year = float(policy.get("growth.year", 0.0))
    vms = (1.0 + float(policy.get("growth.vms_pct", 0.0)) / 100.0) ** year
    return {r: vms * (1.0 + float(policy.get(f"growth.{r}_pct", 0.0)) / 100.0) ** year
            for r in RESOURCES if r != "vms"}


def scale(cols: Mapping[tuple[str, str], np.ndarray], ratio: Mapping[str, float],
          held: np.ndarray | None) -> list[tuple[str, str]]:
    """Multiply each grown column of ``cols`` (by (kind, property)) in place by its
    resource's ``ratio``; a VM's configured memory only where ``held`` (its own memory held)
    is NaN.  The columns changed."""
    out = []
    for key, resource in COLUMNS.items():
        r = ratio.get(resource, 1.0)
        col = cols.get(key)
        if col is None or r == 1.0 or not len(col):
            continue
        if key == ("vm", "memory_gb") and held is not None:
            col[np.isnan(held)] *= r
        else:
            col *= r
        out.append(key)
    return out


def ratios(old: Mapping[str, float], new: Mapping[str, float]) -> dict[str, float]:
    """The factor to move columns grown by ``old`` to ``new``."""
    return {r: new[r] / old[r] for r in new if old.get(r, 1.0) > 0}
