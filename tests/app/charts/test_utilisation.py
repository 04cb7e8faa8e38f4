"""The utilisation bars follow the prediction and the policy's CPU ceiling."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from app.charts.utilisation import UtilisationChart, level_colour
from app.document.design_document import DesignDocument
from app.support.theme import UTIL_COLOURS, Load
from models.examples import bundled as examples


def test_utilisation_bars_follow_the_prediction(qtbot: QtBot) -> None:
    doc = DesignDocument(examples.load(examples.DEFAULT_EXAMPLE))
    chart = UtilisationChart(doc)
    qtbot.addWidget(chart)
    p = doc.prediction
    assert p is not None
    expected = [(r.component, r.resource, r.util) for r in p.bottlenecks(chart.MAX_BARS)]
    assert chart.shown == expected
    assert len(chart.bars.opts["width"]) == len(expected)
    assert chart.empty_text.isVisible() == (not expected)
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        doc.set_value("design", "policy.cpu_util_max", 0.7)
    assert chart.ceiling_line.value() == pytest.approx(0.7)
    assert level_colour(0.5) == UTIL_COLOURS[Load.OK]
    assert level_colour(0.8) == UTIL_COLOURS[Load.WARN]
    assert level_colour(1.3) == UTIL_COLOURS[Load.HOT]


def test_behind_the_knob_curve_the_bars_wait_until_their_tab_is_shown(qtbot: QtBot) -> None:
    """In the window the bars share a tab with the knob curve: a knob step while the curve
    is in front does not redraw them; raising their tab shows the latest prediction."""
    from app.window.main_window import MainWindow  # noqa: PLC0415 (the window: only here)

    doc = DesignDocument(examples.load("vaio-scaling"))
    window = MainWindow(doc, remember_layout=False)
    qtbot.addWidget(window)
    window.show()
    window.charts.setCurrentWidget(window.knob_curve)
    chart = window.utilisation
    before = list(chart.shown)
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        doc.set_value("storage_array", "disks", 2)
    p = doc.prediction
    assert p is not None
    now = [(r.component, r.resource, r.util) for r in p.bottlenecks(chart.MAX_BARS)]
    assert now != before and chart.shown == before
    window.charts.setCurrentWidget(chart)
    assert chart.shown == now
    doc.undo_stack.setClean()
