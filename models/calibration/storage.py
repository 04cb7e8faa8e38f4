"""Storage calibration: the studies' testbeds rebuilt as designs and run through the engine.

Fitted coefficients live in :mod:`models.subsystems.storage` beside the case ids they were fitted
to; here each case becomes a :class:`~models.calibration.Check`.
"""

from __future__ import annotations

from typing import Any

from models.calibration import Check, middle, published
from models.calibration.fit import Fitter, Target
from models.core import coefficients
from models.core.prediction import Prediction
from models.document.design import Component, Design, Link
from models.engine.evaluation import evaluate
from models.subsystems import storage


def build_testbed(name: str, host: dict[str, Any], array: dict[str, Any], vm: dict[str, Any],
            n_vms: int = 1, n_hosts: int = 1, extra_vms: list[dict[str, Any]] | None = None
            ) -> Design:
    """``n_hosts`` identical hosts reaching one array, ``n_vms`` identical VMs spread over
    them (plus ``extra_vms``, each a props dict, on the first host)."""
    d = Design(name=name)
    d.components.append(Component("a1", "storage_array", "array", props=dict(array)))
    for i in range(n_hosts):
        d.components.append(Component(f"h{i + 1}", "host", f"host{i + 1}", props=dict(host)))
        d.links.append(Link(f"h{i + 1}", "a1", "storage"))
        d.components.append(Component(f"n{i + 1}", "nic", "vmnic0", props={"role": "vm"}))
        d.links.append(Link(f"n{i + 1}", f"h{i + 1}", "installed_in"))
    vms = [dict(vm) for _ in range(n_vms)] + [dict(p) for p in extra_vms or []]
    for i, props in enumerate(vms):
        vid = f"v{i + 1}"
        d.components.append(Component(vid, "vm", f"vm{i + 1}", props=props))
        d.links.append(Link(vid, f"h{i % n_hosts + 1}", "runs_on"))
        d.links.append(Link(vid, "a1", "disk_on"))
    return d


VAIO_HOST: dict[str, Any] = {"sockets": 2, "cores_per_socket": 8, "ghz": 2.4,
                             "cpu_model": "Intel Xeon E5-2665",
                             "memory_gb": 128, "esxi_version": "6.0", "hba_count": 1}
VAIO_SSD: dict[str, Any] = {"media": "ssd", "disks": 1, "raid": "none", "protocol": "sas",
                            "fabric_gbps": 6.0}
IOANALYZER: dict[str, Any] = {"vcpus": 1, "memory_gb": 1, "guest_os": "linux",
                              "vscsi": "pvscsi", "workload.profile": "iometer",
                              "workload.io_block_kb": 4, "workload.io_read_pct": 100,
                              "workload.io_random_pct": 0, "workload.io_oio": 128}


def vaio(n_vms: int = 1, filt: str = "none", **vm: Any) -> Prediction:
    """The VAIO study's Dell R720 + one Intel S3700 SSD with I/O Analyzer VMs."""
    props = dict(IOANALYZER, vaio_filter=filt)
    props.update({k.replace("__", "."): val for k, val in vm.items()})
    return evaluate(build_testbed("VAIO", VAIO_HOST, VAIO_SSD, props, n_vms))


FLASH_HOST: dict[str, Any] = {"sockets": 2, "cores_per_socket": 8, "ghz": 2.9,
                              "cpu_model": "Intel Xeon E5-2690",
                              "hyperthreading": False, "memory_gb": 256,
                              "esxi_version": "5.1", "hba_count": 10}
VIOLIN: dict[str, Any] = {"media": "ssd", "disks": 128, "raid": "none", "protocol": "fc",
                          "fabric_gbps": 8.0}
FLASH_VM: dict[str, Any] = {"vcpus": 8, "memory_gb": 48, "guest_os": "windows",
                            "vscsi": "pvscsi", "workload.profile": "iometer",
                            "workload.io_block_kb": 4, "workload.io_read_pct": 100,
                            "workload.io_random_pct": 100, "workload.io_oio": 256}


def _total_iops(p: Prediction) -> float:
    return float(p.vms.iops.sum())


