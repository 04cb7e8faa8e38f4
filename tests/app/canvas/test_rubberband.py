"""Rubber-band selection: a drag on empty canvas selects what the band touches, but a host
card or a box only when the band holds the whole of it; Ctrl adds to the selection."""

from __future__ import annotations

from PySide6.QtCore import QPointF
from pytestqt.qtbot import QtBot

from models.document.design import Design
from tests.app.canvas.drive import CTRL, LEFT, NONE, at, drag_scene, make


def test_a_band_round_some_vms_selects_them_not_their_host(qtbot: QtBot,
                                                          nic_example: Design) -> None:
    doc, scene, view = make(qtbot, nic_example)
    host, v1 = scene.host_item("h1"), scene.item("v1")
    assert host is not None and v1 is not None
    start = host.scene_body().bottomLeft() + QPointF(-30, 30)
    drag_scene(qtbot, view, start, v1.scene_body().center())
    assert {"v1", "v4", "v16"} <= set(doc.selection)  # the first column of the grid
    assert not {"v2", "n1", "h1"} & set(doc.selection)  # the band does not hold the card
    assert view.rubberBandRect().isNull()  # let go: no band left


def test_a_band_holding_the_whole_card_takes_the_host(qtbot: QtBot, nic_example: Design
                                                      ) -> None:
    doc, scene, view = make(qtbot, nic_example)
    host = scene.host_item("h1")
    assert host is not None
    body = host.scene_body()
    drag_scene(qtbot, view, body.bottomRight() + QPointF(20, 20),
               body.topLeft() + QPointF(-20, -20))
    assert {"h1", "n1", "v1", "v16"} <= set(doc.selection)
    assert "a1" not in doc.selection


def test_ctrl_and_a_band_add_to_the_selection(qtbot: QtBot, nic_example: Design) -> None:
    doc, scene, view = make(qtbot, nic_example)
    qtbot.mouseClick(view.viewport(), LEFT, NONE, at(view, "a1"))
    assert doc.selection == ["a1"]
    host, v1 = scene.host_item("h1"), scene.item("v1")
    assert host is not None and v1 is not None
    start = host.scene_body().bottomLeft() + QPointF(-30, 30)
    drag_scene(qtbot, view, start, v1.scene_body().center(), CTRL)
    assert "a1" in doc.selection and {"v1", "v4", "v16"} <= set(doc.selection)
    drag_scene(qtbot, view, start, v1.scene_body().center())  # without Ctrl: the band only
    assert "a1" not in doc.selection and "v1" in doc.selection
