"""What bounds each storage VM and the storage resources in the bottleneck list (labels
built from a small table, no per-VM Python loop).  Used by :mod:`models.subsystems.storage`."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from models.core.compiled import Compiled
from models.core.prediction import Resource
from models.core.results import StorageResult
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


def _application(c: Compiled, p: Any, out: StorageResult, users: np.ndarray,
                 served: np.ndarray) -> None:
    """Transactions of the application VMs from their I/O rate (``ios`` I/Os each), the
    response time by Little's law (``R = N / X - Z``), the guest CPU their work keeps busy and
    the network load their transactions carry."""
    v = c.vm.cols
    app = p.app & served
    x = out.vm_iops
    txn = np.where(app, x / p.ios, np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        resp = np.where(app & (x > 0), users * 1000.0 / np.maximum(txn, 1e-300)
                        - v["workload.app_think_ms"], np.nan)
    out.vm_txn_per_s = txn
    out.vm_txn_response_ms = np.maximum(resp, 0.0)
    done = np.nan_to_num(txn)
    out.vm_app_cores = done * v["workload.app_cpu_ms"] / 1000.0 * p.scale * 1e6
    out.app_net_mbps = (done * v["workload.app_rx_kb_per_txn"] * 8e-3,
                        done * v["workload.app_tx_kb_per_txn"] * 8e-3)
    # users the VM carries before its mean response reaches the response ceiling: past the
    # knee, R = N / X_max - Z (the asymptote of the closed loop), X_max = 1 / the busiest
    # station's demand per transaction; the ceiling's p95 taken as 3x the mean (ln 20, an
    # exponential response)
    per_txn = p.demand[:, :5] * p.ios[:, None]
    x_max = 1.0 / np.maximum(per_txn.max(axis=1), 1e-300)
    r_mean = c.policy["p95_ms_max"] / math.log(20.0) / 1000.0
    out.vm_max_users = np.where(app, x_max * (r_mean + v["workload.app_think_ms"] / 1000.0),
                                np.nan)


def _check_links(c: Compiled, active: np.ndarray, warnings: list[str]) -> None:
    n_host, n_arr = len(c.host), len(c.array)
    cache: dict[str, Any] = c.__dict__.setdefault("_storage_cache", {})
    unreachable = cache.get("unreachable")
    if unreachable is None:  # links never change under a knob patch
        src, dst = c.host_array_pairs()
        reach = np.zeros((max(n_host, 1), max(n_arr, 1)), bool)
        reach[src, dst] = True
        # A VM's disk on an array says its host reaches that array (vSphere runs a VM only
        # on a host that sees its datastore), so a host without storage links is not
        # warned about.  A host whose storage links name other arrays is: one of the two
        # declarations is wrong.  Placed VMs whose host links to arrays, but not to theirs:
        declared = np.any(reach, axis=1)
        host = np.maximum(c.vm_host, 0)
        unreachable = (c.vm_host >= 0) & (c.vm_array >= 0) & declared[host] \
            & ~reach[host, np.maximum(c.vm_array, 0)]
        cache["unreachable"] = unreachable = unreachable if unreachable.any() else False
    if unreachable is False:
        return
    bad = active & unreachable
    if not bad.any():
        return
    pairs = sorted({(int(hh), int(aa)) for hh, aa in zip(c.vm_host[bad], c.vm_array[bad],
                                                          strict=True)})
    for hh, aa in pairs[:5]:
        warnings.append(f"host {c.host.ids[hh]} runs VMs on array {c.array.ids[aa]} but its"
                        " storage links name other arrays (modelled as reachable)")
