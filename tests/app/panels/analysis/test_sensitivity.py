"""The tornado: knobs ranked by swing, recomputed once an edit pauses (not while hidden),
the output chooser, progress and Cancel."""

from __future__ import annotations

import math

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.panels.analysis.sensitivity import MAX_BARS
from models.examples import bundled as examples
from tests.app.panels.analysis.windows import SLOW_MS, make, menu_action


def test_tornado_ranks_knobs_and_recomputes_after_an_edit(qtbot: QtBot) -> None:
    window = make(qtbot, examples.DEFAULT_EXAMPLE)
    doc, tab = window.document, window.analysis.sensitivity
    assert tab.output == "total_iops"
    progress: list[int] = []
    tab.runner.progressed.connect(lambda done, _t, _w: progress.append(done))
    with qtbot.waitSignal(tab.sensitivity_finished, timeout=SLOW_MS):
        menu_action(window, "Sensitivity")
    assert window.analysis.tabs.currentWidget() is tab
    assert progress and progress == sorted(progress)
    assert progress[-1] == tab.sens_progress.maximum()  # every knob counted
    swings = [k.swing for k in tab.swings if math.isfinite(k.swing)]
    assert swings and swings == sorted(swings, reverse=True) and swings[0] > 0
    top = tab.swings[0]
    assert top.label in tab.sens_status.text()
    assert len(tab.high_bars.opts["y"]) == min(MAX_BARS, sum(s > 0 for s in swings))
    assert not tab.sens_progress.isVisible()
    with qtbot.waitSignal(tab.sensitivity_finished, timeout=SLOW_MS):
        doc.set_value("vm", "workload.io_oio", 8)  # coalesced recompute once edits pause
    assert doc.prediction is not None
    assert tab.sens_baseline == pytest.approx(doc.prediction.total_iops, rel=1e-6)


def test_tornado_output_chooser_and_cancel(qtbot: QtBot) -> None:
    window = make(qtbot, examples.DEFAULT_EXAMPLE)
    tab = window.analysis.sensitivity
    window.analysis.tabs.setCurrentWidget(tab)
    with qtbot.waitSignal(tab.sensitivity_finished, timeout=SLOW_MS):
        tab.set_output("p95_latency_ms")
    assert "p95 latency" in tab.sens_status.text()
    shown = list(tab.swings)
    tab.start_sensitivity()
    assert tab.sensitivity_running and tab.sens_cancel.isEnabled()
    qtbot.mouseClick(tab.sens_cancel, Qt.MouseButton.LeftButton)
    assert not tab.sensitivity_running
    assert "Cancelled" in tab.sens_status.text()
    assert tab.swings == shown  # the previous bars stay


def test_a_hidden_tornado_waits_to_be_shown_before_recomputing(qtbot: QtBot) -> None:
    window = make(qtbot, examples.DEFAULT_EXAMPLE)
    doc, panel = window.document, window.analysis
    tab = panel.sensitivity
    with qtbot.waitSignal(tab.sensitivity_finished, timeout=SLOW_MS):
        menu_action(window, "Sensitivity")
    panel.tabs.setCurrentWidget(panel.goal_seek)  # the tornado is out of sight
    with qtbot.waitSignal(doc.prediction_updated):
        doc.set_value("vm", "workload.io_oio", 4)
    assert not tab.sensitivity_running and not tab._recompute.isActive()
    with qtbot.waitSignal(tab.sensitivity_finished, timeout=SLOW_MS):
        panel.tabs.setCurrentWidget(tab)
    assert doc.prediction is not None
    assert tab.sens_baseline == pytest.approx(doc.prediction.total_iops, rel=1e-6)
