"""The subsystems: each declared once, in one table every list of them reads.

A :class:`Subsystem` row names a modelled part of a vSphere design (storage, network, FT, ...)
the way each consumer needs it: its calibration module (``models.calibration.<name>``), the
title people read (the Evidence panel, the report's appendix), the colour of its points on the
Evidence panel's plot, the ``subsystem`` its cases carry in
``resources/calibration/cases.jsonl``, and where it comes in the fitting order.

The table's order is the order the views and reports list the subsystems in; the fitting
order (:data:`FIT_ORDER`) differs because a model's fit may evaluate designs that use the
coefficients of the models fitted before it (FT's checks run the network model, stretched
clusters the storage model).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from models.core.prediction import Prediction
from models.core.sections import Sections
from models.document.design import Design

Uses = Callable[[Prediction, Design | None], bool]
"""Whether a prediction (of the design, when given) rests on the subsystem's model."""


def _section(name: str) -> Uses:
    return lambda p, _design: getattr(p.sections, name) is not None


def _hypervisor_cost(p: Prediction, _design: Design | None) -> bool:
    """A VM below native efficiency, or host cores spent in the hypervisor."""
    cv = p.sections.cpu_virtualization
    return cv is not None and (any(e < 0.999 for e in cv.vm_efficiency.values())
                               or any(c > 0 for c in cv.hypervisor_cores_by_host.values()))


def _file_transfers(_p: Prediction, design: Design | None) -> bool:
    return design is not None and any(v.get("workload.profile") == "file_transfer"
                                      for v in design.of_kind("vm"))


def _loaded_hosts(p: Prediction, _design: Design | None) -> bool:
    """VMs that load a host's CPU."""
    return bool(len(p.hosts.ids)) and float(np.nanmax(p.hosts.cpu_util, initial=0.0)) > 0


@dataclass(frozen=True)
class Subsystem:
    """One modelled subsystem."""

    name: str
    """Its calibration module, ``models.calibration.<name>``, and its key everywhere else."""
    title: str
    """How people read it: sentence case, product names as VMware writes them."""
    colour: str
    """Its points' colour on the Evidence panel's plot (``#rrggbb``)."""
    cases: str
    """The ``subsystem`` field its cases carry in the case file."""
    fit_order: int
    """Its place in the fitting order (0 first)."""
    section: str | None
    """The prediction's section it fills (an attribute of
    :class:`~models.core.sections.Sections`), None when it speaks through the arrays only."""
    uses: Uses
    """Whether a prediction's figures rest on it (the report's evidence lists those)."""


SUBSYSTEMS: tuple[Subsystem, ...] = (
    Subsystem("storage", "Storage", "#2e86c1", "storage", 2, "storage_mva_iterations",
              lambda p, _d: p.total_iops > 0),
    Subsystem("network", "Network", "#17a589", "network", 0, "network",
              lambda p, _d: p.total_net_gbps > 0),
    Subsystem("ft", "Fault Tolerance", "#8e44ad", "ft", 4, "ft",
              lambda p, _d: bool(p.vms.ft.any())),
    Subsystem("consolidation", "Consolidation", "#d35400", "consolidation", 8, "consolidation",
              _loaded_hosts),
    Subsystem("stretched", "Stretched cluster", "#7f8c8d", "stretched-cluster", 3, "stretched",
              _section("stretched")),
    Subsystem("file_transfer", "File transfer", "#f1c40f", "file-transfer", 1, None,
              _file_transfers),
    Subsystem("multicast", "Multicast", "#e84393", "multicast", 5, "multicast",
              _section("multicast")),
    Subsystem("vdi", "VDI (PCoIP)", "#6c5ce7", "vdi", 6, "vdi", _section("vdi")),
    Subsystem("cpu_virtualization", "CPU virtualisation", "#27ae60", "cpu-virtualization", 7,
              "cpu_virtualization", _hypervisor_cost),
    Subsystem("content_library", "Content Library", "#5d4037", "content-library", 9,
              "content_library", lambda p, _d: bool(p.library_transfers)),
)
"""Every subsystem, in the order the views and reports list them."""

NAMES: tuple[str, ...] = tuple(s.name for s in SUBSYSTEMS)
"""The subsystems' names in :data:`SUBSYSTEMS` order."""

FIT_ORDER: tuple[str, ...] = tuple(s.name for s in sorted(SUBSYSTEMS, key=lambda s: s.fit_order))
"""The subsystems' names in fitting order."""

assert all(s.section is None or s.section in Sections.__dataclass_fields__
           for s in SUBSYSTEMS), "a subsystem names a section the prediction does not have"

_BY_NAME = {s.name: s for s in SUBSYSTEMS}
_BY_CASES = {s.cases: s for s in SUBSYSTEMS}


def subsystem(name: str) -> Subsystem:
    """The subsystem called ``name`` (:class:`KeyError` if none)."""
    return _BY_NAME[name]


def of_cases(key: str) -> Subsystem:
    """The subsystem whose cases carry ``key`` as their ``subsystem`` (:class:`KeyError` if
    none)."""
    return _BY_CASES[key]
