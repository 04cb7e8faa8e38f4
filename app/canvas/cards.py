"""Host cards and container boxes: the canvas items that hold other components.

A :class:`HostItem` is a card: the host's name and hardware on a header coloured by its CPU,
then its NICs as a row of chips, then its VMs as a grid of pills (geometry from
:func:`models.io.placement.card`).  Zoomed in (:data:`DETAIL_ZOOM` and closer) the scene
puts a readable item on each pill and chip it shows; zoomed out, the card draws its VMs
itself as one aggregate: how many, and a strip of their utilisation grades on the theme's
scale.  So a host with 470 VMs costs one item until its VMs can be read.

A :class:`ContainerItem` is a site's or cluster's box, drawn around the cards it holds
(:func:`models.io.placement.box_around`); dragging it by its name band or edge moves what it
holds.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyle, QStyleOptionGraphicsItem, QWidget

from app.canvas.items import (
    MIN_TITLE_PX,
    NO_DATA,
    SELECTED,
    TITLE_ROOM,
    ComponentItem,
    badge_room,
    corner_badge,
    elided,
    ink,
    is_dark,
    label_font,
    label_px,
    level_colour,
    paint_badge,
)
from app.support import theme
from models.document import glossary
from models.document import numbers as fmt
from models.document.design import Component, Design
from models.document.words import host_affixes, short_name
from models.io.placement import (
    BOXES,
    CAPTION_PX,
    COUNT_PX,
    COUNT_SHARE,
    HEAD_H,
    HOST_MIN_W,
    NIC_H,
    NIC_W,
    SIZES,
    TITLE_SHARE,
    VM_H,
    VM_W,
    BoxStyle,
    Card,
    card,
)

FAR_ZOOM = 0.3
"""Below this zoom nothing on a card reads but its name: a card draws its NICs itself (their
items hide, so they never cover the name) and each group of storage arrays is one item
(:mod:`app.canvas.storage`)."""
DETAIL_ZOOM = 0.55
"""From this zoom a VM's name can be read on its pill: the scene shows VMs as items.  Below
it each host card draws its VMs as one aggregate."""
SWATCH_PX = 24.0
"""A card narrower than this on screen is painted as a swatch (:meth:`HostItem._paint_swatch`):
an elided name at the least size would be one letter and "…"."""
TALLY = theme.GRADES + 1
"""Columns of a host's VM tally: column 0 counts VMs without data, column g+1 grade g."""


def tally_colour(column: int) -> QColor:
    return level_colour(column - 1, "vm")


def paint_tally(painter: QPainter, strip: QRectF, tally: np.ndarray) -> int:
    """``tally`` (counts per grade, :data:`TALLY` columns) as a bar in ``strip``: one run of
    each grade's colour, as long as its share; returns how many it counted."""
    total = int(tally.sum())
    x = strip.left()
    painter.setPen(Qt.PenStyle.NoPen)
    for column in (*range(1, TALLY), 0):
        n = int(tally[column])
        if n and total:
            w = strip.width() * n / total
            painter.setBrush(QBrush(tally_colour(column)))
            painter.drawRect(QRectF(x, strip.top(), w, strip.height()))
            x += w
    return total


