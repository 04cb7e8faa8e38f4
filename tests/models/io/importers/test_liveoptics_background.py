"""A Live Optics collection's storage load kept whole (issue 36 item 3): hosts that recorded
I/O beyond their VMs' (generated workbooks, tests/liveoptics.py ``host_io``; the real masked
sample where it is), latency in both statistics, and the check's lines."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from models.analysis import baseline, latency
from models.document.codec import design_to_json
from models.engine.evaluation import evaluate
from models.io.importers.liveoptics import import_liveoptics, read_measurements
from tests.conftest import ROOT
from tests.liveoptics import workbook, write

SAMPLE = ROOT.parent / "shared" / "samples" / "liveoptics-masked-83-vms.xlsx"


def _hosts(design: object) -> dict[str, dict[str, object]]:
    return {h.name: dict(h.props) for h in design.of_kind("host")}  # type: ignore[attr-defined]


def test_a_hosts_own_io_becomes_its_background_on_its_arrays(tmp_path: Path) -> None:
    c = workbook(4, 24, seed=3, host_io={0: 800.0})
    design, report = import_liveoptics(write(tmp_path / "lo.xlsx", c.sheets), stat="average")
    h = _hosts(design)["esx01.corp.local"]
    truth = c.truth.host["esx01.corp.local"]
    assert h["measured.iops"] == round(truth["iops_avg"])
    assert h["measured.read_pct"] is not None and h["measured.io_kb"] is not None
    # its own I/O, and the hypervisor's few IOPS (whole IOPS per VM row: a rounding more)
    assert float(str(h["background.iops"])) == pytest.approx(truth["own_iops_avg"], abs=40)
    assert float(str(h["background.read_pct"])) == pytest.approx(90.0, abs=10)
    assert 0.5 <= float(str(h["background.io_kb"])) <= 64.0
    assert str(h["provenance.background"]).startswith(
        "solved: host esx01.corp.local's recorded")
    others = [float(str(p.get("background.iops") or 0)) for n, p in _hosts(design).items()
              if n != "esx01.corp.local"]
    assert max(others) < 40  # the hypervisor's own: a few IOPS
    pred = evaluate(design)
    recorded = sum(float(str(p["measured.iops"])) for p in _hosts(design).values())
    assert pred.total_iops == pytest.approx(recorded, abs=1.0)
    assert float(np.nansum(pred.arrays.iops)) == pytest.approx(pred.total_iops, rel=1e-9)
    lines = report.calibration
    assert any(s.startswith("  background I/O ") and "(esx01.corp.local " in s for s in lines)
    # without the host's own I/O, the same estate's arrays carry less
    plain, _ = import_liveoptics(write(tmp_path / "plain.xlsx", workbook(4, 24, seed=3).sheets),
                                 stat="average")
    assert evaluate(plain).total_iops < pred.total_iops - 500


def test_at_the_peak_the_design_carries_what_the_hosts_recorded(tmp_path: Path) -> None:
    c = workbook(4, 24, seed=5, host_io={1: 600.0})
    design, _ = import_liveoptics(write(tmp_path / "lo.xlsx", c.sheets))
    hosts = _hosts(design)
    recorded = sum(float(str(p["measured.iops"])) for p in hosts.values())
    assert evaluate(design).total_iops == pytest.approx(recorded, abs=2.0)
    assert float(str(hosts["esx02.corp.local"].get("background.iops") or 0)) > 100


@pytest.mark.parametrize("stat", ["peak", "average"])
def test_latency_is_read_in_both_statistics_whatever_the_rates(tmp_path: Path,
                                                               stat: str) -> None:
    c = workbook(4, 24, seed=3)
    design, report = import_liveoptics(write(tmp_path / "lo.xlsx", c.sheets), stat=stat)
    name, truth = next(iter(c.truth.vm.items()))
    vm = next(v for v in design.of_kind("vm") if v.name == name)
    assert vm.props["measured.latency_ms"] == pytest.approx(truth["latency_avg"], abs=1.0)
    assert vm.props["measured.latency_peak_ms"] == round(truth["latency_peak"])
    assert any(s.startswith("  VM latency   average: median") for s in report.calibration)
    assert any(s.startswith("  VM latency   peak: median") for s in report.calibration)


def test_calibrate_from_a_collection_carries_the_hosts_mix(tmp_path: Path) -> None:
    c = workbook(4, 24, seed=3, host_io={0: 800.0})
    meas = read_measurements(write(tmp_path / "lo.xlsx", c.sheets), "mean")
    h = meas.hosts["esx01.corp.local"]
    assert h.iops == round(c.truth.host["esx01.corp.local"]["iops_avg"])
    assert h.read_pct is not None and h.io_kb is not None


@pytest.mark.skipif(not SAMPLE.exists(), reason="the real Live Optics sample is not here")
def test_the_real_sample_keeps_its_hosts_recorded_io() -> None:
    design, report = import_liveoptics(SAMPLE)
    hosts = _hosts(design)
    assert float(str(hosts["Server 1"]["background.iops"])) == pytest.approx(5886 - 3448)
    assert float(str(hosts["Server 6"]["background.iops"])) == pytest.approx(4769 - 178)
    pred = evaluate(design)
    assert pred.total_iops == pytest.approx(21459, abs=1.0)  # 14,430 before issue 36
    lines = report.calibration
    assert any(s.startswith("  host IOPS    median 0% off, 21,459 predicted vs 21,459"
                            " recorded") for s in lines)
    assert any(s.startswith("  array latency: ") for s in lines)
    assert any("headroom calibrate DESIGN --storage" in s for s in lines)
    before = design_to_json(design)
    check = baseline.check(design)
    fit = latency.fit(design)
    assert design_to_json(design) == before and fit.fitted  # offered, not applied
    assert {f.id for f in fit.fitted} <= {a.id for a in check.arrays if a.disagrees}


def test_a_host_without_vms_carries_its_recorded_io(tmp_path: Path) -> None:
    c = workbook(4, 24, seed=3, idle_host=True, host_io={4: 300.0})
    design, report = import_liveoptics(write(tmp_path / "lo.xlsx", c.sheets), stat="average")
    idle = _hosts(design)["esx-idle.corp.local"]
    assert idle["background.iops"] == idle["measured.iops"]
    assert any(n.startswith("host 'esx-idle.corp.local' recorded") and n.endswith(
        "its IOPS are its background I/O on the arrays it reaches)") for n in report.notes)
    pred = evaluate(design)
    j = pred.hosts.ids.index(next(h.id for h in design.of_kind("host")
                                  if h.name == "esx-idle.corp.local"))
    assert pred.hosts.background_iops[j] == pytest.approx(float(str(idle["measured.iops"])))
