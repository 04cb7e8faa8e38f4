"""A prediction on the canvas: items coloured by their grade, the bottleneck badged, host
cards tallying their VMs' grades; a new prediction touches only the items whose grade
changed, and never rebuilds them."""

from __future__ import annotations

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from app.canvas.cards import DETAIL_ZOOM, TALLY
from app.canvas.items import NO_DATA, ComponentItem, badge_style
from app.canvas.layout import arrange_vms
from app.support import theme
from models.document.design import Design
from models.examples import bundled as examples
from models.examples.synth import large_design
from tests.app.canvas.drive import make


def count_set_level(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record every recolouring of a canvas item (the levels passed to set_level)."""
    calls: list[int] = []
    original = ComponentItem.set_level

    def counting(self: ComponentItem, level: int) -> None:
        calls.append(level)
        original(self, level)

    monkeypatch.setattr(ComponentItem, "set_level", counting)
    return calls


def test_prediction_colours_items_and_badges_the_bottleneck(qtbot: QtBot,
                                                            nic_example: Design) -> None:
    doc, scene, _ = make(qtbot, nic_example)
    p = doc.prediction
    assert p is not None
    top = p.bottlenecks(1)[0]
    badged = [it.cid for it in scene.component_items() if it.badge]
    assert badged == [top.component]
    array = scene.item("a1")
    assert array is not None and array.level != NO_DATA
    busy = array.level
    with qtbot.waitSignal(doc.prediction_updated):
        doc.set_value("vm", "workload.io_oio", 1)
    assert array.level <= 20
    with qtbot.waitSignal(doc.prediction_updated):
        doc.undo_stack.undo()
    assert array.level == busy


def test_badge_grades_with_the_bottlenecks_utilisation(qtbot: QtBot) -> None:
    """A busiest resource at 14% gets a slate 'i', not an alarming red '!'."""
    doc, scene, _ = make(qtbot, examples.load("docker-cloudstone"))
    p = doc.prediction
    assert p is not None
    top = p.bottlenecks(1)[0]
    assert top.util < 0.7
    item = scene.item(top.component)
    assert item is not None and item.badge and item.badge_style[1] == "i"
    with qtbot.waitSignal(doc.prediction_updated):
        doc.set_value("vm", "workload.req_per_s", 3200.0)  # the host busy (about 80%)
    item = scene.item(doc.prediction.bottlenecks(1)[0].component)  # type: ignore[union-attr]
    assert item is not None and item.badge and item.badge_style[1] == "!"
    assert badge_style(1.2)[0] != badge_style(0.8)[0] != badge_style(0.1)[0]
    assert badge_style(0.9996) == badge_style(1.0)  # reads "100%": saturated


def test_repaint_touches_only_changed_items(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
                                            ) -> None:
    doc, scene, _ = make(qtbot, large_design(400, 10, 4))
    p = doc.prediction
    assert p is not None
    calls = count_set_level(monkeypatch)
    scene.apply_prediction(p)
    assert calls == []


def test_two_thousand_vms_open_as_cards_and_a_knob_recolours_in_place(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """Scale behaviour (timings live in `make bench`): far out, each host card draws its VMs
    as one aggregate (no VM items); a knob change re-tallies the cards and recolours
    existing items, never rebuilds them."""
    design = large_design(2000)
    for cid, (x, y) in arrange_vms(design).items():
        c = design.component(cid)
        assert c is not None
        c.x, c.y = x, y
    doc, scene, view = make(qtbot, design)
    assert view.zoom < DETAIL_ZOOM
    assert not [it for it in scene.component_items() if it.kind == "vm"]
    hosts = [scene.host_item(h.id) for h in design.of_kind("host")]
    assert all(h is not None and int(h.tally.sum()) == len(h.vm_ids) == 40 for h in hosts)
    items_before = {id(i) for i in scene.component_items()}
    before = doc.prediction
    assert before is not None
    doc.set_value("vm", "workload.io_oio", 1, merge_key="drag")
    after = doc.evaluate_now()
    assert {id(i) for i in scene.component_items()} == items_before
    grades = dict(zip(after.vms.ids, theme.util_grades(after.vms.cpu_util), strict=True))
    for h in hosts:  # each card's tally counts its VMs' grades in the new prediction
        assert h is not None
        expect = np.bincount([int(grades[v]) + 1 for v in h.vm_ids], minlength=TALLY)
        assert (h.tally == expect).all()
    scene.apply_prediction(before)
    calls = count_set_level(monkeypatch)
    scene.apply_prediction(after)  # what a knob change costs the canvas
    assert 0 < len(calls) < len(items_before)
    view.viewport().repaint()
