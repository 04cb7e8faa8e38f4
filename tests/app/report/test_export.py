"""Reports: page-by-page checks of the PDF, the PNG's size, atomic and headless export."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from app.report import export as report
from app.report.pages import APPENDIX_ROWS, HEADINGS, Report, build_pages, error_text
from models.calibration import Check
from models.document.design import Component, Design, DesignError, Link
from models.engine.evaluation import Engine
from models.engine.prediction import Prediction
from models.examples import bundled as examples
from models.examples import synth
from models.io.files import save_design
from tests.conftest import ROOT

PDFTOTEXT = shutil.which("pdftotext")
PDFFONTS = shutil.which("pdffonts")


def _design() -> Design:
    """The bundled example with a NIC, so every subsystem has something to report."""
    d = examples.load(examples.DEFAULT_EXAMPLE)
    if not d.of_kind("nic"):
        d.components.append(Component("n1", "nic", "vmnic0", x=0, y=-200))
        d.links.append(Link("n1", "h1", "installed_in"))
    return d


def _predict(d: Design, scenario: str = "base") -> Prediction:
    from models.document.design import apply_scenario  # noqa: PLC0415

    e = Engine(apply_scenario(d, scenario))
    e.scenario = scenario
    return e.evaluate()


def _page_count(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


def _page_text(path: Path, page: int) -> str:
    assert PDFTOTEXT is not None
    out = subprocess.run([PDFTOTEXT, "-f", str(page), "-l", str(page), "-layout", str(path),
                          "-"], check=True, capture_output=True, text=True)
    return unicodedata.normalize("NFKC", out.stdout)  # the 'ffi' ligature reads as 'ﬃ'


@pytest.fixture
def pdf(tmp_path: Path) -> Path:
    d = _design()
    out = tmp_path / "report.pdf"
    report.export_report(d, "oio 32", out, _predict(d, "oio 32"))
    return out


def test_pdf_has_every_page_in_order(pdf: Path) -> None:
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF-")
    n_checks = len(report.make_report(_design(), "base", _predict(_design())).checks)
    appendix = max(1, -(-n_checks // APPENDIX_ROWS))
    assert _page_count(data) == 6 + appendix


def test_pdf_is_vector_with_embedded_fonts(pdf: Path) -> None:
    data = pdf.read_bytes()
    assert b"/Subtype /Image" not in data and b"/Subtype/Image" not in data
    assert b"/FontFile2" in data
    if PDFFONTS is not None:
        out = subprocess.run([PDFFONTS, str(pdf)], check=True, capture_output=True,
                             text=True).stdout
        rows = out.splitlines()[2:]
        assert rows, "no fonts listed"
        assert all(r.split()[-5] == "yes" for r in rows), out  # the 'emb' column


@pytest.mark.skipif(PDFTOTEXT is None, reason="pdftotext (poppler-utils) not installed")
def test_each_page_has_its_heading_and_content(pdf: Path) -> None:
    title = _page_text(pdf, 1)
    assert HEADINGS[0] in title and "VAIO scaling testbed" in title
    assert "Scenario: oio 32" in title and "Headroom" in title
    assert re.search(r"\d{1,2} \w+ 20\d\d", title)
    diagram = _page_text(pdf, 2)
    assert HEADINGS[1] in diagram and "Dell R720" in diagram and "ioanalyzer16" in diagram
    settings = _page_text(pdf, 3)
    assert HEADINGS[2] in settings and "Outstanding I/Os" in settings
    assert "vm . workload.io_oio = 32" in settings
    kpi = _page_text(pdf, 4)
    assert HEADINGS[3] in kpi
    for figure in ("Total IOPS", "Mean latency", "FT logging traffic", "VMs per host"):
        assert figure in kpi
    assert HEADINGS[4] in _page_text(pdf, 5)
    bottlenecks = _page_text(pdf, 6)
    assert HEADINGS[5] in bottlenecks and "Source:" in bottlenecks
    appendix = _page_text(pdf, 7)
    assert HEADINGS[6] in appendix


@pytest.mark.skipif(PDFTOTEXT is None, reason="pdftotext (poppler-utils) not installed")
def test_network_design_charts_show_throughput_not_empty_iops(tmp_path: Path) -> None:
    """The file-transfer testbed does no storage I/O: its per-VM charts are network and CPU."""
    d = examples.load("file-transfer-10g")
    out = tmp_path / "net.pdf"
    report.export_report(d, "base", out, _predict(d))
    charts = _page_text(out, 5)
    assert "Network throughput per VM" in charts and "CPU utilisation per VM" in charts
    assert "IOPS per VM" not in charts
    # the resource comes first, so that a label cut short still says what is busy
    assert re.search(r"^\s*nic · Intel 10GbE AF DA", _page_text(out, 6), re.M)


@pytest.mark.skipif(PDFTOTEXT is None, reason="pdftotext (poppler-utils) not installed")
def test_storage_design_charts_show_iops_and_latency(pdf: Path) -> None:
    charts = _page_text(pdf, 5)
    assert "IOPS per VM" in charts and "storage latency per VM" in charts


def test_cli_report_headless_pdf_and_png(tmp_path: Path) -> None:
    src = tmp_path / "d.headroom"
    save_design(_design(), src)
    env_cmd = [sys.executable, "-m", "app", "report", str(src), "-o"]
    for name in ("r.pdf", "r.png"):
        out = tmp_path / name
        # as on a server or in CI: no display and no Qt platform chosen
        env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
        res = subprocess.run([*env_cmd, str(out)], check=False, cwd=ROOT, capture_output=True,
                             text=True, env=env, timeout=120)
        assert res.returncode == 0, res.stderr
        assert out.stat().st_size > 1000
    img = QImage(str(tmp_path / "r.png"))
    assert img.width() >= 1600 and img.height() > 900


def test_png_is_wide_and_not_blank(tmp_path: Path) -> None:
    d = _design()
    out = tmp_path / "r.png"
    report.export_report(d, "base", out, _predict(d))
    img = QImage(str(out))
    assert img.width() >= 1600
    colors = {img.pixel(x, y) for x in range(0, img.width(), 37)
              for y in range(0, img.height(), 37)}
    assert len(colors) > 10


def test_unknown_extension_writes_nothing(tmp_path: Path) -> None:
    d = _design()
    out = tmp_path / "r.svg"
    with pytest.raises(DesignError, match=r"expected \.pdf or \.png"):
        report.export_report(d, "base", out, _predict(d))
    assert not out.exists()


def test_failed_export_keeps_previous_file(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    d = _design()
    out = tmp_path / "r.pdf"
    out.write_bytes(b"previous")

    def boom(r: Report) -> bytes:
        raise RuntimeError("renderer crashed")

    monkeypatch.setattr(report, "render_pdf", boom)
    with pytest.raises(RuntimeError):
        report.export_report(d, "base", out, _predict(d))
    assert out.read_bytes() == b"previous"


def test_large_design_renders(tmp_path: Path) -> None:
    d = synth.large_design(300, 10, 3)
    out = tmp_path / "big.png"
    report.export_report(d, "base", out, _predict(d))
    assert QImage(str(out)).width() >= 1600


def test_empty_design_renders_every_page(tmp_path: Path) -> None:
    d = Design(name="Empty")
    out = tmp_path / "empty.pdf"
    report.export_report(d, "base", out, _predict(d))
    assert _page_count(out.read_bytes()) >= 7


def test_appendix_spans_pages_and_reports_missing_checks(tmp_path: Path) -> None:
    d = _design()
    r = Report(d, "base", _predict(d), "test")
    assert len(build_pages(r)) == 7
    r.checks = [Check("vaio-1vm-filter", f"q{i}", 10.0, 10.5, 0.1) for i in
                range(APPENDIX_ROWS + 1)]
    assert len(build_pages(r)) == 8
    r.checks, r.checks_error = [], "The calibration checks could not be run: boom"
    data = report.render_pdf(r)
    assert _page_count(data) == 7


def test_error_text() -> None:
    assert error_text(0.0) == "0 %"
    assert error_text(1e-14) == "0 %"
    assert error_text(0.042) == "+4.2 %"
    assert error_text(-0.1) == "\u221210.0 %"


@pytest.mark.skipif(PDFTOTEXT is None, reason="pdftotext (poppler-utils) not installed")
def test_library_design_reports_its_jobs(tmp_path: Path) -> None:
    """The Content Library example: its slowest jobs on the KPI page (latency a dash, not
    0 ms), and job times and MB/s on the charts page instead of empty IOPS bars."""
    d = examples.load("content-library")
    out = tmp_path / "cl.pdf"
    report.export_report(d, "base", out, _predict(d))
    kpi = _page_text(out, 4)
    assert re.search(r"Content Library\s+Branch 1 library 1 \(sync\)\s+89\.9\s+min", kpi)
    assert "and 4 more jobs" in kpi
    assert re.search(r"Mean latency \(IOPS-weighted\)\s+–\s+ms", kpi)
    charts = _page_text(out, 5)
    assert "Content Library job time" in charts and "MB/s per library job" in charts
    assert "IOPS per VM" not in charts


def test_web_and_network_rows_only_where_there_are_such_figures() -> None:
    from app.report.pages import kpi_rows  # noqa: PLC0415

    web = [r[1] for r in kpi_rows(_predict(examples.load("dense-web-farm")))]
    assert "Highest VM p95 response" in web and "VM throughput (received + sent)" in web
    io = [r[1] for r in kpi_rows(_predict(_design()))]
    assert "Highest VM p95 response" not in io and not any("library" in r for r in io)


def test_title_tiles_lead_with_what_the_design_measures() -> None:
    from app.report.pages import kpi_tiles, per_vm_figures  # noqa: PLC0415

    web = kpi_tiles(_predict(examples.load("dense-web-farm")))
    assert [t[0] for t in web] == ["p95 response", "Network", "Hosts needed", "Consolidation"]
    assert web[0][2].startswith("mean ") and web[2][2] == "binding limit: CPU"
    io = kpi_tiles(_predict(examples.load("vaio-scaling")))
    assert [t[0] for t in io] == ["Total IOPS", "Mean latency", "Hosts needed", "Consolidation"]
    assert io[0][2] == "16 VMs" and io[1][2].startswith("p95 ")
    ft = [t[0] for t in kpi_tiles(_predict(examples.load("ft-netperf")))]
    assert ft == ["Network", "FT logging", "Hosts needed", "Consolidation"]
    empty = kpi_tiles(_predict(Design(name="Empty")))
    assert [t[0] for t in empty] == ["Hosts needed", "Total IOPS", "Mean latency",
                                     "Consolidation"]
    net = per_vm_figures(_predict(examples.load("file-transfer-10g")))
    assert net.upper_title.startswith("Network") and net.top(1) == [0]  # the netperf VM
    lib = per_vm_figures(_predict(examples.load("content-library")))
    assert lib.names[lib.top(1)[0]] == "Branch 1 library 1"


@pytest.mark.skipif(PDFTOTEXT is None, reason="pdftotext (poppler-utils) not installed")
def test_title_page_counts_in_words(tmp_path: Path) -> None:
    d = examples.load("dense-web-farm")
    out = tmp_path / "web.pdf"
    report.export_report(d, "base", out, _predict(d))
    assert "1 host, 470 VMs, 2 NICs" in _page_text(out, 1)