def _esx35() -> Prediction:
    """ESX 3.5: 495 15K spindles behind 3 CLARiiON CX3-80 (4.0 is the oldest release
    modelled)."""
    return evaluate(build_testbed(
        "ESX 3.5", {"sockets": 4, "cores_per_socket": 4, "ghz": 2.9, "memory_gb": 32,
                    "esxi_version": "4.0", "hba_count": 6},
        {"media": "hdd15k", "disks": 495, "raid": "raid5", "protocol": "fc",
         "fabric_gbps": 4.0},
        dict(FLASH_VM, vcpus=4, **{"workload.io_block_kb": 8, "workload.io_oio": 100}), 8))


RAN_IT = ("Iometer keeps its I/Os in flight asynchronously: no process blocks on one, so the"
          " hypervisor's cost per blocking context switch (cpu_virt.event_us_51/60, fitted on"
          " the Oracle monster VM) is not charged, and each I/O costs the host only its path's"
          " own work (issue, adapter, completion)")
"""Why a flash host's CPU holds the rate the study ran."""


def _ran_it(case: str, p: Prediction) -> Check:
    """The study's host ran its published rate, so its CPU held what the model asks of it:
    the busiest host's CPU demand over its capacity (past 1 where the model asks more than
    the host has; its utilisation figure stops at 100 %) is at most 1."""
    demand = max((r.util for r in p.resources if r.resource == "host_cpu"), default=0.0)
    return Check(case, "host CPU demand / capacity at the published rate (it ran it)", 1.0,
                 demand, 0.0, "check", "lt", note=RAN_IT)


def checks() -> list[Check]:
    out: list[Check] = []
    # VAIO: one 1-vCPU VM, filter on / off
    off, on = vaio(1), vaio(1, "null")
    out.append(Check("storage-vaio-single-vm-iops-plus80", "IOPS ratio, 1 VM, filter on / off",
                     1.8, _total_iops(on) / _total_iops(off), 0.1, "fit",
                     note="fits ISSUE_US['sas'] and VAIO_OFFLOAD"))
    cpu_on = float(on.vms.cpu_cost_per_kiops[0])
    cpu_off = float(off.vms.cpu_cost_per_kiops[0])
    out.append(Check("storage-vaio-cpu-per-kiops-overhead",
                     "CPU per 1K IOPS increase with filter (%)", 15.0,
                     (cpu_on / cpu_off - 1.0) * 100.0, 1 / 3, "fit",
                     note="published range 10-20%; VAIO_CPU_EXTRA at its middle"))
    multi = vaio(1, vcpus=4)
    out.append(Check("storage-vaio-default-multi-vcpu-70k", "IOPS, 1 VM, 4 vCPUs, no filter",
                     70000.0, _total_iops(multi), 0.1, "check", "gt"))
    # one filtered VMDK adds one schedulable context: the filter station exists per VM
    n16_on, n16_off = vaio(16, "null"), vaio(16)
    out.append(Check("storage-vaio-extra-context-per-vmdk",
                     "IOPS ratio, 16 VMs, filter on / off (extra context hidden by the SSD)",
                     1.0, _total_iops(n16_on) / _total_iops(n16_off), 0.05, "rule",
                     note="one filter context per filtered VMDK; device-bound beyond 1 VM"))
    # flash: one 8-vCPU VM over 1M IOPS (vSphere 5.1)
    flash = evaluate(build_testbed("flash 5.1", FLASH_HOST, VIOLIN, FLASH_VM))
    out.append(Check("storage-vsphere51-flash-1m-iops-vm", "IOPS, one 8-vCPU VM, 4K read",
                     1.0e6, _total_iops(flash), 0.1, "fit", "gt", note="fits ISSUE_US['fc']"))
    # the host ran that rate: its CPU held the I/O path and the hypervisor's events
    out.append(_ran_it("storage-vsphere51-flash-1m-iops-vm", flash))
    # vSphere 5.0: 300K from one VM, a million+ from one host
    # the million-IOPS host: its processor is not stated (its clock alone)
    host50 = dict(FLASH_HOST, esxi_version="5.0", sockets=4, hba_count=16, cpu_model="")
    one = evaluate(build_testbed("1M host, 1 VM", host50, VIOLIN, FLASH_VM))
    out.append(Check("storage-300k-iops-single-vm", "IOPS, one VM, ESXi 5.0", 300000.0,
                     _total_iops(one), 0.1, "fit", note="fits VM_WORLD_IOPS_LEGACY"))
    many = evaluate(build_testbed("1M host, 6 VMs", host50, dict(VIOLIN, disks=256), FLASH_VM, 6))
    out.append(Check("storage-million-iops-single-host", "IOPS, one host, 6 VMs, ESXi 5.0",
                     1.0e6, _total_iops(many), 0.1, "check", "gt"))
    out.append(_ran_it("storage-million-iops-single-host", many))
    esx35 = _esx35()
    out.append(Check("storage-esx35-100k-iops", "IOPS, 8 VMs, 495 x 15K drives, reads",
                     100000.0, _total_iops(esx35), 0.1, "fit", "gt",
                     note="fits DRIVE_IOPS['hdd15k']"))
    out.extend(_raid_checks())
    out.extend(_pvscsi_checks())
    out.extend(_sioc_checks())
    return out


