"""The knob panel on an imported estate, driven as a user would: a drag of Measured CPU
demand moves every VM's own figure by one factor (one undo step, Ctrl+Z restores), the knobs
that would set every VM to one value are not offered, and one VM's own figure is set in the
Inspector (one undo step)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from pytestqt.qtbot import QtBot

from app.window.main_window import MainWindow
from tests import measured_estate
from tests.app.panels.analysis.windows import make

DEMAND = "design.demand.cpu_pct"


def _shares(window: MainWindow) -> list[object]:
    return [v.props.get("workload.cpu_pct") for v in window.document.design.of_kind("vm")]


def _cpu(window: MainWindow) -> float:
    p = window.document.evaluate_now()
    return float(np.nanmean(p.hosts.cpu_util))


def test_a_drag_of_measured_cpu_demand_moves_each_vm_by_a_factor_and_ctrl_z_restores(
        qtbot: QtBot, tmp_path: Path) -> None:
    window = make(qtbot, measured_estate.imported(tmp_path))
    doc, panel = window.document, window.knob_panel
    assert not {"vm.workload.cpu_pct", "vm.vcpus", "vm.memory_gb"} & set(panel.rows)
    row = panel.row(DEMAND)
    assert row.label.text() == "Measured CPU demand" and row.value_label.text() == "as it is"
    assert row.caption.text().startswith("114 VMs measured: RVTools")  # where they came from
    tip = row.control.toolTip()
    assert "never sets them to one value" in tip and "Inspector" in tip and "RVTools" in tip
    assert "Docker" not in tip  # no web study behind an estate's own figures
    shares, before, steps = _shares(window), _cpu(window), doc.undo_stack.count()
    slider = row.slider
    assert slider is not None and row.mapping is not None
    target = row.mapping.to_pos(20.0)
    slider.setSliderDown(True)  # press: one gesture
    for pos in range(slider.value() + 1, target + 1):
        slider.setValue(pos)
    slider.setSliderDown(False)
    assert doc.value("design", "demand.cpu_pct") == 20.0 and row.value_label.text() == "+20 %"
    assert doc.undo_stack.count() == steps + 1  # the whole drag: one step
    up = _cpu(window)
    assert 1.15 * before < up <= 1.2 * before + 1e-9
    assert _shares(window) == shares  # no VM's own figure written
    window.view.setFocus()
    qtbot.keySequence(window, QKeySequence("Ctrl+Z"))
    assert doc.value("design", "demand.cpu_pct") == 0.0 and row.value_label.text() == "as it is"
    assert _cpu(window) == before and _shares(window) == shares


def test_one_measured_vms_figure_is_set_in_the_inspector_as_one_step(
        qtbot: QtBot, tmp_path: Path) -> None:
    window = make(qtbot, measured_estate.imported(tmp_path))
    doc, panel = window.document, window.knob_panel
    vm = doc.design.of_kind("vm")[0]
    others = [v.props.get("workload.cpu_pct") for v in doc.design.of_kind("vm")[1:]]
    doc.set_selection([vm.id])
    qtbot.waitUntil(lambda: "Inspector" in panel.scope_label.text())
    assert "1 VM measured" in panel.scope_label.text()
    assert "vm.workload.cpu_pct" not in panel.rows  # the knob never sets a measured figure
    field = window.inspector.field("workload.cpu_pct")
    assert field.edit is not None
    steps = doc.undo_stack.count()
    field.edit.setFocus()
    field.edit.selectAll()
    qtbot.keyClicks(field.edit, "50")
    qtbot.keyClick(field.edit, Qt.Key.Key_Return)
    assert doc.value(f"id:{vm.id}", "workload.cpu_pct") == 50.0
    assert doc.undo_stack.count() == steps + 1
    assert [v.props.get("workload.cpu_pct") for v in doc.design.of_kind("vm")[1:]] == others
    window.view.setFocus()
    qtbot.keySequence(window, QKeySequence("Ctrl+Z"))
    assert doc.value(f"id:{vm.id}", "workload.cpu_pct") != 50.0
