"""An estate reads at fit on a laptop: opened in the main window at 1366 x 768, an imported
estate's hosts are told apart by the names on their cards (the domain they share left out,
cut in the middle), its clusters and sites are named at least as large as its hosts, and
its datastores are grouped: one item per group with its count, no fan of lines, the arrays
and their paths shown when zoomed in or selected."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.canvas.cards import FAR_ZOOM, HostItem
from app.canvas.items import MIN_TITLE_PX
from app.canvas.tooltips import component_tooltip
from app.document.design_document import DesignDocument
from app.window.main_window import MainWindow
from models.document.design import Design
from models.io.arrange import arrange_in_place
from models.io.importers.liveoptics import import_liveoptics
from models.io.importers.rvtools import import_rvtools
from tests.app.canvas.drive import LEFT, NONE, make
from tests.estates import estate, write_csv_folder
from tests.models.io.test_arrange import estate_design

SAMPLES = Path(__file__).resolve().parents[3].parent / "shared" / "samples"


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Design:
    """A generated 30-host, 800-VM RVTools export (host names end in .corp.local)."""
    folder = write_csv_folder(tmp_path_factory.mktemp("estate") / "export",
                              estate(30, 800, seed=7).sheets)
    return import_rvtools(folder)[0]


def open_window(qtbot: QtBot, design: Design) -> MainWindow:
    window = MainWindow(DesignDocument(design.copy()), remember_layout=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    for _ in range(3):  # the deferred fit, once the docks have their sizes
        QApplication.processEvents()
    return window


def check_reads_at_fit(window: MainWindow) -> dict[str, float]:
    """Every name painted on the canvas reads (>= 11 px), the hosts' names tell them apart,
    every box's name is at least as large as the largest host name; returns the figures."""
    view, scene = window.view, window.scene
    lod = view.zoom
    hosts = [it for it in scene.component_items() if isinstance(it, HostItem)]
    shown = {h.cid: h.shown_title(lod) for h in hosts}
    painted = {cid: t for cid, t in shown.items() if t}
    assert len(set(painted.values())) == len(painted), "two hosts read the same"
    host_px = [scene.host_item(cid).title_font(lod).pixelSize() * lod  # type: ignore[union-attr]
               for cid in painted]
    assert all(px >= MIN_TITLE_PX - 0.5 for px in host_px)
    for cid, text in painted.items():
        comp = window.document.component(cid)
        assert comp is not None
        if text != comp.name:  # shortened: its tooltip has it whole
            assert comp.name in component_tooltip(window.document, cid)
    boxes = [b for b in scene.container_items() if b.members]
    box_px = [b.title_font(lod).pixelSize() * lod for b in boxes]
    assert all(px >= max(host_px, default=MIN_TITLE_PX) - 0.5 for px in box_px), box_px
    return {"zoom": lod, "named": len(painted) / max(1, len(hosts)),
            "host_px": min(host_px, default=0.0), "box_px": min(box_px, default=0.0)}


def test_an_imported_estate_reads_at_fit_on_a_small_screen(qtbot: QtBot,
                                                           imported: Design) -> None:
    window = open_window(qtbot, imported)
    got = check_reads_at_fit(window)
    assert got["named"] == 1.0  # 30 hosts: every one named
    assert got["box_px"] >= 12.5  # the clusters' names larger than the hosts'
    names = [h.shown_title(window.view.zoom) for h in window.scene.host_items().values()]
    assert not any(n.endswith(".corp.local") for n in names)  # the domain they all share


@pytest.mark.parametrize("sample", ["rvtools-anonymised-805-vms.xlsx",
                                    "liveoptics-masked-83-vms.xlsx"])
def test_the_real_samples_read_at_fit(qtbot: QtBot, sample: str) -> None:
    path = SAMPLES / sample
    if not path.exists():
        pytest.skip(f"{path} is absent")
    design = (import_liveoptics(path) if sample.startswith("liveoptics")
              else import_rvtools(path))[0]
    window = open_window(qtbot, design)
    got = check_reads_at_fit(window)
    assert got["named"] == 1.0
    lod = window.view.zoom  # every host's name whole (issue 39): the bottleneck's beside its
    shown = [h.shown_title(lod) for h in window.scene.host_items().values()]  # badge too
    assert not any("…" in t for t in shown), shown


def test_an_estates_arrays_are_one_item_per_group_until_zoomed_in(qtbot: QtBot) -> None:
    doc, scene, view = make(qtbot, arrange_in_place(estate_design(4, 6, 20, 4)))
    assert view.zoom < FAR_ZOOM
    groups = scene.groups.items
    assert len(groups) == 4
    arrays = [c.id for c in doc.design.of_kind("storage_array")]
    assert not any(scene.item(a).isVisible() for a in arrays)  # type: ignore[union-attr]
    assert all(g.collapsed and g.isVisible() for g in groups.values())
    assert not scene.link_items()  # no fan of 96 host-to-array lines
    assert sum(len(lines) for lines in scene.groups.lines.values()) == 4  # one per cluster
    first = next(iter(groups.values()))
    qtbot.mouseClick(view.viewport(), LEFT, NONE,
                     view.mapFromScene(first.rect().center()))
    assert sorted(doc.selection) == sorted(first.array_group.arrays)  # the group's arrays
    lines = scene.link_items()
    assert len(lines) == 6 * 4  # their paths: the cluster's six hosts to each of them
    assert all(it.link.target in first.array_group.arrays for it in lines)
    assert first.selected == 4
    view.set_zoom(1.0)  # near: the arrays themselves
    assert all(scene.item(a).isVisible() for a in arrays)  # type: ignore[union-attr]
    assert not any(g.collapsed for g in groups.values())
    assert all(scene.item(a).isSelected() for a in first.array_group.arrays)  # type: ignore[union-attr]
    view.fit()
    assert all(g.collapsed for g in groups.values())
