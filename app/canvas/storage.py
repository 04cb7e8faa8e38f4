"""Storage arrays in groups: an estate's datastores drawn as one item per group until zoomed
in.

A design of many arrays (:data:`models.io.placement.GROUP_ARRAYS`) groups those the same
clusters reach (:func:`models.io.placement.array_groups`); the layout puts a group's arrays
together in a block.  Far out (below :data:`~app.canvas.cards.FAR_ZOOM`, where an array's
name would not read) the block is one item, an
:class:`ArrayGroupItem`: the clusters it serves, how many arrays, and a strip of their
utilisation grades on the theme's scale, its arrays hidden; clicking it selects them.  Zoomed
in, it is a frame round its arrays, which show as items of their own.  Hosts' local disks
(``local`` arrays) are groups of their own, counted as such and drawn grey, never among the
shared arrays.  A group that serves a few clusters draws one line to each of their boxes (the
storage paths per cluster); the lines between hosts and arrays are drawn for the selection
only (:class:`app.canvas.lines.Lines` is sparse for such a design).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsLineItem,
    QGraphicsSceneMouseEvent,
    QStyleOptionGraphicsItem,
    QWidget,
)

from app.canvas.cards import TALLY, ContainerItem, paint_tally
from app.canvas.items import (
    MIN_TITLE_PX,
    SELECTED,
    ComponentItem,
    elided,
    ink,
    is_dark,
    label_font,
    label_px,
)
from models.document.design import Design
from models.io.placement import (
    CAPTION_PX,
    COUNT_PX,
    COUNT_SHARE,
    GAP,
    NO_CLUSTER,
    TITLE_SHARE,
    ArrayGroup,
    BoxStyle,
    Holdings,
    array_groups,
    box_around,
    group_count,
    group_title,
    group_width,
)

if TYPE_CHECKING:
    from app.canvas.levels import Levels

LINED_CLUSTERS = 2
"""A group serving at most this many clusters draws a line to each of their boxes (one
serving more says how many in its name, "3 clusters": its lines crossed the clusters
beside it)."""
_EDGE = QColor("#8c6bb1")
NEAR = 3 * GAP
"""A group's line to a cluster it serves is drawn where it is no longer than this (canvas
units): beside the cluster, or above it as a testbed's arrays are."""


