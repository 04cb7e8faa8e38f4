"""The Growth tab, driven as a user would: Analysis > Growth grows the design at its rates in
the background (the years in the table, the chart's clusters with the month prod runs out);
typed rates kept as the design's growth are one undo step that Ctrl+Z takes back; Cancel
shows nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QDoubleSpinBox
from pytestqt.qtbot import QtBot

from app.charts.axes import axis_title
from tests.app.panels.analysis.windows import SLOW_MS, make, menu_action
from tests.refresh_estate import estate


def _type(qtbot: QtBot, spin: QDoubleSpinBox, text: str) -> None:
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, text)
    qtbot.keyClick(spin, Qt.Key.Key_Tab)


def test_the_menu_grows_the_design_at_its_rates_and_marks_when_prod_runs_out(
        qtbot: QtBot) -> None:
    d = estate()
    d.policy["growth.memory_pct"] = 30.0
    window = make(qtbot, d)
    tab = window.analysis.growth
    assert tab.rate_spins["memory"].value() == 30.0 and not tab.keep_button.isEnabled()
    with qtbot.waitSignal(tab.growth_finished, timeout=SLOW_MS):
        menu_action(window, "Growth")
    assert window.analysis.tabs.currentWidget() is tab
    assert tab.table.rowCount() == 6  # years 0 to 5
    first = [tab.table.item(0, j).text() for j in range(3)]  # type: ignore[union-attr]
    assert first == ["0", "6 of 6", "host CPU"]
    assert "Cluster prod runs out in month 7 (year 1)" in tab.summary.text()
    chart = tab.chart
    assert chart.shown == ["prod", "dmz"]  # the first to run out first
    assert chart.runs_out == {"prod": pytest.approx(7 / 12), "dmz": pytest.approx(19 / 12)}
    assert "prod runs out in month 7" in chart.key.text()
    hosts = chart.hosts_plot
    assert hosts.getAxis("bottom").labelText == axis_title("Year")
    assert hosts.getAxis("left").labelText == "Hosts needed"
    assert chart.storage_plot.getAxis("left").labelText == "Storage (TiB)"
    xs, ys = chart.needed[0].getData()
    assert list(xs) == [0, 1, 2, 3, 4, 5] and ys[0] == 4 and ys[1] == 5


def test_typed_rates_kept_as_the_designs_growth_are_one_step_and_ctrl_z_restores(
        qtbot: QtBot) -> None:
    window = make(qtbot, estate())
    tab, doc = window.analysis.growth, window.document
    window.show_growth()
    qtbot.waitUntil(lambda: tab.result is not None, timeout=SLOW_MS)
    _type(qtbot, tab.rate_spins["cpu"], "15")
    _type(qtbot, tab.rate_spins["vms"], "5")
    assert tab.keep_button.isEnabled()
    steps = doc.undo_stack.count()
    with qtbot.waitSignal(tab.growth_finished, timeout=SLOW_MS):
        qtbot.mouseClick(tab.run_button, Qt.MouseButton.LeftButton)
    assert tab.result is not None and tab.result.rates["cpu"] == 15.0
    assert doc.value("design", "growth.cpu_pct") == 0.0  # Grow changes nothing
    qtbot.mouseClick(tab.keep_button, Qt.MouseButton.LeftButton)
    assert doc.undo_stack.count() == steps + 1
    assert doc.value("design", "growth.cpu_pct") == 15.0
    assert doc.value("design", "growth.vms_pct") == 5.0
    assert doc.undo_stack.undoText() == "Keep the growth rates: 15 % CPU and 5 % VMs a year"
    assert not tab.keep_button.isEnabled()
    window.view.setFocus()
    qtbot.keySequence(window, QKeySequence("Ctrl+Z"))
    assert doc.value("design", "growth.cpu_pct") == 0.0
    assert doc.value("design", "growth.vms_pct") == 0.0
    assert tab.rate_spins["cpu"].value() == 0.0  # the tab follows the design back


def test_cancelled_growth_shows_nothing(qtbot: QtBot) -> None:
    window = make(qtbot, estate())
    tab = window.analysis.growth
    tab.run_growth()
    assert tab.cancel_button.isEnabled() and not tab.run_button.isEnabled()
    qtbot.mouseClick(tab.cancel_button, Qt.MouseButton.LeftButton)
    assert tab.summary.text() == "Cancelled." and tab.run_button.isEnabled()
    window.analysis.shutdown()
    assert tab.result is None and tab.table.rowCount() == 0


def test_a_history_suggests_rates_that_only_the_architect_applies(
        qtbot: QtBot, tmp_path: Path) -> None:
    """A year of daily intervals suggests a rate per resource with its spread; Use puts them
    in the boxes (the design unchanged), Keep sets them (one step); a week of hourly points
    suggests nothing and says why."""
    from tests.models.analysis.test_trend import aria_history  # noqa: PLC0415

    window = make(qtbot, estate())
    tab, doc = window.analysis.growth, window.document
    with qtbot.waitSignal(tab.history_runner.finished, timeout=SLOW_MS):
        tab.suggest_from(aria_history(tmp_path / "year.csv", 365, vms=8))
    text = tab.suggestion.text()
    assert "CPU 1" in text and "memory 2" in text and "a year ± " in text
    assert "365 daily means, 2026-03-01 to 2027-02-28" in text
    assert not tab.use_button.isHidden() and doc.value("design", "growth.cpu_pct") == 0.0
    qtbot.mouseClick(tab.use_button, Qt.MouseButton.LeftButton)
    assert tab.rate_spins["memory"].value() == pytest.approx(tab.suggested["memory"])
    assert 20.0 < tab.suggested["memory"] < 30.0
    assert doc.value("design", "growth.memory_pct") == 0.0  # a suggestion, not applied
    steps = doc.undo_stack.count()
    qtbot.mouseClick(tab.keep_button, Qt.MouseButton.LeftButton)
    assert doc.undo_stack.count() == steps + 1
    assert doc.value("design", "growth.memory_pct") == pytest.approx(tab.suggested["memory"])
    with qtbot.waitSignal(tab.history_runner.finished, timeout=SLOW_MS):
        tab.suggest_from(aria_history(tmp_path / "week.csv", 7, hourly=True, vms=2))
    assert "under the 30 a trend needs" in tab.suggestion.text()
    assert tab.use_button.isHidden() and tab.suggested == {}
