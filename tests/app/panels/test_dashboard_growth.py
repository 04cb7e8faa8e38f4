"""The dashboard says which year it shows: moving the Year evaluated knob to 3 at 15 % CPU a
year puts "Year 3 at 15 % CPU a year" under its title (the hosts' CPU grown by 1.15^3), and
Ctrl+Z takes the line away; a measured-demand change says so too."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtGui import QKeySequence
from pytestqt.qtbot import QtBot

from tests.app.panels.analysis.windows import make
from tests.refresh_estate import estate


def test_the_year_knob_puts_the_year_under_the_title_and_ctrl_z_takes_it_away(
        qtbot: QtBot) -> None:
    d = estate()
    d.policy["growth.cpu_pct"] = 15.0
    window = make(qtbot, d)
    doc, dash = window.document, window.dashboard
    label = dash.year_label
    today = doc.evaluate_now()
    assert not label.isVisible()
    row = window.knob_panel.row("design.growth.year")
    slider = row.slider
    assert slider is not None and row.mapping is not None
    slider.setSliderDown(True)
    for pos in range(slider.value() + 1, row.mapping.to_pos(3.0) + 1):
        slider.setValue(pos)
    slider.setSliderDown(False)
    assert row.value_label.text() == "3 years"
    grown = doc.evaluate_now()
    assert label.isVisible() and label.text() == "Year 3 at 15 % CPU a year"
    vms = np.asarray(grown.hosts.cpu_util) / np.asarray(today.hosts.cpu_util)
    assert float(vms.max()) == pytest.approx(1.15 ** 3, rel=0.1)
    window.view.setFocus()
    qtbot.keySequence(window, QKeySequence("Ctrl+Z"))
    doc.evaluate_now()
    assert not label.isVisible() and doc.value("design", "growth.year") == 0.0
    doc.set_value("design", "demand.memory_pct", 20.0)
    doc.evaluate_now()
    assert label.text() == "Measured memory held +20 %"
