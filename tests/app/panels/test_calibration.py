"""An imported estate in the app: the Calibration view, provenance in the inspector and
tooltips, the dashboard's 'lack I/O data' line, the Unplaced area, and the report's baseline
page.  Every change the view makes is one undo step."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.canvas.scene import DesignScene
from app.canvas.tooltips import component_tooltip
from app.document.design_document import DesignDocument
from app.panels.calibration import HOST_HEADERS, CalibrationPanel
from app.panels.dashboard import Dashboard
from app.panels.inspector import Inspector
from app.report.baseline import baseline_page
from app.report.pages import build_pages
from models.document import numbers as fmt
from models.document.design import Design
from models.engine.kpis import KPI_BY_KEY
from models.io.importers.rvtools import import_rvtools
from tests.estates import estate, write_xlsx
from tests.models.io.importers.test_perfdata import HOST, write_esxtop


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Design:
    """A 4-host estate whose first running VM is 'sql01' on the esxtop file's host, with
    three VMs whose host and cluster are unknown (unplaced)."""
    e = estate(4, 40, seed=11)
    vinfo = e.sheets["vInfo"]
    on, host, cluster = (vinfo[0].index(k) for k in ("Powerstate", "Host", "Cluster"))
    first = next(r for r in vinfo[1:] if r[on] == "poweredOn")
    renames = {first[0]: "sql01", e.sheets["vHost"][1][0]: HOST}
    for rows in e.sheets.values():
        for row in rows[1:]:
            row[:] = [renames.get(v, v) if isinstance(v, str) else v for v in row]
    lost = [r for r in vinfo[1:] if r[on] == "poweredOn" and r[0] != "sql01"][:3]
    for row in lost:
        row[host], row[cluster] = "gone.corp.local", ""
    path = write_xlsx(tmp_path_factory.mktemp("estate") / "e.xlsx", e.sheets)
    design, _ = import_rvtools(path)
    return design


def test_calibration_behind_another_tab_waits_until_its_tab_is_raised(
        qtbot: QtBot, imported: Design) -> None:
    """A dock behind another tab is "visible" to Qt, only moved off screen: the check of
    the baseline (a pass over every VM) waits until the Calibration tab is raised."""
    from app.window.main_window import MainWindow  # noqa: PLC0415

    window = MainWindow(DesignDocument(imported.copy()), remember_layout=False)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    panel = window.calibration
    qtbot.wait(500)  # past the panel's timer
    assert panel.isVisible() and panel.check is None
    window.calibration_dock.raise_()
    qtbot.waitUntil(lambda: panel.check is not None, timeout=5000)
    assert panel.hosts.rowCount() == 4


def test_calibration_view_shows_residuals_and_calibrates_in_one_undo_step(
        qtbot: QtBot, imported: Design, tmp_path: Path) -> None:
    doc = DesignDocument(imported.copy())
    panel = CalibrationPanel(doc)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitUntil(lambda: panel.check is not None)
    assert panel.hosts.rowCount() == 4
    assert "host CPU" in panel.summary.text() and "lack I/O data" in panel.summary.text()
    assert panel.vms.rowCount() >= 0
    messages: list[str] = []
    panel.status_message.connect(messages.append)
    assert panel.calibrate_from(str(write_esxtop(tmp_path / "esx01.csv")))
    assert messages[-1].startswith("calibrated from esxtop batch esx01.csv")
    sql = next(c for c in doc.design.of_kind("vm") if c.name == "sql01")
    assert str(sql.props["provenance.io"]).startswith("measured: esxtop")
    assert doc.undo_stack.count() == 1

    def names() -> list[str]:
        return [item.text() for r in range(panel.vms.rowCount())
                if (item := panel.vms.item(r, 0)) is not None]

    qtbot.waitUntil(lambda: "sql01" in names())  # its IOPS and latency were recorded
    doc.undo_stack.undo()
    sql = next(c for c in doc.design.of_kind("vm") if c.name == "sql01")
    assert sql.props["provenance.io"] == "not measured"
    assert not panel.calibrate_from(str(tmp_path / "missing.csv"))
    assert messages[-1].startswith("Cannot calibrate")
    assert doc.undo_stack.count() == 1  # nothing pushed for a file that cannot be used


def test_place_unplaced_and_the_unplaced_area(qtbot: QtBot, imported: Design) -> None:
    doc = DesignDocument(imported.copy())
    scene = DesignScene(doc)
    panel = CalibrationPanel(doc)
    dash = Dashboard(doc)
    qtbot.addWidget(panel)
    qtbot.addWidget(dash)
    qtbot.waitUntil(lambda: scene.unplaced.frame is not None)
    assert scene.unplaced.count == 3
    assert scene.unplaced.label is not None and "Unplaced: 3 VMs" in scene.unplaced.label.text()
    assert "3 VMs are on no host" in dash.measured_label.text()
    assert "lack I/O data" in dash.measured_label.text()
    panel.place()
    assert doc.undo_stack.count() == 1
    qtbot.waitUntil(lambda: scene.unplaced.frame is None)
    qtbot.waitUntil(lambda: "on no host" not in dash.measured_label.text())
    doc.undo_stack.undo()
    qtbot.waitUntil(lambda: scene.unplaced.count == 3)
    panel.solve()
    assert doc.undo_stack.count() == 1  # the redo of 'place' is gone, 'solve' pushed
    assert doc.undo_stack.text(0) == "Solve the baseline"


def test_provenance_in_the_inspector_and_tooltips(qtbot: QtBot, imported: Design) -> None:
    doc = DesignDocument(imported.copy())
    inspector = Inspector(doc)
    qtbot.addWidget(inspector)
    vm = next(c for c in doc.design.of_kind("vm") if c.name == "sql01")
    doc.set_selection([vm.id])
    text = inspector.provenance.text()
    assert "Where the figures come from" in text
    assert "measured: RVTools vCPU Overall MHz, export of 2024-05-02" in text
    assert "storage I/O" in text and "not measured" in text
    assert "Where the figures come from" not in inspector.predicted.text()
    tip = component_tooltip(doc, vm.id)
    assert "storage I/O not measured" in tip and "RVTools vCPU Overall MHz" in tip
    host = doc.design.of_kind("host")[0]
    doc.set_selection([host.id])
    assert "recorded" in inspector.provenance.text()
    assert "RVTools vHost CPU usage %" in component_tooltip(doc, host.id)


def test_the_report_has_a_baseline_page(qtbot: QtBot, imported: Design,
                                        tmp_path: Path) -> None:
    from app.report import export  # noqa: PLC0415
    from app.report.baseline import HEADING  # noqa: PLC0415

    pdftotext = shutil.which("pdftotext")
    if pdftotext is None:
        pytest.skip("pdftotext (poppler-utils) not installed")
    r = export.prepare(imported, "base", with_checks=False)
    assert any(getattr(p, "func", None) is baseline_page for p in build_pages(r))
    out = tmp_path / "estate.pdf"
    export.export_report(imported, "base", out)
    text = subprocess.run([pdftotext, "-layout", str(out), "-"], check=True,
                          capture_output=True, text=True).stdout
    assert HEADING in text
    assert "RVTools vCPU Overall MHz" in text and "host CPU" in text


def test_dragging_an_unplaced_vm_onto_a_host_places_it_in_one_undo_step(
        qtbot: QtBot) -> None:
    from PySide6.QtCore import QPoint, Qt  # noqa: PLC0415

    from app.canvas.view import DesignView  # noqa: PLC0415
    from models.document.design import Component, Link  # noqa: PLC0415

    d = Design(name="two")
    d.components += [Component("h1", "host", "esx01", x=0, y=0),
                     Component("v1", "vm", "placed", x=0, y=80),
                     Component("v2", "vm", "lost", x=400, y=0, tags=["unplaced"])]
    d.links.append(Link("v1", "h1", "runs_on"))
    doc = DesignDocument(d)
    scene = DesignScene(doc)
    view = DesignView(scene)
    view.resize(900, 600)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    view.fit()
    qtbot.waitUntil(lambda: scene.unplaced.count == 1)
    vp = view.viewport()

    def at(cid: str) -> QPoint:
        item = scene.item(cid)
        assert item is not None
        return view.mapFromScene(item.pos())

    start, end = at("v2"), at("h1")
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    for k in range(1, 6):
        qtbot.mouseMove(vp, start + (end - start) * k / 5)
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, end)
    assert any(lk.kind == "runs_on" and lk.source == "v2" and lk.target == "h1"
               for lk in doc.design.links)
    assert doc.undo_stack.count() == 1 and doc.undo_stack.text(0) == "Place 1 VM on a host"
    qtbot.waitUntil(lambda: scene.unplaced.count == 0)
    doc.undo_stack.undo()
    assert not any(lk.source == "v2" for lk in doc.design.links)
    qtbot.waitUntil(lambda: scene.unplaced.count == 1)


@pytest.fixture(scope="module")
def filtered(tmp_path_factory: pytest.TempPathFactory) -> tuple[Design, dict[str, tuple[int,
                                                                                         int]]]:
    """A filtered export (issue 22): its hosts run VMs it does not list."""
    e = estate(4, 60, seed=16, filtered=0.25)
    design, _ = import_rvtools(write_xlsx(tmp_path_factory.mktemp("f") / "f.xlsx", e.sheets))
    return design, e.truth.partial


def test_the_calibration_view_names_the_partial_hosts(
        qtbot: QtBot, filtered: tuple[Design, dict[str, tuple[int, int]]]) -> None:
    design, partial = filtered
    doc = DesignDocument(design.copy())
    panel = CalibrationPanel(doc)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitUntil(lambda: panel.check is not None)
    text = panel.summary.text()
    assert f"{len(partial)} partial hosts" in text
    for host, (recorded, listed) in partial.items():
        assert f"{host}: {recorded} VMs recorded, {listed} in the export" in text
    rows = {item.text(): r for r in range(panel.hosts.rowCount())
            if (item := panel.hosts.item(r, 0)) is not None}
    host, (recorded, listed) = next(iter(partial.items()))
    cell = panel.hosts.item(rows[host], HOST_HEADERS.index("VMs\nlisted"))
    assert cell is not None and cell.text() == f"{listed} of {recorded}"
    assert "background" in cell.toolTip()
    residual = panel.hosts.item(rows[host], 3)
    assert residual is not None and abs(float(residual.text())) <= 3.0  # the record is met


def test_a_host_nothing_measured_reads_not_measured_in_the_view_and_tooltips(
        qtbot: QtBot, tmp_path: Path) -> None:
    e = estate(2, 12, seed=17, generation="3x", host_usage=False)
    design, _ = import_rvtools(write_xlsx(tmp_path / "n.xlsx", e.sheets))
    doc = DesignDocument(design)
    panel = CalibrationPanel(doc)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitUntil(lambda: panel.check is not None)
    cell = panel.hosts.item(0, 1)
    assert cell is not None and cell.text() == "not measured"
    assert "2 hosts' CPU not measured" in panel.summary.text()
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        doc.request_evaluation()
    host = design.of_kind("host")[0]
    assert "CPU not measured" in component_tooltip(doc, host.id)
    kpi = KPI_BY_KEY["host_cpu_pct"]
    assert kpi.note(doc.prediction) == "not measured"
    assert kpi.figure(doc.prediction) == fmt.NONE  # never 0 %


def test_the_reports_baseline_page_names_the_partial_hosts(
        filtered: tuple[Design, dict[str, tuple[int, int]]], tmp_path: Path) -> None:
    from app.report import export  # noqa: PLC0415

    pdftotext = shutil.which("pdftotext")
    if pdftotext is None:
        pytest.skip("pdftotext (poppler-utils) not installed")
    design, partial = filtered
    out = tmp_path / "filtered.pdf"
    export.export_report(design, "base", out)
    text = " ".join(subprocess.run([pdftotext, str(out), "-"], check=True,
                                   capture_output=True, text=True).stdout.split())
    assert f"{len(partial)} partial hosts" in text
    host, (recorded, listed) = next(iter(partial.items()))
    assert f"{host}: {recorded} VMs recorded, {listed} in the export" in text
def test_recorded_figures_and_clusters_show_in_the_view(qtbot: QtBot, tmp_path: Path) -> None:
    """An Aria Operations cluster view onto an estate: the cluster's row, what it recorded
    without a prediction (demand, contention) in its own column; no IOPS columns."""
    from app.panels.calibration import ALSO_COLUMN, IOPS_COLUMNS  # noqa: PLC0415
    from tests.models.io.importers.test_aria import estate as aria_estate  # noqa: PLC0415
    from tests.models.io.importers.test_aria import write as write_view  # noqa: PLC0415

    doc = DesignDocument(aria_estate())
    panel = CalibrationPanel(doc)
    qtbot.addWidget(panel)
    panel.show()
    view = write_view(tmp_path / "cluster.csv", ["Name", "Cluster|CPU|Demand|Avg",
                                                 "Cluster|CPU|Contention (%)|Avg"],
                      [["Prod", "76,800", "2.5"]])
    assert panel.calibrate_from(str(view))
    qtbot.waitUntil(lambda: panel.check is not None and panel.hosts.rowCount() == 3)
    names = [item.text() for r in range(3) if (item := panel.hosts.item(r, 0)) is not None]
    assert names[-1] == "Prod (cluster)"
    also = panel.hosts.item(2, ALSO_COLUMN)
    assert also is not None and also.text() == "CPU demand 50.0%, contention 2.5%"
    assert not panel.hosts.isColumnHidden(ALSO_COLUMN)
    assert all(panel.hosts.isColumnHidden(c) for c in IOPS_COLUMNS)
