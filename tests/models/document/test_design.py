from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from models.document.codec import design_to_dict, loads, parse_design
from models.document.design import DesignError, apply_scenario, parse_assignment

BASE: dict[str, Any] = {
    "format": "headroom-design", "version": 1, "name": "t",
    "components": [
        {"id": "h1", "kind": "host"}, {"id": "h2", "kind": "host"},
        {"id": "v1", "kind": "vm", "tags": ["web"], "props": {"workload": {"io_oio": 4}}},
        {"id": "a1", "kind": "storage_array"},
        {"id": "s1", "kind": "site"}, {"id": "s2", "kind": "site"},
    ],
    "links": [{"from": "v1", "to": "h1", "kind": "runs_on"},
              {"from": "v1", "to": "a1", "kind": "disk_on"},
              {"from": "s1", "to": "s2", "kind": "wan", "props": {"rtt_ms": 5}}],
}


def doc(**changes: Any) -> dict[str, Any]:
    d = copy.deepcopy(BASE)
    d.update(changes)
    return d


def errors(d: Any) -> list[str]:
    with pytest.raises(DesignError) as info:
        parse_design(d)
    return [str(i) for i in info.value.issues]


def test_minimal_component_takes_documented_defaults() -> None:
    design = parse_design(doc())
    vm = design.component("v1")
    assert vm is not None
    assert vm.get("workload.io_oio") == 4
    assert vm.get("vcpus") == 2
    assert vm.get("workload.io_iops") is None
    assert design.policy_value("cpu_util_max") == 0.9


def test_round_trip_keeps_only_explicit_values() -> None:
    design = parse_design(doc())
    out = design_to_dict(design)
    assert parse_design(out) == design
    assert out["components"][2]["props"] == {"workload": {"io_oio": 4}}


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (lambda d: d["components"].append({"id": "x", "kind": "toaster"}),
         "component 'x': unknown kind 'toaster'"),
        (lambda d: d["components"][0].update(props={"sockets": 0}),
         "component 'h1' (host): property 'sockets': expected a whole number from 1 to 16"),
        (lambda d: d["components"][0].update(props={"warp": 9}),
         "component 'h1' (host): property 'warp': unknown property for kind 'host'"),
        (lambda d: d["components"][0].update(props={"ghz": "fast"}),
         "property 'ghz': expected a number from 0.5 to 6 (GHz), got 'fast'"),
        (lambda d: d["components"][0].update(props={"dense_mode": 1}),
         "property 'dense_mode': expected true or false, got 1"),
        (lambda d: d["components"][2].update(props={"workload": {"io_oio": 2.5}}),
         "property 'workload.io_oio': expected a whole number"),
        (lambda d: d["components"].append({"id": "h1", "kind": "vm"}),
         "duplicate id 'h1'"),
        (lambda d: d["links"].append({"from": "v1", "to": "zz", "kind": "disk_on"}),
         "'to' names 'zz', which is not a component of the design"),
        (lambda d: d["links"].append({"from": "h1", "to": "v1", "kind": "runs_on"}),
         "a runs_on link goes from a vm to a host; 'h1' is a host"),
        (lambda d: d["links"].append({"from": "v1", "to": "h1", "kind": "ft_secondary_on"}),
         "the FT secondary must run on a different host"),
        (lambda d: d["links"].append({"from": "v1", "to": "h2", "kind": "runs_on"}),
         "has 2 runs_on links"),
        (lambda d: d["components"][3].update(props={"raid": "raid7"}),
         "property 'raid': expected one of 'none', 'raid0'"),
        (lambda d: d["components"].append({"id": "n1", "kind": "nic",
                                           "props": {"speed_gbps": 7}}),
         "property 'speed_gbps': expected one of 1, 10, 25, 40, 100 (Gbit/s), got 7"),
        (lambda d: d.update(version=7), "'version' 7 is newer than this Headroom understands"),
        (lambda d: d.update(policy={"cpu_util_max": 1.5}),
         "policy: property 'policy.cpu_util_max': expected a number from 0.05 to 1"),
    ],
)
def test_invalid_designs_name_place_property_and_expectation(mutate: Any, expected: str) -> None:
    d = doc()
    mutate(d)
    found = errors(d)
    assert any(expected in e for e in found), found


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_nan_and_infinity_are_rejected_naming_the_property(constant: str) -> None:
    text = json.dumps(doc()).replace('"io_oio": 4', f'"io_oio": {constant}')
    with pytest.raises(DesignError) as info:
        loads(text)
    issue = info.value.issues[0]
    assert issue.where.startswith("component 'v1'") and issue.prop == "workload.io_oio"
    assert "not a finite number" in issue.message


def test_bad_json_reports_line_and_column() -> None:
    with pytest.raises(DesignError) as info:
        loads('{"format": "headroom-design",\n "version": 1,,}')
    assert info.value.issues[0].where == "line 2 column 15"


def test_all_problems_are_reported_together() -> None:
    d = doc()
    d["components"][0]["props"] = {"sockets": -1, "ghz": 99}
    assert len(errors(d)) == 2


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


@pytest.mark.parametrize("text", ["[" * 100000 + "]" * 100000,
                                  '{"format": "headroom-design", "version": 1, "components": '
                                  '[{"id": "h", "kind": "host", "props": '
                                  + '{"a": ' * 5000 + "1" + "}" * 5000 + "}]}"])
def test_deeply_nested_json_is_a_clear_error(text: str) -> None:
    with pytest.raises(DesignError) as info:
        loads(text)
    assert "nested too deeply" in str(info.value)


def test_copy_is_deep_for_everything_mutable() -> None:
    """Design.copy equals a deep copy and shares nothing a later edit could reach."""
    import copy  # noqa: PLC0415

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
