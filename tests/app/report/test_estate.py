"""An estate's report: its clusters and hosts listed at the page's text size, arrays without
measured I/O said so, the page budget kept for a thousand hosts, and the title page led by the
report's title and notes (app/report/estate.py, the title page in app/report/pages.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from app.report import export as report
from app.report.pages import HEADINGS, MAX_PAGES
from models.examples import synth
from models.io.files import load_design, save_design
from models.io.importers.rvtools import import_rvtools
from tests.app.report.test_export import _page_count, _page_with, _text, needs_pdftotext
from tests.conftest import ROOT
from tests.estates import estate, write_xlsx


@pytest.fixture(scope="module")
def estate_pdf(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    folder = tmp_path_factory.mktemp("estate")
    design, _ = import_rvtools(write_xlsx(folder / "e.xlsx", estate(12, 300, seed=4).sheets))
    out = folder / "estate.pdf"
    report.export_report(design, "base", out)
    return out, [h.name for h in design.of_kind("host")]


@needs_pdftotext
def test_an_estate_lists_every_cluster_and_host_by_name(
        estate_pdf: tuple[Path, list[str]]) -> None:
    pdf, hosts = estate_pdf
    listing = "".join(page for page in _text(pdf).split("\f")
                      if page.lstrip().startswith(HEADINGS[3]))
    assert "12 hosts in" in listing and "running" in listing
    assert "HA N+1 · DRS on" in listing and "needs" in listing
    for name in hosts:
        assert name in listing
    assert "Storage arrays" in listing
    assert " 0 IOPS" not in listing and " 0 ms" not in listing  # nothing measured: said so
    assert "not measured" in listing or "no VM disks" in listing


@needs_pdftotext
def test_a_thousand_hosts_keep_the_page_budget_and_count_what_is_left_out(
        tmp_path: Path) -> None:
    out = tmp_path / "big.pdf"
    report.export_report(synth.large_design(20000, 1000, 5), "base", out)
    assert _page_count(out.read_bytes()) <= MAX_PAGES
    text = _text(out)
    assert "1,000 hosts running 20,000 VMs" in text
    assert "more hosts" in text and "up to" in text  # the busiest named, the rest counted


@needs_pdftotext
def test_the_title_page_leads_with_the_reports_title_and_its_notes(tmp_path: Path) -> None:
    """Set with ``headroom report --title/--notes`` (the file is not changed), or stored in
    the design."""
    path = tmp_path / "vaio.json"
    design = synth.large_design(40, 2)
    save_design(design, path)
    before = path.read_bytes()
    out = tmp_path / "r.pdf"
    res = subprocess.run([sys.executable, "-m", "app", "report", str(path), "-o", str(out),
                          "--title", "Contoso Ltd: vSphere 8 refresh",
                          "--notes", "Sized for the 2027 budget."],
                         cwd=ROOT, capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stderr
    assert path.read_bytes() == before
    first = _text(out, 1)
    assert first.index("Contoso Ltd: vSphere 8 refresh") < first.index(design.name)
    assert "Sized for the 2027 budget." in first
    assert "Contoso Ltd: vSphere 8 refresh" in _page_with(out, HEADINGS[4])  # the footer
    stored = load_design(path)
    stored.report_title = "Fabrikam"
    report.export_report(stored, "base", out)
    assert "Fabrikam" in _text(out, 1)


def test_an_estate_with_a_refresh_and_growth_keeps_the_page_budget(tmp_path: Path) -> None:
    """Every kind of page - the scenarios, the refresh, knobs, the listing, limits, host
    failure, growth, the bill of materials, figures and the baseline - within the budget,
    the listing taking what the budget leaves."""
    from dataclasses import replace  # noqa: PLC0415

    from app.report.pages import build_pages  # noqa: PLC0415
    from models.analysis.refresh import refresh, target, vsan_target  # noqa: PLC0415
    from models.document.design import Override, Scenario  # noqa: PLC0415

    design, _ = import_rvtools(write_xlsx(tmp_path / "e.xlsx", estate(23, 571, seed=25).sheets))
    design.policy["growth.cpu_pct"] = 10.0
    design.scenarios.append(Scenario("1 TB hosts", [Override("host", "memory_gb", 1024.0)]))
    r = refresh(design, replace(target("dell-r770", None, 1024), vsan=vsan_target("esa")))
    design.scenarios.append(Scenario("R770", list(r.overrides), r.rebuild))
    for scenario in ("base", "R770"):  # the refresh reported: its vSAN page too
        pages = build_pages(report.prepare(design, scenario, with_checks=False))
        names = [p.keywords.get("title", p.func.__name__) for p in pages]  # type: ignore[attr-defined]
        assert len(pages) <= MAX_PAGES, names
        assert {"The refresh", "Bill of materials", "failure_page", "growth_page",
                "baseline_page", HEADINGS[3]} <= set(names), names
        assert ("vsan_page" in names) == (scenario == "R770")
