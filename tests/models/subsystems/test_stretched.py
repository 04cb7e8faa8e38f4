"""Stretched vSAN: writes pay the inter-site round trip, reads stay local; sizing rules."""

from __future__ import annotations

import itertools
import math

import numpy as np

from models.calibration.stretched import dvdstore_cluster, dvdstore_vm
from models.core.compiled import compile_design
from models.engine.evaluation import evaluate
from models.subsystems import stretched


def test_regular_cluster_pays_no_write_delay() -> None:
    res = stretched.solve(compile_design(dvdstore_cluster(None)))
    assert np.all(res.vm_write_delay_ms == 0.0)


def test_stretched_writes_pay_a_share_of_the_rtt() -> None:
    res = stretched.solve(compile_design(dvdstore_cluster(5.0)))
    assert np.allclose(res.vm_write_delay_ms, stretched.WRITE_RTT_SHARE.value * 5.0)


def test_latency_rises_with_rtt_and_throughput_falls_a_little() -> None:
    lat, iops = [], []
    for rtt in (None, 1.0, 5.0):
        p = evaluate(dvdstore_cluster(rtt))
        lat.append(float(np.mean(p.vms.latency_ms)))
        iops.append(float(p.vms.iops.sum()))
    assert lat[0] < lat[1] < lat[2]
    assert iops[0] > iops[1] > iops[2]
    assert iops[1] / iops[0] > 0.95


def test_reads_stay_local() -> None:
    """A read never crosses the site link: its latency does not move with the RTT; beside
    the regular cluster's it differs only by the chance its copy is on its own host (one of
    the site's hosts, not of the cluster's)."""
    ro = dict(dvdstore_vm(), **{"workload.io_read_pct": 100})
    a = evaluate(dvdstore_cluster(None, vm=ro))
    b = evaluate(dvdstore_cluster(1.0, vm=ro))
    c = evaluate(dvdstore_cluster(5.0, vm=ro))
    assert np.allclose(b.vms.latency_ms, c.vms.latency_ms, rtol=1e-6)
    assert np.allclose(a.vms.latency_ms, c.vms.latency_ms, rtol=0.02)


def test_sizing_formulas() -> None:
    assert math.isclose(stretched.required_mbps(320.0), 560.0)
    assert math.isclose(stretched.witness_mbps(1000), 1.82080, rel_tol=1e-4)
    assert stretched.witness_max_rtt_ms(8) == 200.0
    assert stretched.witness_max_rtt_ms(12) == 100.0


def test_link_requirements_warn() -> None:
    p = evaluate(dvdstore_cluster(6.0, wan_gbps=1.0))
    assert any("5 ms" in w for w in p.warnings)
    assert any("10 Gbit/s" in w for w in p.warnings)
    assert any("writes need" in w for w in p.warnings)
    wan = [r for r in p.resources if r.resource == "wan" and r.component == "siteA-siteB"]
    assert wan and wan[0].util == 1.0
    fine = evaluate(dvdstore_cluster(1.0))
    assert not [w for w in fine.warnings if "siteA-siteB" in w]


def test_wan_resource_reports_required_bandwidth() -> None:
    p = evaluate(dvdstore_cluster(1.0))
    need = p.sections.to_json()["wan_required_mbps siteA-siteB"]
    writes = float((p.vms.iops * (1 - 0.33) * 8 * 8 / 1000).sum())
    assert math.isclose(need, writes * 1.4 * 1.25, rel_tol=1e-6)


def test_each_synchronous_round_trip_a_write_pays_adds_its_delay() -> None:
    d = dvdstore_cluster(2.0)
    one = stretched.solve(compile_design(d)).vm_write_delay_ms
    for comp in d.components:
        if comp.kind == "storage_array":
            comp.props["vsan_write_round_trips"] = 2
    two = stretched.solve(compile_design(d)).vm_write_delay_ms
    assert np.allclose(two, 2.0 * one) and (one > 0).all()


def test_orders_per_minute_fall_monotonically_with_the_inter_site_latency() -> None:
    from models.calibration.stretched import opm  # noqa: PLC0415

    opms = [opm(evaluate(dvdstore_cluster(rtt))) for rtt in (None, 0.5, 1.0, 2.0, 5.0, 10.0)]
    assert all(a > b for a, b in itertools.pairwise(opms))
    assert opms[-1] > 0.5 * opms[0]  # storage is only part of each order's cycle
