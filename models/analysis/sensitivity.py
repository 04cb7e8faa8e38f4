"""Sensitivity (tornado): which knob moves a chosen output most, as one sweep over a
compiled design that is patched, never recompiled."""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from models.analysis.common import SLIDER_TICKS, Evaluate, _finite, _light_copy, _run
from models.core import demand
from models.core.compiled import Compiled, compile_design
from models.core.prediction import Prediction
from models.document.design import (
    Component,
    Design,
    DesignError,
    Issue,
    Link,
    Override,
    apply_scenario,
    normalise,
)
from models.document.knobs import Knob, knobs_for
from models.document.numbers import number
from models.document.schema import Value
from models.engine.kpis import KPI_BY_KEY
from models.engine.metrics import needed_or_nan

# =========================================================================== sensitivity


OUTPUTS: dict[str, tuple[str, Callable[[Prediction], float]]] = {
    "total_iops": ("IOPS", lambda p: p.total_iops),
    "mean_latency_ms": ("ms", lambda p: p.mean_latency_ms),
    "p95_latency_ms": ("ms", lambda p: p.p95_latency_ms),
    "ft_logging_mbps": ("Mbit/s", lambda p: p.ft_logging_mbps),
    "vms_per_host": ("VMs", lambda p: p.consolidation.vms_per_host),
    "hosts_needed": ("hosts", needed_or_nan),
    "host_cpu_pct": ("%", lambda p: _kpi(p, "host_cpu_pct")),
    "host_memory_pct": ("%", lambda p: _kpi(p, "host_memory_pct")),
}
"""The outputs a sensitivity study can rank knobs by: name -> (unit, reader); each is a KPI
of :data:`models.engine.kpis.KPIS` (its title names it)."""


def _kpi(p: Prediction, key: str) -> float:
    v = KPI_BY_KEY[key].value(p)
    return v if v is not None else math.nan


def has_output(p: Prediction, output: str) -> bool:
    """Whether prediction ``p`` has ``output`` to rank knobs by (an estate without I/O data
    has no IOPS, a design without FT VMs no FT logging): its KPI has a value."""
    return KPI_BY_KEY[output].value(p) is not None


def outputs_of(p: Prediction | None) -> list[str]:
    """The outputs ``p``'s design has, in :data:`OUTPUTS`' order (all of them without a
    prediction yet)."""
    return [o for o in OUTPUTS if p is None or has_output(p, o)]


BANDS = ("around", "range", "step")
"""``around``: -50 % to +100 % of each value, or the choices either side (what a design
plausibly moves to); ``range``: each knob's slider range; ``step``: one slider step."""
AROUND = (0.5, 2.0)
"""The ``around`` band: each value halved and doubled (-50 %, +100 %)."""


@dataclass
class KnobSwing:
    """One bar of the tornado: the output at the two ends of the knob's band."""

    path: str
    label: str
    unit: str
    group: str
    low: Value
    high: Value
    """Numeric knobs, and every knob in the ``around`` band: the settings at the two ends of
    the band (the lower, the higher).  Enums and bools over their range: the choices giving
    the smallest and the largest output."""
    output_low: float
    output_high: float
    swing: float
    """Largest minus smallest output over every setting tried and the design as it is (NaN:
    not modelled)."""
    points: list[tuple[Value, float]]

    def to_dict(self, baseline: float) -> dict[str, Any]:
        rel = self.swing / abs(baseline) if abs(baseline) > 0 and math.isfinite(self.swing) \
            else None
        return {"path": self.path, "label": self.label, "unit": self.unit, "group": self.group,
                "low": self.low, "high": self.high, "output_low": _finite(self.output_low),
                "output_high": _finite(self.output_high), "swing": _finite(self.swing),
                "relative_swing": _finite(rel) if rel is not None else None,
                "points": [{"value": v, "output": _finite(o)} for v, o in self.points]}


@dataclass
class Sensitivity:
    output: str
    unit: str
    band: str
    baseline: float
    knobs: list[KnobSwing]
    """Largest swing first (knobs whose output is not modelled last)."""
    evaluations: int
    elapsed_ms: float
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"output": self.output, "unit": self.unit, "band": self.band,
                "baseline": _finite(self.baseline), "evaluations": self.evaluations,
                "knobs": [k.to_dict(self.baseline) for k in self.knobs],
                "notes": list(self.notes)}


