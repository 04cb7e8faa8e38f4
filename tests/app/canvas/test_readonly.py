"""A refresh kept as a scenario on the canvas: switched to, the canvas shows the scenario's
hosts (not those it removed, and laid out so that its larger cards overlap nothing) with the
VMs where the refresh placed them, coloured by the scenario's prediction, under a note that
says so.  It can be looked at (selected, hovered)
but not edited: a drag moves nothing, and Delete, a link, a drop and a paste are refused with
the reason on the status bar.  Switching back draws the base design again; switching changes
nothing in it, and Ctrl+Z keeps working in the refresh."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from pytestqt.qtbot import QtBot

from app.canvas.clipboard import copy_selection, cut_selection, paste
from app.canvas.delete import delete_selection
from app.canvas.drop import preset_mime
from app.canvas.scene import DesignScene
from app.canvas.tooltips import component_tooltip
from app.canvas.view import DesignView
from app.document.design_document import DesignDocument
from app.support.theme import util_grades
from models.analysis.refresh import refresh, target
from models.document.codec import design_to_dict
from models.document.design import Design, Rebuild, rebuilt
from models.io.arrange import arrange_in_place, overlaps
from models.io.importers.rvtools import import_rvtools
from tests.app.canvas.drive import (
    ALT,
    LEFT,
    NONE,
    action,
    at,
    drag,
    drag_scene,
    drop,
    empty_spot,
    make,
    right_click,
    undo_key,
)
from tests.estates import estate as generated_estate
from tests.estates import write_csv_folder
from tests.refresh_estate import estate

REFRESH = "Refresh to R760"
BASE_HOSTS = ["dmz-h0", "dmz-h1", "prod-h0", "prod-h1", "prod-h2", "prod-h3"]
REFUSED = f"the canvas shows the refresh ‘{REFRESH}’; switch to the base design to edit it"


@pytest.fixture(scope="module")
def laid_out() -> Design:
    """The old estate (prod: four hosts, dmz: two), laid out."""
    return arrange_in_place(estate())


@pytest.fixture(scope="module")
def kept(laid_out: Design) -> Rebuild:
    """Its refresh to Dell PowerEdge R760 (four hosts for six), made once."""
    return refresh(laid_out, target("dell-r760", "Intel Xeon Gold 6548Y+", 1024)).rebuild


def new_hosts(rebuild: Rebuild) -> dict[str, str]:
    """The refresh's hosts: id -> name."""
    return {c.id: c.name for c in rebuild.components if c.kind == "host"}


def open_refresh(qtbot: QtBot, laid_out: Design, kept: Rebuild
                 ) -> tuple[DesignDocument, DesignScene, DesignView]:
    """The estate on a canvas with its refresh kept as a scenario (one undo step), the base
    design still active."""
    doc, scene, view = make(qtbot, laid_out.copy())
    doc.add_scenario(REFRESH, (), kept.copy())
    return doc, scene, view


def switch(qtbot: QtBot, doc: DesignDocument, name: str) -> None:
    """Choose scenario ``name`` (as the scenario bar does) and wait for its prediction."""
    with qtbot.waitSignal(doc.prediction_updated):
        doc.set_scenario(name)


def said_by(scene: DesignScene) -> list[str]:
    """What the scene says on the status bar from now on."""
    said: list[str] = []
    scene.status_message.connect(said.append)
    return said


