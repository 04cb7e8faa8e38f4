"""The report's baseline page counts where the figures come from by kind, not host by host
(app/report/baseline.py)."""

from __future__ import annotations

from pathlib import Path

from app.report.baseline import provenance_counts
from models.io.importers.liveoptics import import_liveoptics
from tests.liveoptics import workbook, write


def test_vms_taken_at_their_hosts_peak_are_one_row_per_figure(tmp_path: Path) -> None:
    """Live Optics at peak shares each host's recorded peak among its VMs, a text per host;
    the page counts them as one source per figure (a row per host and figure was cut to
    unreadable type)."""
    design, _ = import_liveoptics(write(tmp_path / "lo.xlsx", workbook(4, 24, seed=5).sheets))
    hosts = len(design.of_kind("host"))
    rows = provenance_counts(design)
    peak = [(f, t, n) for f, t, n in rows if "at its host's peak" in t]
    assert {f for f, _, _ in peak} <= {"CPU", "storage I/O"}
    # one row per figure, and one more for the VMs scaled down to their host's record
    assert len({f for f, _, _ in peak}) <= len(peak) <= 2 * len({f for f, _, _ in peak}) \
        < 2 * hosts
    assert not any(".corp.local" in t for _, t, _ in peak)
    assert all("each host's recorded peak shared by its VMs' own peaks" in t and "%" not in t
               for _, t, _ in peak)
