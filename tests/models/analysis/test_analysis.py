"""Goal seek, host failure and sensitivity: the search and bookkeeping are checked against a
small stand-in model with known answers (injected ``evaluate``), the real engine only for
invariants that hold whatever the subsystem models return."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from models import analysis
from models.analysis import Breach, band_settings, largest_ok, policy_breaches, smallest_ok
from models.core.compiled import Compiled
from models.core.prediction import (
    ArrayArrays,
    Consolidation,
    HostArrays,
    NicArrays,
    Prediction,
    VmArrays,
)
from models.document.codec import design_to_json
from models.document.design import Component, Design, DesignError, Link
from models.document.knobs import knob, knobs_for
from models.engine.evaluation import Engine, evaluate
from models.examples import bundled as examples
from models.examples.synth import large_design

ARRAY_IOPS_PER_DISK = 1000.0


def toy_run(c: Compiled) -> Prediction:
    """A stand-in model with answers worked out by hand.

    Host CPU: each VM needs vcpus * cpu_pct/100 cores out of sockets * cores_per_socket.
    Memory: configured GB over installed GB.  Storage: each array serves disks * 1,000 IOPS;
    a closed loop of N outstanding I/Os sees 1 + 1000 N / capacity ms (p95 twice that).
    FT: 100 Mbit/s of logging per protected VM on its primary host.
    """
    nv, nh, na = len(c.vm), len(c.host), len(c.array)
    vm_host = c.vm_host
    on = vm_host >= 0
    cores = c.host.cols["sockets"] * c.host.cols["cores_per_socket"]
    demand = c.vm.cols["vcpus"] * c.vm.cols["workload.cpu_pct"] / 100.0
    host_cpu = np.bincount(vm_host[on], demand[on], minlength=nh) / cores
    mem = np.bincount(vm_host[on], c.vm.cols["memory_gb"][on], minlength=nh)
    host_mem = mem / c.host.cols["memory_gb"]
    oio = c.vm.cols["workload.io_oio"]
    has_disk = c.vm_array >= 0
    cap = c.array.cols["disks"] * ARRAY_IOPS_PER_DISK
    n_arr = np.bincount(c.vm_array[has_disk], oio[has_disk], minlength=na)
    arr_lat = 1.0 + 1000.0 * n_arr / cap
    lat = np.where(has_disk, arr_lat[np.maximum(c.vm_array, 0)], np.nan)
    iops = np.where(has_disk, oio / (lat / 1000.0), 0.0)
    ft = c.vm.cols["ft"]
    logging = np.bincount(vm_host[on & ft], np.full(int((on & ft).sum()), 100.0),
                          minlength=nh)
    need = math.ceil(demand.sum() / (cores.max() * c.policy["cpu_util_max"])) if nh else None
    vms = VmArrays(ids=c.vm.ids, names=c.vm.ids, host=[None] * nv, iops=iops,
                   storage_mbps=np.zeros(nv), latency_ms=lat, p95_latency_ms=2.0 * lat,
                   net_gbps=np.zeros(nv), cpu_util=np.zeros(nv), cpu_cost_per_kiops=np.zeros(nv),
                   ft=ft.copy(), ft_logging_mbps=np.zeros(nv), ft_latency_add_ms=np.zeros(nv),
                   ft_throughput_ratio=np.ones(nv), bound_by=[""] * nv)
    hosts = HostArrays(ids=c.host.ids, names=c.host.ids, cpu_util=host_cpu,
                       memory_util=host_mem, vms=np.bincount(vm_host[on], minlength=nh),
                       dense_mode_active=np.zeros(nh, bool), ft_logging_mbps=logging)
    nics = NicArrays(ids=c.nic.ids, host=[None] * len(c.nic), util=np.zeros(len(c.nic)),
                     gbps=np.zeros(len(c.nic)))
    arrays = ArrayArrays(ids=c.array.ids, names=c.array.ids, iops=np.zeros(na),
                         latency_ms=arr_lat, util=n_arr / (n_arr + cap / 1000.0))
    con = Consolidation(nv / nh if nh else 0.0, None, None, None, need)
    return Prediction(design=c.design.name, scenario="base", vms=vms, hosts=hosts, nics=nics,
                      arrays=arrays, consolidation=con)


def toy_design(n_hosts: int = 4, n_vms: int = 40, ft_every: int = 0, disks: int = 10,
               p95_max: float = 100.0, spare: int = 0) -> Design:
    """Hosts of 16 cores and 256 GB, each with one NIC, all reaching one array; VMs of
    2 vCPUs at 50% (one core each), 4 GB, 8 OIO, round robin over the hosts."""
    d = Design(name="toy", policy={"cpu_util_max": 0.9, "p95_ms_max": p95_max,
                                   "ha_spare_hosts": spare})
    d.components.append(Component("a1", "storage_array", props={"disks": disks}))
    for h in range(n_hosts):
        d.components.append(Component(f"h{h}", "host", props={"sockets": 1,
                                                               "cores_per_socket": 16,
                                                               "memory_gb": 256.0}))
        d.components.append(Component(f"n{h}", "nic"))
        d.links += [Link(f"n{h}", f"h{h}", "installed_in"), Link(f"h{h}", "a1", "storage")]
    for v in range(n_vms):
        d.components.append(Component(f"v{v}", "vm", props={
            "vcpus": 2, "workload.cpu_pct": 50.0, "memory_gb": 4.0, "workload.io_oio": 8,
            "ft": bool(ft_every and v % ft_every == 0)}))
        d.links += [Link(f"v{v}", f"h{v % n_hosts}", "runs_on"), Link(f"v{v}", "a1", "disk_on")]
        if ft_every and v % ft_every == 0:
            d.links.append(Link(f"v{v}", f"h{(v + 1) % n_hosts}", "ft_secondary_on"))
    return d


def _counts(d: Design) -> dict[str, int]:
    out = {h.id: 0 for h in d.of_kind("host")}
    for lk in d.links:
        if lk.kind == "runs_on":
            out[lk.target] += 1
    return out


# --------------------------------------------------------------------------- searches


@pytest.mark.parametrize("threshold", [0, 1, 2, 7, 50, 99, 100, 101])
@pytest.mark.parametrize("start", [1, 3, 64, 100, 500])
def test_monotone_searches_match_brute_force(threshold: int, start: int) -> None:
    lo, hi = 1, 100
    calls: list[int] = []

    def below(x: int) -> bool:
        calls.append(x)
        return x <= threshold

    want = max((x for x in range(lo, hi + 1) if x <= threshold), default=None)
    assert largest_ok(below, lo, hi, start) == want
    assert len(calls) <= 20, "galloping + bisection, not a scan"

    def above(x: int) -> bool:
        return x >= threshold

    want = min((x for x in range(lo, hi + 1) if x >= threshold), default=None)
    assert smallest_ok(above, lo, hi, start) == want


def test_policy_breaches_name_each_resource_and_ignore_nan() -> None:
    c = Engine(toy_design(n_hosts=1, n_vms=20)).compiled
    pred = toy_run(c)
    pred.vms.p95_latency_ms[0] = np.nan
    breaches = policy_breaches(pred, c.policy)
    assert {b.resource for b in breaches} == {"cpu"}  # 20 cores of 16 > 90%
    assert breaches[0].component == "h0" and breaches[0].value == pytest.approx(20 / 16)
    pred.arrays.util[:] = 1.5
    pred.hosts.cpu_util[:] = np.nan
    assert [b.resource for b in policy_breaches(pred, c.policy)] == ["array"]


# --------------------------------------------------------------------------- rebuild


def test_rebuild_replicates_the_host_mix_and_spreads_vms_evenly() -> None:
    d = toy_design(n_hosts=2, n_vms=11, ft_every=5)
    before = design_to_json(d)
    out, notes = analysis.rebuild(d, n_hosts=5)
    assert design_to_json(d) == before, "the input design is never changed"
    assert notes == []
    hosts = [h.id for h in out.of_kind("host")]
    assert hosts == ["h0", "h1", "h0~2", "h1~2", "h0~3"]
    assert len(out.of_kind("nic")) == 5
    counts = _counts(out)
    assert sum(counts.values()) == 11 and max(counts.values()) - min(counts.values()) <= 1
    runs = {lk.source: lk.target for lk in out.links if lk.kind == "runs_on"}
    for lk in out.links:
        if lk.kind == "ft_secondary_on":
            assert lk.target != runs[lk.source]
    assert sum(lk.kind == "storage" for lk in out.links) == 5


def test_rebuild_gives_every_host_the_same_mix() -> None:
    d = toy_design(n_hosts=2, n_vms=8)
    for v in d.of_kind("vm")[:4]:  # v0..v3 web, v4..v7 oltp: grouped, not interleaved
        v.props["workload.profile"] = "web"
    out, _ = analysis.rebuild(d, n_hosts=4)
    runs = {lk.source: lk.target for lk in out.links if lk.kind == "runs_on"}
    for h in ("h0", "h1", "h0~2", "h1~2"):
        profiles = sorted(str(v.get("workload.profile")) for v in out.of_kind("vm")
                          if runs[v.id] == h)
        assert profiles == ["oltp", "web"]


def test_rebuild_vms_per_host_puts_k_on_every_host() -> None:
    out, _ = analysis.rebuild(toy_design(n_hosts=3, n_vms=4), vms_per_host=7)
    assert set(_counts(out).values()) == {7}
    assert len({v.id for v in out.of_kind("vm")}) == 21


# --------------------------------------------------------------------------- goal seek


def test_seek_hosts_is_the_dashboards_count_plus_spares() -> None:
    d = toy_design(n_hosts=8, n_vms=40, spare=1)
    r = analysis.seek(d, "hosts")
    p = evaluate(d)
    assert r.feasible and r.value == p.consolidation.hosts_needed
    assert r.binding == p.consolidation.binding == "cpu"
    assert r.extra["ha_spare_hosts"] == 1 and r.extra["active_hosts"] == (r.value or 0) - 1
    assert [c["hosts_needed"] for c in r.extra["clusters"]] == [r.value]


def test_seek_hosts_with_ft_needs_two() -> None:
    r = analysis.seek(toy_design(n_hosts=4, n_vms=4, ft_every=2), "hosts")
    assert r.value == 2 and r.binding == "ft"


def test_seek_oio_is_the_largest_within_p95() -> None:
    # 10 VMs on 10 disks (10,000 IOPS): p95 = 2 (1 + 1000 * 10 x / 10000) = 2 + 2x <= 50
    d = toy_design(n_hosts=2, n_vms=10, p95_max=50.0)
    r = analysis.seek(d, "oio", evaluate=toy_run)
    assert r.feasible and r.value == 24 and r.binding == "p95"
    assert r.current == 8
    assert all(b.resource == "p95" for b in r.binding_detail)


def test_seek_oio_holds_only_to_the_p95_of_vms_doing_io() -> None:
    d = toy_design(n_hosts=1, n_vms=20, p95_max=50.0)  # 20 cores on 16: CPU is over
    r = analysis.seek(d, "oio", evaluate=toy_run)
    assert r.value == 12 and r.binding == "p95"  # 2 + 2 * 20 x / 10 <= 50


def test_seek_oio_reports_the_search_limit_when_nothing_binds() -> None:
    r = analysis.seek(toy_design(n_hosts=2, n_vms=2, p95_max=1e6), "oio", limit=40,
                      evaluate=toy_run)
    assert r.value == 40 and "limit" in r.binding and r.binding_detail == []


def test_seek_vms_per_host_binds_on_cpu() -> None:
    r = analysis.seek(toy_design(n_hosts=2, n_vms=4, p95_max=1e6), "vms", evaluate=toy_run)
    assert r.value == 14 and r.binding == "cpu" and r.extra["total_vms"] == 28


def test_seek_infeasible_says_why() -> None:
    r = analysis.seek(toy_design(n_hosts=2, n_vms=4, p95_max=1.0), "oio", evaluate=toy_run)
    assert not r.feasible and r.value is None and r.binding == "p95"


def test_seek_rejects_bad_requests() -> None:
    with pytest.raises(DesignError, match="no VMs"):
        analysis.seek(toy_design(n_vms=0), "hosts", evaluate=toy_run)
    with pytest.raises(DesignError, match="unknown goal"):
        analysis.seek(toy_design(), "disks", evaluate=toy_run)
    with pytest.raises(DesignError, match="at least 1"):
        analysis.seek(toy_design(), "oio", limit=0, evaluate=toy_run)


# --------------------------------------------------------------------------- host failure


def test_failure_restarts_vms_evenly_and_reports_cpu() -> None:
    # 4 hosts x 13 VMs = 13 cores each (81%); lose one: 52 over 3 -> 18 (112%)
    d = toy_design(n_hosts=4, n_vms=52)
    rep = analysis.host_failure(d, ["h0"], evaluate=toy_run)
    assert rep.baseline == [] and not rep.survives
    f = rep.failures[0]
    assert len(f.restarted) == 13 and f.not_restarted == []
    assert sorted(f.vms_after.values()) == [17, 17, 18]
    assert all(f.vms_after[h] >= f.vms_before[h] for h in f.vms_after)
    cpu = [b for b in f.breaches if b.resource == "cpu"]
    assert {b.component for b in cpu} == {"h1", "h2", "h3"}
    assert all(b.before == pytest.approx(13 / 16) for b in cpu)
    assert len(f.new_breaches) == 3


def test_failure_moves_ft_primaries_to_their_secondaries() -> None:
    d = toy_design(n_hosts=3, n_vms=6, ft_every=3)  # v0: h0 -> sec h1; v3: h0 -> sec h1
    failed, res = analysis.fail_host(d, "h1")
    assert {(f.vm, f.lost) for f in res.ft} == {("v0", "secondary"), ("v3", "secondary")}
    failed, res = analysis.fail_host(d, "h0")
    runs = {lk.source: lk.target for lk in failed.links if lk.kind == "runs_on"}
    sec = {lk.source: lk.target for lk in failed.links if lk.kind == "ft_secondary_on"}
    for f in res.ft:
        assert f.lost == "primary" and runs[f.vm] == "h1" and f.primary == "h1"
        assert f.secondary == "h2" and sec[f.vm] == "h2"
    assert "h0" not in runs.values() and failed.component("h0") is None
    assert failed.component("n0") is None, "the host's NICs fail with it"
    assert len(runs) == 6


def test_failure_with_two_hosts_leaves_ft_unprotected() -> None:
    rep = analysis.host_failure(toy_design(n_hosts=2, n_vms=2, ft_every=2), ["h0"],
                                evaluate=toy_run)
    f = rep.failures[0]
    assert [(x.vm, x.secondary) for x in f.ft] == [("v0", None)]
    assert [b.resource for b in f.breaches] == ["ft"]


def test_failure_only_restarts_where_the_datastore_is_reachable() -> None:
    d = toy_design(n_hosts=3, n_vms=3)
    d.links = [lk for lk in d.links if not (lk.kind == "storage" and lk.source != "h0")]
    d.components.append(Component("a2", "storage_array"))
    d.links.append(Link("h1", "a2", "storage"))
    rep = analysis.host_failure(d, ["h0"], evaluate=toy_run)
    f = rep.failures[0]
    assert f.not_restarted == ["v0"] and [b.resource for b in f.breaches] == ["restart"]


def test_failure_of_every_host_and_unknown_host() -> None:
    d = toy_design(n_hosts=3, n_vms=9)
    rep = analysis.host_failure(d, evaluate=toy_run)
    assert [f.host for f in rep.failures] == ["h0", "h1", "h2"] and rep.survives
    with pytest.raises(DesignError, match="no host with that id"):
        analysis.host_failure(d, ["v1"], evaluate=toy_run)


# --------------------------------------------------------------------------- sensitivity


def test_sensitivity_ranks_the_knob_that_moves_the_output() -> None:
    d = toy_design(n_hosts=2, n_vms=10)
    s = analysis.sensitivity(d, "p95_latency_ms", band="range", evaluate=toy_run)
    paths = [k.path for k in s.knobs]
    assert set(paths) == {k.path for k in knobs_for(d)}
    # p95 = 2 + 2 N / disks: OIO 1..256 on 10 VMs over 10 disks moves it most
    top = s.knobs[0]
    assert top.path == "vm.workload.io_oio" and (top.low, top.high) == (1, 256)
    assert top.output_low == pytest.approx(2 + 2 * 10 / 10)
    assert top.output_high == pytest.approx(2 + 2 * 2560 / 10)
    assert s.baseline == pytest.approx(2 + 2 * 80 / 10)
    disks = next(k for k in s.knobs if k.path == "storage_array.disks")
    assert disks.swing > 0
    flat = next(k for k in s.knobs if k.path == "host.hyperthreading")
    assert flat.swing == 0.0
    assert s.evaluations == 1 + sum(len(k.points) for k in s.knobs)


def test_sensitivity_swings_each_knob_around_the_design_as_it_is() -> None:
    """The default band: each value halved and doubled (OIO 8: 4 and 16; 10 drives: 5 and
    20), a choice's neighbours; the bars sorted by swing, the low setting's output first."""
    d = toy_design(n_hosts=2, n_vms=10)
    s = analysis.sensitivity(d, "p95_latency_ms", evaluate=toy_run)
    assert s.band == "around"
    by = {k.path: k for k in s.knobs}
    oio, disks = by["vm.workload.io_oio"], by["storage_array.disks"]
    assert (oio.low, oio.high) == (4, 16) and (disks.low, disks.high) == (5, 20)
    assert oio.output_low == pytest.approx(2 + 2 * 40 / 10)  # fewer I/Os: lower p95
    assert disks.output_low == pytest.approx(2 + 2 * 80 / 5)  # fewer drives: higher p95
    assert oio.swing == pytest.approx(2 * 160 / 10 - 2 * 40 / 10)
    swings = [k.swing for k in s.knobs]
    assert swings == sorted(swings, reverse=True) and s.knobs[0].path == disks.path
    raid = by["storage_array.raid"]
    assert raid.points and len(raid.points) <= 2  # the RAID levels either side
    cpu = by["design.policy.cpu_util_max"]
    assert (cpu.low, cpu.high) == (0.45, 1.0)  # 90 % halved, and doubled as far as 100 %


def test_sensitivity_leaves_the_design_and_its_own_engine_unchanged() -> None:
    d = toy_design(n_hosts=2, n_vms=6)
    d.components[-1].props["workload.io_oio"] = 32  # rows differ
    before = design_to_json(d)
    first = analysis.sensitivity(d, "total_iops", evaluate=toy_run).to_dict()
    assert design_to_json(d) == before
    assert analysis.sensitivity(d, "total_iops", evaluate=toy_run).to_dict() == first


def test_column_restore_puts_every_row_back() -> None:
    d = toy_design(n_hosts=2, n_vms=3)
    d.components[-1].props["workload.io_oio"] = 32
    eng = Engine(d)
    c = eng.compiled
    k = knob("vm.workload.io_oio")
    assert k is not None
    saved = c.vm.cols["workload.io_oio"].copy()
    col = analysis._Column(c, k)
    col.write(np.array([1.0, 2.0, 3.0]))
    assert c.design.component("v2") is not None
    col.restore()
    assert np.array_equal(c.vm.cols["workload.io_oio"], saved)
    vm2 = c.design.component("v2")
    assert vm2 is not None and vm2.props["workload.io_oio"] == 32


def test_step_band_moves_each_row_by_one_step_in_range() -> None:
    k = knob("vm.workload.io_oio")
    assert k is not None
    low, high = band_settings(k, np.array([1.0, 8.0, 256.0]), "step")
    assert isinstance(low, np.ndarray) and isinstance(high, np.ndarray)
    assert low.tolist() == [1.0, 7.0, 255.0] and high.tolist() == [2.0, 9.0, 256.0]
    speed = knob("nic.speed_gbps")
    assert speed is not None
    assert band_settings(speed, np.zeros(0), "range") == [1.0, 10.0, 25.0, 40.0, 100.0]
    lo, hi = band_settings(speed, np.array([10.0]), "step")
    assert isinstance(lo, np.ndarray) and isinstance(hi, np.ndarray)
    assert (lo.tolist(), hi.tolist()) == ([1.0], [25.0])
    ft = knob("vm.ft")
    assert ft is not None and band_settings(ft, np.zeros(0), "range") == [False, True]


def test_sensitivity_step_band_and_enum_picks_extremes() -> None:
    d = toy_design(n_hosts=2, n_vms=4)
    s = analysis.sensitivity(d, "total_iops", band="step", evaluate=toy_run)
    oio = next(k for k in s.knobs if k.path == "vm.workload.io_oio")
    assert (oio.low, oio.high) == (7.0, 9.0) and oio.swing > 0
    with pytest.raises(DesignError, match="unknown output"):
        analysis.sensitivity(d, "iops", evaluate=toy_run)
    with pytest.raises(DesignError, match="unknown band"):
        analysis.sensitivity(d, "total_iops", band="wide", evaluate=toy_run)


# --------------------------------------------------------------------------- real engine


@pytest.mark.parametrize("name", examples.names())
def test_seek_on_examples_meets_the_policy_it_claims(name: str) -> None:
    d = examples.load(name)
    r = analysis.seek(d, "oio", limit=64)
    if r.value is not None:
        eng = Engine(d)
        from models.document.design import Override  # noqa: PLC0415

        eng.patch(Override("vm", "workload.io_oio", r.value))
        assert analysis.storage_p95_breaches(eng.evaluate(), eng.compiled.policy) == []
    r = analysis.seek(d, "hosts")
    if r.value is not None:
        spare = int(d.policy_value("ha_spare_hosts") or 0)
        built, _ = analysis.rebuild(d, n_hosts=r.value - spare)
        e = Engine(built)
        assert policy_breaches(e.evaluate(), e.compiled.policy) == []


def test_failure_on_a_synthetic_estate_never_lowers_survivors() -> None:
    d = large_design(60, 5, 2)
    rep = analysis.host_failure(d)
    assert len(rep.failures) == 5
    for f in rep.failures:
        assert all(f.vms_after[h] >= f.vms_before[h] for h in f.vms_after)
        assert sum(f.vms_after.values()) + len(f.not_restarted) == 60
        assert all(isinstance(b, Breach) for b in f.breaches)
        assert f.to_dict()["host"] == f.host


@pytest.mark.parametrize("output", list(analysis.OUTPUTS))
def test_sensitivity_on_synthetic_estate_is_well_formed(output: str) -> None:
    s = analysis.sensitivity(large_design(30, 3, 1), output)
    swings = [k.swing for k in s.knobs if math.isfinite(k.swing)]
    assert swings == sorted(swings, reverse=True) and all(x >= 0 for x in swings)
    assert s.to_dict()["output"] == output


def test_sensitivity_moves_link_knobs_and_puts_them_back() -> None:
    d = toy_design(n_hosts=2, n_vms=4)
    d.components += [Component("s1", "site"), Component("s2", "site")]
    d.links += [Link("h0", "s1", "located_at"), Link("h1", "s2", "located_at"),
                Link("s1", "s2", "wan", {"rtt_ms": 2.0})]
    wan = knob("wan.rtt_ms")
    assert wan is not None
    s = analysis.sensitivity(d, "total_iops", knobs=[wan], evaluate=toy_run)
    assert [p for p, _ in s.knobs[0].points] == [1.0, 4.0] and s.knobs[0].swing == 0.0  # 2 ms
    rng = analysis.sensitivity(d, "total_iops", knobs=[wan], band="range", evaluate=toy_run)
    assert [p for p, _ in rng.knobs[0].points] == [0.0, 10.0]
    assert d.links[-1].props == {"rtt_ms": 2.0}


@pytest.mark.parametrize("name", examples.names())
def test_failure_on_examples_accounts_for_every_vm(name: str) -> None:
    d = examples.load(name)
    rep = analysis.host_failure(d)
    placed = sum(1 for lk in d.links if lk.kind == "runs_on")
    for f in rep.failures:
        assert sum(f.vms_after.values()) + len(f.not_restarted) == placed
        assert all(f.vms_after[h] >= f.vms_before[h] for h in f.vms_after)


def test_seek_iops_grows_an_estates_measured_io_until_latency_binds(tmp_path: Path) -> None:
    """An imported estate's VMs run at their measured I/O rates: the latency goal is how far
    that I/O can grow, and outstanding I/Os (which do not move them) are refused."""
    from models.io.importers.liveoptics import import_liveoptics  # noqa: PLC0415
    from tests.liveoptics import workbook, write  # noqa: PLC0415

    design, _ = import_liveoptics(write(tmp_path / "lo.xlsx", workbook(4, 24, seed=3).sheets),
                                  stat="average")
    for a in design.of_kind("storage_array"):  # arrays of slower drives: they bind
        a.props.update({"media": "hdd15k", "disks": 24})
    r = analysis.seek(design, "iops")
    assert r.feasible and r.value is not None and r.value > 100 and r.current == 100
    assert r.binding in ("p95", "array", "p95+array", "array+p95")
    assert r.extra["iops_at_answer"] == pytest.approx(r.extra["iops_today"] * r.value / 100)
    assert r.extra["vms_with_io"] == 21
    assert any(not t.ok for t in r.trials) and any(t.ok and t.value == r.value
                                                   for t in r.trials)
    with pytest.raises(DesignError, match="no VM keeps outstanding I/Os"):
        analysis.seek(design, "oio")
    with pytest.raises(DesignError, match="at least 100"):
        analysis.seek(design, "iops", limit=50)
    with pytest.raises(DesignError, match="no VM has an I/O rate to grow"):
        analysis.seek(toy_design(), "iops", evaluate=toy_run)


def test_around_never_turns_a_value_back_and_a_switch_has_one_side() -> None:
    d = toy_design(n_hosts=2, n_vms=4)
    for v in d.of_kind("vm"):
        v.props["workload.io_oio"] = 300  # past the slider's 256, within the schema's range
    oio, ht = knob("vm.workload.io_oio"), knob("host.hyperthreading")
    assert oio is not None and ht is not None
    s = analysis.sensitivity(d, "p95_latency_ms", knobs=[oio, ht], evaluate=toy_run)
    by = {k.path: k for k in s.knobs}
    assert (by[oio.path].low, by[oio.path].high) == (150, 600)
    switch = by[ht.path]  # on: the only other side is off, below it
    assert [v for v, _ in switch.points] == [False] and switch.low is False
    assert math.isfinite(switch.output_low) and math.isnan(switch.output_high)


def test_around_leaves_a_setting_that_is_off_off() -> None:
    """A vCPU:core ceiling of 0 is no ceiling: 'around' it was once 0.8 vCPUs a core, the
    tightest ceiling there is, and topped an estate's tornado at 274 hosts.  Off on every
    component, the knob is left out with a note; off on some rows, those rows stay off."""
    d = toy_design(n_hosts=2, n_vms=4)
    ceiling, users = knob("design.policy.vcpu_per_core_max"), knob("vm.workload.app_users")
    assert ceiling is not None and users is not None
    s = analysis.sensitivity(d, "hosts_needed", knobs=[ceiling], evaluate=toy_run)
    assert not s.knobs and any(n.startswith("vCPU:core ceiling: off (0)") for n in s.notes)
    low, high = band_settings(users, np.array([0.0, 40.0]), "around")
    assert list(np.asarray(low)) == [0.0, 20.0] and list(np.asarray(high)) == [0.0, 80.0]
    d.policy["vcpu_per_core_max"] = 4.0
    s = analysis.sensitivity(d, "hosts_needed", knobs=[ceiling], evaluate=toy_run)
    assert [(k.low, k.high) for k in s.knobs] == [(2.0, 8.0)]


def sited(stretched: bool) -> Design:
    """The toy design's four hosts at two sites, in one cluster spanning both
    (``stretched``) or one cluster per site."""
    d = toy_design(n_hosts=4, n_vms=8)
    d.components += [Component("s1", "site", "DC1"), Component("s2", "site", "DC2"),
                     Component("k1", "cluster", "Stretched" if stretched else "A")]
    if not stretched:
        d.components.append(Component("k2", "cluster", "B"))
    for h in range(4):
        d.links += [Link(f"h{h}", "s1" if h < 2 else "s2", "located_at"),
                    Link(f"h{h}", "k1" if stretched or h < 2 else "k2", "in_cluster")]
    return d


def test_a_site_fails_as_a_whole_and_its_vms_restart_across_a_stretched_cluster() -> None:
    rep = analysis.host_failure(sited(True), evaluate=toy_run)
    assert [f.host for f in rep.failures] == ["h0", "h1", "h2", "h3", "s1", "s2"]
    site = rep.sites[0]
    assert site.site and site.failed == ["h0", "h1"]
    assert len(site.restarted) == 4 and {h for _, h in site.restarted} == {"h2", "h3"}
    assert set(site.util_after) == {"h2", "h3"}
    cpu_before, _ = site.util_before["h2"]
    cpu_after, mem_after = site.util_after["h2"]
    assert cpu_after == pytest.approx(2 * cpu_before) and mem_after > 0  # twice the VMs
    assert site.busiest_after() is not None
    doc = rep.to_dict()
    assert [f["host"] for f in doc["site_failures"]] == ["s1", "s2"]
    assert {"cpu_before", "cpu_after", "memory_after"} <= set(doc["failures"][0]["hosts"][0])


def test_a_cluster_wholly_at_the_failed_site_cannot_restart_its_vms() -> None:
    rep = analysis.host_failure(sited(False), evaluate=toy_run)
    site = rep.sites[0]
    assert site.not_restarted and not site.restarted  # cluster A had no host elsewhere
    assert any(b.resource == "restart" for b in site.new_breaches)
    assert rep.survives  # host failures are another question
    only = analysis.host_failure(sited(True), ["h0"], evaluate=toy_run)
    assert not only.sites  # hosts asked for: no sites unless asked
    with pytest.raises(DesignError, match="no site with that id"):
        analysis.host_failure(sited(True), [], sites=["h0"], evaluate=toy_run)
