"""The canvas at estate scale (figures live in `make bench`): a 10,000-VM design opens with an
item per host and NIC, not per VM; VMs get items only where they can be read or when they are
selected (the view's detail keeper, :mod:`app.canvas.detail`); selection, undo, tooltips and
the bottleneck badge keep working."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtWidgets import QGraphicsSceneHelpEvent, QToolTip
from pytestqt.qtbot import QtBot

from app.canvas.cards import DETAIL_ZOOM, HostItem
from app.canvas.detail import MAX_SELECTED
from app.canvas.items import ComponentItem
from app.canvas.scene import DesignScene
from app.canvas.tooltips import component_tooltip
from app.canvas.view import DesignView
from app.document.design_document import DesignDocument
from models.document.design import Design, Override, apply_overrides
from models.examples import bundled as examples
from tests.app.canvas.drive import make


def estate(qtbot: QtBot, design: Design) -> tuple[DesignDocument, DesignScene, DesignView]:
    return make(qtbot, design.copy())


def vm_items(scene: DesignScene) -> list[ComponentItem]:
    return [it for it in scene.component_items() if it.kind == "vm"]


def test_ten_thousand_vms_open_with_an_item_per_host_not_per_vm(qtbot: QtBot,
                                                                estate_design: Design) -> None:
    doc, scene, view = estate(qtbot, estate_design)
    d = doc.design
    assert view.zoom < DETAIL_ZOOM
    assert not vm_items(scene)
    budget = len(d.of_kind("host")) + len(d.of_kind("storage_array")) + len(d.of_kind("nic"))
    assert len(scene.component_items()) == budget
    assert len(scene.items()) < budget + 300  # lines: FT bundles; storage paths on selection
    host = scene.host_item("h7")
    assert host is not None and len(host.vm_ids) == 40 and host.tally.sum() == 40


def test_zooming_in_makes_the_vms_in_view_and_out_again_drops_them(
        qtbot: QtBot, estate_design: Design) -> None:
    _, scene, view = estate(qtbot, estate_design)
    host = scene.host_item("h3")
    assert host is not None
    view.set_zoom(1.0)
    view.centerOn(host.aggregate_rect().translated(host.pos()).center())
    view.update_detail()
    shown = vm_items(scene)
    assert 0 < len(shown) < 400  # the VMs near the view, not 10,000
    assert {"v3", "v253"} <= {it.cid for it in shown}  # h3's first VMs, with their names
    assert all(it.docked and it.shown_title(1.0) for it in shown)
    view.fit()
    assert not vm_items(scene)


def test_selection_of_thousands_is_counted_on_the_cards(qtbot: QtBot,
                                                        estate_design: Design) -> None:
    doc, scene, view = estate(qtbot, estate_design)
    doc.set_selection([c.id for c in doc.design.components])  # Ctrl+A
    assert len(vm_items(scene)) == MAX_SELECTED  # the rest are counted on their cards
    host = scene.host_item("h9")
    assert host is not None and host.selected_vms == 40
    assert "40 selected" in host.aggregate_text()
    vp = view.viewport()
    qtbot.mouseClick(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     view.mapFromScene(host.pos()))
    assert doc.selection == ["h9"]
    assert host.selected_vms == 0 and not vm_items(scene)


def test_moving_a_host_of_an_estate_is_one_undo_step(qtbot: QtBot,
                                                     estate_design: Design) -> None:
    doc, scene, view = estate(qtbot, estate_design)
    host = scene.host_item("h12")
    assert host is not None
    before = {c.id: (c.x, c.y) for c in doc.design.components}
    start = view.mapFromScene(host.pos())
    vp = view.viewport()
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    qtbot.mouseMove(vp, start + QPoint(3, 4))
    qtbot.mouseMove(vp, start + QPoint(6, 8))
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                       start + QPoint(6, 8))
    assert doc.undo_stack.count() == 1
    moved = {c.id for c in doc.design.components if (c.x, c.y) != before[c.id]}
    assert moved == {"h12", *host.nic_ids, *host.vm_ids}  # the card and what it holds
    doc.undo_stack.undo()
    assert {c.id: (c.x, c.y) for c in doc.design.components} == before


def test_tooltips_and_knob_changes_reach_vms_without_items(
        qtbot: QtBot, estate_design: Design, monkeypatch: pytest.MonkeyPatch) -> None:
    doc, scene, view = estate(qtbot, estate_design)
    assert scene.item("v42") is None
    text = component_tooltip(doc, "v42")
    assert "vm00042" in text and "on esx042" in text  # a web server: its response
    assert "web response" in text and "IOPS" not in text
    host = scene.host_item("h42")
    assert host is not None
    event = QGraphicsSceneHelpEvent(QEvent.Type.GraphicsSceneHelp)
    event.setScenePos(host.pos())
    event.setScreenPos(view.mapToGlobal(view.mapFromScene(host.pos())))
    scene.helpEvent(event)
    assert "esx042" in QToolTip.text() and "40 VMs" in QToolTip.text()
    calls: list[int] = []
    original = ComponentItem.set_level

    def counting(self: ComponentItem, level: int) -> None:
        calls.append(level)
        original(self, level)

    monkeypatch.setattr(ComponentItem, "set_level", counting)
    tallies = {h: it.tally.copy() for h, it in ((h.id, scene.host_item(h.id))
                                                for h in doc.design.of_kind("host"))
               if it is not None}
    with qtbot.waitSignal(doc.prediction_updated):
        doc.set_value("vm", "workload.req_per_s", 200.0)  # the web VMs' CPU climbs
    assert len(calls) <= len(scene.component_items())  # never one call per VM
    assert any((it.tally != tallies[h]).any() for h, it in (
        (h.id, scene.host_item(h.id)) for h in doc.design.of_kind("host")) if it is not None)


def test_the_badge_sits_on_the_card_of_a_vm_without_an_item_then_on_its_item(
        qtbot: QtBot) -> None:
    # the VAIO testbed with the array, fabric and host CPU out of the way: each 1-vCPU VM's
    # synchronous issue path binds (a VM-level bottleneck)
    design = apply_overrides(examples.load("vaio-scaling"), [
        Override("storage_array", "disks", 64), Override("host", "hba_count", 8),
        Override("vm", "vcpus", 1), Override("host", "sockets", 8)])
    doc, scene, view = make(qtbot, design)
    view.set_zoom(0.2)
    p = doc.prediction
    assert p is not None
    top = p.bottlenecks(1)[0]
    assert doc.component(top.component).kind == "vm"  # type: ignore[union-attr]
    holder = scene.badge_holder()
    assert isinstance(holder, HostItem) and holder.vm_badge is not None
    assert top.component in holder.vm_ids
    doc.set_selection([top.component])  # the VM gets its item, and the badge moves to it
    item = scene.item(top.component)
    assert item is not None and item.badge and scene.badge_holder() is item
    assert holder.vm_badge is None
    assert "bottleneck" in component_tooltip(doc, top.component)
