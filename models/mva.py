"""Mean Value Analysis of closed product-form queueing networks.

Stations are load-independent queueing stations (one server, FCFS or processor sharing) or
delay stations (infinite servers).  A multi-server station is approximated after Seidmann
(:func:`seidmann`): one queueing station with the demand divided by the server count plus a
delay of the rest.  References: Reiser & Lavenberg (1980) for the exact recursions, Schweitzer
(1979) for the approximation, Lazowska et al., *Quantitative System Performance* (1984), ch. 6-7.

Notation: ``demand[k, m]`` is the service demand (visits x service time) of class ``k`` at
station ``m``; ``pops[k]`` the class population; ``think[k]`` its think time (a delay outside
the stations).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np


@dataclass
class MvaResult:
    throughput: np.ndarray
    """Per class (or per population for the single-class recursion)."""
    response: np.ndarray
    """Per class: time through all stations (think time excluded)."""
    queue: np.ndarray
    """Mean number of customers of each class at each station, ``[k, m]``."""
    iterations: int = 0


def seidmann(demand: np.ndarray, servers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Seidmann, Schweitzer & Shalev-Oren (1987): an ``m``-server station of demand ``D``
    behaves like a queueing station of demand ``D/m`` followed by a delay of ``D(m-1)/m``.

    Returns ``(queueing_demand, delay_demand)``.
    """
    m = np.maximum(np.asarray(servers, dtype=float), 1.0)
    d = np.asarray(demand, dtype=float)
    return d / m, d * (m - 1.0) / m


def exact_single(demand: np.ndarray, population: int, think: float = 0.0,
                 delay: np.ndarray | None = None) -> MvaResult:
    """Exact single-class MVA for populations ``1..population``.

    Returns throughput and response per population (index ``n-1``) and the queue lengths at
    the full population (shape ``[1, M]``).
    """
    d = np.asarray(demand, dtype=float)
    is_delay = np.zeros(len(d), bool) if delay is None else np.asarray(delay, bool)
    q = np.zeros(len(d))
    xs, rs = np.zeros(population), np.zeros(population)
    for n in range(1, population + 1):
        r = np.where(is_delay, d, d * (1.0 + q))
        x = n / (think + r.sum())
        q = x * r
        xs[n - 1], rs[n - 1] = x, r.sum()
    return MvaResult(xs, rs, q[None, :], population)


def exact_multi(demand: np.ndarray, pops: np.ndarray, think: np.ndarray | None = None,
                delay: np.ndarray | None = None) -> MvaResult:
    """Exact multi-class MVA (Reiser-Lavenberg recursion over every population vector).

    The cost grows as the product of ``pops + 1``: keep populations small.
    """
    d = np.asarray(demand, dtype=float)
    k_n, m_n = d.shape
    pops_t = tuple(int(p) for p in pops)
    z = np.zeros(k_n) if think is None else np.asarray(think, dtype=float)
    is_delay = np.zeros(m_n, bool) if delay is None else np.asarray(delay, bool)
    queues: dict[tuple[int, ...], np.ndarray] = {tuple([0] * k_n): np.zeros(m_n)}
    x = np.zeros(k_n)
    r_tot = np.zeros(k_n)
    q_km = np.zeros((k_n, m_n))
    for vec in sorted(itertools.product(*(range(p + 1) for p in pops_t)), key=sum):
        if sum(vec) == 0:
            continue
        x = np.zeros(k_n)
        r_km = np.zeros((k_n, m_n))
        for k in range(k_n):
            if vec[k] == 0:
                continue
            prev = list(vec)
            prev[k] -= 1
            q_prev = queues[tuple(prev)]
            r_km[k] = np.where(is_delay, d[k], d[k] * (1.0 + q_prev))
            x[k] = vec[k] / (z[k] + r_km[k].sum())
        q_km = x[:, None] * r_km
        queues[vec] = q_km.sum(axis=0)
        r_tot = r_km.sum(axis=1)
    return MvaResult(x, r_tot, q_km, 1)


def schweitzer_sparse(station: np.ndarray, demand: np.ndarray, pops: np.ndarray,
                      think: np.ndarray, n_stations: int, delay: np.ndarray,
                      q0: np.ndarray | None = None, tol: float = 1e-7,
                      max_iter: int = 500) -> MvaResult:
    """Schweitzer's approximate multi-class MVA, vectorised over classes.

    Each class visits at most ``J`` stations: ``station[k, j]`` is the station index (``-1``
    for none) and ``demand[k, j]`` the demand there; ``delay[m]`` marks delay stations.
    Many classes can share a station (an array, an HBA) while most stations serve one class
    (a VM's own vCPU path), so the queue arrays stay ``[K, J]``, not ``[K, M]``.

    ``q0`` (same shape as ``demand``) warm-starts the fixed point, e.g. from the previous
    solution after a knob change.  The result's ``queue`` is ``[K, J]``.
    """
    st = np.asarray(station, dtype=np.int64)
    d = np.where(st >= 0, np.asarray(demand, dtype=float), 0.0)
    n = np.asarray(pops, dtype=float)
    z = np.asarray(think, dtype=float)
    k_n = d.shape[0]
    idx = np.where(st >= 0, st, n_stations)  # a dummy station absorbs unused slots
    flat = idx.ravel()
    is_delay = np.append(np.asarray(delay, bool), True)[idx]
    active = n > 0
    inv_n = np.where(active, 1.0 / np.maximum(n, 1.0), 0.0)[:, None]
    if q0 is not None and q0.shape == d.shape:
        q = np.where(d > 0, q0, 0.0)
    else:
        share = d / np.maximum(d.sum(axis=1, keepdims=True), 1e-300)
        q = share * n[:, None]
    x = np.zeros(k_n)
    r = d.copy()
    it = 0
    for it in range(1, max_iter + 1):  # noqa: B007
        tot = np.bincount(flat, weights=q.ravel(), minlength=n_stations + 1)[idx]
        # arrival theorem (Schweitzer): a class-k arrival sees the others' queue in full and
        # its own class's queue scaled by (N_k - 1)/N_k
        seen = tot - q * inv_n
        r = np.where(is_delay, d, d * (1.0 + np.maximum(seen, 0.0)))
        rt = r.sum(axis=1)
        x = np.where(active, n / np.maximum(z + rt, 1e-300), 0.0)
        q_new = x[:, None] * r
        err = np.max(np.abs(q_new - q)) if q.size else 0.0
        q = q_new
        if err <= tol * max(1.0, float(n.max(initial=1.0))):
            break
    return MvaResult(x, r.sum(axis=1), q, it)


