"""The fixes the dashboard offers, found from the design's structure (app/panels/fixes.py)."""

from __future__ import annotations

from app.panels.fixes import fixes_for
from models.document.design import Component, Design, Link


def _design() -> Design:
    return Design(name="fixes", components=[
        Component("h1", "host", "esx-01"), Component("h2", "host", "esx-02"),
        Component("a1", "storage_array", "array-1"), Component("a2", "storage_array", "array-2"),
        Component("v1", "vm", "db-01"),
        Component("v2", "vm", "ft-01", props={"ft": True}),
        Component("v3", "vm", "mc-01", props={"split_rx": True, "vnic": "e1000"})],
        links=[Link("v1", "h1", "runs_on"), Link("v1", "a1", "disk_on"),
               Link("h1", "a2", "storage"), Link("v2", "h1", "runs_on"),
               Link("v2", "a2", "disk_on"), Link("v3", "h2", "runs_on"),
               Link("v3", "a2", "disk_on"), Link("h2", "a2", "storage")])


def test_each_problem_is_named_with_its_fix_most_basic_first() -> None:
    fixes = fixes_for(_design())
    assert [f.problem for f in fixes] == [
        "esx-01 runs VMs on array-1 but its storage links name other arrays",
        "ft-01 is FT-protected but has no secondary",
        "splitRxMode needs a VMXNET3 vNIC on mc-01"]
    assert [f.action for f in fixes][1] == "Put ft-01's FT secondary on esx-02"


def test_an_unplaced_vm_goes_to_the_least_loaded_host_and_a_diskless_one_to_the_array(
        ) -> None:
    design = Design(name="unplaced", components=[
        Component("h1", "host", "esx-01"), Component("h2", "host", "esx-02"),
        Component("a1", "storage_array", "array-1"),
        Component("v1", "vm", "db-01"), Component("v2", "vm", "db-02"),
        Component("v3", "vm", "db-03")],
        links=[Link("v1", "h1", "runs_on"), Link("v1", "a1", "disk_on"),
               Link("v2", "a1", "disk_on")])
    fixes = fixes_for(design)
    assert [f.action for f in fixes] == ["Place 2 VMs on esx-02",
                                         "Put db-03's disk on array-1"]


def test_a_sound_design_has_no_fix() -> None:
    design = Design(name="sound", components=[
        Component("h1", "host", "esx-01"), Component("a1", "storage_array", "array-1"),
        Component("v1", "vm", "db-01")],
        links=[Link("v1", "h1", "runs_on"), Link("v1", "a1", "disk_on")])
    assert fixes_for(design) == []
