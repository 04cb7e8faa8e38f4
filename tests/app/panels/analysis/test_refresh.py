"""The Refresh tab driven as a user does: choose the server and processor, Refresh, read
before and after, Add as scenario (one undo step; Ctrl+Z removes it, Ctrl+Shift+Z brings it
back); a cluster's context menu opens the tab on that cluster; the canvas says it shows the
scenario's hosts in a refresh scenario; an edit after the refresh disables Add."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from app.canvas.tooltips import component_tooltip
from app.document.design_document import DesignDocument
from app.window.main_window import MainWindow
from models.analysis.refresh import RefreshResult
from models.report.compare import compare
from tests.app.panels.analysis.windows import SLOW_MS, menu_action
from tests.refresh_estate import estate


def make(qtbot: QtBot) -> MainWindow:
    window = MainWindow(DesignDocument(estate()), remember_layout=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    return window


def run(qtbot: QtBot, window: MainWindow) -> RefreshResult:
    tab = window.analysis.refresh
    with qtbot.waitSignal(tab.refresh_finished, timeout=SLOW_MS) as blocker:
        qtbot.mouseClick(tab.run_button, Qt.MouseButton.LeftButton)
    result = blocker.args[0]
    assert isinstance(result, RefreshResult)
    return result


def test_refresh_then_keep_it_as_a_scenario_in_one_undo_step(qtbot: QtBot) -> None:
    window = make(qtbot)
    doc, tab = window.document, window.analysis.refresh
    menu_action(window, "Refresh")
    assert window.analysis.tabs.currentWidget() is tab
    tab.choose(server="dell-r760", cpu="Intel Xeon Gold 6548Y+")
    assert tab.memory_spin.value() == 0  # sized by the refresh, never SPEC's test system's
    assert tab.memory_spin.text() == "sized by the refresh"
    tab.choose(memory_gb=1024)
    r = run(qtbot, window)
    assert r.after.hosts == 4 and r.counts == {"prod": 2, "dmz": 2}
    def cell(i: int, j: int) -> str:
        item = tab.table.item(i, j)
        assert item is not None
        return item.text()

    cells = {cell(i, 0): (cell(i, 1), cell(i, 2)) for i in range(tab.table.rowCount())}
    assert cells["Hosts"] == ("6", "4") and cells["Licensed cores"] == ("192", "256")
    assert tab.answer.text().startswith("6 hosts of prod, dmz replaced by 4 hosts of Dell")
    assert len(doc.design.of_kind("host")) == 6  # nothing changed yet
    assert tab.name_edit.text() == "refresh to PowerEdge R760"
    count = doc.undo_stack.count()
    qtbot.mouseClick(tab.add_button, Qt.MouseButton.LeftButton)
    assert doc.undo_stack.count() == count + 1  # ONE undo step
    assert doc.scenario == "refresh to PowerEdge R760"
    p = doc.prediction
    assert p is not None and len(p.hosts.ids) == 4 and p.licensed_cores == 256
    assert window.dashboard.tiles["licensed_cores"].value_label.text() == "256 cores"
    assert window.view.banner.isVisible() and "shows the scenario's hosts" in \
        window.view.banner.text()
    # the old hosts have left the canvas: their tooltips and the inspector do not break
    assert component_tooltip(doc, "prod-h0").startswith("<b>prod-h0</b>")
    doc.set_selection(["prod-h0"])
    # Compare: the base design and the refresh side by side, licensed cores included
    row = compare(doc.design).row("licensed_cores")
    assert row is not None and [c.value for c in row.cells] == [192.0, 256.0]
    qtbot.keySequence(window, QKeySequence("Ctrl+Z"))
    assert doc.design.scenarios == [] and doc.scenario == "base"
    assert not window.view.banner.isVisible()
    qtbot.keySequence(window, QKeySequence("Ctrl+Shift+Z"))
    assert [s.name for s in doc.design.scenarios] == ["refresh to PowerEdge R760"]


def test_a_clusters_context_menu_refreshes_that_cluster(qtbot: QtBot) -> None:
    window = make(qtbot)
    item = window.scene.item("dmz")
    assert item is not None
    menu = QMenu()
    window._refresh_entry(item, menu)
    [act] = menu.actions()
    assert act.text() == "Refresh dmz..."
    act.trigger()
    tab = window.analysis.refresh
    assert window.analysis.tabs.currentWidget() is tab
    assert tab.cluster_combo.currentData() == "dmz"
    r = run(qtbot, window)
    assert r.groups == ["dmz"] and r.after.hosts == 2 + 4  # prod keeps its four
    host = window.scene.item("prod-h0")
    assert host is not None
    other = QMenu()
    window._refresh_entry(host, other)
    assert other.actions() == []  # a host has no such entry


def test_an_edit_after_the_refresh_disables_add(qtbot: QtBot) -> None:
    window = make(qtbot)
    doc, tab = window.document, window.analysis.refresh
    tab.choose(hosts=3)
    r = run(qtbot, window)
    assert r.given and r.counts == {"prod": 3, "dmz": 3}
    assert tab.add_button.isEnabled()
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        doc.set_value("vm", "workload.cpu_pct", 40.0)
    assert not tab.add_button.isEnabled()
    assert "refresh again" in tab.detail.text()


def test_a_refresh_to_vsan_keeps_the_clusters_settings_with_its_hosts(qtbot: QtBot) -> None:
    """vSAN ESA with RAID 5 on eight 3.84 TB devices a host: the detail gives each cluster's
    vSAN in words (dmz, two hosts before, needs the policy's three), the scenario's name says
    vSAN, and Add as scenario keeps the clusters' vSAN settings as its overrides beside its
    hosts, in one undo step; 'keep storage as it is' greys the vSAN fields."""
    window = make(qtbot)
    doc, tab = window.document, window.analysis.refresh
    assert not tab.policy_combo.isEnabled() and not tab.devices_spin.isEnabled()
    tab.choose(server="dell-r770", memory_gb=512)
    tab.vsan_combo.setFocus()
    tab.vsan_combo.setCurrentIndex(tab.vsan_combo.findData("esa"))  # as the user picks it
    assert tab.policy_combo.isEnabled() and tab.devices_spin.isEnabled()
    assert tab.devices_spin.value() == 6 and tab.device_tb_spin.value() == 3.84
    tab.devices_spin.selectAll()
    qtbot.keyClicks(tab.devices_spin, "8")
    assert tab.devices_spin.value() == 8
    tab.choose(policy="raid5")
    r = run(qtbot, window)
    assert r.target.vsan is not None and r.target.vsan.devices == 8
    assert {(o.select, o.prop, o.value) for o in r.overrides} >= {
        ("id:prod", "vsan.architecture", "esa"), ("id:dmz", "vsan.policy", "raid5")}
    assert r.counts["dmz"] == 3  # ESA RAID 5's minimum
    detail = tab.detail.text()
    assert "vSAN dmz: ESA RAID 5 FTT 1 on 3 hosts:" in detail
    assert "the policy at least 3 hosts" in detail and "vSAN prod: ESA RAID 5" in detail
    assert tab.name_edit.text() == "refresh to PowerEdge R770 on vSAN ESA"
    step = doc.undo_stack.index()
    qtbot.mouseClick(tab.add_button, Qt.MouseButton.LeftButton)
    assert doc.undo_stack.index() == step + 1  # ONE undo step
    [scenario] = doc.design.scenarios
    assert scenario.rebuild is not None and list(scenario.overrides) == list(r.overrides)
    assert doc.scenario == scenario.name
    assert doc.value("id:dmz", "vsan.architecture") == "esa"  # the scenario's setting
    p = doc.prediction
    assert p is not None and p.sections.capacity is not None
    assert {v.name for v in p.sections.capacity.vsan or []} == {"prod", "dmz"}
    qtbot.keySequence(window, QKeySequence("Ctrl+Z"))
    assert doc.design.scenarios == [] and doc.value("id:dmz", "vsan.architecture") == "none"
    tab.choose(vsan="")
    assert not tab.compression_spin.isEnabled()
