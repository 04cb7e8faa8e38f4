"""One answer everywhere: a knob moved on a running engine gives what a fresh evaluation of the
moved design gives (the consolidation counts exactly, every figure to 1e-6), on every bundled
example and on an imported estate, whatever was evaluated before."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from models.core.compiled import compile_design
from models.core.prediction import Prediction
from models.document.design import Design, apply_overrides, parse_assignment
from models.document.knobs import Knob, knobs_for
from models.engine.evaluation import Engine, run
from models.examples import bundled as examples
from models.io.importers.rvtools import import_rvtools
from tests.estates import estate, write_xlsx

FIGURES = ("iops", "storage_mbps", "latency_ms", "p95_latency_ms", "cpu_util", "net_gbps",
           "ft_logging_mbps", "ft_latency_add_ms", "ft_throughput_ratio", "txn_per_s",
           "cpu_cores")


def ends(k: Knob) -> list[str]:
    """Two values of a knob far apart: its first and last choices, or 20% and 80% of its
    range."""
    if k.choices is not None:
        return [str(k.choices[0]), str(k.choices[-1])]
    lo = k.min if k.min is not None else 0.0
    hi = k.max if k.max is not None else 1.0
    out = [lo + (hi - lo) * f for f in (0.2, 0.8)]
    return [str(round(v)) if k.spec.type == "int" else repr(v) for v in out]


def assert_same(a: Prediction, b: Prediction, what: str) -> None:
    assert a.consolidation == b.consolidation, what
    for name in FIGURES:
        np.testing.assert_allclose(getattr(a.vms, name), getattr(b.vms, name), rtol=1e-6,
                                   atol=1e-9, err_msg=f"{what}: {name}")
    np.testing.assert_allclose(a.hosts.cpu_util, b.hosts.cpu_util, rtol=1e-6, atol=1e-9,
                               err_msg=what)
    np.testing.assert_allclose(a.hosts.memory_util, b.hosts.memory_util, rtol=1e-6,
                               atol=1e-9, err_msg=what)
    np.testing.assert_allclose(a.arrays.util, b.arrays.util, rtol=1e-6, atol=1e-9,
                               err_msg=what)
    cap_a, cap_b = a.sections.capacity, b.sections.capacity
    assert (cap_a is None) == (cap_b is None), what
    if cap_a is not None and cap_b is not None:
        assert [(g.hosts_needed, g.binding) for g in cap_a.clusters] == [
            (g.hosts_needed, g.binding) for g in cap_b.clusters], what


def check_every_knob(design: Design) -> None:
    engine = Engine(design)
    engine.evaluate()
    for k in knobs_for(design):
        for raw in ends(k):
            ov = parse_assignment(design, f"{k.path}={raw}")
            engine.patch(ov)
            moved = engine.evaluate()
            fresh = run(compile_design(engine.compiled.current_design()))
            assert_same(moved, fresh, f"{k.path}={raw}")
            # and back: the engine's history is no part of the answer
        engine = Engine(design)
        engine.evaluate()


@pytest.mark.parametrize("name", examples.names())
def test_a_moved_knob_gives_a_fresh_evaluations_answer(name: str) -> None:
    check_every_knob(examples.load(name))


@pytest.mark.slow
def test_an_imported_estate_gives_one_answer_too(tmp_path: Path) -> None:
    design, _ = import_rvtools(write_xlsx(tmp_path / "e.xlsx", estate(8, 120, seed=5).sheets))
    check_every_knob(design)


def test_a_move_and_a_move_back_is_the_start() -> None:
    design = examples.load("dense-web-farm")
    engine = Engine(design)
    start = engine.evaluate()
    for raw in ("1", "200", "31"):
        engine.patch(parse_assignment(design, f"vm.workload.req_per_s={raw}"))
        engine.evaluate()
    engine.patch(parse_assignment(design, "vm.workload.req_per_s=31"))
    again = engine.evaluate()
    fresh = run(compile_design(apply_overrides(
        design, [parse_assignment(design, "vm.workload.req_per_s=31")])))
    assert_same(again, fresh, "req_per_s=31")
    assert start.consolidation.binding is not None
