"""Demand against today's: the knobs that move measured values by a factor.

``design.demand.cpu_pct``, ``memory_pct``, ``storage_pct`` and ``iops_pct`` are changes in %
of the demand the design holds today (0: as measured or set; +20: each VM's own figure x 1.2).
An imported estate holds one measured figure per VM; a knob that set one value on every VM
would wipe them (a drag of "Guest CPU demand" once set 116 measured VMs to 19 %), so the
knob panel offers these in its place (:mod:`models.document.knobs`).

They scale exactly the columns growth scales (:data:`models.core.growth.COLUMNS`: CPU share,
request rate and CPU per transaction, a host's background; memory held; disk space; I/O and
network rates), by the same code: a resource's factor is its growth factor at
``growth.year`` times ``1 + demand / 100``.  So a demand change is what a year of growth at
that rate is, without moving the year: ``demand.cpu_pct=20`` at year 0 gives the figures of
``growth.cpu_pct=20`` at year 1, and every analysis (grow, refresh, seek, host failure, the
report) reads it from the compiled design like growth.
"""

from __future__ import annotations

from collections.abc import Mapping

from models.core import growth

RESOURCES = ("cpu", "memory", "storage", "iops")
"""The changes ``design.demand.<resource>_pct``."""

PREFIXES = ("growth.", "demand.")
"""Design properties that move the grown columns."""


def factors(policy: Mapping[str, float]) -> dict[str, float]:
    """Each resource's factor: growth's at ``growth.year`` times today's demand change."""
    grown = growth.factors(policy)
    return {r: f * (1.0 + float(policy.get(f"demand.{r}_pct", 0.0)) / 100.0)
            for r, f in grown.items()}


def moves_columns(key: str) -> bool:
    """Whether design property ``key`` (``growth.year``, ``demand.cpu_pct``) scales the grown
    columns."""
    return key.startswith(PREFIXES)
