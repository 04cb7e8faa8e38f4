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


def test_an_estate_ranks_what_moves_the_hosts_it_needs(qtbot: QtBot) -> None:
    """An estate without I/O data: no Total IOPS to choose, the tornado opens on hosts
    needed, each knob swung -50 % to +100 %; twice the host memory needs fewer hosts, so its
    orange (high setting) bar runs left of the design as it is and its blue bar right; the
    bars are sorted by how far they reach."""
    from tests.models.subsystems.test_capacity import farm  # noqa: PLC0415

    window = make(qtbot, farm(n_hosts=4, n_vms=48, vm_pct=2.0, cluster={
        "ha_enabled": True, "admission_control": "failover_hosts", "failover_hosts": 1}))
    tab = window.analysis.sensitivity
    qtbot.waitUntil(lambda: bool(tab.offered))  # once the first prediction is in
    assert "total_iops" not in tab.offered and "p95_latency_ms" not in tab.offered
    assert tab.output == "hosts_needed" and tab.band_combo.currentData() == "around"
    with qtbot.waitSignal(tab.sensitivity_finished, timeout=SLOW_MS):
        menu_action(window, "Sensitivity")
    base = tab.sens_baseline
    shown = [k for k in tab.swings if math.isfinite(k.swing) and k.swing > 0][:MAX_BARS]
    paths = [k.path for k in shown]
    assert "vm.workload.req_per_s" not in [k.path for k in tab.swings]  # no web VMs
    i = paths.index("host.memory_gb")
    memory = shown[i]
    assert memory.output_high < base < memory.output_low  # 256 GB hosts: fewer of them
    low, high = tab.low_bars.opts, tab.high_bars.opts
    assert high["x0"][i] + high["width"][i] == pytest.approx(base) and high["x0"][i] < base
    assert low["x0"][i] == pytest.approx(base) and low["width"][i] > 0
    assert low["y"][i] < high["y"][i]  # blue above orange in the row
    reach = [max(lo + lw, hi + hw) - min(lo, hi) for lo, lw, hi, hw in
             zip(low["x0"], low["width"], high["x0"], high["width"], strict=True)]
    assert reach == sorted(reach, reverse=True)
    assert "Blue: the knob's low setting, orange: its high setting" in tab.sens_status.text()


def test_the_tab_computes_its_first_tornado_when_it_is_first_shown(qtbot: QtBot) -> None:
    """Opening the tab by its tab (not the menu) showed an empty chart until Compute was
    found; the first time it shows, the tornado is computed."""
    window = make(qtbot, examples.DEFAULT_EXAMPLE)
    panel = window.analysis
    tab = panel.sensitivity
    qtbot.waitUntil(lambda: bool(tab.offered))
    window.analysis_dock.raise_()  # the Analysis tab at the bottom, as a user clicks it
    with qtbot.waitSignal(tab.sensitivity_finished, timeout=SLOW_MS):
        panel.tabs.setCurrentWidget(tab)
    assert tab.swings
