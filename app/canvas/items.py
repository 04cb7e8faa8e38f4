"""Canvas items: a :class:`ComponentItem` per component shown, a :class:`LinkItem` per link
drawn (host cards and site boxes are in :mod:`app.canvas.cards`).

Items hold display state only (fill level, badge, label) and change it in place when a new
prediction arrives; the scene never recreates them for that.  Painting is cheap: items cache
their pixels (``DeviceCoordinateCache``).  Names read at every zoom: a label's type is never
smaller on screen than :data:`MIN_TITLE_PX` (it grows in scene units as the view zooms out,
up to what the item can hold) and a name too long for its item is elided, the whole name in
the item's tooltip (:meth:`ComponentItem.shown_title`).
"""

from __future__ import annotations

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QGuiApplication,
    QPainter,
    QPainterPath,
    QPainterPathStroker,
    QPalette,
    QPen,
    QPixmap,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QStyle,
    QStyleOptionGraphicsItem,
    QWidget,
)

from app.support import theme
from models.document.design import Component, Link
from models.document.schema import Value
from models.document.words import component_summary as describe
from models.io.placement import LEAST_PX, SIZES

__all__ = ["SIZES", "ComponentItem", "LinkItem", "describe"]

MIN_TITLE_PX = LEAST_PX
"""A name's type is at least this many pixels high on screen, at any zoom (the layout sizes
boxes' name bands by it too)."""
MIN_SMALL_PX = 9.0
"""The same for the small labels (VM and NIC names, hardware lines)."""
TITLE_ROOM = 0.8
"""The share of its place's height a name's type takes (a card's header holds an 11 px name
from a zoom where it is 14 px high; below that the name goes over the whole card)."""
NO_DATA = theme.NO_GRADE
"""The level of a component whose utilisation is not modelled (its kind's neutral colour)."""

_NEUTRAL = {"host": QColor("#5b7fa6"), "vm": QColor("#7a8ba0"), "nic": QColor("#6f8f7f"),
            "storage_array": QColor("#8a7aa6"), "site": QColor("#00000000"),
            "content_library": QColor("#b08a4f"), "cluster": QColor("#4f7f9f")}
LINK_COLOURS = {"runs_on": QColor("#6c8ebf"), "ft_secondary_on": QColor("#c77dcc"),
                "installed_in": QColor("#7aa57a"), "passthrough": QColor("#d4a24c"),
                "disk_on": QColor("#9a7fd1"), "storage": QColor("#8c6bb1"),
                "located_at": QColor("#999999"), "wan": QColor("#d9534f"),
                "subscribes_to": QColor("#b08a4f"), "library_at": QColor("#999999"),
                "in_cluster": QColor("#4f7f9f")}

_SLATE = QColor("#5d6d7e")
SELECTED = QColor("#1e90ff")
SATURATED = 0.995
"""The badge turns red from here: the busiest resource reads "100%" (a closed loop's busiest
station approaches 1 without reaching it)."""


def badge_style(util: float) -> tuple[QColor, str]:
    """(colour, mark) of the bottleneck badge: a red "!" once saturated (:data:`SATURATED`),
    an amber "!" from the scale's busy threshold (:data:`app.support.theme.UTIL_WARN`), and below
    that a slate "i" - the busiest resource, but nothing to alarm about."""
    if util >= SATURATED:
        return QColor(theme.UTIL_COLOURS[theme.Load.HOT]), "!"
    if util >= theme.UTIL_WARN:
        return QColor(theme.UTIL_COLOURS[theme.Load.WARN]), "!"
    return _SLATE, "i"


def level_colour(level: int, kind: str = "host") -> QColor:
    """The fill of a component at utilisation grade ``level``
    (:func:`app.support.theme.util_grades`):
    the theme's utilisation scale; the kind's neutral colour for no data."""
    if level == NO_DATA:
        return _NEUTRAL.get(kind, QColor("#888888"))
    return theme.grade_colour(level)


