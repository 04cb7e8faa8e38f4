"""Canvas items: one :class:`ComponentItem` per component, one :class:`LinkItem` per link.

Items hold display state only (fill level, badge, label) and change it in place when a new
prediction arrives; the scene never recreates them for that.  Painting is cheap: items cache
their pixels (``DeviceCoordinateCache``) and draw a plain box when zoomed far out (level of
detail from the painter's transform).
"""

from __future__ import annotations

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QPainter,
    QPainterPath,
    QPainterPathStroker,
    QPen,
    QPixmap,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QStyle,
    QStyleOptionGraphicsItem,
    QWidget,
)

from app import theme
from models.document.design import Component, Link

#: Item size (width, height) per kind, in scene units; positions are the item centres.
SIZES: dict[str, tuple[float, float]] = {
    "host": (150.0, 64.0), "vm": (104.0, 18.0), "nic": (56.0, 18.0),
    "storage_array": (150.0, 64.0), "site": (170.0, 44.0), "content_library": (140.0, 34.0),
    "cluster": (170.0, 30.0),
}
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
SATURATED = 0.995
"""The badge turns red from here: the busiest resource reads "100%" (a closed loop's busiest
station approaches 1 without reaching it)."""


def badge_style(util: float) -> tuple[QColor, str]:
    """(colour, mark) of the bottleneck badge: a red "!" once saturated (:data:`SATURATED`),
    an amber "!" from the scale's busy threshold (:data:`app.theme.UTIL_WARN`), and below
    that a slate "i" - the busiest resource, but nothing to alarm about."""
    if util >= SATURATED:
        return QColor(theme.UTIL_COLOURS[theme.Load.HOT]), "!"
    if util >= theme.UTIL_WARN:
        return QColor(theme.UTIL_COLOURS[theme.Load.WARN]), "!"
    return _SLATE, "i"


