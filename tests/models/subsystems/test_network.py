"""Network model: the tightest cap wins, with the reason named; NIC load and warnings."""

from __future__ import annotations

import numpy as np
import pytest

from models.calibration.network import FEDEX_HOST, TEN_G, fedex, lro_vm, make_testbed
from models.core.compiled import compile_design
from models.core.results import NetworkResult
from models.document.design import Design
from models.document.schema import Value
from models.engine.evaluation import evaluate
from models.subsystems import network

Props = dict[str, Value]


def solve(design: Design) -> NetworkResult:
    return network.solve(compile_design(design))


def test_pcie_gen1_x4_slot_caps_a_10g_port_and_is_named() -> None:
    """4 lanes x 2.0 Gbit/s x the protocol's efficiency (the study measured 6.0)."""
    res = solve(fedex(lanes=4, platform="native"))
    assert abs(res.vm_rx_mbps[0] - 8000.0 * network.PCIE_EFFICIENCY) < 1.0
    assert res.vm_bound_by[0] == "nic n1: PCIe Gen1 x4 slot (6.4 Gbit/s)"
    assert any("Gen1 x4" in w for w in res.warnings)


def test_pcie_usable_bandwidth_follows_generation_and_lanes() -> None:
    gbps = network.pcie_usable_gbps(np.array([1, 1, 2, 2, 3]), np.array([4, 8, 4, 8, 16]))
    assert np.allclose(gbps[:4], np.array([8.0, 16.0, 16.0, 32.0]) * network.PCIE_EFFICIENCY)
    assert gbps[4] > 90


def test_native_netperf_reaches_tcp_goodput_of_the_line_rate() -> None:
    res = solve(fedex(platform="native"))
    assert abs(res.vm_rx_mbps[0] - 10000.0 * network.GOODPUT) < 1.0
    assert res.vm_bound_by[0].startswith("nic n1: 10 Gbit/s line rate")


def test_esx4_single_vm_is_bound_by_its_vnic_path() -> None:
    res = solve(fedex())
    assert 5500 < res.vm_rx_mbps[0] < 6100
    assert "vmxnet3 path" in res.vm_bound_by[0]


def test_directpath_is_near_native_and_warns_about_lost_features() -> None:
    pred = evaluate(fedex(directpath=True))
    assert pred.vms.net_gbps[0] > 0.95 * 10 * network.GOODPUT
    assert any("DirectPath" in w and "vMotion" in w and "FT" in w for w in pred.warnings)


def test_many_small_vms_fill_the_nic_with_vmdq_but_not_without() -> None:
    with_q = solve(fedex(8)).vm_rx_mbps.sum()
    without = solve(fedex(8, vmdq=False))
    assert with_q > 0.99 * 10000 * network.GOODPUT
    assert without.vm_rx_mbps.sum() < 0.9 * with_q
    assert "VMDq" in without.vm_bound_by[0]


def test_vms_share_the_host_nic_and_its_utilisation_is_reported() -> None:
    res = solve(fedex(8))
    assert res.vm_bound_by[0].startswith("host h1: vm NICs shared")
    assert abs(res.nic_util[0] - 1.0) < 1e-6
    assert abs(res.nic_gbps[0] - 10 * network.GOODPUT) < 1e-3


def test_crypto_and_tool_limit_each_stream() -> None:
    one = solve(fedex(platform="native", crypto="openssh", tool="scp"))
    four = solve(fedex(platform="native", crypto="openssh", tool="scp", streams=4))
    assert 300 < one.vm_rx_mbps[0] < 600
    assert 3.6 < four.vm_rx_mbps[0] / one.vm_rx_mbps[0] < 4.0  # streams contend (sub-linear)
    assert one.vm_bound_by[0].startswith("transfer tool: scp with openssh")


def test_offered_load_below_every_cap_is_delivered_and_not_a_bottleneck() -> None:
    vm: Props = {"workload.profile": "oltp", "workload.net_rx_mbps": 100.0,
          "workload.net_tx_mbps": 50.0}
    res = solve(make_testbed(FEDEX_HOST, [TEN_G], [vm]))
    assert res.vm_rx_mbps[0] == 100.0 and res.vm_tx_mbps[0] == 50.0
    assert res.vm_bound_by[0] == ""


def test_lro_cuts_the_packet_rate_and_the_cpu_cost() -> None:
    off, on = solve(lro_vm(65536.0, False)[0]), solve(lro_vm(65536.0, True)[0])
    assert on.vm_rx_pps[0] < off.vm_rx_pps[0] / 5
    assert on.vm_cpu_cores[0] < off.vm_cpu_cores[0]


