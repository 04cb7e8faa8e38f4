"""The baseline solver and check: measured figures in, a design that reproduces them out."""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np
import pytest

from models.analysis import baseline
from models.document.design import Component, Design, Link
from models.engine.evaluation import evaluate

GHZ = 2.0
CORES = 20  # 2 x 10, hyperthreaded: 23 core-equivalents in the model


def estate(vm1: dict[str, Any] | None = None, host: dict[str, Any] | None = None) -> Design:
    """One host, one array, a measured VM (CPU, memory, I/O) and one with nothing measured."""
    d = Design(name="measured")
    d.components += [
        Component("h1", "host", "esx01", props={"sockets": 2, "cores_per_socket": 10,
                                                "ghz": GHZ, "hyperthreading": True,
                                                "memory_gb": 256.0, "measured.cpu_pct": 15.0,
                                                "measured.memory_pct": 10.0, **(host or {})}),
        Component("a1", "storage_array", "vnx", props={"media": "hdd10k", "disks": 40}),
        Component("v1", "vm", "sql01", props={
            "vcpus": 4, "memory_gb": 16.0, "vscsi": "lsi_sas", "workload.profile": "measured",
            "measured.cpu_mhz": 4000.0, "measured.iops": 500.0, "measured.read_pct": 70.0,
            "measured.io_kb": 16.0, "measured.latency_ms": 4.0,
            "measured.memory_consumed_gb": 12.0, "provenance.cpu": "measured: test",
            **(vm1 or {})}),
        Component("v2", "vm", "app01", props={"vcpus": 2, "memory_gb": 8.0,
                                              "workload.profile": "measured"}),
    ]
    d.links += [Link("v1", "h1", "runs_on"), Link("v2", "h1", "runs_on"),
                Link("v1", "a1", "disk_on"), Link("v2", "a1", "disk_on"),
                Link("h1", "a1", "storage")]
    return d


def test_solved_baseline_reproduces_the_measured_vm_and_host() -> None:
    d = estate()
    result = baseline.calibrate(d)
    v1, v2 = d.component("v1"), d.component("v2")
    assert v1 is not None and v2 is not None
    assert v1.props["workload.io_iops"] == 500.0 and v1.props["workload.io_block_kb"] == 16.0
    assert v1.props["workload.memory_gb"] == 12.0
    pred = evaluate(d)
    # the measured VM: its whole demand (guest + I/O path + hypervisor) is its MHz
    cores = 4000.0 / (GHZ * 1000.0) * 1.15
    assert pred.vms.cpu_cores[0] == pytest.approx(cores, rel=1e-6)
    assert pred.vms.iops[0] == pytest.approx(500.0)
    # the unmeasured VM: no invented I/O, its CPU the host's unexplained share
    assert math.isnan(pred.vms.iops[1]) and math.isnan(pred.vms.latency_ms[1])
    assert str(v2.props["provenance.cpu"]).startswith("solved: share by vCPUs of host esx01")
    assert pred.vms.io_not_measured.tolist() == [False, True]
    assert pred.to_dict()["vms"][1]["iops"] is None
    assert pred.hosts.cpu_util[0] == pytest.approx(0.15, abs=1e-6)
    # memory: 10% of 256 GB recorded, 12 held by v1; v2 takes the rest up to its 8 GB; what
    # the VMs do not hold (the vmkernel's own) is the host's background: the record is met
    assert v2.props["workload.memory_gb"] == 8.0
    h1 = d.component("h1")
    assert h1 is not None and h1.props["background.memory_gb"] == pytest.approx(25.6 - 20.0)
    assert "background.cpu_cores" not in h1.props  # its VMs explain all its CPU
    assert str(h1.props["provenance.background"]).startswith("solved: host esx01's recorded")
    assert pred.hosts.memory_util[0] == pytest.approx(0.10)
    h = result.hosts[0]
    assert h.cpu_residual == pytest.approx(0.0, abs=1e-4)
    assert h.memory_residual == pytest.approx(0.0, abs=1e-4)
    assert h.background_memory == pytest.approx(100.0 * 5.6 / 256.0)
    assert result.vms_without_io == 1 and result.vms_total == 2
    assert result.vms[0].iops_recorded == 500.0 and result.vms[0].latency_recorded == 4.0
    json.dumps(result.to_dict(), allow_nan=False)
    assert any("VMs lack I/O data" in line for line in result.lines())


