"""Moving: items follow the mouse live (Qt's ItemIsMovable); ONE move command is pushed on
release, with the final positions of every moved item and of the NICs docked on moved hosts.

A VM on no host (an import's Unplaced area) released over a host is placed there: the move and
its ``runs_on`` link are one undo step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.canvas.items import ComponentItem
from models.document.design import Link

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
        if not moves:
            return
        doc = self.scene.document
        placed = self._placements(moves)
        if not placed:
            doc.move_components(moves)
            return
        doc.undo_stack.beginMacro(f"Place {len(placed)} VM{'s' if len(placed) > 1 else ''}"
                                  " on a host")
        try:
            doc.move_components(moves)
            refused = [why for vm, host in placed
                       if (why := doc.add_link(Link(vm, host, "runs_on"))) is not None]
        finally:
            doc.undo_stack.endMacro()
        hosts = sorted({h for _, h in placed})
        self.scene.status_message.emit(refused[0] if refused else
                                       f"Placed {len(placed)} VM(s) on {', '.join(hosts)}")

    def _placements(self, moves: dict[str, tuple[float, float]]) -> list[tuple[str, str]]:
        """(VM, host) for each moved VM on no host that was released over a host."""
        doc = self.scene.document
        vms = {cid for cid in moves if (c := doc.component(cid)) is not None and c.kind == "vm"}
        if not vms:
            return []
        on_host = {lk.source for lk in doc.design.links if lk.kind == "runs_on"}
        out = []
        for cid in sorted(vms - on_host):
            item = self.scene.item(cid)
            if item is None:
                continue
            under = next((it for it in self.scene.items(item.pos())
                          if isinstance(it, ComponentItem) and it.kind == "host"), None)
            if under is not None:
                out.append((cid, under.cid))
        return out