def paint_shape(painter: QPainter, kind: str, rect: QRectF, fill: QColor, outline: QColor,
                detail: bool = True) -> None:
    """Draw the symbol of ``kind`` in ``rect`` (shared by canvas items and palette icons)."""
    painter.setPen(QPen(outline, 1.4))
    painter.setBrush(QBrush(fill))
    if kind == "storage_array":
        e = min(rect.height() * 0.28, 14.0)
        body = QPainterPath()
        body.moveTo(rect.left(), rect.top() + e / 2)
        body.lineTo(rect.left(), rect.bottom() - e / 2)
        body.arcTo(QRectF(rect.left(), rect.bottom() - e, rect.width(), e), 180, 180)
        body.lineTo(rect.right(), rect.top() + e / 2)
        body.arcTo(QRectF(rect.left(), rect.top(), rect.width(), e), 0, -180)
        painter.drawPath(body)
        painter.drawEllipse(QRectF(rect.left(), rect.top(), rect.width(), e))
    elif kind == "site":
        pen = QPen(outline, 1.6, Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(rect, 10, 10)
    elif kind == "nic":
        painter.drawRect(rect)
        if detail:
            n = 4
            w = rect.width() / (2 * n + 1)
            painter.setBrush(QBrush(outline))
            for i in range(n):
                painter.drawRect(QRectF(rect.left() + w * (2 * i + 1), rect.bottom()
                                        - rect.height() * 0.35, w, rect.height() * 0.25))
    elif kind == "vm":
        r = rect.height() / 2
        painter.drawRoundedRect(rect, r, r)
    elif kind == "cluster":  # a stack of hosts: two offset outlines behind the front one
        if detail:
            for k in (2, 1):
                painter.drawRoundedRect(rect.translated(3 * k, -3 * k), 5, 5)
        painter.drawRoundedRect(rect, 5, 5)
    elif kind == "content_library":  # a shelf of books: spines on the left
        painter.drawRoundedRect(rect, 3, 3)
        if detail:
            painter.setPen(QPen(outline, 1.0))
            w = min(rect.width() * 0.05, 7.0)
            for i in range(1, 4):
                x = rect.left() + w * i
                painter.drawLine(QPointF(x, rect.top() + 3), QPointF(x, rect.bottom() - 3))
    else:  # host: a server with drive bays
        painter.drawRoundedRect(rect, 6, 6)
        if detail:
            painter.setPen(QPen(outline, 1.0))
            y = rect.top() + rect.height() * 0.62
            painter.drawLine(QPointF(rect.left() + 6, y), QPointF(rect.right() - 6, y))


def kind_pixmap(kind: str, size: int = 32) -> QPixmap:
    """A small icon for ``kind`` (palette)."""
    pm = QPixmap(size, size)
    pm.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pm)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    w, h = SIZES.get(kind, (40.0, 30.0))
    scale = (size - 4) / max(w, h)
    rect = QRectF(0, 0, w * scale, max(h * scale, size * 0.3))
    rect.moveCenter(QPointF(size / 2, size / 2))
    fill = _NEUTRAL.get(kind, QColor("#888888"))
    paint_shape(painter, kind, rect, fill if fill.alpha() else QColor("#dddddd"),
                QColor("#303030"), detail=False)
    painter.end()
    return pm


def label_px(base: float, lod: float, room: float, least: float = MIN_TITLE_PX) -> float:
    """The pixel size (scene units) of a label: ``base`` at 100 %, never under ``least``
    pixels on screen as the view zooms out, and never over ``room`` (what the item holds)."""
    return max(1.0, min(max(base, least / max(lod, 1e-6)), room))


def label_font(px: float, bold: bool = False) -> QFont:
    font = QFont()
    font.setPixelSize(max(1, round(px)))
    font.setBold(bold)
    return font


