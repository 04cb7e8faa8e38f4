"""One utilisation scale: the theme, the canvas, the utilisation chart and the report classify
the same utilisation the same way (green below 70 %, amber from 70 %, red from 90 %)."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest
from PySide6.QtGui import QColor
from pytestqt.qtbot import QtBot

from app.canvas.items import NO_DATA, badge_style, level_colour
from app.canvas.scene import DesignScene
from app.document.design_document import DesignDocument
from app.support import theme
from app.support.theme import UTIL_HOT, UTIL_WARN, Load, util_load
from models.document.design import Design

PROBES = sorted({*np.linspace(0.0, 1.6, 321).tolist(), UTIL_WARN, UTIL_HOT,
                 math.nextafter(UTIL_WARN, 0.0), math.nextafter(UTIL_HOT, 0.0), 1.0})
"""Utilisations from idle to well past saturation, with each threshold and just below it."""


def test_the_scale_classifies_at_its_thresholds() -> None:
    assert [util_load(u) for u in (0.0, 0.69, 0.7, 0.89, 0.9, 1.0, 2.0)] == [
        Load.OK, Load.OK, Load.WARN, Load.WARN, Load.HOT, Load.HOT, Load.HOT]
    assert util_load(math.nan) is Load.NONE
    assert theme.util_colour(0.8) == QColor(theme.UTIL_COLOURS[Load.WARN])
    assert theme.util_colour(math.nan) == QColor(theme.NO_UTIL_COLOUR)
    assert [label for label, _ in theme.util_legend()] == ["< 70 %", "70-90 %", "≥ 90 %"]


def test_a_canvas_grade_never_straddles_a_threshold() -> None:
    grades = theme.util_grades(np.array(PROBES))
    assert [theme.grade_load(int(g)) for g in grades] == [util_load(u) for u in PROBES]
    assert list(theme.util_grades(np.array([math.nan, math.inf]))) == [NO_DATA, NO_DATA]
    assert grades.min() == 0 and grades.max() == theme.GRADES - 1
    assert list(grades) == sorted(grades)  # busier never reads lighter in grade


def hue(colour: QColor) -> int:
    return colour.toHsv().hsvHue()


def test_every_canvas_fill_has_the_hue_of_its_class_and_the_top_its_full_colour() -> None:
    for u in PROBES:
        grade = int(theme.util_grades(np.array([u]))[0])
        fill = level_colour(grade, "host")
        full = QColor(theme.UTIL_COLOURS[util_load(u)])
        assert abs(hue(fill) - hue(full)) <= 2, u
    tops = [theme.GRADES - 1, int(theme.util_grades(np.array([UTIL_HOT - 1e-9]))[0]),
            int(theme.util_grades(np.array([UTIL_WARN - 1e-9]))[0])]
    assert [level_colour(g) for g in tops] == [
        QColor(theme.UTIL_COLOURS[k]) for k in (Load.HOT, Load.WARN, Load.OK)]
    assert level_colour(NO_DATA, "host") != level_colour(NO_DATA, "vm")  # kinds' neutral


def test_the_canvas_colours_each_component_by_its_utilisations_class(
        qtbot: QtBot, nic_example: Design) -> None:
    doc = DesignDocument(nic_example)
    scene = DesignScene(doc)
    p = doc.evaluate_now()
    assert p is not None
    for kind, ids, util in (("host", p.hosts.ids, p.hosts.cpu_util),
                            ("storage_array", p.arrays.ids, p.arrays.util),
                            ("nic", p.nics.ids, p.nics.util)):
        for cid, u in zip(ids, util, strict=True):
            item = scene.item(cid)
            assert item is not None and item.kind == kind
            assert theme.grade_load(item.level) is util_load(float(u)), (cid, u)


def classify(view: Callable[[float], object]) -> Callable[[float], Load | None]:
    """A view's class for a utilisation, read from the colours it gives (whatever palette it
    uses): the colour it gives idle, at the busy threshold and at the hot one."""
    def key(u: float) -> str:
        c = view(u)
        return c.name() if isinstance(c, QColor) else str(c)

    classes = {key(0.0): Load.OK, key(UTIL_WARN): Load.WARN, key(UTIL_HOT): Load.HOT}
    assert len(classes) == 3
    return lambda u: classes.get(key(u))


def test_the_utilisation_chart_classifies_like_the_theme() -> None:
    from app.charts.utilisation import level_colour as chart_colour  # noqa: PLC0415
    chart = classify(chart_colour)
    assert [chart(u) for u in PROBES] == [util_load(u) for u in PROBES]


def test_the_report_classifies_like_the_theme() -> None:
    from app.report.draw import util_color as report_colour  # noqa: PLC0415
    report = classify(report_colour)
    assert [report(u) for u in PROBES] == [util_load(u) for u in PROBES]


@pytest.mark.parametrize(("util", "mark"), [(0.5, "i"), (UTIL_WARN, "!"), (0.99, "!"),
                                            (1.0, "!")])
def test_the_bottleneck_badge_is_amber_from_the_busy_threshold(util: float, mark: str) -> None:
    colour, shown = badge_style(util)
    assert shown == mark
    if mark == "!":
        assert colour == QColor(theme.UTIL_COLOURS[Load.HOT if util >= 0.995 else Load.WARN])
