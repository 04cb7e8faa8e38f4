"""What bounds each storage VM and the storage resources in the bottleneck list (labels
built from a small table, no per-VM Python loop).  Used by :mod:`models.subsystems.storage`."""

from __future__ import annotations

import numpy as np

from models.core.compiled import Compiled
from models.core.prediction import Resource
from models.document.studies import MILLION, RAIDPOOL, VAIO

BUSY = 0.9
"""A station at or above this utilisation names what bounds the VM."""


def _resources(c: Compiled, array_util: np.ndarray, hba_util: np.ndarray,
               vcpu_util: np.ndarray, active: np.ndarray, top: int = 8) -> list[Resource]:
    """array Resources for every array, hba for the ``top`` busiest hosts (as host_cpu) and
    vcpu_io for up to 200 VMs whose vCPUs are at least half busy issuing I/O."""
    array_text = ("Back-end drive time: disks x per-drive IOPS, writes multiplied by the RAID"
                  " penalty.")
    out = [Resource(aid, "array", u, array_text, RAIDPOOL.title)
           for aid, u in zip(c.array.ids, array_util.tolist(), strict=True)]
    hba_text = "Storage fabric: block size x IOPS against HBA ports x link speed."
    ids = c.host.ids
    on = np.flatnonzero(hba_util > 0)
    if len(on) > top:  # the busiest (the per-host arrays carry all of them)
        on = on[np.argsort(-np.round(hba_util[on], 6), kind="stable")[:top]]
    out += [Resource(ids[j], "hba", u, hba_text, MILLION.title)
            for j, u in zip(on.tolist(), np.minimum(hba_util[on], 1.0).tolist(), strict=True)]
    busy = np.flatnonzero(active & (vcpu_util >= 0.5))[:200]
    vcpu_text = ("The VM's vCPUs issue its I/O synchronously; one vCPU is one core's worth of"
                 " issue rate.")
    vm_ids = c.vm.ids
    out += [Resource(vm_ids[k], "vcpu_io", u, vcpu_text, VAIO.title)
            for k, u in zip(busy.tolist(), np.minimum(vcpu_util[busy], 1.0).tolist(),
                            strict=True)]
    return out


def _bound_labels(c: Compiled, top: np.ndarray, top_u: np.ndarray,
                  active: np.ndarray, no_path: np.ndarray, saturated_open: np.ndarray,
                  vcpus: np.ndarray, h: np.ndarray, a: np.ndarray, hba_util: np.ndarray,
                  array_util: np.ndarray) -> list[str]:
    """What bounds each VM, as a label picked from a small table (no per-VM Python loop)."""
    n = len(top)
    if n == 0:
        return []
    n_host, n_arr = len(c.host), len(c.array)
    max_v = int(vcpus.max())
    labels = ["", "no HBA port to the array", "open-loop saturation",
              "VAIO filter context: saturated", "per-VM I/O world (ESXi 5.0): saturated"]
    labels += [f"vCPU I/O path: {k} vCPU{'s' if k > 1 else ''} saturated"
               for k in range(1, max_v + 1)]
    base_h = len(labels)
    labels += [f"HBA {c.host.ids[j]}: {min(hba_util[j], 1.0) * 100:.0f}% busy"
               for j in range(n_host)]
    base_a = len(labels)
    labels += [f"storage_array {c.array.ids[j]}: {min(array_util[j], 1.0) * 100:.0f}% busy"
               for j in range(n_arr)]
    by_top = np.stack([4 + vcpus.astype(np.int64), np.full(n, 3), np.full(n, 4),
                       base_h + h, base_a + a])
    code = np.take_along_axis(by_top, top[None, :], axis=0)[0]
    code = np.where(active & (top_u >= BUSY), code, np.where(saturated_open, 2, 0))
    code = np.where(no_path, 1, code)
    out: list[str] = np.array(labels, dtype=object)[code].tolist()
    return out
