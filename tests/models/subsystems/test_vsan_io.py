"""vSAN's I/O path (:mod:`models.subsystems.vsan_io`): the write path per architecture and
layout, reads not amplified, the replica and inter-site round trips, vSAN's CPU per I/O on the
host and its memory by Broadcom KB 2113954, against hand calculations."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models.calibration.stretched import dvdstore_cluster, dvdstore_vm
from models.core.compiled import compile_design
from models.core.platform import HT_THROUGHPUT, compute, processor_speed
from models.core.prediction import Prediction
from models.core.sections import VsanCluster
from models.document.design import Component, Design, Link
from models.document.schema import Value
from models.engine.evaluation import evaluate
from models.subsystems import stretched, vsan_io
from models.subsystems.vsan_io import osa_memory_mb, write_path

HOST: dict[str, Value] = {"sockets": 2, "cores_per_socket": 32, "memory_gb": 1024.0,
        "cpu_model": "Intel Xeon Gold 6548Y+", "hba_count": 0}
DEVICES: dict[str, dict[str, Value]] = {
    "esa": {"vsan.devices": 5, "vsan.device_tb": 3.84},
    "osa": {"vsan.devices": 6, "vsan.device_tb": 3.84, "vsan.disk_groups": 2,
            "vsan.cache_gb": 800.0}}


def six(arch: str, policy: str, oio: int = 2, read_pct: float = 70.0,
        iops: float | None = None, vms_per_host: int = 4) -> Design:
    """Six hosts of a vSAN cluster (ESA: five NVMe devices each; OSA: two disk groups of an
    800 GB cache device and three capacity devices), its datastore reached by every host,
    ``vms_per_host`` OLTP VMs a host on it (8 KB, ``read_pct`` reads, ``oio`` outstanding or
    ``iops`` offered)."""
    d = Design(name=f"six {arch} {policy}")
    d.components.append(Component("cl", "cluster", "vsan-cl", props={
        "vsan.architecture": arch, "vsan.policy": policy}))
    d.components.append(Component("ds", "storage_array", "vsanDatastore",
                                  props={"protocol": "vsan", "fabric_gbps": 25.0}))
    for i in range(6):
        d.components.append(Component(f"h{i}", "host", f"h{i}",
                                      props={**HOST, **DEVICES[arch]}))
        d.links.append(Link(f"h{i}", "cl", "in_cluster"))
        d.links.append(Link(f"h{i}", "ds", "storage"))
        for k in range(vms_per_host):
            vid = f"v{i}-{k}"
            props: dict[str, Value] = {
                "vcpus": 4, "memory_gb": 16.0, "workload.profile": "oltp",
                "workload.io_block_kb": 8, "workload.io_read_pct": read_pct,
                "workload.io_oio": oio, "disk.used_gb": 200.0}
            if iops is not None:
                props["workload.io_iops"] = iops
            d.components.append(Component(vid, "vm", vid, props=props))
            d.links.append(Link(vid, f"h{i}", "runs_on"))
            d.links.append(Link(vid, "ds", "disk_on"))
    return d


def vsan_of(p: Prediction) -> VsanCluster:
    assert p.sections.capacity is not None and p.sections.capacity.vsan
    return p.sections.capacity.vsan[0]


def latencies(arch: str, policy: str, **kw: float) -> tuple[float, float]:
    """The cluster's write and read latency (ms; NaN for no writes)."""
    v = vsan_of(evaluate(six(arch, policy, **kw)))  # type: ignore[arg-type]
    assert v.read_latency_ms is not None
    return (math.nan if v.write_latency_ms is None else v.write_latency_ms), v.read_latency_ms


def test_the_write_path_per_architecture_and_layout() -> None:
    """Device I/Os per guest write (work) and in series on its critical path, by hand: RAID 1
    writes its FTT+1 copies at once; OSA RAID 5/6 read-modify-write (2 + 2, 3 + 3) in two
    phases; ESA its RAID 1 performance leg (FTT+1) at once, then destages the layout's raw
    per data (4+1 from six hosts, 2+1 below, 4+2)."""
    assert write_path("osa", "raid1", 1, 6) == (2.0, 1.0)
    assert write_path("osa", "raid1", 2, 6) == (3.0, 1.0)
    assert write_path("osa", "raid5", 1, 6) == (4.0, 2.0)
    assert write_path("osa", "raid6", 2, 6) == (6.0, 2.0)
    assert write_path("esa", "raid1", 1, 6) == pytest.approx((2.0 + 2.0, 1.0))
    assert write_path("esa", "raid5", 1, 6) == pytest.approx((2.0 + 1.25, 1.0))
    assert write_path("esa", "raid5", 1, 5) == pytest.approx((2.0 + 1.5, 1.0))
    assert write_path("esa", "raid6", 2, 6) == pytest.approx((3.0 + 1.5, 1.0))


