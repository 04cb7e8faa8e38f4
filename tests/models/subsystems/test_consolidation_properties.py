"""Invariants of the consolidation model over random web-farm and mixed designs."""

from __future__ import annotations

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from models.core.compiled import compile_design
from models.core.prediction import SATURATED_MS
from models.core.results import ConsolidationResult
from models.document.design import Component, Design, Link, Override
from models.subsystems import consolidation as con
from tests.models.subsystems.test_consolidation import build, results

SETTINGS = settings(max_examples=50, deadline=None)


@st.composite
def designs(draw: st.DrawFn) -> Design:
    d = build(draw(st.integers(0, 400)), req_per_s=draw(st.floats(0.0, 200.0)),
              vcpus=draw(st.integers(1, 8)), sockets=draw(st.integers(1, 4)),
              cores_per_socket=draw(st.integers(1, 24)), ghz=draw(st.floats(1.0, 4.0)),
              hyperthreading=draw(st.booleans()), dense=draw(st.booleans()),
              host_memory_gb=draw(st.floats(16.0, 2048.0)), n_hosts=draw(st.integers(1, 4)))
    two = d.component("h1") is not None
    for v in range(draw(st.integers(0, 30))):
        profile = draw(st.sampled_from(["oltp", "cpu_bound", "idle", "iometer"]))
        d.components.append(Component(f"x{v}", "vm", props={
            "vcpus": draw(st.integers(1, 16)), "workload.profile": profile,
            "workload.cpu_pct": draw(st.floats(0.0, 100.0)), "workload.io_oio": 0,
            "ft": v == 0 and two}))
        d.links.append(Link(f"x{v}", "h0", "runs_on"))
        if v == 0 and two:
            d.links.append(Link("x0", "h1", "ft_secondary_on"))
    d.policy["p95_ms_max"] = draw(st.floats(50.0, 1000.0))
    d.policy["cpu_util_max"] = draw(st.floats(0.5, 1.0))
    return d


def run(d: Design, sto: float = 0.0, net: float = 0.0) -> ConsolidationResult:
    c = compile_design(d)
    return con.solve(c, *results(c, sto, net))


def _finite_nonneg(x: np.ndarray) -> bool:
    return bool(np.all(np.isfinite(x)) and np.all(x >= 0))


@SETTINGS
@given(designs(), st.floats(0.0, 2.0), st.floats(0.0, 2.0))
def test_no_nan_inf_or_negative(d: Design, sto: float, net: float) -> None:
    r = run(d, sto, net)
    for arr in (r.vm_cpu_util, r.host_cpu_util, r.host_memory_util):
        assert _finite_nonneg(arr)
    web = ~np.isnan(r.vm_response_ms)
    assert _finite_nonneg(r.vm_response_ms[web]) and _finite_nonneg(r.vm_response_p95_ms[web])
    assert np.all(r.vm_response_p95_ms[web] <= SATURATED_MS)
    assert np.all(r.vm_response_p95_ms[web] >= r.vm_response_ms[web] * (1 - 1e-9))
    assert np.all(r.vm_cpu_util <= 1.0 + 1e-12) and np.all(r.host_cpu_util <= 1.0)
    k = r.consolidation
    for v in (k.max_vms_per_host_by_cpu, k.max_vms_per_host_by_p95, k.hosts_needed):
        assert v is None or v >= 0
    assert all(x.util >= 0 and np.isfinite(x.util) for x in r.resources)


@SETTINGS
@given(designs(), st.floats(1.01, 3.0))
def test_more_load_never_lowers_response_time(d: Design, factor: float) -> None:
    c = compile_design(d)
    assume(len(c.vm) > 0)
    before = con.solve(c, *results(c))
    rate = float(c.vm.cols["workload.req_per_s"][0])
    c.patch(Override("vm", "workload.req_per_s", min(rate * factor, 1.0e7)))
    after = con.solve(c, *results(c))
    web = ~np.isnan(before.vm_response_ms)
    # dense mode may switch on with the extra load and lower the CPU cost: compare like hosts
    same = (before.host_dense_active == after.host_dense_active)[np.maximum(c.vm_host, 0)]
    m = web & same
    assert np.all(after.vm_response_ms[m] >= before.vm_response_ms[m] * (1 - 1e-9))
    assert np.all(after.vm_response_p95_ms[m] >= before.vm_response_p95_ms[m] * (1 - 1e-9))


@SETTINGS
@given(designs(), st.integers(1, 16))
def test_more_cores_never_lower_max_vms_by_cpu(d: Design, extra: int) -> None:
    before = run(d).consolidation.max_vms_per_host_by_cpu
    for comp in d.of_kind("host"):
        comp.props["cores_per_socket"] = int(comp.get("cores_per_socket") or 1) + extra
    after = run(d).consolidation.max_vms_per_host_by_cpu
    assert (before is None) == (after is None)
    if before is not None and after is not None:
        assert after >= before


@SETTINGS
@given(designs())
def test_dense_mode_never_hurts(d: Design) -> None:
    for comp in d.of_kind("host"):
        comp.props["dense_mode"] = False
    off = run(d)
    for comp in d.of_kind("host"):
        comp.props["dense_mode"] = True
    on = run(d)
    assert np.all(on.host_cpu_util <= off.host_cpu_util + 1e-12)
    web = ~np.isnan(off.vm_response_ms)
    assert np.all(on.vm_response_p95_ms[web] <= off.vm_response_p95_ms[web] * (1 + 1e-9))
    for a, b in ((on.consolidation.max_vms_per_host_by_cpu,
                  off.consolidation.max_vms_per_host_by_cpu),
                 (on.consolidation.max_vms_per_host_by_p95,
                  off.consolidation.max_vms_per_host_by_p95)):
        assert (a is None) == (b is None)
        if a is not None and b is not None:
            assert a >= b