class HostItem(ComponentItem):
    """A host's card: header, NIC chips, VM grid or aggregate."""

    ELIDE = Qt.TextElideMode.ElideMiddle

    def __init__(self, comp: Component, level_of: Callable[[str, str], int],
                 affixes: tuple[str, str] = ("", ""), least: float = HOST_MIN_W):
        self.least = least
        """Its least width (:func:`models.io.placement.host_widths`: room for its name at
        the zoom its estate fits at)."""
        self.affixes = affixes
        """The start and the domain every host's name shares
        (:func:`models.document.words.host_affixes`): left out of the name shown, which the
        tooltip and the Inspector have whole."""
        self.card: Card = card(0, 0)
        self.vm_ids: list[str] = []
        self.nic_ids: list[str] = []
        self.tally = np.zeros(TALLY, np.int64)
        """How many of its VMs are at each grade (column 0: no data)."""
        self.selected_vms = 0
        """How many of its VMs are selected (drawn in the aggregate)."""
        self.vm_badge: tuple[QColor, str] | None = None
        """The bottleneck is one of its VMs, not shown as an item: the aggregate wears it."""
        self.level_of = level_of
        super().__init__(comp)
        self.setCacheMode(QGraphicsItem.CacheMode.NoCache)  # a card can be screens large
        self.set_children([], [])

    def name_of(self, comp: Component) -> str:
        prefix, suffix = self.affixes
        return short_name(comp.name or comp.id, suffix, prefix)

    def set_affixes(self, affixes: tuple[str, str], comp: Component) -> None:
        if affixes != self.affixes:
            self.affixes = affixes
            self.set_component(comp)

    def set_children(self, nics: list[str], vms: list[str]) -> bool:
        """Hold ``nics`` and ``vms`` (in order); True when the card's size changed."""
        self.nic_ids, self.vm_ids = list(nics), list(vms)
        new = card(len(nics), len(vms), self.least)
        resized = (new.width, new.height) != (self.card.width, self.card.height)
        if resized:
            self.prepareGeometryChange()
        self.card = new
        self._rect = QRectF(*new.rect)
        self._bounds = self._margin(self._rect)
        self.update()
        return resized

    def child_offset(self, cid: str, index: int) -> QPointF:
        """Where child ``cid`` (at ``index`` in its list) sits, relative to the host."""
        if index < len(self.vm_ids) and self.vm_ids[index] == cid:
            return QPointF(*self.card.vm_offset(index))
        return QPointF(*self.card.nic_offset(index))

    def set_tally(self, tally: np.ndarray) -> None:
        if not np.array_equal(tally, self.tally):
            self.tally = tally.copy()
            self.update()

    def set_selected_vms(self, n: int) -> None:
        if n != self.selected_vms:
            self.selected_vms = n
            self.update()

    def set_vm_badge(self, style: tuple[QColor, str] | None) -> None:
        if style != self.vm_badge:
            self.vm_badge = style
            self.update()

    # ------------------------------------------------------------------ labels
    def tiny(self, lod: float) -> bool:
        """Far out (an estate's overview): the header is too low for a name, which goes
        over the whole card instead, in front of the VMs' grades."""
        return HEAD_H * TITLE_ROOM * lod < MIN_TITLE_PX - 0.5 \
            and self._rect.height() > HEAD_H + 8

    def title_font(self, lod: float) -> QFont:
        font = super().title_font(lod)
        if self.tiny(lod):  # the overview: semi-condensed, so "vmprod3-06" fits its card
            font.setStretch(QFont.Stretch.SemiCondensed)
        return font

    def title_layout(self, lod: float) -> tuple[QFont, list[str], QFont | None]:
        if not self.tiny(lod):
            return super().title_layout(lod)
        font = self.title_font(lod)  # far out: the name alone, on one line
        return font, [elided(self.title, font, self.title_rect(lod).width(), self.ELIDE)], None

    def shown_title(self, lod: float) -> str:
        if self.tiny(lod) and not self.title_reads(lod):
            return ""  # far out, a name too small to read is not drawn (the tooltip has it)
        return super().shown_title(lod)

    def title_rect(self, lod: float) -> QRectF:
        r = self._rect
        if self.tiny(lod):  # the whole card: a low card's name reads too (clear of the
            # badge, its own or its VMs': far out both sit in its top right corner)
            box = r.adjusted(4, 4, -4, -4)
            place = self._far_badge(lod)
            room = badge_room(True, lod)
            if place == "under":
                box.setTop(box.top() + room)
            elif place == "beside":
                box.setRight(box.right() - room)
            return box
        head = QRectF(r.left() + 8, r.top(), r.width() - 16, HEAD_H)
        if self.badge and self._badge_in_header(lod):
            head.setRight(head.right() - badge_room(True, lod))
        return head

    def _far_badge(self, lod: float) -> str:
        """Far out, where the card wears a badge (its own or its VMs') with its name whole:
        ``under`` it (the badge in the top right corner, the name below), ``beside`` it (the
        name at its left), or ``corner`` (a low narrow card: the badge astride its bottom
        right corner, clear of the centred name and of every box's name, which lie above
        cards); "" without a badge."""
        if not (self.badge or self.vm_badge is not None):
            return ""
        box = self._rect.adjusted(4, 4, -4, -4)
        room = badge_room(True, lod)
        if box.height() - room >= MIN_TITLE_PX * 1.3 / max(lod, 1e-6):
            return "under"
        font = label_font(label_px(self.TITLE_PX, lod, box.height() * TITLE_ROOM), bold=True)
        font.setStretch(QFont.Stretch.SemiCondensed)  # as far out (title_font)
        if QFontMetricsF(font).horizontalAdvance(self.title) <= box.width() - room:
            return "beside"
        return "corner"

    def _badge_place(self, lod: float) -> str:
        """Where the card wears its badge: ``header`` (its corner: far out, or where its name
        stays whole beside it), ``body`` (just under the header, at the right of its NICs and
        VMs), or ``edge`` (astride its corner, zoomed in on a low card whose long name needs
        the header's whole width): never over its name, and far out, where a cluster's name
        lies just above the card, never outside it."""
        if self.tiny(lod):
            return "corner" if self._far_badge(lod) == "corner" else "header"
        font = label_font(label_px(self.TITLE_PX, lod, HEAD_H * TITLE_ROOM), bold=True)
        room = self._rect.width() - 16 - badge_room(True, lod)
        if QFontMetricsF(font).horizontalAdvance(self.title) <= room:
            return "header"
        return "body" if self._rect.height() >= HEAD_H + badge_room(True, lod) + 4 else "edge"

    def _badge_in_header(self, lod: float) -> bool:
        return self._badge_place(lod) == "header"

    def badge_centre(self, lod: float) -> QPointF:
        """Where the card wears the bottleneck badge (:meth:`_badge_place`)."""
        r = self._rect
        place = self._badge_place(lod)
        if place == "edge":
            return QPointF(r.right() - 2, r.top() + 2)
        if place == "corner":
            return QPointF(r.right() - 1.0 / max(lod, 1e-6), r.bottom() - 1.0 / max(lod, 1e-6))
        return corner_badge(r.adjusted(0, HEAD_H, 0, 0) if place == "body" else r, lod)

    def aggregate_text(self) -> str:
        n = len(self.vm_ids)
        text = f"{n:,} VM" + ("" if n == 1 else "s")
        return text + (f" · {self.selected_vms:,} selected" if self.selected_vms else "")

    # ------------------------------------------------------------------ painting
    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        dark = is_dark(widget)
        r = self._rect
        if r.width() * lod < SWATCH_PX and not selected:
            self._paint_swatch(painter, lod, dark)
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        body = QColor("#2f3238") if dark else QColor("#f4f6f9")
        edge = QColor("#6c7580") if dark else QColor("#8793a0")
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(body))
        painter.drawRoundedRect(r, 8, 8)
        head = QRectF(r.left(), r.top(), r.width(), HEAD_H)
        path = QPainterPath()
        path.addRoundedRect(head, 8, 8)
        if r.height() > HEAD_H + 8:  # square bottom corners where the body continues
            square = QPainterPath()
            square.addRect(QRectF(head.left(), head.center().y(), head.width(), HEAD_H / 2))
            path = path.united(square)
        painter.setBrush(QBrush(level_colour(self.level, "host")))
        painter.drawPath(path)
        painter.setPen(QPen(SELECTED if selected else edge, 2.0 if selected else 1.2))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(r, 8, 8)
        if selected:
            painter.setPen(QPen(SELECTED, 2.0 / max(lod, 0.25)))
            painter.drawRoundedRect(r.adjusted(-3, -3, 3, 3), 9, 9)
        tiny = self.tiny(lod)
        if not tiny:
            self._paint_text(painter, lod)
        if lod < FAR_ZOOM and self.nic_ids:  # far out the card draws its NICs
            self._paint_nics(painter)
        if self.vm_ids:
            if lod < DETAIL_ZOOM and self.aggregate_reads(lod) and not tiny:
                self._paint_aggregate(painter, lod, widget)  # wears the VM badge itself
            else:
                if VM_H * lod < 3.0:  # pills of a pixel: their grades as one bar
                    self._paint_strip(painter, self.aggregate_rect())
                else:
                    self._paint_pills(painter, option)
                if self.vm_badge is not None:
                    area = self.aggregate_rect()
                    at = self.badge_centre(lod) if tiny else QPointF(area.right() - 2,
                                                                     area.top() + 2)
                    paint_badge(painter, at, self.vm_badge, lod)
        if tiny and self.title_reads(lod):  # the name on a light backing, over the card
            font, lines, _ = self.title_layout(lod)
            width = max(QFontMetricsF(font).horizontalAdvance(t) for t in lines)
            back = QRectF(0, 0, width + 6 / lod, QFontMetricsF(font).height() * len(lines))
            back.moveCenter(self.title_rect(lod).center())
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QBrush(QColor(255, 255, 255, 215)))
            painter.drawRoundedRect(back, 3 / lod, 3 / lod)
            self._paint_text(painter, lod)
        if self.badge:
            paint_badge(painter, self.badge_centre(lod), self.badge_style, lod)

    def _paint_swatch(self, painter: QPainter, lod: float, dark: bool) -> None:
        """A card a few pixels wide (an estate of a thousand hosts at fit), where no name
        reads: its header's colour and its VMs' grades, without outlines or text (painting
        every card in full took most of a 50,000-VM design's first paint)."""
        r = self._rect
        painter.fillRect(r, QColor("#2f3238") if dark else QColor("#f4f6f9"))
        painter.fillRect(QRectF(r.left(), r.top(), r.width(), HEAD_H),
                         level_colour(self.level, "host"))
        if self.vm_ids:
            self._paint_strip(painter, self.aggregate_rect())
        if self.badge:
            paint_badge(painter, self.badge_centre(lod), self.badge_style, lod)

    def _paint_strip(self, painter: QPainter, strip: QRectF) -> None:
        """The tally as a bar (:func:`paint_tally`), grey when nothing is counted."""
        if not paint_tally(painter, strip, self.tally):
            painter.setBrush(QBrush(level_colour(NO_DATA, "vm")))
            painter.drawRect(strip)

    def _paint_nics(self, painter: QPainter) -> None:
        """Far out: a plain chip in each NIC's slot, coloured by its grade."""
        painter.setPen(Qt.PenStyle.NoPen)
        for i, nid in enumerate(self.nic_ids):
            x, y = self.card.nic_offset(i)
            painter.setBrush(QBrush(level_colour(self.level_of(nid, "nic"), "nic")))
            painter.drawRect(QRectF(x - NIC_W / 2, y - NIC_H / 2, NIC_W, NIC_H))

    def _paint_pills(self, painter: QPainter, option: QStyleOptionGraphicsItem) -> None:
        """Zoomed in: a plain pill in each VM's slot (the scene's items lie on top, with
        names; these show while it makes them)."""
        seen = option.exposedRect
        rows = self.card.vm_range(seen.left(), seen.top(), seen.right(), seen.bottom())
        if rows is None:
            return
        cols = self.card.vm_cols
        painter.setPen(QPen(QColor("#2b2b2b"), 1.0))
        for i in range(rows.start * cols, min(len(self.vm_ids), rows.stop * cols)):
            x, y = self.card.vm_offset(i)
            painter.setBrush(QBrush(level_colour(self.level_of(self.vm_ids[i], "vm"), "vm")))
            painter.drawRoundedRect(QRectF(x - VM_W / 2, y - VM_H / 2, VM_W, VM_H),
                                    VM_H / 2, VM_H / 2)

    def aggregate_reads(self, lod: float) -> bool:
        """Whether the aggregate's count can be read at ``lod`` (a card of a few VMs, far
        out, shows them as plain pills instead)."""
        return self.aggregate_rect().height() * lod >= 12.0

    def aggregate_rect(self) -> QRectF:
        ax, ay, aw, ah = self.card.vm_area
        return QRectF(ax, ay, aw, ah).adjusted(2, 2, -2, -2)

    def tally_text(self) -> str:
        """The VMs by class of their own CPU (of their vCPUs), true to the card it sits on:
        "VMs' own CPU < 70 %: 412 · ≥ 90 %: 58", led by the host's class where the host is
        hotter than all its VMs ("host CPU ≥ 90 % · VMs' own CPU < 70 %: 470": a red web
        host read "CPU < 70 %: 470")."""
        by_load: dict[theme.Load, int] = {}
        for column in range(TALLY):
            n = int(self.tally[column])
            if n:
                load = theme.grade_load(column - 1)
                by_load[load] = by_load.get(load, 0) + n
        names = dict((load, text) for text, load in theme.util_legend())
        names[theme.Load.NONE] = "no data"
        host = theme.grade_load(self.level)
        hotter = host is not theme.Load.NONE and all(
            k is theme.Load.NONE or k < host for k in by_load)
        return glossary.vm_grades([(names[k], by_load[k]) for k in sorted(by_load)],
                                  names[host] if hotter and by_load else "")

    def _paint_aggregate(self, painter: QPainter, lod: float, widget: QWidget | None) -> None:
        """Zoomed out: the VMs as one glyph, their count and a strip of their grades (side
        by side on a low card, the count above the strip and a legend on a tall one)."""
        area = self.aggregate_rect()
        panel = QColor("#3a3e45") if is_dark(widget) else QColor("#e6eaef")
        painter.setPen(QPen(SELECTED, 2.0 / max(lod, 0.25)) if self.selected_vms
                       else Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(panel))
        painter.drawRoundedRect(area, 6, 6)
        px = 1.0 / max(lod, 1e-6)  # one screen pixel
        inset = min(8.0, area.width() * 0.04, 3.0 * px)
        text = self.aggregate_text()
        if area.height() < 34.0 * px:  # low: "4 VMs" then the strip, on one line
            big = label_font(label_px(13.0, lod, area.height() * 0.75), bold=True)
            room = area.adjusted(inset, 0, -inset, 0)
            metrics = QFontMetricsF(big)
            fits = [t for t in (text, fmt.count(len(self.vm_ids), "VM"), f"{len(self.vm_ids):,}")
                    if metrics.horizontalAdvance(t + "  ") <= room.width() * 0.6]
            text = fits[0] if fits else text  # "40 VMs · 3 selected", "40 VMs" or "40"
            used = min(metrics.horizontalAdvance(text + "  "), room.width() * 0.6)
            painter.setPen(ink(widget))
            painter.setFont(big)
            painter.drawText(QRectF(room.left(), room.top(), used, room.height()),
                             Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                             elided(text, big, used))
            strip_h = min(area.height() * 0.45, 10.0 * px)
            self._paint_strip(painter, QRectF(room.left() + used, area.center().y()
                                              - strip_h / 2, room.width() - used, strip_h))
        else:
            strip_h = min(max(area.height() * 0.08, 4.0 * px), 16.0 * px, area.height() * 0.25)
            strip = QRectF(area.left() + inset, area.bottom() - strip_h - inset / 2,
                           area.width() - 2 * inset, strip_h)
            self._paint_strip(painter, strip)
            room = QRectF(area.left() + inset, area.top(), area.width() - 2 * inset,
                          strip.top() - area.top())
            big_px = min(max(label_px(13.0, lod, room.height() * 0.8),
                             min(room.height() * 0.3, room.width() / 9)), 26.0 * px)
            big = label_font(big_px, bold=True)
            small = label_font(min(max(label_px(10.5, lod, room.height() * 0.3, 9.0),
                                       big_px * 0.5), 14.0 * px))
            big_h = QFontMetricsF(big).height()
            small_h = QFontMetricsF(small).height()
            legend = self.tally_text()
            two = bool(legend) and big_h + small_h <= room.height() * 0.95
            top = room.top() + (room.height() - big_h - (small_h if two else 0.0)) / 2
            painter.setPen(ink(widget))
            painter.setFont(big)
            painter.drawText(QRectF(room.left(), top, room.width(), big_h),
                             Qt.AlignmentFlag.AlignCenter, elided(text, big, room.width()))
            if two:
                muted = ink(widget)
                muted.setAlphaF(0.7)
                painter.setPen(muted)
                painter.setFont(small)
                painter.drawText(QRectF(room.left(), top + big_h, room.width(), small_h),
                                 Qt.AlignmentFlag.AlignCenter,
                                 elided(legend, small, room.width()))
        if self.vm_badge is not None:
            paint_badge(painter, QPointF(area.right() - 2, area.top() + 2), self.vm_badge, lod)


