"""Capacity and policy: hosts needed by each cluster's admission control, DRS, overcommit,
storage capacity, and N+1 within a cluster."""

from __future__ import annotations

from typing import Any

import pytest

from models.analysis.failure import fail_host, host_failure
from models.document.design import Component, Design, Link
from models.engine.evaluation import evaluate

CAP = 16 * 1.15  # a 2 x 8-core hyperthreaded host, in core-equivalents


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


def test_a_memory_ceiling_keeps_memory_free_on_every_host() -> None:
    d = farm(n_hosts=4, n_vms=48, vm_pct=2.0)  # 384 GB of VMs on 128 GB hosts: memory binds
    full = evaluate(d).consolidation
    d.policy["memory_util_max"] = 0.75
    capped = evaluate(d).consolidation
    assert full.binding == capped.binding == "memory"
    assert full.hosts_needed == 3 and capped.hosts_needed == 4  # 96 of 128 GB a host
