"""A hardware refresh: the fewest hosts of the new server meeting the policy (settled: each
cluster has what the capacity model says it needs), the measured demand moved by per-core
speed (checked against arithmetic), licensed cores, a count given, one cluster, the change as a
scenario's rebuild, the errors; and the 805-VM RVTools sample where it is."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from models.analysis.failure import host_failure
from models.analysis.refresh import refresh, target
from models.core.platform import HT_THROUGHPUT, reference_specrate
from models.document.design import Design, DesignError, Scenario, apply_scenario
from models.engine.evaluation import evaluate
from tests.refresh_estate import OLD, estate, work

SAMPLE = Path("/work/shared/samples/rvtools-anonymised-805-vms.xlsx")


def test_the_fewest_hosts_settle_on_what_the_capacity_model_needs() -> None:
    r = refresh(estate(), target("dell-r760", "Gold 6548Y+", 1024))
    assert r.groups == ["prod", "dmz"] and not r.given
    assert r.rounds[0] == {"prod": 4, "dmz": 2}  # it starts from the hosts there are
    after = {c["id"]: c for c in r.after.clusters}
    for g in r.groups:  # settled: each cluster has what it needs, on the new hardware
        assert after[g]["hosts"] == after[g]["hosts_needed"] == r.counts[g]
    # 40 VMs of 1.2 busy cores at E5 speed fit one 2 x 32-core host; HA keeps one more
    assert r.counts == {"prod": 2, "dmz": 2}
    assert r.after.hosts == 4 and r.before.hosts == 6
    hosts = r.design.of_kind("host")
    assert {h.get("cpu_model") for h in hosts} == {"Intel Xeon Gold 6548Y+"}
    assert [h.name for h in hosts][:2] == ["prod PowerEdge R760 01", "prod PowerEdge R760 02"]
    assert all(h.get("memory_gb") == 1024.0 and h.get("cores_per_socket") == 32 for h in hosts)
    assert "measured.cpu_pct" not in hosts[0].props  # the old host's record is not the new's


def test_the_measured_demand_moves_by_per_core_speed() -> None:
    r = refresh(estate(), target("dell-r760", "Gold 6548Y+", 1024))
    new = r.target.processor
    assert new.ghz
    new_speed = new.specrate_per_core / reference_specrate()
    after = {c["id"]: c for c in r.after.clusters}
    for g, demand in work().items():
        capacity = r.counts[g] * 2 * 32 * HT_THROUGHPUT * new_speed
        assert after[g]["cpu_util_mean"] == pytest.approx(demand / capacity, rel=1e-6)
    total = sum(work().values()) / (r.after.hosts * 2 * 32 * HT_THROUGHPUT * new_speed)
    assert r.after.cpu_util_mean == pytest.approx(total, rel=1e-6)


def test_licensed_cores_before_and_after() -> None:
    r = refresh(estate(), target("dell-r760", "Gold 6548Y+", 1024))
    # before: 6 hosts of two CPUs under 16 cores, each counted as 16
    assert r.before.licensed_cores == 6 * 2 * 16 and r.before.physical_cores == 4 * 16 + 2 * 12
    assert r.after.licensed_cores == r.after.physical_cores == 4 * 64
    rows = dict((label, (b, a)) for label, b, a in r.rows())
    assert rows["Licensed cores"] == ("192", "256") and rows["Hosts"] == ("6", "4")


def test_a_count_given_and_one_cluster() -> None:
    r = refresh(estate(), target("dell-r660", memory_gb=512), hosts=3, clusters=["prod"])
    assert r.given and r.rounds == [] and r.counts == {"prod": 3}
    after = {c["id"]: c for c in r.after.clusters}
    assert after["prod"]["hosts"] == 3 and after["dmz"]["hosts"] == 2  # dmz as it was
    dmz = [h for h in r.design.of_kind("host") if h.id.startswith("dmz-h")]
    assert len(dmz) == 2 and dmz[0].get("cpu_model") == OLD["dmz"][0]
    # the VMs stay in their cluster
    placed = {lk.source: lk.target for lk in r.design.links if lk.kind == "runs_on"}
    assert all(placed[f"prod-v{j}"].startswith("prod-dell-r660-") for j in range(40))
    assert all(placed[f"dmz-v{j}"].startswith("dmz-h") for j in range(8))


def test_the_refresh_is_a_scenario_of_the_base_design() -> None:
    base = estate()
    r = refresh(base, target("dell-r760", "Gold 6548Y+", 1024))
    base.scenarios.append(Scenario("r760", [], r.rebuild))
    p = evaluate(base, "r760")
    assert p.consolidation.hosts_needed == r.after.hosts_needed
    assert p.licensed_cores == r.after.licensed_cores
    assert list(p.hosts.cpu_util) == pytest.approx(list(r.prediction.hosts.cpu_util))
    assert p.vms.ids == evaluate(base).vms.ids  # the VMs line up with the base design's
    assert len(apply_scenario(base, "r760").of_kind("host")) == 4
    assert r.rebuild.label == ("6 hosts of prod, dmz replaced by 4 hosts of Dell PowerEdge"
                               " R760, 2 x Intel Xeon Gold 6548Y+ (32 cores), 1 TB")


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"server": "no-such"}, "no server 'no-such'"),
    ({"server": "dell-r760", "cpu": "E5-2665"}, "was not submitted to SPEC with"),
    ({"server": "dell-r760", "memory_gb": 0}, "--memory-gb"),
])
def test_unknown_hardware_is_refused_by_name(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(DesignError, match=words):
        target(**kwargs)  # type: ignore[arg-type]


def test_an_unknown_cluster_or_a_count_below_one_is_refused() -> None:
    with pytest.raises(DesignError, match=r"no cluster 'qa' \(known: prod, dmz"):
        refresh(estate(), target("dell-r760"), clusters=["qa"])
    with pytest.raises(DesignError, match="at least 1"):
        refresh(estate(), target("dell-r760"), hosts=0)
    with pytest.raises(DesignError, match="fits on no host"):
        refresh(estate(), target("dell-r760", memory_gb=8))


@pytest.mark.skipif(not SAMPLE.exists(), reason="the RVTools sample is not on this machine")
def test_the_805_vm_sample_refreshed_to_r760s_matches_the_arithmetic() -> None:
    from models.document.catalogue import processors  # noqa: PLC0415
    from models.io.importers.rvtools import import_rvtools  # noqa: PLC0415

    design = import_rvtools(SAMPLE)[0]
    used = 0.0  # recorded usage x cores x per-core figure of the old processor
    for h in design.of_kind("host"):
        p = processors.match(str(h.get("cpu_model")))
        assert p is not None and p.ghz
        cores = int(h.get("sockets") or 0) * int(h.get("cores_per_socket") or 0)
        pct = float(h.get("measured.cpu_pct") or 0.0)
        used += pct / 100.0 * cores * p.specrate_per_core * float(h.get("ghz") or 0) / p.ghz
    r = refresh(design, target("dell-r760", "Gold 6548Y+", 1024))
    new = r.target.processor
    capacity = r.after.hosts * 2 * 32 * new.specrate_per_core
    assert r.after.cpu_util_mean == pytest.approx(used / capacity, rel=0.01)
    assert r.before.hosts == 34 and r.after.hosts < r.before.hosts
    after = {c["id"]: c for c in r.after.clusters}
    assert all(after[g]["hosts"] == after[g]["hosts_needed"] for g in r.groups)


@pytest.mark.parametrize(("policy", "binding"), [({"vcpu_per_core_max": 2.0}, "vcpu"),
                                                 ({"memory_overcommit_max": 0.5},
                                                  "overcommit")])
def test_the_policys_overcommit_ceilings_set_the_count(policy: dict[str, float],
                                                       binding: str) -> None:
    d = estate()
    d.policy.update(policy)
    r = refresh(d, target("dell-r760", "Gold 6548Y+", 1024))
    # 2 x 32 cores at 2 vCPUs per core hold 32 VMs of 4 vCPUs; 1 TB at 0.5 holds 32 of 16 GB:
    # prod's 40 VMs need 2 hosts, and HA's failover host makes 3
    assert r.counts["prod"] == 3
    after = {c["id"]: c for c in r.after.clusters}
    assert after["prod"]["binding"] == binding and after["prod"]["hosts_needed"] == 3
    rows = dict((label, a) for label, _, a in r.rows())
    assert rows["Tightest limit"] in ("vCPU:core", "memory overcommit")


def test_hosts_in_no_cluster_are_refreshed_and_said_so() -> None:
    d = estate()
    d.links = [lk for lk in d.links if not (lk.kind == "in_cluster" and lk.target == "dmz")]
    r = refresh(d, target("dell-r760", "Gold 6548Y+", 1024))
    assert r.groups == ["prod", ""]
    assert r.rebuild.label.startswith("6 hosts of prod and in no cluster replaced by")
    assert any(line.startswith("hosts in no cluster: 2 hosts -> ") for line in
               r.cluster_lines())


def test_the_notes_are_the_settled_counts_and_name_clusters_by_name() -> None:
    """Each round of the search said where the background load went; only the count kept
    is told, by the cluster's name (it repeated 'cl-cluster1 ... over 5 hosts' and '... over
    2 hosts')."""
    design = estate()
    for h in design.of_kind("host"):
        h.props["background.cpu_cores"] = 1.0
    for c in design.of_kind("cluster"):
        c.name = f"Cluster {c.id.upper()}"
    r = refresh(design, target("dell-r760", "Gold 6548Y+", 1024))
    spread = [n for n in r.notes if "background load" in n]
    assert len(r.rounds) > 1 and len(spread) == len(r.groups)
    for g in r.groups:
        mine = [n for n in spread if n.startswith(f"cluster Cluster {g.upper()}:")]
        assert len(mine) == 1 and mine[0].endswith(f"spread over {r.counts[g]} hosts")


