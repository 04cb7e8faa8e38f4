"""Bands reach the dashboard tiles and the knob curve after the edits pause, never per step."""

from __future__ import annotations

import math

import pytest
from pytestqt.qtbot import QtBot

from app.charts import knob_curve as charts
from app.charts.knob_curve import KnobCurve
from app.document.bands import BandTracker, band_text, sources_text, tracker_for
from app.document.design_document import DesignDocument
from app.panels.dashboard import Dashboard
from models.engine.evaluation import Engine, evaluate_bands
from models.engine.kpis import KPI_BY_KEY
from models.examples import bundled as examples


def vaio(qtbot: QtBot, scenario: str = "base") -> tuple[DesignDocument, Dashboard, BandTracker]:
    doc = DesignDocument(examples.load("vaio-scaling"))
    doc.set_scenario(scenario)
    dash = Dashboard(doc)
    qtbot.addWidget(dash)
    return doc, dash, tracker_for(doc)


def test_tile_shows_the_vaio_band_with_a_filter(qtbot: QtBot) -> None:
    _, dash, tracker = vaio(qtbot, "iofilter")
    tile = dash.tiles["cpu_per_kiops"]
    qtbot.waitUntil(lambda: tile.band_label.text() != "")
    # 10-20% more CPU per 1K IOPS around the nominal 15%: symmetric, about +-4.3 %
    assert tile.band_label.text().startswith("range ±4.3")
    assert tile.band_label.isVisibleTo(dash)
    assert "storage-vaio-cpu-per-kiops-overhead" in tile.toolTip()
    assert tracker.bands is not None and tracker.bands.sources
    # figures that do not depend on the filter's CPU carry no band
    assert dash.tiles["total_iops"].band_label.text() == ""


def test_no_band_text_without_a_filter(qtbot: QtBot) -> None:
    _, dash, tracker = vaio(qtbot)
    with qtbot.waitSignal(tracker.bands_updated, timeout=5000):
        pass
    assert tracker.bands is not None and tracker.bands.sources == []
    for tile in dash.tiles.values():
        assert tile.band_label.text() == ""
        assert not tile.band_label.isVisibleTo(dash)
        assert "published ranges" not in tile.toolTip()


def test_a_burst_of_edits_leads_to_one_band_computation(qtbot: QtBot) -> None:
    doc, _, tracker = vaio(qtbot, "iofilter")
    with qtbot.waitSignal(tracker.bands_updated, timeout=5000):
        pass
    seen: list[object] = []
    tracker.bands_updated.connect(seen.append)
    for oio in (8, 16, 24, 32):
        doc.set_value("vm", "workload.io_oio", oio, merge_key="drag")
        doc.evaluate_now()
    assert seen == [] and tracker.pending
    qtbot.waitUntil(lambda: len(seen) == 1)
    assert not tracker.pending
    assert tracker.bands is not None and tracker.bands.runs[0] is doc.prediction


def test_band_text_formats() -> None:
    engine = Engine(examples.load("dense-web-farm"), "dense mode")
    bands = evaluate_bands(engine)
    kpi = KPI_BY_KEY["p95_response_ms"]
    text = band_text(bands, kpi.value, kpi.unit)
    assert text.endswith(" ms") and "–" in text  # dense mode's saving is not symmetric
    assert "consol-dense-mode-medium-cpu90-consolidation" in sources_text(bands)
    assert band_text(None, kpi.value, kpi.unit) == ""
    assert band_text(bands, KPI_BY_KEY["total_iops"].value) == ""


def test_knob_curve_shades_the_band_after_the_edits_pause(qtbot: QtBot) -> None:
    # one VM on LSI Logic SAS is bound by its vCPU's issue path, whose adapter cost is
    # published as a range ("PVSCSI reduces the CPIO by 10%-30%"): IOPS carry a band
    doc = DesignDocument(examples.load("vaio-scaling"))
    doc.set_scenario("1 VM")
    doc.set_value("vm", "vscsi", "lsi_sas")
    curve = KnobCurve(doc)
    qtbot.addWidget(curve)
    qtbot.waitUntil(lambda: curve.band_sweeps == 1, timeout=10000)
    assert curve.band_shown("iops") and curve.band_shown("latency")
    lo, hi = (e.getData()[1] for e in curve.band_edges["iops"])
    assert lo is not None and hi is not None and (hi >= lo).all() and (hi > lo).any()
    fill = curve.band_fills["iops"]
    assert fill.curves is not None and fill.curves[0] is curve.band_edges["iops"][0]
    # the band follows the drawn curve, point for point
    assert list(curve.band_edges["iops"][0].xData) == list(curve.iops_curve.xData)
    doc.undo_stack.undo()  # back to PVSCSI: no banded coefficient, the band goes away
    qtbot.waitUntil(lambda: not curve.band_shown("iops"), timeout=10000)
    assert curve.band_fills["iops"] is fill  # the same items, emptied with setData


def test_an_edit_cancels_a_band_sweep_under_way(qtbot: QtBot,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # a slow moment (a collection on the GUI thread while the band was timed) must not make
    # the curve skip its sweep as "too large": this test is about cancelling one
    monkeypatch.setattr(charts, "BAND_SWEEP_MAX_MS", math.inf)
    doc = DesignDocument(examples.load("vaio-scaling"))
    doc.set_scenario("1 VM")
    doc.set_value("vm", "vscsi", "lsi_sas")
    curve = KnobCurve(doc)
    qtbot.addWidget(curve)
    tracker = tracker_for(doc)
    with qtbot.waitSignal(tracker.bands_updated, timeout=10000):
        tracker.compute_now()  # as if the edits had paused: the sweep starts in the background
    assert curve.band_pending and curve.band_sweeps == 0
    doc.set_value("vm", "workload.io_oio", 16)
    doc.evaluate_now()  # a slider step: the sweep under way stops at once
    assert not curve.band_pending
    qtbot.waitUntil(lambda: curve.band_sweeps == 1, timeout=10000)  # and resumes after
    assert curve.band_shown("iops")


def test_report_kpi_table_lists_the_bands() -> None:
    from app.report.pages import figure_rows  # noqa: PLC0415
    from models.report.content import build  # noqa: PLC0415
    design = examples.load("dense-web-farm")
    for scenario, expect in (("dense mode", True), ("base", False)):
        rows = figure_rows(build(design, scenario, checks=False))
        assert any(row[2] for row in rows) == expect
    rows = figure_rows(build(design, "dense mode", checks=False))
    p95 = next(row for row in rows if row[0] == "p95 response")
    assert "–" in p95[2] and p95[2].endswith("ms")


def test_a_web_farms_band_ends_where_the_response_time_saturates(qtbot: QtBot) -> None:
    from models.core.prediction import SATURATED_MS  # noqa: PLC0415
    doc = DesignDocument(examples.load("dense-web-farm"))
    doc.set_scenario("dense mode")  # the dense-mode saving is a published range: a band
    curve = KnobCurve(doc)
    qtbot.addWidget(curve)
    assert curve.saturated_from is not None
    qtbot.waitUntil(lambda: curve.band_sweeps == 1, timeout=20000)
    assert curve.band_shown("latency")
    lo, hi = (e.getData()[1] for e in curve.band_edges["latency"])
    assert lo is not None and hi is not None
    # never the 10 s saturation marker: the band stops with the line
    assert (hi < SATURATED_MS).all() and (lo <= hi).all() and float(hi.max()) < 1000.0
