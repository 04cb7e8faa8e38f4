"""Copy, cut and paste: pasted components get new ids and land where they overlap nothing,
one undo step each."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from app.canvas.clipboard import copy_selection, cut_selection, paste
from app.canvas.layout import overlapping_vms
from models.document.design import Design
from tests.app.canvas.drive import make


def test_pasted_components_land_where_they_overlap_nothing(qtbot: QtBot,
                                                           nic_example: Design) -> None:
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
    last = doc.design.components[-1].id
    doc.undo_stack.undo()
    assert scene.item(last) is None
    doc.undo_stack.undo()
    assert scene.host_item(copy.cid) is None
    doc.undo_stack.redo()
    assert scene.host_item(copy.cid) is not None and scene.item(last) is None


def test_cut_is_one_undo_step(qtbot: QtBot, nic_example: Design) -> None:
    doc, scene, _ = make(qtbot, nic_example)
    doc.set_selection(["v5", "v6"])
    assert cut_selection(doc) == 2
    assert scene.item("v5") is None and doc.component("v6") is None
    assert doc.undo_stack.count() == 1
    doc.undo_stack.undo()
    assert doc.component("v5") is not None and "v6" in scene.host_item("h1").vm_ids  # type: ignore[union-attr]
    doc.undo_stack.redo()
    assert doc.component("v5") is None


def test_a_pasted_copy_gets_names_of_its_own_a_cut_keeps_them(qtbot: QtBot,
                                                              nic_example: Design) -> None:
    doc, _, _ = make(qtbot, nic_example)
    original = doc.name_of("v1")
    doc.set_selection(["v1"])
    copy_selection(doc)
    paste(doc)
    paste(doc)
    names = [c.name for c in doc.design.components]
    assert names[-2:] == [f"{original} 2", f"{original} 3"]
    assert len(set(names)) == len(names)
    doc.set_selection(["v2"])
    moved = doc.name_of("v2")
    cut_selection(doc)
    paste(doc)
    assert doc.design.components[-1].name == moved
