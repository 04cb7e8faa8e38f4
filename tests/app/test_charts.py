"""Knob curve, utilisation chart and evidence view follow the document."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent
from pytestqt.qtbot import QtBot

from app import evidence as evidence_mod
from app.charts import (
    KnobCurve,
    UtilisationChart,
    level_colour,
    sweep_values,
)
from app.document import DesignDocument
from app.evidence import Evidence, EvidenceView
from app.knob_panel import KnobPanel
from models import examples
from models.calibration import Check, cases
from models.knobs import knob

OIO = "vm.workload.io_oio"


def n_points(item: object) -> int:
    xs = getattr(item, "xData", None)
    return 0 if xs is None else len(xs)


def cell(view: EvidenceView, row: int, col: int) -> str:
    item = view.table.item(row, col)
    assert item is not None
    return item.text()


def make_doc() -> DesignDocument:
    return DesignDocument(examples.load(examples.DEFAULT_EXAMPLE))


def test_sweep_values() -> None:
    k = knob(OIO)
    assert k is not None
    values = sweep_values(k)
    assert values[0] == 1 and values[-1] == 256
    nums = [float(v) for v in values if isinstance(v, (int, float))]
    assert nums == sorted(nums) and len(set(nums)) == len(values)
    ft = knob("vm.ft")
    assert ft is not None and sweep_values(ft) == [False, True]
    raid = knob("storage_array.raid")
    assert raid is not None and sweep_values(raid) == list(raid.spec.choices or ())


def test_curve_is_drawn_and_operating_point_moves(qtbot: QtBot) -> None:
    doc = make_doc()
    curve = KnobCurve(doc)
    qtbot.addWidget(curve)
    assert curve.knob is not None and curve.knob.path == OIO
    k = curve.knob
    xs = curve.latency_curve.xData
    assert xs is not None and list(xs) == [float(v) for v in sweep_values(k)]  # type: ignore[arg-type]
    assert list(curve.point_latency.xData) == [128.0]
    assert doc.prediction is not None
    assert list(curve.point_latency.yData) == [doc.prediction.mean_latency_ms]
    items = list(curve.latency_plot.listDataItems())
    sweeps = curve.sweeps
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        doc.set_value("vm", "workload.io_oio", 16)
    assert list(curve.point_latency.xData) == [16.0]
    assert list(curve.point_iops.yData) == [doc.prediction.total_iops]
    assert list(curve.latency_plot.listDataItems()) == items  # updated, not redrawn
    assert curve.sweeps == sweeps  # moving the curve's own knob does not sweep again
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        doc.undo_stack.undo()
    assert list(curve.point_latency.xData) == [128.0]


def test_bursts_of_other_knobs_lead_to_one_sweep(qtbot: QtBot) -> None:
    doc = make_doc()
    curve = KnobCurve(doc)
    curve.follow.setChecked(False)
    qtbot.addWidget(curve)
    sweeps = curve.sweeps
    for kb in (4, 8, 16, 32, 64):
        doc.set_value("vm", "workload.io_block_kb", kb, merge_key="burst")
    qtbot.waitUntil(lambda: curve.sweeps > sweeps, timeout=5000)
    assert curve.sweeps == sweeps + 1
    assert curve.knob is not None and curve.knob.path == OIO


def test_curve_follows_the_last_knob_moved(qtbot: QtBot) -> None:
    doc = make_doc()
    curve = KnobCurve(doc)
    panel = KnobPanel(doc)
    panel.knob_touched.connect(curve.follow_knob)
    qtbot.addWidget(curve)
    qtbot.addWidget(panel)
    slider = panel.row("vm.workload.io_read_pct").slider
    assert slider is not None
    with qtbot.waitSignal(curve.knob_changed, timeout=5000):
        slider.setValue(2)
    assert curve.knob is not None and curve.knob.path == "vm.workload.io_read_pct"
    assert list(curve.point_latency.xData) == [10.0]
    combo = curve.combo
    index = combo.findData("storage_array.raid")
    combo.setCurrentIndex(index)
    combo.activated.emit(index)
    assert curve.knob.path == "storage_array.raid"
    k = curve.knob
    # synchronous, or after a pause when the last sweep was slow (a loaded machine)
    qtbot.waitUntil(lambda: n_points(curve.latency_curve) == len(sweep_values(k)), timeout=5000)


def test_utilisation_bars_follow_the_prediction(qtbot: QtBot) -> None:
    doc = make_doc()
    chart = UtilisationChart(doc)
    qtbot.addWidget(chart)
    p = doc.prediction
    assert p is not None
    expected = [(r.component, r.resource, r.util) for r in p.bottlenecks(chart.MAX_BARS)]
    assert chart.shown == expected
    assert len(chart.bars.opts["width"]) == len(expected)
    assert chart.empty_text.isVisible() == (not expected)
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        doc.set_value("design", "policy.cpu_util_max", 0.7)
    assert chart.ceiling_line.value() == pytest.approx(0.7)
    assert level_colour(0.5) == "#27ae60"
    assert level_colour(0.8) == "#f39c12"
    assert level_colour(1.3) == "#c0392b"


@pytest.fixture
def fake_evidence(monkeypatch: pytest.MonkeyPatch) -> Evidence:
    ids = list(cases())[:3]
    checks = [Check(ids[0], "IOPS", 1000.0, 1050.0, 0.1, role="fit"),
              Check(ids[1], "latency", 2.0, 3.0, 0.2, role="check"),
              Check(ids[2], "limit", 4.0, 0.0, 0.0, role="rule")]
    ev = Evidence(checks, ["storage", "ft", "ft"], {"network": "ImportError: broken"})
    monkeypatch.setattr(evidence_mod, "_EVIDENCE", ev)
    return ev


def test_evidence_table_plot_and_quote(qtbot: QtBot, fake_evidence: Evidence) -> None:
    view = EvidenceView(make_doc())
    qtbot.addWidget(view)
    assert view.table.rowCount() == 0  # computed lazily
    view.ensure_loaded()
    assert view.table.rowCount() == 3
    texts = {cell(view, r, 0): cell(view, r, 9) for r in range(3)}
    first, second, third = (c.case_id for c in fake_evidence.checks)
    assert texts == {first: "yes", second: "NO", third: "NO"}
    assert list(view.points["storage"].xData) == [3.0]
    assert n_points(view.points["ft"]) == 1  # the zero model value is not plotted
    assert "1 not plotted" in view.summary.text()
    assert "network" in view.summary.text()
    row = next(r for r in range(3) if cell(view, r, 0) == second)
    view.table.setCurrentCell(row, 0)
    quote = str(cases()[second]["quote"])
    assert quote[:40] in view.quote.toPlainText()
    assert str(cases()[second]["study"]) in view.quote.toPlainText()
    assert n_points(view.selected) == 1
    view.filter.setCurrentIndex(view.filter.findData("storage"))
    hidden = [view.table.isRowHidden(r) for r in range(3)]
    assert hidden.count(False) == 1
    assert n_points(view.points["ft"]) == 0


def test_evidence_is_computed_once(qtbot: QtBot, fake_evidence: Evidence) -> None:
    assert evidence_mod.evidence() is fake_evidence
    a, b = EvidenceView(make_doc()), EvidenceView(make_doc())
    qtbot.addWidget(a)
    qtbot.addWidget(b)
    a.ensure_loaded()
    b.ensure_loaded()
    assert a.evidence is b.evidence is fake_evidence
    item = a.table.item(0, 0)
    assert item is not None and item.data(Qt.ItemDataRole.UserRole) is not None


def test_evidence_loads_after_being_shown(qtbot: QtBot, fake_evidence: Evidence) -> None:
    view = EvidenceView(make_doc())
    qtbot.addWidget(view)
    view.showEvent(QShowEvent())
    assert view.evidence is None  # the window paints first
    qtbot.waitUntil(lambda: view.table.rowCount() == len(fake_evidence.checks), timeout=5000)


def test_slow_sweeps_wait_for_a_pause(qtbot: QtBot) -> None:
    doc = make_doc()
    curve = KnobCurve(doc)
    qtbot.addWidget(curve)
    curve.last_sweep_ms = 10_000.0  # as on a very large design
    sweeps = curve.sweeps
    curve.set_knob("vm.workload.io_read_pct")
    assert curve.sweeps == sweeps  # the knob switch does not block on a sweep
    assert n_points(curve.latency_curve) == 0
    qtbot.waitUntil(lambda: curve.sweeps == sweeps + 1, timeout=5000)
    assert n_points(curve.latency_curve) == len(sweep_values(curve.knob))  # type: ignore[arg-type]


def test_curve_opens_on_the_knob_that_matters_for_the_design(qtbot: QtBot) -> None:
    from app.charts import KnobCurve, default_knob  # noqa: PLC0415
    from app.document import DesignDocument  # noqa: PLC0415
    from models import examples  # noqa: PLC0415

    web = examples.load("dense-web-farm")
    io = examples.load("vaio-scaling")
    assert (k := default_knob(web)) is not None and k.path == "vm.workload.req_per_s"
    assert (k := default_knob(io)) is not None and k.path == "vm.workload.io_oio"
    doc = DesignDocument(io)
    curve = KnobCurve(doc)
    qtbot.addWidget(curve)
    assert curve.knob is not None and curve.knob.path == "vm.workload.io_oio"
    doc.replace_design(web)
    assert curve.knob is not None and curve.knob.path == "vm.workload.req_per_s"


def test_curve_plots_response_time_for_a_web_farm() -> None:
    from app.charts import latencies  # noqa: PLC0415
    from models import examples  # noqa: PLC0415
    from models.engine import evaluate  # noqa: PLC0415

    web = evaluate(examples.load("dense-web-farm"))
    assert latencies(web) == (web.mean_response_ms, web.p95_response_ms)
    assert latencies(web)[0] > 0
    io = evaluate(examples.load("vaio-scaling"))
    assert latencies(io) == (io.mean_latency_ms, io.p95_latency_ms)
