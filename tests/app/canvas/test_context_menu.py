"""The right-click menu: on a component, select what it is linked to, remove one of its
links or delete the selection; on a line, remove that link; on empty canvas, no menu.  Each
edit is one undo step."""

from __future__ import annotations

from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from models.document.design import Design, Link
from tests.app.canvas.drive import action, at, empty_spot, has, make, right_click, undo_key


def test_remove_one_of_a_vms_links_from_its_menu(qtbot: QtBot, nic_example: Design) -> None:
    doc, _, view = make(qtbot, nic_example)
    texts: list[str] = []

    def remove_first(menu: QMenu) -> None:
        sub = action(menu, "Remove link").menu()
        assert isinstance(sub, QMenu)
        texts.extend(a.text() for a in sub.actions())
        sub.actions()[0].trigger()

    assert right_click(view, at(view, "v1"), remove_first)
    assert len(texts) == 2 and "ioanalyzer1" in texts[0] and "Dell R720" in texts[0]
    assert doc.selection == ["v1"]  # the right-click selected it
    assert not has(doc, Link("v1", "h1", "runs_on")) and len(doc.links_of("v1")) == 1
    undo_key(qtbot, view)
    assert has(doc, Link("v1", "h1", "runs_on"))
    undo_key(qtbot, view, redo=True)
    assert not has(doc, Link("v1", "h1", "runs_on"))


def test_select_linked_selects_what_a_component_is_linked_to(qtbot: QtBot,
                                                             nic_example: Design) -> None:
    doc, _, view = make(qtbot, nic_example)
    assert right_click(view, at(view, "v2"),
                       lambda menu: action(menu, "Select linked (2)").trigger())
    assert doc.selection == ["v2", "h1", "a1"]


def test_remove_a_line_from_its_menu(qtbot: QtBot, nic_example: Design) -> None:
    doc, scene, view = make(qtbot, nic_example)
    storage = Link("h1", "a1", "storage")
    line = scene.link_item(storage)
    assert line is not None
    a, b = line.line().p1(), line.line().p2()
    on_line = next(p for t in range(5, 100, 5) if scene.pick(p := QPointF(a + (b - a) * t / 100))
                   is line)  # where nothing covers it
    assert right_click(view, view.mapFromScene(on_line),
                       lambda menu: action(menu, "Remove link: ").trigger())
    assert not has(doc, storage) and scene.link_item(storage) is None
    doc.undo_stack.undo()
    assert has(doc, storage) and scene.link_item(storage) is not None


def test_delete_from_the_menu_deletes_the_selection(qtbot: QtBot, nic_example: Design
                                                    ) -> None:
    doc, _, view = make(qtbot, nic_example)
    doc.set_selection(["v1", "v2"])
    assert right_click(view, at(view, "v1"),
                       lambda menu: action(menu, "Delete 2 component(s)").trigger())
    assert doc.component("v1") is None and doc.component("v2") is None
    assert doc.undo_stack.count() == 1
    undo_key(qtbot, view)
    assert doc.component("v1") is not None and doc.component("v2") is not None


def test_no_menu_over_empty_canvas(qtbot: QtBot, nic_example: Design) -> None:
    doc, _, view = make(qtbot, nic_example)
    assert right_click(view, empty_spot(view), lambda menu: None) == []
    assert doc.selection == [] and doc.undo_stack.count() == 0
