"""Calibration: the published figures each model is fitted to or checked against.

Each subsystem of :data:`models.core.registry.SUBSYSTEMS` has a module here (``storage``,
``network``, ``ft``, ...) with a ``checks() -> list[Check]`` function that rebuilds a study's
testbed as a design, evaluates it through the public engine and compares with the published
figure, and a ``fit(f: Fitter)`` (:mod:`models.calibration.fit`).
``role`` says whether the figure was used to fit a coefficient (``fit``), is a rule the engine
implements as stated (``rule``), or was not used in fitting at all (``check``) - the honest test.
"""

from __future__ import annotations

import importlib
import json
import math
from dataclasses import dataclass, field
from functools import cache
from types import ModuleType
from typing import Any, Literal

from models.core.registry import NAMES
from models.document.resources import RESOURCES
from models.document.studies import Study, named
from models.engine.evaluation import Watch, current_watch, watching

CASES_PATH = RESOURCES / "calibration" / "cases.jsonl"


@dataclass(frozen=True)
class Check:
    case_id: str
    quantity: str
    """What is compared, e.g. 'IOPS, 1 VM, filter on / off'."""
    published: float
    model: float
    tolerance: float
    """Largest acceptable relative error (0.1 = 10%); for bounds, the slack allowed."""
    role: Literal["fit", "check", "rule"] = "check"
    bound: Literal["eq", "gt", "lt"] = "eq"
    """'gt': published is a lower bound ('over 70K'); 'lt': an upper bound."""
    note: str = ""
    saturates: str = field(default_factory=lambda: saturation(current_watch()), compare=False)
    """The resource the figure's run saturates, in words, or the busiest when none does: the
    last prediction the check read (:func:`models.engine.evaluation.watching`, open while
    :func:`all_checks` runs each study's checks); empty where it read none (a rule the
    engine states, a price, a closed form)."""

    @property
    def error(self) -> float:
        """Relative error of the model against the published figure (0 when a bound holds)."""
        if self.bound == "gt" and self.model >= self.published:
            return 0.0
        if self.bound == "lt" and self.model <= self.published:
            return 0.0
        if self.published == 0:
            return abs(self.model)
        return (self.model - self.published) / abs(self.published)

    @property
    def ok(self) -> bool:
        return math.isfinite(self.model) and abs(self.error) <= self.tolerance + 1e-12

    def case(self) -> dict[str, Any]:
        return cases()[self.case_id]

    @property
    def study(self) -> Study:
        """The study of its case (:mod:`models.document.studies`: one title however the case
        file spells it)."""
        return named(str(self.case()["study"]))

    def to_dict(self) -> dict[str, Any]:
        c = self.case()
        return {"case": self.case_id, "study": self.study.title, "subsystem": c["subsystem"],
                "modelability": c["modelability"], "quantity": self.quantity,
                "published": self.published, "bound": self.bound, "model": self.model,
                "error": self.error, "tolerance": self.tolerance, "ok": self.ok,
                "role": self.role, "note": self.note, "saturates": self.saturates,
                "quote": c["quote"]}


@cache
def cases() -> dict[str, dict[str, Any]]:
    """All calibration cases by id (the bundled copy of shared/calibration/cases.jsonl)."""
    out: dict[str, dict[str, Any]] = {}
    with CASES_PATH.open(encoding="utf-8") as f:
        for line in f:
            if line.strip():
                case = json.loads(line)
                out[case["id"]] = case
    return out


def published(case_id: str, *keys: str) -> Any:
    """The case's published value at ``keys`` (``published("x", "1GbE")``), read from the
    case file: the fitting routines take their figures from here, never typed in."""
    out: Any = cases()[case_id]["published"]
    for k in keys:
        out = out[k]
    return out


def middle(case_id: str, *keys: str) -> float:
    """The middle of a published range ``[lo, hi]`` (a number is its own middle)."""
    v = published(case_id, *keys)
    if isinstance(v, list):
        return (float(v[0]) + float(v[1])) / 2.0
    return float(v)


def module(name: str) -> ModuleType:
    """Subsystem ``name``'s calibration module (``models.calibration.<name>``)."""
    return importlib.import_module(f"models.calibration.{name}")


def all_checks(subsystems: tuple[str, ...] = NAMES) -> list[Check]:
    """The checks of ``subsystems`` (every subsystem's by default), in that order, each
    naming what its run saturates (:attr:`Check.saturates`)."""
    out: list[Check] = []
    for name in subsystems:
        with watching():
            out.extend(module(name).checks())
    return out


SATURATED = 0.9
"""A resource this busy or busier saturates (a figure's run is bound by it)."""
NOTHING_SATURATES = "saturates nothing"
"""How :func:`saturation` begins where no resource reaches :data:`SATURATED`."""


def saturation(watch: Watch | None) -> str:
    """What the last prediction of ``watch`` saturates in words ("saturates the CPU of host
    h1 (100%)"), or its busiest resource when nothing is past :data:`SATURATED` ("saturates
    nothing; busiest: the storage array a1 at 45%"); "" without one."""
    busiest = watch.busiest() if watch is not None else None
    if busiest is None:
        return ""
    what, util = busiest
    if util >= SATURATED:
        return f"saturates {what} ({util:.0%})"
    return f"{NOTHING_SATURATES}; busiest: {what} at {util:.0%}"


def covered_cases(checks: list[Check]) -> set[str]:
    return {c.case_id for c in checks}


def speed_of_host(host: dict[str, Any]) -> float:
    """Per-core speed of a testbed host (its processor against the reference core,
    :mod:`models.core.platform`): a closed-form fit turns a cost measured on the testbed's
    cores into the reference core's time by multiplying by it."""
    from models.core.compiled import compile_design  # noqa: PLC0415
    from models.core.platform import compute  # noqa: PLC0415
    from models.document.design import Component, Design  # noqa: PLC0415

    d = Design(components=[Component("h", "host", props=dict(host))])
    return float(compute(compile_design(d)).speed[0])
