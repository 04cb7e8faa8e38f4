"""Capacity and policy: hosts needed by each cluster's admission control, DRS, overcommit,
storage capacity, and N+1 within a cluster."""

from __future__ import annotations

from typing import Any

import pytest

from models.analysis.failure import fail_host, host_failure
from models.core.platform import HT_THROUGHPUT
from models.document.design import Component, Design, Link
from models.engine.evaluation import evaluate

CAP = 16 * HT_THROUGHPUT  # a 2 x 8-core hyperthreaded host, in core-equivalents


def farm(n_hosts: int = 4, n_vms: int = 8, cluster: dict[str, Any] | None = None,
         vm_pct: float = 50.0, skew: bool = False) -> Design:
    """Hosts of 16 cores and 128 GB; VMs of 4 vCPUs busy ``vm_pct`` and 8 GB, no I/O."""
    d = Design(name="farm", policy={"cpu_util_max": 0.8})
    for i in range(n_hosts):
        d.components.append(Component(f"h{i}", "host", props={
            "sockets": 2, "cores_per_socket": 8, "hyperthreading": True, "memory_gb": 128.0}))
    for j in range(n_vms):
        d.components.append(Component(f"v{j}", "vm", props={
            "vcpus": 4, "memory_gb": 8.0, "workload.profile": "measured",
            "workload.cpu_pct": vm_pct}))
        d.links.append(Link(f"v{j}", "h0" if skew else f"h{j % n_hosts}", "runs_on"))
    if cluster is not None:
        d.components.append(Component("c1", "cluster", "prod", props=cluster))
        d.links += [Link(f"h{i}", "c1", "in_cluster") for i in range(n_hosts)]
    return d


