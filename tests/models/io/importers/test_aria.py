"""Aria Operations views as Aria exports them: host, cluster and VM views, metric headers with
and without units, thousands separators, "-", a BOM, the interval column and cells that carry
their own unit."""

from __future__ import annotations

from pathlib import Path

import pytest

from models.analysis import baseline
from models.document.design import Component, Design, DesignError, Link
from models.io.importers import aria
from models.io.importers.aria_columns import number, parse
from models.io.importers.measurements import apply_measurements
from models.io.importers.perfdata import read_performance

INTERVALS = ("12:00 AM 21 July 2026", "1:00 AM 21 July 2026", "2:00 AM 21 July 2026")


def write(path: Path, header: list[str], rows: list[list[str]], *, quote_all: bool = True) -> Path:
    """A view as Aria writes it: UTF-8 with a BOM, LF line ends, every field quoted (or, as
    some exports do, the first header and field bare)."""
    def line(cells: list[str], first_bare: bool) -> str:
        out = [f'"{c}"' for c in cells]
        if first_bare:
            out[0] = cells[0]
        return ",".join(out)
    text = "\n".join([line(header, not quote_all)]
                     + [line(r, not quote_all) for r in rows]) + "\n"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    return path


def estate() -> Design:
    d = Design(name="estate")
    for h in ("esx01", "esx02"):
        d.components.append(Component(h, "host", f"{h}.corp.local", props={
            "sockets": 2, "cores_per_socket": 16, "ghz": 2.4, "memory_gb": 1536.0}))
        d.links.append(Link(h, "cl1", "in_cluster"))
    d.components += [Component("cl1", "cluster", "Prod"),
                     Component("a1", "storage_array", "array"),
                     Component("v1", "vm", "sql01", props={"vcpus": 4,
                                                            "workload.profile": "measured"})]
    d.links += [Link("v1", "esx01", "runs_on"), Link("v1", "a1", "disk_on")]
    return d


HOST_HEADER = ["Name", "Interval Breakdown", "Host|CPU|Demand|Avg", "Host|CPU|Demand|Max",
               "Host|CPU|Usage|Avg", "Host|CPU|Usage|Max", "Host|Memory|Utilization|Avg",
               "Host|CPU|Capacity Available to VMs|Last", "Host|Runtime|Maintenance State|Last",
               "Host|CPU|Contention (%)|Avg"]


def host_rows() -> list[list[str]]:
    rows = []
    for name, usage in (("esx01.corp.local", "38,400"), ("esx02.corp.local", "19,200.5")):
        for k, when in enumerate(INTERVALS):
            rows.append([name, when, "40,000", "49,491.3", usage, "60,000",
                         "786,432" if k < 2 else "-", "124,544",
                         "notInMaintenance" if k == 0 else "-", "1.5"])
    return rows


def test_a_host_view_without_units(tmp_path: Path) -> None:
    path = write(tmp_path / "7-28-26 Capacity Host vSphere World.csv", HOST_HEADER,
                 host_rows(), quote_all=False)
    meas = read_performance(path, "mean")
    assert meas.source.startswith("Aria Operations host view 7-28-26 Capacity Host vSphere"
                                  " World.csv, mean of up to 3 intervals per host")
    esx = meas.hosts["esx01.corp.local"]
    assert esx.cpu_mhz == pytest.approx(38400.0) and esx.cpu_demand_mhz == pytest.approx(40000)
    assert esx.memory_mib == pytest.approx(786432.0) and esx.memory_unit_guessed
    assert esx.cpu_contention_pct == pytest.approx(1.5)
    assert "(in MHz)" in meas.notes[0] and "(in MB)" in meas.notes[0]
    d = estate()
    rep = apply_measurements(d, meas)
    assert rep.hosts_matched == 2 and not rep.unmatched_hosts
    h = d.component("esx01")
    assert h is not None
    assert h.props["measured.cpu_pct"] == pytest.approx(50.0)  # of 2 x 16 x 2.4 GHz
    assert h.props["measured.cpu_demand_pct"] == pytest.approx(40000 / 76800 * 100, abs=1e-3)
    assert h.props["measured.memory_pct"] == pytest.approx(50.0)  # MB of 1.5 TB
    assert h.props["measured.cpu_contention_pct"] == 1.5
    assert str(h.props["provenance.measured"]).startswith("Aria Operations host view")
    check = baseline.check(d)
    row = next(r for r in check.hosts if r.id == "esx01")
    assert row.recorded == {"CPU demand": pytest.approx(52.083, abs=1e-3), "contention": 1.5}
    assert "contention 1.5%" in "\n".join(check.lines())
    # max reads the Max column: the intervals' highest
    top = aria.read(path, "max").hosts["esx01.corp.local"]
    assert top.cpu_mhz == pytest.approx(60000.0) and top.cpu_demand_mhz == pytest.approx(49491.3)


def test_memory_without_a_unit_is_checked_against_the_host(tmp_path: Path) -> None:
    rows = [[r[0], r[1], "", "", "", "", "805,306,368", "", "", ""] for r in host_rows()]
    d = estate()
    rep = apply_measurements(d, aria.read(write(tmp_path / "kb.csv", HOST_HEADER, rows),
                                          "mean"))
    h = d.component("esx01")
    assert h is not None and h.props["measured.memory_pct"] == pytest.approx(50.0)
    assert any("memory read in KB" in n for n in rep.notes)