def test_a_new_hosts_nics_take_its_name_in_place_of_the_old_hosts() -> None:
    """An importer names a NIC after its host ("prod-h0 vmnic0"): on the host that replaces
    it, the NIC says the new host's name, not the old one's; a name without it stays."""
    from models.document.design import Component, Link  # noqa: PLC0415

    base = estate()
    for h in list(base.of_kind("host")):
        for n, name in enumerate((f"{h.name} vmnic0", "uplink")):
            base.components.append(Component(f"{h.id}-n{n}", "nic", name))
            base.links.append(Link(f"{h.id}-n{n}", h.id, "installed_in"))
    rb = refresh(base, target("dell-r760", "Gold 6548Y+", 1024)).rebuild
    hosts = {c.id: c.name for c in rb.components if c.kind == "host"}
    nics = {c.id: c.name for c in rb.components if c.kind == "nic"}
    on = {lk.source: lk.target for lk in rb.links if lk.kind == "installed_in"}
    assert nics and set(on) == set(nics)
    for nid, name in nics.items():
        assert name in (f"{hosts[on[nid]]} vmnic0", "uplink")
        assert not any(old in name for old in rb.removed)


# --------------------------------------------------------------------------- sized by placement


def _uneven() -> Design:
    """``prod`` with VMs of very different memory: 6 of 400 GB among 34 of 16 GB, every VM
    busy enough to count; dealt round robin, the large ones land together."""
    d = estate()
    for j, vm in enumerate(v for v in d.of_kind("vm") if v.id.startswith("prod-")):
        if j % 7 == 0:
            vm.props["memory_gb"] = 400.0
    return d


