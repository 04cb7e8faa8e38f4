"""An estate's storage load kept whole (issue 36 item 3): the I/O a host recorded beyond its
VMs' is its background I/O; recorded latency is compared like with like; where the model's
array disagrees with its VMs' record the check says by how much and offers a fit that
changes nothing until asked."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from models.analysis import baseline, latency
from models.analysis.failure import fail_host
from models.analysis.resize import resize
from models.document.codec import design_to_json
from models.document.design import Component, Design, Link
from models.engine.evaluation import evaluate


def estate(host: dict[str, Any] | None = None, vm: dict[str, Any] | None = None,
           hosts: int = 1) -> Design:
    """``hosts`` hosts of one cluster reaching one array; on the first a measured VM (500
    IOPS, 70 % reads of 16 KB, 4 ms average and 30 ms peak latency) and a VM whose I/O is not
    measured; the first host recorded 900 IOPS, 60 % reads of 12 KB."""
    d = Design(name="background")
    d.components.append(Component("c1", "cluster", "prod"))
    for k in range(hosts):
        d.components.append(Component(f"h{k + 1}", "host", f"esx0{k + 1}", props={
            "measured.cpu_pct": 20.0, "measured.memory_pct": 30.0,
            **({"measured.iops": 900.0, "measured.read_pct": 60.0, "measured.io_kb": 12.0,
                "provenance.measured": "Live Optics test"} if k == 0 else {}),
            **((host or {}) if k == 0 else {})}))
        d.links += [Link(f"h{k + 1}", "c1", "in_cluster"), Link(f"h{k + 1}", "a1", "storage")]
    d.components += [
        Component("a1", "storage_array", "vnx", props={"media": "ssd", "disks": 8}),
        Component("v1", "vm", "sql01", props={
            "vcpus": 4, "memory_gb": 16.0, "workload.profile": "measured",
            "measured.cpu_mhz": 2000.0, "measured.iops": 500.0, "measured.read_pct": 70.0,
            "measured.io_kb": 16.0, "measured.latency_ms": 4.0,
            "measured.latency_peak_ms": 30.0, **(vm or {})}),
        Component("v2", "vm", "app01", props={"vcpus": 2, "memory_gb": 8.0,
                                              "workload.profile": "measured"}),
    ]
    d.links += [Link("v1", "h1", "runs_on"), Link("v2", "h1", "runs_on"),
                Link("v1", "a1", "disk_on"), Link("v2", "a1", "disk_on")]
    return d


def test_a_hosts_io_beyond_its_vms_is_its_background_io() -> None:
    d = estate()
    result = baseline.calibrate(d)
    h = d.component("h1")
    assert h is not None
    assert h.props["background.iops"] == pytest.approx(400.0)
    # 540 reads of 900 recorded, 350 of them the VM's: 190 of 400; 10,800 KB/s less 8,000
    assert h.props["background.read_pct"] == pytest.approx(47.5)
    assert h.props["background.io_kb"] == pytest.approx(7.0)
    why = str(h.props["provenance.background"])
    assert why.startswith("solved: host esx01's recorded 900 IOPS less its VMs' measured 500:"
                          " 400 IOPS of its own (the hypervisor's I/O, 1 VM whose own I/O is"
                          " not measured)") and "(Live Optics test)" in why
    pred = evaluate(d)
    assert pred.total_iops == pytest.approx(900.0)
    assert pred.arrays.iops[0] == pytest.approx(900.0)
    row = result.hosts[0]
    assert row.iops_predicted == pytest.approx(900.0) and row.background_iops == 400.0
    lines = result.lines()
    assert any(s.startswith("  host IOPS    median 0% off, 900 predicted vs 900 recorded")
               for s in lines)
    assert any(s.startswith("  background I/O 400 IOPS on 1 host (esx01 400)") for s in lines)
    assert any("IOPS 900 vs 900 (400 background)" in s for s in lines)
    doc = result.to_dict()
    assert doc["hosts"][0]["background_iops"] == 400.0
    json.dumps(doc, allow_nan=False)
    # solved again from the record, never on top of the last one
    again = baseline.calibrate(d)
    assert d.component("h1").props["background.iops"] == pytest.approx(400.0)  # type: ignore
    assert again.lines() == lines


def test_vms_over_the_hosts_record_leave_no_background_and_say_so() -> None:
    d = estate()
    baseline.calibrate(d)
    d.component("h1").props["measured.iops"] = 300.0  # type: ignore[union-attr]
    result = baseline.calibrate(d)  # the old background goes
    h = d.component("h1")
    assert h is not None and "background.iops" not in h.props
    assert "provenance.background" not in h.props
    assert any("1 host whose VMs' measured IOPS add up to more than the host recorded (x1.67"
               in s for s in result.lines())
    assert evaluate(d).total_iops == pytest.approx(500.0)


def test_a_host_that_recorded_no_mix_gives_its_background_its_vms_mix() -> None:
    d = estate({"measured.read_pct": None, "measured.io_kb": None})
    for k in ("measured.read_pct", "measured.io_kb"):
        d.component("h1").props.pop(k)  # type: ignore[union-attr]
    baseline.calibrate(d)
    h = d.component("h1")
    assert h is not None
    assert h.props["background.read_pct"] == pytest.approx(70.0)
    assert h.props["background.io_kb"] == pytest.approx(16.0)


def test_latency_is_compared_like_with_like() -> None:
    d = estate()
    result = baseline.calibrate(d)
    pred = evaluate(d)
    vm = result.vms[0]
    assert vm.latency_recorded == 4.0 and vm.peak_recorded == 30.0
    assert vm.latency_predicted == pytest.approx(float(pred.vms.latency_ms[0]))
    assert vm.p95_predicted == pytest.approx(float(pred.vms.p95_latency_ms[0]))
    stats = result.vm_stats()
    assert stats["latency_median_ms"] == pytest.approx(abs(float(pred.vms.latency_ms[0]) - 4.0))
    assert stats["peak_latency_median_ms"] == pytest.approx(
        abs(float(pred.vms.p95_latency_ms[0]) - 30.0))
    lines = result.lines()
    assert any(s.startswith("  VM latency   average: median") for s in lines)
    assert any(s.startswith("  VM latency   peak: median") and "p95 against the recorded peak"
               in s for s in lines)
    assert result.to_dict()["vms"][0]["peak_latency_ms_recorded"] == 30.0


def test_an_array_that_disagrees_is_offered_a_fit_and_only_a_fit_asked_for_changes_it(
        ) -> None:
    d = estate()
    result = baseline.calibrate(d)
    row = result.arrays[0]
    assert row.recorded_ms == 4.0 and row.predicted_ms < 1.0 and row.disagrees
    lines = result.lines()
    start = lines.index(next(s for s in lines if s.startswith("  array latency: ")
                             and s.endswith(" differ on 1 array:")))
    assert lines[start + 1].startswith("    vnx: the model's 0.")
    assert "ms vs 4.00 ms recorded" in lines[start + 1]
    assert "--storage fits each one's drive service time" in lines[start + 2]
    before = design_to_json(d)
    fit = latency.fit(d)
    assert design_to_json(d) == before  # the offer, and the fit itself, change nothing
    (f,) = fit.fitted
    assert f.disk_iops[0] == 75_000.0 and f.disk_iops[1] < 75_000.0
    assert f.latency_ms == pytest.approx(4.0, rel=1e-3)
    latency.apply(d, fit)
    assert d.component("a1").props["disk_iops"] == f.disk_iops[1]  # type: ignore[union-attr]
    after = baseline.check(d)
    assert after.arrays[0].predicted_ms == pytest.approx(4.0, rel=1e-3)
    assert not any(s.startswith("  array latency") for s in after.lines())
    assert latency.fit(d).lines()[0].startswith("storage: every array's model meets")


def test_a_record_below_the_models_path_is_not_fitted() -> None:
    d = estate({}, {"measured.io_kb": 1024.0, "measured.latency_ms": 5.0})
    d.component("a1").props["fabric_gbps"] = 0.1  # type: ignore[union-attr]
    result = baseline.calibrate(d)  # 1 MB over a 0.1 Gbit/s link: tens of ms on the HBA
    assert result.arrays[0].predicted_ms > 20.0 and result.arrays[0].disagrees
    fit = latency.fit(d)
    assert not fit.fitted
    (row, why), = fit.left
    assert row.id == "a1" and why.startswith("its recorded 5.00 ms is below the model's")
    assert any(s.startswith("  vnx: not fitted: its recorded 5.00 ms") for s in fit.lines())


def test_what_ifs_keep_the_background_io() -> None:
    d = estate(hosts=3)
    baseline.calibrate(d)
    total = evaluate(d).total_iops
    out, res = fail_host(copy.deepcopy(d), "h1")
    assert evaluate(out).total_iops == pytest.approx(total, rel=1e-6)
    assert any("esx01's background I/O (400 IOPS) restarts spread over 2 hosts" in n
               for n in res.notes)
    grown, _ = resize(d, {"c1": 6})
    assert evaluate(grown).total_iops == pytest.approx(total, rel=1e-6)
    assert sum(float(str(h.props.get("background.iops", 0))) for h in
               grown.of_kind("host")) == pytest.approx(400.0)
