"""Goal seek: the fewest hosts, the largest OIO, the largest growth of the measured I/O or the
most VMs per host that meet the design's policy (doubling, then bisection over the engine)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from models.analysis.common import (
    VMS_PER_HOST_CAP,
    Breach,
    Evaluate,
    _binding,
    _light_copy,
    _run,
    _worst,
    policy_breaches,
    rebuild,
    storage_p95_breaches,
)
from models.core.compiled import Compiled, compile_design
from models.document.design import (
    Design,
    DesignError,
    Issue,
    Override,
)
from models.document.numbers import with_unit
from models.document.schema import NO_IO_PROFILES

# =========================================================================== goal seek


@dataclass(frozen=True)
class Trial:
    value: int
    ok: bool
    breaches: list[Breach]

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "ok": self.ok, "binding": _binding(self.breaches) or None,
                "worst": [b.to_dict() for b in _worst(self.breaches)[:3]]}


@dataclass
class SeekResult:
    goal: str
    """``hosts``, ``oio`` or ``vms``."""
    value: int | None
    """The answer (total hosts including HA spares, OIO per VM, VMs per host); None when no
    value in the searched range meets policy."""
    unit: str
    feasible: bool
    binding: str
    """What stops the answer from being better: the resource(s) that fail one step past it
    (cpu, memory, p95, array, nic), or the search limit."""
    binding_detail: list[Breach]
    current: float | None
    """The design's own figure (hosts, median OIO, VMs per host)."""
    search: tuple[int, int]
    method: str
    trials: list[Trial]
    notes: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"goal": self.goal, "value": self.value, "unit": self.unit,
                "feasible": self.feasible, "binding": self.binding,
                "binding_detail": [b.to_dict() for b in _worst(self.binding_detail)[:5]],
                "current": self.current, "search": list(self.search), "method": self.method,
                "trials": [tr.to_dict() for tr in sorted(self.trials, key=lambda x: x.value)],
                "notes": list(self.notes), **self.extra}


class _Probe:
    """Memoised policy test of one integer setting."""

    def __init__(self, fn: Callable[[int], list[Breach]]):
        self.fn = fn
        self.trials: dict[int, Trial] = {}

    def __call__(self, x: int) -> bool:
        if x not in self.trials:
            breaches = self.fn(x)
            self.trials[x] = Trial(x, not breaches, breaches)
        return self.trials[x].ok


def _narrow(ok: Callable[[int], bool], good: int, bad: int) -> int:
    """Bisect between ``good`` (ok) and ``bad`` (not ok), either order, to the ``good``
    neighbour of the threshold."""
    while abs(bad - good) > 1:
        mid = (good + bad) // 2
        if ok(mid):
            good = mid
        else:
            bad = mid
    return good


def largest_ok(ok: Callable[[int], bool], lo: int, hi: int, start: int) -> int | None:
    """The largest ``x`` in [lo, hi] with ``ok(x)``, for ``ok`` true up to a threshold and
    false after it: gallop up from ``start`` by doubling, then bisect."""
    if not ok(lo):
        return None
    good, bad = lo, None
    x = min(max(start, lo), hi)
    if ok(x):
        good = x
    else:
        bad = x
    while bad is None:
        if good >= hi:
            return hi
        x = min(hi, max(good + 1, good * 2))
        if ok(x):
            good = x
        else:
            bad = x
    return _narrow(ok, good, bad)


def smallest_ok(ok: Callable[[int], bool], lo: int, hi: int, start: int) -> int | None:
    """The smallest ``x`` in [lo, hi] with ``ok(x)``, for ``ok`` false below a threshold and
    true from it: gallop up from ``start`` by doubling until it holds, then bisect."""
    x = min(max(start, lo), hi)
    good: int | None = x if ok(x) else None
    bad: int | None = None if good is not None else x
    while good is None:
        assert bad is not None
        if bad >= hi:
            return None
        x = min(hi, bad * 2)
        if ok(x):
            good = x
        else:
            bad = x
    if bad is None:
        if ok(lo):
            return lo
        bad = lo
    return _narrow(ok, good, bad)


GOALS = ("hosts", "oio", "iops", "vms")
IOPS_LIMIT = 10_000
"""Search limit of ``--goal iops``: 100 times the measured I/O (in percent)."""


