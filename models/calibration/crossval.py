"""Cross-validation: refit without a study, predict what was left out.

For every fold of the published figures (one study by default: every case of it at once;
``by="case"`` leaves out one case), the whole fit is rerun from the priors on the other cases
(:func:`models.calibration.fit.fit_all`: a coefficient two studies share is refitted from the
other one), the checks are evaluated with those values, and the left-out figures are compared
with what the model now predicts.  That error, leaving whole studies out, not the fitted one,
is the accuracy the README, the Evidence panel and the report quote.

A figure whose coefficient only the left-out case pins cannot be predicted: its coefficient
falls back to its prior, and when the figure moves with that coefficient it is marked
*reproduced only* (no independent check possible) and left out of the statistics.  Rules (the
engine implements them as the study states them) are not cross-validated.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from models.calibration import Check, cases, module
from models.calibration.fit import FitResult, Row, fit_all
from models.core import coefficients
from models.core.registry import FIT_ORDER, SUBSYSTEMS
from models.document.resources import RESOURCES
from models.document.studies import named

SENSITIVITY = 0.005
"""A figure that moves more than this (relative) when an unpinned coefficient moves by 25% up
or 20% down is 'reproduced only' in that fold."""


TARGET_MEDIAN = 0.15
"""What a study's figures, predicted with the study left out, should stay within: median
|error|."""
TARGET_MAX = 0.30
"""... and largest |error|."""


@dataclass(frozen=True)
class CvComparison:
    """One published figure: the fitted model's value and the cross-validated prediction."""

    check: Check
    module: str
    fold: str
    cv_model: float | None
    """None when the figure is reproduced only."""
    unpinned: tuple[str, ...] = ()
    """The coefficients only the left-out case pins (reproduced only when non-empty)."""

    @property
    def reproduced_only(self) -> bool:
        return self.cv_model is None

    @property
    def cv_error(self) -> float | None:
        if self.cv_model is None:
            return None
        return replace(self.check, model=self.cv_model).error

    @property
    def cv_ok(self) -> bool | None:
        if self.cv_model is None:
            return None
        return replace(self.check, model=self.cv_model).ok

    def to_dict(self) -> dict[str, Any]:
        return {**self.check.to_dict(), "module": self.module, "fold": self.fold,
                "cv_model": self.cv_model, "cv_error": self.cv_error,
                "reproduced_only": self.reproduced_only, "unpinned": list(self.unpinned)}


@dataclass
class CvReport:
    by: str
    comparisons: list[CvComparison] = field(default_factory=list)

    def _mine(self, subsystem: str | None, study: str | None) -> list[CvComparison]:
        return [c for c in self.comparisons
                if (subsystem is None or c.check.case()["subsystem"] == subsystem)
                and (study is None or c.check.study.title == study)]

    def stats(self, subsystem: str | None = None, study: str | None = None) -> dict[str, Any]:
        """Median and largest |error|, fitted and cross-validated, over the figures with a
        published value (bounds are counted as held or broken), of one subsystem or study or
        of all."""
        mine = self._mine(subsystem, study)
        num = [c for c in mine if c.check.bound == "eq"]
        fitted = [abs(c.check.error) for c in num]
        cv = [abs(e) for c in num if (e := c.cv_error) is not None]
        bounds = [c for c in mine if c.check.bound != "eq"]
        return {"figures": len(num), "fitted_median": _med(fitted), "fitted_max": _max(fitted),
                "cv_median": _med(cv), "cv_max": _max(cv), "cv_figures": len(cv),
                "reproduced_only": sum(c.reproduced_only for c in num),
                "bounds": len(bounds),
                "bounds_held_cv": sum(bool(c.cv_ok) for c in bounds),
                "bounds_reproduced_only": sum(c.reproduced_only for c in bounds)}

    def by_subsystem(self) -> dict[str, dict[str, Any]]:
        """Per subsystem (keyed as its cases name it), in fitting order."""
        rank = {s.cases: s.fit_order for s in SUBSYSTEMS}
        present = {c.check.case()["subsystem"] for c in self.comparisons}
        return {s: self.stats(s) for s in sorted(present, key=lambda s: (
            rank.get(s, len(rank)), s))}

    def by_study(self) -> dict[str, dict[str, Any]]:
        """Per study (its title), in the order their figures come, with its targets."""
        titles = dict.fromkeys(c.check.study.title for c in self.comparisons)
        return {t: {**self.stats(study=t), "target_median": TARGET_MEDIAN,
                    "target_max": TARGET_MAX} for t in titles}

    def by_case(self) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for cid in dict.fromkeys(c.check.case_id for c in self.comparisons):
            mine = [c for c in self.comparisons if c.check.case_id == cid]
            num = [c for c in mine if c.check.bound == "eq"]
            cv = [abs(e) for c in num if (e := c.cv_error) is not None]
            out[cid] = {"subsystem": mine[0].check.case()["subsystem"],
                        "fold": mine[0].fold, "figures": len(mine),
                        "fitted_median": _med([abs(c.check.error) for c in num]),
                        "cv_median": _med(cv),
                        "reproduced_only": sum(c.reproduced_only for c in mine)}
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"format": "headroom-cross-validation", "version": 1, "by": self.by,
                "summary": self.stats(), "subsystems": self.by_subsystem(),
                "studies": self.by_study(),
                "cases": self.by_case(),
                "comparisons": [c.to_dict() for c in self.comparisons]}


