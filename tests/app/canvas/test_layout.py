"""View > Arrange Design: nothing overlaps once arranged, and the bundled examples open so."""

from __future__ import annotations

import pytest

from app.canvas.layout import arrange_vms, overlapping_vms
from models.examples import bundled as examples
from models.examples.synth import large_design


@pytest.mark.parametrize("name", examples.names())
def test_bundled_examples_open_with_nothing_overlapping(name: str) -> None:
    assert overlapping_vms(examples.load(name)) == 0  # the app's first impression


def test_arranging_puts_piled_hosts_side_by_side() -> None:
    design = large_design(200, 4)
    for h in design.of_kind("host"):
        h.x, h.y = 0.0, 0.0
    assert overlapping_vms(design) >= 4
    moves = arrange_vms(design)
    by_id = {c.id: c for c in design.components}
    for cid, (x, y) in moves.items():
        by_id[cid].x, by_id[cid].y = x, y
    assert overlapping_vms(design) == 0
    assert arrange_vms(design) == {}  # already arranged: nothing moves