def rename_hosts(hosts: dict[str, HostItem], design: Design, affixes: tuple[str, str]
                 ) -> tuple[str, str]:
    """Give ``hosts`` the start and domain every host of ``design`` shares now (they had
    ``affixes``); returns them."""
    now = host_affixes([c.name for c in design.of_kind("host")])
    if now != affixes:
        for hid, host in hosts.items():
            comp = design.component(hid)
            if comp is not None:
                host.set_affixes(now, comp)
    return now


class ContainerItem(ComponentItem):
    """A site's or cluster's box around the cards it holds (its default size, at its own
    position, while it holds nothing)."""

    BAND = 14.0
    """Width of the edge that can be grabbed (the inside is the canvas: rubber band)."""

    def __init__(self, comp: Component, style: BoxStyle | None = None):
        super().__init__(comp)
        self.setCacheMode(QGraphicsItem.CacheMode.NoCache)
        self.setZValue(-3.0 if comp.kind == "site" else -2.5)
        self.members = 0
        self.style = style or BOXES.get(comp.kind, BOXES["cluster"])
        """Its margins and name band (:func:`models.io.placement.box_styles`)."""

    def set_box(self, box: QRectF | None, at: QPointF, members: int) -> None:
        """Draw around ``box`` (scene units), or at ``at`` with the default size."""
        if box is None:
            w, h = SIZES.get(self.kind, (240.0, 120.0))
            box = QRectF(at.x() - w / 2, at.y() - h / 2, w, h)
        rect = QRectF(-box.width() / 2, -box.height() / 2, box.width(), box.height())
        if rect != self._rect:
            self.prepareGeometryChange()
            self._rect = rect
            self._bounds = self._margin(rect)
        if self.pos() != box.center():
            self.setPos(box.center())
        if members != self.members:
            self.members = members
            self.update()

    def title_rect(self, lod: float) -> QRectF:
        r = self._rect
        return QRectF(r.left() + 10, r.top() + 3, r.width() - 20 - badge_room(self.badge, lod),
                      self.style.head + self.style.pad - 6)

    def title_font(self, lod: float) -> QFont:
        base = 15.0 if self.kind == "site" else 13.0
        least = CAPTION_PX.get(self.kind, MIN_TITLE_PX) if self.style.fit else MIN_TITLE_PX
        return label_font(label_px(base, lod, self.title_rect(lod).height() * TITLE_SHARE,
                                   least), bold=True)  # an estate's: larger than its hosts'

    def title_layout(self, lod: float) -> tuple[QFont, list[str], QFont | None]:
        font = self.title_font(lod)
        return font, [elided(self.title, font, self.title_rect(lod).width())], None

    def shape(self) -> QPainterPath:
        outer = QPainterPath()
        outer.addRect(self._rect)
        inner = QPainterPath()
        inner.addRect(self._rect.adjusted(self.BAND, self.style.head + self.style.pad / 2,
                                          -self.BAND, -self.BAND))
        return outer.subtracted(inner)

    def edge_point(self, towards: QPointF) -> QPointF:
        box = self.scene_body()
        if box.contains(towards):
            return self.pos()
        line = QLineF(self.pos(), towards)
        corners = [box.topLeft(), box.topRight(), box.bottomRight(), box.bottomLeft()]
        for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
            kind, point = line.intersects(QLineF(a, b))
            if kind == QLineF.IntersectionType.BoundedIntersection:
                return point
        return self.pos()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        dark = is_dark(widget)
        site = self.kind == "site"
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        fill = QColor("#8fb3d9" if site else "#b9a3d6")
        fill.setAlpha(26 if dark else 30)
        edge = QColor("#7f9bb8" if site else "#9c86bb")
        pen = QPen(SELECTED if selected else edge, (2.4 if selected else 1.6) / max(lod, 0.4))
        if not site:
            pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(QBrush(fill))
        painter.drawRoundedRect(self._rect, 14, 14)
        box = self.title_rect(lod)
        font = self.title_font(lod)
        painter.setFont(font)
        painter.setPen(ink(widget))
        count = f"{self.members} host" + ("" if self.members == 1 else "s") + (
            f" · {self.subtitle}" if self.subtitle else "")  # a cluster: "HA N+1 · DRS on"
        title = elided(self.title, font, box.width())
        painter.drawText(box, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, title)
        used = painter.fontMetrics().horizontalAdvance(title + "   ")
        if self.members and used < box.width():
            small = label_font(label_px(COUNT_PX, lod, box.height() * COUNT_SHARE))
            painter.setFont(small)
            muted = ink(widget)
            muted.setAlphaF(0.6)
            painter.setPen(muted)
            count = elided(count, small, box.width() - used)
            if count != "…":  # a lone "…" says nothing
                painter.drawText(box.adjusted(used, 0, 0, 0),
                                 Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                                 count)
        if self.badge:  # in its name band, after its name and count
            paint_badge(painter, QPointF(box.right() + badge_room(True, lod) / 2,
                                         box.center().y()), self.badge_style, lod)
