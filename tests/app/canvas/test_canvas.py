"""The canvas driven as a user drives it: drops from the palette, drags, links, rubber band;
and how it follows the document and the predictions."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QMimeData, QPoint, QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QGraphicsSceneContextMenuEvent, QMenu
from pytestqt.qtbot import QtBot

from app.canvas.cards import DETAIL_ZOOM, TALLY
from app.canvas.context_menu import build_menu
from app.canvas.drop import preset_mime
from app.canvas.items import NO_DATA, ComponentItem, LinkItem
from app.canvas.layout import arrange_vms, overlapping_vms
from app.canvas.scene import DesignScene
from app.canvas.tooltips import component_tooltip
from app.canvas.view import DesignView
from app.document.design_document import DesignDocument
from app.support import theme
from models.document.design import Component, Design, Link
from models.examples import bundled as examples
from models.examples.synth import large_design


def make(qtbot: QtBot, design: Design) -> tuple[DesignDocument, DesignScene, DesignView]:
    doc = DesignDocument(design)
    scene = DesignScene(doc)
    view = DesignView(scene)
    view.resize(1000, 700)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    view.fit()
    return doc, scene, view


def at(view: DesignView, cid: str) -> QPoint:
    item = view.design_scene.item(cid)
    assert item is not None
    return view.mapFromScene(item.pos())


def drop(view: DesignView, mime: QMimeData, pos: QPoint) -> None:
    vp = view.viewport()
    actions = Qt.DropAction.CopyAction
    buttons, mods = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    enter = QDragEnterEvent(QPointF(pos), actions, mime, buttons, mods)
    QApplication.sendEvent(vp, enter)
    assert enter.isAccepted()
    move = QDragMoveEvent(QPointF(pos), actions, mime, buttons, mods)
    QApplication.sendEvent(vp, move)
    QApplication.sendEvent(vp, QDropEvent(QPointF(pos), actions, mime, buttons, mods))


def test_scene_mirrors_the_document(qtbot: QtBot, nic_example: Design) -> None:
    """Every component has an item (zoomed in, the VMs' pills too); a link that holds (a VM
    on its host, a NIC in it) is the holding, every other link a line."""
    doc, scene, view = make(qtbot, nic_example)
    assert view.zoom >= DETAIL_ZOOM
    assert {it.cid for it in scene.component_items()} == {c.id for c in doc.design.components}
    held = [lk for lk in doc.design.links if lk.kind in ("runs_on", "installed_in")]
    assert all(scene.link_item(lk) is None for lk in held)
    assert [it.link for it in scene.link_items()] == [
        lk for lk in doc.design.links if lk.kind == "storage"]
    host = scene.host_item("h1")
    assert host is not None and host.vm_ids == [f"v{i}" for i in range(1, 17)]
    for cid in ("n1", "v1", "v16"):
        item = scene.item(cid)
        assert item is not None and item.docked  # drawn on its host's card
        assert host.scene_body().contains(item.scene_body())


def test_drop_host_then_vm_onto_it_links_runs_on(qtbot: QtBot, nic_example: Design) -> None:
    doc, scene, view = make(qtbot, nic_example)
    n = len(doc.design.components)
    drop(view, preset_mime("dell-r720"), QPoint(80, 80))
    assert len(doc.design.components) == n + 1
    host = doc.design.components[-1]
    assert (host.kind, host.name) == ("host", "Dell R720")
    assert scene.item(host.id) is not None
    assert overlapping_vms(doc.design) == 0  # put where it overlaps nothing
    drop(view, preset_mime("oltp-vm"), at(view, host.id))
    vm = doc.design.components[-1]
    assert vm.kind == "vm"
    assert any(lk.kind == "runs_on" and (lk.source, lk.target) == (vm.id, host.id)
               for lk in doc.design.links)
    assert doc.selection == [vm.id]
    assert doc.undo_stack.count() == 2  # one step per drop, link included
    doc.undo_stack.undo()
    assert scene.item(vm.id) is None


def test_a_vm_dropped_on_a_nic_chip_lands_in_the_hosts_vm_grid(
        qtbot: QtBot, nic_example: Design) -> None:
    doc, scene, view = make(qtbot, nic_example)
    host, nic = scene.host_item("h1"), scene.item("n1")
    assert host is not None and nic is not None
    drop(view, preset_mime("web-vm"), view.mapFromScene(nic.pos()))
    vm = doc.design.components[-1]
    assert [lk.target for lk in doc.links_of(vm.id) if lk.kind == "runs_on"] == ["h1"]
    assert host.vm_ids[-1] == vm.id
    item = scene.item(vm.id)
    assert item is not None and item.isSelected()
    area = host.aggregate_rect().translated(host.pos())
    assert area.contains(item.pos()) and not item.scene_body().intersects(nic.scene_body())
    assert (vm.x, vm.y) == (item.x(), item.y())  # the document says where it shows


def test_drop_ignores_foreign_data(qtbot: QtBot, nic_example: Design) -> None:
    _, _, view = make(qtbot, nic_example)
    mime = QMimeData()
    mime.setText("hello")
    enter = QDragEnterEvent(QPointF(5, 5), Qt.DropAction.CopyAction, mime,
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(view.viewport(), enter)
    assert not enter.isAccepted()


def test_alt_drag_links_and_illegal_link_is_refused(qtbot: QtBot, nic_example: Design) -> None:
    doc, scene, view = make(qtbot, nic_example)
    doc.add_component(Component("h2", "host", "spare", x=300, y=250))
    doc.add_component(Component("s1", "site", "Paris", x=-300, y=-150))
    vp = view.viewport()
    alt = Qt.KeyboardModifier.AltModifier
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, alt, at(view, "v16"))
    qtbot.mouseMove(vp, at(view, "h2"))
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, alt, at(view, "h2"))
    assert any(lk.kind == "runs_on" and (lk.source, lk.target) == ("v16", "h2")
               for lk in doc.design.links)
    with qtbot.waitSignal(scene.status_message) as blocker:
        scene.link_tool.link_mode = True
        qtbot.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         at(view, "v1"))
        qtbot.mouseMove(vp, at(view, "s1"))
        qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                           at(view, "s1"))
    assert "refused" in blocker.args[0] and "site" in blocker.args[0]
    assert not any("s1" in (lk.source, lk.target) for lk in doc.design.links)


def test_drag_moves_live_and_pushes_one_command(qtbot: QtBot, nic_example: Design) -> None:
    """An array follows the mouse, then the drag is one undo step."""
    doc, scene, view = make(qtbot, nic_example)
    vp = view.viewport()
    start = at(view, "a1")
    item = scene.item("a1")
    assert item is not None
    old = item.pos()
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    for step in range(1, 5):
        qtbot.mouseMove(vp, start + QPoint(10 * step, 8 * step))
    assert item.pos() != old  # moved live, before release
    assert doc.undo_stack.count() == 0
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                       start + QPoint(40, 32))
    assert doc.undo_stack.count() == 1
    a1 = doc.design.component("a1")
    assert a1 is not None and (a1.x, a1.y) == (item.x(), item.y())
    doc.undo_stack.undo()
    assert item.pos() == old


def test_moving_a_host_carries_its_card(qtbot: QtBot, nic_example: Design) -> None:
    doc, scene, view = make(qtbot, nic_example)
    nic, vm, host = scene.item("n1"), scene.item("v3"), scene.item("h1")
    assert nic is not None and vm is not None and host is not None
    offsets = (nic.pos() - host.pos(), vm.pos() - host.pos())
    vp = view.viewport()
    start = view.mapFromScene(host.pos())
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    for step in range(1, 4):
        qtbot.mouseMove(vp, start + QPoint(20 * step, 10 * step))
    assert (nic.pos() - host.pos(), vm.pos() - host.pos()) == offsets  # live
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                       start + QPoint(60, 30))
    assert doc.undo_stack.count() == 1
    v3 = doc.design.component("v3")
    assert v3 is not None and (v3.x, v3.y) == (vm.x(), vm.y())
    doc.undo_stack.undo()
    assert host.pos() - QPointF(0, 0) != start and vm.pos() - host.pos() == offsets[1]


def test_rubber_band_selects(qtbot: QtBot, nic_example: Design) -> None:
    doc, scene, view = make(qtbot, nic_example)
    vp = view.viewport()
    host = scene.host_item("h1")
    assert host is not None
    v1 = scene.item("v1")
    assert v1 is not None
    start = view.mapFromScene(host.scene_body().bottomLeft() + QPointF(-30, 30))
    end = view.mapFromScene(v1.scene_body().center())
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    qtbot.mouseMove(vp, (start + end) / 2)
    qtbot.mouseMove(vp, end)
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, end)
    assert {"v1", "v4", "v16"} <= set(doc.selection)  # the first column of the grid
    assert not {"v2", "n1", "h1"} & set(doc.selection)  # the band does not hold the card


def test_selection_follows_the_document(qtbot: QtBot, nic_example: Design) -> None:
    doc, scene, _ = make(qtbot, nic_example)
    doc.set_selection(["v3"])
    assert [it.cid for it in scene.selectedItems() if isinstance(it, ComponentItem)] == ["v3"]


def test_items_follow_add_remove_and_links(qtbot: QtBot, nic_example: Design) -> None:
    doc, scene, _ = make(qtbot, nic_example)
    doc.add_component(Component("h2", "host", x=500, y=0))
    assert scene.item("h2") is not None
    doc.add_link(Link("h2", "a1", "storage"))
    assert scene.link_item(Link("h2", "a1", "storage")) is not None
    doc.remove_components(["h2"])
    assert scene.item("h2") is None
    assert scene.link_item(Link("h2", "a1", "storage")) is None


def test_prediction_colours_items_and_badges_the_bottleneck(qtbot: QtBot,
                                                            nic_example: Design) -> None:
    doc, scene, _ = make(qtbot, nic_example)
    p = doc.prediction
    assert p is not None
    top = p.bottlenecks(1)[0]
    badged = [it.cid for it in scene.component_items() if it.badge]
    assert badged == [top.component]
    array = scene.item("a1")
    assert array is not None and array.level != NO_DATA
    with qtbot.waitSignal(doc.prediction_updated):
        doc.set_value("vm", "workload.io_oio", 1)
    assert array.level <= 20


def test_badge_grades_with_the_bottlenecks_utilisation(qtbot: QtBot) -> None:
    """A busiest resource at 14% gets a slate 'i', not an alarming red '!'."""
    from app.canvas.items import badge_style  # noqa: PLC0415

    doc, scene, _ = make(qtbot, examples.load("docker-cloudstone"))
    p = doc.prediction
    assert p is not None
    top = p.bottlenecks(1)[0]
    assert top.util < 0.7
    item = scene.item(top.component)
    assert item is not None and item.badge and item.badge_style[1] == "i"
    with qtbot.waitSignal(doc.prediction_updated):
        doc.set_value("vm", "workload.req_per_s", 2500.0)  # the host busy (about 80%)
    item = scene.item(doc.prediction.bottlenecks(1)[0].component)  # type: ignore[union-attr]
    assert item is not None and item.badge and item.badge_style[1] == "!"
    assert badge_style(1.2)[0] != badge_style(0.8)[0] != badge_style(0.1)[0]
    assert badge_style(0.9996) == badge_style(1.0)  # reads "100%": saturated


def count_set_level(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record every recolouring of a canvas item (the levels passed to set_level)."""
    calls: list[int] = []
    original = ComponentItem.set_level

    def counting(self: ComponentItem, level: int) -> None:
        calls.append(level)
        original(self, level)

    monkeypatch.setattr(ComponentItem, "set_level", counting)
    return calls


