"""The report's host-failure page: led by the summary's own paragraph, a row per failure,
those that break the policy first; a design of one or two hosts has its sentence on the first
page and no page of its own; the PNG summary keeps What to do."""

from __future__ import annotations

from pathlib import Path

from app.report import export as report
from app.report.failure import HEADING, failure_page
from app.report.pages import MAX_PAGES, build_pages
from models.examples import bundled as examples
from models.report.content import build
from tests.app.report.test_export import _page_count, _page_with, _text, needs_pdftotext
from tests.models.report.test_failure import cluster, tight


def _squash(text: str) -> str:
    return " ".join(text.split())


@needs_pdftotext
def test_the_page_says_what_the_summary_says(tmp_path: Path) -> None:
    design = tight()
    out = tmp_path / "tight.pdf"
    report.export_report(design, "base", out)
    assert _page_count(out.read_bytes()) <= MAX_PAGES
    said = dict(build(design, "base", checks=False).summary.paragraphs())["If a host fails"]
    first = _squash(_text(out, 1))
    page = _squash(_page_with(out, HEADING))
    assert said in page and "If a host fails" in first
    assert "HA restarts its 4 VMs and the CPU of hosts esx01 and esx02 reaches up to" in first
    assert "Each of its 3 hosts failed in turn, as headroom failure does" in page
    assert "What breaks" in page and "esx00" in page and "nothing" not in page
    assert "Add 1 host to cluster prod" in first  # What to do, on the first page


@needs_pdftotext
def test_ha_off_reads_as_a_choice_on_the_page(tmp_path: Path) -> None:
    out = tmp_path / "off.pdf"
    report.export_report(cluster("HA off", hosts=3, props={"ha_enabled": False}), "base", out)
    page = _squash(_page_with(out, HEADING))
    assert "Cluster prod has HA off: a host failure leaves its VMs down" in page
    assert "4 VMs stay down (HA off)" in page


def _has_page(r: report.Report) -> bool:
    return any(getattr(p, "func", None) is failure_page for p in build_pages(r))


def test_one_host_has_no_page_of_its_own() -> None:
    d = cluster("one", hosts=1)
    d.components = [x for x in d.components if x.kind != "cluster"]
    d.links = [lk for lk in d.links if lk.kind != "in_cluster"]
    r = report.prepare(d, "base", with_checks=False)
    assert r.content.failure is not None and r.content.summary.failure
    assert not _has_page(r)
    assert _has_page(report.prepare(tight(), "base", with_checks=False))


def test_two_hosts_say_it_in_the_summary_alone() -> None:
    """Two failures, the second the first's mirror: the summary's paragraph says the worst,
    and a page would hold that paragraph again and two rows."""
    r = report.prepare(examples.load("vdi-pcoip"), "base", with_checks=False)
    assert r.content.failure is not None and len(r.content.failure.tried) == 2
    assert "Any one of its 2 hosts can fail" in r.content.summary.failure
    assert not _has_page(r)


def test_the_png_summary_keeps_what_to_do() -> None:
    r = report.prepare(tight(), "base", with_checks=False)
    heads = [h for h, _ in r.content.summary.leading()]
    assert heads == ["What it achieves", "What binds", "If a host fails", "What to do"]
    assert report.render_png(r).startswith(b"\x89PNG")