class ArrayGroupItem(QGraphicsItem):
    """One group of arrays: a labelled panel far out, a frame round its arrays zoomed in."""

    def __init__(self, group: ArrayGroup, title: str, width: float, style: BoxStyle,
                 select: Callable[[list[str]], None]):
        super().__init__()
        self.array_group = group
        self.title = title
        self.width = width
        """Its least width (:func:`models.io.placement.group_width`)."""
        self.style = style
        self.select = select
        self.count = group_count(group)
        self.collapsed = True
        self.tally = np.zeros(TALLY, np.int64)
        self.selected = 0
        self._rect = QRectF()
        self.setCacheMode(QGraphicsItem.CacheMode.NoCache)
        self.setZValue(1.0)  # over its arrays while it stands for them
        self.setToolTip(f"{self.count} serving {title}: click to select them; zoom in to see"
                        " each")

    def set_rect(self, rect: QRectF) -> None:
        if rect != self._rect:
            self.prepareGeometryChange()
            self._rect = QRectF(rect)

    def rect(self) -> QRectF:
        return QRectF(self._rect)

    def set_collapsed(self, collapsed: bool) -> None:
        if collapsed != self.collapsed:
            self.collapsed = collapsed
            self.setZValue(1.0 if collapsed else -2.0)
            self.setAcceptedMouseButtons(Qt.MouseButton.LeftButton if collapsed
                                         else Qt.MouseButton.NoButton)
            self.update()

    def set_tally(self, tally: np.ndarray) -> None:
        if not np.array_equal(tally, self.tally):
            self.tally = tally.copy()
            self.update()

    def set_selected_count(self, n: int) -> None:
        if n != self.selected:
            self.selected = n
            self.update()

    def band(self) -> QRectF:
        r = self._rect
        return QRectF(r.left() + 10, r.top() + 3, r.width() - 20,
                      self.style.head + self.style.pad - 6)

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt)
        return self._rect.adjusted(-4, -4, 4, 4)

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addRect(self._rect)
        return path

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802 (Qt)
        if self.collapsed and event.button() == Qt.MouseButton.LeftButton:
            self.select(list(self.array_group.arrays))
            event.accept()
            return
        event.ignore()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        r = self._rect
        dark = is_dark(widget)
        if self.array_group.local:  # hosts' own disks: grey, not the shared arrays' lilac
            fill = QColor("#3a3c40" if dark else "#eceef0") if self.collapsed else \
                QColor(120, 124, 130, 22)
        else:
            fill = QColor("#3a3546" if dark else "#ece6f3") if self.collapsed else \
                QColor(140, 107, 177, 22)
        pen = QPen(SELECTED if self.selected else _EDGE,
                   (2.4 if self.selected else 1.6) / max(lod, 0.05))
        if not self.collapsed:
            pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(QBrush(fill))
        painter.drawRoundedRect(r, 14, 14)
        band = self.band()
        font = label_font(label_px(13.0, lod, band.height() * TITLE_SHARE,
                                   CAPTION_PX["cluster"]), bold=True)
        painter.setFont(font)
        painter.setPen(ink(widget))
        title = elided(self.title, font, band.width())
        painter.drawText(band, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, title)
        used = QFontMetricsF(font).horizontalAdvance(title + "   ")
        small = label_font(label_px(COUNT_PX, lod, band.height() * COUNT_SHARE))
        muted = ink(widget)
        muted.setAlphaF(0.65)
        counted_below = self.collapsed and self._body_reads(lod)
        if used < band.width() and not counted_below:  # far out the body may count them
            painter.setFont(small)
            painter.setPen(muted)
            count = elided(self.count + (f" · {self.selected:,} selected" if self.selected
                                         else ""), small, band.width() - used)
            if count != "…":
                painter.drawText(band.adjusted(used, 0, 0, 0),
                                 Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                                 count)
        if self.collapsed:
            self._paint_body(painter, lod, widget)

    def _body(self) -> QRectF:
        pad = self.style.pad
        body = QRectF(self._rect.left() + pad, self.band().bottom() + 2,
                      self._rect.width() - 2 * pad, 0.0)
        body.setBottom(self._rect.bottom() - pad)
        return body

    def _body_font(self, lod: float, room: QRectF) -> QFont:
        return label_font(label_px(14.0, lod, room.height() * 0.7), bold=True)

    def _body_reads(self, lod: float) -> bool:
        """Whether the count reads in the body (else the name band has it)."""
        body = self._body()
        return self._body_font(lod, body).pixelSize() * lod >= MIN_TITLE_PX - 0.5

    def _paint_body(self, painter: QPainter, lod: float, widget: QWidget | None) -> None:
        """Far out: the arrays' count, large, over a strip of their grades."""
        body = self._body()
        if body.height() <= 0:
            return
        px = 1.0 / max(lod, 1e-6)
        strip_h = min(max(body.height() * 0.2, 4.0 * px), 12.0 * px)
        strip = QRectF(body.left(), body.bottom() - strip_h, body.width(), strip_h)
        paint_tally(painter, strip, self.tally)
        room = QRectF(body.left(), body.top(), body.width(), strip.top() - body.top())
        big = self._body_font(lod, room)
        if big.pixelSize() * lod < MIN_TITLE_PX - 0.5:
            return  # too small to read: the name band counts them
        if QFontMetricsF(big).horizontalAdvance(self.count) > room.width():
            big.setBold(False)  # a narrow box beside its cluster: the count whole, not bold
        painter.setFont(big)
        painter.setPen(ink(widget))
        painter.drawText(room, Qt.AlignmentFlag.AlignCenter, elided(self.count, big, room.width()))


def joining(group: QRectF, box: QRectF) -> QLineF:
    """The line from a group to a cluster's box it serves, between the sides that face each
    other: from its left to the box's right where it stands beside the box (an estate's
    storage, beside the clusters it serves), else from its bottom to the box's top."""
    if group.left() >= box.right() or group.right() <= box.left():
        right = group.left() >= box.right()
        lo, hi = max(group.top(), box.top()), min(group.bottom(), box.bottom())
        if lo < hi:  # level with each other: straight across
            y_from = y_to = (lo + hi) / 2
        else:
            y_from = min(max(box.center().y(), group.top() + 20), group.bottom() - 20)
            y_to = min(max(group.center().y(), box.top() + 20), box.bottom() - 20)
        return QLineF(QPointF(group.left() if right else group.right(), y_from),
                      QPointF(box.right() if right else box.left(), y_to))
    start = QPointF(group.center().x(), group.bottom() if group.bottom() <= box.top()
                    else group.top())
    end = QPointF(min(max(start.x(), box.left() + 20), box.right() - 20),
                  box.top() if group.bottom() <= box.top() else box.bottom())
    return QLineF(start, end)


