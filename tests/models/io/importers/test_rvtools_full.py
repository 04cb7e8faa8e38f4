"""RVTools read in full: generated production estates (tests/estates.py), both header
generations, the odd rows of real exports, and the baseline they calibrate to."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from models.analysis import baseline
from models.document.codec import design_to_json, loads
from models.engine.evaluation import evaluate
from models.io.importers.rvtools import import_rvtools
from tests.estates import estate, write_csv_folder, write_xlsx


def test_4x_export_reads_every_sheet_with_provenance(tmp_path: Path) -> None:
    e = estate(12, 211, seed=12)
    design, report = import_rvtools(write_xlsx(tmp_path / "e.xlsx", e.sheets))
    vms = design.of_kind("vm")
    assert report.coverage.ratio == 1.0 and len(vms) == report.coverage.on_their_host
    vm = vms[0]
    assert vm.props["workload.profile"] == "measured"
    assert vm.props["measured.cpu_mhz"] == e.truth.vm_mhz[vm.name]
    assert vm.props["provenance.cpu"] == ("measured: RVTools vCPU Overall MHz, export of"
                                          " 2024-05-02")
    assert str(vm.props["provenance.memory"]).startswith("measured: RVTools vMemory Consumed MiB"
                                                    " (+ Consumed Overhead)")
    assert vm.props["provenance.io"] == "not measured"
    assert "workload.io_iops" not in vm.props  # nothing invented
    assert {"disk.provisioned_gb", "disk.used_gb", "disk.guest_capacity_gb",
            "disk.guest_used_gb", "measured.memory_active_gb"} <= set(vm.props)
    # LSI Logic SAS on ~95% of the disks: the VMs' vscsi follows their disks
    scsi = [v.props.get("vscsi") for v in vms]
    assert scsi.count("lsi_sas") > 0.85 * len(vms) and "pvscsi" in scsi
    host = design.of_kind("host")[0]
    assert host.props["measured.cpu_pct"] == e.truth.host_cpu_pct[host.name]
    assert str(host.props["provenance.measured"]).startswith("RVTools vHost CPU usage %")
    # clusters with their recorded HA and DRS, hosts in them
    clusters = design.of_kind("cluster")
    assert clusters and all("admission_control" in c.props for c in clusters)
    members = {lk.source for lk in design.links if lk.kind == "in_cluster"}
    assert members == {h.id for h in design.of_kind("host")}
    # LUNs grouped into arrays by NAA prefix, NFS exports by server
    arrays = {a.props.get("address"): a for a in design.of_kind("storage_array")}
    assert set(arrays) == set(e.truth.arrays.values())
    assert sum(int(a.get("datastores") or 1) for a in arrays.values()) == len(e.truth.arrays)
    assert any(a.props.get("protocol") == "nfs" for a in arrays.values())
    assert all("capacity_gb" in a.props and "used_gb" in a.props for a in arrays.values())
    assert loads(design_to_json(design)).components  # the validating parser takes it


def test_3x_mb_export_without_vcpu_sheet_shares_host_usage(tmp_path: Path) -> None:
    e = estate(20, 400, seed=3, generation="3x")
    design, report = import_rvtools(write_xlsx(tmp_path / "old.xlsx", e.sheets))
    assert any("sheet vCPU not in the export" in n for n in report.notes)
    vm = design.of_kind("vm")[0]
    assert str(vm.props["provenance.cpu"]).startswith("solved: share by vCPUs of host")
    assert "its date is not recorded" in str(vm.props["provenance.cpu"])
    assert str(vm.props["provenance.memory"]).startswith("solved: share by configured memory")
    # 3.x vPartition names its VM column oddly: the first column is read as the VM
    assert "disk.guest_used_gb" in vm.props
    d2, r2 = import_rvtools(write_csv_folder(tmp_path / "csv", e.sheets))
    assert r2.counts == report.counts
    same = d2.component(vm.id)
    assert same is not None
    assert {k: v for k, v in same.props.items() if not k.startswith("provenance")} == {
        k: v for k, v in vm.props.items() if not k.startswith("provenance")}


def test_odd_rows_are_named_and_never_imported(tmp_path: Path) -> None:
    e = estate(4, 40, seed=4, odd_rows=True)
    design, report = import_rvtools(write_xlsx(tmp_path / "odd.xlsx", e.sheets))
    reasons = {s.name: s.reason for s in report.skipped}
    assert reasons["tmpl-w2019"].startswith("template")
    assert reasons["old-orphan"].startswith("orphaned")
    assert sum("totals row" in s.reason for s in report.skipped) == 2  # vInfo and vHost
    names = {v.name for v in design.of_kind("vm")}
    assert not names & {"tmpl-w2019", "old-orphan"}
    assert report.coverage.dropped == 1  # the orphan
    assert json.loads(json.dumps(report.to_dict()))["coverage"]["dropped"] == 1
    # empty CPUs and Memory cells that no other sheet fills: imported unsized, and named
    empty = next(v for v in design.of_kind("vm") if v.name == "empty-cells")
    assert "unsized" in empty.tags and "vcpus" not in empty.props
    assert any("imported unsized" in n and "'empty-cells'" in n for n in report.notes)


def test_empty_size_cells_are_taken_from_the_vcpu_and_vmemory_rows(tmp_path: Path) -> None:
    e = estate(4, 40, seed=4, unsized=3)
    design, report = import_rvtools(write_xlsx(tmp_path / "e.xlsx", e.sheets))
    assert report.coverage.dropped == 0
    vinfo = e.sheets["vInfo"]
    blank = [r[0] for r in vinfo[1:] if r[vinfo[0].index("CPUs")] == ""]
    assert len(blank) == 3
    vcpu = {r[0]: r for r in e.sheets["vCPU"][1:]}
    for name in blank:
        vm = next(v for v in design.of_kind("vm") if v.name == name)
        assert vm.props["vcpus"] == vcpu[name][e.sheets["vCPU"][0].index("CPUs")]
        assert float(str(vm.props["memory_gb"])) > 0 and "unsized" not in vm.tags
    assert any("3 VMs with empty CPUs or Memory cells" in n for n in report.notes)


def test_a_million_row_dimension_claim_reads_the_rows_there_are(tmp_path: Path) -> None:
    e = estate(3, 30, seed=5)
    plain, _ = import_rvtools(write_xlsx(tmp_path / "a.xlsx", e.sheets))
    claimed, report = import_rvtools(write_xlsx(tmp_path / "b.xlsx", e.sheets,
                                                claim_rows=1_048_576))
    assert len(claimed.of_kind("vm")) == len(plain.of_kind("vm")) == report.counts["vms"]


def test_vms_whose_host_is_missing_fall_back_to_their_cluster_or_are_unplaced(
        tmp_path: Path) -> None:
    e = estate(6, 60, seed=6, anonymise_hosts=True)
    design, report = import_rvtools(write_xlsx(tmp_path / "anon.xlsx", e.sheets))
    cov = report.coverage
    assert cov.on_their_host == 0 and cov.by_cluster == cov.runnable > 0
    assert len(report.placement) == cov.runnable
    runs_on = {lk.source for lk in design.links if lk.kind == "runs_on"}
    assert runs_on == {v.id for v in design.of_kind("vm")}
    # no cluster either: imported unplaced, counted in demand, placed by seek
    vinfo = e.sheets["vInfo"]
    col = vinfo[0].index("Cluster")
    for row in vinfo[1:]:
        row[col] = ""
    design, report = import_rvtools(write_xlsx(tmp_path / "none.xlsx", e.sheets))
    assert report.coverage.unplaced == report.coverage.runnable
    assert all("unplaced" in v.tags for v in design.of_kind("vm"))
    pred = evaluate(design)
    assert pred.sections.to_json()["capacity"]["unplaced_vms"] == len(design.of_kind("vm"))
    assert pred.consolidation.hosts_needed and pred.consolidation.hosts_needed >= 1
    from models.analysis.placement import apply_placement, place_unplaced  # noqa: PLC0415

    placed = place_unplaced(design)
    apply_placement(design, placed)
    assert not any("unplaced" in v.tags for v in design.of_kind("vm"))
    assert evaluate(design).hosts.vms.sum() == len(design.of_kind("vm"))


@pytest.mark.parametrize(("hosts", "vms", "seed"), [(2, 5, 2), (12, 211, 12), (34, 805, 34)])
def test_baseline_matches_what_the_export_recorded(tmp_path: Path, hosts: int, vms: int,
                                                   seed: int) -> None:
    e = estate(hosts, vms, seed=seed)
    design, report = import_rvtools(write_xlsx(tmp_path / "e.xlsx", e.sheets))
    check = baseline.check(design)
    for what in ("cpu", "memory"):
        s = check.stats(what)
        assert s["hosts"] == hosts
        assert float(s["median"] or 0) <= baseline.TARGET_MEDIAN
        assert float(s["p90"] or 0) <= baseline.TARGET_P90
    assert any("baseline check" in line for line in report.calibration)
    # the export lists every VM: no host gets a background, so what the record and the VMs
    # disagree by (the hypervisor's own worlds, the vmkernel's memory, samples a moment
    # apart) is the model's error and the check shows it, never absorbed
    assert not check.partial
    assert all(h.background_cpu is None and h.background_memory is None for h in check.hosts)
    for what in ("cpu", "memory"):
        assert float(check.stats(what)["max"] or 0) > 0.5
    # every measured VM's predicted CPU is its measured MHz (the solver's job), but for the
    # few busier than the model's ceiling of one core-equivalent per vCPU: held there, and
    # their residual shows; and but for those on a host whose VMs' samples add up to more
    # than the host recorded a moment apart: scaled to the record, and said so
    solved = {v.id: float(str(v.props["workload.cpu_pct"])) for v in design.of_kind("vm")}
    rows = [(float(v.cpu_mhz_predicted or 0), v.cpu_mhz_recorded, solved[v.id],
             baseline.SCALED in v.provenance["cpu"]) for v in check.vms if v.cpu_mhz_recorded]
    free = np.array([(p, r) for p, r, pct, scaled in rows if pct < 100.0 and not scaled])
    assert np.allclose(free[:, 0], free[:, 1], rtol=1e-5, atol=0.05)
    held = [(p, r) for p, r, pct, scaled in rows if pct >= 100.0]
    assert len(held) <= 0.02 * len(rows) and all(p < r for p, r in held)
    scaled = [(p, r) for p, r, _, s in rows if s]
    assert all(0.8 * r < p <= r + 0.05 for p, r in scaled)  # sampling: a few points
    assert bool(scaled) == bool(check.scaled)
    # and no I/O was invented: the estate's storage figures are "not measured"
    p = evaluate(design)
    assert np.isnan(p.vms.iops).all() and p.total_iops == 0.0
    assert all(v["iops"] is None for v in p.to_dict()["vms"])
    # nor on the arrays: theirs read "not measured" too (null in JSON), not 0 IOPS at 0 ms
    assert len(p.arrays.ids) and p.arrays.io_not_measured.all()
    assert all(a["iops"] is None and a["latency_ms"] is None for a in p.to_dict()["arrays"])


def test_hosts_keep_their_recorded_vm_count_and_the_vms_the_export_lists(tmp_path: Path
                                                                          ) -> None:
    """vHost's # VMs total (powered-off VMs too) against every vInfo row naming the host: a
    filter that leaves VMs out makes the host partial, and the coverage counts it."""
    e = estate(8, 120, seed=21, filtered=0.15)
    design, report = import_rvtools(write_xlsx(tmp_path / "e.xlsx", e.sheets))
    assert e.truth.partial and report.coverage.partial_hosts == len(e.truth.partial)
    for h in design.of_kind("host"):
        recorded, listed = e.truth.partial.get(h.name, (h.props["measured.vms"],) * 2)
        assert (h.props["measured.vms"], h.props["measured.vms_listed"]) == (recorded, listed)
    assert f"{len(e.truth.partial)} hosts partial" in report.coverage.line()
    whole, _ = import_rvtools(write_xlsx(tmp_path / "w.xlsx", estate(4, 40, seed=21).sheets))
    assert all(h.props["measured.vms"] == h.props["measured.vms_listed"]
               for h in whole.of_kind("host"))


def test_the_23_host_571_vm_estate_of_issue_22_meets_its_record(tmp_path: Path) -> None:
    """Busy hyperthreaded hosts, an export filtered to 90% of the VMs: vCenter's VM usage
    counts each hyperthread, the host's each core, so the VMs' MHz add up to more than the
    hosts recorded (the baseline ran up to 18 points over, 92% against 73%, and the missing
    VMs should have pushed it below). Now every host is within 3 points: the over-counted
    VMs are scaled to their host's record, the missing ones are their host's background."""
    e = estate(23, 571, seed=22, filtered=0.1, ht_charge=1.0, load=3.0)
    design, report = import_rvtools(write_xlsx(tmp_path / "e.xlsx", e.sheets))
    check = baseline.check(design)
    assert all(abs(r) <= 3.0 for h in check.hosts
               for r in (h.cpu_residual, h.memory_residual) if r is not None)
    assert check.scaled and all(0.5 < f < 1.0 for f in check.scaled.values())
    assert {h.name for h in check.partial} == set(e.truth.partial)
    assert report.coverage.partial_hosts == len(e.truth.partial)
    # what-ifs start from the record: every host's predicted CPU is what it recorded
    pred = evaluate(design)
    for i, hid in enumerate(pred.hosts.ids):
        h = design.component(hid)
        assert h is not None
        assert 100.0 * pred.hosts.cpu_util[i] == pytest.approx(
            float(str(h.props["measured.cpu_pct"])), abs=3.0)