def test_a_cluster_view(tmp_path: Path) -> None:
    header = ["Name", "Interval Breakdown", "Cluster|CPU|Demand|Avg",
              "Cluster|Memory|Utilization (MB)|Avg", "Cluster|CPU|Contention (%)|Max"]
    rows = [["Prod", when, "76,800", "1,572,864", "2.25"] for when in INTERVALS]
    meas = read_performance(write(tmp_path / "cluster.csv", header, rows), "p95")
    assert set(meas.clusters) == {"Prod"} and not meas.hosts and not meas.vms
    assert any("CPU demand but no usage" in n for n in meas.notes)
    d = estate()
    rep = apply_measurements(d, meas)
    assert rep.clusters_matched == 1 and "1 cluster" in rep.lines()[0]
    cl = d.component("cl1")
    assert cl is not None
    assert cl.props["measured.cpu_pct"] == pytest.approx(50.0)  # of two hosts' 76,800 MHz
    assert cl.props["measured.memory_pct"] == pytest.approx(50.0)
    assert cl.props["measured.cpu_contention_pct"] == 2.25
    check = baseline.check(d)
    assert [c.name for c in check.clusters] == ["Prod"] and check.clusters[0].cpu_recorded
    assert any(line.strip().startswith("cluster Prod") for line in check.lines())
    assert check.to_dict()["clusters"][0]["recorded"] == {"CPU demand": 50.0,
                                                         "contention": 2.25}


def test_a_vm_view_with_units_in_headers_and_cells(tmp_path: Path) -> None:
    header = ["Name", "Interval Breakdown", "VM|CPU|Demand (MHz)|Avg", "VM|CPU|Ready (%)|Avg",
              "VM|CPU|Contention (%)|Avg", "VM|Memory|Consumed (KB)|Avg",
              "VM|Configuration|Hardware|Number of CPUs (vCPUs)|Last",
              "VM|CPU|Total Capacity (GHz)|Last"]
    rows = [["sql01", when, "1.5 GHz" if k == 0 else "1,500", "2.5", "0.5", "8,388,608", "4",
             "9.6"] for k, when in enumerate(INTERVALS)]
    rows.append(["Summary", "", "-", "-", "-", "-", "-", "-"])
    meas = aria.read(write(tmp_path / "vm.csv", header, rows), "mean")
    assert set(meas.vms) == {"sql01"}
    sql = meas.vms["sql01"]
    assert sql.cpu_mhz == pytest.approx(1500.0) and sql.cpu_ready_pct == 2.5
    assert sql.cpu_contention_pct == 0.5 and sql.memory_consumed_mib == pytest.approx(8192.0)
    d = estate()
    apply_measurements(d, meas)
    vm = d.component("v1")
    assert vm is not None and vm.props["measured.cpu_contention_pct"] == 0.5
    assert vm.props["measured.cpu_ready_pct"] == 2.5


def test_headers_and_cells() -> None:
    c = parse(3, "Cluster|Memory|Utilization (MB)|Avg")
    assert (c.object, c.key, c.unit, c.transform) == ("cluster", "memory|utilization", "mb",
                                                      "avg")
    c = parse(0, "CPU|Demand (GHz)")
    assert (c.object, c.key, c.unit, c.transform) == ("", "cpu|demand", "ghz", "")
    assert number("1,791,567.26", "mhz", 1.0) == pytest.approx(1791567.26)
    assert number("34.89 GHz", "mhz", 1.0) == pytest.approx(34890.0)
    assert number("1.47 TB", "mib", 1.0) == pytest.approx(1.47 * 1024**2)
    assert number("-", "mhz", 1.0) != number("-", "mhz", 1.0)  # NaN
    assert number("notInMaintenance", "", 1.0) != number("x", "", 1.0)


def test_a_view_with_nothing_to_read_names_its_headers(tmp_path: Path) -> None:
    header = ["Name", "Interval Breakdown", "Host|Runtime|Maintenance State|Last"]
    path = write(tmp_path / "x.csv", header, [["esx01", INTERVALS[0], "inMaintenance"]])
    with pytest.raises(DesignError, match=r"found Name, Interval Breakdown, Host\|Runtime"):
        aria.read(path)


def test_a_host_views_io_is_the_hosts_and_beyond_its_vms_its_background(tmp_path: Path
                                                                        ) -> None:
    header = ["Name", "Interval Breakdown", "Host|CPU|Usage|Avg",
              "Host|Storage|Reads per second|Avg", "Host|Storage|Writes per second|Avg",
              "Host|Storage|Read Rate (KBps)|Avg", "Host|Storage|Write Rate (KBps)|Avg"]
    rows = [["esx01.corp.local", when, "38,400", "600", "200", "4,800", "3,200"]
            for when in INTERVALS]
    meas = read_performance(write(tmp_path / "host io.csv", header, rows), "mean")
    esx = meas.hosts["esx01.corp.local"]
    assert esx.iops == pytest.approx(800.0) and esx.read_pct == pytest.approx(75.0)
    assert esx.io_kb == pytest.approx(10.0)
    d = estate()
    vm = d.component("v1")
    assert vm is not None
    vm.props.update({"measured.iops": 300.0, "measured.read_pct": 50.0, "measured.io_kb": 8.0})
    apply_measurements(d, meas)
    h = d.component("esx01")
    assert h is not None and h.props["measured.iops"] == 800.0
    assert h.props["measured.read_pct"] == 75.0 and h.props["measured.io_kb"] == 10.0
    baseline.calibrate(d)
    assert h.props["background.iops"] == pytest.approx(500.0)
    assert h.props["background.read_pct"] == pytest.approx((600.0 - 150.0) / 500.0 * 100.0)
