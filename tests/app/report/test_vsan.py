"""The report's vSAN page: a design with a vSAN cluster has it after the limits (and the
host-failure page), its figures the capacity model's; a design without one has none."""

from __future__ import annotations

from pathlib import Path

from app.report import export as report
from app.report.pages import MAX_PAGES, build_pages
from app.report.vsan import HEADING
from models.examples import bundled as examples
from tests.app.report.test_export import _page_count, _page_with, _text, needs_pdftotext


def _squash(text: str) -> str:
    return " ".join(text.split())


def _pages(name: str) -> list[str]:
    r = report.prepare(examples.load(name), "base", with_checks=False)
    return [getattr(p, "func", None).__name__ for p in build_pages(r)]  # type: ignore[union-attr]


def test_only_a_design_with_vsan_has_the_page() -> None:
    pages = _pages("vsan-esa")
    assert "vsan_page" in pages
    assert pages.index("vsan_page") == pages.index("failure_page") + 1  # after the limits
    assert "vsan_page" not in _pages("vaio-scaling")


@needs_pdftotext
def test_the_page_says_each_clusters_capacity_and_the_licence(tmp_path: Path) -> None:
    out = tmp_path / "vsan.pdf"
    report.export_report(examples.load("vsan-esa"), "vSphere Foundation licence", out)
    assert _page_count(out.read_bytes()) <= MAX_PAGES
    page = _squash(_page_with(out, HEADING))
    assert "Production ESA RAID 5 FTT 1 6 126 TiB 33.5 TiB 65.2 TiB 48.4 TiB 16.8 TiB" \
        " 3 (4 recommended) 6 (vSAN storage)" in page
    assert "Production: data 48.4 TiB of 65.2 TiB usable (74.2 %)" in page
    assert "vSAN storage capacity sets 6 hosts, and it has 6." in page
    assert "In each scenario compared" in page and "short 7.63 TiB 7 (vSAN storage)" in page
    assert "384 licensed cores of VMware vSphere Foundation entitle 96 TiB" in page
    assert "29.7 TiB to license as the vSAN add-on" in page
    assert "Rules: vSAN Planning and Deployment" in page
    assert HEADING not in _squash(_text(out, 1))  # the summary names no page of its own


@needs_pdftotext
def test_a_stretched_cluster_keeps_its_slack(tmp_path: Path) -> None:
    """Hosts at two sites: reserved capacity cannot apply, the page says the 30 % kept."""
    out = tmp_path / "stretched.pdf"
    report.export_report(examples.load("stretched-vsan"), "base", out)
    page = _squash(_page_with(out, HEADING))
    assert "30 % of raw kept free (hosts at two sites: reserved capacity cannot apply)" in page