def test_the_refresh_shows_its_hosts_with_the_vms_it_placed_and_the_base_comes_back(
        qtbot: QtBot, laid_out: Design, kept: Rebuild) -> None:
    doc, scene, view = open_refresh(qtbot, laid_out, kept)
    before, steps = design_to_dict(doc.design), doc.undo_stack.count()
    assert sorted(scene.host_items()) == BASE_HOSTS and not view.banner.isVisible()
    switch(qtbot, doc, REFRESH)
    new = new_hosts(kept)
    assert len(new) == 4
    cards = scene.host_items()
    assert sorted(cards) == sorted(new)  # the scenario's hosts, by their names
    assert {hid: card.title for hid, card in cards.items()} == new
    assert not any(scene.shows(h) for h in BASE_HOSTS)  # the hosts it removed are gone
    placed = {lk.source: lk.target for lk in kept.links if lk.kind == "runs_on"}
    assert len(placed) == len(doc.design.of_kind("vm")) == 48
    for vm, host in placed.items():  # every VM on the card of the host the refresh gave it
        card = scene.holder(vm)
        assert card is not None and card.cid == host and vm in card.vm_ids
    p = doc.prediction
    assert p is not None and p.scenario == REFRESH and sorted(p.hosts.ids) == sorted(new)
    grades = util_grades(p.hosts.cpu_util)  # each card coloured by the scenario's figures
    assert all(cards[hid].level == int(grades[i]) >= 0 for i, hid in enumerate(p.hosts.ids))
    hid, name = next(iter(new.items()))
    tip = component_tooltip(doc, hid)  # hovered: its name and its figures in the scenario
    assert tip.startswith(f"<b>{name}</b>") and "CPU" in tip and "20 VMs" in tip
    assert view.banner.isVisible()
    assert view.banner.text() == (
        f"‘{REFRESH}’: 6 hosts of prod, dmz replaced by 4 hosts of Dell PowerEdge R760, 2 x"
        " Intel Xeon Gold 6548Y+ (32 cores), 1 TB. The canvas shows the scenario's hosts;"
        " switch to the base design to edit them.")
    qtbot.mouseClick(view.viewport(), LEFT, NONE, at(view, hid))  # a click selects it
    assert doc.selection == [hid] and cards[hid].isSelected()
    switch(qtbot, doc, "base")
    assert sorted(scene.host_items()) == BASE_HOSTS
    assert scene.holder("prod-v0") is scene.host_item("prod-h0")
    assert doc.selection == []  # the refresh's host is not on the base design
    assert not view.banner.isVisible()
    assert design_to_dict(doc.design) == before and doc.undo_stack.count() == steps
    switch(qtbot, doc, REFRESH)  # the note again; a click on it puts it away
    assert view.banner.isVisible()
    qtbot.mouseClick(view.banner, LEFT)
    assert not view.banner.isVisible() and doc.selection == []


def test_an_estates_refresh_lays_its_larger_cards_out_apart(
        qtbot: QtBot, tmp_path: Path) -> None:
    """34 hosts of an RVTools export replaced by 19: the refresh puts each new host where an
    old one was, but its card holds more VMs and is larger; on the canvas no two cards
    overlap, and each card stays inside its cluster's box."""
    folder = write_csv_folder(tmp_path / "export", generated_estate(34, 800, seed=7).sheets)
    design = import_rvtools(folder)[0]
    kept = refresh(design, target("dell-r760", "Intel Xeon Gold 6548Y+", 1024)).rebuild
    assert overlaps(rebuilt(design, kept)) > 0  # where the refresh put them
    doc, scene, _ = make(qtbot, design)
    doc.add_scenario(REFRESH, (), kept)
    before = design_to_dict(doc.design)
    switch(qtbot, doc, REFRESH)
    cards = list(scene.host_items().values())
    assert sorted(c.cid for c in cards) == sorted(new_hosts(kept)) and len(cards) == 19
    bodies = [c.scene_body() for c in cards]
    assert not [(a.cid, b.cid) for i, a in enumerate(cards) for j, b in enumerate(cards)
                if i < j and bodies[i].intersects(bodies[j])]
    for card in cards:
        [cluster] = [k for k in scene.holdings.member_of[card.cid]
                     if (box := scene.box_item(k)) is not None and box.kind == "cluster"]
        assert scene.box_item(cluster).scene_body().contains(card.scene_body())  # type: ignore[union-attr]
    assert design_to_dict(doc.design) == before  # laid out in the scenario's view alone


