"""Linking: drag from one item to another to join them (Alt+drag, or any drag in link mode).

The link kind follows from the two kinds (a VM onto a host is ``runs_on``; with Shift held it
is ``ft_secondary_on``); a pair no link kind joins, or a link the design rules forbid, is
refused and the reason goes to the status bar; so is every link while the canvas shows a
refresh (:mod:`app.canvas.readonly`).
"""

from __future__ import annotations

from PySide6.QtCore import QLineF, Qt
from PySide6.QtGui import QColor, QPen
from PySide6.QtWidgets import QGraphicsLineItem, QGraphicsSceneMouseEvent

from app.canvas.items import ComponentItem
from app.canvas.protocol import Canvas, Interaction
from models.document.design import Link
from models.document.schema import LINKS
from models.document.words import link_text, no_link_text


def infer_link(a: ComponentItem, b: ComponentItem, alternate: bool = False
               ) -> Link | str:
    """The link a drag from ``a`` to ``b`` makes, or why there is none."""
    found: list[Link] = []
    for kind, spec in LINKS.items():
        if (spec.from_kind, spec.to_kind) == (a.kind, b.kind):
            found.append(Link(a.cid, b.cid, kind))
        elif (spec.from_kind, spec.to_kind) == (b.kind, a.kind):
            found.append(Link(b.cid, a.cid, kind))
    if not found:
        return no_link_text(a.kind, b.kind)
    if alternate and len(found) > 1:
        return found[1]
    return found[0]


def try_link(canvas: Canvas, a: ComponentItem, b: ComponentItem,
             alternate: bool = False) -> str | None:
    """Add the link between ``a`` and ``b``; returns the refusal reason (also on the status
    bar) or None when linked."""
    link = infer_link(a, b, alternate)
    if isinstance(link, str):
        reason: str | None = link
    else:
        reason = canvas.document.add_link(link)
    if reason:
        canvas.tell(f"Link refused: {reason}")
        return reason
    assert isinstance(link, Link)
    name = canvas.document.name_of
    canvas.tell("Linked: " + link_text(link.kind, name(link.source), name(link.target), 2))
    return None


class LinkTool(Interaction):
    """The rubber line shown while linking, and the press/move/release logic.  It sees a
    press before the scene does, and takes it when it starts a link (Alt held, or link
    mode on)."""

    def __init__(self, canvas: Canvas):
        self.canvas = canvas
        self.link_mode = False
        self.source: ComponentItem | None = None
        self.line: QGraphicsLineItem | None = None

    def press(self, event: QGraphicsSceneMouseEvent) -> bool:
        alt = bool(event.modifiers() & Qt.KeyboardModifier.AltModifier)
        if event.button() != Qt.MouseButton.LeftButton or not (alt or self.link_mode):
            return False
        item = self.canvas.component_at(event.scenePos())
        if item is None:
            return False
        why = self.canvas.read_only()
        if why:
            self.canvas.tell(f"Not linked: {why}")
            return True
        self.source = item
        self.line = QGraphicsLineItem(QLineF(item.pos(), event.scenePos()))
        pen = QPen(QColor("#1e90ff"), 2.0, Qt.PenStyle.DashLine)
        self.line.setPen(pen)
        self.line.setZValue(10.0)
        self.canvas.addItem(self.line)
        return True

    def move(self, event: QGraphicsSceneMouseEvent) -> bool:
        if self.source is None or self.line is None:
            return False
        self.line.setLine(QLineF(self.source.pos(), event.scenePos()))
        return True

    def release(self, event: QGraphicsSceneMouseEvent) -> bool:
        if self.source is None:
            return False
        source, self.source = self.source, None
        if self.line is not None:
            self.canvas.removeItem(self.line)
            self.line = None
        pos = event.scenePos()
        target = self.canvas.component_at(pos, exclude=source) or self.canvas.target_at(
            pos, exclude=source)
        if target is None:
            self.canvas.tell("Link cancelled: release over another component")
            return True
        shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        try_link(self.canvas, source, target, alternate=shift)
        return True
