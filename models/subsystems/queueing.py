"""Queueing formulas for request-driven VMs: M/M/c (Erlang C) mean and exact p95 response,
tabulated per server count, and the VM count at which a host's p95 reaches a ceiling.

The response of a request is waiting ``W`` plus service ``X ~ Exp(1/S)``, with the Erlang-C
waiting time ``P(W > t) = C e^{-c(1-rho)t/S}``: the mean is exact; the p95 solves the exact tail
of ``W + X`` by Newton's method.  Used by :mod:`models.subsystems.consolidation`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

import numpy as np

P95_Q = 0.05  # tail probability of the 95th percentile
_LN20 = math.log(1.0 / P95_Q)


def erlang_c(c: np.ndarray, a: np.ndarray) -> np.ndarray:
    """Probability that a request waits in an M/M/c queue (Erlang C), vectorised.

    ``c`` servers (ints >= 1), offered load ``a = lambda x S`` in Erlangs (``a < c``).  Uses
    the Poisson form ``B = p(c; a) / P(N <= c; a)`` in log space, stable for thousands of
    servers.
    """
    c = np.asarray(c, dtype=np.int64)
    a = np.asarray(a, dtype=np.float64)
    out = np.zeros(a.shape)
    ok = a > 0
    if not ok.any():
        return out
    cc, aa = c[ok], a[ok]
    k = np.arange(int(cc.max()) + 1, dtype=np.float64)
    lgam = np.concatenate(([0.0], np.cumsum(np.log(k[1:]))))  # log k!
    logp = k[None, :] * np.log(aa)[:, None] - lgam[None, :]
    logp = np.where(k[None, :] <= cc[:, None], logp, -np.inf)
    top = logp.max(axis=1)
    log_cdf = top + np.log(np.exp(logp - top[:, None]).sum(axis=1))
    b = np.exp(logp[np.arange(len(cc)), cc] - log_cdf)  # Erlang B
    rho = aa / cc
    out[ok] = b / (1.0 - rho + rho * b)
    return out


def _tail(t: np.ndarray, wait_p: np.ndarray, theta: np.ndarray,
          mu: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """P(W + X > t) and its density for W ~ (1-C)·0 + C·Exp(theta), X ~ Exp(mu)."""
    em, et = np.exp(-mu * t), np.exp(-theta * t)
    d = theta - mu
    close = np.abs(d) < 1e-9 * mu
    dsafe = np.where(close, 1.0, d)
    conv = np.where(close, (1.0 + mu * t) * em, (theta * em - mu * et) / dsafe)
    conv_pdf = np.where(close, mu * mu * t * em, theta * mu * (em - et) / dsafe)
    tail = (1.0 - wait_p) * em + wait_p * conv
    pdf = (1.0 - wait_p) * mu * em + wait_p * conv_pdf
    return tail, pdf


def response_p95(wait_p: np.ndarray, theta: np.ndarray, mu: np.ndarray) -> np.ndarray:
    """95th percentile of waiting + service: exact tail, solved by Newton on its log.

    ``wait_p`` = Erlang C, ``theta = c(1-rho)/S`` the waiting-time decay rate, ``mu = 1/S``.
    Starts at a lower bound (the larger of the two parts' own 95th percentiles), where the
    concave log-tail makes the iteration converge from the right after one step.
    """
    t = np.maximum(_LN20 / mu, np.log(np.maximum(wait_p, 1e-300) / P95_Q) / theta)
    target = math.log(P95_Q)
    for _ in range(6):
        tail, pdf = _tail(t, wait_p, theta, mu)
        step = (np.log(np.maximum(tail, 1e-300)) - target) * tail / np.maximum(pdf, 1e-300)
        t = np.maximum(t + step, 0.5 * t)
    return t


_GRID_X = np.linspace(0.0, 16.0, 2001)
"""Tabulation grid in x = -ln(1 - rho): host utilisation 0 .. 1 - 1.1e-7, dense near 1."""


@lru_cache(maxsize=128)
def _table(servers: int) -> tuple[np.ndarray, np.ndarray]:
    """Mean and p95 response of an M/M/``servers`` queue with unit service time on
    :data:`_GRID_X` (exact Erlang C and exact p95, computed once per server count)."""
    rho = -np.expm1(-_GRID_X)
    mean, p95 = np.empty(len(rho)), np.empty(len(rho))
    step = max(1, 400_000 // (servers + 1))  # bound the Erlang-C work matrix
    for lo in range(0, len(rho), step):
        r = rho[lo:lo + step]
        c = np.full(len(r), servers)
        wait_p = erlang_c(c, r * servers)
        theta = servers * (1.0 - r)
        mean[lo:lo + step] = wait_p / theta + 1.0
        p95[lo:lo + step] = response_p95(wait_p, theta, np.ones(len(r)))
    return mean, p95


def _host_response(c: np.ndarray, rho: np.ndarray,
                   s_ms: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean and p95 of the host-level M/M/c response (rho < 1; service ``s_ms``), read off
    the cached exact tables by linear interpolation in -ln(1 - rho) (relative error < 1e-4)."""
    x = -np.log1p(-np.minimum(rho, 1.0 - 1e-7))
    mean, p95 = np.empty(len(rho)), np.empty(len(rho))
    kinds = [c[0]] if len(c) and c.min() == c.max() else np.unique(c)
    for servers in kinds:
        m = c == servers
        tm, tp = _table(int(servers))
        mean[m] = np.interp(x[m], _GRID_X, tm)
        p95[m] = np.interp(x[m], _GRID_X, tp)
    return mean * s_ms, p95 * s_ms


def p95_exact(servers: int, rho: float, s_ms: float) -> float:
    """The exact p95 (ms) of the M/M/c response, scalar and in plain floats (fast for a few
    points): Erlang-B recursion, then Newton on the log of the exact tail."""
    if rho <= 0.0:
        return _LN20 * s_ms
    if rho >= 1.0:  # no steady state: the queue grows without bound
        return math.inf
    a, b = rho * servers, 1.0
    for k in range(1, servers + 1):
        b = a * b / (k + a * b)
    wait_p = b / (1.0 - rho + rho * b)
    theta, mu = servers * (1.0 - rho) / s_ms, 1.0 / s_ms
    t = max(_LN20 / mu, math.log(max(wait_p, 1e-300) / P95_Q) / theta)
    target = math.log(P95_Q)
    close = abs(theta - mu) < 1e-9 * mu
    for _ in range(30):
        em, et = math.exp(-mu * t), math.exp(-theta * t)
        if close:
            conv, conv_pdf = (1.0 + mu * t) * em, mu * mu * t * em
        else:
            conv = (theta * em - mu * et) / (theta - mu)
            conv_pdf = theta * mu * (em - et) / (theta - mu)
        tail = (1.0 - wait_p) * em + wait_p * conv
        pdf = (1.0 - wait_p) * mu * em + wait_p * conv_pdf
        step = (math.log(max(tail, 1e-300)) - target) * tail / max(pdf, 1e-300)
        t = max(t + step, 0.5 * t)
        if abs(step) <= 1e-12 * t:
            break
    return t


_MAX_COUNT = 2**31 - 1
"""Counts are capped here (VMs that demand next to nothing fit without a practical limit)."""


def _floor(x: float) -> int:
    if not x < _MAX_COUNT:
        return _MAX_COUNT
    return max(math.floor(x + 1e-9), 0)


def _ceil(x: float) -> int:
    if not x < _MAX_COUNT:
        return _MAX_COUNT
    return max(math.ceil(x - 1e-9), 0)


def largest_meeting(meets: Callable[[int], bool], start: int, hi: int = _MAX_COUNT) -> int:
    """The largest ``k`` in [0, ``hi``] with ``meets(k)``, for a ``meets`` that holds up to a
    threshold and fails beyond it (``meets(0)`` is taken to hold).  Gallops from ``start``
    (a warm start: the last answer costs two calls) and bisects, so the answer is the same
    whatever the start."""
    k = min(max(start, 0), hi)
    step = 1
    if k == 0 or meets(k):
        good, bad = k, -1
        while bad < 0:  # gallop up
            if good >= hi:
                return hi
            nxt = min(hi, good + step)
            if meets(nxt):
                good, step = nxt, step * 2
            else:
                bad = nxt
    else:
        good, bad = 0, k
        while True:  # gallop down
            nxt = bad - step
            if nxt <= 0:
                break
            if meets(nxt):
                good = nxt
                break
            bad, step = nxt, step * 2
    while bad - good > 1:
        mid = (good + bad) // 2
        if meets(mid):
            good = mid
        else:
            bad = mid
    return good
