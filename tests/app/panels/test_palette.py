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
