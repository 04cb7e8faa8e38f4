"""Which figures a knob curve of a design shows, and what they are along a sweep.

A storage design plots storage latency (mean and p95) and total IOPS; a web farm without
storage I/O its response times; a design whose VMs only move network traffic its throughput;
one whose only work is Content Library jobs the jobs' minutes and MB/s; one whose VMs only
use CPU and memory (an estate imported without I/O data) its hosts' CPU utilisation (mean
and busiest) and the hosts it needs.  Past the point where
a web farm's response time saturates (an unstable queue) there is no steady state: neither
the time nor the throughput has a value there (NaN), so the drawn line breaks.  Drawing is
:mod:`app.charts.knob_curve`'s business.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from models.core.prediction import Prediction
from models.engine.kpis import hosts_needed, mean_pct

TimeFigure = Callable[[Prediction], tuple[float, float]]
"""The (mean, worst) time a curve's upper plot shows."""
ThroughputFigure = Callable[[Prediction], float]
"""The figure a curve's lower plot shows."""


def latencies(p: Prediction) -> tuple[float, float]:
    """(mean, p95) the curve plots: web response times on a design that does no storage I/O
    but serves requests (NaN when they saturate: no steady state, no time), storage latency
    otherwise."""
    if p.total_iops == 0 and p.vms.request_driven.any():
        if p.response_saturated:
            return math.nan, math.nan
        return p.mean_response_ms, p.p95_response_ms
    return p.mean_latency_ms, p.p95_latency_ms


def capacity_only(p: Prediction | None) -> bool:
    """Whether the design's only work is CPU and memory on its hosts: no storage I/O, no
    requests, no network traffic, no library jobs (an estate imported without I/O data)."""
    return (p is not None and p.total_iops == 0 and not p.vms.request_driven.any()
            and p.total_net_gbps == 0 and not p.library_transfers and len(p.hosts.ids) > 0)


def host_cpu_pct(p: Prediction) -> tuple[float, float]:
    """(mean, busiest) host CPU utilisation, in per cent (capacity_only: there are hosts)."""
    util = p.hosts.cpu_util
    return mean_pct(util) or 0.0, float(np.max(util)) * 100.0


def needed_or_nan(p: Prediction) -> float:
    """The hosts needed (:func:`models.engine.kpis.hosts_needed`), NaN where unknown."""
    n = hosts_needed(p)
    return n if n is not None else math.nan


def time_of(p: Prediction | None) -> tuple[str, tuple[str, str], TimeFigure]:
    """(axis label, legend names, (mean, worst) figure) the curve's upper plot shows: the
    time a Content Library job takes (minutes) on a design whose only work is library
    transfers, the hosts' CPU (%) on one whose only work is CPU and memory, response or
    storage latency (:func:`latencies`, ms) otherwise."""
    if p is not None and p.total_iops == 0 and not p.vms.request_driven.any() \
            and p.library_transfers:
        return ("job (min)", ("mean", "slowest"),
                lambda q: (q.library_mean_s / 60.0, q.library_slowest_s / 60.0))
    if capacity_only(p):
        return "host CPU (%)", ("mean host", "busiest host"), host_cpu_pct
    return "time (ms)", ("mean", "p95"), latencies


def throughput_of(p: Prediction | None) -> tuple[str, ThroughputFigure]:
    """(axis label, figure) the curve's lower plot shows: total IOPS, network throughput for
    a design whose VMs move network traffic but do no storage I/O, the hosts needed for one
    whose only work is CPU and memory."""
    if p is not None and p.total_iops == 0 and p.total_net_gbps > 0:
        return "net Gbit/s", lambda q: q.total_net_gbps  # short: it must fit a low plot
    if p is not None and p.total_iops == 0 and p.library_transfers:
        return "MB/s moved", lambda q: q.library_mb_per_s
    if capacity_only(p):
        return HOSTS_NEEDED, needed_or_nan
    return "total IOPS", lambda q: q.total_iops


HOSTS_NEEDED = "hosts needed"
"""The lower plot's title on a design whose only work is CPU and memory."""
FOCUS = 2.0
"""A curve of hosts needed is drawn up to this many times today's count (:func:`focus`)."""


def focus(ys: np.ndarray, now: float) -> tuple[float, float] | None:
    """A y range round ``now`` for a curve whose far end dwarfs it (the hosts an estate
    needs at one core per socket: 600 against today's 23, which a range from 0 to 600
    flattens): from a little under the curve's lowest to :data:`FOCUS` times ``now``; None
    when the whole curve is within that (auto-range then)."""
    finite = ys[np.isfinite(ys)]
    if finite.size == 0 or not math.isfinite(now) or now <= 0:
        return None
    lo, hi = float(finite.min()), float(finite.max())
    top = FOCUS * now
    if hi <= top:
        return None
    bottom = min(lo, now)
    return (max(0.0, bottom - 0.1 * (top - bottom)), top)


def flat_range(ys: np.ndarray) -> tuple[float, float] | None:
    """A y range from 0 for a curve the knob does not move (open-loop IOPS against OIO):
    auto-range would zoom into rounding noise and label every tick "155000"; None when the
    curve moves (auto-range then)."""
    finite = ys[np.isfinite(ys)]
    if finite.size == 0:
        return None
    lo, hi = float(finite.min()), float(finite.max())
    if hi - lo > 1e-3 * max(abs(hi), abs(lo)):
        return None
    top = max(abs(hi), abs(lo))
    return (0.0, 1.2 * top) if top > 0 else (0.0, 1.0)


def falling(ys: np.ndarray) -> bool:
    """Whether a curve ends lower than it starts (over its finite points)."""
    finite = ys[np.isfinite(ys)]
    return bool(finite.size > 1 and finite[-1] < finite[0])


@dataclass(frozen=True)
class Series:
    """A curve's figures at each value of a sweep."""

    times: np.ndarray
    """(n, 2): the (mean, worst) time at each step, NaN where it saturates."""
    throughput: np.ndarray
    """The throughput figure, NaN where the time saturates (no steady state)."""

    @property
    def mean(self) -> np.ndarray:
        return self.times[:, 0]

    @property
    def worst(self) -> np.ndarray:
        """The worst (p95, slowest) time."""
        return self.times[:, 1]

    @property
    def saturated(self) -> np.ndarray:
        """bool: the steps whose time has no steady state."""
        return np.isnan(self.times[:, 0])

    @property
    def has_time(self) -> bool:
        """Whether there is a time to plot (a design with neither storage I/O, requests nor
        library jobs has none: its times are all 0)."""
        return bool(np.nan_to_num(self.times).max(initial=0.0) > 0)


def series(preds: Iterable[Prediction], times: TimeFigure,
           throughput: ThroughputFigure) -> Series:
    """The curve's figures along a sweep's predictions (read one at a time: each is dropped
    once its figures are taken): past saturation the time is NaN (:func:`latencies`) and so
    is the throughput (no steady state: the line breaks with the response time's instead of
    climbing on with the offered load)."""
    figures = [(*times(p), throughput(p)) for p in preds]
    lat = np.array([f[:2] for f in figures], dtype=float).reshape(-1, 2)
    through = np.array([f[2] for f in figures], dtype=float)
    through[np.isnan(lat[:, 0])] = np.nan
    return Series(lat, through)
