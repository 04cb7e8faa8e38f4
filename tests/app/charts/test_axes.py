"""One axis-label policy for every chart: the unit in parentheses, never an SI prefix, ticks
as numbers (app/charts/axes.py and its use in app/charts/plots.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from app.charts.axes import axis_title, tick_text
from app.charts.knob_curve import KnobCurve
from app.charts.plots import UnitAxis, label_axis, plot_widget
from app.charts.utilisation import UtilisationChart
from app.document.design_document import DesignDocument
from app.panels.evidence import EvidenceView
from app.report.charts import per_vm_figures
from models.document.knobs import knobs_for
from models.engine.evaluation import evaluate
from models.examples import bundled as examples


def text(axis: Any) -> str:
    """The title an axis shows, as plain text."""
    return re.sub(r"<[^>]+>", "", axis.labelString()).strip()


def test_a_title_carries_its_unit_once_and_a_fraction_as_percent() -> None:
    assert axis_title("Message size", "bytes") == "Message size (bytes)"
    assert axis_title("Item size", "GB") == "Item size (GB)"
    assert axis_title("Read share", "fraction") == "Read share (%)"
    assert axis_title("Outstanding I/Os", "I/Os") == "Outstanding I/Os"
    assert axis_title("total IOPS") == "total IOPS"


def test_ticks_are_numbers_shortened_from_ten_thousand_never_a_unit_prefix() -> None:
    assert [tick_text(v) for v in (0.0, 0.5, 500.0, 2000.0, 75_000.0, 1e6, 2.5e6)] == \
        ["0", "0.5", "500", "2,000", "75k", "1M", "2.5M"]
    assert tick_text(0.25, "fraction") == "25"
    assert tick_text(1e-17) == "0"  # rounding noise at zero


def test_no_axis_takes_an_si_prefix_whatever_its_range(qtbot: QtBot) -> None:
    plots = plot_widget()
    qtbot.addWidget(plots)
    plot = plots.addPlot()
    assert isinstance(plot.getAxis("bottom"), UnitAxis)
    for log in (False, True):
        plot.setLogMode(x=log, y=False)
        label_axis(plot, "bottom", "Message size", "bytes")
        plot.setXRange(1.0, 27.0 if log else 1e27)  # "(e27bytes)" before
        plot.setXRange(1.0, 4.0 if log else 9e3)  # "(kbytes)" before
        assert text(plot.getAxis("bottom")) == "Message size (bytes)"
        assert plot.getAxis("bottom").autoSIPrefixScale == 1.0


def test_a_log_axis_labels_only_the_decades_that_fit() -> None:
    axis = UnitAxis("bottom")
    axis.setLogMode(True)
    narrow = axis.tickValues(-1.0, 6.0, 100.0)
    assert narrow[0] == (3.0, [0.0, 3.0, 6.0])  # 1, 1,000, 1M: text for every third
    assert axis.tickStrings(narrow[0][1], 1.0, narrow[0][0]) == ["1", "1,000", "1M"]
    assert axis.tickStrings(narrow[1][1], 1.0, narrow[1][0]) == [""] * len(narrow[1][1])
    wide = axis.tickValues(-1.0, 6.0, 800.0)
    assert wide == [(1.0, [-1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0])]


def test_every_example_s_curve_axes_read_without_prefixes_after_browsing(qtbot: QtBot) -> None:
    """One window browsing every example (a stale prefix once read "(kI/Os)" on the VAIO
    chart after the others, "(kbytes)" on netperf's byte axis and "(kGB)" on item size),
    and the operating point sits on the curve it marks."""
    doc = DesignDocument(examples.load("vaio-scaling"))
    curve = KnobCurve(doc)
    qtbot.addWidget(curve)
    for name in [*examples.names(), "vaio-scaling"]:
        doc.replace_design(examples.load(name))
        # swept at once, or (on a slow machine) soon after
        qtbot.waitUntil(lambda: curve.iops_curve.getData()[0] is not None, timeout=10000)
        k = curve.knob
        assert k is not None
        assert text(curve.iops_plot.getAxis("bottom")) == axis_title(k.label, k.unit), name
        for plot in (curve.latency_plot, curve.iops_plot):
            for side in ("left", "bottom"):
                assert plot.getAxis(side).autoSIPrefixScale == 1.0, (name, side)
        p = doc.prediction
        assert p is not None
        ys = curve.point_iops.yData
        if ys is not None and len(ys):
            assert ys[0] == pytest.approx(curve.throughput(p)), name
            xs, curve_ys = curve.iops_curve.getData()
            on = [i for i, x in enumerate(xs) if x == curve.point_iops.xData[0]]
            for i in on:  # the point's value is one the curve plots: on it
                assert ys[0] == pytest.approx(curve_ys[i], rel=1e-6, abs=1e-9), name
    assert text(curve.iops_plot.getAxis("bottom")) == "Outstanding I/Os"


def test_the_knob_curve_titles_every_knob_by_the_policy(qtbot: QtBot) -> None:
    doc = DesignDocument(examples.load("ft-netperf"))
    curve = KnobCurve(doc)
    qtbot.addWidget(curve)
    for k in knobs_for(doc.design):
        curve.set_knob(k.path)
        # the knob's own unit as the schema gives it, whatever the range swept
        assert text(curve.iops_plot.getAxis("bottom")) == axis_title(k.label, k.unit)


def test_utilisation_evidence_and_report_titles_follow_the_policy(qtbot: QtBot) -> None:
    doc = DesignDocument(examples.load("vaio-scaling"))
    chart = UtilisationChart(doc)
    evidence = EvidenceView(doc)
    qtbot.addWidget(chart)
    qtbot.addWidget(evidence)
    assert text(chart.plot.getAxis("bottom")) == "utilisation (%)"
    assert text(evidence.plot.getAxis("bottom")) == "published"
    assert isinstance(evidence.plot.getAxis("left"), UnitAxis)
    estate = examples.load("vaio-scaling")
    figures = per_vm_figures(evaluate(estate))
    assert figures.upper_title == "IOPS per VM"
