"""A host's background I/O: what it recorded beyond its VMs' measured I/O, as open-loop load
on the arrays it reaches (issue 36).

A host's ``background.iops`` (the baseline solves it: :mod:`models.analysis.baseline`) is
the hypervisor's own I/O and that of VMs whose own I/O is not measured or not listed.  It is
offered to the storage model (:mod:`models.subsystems.storage`) as open-loop load, as a
measured VM's I/O is, at ``background.read_pct`` reads of ``background.io_kb`` each (null:
a VM's defaults, 70 % and 8 KB), split over the host's arrays:

* by its VMs' I/O there (their offered IOPS on each array: where the host's VMs do their
  I/O, its own goes too);
* else evenly over the arrays its ``storage`` links name;
* else evenly over the arrays of its VMs' disks;
* else nowhere: the engine warns, and the background is not charged.

It visits the host's HBA and each array (a vSAN cluster's datastore at its cluster's default
policy), takes its share of their utilisation, slows the VMs that share them and counts in
the arrays' IOPS and latency and in the design's total IOPS.  It charges no host CPU: the
host's recorded CPU already holds it (on a partial host, its background CPU).  A write's
inter-site and FT delays are the VMs' own and are not added to it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.core.compiled import Compiled
from models.document.schema import VM

READ_PCT = float(VM.props["workload.io_read_pct"].default or 70.0)
IO_KB = float(VM.props["workload.io_block_kb"].default or 8.0)
"""The mix of a background whose read share or size nothing recorded: a VM's defaults."""


@dataclass
class Pairs:
    """Each host's background split over its arrays: one row per (host, array)."""

    host: np.ndarray
    array: np.ndarray
    rate: np.ndarray
    """Offered IOPS of the row."""
    read: np.ndarray
    """Read share (fraction)."""
    bs_kb: np.ndarray
    unreached: list[int]
    """Hosts with background I/O and no array to put it on."""


@dataclass
class Background:
    """:class:`Pairs` with the demand each of their I/Os puts on the shared stations."""

    pairs: Pairs
    hba: np.ndarray
    """HBA/fabric time per I/O (s)."""
    aq: np.ndarray
    """The array's queueing demand per I/O (Seidmann's queue part, s)."""
    ad: np.ndarray
    """The array's delay part per I/O (s)."""
    work: np.ndarray
    """Drive work per I/O (per-drive time x back-end I/Os), over the array's drives its
    utilisation."""

    @property
    def host(self) -> np.ndarray:
        return self.pairs.host

    @property
    def array(self) -> np.ndarray:
        return self.pairs.array

    @property
    def rate(self) -> np.ndarray:
        return self.pairs.rate


def pairs(c: Compiled) -> Pairs | None:
    """Each host's ``background.iops`` split over the arrays it reaches (see the module
    docstring); None where no host has any."""
    n_host, n_arr = len(c.host), len(c.array)
    if not n_host:
        return None
    cols = c.host.cols
    total = np.nan_to_num(cols["background.iops"])
    hosts = np.flatnonzero(total > 0)
    if not len(hosts):
        return None
    if not n_arr:
        return _empty(hosts.tolist())
    want = np.zeros(n_host, bool)
    want[hosts] = True
    on = (c.vm_host >= 0) & (c.vm_array >= 0)
    on[on] = want[c.vm_host[on]]
    vh, va = c.vm_host[on], c.vm_array[on]
    io = np.nan_to_num(c.vm.cols["workload.io_iops"][on])
    # by the VMs' I/O on each array
    keys, inv = np.unique(vh * n_arr + va, return_inverse=True)
    weight = np.bincount(inv, io, len(keys)) if len(keys) else np.zeros(0)
    h, a = keys // n_arr, keys % n_arr
    by_io = np.bincount(h, weight, n_host)
    rows = [(h[weight > 0], a[weight > 0], weight[weight > 0] / by_io[h[weight > 0]])]
    # else evenly over its storage links, else over its VMs' arrays
    rest = want & (by_io <= 0)
    src, dst = c.host_array_pairs()
    linked = rest[src]
    ls, ld = np.unique(np.stack([src[linked], dst[linked]]), axis=1) if linked.any() \
        else (np.zeros(0, np.int64), np.zeros(0, np.int64))
    rows.append((ls, ld, 1.0 / np.bincount(ls, minlength=n_host)[ls]))
    rest[ls] = False
    vm_rest = rest[h]
    vs, vd = h[vm_rest], a[vm_rest]
    rows.append((vs, vd, 1.0 / np.bincount(vs, minlength=n_host)[vs]))
    rest[vs] = False
    ph = np.concatenate([r[0] for r in rows]).astype(np.int64)
    pa = np.concatenate([r[1] for r in rows]).astype(np.int64)
    share = np.concatenate([r[2] for r in rows])
    read = cols["background.read_pct"][ph]
    kb = cols["background.io_kb"][ph]
    return Pairs(ph, pa, total[ph] * share,
                 np.where(np.isnan(read), READ_PCT, read) / 100.0,
                 np.where(np.isnan(kb), IO_KB, kb), np.flatnonzero(rest).tolist())


def _empty(unreached: list[int]) -> Pairs:
    z = np.zeros(0)
    return Pairs(np.zeros(0, np.int64), np.zeros(0, np.int64), z, z, z, unreached)


def warnings(c: Compiled, bg: Background | None, served: np.ndarray) -> list[str]:
    """What the engine says of the background: hosts whose arrays cannot serve it all (it is
    capped), and hosts that reach no array."""
    if bg is None:
        return []
    out = []
    capped = sorted({int(j) for j in bg.host[served < bg.rate * (1.0 - 1e-9)]})
    names = c.names
    if capped:
        out.append("background I/O of host " + ", ".join(names.get(c.host.ids[j], c.host.ids[j])
                                                         for j in capped[:5])
                   + (" ..." if len(capped) > 5 else "")
                   + " offers more than its arrays can serve: capped at saturation")
    if bg.pairs.unreached:
        out.append("background I/O of host " + ", ".join(
            names.get(c.host.ids[j], c.host.ids[j]) for j in bg.pairs.unreached[:5])
            + (" ..." if len(bg.pairs.unreached) > 5 else "")
            + " reaches no array (no storage link, no VM disk): not charged")
    return out