def test_every_host_holds_and_any_host_failure_is_survived() -> None:
    """VMs from 4 GB to 470 GB (each 13% larger than the last): dealt round robin in order of
    size, the last host took the largest of every round (99.6% of its memory on 5 hosts)
    and no host had room to restart the 470 GB VM; spread as DRS would, every host ends
    within the largest VM of the others, and the count grows until a failure is survived."""
    d = estate()
    for j, vm in enumerate(v for v in d.of_kind("vm") if v.id.startswith("prod-")):
        vm.props["memory_gb"] = round(4 * 1.13 ** j, 1)
    r = refresh(d, target("dell-r760", "Gold 6548Y+", memory_gb=1024), clusters=["prod"])
    prod = [i for i, h in enumerate(r.prediction.hosts.ids) if h.startswith("prod-")]
    mem = np.asarray(r.prediction.hosts.memory_util)[prod]
    assert mem.max() - mem.min() <= 470 / 1024
    report = host_failure(r.design)
    assert not report.baseline and report.survives
    after = next(c for c in r.after.clusters if c["id"] == "prod")
    assert after["ha_hosts"] >= 2  # the failover host, and room for the 470 GB VM


def test_an_ha_cluster_without_admission_control_keeps_room_for_a_failure() -> None:
    """The estate's clusters survive any host failure with admission control disabled: the
    refresh keeps at least two hosts per cluster and room to restart any one's VMs."""
    d = estate()
    for c in d.of_kind("cluster"):
        c.props["admission_control"] = "disabled"
    r = refresh(d, target("dell-r760", "Gold 6548Y+", 1024))
    assert all(n >= 2 for n in r.counts.values())
    report = host_failure(r.design)
    assert not report.baseline and report.survives
    after = {c["id"]: c for c in r.after.clusters}
    assert after["dmz"]["set_by"] == "one" and after["dmz"]["ha_hosts"] == 1
    assert "HA needs two hosts" in after["dmz"]["set_by_text"]


