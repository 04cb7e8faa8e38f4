"""The real anonymised RVTools exports in ``../shared/samples/`` (skipped when absent): the
baseline meets what they recorded, their partial hosts are named, nothing is dropped for an
empty size cell.  Nothing is tuned to them: other real exports check the importers."""

from __future__ import annotations

from pathlib import Path

import pytest

from models.analysis import baseline
from models.io.importers.rvtools import import_rvtools

SAMPLES = Path(__file__).resolve().parents[4].parent / "shared" / "samples"
RVTOOLS = sorted(SAMPLES.glob("rvtools-*.xlsx")) if SAMPLES.is_dir() else []


@pytest.mark.skipif(not RVTOOLS, reason="no real RVTools exports in ../shared/samples")
@pytest.mark.parametrize("path", RVTOOLS, ids=lambda p: p.stem)
def test_a_real_export_meets_its_record_and_names_its_partial_hosts(path: Path) -> None:
    design, report = import_rvtools(path)
    check = baseline.check(design)
    recorded = [r for h in check.hosts for r in (h.cpu_residual, h.memory_residual)
                if r is not None]
    assert recorded and all(abs(r) <= 3.0 for r in recorded)
    partial = [h for h in design.of_kind("host")
               if int(h.get("measured.vms") or 0) > int(h.get("measured.vms_listed") or 0)]
    assert report.coverage.partial_hosts == len(partial) == len(check.partial)
    text = "\n".join(report.lines())
    for h in sorted(check.partial, key=lambda h: -((h.vms_recorded or 0)
                                                   - (h.vms_listed or 0)))[:10]:
        assert f"{h.name}: {h.vms_recorded} VMs recorded, {h.vms_listed} in the export" in text
    # a powered-on row without a usable size is imported (sized from its other rows, or
    # unsized and named), never dropped
    assert not any("CPUs is empty" in s.reason for s in report.skipped)
    assert report.coverage.dropped == 0
