"""Reports: every bundled example within the page budget, in plain words, with readable
permissions; the PNG summary; atomic and headless export."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import unicodedata
from functools import cache
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from app.report import export as report
from app.report.pages import APPENDIX_PAGES, HEADINGS, MAX_PAGES, build_pages
from app.report.tables import error_text, evidence_table
from models.calibration import Check, cases
from models.document.design import Design, DesignError
from models.document.knobs import KNOBS
from models.examples import bundled as examples
from models.examples import synth
from models.io.files import save_design
from tests.conftest import ROOT

PDFTOTEXT = shutil.which("pdftotext")
PDFFONTS = shutil.which("pdffonts")
VAIO_CASE = "storage-vaio-single-vm-iops-plus80"
needs_pdftotext = pytest.mark.skipif(PDFTOTEXT is None,
                                     reason="pdftotext (poppler-utils) not installed")


def _page_count(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


def _text(path: Path, page: int | None = None) -> str:
    assert PDFTOTEXT is not None
    pages = ["-f", str(page), "-l", str(page)] if page else []
    out = subprocess.run([PDFTOTEXT, *pages, "-layout", str(path), "-"], check=True,
                         capture_output=True, text=True)
    return unicodedata.normalize("NFKC", out.stdout)


def _page_with(path: Path, heading: str) -> str:
    """The text of the first page that starts with ``heading``."""
    for page in _text(path).split("\f"):
        if page.lstrip().startswith(heading):
            return page
    raise AssertionError(f"no page headed {heading!r}")


@cache
def _example_pdf(name: str, folder: Path) -> Path:
    out = folder / f"{name}.pdf"
    report.export_report(examples.load(name), "base", out)
    return out


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("reports")


@pytest.mark.parametrize("name", examples.names())
def test_every_example_fits_the_page_budget(name: str, pdfs: Path) -> None:
    data = _example_pdf(name, pdfs).read_bytes()
    assert data.startswith(b"%PDF-")
    assert 6 <= _page_count(data) <= MAX_PAGES


@needs_pdftotext
@pytest.mark.parametrize("name", examples.names())
def test_no_raw_ids_paths_or_case_ids_in_the_text(name: str, pdfs: Path) -> None:
    """Components by name, knobs by label, studies by title: what a client reads."""
    text = _text(_example_pdf(name, pdfs))
    d = examples.load(name)
    names = " ".join(c.name for c in d.components)
    for c in d.components:
        if c.name and c.name != c.id and c.id not in names and re.search(r"[\d_A-Z-]", c.id):
            assert not re.search(rf"(?<![\w-]){re.escape(c.id)}(?![\w-])", text), c.id
    for k in KNOBS:
        assert k.path not in text
    assert not [case for case in cases() if case in text]
    for code in ("host_cpu", "host_memory", "vcpu_io", "ft_logging_nic", "storage_array",
                 "io_oio", "req_per_s", "policy."):
        assert code not in text


@needs_pdftotext
def test_pages_in_order_with_their_content(pdfs: Path) -> None:
    pdf = _example_pdf("vaio-scaling", pdfs)
    summary = _text(pdf, 1)
    assert HEADINGS[0] in summary and "VAIO scaling testbed" in summary
    assert "Executive summary" in summary and "What binds" in summary
    assert "2 drives instead of 1 drive" in summary
    assert re.search(r"\d{1,2} \w+ 20\d\d", summary)
    compared = _text(pdf, 2)
    assert HEADINGS[1] in compared
    # the one-VM scenario's IOPS, and its change against the base with its sign
    assert re.search(r"Total IOPS\s+75,000 IOPS\s+75,000 IOPS\s+41,665 IOPS", compared)
    assert "−44 %" in compared and "no change" in compared
    assert "‘oio 32’ — on every VM: outstanding I/Os → 32 I/Os" in compared
    # a figure no scenario moves is said once, not repeated in every column
    same = re.search(r"The same in every scenario: (.*?)\.(?:\s|$)", " ".join(compared.split()))
    assert same is not None and "Host memory 12.5 %" in same.group(1)
    assert not re.search(r"^\s*Host memory\s+12\.5 %", compared, re.M)
    knobs = _text(pdf, 3)
    assert HEADINGS[2] in knobs and "Outstanding I/Os" in knobs
    assert "Virtual SCSI adapter" not in knobs  # at its default everywhere
    assert HEADINGS[3] in _text(pdf, 4) and "ioanalyzer16" in _text(pdf, 4)
    limits = _text(pdf, 5)
    assert HEADINGS[4] in limits and "Study: " in limits
    details = _text(pdf, 6)
    assert HEADINGS[5] in details and "16 VMs: ioanalyzer1 ... ioanalyzer16" in details
    appendix = _text(pdf, 7)
    assert HEADINGS[6] in appendix


@needs_pdftotext
def test_the_appendix_lists_only_the_studies_the_design_uses(pdfs: Path) -> None:
    text = _text(_example_pdf("vaio-scaling", pdfs))
    appendix = text[text.index(HEADINGS[6]):]
    assert "Scaling Performance for VAIO in vSphere 6.0 U1" in appendix
    for other in ("Content Library", "PCoIP", "Multicast", "Fault Tolerance Performance"):
        assert other not in appendix
    library = _text(_example_pdf("content-library", pdfs))
    appendix = library[library.index(HEADINGS[6]):]
    assert "Content Library" in appendix and "VAIO" not in appendix
    # fitted and cross-validated errors side by side; figures no other case can check
    assert "Cross-validated" in appendix and "reproduced only" in appendix


@needs_pdftotext
def test_a_web_farm_shows_one_bar_for_its_470_identical_vms(pdfs: Path) -> None:
    pdf = _example_pdf("dense-web-farm", pdfs)
    assert "470 VMs · 2 NICs" in _text(pdf, 4)  # the diagram counts them on their host
    details = _text(pdf, 6)
    assert "470 VMs: rhel63-web001 ... rhel63-web470" in details
    assert "rhel63-web002" not in details


def test_new_report_gets_usual_permissions_and_an_existing_one_keeps_its_own(
        tmp_path: Path) -> None:
    d = examples.load("vaio-scaling")
    p = report.prepare(d, "base", with_checks=False)
    pdf = report.render_pdf(p)
    mask = os.umask(0o022)
    os.umask(mask)
    new = tmp_path / "new.pdf"
    from models.io.atomic import write_atomic  # noqa: PLC0415

    write_atomic(new, pdf)
    assert new.stat().st_mode & 0o777 == 0o666 & ~mask
    kept = tmp_path / "kept.pdf"
    kept.write_bytes(b"old")
    kept.chmod(0o640)
    report.export_report(d, "base", kept)
    assert kept.stat().st_mode & 0o777 == 0o640 and kept.read_bytes().startswith(b"%PDF-")


def test_pdf_is_vector_with_embedded_fonts(pdfs: Path) -> None:
    pdf = _example_pdf("vaio-scaling", pdfs)
    data = pdf.read_bytes()
    assert b"/Subtype /Image" not in data and b"/Subtype/Image" not in data
    assert b"/FontFile2" in data
    if PDFFONTS is not None:
        out = subprocess.run([PDFFONTS, str(pdf)], check=True, capture_output=True,
                             text=True).stdout
        rows = out.splitlines()[2:]
        assert rows and all(r.split()[-5] == "yes" for r in rows), out  # the 'emb' column


@needs_pdftotext
def test_the_text_sets_no_ligatures_so_a_search_finds_it(pdfs: Path) -> None:
    """The report's words as a PDF reader extracts them, unnormalised: the fonts once set
    ligatures, so the text read "ioﬁlter" and a search for "iofilter" found nothing."""
    assert PDFTOTEXT is not None
    pdf = _example_pdf("vaio-scaling", pdfs)
    raw = subprocess.run([PDFTOTEXT, str(pdf), "-"], check=True, capture_output=True,
                         text=True).stdout
    assert "iofilter" in raw and "VAIO I/O filter" in raw
    ligatures = {c for c in raw if "LIGATURE" in unicodedata.name(c, "")}
    assert not ligatures


def test_cli_report_headless_pdf_and_png(tmp_path: Path) -> None:
    src = tmp_path / "d.headroom"
    save_design(examples.load("vaio-scaling"), src)
    for name in ("r.pdf", "r.png"):
        out = tmp_path / name
        # as on a server or in CI: no display and no Qt platform chosen
        env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
        res = subprocess.run([sys.executable, "-m", "app", "report", str(src), "--scenario",
                              "oio 32", "--set", "vm.workload.io_oio=16", "-o", str(out)],
                             check=False, cwd=ROOT, capture_output=True, text=True, env=env,
                             timeout=120)
        assert res.returncode == 0, res.stderr
        assert out.stat().st_size > 1000
    img = QImage(str(tmp_path / "r.png"))
    assert img.width() == report.PNG_WIDTH and img.height() > 1000


@needs_pdftotext
def test_cli_set_reaches_the_reported_scenario(tmp_path: Path) -> None:
    src = tmp_path / "d.json"
    save_design(examples.load("vaio-scaling"), src)
    out = tmp_path / "r.pdf"
    res = subprocess.run([sys.executable, "-m", "app", "report", str(src), "--scenario",
                          "oio 32", "--set", "vm.workload.io_oio=1", "-o", str(out)],
                         check=False, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    knobs = _text(out, 3)
    assert "1 I/O in ‘oio 32’" in knobs


def test_png_is_the_summary_and_not_blank(tmp_path: Path) -> None:
    out = tmp_path / "r.png"
    report.export_report(examples.load("vaio-scaling"), "iofilter", out)
    img = QImage(str(out))
    assert img.width() == report.PNG_WIDTH
    colors = {img.pixel(x, y) for x in range(0, img.width(), 37)
              for y in range(0, img.height(), 37)}
    assert len(colors) > 10


def test_unknown_extension_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "r.svg"
    with pytest.raises(DesignError, match=r"expected \.pdf or \.png"):
        report.export_report(examples.load("vaio-scaling"), "base", out)
    assert not out.exists()


def test_failed_export_keeps_previous_file(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "r.pdf"
    out.write_bytes(b"previous")

    def boom(r: object) -> bytes:
        raise RuntimeError("renderer crashed")

    monkeypatch.setattr(report, "render_pdf", boom)
    with pytest.raises(RuntimeError):
        report.export_report(examples.load("vaio-scaling"), "base", out)
    assert out.read_bytes() == b"previous"


@needs_pdftotext
def test_a_large_design_aggregates_and_keeps_the_budget(tmp_path: Path) -> None:
    out = tmp_path / "big.pdf"
    report.export_report(synth.large_design(2000, 50, 5), "base", out)
    assert _page_count(out.read_bytes()) <= MAX_PAGES
    listing = _page_with(out, HEADINGS[3])  # 50 hosts: listed, not drawn
    assert "50 hosts running 2,000 VMs" in listing and "esx049" in _text(out)
    details = _page_with(out, HEADINGS[5])
    assert "VMs in each range" in details  # a histogram, not 2,000 bars


@needs_pdftotext
def test_an_estate_without_io_reports_cpu_per_vm_and_arrays_not_measured(
        tmp_path: Path) -> None:
    """An RVTools estate measures no I/O: the per-VM page charts CPU, its arrays read "not
    measured" (never 0 IOPS at 0 ms) and counts have thousands separators."""
    from models.io.importers.rvtools import import_rvtools  # noqa: PLC0415
    from tests.estates import estate, write_xlsx  # noqa: PLC0415

    design, _ = import_rvtools(write_xlsx(tmp_path / "e.xlsx",
                                          estate(30, 1200, seed=5).sheets))
    out = tmp_path / "estate.pdf"
    report.export_report(design, "base", out)
    details = _page_with(out, HEADINGS[5])
    assert "CPU utilisation per VM" in details and "IOPS per VM" not in details
    assert "not measured" in details and " 0 ms" not in details
    baseline = _page_with(out, "Baseline")
    assert re.search(r"1,\d\d\d of 1,\d\d\d VMs lack I/O data", baseline), baseline


