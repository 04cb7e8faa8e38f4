"""What the analysis tabs share: the copy they analyse, the rebuilt layout, and an
evaluation that stops a cancelled job."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from app.canvas.layout import overlapping_vms
from app.document.design_document import DesignDocument
from app.panels.analysis import AnalysisPanel
from app.panels.analysis.common import analysis_copy, place_rebuilt, stoppable
from app.support.jobs import Cancelled, Runner
from models.analysis import rebuild
from models.core.compiled import compile_design
from models.examples import bundled as examples


def test_panel_alone_and_rebuilt_layout(qtbot: QtBot) -> None:
    doc = DesignDocument(examples.load("dense-web-farm"))
    panel = AnalysisPanel(doc)
    qtbot.addWidget(panel)
    design = analysis_copy(doc)
    new, _ = rebuild(design, n_hosts=3)
    place_rebuilt(doc.design, new)
    hosts = new.of_kind("host")
    assert len({(h.x, h.y) for h in hosts}) == 3  # host copies apart
    assert overlapping_vms(new) == 0  # their cards (157 VMs each) overlap nothing


def test_analysis_copy_follows_the_scenario_and_is_its_own(qtbot: QtBot) -> None:
    doc = DesignDocument(examples.load("vaio-scaling"))
    doc.set_scenario("1 VM")
    copy = analysis_copy(doc)
    oio = {c.id: c.props["workload.io_oio"] for c in copy.of_kind("vm")}
    assert oio["v2"] == 0 != doc.design.of_kind("vm")[1].props["workload.io_oio"]  # "1 VM"
    assert copy.scenarios == []
    copy.of_kind("vm")[0].props["workload.io_oio"] = 99
    assert all(c.props.get("workload.io_oio") != 99 for c in doc.design.components)


def test_a_stoppable_evaluation_raises_once_cancelled(qtbot: QtBot) -> None:
    task = Runner().submit(lambda _t: None)
    c = compile_design(examples.load(examples.DEFAULT_EXAMPLE))
    evaluate = stoppable(task)
    assert evaluate(c).total_iops > 0
    task.cancel()
    with pytest.raises(Cancelled):
        evaluate(c)