def test_a_drag_in_the_refresh_moves_nothing_and_says_why(
        qtbot: QtBot, laid_out: Design, kept: Rebuild) -> None:
    doc, scene, view = open_refresh(qtbot, laid_out, kept)
    switch(qtbot, doc, REFRESH)
    before, steps = design_to_dict(doc.design), doc.undo_stack.count()
    hid = next(iter(new_hosts(kept)))
    card = scene.host_item(hid)
    assert card is not None
    was = card.pos()
    said = said_by(scene)
    start = at(view, hid) + QPoint(20, 20)
    drag(qtbot, view, start, start + QPoint(150, 80))
    assert card.pos() == was  # not even for the length of the drag
    assert said and said[0] == f"Not moved: {REFUSED}"
    box = scene.box_item("prod")  # a cluster the base design holds: not moved either
    assert box is not None
    grip = box.scene_body().topLeft() + QPointF(40, 12)  # on its name band
    box_was = box.pos()
    drag_scene(qtbot, view, grip, grip + QPointF(120, 90))
    assert box.pos() == box_was
    assert design_to_dict(doc.design) == before and doc.undo_stack.count() == steps


def test_delete_link_drop_cut_and_paste_are_refused_with_the_reason(
        qtbot: QtBot, laid_out: Design, kept: Rebuild) -> None:
    doc, scene, view = open_refresh(qtbot, laid_out, kept)
    doc.set_selection(["prod-v0"])
    assert copy_selection(doc) == 1  # copied on the base design, to paste in the refresh
    switch(qtbot, doc, REFRESH)
    assert doc.selection == ["prod-v0"]  # a VM both show stays selected
    before, steps = design_to_dict(doc.design), doc.undo_stack.count()
    said = said_by(scene)
    assert delete_selection(scene) == 0  # what the context menu's Delete calls
    assert said == [f"Not deleted: {REFUSED}"]
    assert cut_selection(doc) == 0
    assert paste(doc) == f"Not pasted: {REFUSED}"
    hid, other = list(new_hosts(kept))[:2]
    said.clear()
    drag(qtbot, view, at(view, hid) + QPoint(20, 20), at(view, other) + QPoint(20, 20), ALT)
    assert said[0] == f"Not linked: {REFUSED}"
    said.clear()
    drop(view, preset_mime("web-vm"), empty_spot(view))
    assert said == [f"Not added: {REFUSED}"]
    said.clear()
    [menu] = right_click(view, at(view, hid) + QPoint(20, 20), lambda _menu: None)
    assert said == [f"Delete and Remove link are off: {REFUSED}"]
    assert not action(menu, "Delete").isEnabled() and not action(menu, "Remove link").isEnabled()
    assert action(menu, "Select linked").text() == "Select linked (21)"  # its cluster, 20 VMs
    assert doc.component("prod-v0") is not None and scene.shows("prod-v0")
    assert design_to_dict(doc.design) == before and doc.undo_stack.count() == steps


def test_ctrl_z_in_the_refresh_undoes_base_edits_and_the_canvas_follows(
        qtbot: QtBot, laid_out: Design, kept: Rebuild) -> None:
    doc, scene, view = open_refresh(qtbot, laid_out, kept)
    h0 = doc.component("prod-h0")
    assert h0 is not None
    home = (h0.x, h0.y)
    start = at(view, "prod-h0") + QPoint(20, 20)
    drag(qtbot, view, start, start + QPoint(0, 40))  # base edits: a host moved ...
    assert (h0.x, h0.y) != home
    doc.set_selection(["prod-v1"])
    assert delete_selection(scene) == 1  # ... and a VM deleted
    steps = doc.undo_stack.count()
    switch(qtbot, doc, REFRESH)
    assert doc.undo_stack.count() == steps  # switching is no edit
    new = new_hosts(kept)
    assert scene.holder("prod-v1") is None
    undo_key(qtbot, view)  # the VM comes back, on the host the refresh gave it
    assert doc.component("prod-v1") is not None
    qtbot.waitUntil(lambda: (card := scene.holder("prod-v1")) is not None
                    and card.cid in new)
    assert sorted(scene.host_items()) == sorted(new)
    undo_key(qtbot, view)  # the host the canvas no longer shows goes home
    assert (h0.x, h0.y) == home
    undo_key(qtbot, view)  # the refresh itself: back on the base design
    assert doc.scenario == "base" and doc.design.scenarios == []
    assert sorted(scene.host_items()) == BASE_HOSTS and not view.banner.isVisible()
    undo_key(qtbot, view, redo=True)
    assert [s.name for s in doc.design.scenarios] == [REFRESH]
    switch(qtbot, doc, REFRESH)
    assert sorted(scene.host_items()) == sorted(new)
    assert view.banner.isVisible()