def test_empty_design_renders(tmp_path: Path) -> None:
    """The summary, the design, its limits and its figures: no knob page (every knob at its
    default, nothing to list), no bill of materials (no host)."""
    out = tmp_path / "empty.pdf"
    report.export_report(Design(name="Empty"), "base", out)
    assert _page_count(out.read_bytes()) == 4


def test_a_long_appendix_gives_way_to_the_page_budget() -> None:
    """At most APPENDIX_PAGES pages, its last line saying how many checks it leaves out."""
    r = report.prepare(examples.load("vaio-scaling"), "base", with_checks=False)
    base = len(build_pages(r))
    r.content.evidence.checks = [Check(VAIO_CASE, f"q{i}", 10.0, 10.5, 0.1)
                                 for i in range(400)]
    pages = build_pages(r)
    assert len(pages) == base + APPENDIX_PAGES <= MAX_PAGES
    last = pages[-1].keywords["blocks"][-1]  # type: ignore[attr-defined]
    said: list[str] = []
    last.draw(_Words(said), 0.0)
    assert said and said[0].startswith("… and ") and "headroom validate" in said[0]


class _Words:
    """A stand-in sheet that keeps the text drawn."""

    def __init__(self, said: list[str]) -> None:
        self.said = said

    def wrapped(self, x: float, y: float, w: float, s: str, *args: object) -> float:
        self.said.append(s)
        return 0.0


