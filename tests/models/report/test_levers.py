"""Levers: design changes tried through the engine against the busiest resource."""

from __future__ import annotations

import pytest

from models.document.design import apply_scenario
from models.engine.evaluation import evaluate
from models.examples import bundled as examples
from models.report.levers import LEVERS, binding_resource, relieve


def test_levers_are_design_changes_from_the_registry() -> None:
    for lever in LEVERS:
        assert lever.knob.path == lever.path  # every one a registry knob
        assert not lever.path.startswith("design.")  # never a looser policy
        assert "req_per_s" not in lever.path and "io_oio" not in lever.path  # nor less work


def test_a_saturated_array_gets_a_second_drive() -> None:
    d = examples.load("vaio-scaling")
    p = evaluate(d)
    remedy = relieve(d, p)
    assert remedy is not None and remedy.lever.path == "storage_array.disks"
    assert (remedy.before, remedy.after) == (1, 2)
    assert remedy.prediction.total_iops == pytest.approx(2 * p.total_iops, rel=0.01)
    assert remedy.helps


def test_alike_resources_are_changed_together() -> None:
    d = examples.load("stretched-vsan")
    p = evaluate(d)
    busy = binding_resource(p)
    assert busy is not None and busy.resource == "vcpu_io"
    remedy = relieve(d, p)
    assert remedy is not None and len(remedy.overrides) == 36  # the 36 identical VMs
    assert remedy.kpi_after is not None and remedy.kpi_before is not None
    assert remedy.kpi_after > remedy.kpi_before * 1.3


def test_a_numeric_lever_moves_again_while_the_resource_stays_saturated() -> None:
    d = apply_scenario(examples.load("stretched-vsan"), "1 Gbit/s site link")
    remedy = relieve(d, evaluate(d))
    assert remedy is not None and remedy.lever.path == "wan.gbps"
    assert (remedy.before, remedy.after) == (1.0, 8.0)
    assert remedy.util_after is not None and remedy.util_after < 1.0


def test_no_lever_for_a_design_with_room_and_memory_is_not_load() -> None:
    d = examples.load("docker-cloudstone")
    assert relieve(d, evaluate(d)) is None
    web = examples.load("dense-web-farm")
    p = evaluate(web)
    assert p.bottlenecks(1)[0].resource == "host_memory"  # configured, not load
    busy = binding_resource(p)
    assert busy is not None and busy.resource == "host_cpu"
