"""The Analysis dock driven as a user does: menu entries and shortcuts, goal seek and Apply
(one undo step, Ctrl+Z restores), the tornado (ranked bars, recomputed after an edit,
cancel) and the host-failure table."""

from __future__ import annotations

import math

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.document.design_document import DesignDocument
from app.panels.analysis import MAX_BARS, AnalysisPanel, analysis_copy, place_rebuilt
from app.window.main_window import MainWindow
from models.analysis import SeekResult, rebuild
from models.examples import bundled as examples

SLOW_MS = 60000


def make(qtbot: QtBot, name: str) -> MainWindow:
    window = MainWindow(DesignDocument(examples.load(name)), remember_layout=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)  # window shortcuts (Ctrl+Z ...) need it active
    return window


def menu_action(window: MainWindow, text: str) -> None:
    for act in window.analysis_menu.actions():
        if act.text().replace("&", "").startswith(text):
            act.trigger()
            return
    raise AssertionError(f"no Analysis menu entry {text!r}")


def test_analysis_menu_lists_the_three_analyses_with_shortcuts(qtbot: QtBot) -> None:
    window = make(qtbot, examples.DEFAULT_EXAMPLE)
    entries = {a.text().replace("&", ""): a.shortcut().toString()
               for a in window.analysis_menu.actions()}
    assert entries == {"Goal Seek...": "Ctrl+Shift+G", "Sensitivity (Tornado)": "Ctrl+Shift+T",
                       "Host Failure (N+1)": "Ctrl+Shift+F"}
    window.analysis_dock.hide()
    qtbot.keySequence(window, QKeySequence("Ctrl+Shift+G"))
    assert window.analysis_dock.isVisible()
    assert window.analysis.tabs.currentIndex() == 0


def test_seek_fewest_hosts_apply_and_ctrl_z_restores(qtbot: QtBot) -> None:
    window = make(qtbot, "dense-web-farm")
    doc, panel = window.document, window.analysis
    hosts_before = [c.id for c in doc.design.of_kind("host")]
    components_before = len(doc.design.components)
    menu_action(window, "Goal Seek")
    panel.goal_combo.setCurrentIndex(panel.goal_combo.findData("hosts"))
    with qtbot.waitSignal(panel.seek_finished, timeout=SLOW_MS) as blocker:
        qtbot.mouseClick(panel.seek_button, Qt.MouseButton.LeftButton)
    result = blocker.args[0]
    assert isinstance(result, SeekResult) and result.value is not None
    assert result.value > len(hosts_before)  # one host cannot carry 470 VMs within policy
    assert f"{result.value} hosts" in panel.seek_answer.text()
    assert panel.apply_button.isEnabled()
    count = doc.undo_stack.count()
    qtbot.mouseClick(panel.apply_button, Qt.MouseButton.LeftButton)
    assert doc.undo_stack.count() == count + 1  # ONE undo step
    assert len(doc.design.of_kind("host")) == result.value
    assert len(doc.design.of_kind("vm")) == 470
    assert not panel.apply_button.isEnabled()
    positions = {(c.x, c.y) for c in doc.design.of_kind("vm")}
    assert len(positions) == 470  # laid out, not piled on one spot
    qtbot.keySequence(window, QKeySequence("Ctrl+Z"))
    assert [c.id for c in doc.design.of_kind("host")] == hosts_before
    assert len(doc.design.components) == components_before
    assert window.scene.item(hosts_before[0]) is not None
    qtbot.keySequence(window, QKeySequence("Ctrl+Shift+Z"))
    assert len(doc.design.of_kind("host")) == result.value


def test_seek_largest_oio_applies_to_every_vm_as_one_step(qtbot: QtBot) -> None:
    window = make(qtbot, examples.DEFAULT_EXAMPLE)
    doc, panel = window.document, window.analysis
    before = doc.value("vm", "workload.io_oio")
    with qtbot.waitSignal(panel.seek_finished, timeout=SLOW_MS) as blocker:
        panel.run_seek("oio")
    result = blocker.args[0]
    assert isinstance(result, SeekResult) and result.goal == "oio"
    assert result.value is not None
    count = doc.undo_stack.count()
    qtbot.mouseClick(panel.apply_button, Qt.MouseButton.LeftButton)
    assert doc.undo_stack.count() == count + 1
    assert doc.value("vm", "workload.io_oio") == result.value
    doc.undo_stack.undo()
    assert doc.value("vm", "workload.io_oio") == before


def test_an_edit_after_the_seek_disables_apply(qtbot: QtBot) -> None:
    window = make(qtbot, examples.DEFAULT_EXAMPLE)
    doc, panel = window.document, window.analysis
    with qtbot.waitSignal(panel.seek_finished, timeout=SLOW_MS):
        panel.run_seek("oio")
    assert panel.apply_button.isEnabled()
    with qtbot.waitSignal(doc.prediction_updated):
        doc.set_value("vm", "workload.io_block_kb", 16.0)
    assert not panel.apply_button.isEnabled()
    assert "seek again" in panel.seek_detail.text()


