"""Which calibration studies a design's predictions rest on: the subsystems whose models give
the design a figure, in the base design or any scenario.  The report's appendix lists their
checks only (a storage design has no use for the Content Library or PCoIP studies)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from models.calibration import Check, all_checks, crossval
from models.core.prediction import Prediction
from models.core.registry import NAMES, subsystem
from models.document.design import Design, DesignError, apply_scenario


def _cpu_virtualisation(p: Prediction) -> bool:
    """The hypervisor's cost is in the figures: a VM below native efficiency, or host cores
    spent in the hypervisor."""
    cv = p.sections.cpu_virtualization
    if cv is None:
        return False
    return any(e < 0.999 for e in cv.vm_efficiency.values()) or any(
        c > 0 for c in cv.hypervisor_cores_by_host.values())


def used_by(p: Prediction, design: Design | None = None) -> set[str]:
    """The calibration subsystems whose models give prediction ``p`` a figure; ``design``
    (the design ``p`` was evaluated from) tells file transfers from other traffic."""
    used: set[str] = set()
    if p.total_iops > 0:
        used.add("storage")
    if p.sections.stretched is not None:
        used.add("stretched")
    if p.total_net_gbps > 0:
        used.add("network")
    if design is not None and any(v.get("workload.profile") == "file_transfer"
                                  for v in design.of_kind("vm")):
        used.add("file_transfer")
    if p.sections.multicast is not None:
        used.add("multicast")
    if p.sections.vdi is not None:
        used.add("vdi")
    if p.vms.ft.any():
        used.add("ft")
    if len(p.hosts.ids) and float(np.nanmax(p.hosts.cpu_util, initial=0.0)) > 0:
        used.add("consolidation")  # VMs that load a host's CPU
    if _cpu_virtualisation(p):
        used.add("cpu_virtualization")
    if p.library_transfers:
        used.add("content_library")
    return used


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


def gather(subsystems: tuple[str, ...]) -> Evidence:
    """Run the checks of ``subsystems`` (a broken check module is reported, not raised)."""
    try:
        return Evidence(subsystems, all_checks(subsystems) if subsystems else [],
                        cross_validated=crossval.stored())
    except (OSError, ImportError, KeyError, ValueError, ArithmeticError, DesignError) as err:
        # a calibration module or case file that cannot be read must not stop the report
        return Evidence(subsystems, [], error=f"The calibration checks could not be run: {err}")