def test_osa_raid5_writes_are_slower_than_raid1_and_esa_raid5_close_to_raid1() -> None:
    osa1, _ = latencies("osa", "raid1")
    osa5, _ = latencies("osa", "raid5")
    osa6, _ = latencies("osa", "raid6")
    esa1, _ = latencies("esa", "raid1")
    esa5, _ = latencies("esa", "raid5")
    # a read phase then a write phase, each a device I/O and a round trip: about twice
    assert osa5 > 1.6 * osa1 and osa6 >= osa5
    # ESA acknowledges on its RAID 1 performance leg whatever the layout
    assert esa5 == pytest.approx(esa1, rel=0.15)
    assert esa1 < osa1 and esa5 < 0.5 * osa5


def test_reads_are_not_amplified() -> None:
    """A read is one device read under every layout: a read-only load waits the same on
    RAID 1, 5 and 6; in a mix, a layout's writes load the devices more, so its reads wait a
    little longer in their queue, nothing more."""
    for arch in ("osa", "esa"):
        ro = [latencies(arch, pol, read_pct=100.0)[1] for pol in ("raid1", "raid5", "raid6")]
        assert ro == pytest.approx([ro[0]] * 3, rel=1e-9)
    light = [latencies("osa", pol, oio=1, vms_per_host=1)[1]
             for pol in ("raid1", "raid5", "raid6")]
    assert light == pytest.approx([light[0]] * 3, rel=0.1)
    writes = [latencies("osa", pol, oio=1, vms_per_host=1)[0]
              for pol in ("raid1", "raid5", "raid6")]
    assert min(writes[1:]) > 1.6 * writes[0]


def test_a_write_waits_for_a_remote_replica_and_a_read_mostly_does() -> None:
    """At no load a write waits one device write and one round trip (RAID 1), an OSA RAID 5
    write two of each; a read one device read and a round trip five times in six (its copy
    is on its own host one time in six)."""
    one = compile_design(six("osa", "raid1", oio=1, vms_per_host=1))
    s = vsan_io.service(one)
    assert s.vm.all()
    assert s.write_rtt_ms == pytest.approx(np.full(6, vsan_io.HOST_RTT_MS))
    assert s.read_rtt_ms == pytest.approx(np.full(6, vsan_io.HOST_RTT_MS * 5 / 6))
    five = vsan_io.service(compile_design(six("osa", "raid5", oio=1, vms_per_host=1)))
    assert five.write_rtt_ms == pytest.approx(np.full(6, 2 * vsan_io.HOST_RTT_MS))
    assert s.array_devices.tolist() == [12.0]  # six hosts' two disk groups
    esa = vsan_io.service(compile_design(six("esa", "raid1", oio=1, vms_per_host=1)))
    assert esa.array_devices.tolist() == [30.0]  # six hosts' five devices
    assert esa.device_iops == pytest.approx(vsan_io.ESA_SPEEDUP * s.device_iops)


def test_a_stretched_clusters_writes_add_the_inter_site_round_trip() -> None:
    """The DVD Store cluster (OSA, RAID 1, one copy a site) at 1 and 5 ms between its sites:
    its writes pay the fitted share of the 4 ms more (a little less: fewer orders, a shorter
    queue at the devices), its reads nothing."""
    one = vsan_of(evaluate(dvdstore_cluster(1.0)))
    five = vsan_of(evaluate(dvdstore_cluster(5.0)))
    assert one.write_latency_ms is not None and five.write_latency_ms is not None
    added = five.write_latency_ms - one.write_latency_ms
    share = stretched.WRITE_RTT_SHARE.value
    assert 0.8 * share * 4.0 < added <= share * 4.0
    assert one.read_latency_ms is not None and five.read_latency_ms is not None
    assert five.read_latency_ms <= one.read_latency_ms * (1 + 1e-9)
    # without the queue's relief: a read-only cluster's reads do not move at all, and the
    # average DVD Store VM's latency is its reads' and writes' by their shares
    p = evaluate(dvdstore_cluster(1.0))
    v = vsan_of(p)
    assert v.write_latency_ms is not None and v.read_latency_ms is not None
    read = float(dvdstore_vm()["workload.io_read_pct"]) / 100.0
    mean = float(np.average(p.vms.latency_ms, weights=p.vms.iops))
    assert mean == pytest.approx(read * v.read_latency_ms + (1 - read) * v.write_latency_ms)


