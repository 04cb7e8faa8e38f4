"""Storage latency an estate recorded against the model's, per array, and an explicit fit of
an array's service time to it (issue 36).

**Like with like.**  A VM records its latency in two statistics (the importers keep both
where the source has them): the average over the window (``measured.latency_ms``) and a high
one (``measured.latency_peak_ms``: the highest sample, or the p95 or maximum of the
samples).  The check compares the average with the model's mean latency and the high one
with the model's p95 (:mod:`models.analysis.residuals`), never a peak with a mean.

**Per array** (:func:`arrays`): the VMs on an array that recorded an average latency, each
weighted by its recorded IOPS on both sides, give the array's recorded latency and the
model's (the VM's latency as the guest sees it: its I/O path, the HBA, the array, the round
trips).  Where they differ by more than :data:`DISAGREE_MS` and by more than a factor
:data:`DISAGREE_FACTOR`, the check says so and offers the fit, which it never applies.

**The fit** (:func:`fit`, ``headroom calibrate DESIGN --storage``): each such array's drive
service time - the time a drive holds a request, its media's channels over its random IOPS
(``disk_iops``) - found by bisection so that the model's mean latency over those VMs meets
the recorded average at the design's load.  Slower drives also serve fewer IOPS: the fit
reads the recorded latency as the drives' own (an M/M/c view); where it takes the array near
saturation, the latency is likely not the drives' (a fabric, replication, an array busier
than the design holds) and the fit says so.  A vSAN cluster's datastore is served by its
hosts' devices, not by drive figures, and is not fitted; nor is an array whose recorded
latency is below what the model's path beyond the drives already takes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from models.core.compiled import compile_design
from models.core.prediction import Prediction
from models.document.design import Design
from models.document.numbers import counted, with_unit
from models.document.schema import STORAGE_ARRAY
from models.engine.evaluation import run
from models.subsystems import storage, vsan_io

DISAGREE_MS = 1.0
"""An array's model and recorded latency disagree beyond this many milliseconds ..."""
DISAGREE_FACTOR = 1.5
"""... and beyond this factor either way."""
STEPS = 48
"""Bisection steps over the per-drive IOPS (a factor 2^-48 of its log range)."""


def _num(v: Any) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


@dataclass
class ArrayLatency:
    """An array's mean latency over its VMs that recorded an average latency: the model's
    and the record's, each VM weighted by its recorded IOPS."""

    id: str
    name: str
    vms: int
    predicted_ms: float
    recorded_ms: float
    vsan: bool = False
    """Served by a vSAN cluster's devices (not fitted)."""

    @property
    def off_ms(self) -> float:
        return self.predicted_ms - self.recorded_ms

    @property
    def disagrees(self) -> bool:
        lo, hi = sorted((max(self.predicted_ms, 1e-9), max(self.recorded_ms, 1e-9)))
        return abs(self.off_ms) > DISAGREE_MS and hi / lo > DISAGREE_FACTOR

    def line(self) -> str:
        return (f"{self.name}: the model's {self.predicted_ms:,.2f} ms vs {self.recorded_ms:,.2f}"
                f" ms recorded ({self.off_ms:+,.2f} ms) over {counted(self.vms, 'VM')}")

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "vms": self.vms,
                "latency_ms_predicted": self.predicted_ms,
                "latency_ms_recorded": self.recorded_ms, "off_ms": self.off_ms,
                "disagrees": self.disagrees, "vsan": self.vsan}


def _weights(design: Design, pred: Prediction) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                         list[str]]:
    """Per VM of the prediction: its array (-1: none), its recorded IOPS as a weight (0: no
    recorded average latency or no predicted one) and its recorded average latency; the
    arrays' ids."""
    comps = {c.id: c for c in design.of_kind("vm")}
    arrays = [a.id for a in design.of_kind("storage_array")]
    where = {a: i for i, a in enumerate(arrays)}
    disk = {lk.source: where[lk.target] for lk in design.links
            if lk.kind == "disk_on" and lk.target in where}
    n = len(pred.vms.ids)
    arr = np.full(n, -1, np.int64)
    weight, rec = np.zeros(n), np.zeros(n)
    for i, vid in enumerate(pred.vms.ids):
        comp = comps.get(vid)
        if comp is None or comp.get("workload.profile") != "measured":
            continue
        lat, iops = _num(comp.get("measured.latency_ms")), _num(comp.get("measured.iops"))
        if lat is None or not iops or vid not in disk:
            continue
        arr[i], weight[i], rec[i] = disk[vid], iops, lat
    return arr, weight, rec, arrays


