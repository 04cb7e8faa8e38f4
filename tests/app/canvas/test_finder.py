"""The finder (Ctrl+F): type part of a name, press Enter, and the component is selected and
brought into view, zoomed in until its name reads."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.canvas.cards import DETAIL_ZOOM
from models.document.design import Design
from tests.app.canvas.drive import make


def test_enter_selects_and_reveals_the_named_vm(qtbot: QtBot, nic_example: Design) -> None:
    doc, scene, view = make(qtbot, nic_example)
    view.set_zoom(0.1)
    finder = view.finder
    finder.setFocus()
    qtbot.keyClicks(finder, "ioanalyzer12")
    assert finder.matches("IOANALYZER1") == ["v1", "v10", "v11", "v12", "v13", "v14", "v15",
                                             "v16"]  # any case, design order
    with qtbot.waitSignal(scene.status_message) as said:
        qtbot.keyClick(finder, Qt.Key.Key_Return)
    assert said.args == ["Found ioanalyzer12 on Dell R720"]
    assert doc.selection == ["v12"] and view.zoom >= DETAIL_ZOOM
    item = scene.item("v12")
    assert item is not None and item.isSelected()
    assert view.mapToScene(view.viewport().rect()).boundingRect().contains(item.scene_body())


def test_a_name_nothing_has_is_said_on_the_status_bar(qtbot: QtBot, nic_example: Design
                                                      ) -> None:
    doc, scene, view = make(qtbot, nic_example)
    with qtbot.waitSignal(scene.status_message) as said:
        assert not view.finder.go_to("no such vm")
    assert said.args == ["Nothing on the canvas is called 'no such vm'"]
    assert doc.selection == []


def test_the_list_follows_renames(qtbot: QtBot, nic_example: Design) -> None:
    doc, _, view = make(qtbot, nic_example)
    finder = view.finder
    assert finder.matches("web01") == []
    doc.set_value("id:v7", "name", "web01")
    assert finder.matches("web01") == ["v7"]
    doc.undo_stack.undo()
    assert finder.matches("web01") == []


def test_escape_clears_and_gives_the_canvas_the_focus(qtbot: QtBot, nic_example: Design
                                                     ) -> None:
    _, _, view = make(qtbot, nic_example)
    view.activateWindow()
    qtbot.waitUntil(view.isActiveWindow)
    view.focus_finder()
    qtbot.waitUntil(view.finder.hasFocus)
    qtbot.keyClicks(view.finder, "Dell")
    qtbot.keyClick(view.finder, Qt.Key.Key_Escape)
    assert view.finder.text() == ""
    qtbot.waitUntil(lambda: QApplication.focusWidget() is view)


def test_the_finder_selects_a_vm_of_an_estate_and_centres_its_item(
        qtbot: QtBot, estate_design: Design) -> None:
    doc, scene, view = make(qtbot, estate_design.copy())
    finder = view.finder
    finder.setFocus()
    qtbot.keyClicks(finder, "vm05005")
    assert finder.matches("vm05005") == ["v5005"]
    with qtbot.waitSignal(scene.status_message) as said:
        qtbot.keyClick(finder, Qt.Key.Key_Return)
    assert "Found vm05005 on esx005" in said.args[0]
    assert doc.selection == ["v5005"]
    item = scene.item("v5005")
    assert item is not None and item.isSelected() and view.zoom >= DETAIL_ZOOM
    centre = view.mapToScene(view.viewport().rect().center())
    assert item.scene_body().adjusted(-20, -20, 20, 20).contains(centre)
    assert not finder.go_to("no such vm")
