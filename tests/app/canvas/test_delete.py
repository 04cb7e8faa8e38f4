"""Delete: the selected components go with every link touching them, and the selected lines
with them, in one undo step."""

from __future__ import annotations

from PySide6.QtCore import QPointF
from pytestqt.qtbot import QtBot

from app.canvas.delete import delete_selection
from models.document.design import Component, Design, Link
from tests.app.canvas.drive import CTRL, LEFT, NONE, at, has, make, undo_key


def test_delete_clicked_components_and_a_line_in_one_undo_step(qtbot: QtBot,
                                                               nic_example: Design) -> None:
    doc, scene, view = make(qtbot, nic_example)
    doc.add_components([Component("h2", "host", "spare", x=700, y=0)],
                       [Link("h2", "a1", "storage")])
    view.fit()
    storage = Link("h2", "a1", "storage")
    line = scene.link_item(storage)
    assert line is not None
    a, b = line.line().p1(), line.line().p2()
    on_line = next(p for t in range(5, 100, 5) if scene.pick(p := QPointF(a + (b - a) * t / 100))
                   is line)
    vp = view.viewport()
    qtbot.mouseClick(vp, LEFT, NONE, at(view, "v1"))
    qtbot.mouseClick(vp, LEFT, CTRL, at(view, "v2"))
    qtbot.mouseClick(vp, LEFT, CTRL, view.mapFromScene(on_line))
    assert sorted(doc.selection) == ["v1", "v2"] and scene.selected_links() == [storage]
    steps = doc.undo_stack.count()
    assert delete_selection(scene) == 3  # what Edit > Delete (the Delete key) calls
    assert doc.component("v1") is None and doc.component("v2") is None
    assert not doc.links_of("v1") and not has(doc, storage)
    assert scene.item("v1") is None and scene.link_item(storage) is None
    assert doc.undo_stack.count() == steps + 1
    undo_key(qtbot, view)
    assert has(doc, storage) and has(doc, Link("v1", "a1", "disk_on"))
    assert {"v1", "v2"} <= set(scene.host_item("h1").vm_ids)  # type: ignore[union-attr]
    undo_key(qtbot, view, redo=True)
    assert doc.component("v1") is None and not has(doc, storage)


def test_nothing_selected_deletes_nothing(qtbot: QtBot, nic_example: Design) -> None:
    doc, scene, _ = make(qtbot, nic_example)
    assert delete_selection(scene) == 0
    assert doc.undo_stack.count() == 0
