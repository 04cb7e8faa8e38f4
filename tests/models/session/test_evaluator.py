"""The evaluator follows the editor: a value write patches the compiled design, a change of
structure compiles it again, and either way the prediction equals a fresh evaluation."""

from __future__ import annotations

import pytest

from models.document.design import Component
from models.engine.evaluation import evaluate
from models.examples import bundled as examples
from models.session.session import Session


@pytest.fixture
def session() -> Session:
    return Session(examples.load(examples.DEFAULT_EXAMPLE))


def test_a_value_edit_patches_the_engine_and_structure_rebuilds_it(session: Session) -> None:
    session.evaluate()
    engine = session.evaluator.engine
    session.apply(session.set_values(["vm"], "workload.io_oio", 8))
    assert session.evaluator.engine is engine  # patched in place
    low, _ = session.evaluate()
    assert low.total_iops == pytest.approx(evaluate(session.design).total_iops, rel=1e-6)
    session.apply(session.add_components([Component("h2", "host")]))
    assert session.evaluator.engine is None  # compiled again at the next evaluation
    again, _ = session.evaluate()
    assert again.total_iops == pytest.approx(low.total_iops)


def test_a_scenario_write_patches_its_engine_and_keeps_the_base_one(session: Session) -> None:
    session.apply(session.add_scenario("deep"))
    session.set_scenario("deep")
    session.evaluate()
    engine, base_engine = session.evaluator.engine, session.evaluator.base_engine
    session.apply(session.set_values(["vm"], "workload.io_oio", 64))
    deep, base = session.evaluate()
    assert session.evaluator.engine is engine and session.evaluator.base_engine is base_engine
    assert deep.total_iops == pytest.approx(evaluate(session.design, "deep").total_iops,
                                            rel=1e-6)
    assert base.total_iops == pytest.approx(evaluate(session.design).total_iops, rel=1e-6)
    assert deep.total_iops != pytest.approx(base.total_iops)


def test_a_base_write_under_a_scenario_compiles_both_again(session: Session) -> None:
    """An undo of a base edit made before switching writes the base design under the
    scenario's overrides: neither engine can follow in place."""
    inverse, _ = session.apply(session.set_values(["vm"], "workload.io_oio", 8))
    session.apply(session.add_scenario("deep"))
    session.set_scenario("deep")
    session.evaluate()
    session.apply(inverse)
    assert session.evaluator.engine is None and session.evaluator.base_engine is None
    deep, _ = session.evaluate()
    assert deep.total_iops == pytest.approx(evaluate(session.design, "deep").total_iops)


def test_switching_scenario_evaluates_the_new_one(session: Session) -> None:
    session.apply(session.add_scenario("deep", []))
    first, _ = session.evaluate()
    session.apply(session.set_values(["vm"], "workload.io_oio", 2))
    session.set_scenario("deep")
    deep, base = session.evaluate()
    assert deep.scenario == "deep" and base.scenario == "base"
    session.set_scenario("base")
    again, same = session.evaluate()
    assert again is same and again.scenario == "base" and first.scenario == "base"
