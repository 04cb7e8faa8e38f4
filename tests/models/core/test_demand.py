"""Demand against today's (design.demand.*): an imported estate's own figures moved by one
factor, never set to one value; the same answer as a year of growth at that rate, compiled or
patched, in the file under 'demand', and through the session's edit and its inverse."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from models.document.codec import design_to_dict, parse_design
from models.document.design import Design, DesignError, Override
from models.engine.evaluation import Engine, evaluate
from models.session.session import Session
from tests import measured_estate


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Design:
    """A generated RVTools export of 8 hosts and 114 running VMs, imported: every VM measured,
    each with its own CPU share."""
    return measured_estate.imported(tmp_path_factory.mktemp("e"))


def _cpu(design: Design) -> np.ndarray:
    return np.asarray(evaluate(design).hosts.cpu_util, dtype=float)


def test_plus_20_percent_is_each_vms_own_demand_times_1_2(imported: Design) -> None:
    """Host CPU moves as the VMs' demand x 1.2 (plus what does not scale: the hypervisor's
    own share), where one value on every VM flattened them; no VM's figure is rewritten."""
    shares = [v.props.get("workload.cpu_pct") for v in imported.of_kind("vm")]
    assert len(set(shares)) > 50  # each VM its own measured share
    today = _cpu(imported)
    d = imported.copy()
    d.policy["demand.cpu_pct"] = 20.0
    up = _cpu(d)
    ratio = up / today
    assert np.all(ratio > 1.15) and np.all(ratio <= 1.2 + 1e-9)
    assert [v.props.get("workload.cpu_pct") for v in d.of_kind("vm")] == shares
    flat = imported.copy()
    for v in flat.of_kind("vm"):
        v.props["workload.cpu_pct"] = 19.0
    assert not np.allclose(_cpu(flat) / today, ratio, rtol=0.05)  # what the old knob did


def test_a_demand_change_is_a_year_of_growth_at_that_rate(imported: Design) -> None:
    """One answer: demand +20 % today gives the figures of 20 % a year at year 1, and the two
    multiply (year 2 of 10 % on top of +20 %)."""
    a = imported.copy()
    a.policy.update({"demand.cpu_pct": 20.0, "demand.memory_pct": 10.0})
    b = imported.copy()
    b.policy.update({"growth.cpu_pct": 20.0, "growth.memory_pct": 10.0, "growth.year": 1.0})
    pa, pb = evaluate(a), evaluate(b)
    assert list(pa.hosts.cpu_util) == pytest.approx(list(pb.hosts.cpu_util))
    assert list(pa.hosts.memory_util) == pytest.approx(list(pb.hosts.memory_util))
    c = imported.copy()
    c.policy.update({"demand.cpu_pct": 20.0, "growth.cpu_pct": 10.0, "growth.year": 2.0})
    e = imported.copy()
    e.policy.update({"growth.cpu_pct": 10.0, "growth.year": 2.0})
    grown = np.asarray(evaluate(e).hosts.cpu_util) - _cpu(imported)
    both = np.asarray(evaluate(c).hosts.cpu_util) - _cpu(imported)
    # the VMs' part of the host's CPU: (1.2 x 1.21 - 1) against (1.21 - 1)
    assert both == pytest.approx(grown * (1.2 * 1.21 - 1) / 0.21, rel=1e-6)


def test_patched_is_compiled_and_back_to_zero_is_as_measured(imported: Design) -> None:
    engine = Engine(imported)
    today = engine.evaluate()
    engine.patch(Override("design", "demand.cpu_pct", 35.0))
    patched = engine.evaluate()
    d = imported.copy()
    d.policy["demand.cpu_pct"] = 35.0
    assert list(patched.hosts.cpu_util) == pytest.approx(list(evaluate(d).hosts.cpu_util))
    engine.patch(Override("design", "demand.cpu_pct", 0.0))
    assert list(engine.evaluate().hosts.cpu_util) == pytest.approx(list(today.hosts.cpu_util))
    # a value set today (the Inspector's, one VM) is moved like the others
    engine.patch(Override("design", "demand.cpu_pct", 50.0))
    vm = imported.of_kind("vm")[0]
    engine.patch(Override(f"id:{vm.id}", "workload.cpu_pct", 10.0))
    col = engine.compiled.tables["vm"].cols["workload.cpu_pct"]
    assert col[engine.compiled.vm.index[vm.id]] == pytest.approx(15.0)


def test_the_file_keeps_them_under_demand(tmp_path: Path) -> None:
    d = Design(name="x", policy={"demand.cpu_pct": 20.0, "growth.year": 2.0,
                                  "cpu_util_max": 0.8})
    doc = design_to_dict(d)
    assert doc["demand"] == {"cpu_pct": 20.0} and doc["growth"] == {"year": 2.0}
    assert doc["policy"] == {"cpu_util_max": 0.8}
    back = parse_design(doc)
    assert back.policy == d.policy
    with pytest.raises(DesignError, match="demand"):
        parse_design({**doc, "demand": {"cpu_pct": 900}})  # past +500 %


def test_the_knobs_edit_is_one_value_and_its_inverse_restores(imported: Design) -> None:
    """The session's set_values on the design: one SetValues, its inverse the old value; the
    VMs' own figures are never in the edit."""
    s = Session(imported.copy())
    before, _ = s.evaluate()
    shares = [v.props.get("workload.cpu_pct") for v in s.design.of_kind("vm")]
    edit = s.set_values(["design"], "demand.cpu_pct", 25.0)
    assert edit.selects == ("design",) and edit.value == 25.0
    inverse, _ = s.apply(edit)
    up, _ = s.evaluate()
    assert np.nanmean(up.hosts.cpu_util) > np.nanmean(before.hosts.cpu_util) * 1.2
    assert s.value("design", "demand.cpu_pct") == 25.0
    s.apply(inverse)
    back, _ = s.evaluate()
    assert list(back.hosts.cpu_util) == pytest.approx(list(before.hosts.cpu_util))
    assert [v.props.get("workload.cpu_pct") for v in s.design.of_kind("vm")] == shares
    assert "demand.cpu_pct" not in s.design.policy