def test_osa_memory_per_host_by_the_kb_formula() -> None:
    """Broadcom KB 2113954: 5,426 MB + disk groups x (636 MB + 14 MB x the all-flash cache
    in GB, at most 600) + 70 MB a capacity device.  Its own example: one disk group, a 600 GB
    cache device and three capacity devices, 14,672 MB; the six-host OSA cluster's hosts,
    two groups of 800 GB caches (600 counted) and six devices, 23,918 MB."""
    assert osa_memory_mb(1, 600, 3) == pytest.approx(14_672.0)
    assert osa_memory_mb(2, 800, 6) == pytest.approx(5426 + 2 * (636 + 14 * 600) + 6 * 70)
    assert osa_memory_mb(2, 800, 6) == pytest.approx(23_918.0)
    d = six("osa", "raid1", vms_per_host=4)
    c = compile_design(d)
    assert vsan_io.memory_gb(c) == pytest.approx(np.full(6, 23_918.0 / 1024))
    p = evaluate(d)
    # each host holds four 16 GB VMs and vSAN's 23.4 GB of its 1,024 GB
    assert p.hosts.memory_util == pytest.approx(np.full(6, (64 + 23_918 / 1024) / 1024))
    esa = vsan_io.memory_gb(compile_design(six("esa", "raid1")))
    assert esa == pytest.approx(np.full(6, (vsan_io.ESA_BASE_MB + 5 * 70) / 1024))
    plain = six("osa", "raid1")
    next(k for k in plain.components if k.kind == "cluster").props["vsan.architecture"] = "none"
    assert not vsan_io.memory_gb(compile_design(plain)).any()


def test_vsans_cpu_per_io_loads_the_host() -> None:
    """The same offered I/O on the vSAN cluster and on the same datastore with vSAN off (an
    array of its own): the host's CPU demand differs by vSAN's work, (1 + device I/Os per
    guest I/O) x its CPU per device I/O over the host's per-core speed."""
    on, off = six("osa", "raid1", iops=1000.0), six("osa", "raid1", iops=1000.0)
    next(k for k in off.components if k.kind == "cluster").props["vsan.architecture"] = "none"
    a, b = evaluate(on), evaluate(off)
    assert a.vms.iops == pytest.approx(b.vms.iops) and a.vms.iops.sum() == pytest.approx(24_000)
    speed = float(compute(compile_design(on)).speed[0])  # the Gold 6548Y+ at 2.4 GHz
    units = 1 + 0.7 + 0.3 * 2  # the owner, a read, two replica writes
    per_host = 4 * 1000 * units * vsan_io.cpu_us() * 1e-6 / speed
    cap = 64 * HT_THROUGHPUT
    assert (a.hosts.cpu_util - b.hosts.cpu_util) * cap == pytest.approx(
        np.full(6, per_host), rel=1e-6)
    assert (a.vms.cpu_cost_per_kiops - b.vms.cpu_cost_per_kiops) == pytest.approx(
        np.full(24, units * vsan_io.cpu_us() / speed / 10.0))


def test_the_cpu_per_io_is_the_sizers_tenth_of_a_readynode() -> None:
    """Derived, and checked against the rule it comes from: the AF-8 ReadyNode (2 x 12 cores
    of a Xeon E5-2680 v3, hyperthreading on) spends 10 % of its CPU on vSAN at its 80,000
    IOPS of 4 KB, 70 % reads, RAID 1."""
    cores = 80_000 * (1 + 0.7 + 0.3 * 2) * vsan_io.cpu_us() * 1e-6 \
        / processor_speed("Intel Xeon E5-2680 v3")
    assert cores / (24 * HT_THROUGHPUT) == pytest.approx(0.10)
    assert 10.0 < vsan_io.cpu_us() < 30.0


def test_a_vsan_array_without_a_vsan_cluster_keeps_its_own_drives() -> None:
    """An array of protocol vsan whose hosts are in no vSAN cluster (an import, a design
    before issue 35) is served by its own drive figures, as before."""
    d = six("osa", "raid1")
    next(k for k in d.components if k.kind == "cluster").props["vsan.architecture"] = "none"
    c = compile_design(d)
    assert not vsan_io.service(c).any
    p = evaluate(d)
    assert p.sections.capacity is not None and not p.sections.capacity.vsan
    assert np.isfinite(p.vms.latency_ms).all()


def test_no_io_no_latency() -> None:
    """A vSAN cluster whose datastore serves no I/O has no latency to report (None)."""
    v = vsan_of(evaluate(six("esa", "raid5", oio=0)))
    assert v.write_latency_ms is None and v.read_latency_ms is None