def _raid_checks() -> list[Check]:
    host = {"esxi_version": "6.0", "hba_count": 2}
    vm = dict(FLASH_VM, **{"workload.io_read_pct": 70, "workload.io_oio": 512})
    hdd = {"media": "hdd10k", "disks": 20, "raid": "raid5", "protocol": "fc"}
    r5 = _total_iops(evaluate(build_testbed("raid5", host, hdd, vm)))
    r10 = _total_iops(evaluate(build_testbed("raid10", host, dict(hdd, raid="raid10"), vm)))
    # the formula: N x per-drive / (read + write x penalty), 70/30 mix
    ratio = (0.7 + 0.3 * 4) / (0.7 + 0.3 * 2)
    return [Check("storage-raid-group-performance-formula",
                  "IOPS ratio RAID-10 / RAID-5, 20 x 10K drives, 70% read", ratio, r10 / r5,
                  0.05, "rule", note="drives minus RAID overhead, saturated array")]


def _pvscsi_checks() -> list[Check]:
    host = {"esxi_version": "6.0", "hba_count": 2}
    arr = {"media": "ssd", "disks": 8, "raid": "raid10", "protocol": "fc"}
    vm = dict(FLASH_VM, **{"workload.io_oio": 32})
    pv = evaluate(build_testbed("pvscsi", host, arr, vm))
    lsi = evaluate(build_testbed("lsi", host, arr, dict(vm, vscsi="lsi_sas")))
    cut = (1 - float(pv.vms.cpu_cost_per_kiops[0]) / float(lsi.vms.cpu_cost_per_kiops[0]))
    return [Check("storage-pvscsi-cpio-reduction", "CPU per I/O cut, PVSCSI vs LSI (%), FC",
                  20.0, cut * 100.0, 0.5, "fit", note="published range 10-30%")]


SIOC_HOST: dict[str, Any] = {"esxi_version": "5.0", "hba_count": 0}
SIOC_NFS: dict[str, Any] = {"media": "hdd10k", "disks": 12, "raid": "raid5",
                            "protocol": "nfs", "fabric_gbps": 10.0}
SIOC_OLTP: dict[str, Any] = {"vcpus": 2, "workload.profile": "oltp", "workload.io_block_kb": 8,
                             "workload.io_read_pct": 70, "workload.io_oio": 16}
BULK_OIO = coefficients.declare(
    "testbed.storage.sioc_bulk_oio", "I/Os", 32.0,
    "Testbed input, not an engine coefficient: the SIOC study gives no testbed, so the 32K"
    " tenant's outstanding I/Os are chosen (a whole number) so that SIOC improves the OLTP VM's"
    " response time by 10% (storage-sioc-nfs-response-time-10pct).  Prior: 32.")


def sioc_bulk() -> dict[str, Any]:
    return {"vcpus": 2, "workload.profile": "iometer", "workload.io_block_kb": 32,
            "workload.io_read_pct": 100, "workload.io_random_pct": 0,
            "workload.io_oio": round(BULK_OIO.value)}


