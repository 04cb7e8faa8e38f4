"""The storage model's queueing-network plumbing: open classes' load on the shared stations,
warm starts along a slider drag, the closed network solved (exact MVA for one class,
Schweitzer's approximation for many) and Storage I/O Control's share of the queue.  Used by
:mod:`models.subsystems.storage`; moved here to keep that module readable."""

from __future__ import annotations

from typing import Any

import numpy as np

from models.core.compiled import Compiled
from models.subsystems import mva
from models.subsystems.storage_background import Background

EXACT_MAX_POP = 4096
"""A lone VM with at most this many outstanding I/Os is solved with exact MVA."""
SIOC_THRESHOLD_MS = 30.0
"""SIOC congestion threshold (vSphere default)."""


def _open_load(demand: np.ndarray, lam: np.ndarray, open_: np.ndarray, h: np.ndarray,
               a: np.ndarray, n_host: int, n_arr: int, bg: Background | None = None
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Open classes take utilisation U from the shared stations they visit (their own
    stations only slow themselves), and so does the hosts' background I/O (``bg``).  Offers
    beyond 98% of a station are scaled down.  Returns (served rates, closed-demand inflation
    1/(1-U) per slot, saturated mask, the background's served rates and its inflation at
    its array)."""
    def util(rates: np.ndarray, bg_rates: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        load = rates[:, None] * demand
        u_h, u_a = np.bincount(h, load[:, 3], n_host), np.bincount(a, load[:, 4], n_arr)
        if bg is not None:
            u_h += np.bincount(bg.host, bg_rates * bg.hba, len(u_h))
            u_a += np.bincount(bg.array, bg_rates * bg.aq, len(u_a))
        return u_h, u_a

    bg_lam = bg.rate if bg is not None else np.zeros(0)
    own = (lam[:, None] * demand[:, :3]).max(axis=1)
    u_h, u_a = util(lam, bg_lam)
    worst = np.maximum(np.maximum(u_h[h], u_a[a]), own)
    f = np.where(open_ & (worst > 0.98), 0.98 / np.maximum(worst, 1e-300), 1.0)
    lam = lam * f
    if bg is not None:
        bg_worst = np.maximum(u_h[bg.host], u_a[bg.array])
        bg_lam = bg_lam * np.where(bg_worst > 0.98, 0.98 / np.maximum(bg_worst, 1e-300), 1.0)
    u_h, u_a = util(lam, bg_lam)
    infl = np.ones_like(demand)
    infl[:, 3] = 1.0 / (1.0 - u_h[h])
    infl[:, 4] = 1.0 / (1.0 - u_a[a])
    infl[:, :3] = np.where(open_[:, None], 1.0 / (1.0 - lam[:, None] * demand[:, :3]), 1.0)
    bg_infl = 1.0 / (1.0 - u_a[bg.array]) if bg is not None else np.zeros(0)
    return lam, infl, f < 1.0, bg_lam, bg_infl


def _warm_start(hist: tuple[Any, ...] | None, pops: np.ndarray,
                live: np.ndarray) -> np.ndarray | None:
    """A first guess of the queues ``[L, 5]`` of the classes ``live`` at populations ``pops``
    from the last two solutions ``(live, queue, pops, older queue, older pops)``: when the
    populations move along the line of the last move (a slider drag, a jump back) the guess
    continues the line through the last two solutions (secant); otherwise each class keeps
    its last queues scaled to its new population.  Only the number of iterations depends on
    the guess, never the fixed point."""
    if hist is None:
        return None
    h_live, q_last, p_last, q_prev, p_prev = hist
    if len(h_live) != len(live) or not np.array_equal(h_live, live):
        # classes started or stopped doing I/O: carry each VM's last queues over
        if not len(h_live) or not len(live):
            return None
        pos = np.minimum(np.searchsorted(h_live, live), len(h_live) - 1)
        found = h_live[pos] == live
        q_t = np.zeros((q_last.shape[1], len(live)))
        q_t[:, found] = q_last.T[:, pos[found]]
        p_old = np.zeros(len(live))
        p_old[found] = p_last[pos[found]]
        q_last, p_last, q_prev = q_t.T, p_old, None
    last_t = q_last.T
    if q_prev is not None and q_prev.shape == q_last.shape:
        moved = p_last - p_prev
        step = pops - p_last
        m = moved != 0.0
        t = step[m] / moved[m]
        # one common step along the last move (every class that moves, moves alike; the
        # classes interact, so a line per class would not be one through two solutions)
        if len(t) and abs(t[0]) <= 2.0 and np.abs(t - t[0]).max() <= 1e-9 * abs(t[0]) \
                and not step[~m].any():
            guess = last_t - q_prev.T
            guess *= t[0]
            guess += last_t
            np.maximum(guess, 0.0, out=guess)
            out: np.ndarray = guess.T
            return out
    scale = np.where(p_last > 0, pops / np.maximum(p_last, 1e-300), 0.0)
    scaled: np.ndarray = (last_t * scale).T
    return scaled


def _solve_live(d: np.ndarray, shared_st: np.ndarray, pops: np.ndarray, live: np.ndarray,
                n_shared: int, q0: np.ndarray | None,
                cache: dict[str, Any] | None = None) -> mva.MvaResult:
    """The closed network of the classes ``live`` (populations ``pops``, all > 0); the result
    is indexed like ``live``.  Slots 0-2 are the VM's own stations, 3-4 shared (HBA, array),
    5 a delay.  One class alone is solved exactly (single-class MVA), several with
    Schweitzer's approximation.  ``cache`` keeps the laid-out network between calls with the
    same demands and the same classes (a knob that moves only populations)."""
    k_n = len(live)
    # exact MVA needs a whole population; SIOC's share of the queue can be fractional
    if k_n == 1:
        k = int(live[0])
        dk = d[k].copy()
        dk[3:5] = np.where(shared_st[k] >= 0, dk[3:5], 0.0)
        if pops[0] <= EXACT_MAX_POP and float(pops[0]).is_integer():
            ex = mva.exact_single(dk, int(pops[0]), delay=np.arange(6) == 5)
        else:  # beyond exact MVA's reach: Schweitzer's one equation, solved exactly
            ex = mva.schweitzer_single(dk, float(pops[0]), delay=np.arange(6) == 5)
        return mva.MvaResult(ex.throughput[-1:], ex.response[-1:], ex.queue[:, :5])
    hit = cache.get("mva.network") if cache is not None else None
    if hit is not None and hit[0] is d and hit[1] is shared_st and np.array_equal(hit[2], live):
        net: mva.SplitNetwork = hit[3]
    else:
        net = mva.SplitNetwork(d[live, :3], shared_st[live], d[live, 3:5], d[live, 5],
                               n_shared)
        if cache is not None:
            cache["mva.network"] = (d, shared_st, live, net)
    # a few classes converge to the fixed point tightly (cheap); thousands to 2e-8
    return net.solve(pops, q0=q0, tol=1e-12 if k_n <= 4 else 2e-8)


def _expand(res: mva.MvaResult, live: np.ndarray, n: int) -> mva.MvaResult:
    """A result of the classes ``live`` as one over all ``n`` (zeros for the others)."""
    queue_t = np.zeros((res.queue.shape[1], n))
    queue_t[:, live] = res.queue.T
    out = mva.MvaResult(np.zeros(n), np.zeros(n), queue_t.T, res.iterations)
    out.throughput[live], out.response[live] = res.throughput, res.response
    return out


def _solve_closed(d: np.ndarray, shared_st: np.ndarray, pops: np.ndarray, n_shared: int,
                  q0: np.ndarray | None,
                  cache: dict[str, Any] | None = None) -> mva.MvaResult:
    """:func:`_solve_live` over the classes with a population, as a result over all."""
    live = np.flatnonzero(pops > 0)
    sub = _solve_live(d, shared_st, pops[live], live, n_shared,
                      None if q0 is None else q0[live], cache)
    return _expand(sub, live, len(pops))


def _sioc(c: Compiled, d: np.ndarray, shared_st: np.ndarray, pops: np.ndarray,
          res: mva.MvaResult, closed: np.ndarray, a: np.ndarray,
          arr_delay: np.ndarray,
          cache: dict[str, Any] | None = None) -> tuple[np.ndarray, mva.MvaResult]:
    """Storage I/O Control: under congestion (array latency above the threshold) each VM may
    keep only its share of the queue that holds latency at the threshold; VMs that want
    less leave their unused slots to the others (work-conserving water-filling)."""
    n_arr = len(c.array)
    x_k = res.throughput
    q_arr = res.queue[:, 4] + x_k * arr_delay  # in service at the drives + queued
    arr_q = np.bincount(a[closed], weights=q_arr[closed], minlength=n_arr)
    arr_x = np.bincount(a[closed], weights=x_k[closed], minlength=n_arr)
    lat = np.where(arr_x > 0, arr_q / np.maximum(arr_x, 1e-300), 0.0)
    congested = c.array.cols["sioc"] & (lat * 1000.0 > SIOC_THRESHOLD_MS)
    if not congested.any():
        return pops, res
    eff = pops.copy()
    shares = c.vm.cols["disk_shares"].astype(float)
    for j in np.flatnonzero(congested):
        members = np.flatnonzero(closed & (a == j))
        slots = arr_x[j] * SIOC_THRESHOLD_MS / 1000.0
        want = q_arr[members].copy()
        cap = np.zeros(len(members))
        left = np.ones(len(members), bool)
        remaining = slots
        while left.any() and remaining > 1e-12:
            ent = remaining * shares[members] * left / shares[members][left].sum()
            sat = left & (want <= ent)
            if not sat.any():
                cap[left] = ent[left]
                remaining = 0.0
                break
            cap[sat] = want[sat]
            remaining -= want[sat].sum()
            left &= ~sat
        ratio = np.where(want > 0, np.minimum(cap / np.maximum(want, 1e-300), 1.0), 1.0)
        eff[members] = pops[members] * ratio
    return eff, _solve_closed(d, shared_st, eff, len(c.host) + n_arr, res.queue, cache)


class _Gathered:
    """The per-VM parameters of the VMs in ``ix`` (all VMs for a slice)."""

    def __init__(self, p: Any, ix: Any, d_closed: np.ndarray):
        self.ix = ix
        self.h, self.a = p.h[ix], p.a[ix]
        self.vd, self.ad = p.vd[ix], p.ad[ix]
        self.app_share = p.app_share[ix]
        self.think_s = p.think_s[ix]
        self.util0 = p.util0[ix]
        self.backend_per_io = p.backend_per_io[ix]
        self.demand5 = p.demand_t[:5, ix]
        self.d5 = d_closed[ix, 5]


def _gathered(cache: dict[str, Any], p: Any, ix: np.ndarray,
              d_closed: np.ndarray) -> _Gathered:
    """:class:`_Gathered` for ``ix``, kept while the parameters and ``ix`` stay the same (a
    knob that moves OIO among VMs already doing I/O)."""
    hit = cache.get("gathered")
    if hit is not None and hit[0] is p and np.array_equal(hit[1].ix, ix):
        out: _Gathered = hit[1]
        return out
    g = _Gathered(p, ix, d_closed)
    cache["gathered"] = (p, g)
    return g
