"""A scenario that rebuilds the hardware (a refresh): the hosts it takes out with their NICs
and links, the hosts it adds, the VMs it places; the base's later edits reach it; the file
keeps it; what is wrong with one is named."""

from __future__ import annotations

import json

import pytest

from models.document.codec import design_to_json, loads
from models.document.design import (
    Component,
    Design,
    DesignError,
    Link,
    Override,
    Rebuild,
    Scenario,
    apply_scenario,
    rebuilt,
)
from models.session.editor import Editor


def base() -> Design:
    d = Design(name="two hosts")
    d.components += [Component("h1", "host", "old-1"), Component("h2", "host", "old-2"),
                     Component("n1", "nic"), Component("c1", "cluster", "prod"),
                     Component("a1", "storage_array"),
                     Component("v1", "vm", "web"), Component("v2", "vm", "db")]
    d.links += [Link("n1", "h1", "installed_in"), Link("h1", "c1", "in_cluster"),
                Link("h2", "c1", "in_cluster"), Link("h1", "a1", "storage"),
                Link("v1", "h1", "runs_on"), Link("v2", "h2", "runs_on"),
                Link("v2", "a1", "disk_on")]
    return d


def refresh() -> Rebuild:
    return Rebuild(["h1", "h2"], [Component("r1", "host", "new-1", props={"sockets": 1})],
                   [Link("r1", "c1", "in_cluster"), Link("v1", "r1", "runs_on"),
                    Link("v2", "r1", "runs_on"), Link("r1", "a1", "storage")],
                   "2 hosts replaced by 1")


def test_the_old_hosts_go_with_their_nics_and_links_and_the_vms_run_on_the_new() -> None:
    d = rebuilt(base(), refresh())
    assert [c.id for c in d.of_kind("host")] == ["r1"]
    assert d.component("n1") is None  # installed in a host taken out
    assert [c.id for c in d.of_kind("vm")] == ["v1", "v2"]  # the VMs keep their order
    kinds = {(lk.source, lk.kind): lk.target for lk in d.links}
    assert kinds[("v1", "runs_on")] == kinds[("v2", "runs_on")] == "r1"
    assert kinds[("v2", "disk_on")] == "a1" and kinds[("r1", "in_cluster")] == "c1"
    assert not any("h1" in (lk.source, lk.target) for lk in d.links)


def test_the_base_designs_later_edits_reach_the_scenario() -> None:
    d = base()
    d.scenarios.append(Scenario("new", [Override("host", "memory_gb", 512.0)], refresh()))
    d.components.append(Component("v3", "vm", "app"))  # added after: on no host there
    d.components = [c for c in d.components if c.id != "v1"]  # deleted: its link is dropped
    d.links = [lk for lk in d.links if lk.source != "v1"]
    s = apply_scenario(d, "new")
    assert [c.id for c in s.of_kind("vm")] == ["v2", "v3"]
    assert [lk.source for lk in s.links if lk.kind == "runs_on"] == ["v2"]
    new = s.component("r1")
    assert new is not None and new.get("memory_gb") == 512.0
    assert d.component("h1") is not None  # the base design is untouched


def test_the_file_keeps_a_rebuild_and_reads_it_back() -> None:
    d = base()
    d.scenarios.append(Scenario("new", [Override("id:r1", "memory_gb", 768.0)], refresh()))
    again = loads(design_to_json(d))
    sc = again.scenario("new")
    assert sc.rebuild is not None and sc.rebuild.label == "2 hosts replaced by 1"
    assert sc.rebuild.removed == ["h1", "h2"] and [c.id for c in sc.rebuild.components] == ["r1"]
    assert sc.overrides == [Override("id:r1", "memory_gb", 768.0)]  # checked against it
    assert again == d
    copy = d.copy()
    assert copy == d and copy.scenarios[0].rebuild is not d.scenarios[0].rebuild


@pytest.mark.parametrize(("change", "words"), [
    (lambda rb: rb.update(remove=["v1"]), "'remove' names 'v1', which is no host"),
    (lambda rb: rb["components"].append({"id": "a1", "kind": "host"}),
     "component 'a1' is already in the design"),
    (lambda rb: rb["links"].append({"from": "v1", "to": "a1", "kind": "runs_on"}),
     "'a1'"),
    (lambda rb: rb["links"].append({"from": "v1", "to": "r1", "kind": "disk_on"}),
     "disk_on"),
    (lambda rb: rb.update(colour="red"), "unknown field 'colour'"),
])
def test_a_wrong_rebuild_is_named(change: object, words: str) -> None:
    d = base()
    d.scenarios.append(Scenario("new", [], refresh()))
    doc = json.loads(design_to_json(d))
    change(doc["scenarios"][0]["rebuild"])  # type: ignore[operator]
    with pytest.raises(DesignError, match=words) as err:
        loads(json.dumps(doc))
    assert "scenario 'new' rebuild" in str(err.value.issues[0].where)


def test_the_editor_reads_the_scenarios_own_hosts_and_knows_their_names() -> None:
    d = base()
    d.scenarios.append(Scenario("new", [], refresh()))
    ed = Editor(d)
    assert ed.value("host", "sockets") == 2  # base: two hosts of 2 sockets
    ed.set_scenario("new")
    assert ed.rebuild() is not None
    assert ed.value("host", "sockets") == 1  # the scenario's one host
    assert ed.value("id:h1", "sockets") == 2  # a host it took out reads as the base has it
    assert ed.name_of("r1") == "new-1"
    assert ed.new_id("host") not in {"r1", "h1", "h2"}


def test_a_host_the_scenario_took_out_cannot_be_edited_in_it() -> None:
    d = base()
    d.scenarios.append(Scenario("new", [], refresh()))
    ed = Editor(d)
    ed.set_scenario("new")
    with pytest.raises(DesignError, match="old-1 is not in it"):
        ed.set_values(["id:h1"], "memory_gb", 512.0)
    with pytest.raises(DesignError, match="is not in it"):
        ed.set_values(["id:n1"], "speed_gbps", 25.0)
    edit = ed.set_values(["host"], "memory_gb", 512.0)  # every host of the scenario
    ed.apply(edit)
    assert loads(design_to_json(d)).scenario("new").overrides == [
        Override("host", "memory_gb", 512.0)]


def test_a_rebuild_outlives_the_base_designs_deletions() -> None:
    """A host it removes or a VM it places, deleted from the base design since, is left out
    when the file is read again (as applying it leaves it out)."""
    d = base()
    d.scenarios.append(Scenario("new", [], refresh()))
    gone = {"h2", "v1"}
    d.components = [c for c in d.components if c.id not in gone]
    d.links = [lk for lk in d.links if not {lk.source, lk.target} & gone]
    again = loads(design_to_json(d))
    rb = again.scenario("new").rebuild
    assert rb is not None and rb.removed == ["h1"]
    assert all("v1" not in (lk.source, lk.target) for lk in rb.links)
    s = apply_scenario(again, "new")
    assert [c.id for c in s.of_kind("host")] == ["r1"]
    assert [lk.source for lk in s.links if lk.kind == "runs_on"] == ["v2"]
