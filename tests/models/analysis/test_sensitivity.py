"""Sensitivity over the growth and measured-demand knobs: a relative knob's band halves and
doubles the figures it moves (not a change of 0 % halved), and a growth knob's column is put
back after its bars, so the knobs ranked after it start from the design as it is."""

from __future__ import annotations

import pytest

from models.analysis.sensitivity import sensitivity
from models.document.design import Design
from models.document.knobs import knob
from models.engine.evaluation import evaluate
from tests import measured_estate


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Design:
    return measured_estate.imported(tmp_path_factory.mktemp("e"))


def test_a_measured_demand_bar_runs_from_half_to_twice_the_measured_figures(
        imported: Design) -> None:
    cpu = knob("design.demand.cpu_pct")
    assert cpu is not None
    s = sensitivity(imported, "host_cpu_pct", knobs=[cpu])
    (bar,) = s.knobs
    assert (bar.low, bar.high) == (-50.0, 100.0)
    base = s.baseline
    assert base * 0.5 <= bar.output_low < base < bar.output_high <= base * 2.0


def test_the_knobs_after_a_growth_knob_start_from_the_design_as_it_is(
        imported: Design) -> None:
    d = imported.copy()
    d.policy.update({"growth.cpu_pct": 15.0, "growth.year": 3.0})
    ghz, rate = knob("host.ghz"), knob("design.growth.cpu_pct")
    assert ghz is not None and rate is not None
    alone = sensitivity(d, "host_cpu_pct", knobs=[ghz]).knobs[0]
    after = sensitivity(d, "host_cpu_pct", knobs=[rate, ghz])
    again = next(k for k in after.knobs if k.path == "host.ghz")
    assert (again.output_low, again.output_high) == pytest.approx(
        (alone.output_low, alone.output_high))
    assert after.baseline == pytest.approx(
        100.0 * float(evaluate(d).hosts.cpu_util.mean()), rel=0.05)