def elided(text: str, font: QFont, width: float,
           mode: Qt.TextElideMode = Qt.TextElideMode.ElideRight) -> str:
    """``text`` cut with "…" to ``width`` scene units in ``font`` (whole when it fits); at its
    end, or in its ``mode``'s place (a host's name in the middle: "vmp…3-06" keeps the
    number that tells it from its neighbours; where that leaves under three of its last
    characters, at its start: "…-06")."""
    metrics = QFontMetricsF(font)
    out = metrics.elidedText(text, mode, max(0.0, width))
    if mode == Qt.TextElideMode.ElideMiddle and len(out.rpartition("…")[2]) < min(3, len(text)):
        out = metrics.elidedText(text, Qt.TextElideMode.ElideLeft, max(0.0, width))
    return out


def wrapped(text: str, font: QFont, width: float, max_lines: int,
            mode: Qt.TextElideMode = Qt.TextElideMode.ElideRight) -> list[str]:
    """``text`` in at most ``max_lines`` lines of ``width``, broken between words; the last
    line elided with "…" (where ``mode`` says) when the rest does not fit."""
    metrics = QFontMetricsF(font)
    if max_lines <= 1 or metrics.horizontalAdvance(text) <= width:
        return [elided(text, font, width, mode)]
    words, line = text.split(), ""
    lines: list[str] = []
    while words and len(lines) < max_lines - 1:
        trial = f"{line} {words[0]}".strip()
        if not line or metrics.horizontalAdvance(trial) <= width:
            line = trial
            words.pop(0)
        else:
            lines.append(line)
            line = ""
    rest = " ".join([line, *words]).strip() if line or words else ""
    lines = [elided(x, font, width) for x in lines]
    if rest:
        lines.append(elided(rest, font, width, mode))
    return lines


def ink(widget: QWidget | None) -> QColor:
    """Text colour on the canvas itself (not on a fill): the palette's, light or dark."""
    pal = widget.palette() if widget is not None else QGuiApplication.palette()
    return pal.color(QPalette.ColorRole.Text)


def is_dark(widget: QWidget | None) -> bool:
    pal = widget.palette() if widget is not None else QGuiApplication.palette()
    return pal.color(QPalette.ColorRole.Base).lightnessF() < 0.5


def badge_radius(lod: float) -> float:
    """The bottleneck mark's radius (scene units): 9 at 100 %, at least 6 px on screen (a
    low card's name at fit fits under it: 30 px of card hold the disc and an 11 px name)."""
    return max(9.0, 6.0 / max(lod, 1e-6))


def badge_room(on: bool, lod: float) -> float:
    """What an item's name gives up for its badge (scene units): the disc and a pixel either
    side of it, where the item wears one; its name never lies under it."""
    return 2 * badge_radius(lod) + 2.0 / max(lod, 1e-6) if on else 0.0


def corner_badge(rect: QRectF, lod: float) -> QPointF:
    """Where an item wears its badge: inside the top right corner of ``rect``, so that it
    never covers what lies round the item (a card's badge covered its cluster's name)."""
    r = badge_radius(lod) + 1.0 / max(lod, 1e-6)
    return QPointF(rect.right() - r, rect.top() + r)


def paint_badge(painter: QPainter, centre: QPointF, style: tuple[QColor, str], lod: float
                ) -> None:
    """The bottleneck mark: a disc of at least 12 px on screen."""
    r = badge_radius(lod)
    painter.setPen(QPen(QColor("#ffffff"), 1.5 * r / 9.0))
    painter.setBrush(QBrush(style[0]))
    painter.drawEllipse(centre, r, r)
    painter.setFont(label_font(r * 1.45, bold=True))
    painter.drawText(QRectF(centre.x() - r, centre.y() - r, 2 * r, 2 * r),
                     Qt.AlignmentFlag.AlignCenter, style[1])