def level_colour(level: int, kind: str = "host") -> QColor:
    """The fill of a component at utilisation grade ``level`` (:func:`app.theme.util_grades`):
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


class ComponentItem(QGraphicsItem):
    """A component on the canvas; ``cid`` ties it to the document."""

    def __init__(self, comp: Component):
        super().__init__()
        self.cid = comp.id
        self.kind = comp.kind
        w, h = SIZES.get(comp.kind, (100.0, 40.0))
        self._rect = QRectF(-w / 2, -h / 2, w, h)
        self._bounds = self._rect.adjusted(-12, -12, 12, 12)
        self.level = NO_DATA
        self.badge = False
        self.badge_style = badge_style(1.0)
        self.docked = False
        """True for a NIC drawn on its host: it follows the host instead of moving alone."""
        self.title = ""
        self.subtitle = ""
        self.setFlags(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable
                      | QGraphicsItem.GraphicsItemFlag.ItemIsMovable)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setZValue({"site": -2.0, "host": 0.0, "storage_array": 0.0, "nic": 2.0}
                       .get(comp.kind, 1.0))
        self.set_component(comp)

    # ------------------------------------------------------------------ state
    def set_component(self, comp: Component) -> None:
        """Refresh the label from the component (after a rename or a property edit)."""
        title = comp.name or comp.id
        subtitle = describe(comp)
        if (title, subtitle) != (self.title, self.subtitle):
            self.title, self.subtitle = title, subtitle
            self.update()

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
        outline = QColor("#1e90ff") if selected else QColor("#2b2b2b")
        if lod < 0.35:
            painter.fillRect(self._rect, fill if self.kind != "site" else QColor("#808080"))
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        if self.kind == "site":
            outline = QColor("#1e90ff") if selected else QColor("#909090")
        paint_shape(painter, self.kind, self._rect, fill, outline,
                    detail=lod > 0.6 and self.kind != "nic")
        if selected:
            painter.setPen(QPen(QColor("#1e90ff"), 2.0))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(self._rect.adjusted(-3, -3, 3, 3), 6, 6)
        if lod > 0.5:
            self._paint_text(painter)
        if self.badge:
            self._paint_badge(painter)

    def _paint_text(self, painter: QPainter) -> None:
        dark = self.kind == "site"
        painter.setPen(QColor("#dddddd") if dark else QColor("#101010"))
        font = QFont()
        r = self._rect
        if self.kind in ("host", "storage_array"):
            font.setPixelSize(13)
            font.setBold(True)
            painter.setFont(font)
            top = r.adjusted(8, 10 if self.kind == "storage_array" else 4, -8, 0)
            top.setHeight(20)
            painter.drawText(top, Qt.AlignmentFlag.AlignCenter, self._elide(painter, top))
            font.setBold(False)
            font.setPixelSize(10)
            painter.setFont(font)
            sub = r.adjusted(6, r.height() * 0.62 if self.kind == "host" else 30, -6, -2)
            painter.drawText(sub, Qt.AlignmentFlag.AlignCenter, self.subtitle)
        else:
            font.setPixelSize(10 if self.kind != "nic" else 9)
            painter.setFont(font)
            inner = r.adjusted(6, 0, -6, 0)
            painter.drawText(inner, Qt.AlignmentFlag.AlignCenter, self._elide(painter, inner))

    def _elide(self, painter: QPainter, rect: QRectF) -> str:
        return painter.fontMetrics().elidedText(self.title, Qt.TextElideMode.ElideRight,
                                                int(rect.width()))

    def _paint_badge(self, painter: QPainter) -> None:
        c = QPointF(self._rect.right() - 2, self._rect.top() + 2)
        painter.setPen(QPen(QColor("#ffffff"), 1.5))
        colour, mark = self.badge_style
        painter.setBrush(QBrush(colour))
        painter.drawEllipse(c, 9, 9)
        font = QFont()
        font.setPixelSize(13)
        font.setBold(True)
        painter.setFont(font)
        painter.drawText(QRectF(c.x() - 9, c.y() - 9, 18, 18), Qt.AlignmentFlag.AlignCenter, mark)


class LinkItem(QGraphicsItem):
    """A link drawn between the centres of its two component items.

    Its bounding rectangle already allows for the widest pen, so a new width (traffic) is a
    repaint only, never a geometry change (which would re-index the scene's BSP tree)."""

    MAX_WIDTH = 1.2 + 0.9 * 6

    def __init__(self, link: Link, source: ComponentItem, target: ComponentItem):
        super().__init__()
        self.link = link
        self.source = source
        self.target = target
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
        self.setZValue(-1.0)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
        self.adjust()

    def line(self) -> QLineF:
        return QLineF(self._line)

    def pen(self) -> QPen:
        return QPen(self._pen)

    def adjust(self) -> None:
        line = QLineF(self.source.pos(), self.target.pos())
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


def describe(comp: Component) -> str:
    """A one-line hardware summary for the item's second line."""
    if comp.kind == "host":
        cores = int(comp.get("sockets") or 0) * int(comp.get("cores_per_socket") or 0)
        return f"{cores} cores · {comp.get('ghz')} GHz · {_num(comp.get('memory_gb'))} GB"
    if comp.kind == "storage_array":
        return f"{comp.get('disks')} × {comp.get('media')} · {comp.get('raid')}"
    if comp.kind == "nic":
        return f"{_num(comp.get('speed_gbps'))} GbE"
    if comp.kind == "vm":
        return str(comp.get("workload.profile"))
    if comp.kind == "cluster":
        if not comp.get("ha_enabled"):
            ha = "HA off"
        elif comp.get("admission_control") == "failover_hosts":
            ha = f"HA N+{comp.get('failover_hosts')}"
        elif comp.get("admission_control") == "percentage":
            ha = f"HA {_num(comp.get('cpu_failover_pct'))}% reserved"
        else:
            ha = "HA, no admission control"
        return f"{ha} · DRS {'on' if comp.get('drs_enabled') else 'off'}"
    if comp.kind == "content_library":
        gbe = _num(comp.get("network_gbps"))
        return f"{comp.get('operation')} · {comp.get('backing')} · {gbe} GbE"
    return ""


def _num(v: object) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)
