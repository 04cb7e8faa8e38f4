"""The report's growth page: where the design keeps growth rates (or ``report --years N``
asks for a horizon), led by when each cluster runs out, a row per year and each cluster's
hosts needed year by year; no page for a design without rates, horizon asked or not (the
command line says so)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli.main import main
from app.report import export as report
from app.report.growth import HEADING, growth_page, shown_years
from app.report.pages import MAX_PAGES, build_pages
from models.io.files import save_design
from models.report.content import build
from tests.app.report.test_export import _page_count, _page_with, _text, needs_pdftotext
from tests.refresh_estate import estate


def _squash(text: str) -> str:
    return " ".join(text.split())


def _has_page(r: report.Report) -> bool:
    return any(getattr(p, "func", None) is growth_page for p in build_pages(r))


@needs_pdftotext
def test_the_page_says_when_prod_runs_out_and_lists_the_years(tmp_path: Path) -> None:
    d = estate()
    d.policy["growth.memory_pct"] = 30.0
    out = tmp_path / "grow.pdf"
    report.export_report(d, "base", out)
    assert _page_count(out.read_bytes()) <= MAX_PAGES
    page = _squash(_page_with(out, HEADING))
    assert "Years 0 to 5 at 30 % memory a year" in page
    assert "Cluster prod runs out in month 7 (year 1): host memory needs 5 hosts, it has 4." \
        in page
    assert "Hosts needed per cluster, year by year" in page and "prod (4)" in page
    assert "Year 5" in page and "Licensed cores" in page


@needs_pdftotext
def test_the_first_page_says_which_year_it_shows(tmp_path: Path) -> None:
    d = estate()
    d.policy.update({"growth.memory_pct": 30.0, "growth.year": 2.0, "demand.cpu_pct": 20.0})
    out = tmp_path / "year2.pdf"
    report.export_report(d, "base", out)
    first = _squash(_text(out, 1))
    assert "Year 2 at 30 % memory a year; measured CPU demand +20 %" in first
    page = _squash(_page_with(out, HEADING))
    assert "The other pages show the design in year 2" in page


def test_no_rates_no_page_even_with_a_horizon_asked() -> None:
    """A page of the same row every year would hold nothing: rates make one."""
    assert not _has_page(report.prepare(estate(), "base", with_checks=False))
    assert not _has_page(report.prepare(estate(), "base", with_checks=False, years=3))
    d = estate()
    d.policy["growth.vms_pct"] = 10.0
    asked = report.prepare(d, "base", with_checks=False, years=3)
    assert _has_page(asked) and asked.content.growth is not None
    assert asked.content.growth.years == 3


def test_a_long_horizon_lists_every_kth_year_and_the_last() -> None:
    d = estate()
    d.policy["growth.cpu_pct"] = 2.0
    view = build(d, "base", checks=False, years=30).growth
    assert view is not None
    years = shown_years(view)
    assert years[0] == 0 and years[-1] == 30 and len(years) <= 11


@needs_pdftotext
def test_report_years_on_the_command_line(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "e.json"
    save_design(estate(), src)
    out = tmp_path / "r.pdf"
    assert main(["report", str(src), "-o", str(out), "--years", "2",
                 "--set", "design.growth.cpu_pct=40"]) == 0
    page = _squash(_page_with(out, HEADING))
    assert "Years 0 to 2 at 40 % CPU a year" in page
    assert main(["report", str(src), "-o", str(out), "--years", "31"]) != 0
    assert "takes 1 to 30 years" in capsys.readouterr().err
    assert main(["report", str(src), "-o", str(out), "--years", "2"]) == 0  # no rates
    assert "keeps no growth rates: no growth page" in capsys.readouterr().err