def test_the_appendix_is_one_table() -> None:
    checks = [Check(VAIO_CASE, "IOPS ratio", 1.8, 1.8, 0.1, "fit"),
              Check(VAIO_CASE, "CPU", 15, 18, 0.1, "check")]
    cv: dict[tuple[str, str], dict[str, object]] = {
          (VAIO_CASE, "IOPS ratio"): {"reproduced_only": True, "cv_error": None},
          (VAIO_CASE, "CPU"): {"reproduced_only": False, "cv_error": 0.25}}
    columns, rows, colors, bold = evidence_table(checks, cv)
    assert [c.title for c in columns] == ["What is compared", "Role", "Published", "Model",
                                          "Error", "Cross-validated"]
    assert bold == [True, False, False] and rows[0][0].startswith("Scaling Performance")
    assert rows[1][1:] == ["fitted", "1.8", "1.8", "0 %", "reproduced only"]
    assert rows[2][4] == "+20.0 % (out of tolerance)" and colors[2][4] is not None
    assert rows[2][5] == "+25.0 %"


def test_error_text() -> None:
    assert error_text(0.0) == "0 %"
    assert error_text(1e-14) == "0 %"
    assert error_text(0.042) == "+4.2 %"
    assert error_text(-0.1) == "\u221210.0 %"


