"""Knob sweeps: the values a sweep of a knob visits and the predictions along it.

One implementation for every caller: ``headroom sweep`` (:func:`range_values`, then
:func:`run_steps`), the knob curve (drawn through :func:`curve_values`, zoomed by
:func:`zoom_values`), the curve's uncertainty band (:func:`sweep_bands`) and the document's
sweep (:func:`sweep`).  A sweep runs on an engine of its own: each value is one patch of the
knob's column (the engine re-runs only the models that read it), and the caller's design is
never changed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from models.core.prediction import Prediction
from models.core.uncertainty import Bands
from models.document.design import (
    Design,
    DesignError,
    Issue,
    Override,
    check_value,
    make_override,
    normalise,
    selector_kind,
    split_path,
)
from models.document.knobs import Knob, knob, knob_at
from models.document.schema import Value, prop_spec
from models.engine.evaluation import Engine, evaluate_bands

CURVE_POINTS = 32
"""Knob values a curve is drawn through (fewer where the knob has fewer settings)."""
SLIDER_STEPS = 200
"""Positions of a knob's scale without a natural step (and of every log-scale knob)."""
MAX_STEPS = 100_000
"""The most values one numeric sweep may visit."""


class SweepError(ValueError):
    """The values asked for cannot be swept.  ``problem`` names what is wrong, for a caller
    that words it in its own terms: ``"bounds"`` (a numeric knob needs a start and a stop),
    ``"steps"`` (from 1 to :data:`MAX_STEPS`) or ``"log"`` (geometric steps need ends above
    0)."""

    def __init__(self, problem: str, message: str):
        super().__init__(message)
        self.problem = problem


class KnobScale:
    """A knob's value range on integer positions, linear or logarithmic: the knob panel's
    sliders move along it and a curve is drawn through it."""

    def __init__(self, k: Knob):
        spec = k.spec
        lo = k.min if k.min is not None else spec.min
        hi = k.max if k.max is not None else spec.max
        self.lo = float(lo if lo is not None else 0.0)
        self.hi = float(hi if hi is not None else max(self.lo + 1.0, 100.0))
        self.log = k.log and self.lo > 0
        self.step = k.step
        self.is_int = spec.type == "int"
        if not self.log and self.step:
            self.positions = max(1, min(1000, round((self.hi - self.lo) / self.step)))
        else:
            self.positions = SLIDER_STEPS

    def to_value(self, pos: int) -> float | int:
        t = min(max(pos, 0), self.positions) / self.positions
        if self.log:
            x = math.exp(math.log(self.lo) + t * (math.log(self.hi) - math.log(self.lo)))
        else:
            x = self.lo + t * (self.hi - self.lo)
        if self.step:
            x = self.lo + round((x - self.lo) / self.step) * self.step
        x = min(max(x, self.lo), self.hi)
        if self.is_int:
            return round(x)
        return float(f"{x:.4g}")

    def to_pos(self, value: float) -> int:
        x = min(max(float(value), self.lo), self.hi)
        if self.log:
            t = (math.log(x) - math.log(self.lo)) / (math.log(self.hi) - math.log(self.lo))
        else:
            t = (x - self.lo) / (self.hi - self.lo) if self.hi > self.lo else 0.0
        return round(t * self.positions)


# --------------------------------------------------------------------------- values


def curve_values(k: Knob, points: int = CURVE_POINTS) -> list[Value]:
    """The values a curve of knob ``k`` is drawn through: every choice, or ``points`` steps
    along its scale (:class:`KnobScale`; fewer where steps round to the same value)."""
    if k.spec.type == "bool":
        return [False, True]
    if k.choices is not None:
        return list(k.choices)
    scale = KnobScale(k)
    out: list[Value] = []
    for i in range(points):
        v = scale.to_value(round(i * scale.positions / (points - 1)))
        if v not in out:
            out.append(v)
    return out


def range_values(path: str, start: float | None, stop: float | None, steps: int,
                 log: bool | None = None, design: Design | None = None) -> list[Value]:
    """The values a sweep of ``path`` from ``start`` to ``stop`` visits: every choice of a
    bool or enum knob when no start is given; else ``steps`` numbers, geometric when ``log``
    (by default the knob's own scale), whole for an int property, only the allowed ones
    within the range for a property restricted to a set.  With ``design``, an
    ``id:``/``tag:`` path finds the knob of the selected kind.  SweepError when the range
    cannot be swept."""
    k = knob_at(design, path) if design is not None else knob(path)
    spec = k.spec if k else None
    if k is not None and spec is not None and spec.type in ("bool", "enum") and start is None:
        return [c == "true" if spec.type == "bool" else c for c in k.choices or ()]
    if start is None or stop is None:
        raise SweepError("bounds", "a numeric knob needs a start and a stop")
    if steps < 1 or steps > MAX_STEPS:
        raise SweepError("steps", f"steps must be from 1 to {MAX_STEPS}")
    use_log = log if log is not None else bool(k and k.log)
    if use_log and (start <= 0 or stop <= 0):
        raise SweepError("log", "geometric steps need a start and a stop above 0")
    vals = (np.geomspace(start, stop, steps) if use_log else np.linspace(start, stop, steps))
    if spec is not None and spec.type == "int":
        return [v for v in sorted({round(float(v)) for v in vals}, reverse=start > stop)]
    if spec is not None and spec.choices is not None:
        return [float(c) for c in spec.choices
                if min(start, stop) <= float(c) <= max(start, stop)]
    return [float(v) for v in vals]


