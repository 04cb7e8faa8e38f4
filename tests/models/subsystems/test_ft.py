"""FT model: logging bandwidth, stalls, output-commit latency, limits and warnings.

Storage is represented by hand-made StorageResult objects (the disk-read rate a study states),
so these tests do not depend on the storage model.
"""

from __future__ import annotations

import numpy as np
import pytest

from models.calibration.ft import GIGABIT, PE2950, ft4_netperf
from models.calibration.network import make_testbed
from models.core.compiled import compile_design
from models.core.results import FtResult, NetworkResult, StorageResult
from models.document.design import Component, Design, Link
from models.document.schema import Value
from models.engine.evaluation import evaluate
from models.subsystems import ft

Props = dict[str, Value]


def solve(design: Design, reads: float = 0.0, rx: float = 0.0, writes: float = 0.0
          ) -> FtResult:
    """FT on stated rates: reads in MB/s (no read completions counted), rx in Mbit/s."""
    c = compile_design(design)
    n = len(c.vm)
    sto = StorageResult(vm_read_mbps=np.full(n, reads), vm_mbps=np.full(n, reads + writes))
    net = NetworkResult(vm_rx_mbps=np.full(n, rx), vm_tx_mbps=np.zeros(n),
                        nic_gbps=np.zeros(len(c.nic)), nic_util=np.zeros(len(c.nic)))
    return ft.solve(c, sto, net)


def replay(reads: float = 0.0, rx: float = 0.0, ticks: float = 250.0) -> float:
    """What :func:`ft.replay_mbps` logs for reads (MB/s, no completions) and rx (Mbit/s of
    MSS-sized packets, one ACK sent per two) at the SLES 10 tick."""
    z = np.zeros(1)
    return float(ft.replay_mbps(np.array([reads]), z, np.array([rx]), z, z, z,
                                np.array([ticks]))[0])


def pair(host: Props, vm: Props, ft_gbps: float = 1.0, n_vms: int = 1) -> Design:
    base: Props = {"vcpus": 1, "memory_gb": 4.0, "ft": True, "workload.profile": "oltp",
                   "_secondary": "h2"}
    return make_testbed(host, [GIGABIT], [{**base, **vm}] * n_vms, n_hosts=2,
                        ft_nics=[dict(GIGABIT, speed_gbps=ft_gbps)])


def test_record_replay_logs_reads_and_received_traffic_with_measured_overhead() -> None:
    res = solve(ft4_netperf(), reads=10.0, rx=100.0)
    expected = replay(10.0, 100.0)
    segs = 100.0 * 125000.0 / 1448.0  # packets received, and half as many ACKs sent
    events = segs * 1.5 + 250.0
    assert expected == pytest.approx(10.0 * 8 + 100.0 + events * ft.EVENT_BYTES.value * 8e-6)
    assert res.vm_logging_mbps[0] == pytest.approx(expected)
    assert res.vm_sizing_rule_mbps[0] == pytest.approx(216.0)
    assert res.vm_throughput_ratio[0] == 1.0
    assert res.host_logging_mbps[0] == pytest.approx(expected)
    assert res.detail is not None
    assert res.detail.vms["v1"].sizing_rule_mbps == pytest.approx(216.0)


def test_logging_above_the_ft_nic_stalls_the_primary_by_capacity_over_demand() -> None:
    res = solve(ft4_netperf(), rx=1500.0)
    demand = replay(rx=1500.0)
    cap = 1000.0 * 1448 / 1538
    assert res.vm_throughput_ratio[0] == pytest.approx(cap / demand)
    assert res.vm_logging_mbps[0] == pytest.approx(cap)
    assert res.nic_util.max() == pytest.approx(1.0)
    assert any(r.resource == "ft_logging_nic" and r.util > 1.0 for r in res.resources)
    assert any("sizing rule" in w for w in res.warnings)


def test_netperf_testbed_matches_the_paper_through_the_engine() -> None:
    pred = evaluate(ft4_netperf())
    assert pred.vms.net_gbps[0] * 1000 == pytest.approx(890.0, rel=0.05)
    assert pred.vms.ft_logging_mbps[0] == pytest.approx(950.0, rel=0.05)
    off = evaluate(ft4_netperf(ft_on=False))
    assert off.vms.net_gbps[0] >= pred.vms.net_gbps[0]
    nic = pred.nics.ids.index("n1")
    assert pred.nics.gbps[nic] == pytest.approx(pred.vms.net_gbps[0])


def test_faster_ft_link_removes_the_stall() -> None:
    assert solve(ft4_netperf(ft_gbps=10.0), rx=1500.0).vm_throughput_ratio[0] == 1.0


def test_output_commit_adds_one_round_trip_per_write() -> None:
    c = compile_design(ft4_netperf(_rtt_ms=0.4))
    assert ft.io_delay_ms(c)[0] == pytest.approx(0.4)
    assert ft.io_delay_ms(compile_design(ft4_netperf(ft_on=False)))[0] == 0.0


