"""The Analysis dock: its menu entries and shortcuts, and closing the window stops what runs."""

from __future__ import annotations

from PySide6.QtGui import QKeySequence
from pytestqt.qtbot import QtBot

from app.panels.analysis.common import LANE
from app.support import jobs
from models.examples import bundled as examples
from tests.app.panels.analysis.windows import make


def test_analysis_menu_lists_the_five_analyses_with_shortcuts(qtbot: QtBot) -> None:
    window = make(qtbot, examples.DEFAULT_EXAMPLE)
    entries = {a.text().replace("&", ""): a.shortcut().toString()
               for a in window.analysis_menu.actions()}
    assert entries == {"Goal Seek...": "Ctrl+Shift+G", "Sensitivity (Tornado)": "Ctrl+Shift+T",
                       "Host Failure (N+1)": "Ctrl+Shift+F", "Refresh...": "Ctrl+Shift+R",
                       "Growth...": "Ctrl+Shift+Y"}
    window.analysis_dock.hide()
    qtbot.keySequence(window, QKeySequence("Ctrl+Shift+G"))
    assert window.analysis_dock.isVisible()
    assert window.analysis.tabs.currentWidget() is window.analysis.goal_seek
    qtbot.keySequence(window, QKeySequence("Ctrl+Shift+Y"))
    assert window.analysis.tabs.currentWidget() is window.analysis.growth


def test_shutdown_stops_every_analysis_and_its_threads(qtbot: QtBot) -> None:
    window = make(qtbot, "dense-web-farm")
    panel = window.analysis
    panel.goal_seek.run_seek("hosts")
    panel.host_failure.run_failure()
    panel.tabs.setCurrentWidget(panel.sensitivity)
    panel.sensitivity.start_sensitivity()
    panel.refresh.run_refresh()
    assert panel.goal_seek.runner.busy and panel.host_failure.runner.busy
    panel.shutdown()
    assert LANE.idle  # each stopped at its next evaluation: no thread left behind
    assert not panel.goal_seek.runner.busy and not panel.sensitivity.sensitivity_running
    assert not panel.host_failure.runner.busy and not panel.refresh.runner.busy
    assert panel.goal_seek.seek_answer.text() == "Goal seek cancelled."
    assert jobs.wait_idle()
