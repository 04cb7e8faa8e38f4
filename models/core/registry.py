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

from dataclasses import dataclass


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
    section: type | None = None
    """The prediction's section it fills (None until the sections are typed)."""


SUBSYSTEMS: tuple[Subsystem, ...] = (
    Subsystem("storage", "Storage", "#2e86c1", "storage", 2),
    Subsystem("network", "Network", "#17a589", "network", 0),
    Subsystem("ft", "Fault Tolerance", "#8e44ad", "ft", 4),
    Subsystem("consolidation", "Consolidation", "#d35400", "consolidation", 8),
    Subsystem("stretched", "Stretched cluster", "#7f8c8d", "stretched-cluster", 3),
    Subsystem("file_transfer", "File transfer", "#f1c40f", "file-transfer", 1),
    Subsystem("multicast", "Multicast", "#e84393", "multicast", 5),
    Subsystem("vdi", "VDI (PCoIP)", "#6c5ce7", "vdi", 6),
    Subsystem("cpu_virtualization", "CPU virtualisation", "#27ae60", "cpu-virtualization", 7),
    Subsystem("content_library", "Content Library", "#5d4037", "content-library", 9),
)
"""Every subsystem, in the order the views and reports list them."""

NAMES: tuple[str, ...] = tuple(s.name for s in SUBSYSTEMS)
"""The subsystems' names in :data:`SUBSYSTEMS` order."""

FIT_ORDER: tuple[str, ...] = tuple(s.name for s in sorted(SUBSYSTEMS, key=lambda s: s.fit_order))
"""The subsystems' names in fitting order."""

_BY_NAME = {s.name: s for s in SUBSYSTEMS}
_BY_CASES = {s.cases: s for s in SUBSYSTEMS}


def subsystem(name: str) -> Subsystem:
    """The subsystem called ``name`` (:class:`KeyError` if none)."""
    return _BY_NAME[name]


def of_cases(key: str) -> Subsystem:
    """The subsystem whose cases carry ``key`` as their ``subsystem`` (:class:`KeyError` if
    none)."""
    return _BY_CASES[key]