def test_summary_tiles_lead_with_what_the_design_measures() -> None:
    from app.report.pages import kpi_tiles  # noqa: PLC0415
    from models.engine.evaluation import evaluate  # noqa: PLC0415

    def tiles(name: str) -> list[tuple[str, str, str]]:
        d = examples.load(name)
        return kpi_tiles(evaluate(d), d)

    web = tiles("dense-web-farm")
    assert [t[0] for t in web] == ["p95 response", "Network", "Hosts needed", "Consolidation"]
    # the line under a tile is the dashboard's (the KPI table's), components named
    assert web[1][2] == "busiest NIC Intel X520 #1 at 34.1\u00a0%"
    assert web[2][2] == "binding limit: CPU"
    io = tiles("vaio-scaling")
    assert [t[0] for t in io] == ["Total IOPS", "Mean latency", "Hosts needed", "Consolidation"]
    assert io[0][1:] == ("75,000 IOPS", "16 VMs doing I/O")
    ft = tiles("ft-netperf")
    assert ft[-1][1:] == ("1 VM per host", "binding limit: FT secondary")  # not "1 VMs/host"
    assert ft[-1][2] != "binding limit: ft"
    # no tile of dashes: the busiest resource fills in where the design has few figures
    mc = tiles("multicast-receivers")
    assert [t[0] for t in mc] == ["Network", "Hosts needed", "Busiest resource",
                                  "Consolidation"]
    assert mc[2][2] == "multicast replication · Dell R810"
    vsan = tiles("vsan-esa")  # sized by capacity: its vSAN free leads
    assert [t[0] for t in vsan] == ["vSAN free", "Hosts needed", "Busiest resource",
                                    "Consolidation"]
    assert vsan[0][1] == "16.8 TiB" and "Production" in vsan[0][2]
    assert not any(t[1] == "–" for t in (*web, *io, *mc))
