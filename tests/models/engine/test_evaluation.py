from __future__ import annotations

import numpy as np
import pytest

from models.core.compiled import compile_design
from models.core.prediction import Prediction
from models.document.design import Override, apply_overrides, parse_assignment
from models.document.knobs import knobs_for
from models.engine.evaluation import Engine, evaluate, run
from models.examples import bundled as examples
from models.examples.synth import large_design


def test_patch_then_evaluate_equals_fresh_evaluation() -> None:
    design = large_design(60, 4, 2)
    ov = Override("vm", "workload.io_oio", 17)
    engine = Engine(design)
    engine.evaluate()
    engine.patch(ov)
    patched = engine.evaluate()
    fresh = evaluate(apply_overrides(design, [ov]))
    for name in ("iops", "latency_ms", "p95_latency_ms", "cpu_util", "net_gbps"):
        np.testing.assert_allclose(getattr(patched.vms, name), getattr(fresh.vms, name),
                                   rtol=1e-6, atol=1e-9, err_msg=name)
    a, b = patched.summary_dict(), fresh.summary_dict()
    assert a["consolidation"] == b["consolidation"]
    a.pop("consolidation")
    b.pop("consolidation")
    assert a == pytest.approx(b)






def test_scenario_engine_starts_from_the_scenario() -> None:
    design = large_design(10, 2, 1)
    from models.document.design import Scenario  # noqa: PLC0415

    design.scenarios.append(Scenario("deep", [Override("vm", "workload.io_oio", 64)]))
    engine = Engine(design, "deep")
    assert engine.scenario == "deep"
    assert (engine.compiled.vm.cols["workload.io_oio"] == 64).all()


def test_empty_design_evaluates() -> None:
    from models.document.design import Design  # noqa: PLC0415

    doc = evaluate(Design()).to_dict()
    assert doc["vms"] == [] and doc["summary"]["total_iops"] == 0


def _same(a: Prediction, b: Prediction) -> None:
    for name in ("iops", "latency_ms", "p95_latency_ms", "cpu_util", "net_gbps",
                 "ft_logging_mbps", "ft_latency_add_ms", "ft_throughput_ratio", "txn_per_s"):
        np.testing.assert_allclose(getattr(a.vms, name), getattr(b.vms, name), rtol=1e-6,
                                   atol=1e-9, err_msg=name)
    np.testing.assert_allclose(a.hosts.cpu_util, b.hosts.cpu_util, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(a.nics.gbps, b.nics.gbps, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(a.arrays.util, b.arrays.util, rtol=1e-6, atol=1e-9)
    assert a.vms.bound_by == b.vms.bound_by
    assert a.consolidation == b.consolidation
    assert sorted(a.warnings) == sorted(b.warnings)


@pytest.mark.parametrize("name", examples.names())
def test_reused_results_equal_a_fresh_evaluation_after_every_knob(name: str) -> None:
    """The engine reuses a model's result when no column it read was patched: after any
    sequence of knob moves, its prediction equals a fresh compile of the patched design."""
    design = examples.load(name)
    engine = Engine(design)
    engine.evaluate()
    rng = np.random.default_rng(7)
    for k in knobs_for(design):
        choices = k.choices
        if choices is not None:
            raw = str(choices[int(rng.integers(len(choices)))])
        else:
            lo, hi = k.min if k.min is not None else 0.0, k.max if k.max is not None else 1.0
            raw = str(lo + (hi - lo) * float(rng.uniform(0.2, 0.8)))
            if k.spec.type == "int":
                raw = str(round(float(raw)))
        engine.patch(parse_assignment(design, f"{k.path}={raw}"))
        fresh = run(compile_design(engine.compiled.current_design()))
        _same(engine.evaluate(), fresh)


def test_summary_only_evaluation_keeps_the_summary_and_detail_comes_back() -> None:
    design = large_design(200, 8, 3)
    engine = Engine(design)
    full = engine.evaluate()
    for oio in (9, 10):
        engine.patch(Override("vm", "workload.io_oio", oio))
        lean = engine.evaluate(detail=False)
        fresh = evaluate(engine.compiled.current_design())
        a, b = lean.summary_dict(), fresh.summary_dict()
        assert a.pop("consolidation") == b.pop("consolidation")
        assert a == pytest.approx(b)
        np.testing.assert_allclose(lean.vms.latency_ms, fresh.vms.latency_ms, rtol=1e-6)
        assert len(lean.resources) < len(fresh.resources)
    # the next full evaluation rebuilds what the lean ones skipped, although no knob moved
    again = engine.evaluate()
    _same(again, evaluate(engine.compiled.current_design()))
    assert [r.component for r in again.resources] == [
        r.component for r in evaluate(engine.compiled.current_design()).resources]
    assert len(full.resources) == len(again.resources)
