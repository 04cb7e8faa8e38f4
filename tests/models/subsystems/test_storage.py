"""Storage model behaviour: the mechanisms the calibration cases rest on."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from models.calibration.storage import (
    FLASH_HOST,
    FLASH_VM,
    VAIO_HOST,
    VAIO_SSD,
    VIOLIN,
    build_testbed,
    sioc_pair,
    vaio,
)
from models.core.prediction import Prediction
from models.document.design import Component, Link, Override, apply_overrides
from models.engine.evaluation import Engine, evaluate
from models.examples.synth import large_design
from models.subsystems import mva, storage_mva


def _run(array: dict[str, Any] | None = None, vm: dict[str, Any] | None = None,
         n: int = 1, host: dict[str, Any] | None = None) -> Prediction:
    return evaluate(build_testbed("t", host or FLASH_HOST, array or VIOLIN, vm or FLASH_VM, n))


def test_one_vcpu_vm_is_capped_by_its_vcpu_and_a_filter_lifts_it() -> None:
    off, on = vaio(1), vaio(1, "null")
    assert off.vms.bound_by[0] == "vCPU I/O path: 1 vCPU saturated"
    assert on.vms.iops[0] > 1.7 * off.vms.iops[0]
    assert on.vms.bound_by[0].startswith("storage_array a1:")


def test_filter_changes_nothing_when_the_ssd_is_the_bottleneck() -> None:
    off, on = vaio(16), vaio(16, "null")
    assert math.isclose(on.vms.iops.sum(), off.vms.iops.sum(), rel_tol=0.01)
    assert np.allclose(on.vms.latency_ms, off.vms.latency_ms, rtol=0.02)
    assert np.all(on.vms.cpu_cost_per_kiops > 1.1 * off.vms.cpu_cost_per_kiops)
    assert np.all(on.vms.cpu_cost_per_kiops < 1.2 * off.vms.cpu_cost_per_kiops)


def test_pvscsi_costs_less_cpu_per_io_than_lsi() -> None:
    pv = _run()
    lsi = _run(vm=dict(FLASH_VM, vscsi="lsi_sas"))
    cut = 1 - pv.vms.cpu_cost_per_kiops[0] / lsi.vms.cpu_cost_per_kiops[0]
    assert 0.10 <= cut <= 0.30


def test_large_blocks_hit_the_fabric() -> None:
    p = _run(vm=dict(FLASH_VM, **{"workload.io_block_kb": 256}),
             host=dict(FLASH_HOST, hba_count=1))
    assert p.vms.bound_by[0].startswith("HBA ")
    assert p.vms.storage_mbps[0] <= 8.0 * 1000 / 8 * 1.0001  # one 8 Gbit/s port
    assert any(r.resource == "hba" and r.util > 0.9 for r in p.resources)


def test_a_large_request_alone_takes_its_transfer_time_on_flash() -> None:
    """A flash drive serves small requests on its channels at once; a request larger than a
    channel's share of its bandwidth has them all: alone it takes its transfer time (4 MB at
    500 MB/s, 8.4 ms), not the channels' count times it, and the drive's capacity is the
    same either way."""
    ssd = {"media": "ssd", "disks": 1, "raid": "none", "protocol": "fc", "fabric_gbps": 64.0}
    big = {"workload.io_block_kb": 4096, "workload.io_read_pct": 100}
    alone = _run(ssd, dict(FLASH_VM, **big, **{"workload.io_iops": 1.0}),
                 host=dict(FLASH_HOST, hba_count=8))
    transfer_ms = 4096 / (500.0 * 1000.0) * 1000.0
    assert transfer_ms <= alone.vms.latency_ms[0] < 1.5 * transfer_ms
    flat_out = _run(ssd, dict(FLASH_VM, **big), host=dict(FLASH_HOST, hba_count=8))
    assert math.isclose(flat_out.vms.storage_mbps[0], 500.0 / 1.024, rel_tol=0.02)


def test_raid_write_penalty_orders_throughput() -> None:
    vm = dict(FLASH_VM, **{"workload.io_read_pct": 0})
    hdd = {"media": "hdd10k", "disks": 12, "protocol": "fc"}
    iops = [_run(dict(hdd, raid=r), vm).vms.iops[0] for r in ("raid10", "raid5", "raid6")]
    assert iops[0] > iops[1] > iops[2]
    assert math.isclose(iops[0] / iops[1], 2.0, rel_tol=0.05)


def test_vm_without_disk_has_nan_latency_and_no_iops() -> None:
    d = build_testbed("t", FLASH_HOST, VIOLIN, FLASH_VM, 1)
    d.components.append(Component("lonely", "vm", "lonely", props=dict(FLASH_VM)))
    p = evaluate(d)
    assert p.vms.iops[-1] == 0.0
    assert math.isnan(p.vms.latency_ms[-1])
    assert p.vms.iops[0] > 0


def test_profiles_without_io_do_no_io() -> None:
    for profile in ("idle", "web", "cpu_bound", "netperf", "multicast_rx", "file_transfer"):
        p = _run(vm=dict(FLASH_VM, **{"workload.profile": profile}))
        assert p.vms.iops[0] == 0.0, profile


def test_open_loop_gets_what_it_offers_until_saturation() -> None:
    light = _run(vm=dict(FLASH_VM, **{"workload.io_iops": 5000.0}))
    assert math.isclose(light.vms.iops[0], 5000.0)
    assert light.vms.latency_ms[0] > 0
    heavy = _run(array={"media": "hdd7k", "disks": 4, "raid": "none", "protocol": "fc"},
                 vm=dict(FLASH_VM, **{"workload.io_iops": 5000.0}))
    assert heavy.vms.iops[0] < 400
    assert any("open-loop" in w for w in heavy.warnings)


def test_more_oio_more_latency_at_a_saturated_array() -> None:
    arr = {"media": "hdd10k", "disks": 8, "raid": "raid5", "protocol": "fc"}
    lats = [_run(arr, dict(FLASH_VM, **{"workload.io_oio": k})).vms.latency_ms[0]
            for k in (4, 16, 64)]
    assert lats[0] < lats[1] < lats[2]


def test_legacy_host_caps_a_vm_near_300k() -> None:
    p = _run(host=dict(FLASH_HOST, esxi_version="5.0"))
    assert 270_000 < p.vms.iops[0] <= 300_000 * 1.0001
    assert p.vms.bound_by[0].startswith("per-VM I/O world")


def test_sioc_protects_the_small_io_tenant_without_losing_throughput() -> None:
    off, on = sioc_pair(False), sioc_pair(True)
    assert on.vms.latency_ms[0] < off.vms.latency_ms[0]
    assert on.arrays.util[0] > 0.98 * off.arrays.util[0]


def test_resources_name_array_and_vcpu_paths() -> None:
    p = vaio(1)
    kinds = {r.resource for r in p.resources}
    assert {"array", "vcpu_io"} <= kinds
    assert all(r.explanation and r.source for r in p.resources)


def test_single_vm_is_solved_with_exact_mva() -> None:
    d = np.array([[20e-6, 5e-6, 0.0, 3e-6, 13.3e-6, 90e-6]])
    res = storage_mva._solve_closed(d, np.array([[0, 1]]), np.array([32.0]), 2, None)
    exact = mva.exact_single(d[0], 32, delay=np.arange(6) == 5)
    assert abs(res.throughput[0] - exact.throughput[-1]) <= 1e-9 * exact.throughput[-1]
    two = storage_mva._solve_closed(np.repeat(d, 2, axis=0), np.array([[0, 1], [0, 1]]),
                                np.array([32.0, 0.0]), 2, None)
    assert abs(two.throughput[0] - exact.throughput[-1]) <= 1e-9 * exact.throughput[-1]


def test_warm_start_equals_cold_solution() -> None:
    design = build_testbed("t", VAIO_HOST, VAIO_SSD, dict(FLASH_VM, vcpus=2), 5)
    engine = Engine(design)
    engine.evaluate()
    ov = Override("vm", "workload.io_oio", 3)
    engine.patch(ov)
    warm = engine.evaluate()
    cold = Engine(apply_overrides(design, [ov])).evaluate()
    np.testing.assert_allclose(warm.vms.iops, cold.vms.iops, rtol=1e-6)


def test_a_host_reaches_the_array_its_vms_disks_are_on() -> None:
    """A VM on a host with its disk on an array is a path from the host to the array: no
    storage link is asked for."""
    d = build_testbed("t", FLASH_HOST, VIOLIN, FLASH_VM, 1)
    d.links = [lk for lk in d.links if lk.kind != "storage"]
    p = evaluate(d)
    assert p.vms.iops[0] > 0
    assert not any("storage link" in w for w in p.warnings)


def test_storage_links_that_name_other_arrays_are_warned_not_fatal() -> None:
    d = build_testbed("t", FLASH_HOST, VIOLIN, FLASH_VM, 1)
    host = d.of_kind("host")[0].id
    d.links = [lk for lk in d.links if lk.kind != "storage"]
    d.components.append(Component("other", "storage_array", "other array"))
    d.links.append(Link(host, "other", "storage"))
    p = evaluate(d)
    assert p.vms.iops[0] > 0
    assert any("storage links name other arrays" in w for w in p.warnings)


def test_sioc_share_below_one_slot_on_a_lone_vm_is_solved() -> None:
    """Found by Hypothesis: SIOC gave a lone VM a fractional queue share (< 1 slot), which the
    exact single-class MVA cannot take; the approximate solver handles it."""
    from models.document.codec import parse_design  # noqa: PLC0415
    from models.engine.evaluation import evaluate  # noqa: PLC0415

    design = parse_design({
        "format": "headroom-design", "version": 1,
        "components": [
            {"id": "h", "kind": "host", "props": {"esxi_version": "5.0", "hba_count": 1,
                                                  "ghz": 2.0}},
            {"id": "a", "kind": "storage_array", "props": {
                "media": "hdd10k", "disks": 1, "raid": "raid6", "protocol": "fc",
                "fabric_gbps": 1.0, "sioc": True}},
            {"id": "v", "kind": "vm", "props": {"vcpus": 1, "workload": {
                "profile": "iometer", "io_oio": 64, "io_block_kb": 64,
                "io_read_pct": 0}}}],
        "links": [{"from": "v", "to": "h", "kind": "runs_on"},
                  {"from": "v", "to": "a", "kind": "disk_on"},
                  {"from": "h", "to": "a", "kind": "storage"}]})
    p = evaluate(design)
    assert np.isfinite(p.vms.iops).all() and p.vms.iops[0] > 0


def test_a_drag_with_warm_starts_equals_cold_solutions() -> None:
    # SIOC on a congested array, open-loop VMs and VMs that stop and start I/O: every step
    # reuses the last solutions as a first guess and still lands on the fresh fixed point
    design = large_design(120, 6, 3)
    for comp in design.components:
        if comp.id == "a0":
            comp.props.update({"sioc": True, "media": "hdd10k", "disks": 8})
        if comp.id in ("v5", "v10"):
            comp.props["workload.io_iops"] = 300.0
    engine = Engine(design)
    engine.evaluate()
    for select, oio in [("vm", 8), ("vm", 9), ("vm", 10), ("id:v0", 0), ("vm", 11),
                        ("id:v1", 40), ("vm", 12), ("vm", 64), ("vm", 12)]:
        engine.patch(Override(select, "workload.io_oio", oio))
        warm = engine.evaluate()
        cold = evaluate(engine.compiled.current_design())
        for name in ("iops", "latency_ms", "p95_latency_ms"):
            np.testing.assert_allclose(getattr(warm.vms, name), getattr(cold.vms, name),
                                       rtol=1e-6, atol=1e-9, err_msg=f"{select}={oio} {name}")
        np.testing.assert_allclose(warm.arrays.latency_ms, cold.arrays.latency_ms, rtol=1e-6)


def test_a_slider_drag_needs_few_iterations() -> None:
    engine = Engine(large_design(500, 25, 5))
    engine.evaluate()
    iterations = []
    for oio in (8, 9, 10, 11, 10):
        engine.patch(Override("vm", "workload.io_oio", oio))
        iterations.append(engine.evaluate().sections.to_json()["storage_mva_iterations"])
    cold = evaluate(engine.compiled.current_design()).sections.to_json()["storage_mva_iterations"]
    # a step along the drag continues the line through the last two solutions
    assert max(iterations[2:4]) < cold
    # a step back lands on the solution before: it only has to be confirmed
    assert iterations[4] <= 3


def test_split_network_solves_many_populations() -> None:
    d = np.array([[20e-6, 0.0, 0.0, 3e-6, 13e-6, 90e-6], [30e-6, 0.0, 0.0, 3e-6, 13e-6, 0.0],
                  [10e-6, 0.0, 0.0, 3e-6, 26e-6, 10e-6]])
    stations = np.array([[0, 2], [0, 2], [1, 3]])
    net = mva.SplitNetwork(d[:, :3], stations, d[:, 3:5], d[:, 5], 4)
    for pops in (np.array([4.0, 8.0, 2.0]), np.array([32.0, 1.0, 16.0])):
        one = mva.schweitzer_split(d[:, :3], stations, d[:, 3:5], pops, d[:, 5], 4, tol=1e-12)
        many = net.solve(pops, tol=1e-12)
        np.testing.assert_allclose(many.throughput, one.throughput, rtol=1e-10)
        np.testing.assert_allclose(many.queue, one.queue, rtol=1e-9, atol=1e-15)


def test_a_request_over_the_stripe_unit_spreads_over_the_drives() -> None:
    """A 4 MB request on eight drives is split at the 64 KB stripe unit over all eight, which
    move their 512 KB at once: alone it takes one piece's transfer time, an eighth of one
    drive's; flat out the array still moves eight drives' bandwidth, and a 64 KB request
    stays on one drive."""
    eight = {"media": "ssd", "disks": 8, "raid": "none", "protocol": "fc", "fabric_gbps": 64.0}
    big = {"workload.io_block_kb": 4096, "workload.io_read_pct": 100}
    host = dict(FLASH_HOST, hba_count=8)
    alone = _run(eight, dict(FLASH_VM, **big, **{"workload.io_iops": 1.0}), host=host)
    piece_ms = 4096 / 8 / (500.0 * 1000.0) * 1000.0
    assert piece_ms <= alone.vms.latency_ms[0] < 1.5 * piece_ms
    flat_out = _run(eight, dict(FLASH_VM, **big), host=host)
    assert flat_out.vms.storage_mbps[0] > 0.9 * 8 * 500.0 / 1.024
    assert flat_out.vms.storage_mbps[0] <= 8 * 500.0 / 1.024 * 1.0001
    unit = {"workload.io_block_kb": 64, "workload.io_read_pct": 100, "workload.io_iops": 1.0}
    one = _run(eight, dict(FLASH_VM, **unit), host=host)
    on_one = _run(dict(eight, disks=1), dict(FLASH_VM, **unit), host=host)
    assert math.isclose(one.vms.latency_ms[0], on_one.vms.latency_ms[0], rel_tol=1e-3)
