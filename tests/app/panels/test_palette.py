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
