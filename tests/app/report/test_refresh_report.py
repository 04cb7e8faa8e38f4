"""A refresh in the PDF: the scenarios compared page puts it beside the base design, the
summary says it in a sentence, and a report of the refresh draws its own hosts."""

from __future__ import annotations

import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest

from app.report import export as report
from models.analysis.refresh import refresh, target
from models.document.design import Scenario
from tests.refresh_estate import estate

PDFTOTEXT = shutil.which("pdftotext")


def _text(path: Path, page: int) -> str:
    assert PDFTOTEXT is not None
    out = subprocess.run([PDFTOTEXT, "-f", str(page), "-l", str(page), "-layout", str(path),
                          "-"], check=True, capture_output=True, text=True)
    return " ".join(unicodedata.normalize("NFKC", out.stdout).split())


@pytest.mark.skipif(PDFTOTEXT is None, reason="pdftotext (poppler-utils) not installed")
def test_the_report_shows_the_refresh_before_and_after(tmp_path: Path) -> None:
    d = estate()
    r = refresh(d, target("dell-r760", "Gold 6548Y+", 1024))
    d.scenarios.append(Scenario("R760", [], r.rebuild))
    out = tmp_path / "refresh.pdf"
    report.export_report(d, "base", out)
    summary = _text(out, 1)
    assert "The refresh" in summary and "licensed cores from 192 to 256" in summary
    compared = _text(out, 2)
    assert "The refresh ‘R760’" in compared
    assert "Licensed cores 192 256" in compared and "Hosts 6 4" in compared
    assert "‘R760’ — 6 hosts of prod, dmz replaced by 4 hosts of Dell PowerEdge R760" \
        in compared
    mine = tmp_path / "r760.pdf"
    report.export_report(d, "R760", mine)
    # the design page lists the refresh's own hosts: 2 clusters, 4 hosts, 48 VMs (not 6 hosts)
    page = _text(mine, 4)
    assert "4 hosts in 2 clusters running 48 VMs" in page and "PowerEdge R760" in page
