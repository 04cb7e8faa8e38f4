"""The design as the report's design page lists it: clusters with their hosts, the hosts in
no cluster, the arrays with no figure where nothing was measured (models/report/inventory.py)."""

from __future__ import annotations

from models.document.design import Component, Design, Link
from models.engine.evaluation import evaluate
from models.examples import bundled as examples
from models.report.inventory import NO_DISKS, NOT_MEASURED, inventory, listed


def _estate() -> Design:
    comps = [Component("c1", "cluster", "Prod", props={"failover_hosts": 2}),
             Component("s1", "site", "Datacenter 1"),
             Component("a1", "storage_array", "DS-01", props={"capacity_gb": 2048.0,
                                                               "used_gb": 512.0}),
             Component("a2", "storage_array", "DS-02")]
    links = []
    for i in (10, 2, 1):
        comps.append(Component(f"h{i}", "host", f"esx{i}", props={"memory_gb": 256}))
        links += [Link(f"h{i}", "c1", "in_cluster"), Link(f"h{i}", "s1", "located_at")]
    comps.append(Component("h9", "host", "lonely"))
    for v in range(5):
        comps.append(Component(f"v{v}", "vm", f"vm{v}", props={"workload.profile": "measured",
                                                               "workload.cpu_pct": 20.0}))
        links.append(Link(f"v{v}", "a1", "disk_on"))
        if v < 4:
            links.append(Link(f"v{v}", ["h1", "h2", "h10", "h9"][v], "runs_on"))
    return Design(name="estate", components=comps, links=links)


def test_clusters_list_their_hosts_by_name_and_the_rest_follow() -> None:
    design = _estate()
    inv = inventory(design, evaluate(design))
    prod, rest = inv.groups
    assert prod.name == "Prod" and prod.policy == "HA N+2 · DRS on"
    assert prod.site == "Datacenter 1"
    assert [h.name for h in prod.hosts] == ["esx1", "esx2", "esx10"]  # digits as numbers
    assert prod.vms == 3 and prod.needed is not None and "needs" in prod.facts()
    assert rest.name == "" and [h.name for h in rest.hosts] == ["lonely"]
    assert all(h.cpu is not None and h.hardware.endswith("256 GB") for h in prod.hosts)
    assert inv.unplaced_vms == 1


def test_arrays_say_why_they_have_no_figures_instead_of_zeros() -> None:
    design = _estate()
    inv = inventory(design, evaluate(design))
    by_name = {a.name: a for a in inv.arrays}
    assert by_name["DS-01"].io is None and by_name["DS-01"].why == NOT_MEASURED
    assert by_name["DS-01"].space == "512 GB used of 2 TB"
    assert by_name["DS-02"].io is None and by_name["DS-02"].why == NO_DISKS
    assert by_name["DS-01"].hardware == "Fibre Channel"  # its drives are not known
    measured = examples.load("vaio-scaling")
    array = inventory(measured, evaluate(measured)).arrays[0]
    assert array.io is not None and array.io[0].endswith("IOPS") and " × " in array.hardware


def test_an_arrays_figures_on_drives_nobody_gave_say_what_was_assumed() -> None:
    """An imported datastore with measured I/O has latency and busy figures from the
    schema's drives: the hardware says they were assumed, not the estate's."""
    from models.document.design import Link  # noqa: PLC0415

    design = _estate()
    ds = next(a for a in design.of_kind("storage_array") if a.name == "DS-01")
    vm = design.of_kind("vm")[0]
    vm.props["workload.io_iops"] = 500.0
    design.links = [lk for lk in design.links if not (lk.kind == "disk_on"
                                                      and lk.source == vm.id)]
    design.links.append(Link(vm.id, ds.id, "disk_on"))
    row = {a.name: a for a in inventory(design, evaluate(design)).arrays}["DS-01"]
    assert row.io is not None
    assert row.hardware == "Fibre Channel; drives not given, 8 × SSD · RAID 5 assumed"


def test_an_estate_is_listed_and_a_testbed_drawn() -> None:
    assert listed(_estate())
    assert not listed(examples.load("vaio-scaling"))
    assert not listed(examples.load("dense-web-farm"))  # 470 VMs on one host: drawn
