"""Drawing helpers for reports: one logical page size, text, tables and bars on a QPainter.

Every report page is laid out in logical units (:data:`PAGE_W` x :data:`PAGE_H`, an A4
landscape ratio) and scaled to the device, so the PDF (vector) and the PNG share one layout.
Fonts use pixel sizes in those logical units.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPen

from app.support import theme

PAGE_W = 1400.0
PAGE_H = 990.0
MARGIN = 56.0

INK = QColor("#1d2430")
MUTED = QColor("#5d6878")
RULE = QColor("#c9d1dc")
ACCENT = QColor("#2f6db5")
GOOD = QColor("#3c9a5f")
BAD = QColor("#c8453a")
PANEL = QColor("#f3f6fa")

FONT_FAMILY = "DejaVu Sans"

SHRINK = 0.8
"""A line of text too long for its box is set this much smaller before it is cut short."""


def util_color(util: float) -> QColor:
    """The theme's utilisation colour (:func:`app.support.theme.util_colour`); a rule for no
    figure."""
    return RULE if math.isnan(util) else theme.util_colour(util)


NO_LIGATURES = ("liga", "clig", "dlig", "hlig")
"""OpenType features a report's text never uses: set as one glyph, "fi" of "iofilter" reads
"ﬁ" to a PDF reader, and a search for "iofilter" finds nothing."""


def font(size: float, bold: bool = False, italic: bool = False) -> QFont:
    f = QFont(FONT_FAMILY)
    for tag in NO_LIGATURES:
        f.setFeature(QFont.Tag(tag), 0)
    f.setPixelSize(max(1, round(size)))
    f.setBold(bold)
    f.setItalic(italic)
    return f


def wrapped_height(w: float, s: str, size: float = 13, bold: bool = False) -> float:
    """The height of ``s`` word-wrapped to ``w`` (measured before anything is drawn)."""
    flags = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop
                | Qt.TextFlag.TextWordWrap)
    return QFontMetricsF(font(size, bold)).boundingRect(QRectF(0, 0, w, 1e6), flags,
                                                        s).height()


@dataclass(frozen=True)
class Column:
    title: str
    width: float
    """Fraction of the table width."""
    align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignLeft


class Sheet:
    """A painter plus the logical page it draws on."""

    def __init__(self, painter: QPainter, width: float = PAGE_W, height: float = PAGE_H):
        self.painter = painter
        self.width = width
        self.height = height

    # ------------------------------------------------------------------ text
    def font(self, size: float, bold: bool = False, italic: bool = False) -> QFont:
        return font(size, bold, italic)

    def text(self, rect: QRectF, s: str, size: float = 13, bold: bool = False,
             color: QColor = INK, align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignLeft,
             italic: bool = False, shrink: float = SHRINK) -> None:
        """One line in ``rect``: set smaller (down to ``shrink`` of ``size``) rather than
        cut, elided only when even that does not fit."""
        p = self.painter
        f = self.font(size, bold, italic)
        width = QFontMetricsF(f).horizontalAdvance(s)
        if width > rect.width() > 0 and shrink < 1.0:
            f = self.font(max(size * shrink, size * rect.width() / width * 0.98), bold, italic)
        p.setFont(f)
        p.setPen(color)
        s = QFontMetricsF(f).elidedText(s, Qt.TextElideMode.ElideRight, rect.width())
        p.drawText(rect, int(align | Qt.AlignmentFlag.AlignVCenter), s)

    def text_width(self, s: str, size: float = 13, bold: bool = False) -> float:
        return QFontMetricsF(self.font(size, bold)).horizontalAdvance(s)

    def wrapped_height(self, w: float, s: str, size: float = 13, bold: bool = False) -> float:
        """The height :meth:`wrapped` would use."""
        return wrapped_height(w, s, size, bold)

    def wrapped(self, x: float, y: float, w: float, s: str, size: float = 13,
                color: QColor = INK, bold: bool = False, max_h: float = 1e9) -> float:
        """Word-wrapped text from (x, y); returns the height used."""
        f = self.font(size, bold)
        flags = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop
                    | Qt.TextFlag.TextWordWrap)
        h = min(QFontMetricsF(f).boundingRect(QRectF(0, 0, w, 1e6), flags, s).height(), max_h)
        self.painter.setFont(f)
        self.painter.setPen(color)
        self.painter.drawText(QRectF(x, y, w, h), flags, s)
        return h

    def heading(self, title: str, subtitle: str = "") -> float:
        """The page heading; returns the y below it."""
        self.text(QRectF(MARGIN, MARGIN - 8, self.width - 2 * MARGIN, 40), title, 28, True)
        y = MARGIN + 34
        if subtitle:
            self.text(QRectF(MARGIN, y, self.width - 2 * MARGIN, 22), subtitle, 14,
                      color=MUTED)
            y += 24
        self.painter.setPen(QPen(ACCENT, 2))
        self.painter.drawLine(QPointF(MARGIN, y + 4), QPointF(self.width - MARGIN, y + 4))
        return y + 20

    def footer(self, left: str, page: int, total: int = 0) -> None:
        y = self.height - MARGIN + 14
        w = self.width - 2 * MARGIN
        self.painter.setPen(QPen(RULE, 1))
        self.painter.drawLine(QPointF(MARGIN, y - 4), QPointF(self.width - MARGIN, y - 4))
        self.text(QRectF(MARGIN, y, w * 0.8, 20), left, 11, color=MUTED)
        of = f" of {total}" if total else ""
        self.text(QRectF(MARGIN + w * 0.8, y, w * 0.2, 20), f"page {page}{of}", 11, color=MUTED,
                  align=Qt.AlignmentFlag.AlignRight)

    # ------------------------------------------------------------------ shapes
    def box(self, rect: QRectF, fill: QColor, line: QColor | None = None,
            radius: float = 6) -> None:
        p = self.painter
        p.setPen(QPen(line, 1.2) if line is not None else Qt.PenStyle.NoPen)
        p.setBrush(QBrush(fill))
        p.drawRoundedRect(rect, radius, radius)
        p.setBrush(Qt.BrushStyle.NoBrush)

    def bar(self, rect: QRectF, fraction: float, color: QColor | None = None) -> None:
        """A horizontal utilisation bar; a tick marks 100 % when the bar runs over."""
        p = self.painter
        self.box(rect, PANEL, RULE, 3)
        f = fraction if math.isfinite(fraction) else 0.0
        span = max(1.0, f)
        full = QRectF(rect.x(), rect.y(), rect.width() * min(f, span) / span, rect.height())
        if full.width() > 0:
            self.box(full, color or util_color(f), None, 3)
        if span > 1.0:
            x = rect.x() + rect.width() / span
            p.setPen(QPen(INK, 1.5, Qt.PenStyle.DashLine))
            p.drawLine(QPointF(x, rect.top() - 2), QPointF(x, rect.bottom() + 2))

    # ------------------------------------------------------------------ tables
    def table(self, x: float, y: float, w: float, columns: Sequence[Column],
              rows: Sequence[Sequence[str]], size: float = 12, row_h: float = 22,
              colors: Sequence[QColor | None] | None = None) -> float:
        """Draw a header and ``rows``; returns the y below the table."""
        p = self.painter
        self.box(QRectF(x, y, w, row_h), PANEL, None, 2)
        cx = x
        for c in columns:
            self.text(QRectF(cx + 6, y, c.width * w - 12, row_h), c.title, size, True,
                      align=c.align)
            cx += c.width * w
        y += row_h
        for i, row in enumerate(rows):
            cx = x
            for j, (c, cell) in enumerate(zip(columns, row, strict=False)):
                color = INK
                if colors is not None and j == len(columns) - 1 and colors[i] is not None:
                    color = colors[i] or INK
                self.text(QRectF(cx + 6, y, c.width * w - 12, row_h), cell, size,
                          color=color, align=c.align)
                cx += c.width * w
            p.setPen(QPen(RULE, 0.6))
            p.drawLine(QPointF(x, y + row_h), QPointF(x + w, y + row_h))
            y += row_h
        return y


    def wrapped_table(self, x: float, y: float, w: float, columns: Sequence[Column],
                      rows: Sequence[Sequence[str]], size: float = 12, row_h: float = 22,
                      colors: Sequence[Sequence[QColor | None]] | None = None,
                      header: bool = True, bold: Sequence[bool] | None = None) -> float:
        """A table whose cells wrap (nothing is cut): a header of column titles when
        ``header``; ``colors[i][j]`` colours a cell, ``bold[i]`` sets a row in bold.
        Returns the y below the table."""
        if header:
            titles = [c.title for c in columns]
            h = row_height(w, columns, titles, size, row_h, True)
            self.box(QRectF(x, y, w, h), PANEL, None, 2)
            self._row(x, y, w, columns, titles, size, row_h, h, None, True)
            y += h
        for i, row in enumerate(rows):
            b = bool(bold[i]) if bold is not None else False
            h = row_height(w, columns, row, size, row_h, b)
            self._row(x, y, w, columns, row, size, row_h, h,
                      colors[i] if colors is not None else None, b)
            self.painter.setPen(QPen(RULE, 0.6))
            self.painter.drawLine(QPointF(x, y + h), QPointF(x + w, y + h))
            y += h
        return y

    def _row(self, x: float, y: float, w: float, columns: Sequence[Column],
             row: Sequence[str], size: float, row_h: float, h: float,
             colors: Sequence[QColor | None] | None, bold: bool) -> None:
        p = self.painter
        flags = Qt.TextFlag.TextWordWrap | Qt.AlignmentFlag.AlignTop
        top = y + (row_h - size * 1.25) / 2
        cx = x
        for j, (c, cell) in enumerate(zip(columns, row, strict=False)):
            color = colors[j] if colors is not None and j < len(colors) else None
            p.setFont(self.font(size, bold))
            p.setPen(color or INK)
            p.drawText(QRectF(cx + 6, top, c.width * w - 12, h), int(flags | c.align), cell)
            cx += c.width * w


def row_height(w: float, columns: Sequence[Column], row: Sequence[str], size: float = 12,
               row_h: float = 22, bold: bool = False) -> float:
    """The height of ``row`` in :meth:`Sheet.wrapped_table`: its tallest wrapped cell."""
    pad = row_h - size * 1.25
    return max([row_h] + [wrapped_height(c.width * w - 12, cell, size, bold) + pad
                          for c, cell in zip(columns, row, strict=False)])