def zoom_values(k: Knob, values: Sequence[Value], mean: np.ndarray,
                points: int = CURVE_POINTS) -> list[Value] | None:
    """Values from the knob's minimum to just past where the response time saturates (NaN in
    ``mean``, the curve's figure at each of ``values``), when that happens in the first half
    of a linear knob's range (a 0-2,000 requests/s knob whose farm saturates at 60 would
    otherwise show two points before the wall); None when the full range is the better
    view."""
    if k.choices is not None or k.log or k.spec.type not in ("int", "float"):
        return None
    nan = np.flatnonzero(np.isnan(mean))
    if nan.size == 0 or not 0 < nan[0] < len(values) // 2:
        return None
    lo, hi = values[0], values[nan[0]]
    assert isinstance(lo, (int, float)) and isinstance(hi, (int, float))
    grid = np.linspace(float(lo), float(hi), points)
    if k.spec.type == "int":
        return list(dict.fromkeys(round(float(v)) for v in grid))
    return [float(v) for v in grid]


# --------------------------------------------------------------------------- running


def sweep_overrides(design: Design, path: str, values: Sequence[Value]) -> list[Override]:
    """One validated override of knob ``path`` per value, as :func:`make_override` makes
    them; the selector is resolved once (on a large design that is the costly part), each
    later value only checked.  DesignError names the first value that is not valid."""
    if not values:
        return []
    select, prop = split_path(path)
    first = make_override(design, select, prop, values[0])
    kind = selector_kind(design, select)
    spec = prop_spec(kind, prop) if kind is not None else None
    if spec is None:  # not reached: make_override refused the path already
        return [first, *(make_override(design, select, prop, v) for v in values[1:])]
    out = [first]
    for v in values[1:]:
        problem = check_value(spec, v)
        if problem:
            raise DesignError([Issue(f"select '{select}'", problem, prop)])
        out.append(Override(select, prop, normalise(spec, v)))
    return out


@dataclass(frozen=True)
class Step:
    """One value of a sweep and the prediction there (with its bands when asked for)."""

    value: Value
    prediction: Prediction
    bands: Bands | None = None

    def to_dict(self) -> dict[str, Any]:
        """One entry of a ``headroom-sweep`` document's ``steps``: the value, the summary and
        (with bands) a [low, high] per summary output and the case ids behind them."""
        row: dict[str, Any] = {"value": self.value, "summary": self.prediction.summary_dict()}
        if self.bands is not None:
            row["bands"] = {k: [lo, hi] for k, (lo, hi) in self.bands.summary.items()}
            row["bands"]["sources"] = [s.case_id for s in self.bands.sources]
        return row


def run_steps(engine: Engine, overrides: Sequence[Override], *, detail: bool = True,
              bands: bool = False) -> Iterator[Step]:
    """Patch ``engine`` with each override in turn and evaluate: one :class:`Step` per
    ``next()``, so that a caller in the background can stop between values.  ``detail``:
    False when only the summaries are read (bottlenecks, warnings and extras are skipped);
    ``bands``: two more evaluations per value at the ends of the published ranges.  The
    engine is left at the last value."""
    for ov in overrides:
        engine.patch(ov)
        pred = engine.evaluate(detail=detail)
        yield Step(ov.value, pred, evaluate_bands(engine, pred) if bands else None)


def sweep(design: Design, scenario: str | None, path: str, values: Sequence[Value], *,
          detail: bool = True, check: Callable[[], None] | None = None) -> list[Prediction]:
    """The predictions of ``design`` (in ``scenario``) at each value of knob ``path``
    (``vm.workload.io_oio``, ``id:v1.workload.io_oio``, ``design.policy.cpu_util_max``), on
    a private engine.  DesignError on a bad path or value (before anything is evaluated).
    ``check`` is called between values (a background job raises from it when cancelled)."""
    return list(iter_sweep(design, scenario, path, values, detail=detail, check=check))


def iter_sweep(design: Design, scenario: str | None, path: str, values: Sequence[Value], *,
               detail: bool = True, check: Callable[[], None] | None = None
               ) -> Iterator[Prediction]:
    """:func:`sweep` one prediction at a time, so that a caller reading a few figures of each
    keeps one prediction, not all of them (a 50,000-VM curve of 27 values held 400 MB)."""
    overrides = sweep_overrides(design, path, values)
    engine = Engine(design, scenario)
    for step in run_steps(engine, overrides, detail=detail):
        yield step.prediction
        if check is not None:
            check()


def sweep_bands(design: Design, scenario: str | None, path: str, values: Sequence[Value]
                ) -> Iterator[Bands]:
    """The bands at each value of knob ``path``, one value per ``next()`` (three evaluations
    each, on a private engine: pass a ``design.copy()`` when running in the background), so
    that a job can stop between values.  DesignError on a bad value."""
    overrides = sweep_overrides(design, path, values)
    for step in run_steps(Engine(design, scenario), overrides, bands=True):
        assert step.bands is not None
        yield step.bands
