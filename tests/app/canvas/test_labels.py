"""Names read at every zoom: every bundled example opened in the main window at 1366 x 768
(and the stretched cluster and the branch office at 1600 x 1000) names every host, array,
site and library at fit-to-view, and every VM has its own readable label or is counted in
its host card's aggregate; a name is cut only where the tooltip has it whole."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.canvas.cards import HostItem
from app.canvas.items import MIN_SMALL_PX, MIN_TITLE_PX, ComponentItem
from app.canvas.tooltips import component_tooltip
from app.document.design_document import DesignDocument
from app.window.main_window import MainWindow
from models.analysis import rebuild
from models.examples import bundled as examples

NAMED = ("host", "storage_array", "site", "cluster", "content_library")


def open_window(qtbot: QtBot, name: str, width: int, height: int) -> MainWindow:
    window = MainWindow(DesignDocument(examples.load(name)), remember_layout=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    window.resize(width, height)
    window.show()
    qtbot.waitExposed(window)
    for _ in range(3):  # the deferred fit, once the docks have their sizes
        QApplication.processEvents()
    return window


def reads(item: ComponentItem, lod: float) -> str:
    """Why ``item``'s name does not read at ``lod`` ("" when it does)."""
    shown = item.shown_title(lod)
    if shown != item.title:
        if not shown.endswith("…") or len(shown) < 4:
            return f"{item.cid}: {shown!r} for {item.title!r}"
        if item.title not in component_tooltip(item.scene().document, item.cid):  # type: ignore[attr-defined]
            return f"{item.cid}: cut and not in its tooltip"
    least = MIN_SMALL_PX if item.kind in ("vm", "nic") else MIN_TITLE_PX
    px = item.title_font(lod).pixelSize() * lod
    return "" if px >= least - 0.5 else f"{item.cid}: {px:.1f} px on screen"


def check_canvas(window: MainWindow) -> None:
    view, scene, doc = window.view, window.scene, window.document
    lod = view.zoom
    seen = view.mapToScene(view.viewport().rect()).boundingRect()
    problems = []
    for comp in doc.design.components:
        item = scene.item(comp.id)
        if comp.kind in NAMED:
            assert item is not None, comp.id
            if not seen.intersects(item.scene_body()):
                problems.append(f"{comp.id}: out of view")
            elif why := reads(item, lod):
                problems.append(why)
        elif comp.kind == "vm":
            host = scene.holder(comp.id)
            if item is not None:  # its own pill, with its name
                if why := reads(item, lod):
                    problems.append(why)
            elif not (isinstance(host, HostItem) and host.aggregate_reads(lod)):
                problems.append(f"{comp.id}: neither named nor counted")
    assert not problems, f"at zoom {lod:.2f}: " + "; ".join(problems)


@pytest.mark.parametrize("name", examples.names())
def test_every_example_is_named_at_fit_to_view_on_a_small_screen(qtbot: QtBot,
                                                                  name: str) -> None:
    window = open_window(qtbot, name, 1366, 768)
    check_canvas(window)


@pytest.mark.parametrize("name", ["stretched-vsan", "vdi-pcoip"])
def test_the_sites_examples_name_their_hosts_at_1600_by_1000(qtbot: QtBot, name: str) -> None:
    window = open_window(qtbot, name, 1600, 1000)
    check_canvas(window)
    boxes = [it for it in window.scene.container_items() if it.members]
    hosts = [window.scene.host_item(h.id) for h in window.document.design.of_kind("host")]
    assert boxes and all(any(b.scene_body().contains(h.scene_body()) for b in boxes)
                         for h in hosts if h is not None)  # sites hold their hosts


def test_after_goal_seek_rebuilds_the_design_the_view_refits_and_still_names_all(
        qtbot: QtBot) -> None:
    """Goal seek > Apply swaps the design's contents: the canvas is rebuilt, the view fits
    the new design and every name still reads."""
    from app.panels.analysis.common import place_rebuilt  # noqa: PLC0415

    window = open_window(qtbot, "stretched-vsan", 1366, 768)
    doc = window.document
    new, _ = rebuild(doc.design, n_hosts=14)
    place_rebuilt(doc.design, new)
    zoom = window.view.zoom
    doc.replace_contents(new, "Apply goal seek: 14 hosts")
    QApplication.processEvents()
    assert len(doc.design.of_kind("host")) == 14
    assert window.view.zoom != zoom  # refitted to the larger design
    view = window.view
    everything = QRectF()
    for it in window.scene.component_items():
        everything = everything.united(it.scene_body())
    assert view.mapToScene(view.viewport().rect()).boundingRect().contains(everything)
    check_canvas(window)
