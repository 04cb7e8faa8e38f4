"""Moving: items follow the mouse live (Qt's ItemIsMovable); ONE undo step is pushed on
release with the final positions of everything that moved.

A host carries its card (its NICs and VMs move with it); a site or cluster box carries the
cards it holds.  A host (or content library) let go inside another site's or cluster's box
joins it (``located_at``, ``in_cluster``, ``library_at``) in the same undo step as the move.
A VM dragged off its card onto another host's card runs there from then on (``runs_on``);
let go anywhere else, it goes back to its pill.  A VM on no host (an import's Unplaced area)
released over a host is placed there: the move and its ``runs_on`` link are one undo step.
While the canvas shows a refresh (:mod:`app.canvas.readonly`) a drag moves nothing and the
status bar says why.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QGraphicsSceneMouseEvent

from app.canvas.cards import ContainerItem, HostItem
from app.canvas.protocol import Canvas, Interaction
from models.document.design import Link
from models.document.schema import LINKS
from models.io.placement import MEMBER_LINKS

JOINS: dict[tuple[str, str], str] = {
    (spec.from_kind, spec.to_kind): kind for kind, spec in LINKS.items()
    if kind in MEMBER_LINKS}
"""(member kind, box kind) -> the link that puts the member in the box."""


class MoveTracker(Interaction):
    """What a drag moves, followed while it lasts (after the scene has moved the items it
    drags) and pushed as one edit on release."""

    def __init__(self, canvas: Canvas):
        self.canvas = canvas
        self.start: dict[str, QPointF] = {}
        """Where each dragged item was at the press."""
        self.carried: dict[str, tuple[str, QPointF]] = {}
        """Cards inside a dragged box: (the box, where the card was)."""
        self.rehome: dict[str, QPointF] = {}
        """VMs dragged off their cards (where their pill was)."""
        self.refused = False
        """This drag was refused (said once)."""

    def pressed(self, event: QGraphicsSceneMouseEvent) -> None:
        sc = self.canvas
        selected = sc.selected_components()
        picked = [it for it in selected if not it.docked]
        self.start = {it.cid: it.pos() for it in picked}
        self.rehome = {it.cid: it.pos() for it in selected if it.docked and it.kind == "vm"}
        self.carried = {}
        self.refused = False
        for box in picked:
            if isinstance(box, ContainerItem):
                for m in sc.holdings.containers.get(box.cid, []):
                    item = sc.item(m)
                    if item is not None and m not in self.start and m not in self.carried:
                        self.carried[m] = (box.cid, item.pos())

    def move(self, event: QGraphicsSceneMouseEvent) -> bool:
        """A drag of an item while the canvas takes no edit: taken before the scene moves
        anything, and refused."""
        left = Qt.MouseButton.LeftButton
        if not (event.buttons() & left and (self.start or self.rehome)):
            return False
        why = self.canvas.read_only()
        if not why or self.canvas.component_at(event.buttonDownScenePos(left)) is None:
            return False
        if not self.refused:
            self.refused = True
            self.canvas.tell(f"Not moved: {why}")
        return True

    def moved(self, event: QGraphicsSceneMouseEvent) -> None:
        if event.buttons() & Qt.MouseButton.LeftButton and self.start:
            self.follow()

    def follow(self) -> None:
        """During the drag: what the dragged boxes hold follows them; links, cards and
        boxes keep up."""
        sc = self.canvas
        for m, (bid, was) in self.carried.items():
            box, item = sc.item(bid), sc.item(m)
            if box is not None and item is not None:
                item.setPos(was + box.pos() - self.start[bid])
        for cid in (*self.start, *self.carried):
            item = sc.item(cid)
            if item is not None and not isinstance(item, ContainerItem):
                sc.item_moved(item)
        for cid in self.start:
            item = sc.item(cid)
            if isinstance(item, ContainerItem):
                sc.item_moved(item)
        for cid in self.rehome:
            sc.adjust_lines(cid)

    def released(self, event: QGraphicsSceneMouseEvent) -> None:
        sc = self.canvas
        start, self.start = self.start, {}
        carried, self.carried = self.carried, {}
        moves: dict[str, tuple[float, float]] = {}
        was = {**start, **{m: p for m, (_, p) in carried.items()}}
        for cid, pos in was.items():
            item = sc.item(cid)
            if item is None or item.pos() == pos:
                continue
            moves[cid] = (item.x(), item.y())
            if isinstance(item, HostItem):  # its NICs and VMs, where its card has them
                for i, child in enumerate(item.nic_ids):
                    p = item.pos() + item.child_offset(child, i)
                    moves[child] = (p.x(), p.y())
                for i, child in enumerate(item.vm_ids):
                    p = item.pos() + item.child_offset(child, i)
                    moves[child] = (p.x(), p.y())
        joins = [] if any(isinstance(sc.item(c), ContainerItem) for c in start) else [
            lk for cid in start if cid in moves for lk in self._joins(cid)]
        placed = [lk for cid in start if cid in moves
                  for lk in self._placement(cid)]
        joins += placed + self._rehomed()
        doc = sc.document
        if not joins:
            if moves:
                doc.move_components(moves)
            return
        label, refused = doc.move_and_join(moves, joins)
        sc.tell(refused[0] if refused else f"{label} (Ctrl+Z undoes it)")

    def _placement(self, cid: str) -> list[Link]:
        """A VM on no host let go over a host's card: it runs there."""
        sc = self.canvas
        item = sc.item(cid)
        if item is None or item.kind != "vm" or cid in sc.holdings.host_of:
            return []
        target = sc.target_at(item.pos(), exclude=item)
        return [Link(cid, target.cid, "runs_on")] if isinstance(target, HostItem) else []

    def _rehomed(self) -> list[Link]:
        """The VMs let go on another host's card run there; the others go back to their
        pills."""
        sc = self.canvas
        rehome, self.rehome = self.rehome, {}
        out = []
        for cid, was in rehome.items():
            item, host = sc.item(cid), sc.holder(cid)
            if item is None or host is None or item.pos() == was:
                continue
            target = sc.target_at(item.pos(), exclude=item)
            if isinstance(target, HostItem) and target is not host:
                out.append(Link(cid, target.cid, "runs_on"))
            else:
                back = sc.child_pos(cid)
                item.setPos(back if back is not None else was)
                sc.adjust_lines(cid)
        return out

    def _joins(self, cid: str) -> list[Link]:
        """The links that put ``cid`` into the boxes it was let go in (none when it is
        already there)."""
        sc = self.canvas
        item = sc.item(cid)
        if item is None:
            return []
        current = set(sc.holdings.member_of.get(cid, []))
        out = []
        for box_kind in ("site", "cluster"):
            kind = JOINS.get((item.kind, box_kind))
            if kind is None:
                continue
            others = [b for b in sc.container_items() if b.kind == box_kind
                      and b.cid not in current and b.scene_body().contains(item.pos())]
            if others:
                best = min(others, key=lambda b: b.rect().width() * b.rect().height())
                out.append(Link(cid, best.cid, kind))
        return out