class _Column:
    """A knob's column in a compiled design, saved so it can be put back exactly (rows may
    hold different values, which one override could not restore)."""

    def __init__(self, c: Compiled, knob: Knob):
        self.c, self.kind, self.prop = c, knob.kind, knob.prop
        if self.kind == "design":
            self.policy = dict(c.policy)
            self.design_policy = dict(c.design.policy)
            return
        self.table = c.tables[self.kind] if self.kind in c.tables else c.links[self.kind]
        self.saved = self.table.cols[self.prop].copy()
        self.owners: list[Component | Link] = (
            [x for x in c.design.components if x.kind == self.kind] if self.kind in c.tables
            else [lk for lk in c.design.links if lk.kind == self.kind])
        self.props = [o.props.get(self.prop, _MISSING) for o in self.owners]

    def values(self) -> np.ndarray:
        return self.saved

    def write(self, values: np.ndarray) -> None:
        """Per-row numeric values (already valid), straight into the column and the
        design's components (what :meth:`Compiled.patch` does for one value)."""
        spec = self.table.specs[self.prop]
        self.table.cols[self.prop][:] = values
        for o, v in zip(self.owners, values.tolist(), strict=True):
            if math.isfinite(v):
                o.props[self.prop] = normalise(spec, v)

    def restore(self) -> None:
        if self.kind == "design":
            key = self.prop.removeprefix("policy.")
            if demand.moves_columns(key):  # the grown columns move back with the rate
                self.c.patch(Override("design", self.prop, self.policy[key]))
            self.c.policy.clear()
            self.c.policy.update(self.policy)
            self.c.design.policy.clear()
            self.c.design.policy.update(self.design_policy)
            return
        self.table.cols[self.prop][:] = self.saved
        for o, v in zip(self.owners, self.props, strict=True):
            if v is _MISSING:
                o.props.pop(self.prop, None)
            else:
                o.props[self.prop] = v  # type: ignore[assignment]


_MISSING = object()


def _bounds(knob: Knob) -> tuple[float | None, float | None]:
    spec = knob.spec
    lo = knob.min if knob.min is not None else spec.min
    hi = knob.max if knob.max is not None else spec.max
    if spec.min is not None and lo is not None:
        lo = max(lo, spec.min)
    if spec.max is not None and hi is not None:
        hi = min(hi, spec.max)
    return lo, hi


