"""The Unplaced area: a frame round the VMs on no host (an import's VMs whose host and
cluster it did not find), gone when none is left; dragging one onto a host places it there,
the move and its link one undo step."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from models.document.design import Component, Design, Link
from tests.app.canvas.drive import at, drag, make, runs_on, undo_key


def two_vms() -> Design:
    d = Design(name="two")
    d.components += [Component("h1", "host", "esx01", x=0, y=0),
                     Component("v1", "vm", "placed", x=0, y=80),
                     Component("v2", "vm", "lost", x=400, y=0, tags=["unplaced"]),
                     Component("v3", "vm", "lost too", x=400, y=120, tags=["unplaced"])]
    d.links.append(Link("v1", "h1", "runs_on"))
    return d


def test_the_frame_holds_the_vms_on_no_host(qtbot: QtBot) -> None:
    doc, scene, _ = make(qtbot, two_vms())
    area = scene.unplaced
    qtbot.waitUntil(lambda: area.frame is not None)
    assert area.count == 2 and area.label is not None
    assert area.label.text().startswith("Unplaced: 2 VMs")
    for cid in ("v2", "v3"):
        item = scene.item(cid)
        assert item is not None and area.frame.rect().contains(item.sceneBoundingRect())  # type: ignore[union-attr]
    doc.remove_components(["v2", "v3"])
    qtbot.waitUntil(lambda: area.frame is None)
    doc.undo_stack.undo()
    qtbot.waitUntil(lambda: area.count == 2)


def test_dragging_an_unplaced_vm_onto_a_host_places_it_in_one_undo_step(qtbot: QtBot
                                                                        ) -> None:
    doc, scene, view = make(qtbot, two_vms())
    qtbot.waitUntil(lambda: scene.unplaced.count == 2)
    with qtbot.waitSignal(scene.status_message) as said:
        drag(qtbot, view, at(view, "v2"), at(view, "h1"), steps=5)
    assert said.args == ["Place 1 VM on a host (Ctrl+Z undoes it)"]
    assert runs_on(doc, "v2") == ["h1"]
    assert doc.undo_stack.count() == 1 and doc.undo_stack.text(0) == "Place 1 VM on a host"
    qtbot.waitUntil(lambda: scene.unplaced.count == 1)
    host = scene.host_item("h1")
    assert host is not None and host.vm_ids == ["v1", "v2"]
    undo_key(qtbot, view)
    assert runs_on(doc, "v2") == []
    qtbot.waitUntil(lambda: scene.unplaced.count == 2)
    undo_key(qtbot, view, redo=True)
    assert runs_on(doc, "v2") == ["h1"]
    qtbot.waitUntil(lambda: scene.unplaced.count == 1)
