"""The scenario bar switches, adds, removes and compares scenarios."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.document.design_document import DesignDocument
from app.panels.dashboard import Dashboard
from app.panels.scenarios import ScenarioBar
from models.document import numbers as fmt
from models.engine.evaluation import evaluate
from models.engine.kpis import KPIS
from models.examples import bundled as examples


def make(qtbot: QtBot) -> tuple[DesignDocument, ScenarioBar]:
    doc = DesignDocument(examples.load(examples.DEFAULT_EXAMPLE))
    bar = ScenarioBar(doc)
    qtbot.addWidget(bar)
    return doc, bar


def combo_items(bar: ScenarioBar) -> list[str]:
    return [bar.combo.itemText(i) for i in range(bar.combo.count())]


def cell(bar: ScenarioBar, row: int, col: int) -> str:
    item = bar.table.item(row, col)
    assert item is not None
    return item.text()


def test_lists_base_and_the_design_scenarios(qtbot: QtBot) -> None:
    doc, bar = make(qtbot)
    assert combo_items(bar) == ["base", *(s.name for s in doc.design.scenarios)]
    assert bar.combo.currentText() == "base"
    assert not bar.remove_button.isEnabled()
    assert bar.combo.accessibleName() == "Active scenario"


def test_switch_with_the_keyboard_shows_deltas(qtbot: QtBot) -> None:
    doc, bar = make(qtbot)
    dash = Dashboard(doc)
    qtbot.addWidget(dash)
    with qtbot.waitSignal(doc.scenario_changed, timeout=5000):
        qtbot.keyClick(bar.combo, Qt.Key.Key_Down)
    assert doc.scenario == combo_items(bar)[1] == bar.combo.currentText()
    assert bar.remove_button.isEnabled()
    assert dash.tiles["total_iops"].delta_label.text().startswith("vs base: ")
    doc.set_scenario("base")
    assert bar.combo.currentText() == "base"


def test_add_switches_to_it_and_undo_removes_it(qtbot: QtBot) -> None:
    doc, bar = make(qtbot)
    bar.name_edit.setText("bigger blocks")
    bar.add_button.click()
    assert doc.scenario == "bigger blocks"
    assert "bigger blocks" in combo_items(bar)
    assert bar.combo.currentText() == "bigger blocks"
    assert bar.name_edit.text() == ""
    doc.set_value("vm", "workload.io_block_kb", 64)
    assert doc.design.scenario("bigger blocks").overrides
    doc.undo_stack.undo()  # the override
    doc.set_scenario("base")
    doc.undo_stack.undo()  # the scenario
    assert "bigger blocks" not in combo_items(bar)


def test_bad_names_show_an_error_not_a_crash(qtbot: QtBot) -> None:
    doc, bar = make(qtbot)
    count = len(doc.design.scenarios)
    for name in ("", "base", doc.design.scenarios[0].name):
        bar.name_edit.setText(name)
        bar.add_button.click()
        assert bar.error_label.isVisibleTo(bar)
        assert bar.error_label.text()
    assert len(doc.design.scenarios) == count
    bar.name_edit.setText("fine")
    qtbot.keyClick(bar.name_edit, Qt.Key.Key_Return)
    assert not bar.error_label.isVisibleTo(bar)
    assert doc.scenario == "fine"


def test_remove_the_active_scenario(qtbot: QtBot) -> None:
    doc, bar = make(qtbot)
    name = doc.design.scenarios[0].name
    doc.set_scenario(name)
    bar.remove_button.click()
    assert doc.scenario == "base"
    assert name not in combo_items(bar)
    doc.undo_stack.undo()
    assert name in combo_items(bar)


def test_compare_table_lists_kpis_with_changes(qtbot: QtBot) -> None:
    doc, bar = make(qtbot)
    doc.set_scenario("oio 32")
    bar.compare_button.click()
    assert bar.compare_panel.isVisible()
    assert bar.left_combo.currentText() == "base"
    assert bar.right_combo.currentText() == "oio 32"
    base, active = doc.baseline, doc.prediction
    assert base is not None and active is not None
    for row, kpi in enumerate(KPIS):
        assert cell(bar, row, 0) == kpi.title
        assert cell(bar, row, 1) == kpi.figure(base)
        assert cell(bar, row, 2) == kpi.figure(active)
        assert cell(bar, row, 3) == fmt.delta(kpi.value(active), kpi.value(base), kpi.unit)
    # two named scenarios, neither of them active
    left = bar.left_combo.findText("iofilter")
    bar.left_combo.setCurrentIndex(left)
    bar.left_combo.activated.emit(left)
    other = evaluate(doc.design, "iofilter")
    assert cell(bar, 0, 1) == KPIS[0].figure(other)
    header = bar.table.horizontalHeaderItem(1)
    assert header is not None and header.text() == "iofilter"


def test_compare_follows_edits(qtbot: QtBot) -> None:
    doc, bar = make(qtbot)
    doc.set_scenario("oio 32")
    bar.compare_button.click()
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        doc.set_value("vm", "workload.io_oio", 4)
    qtbot.waitUntil(lambda: not bar._compare_timer.isActive(), timeout=5000)
    assert doc.prediction is not None
    assert cell(bar, 1, 2) == KPIS[1].figure(doc.prediction)


def test_closing_the_compare_window_releases_the_button(qtbot: QtBot) -> None:
    _, bar = make(qtbot)
    bar.compare_button.click()
    assert bar.compare_panel.isVisible()
    bar.compare_panel.close()
    assert not bar.compare_button.isChecked()
    bar.compare_button.click()
    assert bar.compare_panel.isVisible()
    bar.compare_button.click()
    assert not bar.compare_panel.isVisible()


def test_compare_opens_sized_to_its_table_without_empty_rows_and_esc_closes_it(
        qtbot: QtBot) -> None:
    doc, bar = make(qtbot)
    doc.set_scenario("oio 32")
    bar.compare_button.click()
    panel, table = bar.compare_panel, bar.table
    qtbot.waitExposed(panel)
    shown = [r for r in range(table.rowCount()) if not table.isRowHidden(r)]
    titles = [cell(bar, r, 0) for r in shown]
    assert "Total IOPS" in titles and "FT logging" not in titles  # no FT VMs: no row
    assert all(cell(bar, r, 1) != fmt.NONE or cell(bar, r, 2) != fmt.NONE for r in shown)
    columns = sum(table.columnWidth(c) for c in range(table.columnCount()))
    rows = sum(table.rowHeight(r) for r in shown)
    assert columns <= table.viewport().width() and rows <= table.viewport().height()
    assert table.viewport().height() - rows < table.rowHeight(shown[0])  # no empty space
    assert panel.width() < 2 * table.width()
    assert not table.horizontalScrollBar().isVisible()
    qtbot.keyClick(panel, Qt.Key.Key_Escape)
    assert not panel.isVisible() and not bar.compare_button.isChecked()


def test_compare_from_the_base_design_opens_on_the_first_scenario_every_cell_whole(
        qtbot: QtBot) -> None:
    """With the base design active, Compare shows it against the first scenario (not against
    itself), and no column is narrower than what it holds (the last, stretched, was cut)."""
    doc, bar = make(qtbot)
    assert doc.scenario == "base"
    bar.compare_button.click()
    qtbot.waitExposed(bar.compare_panel)
    first = doc.design.scenarios[0].name
    assert (bar.left_combo.currentText(), bar.right_combo.currentText()) == ("base", first)
    table = bar.table
    header = table.horizontalHeader()
    for c in range(table.columnCount()):
        need = max(table.sizeHintForColumn(c), header.sectionSizeHint(c))
        assert table.columnWidth(c) >= need, c
    widths = sum(table.columnWidth(c) for c in range(table.columnCount()))
    assert widths <= table.viewport().width()
