"""Host cards (app/canvas/cards.py): a card a few pixels wide is a swatch of its colours."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QTransform
from PySide6.QtWidgets import QStyleOptionGraphicsItem
from pytestqt.qtbot import QtBot

from app.canvas.cards import SWATCH_PX, HostItem
from app.canvas.items import level_colour
from models.document.design import Component


def _transform(item: HostItem, scale: float) -> QTransform:
    r = item.boundingRect()
    return QTransform().scale(scale, scale).translate(-r.left(), -r.top())


def _paint(item: HostItem, scale: float) -> QImage:
    """The card painted at ``scale`` (its level of detail) into an image of its size."""
    r = item.boundingRect()
    image = QImage(max(1, int(r.width() * scale) + 2), max(1, int(r.height() * scale) + 2),
                   QImage.Format.Format_RGB32)
    image.fill(Qt.GlobalColor.white)
    painter = QPainter(image)
    painter.setTransform(_transform(item, scale))
    option = QStyleOptionGraphicsItem()
    option.exposedRect = r
    item.paint(painter, option, None)
    painter.end()
    return image


@pytest.mark.parametrize("scale", [0.02, 0.5])
def test_a_card_too_narrow_for_a_name_is_painted_as_a_swatch(
        qtbot: QtBot, scale: float, monkeypatch: pytest.MonkeyPatch) -> None:
    item = HostItem(Component("h1", "host", "esx-0001.corp.example.com"), lambda _c, _k: 0)
    item.set_children(["n1", "n2"], [f"v{i}" for i in range(40)])
    item.set_level(2)
    texts: list[float] = []
    monkeypatch.setattr(item, "_paint_text", lambda _p, lod, *_: texts.append(lod))
    image = _paint(item, scale)
    swatch = item.rect().width() * scale < SWATCH_PX
    assert swatch == (scale == 0.02)
    assert (texts == []) == swatch  # no name where it would be one letter and "…"
    at = _transform(item, scale).map(QPointF(0.0, item.rect().top() + 3.0))
    header = QColor(image.pixel(int(at.x()), int(at.y())))
    want = level_colour(2, "host")
    assert abs(header.red() - want.red()) + abs(header.green() - want.green()) \
        + abs(header.blue() - want.blue()) < 40
