"""The compiled design: a patch writes a column in place (or refuses a bad value and leaves the
arrays alone), the design it came from can be replayed, and a memo recomputes only what read a
patched column."""

from __future__ import annotations

import numpy as np
import pytest

from models.core.compiled import compile_design
from models.document.design import DesignError, Override
from models.engine.evaluation import Engine
from models.examples.synth import large_design


def test_patch_rejects_bad_values_and_leaves_arrays_alone() -> None:
    engine = Engine(large_design(10, 2, 1))
    before = engine.compiled.vm.cols["workload.io_oio"].copy()
    with pytest.raises(DesignError):
        engine.patch(Override("vm", "workload.io_oio", -5))
    np.testing.assert_array_equal(engine.compiled.vm.cols["workload.io_oio"], before)


def test_current_design_replays_patches() -> None:
    design = large_design(10, 2, 1)
    engine = Engine(design)
    engine.patch(Override("id:v3", "vcpus", 6))
    engine.patch(Override("design", "policy.cpu_util_max", 0.7))
    now = engine.compiled.current_design()
    v3 = now.component("v3")
    assert v3 is not None and v3.get("vcpus") == 6
    assert now.policy_value("cpu_util_max") == 0.7
    orig = design.component("v3")
    assert orig is not None and orig.get("vcpus") == 2


def test_patch_on_a_kind_with_no_components_is_a_no_op() -> None:
    design = large_design(4, 1, 1)
    engine = Engine(design)
    engine.patch(Override("wan", "rtt_ms", 3.0))  # no wan links in this design
    assert engine.evaluate().vms.ids == [f"v{i}" for i in range(4)]


def test_a_memo_recomputes_only_when_a_column_it_read_moves() -> None:
    c = compile_design(large_design(10, 2, 1))
    c.reuse = True
    calls: list[str] = []

    def oio() -> float:
        calls.append("oio")
        return float(c.vm.cols["workload.io_oio"].sum())

    first = c.memo("oio", oio)
    assert c.memo("oio", oio) == first and calls == ["oio"]
    c.patch(Override("vm", "vcpus", 4))  # a column it did not read
    c.memo("oio", oio)
    assert calls == ["oio"]
    c.patch(Override("vm", "workload.io_oio", 9))
    assert c.memo("oio", oio) == 9.0 * len(c.vm) and calls == ["oio", "oio"]


def test_isolated_runs_leave_no_trace() -> None:
    c = compile_design(large_design(10, 2, 1))
    c.reuse = True
    c.cache["kept"] = 1
    with c.isolated():
        c.cache["scratch"] = 2
        c.memo("x", lambda: 3)
    assert c.cache == {"kept": 1} and c.reuse