def test_repaint_touches_only_changed_items(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
                                            ) -> None:
    doc, scene, _ = make(qtbot, large_design(400, 10, 4))
    p = doc.prediction
    assert p is not None
    calls = count_set_level(monkeypatch)
    scene.apply_prediction(p)
    assert calls == []


def test_two_thousand_vms_open_as_cards_and_a_knob_recolours_in_place(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """Scale behaviour (timings live in `make bench`): far out, each host card draws its VMs
    as one aggregate (no VM items); a knob change re-tallies the cards and recolours
    existing items, never rebuilds them."""
    design = large_design(2000)
    for cid, (x, y) in arrange_vms(design).items():
        c = design.component(cid)
        assert c is not None
        c.x, c.y = x, y
    doc, scene, view = make(qtbot, design)
    assert view.zoom < DETAIL_ZOOM
    assert not [it for it in scene.component_items() if it.kind == "vm"]
    hosts = [scene.host_item(h.id) for h in design.of_kind("host")]
    assert all(h is not None and int(h.tally.sum()) == len(h.vm_ids) == 40 for h in hosts)
    items_before = {id(i) for i in scene.component_items()}
    before = doc.prediction
    assert before is not None
    doc.set_value("vm", "workload.io_oio", 1, merge_key="drag")
    after = doc.evaluate_now()
    assert {id(i) for i in scene.component_items()} == items_before
    grades = dict(zip(after.vms.ids, theme.util_grades(after.vms.cpu_util), strict=True))
    for h in hosts:  # each card's tally counts its VMs' grades in the new prediction
        assert h is not None
        expect = np.bincount([int(grades[v]) + 1 for v in h.vm_ids], minlength=TALLY)
        assert (h.tally == expect).all()
    scene.apply_prediction(before)
    calls = count_set_level(monkeypatch)
    scene.apply_prediction(after)  # what a knob change costs the canvas
    assert 0 < len(calls) < len(items_before)
    view.viewport().repaint()


def test_zoom_limits_and_fit(qtbot: QtBot, nic_example: Design) -> None:
    _, _, view = make(qtbot, nic_example)
    view.reset_zoom()
    view.zoom_in()
    assert view.zoom == pytest.approx(1.25)
    for _ in range(60):
        view.zoom_out()
    assert view.zoom == pytest.approx(0.02)
    view.fit()
    assert 0.02 <= view.zoom <= 1.0


def test_tooltip_reports_the_prediction(qtbot: QtBot, nic_example: Design) -> None:
    doc, _, _ = make(qtbot, nic_example)
    text = component_tooltip(doc, "a1")
    assert "IOPS" in text and "busy" in text
    assert "vCPU" not in component_tooltip(doc, "h1") and "CPU" in component_tooltip(doc, "h1")
    assert component_tooltip(doc, "nope") == ""


def test_library_tooltip_and_inspector_say_how_long_its_job_takes(qtbot: QtBot) -> None:
    from app.panels.inspector import Inspector  # noqa: PLC0415

    doc, _, _ = make(qtbot, examples.load("content-library"))
    text = component_tooltip(doc, "br1-lib1")
    assert "sync of 3 items: 89.9 min at 3 MB/s" in text and "bound by WAN 100 Mbit/s" in text
    assert "publishes to 4 subscribed libraries" in component_tooltip(doc, "pub-nfs")
    inspector = Inspector(doc)
    qtbot.addWidget(inspector)
    doc.set_selection(["deploy"])
    assert "deploy of 4 items" in inspector.predicted.text()


def test_context_menu_removes_a_link(qtbot: QtBot, nic_example: Design) -> None:
    doc, scene, _ = make(qtbot, nic_example)
    event = QGraphicsSceneContextMenuEvent(QEvent.Type.GraphicsSceneContextMenu)
    item = scene.item("v1")
    assert item is not None
    event.setScenePos(item.pos())
    menu = build_menu(scene, event)
    assert menu is not None
    assert doc.selection == ["v1"]
    unlink = next(a for a in menu.actions() if a.menu() is not None)
    sub = unlink.menu()
    assert isinstance(sub, QMenu)
    sub.actions()[0].trigger()
    assert len(doc.links_of("v1")) == 1
    event.setScenePos(QPointF(-5000, -5000))
    assert build_menu(scene, event) is None


def test_kind_wide_edits_refresh_labels_only_when_the_label_shows_the_property(
        qtbot: QtBot, nic_example: Design) -> None:
    doc, scene, _ = make(qtbot, nic_example)
    vm = doc.design.of_kind("vm")[0]
    item = scene.item(vm.id)
    assert item is not None
    doc.set_value("vm", "workload.profile", "web")
    assert item.subtitle == "web server"  # the label shows the profile: refreshed
    item.subtitle = "stale"
    doc.set_value("vm", "workload.io_oio", 3)
    assert item.subtitle == "stale"  # OIO is not on the label: the 2,000 refreshes skipped
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert item.subtitle != "web"


def test_far_out_link_widths_follow_traffic_without_repainting_hairlines(qtbot: QtBot) -> None:
    doc, scene, view = make(qtbot, large_design(200, 10))
    view.set_zoom(0.05)
    with qtbot.waitSignal(doc.prediction_updated):
        doc.set_value("vm", "workload.io_oio", 1)
    with qtbot.waitSignal(doc.prediction_updated):
        doc.set_value("vm", "workload.io_oio", 64)
    links = scene.link_items()
    assert len({it.width_level for it in links}) > 1  # widths still follow the traffic
    assert LinkItem.drawn_width(0, 0.05) == LinkItem.drawn_width(6, 0.05) == 0.0
    assert LinkItem.drawn_width(1, 1.0) < LinkItem.drawn_width(2, 1.0)


@pytest.mark.parametrize("name", examples.names())
def test_bundled_examples_open_with_nothing_overlapping(name: str) -> None:
    assert overlapping_vms(examples.load(name)) == 0  # the app's first impression


def test_arranging_puts_piled_hosts_side_by_side() -> None:
    design = large_design(200, 4)
    for h in design.of_kind("host"):
        h.x, h.y = 0.0, 0.0
    assert overlapping_vms(design) >= 4
    moves = arrange_vms(design)
    by_id = {c.id: c for c in design.components}
    for cid, (x, y) in moves.items():
        by_id[cid].x, by_id[cid].y = x, y
    assert overlapping_vms(design) == 0
    assert arrange_vms(design) == {}  # already arranged: nothing moves


def test_pasted_components_land_where_they_overlap_nothing(qtbot: QtBot,
                                                           nic_example: Design) -> None:
    from app.canvas.clipboard import copy_selection, paste  # noqa: PLC0415

    doc, scene, _ = make(qtbot, nic_example)
    doc.set_selection(["h1", "n1", "v1", "v2"])
    assert copy_selection(doc) == 4
    assert paste(doc) == "Pasted 4 components"
    copy = scene.host_item(doc.selection[0])
    assert copy is not None and copy.vm_ids and copy is not scene.host_item("h1")
    assert overlapping_vms(doc.design) == 0  # the copy's card beside the original
    doc.set_selection(["v3", "v4"])  # VMs without their host: pasted loose, off the card
    copy_selection(doc)
    paste(doc)
    loose = [scene.item(cid) for cid in doc.selection]
    assert len(loose) == 2 and all(it is not None and not it.docked for it in loose)
    assert overlapping_vms(doc.design) == 0
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert scene.item(doc.design.components[-1].id) is not None


def test_a_vm_dragged_onto_another_hosts_card_runs_there(qtbot: QtBot,
                                                         nic_example: Design) -> None:
    doc, scene, view = make(qtbot, nic_example)
    doc.add_component(Component("h2", "host", "spare", x=700, y=0))
    view.fit()
    spare, home = scene.host_item("h2"), scene.host_item("h1")
    assert spare is not None and home is not None
    vp = view.viewport()

    def drag(cid: str, to: QPointF) -> None:
        item = scene.item(cid)
        assert item is not None
        a, b = view.mapFromScene(item.pos()), view.mapFromScene(to)
        qtbot.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, a)
        for k in range(1, 4):
            qtbot.mouseMove(vp, a + (b - a) * k / 3)
        qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, b)

    steps = doc.undo_stack.count()
    drag("v3", spare.pos())  # onto the spare host's header
    assert [lk.target for lk in doc.links_of("v3") if lk.kind == "runs_on"] == ["h2"]
    assert doc.undo_stack.count() == steps + 1 and "v3" in spare.vm_ids
    item = scene.item("v3")
    assert item is not None and spare.scene_body().contains(item.scene_body())
    drag("v4", home.scene_body().bottomLeft() + QPointF(-200, 200))  # onto empty canvas
    assert doc.undo_stack.count() == steps + 1  # nothing changed: back on its pill
    back = scene.item("v4")
    assert back is not None and back.pos() == scene.child_pos("v4")
    doc.undo_stack.undo()
    assert "v3" in home.vm_ids and "v3" not in spare.vm_ids