def schweitzer(demand: np.ndarray, pops: np.ndarray, think: np.ndarray | None = None,
               delay: np.ndarray | None = None, tol: float = 1e-10,
               max_iter: int = 10000) -> MvaResult:
    """Schweitzer's approximate MVA on a dense ``[K, M]`` demand matrix."""
    d = np.asarray(demand, dtype=float)
    k_n, m_n = d.shape
    station = np.tile(np.arange(m_n), (k_n, 1))
    z = np.zeros(k_n) if think is None else np.asarray(think, dtype=float)
    dl = np.zeros(m_n, bool) if delay is None else np.asarray(delay, bool)
    return schweitzer_sparse(station, d, np.asarray(pops, float), z, m_n, dl, tol=tol,
                             max_iter=max_iter)


def schweitzer_split(private: np.ndarray, shared_station: np.ndarray, shared: np.ndarray,
                     pops: np.ndarray, think: np.ndarray, n_shared: int,
                     q0: np.ndarray | None = None, tol: float = 1e-9,
                     max_iter: int = 2000, omega: float = 1.4) -> MvaResult:
    """Schweitzer's MVA for networks where each class has its own single-class stations
    (``private[k, p]``, queueing) and visits a few stations shared with other classes
    (``shared_station[k, s]`` with demand ``shared[k, s]``; ``-1`` for none).  Delays go in
    ``think``.  Same fixed point as :func:`schweitzer_sparse`, with fewer operations per
    iteration: only the shared stations need a scatter-add.

    ``queue`` in the result is ``[K, P + S]`` (private then shared); pass it back as ``q0``.
    Convergence: the largest relative change of any class's throughput below ``tol``.
    ``omega`` over-relaxes the queue update (1 is plain successive substitution).
    """
    # work on transposed copies: one contiguous row per station slot, so every operation
    # runs over long vectors and sums over slots add whole rows
    dp_all = np.asarray(private, dtype=float).T
    used = np.flatnonzero(dp_all.any(axis=1))  # private slots no class uses are skipped
    dp = np.ascontiguousarray(dp_all[used])
    ss = np.ascontiguousarray(np.asarray(shared_station, dtype=np.int64).T)
    ds = np.ascontiguousarray(np.where(ss >= 0, np.asarray(shared, dtype=float).T, 0.0))
    n = np.asarray(pops, dtype=float)
    z = np.asarray(think, dtype=float)
    p_all, k_n = dp_all.shape
    idx = np.where(ss >= 0, ss, n_shared)
    flat = idx.ravel()
    active = n > 0
    inv_n = np.where(active, 1.0 / np.maximum(n, 1.0), 0.0)
    own = np.where(active, (n - 1.0) * inv_n, 0.0)
    if q0 is not None and q0.shape == (k_n, p_all + ds.shape[0]):
        qp = np.ascontiguousarray(q0[:, used].T)
        qs = np.where(ds > 0, q0[:, p_all:].T, 0.0)
    else:
        tot_d = np.maximum(dp.sum(axis=0) + ds.sum(axis=0), 1e-300)
        qp, qs = dp / tot_d * n, ds / tot_d * n
    x = np.zeros(k_n)
    rp, rs = dp, ds
    it = 0
    for it in range(1, max_iter + 1):  # noqa: B007
        tot = np.bincount(flat, weights=qs.ravel(), minlength=n_shared + 1)[idx]
        rs = ds * (1.0 + tot - qs * inv_n)
        rp = dp * (1.0 + qp * own)
        x_new = n / (z + rp.sum(axis=0) + rs.sum(axis=0) + 1e-300)
        x_new[~active] = 0.0
        # over-relaxed update (omega > 1 roughly halves the iterations near saturation)
        qp = np.maximum(qp + omega * (x_new * rp - qp), 0.0)
        qs = np.maximum(qs + omega * (x_new * rs - qs), 0.0)
        change = np.abs(x_new - x) / np.maximum(x_new, 1e-300)
        x = x_new
        if k_n == 0 or change.max() <= tol:
            break
    queue = np.zeros((k_n, p_all + ds.shape[0]))
    queue[:, used] = (x * rp).T
    queue[:, p_all:] = (x * rs).T
    return MvaResult(x, rp.sum(axis=0) + rs.sum(axis=0), queue, it)