def test_the_what_if_moves_from_the_baseline() -> None:
    d = estate()
    baseline.calibrate(d)
    before = evaluate(d).hosts.cpu_util[0]
    d.component("v1").props["vscsi"] = "pvscsi"  # type: ignore[union-attr]
    after = evaluate(d).hosts.cpu_util[0]
    assert after < before  # PVSCSI's cheaper I/O path, at the measured I/O rate
    d.component("v1").props["workload.io_iops"] = 1000.0  # type: ignore[union-attr]
    assert evaluate(d).hosts.cpu_util[0] > after


def test_measured_work_takes_fewer_cores_on_a_faster_clock() -> None:
    """vCenter measures MHz: the same work on 3.0 GHz cores takes 2/3 of the cores it took
    at 2.0 GHz (its guest work; its I/O path, a little on top), and the host's CPU falls
    with it. Without the clock the share stays a share of the vCPUs."""
    d = estate()
    baseline.calibrate(d)
    v1 = d.component("v1")
    assert v1 is not None and v1.props["workload.cpu_ghz"] == GHZ
    before = evaluate(d)
    d.component("h1").props["ghz"] = 3.0  # type: ignore[union-attr]
    after = evaluate(d)
    assert after.hosts.cpu_util[0] < before.hosts.cpu_util[0]
    pct, vcpus = float(v1.props["workload.cpu_pct"]), 4  # type: ignore[arg-type]
    guest_before = pct / 100.0 * vcpus
    assert before.vms.cpu_cores[0] - after.vms.cpu_cores[0] == pytest.approx(
        guest_before * (1.0 - GHZ / 3.0), rel=0.01)
    v1.props.pop("workload.cpu_ghz")  # a share of the vCPUs at any clock (same I/O path)
    assert evaluate(d).vms.cpu_cores[0] - after.vms.cpu_cores[0] == pytest.approx(
        guest_before * (1.0 - GHZ / 3.0), rel=1e-9)
    baseline.calibrate(d)  # solved again at the new clock: the record again, its clock kept
    assert v1.props["workload.cpu_ghz"] == 3.0
    assert evaluate(d).hosts.cpu_util[0] == pytest.approx(0.15, abs=1e-6)


def test_a_vm_busier_than_its_vcpus_is_held_there_and_the_residual_shows() -> None:
    d = estate(vm1={"measured.cpu_mhz": 9000.0}, host={"measured.cpu_pct": 25.0})
    result = baseline.calibrate(d)
    assert d.component("v1").props["workload.cpu_pct"] == 100.0  # type: ignore[union-attr]
    vm = result.vms[0]
    assert vm.cpu_mhz_predicted is not None and vm.cpu_mhz_recorded == 9000.0
    assert vm.cpu_mhz_predicted < 9000.0


def test_no_recorded_host_figures_leave_unmeasured_vms_idle_and_said_so() -> None:
    d = estate(host={"measured.cpu_pct": None, "measured.memory_pct": None})
    result = baseline.calibrate(d)
    v2 = d.component("v2")
    assert v2 is not None
    assert v2.props["workload.cpu_pct"] == 0.0
    assert v2.props["provenance.cpu"] == "not measured (counted as idle)"
    assert "workload.memory_gb" not in v2.props  # configured memory counts
    assert result.stats("cpu") == {"hosts": 0, "median": None, "p90": None, "max": None}
    assert result.within_target is None
    assert "nothing recorded" in "\n".join(result.lines())


def test_designs_without_measured_vms_are_left_alone() -> None:
    d = estate()
    for v in d.of_kind("vm"):
        v.props["workload.profile"] = "oltp"
    assert baseline.solve(d) == {}
    pred = evaluate(d)
    assert np.isfinite(pred.vms.iops).all()  # the profile's closed loop, as before


def test_stats_and_target_verdict() -> None:
    hosts = [baseline.HostResidual(f"h{i}", f"h{i}", 10.0 + i, 10.0, 50.0, 49.0)
             for i in range(10)]
    check = baseline.BaselineCheck(hosts, [], 0, 0, 0)
    s = check.stats("cpu")
    assert s["median"] == pytest.approx(4.5) and s["max"] == 9.0
    assert s["p90"] == pytest.approx(8.1)
    assert check.within_target is True
    hosts[0].cpu_predicted = 40.0
    assert check.stats("cpu")["p90"] == pytest.approx(11.1)
    assert check.within_target is False
