"""The baseline solver and check: measured figures in, a design that reproduces them out."""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np
import pytest

from models.analysis import baseline
from models.core.platform import HT_THROUGHPUT
from models.document.design import Component, Design, Link
from models.engine.evaluation import evaluate

GHZ = 2.0
CORES = 20  # 2 x 10, hyperthreaded: 24.4 core-equivalents in the model


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
        Component("v2", "vm", "app01", props={"vcpus": 4, "memory_gb": 8.0,
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
    cores = 4000.0 / (GHZ * 1000.0) * HT_THROUGHPUT
    assert pred.vms.cpu_cores[0] == pytest.approx(cores, rel=1e-6)
    assert pred.vms.iops[0] == pytest.approx(500.0)
    # the unmeasured VM: no invented I/O, its CPU the host's unexplained share
    assert math.isnan(pred.vms.iops[1]) and math.isnan(pred.vms.latency_ms[1])
    assert str(v2.props["provenance.cpu"]).startswith("solved: share by vCPUs of host esx01")
    assert pred.vms.io_not_measured.tolist() == [False, True]
    assert pred.to_dict()["vms"][1]["iops"] is None
    assert pred.hosts.cpu_util[0] == pytest.approx(0.15, abs=1e-6)
    # memory: 10% of 256 GB recorded, 12 held by v1; v2 takes the rest up to its 8 GB; the
    # host lists every VM it runs, so what the VMs do not hold (the vmkernel's own) is no
    # background: it stays in the residual
    assert v2.props["workload.memory_gb"] == 8.0
    h1 = d.component("h1")
    assert h1 is not None and not any(k.startswith("background.") for k in h1.props)
    assert pred.hosts.memory_util[0] == pytest.approx(20.0 / 256.0)
    h = result.hosts[0]
    assert h.cpu_residual == pytest.approx(0.0, abs=1e-4)  # v2's share is the rest of it
    assert h.memory_residual == pytest.approx(100.0 * 20.0 / 256.0 - 10.0)
    assert h.background_memory is None and not h.partial
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


# --------------------------------------------------------------------------- issue 22


def partial_host(**host: Any) -> Design:
    """esx01 runs 10 VMs by its inventory; the export lists 2 (v1 measured, v2 not)."""
    d = estate(host={"measured.cpu_pct": 40.0, "measured.memory_pct": 50.0,
                     "measured.vms": 10, "measured.vms_listed": 2, **host})
    d.component("v1").props.pop("measured.iops")  # type: ignore[union-attr]
    return d


def test_a_partial_hosts_unlisted_vms_are_its_background_and_the_record_is_met() -> None:
    d = partial_host()
    result = baseline.calibrate(d)
    h1, v2 = d.component("h1"), d.component("v2")
    assert h1 is not None and v2 is not None
    pred = evaluate(d)
    # the record is met: the VMs the export does not list are the host's background
    assert pred.hosts.cpu_util[0] == pytest.approx(0.40, abs=1e-6)
    assert pred.hosts.memory_util[0] == pytest.approx(0.50, abs=1e-6)
    cap = CORES * HT_THROUGHPUT
    v1_cores = 4000.0 / (GHZ * 1000.0) * HT_THROUGHPUT
    # v2 (4 vCPUs, nothing measured) shares what v1 leaves with the 8 unlisted VMs, each of
    # the host's mean size (4 vCPUs): 4 / (4 + 32) of it
    left = 0.40 * cap - v1_cores
    assert pred.vms.cpu_cores[1] == pytest.approx(left * 4 / 36, rel=1e-6)
    assert "the 8 VMs the export does not list" in str(v2.props["provenance.cpu"])
    assert float(str(h1.props["background.cpu_cores"])) == pytest.approx(
        left * 32 / 36, rel=1e-4)
    assert h1.props["background.cpu_ghz"] == GHZ
    assert "the 8 of its 10 VMs the export does not list" in str(
        h1.props["provenance.background"])
    # the check names the host and the count; its residual is nil
    h = result.hosts[0]
    assert h.partial and h.cpu_residual == pytest.approx(0.0, abs=1e-4)
    assert result.partial == [h]
    text = "\n".join(result.lines())
    assert "1 partial host:" in text and "esx01: 10 VMs recorded, 2 in the export" in text
    doc = result.to_dict()
    assert doc["summary"]["partial_hosts"] == 1 and doc["hosts"][0]["partial"] is True
    # a what-if on that host starts from the record: v1 leaves, the rest stays
    d.links = [lk for lk in d.links if not (lk.source == "v1" and lk.kind == "runs_on")]
    assert evaluate(d).hosts.cpu_util[0] == pytest.approx(0.40 - v1_cores / cap, abs=1e-6)


def test_a_complete_hosts_residual_is_never_absorbed() -> None:
    """Only the VMs an export leaves out are background: on a host it lists completely, what
    the record and the VMs disagree by is the model's error and the check must show it (a
    check that absorbs it would pass whatever the model does).  The same host marked partial
    keeps that gap as its unlisted VMs' load."""
    def solved(**host: Any) -> tuple[Design, baseline.BaselineCheck]:
        d = estate(host={"measured.cpu_pct": 40.0, "measured.memory_pct": 50.0, **host})
        d.component("v2").props.update({"measured.cpu_mhz": 2000.0,  # type: ignore[union-attr]
                                         "measured.memory_consumed_gb": 4.0})
        return d, baseline.calibrate(d)

    cap = CORES * HT_THROUGHPUT
    explained = (4000.0 + 2000.0) / (GHZ * 1000.0) * HT_THROUGHPUT  # both VMs measured
    for host in ({}, {"measured.vms": 2, "measured.vms_listed": 2},  # complete, or not counted
                 {"background.cpu_cores": 5.0, "background.memory_gb": 50.0,  # an older one
                  "background.cpu_ghz": GHZ, "provenance.background": "solved: ..."}):
        d, result = solved(**host)
        h1 = d.component("h1")
        assert h1 is not None and not any(k.startswith("background.") for k in h1.props)
        h = result.hosts[0]
        assert h.background_cpu is None and h.background_memory is None and not h.partial
        assert h.cpu_residual == pytest.approx(100.0 * explained / cap - 40.0, abs=0.05)
        assert h.cpu_residual is not None and h.memory_residual is not None
        assert h.cpu_residual < -20.0 and h.memory_residual < -40.0  # both show, unabsorbed
        assert result.within_target is False and not result.partial
        assert "background" not in "\n".join(result.lines())
    d, result = solved(**{"measured.vms": 12, "measured.vms_listed": 2})  # 10 not listed
    h = result.hosts[0]
    assert h.partial and h.cpu_residual == pytest.approx(0.0, abs=1e-4)
    assert h.memory_residual == pytest.approx(0.0, abs=1e-4)
    assert h.background_cpu == pytest.approx(40.0 - 100.0 * explained / cap, abs=1e-3)


def test_solving_again_gives_the_same_baseline() -> None:
    d = partial_host(**{"measured.cpu_pct": 20.0})
    d.component("v1").props["measured.cpu_mhz"] = 12000.0  # type: ignore[union-attr]
    baseline.calibrate(d)
    first = design_state(d)
    assert baseline.solve(d) and baseline.calibrate(d).within_target
    assert design_state(d) == first  # nothing appended twice, no background on background


def design_state(d: Design) -> dict[str, dict[str, Any]]:
    return {c.id: dict(c.props) for c in d.components}


def test_vms_measured_over_their_hosts_record_are_scaled_to_it() -> None:
    """vCenter counts a VM's usage per hyperthread and the host's per core: on a busy host
    the VMs' MHz add up to more than the host recorded. The record is the host's total."""
    d = estate(vm1={"measured.cpu_mhz": 3000.0, "vcpus": 8},
               host={"measured.cpu_pct": 5.0})
    d.component("v2").props.update({"measured.cpu_mhz": 1000.0})  # type: ignore[union-attr]
    d.component("v1").props.pop("measured.iops")  # type: ignore[union-attr]
    result = baseline.calibrate(d)
    pred = evaluate(d)
    assert pred.hosts.cpu_util[0] == pytest.approx(0.05, abs=1e-6)  # not 10%
    factor = 0.05 * 40000.0 / 4000.0
    assert pred.vms.cpu_cores[0] == pytest.approx(1.5 * HT_THROUGHPUT * factor, rel=1e-6)
    v1 = d.component("v1")
    assert v1 is not None
    assert str(v1.props["provenance.cpu"]) == (
        "measured: test; scaled x0.50 to host esx01's recorded CPU usage 5%: its VMs' MHz add"
        " up to more (vCenter counts a VM's usage per hyperthread, the host's per core;"
        " samples a moment apart)")
    assert result.scaled == {"h1": 0.5}
    assert result.hosts[0].cpu_residual == pytest.approx(0.0, abs=1e-4)
    assert result.vms[0].cpu_mhz_predicted == pytest.approx(1500.0)  # the VM residual shows
    assert any("1 host whose VMs' measured CPU adds up to more" in line
               for line in result.lines())
    assert "background.cpu_cores" not in d.component("h1").props  # type: ignore[union-attr]


def test_a_measured_mhz_below_what_the_engine_adds_for_its_io_is_not_counted_twice() -> None:
    """The I/O path and the hypervisor's cost per event are part of a VM's measured MHz: a VM
    measured below them runs its I/O with an idle guest, never MHz plus I/O path."""
    d = estate(vm1={"measured.cpu_mhz": 1.0, "measured.iops": 20000.0},
               host={"measured.cpu_pct": None, "measured.memory_pct": None})
    baseline.calibrate(d)
    v1 = d.component("v1")
    assert v1 is not None and v1.props["workload.cpu_pct"] == 0.0
    c0 = evaluate(d).vms.cpu_cores[0]
    v1.props["workload.cpu_pct"] = 0.0
    v1.props["measured.cpu_mhz"] = 500.0
    assert evaluate(d).vms.cpu_cores[0] == pytest.approx(c0)  # the intercept alone


def test_the_background_keeps_the_clock_it_was_measured_at() -> None:
    d = partial_host()
    baseline.calibrate(d)
    before = evaluate(d)
    h1 = d.component("h1")
    assert h1 is not None
    bg = float(str(h1.props["background.cpu_cores"]))
    h1.props["ghz"] = 3.0  # faster cores: the unlisted VMs' work takes fewer of them
    after = evaluate(d)
    cap = CORES * HT_THROUGHPUT
    assert (before.hosts.cpu_util[0] - after.hosts.cpu_util[0]) * cap == pytest.approx(
        (bg + (before.vms.cpu_cores - after.vms.cpu_cores).sum()) - bg * GHZ / 3.0,
        rel=1e-6)


def test_a_host_nothing_measured_reads_not_measured_never_zero() -> None:
    d = estate(host={"measured.cpu_pct": None, "measured.memory_pct": None})
    d.component("v1").props.pop("measured.cpu_mhz")  # type: ignore[union-attr]
    d.component("v1").props["provenance.cpu"] = "not measured"  # type: ignore[union-attr]
    result = baseline.calibrate(d)
    pred = evaluate(d)
    assert math.isnan(pred.hosts.cpu_util[0])
    assert pred.to_dict()["hosts"][0]["cpu_util"] is None
    assert result.hosts[0].cpu_predicted is None and len(result.not_measured) == 1
    assert any("1 host's CPU not measured" in line for line in result.lines())
    # its memory is measured (v1's consumed): a figure
    assert math.isfinite(pred.hosts.memory_util[0])
    # set one VM's CPU by hand: the host has a basis again
    d.component("v2").props["workload.cpu_pct"] = 30.0  # type: ignore[union-attr]
    assert math.isfinite(evaluate(d).hosts.cpu_util[0])


def test_a_vsan_hosts_record_is_met_without_counting_vsans_memory_twice() -> None:
    """The host's recorded memory holds vSAN's own (KB 2113954 on OSA): the background is what
    is left beside it, and the engine, which adds vSAN's memory, meets the record."""
    d = partial_host(**{"vsan.devices": 4, "vsan.device_tb": 3.84, "vsan.disk_groups": 2})
    d.components.append(Component("cl", "cluster", "cl", props={"vsan.architecture": "osa"}))
    d.links.append(Link("h1", "cl", "in_cluster"))
    baseline.calibrate(d)
    assert evaluate(d).hosts.memory_util[0] == pytest.approx(0.50, abs=1e-6)
