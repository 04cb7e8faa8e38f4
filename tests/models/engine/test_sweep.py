"""Knob sweeps: the values each kind of sweep visits, and predictions along a sweep that equal
evaluating each value from scratch (the command line, the knob curve, its band and the
document all run this one implementation: tests/app/cli/test_design.py compares them)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from models.core.prediction import Prediction
from models.document.design import (
    Design,
    DesignError,
    Override,
    apply_overrides,
    apply_scenario,
    make_override,
)
from models.document.knobs import knob
from models.engine.evaluation import Engine, evaluate, evaluate_bands
from models.engine.sweep import (
    CURVE_POINTS,
    KnobScale,
    SweepError,
    curve_values,
    iter_sweep,
    range_values,
    run_steps,
    sweep,
    sweep_bands,
    sweep_overrides,
    zoom_values,
)
from models.examples import bundled as examples

OIO = "vm.workload.io_oio"


def test_log_scale_covers_the_knobs_range() -> None:
    k = knob(OIO)
    assert k is not None
    m = KnobScale(k)
    assert m.log
    assert m.to_value(0) == 1
    assert m.to_value(m.positions) == 256
    values = [m.to_value(p) for p in range(m.positions + 1)]
    assert values == sorted(values)
    assert all(m.to_value(m.to_pos(v)) == v for v in values)
    lin = knob("vm.workload.io_read_pct")
    assert lin is not None
    m2 = KnobScale(lin)
    assert not m2.log and m2.positions == 20 and m2.to_value(10) == 50


def test_curve_values_follow_the_knobs_scale() -> None:
    k = knob(OIO)
    assert k is not None
    values = curve_values(k)
    assert values[0] == 1 and values[-1] == 256 and len(values) <= CURVE_POINTS
    nums = [float(v) for v in values if isinstance(v, (int, float))]
    assert nums == sorted(nums) and len(set(nums)) == len(values)
    ft = knob("vm.ft")
    assert ft is not None and curve_values(ft) == [False, True]
    raid = knob("storage_array.raid")
    assert raid is not None and curve_values(raid) == list(raid.spec.choices or ())


def test_range_values_step_as_the_knob_does(example: Design) -> None:
    assert range_values(OIO, 1, 64, 7) == [1, 2, 4, 8, 16, 32, 64]  # a log knob
    assert range_values(OIO, 1, 64, 7, log=False) == [1, 12, 22, 32, 43, 54, 64]  # 32.5: to even
    assert range_values(OIO, 64, 1, 7) == [64, 32, 16, 8, 4, 2, 1]
    assert range_values(OIO, 1, 4, 50) == [1, 2, 3, 4]  # whole I/Os, each once
    # through a selector, the knob of the selected kind (and so its log scale)
    assert range_values("id:v1.workload.io_oio", 1, 64, 7, design=example) == [
        1, 2, 4, 8, 16, 32, 64]
    assert range_values("vm.vaio_filter", None, None, 11) == ["none", "null", "cache",
                                                              "replication"]
    assert range_values("vm.ft", None, None, 11) == [False, True]
    assert range_values("nic.speed_gbps", 1, 40, 5) == [1.0, 10.0, 25.0, 40.0]  # the set
    assert range_values("vm.workload.io_read_pct", 0, 100, 3) == [0.0, 50.0, 100.0]


@pytest.mark.parametrize(("args", "problem"), [
    ((OIO, None, None, 5), "bounds"),
    ((OIO, 1, 10, 0), "steps"),
    ((OIO, 1, 10, 100_001), "steps"),
    ((OIO, 0, 10, 5), "log"),
    ((OIO, -1, 10, 5, True), "log"),
])
def test_range_values_refuse_what_cannot_be_swept(args: tuple[object, ...],
                                                  problem: str) -> None:
    with pytest.raises(SweepError) as err:
        range_values(*args)  # type: ignore[arg-type]
    assert err.value.problem == problem


def test_zoom_values_only_for_early_saturation_on_linear_knobs() -> None:
    req, oio = knob("vm.workload.req_per_s"), knob(OIO)
    assert req is not None and oio is not None
    values = curve_values(req)
    late = np.array([1.0] * (len(values) - 2) + [np.nan, np.nan])
    assert zoom_values(req, values, late) is None  # saturates late: the full range is fine
    early = np.array([1.0, 1.0, 1.0] + [np.nan] * (len(values) - 3))
    zoomed = zoom_values(req, values, early)
    assert zoomed is not None and zoomed[0] == values[0] and zoomed[-1] == values[3]
    assert len(zoomed) == CURVE_POINTS
    assert zoom_values(oio, curve_values(oio), early) is None  # log knob: never
    assert zoom_values(req, values, np.ones(len(values))) is None


@pytest.mark.parametrize("path", [OIO, "id:v1.workload.io_oio", "tag:other-vms.workload.io_oio"])
def test_overrides_are_make_overrides(example: Design, path: str) -> None:
    select, prop = path.rsplit(".workload.", 1)[0], "workload.io_oio"
    values = [1, 8.0, 64]
    assert sweep_overrides(example, path, values) == [
        make_override(example, select, prop, v) for v in values]
    assert sweep_overrides(example, path, []) == []


def test_a_bad_value_is_named_before_anything_runs(example: Design) -> None:
    with pytest.raises(DesignError) as err:
        sweep(example, None, OIO, [1, 8, -3, 99])
    expected = make_override_error(example, "vm", "workload.io_oio", -3)
    assert str(err.value) == expected
    with pytest.raises(DesignError, match="no such property"):
        sweep(example, None, "vm.nope", [1])


def make_override_error(design: Design, select: str, prop: str, value: object) -> str:
    try:
        make_override(design, select, prop, value)
    except DesignError as err:
        return str(err)
    raise AssertionError("expected a DesignError")


def test_a_sweep_equals_evaluating_each_value_from_scratch() -> None:
    design = examples.load("vaio-scaling")
    values = [1, 4, 32]
    preds = sweep(design, "iofilter", OIO, values)
    base = apply_scenario(design, "iofilter")
    for v, p in zip(values, preds, strict=True):
        fresh = evaluate(apply_overrides(base, [Override("vm", "workload.io_oio", v)]))
        # the same within the solver's tolerance (a patched engine starts warm)
        assert figures(p) == pytest.approx(figures(fresh), rel=1e-6)
    assert design.of_kind("vm")[0].get("workload.io_oio") == 128  # the design is untouched


def test_a_curve_keeps_one_prediction_at_a_time() -> None:
    """The curve's figures are read from each prediction as it comes and the prediction
    dropped (a 50,000-VM curve that kept its 27 predictions held 400 MB)."""
    import gc  # noqa: PLC0415
    import weakref  # noqa: PLC0415

    from models.engine.metrics import latencies, series  # noqa: PLC0415

    design = examples.load("vaio-scaling")
    values = [1, 2, 4, 8, 16, 32]
    alive: list[weakref.ref[Prediction]] = []
    most = 0

    def watched() -> Iterator[Prediction]:
        nonlocal most
        for p in iter_sweep(design, "iofilter", OIO, values):
            gc.collect()
            most = max(most, sum(r() is not None for r in alive))
            alive.append(weakref.ref(p))
            yield p

    got = series(watched(), latencies, lambda q: q.total_iops)
    assert most <= 1  # the one before is gone when the next is made
    want = series(sweep(design, "iofilter", OIO, values), latencies, lambda q: q.total_iops)
    assert np.array_equal(got.times, want.times) and np.array_equal(got.throughput,
                                                                     want.throughput)


def figures(p: Prediction) -> list[float]:
    return [p.total_iops, p.mean_latency_ms, p.p95_latency_ms, p.ft_logging_mbps,
            p.consolidation.vms_per_host]


def test_steps_carry_values_summaries_and_bands() -> None:
    design = examples.load("vaio-scaling")
    engine = Engine(design, "iofilter")
    overrides = sweep_overrides(design, OIO, [1, 64])
    steps = list(run_steps(engine, overrides, detail=False, bands=True))
    assert [s.value for s in steps] == [1, 64]
    rows = [s.to_dict() for s in steps]
    assert list(rows[0]) == ["value", "summary", "bands"]
    lo, hi = rows[1]["bands"]["summary.total_iops"]
    assert lo <= rows[1]["summary"]["total_iops"] <= hi
    assert rows[1]["bands"]["sources"] == ["storage-vaio-cpu-per-kiops-overhead"]
    plain = next(run_steps(Engine(design), overrides[:1], detail=False)).to_dict()
    assert list(plain) == ["value", "summary"]


def test_band_sweep_equals_the_bands_of_each_value() -> None:
    design = examples.load("vaio-scaling")
    bands = list(sweep_bands(design, "iofilter", OIO, [2, 16]))
    preds = sweep(design, "iofilter", OIO, [2, 16])
    for b, p, v in zip(bands, preds, [2, 16], strict=True):
        assert b.runs[0].summary_dict() == p.summary_dict()
        engine = Engine(design, "iofilter")
        engine.patch(Override("vm", "workload.io_oio", v))
        alone = evaluate_bands(engine)
        assert list(b.summary) == list(alone.summary)
        for key, (lo, hi) in b.summary.items():
            assert (lo, hi) == pytest.approx(alone.summary[key], rel=1e-6)
