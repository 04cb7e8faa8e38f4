"""Invariants of the network and FT models over random designs (Hypothesis).

- a faster NIC never lowers a VM's throughput;
- FT never lowers latency nor raises throughput;
- every figure is finite and non-negative.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from models.core.compiled import compile_design
from models.core.results import StorageResult
from models.document.design import Component, Design, Link
from models.document.schema import KINDS, Value
from models.engine.evaluation import evaluate
from models.subsystems import ft, network

Props = dict[str, Value]
SPEEDS = (1.0, 10.0, 25.0, 40.0, 100.0)
SETTINGS = settings(max_examples=50, deadline=None)


def _choice(prop: str, kind: str = "vm") -> st.SearchStrategy[Value]:
    choices = KINDS[kind].props[prop].choices
    assert choices is not None
    return st.sampled_from(choices)


host_props = st.fixed_dictionaries({
    "ghz": st.floats(1.5, 3.8), "esxi_version": _choice("esxi_version", "host"),
    "platform": st.sampled_from(("esxi", "esxi", "native")),
})
nic_props = st.fixed_dictionaries({
    "speed_gbps": st.sampled_from(SPEEDS), "ports": st.integers(1, 4),
    "pcie_gen": st.integers(1, 5), "pcie_lanes": st.sampled_from((1.0, 2.0, 4.0, 8.0, 16.0)),
    "vmdq": st.booleans(), "lro": st.booleans(),
})
vm_props = st.fixed_dictionaries({
    "vcpus": st.integers(1, 16), "memory_gb": st.floats(1.0, 256.0),
    "guest_os": _choice("guest_os"), "vnic": _choice("vnic"),
    "latency_sensitivity": _choice("latency_sensitivity"),
    "workload.profile": _choice("workload.profile"),
    "workload.net_rx_mbps": st.sampled_from((0.0, 10.0, 500.0, 20000.0)),
    "workload.net_tx_mbps": st.sampled_from((0.0, 10.0, 500.0)),
    "workload.net_msg_bytes": st.sampled_from((64.0, 256.0, 1448.0, 16384.0, 65536.0)),
    "workload.net_streams": st.integers(1, 16), "workload.net_tool": _choice("workload.net_tool"),
    "workload.net_crypto": _choice("workload.net_crypto"),
    "workload.cpu_pct": st.floats(0.0, 100.0), "workload.io_oio": st.just(0),
})


@st.composite
def designs(draw: st.DrawFn, max_vms: int = 6, ft_any: bool = True) -> Design:
    """2-3 hosts with 1-3 NICs each (one for FT logging), VMs on the first hosts, some FT."""
    d = Design(name="random")
    n_hosts = draw(st.integers(2, 3))
    for h in range(n_hosts):
        d.components.append(Component(f"h{h}", "host", props=dict(draw(host_props))))
        for j in range(draw(st.integers(1, 3))):
            props: Props = dict(draw(nic_props))
            props["role"] = "ft_logging" if j == 1 else draw(st.sampled_from(("vm", "vmotion")))
            d.components.append(Component(f"n{h}_{j}", "nic", props=props))
            d.links.append(Link(f"n{h}_{j}", f"h{h}", "installed_in"))
    for v in range(draw(st.integers(1, max_vms))):
        props = dict(draw(vm_props))
        props["ft"] = ft_any and draw(st.booleans())
        h = draw(st.integers(0, n_hosts - 1))
        d.components.append(Component(f"v{v}", "vm", props=props))
        d.links.append(Link(f"v{v}", f"h{h}", "runs_on"))
        if props["ft"] and draw(st.booleans()):
            d.links.append(Link(f"v{v}", f"h{(h + 1) % n_hosts}", "ft_secondary_on",
                                {"rtt_ms": draw(st.floats(0.05, 3.0))}))
    return d


def _finite_nonneg(*arrays: np.ndarray) -> bool:
    return all(bool(np.all(np.isfinite(a)) and np.all(a >= 0)) for a in arrays)


@SETTINGS
@given(designs(max_vms=1, ft_any=False), st.integers(0, 2))
def test_faster_nic_never_lowers_a_vms_throughput(design: Design, which: int) -> None:
    nics = design.of_kind("nic")
    nic = nics[which % len(nics)]
    before = network.solve(compile_design(design))
    speed = float(nic.get("speed_gbps"))  # type: ignore[arg-type]
    faster = [s for s in SPEEDS if s > speed]
    if not faster:
        return
    nic.props["speed_gbps"] = faster[0]
    after = network.solve(compile_design(design))
    assert np.all(after.vm_rx_mbps >= before.vm_rx_mbps - 1e-6)
    assert np.all(after.vm_tx_mbps >= before.vm_tx_mbps - 1e-6)


@SETTINGS
@given(designs())
def test_ft_never_lowers_latency_nor_raises_throughput(design: Design) -> None:
    on = evaluate(design)
    for vm in design.of_kind("vm"):
        vm.props["ft"] = False
    off = evaluate(design)
    assert np.all(on.vms.net_gbps <= off.vms.net_gbps + 1e-9)
    assert np.all(np.nan_to_num(on.vms.iops) <= np.nan_to_num(off.vms.iops) + 1e-9)
    lat_on, lat_off = on.vms.latency_ms, off.vms.latency_ms
    both = ~np.isnan(lat_on) & ~np.isnan(lat_off)
    assert np.all(lat_on[both] >= lat_off[both] - 1e-9)


@SETTINGS
@given(designs(), st.floats(0.0, 500.0), st.floats(0.0, 5000.0), st.floats(0.0, 500.0))
def test_ft_ratio_latency_and_logging_stay_in_range(design: Design, reads: float, rx: float,
                                                     writes: float) -> None:
    c = compile_design(design)
    n = len(c.vm)
    sto = StorageResult(vm_read_mbps=np.full(n, reads), vm_mbps=np.full(n, reads + writes))
    net = network.solve(c)
    net.vm_rx_mbps = np.minimum(net.vm_rx_mbps, rx)
    res = ft.solve(c, sto, net)
    assert np.all(res.vm_throughput_ratio <= 1.0) and np.all(res.vm_throughput_ratio > 0.0)
    assert _finite_nonneg(res.vm_logging_mbps, res.vm_latency_add_ms, res.host_logging_mbps,
                          res.nic_gbps, res.nic_util, res.vm_sizing_rule_mbps,
                          ft.io_delay_ms(c), net.nic_gbps, net.nic_util)


@SETTINGS
@given(designs())
def test_network_and_ft_figures_are_finite_and_non_negative(design: Design) -> None:
    c = compile_design(design)
    net = network.solve(c)
    assert _finite_nonneg(net.vm_rx_mbps, net.vm_tx_mbps, net.vm_cpu_cores, net.vm_rx_pps,
                          net.vm_tx_pps, net.nic_gbps, net.nic_util)
    assert len(net.vm_bound_by) == len(c.vm)
    pred = evaluate(design)
    for arr in (pred.vms.net_gbps, pred.vms.ft_logging_mbps, pred.vms.ft_latency_add_ms,
                pred.vms.ft_throughput_ratio, pred.hosts.ft_logging_mbps, pred.nics.gbps,
                pred.nics.util):
        assert _finite_nonneg(arr)
    for r in pred.resources:
        assert math.isfinite(r.util) and r.util >= 0
