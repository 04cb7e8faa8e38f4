"""The knob curve follows the document: the last knob moved, its operating point, and a new
sweep when anything else changed (utilisation bars: test_utilisation.py; the figures and
values it sweeps: tests/models/engine/test_metrics.py and test_sweep.py)."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from app.charts import knob_curve
from app.charts.knob_curve import KnobCurve, legend_offset
from app.document.design_document import DesignDocument
from app.panels.knob_panel import KnobPanel
from models.document.design import Component, Design, Link
from models.document.knobs import default_knob
from models.engine.sweep import curve_values
from models.examples import bundled as examples

OIO = "vm.workload.io_oio"


def n_points(item: object) -> int:
    xs = getattr(item, "xData", None)
    return 0 if xs is None else len(xs)


def make_doc() -> DesignDocument:
    return DesignDocument(examples.load(examples.DEFAULT_EXAMPLE))


def test_curve_is_drawn_and_operating_point_moves(qtbot: QtBot) -> None:
    doc = make_doc()
    curve = KnobCurve(doc)
    qtbot.addWidget(curve)
    assert curve.knob is not None and curve.knob.path == OIO
    k = curve.knob
    xs = curve.latency_curve.xData
    assert xs is not None and list(xs) == [float(v) for v in curve_values(k)]  # type: ignore[arg-type]
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
    panel = KnobPanel(doc)  # not connected to the curve: the curve follows the document
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
    qtbot.waitUntil(lambda: n_points(curve.latency_curve) == len(curve_values(k)), timeout=5000)


def test_any_edit_of_a_knob_is_followed_and_swept_once(qtbot: QtBot) -> None:
    """The document is the curve's one road: an edit of a knob's property from anywhere (a
    selection, the inspector, an undo) makes the curve that knob's, swept once; moving that
    knob again moves the point only; anything else sweeps again."""
    doc = make_doc()
    curve = KnobCurve(doc)
    qtbot.addWidget(curve)
    sweeps = curve.sweeps
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        doc.set_values(["id:v1"], "workload.io_read_pct", 50)  # a selection: the VM knob
    assert curve.knob is not None and curve.knob.path == "vm.workload.io_read_pct"
    assert curve.sweeps == sweeps + 1  # the switch swept; its prediction does not again
    assert not curve._timer.isActive()
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        doc.set_value("vm", "workload.io_read_pct", 30)
    assert curve.sweeps == sweeps + 1 and not curve._timer.isActive()
    assert list(curve.point_latency.xData) == [30.0]
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        doc.undo_stack.undo()  # an undo is a move of the same knob
    assert curve.operating_x() is None  # v1 at 50, the others back at their own
    assert curve.sweeps == sweeps + 1
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        doc.undo_stack.undo()  # back on read % for every VM: still the knob last moved
    assert curve.knob.path == "vm.workload.io_read_pct"
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        doc.set_value("design", "name", "renamed")  # not a knob: the curve stays, sweeps
    assert curve.knob.path == "vm.workload.io_read_pct"
    qtbot.waitUntil(lambda: curve.sweeps == sweeps + 2, timeout=5000)
    curve.follow.setChecked(False)
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        doc.set_value("storage_array", "raid", "raid10")
    assert curve.knob.path == "vm.workload.io_read_pct"  # not following: another knob
    qtbot.waitUntil(lambda: curve.sweeps == sweeps + 3, timeout=5000)  # changed the curve


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
    assert n_points(curve.latency_curve) == len(curve_values(curve.knob))  # type: ignore[arg-type]


def test_curve_opens_on_the_knob_that_matters_for_the_design(qtbot: QtBot) -> None:
    from app.charts.knob_curve import KnobCurve  # noqa: PLC0415
    from app.document.design_document import DesignDocument  # noqa: PLC0415
    from models.examples import bundled as examples  # noqa: PLC0415

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


@pytest.mark.parametrize(("example", "path"), [
    ("ft-netperf", "vm.workload.net_msg_bytes"),
    ("file-transfer-10g", "vm.workload.net_msg_bytes"),  # netperf VMs beside idle ones
    ("multicast-receivers", "vm.workload.multicast_pps"),
    ("vdi-pcoip", "vm.workload.pcoip_kbps"),
])
def test_a_network_design_opens_on_its_workload_knob(example: str, path: str) -> None:
    k = default_knob(examples.load(example))
    assert k is not None and k.path == path


def test_an_application_design_opens_on_its_sites_or_its_users() -> None:
    """A closed loop of application users does not move with outstanding I/Os: a stretched
    cluster opens on the inter-site latency (its study's curve), an application elsewhere on
    its users."""
    stretched = examples.load("stretched-vsan")
    assert (k := default_knob(stretched)) is not None and k.path == "wan.rtt_ms"
    stretched.links = [lk for lk in stretched.links if lk.kind != "wan"]
    assert (k := default_knob(stretched)) is not None and k.path == "vm.workload.app_users"


def test_lower_plot_shows_network_throughput_when_there_is_no_storage_io(qtbot: QtBot) -> None:
    doc = DesignDocument(examples.load("file-transfer-10g"))
    curve = KnobCurve(doc)
    qtbot.addWidget(curve)
    p = doc.prediction
    assert p is not None and p.total_iops == 0 and p.vms.net_gbps.sum() > 0
    assert curve.iops_plot.getAxis("left").labelText == "net Gbit/s"
    assert list(curve.point_iops.yData) == [pytest.approx(float(p.vms.net_gbps.sum()))]
    ys = curve.iops_curve.yData
    assert ys is not None and max(ys) > min(ys)  # small messages cost CPU per packet
    # no time to plot: the time plot folds away and the throughput plot spans the knob's
    # range alone (64 B to 64 KB, not out to 1 B where an empty band's bounds pulled it)
    assert not curve.latency_plot.isVisible()
    (x0, x1), _ = curve.iops_plot.getViewBox().childrenBounds()  # what auto-range fits
    assert x0 == pytest.approx(math.log10(64), abs=0.02)  # the pen's width pads a little
    assert x1 == pytest.approx(math.log10(65536), abs=0.02)
    io = make_doc()
    curve_io = KnobCurve(io)
    qtbot.addWidget(curve_io)
    assert curve_io.iops_plot.getAxis("left").labelText == "total IOPS"
    assert curve_io.latency_plot.isVisible()


def test_time_plot_comes_back_when_the_design_gains_storage_io(qtbot: QtBot) -> None:
    doc = make_doc()
    curve = KnobCurve(doc)
    qtbot.addWidget(curve)
    curve.show_time_plot(False)
    assert not curve.latency_plot.isVisible()
    curve.update_curve()  # a storage design has latencies: the plot is shown again, linked
    assert curve.latency_plot.isVisible()
    assert curve.iops_plot.getViewBox().linkedView(0) is curve.latency_plot.getViewBox()


def test_library_design_plots_job_time_against_item_size(qtbot: QtBot) -> None:
    """A design whose only work is Content Library jobs opens on item size: minutes per job
    (mean and slowest) above, MB/s moved below."""
    doc = DesignDocument(examples.load("content-library"))
    curve = KnobCurve(doc)
    qtbot.addWidget(curve)
    assert curve.knob is not None and curve.knob.path == "content_library.item_gb"
    assert curve.latency_plot.isVisible()
    assert curve.latency_plot.getAxis("left").labelText == "job (min)"
    assert curve.legend.getLabel(curve.p95_curve).text == "slowest"
    mean, slowest = curve.latency_curve.yData, curve.p95_curve.yData
    assert mean is not None and slowest is not None
    assert all(b >= a for a, b in itertools.pairwise(mean))  # bigger items: longer
    assert all(s >= m for m, s in zip(mean, slowest, strict=True))
    assert curve.operating_x() is None  # the libraries' items differ in size: no one point
    doc.set_value("content_library", "item_gb", 10.0)
    doc.evaluate_now()
    p = doc.prediction
    assert p is not None and curve.operating_x() == 10.0
    assert list(curve.point_latency.yData) == [pytest.approx(p.library_mean_s / 60)]
    assert list(curve.point_iops.yData) == [pytest.approx(p.library_mb_per_s)]
    assert curve.iops_plot.getAxis("left").labelText == "MB/s moved"
    io = KnobCurve(make_doc())  # back on a storage design: ms and p95 again
    qtbot.addWidget(io)
    assert io.latency_plot.getAxis("left").labelText == "time (ms)"
    assert io.legend.getLabel(io.p95_curve).text == "p95"


def test_flat_curve_ranges_from_zero_and_says_so(qtbot: QtBot) -> None:
    """The Oracle VM issues a set IOPS rate (open loop): it opens on the arrays' drives, as
    outstanding I/Os move nothing (nor are they offered); drawn anyway, the axes start at 0
    instead of zooming into rounding noise ("155000" on every tick)."""
    doc = DesignDocument(examples.load("oracle-monster-vm"))
    curve = KnobCurve(doc)
    qtbot.addWidget(curve)
    assert curve.knob is not None and curve.knob.path == "storage_array.disks"  # it moves
    assert "vm.workload.io_oio" not in [curve.combo.itemData(i)  # nor is it offered
                                        for i in range(curve.combo.count())]
    curve.set_knob("vm.workload.io_oio")
    assert curve.flat and "Flat:" in curve.status.text()
    p = doc.prediction
    assert p is not None
    _, (y0, y1) = curve.iops_plot.viewRange()
    assert y0 == 0.0 and y1 == pytest.approx(1.2 * p.total_iops)
    moving = KnobCurve(make_doc())
    qtbot.addWidget(moving)
    assert not moving.flat and "Flat" not in moving.status.text()


def test_web_curve_zooms_to_where_the_farm_saturates_and_breaks_the_line(qtbot: QtBot) -> None:
    doc = DesignDocument(examples.load("dense-web-farm"))
    curve = KnobCurve(doc)
    qtbot.addWidget(curve)
    assert curve.knob is not None and curve.knob.path == "vm.workload.req_per_s"
    sat = curve.saturated_from
    xs, ys = curve.latency_curve.xData, curve.latency_curve.yData
    assert sat is not None and xs is not None and ys is not None
    # the knob goes to 2,000 requests/s; the curve stops just past the saturation point
    assert max(xs) < 0.1 * 2000 and sat <= max(xs)
    finite = [y for x, y in zip(xs, ys, strict=True) if x < sat]
    assert len(finite) >= 8 and all(0 < y < 10_000 for y in finite)  # many steps lead up
    assert all(math.isnan(y) for x, y in zip(xs, ys, strict=True) if x >= sat)  # a break
    net = curve.iops_curve.yData  # no steady state past saturation: no throughput either
    assert net is not None
    assert all(math.isnan(y) for x, y in zip(xs, net, strict=True) if x >= sat)
    assert all(y > 0 for x, y in zip(xs, net, strict=True) if 0 < x < sat)
    assert "Saturated" in curve.status.text()
    doc.set_value("vm", "workload.req_per_s", 5.0)  # another knob value: the same view
    doc.evaluate_now()
    assert curve.operating_x() == 5.0


def test_from_nothing_the_curve_says_how_to_begin_then_opens_on_the_knob_that_matters(
        qtbot: QtBot) -> None:
    """An empty design draws no flat line but a hint; adding a host, a VM and an array moves
    the curve to outstanding I/Os (not the CPU ceiling it had); a knob the user chose stays."""
    doc = DesignDocument(Design(name="new"))
    curve = KnobCurve(doc)
    qtbot.addWidget(curve)
    curve.show()
    assert not curve.plots.isVisible() and curve.status.text().startswith("No VMs yet")
    doc.add_components([Component("h1", "host", "esx-01"),
                        Component("a1", "storage_array", "array-1"),
                        Component("v1", "vm", "db-01")],
                       [Link("v1", "h1", "runs_on"), Link("v1", "a1", "disk_on")])
    qtbot.waitUntil(lambda: curve.knob is not None and curve.knob.path == OIO)
    qtbot.waitUntil(curve.plots.isVisible)
    assert not curve.flat and "every VM" in curve.status.text()
    curve.combo.activated.emit(curve.combo.findData("storage_array.disks"))
    assert curve.knob is not None and curve.knob.path == "storage_array.disks"
    doc.add_component(Component("v2", "vm", "db-02"))
    assert curve.knob.path == "storage_array.disks"  # the user's choice stays


def test_a_large_design_sweeps_its_curve_in_the_background(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """A design over the component threshold never sweeps on the GUI thread: the window
    opens first and the curve fills in from a job (issue 18)."""
    monkeypatch.setattr(knob_curve, "BACKGROUND_COMPONENTS", 5)
    monkeypatch.setattr(knob_curve, "BACKGROUND_DELAY_MS", 0)
    doc = make_doc()
    curve = KnobCurve(doc)
    qtbot.addWidget(curve)
    assert curve.sweeps == 0 and n_points(curve.latency_curve) == 0  # not on the GUI thread
    qtbot.waitUntil(lambda: curve.sweeps == 1, timeout=10000)
    k = curve.knob
    assert k is not None and n_points(curve.latency_curve) == len(curve_values(k))
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        doc.set_value("vm", "vaio_filter", "cache")  # another knob: sweep again
    qtbot.waitUntil(lambda: curve.sweeps == 2, timeout=10000)


def test_an_imported_estate_opens_on_its_growth(qtbot: QtBot, tmp_path: Path) -> None:
    """An estate opens on a question an estate's what-if starts from (issue 39: it opened on
    cores per socket): measured without I/O, its measured CPU demand grown, its hosts' CPU
    above and the hosts needed below, both rising; once a VM has measured I/O, its storage
    I/O grown; with growth rates, the year."""
    from models.io.importers.rvtools import import_rvtools  # noqa: PLC0415
    from tests.estates import estate, write_xlsx  # noqa: PLC0415

    design, _ = import_rvtools(write_xlsx(tmp_path / "e.xlsx", estate(6, 60, seed=3).sheets))
    assert (k := default_knob(design)) is not None and k.path == "design.demand.cpu_pct"
    curve = KnobCurve(DesignDocument(design))
    qtbot.addWidget(curve)
    assert curve.knob is not None and curve.knob.path == "design.demand.cpu_pct"
    assert curve.latency_plot.isVisible()
    assert curve.latency_plot.getAxis("left").labelText == "host CPU (%)"
    assert curve.iops_plot.getAxis("left").labelText == "hosts needed"
    assert curve.legend.getLabel(curve.latency_curve).text == "mean host"
    assert tuple(curve.legend.opts["offset"]) == legend_offset(  # where the curves are low
        curve.latency_curve.yData, curve.p95_curve.yData)
    mean = [float(y) for y in curve.latency_curve.yData if math.isfinite(y)]
    assert mean == sorted(mean) and mean[-1] > mean[0]  # more demand, busier hosts
    needed = [float(y) for y in curve.iops_curve.yData if math.isfinite(y)]
    now = curve.document.prediction.consolidation.hosts_needed  # type: ignore[union-attr]
    assert now is not None and max(needed) > now >= min(needed)
    vm = next(v for v in design.of_kind("vm") if v.get("workload.profile") == "measured")
    vm.props["workload.io_iops"] = 300.0
    assert (k := default_knob(design)) is not None and k.path == "design.demand.iops_pct"
    design.policy["growth.cpu_pct"] = 10.0
    assert (k := default_knob(design)) is not None and k.path == "design.growth.year"
    io = KnobCurve(make_doc())
    qtbot.addWidget(io)
    assert io.legend.opts["offset"][0] > 0  # latencies rise: top left


def test_an_estate_with_measured_io_opens_on_its_drives_and_plots_that_io(
        qtbot: QtBot, tmp_path: Path) -> None:
    """A Live Optics estate's VMs do their measured I/O: the curve opens on that I/O grown
    and its IOPS at today's demand are what was measured, not 0 or 'not measured'."""
    from models.io.importers.liveoptics import import_liveoptics  # noqa: PLC0415
    from tests.liveoptics import workbook, write  # noqa: PLC0415

    design, _ = import_liveoptics(write(tmp_path / "lo.xlsx", workbook(4, 24, seed=3).sheets),
                                  stat="average")
    doc = DesignDocument(design)
    curve = KnobCurve(doc)
    qtbot.addWidget(curve)
    assert curve.knob is not None and curve.knob.path == "design.demand.iops_pct"
    qtbot.waitUntil(lambda: n_points(curve.iops_curve) > 1, timeout=10_000)
    xs, iops = list(curve.iops_curve.xData), [float(y) for y in curve.iops_curve.yData]
    assert doc.prediction is not None and doc.prediction.total_iops > 0
    assert iops[xs.index(0)] == pytest.approx(doc.prediction.total_iops, rel=0.01)
    assert max(iops) > 2 * doc.prediction.total_iops  # +200 %: three times the I/O
    assert all(math.isfinite(y) for y in curve.latency_curve.yData)
    doc.undo_stack.setClean()


