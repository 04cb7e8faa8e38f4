"""The scene passes its mouse events to the interactions the view installed: each hook at its
moment, in the order installed; a hook that takes an event keeps it from the scene and from
the interactions after it."""

from __future__ import annotations

from PySide6.QtWidgets import QGraphicsSceneContextMenuEvent, QGraphicsSceneMouseEvent
from pytestqt.qtbot import QtBot

from app.canvas.protocol import Interaction
from app.canvas.scene import DesignScene
from models.document.design import Design
from tests.app.canvas.drive import LEFT, NONE, at, empty_spot, make, right_click


class Recorder(Interaction):
    """Writes down the hooks called (with what was selected then); takes presses when
    ``taking``."""

    def __init__(self, scene: DesignScene, name: str, taking: bool = False):
        self.scene, self.name, self.taking = scene, name, taking
        self.seen: list[str] = []

    def _note(self, hook: str) -> None:
        selected = ",".join(sorted(it.cid for it in self.scene.selected_components()))
        self.seen.append(f"{self.name}.{hook}[{selected}]")

    def press(self, event: QGraphicsSceneMouseEvent) -> bool:
        self._note("press")
        return self.taking

    def pressed(self, event: QGraphicsSceneMouseEvent) -> None:
        self._note("pressed")

    def released(self, event: QGraphicsSceneMouseEvent) -> None:
        self._note("released")

    def context_menu(self, event: QGraphicsSceneContextMenuEvent) -> bool:
        self._note("menu")
        return self.taking


def test_hooks_run_before_and_after_the_scene_in_the_order_installed(
        qtbot: QtBot, nic_example: Design) -> None:
    doc, scene, view = make(qtbot, nic_example)
    first, second = Recorder(scene, "a"), Recorder(scene, "b")
    scene.install(first)
    scene.install(second)
    qtbot.mouseClick(view.viewport(), LEFT, NONE, at(view, "a1"))
    assert first.seen == ["a.press[]", "a.pressed[a1]", "a.released[a1]"]  # after: selected
    assert second.seen == ["b.press[]", "b.pressed[a1]", "b.released[a1]"]
    assert doc.selection == ["a1"]


def test_a_hook_that_takes_the_press_keeps_it_from_the_scene_and_later_hooks(
        qtbot: QtBot, nic_example: Design) -> None:
    doc, scene, view = make(qtbot, nic_example)
    taker, later = Recorder(scene, "a", taking=True), Recorder(scene, "b")
    for interaction in (taker, later):
        scene.install(interaction)
    qtbot.mousePress(view.viewport(), LEFT, NONE, at(view, "a1"))
    assert taker.seen == ["a.press[]"] and later.seen == []
    assert doc.selection == []  # the scene did not select
    qtbot.mouseRelease(view.viewport(), LEFT, NONE, at(view, "a1"))  # not taken: all see it
    assert taker.seen[-1] == "a.released[]" and later.seen == ["b.released[]"]
    taker.seen.clear()
    later.seen.clear()
    right_click(view, empty_spot(view), lambda menu: None)
    assert taker.seen == ["a.menu[]"] and later.seen == []
