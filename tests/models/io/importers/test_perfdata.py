"""esxtop batch CSV and Aria Operations CSV views onto an existing design by VM name."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import pytest

from models.analysis import baseline
from models.document.design import Component, Design, DesignError, Link
from models.engine.evaluation import evaluate
from models.io.importers import aria, esxtop
from models.io.importers.measurements import apply_measurements, statistic
from models.io.importers.perfdata import read_performance

HOST = "esx01.corp.local"
SAMPLES = 20


def design() -> Design:
    d = Design(name="estate")
    d.components += [
        Component("h1", "host", HOST, props={"sockets": 2, "cores_per_socket": 10,
                                             "ghz": 2.5, "memory_gb": 512.0}),
        Component("n1", "nic", f"{HOST} vmnic0"),
        Component("a1", "storage_array", "array"),
        Component("v1", "vm", "sql01", props={"vcpus": 4, "workload.profile": "oltp"}),
        Component("v2", "vm", "web01", props={"vcpus": 2, "workload.profile": "measured"}),
    ]
    d.links += [Link("n1", "h1", "installed_in"), Link("v1", "h1", "runs_on"),
                Link("v2", "h1", "runs_on"), Link("v1", "a1", "disk_on"),
                Link("v2", "a1", "disk_on"), Link("h1", "a1", "storage")]
    return d


def write_esxtop(path: Path, *, disks_only: bool = False) -> Path:
    """An esxtop -b file: sql01 with two virtual disks (and its own aggregate row unless
    ``disks_only``), web01's CPU, a system group, an unknown VM, a vmnic and the host."""
    h = f"\\\\{HOST}"
    cols = ["(PDH-CSV 4.0) (UTC)(0)",
            f"{h}\\Group Cpu(1001:sql01)\\% Used", f"{h}\\Group Cpu(1001:sql01)\\% Ready",
            f"{h}\\Group Cpu(1002:web01)\\% Used", f"{h}\\Group Cpu(1:system)\\% Used",
            f"{h}\\Group Cpu(1003:ghost99)\\% Used",
            f"{h}\\Group Memory(1001:sql01)\\Memory Consumed MBytes",
            f"{h}\\Physical Cpu(_Total)\\% Util Time",
            f"{h}\\Memory\\Machine MBytes", f"{h}\\Memory\\Free MBytes",
            f"{h}\\Network Port(vSwitch0:33554433:vmnic0)\\MBits Transmitted/sec",
            f"{h}\\Network Port(vSwitch0:33554433:vmnic0)\\MBits Received/sec",
            f"{h}\\Network Port(vSwitch0:33554433:vmnic0)\\Packets Transmitted/sec",
            f"{h}\\Network Port(vSwitch0:33554433:vmnic0)\\Packets Received/sec",
            f"{h}\\Network Port(vSwitch0:33554440:sql01.eth0)\\MBits Transmitted/sec",
            f"{h}\\Network Port(vSwitch0:33554440:sql01.eth0)\\MBits Received/sec"]
    disk_counters = ("Commands/sec", "Reads/sec", "Writes/sec", "MBytes Read/sec",
                     "MBytes Written/sec", "Average MilliSec/Read", "Average MilliSec/Write",
                     "Active Commands", "Queued Commands")
    instances = ["sql01:scsi0:0", "sql01:scsi0:1"] + ([] if disks_only else ["sql01"])
    for inst in instances:
        cols += [f"{h}\\Virtual Disk({inst})\\{c}" for c in disk_counters]
    rows = []
    for t in range(SAMPLES):
        row = [f"05/02/2024 10:{t:02d}:00", 100 + t, 2.0, 50, 10, 5, 16384,
               30 + t % 5, 524288, 262144, 400, 600, 30000, 50000, 20, 30]
        per_disk = [(600.0, 400.0, 200.0, 6.25, 3.125, 2.0, 1.0, 3.0, 1.0),
                    (400.0, 300.0, 100.0, 4.6875, 1.5625, 4.0, 1.0, 2.0, 0.0)]
        for inst in instances:
            if inst == "sql01":
                agg = [a + b for a, b in zip(per_disk[0], per_disk[1], strict=True)]
                agg[5], agg[6] = 2.857142857142857, 1.0  # the VM's own latency figures
                row += agg
            else:
                row += list(per_disk[int(inst[-1])])
        rows.append(row)
    with path.open("w", newline="") as f:
        csv.writer(f).writerows([cols, *rows])
    return path


def test_esxtop_reads_vms_disks_network_and_the_host(tmp_path: Path) -> None:
    meas = esxtop.read(write_esxtop(tmp_path / "esx01.csv"), "mean")
    assert set(meas.vms) == {"sql01", "web01", "ghost99"}  # system groups left out
    assert meas.cpu_used_pct["sql01"] == pytest.approx(109.5)
    sql = meas.vms["sql01"]
    assert sql.iops == pytest.approx(1000.0)  # the VM's own row, not the disks twice
    assert sql.read_pct == pytest.approx(70.0)
    assert sql.io_kb == pytest.approx(16.0)
    # the VM's own row: reads at 2.86 ms, writes at 1 ms, weighted by their rates
    assert sql.latency_ms == pytest.approx((2.857142857142857 * 700 + 1.0 * 300) / 1000)
    assert sql.oio == pytest.approx(6.0)
    assert sql.net_mbps == pytest.approx(50.0)
    assert sql.memory_consumed_mib == 16384
    assert meas.hosts[HOST].memory_pct == pytest.approx(50.0)
    assert meas.nics[(HOST, "vmnic0")].mbps == pytest.approx(1000.0)
    assert "esxtop batch esx01.csv, mean of 20 samples" in meas.source
    # no aggregate row: the VM is the sum of its disks, latency weighted by their rates
    disks = esxtop.read(write_esxtop(tmp_path / "d.csv", disks_only=True), "mean")
    d = disks.vms["sql01"]
    assert d.iops == pytest.approx(1000.0)
    assert d.latency_ms == pytest.approx((2 * 400 + 1 * 200 + 4 * 300 + 1 * 100) / 1000)
    assert "(sum of disks)" in d.sources["io"]


