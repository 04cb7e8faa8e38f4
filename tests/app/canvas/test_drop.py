"""Drops from the palette: a preset becomes a component where it is let go, linked at once to
what it lands on (a VM on a host, a host in a site), in one undo step."""

from __future__ import annotations

from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt
from PySide6.QtGui import QDragEnterEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.canvas.drop import preset_mime
from app.canvas.layout import overlapping_vms
from app.document.design_document import DesignDocument
from app.panels.palette import Palette
from models.document.design import Design
from models.examples import bundled as examples
from tests.app.canvas.drive import at, drop, make, runs_on, undo_key


def from_palette(qtbot: QtBot, preset_id: str) -> QMimeData:
    """What dragging ``preset_id``'s entry out of the palette carries."""
    palette = Palette(DesignDocument())
    qtbot.addWidget(palette)
    return palette.mime_for(preset_id)


def test_drop_host_then_vm_onto_it_links_runs_on(qtbot: QtBot, nic_example: Design) -> None:
    doc, scene, view = make(qtbot, nic_example)
    n = len(doc.design.components)
    with qtbot.waitSignal(scene.status_message) as said:
        drop(view, from_palette(qtbot, "dell-r720"), QPoint(80, 80))
    assert said.args == ["Added Dell R720 2"]  # the example has a Dell R720 already
    assert len(doc.design.components) == n + 1
    host = doc.design.components[-1]
    assert (host.kind, host.name) == ("host", "Dell R720 2")
    assert scene.item(host.id) is not None
    assert overlapping_vms(doc.design) == 0  # put where it overlaps nothing
    with qtbot.waitSignal(scene.status_message) as said:
        drop(view, from_palette(qtbot, "oltp-vm"), at(view, host.id))
    vm = doc.design.components[-1]
    assert vm.kind == "vm" and said.args == [f"Added OLTP VM on {host.name}"]
    assert runs_on(doc, vm.id) == [host.id]
    assert doc.selection == [vm.id]
    assert doc.undo_stack.count() == 2  # one step per drop, link included
    undo_key(qtbot, view)
    assert scene.item(vm.id) is None and doc.component(vm.id) is None
    undo_key(qtbot, view, redo=True)
    assert runs_on(doc, vm.id) == [host.id]
    card = scene.host_item(host.id)
    assert card is not None and card.vm_ids == [vm.id]


def test_a_vm_dropped_on_a_nic_chip_lands_in_the_hosts_vm_grid(
        qtbot: QtBot, nic_example: Design) -> None:
    doc, scene, view = make(qtbot, nic_example)
    host, nic = scene.host_item("h1"), scene.item("n1")
    assert host is not None and nic is not None
    drop(view, preset_mime("web-vm"), view.mapFromScene(nic.pos()))
    vm = doc.design.components[-1]
    assert runs_on(doc, vm.id) == ["h1"]
    assert host.vm_ids[-1] == vm.id
    item = scene.item(vm.id)
    assert item is not None and item.isSelected()
    area = host.aggregate_rect().translated(host.pos())
    assert area.contains(item.pos()) and not item.scene_body().intersects(nic.scene_body())
    assert (vm.x, vm.y) == (item.x(), item.y())  # the document says where it shows


def test_a_host_dropped_into_a_sites_box_is_located_there(qtbot: QtBot) -> None:
    doc, scene, view = make(qtbot, examples.load("stretched-vsan"))
    lone = scene.host_item("esx05")
    assert lone is not None
    spot = lone.pos() + QPointF(lone.rect().width() + 60, 0)
    drop(view, preset_mime("dell-r720"), view.mapFromScene(spot))
    host = doc.design.components[-1]
    assert host.kind == "host"
    assert [lk.target for lk in doc.links_of(host.id) if lk.kind == "located_at"] == ["siteA"]
    item = scene.host_item(host.id)
    site = scene.box_item("siteA")
    assert item is not None and site is not None
    assert site.scene_body().contains(item.scene_body())
    assert not any(item.scene_body().intersects(other.scene_body())
                   for other in (scene.host_item(h.id) for h in doc.design.of_kind("host"))
                   if other is not None and other is not item)
    members = site.members
    doc.undo_stack.undo()
    assert scene.host_item(host.id) is None and site.members == members - 1


def test_drop_ignores_foreign_data(qtbot: QtBot, nic_example: Design) -> None:
    doc, _, view = make(qtbot, nic_example)
    mime = QMimeData()
    mime.setText("hello")
    enter = QDragEnterEvent(QPointF(5, 5), Qt.DropAction.CopyAction, mime,
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(view.viewport(), enter)
    assert not enter.isAccepted()
    assert doc.undo_stack.count() == 0


def test_a_preset_dropped_twice_gets_a_name_of_its_own(qtbot: QtBot) -> None:
    """The second OLTP VM is "OLTP VM 2" (it was a second "OLTP VM"); undo frees the name."""
    doc, scene, view = make(qtbot, Design())
    names = []
    for x in (60, 260, 460):
        with qtbot.waitSignal(scene.status_message) as said:
            drop(view, from_palette(qtbot, "oltp-vm"), QPoint(x, 80))
        names.append(doc.design.components[-1].name)
        assert said.args == [f"Added {names[-1]}"]
    assert names == ["OLTP VM", "OLTP VM 2", "OLTP VM 3"]
    assert doc.undo_stack.undoText() == "Add OLTP VM 3"
    undo_key(qtbot, view)
    drop(view, from_palette(qtbot, "oltp-vm"), QPoint(460, 80))
    assert doc.design.components[-1].name == "OLTP VM 3"
    drop(view, from_palette(qtbot, "host"), QPoint(60, 300))
    drop(view, from_palette(qtbot, "host"), QPoint(460, 300))
    assert [c.name for c in doc.design.of_kind("host")] == ["", ""]  # known by their ids
