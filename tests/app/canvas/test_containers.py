"""Sites (and clusters) are boxes that hold their hosts: dragging a site carries what it holds
in one undo step, a host let go in another site's box moves there, a host dropped from the
palette into a box is placed at that site, and a site's lines run from its edge."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, Qt
from pytestqt.qtbot import QtBot

from app.canvas.cards import ContainerItem
from app.canvas.drop import preset_mime
from app.canvas.scene import DesignScene
from app.canvas.view import DesignView
from app.document.design_document import DesignDocument
from models.document.design import Component, Link
from models.document.schema import KINDS
from models.examples import bundled as examples
from models.io.placement import BOXES
from tests.app.canvas.test_canvas import drop, make


def positions(doc: DesignDocument) -> dict[str, tuple[float, float]]:
    return {c.id: (c.x, c.y) for c in doc.design.components}


def site_of(doc: DesignDocument, host: str) -> str:
    return next(lk.target for lk in doc.links_of(host) if lk.kind == "located_at")


def box(scene: DesignScene, cid: str) -> ContainerItem:
    item = scene.box_item(cid)
    assert item is not None
    return item


def drag(qtbot: QtBot, view: DesignView, start: QPointF, end: QPointF) -> None:
    vp = view.viewport()
    a, b = view.mapFromScene(start), view.mapFromScene(end)
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, a)
    for k in range(1, 5):
        qtbot.mouseMove(vp, a + (b - a) * k / 4)
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, b)


def test_dragging_a_site_by_its_name_moves_what_it_holds_in_one_undo_step(
        qtbot: QtBot) -> None:
    doc, scene, view = make(qtbot, examples.load("stretched-vsan"))
    site = box(scene, "siteA")
    held = [h.id for h in doc.design.of_kind("host") if site_of(doc, h.id) == "siteA"]
    others = [h.id for h in doc.design.of_kind("host") if h.id not in held]
    vms = [lk.source for lk in doc.design.links if lk.kind == "runs_on" and lk.target in held]
    before = positions(doc)
    grip = site.scene_body().topLeft() + QPointF(40, 12)  # on its name band
    drag(qtbot, view, grip, grip + QPointF(120, 90))
    assert doc.undo_stack.count() == 1
    after = positions(doc)
    dx, dy = after[held[0]][0] - before[held[0]][0], after[held[0]][1] - before[held[0]][1]
    assert abs(dx) > 50 and abs(dy) > 30
    for cid in held + vms:  # the hosts and their VMs, by the same distance
        assert after[cid] == pytest.approx((before[cid][0] + dx, before[cid][1] + dy))
    assert all(after[h] == before[h] for h in others)
    assert all(site.scene_body().contains(scene.host_item(h).scene_body())  # type: ignore[union-attr]
               for h in held)
    doc.undo_stack.undo()
    assert positions(doc) == before
    assert scene.host_item(held[0]).pos() == QPointF(*before[held[0]])  # type: ignore[union-attr]


def test_a_host_let_go_in_another_sites_box_moves_there_in_one_undo_step(
        qtbot: QtBot) -> None:
    doc, scene, view = make(qtbot, examples.load("stretched-vsan"))
    lone = scene.host_item("esx05")  # alone on the last row of the preferred site
    mover = scene.host_item("esx09")
    assert lone is not None and mover is not None
    assert site_of(doc, "esx09") == "siteB"
    spot = lone.pos() + QPointF(lone.rect().width() + 60, 0)  # room inside the site's box
    assert box(scene, "siteA").scene_body().contains(spot)
    before = positions(doc)
    drag(qtbot, view, mover.pos(), spot)
    assert site_of(doc, "esx09") == "siteA"
    assert doc.undo_stack.count() == 1  # the move and the new site: one step
    assert doc.undo_stack.undoText().startswith("Move esx09 to Preferred site")
    assert box(scene, "siteA").scene_body().contains(mover.scene_body())
    doc.undo_stack.undo()
    assert site_of(doc, "esx09") == "siteB" and positions(doc) == before
    doc.undo_stack.redo()
    assert site_of(doc, "esx09") == "siteA"


def test_a_host_moved_within_its_site_stays_there(qtbot: QtBot) -> None:
    doc, scene, view = make(qtbot, examples.load("stretched-vsan"))
    lone = scene.host_item("esx05")
    assert lone is not None
    drag(qtbot, view, lone.pos(), lone.pos() + QPointF(lone.rect().width() + 60, 0))
    assert site_of(doc, "esx05") == "siteA"
    assert [lk.kind for lk in doc.links_of("esx05")].count("located_at") == 1


def test_a_host_dropped_into_a_sites_box_is_located_there(qtbot: QtBot) -> None:
    doc, scene, view = make(qtbot, examples.load("stretched-vsan"))
    lone = scene.host_item("esx05")
    assert lone is not None
    spot = lone.pos() + QPointF(lone.rect().width() + 60, 0)
    drop(view, preset_mime("dell-r720"), view.mapFromScene(spot))
    host = doc.design.components[-1]
    assert host.kind == "host" and site_of(doc, host.id) == "siteA"
    item = scene.host_item(host.id)
    assert item is not None and box(scene, "siteA").scene_body().contains(item.scene_body())
    assert not any(item.scene_body().intersects(other.scene_body())
                   for other in (scene.host_item(h.id) for h in doc.design.of_kind("host"))
                   if other is not None and other is not item)


def test_a_sites_lines_run_from_its_edge(qtbot: QtBot) -> None:
    doc, scene, _ = make(qtbot, examples.load("stretched-vsan"))
    wan = next(lk for lk in doc.design.links if lk.kind == "wan")
    line = scene.link_item(wan)
    assert line is not None
    a, b = box(scene, wan.source).scene_body(), box(scene, wan.target).scene_body()
    for end, rect in ((line.line().p1(), a), (line.line().p2(), b)):
        on_edge = (min(abs(end.x() - rect.left()), abs(end.x() - rect.right())) < 1
                   or min(abs(end.y() - rect.top()), abs(end.y() - rect.bottom())) < 1)
        assert on_edge, (end, rect)


def test_an_empty_site_keeps_its_own_place_and_grows_around_a_host(qtbot: QtBot) -> None:
    doc, scene, _ = make(qtbot, examples.load("stretched-vsan"))
    witness = box(scene, "witness")
    comp = doc.component("witness")
    assert comp is not None and witness.pos() == QPointF(comp.x, comp.y)
    doc.add_components([Component("w1", "host", "witness host", x=comp.x, y=comp.y + 200)],
                       [Link("w1", "witness", "located_at")])
    host = scene.host_item("w1")
    assert host is not None and witness.scene_body().contains(host.scene_body())
    assert witness.members == 1
    doc.undo_stack.undo()
    assert witness.members == 0 and witness.pos() == QPointF(comp.x, comp.y)


@pytest.mark.skipif("cluster" not in KINDS, reason="the schema has no clusters yet")
def test_a_cluster_is_a_box_inside_its_site(qtbot: QtBot) -> None:
    design = examples.load("stretched-vsan")
    design.components.append(Component("k1", "cluster", "Cluster A"))
    design.links += [Link(h, "k1", "in_cluster") for h in ("esx01", "esx02")]
    from models.io.arrange import arrange_in_place  # noqa: PLC0415

    doc, scene, view = make(qtbot, arrange_in_place(design))
    cluster, site = box(scene, "k1"), box(scene, "siteA")
    assert site.scene_body().contains(cluster.scene_body())
    assert site.scene_body().top() + BOXES["site"].head <= cluster.scene_body().top()  # names
    assert "HA N+1" in cluster.subtitle  # its policy on its label
    grip = cluster.scene_body().topLeft() + QPointF(30, 10)
    drag(qtbot, view, grip, grip + QPointF(0, 40))
    assert doc.undo_stack.count() == 1
    assert cluster.scene_body().contains(scene.host_item("esx01").scene_body())  # type: ignore[union-attr]


def test_boxes_are_grabbed_by_their_edge_and_not_in_their_middle(qtbot: QtBot) -> None:
    _, scene, _ = make(qtbot, examples.load("stretched-vsan"))
    site = box(scene, "witness")
    body = site.scene_body()
    assert scene.component_at(body.topLeft() + QPointF(20, 10)) is site
    assert scene.component_at(body.center() + QPointF(0, 10)) is None  # a rubber band here
    assert scene.target_at(body.center() + QPointF(0, 10)) is site  # a drop lands in it

