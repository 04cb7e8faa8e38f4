"""A 571-VM estate uses a laptop's canvas at fit (issue 39): opened in the main window at
1366 x 768, a generated export of 23 hosts in 3 clusters at 2 sites with 36 datastores (13
shared, 23 local), its hosts named as a site names them, reads: every host by the part of its
name that tells it apart (the start and domain they share dropped the same way for all, the
whole name in the tooltip and the Inspector), every cluster named, the storage beside the
clusters it serves, the layout across the view's width, and no badge over a name."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.canvas.cards import ContainerItem, HostItem
from app.canvas.items import badge_radius, corner_badge
from app.canvas.tooltips import component_tooltip
from app.document.design_document import DesignDocument
from app.window.main_window import MainWindow
from models.document.design import Design
from models.document.words import host_affixes
from models.io.importers.rvtools import import_rvtools
from tests.estates import estate, write_csv_folder

FILLED = 0.8
"""The share of the view's width the estate spans at fit, at least (it spanned a third)."""


@pytest.fixture(scope="module")
def site_estate(tmp_path_factory: pytest.TempPathFactory) -> Design:
    sheets = estate(23, 571, seed=7, local_datastores=True, host_names="site").sheets
    folder = write_csv_folder(tmp_path_factory.mktemp("site") / "export", sheets)
    return import_rvtools(folder)[0]


@pytest.fixture
def window(qtbot: QtBot, site_estate: Design) -> MainWindow:
    win = MainWindow(DesignDocument(site_estate.copy()), remember_layout=False)
    qtbot.addWidget(win, before_close_func=lambda w: w.document.undo_stack.setClean())
    win.resize(1366, 768)
    win.show()
    qtbot.waitExposed(win)
    for _ in range(3):  # the deferred fit, once the docks have their sizes
        QApplication.processEvents()
    return win


def test_each_host_reads_by_the_part_of_its_name_that_tells_it_apart(
        window: MainWindow) -> None:
    doc, scene, lod = window.document, window.scene, window.view.zoom
    hosts = scene.host_items()
    names = {cid: doc.name_of(cid) for cid in hosts}
    prefix, suffix = host_affixes(list(names.values()))
    assert (prefix, suffix) == ("bru-esx-", ".infra.example.org")
    shown = {cid: h.shown_title(lod) for cid, h in hosts.items()}
    assert all(shown.values()), "every host named at fit"
    assert not any("…" in t for t in shown.values()), shown  # whole: no cut tails
    assert len(set(shown.values())) == len(shown)  # told apart
    for cid, text in shown.items():  # the same cut for every host
        assert names[cid] == prefix + text + suffix
        assert names[cid] in component_tooltip(doc, cid)
    first = next(iter(hosts))
    doc.set_selection([first])
    assert window.inspector.name_edit.text() == names[first]  # whole in the Inspector


def test_the_estate_spans_the_view_its_clusters_named_its_storage_beside_them(
        window: MainWindow) -> None:
    doc, scene, view = window.document, window.scene, window.view
    lod = view.zoom
    drawn = [it.scene_body() for it in scene.host_items().values()]
    drawn += [b.scene_body() for b in scene.container_items()]
    drawn += [g.rect() for g in scene.groups.items.values()]
    left = min(r.left() for r in drawn)
    right = max(r.right() for r in drawn)
    assert (right - left) * lod >= FILLED * view.viewport().width()
    boxes = {b.cid: b for b in scene.container_items()}
    for box in boxes.values():
        assert box.title_layout(lod)[1] == [doc.name_of(box.cid)]  # every cluster named
        assert box.title_font(lod).pixelSize() * lod >= 12.5
    locals_ = [g for g in scene.groups.items.values() if g.array_group.local]
    assert len(locals_) == 3  # each cluster's hosts' local disks, beside it
    for g in locals_:
        (cluster,) = g.array_group.reach
        served = boxes[cluster].scene_body()
        assert g.rect().left() >= served.right()  # at its right
        assert g.rect().top() < served.bottom() and g.rect().bottom() > served.top()  # level
        assert g.title == doc.name_of(cluster)


def _title_box(item: HostItem | ContainerItem, lod: float) -> QRectF:
    """Where ``item``'s name is painted (scene units): its title's place, as wide as the
    painted name in a box's band (left-aligned), the whole place on a card (centred)."""
    rect = item.title_rect(lod).translated(item.pos())
    if isinstance(item, ContainerItem):
        font, lines, _ = item.title_layout(lod)
        rect.setWidth(QFontMetricsF(font).horizontalAdvance(lines[0]))
    return rect


def test_no_badge_covers_a_name(window: MainWindow) -> None:
    scene, lod = window.scene, window.view.zoom
    holder = scene.badge_holder()
    assert isinstance(holder, HostItem)  # the estate's busiest host
    centre = holder.badge_centre(lod) + holder.pos()
    assert holder.badge_centre(lod) == corner_badge(holder.rect(), lod)  # its top right
    r = badge_radius(lod)
    disc = QRectF(centre - QPointF(r, r), centre + QPointF(r, r))
    assert holder.scene_body().contains(disc)  # within its own card
    named: list[HostItem | ContainerItem] = [*scene.host_items().values(),
                                             *scene.container_items()]
    for item in named:
        assert not _title_box(item, lod).intersects(disc), item.title


def test_a_nic_on_its_hosts_card_reads_by_its_own_name(window: MainWindow) -> None:
    """Zoomed in, a NIC chip named as the import names it ("<host> vmnic0") read as the
    host's first five letters and "…": on its host's card it reads "vmnic0" (whole in its
    tooltip)."""
    scene, view = window.scene, window.view
    host = next(iter(scene.host_items().values()))
    view.set_zoom(1.0)
    view.centerOn(host)
    QApplication.processEvents()
    nic = scene.item(host.nic_ids[0])
    assert nic is not None and nic.title == "vmnic0"
    assert nic.shown_title(1.0) == "vmnic0"
    assert window.document.name_of(nic.cid) in component_tooltip(window.document, nic.cid)