def test_cancelled_seek_shows_no_answer(qtbot: QtBot) -> None:
    window = make(qtbot, examples.DEFAULT_EXAMPLE)
    panel = window.analysis
    panel.run_seek("oio")
    assert panel.seek_cancel.isEnabled() and not panel.seek_button.isEnabled()
    qtbot.mouseClick(panel.seek_cancel, Qt.MouseButton.LeftButton)
    assert panel.seek_button.isEnabled()
    assert panel.seek_answer.text() == "Goal seek cancelled."
    panel.shutdown()  # the thread ends; its answer is dropped
    QApplication.processEvents()
    assert panel.seek_result is None


def test_tornado_ranks_knobs_and_recomputes_after_an_edit(qtbot: QtBot) -> None:
    window = make(qtbot, examples.DEFAULT_EXAMPLE)
    doc, panel = window.document, window.analysis
    assert panel.output == "total_iops"
    with qtbot.waitSignal(panel.sensitivity_finished, timeout=SLOW_MS):
        menu_action(window, "Sensitivity")
    assert window.analysis.tabs.currentIndex() == 1
    swings = [k.swing for k in panel.swings if math.isfinite(k.swing)]
    assert swings and swings == sorted(swings, reverse=True) and swings[0] > 0
    top = panel.swings[0]
    assert top.label in panel.sens_status.text()
    assert len(panel.high_bars.opts["y"]) == min(MAX_BARS, sum(s > 0 for s in swings))
    assert not panel.sens_progress.isVisible()
    with qtbot.waitSignal(panel.sensitivity_finished, timeout=SLOW_MS):
        doc.set_value("vm", "workload.io_oio", 8)  # coalesced recompute once edits pause
    assert doc.prediction is not None
    assert panel.sens_baseline == pytest.approx(doc.prediction.total_iops, rel=1e-6)


def test_tornado_output_chooser_and_cancel(qtbot: QtBot) -> None:
    window = make(qtbot, examples.DEFAULT_EXAMPLE)
    panel = window.analysis
    panel.tabs.setCurrentIndex(1)
    with qtbot.waitSignal(panel.sensitivity_finished, timeout=SLOW_MS):
        panel.set_output("p95_latency_ms")
    assert "p95 latency" in panel.sens_status.text()
    panel.start_sensitivity()
    assert panel.sensitivity_running and panel.sens_cancel.isEnabled()
    qtbot.mouseClick(panel.sens_cancel, Qt.MouseButton.LeftButton)
    assert not panel.sensitivity_running
    assert "Cancelled" in panel.sens_status.text()


def test_host_failure_table_lists_every_host(qtbot: QtBot) -> None:
    window = make(qtbot, "dense-web-farm")
    panel = window.analysis
    with qtbot.waitSignal(panel.failure_finished, timeout=SLOW_MS) as blocker:
        menu_action(window, "Host Failure")
    report = blocker.args[0]
    hosts = window.document.design.of_kind("host")
    assert panel.failure_table.rowCount() == len(report.failures) == len(hosts)
    item = panel.failure_table.item(0, 4)
    assert item is not None and "cannot restart" in item.text()
    assert panel.failure_summary.text().startswith("Does NOT survive")


def test_panel_alone_and_rebuilt_layout(qtbot: QtBot) -> None:
    doc = DesignDocument(examples.load("dense-web-farm"))
    panel = AnalysisPanel(doc)
    qtbot.addWidget(panel)
    design = analysis_copy(doc)
    new, _ = rebuild(design, n_hosts=3)
    place_rebuilt(doc.design, new)
    hosts = new.of_kind("host")
    assert len({h.x for h in hosts}) == 3  # host copies side by side


def test_a_hidden_tornado_waits_to_be_shown_before_recomputing(qtbot: QtBot) -> None:
    window = make(qtbot, examples.DEFAULT_EXAMPLE)
    doc, panel = window.document, window.analysis
    with qtbot.waitSignal(panel.sensitivity_finished, timeout=SLOW_MS):
        menu_action(window, "Sensitivity")
    panel.tabs.setCurrentIndex(0)  # the tornado is out of sight
    with qtbot.waitSignal(doc.prediction_updated):
        doc.set_value("vm", "workload.io_oio", 4)
    assert not panel.sensitivity_running and not panel._recompute.isActive()
    with qtbot.waitSignal(panel.sensitivity_finished, timeout=SLOW_MS):
        panel.tabs.setCurrentIndex(1)
    assert doc.prediction is not None
    assert panel.sens_baseline == pytest.approx(doc.prediction.total_iops, rel=1e-6)