def test_ha_off_nothing_binds_and_the_words_say_what_set_the_count() -> None:
    d = estate()
    for c in d.of_kind("cluster"):
        c.props["ha_enabled"] = False
    r = refresh(d, target("dell-r760", "Gold 6548Y+", 1024), clusters=["dmz"])
    line = next(x for x in r.cluster_lines() if x.startswith("cluster dmz"))
    assert r.counts == {"dmz": 1}
    assert "1 host holds the load" in line and "binds" not in line
    a = next(c for c in r.after.clusters if c["id"] == "dmz")
    assert a["hosts_for_load"] == 1 and a["ha_hosts"] == 0


def test_memory_that_sets_the_count_is_named_with_the_ha_reserve() -> None:
    r = refresh(_uneven(), target("dell-r760", "Gold 6548Y+", memory_gb=512))
    prod = next(c for c in r.after.clusters if c["id"] == "prod")
    assert prod["set_by"] == "memory" and prod["hosts_for_load"] >= 2
    assert prod["set_by_text"].startswith(f"host memory sets {prod['hosts_for_load']} hosts")
    assert prod["hosts_for_load"] + prod["ha_hosts"] == r.counts["prod"]


def test_hyperthreading_is_kept_like_for_like_unless_told() -> None:
    d = estate()
    for h in d.of_kind("host"):
        h.props["hyperthreading"] = False
    kept = refresh(d, target("dell-r760", "Gold 6548Y+", 1024))
    assert {h.get("hyperthreading") for h in kept.design.of_kind("host")} == {False}
    assert [c["setting"] for c in kept.changed] == ["esxi_version"]
    told = refresh(d, target("dell-r760", "Gold 6548Y+", 1024), ht=True)
    assert {h.get("hyperthreading") for h in told.design.of_kind("host")} == {True}
    ht = next(c for c in told.changed if c["setting"] == "hyperthreading")
    assert ht["before"] == [False] and ht["after"] == [True]
    assert ht["text"] == "Hyperthreading off -> on"
    assert told.to_dict()["changed_settings"] == told.changed