def test_edits_in_the_refresh_reach_the_canvas_without_drawing_it_again(
        qtbot: QtBot, laid_out: Design, kept: Rebuild) -> None:
    """A knob step (the scenario's override) leaves the shown design as it was made; a
    rename of a cluster the refresh keeps reaches its box, and its undo too."""
    doc, scene, view = open_refresh(qtbot, laid_out, kept)
    switch(qtbot, doc, REFRESH)
    shown = doc.shown_design()
    with qtbot.waitSignal(doc.prediction_updated):
        doc.set_value("vm", "workload.cpu_pct", 40.0, merge_key="drag")
    assert doc.shown_design() is shown  # not made again at every step of a slider
    box = scene.box_item("prod")
    assert box is not None
    doc.set_value("id:prod", "name", "production")
    assert box.title == "production" and scene.box_item("prod") is box
    undo_key(qtbot, view)
    assert box.title == "prod" and scene.box_item("prod") is box
    assert sorted(scene.host_items()) == sorted(new_hosts(kept))


def test_a_refresh_is_inspected_but_not_edited_in_the_window(
        qtbot: QtBot, laid_out: Design, kept: Rebuild) -> None:
    """In the main window the Delete key on a refresh's host leaves the reason on the status
    bar, not the Edit menu's own "Nothing selected"."""
    from app.window.main_window import MainWindow  # noqa: PLC0415

    window = MainWindow(DesignDocument(laid_out.copy()), remember_layout=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    doc, view = window.document, window.view
    doc.add_scenario(REFRESH, (), kept.copy())
    switch(qtbot, doc, REFRESH)
    steps = doc.undo_stack.count()
    hid, name = next(iter(new_hosts(kept).items()))
    qtbot.mouseClick(view.viewport(), LEFT, NONE, at(view, hid) + QPoint(20, 20))
    assert doc.selection == [hid]
    assert window.inspector.title.text().startswith(f"Host: {name}")
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() == f"Not deleted: {REFUSED}")
    assert doc.undo_stack.count() == steps and window.scene.host_item(hid) is not None
    # Edit > Cut, Edit > Select All and View > Arrange Design, from the window's menus
    window.cut_action.trigger()
    assert window.statusBar().currentMessage() == f"Not cut: {REFUSED}"
    window.arrange_action.trigger()
    assert window.statusBar().currentMessage() == f"Not arranged: {REFUSED}"
    assert doc.undo_stack.count() == steps
    window.select_all_action.trigger()
    assert set(doc.selection) >= set(new_hosts(kept))
    assert not set(doc.selection) & set(kept.removed)


def test_switching_into_and_out_of_a_refresh_fits_the_view_to_what_it_shows(
        qtbot: QtBot, laid_out: Design, kept: Rebuild) -> None:
    from app.window.main_window import MainWindow  # noqa: PLC0415

    window = MainWindow(DesignDocument(laid_out.copy()), remember_layout=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    doc, view = window.document, window.view
    doc.add_scenario(REFRESH, (), kept.copy())
    fits: list[int] = []
    original = view.fit

    def fit() -> None:
        fits.append(1)
        original()

    view.fit = fit  # type: ignore[method-assign]
    switch(qtbot, doc, REFRESH)
    assert len(fits) == 1
    switch(qtbot, doc, "base")
    assert len(fits) == 2
