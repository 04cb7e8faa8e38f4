"""The design: documented defaults, scenario overrides by kind, id, tag and design, ``--set``
assignments, and deep copies."""

from __future__ import annotations

import copy

import pytest

from models.document.codec import parse_design
from models.document.design import DesignError, apply_scenario, parse_assignment
from tests.models.document.sample import doc, errors


def test_minimal_component_takes_documented_defaults() -> None:
    design = parse_design(doc())
    vm = design.component("v1")
    assert vm is not None
    assert vm.get("workload.io_oio") == 4
    assert vm.get("vcpus") == 2
    assert vm.get("workload.io_iops") is None
    assert design.policy_value("cpu_util_max") == 0.9


def test_scenario_overrides_apply_by_kind_id_tag_and_design() -> None:
    d = doc(scenarios=[{"name": "s", "set": [
        {"select": "vm", "prop": "vcpus", "value": 4},
        {"select": "id:h2", "prop": "dense_mode", "value": True},
        {"select": "tag:web", "prop": "workload.io_oio", "value": 64},
        {"select": "design", "prop": "policy.p95_ms_max", "value": 50},
        {"select": "wan", "prop": "rtt_ms", "value": 2.5}]}])
    design = parse_design(d)
    out = apply_scenario(design, "s")
    vm, h2 = out.component("v1"), out.component("h2")
    assert vm is not None and h2 is not None
    assert (vm.get("vcpus"), vm.get("workload.io_oio"), h2.get("dense_mode")) == (4, 64, True)
    assert out.policy_value("p95_ms_max") == 50
    assert out.links[2].get("rtt_ms") == 2.5
    base_vm = design.component("v1")
    assert base_vm is not None and base_vm.get("vcpus") == 2  # the base is untouched


def test_scenario_with_bad_override_is_an_error() -> None:
    d = doc(scenarios=[{"name": "s", "set": [{"select": "vm", "prop": "vcpus", "value": 0}]}])
    assert any("scenario 's' set[0]: property 'vcpus'" in e for e in errors(d))


@pytest.mark.parametrize(
    ("text", "select", "prop", "value"),
    [("vm.workload.io_oio=32", "vm", "workload.io_oio", 32),
     ("id:v1.vcpus=4", "id:v1", "vcpus", 4),
     ("host.dense_mode=true", "host", "dense_mode", True),
     ("design.policy.cpu_util_max=0.8", "design", "policy.cpu_util_max", 0.8),
     ("wan.rtt_ms=5", "wan", "rtt_ms", 5.0),
     ("vm.workload.io_iops=null", "vm", "workload.io_iops", None)],
)
def test_set_assignments_parse(text: str, select: str, prop: str, value: object) -> None:
    ov = parse_assignment(parse_design(doc()), text)
    assert (ov.select, ov.prop, ov.value) == (select, prop, value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("vm.workload.io_oio=lots", "expected a whole number"),
     ("vm.nope=1", "kind 'vm' has no such property"),
     ("id:ghost.vcpus=1", "no component has the id 'ghost'"),
     ("vm.vcpus", "expected PATH=VALUE"),
     ("nic.speed_gbps=10", "matches nothing")],
)
def test_bad_set_assignments_say_what_and_where(text: str, expected: str) -> None:
    with pytest.raises(DesignError) as info:
        parse_assignment(parse_design(doc()), text)
    assert expected in str(info.value)


def test_copy_is_deep_for_everything_mutable() -> None:
    """Design.copy equals a deep copy and shares nothing a later edit could reach."""

    from models.document.design import Override  # noqa: PLC0415
    from models.examples import bundled as examples  # noqa: PLC0415

    d = examples.load("vaio-scaling")
    d.policy["cpu_util_max"] = 0.8
    d.components[0].tags.append("rack-1")
    c = d.copy()
    assert c == copy.deepcopy(d)
    c.components[0].props["sockets"] = 4
    c.components[0].tags.append("x")
    c.links[0].props["rtt_ms"] = 1.0
    c.scenarios[0].overrides.append(Override("vm", "vcpus", 2))
    c.policy["cpu_util_max"] = 0.5
    c.components.pop()
    assert d.components[0].props.get("sockets") != 4 and d.components[0].tags == ["rack-1"]
    assert "rtt_ms" not in d.links[0].props and d.policy["cpu_util_max"] == 0.8
    assert len(d.scenarios[0].overrides) + 1 == len(c.scenarios[0].overrides)
    assert len(d.components) == len(c.components) + 1
