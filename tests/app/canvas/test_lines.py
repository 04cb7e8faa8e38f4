"""The lines of the canvas: links that do not hold drawn between their items, as wide as
their traffic; a VM's own links drawn while it is selected; a site's lines from its edge."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from app.canvas.items import LinkItem
from models.document.design import Design, Link
from models.examples import bundled as examples
from models.examples.synth import large_design
from tests.app.canvas.drive import LEFT, NONE, at, make


def test_a_vm_on_a_card_shows_its_own_lines_while_it_is_selected(
        qtbot: QtBot, nic_example: Design) -> None:
    doc, scene, view = make(qtbot, nic_example)
    disk = Link("v1", "a1", "disk_on")
    assert scene.link_item(disk) is None  # the host's storage line stands for it
    qtbot.mouseClick(view.viewport(), LEFT, NONE, at(view, "v1"))
    assert doc.selection == ["v1"]
    line = scene.link_item(disk)
    assert line is not None and line.source is scene.item("v1")
    qtbot.mouseClick(view.viewport(), LEFT, NONE, at(view, "a1"))
    assert doc.selection == ["a1"] and scene.link_item(disk) is None


def test_far_out_link_widths_follow_traffic_without_repainting_hairlines(qtbot: QtBot) -> None:
    doc, scene, view = make(qtbot, large_design(200, 10, n_arrays=6))  # too few to group
    view.set_zoom(0.05)
    with qtbot.waitSignal(doc.prediction_updated):
        doc.set_value("vm", "workload.io_oio", 1)
    with qtbot.waitSignal(doc.prediction_updated):
        doc.set_value("vm", "workload.io_oio", 64)
    links = scene.link_items()
    assert len({it.width_level for it in links}) > 1  # widths still follow the traffic
    assert LinkItem.drawn_width(0, 0.05) == LinkItem.drawn_width(6, 0.05) == 0.0
    assert LinkItem.drawn_width(1, 1.0) < LinkItem.drawn_width(2, 1.0)


def test_a_sites_lines_run_from_its_edge(qtbot: QtBot) -> None:
    doc, scene, _ = make(qtbot, examples.load("stretched-vsan"))
    wan = next(lk for lk in doc.design.links if lk.kind == "wan")
    line = scene.link_item(wan)
    assert line is not None
    a, b = scene.box_item(wan.source), scene.box_item(wan.target)
    assert a is not None and b is not None
    for end, rect in ((line.line().p1(), a.scene_body()), (line.line().p2(), b.scene_body())):
        on_edge = (min(abs(end.x() - rect.left()), abs(end.x() - rect.right())) < 1
                   or min(abs(end.y() - rect.top()), abs(end.y() - rect.bottom())) < 1)
        assert on_edge, (end, rect)


def test_an_estates_selected_host_shows_its_storage_paths_as_wide_as_their_traffic(
        qtbot: QtBot) -> None:
    """An estate's host-to-array paths are drawn for the selected hosts only; each is as wide
    as the storage traffic of the host's VMs whose disks are on that array."""
    doc, scene, _ = make(qtbot, large_design(400, 10))  # 10 arrays: grouped, paths sparse
    assert not [it for it in scene.link_items() if it.link.kind == "storage"]
    p = doc.prediction
    assert p is not None
    disk = {lk.source: lk.target for lk in doc.design.links if lk.kind == "disk_on"}
    mbps = dict(zip(p.vms.ids, p.vms.storage_mbps.tolist(), strict=True))
    doc.set_selection(["h0"])
    paths = [it for it in scene.link_items() if it.link.kind == "storage"]
    assert paths and all(it.link.source == "h0" for it in paths)
    on_h0 = scene.holdings.vms["h0"]
    traffic = {it.link.target: sum(mbps[v] for v in on_h0 if disk[v] == it.link.target)
               for it in paths}
    level = {it.link.target: it.width_level for it in paths}
    busiest = max(traffic, key=lambda a: traffic[a])
    assert level[busiest] > 0
    assert all(level[a] <= level[busiest] for a in level)
    assert all(level[a] == 0 for a in level if traffic[a] == 0)
