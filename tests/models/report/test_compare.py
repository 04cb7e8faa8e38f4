"""Scenario comparison: every scenario judged against the base with the KPI's direction."""

from __future__ import annotations

import pytest

from models.engine.kpis import KPI_BY_KEY
from models.examples import bundled as examples
from models.report.compare import RESOLUTION, best, compare, judge


def test_a_scenario_that_costs_iops_reads_worse_with_the_right_sign() -> None:
    cmp = compare(examples.load("vaio-scaling"))
    assert [c.name for c in cmp.columns][:3] == ["base", "iofilter", "1 VM"]
    row = cmp.row("total_iops")
    assert row is not None
    one_vm = row.cells[2]
    assert one_vm.change == "worse" and one_vm.delta is not None and one_vm.delta < 0
    assert one_vm.rel == pytest.approx(41_667 / 75_000 - 1, abs=0.01)
    assert row.cells[1].change == "same"  # the filter costs CPU, not IOPS at 16 VMs
    cpu = cmp.row("cpu_per_kiops")
    assert cpu is not None and cpu.cells[1].change == "worse" and (cpu.cells[1].rel or 0) > 0.1


def test_lower_is_better_kpis_read_better_when_they_fall() -> None:
    cmp = compare(examples.load("dense-web-farm"))
    row = cmp.row("p95_response_ms")
    assert row is not None
    dense = row.cells[[c.name for c in cmp.columns].index("dense mode")]
    assert dense.change == "better" and (dense.delta or 0) < 0
    found = best(cmp, "p95_response_ms")
    assert found is not None and found[0] == "dense mode"
    assert cmp.row("total_iops") is None  # a web farm has no storage I/O to compare


def test_differences_below_the_resolution_are_no_change() -> None:
    kpi = KPI_BY_KEY["total_iops"]
    assert judge(kpi, 100.0 * (1 + RESOLUTION / 2), 100.0).change == "same"
    assert judge(kpi, 100.0 * (1 + RESOLUTION * 2), 100.0).change == "better"
    assert judge(KPI_BY_KEY["vms_per_host"], 20.0, 16.0).change == "changed"
    assert judge(kpi, 5.0, None).change == "appears"
    assert judge(kpi, None, 5.0).change == "gone"
    assert judge(kpi, None, None).change == "none"


def test_a_refused_scenario_is_flagged_not_dropped() -> None:
    cmp = compare(examples.load("oracle-monster-vm"))
    col = cmp.column("160-vCPU VM")
    assert col is not None and col.prediction is not None
    assert col.refusals and "160 vCPUs" in col.refusals[0]
    assert cmp.column("base") is not None and not cmp.columns[0].refusals