class StorageGroups:
    """The group items of a scene and the lines from each to the cluster boxes it serves."""

    def __init__(self, add: Callable[[QGraphicsItem], None],
                 remove: Callable[[QGraphicsItem], None]):
        self._add, self._remove = add, remove
        self.items: dict[str, ArrayGroupItem] = {}
        self.of: dict[str, ArrayGroupItem] = {}
        """Array id -> its group's item."""
        self.lines: dict[str, list[tuple[QGraphicsLineItem, str]]] = {}
        """Group id -> (line, cluster box id) for each cluster it serves (a few at most)."""
        self.collapsed = True

    def clear(self) -> None:
        """Forget the items (the scene was cleared, or is about to lose them)."""
        for item in self.items.values():
            if item.scene() is not None:
                self._remove(item)
        for lines in self.lines.values():
            for line, _ in lines:
                if line.scene() is not None:
                    self._remove(line)
        self.items.clear()
        self.of.clear()
        self.lines.clear()

    def build(self, groups: list[ArrayGroup], name_of: Callable[[str], str], style: BoxStyle,
              select: Callable[[list[str]], None]) -> None:
        self.clear()
        for g in groups:
            item = ArrayGroupItem(g, group_title(g, name_of), group_width(g, name_of, style),
                                  style, select)
            item.set_collapsed(self.collapsed)
            self._add(item)
            self.items[g.id] = item
            self.of.update((a, item) for a in g.arrays)
            if len(g.reach) <= LINED_CLUSTERS:
                self.lines[g.id] = []
                for k in g.reach:
                    if k == NO_CLUSTER:
                        continue
                    line = QGraphicsLineItem()
                    pen = QPen(_EDGE, 1.6)
                    pen.setCosmetic(True)
                    pen.setStyle(Qt.PenStyle.DashLine)
                    line.setPen(pen)
                    line.setZValue(-4.0)
                    line.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
                    self._add(line)
                    self.lines[g.id].append((line, k))

    def regroup(self, design: Design, held: Holdings, name_of: Callable[[str], str],
                style: BoxStyle, select: Callable[[list[str]], None],
                item_of: Callable[[str], ComponentItem | None],
                box_of: Callable[[str], ContainerItem | None],
                groups: list[ArrayGroup] | None = None) -> None:
        """Items for the groups of ``design``'s arrays (``groups``, when the caller has
        them; the old ones go), fitted round their arrays, which hide while the groups are
        collapsed."""
        groups = array_groups(design, held) if groups is None else groups
        self.build(groups, name_of, style, select)
        self.refit(item_of, box_of)
        self.hide_members(item_of)

    def refit(self, item_of: Callable[[str], ComponentItem | None],
              box_of: Callable[[str], ContainerItem | None]) -> None:
        """Fit each group round its arrays and route its lines to its clusters' boxes."""
        for gid, item in self.items.items():
            bodies = [it.scene_body() for a in item.array_group.arrays
                      if (it := item_of(a)) is not None]
            rect = box_around(((b.x(), b.y(), b.width(), b.height()) for b in bodies),
                              "cluster", item.style, item.width)
            if rect is not None:
                item.set_rect(QRectF(*rect))
            for line, k in self.lines.get(gid, []):
                box = box_of(k)
                line.setLine(QLineF() if box is None else joining(item.rect(),
                                                                  box.scene_body()))
                if line.line().length() > NEAR:  # another cluster lies between: its title
                    line.setLine(QLineF())  # says whose it is

    def set_collapsed(self, collapsed: bool, item_of: Callable[[str], ComponentItem | None]
                      ) -> bool:
        """Show each group as one item (``collapsed``) or its arrays; True when it changed."""
        if collapsed == self.collapsed:
            return False
        self.collapsed = collapsed
        for item in self.items.values():
            item.set_collapsed(collapsed)
            for a in item.array_group.arrays:
                it = item_of(a)
                if it is not None:
                    it.setVisible(not collapsed)
        return True

    def hide_members(self, item_of: Callable[[str], ComponentItem | None]) -> None:
        """Hide the arrays of collapsed groups (after their items were made)."""
        for a in self.of:
            it = item_of(a)
            if it is not None:
                it.setVisible(not self.collapsed)

    def apply(self, levels: Levels) -> None:
        """Each group's count of its arrays per grade."""
        for item in self.items.values():
            grades = np.array([levels.level(a, "storage_array") for a in item.array_group.arrays],
                              np.int64)
            item.set_tally(np.bincount(grades + 1, minlength=TALLY)[:TALLY])

    def select(self, selection: set[str]) -> None:
        for item in self.items.values():
            item.set_selected_count(sum(1 for a in item.array_group.arrays if a in selection))