def _med(xs: list[float]) -> float | None:
    return statistics.median(xs) if xs else None


def _max(xs: list[float]) -> float | None:
    return max(xs) if xs else None


def _fold_key(check: Check, by: str) -> str:
    return check.case_id if by == "case" else check.study.title


def _numeric_checks(checks: Iterable[Check]) -> list[Check]:
    return [c for c in checks if c.role in ("fit", "check")]


def cross_validate(by: Literal["case", "study"] = "study",
                   modules: tuple[str, ...] = FIT_ORDER,
                   full: FitResult | None = None) -> CvReport:
    """Leave-one-out cross-validation of the figures of ``modules`` (see the module doc): per
    fold, the whole fit (:func:`~models.calibration.fit.fit_all`) rerun without the fold's
    cases, so a coefficient two studies share is refitted from the other one."""
    full = full or fit_all()
    pinned_by: dict[str, set[str]] = {}
    for row in full.rows:
        if not row.method.startswith("prior"):
            for cid in row.cases:
                pinned_by.setdefault(cid, set()).add(row.name)
    fitted: dict[str, list[Check]] = {}
    folds: dict[str, list[tuple[str, int]]] = {}
    with coefficients.using(full.values):
        for name in modules:
            fitted[name] = _numeric_checks(module(name).checks())
            for i, ch in enumerate(fitted[name]):
                folds.setdefault(_fold_key(ch, by), []).append((name, i))
    report = CvReport(by)
    for key, items in folds.items():
        left_out = ({key} if by == "case"
                    else {cid for cid, c in cases().items()
                          if named(str(c["study"])).title == key})
        touched = set().union(*(pinned_by.get(cid, set()) for cid in left_out))
        if not touched:  # no coefficient was fitted to it: the prediction is the fit's
            report.comparisons += [CvComparison(fitted[m][i], m, key, fitted[m][i].model)
                                   for m, i in items]
            continue
        refit = fit_all(frozenset(cases()) - left_out, full, frozenset(left_out))
        names = list(dict.fromkeys(m for m, _ in items))
        with coefficients.using(refit.values):
            predicted = {m: _numeric_checks(module(m).checks()) for m in names}
        lost = sorted(u for u in refit.unpinned | refit.underdetermined if u in touched)
        moved: set[tuple[str, int]] = set()
        for u in lost:
            for factor in (1.25, 0.8):
                with coefficients.using({**refit.values, u: refit.values[u] * factor}):
                    shifted = {m: _numeric_checks(module(m).checks()) for m in names}
                for m, i in items:
                    a, b = predicted[m][i].model, shifted[m][i].model
                    if abs(b - a) > SENSITIVITY * max(abs(a), 1e-12):
                        moved.add((m, i))
        for m, i in items:
            if predicted[m][i].quantity != fitted[m][i].quantity:
                raise AssertionError(f"{m}: checks changed order under a refit")
            gone = (m, i) in moved
            report.comparisons.append(CvComparison(
                fitted[m][i], m, key, None if gone else predicted[m][i].model,
                tuple(lost) if gone else ()))
    order = {m: k for k, m in enumerate(modules)}
    report.comparisons.sort(key=lambda c: order[c.module])
    return report


def rows_of(result: FitResult, module: str) -> list[Row]:
    return [r for r in result.rows if r.subsystem == module]


STORED_PATH = RESOURCES / "fitted" / "crossval.json"
"""The cross-validation of the committed table, written with it (``python -m
models.calibration``): the Evidence panel and the report read it instead of refitting."""


def write_stored(report: CvReport | None = None) -> dict[str, Any]:
    """Cross-validate (leave one study out) and write :data:`STORED_PATH`."""
    doc = (report or cross_validate()).to_dict()
    for row in doc["comparisons"]:  # what the views need; the rest is in --cv --json
        for key in ("quote", "study", "modelability"):
            row.pop(key, None)
    STORED_PATH.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n",
                           encoding="utf-8")
    return doc


def stored() -> dict[tuple[str, str], dict[str, Any]]:
    """The stored cross-validation per (case id, quantity); empty when not written yet."""
    if not STORED_PATH.exists():
        return {}
    doc = json.loads(STORED_PATH.read_text(encoding="utf-8"))
    return {(r["case"], r["quantity"]): r for r in doc["comparisons"]}


def stored_summary() -> dict[str, Any]:
    """The stored report's overall and per-subsystem statistics ({} when not written)."""
    if not STORED_PATH.exists():
        return {}
    doc = json.loads(STORED_PATH.read_text(encoding="utf-8"))
    return {"summary": doc["summary"], "subsystems": doc["subsystems"],
            "studies": doc.get("studies", {}), "by": doc.get("by", "case")}