class ComponentItem(QGraphicsItem):
    """A component on the canvas; ``cid`` ties it to the document.

    ``docked`` items (a VM or NIC on its host's card) are placed by their host and move with
    it; the scene makes them only when they can be read or are selected
    (:mod:`app.canvas.detail`)."""

    TITLE_PX = 14.0
    SUB_PX = 10.5
    ELIDE = Qt.TextElideMode.ElideRight
    """Where a name too long for the item is cut (a host's: in the middle)."""

    def __init__(self, comp: Component):
        super().__init__()
        self.cid = comp.id
        self.kind = comp.kind
        w, h = SIZES.get(comp.kind, (100.0, 40.0))
        self._rect = QRectF(-w / 2, -h / 2, w, h)
        self._bounds = self._margin(self._rect)
        self.level = NO_DATA
        self.badge = False
        self.badge_style = badge_style(1.0)
        self.docked = False
        """True for a VM or NIC drawn on its host's card: it follows the host."""
        self.title = ""
        self.subtitle = ""
        self.setFlags(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable
                      | QGraphicsItem.GraphicsItemFlag.ItemIsMovable)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setZValue({"host": 0.0, "storage_array": 0.0, "nic": 2.0, "vm": 2.0}
                       .get(comp.kind, 1.0))
        self.set_component(comp)

    @staticmethod
    def _margin(rect: QRectF) -> QRectF:
        return rect.adjusted(-14, -14, 14, 14)

    # ------------------------------------------------------------------ state
    def set_component(self, comp: Component) -> None:
        """Refresh the label from the component (after a rename or a property edit)."""
        self.name = comp.name
        """Its component's whole name."""
        title = self.name_of(comp)
        subtitle = describe(comp)
        if (title, subtitle) != (self.title, self.subtitle):
            self.title, self.subtitle = title, subtitle
            self.update()

    shown_prefix = ""
    """The start of its name the item leaves out (a NIC on its host's card: the host's name
    and a space, "vmnic0" for "esx01.corp.local vmnic0"; the tooltip has it whole)."""

    def name_of(self, comp: Component) -> str:
        """The name the item shows (its name, else its id; less :attr:`shown_prefix`)."""
        name = comp.name or comp.id
        prefix = self.shown_prefix
        return name[len(prefix):] if prefix and name.startswith(prefix) \
            and len(name) > len(prefix) else name

    def set_shown_prefix(self, prefix: str, comp: Component) -> None:
        if prefix != self.shown_prefix:
            self.shown_prefix = prefix
            self.set_component(comp)

    def set_level(self, level: int) -> None:
        if level != self.level:
            self.level = level
            self.update()

    def set_badge(self, on: bool, util: float = 1.0) -> None:
        """Mark the design's busiest resource; ``util`` grades the mark (:func:`badge_style`)."""
        style = badge_style(util)
        if on != self.badge or style != self.badge_style:
            self.badge, self.badge_style = on, style
            self.update()

    def set_docked(self, docked: bool) -> None:
        self.docked = docked
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsMovable, not docked)

    def rect(self) -> QRectF:
        """The item's body (scene units, around its position)."""
        return QRectF(self._rect)

    def scene_body(self) -> QRectF:
        return self._rect.translated(self.pos())

    def edge_point(self, towards: QPointF) -> QPointF:
        """Where a link to ``towards`` leaves this item (its centre; a box: its edge)."""
        return self.pos()

    # ------------------------------------------------------------------ labels
    def title_rect(self, lod: float) -> QRectF:
        """Where the name goes at level of detail ``lod`` (clear of its badge)."""
        r = self._rect
        if self.kind == "storage_array":
            return r.adjusted(8, min(r.height() * 0.28, 14.0), -8 - badge_room(self.badge, lod),
                              0)
        return r.adjusted(6, 0, -6, 0)

    def title_font(self, lod: float) -> QFont:
        room = self.title_rect(lod).height() * (TITLE_ROOM if self.kind != "vm" else 0.9)
        if self.kind in ("vm", "nic"):
            return label_font(label_px(self.SUB_PX, lod, room, MIN_SMALL_PX))
        return label_font(label_px(self.TITLE_PX, lod, room), bold=True)

    def title_layout(self, lod: float) -> tuple[QFont, list[str], QFont | None]:
        """How the label is set at ``lod``: the name's font and lines (two when it is long
        and there is room), and the hardware line's font (None when it does not fit)."""
        box = self.title_rect(lod)
        font = self.title_font(lod)
        line_h = QFontMetricsF(font).height()
        if self.kind in ("vm", "nic") or not self.subtitle:
            sub = None
            lines = wrapped(self.title, font, box.width(), int(box.height() // line_h),
                            self.ELIDE)
        else:
            sub = label_font(label_px(self.SUB_PX, lod, box.height(), MIN_SMALL_PX))
            sub_h = QFontMetricsF(sub).height()
            room = int((box.height() - sub_h) // line_h)
            alone = int(box.height() // line_h)
            lines = wrapped(self.title, font, box.width(), max(1, min(2, room)), self.ELIDE)
            if room < 1 or ("…" in lines[-1] and min(2, alone) > room):
                sub = None  # the whole name matters more than the hardware line
                lines = wrapped(self.title, font, box.width(), max(1, min(2, alone)),
                                self.ELIDE)
        return font, lines, sub

    def shown_title(self, lod: float) -> str:
        """The name as painted at level of detail ``lod`` (its lines joined; elided with
        "…" only when it does not fit, and the tooltip then has it whole; "" when it is not
        painted because it would not read)."""
        return " ".join(self.title_layout(lod)[1])

    def title_reads(self, lod: float) -> bool:
        """Whether the name's type is at least :data:`MIN_TITLE_PX` (:data:`MIN_SMALL_PX` for
        VMs and NICs) on screen at ``lod``."""
        least = MIN_SMALL_PX if self.kind in ("vm", "nic") else MIN_TITLE_PX
        return self.title_font(lod).pixelSize() * lod >= least - 0.5

    # ------------------------------------------------------------------ QGraphicsItem
    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt)
        return self._bounds

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addRect(self._rect)
        return path

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        fill = level_colour(self.level, self.kind)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        if self._rect.height() * lod < 4.0 and not self.badge:  # a few pixels: a swatch
            painter.fillRect(self._rect, SELECTED if selected else fill)
            return
        outline = SELECTED if selected else QColor("#2b2b2b")
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        paint_shape(painter, self.kind, self._rect, fill, outline,
                    detail=lod > 0.6 and self.kind != "nic")
        if selected:
            painter.setPen(QPen(SELECTED, 2.0 / max(lod, 0.25)))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(self._rect.adjusted(-3, -3, 3, 3), 6, 6)
        self._paint_text(painter, lod)
        if self.badge:
            at = corner_badge(self._rect, lod) if self.kind == "storage_array" else \
                QPointF(self._rect.right() - 2, self._rect.top() + 2)  # a pill: at its end
            paint_badge(painter, at, self.badge_style, lod)

    def _paint_text(self, painter: QPainter, lod: float, colour: QColor | None = None
                    ) -> None:
        box = self.title_rect(lod)
        font, lines, sub = self.title_layout(lod)
        line_h = QFontMetricsF(font).height()
        sub_h = QFontMetricsF(sub).height() if sub is not None else 0.0
        top = box.top() + (box.height() - line_h * len(lines) - sub_h) / 2
        painter.setPen(colour if colour is not None else QColor("#101010"))
        painter.setFont(font)
        for line in lines:
            painter.drawText(QRectF(box.left(), top, box.width(), line_h),
                             Qt.AlignmentFlag.AlignCenter, line)
            top += line_h
        if sub is not None:
            painter.setFont(sub)
            painter.drawText(QRectF(box.left(), top, box.width(), sub_h),
                             Qt.AlignmentFlag.AlignCenter, elided(self.subtitle, sub, box.width()))


class LinkItem(QGraphicsItem):
    """A link drawn between its two component items (centres; a box's edge).

    A ``bundle`` stands for the links of many VMs on one host card to one place (their
    disks on an array, their FT secondaries on another host): not a link of the design, so
    not selectable; its width is their summed traffic.

    Its bounding rectangle already allows for the widest pen, so a new width (traffic) is a
    repaint only, never a geometry change (which would re-index the scene's BSP tree)."""

    MAX_WIDTH = 1.2 + 0.9 * 6

    def __init__(self, link: Link, source: ComponentItem, target: ComponentItem,
                 bundle: bool = False):
        super().__init__()
        self.link = link
        self.source = source
        self.target = target
        self.bundle = bundle
        self.width_level = 0
        self._line = QLineF()
        self._bounds = QRectF()
        colour = QColor(LINK_COLOURS.get(link.kind, QColor("#888888")))
        colour.setAlpha(190)
        self._pen = QPen(colour, 1.2)
        self._pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        if link.kind in ("ft_secondary_on", "wan", "subscribes_to"):
            self._pen.setStyle(Qt.PenStyle.DashLine)
        if link.kind in ("located_at", "library_at"):
            self._pen.setStyle(Qt.PenStyle.DotLine)
        self.setZValue(-4.0)  # under the boxes too: a box's name reads over a line
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, not bundle)
        self.adjust()

    def line(self) -> QLineF:
        return QLineF(self._line)

    def pen(self) -> QPen:
        return QPen(self._pen)

    def adjust(self) -> None:
        line = QLineF(self.source.edge_point(self.target.pos()),
                      self.target.edge_point(self.source.pos()))
        if line != self._line:
            self.prepareGeometryChange()
            self._line = line
            m = self.MAX_WIDTH
            self._bounds = QRectF(line.p1(), line.p2()).normalized().adjusted(-m, -m, m, m)

    def set_width_level(self, level: int, repaint: bool = True) -> None:
        """Width 1.2 px (no traffic) to 6.6 px (the busiest link's traffic).  ``repaint``
        False: the new width would look the same at the current zoom (see drawn_width); the
        next repaint (zooming always repaints) uses it."""
        if level != self.width_level:
            self.width_level = level
            self._pen.setWidthF(1.2 + 0.9 * level)
            if repaint:
                self.update()

    @staticmethod
    def drawn_width(level: int, lod: float) -> float:
        """The pen width ``paint`` draws for ``level`` at level of detail ``lod`` (0.0: a
        one-pixel hairline; keep in step with ``paint``)."""
        width = 1.2 + 0.9 * level
        if lod < 0.5:
            width = width * lod * 2
            return width if width >= 1.5 else 0.0
        return width

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt)
        return self._bounds

    def shape(self) -> QPainterPath:
        path = QPainterPath(self._line.p1())
        path.lineTo(self._line.p2())
        stroker = QPainterPathStroker()
        stroker.setWidth(max(6.0, self._pen.widthF()))
        return stroker.createStroke(path)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        pen = self._pen
        if option.state & QStyle.StateFlag.State_Selected:
            pen = QPen(pen)
            pen.setColor(QColor("#1e90ff"))
            pen.setWidthF(pen.widthF() + 1.5)
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        if lod < 0.5:  # far out: hairlines in pixels, no antialiasing (10x cheaper)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
            pen = QPen(pen)
            width = pen.widthF() * lod * 2
            pen.setWidthF(width if width >= 1.5 else 0.0)  # 0: one-pixel hairline
            pen.setCosmetic(True)
            opaque = pen.color()
            opaque.setAlpha(255)
            pen.setColor(opaque)
        painter.setPen(pen)
        painter.drawLine(self._line)


_LABEL_PROPS: dict[str, frozenset[str]] = {}


class _Reads(Component):
    """A component copy that records which properties are read (by ``describe``)."""

    def __init__(self, comp: Component):
        super().__init__(comp.id, comp.kind, comp.name, props=dict(comp.props))
        self.read: set[str] = set()

    def get(self, prop: str) -> Value:
        self.read.add(prop)
        return super().get(prop)


def label_props(comp: Component) -> frozenset[str]:
    """The properties an item's label (``describe``) reads for ``comp``'s kind."""
    props = _LABEL_PROPS.get(comp.kind)
    if props is None:
        probe = _Reads(comp)
        describe(probe)
        props = _LABEL_PROPS[comp.kind] = frozenset(probe.read)
    return props