def seek(design: Design, goal: str, *, limit: int | None = None,
         evaluate: Evaluate | None = None) -> SeekResult:
    """Goal seek on ``design`` (scenario and overrides already applied).

    ``hosts``: the fewest hosts meeting policy, plus ``policy.ha_spare_hosts`` (see
    :func:`rebuild` for how hosts are added or removed).  ``oio``: the largest
    ``workload.io_oio`` given to every VM that keeps the p95 latency of every VM doing I/O
    within ``p95_ms_max`` (:func:`storage_p95_breaches`); it needs VMs that keep outstanding
    I/Os of their own (a closed loop).  ``iops``: the largest growth of the I/O rates
    (``workload.io_iops``: an imported estate's measured I/O), in percent of today's, that
    keeps every I/O VM's p95 within ``p95_ms_max`` and every array below 100% busy.
    ``vms``: the largest number of VMs per host (same mix, spread evenly) meeting policy.
    ``limit`` caps the search (defaults: as many hosts as VMs, the OIO knob's maximum,
    :data:`IOPS_LIMIT` percent, 1,024 VMs per host).
    """
    ev = evaluate or _run
    if goal not in GOALS:
        raise DesignError([Issue("seek", f"unknown goal '{goal}' (known: {', '.join(GOALS)})")])
    vms, hosts = design.of_kind("vm"), design.of_kind("host")
    if not vms:
        raise DesignError([Issue("seek", "the design has no VMs, so nothing constrains it")])
    if goal in ("hosts", "vms") and not hosts:
        raise DesignError([Issue("seek", "the design has no hosts to replicate")])
    if limit is not None and limit < 1:
        raise DesignError([Issue("seek", f"--max must be at least 1, got {limit}")])
    notes: list[str] = []

    def check(d: Design) -> list[Breach]:
        c = compile_design(d)
        return policy_breaches(ev(c), c.policy)

    if goal == "hosts":
        return _hosts(design, ev, len(hosts))

    if goal == "iops":
        return _iops(design, ev, limit)

    if goal == "oio":
        cc = compile_design(_light_copy(design))
        _closed_loop_or_say(cc)
        lo, hi = 1, limit if limit is not None else 256
        current = float(np.median(cc.vm.cols["workload.io_oio"]))

        def oio_fn(x: int) -> list[Breach]:
            cc.patch(Override("vm", "workload.io_oio", x))
            return storage_p95_breaches(ev(cc), cc.policy)

        probe = _Probe(oio_fn)
        best = largest_ok(probe, lo, hi, max(lo, min(int(current), hi)))
        result = _result("oio", best, "I/Os", probe, None if best is None else best + 1,
                         (lo, hi), current, "", f"OIO search limit {hi}", notes)
        result.method = ("largest workload.io_oio set on every VM that keeps every I/O VM's "
                         "p95 within policy: galloping then bisection on one compiled design "
                         "(patch + evaluate)")
        return result

    per_host = math.ceil(len(vms) / len(hosts))
    base_pred = ev(compile_design(design))
    con = base_pred.consolidation
    hints = [x for x in (con.max_vms_per_host_by_cpu, con.max_vms_per_host_by_p95)
             if x is not None and x > 0]
    hi = limit if limit is not None else VMS_PER_HOST_CAP

    def vms_fn(k: int) -> list[Breach]:
        d, n = rebuild(design, vms_per_host=k)
        for note in n:
            if note not in notes:
                notes.append(note)
        return check(d)

    probe = _Probe(vms_fn)
    start = min(hints) if hints else per_host
    best = largest_ok(probe, 1, hi, max(1, min(start, hi)))
    cap = ("vSphere maximum of 1,024 VMs per host" if limit is None
           else f"VMs-per-host search limit {hi}")
    result = _result("vms", best, "VMs per host", probe, None if best is None else best + 1,
                     (1, hi), len(vms) / len(hosts), "", cap, notes)
    result.method = ("largest VMs per host meeting policy: every host runs k VMs copied "
                     "from the design's (like VMs dealt round robin, so each host gets the "
                     "design's mix); galloping then bisection")
    result.extra = {"engine_max_vms_per_host_by_cpu": con.max_vms_per_host_by_cpu,
                    "engine_max_vms_per_host_by_p95": con.max_vms_per_host_by_p95,
                    "total_vms": None if best is None else best * len(hosts)}
    return result


def _closed_loop_or_say(c: Compiled) -> None:
    """Refuse the OIO goal where no VM keeps outstanding I/Os of its own: an estate's VMs
    run at their measured rates, which outstanding I/Os do not move."""
    profiles = c.vm.specs["workload.profile"].choices or ()
    no_io = np.array([p in NO_IO_PROFILES for p in profiles])[c.vm.cols["workload.profile"]]
    rate = c.vm.cols["workload.io_iops"]
    closed = (c.vm_array >= 0) & ~no_io & np.isnan(rate)
    measured = (c.vm_array >= 0) & ~np.isnan(rate) & c.vm.is_("workload.profile", "measured")
    if measured.any() and not closed.any():
        raise DesignError([Issue("seek", "no VM keeps outstanding I/Os of its own (the VMs"
                                 " run at their measured I/O rates, which outstanding I/Os"
                                 " do not move): --goal iops seeks how far their I/O can"
                                 " grow")])


