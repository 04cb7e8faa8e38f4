"""The rules a design obeys: every broken one is named with its place, property and what was
expected, all of them at once."""

from __future__ import annotations

from typing import Any

import pytest

from models.document.design import Link
from models.document.rules import link_set_issues
from tests.models.document.sample import doc, errors


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


def test_all_problems_are_reported_together() -> None:
    d = doc()
    d["components"][0]["props"] = {"sockets": -1, "ghz": 99}
    assert len(errors(d)) == 2


def test_link_set_rules_are_found_whether_or_not_another_is_broken() -> None:
    """A set whose links all differ is checked a kind at a time, any other link by link:
    the same FT secondary on its primary's host is named either way, and a pair of sites
    joined both ways is a link twice."""
    ok = [Link("v1", "h1", "runs_on"), Link("v2", "h1", "runs_on"),
          Link("v1", "h1", "ft_secondary_on"), Link("v2", "h2", "ft_secondary_on"),
          Link("h1", "a1", "storage"), Link("h2", "a1", "storage")]
    same_host = "component 'v1' (vm): the FT secondary must run on a different host"
    assert [str(i) for i in link_set_issues(ok)] == [same_host + " than the primary (both"
                                                     " on 'h1')"]
    twice = [*ok, Link("h1", "a1", "storage"), Link("v2", "h3", "runs_on")]
    found = [str(i) for i in link_set_issues(twice)]
    assert found[0].startswith("link storage 'h1' -> 'a1': 'h1' and 'a1' are already joined")
    assert "'v2' has 2 runs_on links ('h1', 'h3')" in found[1]
    assert found[2].startswith(same_host)
    assert len(found) == 3
    wan = [Link("s1", "s2", "wan"), Link("s2", "s1", "wan")]
    assert [str(i) for i in link_set_issues(wan)] == [
        "link wan 's2' -> 's1': 's2' and 's1' are already joined by wan"]
    assert link_set_issues(wan[:1]) == []