def _model_ms(pred: Prediction, arr: np.ndarray, weight: np.ndarray, n_arr: int
              ) -> tuple[np.ndarray, np.ndarray]:
    """Per array, the weighted mean of the model's latency over the weighted VMs, and the
    weight (NaN latency where there is none)."""
    lat = pred.vms.latency_ms
    ok = (arr >= 0) & (weight > 0) & np.isfinite(lat)
    w = np.bincount(arr[ok], weight[ok], n_arr)
    x = np.bincount(arr[ok], (weight * np.nan_to_num(lat))[ok], n_arr)
    return np.where(w > 0, x / np.maximum(w, 1e-300), np.nan), w


def arrays(design: Design, pred: Prediction) -> list[ArrayLatency]:
    """Each array with VMs that recorded an average latency: the model's mean latency over
    them beside the recorded one."""
    arr, weight, rec, ids = _weights(design, pred)
    if not (weight > 0).any():
        return []
    n_arr = len(ids)
    model, w = _model_ms(pred, arr, weight, n_arr)
    ok = (arr >= 0) & (weight > 0) & np.isfinite(pred.vms.latency_ms)
    recorded = np.bincount(arr[ok], (weight * rec)[ok], n_arr) / np.maximum(w, 1e-300)
    count = np.bincount(arr[ok], minlength=n_arr)
    comps = {a.id: a for a in design.of_kind("storage_array")}
    return [ArrayLatency(ids[j], comps[ids[j]].name or ids[j], int(count[j]), float(model[j]),
                         float(recorded[j]), comps[ids[j]].get("protocol") == "vsan")
            for j in np.flatnonzero(w > 0).tolist()]


def check_lines(rows: list[ArrayLatency], limit: int = 10) -> list[str]:
    """The baseline check's lines on the arrays whose model disagrees with the record, and
    the fit it offers."""
    off = sorted((r for r in rows if r.disagrees), key=lambda r: -abs(r.off_ms))
    if not off:
        return []
    out = ["  array latency: the model's mean latency and the average its VMs recorded"
           f" (weighted by their IOPS) differ on {counted(len(off), 'array')}:"]
    out += [f"    {r.line()}" + ("  (vSAN: its cluster's devices, not fitted)" if r.vsan
                                 else "") for r in off[:limit]]
    if len(off) > limit:
        out.append(f"    ... and {counted(len(off) - limit, 'more array')}")
    if any(not r.vsan for r in off):
        out.append("    headroom calibrate DESIGN --storage fits each one's drive service time"
                   " to its record (the design is not changed until asked)")
    return out


@dataclass
class ArrayFit:
    id: str
    name: str
    before: ArrayLatency
    disk_iops: tuple[float, float]
    """Per-drive IOPS before and after."""
    service_ms: tuple[float, float]
    """A drive's time per request (its channels over its IOPS) before and after."""
    latency_ms: float
    """The model's mean latency over the array's VMs after."""
    util: float
    """The array's utilisation after."""
    note: str = ""

    def line(self) -> str:
        return (f"{self.name}: drive service time {self.service_ms[0]:,.3g} ->"
                f" {self.service_ms[1]:,.3g} ms (IOPS per drive {self.disk_iops[0]:,.0f} ->"
                f" {self.disk_iops[1]:,.0f}); the model's {self.before.predicted_ms:,.2f} ->"
                f" {self.latency_ms:,.2f} ms vs {self.before.recorded_ms:,.2f} recorded,"
                f" {self.util:.0%} busy" + (f"; {self.note}" if self.note else ""))

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "disk_iops_before": self.disk_iops[0],
                "disk_iops_after": self.disk_iops[1], "service_ms_before": self.service_ms[0],
                "service_ms_after": self.service_ms[1],
                "latency_ms_before": self.before.predicted_ms,
                "latency_ms_after": self.latency_ms,
                "latency_ms_recorded": self.before.recorded_ms, "util_after": self.util,
                "note": self.note}


