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


def schweitzer_single(demand: np.ndarray, population: float,
                      delay: np.ndarray | None = None) -> MvaResult:
    """Schweitzer's approximate MVA for one class, solved to machine precision.

    With one class the fixed point reduces to one equation in the throughput ``X``: each
    queueing station's residence is ``R_m = D_m / (1 - a X D_m)``, ``a = (N - 1) / N``, and
    ``X (Z + sum R_m) = N`` is increasing in ``X`` below ``1 / (a max D)``: bisection finds it
    whatever the population (the iteration slows to a crawl near saturation).
    """
    d = np.asarray(demand, dtype=float)
    is_delay = np.zeros(len(d), bool) if delay is None else np.asarray(delay, bool)
    dq, z = np.where(is_delay, 0.0, d), float(d[is_delay].sum())
    n = float(population)
    a = (n - 1.0) / n if n > 0 else 0.0

    def total(x: float) -> float:
        return x * (z + float((dq / (1.0 - a * x * dq)).sum()))

    hi = n / max(z + float(dq.sum()), 1e-300)  # no queueing: the upper bound
    if a > 0 and dq.max() > 0:
        hi = min(hi, (1.0 - 1e-15) / (a * float(dq.max())))
    lo = 0.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if total(mid) < n:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-15 * hi:
            break
    x = 0.5 * (lo + hi)
    r = np.where(is_delay, d, dq / (1.0 - a * x * dq))
    return MvaResult(np.array([x]), np.array([r.sum()]), (x * r)[None, :], 0)


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
    A caller that solves the same network for many populations builds one
    :class:`SplitNetwork` and calls :meth:`SplitNetwork.solve` (the set-up is done once).
    """
    net = SplitNetwork(private, shared_station, shared, think, n_shared)
    return net.solve(pops, q0=q0, tol=tol, max_iter=max_iter, omega=omega)


ALIKE_MIN = 64
"""Classes below which :meth:`SplitNetwork._alike` does not look for classes alike."""
ALIKE_SHARE = 0.5
"""Solved one of each only when the groups are at most this share of the classes."""


class SplitNetwork:
    """The fixed part of a :func:`schweitzer_split` network (demands, stations, think times),
    laid out once: one contiguous row per station slot (private slots some class uses, then
    shared), so every operation of an iteration runs over long vectors and the per-class
    sum over slots adds whole rows."""

    def __init__(self, private: np.ndarray, shared_station: np.ndarray, shared: np.ndarray,
                 think: np.ndarray, n_shared: int):
        dp_all = np.asarray(private, dtype=float).T
        self.p_all, self.k_n = dp_all.shape
        self.used = np.flatnonzero(dp_all.any(axis=1))  # private slots no class uses: skipped
        ss = np.asarray(shared_station, dtype=np.int64).T
        self.s_n = ss.shape[0]
        self.pu = len(self.used)
        d = np.empty((self.pu + self.s_n, self.k_n))
        d[:self.pu] = dp_all[self.used]
        d[self.pu:] = np.where(ss >= 0, np.asarray(shared, dtype=float).T, 0.0)
        self.d = d
        self.z = np.asarray(think, dtype=float) + 1e-300
        self.idx = np.where(ss >= 0, ss, n_shared)  # a dummy station absorbs unused slots
        self.flat = self.idx.ravel()
        self.n_bins = n_shared + 1
        self.mult: np.ndarray | None = None
        """How many classes each class stands for (:meth:`_alike`); None: one each."""
        self.alike = self._alike()

    def _alike(self) -> tuple[np.ndarray, np.ndarray, SplitNetwork] | None:
        """Classes alike (the same demands, think time and stations: a design's identical
        VMs on one host) reach the same fixed point, so one of each is solved, standing for
        its number in the shared stations' totals: (first of each, class -> its group, the
        network of one each), or None when too few are alike to be worth it."""
        if self.k_n < ALIKE_MIN:
            return None
        key = np.vstack([self.d, self.z[None, :], self.idx.astype(float)])
        # one number per class (a fixed random projection), its equal checked in full below
        weights = np.random.default_rng(7).random(key.shape[0]) + 0.5
        _, first, inverse, counts = np.unique(weights @ key, return_index=True,
                                              return_inverse=True, return_counts=True)
        if len(first) > self.k_n * ALIKE_SHARE or not np.array_equal(key[:, first[inverse]],
                                                                      key):
            return None
        one = SplitNetwork.__new__(SplitNetwork)
        one.p_all, one.k_n, one.used, one.s_n, one.pu = (self.p_all, len(first), self.used,
                                                          self.s_n, self.pu)
        one.d, one.z, one.idx = self.d[:, first], self.z[first], self.idx[:, first]
        one.flat, one.n_bins = one.idx.ravel(), self.n_bins
        one.mult, one.alike = counts.astype(float), None
        return first, inverse, one

    def solve(self, pops: np.ndarray, q0: np.ndarray | None = None, tol: float = 1e-9,
              max_iter: int = 2000, omega: float = 1.4) -> MvaResult:
        """The fixed point for populations ``pops``; ``q0`` (``[K, P + S]``, e.g. an earlier
        result's ``queue``) warm-starts it."""
        n = np.asarray(pops, dtype=float)
        if self.alike is not None:
            first, inverse, one = self.alike
            if np.array_equal(n[first][inverse], n):  # alike classes, alike populations
                r = one.solve(n[first], None if q0 is None or q0.shape != (
                    self.k_n, self.p_all + self.s_n) else q0[first], tol, max_iter, omega)
                return MvaResult(r.throughput[inverse], r.response[inverse],
                                 r.queue[inverse], r.iterations)
        return self._solve(n, q0, tol, max_iter, omega)

    def _solve(self, n: np.ndarray, q0: np.ndarray | None, tol: float, max_iter: int,
               omega: float) -> MvaResult:
        d, pu, k_n, p_all = self.d, self.pu, self.k_n, self.p_all
        active = n > 0
        all_active = bool(active.all())
        inv_n = np.where(active, 1.0 / np.maximum(n, 1.0), 0.0)
        # arrival theorem (Schweitzer): an arrival sees its own class's queue scaled by
        # (N - 1)/N; at a shared station it sees every other class's queue in full, i.e. the
        # station total less 1/N of its own
        coef = np.empty_like(d)
        coef[:pu] = np.where(active, (n - 1.0) * inv_n, 0.0)
        coef[pu:] = -inv_n
        q = np.empty_like(d)
        if q0 is not None and q0.shape == (k_n, p_all + self.s_n):
            q[:pu] = q0[:, self.used].T
            q[pu:] = q0[:, p_all:].T
            q[d == 0.0] = 0.0
        else:
            q[:] = d / np.maximum(d.sum(axis=0), 1e-300) * n
        x = np.zeros(k_n)
        r = np.empty_like(d)
        step = np.empty_like(d)
        qs, rs = q[pu:], r[pu:]
        flat, idx, n_bins, z, mult = self.flat, self.idx, self.n_bins, self.z, self.mult
        it = 0
        prev = np.zeros(k_n)
        for it in range(1, max_iter + 1):
            # residence per slot: d (1 + seen queue); the private slots' own-class term and
            # the shared slots' total-less-own are both "coef x q" plus the station total
            np.multiply(q, coef, out=r)
            rs += np.bincount(flat, weights=(qs if mult is None else qs * mult).ravel(),
                              minlength=n_bins)[idx]
            r += 1.0
            r *= d
            x_new = n / (z + r.sum(axis=0))
            if not all_active:
                x_new[~active] = 0.0
            # over-relaxed update (omega > 1 roughly halves the iterations near saturation)
            np.multiply(r, x_new, out=step)
            step -= q
            step *= omega
            q += step
            np.maximum(q, 0.0, out=q)
            diff = np.abs(x_new - x)
            x = x_new
            # stop when the throughputs are within tol of the fixed point: the step times
            # r / (1 - r), r the contraction the last two steps show (a slow approach, as a
            # warm start near saturation makes, takes more steps; a fast one as many as before)
            if k_n == 0:
                break
            rate = np.minimum(diff / np.maximum(prev, 1e-300), 0.99) if it > 1 else 0.0
            if bool((diff * np.maximum(1.0, rate / (1.0 - rate)) <= tol * x_new).all()) \
                    and _settled(step, q, omega, tol):
                break
            prev = diff
        queue = np.zeros((p_all + self.s_n, k_n))
        queue[self.used] = r[:pu] * x
        queue[p_all:] = r[pu:] * x
        return MvaResult(x, r.sum(axis=0), queue.T, it)


def _settled(step: np.ndarray, q: np.ndarray, omega: float, tol: float) -> bool:
    """Whether the queues have stopped moving too: the last update (``step``, over-relaxed by
    ``omega``) moved no queue by more than a tenth of ``tol`` of its length (or of one
    customer; a tenth, as the steps still to come add up to several of the last).  A
    throughput can stand still while a queue that barely weighs on it still moves; the
    latencies read the queues, so a warm start and a cold one must agree on them."""
    return bool((np.abs(step) <= 0.1 * omega * tol * np.maximum(q, 1.0)).all())