def test_a_count_given_that_breaks_says_so() -> None:
    r = refresh(_uneven(), target("dell-r760", "Gold 6548Y+", memory_gb=512), hosts=2,
                clusters=["prod"])
    assert any(n.startswith("with 2 hosts as given, cluster prod") for n in r.notes)


def test_ha_restarts_a_vm_where_there_is_room_not_where_there_are_fewest_vms() -> None:
    """h1 runs one VM of 900 GB, h2 three of 64 GB: h0's VM of 200 GB restarts on h2 (on
    h1, the host with fewer VMs, it would take 1.1 TB of 1 TB)."""
    from models.document.design import Component, Link  # noqa: PLC0415

    d = Design(name="room")
    d.components.append(Component("cl", "cluster", "cl"))
    for h in ("h0", "h1", "h2"):
        d.components.append(Component(h, "host", h, props={
            "sockets": 2, "cores_per_socket": 16, "memory_gb": 1024.0,
            "cpu_model": "Intel Xeon Gold 6548Y+"}))
        d.links.append(Link(h, "cl", "in_cluster"))
    for vid, host, gb in (("big", "h1", 900.0), ("s1", "h2", 64.0), ("s2", "h2", 64.0),
                          ("s3", "h2", 64.0), ("mover", "h0", 200.0)):
        d.components.append(Component(vid, "vm", vid, props={"vcpus": 2, "memory_gb": gb}))
        d.links.append(Link(vid, host, "runs_on"))
    res = host_failure(d, ["h0"]).failures[0]
    assert res.restarted == [("mover", "h2")] and res.ok


def test_memory_is_sized_from_the_servers_populations_never_specs_test_system() -> None:
    """No memory given: the smallest balanced population at which memory sets no cluster's
    count (every smaller one needs more hosts), named with its reason and source."""
    from models.document.catalogue import servers  # noqa: PLC0415

    d = _uneven()
    to = target("dell-r760", "Gold 6548Y+")
    assert to.memory_gb is None and to.text.endswith("memory sized")
    r = refresh(d, to)
    m = r.target.memory
    assert m is not None and r.target.memory_gb == m.population.total_gb
    totals = sorted({p.total_gb for p in servers.memory_populations(to.server)})
    largest = refresh(d, target("dell-r760", "Gold 6548Y+", totals[-1]))
    assert r.counts == largest.counts
    smaller = [gb for gb in totals if gb < m.population.total_gb]
    if smaller:
        assert refresh(d, target("dell-r760", "Gold 6548Y+", smaller[-1])).after.hosts \
            > r.after.hosts
        assert m.reason.startswith("the smallest balanced population at which memory no"
                                   " longer sets the count")
    assert all(h.get("memory_gb") == m.population.total_gb for h in r.design.of_kind("host"))
    doc = r.to_dict()["target"]["memory"]
    assert doc["population"] == m.population.text and doc["source_text"]


def test_hosts_in_no_cluster_with_spare_hosts_survive_a_failure_after_the_refresh() -> None:
    d = estate()
    d.links = [lk for lk in d.links if lk.kind != "in_cluster"]
    d.components = [c for c in d.components if c.kind != "cluster"]
    d.policy["ha_spare_hosts"] = 1
    r = refresh(d, target("dell-r760", "Gold 6548Y+", 1024))
    report = host_failure(r.design)
    assert r.counts[""] >= 2 and not report.baseline and report.survives


# --------------------------------------------------------------------------- to vSAN


def _with_data(gb: float = 400.0) -> Design:
    d = estate()
    for vm in d.of_kind("vm"):
        vm.props["disk.used_gb"] = gb
    return d