def test_without_clusters_hosts_needed_is_the_consolidation_figure() -> None:
    pred = evaluate(farm())
    cons = pred.consolidation
    assert cons.max_vms_per_host_by_cpu == int(0.8 * CAP / 2.0)
    assert cons.hosts_needed == -(-8 // cons.max_vms_per_host_by_cpu)
    group = pred.sections.to_json()["capacity"]["clusters"]
    assert [g["name"] for g in group] == ["design"]


@pytest.mark.parametrize(("policy", "reserve"), [
    ({"admission_control": "failover_hosts", "failover_hosts": 1}, 1),
    ({"admission_control": "failover_hosts", "failover_hosts": 2}, 2),
    ({"admission_control": "disabled"}, 0),
    ({"ha_enabled": False, "failover_hosts": 3}, 0),
])
def test_failover_hosts_are_added_to_what_the_load_needs(policy: dict[str, Any],
                                                          reserve: int) -> None:
    pred = evaluate(farm(cluster=policy))
    demand = 8 * 2.0  # 8 VMs x 4 vCPUs x 50%
    load = -(-demand // (0.8 * CAP))
    assert pred.consolidation.hosts_needed == load + reserve
    row = pred.sections.to_json()["capacity"]["clusters"][0]
    assert row["reserve_hosts"] == reserve and row["binding"] == "cpu"


def test_a_percentage_policy_needs_the_load_over_what_it_leaves() -> None:
    pred = evaluate(farm(cluster={"admission_control": "percentage", "cpu_failover_pct": 50.0,
                                  "memory_failover_pct": 50.0}))
    assert pred.consolidation.hosts_needed == -(-16.0 // (0.8 * CAP * 0.5))
    row = pred.sections.to_json()["capacity"]["clusters"][0]
    assert "50% CPU" in row["admission_control"]


def test_drs_off_lets_the_busiest_host_bind() -> None:
    on = evaluate(farm(cluster={"drs_enabled": True}, skew=True))
    off = evaluate(farm(cluster={"drs_enabled": False}, skew=True))
    assert off.sections.to_json()["capacity"]["clusters"][0]["drs_imbalance"] == pytest.approx(4.0)
    assert (off.consolidation.hosts_needed or 0) > (on.consolidation.hosts_needed or 0)


def test_a_cluster_short_of_hosts_warns() -> None:
    pred = evaluate(farm(n_hosts=2, n_vms=16, vm_pct=80.0,
                         cluster={"failover_hosts": 1}))
    row = pred.sections.to_json()["capacity"]["clusters"][0]
    assert row["short_by_hosts"] == row["hosts_needed"] - 2 > 0
    assert any("cluster c1: 2 hosts" in w for w in pred.warnings)


def test_overcommit_and_storage_capacity_with_growth() -> None:
    d = farm()
    d.components.append(Component("a1", "storage_array", props={
        "capacity_gb": 1000.0, "used_gb": 600.0, "provisioned_gb": 1500.0, "thin": True}))
    d.policy["storage_growth_pct"] = 100.0
    cap = evaluate(d).sections.to_json()["capacity"]
    assert cap["vcpu_per_core"] == pytest.approx(32 / 64)
    assert cap["memory_overcommit"] == pytest.approx(64 / 512)
    st = cap["storage"]
    assert st["needed_gb"] == 1200.0 and st["short_gb"] == 200.0
    assert st["arrays"][0]["provisioned_ratio"] == 1.5
    d.policy["storage_growth_pct"] = 0.0
    assert evaluate(d).sections.to_json()["capacity"]["storage"]["short_gb"] == 0.0


def test_measured_memory_counts_what_the_vms_hold() -> None:
    d = farm()
    before = evaluate(d).hosts.memory_util[0]
    for v in d.of_kind("vm"):
        v.props["workload.memory_gb"] = 2.0
    assert evaluate(d).hosts.memory_util[0] == pytest.approx(before / 4)


def test_n_plus_1_restarts_within_the_cluster_and_not_at_all_with_ha_off() -> None:
    d = farm(n_hosts=4, n_vms=8, cluster={"failover_hosts": 1})
    d.components.append(Component("h9", "host", props={"sockets": 2, "cores_per_socket": 8}))
    _, res = fail_host(d, "h0")
    assert {h for _, h in res.restarted} <= {"h1", "h2", "h3"}
    assert any("reserves 1 host" in n for n in res.notes)
    d.component("c1").props["ha_enabled"] = False  # type: ignore[union-attr]
    _, res = fail_host(d, "h0")
    assert res.restarted == [] and sorted(res.not_restarted) == ["v0", "v4"]
    assert any("HA is off" in n for n in res.notes)
    report = host_failure(d, ["h0"])
    assert not report.survives


def test_a_hosts_background_load_counts_as_demand_and_in_hosts_needed() -> None:
    """The VMs an export does not list (a host's background, issue 22) load their host and
    need room in their cluster: as many more VMs of the mix as demand as much."""
    d = farm(cluster={"admission_control": "disabled"})
    before = evaluate(d)
    assert before.consolidation.hosts_needed == 2  # 8 VMs of 2 cores, 7 a host at 80%
    h0, h1 = d.component("h0"), d.component("h1")
    assert h0 is not None and h1 is not None
    h0.props.update({"background.cpu_cores": 0.4 * CAP, "background.memory_gb": 16.0})
    h1.props.update({"background.cpu_cores": 0.4 * CAP})
    after = evaluate(d)
    assert after.hosts.cpu_util[0] == pytest.approx(before.hosts.cpu_util[0] + 0.4)
    assert after.hosts.memory_util[0] == pytest.approx(before.hosts.memory_util[0] + 16 / 128)
    assert after.consolidation.hosts_needed == 3  # a host's worth of CPU at 80% more
    cl = after.sections.to_json()["capacity"]["clusters"][0]
    assert cl["cpu_demand_cores"] == pytest.approx(16.0 + 0.8 * CAP)
    # the bottleneck list says the load is not the listed VMs' alone
    said = {(r.component, r.resource): r.explanation for r in after.resources}
    assert "VMs and the unlisted VMs' background hold" in said[("h0", "host_memory")]
    assert "h0: VMs and the unlisted VMs' background demand" in said[("h0", "host_cpu")]
    assert ": VMs hold" in {(r.component, r.resource): r.explanation
                            for r in before.resources}[("h0", "host_memory")]
    # measured at another clock, the same work on these 2.4 GHz cores
    h0.props["background.cpu_ghz"] = 1.2
    assert evaluate(d).hosts.cpu_util[0] == pytest.approx(before.hosts.cpu_util[0] + 0.2)


def test_a_cluster_of_background_alone_needs_hosts_for_it() -> None:
    """A cluster whose VMs an export left out entirely still needs hosts for their load."""
    d = farm(n_vms=0, cluster={"admission_control": "failover_hosts", "failover_hosts": 1})
    d.components.append(Component("v0", "vm", props={"vcpus": 1}))  # elsewhere: no cluster
    d.components.append(Component("hx", "host"))
    d.links.append(Link("v0", "hx", "runs_on"))
    for i in range(4):
        d.component(f"h{i}").props["background.cpu_cores"] = 0.5 * CAP  # type: ignore[union-attr]
    cl = next(g for g in evaluate(d).sections.to_json()["capacity"]["clusters"]
              if g["id"] == "c1")
    assert cl["vms"] == 0 and cl["hosts_needed"] == 3 + 1  # 2.5 hosts at 80%, one failover
    assert cl["binding"] == "cpu"


def test_a_failed_partial_hosts_unlisted_vms_restart_on_the_survivors() -> None:
    d = farm(cluster={"admission_control": "failover_hosts", "failover_hosts": 1})
    d.component("h0").props.update({  # type: ignore[union-attr]
        "background.cpu_cores": 6.0, "background.cpu_ghz": 2.4, "background.memory_gb": 30.0,
        "measured.vms": 12, "measured.vms_listed": 2})
    failed, res = fail_host(d, "h0")
    for hid in ("h1", "h2", "h3"):
        h = failed.component(hid)
        assert h is not None and h.props["background.cpu_cores"] == pytest.approx(2.0)
        assert h.props["background.memory_gb"] == pytest.approx(10.0)
    assert any("10 VMs the export does not list" in n for n in res.notes)
    assert "background.cpu_cores" not in d.component("h1").props  # type: ignore[union-attr]
    # a whole host's background is its own hypervisor's: it goes down with it
    d.component("h0").props["measured.vms"] = 2  # type: ignore[union-attr]
    failed, _ = fail_host(d, "h0")
    assert "background.cpu_cores" not in failed.component("h1").props  # type: ignore[union-attr]


def test_the_policys_overcommit_ceilings_count_when_set() -> None:
    """Off by default; a vCPU:core or memory overcommit ceiling holds fewer VMs per host."""
    assert evaluate(farm(n_vms=40)).consolidation.binding == "cpu"
    d = farm(n_vms=40)
    d.policy["vcpu_per_core_max"] = 1.0  # 16 cores: 4 VMs of 4 vCPUs per host
    cons = evaluate(d).consolidation
    assert cons.binding == "vcpu" and cons.hosts_needed == 10
    d = farm(n_vms=40)
    d.policy["memory_overcommit_max"] = 0.25  # 32 of 128 GB: 4 VMs of 8 GB per host
    cons = evaluate(d).consolidation
    assert cons.binding == "overcommit" and cons.hosts_needed == 10


def test_a_memory_ceiling_keeps_memory_free_on_every_host() -> None:
    d = farm(n_hosts=4, n_vms=48, vm_pct=2.0)  # 384 GB of VMs on 128 GB hosts: memory binds
    full = evaluate(d).consolidation
    d.policy["memory_util_max"] = 0.75
    capped = evaluate(d).consolidation
    assert full.binding == capped.binding == "memory"
    assert full.hosts_needed == 3 and capped.hosts_needed == 4  # 96 of 128 GB a host