@dataclass
class StorageFit:
    fitted: list[ArrayFit] = field(default_factory=list)
    left: list[tuple[ArrayLatency, str]] = field(default_factory=list)
    """Arrays that disagree and were not fitted, with why."""

    @property
    def changes(self) -> dict[str, dict[str, float]]:
        return {f.id: {"disk_iops": f.disk_iops[1]} for f in self.fitted}

    def lines(self) -> list[str]:
        if not self.fitted and not self.left:
            return ["storage: every array's model meets its VMs' recorded average latency"
                    f" (within {with_unit(DISAGREE_MS, 'ms')} or a factor"
                    f" {DISAGREE_FACTOR:g}): nothing"
                    " to fit"]
        out = [f"storage: {counted(len(self.fitted), 'array')} fitted, each to the average"
               " latency its VMs recorded"]
        out += [f"  {f.line()}" for f in self.fitted]
        out += [f"  {r.name}: not fitted: {why}" for r, why in self.left]
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"fitted": [f.to_dict() for f in self.fitted],
                "left": [dict(r.to_dict(), why=why) for r, why in self.left]}


def fit(design: Design) -> StorageFit:
    """The drive service time of each array whose model disagrees with its VMs' recorded
    average latency, fitted to it (see the module docstring); ``design`` is not changed
    (:func:`apply` applies the result)."""
    c = compile_design(design)
    pred = run(c)
    rows = [r for r in arrays(design, pred) if r.disagrees]
    out = StorageFit()
    if not rows:
        return out
    index = c.array.index
    served = vsan_io.service(c).array_devices
    todo = []
    for r in rows:
        j = index[r.id]
        if r.vsan or (len(served) and served[j] > 0):
            out.left.append((r, "a vSAN cluster's devices serve it (no drive figures to fit)"))
        else:
            todo.append((r, j))
    if not todo:
        return out
    arr, weight, _, ids = _weights(design, pred)
    to_c = np.array([index[a] for a in ids] + [-1], np.int64)  # design order -> compiled
    arr = to_c[arr]
    idx = np.array([j for _, j in todo], np.int64)
    target = np.array([r.recorded_ms for r, _ in todo])
    rate0, par = storage.drives(c)
    spec = STORAGE_ARRAY.props["disk_iops"]
    lo_b, hi_b = math.log(float(spec.min or 1.0)), math.log(float(spec.max or 5.0e6))
    col = c.array.cols["disk_iops"]
    saved = col.copy()

    def model(values: np.ndarray) -> tuple[np.ndarray, Prediction]:
        col[idx] = values
        p = run(c)
        return _model_ms(p, arr, weight, len(c.array))[0][idx], p

    fastest, _ = model(np.full(len(idx), math.exp(hi_b)))
    lo, hi = np.full(len(idx), lo_b), np.full(len(idx), hi_b)
    for _ in range(STEPS):
        mid = (lo + hi) / 2.0
        ms, _ = model(np.exp(mid))
        slow = ms > target  # too slow: the drives need more IOPS
        lo, hi = np.where(slow, mid, lo), np.where(slow, hi, mid)
    values = np.exp((lo + hi) / 2.0)
    reach = fastest <= target * (1.0 + 1e-6)
    values = np.where(reach, values, saved[idx])
    ms, after = model(values)
    col[:] = saved
    for k, (r, j) in enumerate(todo):
        if not reach[k]:
            out.left.append((r, f"its recorded {r.recorded_ms:,.2f} ms is below the model's"
                                f" {float(fastest[k]):,.2f} ms with the fastest drives (the"
                                " path beyond the drives takes that)"))
            continue
        before, after_rate = float(rate0[j]), round(float(values[k]), 1)
        util = float(after.arrays.util[j])
        note = ("near saturation at the design's load: the recorded latency is likely not"
                " the drives' alone (a fabric, replication, a busier array)" if util >= 0.9
                else "")
        out.fitted.append(ArrayFit(r.id, r.name, r, (before, after_rate),
                                   (float(par[j]) / before * 1000.0,
                                    float(par[j]) / after_rate * 1000.0),
                                   float(ms[k]), util, note))
    return out


def apply(design: Design, result: StorageFit) -> None:
    """Write a fit's per-drive IOPS into ``design`` (in place)."""
    changes = result.changes
    for comp in design.of_kind("storage_array"):
        if comp.id in changes:
            comp.props.update(changes[comp.id])
