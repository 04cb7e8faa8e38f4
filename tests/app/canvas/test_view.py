"""The view: zoom within its limits, fit the design, bring a component into view."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from app.canvas.cards import DETAIL_ZOOM
from models.document.design import Design
from tests.app.canvas.drive import make


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


def test_reveal_zooms_in_on_a_vm_until_it_has_its_item(qtbot: QtBot, nic_example: Design
                                                       ) -> None:
    _, scene, view = make(qtbot, nic_example)
    view.set_zoom(0.1)
    assert scene.item("v9") is None  # drawn in its card's aggregate
    assert view.reveal("v9")
    item = scene.item("v9")
    assert item is not None and view.zoom >= DETAIL_ZOOM
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    assert shown.contains(item.scene_body())
    assert not view.reveal("nothing")