def test_esxtop_onto_a_design_then_the_baseline(tmp_path: Path) -> None:
    d = design()
    meas = read_performance(write_esxtop(tmp_path / "esx01.csv"), "p95")
    rep = apply_measurements(d, meas)
    assert rep.vms_matched == 2 and rep.unmatched_vms == ["ghost99"]
    assert rep.switched_profiles == ["sql01"] and rep.hosts_matched == 1
    assert rep.nics_matched == 1
    sql = d.component("v1")
    assert sql is not None
    p95_used = statistic([100 + t for t in range(SAMPLES)], "p95") or 0.0
    assert sql.props["measured.cpu_mhz"] == pytest.approx(p95_used / 100 * 2500, rel=1e-3)
    assert str(sql.props["provenance.io"]).startswith("measured: esxtop batch")
    assert d.component("n1").props["measured.mbps"] == pytest.approx(1000.0)  # type: ignore[union-attr]
    result = baseline.calibrate(d)
    pred = evaluate(d)
    assert pred.vms.iops[0] == pytest.approx(1000.0)
    assert math.isnan(pred.vms.iops[1])  # web01: its CPU was measured, its I/O was not
    assert result.vms_without_io == 1
    assert any("unmatched" not in line for line in rep.lines())
    assert "ghost99" in "\n".join(rep.lines())


def write_aria(path: Path, rows: list[list[object]], header: list[str]) -> Path:
    with path.open("w", newline="", encoding="utf-8-sig") as f:
        w = csv.writer(f)
        w.writerow(["VM capacity view"])
        w.writerow(["Generated on 2024-05-02 10:00"])
        w.writerow([])
        w.writerows([header, *rows])
    return path


def test_aria_view_with_units_and_a_trend(tmp_path: Path) -> None:
    header = ["Name", "Time", "CPU|Demand (GHz)", "Memory|Consumed (GB)",
              "Virtual Disk:Aggregate of all Instances|Read IOPS",
              "Virtual Disk:Aggregate of all Instances|Write IOPS",
              "Virtual Disk:Aggregate of all Instances|Read Latency (ms)",
              "Virtual Disk:Aggregate of all Instances|Write Latency (ms)",
              "Network|Usage Rate (KBps)"]
    rows: list[list[object]] = [["sql01", f"2024-05-0{i} 10:00", f"{1.0 + i / 10:.1f}", "12",
                                 "300", "100", "4", "2", "1,000"] for i in range(1, 6)]
    rows.append(["web01", "2024-05-01 10:00", "0.5", "2", "n/a", "n/a", "", "", "125"])
    meas = aria.read(write_aria(tmp_path / "aria.csv", rows, header), "max")
    sql = meas.vms["sql01"]
    assert sql.cpu_mhz == pytest.approx(1500.0)
    assert sql.memory_consumed_mib == pytest.approx(12 * 1024)
    assert sql.iops == pytest.approx(400.0) and sql.read_pct == pytest.approx(75.0)
    assert sql.latency_ms == pytest.approx(3.5)
    assert sql.net_mbps == pytest.approx(8.0)
    assert meas.vms["web01"].iops is None and meas.vms["web01"].cpu_mhz == 500.0
    assert "max of up to 5 intervals per VM" in meas.source
    d = design()
    apply_measurements(d, meas)
    assert d.component("v2").props["provenance.io"] == "not measured"  # type: ignore[union-attr]


@pytest.mark.parametrize(("content", "expect"), [
    ("just,some\n1,2\n", "no 'Name'"),
    ("Name,Colour\nsql01,blue\n", "no column this import reads"),
    ("\x00\x01\x02garbage", "not a text csv"),
])
def test_unknown_formats_and_missing_columns_are_clear(tmp_path: Path, content: str,
                                                       expect: str) -> None:
    path = tmp_path / "x.csv"
    path.write_bytes(content.encode("latin-1"))
    with pytest.raises(DesignError, match=expect):
        read_performance(path)


def test_other_files_are_refused_with_the_formats_known(tmp_path: Path) -> None:
    path = tmp_path / "x.pdf"
    path.write_bytes(b"%PDF-1.4")
    with pytest.raises(DesignError, match="esxtop batch CSV"):
        read_performance(path)
    bad = tmp_path / "e.csv"
    bad.write_text('"(PDH-CSV 4.0) (UTC)(0)","nothing"\n"05/02/2024 10:00:00","1"\n')
    with pytest.raises(DesignError, match="no esxtop counters"):
        esxtop.read(bad)
    bad.write_text('"(PDH-CSV 4.0) (UTC)(0)","\\\\h\\Power\\Watts"\n"05/02/2024","1"\n')
    with pytest.raises(DesignError, match="without VM or host counters"):
        esxtop.read(bad)
    with pytest.raises(DesignError, match="--stat"):
        esxtop.read(bad, "median")