def test_a_refresh_to_vsan_sizes_storage_with_compute_and_memory() -> None:
    """prod's 40 VMs of 400 GB on ESA RAID 5 with two 3.84 TB devices a host: compute and
    memory need 2 hosts, the data 15.6 TiB x 1.41 more: storage sets the count."""
    from models.analysis.refresh import vsan_target  # noqa: PLC0415

    base = _with_data()
    to = replace(target("dell-r760", "Gold 6548Y+", 1024),
                 vsan=vsan_target("esa", devices=2, device_tb=3.84))
    r = refresh(base, to, clusters=["prod"])
    prod = next(c for c in r.after.clusters if c["id"] == "prod")
    assert prod["set_by"] == "storage" and prod["vsan"]["free_tib"] >= 0
    assert prod["vsan"]["architecture"] == "esa" and prod["vsan"]["policy"] == "raid5"
    assert prod["hosts"] == prod["vsan"]["hosts_needed"] > 2
    assert all(h.get("vsan.devices") == 2 for h in r.design.of_kind("host")
               if h.id.startswith("prod-"))
    # kept as a scenario, its overrides and rebuild give the same figures
    base.scenarios.append(Scenario("vsan", list(r.overrides), r.rebuild))
    kept = evaluate(base, "vsan").to_dict()["vsan"]
    assert [v["hosts_needed"] for v in kept] == [prod["vsan"]["hosts_needed"]]
    assert host_failure(apply_scenario(base, "vsan")).survives
    assert r.to_dict()["target"]["vsan"]["devices"] == 2


def test_a_light_vsan_cluster_takes_the_policys_minimum() -> None:
    from models.analysis.refresh import vsan_target  # noqa: PLC0415

    to = replace(target("dell-r760", "Gold 6548Y+", 1024), vsan=vsan_target("osa", "raid6"))
    r = refresh(_with_data(10.0), to, clusters=["dmz"])
    dmz = next(c for c in r.after.clusters if c["id"] == "dmz")
    assert dmz["hosts"] == 6 and dmz["set_by"] == "vsan_min"
    assert dmz["set_by_text"] == "the vSAN policy's minimum hosts sets 6 hosts"


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"architecture": "vmfs"}, "--vsan takes esa or osa"),
    ({"architecture": "esa", "policy": "raid6", "ftt": 1}, "RAID 6 tolerates 2 failures"),
    ({"architecture": "esa", "devices": 0}, "--devices takes 1 to 64"),
    ({"architecture": "osa", "compression": 0.5}, "--compression takes 1.0 to 4.0"),
])
def test_a_vsan_out_of_range_is_refused_by_name(kwargs: dict[str, object], words: str) -> None:
    from models.analysis.refresh import vsan_target  # noqa: PLC0415

    with pytest.raises(DesignError, match=words):
        vsan_target(**kwargs)  # type: ignore[arg-type]


def test_every_new_host_reaches_the_clusters_shared_storage_not_a_hosts_local_disks() -> None:
    """prod's hosts each reached one shared datastore of their own and their local disks: a
    VM restarts only where its datastore is, so each new host reaches every shared one
    (a failure left the VMs of one datastore down and the refresh added hosts for nothing);
    a host's local disks stay one host's."""
    from models.document.design import Component, Link  # noqa: PLC0415

    d = estate()
    for i in range(4):
        d.components.append(Component(f"shared{i}", "storage_array", f"shared{i}"))
        d.links.append(Link(f"prod-h{i}", f"shared{i}", "storage"))
    d.components.append(Component("boot", "storage_array", "boot", props={"local": True}))
    d.links.append(Link("prod-h0", "boot", "storage"))
    for j, vm in enumerate(v for v in d.of_kind("vm") if v.id.startswith("prod-")):
        d.links.append(Link(vm.id, f"shared{j % 4}", "disk_on"))
    r = refresh(d, target("dell-r760", "Gold 6548Y+", 1024), clusters=["prod"])
    reach: dict[str, set[str]] = {}
    for lk in r.design.links:
        if lk.kind == "storage":
            reach.setdefault(lk.source, set()).add(lk.target)
    new = [h.id for h in r.design.of_kind("host") if h.id.startswith("prod-")]
    assert all({f"shared{i}" for i in range(4)} <= reach[h] for h in new)
    assert sum("boot" in reach[h] for h in new) == 1
    assert host_failure(r.design).survives and r.counts["prod"] == 2
