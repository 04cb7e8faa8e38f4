"""Which calibration studies a design's predictions rest on: the subsystems whose models give
the design a figure, in the base design or any scenario, and within a subsystem the studies
whose mechanism the design has (:data:`ONLY_WHEN`).  The report's appendix lists their checks
only: a storage design has no use for the Content Library or PCoIP studies, and an estate
measured for CPU and memory none for the web farm's dense mode, latency-sensitive VMs or FT."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from models.calibration import Check, all_checks, crossval
from models.core.prediction import Prediction
from models.core.registry import NAMES, SUBSYSTEMS, Uses, of_cases, subsystem
from models.document.design import Component, Design, DesignError, apply_scenario
from models.document.studies import BEST_PRACTICES_4, DENSE, DOCKER_TX, DOCKER_WEB, FT4


def used_by(p: Prediction, design: Design | None = None) -> set[str]:
    """The calibration subsystems whose models give prediction ``p`` a figure (each row of
    :data:`models.core.registry.SUBSYSTEMS` says when); ``design`` (the design ``p`` was
    evaluated from) tells file transfers from other traffic."""
    return {s.name for s in SUBSYSTEMS if s.uses(p, design)}


def _vms(design: Design | None, held: Callable[[Component], bool]) -> bool:
    return design is not None and any(held(v) for v in design.of_kind("vm"))


def _web_or_dense(p: Prediction, design: Design | None) -> bool:
    """Web VMs (requests with a response time), or a host in dense mode."""
    return bool(p.vms.request_driven.any()) or (design is not None and any(
        h.get("dense_mode") is True for h in design.of_kind("host")))


def _ft(p: Prediction, _design: Design | None) -> bool:
    return bool(p.vms.ft.any())


def _latency_sensitive(_p: Prediction, design: Design | None) -> bool:
    return _vms(design, lambda v: v.get("latency_sensitivity") == "high")


def _containers(_p: Prediction, design: Design | None) -> bool:
    return _vms(design, lambda v: bool(v.get("containers")))


ONLY_WHEN: dict[tuple[str, str], Uses] = {
    ("consolidation", DENSE.title): _web_or_dense,
    ("consolidation", DOCKER_WEB.title): _latency_sensitive,
    ("consolidation", BEST_PRACTICES_4.title): _ft,
    ("consolidation", FT4.title): _ft,
    ("cpu_virtualization", DOCKER_TX.title): _containers,
    ("cpu_virtualization", DOCKER_WEB.title):
        lambda p, d: _containers(p, d) or _latency_sensitive(p, d),
}
"""(subsystem, study title) -> whether a prediction uses that study's figures, for the studies
only some designs of their subsystem rest on (the rest of a subsystem's studies go with it):
the consolidation model's dense-mode coefficients serve web VMs and dense hosts, its
latency-sensitivity ceiling latency-sensitive VMs, its FT rules FT VMs; the CPU
virtualisation model's Docker figures VMs running containers."""


@dataclass(frozen=True)
class Relevant:
    """What the appendix lists: the subsystems used, and the studies of :data:`ONLY_WHEN`
    that none of the predictions uses."""

    subsystems: tuple[str, ...]
    unused: frozenset[tuple[str, str]] = frozenset()


def relevant(design: Design, predictions: Iterable[tuple[str, Prediction]]) -> Relevant:
    """The subsystems any of ``predictions`` (scenario name, prediction) uses, in
    :data:`models.core.registry.SUBSYSTEMS` order, and the studies of :data:`ONLY_WHEN` no
    prediction uses."""
    used: set[str] = set()
    studies: set[tuple[str, str]] = set()
    for name, p in predictions:
        try:
            effective = apply_scenario(design, name)
        except DesignError:  # a scenario that no longer applies: judge by the prediction
            effective = None
        used |= used_by(p, effective)
        studies |= {key for key, uses in ONLY_WHEN.items() if uses(p, effective)}
    return Relevant(tuple(s for s in NAMES if s in used), frozenset(ONLY_WHEN) - studies)


def relevant_subsystems(design: Design, predictions: Iterable[tuple[str, Prediction]]
                        ) -> tuple[str, ...]:
    """The subsystems any of ``predictions`` (scenario name, prediction) uses, in
    :data:`models.core.registry.SUBSYSTEMS` order."""
    return relevant(design, predictions).subsystems


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


def gather(subsystems: tuple[str, ...], unused: frozenset[tuple[str, str]] = frozenset()
           ) -> Evidence:
    """Run the checks of ``subsystems`` but those of the ``unused`` (subsystem, study title)
    pairs; the subsystems left without a check are left out too.  A broken check module is
    reported, not raised."""
    try:
        every = all_checks(subsystems) if subsystems else []
        checks = [c for c in every if _key(c) not in unused]
        gone = {_key(c)[0] for c in every} - {_key(c)[0] for c in checks}
        return Evidence(tuple(s for s in subsystems if s not in gone), checks,
                        cross_validated=crossval.stored())
    except (OSError, ImportError, KeyError, ValueError, ArithmeticError, DesignError) as err:
        # a calibration module or case file that cannot be read must not stop the report
        return Evidence(subsystems, [], error=f"The calibration checks could not be run: {err}")


def _key(check: Check) -> tuple[str, str]:
    """(subsystem, study title) of a check's case."""
    return of_cases(str(check.case()["subsystem"])).name, check.study.title
