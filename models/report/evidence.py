"""Which calibration studies a design's predictions rest on: the subsystems whose models give
the design a figure, in the base design or any scenario.  The report's appendix lists their
checks only (a storage design has no use for the Content Library or PCoIP studies)."""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from models.calibration import Check, all_checks, crossval
from models.core.prediction import Prediction
from models.core.registry import NAMES, SUBSYSTEMS, subsystem
from models.document.design import Design, DesignError, apply_scenario


def used_by(p: Prediction, design: Design | None = None) -> set[str]:
    """The calibration subsystems whose models give prediction ``p`` a figure (each row of
    :data:`models.core.registry.SUBSYSTEMS` says when); ``design`` (the design ``p`` was
    evaluated from) tells file transfers from other traffic."""
    return {s.name for s in SUBSYSTEMS if s.uses(p, design)}


def relevant_subsystems(design: Design, predictions: Iterable[tuple[str, Prediction]]
                        ) -> tuple[str, ...]:
    """The subsystems any of ``predictions`` (scenario name, prediction) uses, in
    :data:`models.core.registry.SUBSYSTEMS` order."""
    used: set[str] = set()
    for name, p in predictions:
        try:
            effective = apply_scenario(design, name)
        except DesignError:  # a scenario that no longer applies: judge by the prediction
            effective = None
        used |= used_by(p, effective)
    return tuple(s for s in NAMES if s in used)


@dataclass
class Evidence:
    """The calibration checks behind a design's predictions."""

    subsystems: tuple[str, ...]
    checks: list[Check] = field(default_factory=list)
    cross_validated: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    """Per (case id, quantity): the stored cross-validation of ``headroom validate --cv``
    (models.calibration.crossval), empty when it was not written."""
    error: str = ""
    """Why the checks could not be run (the report says so instead of listing them)."""

    @property
    def titles(self) -> list[str]:
        return [subsystem(s).title for s in self.subsystems]

    def predicted(self) -> tuple[int, float | None]:
        """How many of the figures (a single published value, fitted or checked) the other
        studies predict with the figure's own study left out, and their median |error|."""
        errs = [abs(float(e)) for ch in self.checks
                if ch.bound == "eq" and ch.role != "rule"
                and (e := (self.cross_validated.get((ch.case_id, ch.quantity)) or {})
                     .get("cv_error")) is not None]
        return len(errs), (statistics.median(errs) if errs else None)


def gather(subsystems: tuple[str, ...]) -> Evidence:
    """Run the checks of ``subsystems`` (a broken check module is reported, not raised)."""
    try:
        return Evidence(subsystems, all_checks(subsystems) if subsystems else [],
                        cross_validated=crossval.stored())
    except (OSError, ImportError, KeyError, ValueError, ArithmeticError, DesignError) as err:
        # a calibration module or case file that cannot be read must not stop the report
        return Evidence(subsystems, [], error=f"The calibration checks could not be run: {err}")