def band_settings(knob: Knob, current: np.ndarray, band: str,
                  chosen: Value = None) -> list[Value | np.ndarray]:
    """The settings a sensitivity study tries for ``knob``.

    ``around``: each row's value halved and doubled (:data:`AROUND`; a relative knob's,
    :attr:`Knob.relative`, the figures it moves: -50 % and +100 % from today's), kept in what
    the schema accepts (a value of 0: up by a twentieth of the knob's range; a value that turns the
    property off, ``PropSpec.off``, stays as it is); numbers restricted
    to a set and choices: the ones either side of the value (``chosen``: the most common choice; a
    switch: the other position).  Enums and bools otherwise: every choice.  Numbers
    restricted to a set (NIC speed, PCIe lanes): every
    allowed value within the knob's range (``range``) or each row's neighbours in the set
    (``step``).  Other numbers: ``range`` tries the knob's slider min and max (the schema's
    range when the knob has none); ``step`` moves each row's own value one slider step down
    and up (the knob's step, or 1/100 of its range, geometric for log knobs), kept in range.
    A setting is a single value for every row or an array with one value per row.
    """
    spec = knob.spec
    if band == "around" and knob.relative:  # the figures it moves halved and doubled
        return [np.clip(100.0 * ((1.0 + current / 100.0) * f - 1.0), spec.min, spec.max)
                for f in AROUND]
    if band == "around" and spec.type in ("bool", "enum") and chosen is not None:
        choices: list[Value] = [False, True] if spec.type == "bool" \
            else list(spec.choices or ())
        if chosen in choices:
            i = choices.index(chosen)
            return [choices[j] for j in (i - 1, i + 1) if 0 <= j < len(choices)]
    if spec.type == "bool":
        return [False, True]
    if spec.type == "enum" and spec.choices is not None and isinstance(spec.choices[0], str):
        return list(spec.choices)
    lo, hi = _bounds(knob)
    if spec.choices is not None:
        allowed = sorted(float(x) for x in spec.choices
                         if (lo is None or float(x) >= lo) and (hi is None or float(x) <= hi))
        if band == "range":
            return [normalise(spec, x) for x in allowed]
        arr = np.asarray(allowed)
        idx = np.clip(np.searchsorted(arr, current), 0, len(arr) - 1)
        return [arr[np.maximum(idx - 1, 0)], arr[np.minimum(idx + 1, len(arr) - 1)]]
    if lo is None or hi is None:
        return []
    if band == "range":
        return [normalise(spec, lo), normalise(spec, hi)]
    if band == "around":  # within what the schema accepts, never the other way
        nudge = (hi - lo) / 20.0
        s_lo = spec.min if spec.min is not None else lo
        s_hi = spec.max if spec.max is not None else hi
        down = np.minimum(current, np.maximum(np.where(current > 0, current * AROUND[0],
                                                       current), s_lo))
        up = np.maximum(current, np.minimum(np.where(current > 0, current * AROUND[1],
                                                     current + nudge), s_hi))
        if spec.off is not None:  # a row switched off stays off (no ceiling, no limit)
            down = np.where(current == spec.off, current, down)
            up = np.where(current == spec.off, current, up)
        out_: list[Value | np.ndarray] = []
        for moved in (down, up):
            arr = np.round(moved) if spec.type == "int" else moved
            out_.append(np.where(np.isnan(current), current, arr))
        return out_
    if knob.step is not None:
        down, up = current - knob.step, current + knob.step
    elif knob.log and lo > 0:
        f = (hi / lo) ** (1.0 / SLIDER_TICKS)
        down, up = current / f, current * f
    else:
        d = (hi - lo) / SLIDER_TICKS
        down, up = current - d, current + d
    out: list[Value | np.ndarray] = []
    for moved in (down, up):
        arr = np.clip(moved, lo, hi)
        if spec.type == "int":
            arr = np.round(arr)
        out.append(np.where(np.isnan(current), current, arr))
    return out


def sensitivity(design: Design, output: str, *, band: str = "around",
                knobs: list[Knob] | None = None, evaluate: Evaluate | None = None,
                scenario: str | None = None) -> Sensitivity:
    """Rank the knobs of ``design`` by how far each moves ``output``.

    The design is compiled once (like :class:`models.engine.evaluation.Engine`, on a copy whose
    components are copied one level deep, far cheaper than a deep copy); for each knob every
    setting of :func:`band_settings` is patched in (:meth:`Compiled.patch` for a single value,
    a column write for per-row values), evaluated, and the knob's column is then put back
    exactly before the next knob.  Nothing is re-parsed or recompiled per step.
    """
    if output not in OUTPUTS:
        raise DesignError([Issue("sensitivity", f"unknown output '{output}' (known: "
                                 + ", ".join(OUTPUTS) + ")")])
    if band not in BANDS:
        raise DesignError([Issue("sensitivity", f"unknown band '{band}' (known: "
                                 + ", ".join(BANDS) + ")")])
    t0 = time.perf_counter()
    ev = evaluate or _run
    unit, read = OUTPUTS[output]
    c = compile_design(_light_copy(apply_scenario(design, scenario)))
    baseline = read(ev(c))
    n_eval = 1
    rows: list[KnobSwing] = []
    notes: list[str] = []
    for k in knobs if knobs is not None else knobs_for(design):
        col = _Column(c, k)
        current = (np.array([c.policy[k.prop.removeprefix("policy.")]]) if k.kind == "design"
                   else col.values().astype(float) if k.spec.type in ("int", "float")
                   else np.zeros(0))
        if band == "around" and k.spec.off is not None and current.size \
                and np.all(current == k.spec.off):
            notes.append(f"{k.label}: off ({number(k.spec.off)}), nothing around it to try"
                         " (set it to see its swing)")
            continue
        settings = band_settings(k, current, band, _most_common(c, k))
        if not settings:
            notes.append(f"{k.path}: no range to move it over")
            continue
        points: list[tuple[Value, float]] = []
        for s in settings:
            if isinstance(s, np.ndarray):
                if k.kind == "design":
                    c.patch(Override("design", k.prop, normalise(k.spec, float(s[0]))))
                    label: Value = normalise(k.spec, float(s[0]))
                else:
                    col.write(s)
                    label = _row_label(k, s, len(points), band)
            else:
                c.patch(Override(k.kind, k.prop, s))
                label = s
            try:
                value = read(ev(c))
            except (ValueError, ArithmeticError) as err:
                notes.append(f"{k.path}={label}: the engine failed ({err})")
                value = math.nan
            n_eval += 1
            points.append((label, value))
        col.restore()
        rows.append(_swing(k, points, baseline, band, _most_common(c, k)))
    rows.sort(key=lambda r: (not math.isfinite(r.swing), -r.swing if math.isfinite(r.swing)
                             else 0.0, r.path))
    return Sensitivity(output, unit, band, baseline, rows, n_eval,
                       (time.perf_counter() - t0) * 1000.0, notes)


