"""The main window as a user meets it: drops from the palette, links, real shortcuts, docks,
title, layout memory, and the --self-test start-up."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import QApplication, QDockWidget
from pytestqt.qtbot import QtBot

from app.canvas.layout import overlapping_vms
from app.document.design_document import DesignDocument
from app.window.main_window import MainWindow
from app.window.run import run_app
from models.document.design import Component, Design, Link
from models.examples import bundled as examples


def make(qtbot: QtBot, design: Design) -> MainWindow:
    window = MainWindow(DesignDocument(design))
    # a closing window with unsaved edits would ask "save changes?": tests do not save
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)  # window shortcuts (Ctrl+Z ...) need it active
    QApplication.processEvents()  # the deferred fit-to-design runs before we aim the mouse
    window.view.setFocus()
    return window


def at(window: MainWindow, cid: str) -> QPoint:
    item = window.scene.item(cid)
    assert item is not None
    return window.view.mapFromScene(item.pos())


def drop_from_palette(window: MainWindow, preset_id: str, pos: QPoint) -> None:
    mime = window.palette_panel.mime_for(preset_id)
    vp = window.view.viewport()
    act, btn, mod = (Qt.DropAction.CopyAction, Qt.MouseButton.LeftButton,
                     Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(vp, QDragEnterEvent(QPointF(pos), act, mime, btn, mod))
    QApplication.sendEvent(vp, QDragMoveEvent(QPointF(pos), act, mime, btn, mod))
    QApplication.sendEvent(vp, QDropEvent(QPointF(pos), act, mime, btn, mod))


def alt_drag(qtbot: QtBot, window: MainWindow, a: QPoint, b: QPoint) -> None:
    vp = window.view.viewport()
    alt = Qt.KeyboardModifier.AltModifier
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, alt, a)
    qtbot.mouseMove(vp, b)
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, alt, b)


def test_docks_and_title(qtbot: QtBot, nic_example: Design) -> None:
    window = make(qtbot, nic_example)
    docks = {d.objectName() for d in window.findChildren(QDockWidget)}
    assert {"palette_dock", "inspector_dock", "knob_dock", "dashboard_dock",
            "evidence_dock"} <= docks
    assert nic_example.name in window.windowTitle()
    assert "[*]" in window.windowTitle()
    assert not window.isWindowModified()
    window.document.move_components({"h1": (5.0, 5.0)})
    assert window.isWindowModified()
    window.document.set_value("design", "name", "Lab")
    assert "Lab" in window.windowTitle()


def test_build_with_palette_link_and_undo_redo_shortcuts(qtbot: QtBot,
                                                         nic_example: Design) -> None:
    window = make(qtbot, nic_example)
    doc = window.document
    n = len(doc.design.components)
    drop_from_palette(window, "hp-dl580-g7", QPoint(120, 120))
    host = doc.design.components[-1].id
    drop_from_palette(window, "web-vm", QPoint(window.view.viewport().width() - 80, 80))
    vm = doc.design.components[-1].id
    assert len(doc.design.components) == n + 2
    alt_drag(qtbot, window, at(window, vm), at(window, host))
    assert any((lk.kind, lk.source, lk.target) == ("runs_on", vm, host)
               for lk in doc.design.links)
    alt_drag(qtbot, window, at(window, vm), at(window, "a1"))
    assert any((lk.kind, lk.source, lk.target) == ("disk_on", vm, "a1")
               for lk in doc.design.links)
    # an illegal link: an array onto an array
    drop_from_palette(window, "emc-vnx5700", QPoint(120, window.view.viewport().height() - 60))
    array = doc.design.components[-1].id
    count = doc.undo_stack.count()
    alt_drag(qtbot, window, at(window, array), at(window, "a1"))
    assert doc.undo_stack.count() == count
    message = window.statusBar().currentMessage()
    assert message.startswith("Link refused: A storage array cannot be linked to a storage array")

    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert doc.design.component(array) is None
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    assert doc.design.component(array) is not None


def test_delete_copy_paste_through_shortcuts(qtbot: QtBot, nic_example: Design) -> None:
    window = make(qtbot, nic_example)
    doc = window.document
    n = len(doc.design.components)
    doc.set_selection(["v1", "v2"])
    qtbot.keyClick(window.view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(window.view, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert len(doc.design.components) == n + 2
    pasted = list(doc.selection)
    assert len(pasted) == 2 and not {"v1", "v2"} & set(pasted)
    qtbot.keyClick(window.view, Qt.Key.Key_Delete)
    assert len(doc.design.components) == n
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert len(doc.design.components) == n + 2
    qtbot.keyClick(window.view, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    assert len(doc.selection) == n + 2


def test_move_by_mouse_is_one_undo_step(qtbot: QtBot, nic_example: Design) -> None:
    window = make(qtbot, nic_example)
    doc = window.document
    vp = window.view.viewport()
    item = window.scene.item("a1")  # the array (a VM stays in its host's grid)
    assert item is not None
    before = item.pos()
    start = at(window, "a1")
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    qtbot.mouseMove(vp, start + QPoint(15, 5))
    qtbot.mouseMove(vp, start + QPoint(30, 10))
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                       start + QPoint(30, 10))
    assert doc.undo_stack.count() == 1
    assert item.pos() != before
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert item.pos() == before


def test_zoom_shortcuts(qtbot: QtBot, nic_example: Design) -> None:
    window = make(qtbot, nic_example)
    qtbot.keyClick(window, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert window.view.zoom == pytest.approx(1.0)
    qtbot.keyClick(window, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    assert window.view.zoom == pytest.approx(1.25)
    qtbot.keyClick(window, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert window.view.zoom == pytest.approx(1.0)


def test_layout_is_remembered(qtbot: QtBot, nic_example: Design) -> None:
    window = make(qtbot, nic_example)
    window.evidence_dock.hide()
    window.close()
    again = make(qtbot, nic_example)
    assert again.evidence_dock.isHidden()
    again.reset_layout()
    assert not again.evidence_dock.isHidden()


def test_palette_activation_adds_at_the_centre(qtbot: QtBot, nic_example: Design) -> None:
    window = make(qtbot, nic_example)
    n = len(window.document.design.components)
    window.palette_panel.preset_activated.emit("intel-x520")
    assert len(window.document.design.components) == n + 1
    assert "Intel X520" in window.statusBar().currentMessage()


def test_self_test_start_up(qtbot: QtBot, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_app(None, self_test=True) == 0
    assert "self-test: ok" in capsys.readouterr().out


def test_import_asks_to_save_unsaved_work_first(qtbot: QtBot, nic_example: Design,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    window = make(qtbot, nic_example)
    texts = [a.text() for a in window.import_menu.actions()]
    assert texts == ["&RVTools Export...", "Live &vCenter...", "&Live Optics Workbook...", "",
                     "&Calibrate from Performance Data..."]
    assert window.import_menu.menuAction() in window.files.menu.actions()
    window.document.set_value("vm", "workload.io_oio", 3)
    asked: list[bool] = []
    started: list[str] = []
    def cancel() -> bool:
        asked.append(True)
        return False

    monkeypatch.setattr(window.files, "maybe_save", cancel)
    monkeypatch.setattr("app.window.importing.start_import",
                        lambda w, d, importer: started.append(importer.id))
    window.import_menu.actions()[0].trigger()
    assert asked == [True] and started == []  # the user cancelled: nothing replaced
    monkeypatch.setattr(window.files, "maybe_save", lambda: True)
    window.import_menu.actions()[0].trigger()
    assert started == ["rvtools"]


def test_an_imported_design_counts_as_unsaved(qtbot: QtBot, nic_example: Design) -> None:
    window = make(qtbot, nic_example)
    with qtbot.waitSignal(window.document.modified_changed) as blocker:
        window.document.replace_design(Design(name="Imported estate"), modified=True)
    assert blocker.args == [True]
    assert window.document.is_modified and window.isWindowModified()


def test_charts_dock_holds_knob_curve_and_utilisation(qtbot: QtBot, nic_example: Design) -> None:
    window = make(qtbot, nic_example)
    assert window.charts_dock.widget() is window.charts
    assert window.charts.count() == 2


def piled_web_farm() -> Design:
    """The stretched vSAN cluster with its nine host cards piled on one spot."""
    design = examples.load("stretched-vsan")
    for i, host in enumerate(design.of_kind("host")):
        host.x, host.y = 10.0 * i, 0.0
    return design


def test_arrange_vms_from_the_view_menu_is_one_undo_step(qtbot: QtBot) -> None:
    window = make(qtbot, piled_web_farm())
    assert "overlap" in window.statusBar().currentMessage()
    doc = window.document
    before = {c.id: (c.x, c.y) for c in doc.design.components}
    qtbot.keySequence(window, QKeySequence("Ctrl+Shift+A"))
    assert doc.undo_stack.count() == 1
    assert overlapping_vms(doc.design) == 0
    vm = doc.design.of_kind("vm")[5]
    doc.set_selection([vm.id])  # a selected VM has an item wherever the view is
    item = window.scene.item(vm.id)
    assert item is not None and (item.x(), item.y()) == (vm.x, vm.y)
    qtbot.keySequence(window, QKeySequence("Ctrl+Z"))
    assert {c.id: (c.x, c.y) for c in doc.design.components} == before


def test_a_user_builds_a_testbed_moves_the_oio_slider_and_undoes_it(qtbot: QtBot) -> None:
    """The whole first session on an empty canvas: drop a host, an SSD array and an Iometer
    VM from the palette, link them with Alt+drags, move the outstanding-I/O slider with the
    keyboard and watch the latency tile, then Ctrl+Z and Ctrl+Shift+Z."""
    window = make(qtbot, Design(name="My testbed"))
    doc = window.document
    vp = window.view.viewport()
    w, h = vp.width(), vp.height()
    for preset, pos in (("dell-r720", QPoint(w // 4, h // 4)),
                        ("intel-s3700", QPoint(3 * w // 4, h // 4)),
                        ("iometer-vm", QPoint(w // 2, 3 * h // 4))):
        drop_from_palette(window, preset, pos)
    host, array, vm = (c.id for c in doc.design.components)
    assert [c.kind for c in doc.design.components] == ["host", "storage_array", "vm"]
    for a, b in ((vm, host), (vm, array), (host, array)):
        alt_drag(qtbot, window, at(window, a), at(window, b))
    assert {(lk.kind, lk.source, lk.target) for lk in doc.design.links} == {
        ("runs_on", vm, host), ("disk_on", vm, array), ("storage", host, array)}
    doc.evaluate_now()
    tile = window.dashboard.tiles["mean_latency_ms"]
    assert doc.prediction is not None and doc.prediction.total_iops > 0
    before_text, before_oio = tile.value_label.text(), doc.value("vm", "workload.io_oio")
    assert isinstance(before_oio, int)
    qtbot.waitUntil(lambda: "vm.workload.io_oio" in window.knob_panel.rows)  # rebuilt
    slider = window.knob_panel.row("vm.workload.io_oio").slider
    assert slider is not None
    slider.setFocus()
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        qtbot.keyClick(slider, Qt.Key.Key_PageUp)  # more I/Os in flight: a longer queue
    after_text = tile.value_label.text()
    after_oio = doc.value("vm", "workload.io_oio")
    assert isinstance(after_oio, int) and after_oio > before_oio and after_text != before_text
    steps = doc.undo_stack.count()
    ctrl, shift = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier
    window.view.setFocus()
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        qtbot.keyClick(window, Qt.Key.Key_Z, ctrl)
    assert tile.value_label.text() == before_text and doc.undo_stack.index() == steps - 1
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        qtbot.keyClick(window, Qt.Key.Key_Z, ctrl | shift)
    assert tile.value_label.text() == after_text


def test_status_summary_counts_and_what_the_design_moves() -> None:
    from app.window.main_window import status_summary  # noqa: PLC0415
    from models.engine.evaluation import evaluate  # noqa: PLC0415

    web = status_summary(evaluate(examples.load("dense-web-farm")))
    assert web.startswith("470 VMs · 1 host · ") and web.endswith(" Gbit/s") and "IOPS" not in web
    io = status_summary(evaluate(examples.load("vaio-scaling")))
    assert io.startswith("16 VMs · 1 host · ") and io.endswith(" IOPS")
    assert status_summary(evaluate(Design(name="empty"))) == "0 VMs · 0 hosts · 0 IOPS"
    estate = Design(name="estate", components=[
        Component("h1", "host"), Component("v1", "vm", props={"workload.profile": "measured"})],
        links=[Link("v1", "h1", "runs_on")])  # imported without I/O data: not "0 IOPS"
    assert status_summary(evaluate(estate)) == "1 VM · 1 host · storage I/O not measured"



def test_the_status_bar_starts_with_the_most_important_fact(qtbot: QtBot) -> None:
    """What binds comes first, a host by the part of its name that tells it apart; the
    counts after it are what the bar cuts when it is short (issue 39: "storage I/O not
    measu...<host name>" hid the busiest host)."""
    from app.window.main_window import status_line, status_summary  # noqa: PLC0415
    from models.engine.evaluation import evaluate  # noqa: PLC0415

    design = examples.load("dense-web-farm")
    host = design.of_kind("host")[0]
    host.name = "bru-esx-web1-01.infra.example.org"
    p = evaluate(design)
    line = status_line(p, str, {host.id: "web1-01"})
    assert line.startswith("bottleneck: web1-01 ") and line.endswith(status_summary(p))
    window = MainWindow(DesignDocument(design), remember_layout=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    shown = window.status_detail.text()
    assert shown.startswith("bottleneck: bru-esx-web1-01 ")  # the domain left off
    assert window.status_detail.toolTip().startswith(shown.rstrip("…"))
