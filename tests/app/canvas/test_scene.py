"""The scene mirrors the document: an item per component it shows, lines for the links that
do not hold, boxes round what sites and clusters hold, and every change of the document (and
its undo) followed, whatever made it."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QObject, QPointF
from pytestqt.qtbot import QtBot

from app.canvas.cards import DETAIL_ZOOM, FAR_ZOOM, ContainerItem
from app.canvas.items import ComponentItem
from app.canvas.scene import DesignScene
from app.canvas.view import DesignView
from app.document.design_document import DesignDocument
from app.support import first_paint
from models.document.design import Component, Design, Link
from models.document.schema import KINDS
from models.examples import bundled as examples
from models.io.placement import BOXES
from tests.app.canvas.drive import drag_scene, make


def box(scene: DesignScene, cid: str) -> ContainerItem:
    item = scene.box_item(cid)
    assert item is not None
    return item


def test_scene_mirrors_the_document(qtbot: QtBot, nic_example: Design) -> None:
    """Every component has an item (zoomed in, the VMs' pills too); a link that holds (a VM
    on its host, a NIC in it) is the holding, every other link a line."""
    doc, scene, view = make(qtbot, nic_example)
    assert view.zoom >= DETAIL_ZOOM
    assert {it.cid for it in scene.component_items()} == {c.id for c in doc.design.components}
    held = [lk for lk in doc.design.links if lk.kind in ("runs_on", "installed_in")]
    assert all(scene.link_item(lk) is None for lk in held)
    assert [it.link for it in scene.link_items()] == [
        lk for lk in doc.design.links if lk.kind == "storage"]
    host = scene.host_item("h1")
    assert host is not None and host.vm_ids == [f"v{i}" for i in range(1, 17)]
    for cid in ("n1", "v1", "v16"):
        item = scene.item(cid)
        assert item is not None and item.docked  # drawn on its host's card
        assert host.scene_body().contains(item.scene_body())


def test_selection_follows_the_document(qtbot: QtBot, nic_example: Design) -> None:
    doc, scene, _ = make(qtbot, nic_example)
    doc.set_selection(["v3"])
    assert [it.cid for it in scene.selectedItems() if isinstance(it, ComponentItem)] == ["v3"]
    doc.set_selection(["a1", "h1"])
    assert {it.cid for it in scene.selected_components()} == {"a1", "h1"}


def test_items_follow_add_remove_and_links_and_their_undo(qtbot: QtBot,
                                                          nic_example: Design) -> None:
    doc, scene, _ = make(qtbot, nic_example)
    storage = Link("h2", "a1", "storage")
    doc.add_component(Component("h2", "host", x=500, y=0))
    assert scene.item("h2") is not None
    doc.add_link(storage)
    assert scene.link_item(storage) is not None
    doc.remove_components(["h2"])
    assert scene.item("h2") is None
    assert scene.link_item(storage) is None
    doc.undo_stack.undo()
    assert scene.item("h2") is not None and scene.link_item(storage) is not None
    doc.undo_stack.undo()
    assert scene.item("h2") is not None and scene.link_item(storage) is None
    doc.undo_stack.redo()
    doc.undo_stack.redo()
    assert scene.item("h2") is None and scene.link_item(storage) is None


@pytest.mark.parametrize("asked_first", [False, True])
def test_the_links_of_a_component_follow_added_and_removed_links(
        qtbot: QtBot, nic_example: Design, asked_first: bool) -> None:
    """What links a component has, whether or not the scene was asked before the change (it
    indexes the links when first asked)."""
    doc, scene, _ = make(qtbot, nic_example)
    if asked_first:
        assert {lk.kind for lk in scene.links_of("a1")} == {"storage", "disk_on"}
    storage = Link("h2", "a1", "storage")
    doc.add_component(Component("h2", "host", x=500, y=0))
    doc.add_link(storage)
    assert storage in scene.links_of("a1") and scene.links_of("h2") == [storage]
    doc.undo_stack.undo()
    assert storage not in scene.links_of("a1") and scene.links_of("h2") == []


def test_a_vm_moved_to_another_host_by_the_document_moves_to_its_card(
        qtbot: QtBot, nic_example: Design) -> None:
    doc, scene, _ = make(qtbot, nic_example)
    doc.add_component(Component("h2", "host", "spare", x=700, y=0))
    assert doc.add_link(Link("v3", "h2", "runs_on")) is None  # replaces v3's runs_on h1
    spare, home = scene.host_item("h2"), scene.host_item("h1")
    assert spare is not None and home is not None
    assert spare.vm_ids == ["v3"] and "v3" not in home.vm_ids
    doc.undo_stack.undo()
    assert spare.vm_ids == [] and "v3" in home.vm_ids
    qtbot.waitUntil(lambda: scene.item("v3") is not None)  # in view: its pill, next turn
    item = scene.item("v3")
    assert item is not None and item.pos() == scene.child_pos("v3")
    doc.undo_stack.redo()
    assert spare.vm_ids == ["v3"]


def test_kind_wide_edits_refresh_labels_only_when_the_label_shows_the_property(
        qtbot: QtBot, nic_example: Design) -> None:
    doc, scene, _ = make(qtbot, nic_example)
    vm = doc.design.of_kind("vm")[0]
    item = scene.item(vm.id)
    assert item is not None
    doc.set_value("vm", "workload.profile", "web")
    assert item.subtitle == "web server"  # the label shows the profile: refreshed
    item.subtitle = "stale"
    doc.set_value("vm", "workload.io_oio", 3)
    assert item.subtitle == "stale"  # OIO is not on the label: the 2,000 refreshes skipped
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert item.subtitle != "web"


def test_a_scene_without_a_view_is_still_a_mirror(qtbot: QtBot, nic_example: Design) -> None:
    """The scene makes no interaction of its own: on its own it follows the document."""
    doc = DesignDocument(nic_example)
    scene = DesignScene(doc)
    assert {it.cid for it in scene.component_items()} >= {"h1", "n1", "a1"}
    doc.add_component(Component("h2", "host", x=500, y=0))
    assert scene.host_item("h2") is not None
    doc.undo_stack.undo()
    assert scene.host_item("h2") is None


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
    doc.undo_stack.redo()
    assert witness.members == 1


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
    drag_scene(qtbot, view, grip, grip + QPointF(0, 40))
    assert doc.undo_stack.count() == 1
    assert cluster.scene_body().contains(scene.host_item("esx01").scene_body())  # type: ignore[union-attr]


def test_boxes_are_grabbed_by_their_edge_and_not_in_their_middle(qtbot: QtBot) -> None:
    _, scene, _ = make(qtbot, examples.load("stretched-vsan"))
    site = box(scene, "witness")
    body = site.scene_body()
    assert scene.component_at(body.topLeft() + QPointF(20, 10)) is site
    assert scene.component_at(body.center() + QPointF(0, 10)) is None  # a rubber band here
    assert scene.target_at(body.center() + QPointF(0, 10)) is site  # a drop lands in it


class _NicsAtPaint(QObject):
    """Which NICs have items of their own at each paint of the viewport it filters."""

    def __init__(self, scene: DesignScene):
        super().__init__()
        self.scene = scene
        self.seen: list[set[str]] = []

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt)
        if event.type() == QEvent.Type.Paint:
            self.seen.append({it.cid for it in self.scene.component_items() if it.kind == "nic"})
        return False


@pytest.mark.parametrize("zoom", [1.0, 0.1])
def test_opening_the_nics_items_are_there_wherever_they_are_painted(qtbot: QtBot,
                                                                      zoom: float) -> None:
    """Opening a design, the NICs' items may wait for the window's first paint only far
    out, where their cards draw them; zoomed in they are there when it paints.  Either way
    the NIC that is the bottleneck wears the badge on its own item, and once painted every
    NIC has its item, hidden far out."""
    design = examples.load("file-transfer-10g")
    for nic in design.of_kind("nic"):
        nic.props["speed_gbps"] = 1.0  # its NIC is the bottleneck
    nics = {c.id for c in design.of_kind("nic")}
    first_paint.expect()
    try:
        doc = DesignDocument(design)
        scene = DesignScene(doc)
        view = DesignView(scene)
        view.resize(1000, 700)
        qtbot.addWidget(view)
        view.set_zoom(zoom)
        painted = _NicsAtPaint(scene)
        view.viewport().installEventFilter(painted)
        first_paint.watch(view.viewport())
        badge = scene.badge_holder()
        assert badge is not None and badge.kind == "nic" and badge is scene.item(badge.cid)
        view.show()
        qtbot.waitUntil(lambda: not first_paint.awaiting(), timeout=5000)
    finally:
        first_paint.flush()
    if zoom >= FAR_ZOOM:
        assert painted.seen[0] == nics
    items = [scene.item(n) for n in sorted(nics)]
    assert all(it is not None and it.isVisible() == (zoom >= FAR_ZOOM) for it in items)
    assert scene.badge_holder() is badge
