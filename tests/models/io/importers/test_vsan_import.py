"""A vSAN datastore in an inventory is its cluster's vSAN: the cluster runs vSAN, its hosts
hold the datastore's capacity (devices not in the inventory: one a host, said so), the VMs'
disks are the data, and hosts needed counts it."""

from __future__ import annotations

import pytest

from models.engine.evaluation import evaluate
from models.io.importers import (
    ClusterRecord,
    DatastoreRecord,
    Estate,
    HostRecord,
    ImportReport,
    VmRecord,
)
from models.io.importers.build import build_design


def estate(version: str = "8.0") -> Estate:
    hosts = [HostRecord(f"esx{i}", "vHost", cluster="vsan-cl", cpu_model="Intel Xeon Gold 6430",
                        sockets=2, cores_per_socket=32, mhz=2100, memory_mib=512 * 1024,
                        version=version) for i in range(4)]
    vms = [VmRecord(f"vm{j}", "vInfo", host=f"esx{j % 4}", cluster="vsan-cl", vcpus=2,
                    memory_mib=8192, datastores=["vsanDatastore"], in_use_mib=200 * 1024,
                    provisioned_mib=400 * 1024) for j in range(20)]
    ds = DatastoreRecord("vsanDatastore", "vDatastore", type="vsan",
                         capacity_mib=4 * 7.68e12 / 2**20, hosts=[h.name for h in hosts])
    return Estate("test", hosts, vms, [ds], [ClusterRecord("vsan-cl", "vCluster")])


@pytest.mark.parametrize(("version", "arch"), [("8.0", "esa"), ("7.0", "osa")])
def test_a_vsan_datastore_is_its_clusters_vsan(version: str, arch: str) -> None:
    report = ImportReport("test")
    d = build_design(estate(version), report)
    cl = next(c for c in d.of_kind("cluster"))
    assert cl.get("vsan.architecture") == arch and cl.get("vsan.policy") == "raid1"
    # 7.68 TB a host: two assumed 3.84 TB devices (OSA: in two disk groups)
    assert all(h.get("vsan.devices") == 2 and h.get("vsan.device_tb") == pytest.approx(3.84)
               and h.get("vsan.disk_groups") == (2 if arch == "osa" else 0)
               for h in d.of_kind("host"))
    note = next(n for n in report.notes if n.startswith("vSAN datastore vsanDatastore"))
    assert "devices are not in the inventory" in note and "RAID 1 FTT 1" in note
    v = evaluate(d).to_dict()["vsan"][0]
    assert v["raw_tib"] == pytest.approx(4 * 7.68e12 / 2**40, rel=1e-3)
    assert v["data_tib"] == pytest.approx(20 * 200 / 1024, rel=1e-3)
