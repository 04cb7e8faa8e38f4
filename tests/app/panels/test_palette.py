"""The palette lists kinds and study presets; its drag payload names the preset."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from app.canvas.drop import preset_of
from app.document.design_document import DesignDocument
from app.panels.palette import Palette
from models.document.presets import presets


def make(qtbot: QtBot) -> Palette:
    palette = Palette(DesignDocument())
    qtbot.addWidget(palette)
    return palette


def test_every_preset_has_an_entry(qtbot: QtBot) -> None:
    palette = make(qtbot)
    labels = {palette.entry(p.id).text(0) for p in presets()}
    assert {"Dell R720", "HP DL580 G7", "Intel X520 10GbE", "EMC VNX5700", "web server VM",
            "OLTP VM", "Iometer VM"} <= labels


def test_drag_payload_names_the_preset(qtbot: QtBot) -> None:
    palette = make(qtbot)
    assert preset_of(palette.mime_for("emc-vnx5700")) == "emc-vnx5700"


def test_filter_hides_non_matching_entries(qtbot: QtBot) -> None:
    palette = make(qtbot)
    qtbot.keyClicks(palette.filter, "dell")
    assert not palette.entry("dell-r720").isHidden()
    assert palette.entry("oltp-vm").isHidden()
    palette.filter.clear()
    assert not palette.entry("oltp-vm").isHidden()


def test_activation_asks_to_add_the_preset(qtbot: QtBot) -> None:
    palette = make(qtbot)
    item = palette.entry("iometer-vm")
    with qtbot.waitSignal(palette.preset_activated) as blocker:
        palette.tree.itemActivated.emit(item, 0)
    assert blocker.args == ["iometer-vm"]


def test_the_studies_servers_keep_a_heading_and_the_catalogue_is_by_vendor_and_generation(
        qtbot: QtBot) -> None:
    palette = make(qtbot)
    studies = palette.entry("dell-r720").parent()
    assert studies is not None and studies.text(0) == "Servers from the studies"
    r760 = palette.entry("server:dell-r760")
    gen = r760.parent()
    assert r760.text(0) == "PowerEdge R760" and gen is not None and gen.text(0) == "16G"
    vendor = gen.parent()
    assert vendor is not None and vendor.text(0) == "Dell servers"
    assert vendor.parent() is palette.groups["host"]
    assert not vendor.isExpanded()  # the catalogue waits, the studies' presets show
    # its processors under it, fastest per core first, each a preset of its own
    first = r760.child(0)
    assert first is not None and first.text(0).startswith("Gold 6434 · 8 cores")
    pid = "server:dell-r760:Intel Xeon Gold 6548Y+"
    assert palette.entry(pid).parent() is r760
    assert preset_of(palette.mime_for(pid)) == pid


def test_filter_finds_a_processor_in_every_server_that_has_it(qtbot: QtBot) -> None:
    palette = make(qtbot)
    qtbot.keyClicks(palette.filter, "6548Y+")
    shown = [pid for pid, item in palette._entries.items() if not item.isHidden()]
    assert "server:dell-r760:Intel Xeon Gold 6548Y+" in shown
    assert "server:hpe-dl380-gen11:Intel Xeon Gold 6548Y+" in shown
    assert "server:dell-r760:Intel Xeon Gold 6434" not in shown
    assert palette.entry("oltp-vm").isHidden()
    assert palette.headings["Dell"].isExpanded()  # opened to show what matched


def test_the_plain_host_names_its_processor(qtbot: QtBot) -> None:
    palette = make(qtbot)
    tip = palette.entry("host").toolTip(0)
    assert "cpu_model = Intel Xeon Gold 6526Y" in tip and "from: Processor catalogue" in tip


def test_the_vsan_cluster_sits_beside_the_plain_cluster(qtbot: QtBot) -> None:
    palette = make(qtbot)
    plain, vsan = palette.entry("cluster"), palette.entry("vsan-cluster")
    assert vsan.parent() is plain.parent() is palette.groups["cluster"]
    assert vsan.text(0) == "vSAN cluster (ESA RAID 5, HA N+1, DRS)"
    assert "vsan.architecture = esa" in vsan.toolTip(0) and "from: vSAN Planning" in \
        vsan.toolTip(0)
    qtbot.keyClicks(palette.filter, "vsan")
    assert not vsan.isHidden() and plain.isHidden()
    assert preset_of(palette.mime_for("vsan-cluster")) == "vsan-cluster"


def test_every_kind_shows_at_1366x768_and_the_knobs_yield_height_while_one_is_open(
        qtbot: QtBot) -> None:
    """The kinds are groups, closed at first and opened one at a time with a click, so each
    kind's row is in view on a laptop (issue 39: the palette showed about six rows, "HPE
    servers" cut in half); while one is open the knobs give the palette height, and take it
    back when it closes."""
    from PySide6.QtCore import Qt  # noqa: PLC0415
    from PySide6.QtWidgets import QApplication  # noqa: PLC0415

    from app.window.main_window import MainWindow  # noqa: PLC0415
    from models.examples import bundled as examples  # noqa: PLC0415

    window = MainWindow(DesignDocument(examples.load("vaio-scaling")), remember_layout=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    QApplication.processEvents()
    palette = window.palette_panel
    tree = palette.tree
    seen = tree.viewport().rect()
    for group in palette.groups.values():  # every kind's whole row in view
        assert not group.isExpanded()
        assert seen.contains(tree.visualItemRect(group)), group.text(0)
    rest = window.palette_dock.height()
    vm = palette.groups["vm"]
    with qtbot.waitSignal(palette.in_use) as used:
        qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton,
                         pos=tree.visualItemRect(vm).center())
    assert used.args == [True] and vm.isExpanded()
    QApplication.processEvents()
    assert window.palette_dock.height() > rest * 1.5  # the knobs yielded
    host = palette.groups["host"]
    host.setExpanded(True)
    assert not vm.isExpanded()  # one kind open at a time
    with qtbot.waitSignal(palette.in_use) as used:
        host.setExpanded(False)
    assert used.args == [False]
    QApplication.processEvents()
    assert abs(window.palette_dock.height() - rest) <= 4
    qtbot.keyClicks(palette.filter, "OLTP")  # the filter opens the kind it finds in
    assert vm.isExpanded() and not palette.entry("oltp-vm").isHidden()
