"""Compare lists the settings that differ between its two scenarios, in the report's words
(app/panels/compare.py): it showed the figures and not what changed them."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from app.document.design_document import DesignDocument
from app.panels.compare import Difference, differences
from app.panels.scenarios import ScenarioBar
from models.examples import bundled as examples


def labels(rows: list[Difference]) -> list[tuple[str, str, str]]:
    return [(d.label, d.left, d.right) for d in rows]


def test_the_knobs_that_differ_between_two_scenarios() -> None:
    design = examples.load("vaio-scaling")
    assert labels(differences(design, "base", "oio 32")) == [
        ("Outstanding I/Os", "128 I/Os", "32 I/Os")]
    assert labels(differences(design, "1 VM", "oio 32, iofilter")) == [
        ("Outstanding I/Os", "0 I/Os on 15 VMs, 128 I/Os on 1 VM", "32 I/Os"),
        ("VAIO I/O filter", "none", "null filter (pass-through)")]
    assert labels(differences(design, "oio 32", "oio 32")) == []
    assert labels(differences(design, "oio 32", "base")) == [
        ("Outstanding I/Os", "32 I/Os", "128 I/Os")]
    assert differences(design, "base", "no such scenario") == []


def test_a_refresh_compares_its_hosts_and_processors_not_same_values() -> None:
    """A refresh changes how many hosts there are and their processors, neither a knob: both
    are listed; a knob with the same value on the old and the new hosts (hyperthreading on)
    is not a difference, though it counts other hosts."""
    from models.analysis.refresh import refresh, target  # noqa: PLC0415
    from models.document.design import Scenario  # noqa: PLC0415
    from tests.refresh_estate import estate  # noqa: PLC0415

    base = estate()
    for h in base.of_kind("host"):
        h.props["hyperthreading"] = True
    r = refresh(base, target("dell-r760", "Gold 6548Y+", 1024))
    base.scenarios.append(Scenario("r760", [], r.rebuild))
    rows = {d.label: (d.left, d.right) for d in differences(base, "base", "r760")}
    assert rows["Hosts"] == ("6 hosts", "4 hosts")
    assert rows["Processor"] == ("Intel Xeon E5-2680 on 4 hosts, Intel Xeon X5675 on 2 hosts",
                                 "Intel Xeon Gold 6548Y+")
    assert "Hyperthreading" not in rows
    assert list(rows)[:2] == ["Hosts", "Processor"]
    # every setting the refresh changes is listed: hyperthreading when told, ESXi, memory
    for h in base.of_kind("host"):
        h.props["hyperthreading"] = False
    told = refresh(base, target("dell-r760", "Gold 6548Y+", 1024), ht=True)
    base.scenarios.append(Scenario("r760 ht", [], told.rebuild))
    rows = {d.label: (d.left, d.right) for d in differences(base, "base", "r760 ht")}
    assert rows["Hyperthreading"] == ("off", "on") and rows["ESXi version"] == ("6.0", "8.0")
    assert rows["Host memory"] == ("256 GB on 4 hosts, 192 GB on 2 hosts", "1 TB")


def test_the_compare_window_shows_them_under_the_figures(qtbot: QtBot) -> None:
    doc = DesignDocument(examples.load("vaio-scaling"))
    bar = ScenarioBar(doc)
    qtbot.addWidget(bar)
    bar.right_combo.setCurrentIndex(bar.right_combo.findText("1 VM, iofilter"))
    bar.compare_button.click()
    panel = bar.compare_panel
    qtbot.waitExposed(panel)
    table = panel.settings
    assert panel.settings_label.text() == "Settings that differ (2)"
    assert [table.horizontalHeaderItem(c).text() for c in range(3)] == [  # type: ignore[union-attr]
        "Setting", "base", "1 VM, iofilter"]
    cells = [[table.item(r, c).text() for c in range(3)]  # type: ignore[union-attr]
             for r in range(table.rowCount())]
    assert cells == [["Outstanding I/Os", "128 I/Os", "0 I/Os on 15 VMs, 128 I/Os on 1 VM"],
                     ["VAIO I/O filter", "none", "null filter (pass-through)"]]
    header = table.horizontalHeader()
    for c in range(3):  # every cell whole, no scroll bar
        assert table.columnWidth(c) >= max(table.sizeHintForColumn(c),
                                           header.sectionSizeHint(c))
    assert panel.geometry().contains(table.geometry())
    left = bar.left_combo.findText("1 VM, iofilter")
    bar.left_combo.setCurrentIndex(left)
    bar.left_combo.activated.emit(left)
    assert table.isHidden() and panel.settings_label.text() == \
        "The same scenario on both sides"
