"""What every importer's design looks like on the canvas: laid out as the canvas draws it."""

from __future__ import annotations

from pathlib import Path

from models.io.arrange import overlaps
from models.io.importers.rvtools import import_rvtools
from models.io.placement import holdings
from tests.estates import estate, write_xlsx


def test_an_imported_estate_opens_with_nothing_overlapping(tmp_path: Path) -> None:
    """Hosts of one cluster sit in their cluster's box inside their site, with their VMs on
    their cards; no card, array or box overlaps another (the canvas would warn and offer
    Arrange Design), and the same export gives the same layout."""
    path = write_xlsx(tmp_path / "e.xlsx", estate(40, 900, seed=7).sheets)
    design, _ = import_rvtools(path)
    assert overlaps(design) == 0
    held = holdings(design)
    clusters = design.of_kind("cluster")
    assert clusters and all(held.containers[c.id] for c in clusters)
    again, _ = import_rvtools(path)
    assert [(c.x, c.y) for c in again.components] == [(c.x, c.y) for c in design.components]