def _most_common(c: Compiled, k: Knob) -> Value:
    """The value most of ``k``'s components (or the design) have: where ``around`` starts
    for a choice."""
    if k.kind == "design":
        return c.design.policy_value(k.prop.removeprefix("policy."))
    owners = ([x for x in c.design.components if x.kind == k.kind] if k.kind in c.tables
              else [lk for lk in c.design.links if lk.kind == k.kind])
    values = Counter(o.get(k.prop) for o in owners)
    return values.most_common(1)[0][0] if values else None


def _row_label(k: Knob, values: np.ndarray, i: int, band: str) -> Value:
    finite = values[np.isfinite(values)]
    if finite.size and np.all(finite == finite[0]):
        return normalise(k.spec, float(finite[0]))
    if band == "around":
        return "-50 %" if i == 0 else "+100 %"
    return "-1 step" if i == 0 else "+1 step"


def _swing(k: Knob, points: list[tuple[Value, float]], baseline: float, band: str,
           chosen: Value = None) -> KnobSwing:
    """The bar of knob ``k``: its low and high settings with their outputs, and the swing
    over them and ``baseline`` (the output as the design is: the bar is drawn from it).  A
    choice tried on one side only (a switch's other position, the first RAID level's next)
    has no output on the other side (NaN) and the design's ``chosen`` value there."""
    spec = k.spec
    if band == "around" and spec.type in ("bool", "enum") and len(points) == 1:
        choices: list[Value] = [False, True] if spec.type == "bool" \
            else list(spec.choices or ())
        (value, out), = points
        above = chosen in choices and choices.index(value) > choices.index(chosen)
        swing = abs(out - baseline) if math.isfinite(out) and math.isfinite(baseline) \
            else math.nan
        low, high = (chosen, value) if above else (value, chosen)
        return KnobSwing(k.path, k.label, spec.unit, k.group, low, high,
                         math.nan if above else out, out if above else math.nan, swing,
                         points)
    outs = np.array([o for _, o in points], dtype=float)
    finite = np.isfinite(outs)
    ends = np.append(outs[finite], baseline) if math.isfinite(baseline) else outs[finite]
    swing = float(ends.max() - ends.min()) if finite.any() else math.nan
    ordered = spec.type in ("int", "float") or band == "around"  # the settings low to high
    if ordered or not finite.any() or swing == 0.0:
        lo_i, hi_i = 0, len(points) - 1
    else:
        lo_i = int(np.nanargmin(np.where(finite, outs, np.nan)))
        hi_i = int(np.nanargmax(np.where(finite, outs, np.nan)))
    return KnobSwing(k.path, k.label, spec.unit, k.group, points[lo_i][0], points[hi_i][0],
                     float(outs[lo_i]), float(outs[hi_i]), swing, points)
