"""vSAN capacity against hand calculations from VMware's published rules
(``../shared/reference/vsan-sizing.md``): raw from the hosts' devices, the policy's layout,
ESA's 13.1 % overhead, the reserves, hosts needed by storage and the policy's minimum."""

from __future__ import annotations

import pytest

from models.document.design import Component, Design, Link
from models.document.schema import Value
from models.engine.evaluation import evaluate
from models.subsystems.vsan import layout, min_hosts

TIB = 5 * 3.84e12 / 2**40
"""One host's raw: five 3.84 TB NVMe devices, in TiB."""


def cluster(hosts: int = 6, data_gb: float = 20 * 1024, policy: str = "raid5",
            arch: str = "esa", props: dict[str, Value] | None = None) -> Design:
    """``hosts`` hosts of five 3.84 TB devices each, 20 VMs holding ``data_gb`` in all."""
    d = Design(name="vsan")
    d.components.append(Component("cl", "cluster", "vsan-cl", props={
        "vsan.architecture": arch, "vsan.policy": policy, **(props or {})}))
    for i in range(hosts):
        d.components.append(Component(f"h{i}", "host", f"h{i}", props={
            "sockets": 2, "cores_per_socket": 32, "memory_gb": 1024.0,
            "cpu_model": "Intel Xeon Gold 6548Y+", "vsan.devices": 5,
            "vsan.device_tb": 3.84}))
        d.links.append(Link(f"h{i}", "cl", "in_cluster"))
    for j in range(20):
        d.components.append(Component(f"v{j}", "vm", f"v{j}", props={
            "vcpus": 2, "memory_gb": 8.0, "disk.used_gb": data_gb / 20,
            "disk.provisioned_gb": data_gb / 10}))
        d.links.append(Link(f"v{j}", f"h{j % hosts}", "runs_on"))
    return d


def test_the_layouts_and_minimums_are_vmwares() -> None:
    assert layout("osa", "raid1", 1, 4) == pytest.approx(2 * 1.01)
    assert layout("esa", "raid1", 2, 6) == pytest.approx(3 * 1.131)
    assert layout("osa", "raid5", 1, 4) == pytest.approx(4 / 3 * 1.01)
    assert layout("esa", "raid5", 1, 5) == pytest.approx(1.5 * 1.131)  # 2+1 below 6
    assert layout("esa", "raid5", 1, 6) == pytest.approx(1.25 * 1.131)  # 4+1 from 6
    assert layout("esa", "raid6", 2, 6) == pytest.approx(1.5 * 1.131)
    assert [min_hosts("osa", "raid1", f) for f in (1, 2, 3)] == [3, 5, 7]
    assert (min_hosts("osa", "raid5", 1), min_hosts("esa", "raid5", 1),
            min_hosts("esa", "raid6", 2)) == (4, 3, 6)


def test_six_esa_hosts_raid5_against_the_hand_calculation() -> None:
    p = evaluate(cluster())
    v = p.to_dict()["vsan"][0]
    raw = 6 * TIB
    reserve = TIB + 0.10 * raw  # the largest host, and 10 % for operations
    usable = (raw - reserve) / (1.25 * 1.131)
    assert v["raw_tib"] == pytest.approx(raw) and v["reserve_tib"] == pytest.approx(reserve)
    assert v["usable_tib"] == pytest.approx(usable)
    assert v["data_tib"] == pytest.approx(20.0)
    assert v["free_tib"] == pytest.approx(usable - 20.0)
    # by hand: 3 hosts hold 29.7 TiB after reserves, under the 33.9 the data takes at 2+1;
    # 4 hold 45.4
    assert v["min_hosts"] == 3 and v["hosts_needed"] == 4
    assert set(v) >= {"cluster", "architecture", "policy", "hosts", "write_latency_ms",
                      "read_latency_ms"}


def test_storage_sets_the_count_where_the_data_needs_more_hosts() -> None:
    """80 TiB of data on RAID 1 FTT 1 ESA: 2 x 1.131 x 80 = 181 TiB of raw; with each host's
    17.5 TiB, 10 % and the largest host kept, 13 hosts (CPU and memory need 1)."""
    p = evaluate(cluster(data_gb=80 * 1024, policy="raid1"))
    assert p.sections.capacity is not None
    row = p.sections.capacity.clusters[0]
    assert row.binding == "storage" and row.hosts_needed == 13
    assert p.consolidation.binding == "storage"
    need = 2 * 1.131 * 80
    assert 12 * TIB * 0.9 - TIB < need <= 13 * TIB * 0.9 - TIB


def test_the_policys_minimum_sets_the_count_of_a_light_cluster() -> None:
    p = evaluate(cluster(hosts=6, data_gb=100, policy="raid6"))
    assert p.sections.capacity is not None
    row = p.sections.capacity.clusters[0]
    assert row.hosts_needed == 6 and row.binding == "vsan_min"


def test_thick_disks_compression_and_a_vms_own_policy() -> None:
    thin = evaluate(cluster()).to_dict()["vsan"][0]
    thick = evaluate(cluster(props={"vsan.thin": False})).to_dict()["vsan"][0]
    assert thick["data_tib"] == pytest.approx(2 * thin["data_tib"])
    packed = evaluate(cluster(props={"vsan.compression": 2.0})).to_dict()["vsan"][0]
    assert packed["free_tib"] == pytest.approx(packed["usable_tib"] - 10.0)
    d = cluster()
    for vm in d.of_kind("vm"):
        vm.props["vsan.policy"] = "raid1"  # mirrored: 2 copies, not 4+1
    mirrored = evaluate(d).to_dict()["vsan"][0]
    assert mirrored["usable_tib"] == pytest.approx(
        thin["usable_tib"] * 1.25 / 2.0)


def test_a_stretched_cluster_keeps_thirty_percent_free() -> None:
    d = cluster(policy="raid1")
    for s in ("a", "b"):
        d.components.append(Component(s, "site", s))
    for i, h in enumerate(d.of_kind("host")):
        d.links.append(Link(h.id, "a" if i % 2 else "b", "located_at"))
    v = evaluate(d).to_dict()["vsan"][0]
    assert v["reserve_tib"] == pytest.approx(0.3 * 6 * TIB)


def test_a_design_without_vsan_has_no_vsan_list() -> None:
    assert "vsan" not in evaluate(cluster(arch="none")).to_dict()


def test_licensing_counts_the_vsan_capacity_the_edition_entitles() -> None:
    """VCF entitles 1 TiB of vSAN raw per licensed core, VVF 0.25 TiB: six hosts of 2 x 32
    cores license 384 cores, 384 or 96 TiB against the cluster's 104.8 TiB of raw."""
    d = cluster()
    lic = evaluate(d).sections.capacity
    assert lic is not None and lic.licensing is not None
    assert lic.licensing.vsan_entitled_tib == 384 and lic.licensing.vsan_addon_tib == 0
    d.policy["licence_edition"] = "vvf"
    vvf = evaluate(d).sections.capacity
    assert vvf is not None and vvf.licensing is not None
    assert vvf.licensing.vsan_entitled_tib == pytest.approx(96.0)
    assert vvf.licensing.vsan_addon_tib == pytest.approx(6 * TIB - 96.0)