def test_a_curve_that_saturates_at_its_low_end_says_below() -> None:
    """Too few cores saturate the hosts below a value, not "from 1 core" (issue 39); a rate
    past the hosts' capacity saturates from a value up."""
    from app.charts.knob_curve import saturated  # noqa: PLC0415
    from models.document import glossary  # noqa: PLC0415

    nan = math.nan
    assert saturated([1, 2, 4, 8, 11, 16], [nan, nan, nan, nan, 30.0, 20.0]) == (11.0, True)
    assert saturated([10, 20, 30, 40], [5.0, 9.0, nan, nan]) == (30.0, False)
    assert saturated([1, 2], [1.0, 2.0]) == (None, False)
    assert glossary.SATURATES_BELOW.format(x="11 cores").endswith("below 11 cores")


def test_the_legend_sits_where_the_curves_leave_room() -> None:
    """Top left over curves that rise late (times), top right over falling ones (CPU as
    cores are added), bottom right over curves high at both ends (the busiest host as
    demand grows: the legend covered it at the top left)."""
    x = np.linspace(0.0, 1.0, 30)
    assert legend_offset(x ** 4, 2 * x ** 4) == (10, 5)
    assert legend_offset(1 - x, 1.2 - x) == (-10, 5)
    assert legend_offset(20 + 50 * x, np.minimum(45 + 200 * x, 100)) == (-10, -5)