def test_e1000_costs_more_cpu_than_vmxnet3() -> None:
    vm: Props = {"workload.profile": "netperf", "workload.net_rx_mbps": 1000.0}
    fast = solve(make_testbed(FEDEX_HOST, [TEN_G], [dict(vm, vnic="vmxnet3")]))
    slow = solve(make_testbed(FEDEX_HOST, [TEN_G], [dict(vm, vnic="e1000")]))
    assert slow.vm_cpu_cores[0] > fast.vm_cpu_cores[0]


def test_vm_with_load_but_no_vm_nic_gets_nothing_and_a_warning() -> None:
    vm: Props = {"workload.profile": "netperf"}
    res = solve(make_testbed(FEDEX_HOST, [dict(TEN_G, role="vmotion")], [vm]))
    assert res.vm_rx_mbps[0] == 0.0
    assert res.vm_bound_by[0] == "host h1: no NIC with role vm"
    assert any("no NIC with role vm" in w for w in res.warnings)


def test_design_without_nics_or_hosts_evaluates() -> None:
    res = solve(make_testbed(FEDEX_HOST, [], [{"workload.profile": "netperf"}, {}]))
    assert res.vm_rx_mbps.tolist() == [0.0, 0.0]
    assert res.vm_bound_by == ["host h1: no NIC with role vm", ""]
    empty = solve(Design())
    assert empty.vm_rx_mbps.size == 0 and empty.nic_gbps.size == 0


def test_cabling_cost_and_power_go_to_extras() -> None:
    pred = evaluate(make_testbed(FEDEX_HOST, [dict(TEN_G, cabling="twinax", ports=2)], []))
    row = pred.sections.to_json()["network"]["cabling"]["n1"]
    assert row == {"cabling": "twinax", "usd": 800.0, "watts": 6.0, "reach_m": 7.0}


def test_web_responses_are_transmitted() -> None:
    vm: Props = {"workload.profile": "web", "workload.req_per_s": 100.0, "workload.resp_kb": 100.0}
    res = solve(make_testbed(FEDEX_HOST, [TEN_G], [vm]))
    assert abs(res.vm_tx_mbps[0] - 81.92) < 1e-6


# ------------------------------------------------------------------ VM to VM on one host
def _vm_to_vm(msg: float, lro: bool, peer: str = "same_host") -> tuple[float, float, float]:
    """(receive Gbit/s, Gbit/s per core, NIC Gbit/s) of the LRO study's VM with its partner
    on the same host (``peer='external'``: the native client through the pNIC)."""
    d, _ = lro_vm(msg, lro)
    for comp in d.components:
        if comp.kind == "vm":
            comp.props["workload.net_peer"] = peer
    p = evaluate(d)
    r = network.solve(compile_design(d))
    gbps = float(r.vm_rx_mbps[0]) / 1000.0
    return gbps, gbps / float(r.vm_cpu_cores[0]), float(p.nics.gbps.sum())


def test_vm_to_vm_traffic_never_touches_the_pnic_and_passes_its_line_rate() -> None:
    gbps, _, nic = _vm_to_vm(65536.0, True)
    assert nic == 0.0
    assert gbps > 10.0  # memory, not a 10GbE wire, carries it


def test_lro_gains_more_between_vms_than_from_the_wire_at_large_messages() -> None:
    """Without LRO the host cuts each large send into MTU segments for the receiving vNIC and
    the receiver handles every one: LRO removes both, and the gain shows in throughput."""
    off, on = _vm_to_vm(65536.0, False), _vm_to_vm(65536.0, True)
    n_off, n_on = _vm_to_vm(65536.0, False, "external"), _vm_to_vm(65536.0, True, "external")
    assert on[0] / off[0] > 1.2 and n_on[0] / n_off[0] < 1.05
    assert on[1] > off[1]  # and efficiency rises


def test_vm_to_vm_cpu_counts_both_ends() -> None:
    _, eff_local, _ = _vm_to_vm(16384.0, True)
    _, eff_wire, _ = _vm_to_vm(16384.0, True, "external")
    assert eff_local < eff_wire


def test_a_window_between_vms_on_one_host_is_limited_by_their_own_round_trip() -> None:
    """A 64 KB window over a path that never leaves the host: the LAN's (or a WAN's) round
    trip in net_rtt_ms does not apply, a packet's trip through both vNICs does."""
    def gbps(peer: str) -> float:
        d, _ = lro_vm(65536.0, True)
        for comp in d.components:
            if comp.kind == "vm":
                comp.props.update({"workload.net_peer": peer, "workload.net_rtt_ms": 10.0,
                                   "workload.net_window_kb": 64.0})
        return float(network.solve(compile_design(d)).vm_rx_mbps[0]) / 1000.0

    wan = 64.0 * 8.192e-3 / 10.0  # Gbit/s: one 64 KB window per 10 ms
    assert gbps("external") == pytest.approx(wan, rel=1e-6)
    assert gbps("same_host") > 100 * wan