def sioc_pair(on: bool) -> Prediction:
    """An OLTP VM (8K) sharing an NFS datastore with a large-I/O VM (32K)."""
    arr = dict(SIOC_NFS, sioc=on)
    return evaluate(build_testbed("SIOC", SIOC_HOST, arr, SIOC_OLTP, 1, extra_vms=[sioc_bulk()]))


def _sioc_checks() -> list[Check]:
    off, on = sioc_pair(False), sioc_pair(True)
    gain = _sioc_gain()
    total_off, total_on = _total_iops(off), _total_iops(on)
    out = [Check("storage-sioc-nfs-response-time-10pct",
                 "OLTP response-time improvement with SIOC (%)", 10.0, gain, 0.5, "fit",
                 note="testbed not in the text: assumed 12 x 10K RAID-5 NFS, OLTP 16 OIO;"
                 " the 32K tenant's OIO (36) was chosen to fit")]
    # work conserving: with SIOC on, the array stays as busy (no utilisation loss)
    util_off = float(off.arrays.util[0])
    util_on = float(on.arrays.util[0])
    out.append(Check("storage-sioc-work-conserving-redistribution",
                     "array utilisation, SIOC on / off", 1.0, util_on / util_off, 0.05, "rule"))
    out.append(Check("storage-sioc-nfs-exec-summary",
                     "total IOPS, SIOC on / off (no utilisation loss)", 1.0,
                     total_on / total_off, 0.1, "rule"))
    return out


def _sioc_gain() -> float:
    off, on = sioc_pair(False), sioc_pair(True)
    return (1 - float(on.vms.latency_ms[0]) / float(off.vms.latency_ms[0])) * 100.0


def fit(f: Fitter) -> None:
    """Stated ranges' middles in closed form; the SAS issue path by root on VAIO's +80%; bound
    fits (the prior unless the bound breaks it) for FC's issue path and the 15K drive."""
    cut, extra = "storage-pvscsi-cpio-reduction", "storage-vaio-cpu-per-kiops-overhead"
    f.closed(storage.PVSCSI_CUT, [cut], lambda: middle(cut, "fc_pct") / 100.0,
             note="the middle of the stated 10-30% on FC")
    f.closed(storage.VAIO_CPU_EXTRA, [extra], lambda: middle(extra, "increase_pct") / 100.0,
             note="the middle of the stated 10-20%")
    plus = "storage-vaio-single-vm-iops-plus80"
    f.root(storage.ISSUE_SAS_US, [plus],
           lambda: _total_iops(vaio(1, "null")) / _total_iops(vaio(1))
           - float(published(plus, "iofilter_over_default")), 2.0, 200.0)
    flash = "storage-vsphere51-flash-1m-iops-vm"
    f.least_squares([storage.ISSUE_FC_US], lambda: [Target(
        flash, _total_iops(evaluate(build_testbed("flash 5.1", FLASH_HOST, VIOLIN, FLASH_VM))),
        float(published(flash, "single_8vcpu_vm_iops", "gt")), "gt")],
        note="a lower bound ('exceeding one million IOPS')")
    world = "storage-300k-iops-single-vm"
    f.closed(storage.VM_WORLD_IOPS_LEGACY, [world], lambda: float(published(world, "iops")))
    esx = "storage-esx35-100k-iops"
    f.least_squares([storage.HDD15K_IOPS], lambda: [Target(
        esx, _total_iops(_esx35()), float(published(esx, "iops", "gt")), "gt")],
        note="a lower bound ('over 100,000 IOPS' from 495 drives)")
    sioc = "storage-sioc-nfs-response-time-10pct"

    def bulk_oio() -> float:
        want = float(published(sioc, "improvement_pct"))
        best, err = 1, float("inf")
        for oio in range(1, 129):
            with coefficients.using({BULK_OIO.name: float(oio)}):
                e = abs(_sioc_gain() - want)
            if e < err:
                best, err = oio, e
        return float(best)

    f.closed(BULK_OIO, [sioc], bulk_oio, note="a whole number: the closest to 10%")
