"""Multicast receivers: the replication context as a finite queue, splitRxMode, guest CPU."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from models.calibration.multicast import receivers
from models.core.compiled import compile_design
from models.core.results import NetworkResult
from models.document.design import Design
from models.engine.evaluation import evaluate
from models.subsystems import multicast, network

SETTINGS = settings(max_examples=40, deadline=None)


def solve(design: Design) -> NetworkResult:
    return network.solve(compile_design(design))


def test_loss_is_negligible_below_saturation_and_steep_past_it() -> None:
    p = multicast.loss_probability(np.array([0.0, 0.5, 0.95, 1.0, 1.2, 50.0]))
    assert p[0] == 0.0 and p[1] < 1e-12 and p[2] < multicast.LOSS_MAX
    assert p[3] == 1.0 / (multicast.QUEUE_PACKETS + 1)
    assert abs(p[4] - (1 - 1 / 1.2)) < 1e-3 and np.isfinite(p).all() and p[5] < 1.0


@SETTINGS
@given(st.floats(0.0, 100.0), st.floats(0.0, 1.0))
def test_loss_never_falls_as_utilisation_rises(rho: float, more: float) -> None:
    a, b = multicast.loss_probability(np.array([rho, rho + more]))
    assert b >= a - 1e-15


def test_twenty_receivers_at_40kpps_are_clean_twenty_one_are_not() -> None:
    ok, lossy = evaluate(receivers(20)), evaluate(receivers(21))
    assert not any("multicast" in w for w in ok.warnings)
    assert any("multicast replication loses" in w and "splitRxMode" in w
               for w in lossy.warnings)
    res = [r for r in lossy.resources if r.resource == "multicast_replication"]
    assert len(res) == 1 and res[0].component == "h1" and res[0].util == 1.0


def test_split_rx_spreads_the_copies_over_contexts() -> None:
    res = solve(receivers(28, split=True))  # 28 x 40 Kpps: the host's 16 cores still keep up
    mc = res.multicast
    assert mc is not None and mc.hosts["h1"].split_contexts == 28
    assert max(mc.vm_loss.values()) < multicast.LOSS_MAX
    assert not any("multicast" in w for w in res.warnings)


def test_lost_packets_are_not_delivered() -> None:
    clean, lossy = solve(receivers(1)), solve(receivers(30))
    assert abs(clean.vm_rx_mbps[0] - 40000 * 800 * 8e-6) < 1e-9
    assert lossy.multicast is not None
    loss = lossy.multicast.vm_loss["v1"]
    assert loss > 0.1
    assert abs(lossy.vm_rx_mbps[0] - clean.vm_rx_mbps[0] * (1 - loss)) < 1e-6


def test_split_rx_needs_vmxnet3() -> None:
    d = receivers(2, split=True)
    for c in d.of_kind("vm"):
        c.props["vnic"] = "e1000"
    res = solve(d)
    assert sum("splitRxMode needs a VMXNET3" in w for w in res.warnings) == 2
    assert res.multicast is not None and res.multicast.hosts["h1"].split_contexts == 0


def test_multicast_is_udp_without_lro_merging() -> None:
    res = solve(receivers(1))
    assert abs(res.vm_rx_pps[0] - 40000.0) < 1e-6


@SETTINGS
@given(st.floats(100.0, 80000.0), st.floats(1.0, 2.0), st.integers(1, 25))
def test_more_packets_never_lower_cpu(kpps_x1000: float, more: float, n: int) -> None:
    lo = solve(receivers(n, kpps_x1000 / 1000.0))
    hi = solve(receivers(n, kpps_x1000 * more / 1000.0))
    assert hi.vm_cpu_cores.sum() >= lo.vm_cpu_cores.sum() - 1e-12
    assert (hi.vm_cpu_cores >= 0).all() and np.isfinite(hi.vm_cpu_cores).all()


def test_split_contexts_lift_the_ceiling_until_host_cpu_binds() -> None:
    """splitRxMode: no shared context to saturate, but the receivers' own CPU (12.5% of a vCPU
    per 10 Kpps) and the copies fill the R810's 16 cores near 29 receivers at 40 Kpps."""
    from models.calibration.multicast import max_vms  # noqa: PLC0415

    default, split = max_vms(40.0, most=40), max_vms(40.0, split=True, most=40)
    assert default == 20 and 25 <= split < 32


def test_a_receiver_whose_vcpu_cannot_keep_up_drops_the_rest() -> None:
    from models.calibration.multicast import _mc, receivers  # noqa: PLC0415

    loss = _mc(receivers(1, kpps=120.0, split=True)).vm_loss["v1"]  # 1.5 vCPUs of work
    assert abs(loss - (1.0 - 1.0 / 1.5)) < 0.01