def _iops(design: Design, ev: Evaluate, limit: int | None) -> SeekResult:
    """The largest growth of every I/O rate (percent of today's) within policy."""
    if limit is not None and limit < 100:
        raise DesignError([Issue("seek", f"--max for the I/O growth is a percentage of today's"
                                 f" I/O, at least 100, got {limit}")])
    cc = compile_design(_light_copy(design))
    col = cc.vm.cols["workload.io_iops"]
    today = col.copy()
    io = ~np.isnan(today) & (cc.vm_array >= 0) & (today > 0)
    if not io.any():
        raise DesignError([Issue("seek", "no VM has an I/O rate to grow (workload.io_iops):"
                                 " import an estate's I/O (import-liveoptics, calibrate --from"
                                 " an esxtop file or Aria Operations view)")])
    key = ("vm", "workload.io_iops")

    def fn(pct: int) -> list[Breach]:
        col[io] = today[io] * pct / 100.0
        cc.versions[key] = cc.versions.get(key, 0) + 1  # as a patch: the models read it again
        pred = ev(cc)
        arrays = [b for b in policy_breaches(pred, cc.policy) if b.resource == "array"]
        return storage_p95_breaches(pred, cc.policy) + arrays + _unserved(cc, pred, io)

    hi = limit if limit is not None else IOPS_LIMIT
    probe = _Probe(fn)
    best = largest_ok(probe, 1, hi, 100)
    result = _result("iops", best, "% of today's I/O", probe,
                     None if best is None else best + 1, (1, hi), 100.0, "",
                     f"I/O growth search limit {with_unit(hi, '%')}", [])
    result.method = ("largest growth of every VM's I/O rate (workload.io_iops, the measured"
                     " IOPS of an imported estate), in percent of today's, that keeps every I/O"
                     " VM's p95 within policy and every array below 100% busy: galloping then"
                     " bisection on one compiled design")
    result.extra = {"vms_with_io": int(io.sum()), "iops_today": float(np.sum(today[io])),
                    "iops_at_answer": None if best is None
                    else float(np.sum(today[io]) * best / 100.0)}
    return result


def _unserved(c: Compiled, pred: Any, io: np.ndarray) -> list[Breach]:
    """Arrays whose VMs offer more I/O than their path serves (the engine caps an open loop at
    saturation, where its latency stops growing): the offered load over the served, per
    array."""
    served = np.nan_to_num(np.asarray(pred.vms.iops, dtype=float))
    offered = np.nan_to_num(c.vm.cols["workload.io_iops"])
    short = io & (served < 0.99 * offered)
    worst: dict[int, float] = {}
    for k in np.flatnonzero(short).tolist():
        a = int(c.vm_array[k])
        worst[a] = max(worst.get(a, 0.0), offered[k] / max(served[k], 1e-9))
    names = {a.id: a.name for a in c.design.of_kind("storage_array")}
    return [Breach(c.array.ids[a], "array", ratio, 1.0, name=names.get(c.array.ids[a], ""))
            for a, ratio in worst.items()]


def _hosts(design: Design, ev: Evaluate, current: int) -> SeekResult:
    """The fewest hosts as the dashboard counts them (one definition,
    :mod:`models.subsystems.capacity`): per cluster, its VMs staying in it, under its own
    admission control, every limit of the policy; the answer per cluster in ``extra``."""
    p = ev(compile_design(design))
    cons, cap = p.consolidation, p.sections.capacity
    groups = cap.clusters if cap is not None else []
    value = cons.hosts_needed
    binding = cons.binding or ("no value meets policy" if value is None else "")
    clusters = [{"id": g.id, "name": g.name, "hosts": g.hosts, "hosts_needed": g.hosts_needed,
                 "binding": g.binding, "reserve_hosts": g.reserve_hosts,
                 "admission_control": g.admission_control} for g in groups]
    reserve = sum(g.reserve_hosts for g in groups)
    result = SeekResult("hosts", value, "hosts", value is not None, binding, [],
                        float(current), (1, max(current, value or 1)), "", [], [])
    result.method = ("fewest hosts per cluster, its VMs staying in it: the VMs of the"
                     " cluster's mix its busiest host holds under each limit of the policy"
                     " (CPU ceiling and p95 after the admission control's reserved share,"
                     " memory), the most hosts any limit needs, FT's second host, plus the"
                     " hosts its admission control keeps for failover (policy.ha_spare_hosts"
                     " for hosts in no cluster); the same count as the dashboard's")
    result.extra = {"active_hosts": None if value is None else value - reserve,
                    "ha_spare_hosts": reserve, "clusters": clusters}
    return result


def _result(goal: str, best: int | None, unit: str, probe: _Probe, neighbour: int | None,
            search: tuple[int, int], current: float | None, low_edge: str, high_edge: str,
            notes: list[str]) -> SeekResult:
    trials = list(probe.trials.values())
    lo, hi = search
    if best is None:
        # the most favourable end of the range failed: its breaches say why
        end = hi if goal == "hosts" else lo
        detail = probe.trials[end].breaches if end in probe.trials else []
        return SeekResult(goal, None, unit, False, _binding(detail) or "no value meets policy",
                          detail, current, search, "", trials, notes)
    if neighbour is None or neighbour < lo or neighbour > hi or neighbour not in probe.trials:
        binding = high_edge if goal != "hosts" else low_edge
        return SeekResult(goal, best, unit, True, binding, [], current, search, "", trials,
                          notes)
    detail = probe.trials[neighbour].breaches
    return SeekResult(goal, best, unit, True, _binding(detail), detail, current, search, "",
                      trials, notes)


