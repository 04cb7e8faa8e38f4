"""A small estate on old hardware for the refresh tests: cluster ``prod`` of four 2 x 8-core
Xeon E5-2680 hosts at 2.7 GHz with 40 VMs, cluster ``dmz`` of two 2 x 6-core Xeon X5675 hosts
with 8 VMs (HA: one failover host each), every VM's measured CPU solved at its host's speed
(``workload.cpu_ghz``)."""

from __future__ import annotations

from models.core.platform import REF_GHZ, reference_specrate
from models.document.catalogue import processors
from models.document.design import Component, Design, Link

OLD = {"prod": ("Intel(R) Xeon(R) CPU E5-2680 0 @ 2.70GHz", 8, 2.7, 256.0, 4, 40),
       "dmz": ("Intel(R) Xeon(R) CPU X5675 @ 3.07GHz", 6, 3.07, 192.0, 2, 8)}
"""Cluster -> (processor, cores per socket, GHz, memory GB, hosts, VMs)."""
VM_PCT = 30.0
VM_VCPUS = 4
VM_GB = 16.0


def speed(cpu: str, ghz: float) -> float:
    """A host's per-core speed over the reference core's (as the platform model has it)."""
    p = processors.match(cpu)
    assert p is not None and p.ghz
    return p.specrate_per_core / reference_specrate() * ghz / p.ghz


def estate() -> Design:
    d = Design(name="old estate")
    for cid, (cpu, cores, ghz, mem, hosts, vms) in OLD.items():
        d.components.append(Component(cid, "cluster", cid))
        for i in range(hosts):
            hid = f"{cid}-h{i}"
            d.components.append(Component(hid, "host", hid, props={
                "sockets": 2, "cores_per_socket": cores, "ghz": ghz, "cpu_model": cpu,
                "memory_gb": mem, "esxi_version": "6.0", "measured.cpu_pct": 40.0}))
            d.links.append(Link(hid, cid, "in_cluster"))
        for j in range(vms):
            vid = f"{cid}-v{j}"
            d.components.append(Component(vid, "vm", vid, props={
                "vcpus": VM_VCPUS, "memory_gb": VM_GB, "workload.profile": "measured",
                "workload.cpu_pct": VM_PCT, "workload.cpu_ghz": speed(cpu, ghz) * REF_GHZ}))
            d.links.append(Link(vid, f"{cid}-h{j % hosts}", "runs_on"))
    return d


def work() -> dict[str, float]:
    """Each cluster's CPU demand in reference cores: its VMs' shares at their hosts' speed."""
    return {cid: vms * VM_VCPUS * VM_PCT / 100.0 * speed(cpu, ghz)
            for cid, (cpu, _, ghz, _, _, vms) in OLD.items()}
