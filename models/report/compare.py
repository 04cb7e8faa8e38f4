"""The base design and every scenario side by side: each KPI's value and its change.

A change is judged against the base design with the KPI's direction
(:attr:`~models.engine.kpis.Kpi.higher_is_better`): ``better``, ``worse``, ``changed`` (a
KPI with no better side) or ``same`` when the difference is below
:data:`~models.document.numbers.RESOLUTION` (what the models resolve; the dashboard's "no
change" is the same).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from models.core.prediction import Prediction
from models.document.design import Design, DesignError
from models.document.numbers import RESOLUTION
from models.engine.evaluation import evaluate
from models.engine.kpis import KPIS, Kpi

BASE = "base"

Change = Literal["same", "better", "worse", "changed", "appears", "gone", "none"]
"""How a value stands against the base design's: ``appears``/``gone`` when only one of them
has a figure, ``none`` when neither has."""

Progress = Callable[[int, int, str], None]
"""``(done, total, what)``, called between steps (may raise to stop the work)."""


@dataclass(frozen=True)
class Cell:
    value: float | None
    change: Change
    delta: float | None = None
    """``value - base``; None unless both are figures."""
    rel: float | None = None
    """``delta / |base|``; None when the base is 0 or missing."""


def judge(kpi: Kpi, value: float | None, base: float | None) -> Cell:
    """``value`` of ``kpi`` against the base design's ``base``."""
    return weigh(value, base, kpi.higher_is_better)


def weigh(value: float | None, base: float | None, higher_is_better: bool | None) -> Cell:
    """``value`` against ``base`` when more is better (True), worse (False) or neither."""
    ok = value is not None and math.isfinite(value)
    bok = base is not None and math.isfinite(base)
    if not ok and not bok:
        return Cell(value, "none")
    if not bok:
        return Cell(value, "appears")
    if not ok or value is None or base is None:
        return Cell(value, "gone")
    delta = value - base
    rel = delta / abs(base) if base != 0 else None
    if abs(delta) <= RESOLUTION * max(abs(value), abs(base)):
        return Cell(value, "same", 0.0, 0.0 if rel is not None else None)
    if higher_is_better is None:
        return Cell(value, "changed", delta, rel)
    better = (delta > 0) == higher_is_better
    return Cell(value, "better" if better else "worse", delta, rel)


@dataclass(frozen=True)
class Column:
    name: str
    """``base`` or the scenario's name."""
    prediction: Prediction | None
    error: str = ""
    """Why the scenario could not be evaluated (its prediction is then None)."""

    @property
    def refusals(self) -> list[str]:
        """The prediction's ``error:`` warnings (a VM that cannot power on, ...)."""
        p = self.prediction
        return [w for w in p.warnings if w.startswith("error:")] if p is not None else []


@dataclass(frozen=True)
class Row:
    kpi: Kpi
    cells: tuple[Cell, ...]
    """One per column, the base design's first."""
    higher_is_better: bool | None = None
    """The direction the cells were judged by (:func:`direction`)."""

    @property
    def varies(self) -> bool:
        """Whether any scenario changes this KPI."""
        return any(c.change not in ("same", "none") for c in self.cells[1:])


@dataclass
class Comparison:
    columns: list[Column]
    rows: list[Row] = field(default_factory=list)
    """The KPIs at least one column measures, in :data:`KPIS` order."""

    def row(self, key: str) -> Row | None:
        return next((r for r in self.rows if r.kpi.key == key), None)

    def column(self, name: str) -> Column | None:
        return next((c for c in self.columns if c.name == name), None)

    @property
    def predictions(self) -> list[Prediction]:
        return [c.prediction for c in self.columns if c.prediction is not None]


def compare(design: Design, known: dict[str, Prediction] | None = None,
            progress: Progress | None = None, kpis: Sequence[Kpi] = KPIS) -> Comparison:
    """Evaluate the base design and every scenario (reusing ``known`` predictions by
    scenario name) and judge each KPI against the base."""
    names = [BASE, *(s.name for s in design.scenarios if s.name != BASE)]
    known = known or {}
    columns: list[Column] = []
    for i, name in enumerate(names):
        if progress is not None:
            progress(i, len(names), f"Evaluating {'the base design' if name == BASE else name}")
        if name in known:
            columns.append(Column(name, known[name]))
            continue
        try:
            columns.append(Column(name, evaluate(design, None if name == BASE else name)))
        except DesignError as err:  # a scenario the design no longer accepts
            columns.append(Column(name, None, err.describe()))
    return Comparison(columns, table(columns, kpis))


def direction(kpi: Kpi, p: Prediction | None) -> bool | None:
    """Whether more of ``kpi`` is better in this design: the KPI's own direction, except
    network throughput where the traffic is a cost and not the result (remote desktops'
    PCoIP over a WAN): neither side is better there."""
    if kpi.key == "network_gbps" and p is not None and p.sections.vdi is not None:
        return None
    return kpi.higher_is_better


def table(columns: Sequence[Column], kpis: Sequence[Kpi] = KPIS) -> list[Row]:
    rows = []
    base_p = columns[0].prediction if columns else None
    for kpi in kpis:
        way = direction(kpi, base_p)
        values = [kpi.value(c.prediction) if c.prediction is not None else None
                  for c in columns]
        if all(v is None for v in values):
            continue
        base = values[0]
        rows.append(Row(kpi, tuple(weigh(v, base, way) if i else
                                   Cell(v, "none" if v is None else "same")
                                   for i, v in enumerate(values)), way))
    return rows


def best(comparison: Comparison, key: str) -> tuple[str, Cell] | None:
    """The scenario that improves KPI ``key`` most over the base (None when none does)."""
    row = comparison.row(key)
    if row is None or row.higher_is_better is None:
        return None
    found = [(comparison.columns[i].name, c) for i, c in enumerate(row.cells)
             if i and c.change == "better" and c.delta is not None]
    if not found:
        return None
    sign = 1.0 if row.higher_is_better else -1.0
    return max(found, key=lambda nc: sign * (nc[1].delta or 0.0))
