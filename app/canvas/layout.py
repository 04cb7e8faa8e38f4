"""View > Arrange Design: the whole design laid out so that nothing overlaps, as one undo
step (:func:`models.io.arrange.arrange`; the goal-seek answers that rebuild the design use it
too).  Positions come back as a dict that :meth:`DesignDocument.move_components` applies.
"""

from __future__ import annotations

from models.document.design import Design
from models.io.arrange import arrange, overlaps


def arrange_vms(design: Design) -> dict[str, tuple[float, float]]:
    """New positions for every component of ``design`` that moves when it is arranged:
    host cards in rows inside their boxes, arrays above, VMs and NICs on their cards."""
    at = {c.id: (c.x, c.y) for c in design.components}
    return {cid: pos for cid, pos in arrange(design).items() if at.get(cid) != pos}


def overlapping_vms(design: Design) -> int:
    """How many cards, arrays, libraries and loose VMs overlap another."""
    return overlaps(design)
