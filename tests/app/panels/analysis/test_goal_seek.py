"""Goal seek driven as a user does: Seek, read the answer, Apply (one undo step, Ctrl+Z
restores), an edit after the seek disables Apply, Cancel drops the answer."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from models.analysis import SeekResult
from models.examples import bundled as examples
from tests.app.panels.analysis.windows import SLOW_MS, make, menu_action


def test_seek_fewest_hosts_apply_and_ctrl_z_restores(qtbot: QtBot) -> None:
    window = make(qtbot, "dense-web-farm")
    doc, tab = window.document, window.analysis.goal_seek
    hosts_before = [c.id for c in doc.design.of_kind("host")]
    components_before = len(doc.design.components)
    menu_action(window, "Goal Seek")
    tab.goal_combo.setCurrentIndex(tab.goal_combo.findData("hosts"))
    with qtbot.waitSignal(tab.seek_finished, timeout=SLOW_MS) as blocker:
        qtbot.mouseClick(tab.seek_button, Qt.MouseButton.LeftButton)
    result = blocker.args[0]
    assert isinstance(result, SeekResult) and result.value is not None
    assert result.value > len(hosts_before)  # one host cannot carry 470 VMs within policy
    assert f"{result.value} hosts" in tab.seek_answer.text()
    assert tab.apply_button.isEnabled()
    count = doc.undo_stack.count()
    qtbot.mouseClick(tab.apply_button, Qt.MouseButton.LeftButton)
    assert doc.undo_stack.count() == count + 1  # ONE undo step
    assert len(doc.design.of_kind("host")) == result.value
    assert len(doc.design.of_kind("vm")) == 470
    assert not tab.apply_button.isEnabled()
    positions = {(c.x, c.y) for c in doc.design.of_kind("vm")}
    assert len(positions) == 470  # laid out, not piled on one spot
    qtbot.keySequence(window, QKeySequence("Ctrl+Z"))
    assert [c.id for c in doc.design.of_kind("host")] == hosts_before
    assert len(doc.design.components) == components_before
    assert window.scene.item(hosts_before[0]) is not None
    qtbot.keySequence(window, QKeySequence("Ctrl+Shift+Z"))
    assert len(doc.design.of_kind("host")) == result.value


def test_seek_largest_oio_applies_to_every_vm_as_one_step(qtbot: QtBot) -> None:
    window = make(qtbot, examples.DEFAULT_EXAMPLE)
    doc, tab = window.document, window.analysis.goal_seek
    before = doc.value("vm", "workload.io_oio")
    with qtbot.waitSignal(tab.seek_finished, timeout=SLOW_MS) as blocker:
        tab.run_seek("oio")
    result = blocker.args[0]
    assert isinstance(result, SeekResult) and result.goal == "oio"
    assert result.value is not None
    count = doc.undo_stack.count()
    qtbot.mouseClick(tab.apply_button, Qt.MouseButton.LeftButton)
    assert doc.undo_stack.count() == count + 1
    assert doc.value("vm", "workload.io_oio") == result.value
    doc.undo_stack.undo()
    assert doc.value("vm", "workload.io_oio") == before


def test_an_edit_after_the_seek_disables_apply(qtbot: QtBot) -> None:
    window = make(qtbot, examples.DEFAULT_EXAMPLE)
    doc, tab = window.document, window.analysis.goal_seek
    with qtbot.waitSignal(tab.seek_finished, timeout=SLOW_MS):
        tab.run_seek("oio")
    assert tab.apply_button.isEnabled()
    with qtbot.waitSignal(doc.prediction_updated):
        doc.set_value("vm", "workload.io_block_kb", 16.0)
    assert not tab.apply_button.isEnabled()
    assert "seek again" in tab.seek_detail.text()


def test_cancelled_seek_shows_no_answer(qtbot: QtBot) -> None:
    window = make(qtbot, examples.DEFAULT_EXAMPLE)
    tab = window.analysis.goal_seek
    tab.run_seek("oio")
    assert tab.seek_cancel.isEnabled() and not tab.seek_button.isEnabled()
    qtbot.mouseClick(tab.seek_cancel, Qt.MouseButton.LeftButton)
    assert tab.seek_button.isEnabled()
    assert tab.seek_answer.text() == "Goal seek cancelled."
    window.analysis.shutdown()  # the job stops; its answer is dropped
    QApplication.processEvents()
    assert tab.seek_result is None and tab.seek_answer.text() == "Goal seek cancelled."


def test_a_failing_seek_says_why(qtbot: QtBot) -> None:
    window = make(qtbot, examples.DEFAULT_EXAMPLE)
    doc, tab = window.document, window.analysis.goal_seek
    doc.remove_components([c.id for c in doc.design.of_kind("vm")])
    with qtbot.waitSignal(tab.runner.failed, timeout=SLOW_MS):
        tab.run_seek("oio")
    assert tab.seek_answer.text() == "Goal seek failed."
    assert "no VMs" in tab.seek_detail.text() and tab.seek_button.isEnabled()


def test_seek_the_growth_of_an_estates_measured_io(qtbot: QtBot, tmp_path: Path) -> None:
    from app.document.design_document import DesignDocument  # noqa: PLC0415
    from app.panels.analysis.goal_seek import GoalSeekTab  # noqa: PLC0415
    from models.io.importers.liveoptics import import_liveoptics  # noqa: PLC0415
    from tests.liveoptics import workbook, write  # noqa: PLC0415

    design, _ = import_liveoptics(write(tmp_path / "lo.xlsx", workbook(4, 24, seed=3).sheets),
                                  stat="average")
    doc = DesignDocument(design)
    tab = GoalSeekTab(doc)
    qtbot.addWidget(tab)
    with qtbot.waitSignal(tab.seek_finished, timeout=SLOW_MS) as blocker:
        tab.run_seek("iops")
    result = blocker.args[0]
    assert isinstance(result, SeekResult) and result.value is not None and result.value > 100
    assert "% of today's I/O" in tab.seek_answer.text() and "IOPS" in tab.seek_answer.text()
    assert not tab.apply_button.isEnabled()  # an answer, not a change
    doc.undo_stack.setClean()
