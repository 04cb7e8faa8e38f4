"""Live Optics VMware workbooks: generated collections in every variant (tests/liveoptics.py),
the zip Live Optics downloads, the real masked sample where it is, and a collection's I/O put
onto an estate imported from RVTools."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from models.analysis import baseline
from models.document.codec import design_to_json, loads
from models.document.design import DesignError
from models.engine.evaluation import evaluate
from models.io.importers import ImportReport, liveoptics
from models.io.importers.liveoptics import import_liveoptics
from models.io.importers.liveoptics_sheets import vm_name
from models.io.importers.measurements import apply_measurements
from models.io.importers.perfdata import read_performance
from models.io.importers.rvtools import import_rvtools
from tests.conftest import ROOT
from tests.estates import estate, write_xlsx
from tests.liveoptics import collection, from_rvtools, workbook, write, write_zip

SAMPLE = ROOT.parent / "shared" / "samples" / "liveoptics-masked-83-vms.xlsx"


def _vm(design: object, name: str) -> dict[str, object]:
    comp = next(c for c in design.of_kind("vm") if c.name == name)  # type: ignore[attr-defined]
    return dict(comp.props)


def test_a_collection_imports_hosts_vms_storage_and_what_each_measured(tmp_path: Path) -> None:
    c = workbook(4, 24, seed=3)
    design, report = import_liveoptics(write(tmp_path / "lo.xlsx", c.sheets), stat="average")
    hosts = {h.name: h for h in design.of_kind("host")}
    assert set(hosts) == {f"esx0{i}.corp.local" for i in range(1, 5)}
    h = hosts["esx01.corp.local"]
    assert h.props["sockets"] == 2 and h.props["memory_gb"] in (192.0, 384.0, 512.0)
    assert h.props["measured.cpu_pct"] == pytest.approx(
        c.truth.host["esx01.corp.local"]["cpu_avg_pct"], abs=0.1)
    assert h.props["measured.iops"] == round(c.truth.host["esx01.corp.local"]["iops_avg"])
    assert str(h.props["provenance.measured"]).startswith(
        "Live Optics ESX Performance Average CPU, memory and IOPS, Live Optics project 1234567"
        " of 2026-06-01")
    assert {cl.name for cl in design.of_kind("cluster")} == {"CL00", "CL01"}
    cov = report.coverage
    assert cov.ratio == 1.0 and cov.measured_io == cov.measured_cpu == cov.runnable == 21
    assert report.counts["powered_off_skipped"] == 2 and report.counts["templates"] == 1
    name, truth = next(iter(c.truth.vm.items()))
    vm = _vm(design, name)
    assert vm["measured.cpu_mhz"] == pytest.approx(truth["cpu_avg_mhz"], abs=10)
    assert vm["measured.iops"] == round(truth["iops_avg"])
    assert vm["measured.read_pct"] == pytest.approx(truth["read_pct"], abs=8)
    assert vm["measured.io_kb"] == pytest.approx(truth["kb"], rel=0.15)
    assert vm["measured.latency_ms"] == pytest.approx(truth["latency_avg"], abs=1.0)
    assert vm["measured.memory_consumed_gb"] == pytest.approx(truth["consumed_mib"] / 1024,
                                                              abs=0.01)
    assert str(vm["provenance.io"]) == ("measured: Live Optics VM Performance Average IOPS,"
                                        " Live Optics project 1234567 of 2026-06-01")
    # the shared datastore of each cluster is one array, mounted by both its hosts
    arrays = {a.name: a for a in design.of_kind("storage_array")}
    assert {"DS-CL00", "DS-CL01", "local-esx01"} <= set(arrays)
    assert arrays["DS-CL00"].props["protocol"] == "fc"
    assert arrays["DS-CL00"].props["capacity_gb"] in (4096.0, 8192.0)
    storage = {(lk.source, lk.target) for lk in design.links if lk.kind == "storage"}
    assert {(hosts[f"esx0{i}.corp.local"].id, arrays["DS-CL00"].id) for i in (1, 2)} <= storage
    assert sum(1 for s in report.skipped if "boot device" in s.reason) == 4
    assert len(design.of_kind("nic")) == 8
    assert loads(design_to_json(design)).components
    # the baseline: measured I/O runs, and the check compares the hosts' IOPS too
    pred = evaluate(design)
    assert not pred.vms.io_not_measured.any()
    assert np.nansum(pred.vms.iops) == pytest.approx(
        sum(round(t["iops_avg"]) for t in c.truth.vm.values()), rel=0.01)
    assert any(line.startswith("  host IOPS") for line in report.calibration)
    check = baseline.check(design)
    assert check.within_target and all(h.iops_recorded for h in check.hosts)


def test_peak_takes_each_vm_at_its_hosts_peak(tmp_path: Path) -> None:
    c = workbook(4, 24, seed=5)
    design, report = import_liveoptics(write(tmp_path / "lo.xlsx", c.sheets))
    note = next(n for n in report.notes if n.startswith("--stat peak"))
    assert "by construction" in note and "CPU" in note
    runs = {lk.source: lk.target for lk in design.links if lk.kind == "runs_on"}
    for host in design.of_kind("host"):
        vms = [v for v in design.of_kind("vm") if runs.get(v.id) == host.id]
        mhz = sum(float(str(v.props["measured.cpu_mhz"])) for v in vms)
        cap = 2 * float(str(host.props["cores_per_socket"])) * float(str(host.props["ghz"]))
        assert mhz / (cap * 1000) * 100 == pytest.approx(
            float(str(host.props["measured.cpu_pct"])), abs=0.2)
        iops = sum(float(str(v.props["measured.iops"])) for v in vms)
        assert iops <= float(str(host.props["measured.iops"])) + 1
    vm = design.of_kind("vm")[0]
    own = c.truth.vm[vm.name]["cpu_peak_mhz"]
    share = float(str(vm.props["provenance.cpu"]).split("peak: ")[1].split("%")[0]) / 100
    assert "of each VM's own peak (host esx01.corp.local's recorded peak shared" in str(
        vm.props["provenance.cpu"])
    assert float(str(vm.props["measured.cpu_mhz"])) == pytest.approx(own * share, rel=0.02)
    check = baseline.check(design)
    cpu = check.stats("cpu")  # by construction, but for a VM held at its vCPUs' ceiling
    assert cpu["median"] == pytest.approx(0.0, abs=0.2) and float(cpu["max"] or 0) < 5.0


@pytest.mark.parametrize("units", ["MiB", "MB"])
def test_units_of_every_build_read_the_same(tmp_path: Path, units: str) -> None:
    base, _ = import_liveoptics(write(tmp_path / "a.xlsx", workbook(4, 24, seed=2).sheets),
                                stat="average")
    other, _ = import_liveoptics(write(tmp_path / "b.xlsx",
                                       workbook(4, 24, seed=2, units=units).sheets),
                                 stat="average")
    for a, b in zip(base.components, other.components, strict=True):
        assert a.props == b.props, a.name


def test_masked_names_datastores_matched_by_vm_count(tmp_path: Path) -> None:
    c = workbook(4, 24, seed=3, masked=True)
    design, report = import_liveoptics(write(tmp_path / "m.xlsx", c.sheets))
    assert any(n.startswith("names are masked by Live Optics") for n in report.notes)
    assert {h.name for h in design.of_kind("host")} == {f"Server {i}" for i in range(1, 5)}
    matched = next(n for n in report.notes if "matched by their VM count" in n)
    assert "Datastore 0 = Disk 1/Disk 2" in matched
    disk_on = {lk.source for lk in design.links if lk.kind == "disk_on"}
    assert {v.id for v in design.of_kind("vm")} == disk_on
    arrays = [a for a in design.of_kind("storage_array") if a.name == "Datastore 0"]
    assert arrays and arrays[0].props["capacity_gb"] in (4096.0, 8192.0)


def test_odd_workbooks_are_read_and_named(tmp_path: Path) -> None:
    c = workbook(4, 24, seed=4, details=False, nic_sheet=False, url_names=2, idle_host=True)
    design, report = import_liveoptics(write(tmp_path / "odd.xlsx", c.sheets))
    notes = "\n".join(report.notes)
    assert "sheet Details not in odd.xlsx" in notes
    assert "sheet Host Network Adapters not in odd.xlsx: no host NICs" in notes
    assert "Live Optics collection (its date is not recorded)" in report.provenance[0]
    assert "2 VMs named by a URL-encoded datastore path" in notes
    assert {"app-0001", "app-0002"} <= {v.name for v in design.of_kind("vm")}
    assert "host 'esx-idle.corp.local' recorded CPU" in notes
    idle = next(h for h in baseline.check(design).hosts if h.name == "esx-idle.corp.local")
    assert idle.cpu_recorded and idle.cpu_residual == pytest.approx(-idle.cpu_recorded)
    assert not design.of_kind("nic")
    _, rep = import_liveoptics(write(tmp_path / "s.xlsx",
                                          workbook(2, 6, seed=4, details="serial").sheets))
    assert "of 2026-06-01" in rep.provenance[0]


def test_names_as_live_optics_writes_them() -> None:
    assert vm_name("%2fvmfs%2fvolumes%2f5e3a-ds%2fweb01%2fweb01.vmx") == ("web01", True)
    assert vm_name("AC&amp;amp;Ncorp  app") == ("AC&Ncorp app", False)
    assert vm_name("Guest VM 12") == ("Guest VM 12", False)


def test_the_zip_live_optics_downloads(tmp_path: Path) -> None:
    c = workbook(2, 8, seed=1)
    z = write_zip(tmp_path / "LiveOptics_1234567.zip", c.sheets)
    imp = liveoptics.IMPORTER
    assert imp.recognises(z)
    design, report = import_liveoptics(z)
    assert len(design.of_kind("host")) == 2
    assert any("GENERAL_06_01_2026.xlsx is not a VMware workbook" in n for n in report.notes)
    empty = write_zip(tmp_path / "other.zip", c.sheets, vmware=False)
    assert not imp.recognises(empty)
    with pytest.raises(DesignError, match="holds no Live Optics VMware workbook"):
        import_liveoptics(empty)


def test_what_is_not_a_collection_is_refused(tmp_path: Path) -> None:
    sheets = workbook(2, 6, seed=1).sheets
    del sheets["VMs"]
    with pytest.raises(DesignError, match="missing Live Optics sheet"):
        import_liveoptics(write(tmp_path / "novms.xlsx", sheets))
    text = tmp_path / "x.xlsx"
    text.write_text("hello")
    with pytest.raises(DesignError, match="not a Live Optics workbook"):
        import_liveoptics(text)
    with pytest.raises(DesignError, match="--stat"):
        import_liveoptics(write(tmp_path / "ok.xlsx", workbook(2, 6).sheets), stat="p95")


def test_a_collection_onto_an_rvtools_estate(tmp_path: Path) -> None:
    """calibrate --from: the collection's I/O onto an estate imported from RVTools, by VM
    and host name; the two sources make one baseline."""
    e = estate(4, 40, seed=8)
    design, _ = import_rvtools(write_xlsx(tmp_path / "rv.xlsx", e.sheets))
    assert all(v.props["provenance.io"] == "not measured" for v in design.of_kind("vm"))
    hosts, vms, stores = from_rvtools(e.sheets)
    lo = write(tmp_path / "lo.xlsx", collection(hosts, vms, stores, seed=8).sheets)
    meas = read_performance(lo, "mean")
    assert meas.source.endswith("average")
    rep = apply_measurements(design, meas)
    running = [v for v in design.of_kind("vm")]
    assert rep.vms_matched == len(running) and rep.hosts_matched == 4
    assert not rep.unmatched_vms
    result = baseline.calibrate(design)
    assert result.vms_without_io == 0
    assert all(h.iops_recorded is not None for h in result.hosts)
    vm = running[0]
    assert str(vm.props["provenance.io"]).startswith("measured: Live Optics VM Performance")
    pred = evaluate(design)
    assert np.all(np.isfinite(pred.vms.iops)) and np.nansum(pred.vms.iops) > 0
    peak = read_performance(lo)  # calibrate's default p95: the workbook has no p95
    assert "peak (the workbook has no 95th percentile)" in peak.source


def test_the_statistic_of_calibrate() -> None:
    assert liveoptics.stat_of("p95") == liveoptics.stat_of("max") == "peak"
    assert liveoptics.stat_of("mean") == "average"


@pytest.mark.skipif(not SAMPLE.exists(), reason="the real sample is not here")
def test_the_real_masked_workbook() -> None:
    design, report = import_liveoptics(SAMPLE)
    assert len(design.of_kind("host")) == 8 and len(design.of_kind("vm")) == 57
    assert report.counts["powered_off_skipped"] == 23 and report.counts["templates"] == 3
    cov = report.coverage
    assert cov.ratio == 1.0 and cov.measured_io == cov.measured_cpu == 57
    assert any(n.startswith("names are masked") for n in report.notes)
    assert any("matched by their VM count" in n for n in report.notes)
    host = next(h for h in design.of_kind("host") if h.name == "Server 4")
    assert host.props["cores_per_socket"] == 8 and host.props["ghz"] == 2.1
    assert host.props["hyperthreading"] is True
    check = baseline.check(design)
    assert check.within_target and len([h for h in check.hosts if h.iops_recorded]) == 8
    average, _ = import_liveoptics(SAMPLE, stat="average")
    s = baseline.check(average).stats("cpu")
    assert s["median"] is not None and s["median"] < 5.0
    assert not evaluate(average).vms.io_not_measured.any()


def test_a_bad_cell_is_named(tmp_path: Path) -> None:
    c = workbook(2, 6, seed=1)
    header = c.sheets["VMs"][0]
    row = next(r for r in c.sheets["VMs"][1:] if r[4] == "poweredOn")
    row[header.index("Virtual CPU")] = "two"
    _, report = import_liveoptics(write(tmp_path / "bad.xlsx", c.sheets))
    assert any("Virtual CPU 'two' is not a number" in s.reason for s in report.skipped)
    assert report.coverage.dropped == 1
    assert math.isfinite(report.seconds)


def test_the_report_of_one_book_in_a_merge(tmp_path: Path) -> None:
    report = ImportReport("x")
    col = liveoptics.read_source(write(tmp_path / "a.xlsx", workbook(2, 6, seed=1).sheets),
                                 "average", report)
    assert col.stat == "average" and not col.masked and len(col.estate.hosts) == 2
