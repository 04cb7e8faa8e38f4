"""A refresh in the PDF: a page of its own puts each cluster before and after with what set
its count (the words ``headroom refresh`` says), and the design as a whole beside the base
design; the bill of materials says what it buys; the summary says it in a sentence, and a
report of the refresh draws its own hosts.  A design without a refresh has no such page."""

from __future__ import annotations

import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest

from app.cli.main import main
from app.report import export as report
from app.report.bom import HEADING as BOM
from app.report.pages import HEADINGS, build_pages
from app.report.refresh import HEADING
from models.analysis.refresh import refresh, target
from models.document.design import Scenario
from models.io.files import save_design
from tests.refresh_estate import estate

PDFTOTEXT = shutil.which("pdftotext")


def _pages(path: Path) -> list[str]:
    assert PDFTOTEXT is not None
    out = subprocess.run([PDFTOTEXT, "-layout", str(path), "-"], check=True,
                         capture_output=True, text=True)
    return [" ".join(unicodedata.normalize("NFKC", page).split()).replace(" → ", "→")
            for page in out.stdout.split("\f")]


def _headed(pages: list[str], heading: str) -> list[str]:
    return [p for p in pages if p.startswith(heading + " ") or
            p.startswith(heading + " (continued)")]


@pytest.mark.skipif(PDFTOTEXT is None, reason="pdftotext (poppler-utils) not installed")
def test_the_report_shows_the_refresh_before_and_after(tmp_path: Path) -> None:
    d = estate()
    r = refresh(d, target("dell-r760", "Gold 6548Y+", 1024))
    d.scenarios.append(Scenario("R760", list(r.overrides), r.rebuild))
    out = tmp_path / "refresh.pdf"
    report.export_report(d, "base", out)
    pages = _pages(out)
    assert "The refresh" in pages[0] and "licensed cores from 192 to 256" in pages[0]
    assert pages[1].startswith(HEADINGS[1])
    assert "‘R760’ — 6 hosts of prod, dmz replaced by 4 hosts of Dell PowerEdge R760" \
        in pages[1]
    page = pages[2]  # the refresh follows the scenarios compared
    assert page.startswith(HEADING + " ")
    assert "Settings it changes: ESXi version 6.0 -> 8.0." in page
    for c in r.after.clusters:  # each cluster, before → after, and why, as refresh says
        assert c["set_by_text"] in page
        assert f"{c['name']} " in page
    assert "prod 4→2 4→2" in page and "dmz 2→2 2→2" in page  # hosts, hosts needed
    assert "Licensed cores 192 256" in page and "Hosts 6 4" in page
    bom = _headed(pages, BOM)
    assert len(bom) == 1 and "What ‘R760’ buys" in bom[0]
    assert "Dell PowerEdge R760 4 servers" in bom[0]
    assert "Intel Xeon Gold 6548Y+ 8 processors 2 processors a host x 4 hosts" in bom[0]
    assert "VMware Cloud Foundation subscription (per core) 256 cores" in bom[0]
    mine = tmp_path / "r760.pdf"
    report.export_report(d, "R760", mine)
    # the design page lists the refresh's own hosts: 2 clusters, 4 hosts, 48 VMs (not 6 hosts)
    (design,) = _headed(_pages(mine), HEADINGS[3])
    assert "4 hosts in 2 clusters running 48 VMs" in design and "PowerEdge R760" in design


def test_a_design_without_a_refresh_has_no_refresh_page() -> None:
    """An estate of 6 hosts has the bill of what it is made of instead."""
    pages = build_pages(report.prepare(estate(), "base", with_checks=False))
    titles = [p.keywords.get("title", "") for p in pages]  # type: ignore[attr-defined]
    assert HEADING not in titles and BOM in titles


@pytest.mark.skipif(PDFTOTEXT is None, reason="pdftotext (poppler-utils) not installed")
def test_report_prices_the_bill_on_the_command_line(tmp_path: Path) -> None:
    """4 x 12,000 + 8 x 3,000 + 64 x 400 = 97,600 EUR once; 128 cores x 350 = 44,800 EUR a
    year: the sums headroom bom --prices gives, on the report's bill of materials."""
    d = estate()
    r = refresh(d, target("dell-r760", "Gold 6544Y", 1024))
    d.scenarios.append(Scenario("R760", list(r.overrides), r.rebuild))
    src, prices, out = tmp_path / "e.json", tmp_path / "prices.csv", tmp_path / "r.pdf"
    save_design(d, src)
    prices.write_text("item,unit_price,currency\nDell PowerEdge R760,12000,EUR\n"
                      "Intel Xeon Gold 6544Y,3000,EUR\n64 GB DDR5 RDIMM,400,EUR\n"
                      "VMware Cloud Foundation subscription (per core),350,EUR\n",
                      encoding="utf-8")
    assert main(["report", str(src), "-o", str(out), "--prices", str(prices)]) == 0
    (bom,) = _headed(_pages(out), BOM)
    assert "priced with prices.csv" in bom
    assert "Dell PowerEdge R760 4 servers 12,000.00 EUR 48,000.00 EUR" in bom
    assert "Total EUR: hardware 97,600.00 EUR once, subscriptions 44,800.00 EUR a year;" \
        " 142,400.00 EUR over 1 year." in bom
