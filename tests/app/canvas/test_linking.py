"""Linking: Alt+drag (or any drag in link mode) from one item to another joins them; the kind
follows from the two kinds (Shift picks the other one), a pair the rules forbid is refused
with the reason on the status bar, and nothing moves."""

from __future__ import annotations

from PySide6.QtWidgets import QGraphicsLineItem
from pytestqt.qtbot import QtBot

from app.canvas.items import ComponentItem
from app.canvas.linking import infer_link
from models.document.design import Component, Design, Link
from tests.app.canvas.drive import (
    ALT,
    LEFT,
    SHIFT,
    at,
    drag,
    empty_spot,
    has,
    make,
    runs_on,
    undo_key,
)


def test_alt_drag_from_a_vm_to_a_host_runs_it_there_in_one_undo_step(
        qtbot: QtBot, nic_example: Design) -> None:
    doc, scene, view = make(qtbot, nic_example)
    doc.add_component(Component("h2", "host", "spare", x=300, y=250))
    steps = doc.undo_stack.count()
    v16 = doc.component("v16")
    assert v16 is not None
    was = (v16.x, v16.y)
    with qtbot.waitSignal(scene.status_message) as said:
        drag(qtbot, view, at(view, "v16"), at(view, "h2"), ALT)
    assert said.args[0].startswith("Linked: ") and "spare" in said.args[0]
    assert runs_on(doc, "v16") == ["h2"]  # its runs_on h1 replaced in the same step
    assert doc.undo_stack.count() == steps + 1  # and nothing moved: no move pushed
    assert (v16.x, v16.y) == was
    spare = scene.host_item("h2")
    assert spare is not None and spare.vm_ids == ["v16"]
    undo_key(qtbot, view)
    assert runs_on(doc, "v16") == ["h1"] and spare.vm_ids == []
    qtbot.waitUntil(lambda: scene.item("v16") is not None)  # back on its pill, in view
    assert scene.item("v16").pos() == scene.child_pos("v16")  # type: ignore[union-attr]
    undo_key(qtbot, view, redo=True)
    assert runs_on(doc, "v16") == ["h2"]


def test_an_illegal_link_is_refused_in_link_mode(qtbot: QtBot, nic_example: Design) -> None:
    doc, scene, view = make(qtbot, nic_example)
    doc.add_component(Component("s1", "site", "Paris", x=-300, y=-150))
    doc.add_component(Component("h2", "host", "spare", x=300, y=250))
    steps = doc.undo_stack.count()
    view.link_tool.link_mode = True  # View > Link Mode: any drag links
    with qtbot.waitSignal(scene.status_message) as said:
        drag(qtbot, view, at(view, "v1"), at(view, "s1"))
    assert said.args[0].startswith("Link refused") and "site" in said.args[0]
    assert not any("s1" in (lk.source, lk.target) for lk in doc.design.links)
    assert doc.undo_stack.count() == steps
    assert scene.item("v1") is not None and scene.item("v1").pos() == scene.child_pos("v1")  # type: ignore[union-attr]
    with qtbot.waitSignal(scene.status_message) as said:
        drag(qtbot, view, at(view, "h2"), at(view, "a1"))
    assert said.args[0].startswith("Linked: ") and has(doc, Link("h2", "a1", "storage"))
    assert doc.undo_stack.count() == steps + 1
    view.link_tool.link_mode = False
    spare = scene.item("h2")
    assert spare is not None
    was = spare.pos()
    drag(qtbot, view, at(view, "h2"), at(view, "a1"))  # link mode off: a drag moves
    assert spare.pos() != was and doc.undo_stack.count() == steps + 2


def test_shift_picks_the_other_link_a_pair_can_have(qtbot: QtBot, nic_example: Design
                                                    ) -> None:
    doc, _, view = make(qtbot, nic_example)
    doc.add_component(Component("h2", "host", "spare", x=300, y=250))
    drag(qtbot, view, at(view, "v2"), at(view, "h2"), ALT | SHIFT)
    assert has(doc, Link("v2", "h2", "ft_secondary_on"))
    assert runs_on(doc, "v2") == ["h1"]
    doc.undo_stack.undo()
    assert not has(doc, Link("v2", "h2", "ft_secondary_on"))
    doc.undo_stack.redo()
    assert has(doc, Link("v2", "h2", "ft_secondary_on"))


def test_a_link_let_go_over_empty_canvas_is_cancelled(qtbot: QtBot, nic_example: Design
                                                      ) -> None:
    doc, scene, view = make(qtbot, nic_example)
    links = list(doc.design.links)
    vp = view.viewport()
    qtbot.mousePress(vp, LEFT, ALT, at(view, "a1"))
    qtbot.mouseMove(vp, empty_spot(view))
    assert [it for it in scene.items() if isinstance(it, QGraphicsLineItem)]  # rubber line
    with qtbot.waitSignal(scene.status_message) as said:
        qtbot.mouseRelease(vp, LEFT, ALT, empty_spot(view))
    assert said.args == ["Link cancelled: release over another component"]
    assert doc.design.links == links and doc.undo_stack.count() == 0
    assert not [it for it in scene.items() if isinstance(it, QGraphicsLineItem)]


def test_the_link_kind_follows_from_the_two_kinds(nic_example: Design) -> None:
    v1, h1 = nic_example.component("v1"), nic_example.component("h1")
    assert v1 is not None and h1 is not None
    vm, host, site = (ComponentItem(c) for c in (v1, h1, Component("s1", "site", "Paris")))
    assert infer_link(vm, host) == Link("v1", "h1", "runs_on")
    assert infer_link(host, vm) == Link("v1", "h1", "runs_on")  # either way round
    assert infer_link(vm, host, alternate=True) == Link("v1", "h1", "ft_secondary_on")
    assert isinstance(infer_link(vm, site), str)  # no kind joins them: why, in words
