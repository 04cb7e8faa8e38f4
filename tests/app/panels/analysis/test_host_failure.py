"""Host failure (N+1): one table row per host and what breaks."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from tests.app.panels.analysis.windows import SLOW_MS, make, menu_action


def test_host_failure_table_lists_every_host(qtbot: QtBot) -> None:
    window = make(qtbot, "dense-web-farm")
    tab = window.analysis.host_failure
    with qtbot.waitSignal(tab.failure_finished, timeout=SLOW_MS) as blocker:
        menu_action(window, "Host Failure")
    report = blocker.args[0]
    hosts = window.document.design.of_kind("host")
    assert tab.failure_table.rowCount() == len(report.failures) == len(hosts)
    item = tab.failure_table.item(0, 4)
    assert item is not None and "cannot restart" in item.text()
    assert tab.failure_summary.text().startswith("Does NOT survive")


def test_cancelled_host_failure_shows_nothing(qtbot: QtBot) -> None:
    window = make(qtbot, "dense-web-farm")
    tab = window.analysis.host_failure
    tab.run_failure()
    assert tab.failure_cancel.isEnabled() and not tab.failure_button.isEnabled()
    qtbot.mouseClick(tab.failure_cancel, Qt.MouseButton.LeftButton)
    assert tab.failure_summary.text() == "Cancelled." and tab.failure_button.isEnabled()
    window.analysis.shutdown()
    assert tab.failure_report is None and tab.failure_table.rowCount() == 0
