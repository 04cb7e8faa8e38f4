"""Moving: items follow the mouse live (Qt's ItemIsMovable); ONE move command is pushed on
release, with the final positions of every moved item and of the NICs docked on moved hosts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.canvas.items import ComponentItem

if TYPE_CHECKING:
    from app.canvas.scene import DesignScene


class MoveTracker:
    def __init__(self, scene: DesignScene):
        self.scene = scene
        self.start: dict[str, tuple[float, float]] = {}

    def press(self) -> None:
        self.start = {it.cid: (it.x(), it.y()) for it in self.scene.selectedItems()
                      if isinstance(it, ComponentItem) and not it.docked}

    def release(self) -> None:
        start, self.start = self.start, {}
        moves: dict[str, tuple[float, float]] = {}
        for cid, pos in start.items():
            item = self.scene.item(cid)
            if item is None or (item.x(), item.y()) == pos:
                continue
            moves[cid] = (item.x(), item.y())
            for nic in self.scene.docked_items(cid):
                moves[nic.cid] = (nic.x(), nic.y())
        if moves:
            self.scene.document.move_components(moves)