def test_fast_checkpointing_adds_milliseconds_growing_with_ft_link_load() -> None:
    six: Props = dict(PE2950, esxi_version="6.0", memory_gb=64.0)
    light = solve(pair(six, {"vcpus": 2}, ft_gbps=10.0), rx=10.0)
    heavy = solve(pair(six, {"vcpus": 2}, ft_gbps=1.0), rx=600.0, writes=20.0)
    assert 1.0 <= light.vm_latency_add_ms[0] < heavy.vm_latency_add_ms[0] < 10.0
    assert light.detail is not None
    assert light.detail.vms["v1"].mechanism == "fast_checkpointing"
    assert not any("sizing rule" in w for w in heavy.warnings)
    assert any("below 10 Gbit/s" in w for w in heavy.warnings)


@pytest.mark.parametrize(("version", "vcpus", "mem", "text"), [
    ("4.0", 2, 4.0, "FT on a 2-vCPU VM (v1): vSphere 4.0 FT supports at most 1 vCPU"),
    ("6.0", 8, 16.0, "FT on a 8-vCPU VM (v1): vSphere 6.0 FT supports at most 4 vCPUs"),
    ("6.0", 2, 96.0, "FT on a 96 GB VM (v1): vSphere 6.0 FT supports at most 64 GB"),
    ("7.0", 16, 16.0, "FT on a 16-vCPU VM (v1): vSphere 7.0 FT supports at most 8 vCPUs"),
])
def test_size_limits_per_version(version: str, vcpus: int, mem: float, text: str) -> None:
    host: Props = dict(PE2950, esxi_version=version, memory_gb=256.0)
    res = solve(pair(host, {"vcpus": vcpus, "memory_gb": mem}))
    assert any(w.startswith(text) for w in res.warnings), res.warnings


def test_limits_hold_quietly_inside_them() -> None:
    host: Props = dict(PE2950, esxi_version="6.7", memory_gb=256.0)
    res = solve(pair(host, {"vcpus": 8, "memory_gb": 128.0}, ft_gbps=10.0))
    assert res.warnings == []


def test_more_than_four_ft_vms_per_host_warns() -> None:
    res = solve(pair(PE2950, {"memory_gb": 1.0}, n_vms=5))
    assert sum("5 FT VMs" in w for w in res.warnings) == 2  # primary and secondary host


def test_latency_sensitive_passthrough_and_unpaired_vms_warn() -> None:
    vm: Props = {"latency_sensitivity": "high"}
    assert any("latency-sensitive" in w for w in solve(pair(PE2950, vm)).warnings)
    d = pair(PE2950, {})
    d.components.append(Component("n9", "nic", props={"speed_gbps": 10.0}))
    d.links += [Link("n9", "h1", "installed_in"), Link("n9", "v1", "passthrough")]
    assert any("DirectPath" in w for w in solve(d).warnings)
    lone = make_testbed(PE2950, [GIGABIT], [{"ft": True}])
    res = solve(lone, rx=100.0)
    assert any("no ft_secondary_on" in w for w in res.warnings)
    assert res.vm_logging_mbps[0] == 0.0 and res.vm_throughput_ratio[0] == 1.0


def test_no_ft_vms_gives_neutral_result() -> None:
    res = solve(ft4_netperf(ft_on=False), rx=500.0)
    assert res.vm_throughput_ratio.tolist() == [1.0]
    assert res.vm_logging_mbps.tolist() == [0.0] and res.warnings == []


def test_missing_storage_arrays_are_treated_as_no_reads() -> None:
    c = compile_design(ft4_netperf())
    res = ft.solve(c, StorageResult(), NetworkResult(vm_rx_mbps=np.array([100.0])))
    assert res.vm_logging_mbps[0] == pytest.approx(replay(rx=100.0))


def test_an_idle_guest_logs_its_timer_floor_and_a_faster_tick_logs_more() -> None:
    idle = evaluate(ft4_netperf(extra={"workload.profile": "idle"}))
    fast = evaluate(ft4_netperf(extra={"workload.profile": "idle", "guest_timer_hz": 1000.0}))
    floor = 250.0 * ft.EVENT_BYTES.value * 8e-6
    assert float(idle.vms.ft_logging_mbps[0]) == pytest.approx(floor)
    assert float(fast.vms.ft_logging_mbps[0]) == pytest.approx(4.0 * floor)


def test_a_transmitting_vm_logs_only_acks_and_completions() -> None:
    tx = evaluate(ft4_netperf(extra={"workload.net_tx_mbps": 900.0, "workload.net_rx_mbps": 0.0}))
    sent = float(tx.vms.net_gbps[0]) * 1000.0
    logged = float(tx.vms.ft_logging_mbps[0])
    assert sent > 800.0 and 0.0 < logged < 0.15 * sent


def test_a_one_window_stream_loses_throughput_to_the_output_commit() -> None:
    send: Props = {"workload.net_tx_mbps": 900.0, "workload.net_rx_mbps": 0.0}
    small: Props = {**send, "workload.net_window_kb": 8.0}
    on, off = evaluate(ft4_netperf(extra=small)), evaluate(ft4_netperf(False, extra=small))
    rtt = 0.25  # net_rtt_ms default; the FT link adds its 0.25 ms round trip
    assert float(on.vms.net_gbps[0]) / float(off.vms.net_gbps[0]) == pytest.approx(
        rtt / (rtt + 0.25))
    big: Props = {**send, "workload.net_window_kb": 256.0}
    on, off = evaluate(ft4_netperf(extra=big)), evaluate(ft4_netperf(False, extra=big))
    assert float(on.vms.net_gbps[0]) == pytest.approx(float(off.vms.net_gbps[0]), rel=0.02)
