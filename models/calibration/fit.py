"""Fitting by code: every model coefficient from named calibration cases.

Each calibration module (``models.calibration.storage``, ...) has a ``fit(f: Fitter)`` that
produces the coefficients its subsystem fits, from the published figures of named cases, with
a closed form (:meth:`Fitter.closed`) or a least-squares solve (:meth:`Fitter.least_squares`,
Levenberg-Marquardt in the logarithm of the coefficients, Jacobian by finite differences).
:func:`fit_all` runs them in :data:`~models.core.registry.FIT_ORDER` (a model fitted later
may use the values fitted earlier) starting from every coefficient's a-priori value, so the
result depends on the cases and the code only, never on the table it regenerates.

``python -m models.calibration.fit`` writes the table
(:data:`models.core.coefficients.TABLE_PATH`): per coefficient its value, unit, the case ids
it was fitted to, the method, and a note when a single published figure pins it.
``python -m models.calibration`` (or ``headroom validate --refit``) writes it and then its
cross-validation: :mod:`models.calibration.crossval` refits with this module, so this module
never imports it.

A :class:`Fitter` is given the case ids it may use (``train``; all by default).  A
coefficient whose cases are all left out cannot be fitted: it keeps its a-priori value and is
listed in :attr:`Fitter.unpinned` (cross-validation, :mod:`models.calibration.crossval`).
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

import numpy as np

from models.calibration import cases, module
from models.core import coefficients
from models.core.coefficients import Coefficient
from models.core.registry import FIT_ORDER

Bound = Literal["eq", "gt", "lt"]


@dataclass(frozen=True)
class Target:
    """One published figure a least-squares fit matches: ``model`` against ``published``
    (``gt``/``lt``: a bound, met when the model is on its side)."""

    case: str
    model: float
    published: float
    bound: Bound = "eq"
    weight: float = 1.0

    def raw(self) -> float:
        """The log ratio, bound or not (a bound met at its edge still pins a coefficient)."""
        if not (self.model > 0 and self.published > 0):
            return self.weight * (self.model - self.published) / max(abs(self.published), 1e-12)
        return self.weight * math.log(self.model / self.published)

    def residual(self) -> float:
        if not (self.model > 0 and self.published > 0):
            return self.weight * (self.model - self.published) / max(abs(self.published), 1e-12)
        r = math.log(self.model / self.published)
        if self.bound == "gt":
            r = min(r, 0.0)
        elif self.bound == "lt":
            r = max(r, 0.0)
        return self.weight * r


@dataclass(frozen=True)
class Row:
    """One row of the generated table."""

    name: str
    value: float
    unit: str
    subsystem: str
    cases: tuple[str, ...]
    method: str
    """'closed form' or 'least squares'."""
    figures: int
    """How many published figures the value was fitted to (1: 'fitted to one figure')."""
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["cases"] = list(self.cases)
        out["one_figure"] = self.figures == 1
        return out


@dataclass
class Fitter:
    """Collects one model's fitted coefficients.

    ``values`` holds every coefficient's current value (earlier models' fitted ones, the
    others' priors) and is updated as coefficients are fitted; evaluations inside
    :meth:`closed` and :meth:`least_squares` run with it in effect.
    """

    subsystem: str
    values: dict[str, float]
    train: frozenset[str] | None = None
    rows: list[Row] = field(default_factory=list)
    unpinned: set[str] = field(default_factory=set)
    """Coefficients no usable case pins: they keep their priors."""
    underdetermined: set[str] = field(default_factory=set)
    """Coefficients a joint fit set without identifying them (fewer independent figures than
    coefficients): the priors chose part of their value."""

    def may(self, *case_ids: str) -> bool:
        """Whether every one of ``case_ids`` may be used."""
        return self.train is None or all(c in self.train for c in case_ids)

    def _unpin(self, coef: Coefficient) -> float:
        self.unpinned.add(coef.name)
        self.values[coef.name] = coef.prior
        return coef.prior

    def closed(self, coef: Coefficient, case_ids: Sequence[str], compute: Callable[[], float],
               note: str = "", figures: int = 1) -> float:
        """Fit ``coef`` as ``compute()`` (a closed form of the published figures of
        ``case_ids``, evaluated with the values fitted so far); its prior when one of those
        cases is left out."""
        for cid in case_ids:
            cases()[cid]
        if not self.may(*case_ids):
            return self._unpin(coef)
        with coefficients.using(self.values):
            v = float(compute())
        if not (math.isfinite(v) and v > 0):
            raise ValueError(f"fit of {coef.name} gave {v!r}")
        self.values[coef.name] = v
        self.rows.append(Row(coef.name, v, coef.unit, self.subsystem, tuple(case_ids),
                             "closed form", figures, note))
        return v

    def root(self, coef: Coefficient, case_ids: Sequence[str], gap: Callable[[], float],
             lo: float, hi: float, note: str = "", figures: int = 1) -> float:
        """Fit ``coef`` as the root of ``gap()`` (model minus published, evaluated with trial
        values; monotone in the coefficient) between ``lo`` and ``hi``, by bisection on the
        logarithm: for figures that saturate, where a gradient method stalls."""
        if not self.may(*case_ids):
            return self._unpin(coef)

        def at(v: float) -> float:
            with coefficients.using({**self.values, coef.name: v}):
                return float(gap())

        a, b = math.log(lo), math.log(hi)
        ga, gb = at(lo), at(hi)
        if ga * gb > 0:
            raise ValueError(f"fit of {coef.name}: no root between {lo} and {hi}")
        for _ in range(100):
            m = 0.5 * (a + b)
            gm = at(math.exp(m))
            if gm == 0.0 or b - a < 1e-13:
                a = b = m
                break
            if (gm > 0) == (ga > 0):
                a, ga = m, gm
            else:
                b = m
        v = math.exp(0.5 * (a + b))
        self.values[coef.name] = v
        self.rows.append(Row(coef.name, v, coef.unit, self.subsystem, tuple(case_ids),
                             "root (bisection)", figures, note))
        return v

    def least_squares(self, coefs: Sequence[Coefficient],
                      targets: Callable[[], Iterable[Target]], note: str = "",
                      max_iter: int = 40) -> None:
        """Fit ``coefs`` together so that the ``targets`` (evaluated with trial values) of the
        usable cases match their published figures in the least-squares sense of the log
        ratio; a coefficient no usable target depends on keeps its prior."""
        names = [c.name for c in coefs]
        x = np.log([self.values[n] for n in names])

        def evaluate(logs: np.ndarray) -> tuple[np.ndarray, list[Target]]:
            trial = dict(self.values)
            trial.update(zip(names, np.exp(logs).tolist(), strict=True))
            with coefficients.using(trial):
                ts = [t for t in targets() if self.may(t.case)]
            return np.array([t.residual() for t in ts]), ts

        r, used = evaluate(x)
        h = 1e-4
        mu = 1e-3
        free = np.ones(len(names), bool)
        moved = np.zeros(len(names), bool)
        for _ in range(max_iter):
            jac = np.empty((len(r), len(names)))
            for j in range(len(names)):
                xs = x.copy()
                xs[j] += h
                jac[:, j] = (evaluate(xs)[0] - r) / h
            free = np.asarray((np.abs(jac) > 1e-7).any(axis=0), bool)
            moved |= free
            if not free.any():
                break
            jf = jac[:, free]
            g = jf.T @ r
            a = jf.T @ jf
            improved = False
            for _ in range(20):
                step = np.linalg.solve(a + mu * np.diag(np.diag(a) + 1e-12), -g)
                trial_x = x.copy()
                trial_x[free] += step
                r_new, used_new = evaluate(trial_x)
                if r_new @ r_new < r @ r:
                    x, r, used = trial_x, r_new, used_new
                    mu = max(mu / 10.0, 1e-12)
                    improved = True
                    break
                mu *= 10.0
            if not improved or np.abs(step).max() < 1e-10:
                break
        # which coefficients the usable targets identify: those within the span of the
        # Jacobian's row space at the solution (fewer independent figures than coefficients
        # leave a direction only the priors chose)
        active = np.array([t.bound == "eq" or abs(t.raw()) < 1e-4 for t in used], bool)
        raw0 = np.array([t.raw() for t in used])
        jac = np.zeros((len(r), len(names)))
        for j in range(len(names)):
            xs = x.copy()
            xs[j] += h
            jac[:, j] = (np.array([t.raw() for t in evaluate(xs)[1]]) - raw0) / h
        jac = jac[active] if len(r) else jac
        identified = np.zeros(len(names), bool)
        if len(jac):
            _, sv, vt = np.linalg.svd(jac, full_matrices=False)
            rank = int((sv > 1e-6 * max(float(sv.max()), 1e-300)).sum()) if len(sv) else 0
            basis = vt[:rank]
            identified = (basis * basis).sum(axis=0) >= 0.99
        bounds_met = bool(used) and all(t.bound != "eq" and t.residual() == 0.0 for t in used)
        for j, coef in enumerate(coefs):
            if not moved[j] and bounds_met:
                # only bounds constrain it and its prior meets them: it stays there
                self.values[coef.name] = coef.prior
                self.rows.append(Row(coef.name, coef.prior, coef.unit, self.subsystem,
                                     tuple(sorted({t.case for t in used})),
                                     "prior (meets the published bounds)", len(used), note))
                continue
            if not moved[j]:
                self._unpin(coef)
                continue
            v = float(math.exp(x[j]))
            self.values[coef.name] = v
            if not identified[j]:
                self.underdetermined.add(coef.name)
            fitted_on = sorted({t.case for t in used if t.weight > 0})
            self.rows.append(Row(coef.name, v, coef.unit, self.subsystem, tuple(fitted_on),
                                 "least squares", len(used), note))


@dataclass
class FitResult:
    values: dict[str, float]
    rows: list[Row]
    unpinned: set[str]
    underdetermined: set[str] = field(default_factory=set)

    @property
    def free(self) -> int:
        """Coefficients the published figures set (fitted, not left at their priors)."""
        return sum(not r.method.startswith("prior") for r in self.rows)


def priors() -> dict[str, float]:
    """Every declared coefficient at its a-priori value (the models' modules imported)."""
    for name in FIT_ORDER:
        module(name)
    return {name: c.prior for name, c in coefficients.DECLARED.items()}


def fit_subsystem(name: str, values: dict[str, float],
                  train: frozenset[str] | None = None) -> Fitter:
    """Run model ``name``'s fit on top of ``values`` (updated in place)."""
    f = Fitter(name, values, train)
    module(name).fit(f)
    return f


def fit_all(train: frozenset[str] | None = None, start: FitResult | None = None,
            left_out: frozenset[str] = frozenset()) -> FitResult:
    """One fit of every coefficient from the cases: each model's routine in
    :data:`~models.core.registry.FIT_ORDER` from the priors (a routine may fit a coefficient
    another model also uses, on the figures of every study it shows in, and a model fitted later
    uses the values fitted before it).

    ``start`` (the fit on every case) and ``left_out`` (the cases ``train`` lacks) let a refit
    skip the routines that neither use a left-out case nor follow one whose values moved: they
    would give ``start``'s values again."""
    values = priors()
    rows: list[Row] = []
    unpinned: set[str] = set()
    under: set[str] = set()
    moved = False
    for name in FIT_ORDER:
        if start is not None and not moved:
            mine = [r for r in start.rows if r.subsystem == name]
            if not any(set(r.cases) & left_out for r in mine):
                for r in mine:
                    values[r.name] = start.values[r.name]
                rows.extend(mine)
                under |= {r.name for r in mine} & start.underdetermined
                continue
        before = dict(values)
        f = fit_subsystem(name, values, train)
        rows.extend(f.rows)
        unpinned |= f.unpinned
        under |= f.underdetermined
        if start is not None:
            moved = moved or any(
                not math.isclose(values[k], start.values[k], rel_tol=1e-12)
                for k in values if values[k] != before.get(k))
    missing = sorted(set(values) - {r.name for r in rows} - unpinned)
    if missing:
        raise ValueError(f"coefficients declared but fitted by no routine: {missing}")
    return FitResult(values, rows, unpinned, under)


def table_document(result: FitResult) -> dict[str, Any]:
    """The table as written to :data:`~models.core.coefficients.TABLE_PATH`."""
    rows = sorted(result.rows, key=lambda r: (FIT_ORDER.index(r.subsystem), r.name))
    out = []
    for r in rows:
        coef = coefficients.DECLARED[r.name]
        out.append({**r.to_dict(), "prior": coef.prior, "meaning": coef.doc})
    return {"format": coefficients.FORMAT, "version": 1,
            "generated_by": "python -m models.calibration.fit",
            "coefficients": out}


def write_table(result: FitResult | None = None) -> dict[str, Any]:
    """Fit everything and write the table; returns the document written."""
    doc = table_document(result or fit_all())
    text = json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
    coefficients.TABLE_PATH.write_text(text, encoding="utf-8")
    coefficients.table.cache_clear()
    return doc


def print_table(doc: dict[str, Any]) -> None:
    """One line per fitted coefficient of a written table."""
    for r in doc["coefficients"]:
        one = " (one figure)" if r["one_figure"] else ""
        print(f"  {r['name']:44} {r['value']:>14.6g} {r['unit'][:30]:30}{one}")


def main() -> int:
    """Write the table (its cross-validation is ``python -m models.calibration``'s)."""
    doc = write_table()
    print(f"wrote {len(doc['coefficients'])} fitted coefficients to {coefficients.TABLE_PATH}"
          " (python -m models.calibration also rewrites their cross-validation)")
    print_table(doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
