"""Dell Live Optics VMware workbooks, generated: the collections the Live Optics import tests
read, in the variants the one real sample does not show.

A collection is drawn from a seed (or from an RVTools estate of :mod:`tests.estates`, so that
the two sources name the same hosts and VMs): clusters of hosts, VMs with log-normal CPU use
and storage I/O, datastores shared by a cluster's hosts.  What Live Optics records is derived
the way it measures it: every VM and host has a time series (5-minute samples over a day, with
bursts at moments of their own); a VM's Peak is the highest sample of its own series and its
Average the mean, a host's series is its VMs' sum plus the hypervisor's own work and I/O, so
that a host's peak is below the sum of its VMs' peaks and its average is their averages' sum.
Cells are written as the collector writes them: whole percentages truncated, GHz to two
decimals, whole IOPS and KB/sec, "78% / 22%" ratios, "TRUE"/"FALSE" flags on VMs.

Variants: ``masked`` (Live Optics' own masking: "Server 3", "Guest VM 12", "Datastore 7" in
VMs and "Disk N" per host in Host Devices), ``units`` ("KiB" as collector builds write them,
"MiB" for host memory, "MB" for older builds' VM columns), ``details`` (True, False: no
Details sheet, or "serial": its date as an Excel serial), ``nic_sheet``, ``url_names`` (VMs
named by a URL-encoded datastore path), ``idle_host`` (a host with performance and no VMs),
``host_io`` (host index -> the mean IOPS of the host's own I/O beyond its VMs', 90 % reads of
4 KB with bursts of its own: what a host records that no VM row explains).
"""

from __future__ import annotations

import math
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from tests.estates import write_xlsx

SAMPLES = 288
VMS = ["MOB ID", "VM Name", "Guest Hostname", "IsRunning", "Power State", "VM OS", "Disks",
       "NICs", "Virtual CPU", "Provisioned Memory (MiB)", "Used Memory (active) (MiB)",
       "Consumed Memory (MiB)", "Provisioned Memory (Bytes)", "Used Memory (active) (Bytes)",
       "Consumed Memory (Bytes)", "Guest VM Disk Capacity (MiB)", "Guest VM Disk Used (MiB)",
       "Guest VM % Occupancy", "Virtual Disk Size (MiB)", "Virtual Disk Used (MiB)",
       "VMware Tools Version", "Connection State", "Template", "Unshared (MiB)", "Datacenter",
       "vCenter", "Cluster", "UUID", "InstanceUUID", "Datastore", "Host", "Guest IP1",
       "Guest IP2", "Guest IP3", "Guest IP4", "Boot Time", "Date Provisioned", " Image Backup"]
VM_PERF = ["VM Name", "MOB ID", "Host", "Datacenter", "Cluster", "VM IO Classification",
           "% of KB/sec", "% of vCPU", "% of Memory", "Peak vCPU %", "Peak vCPU (GHz)",
           "Average vCPU %", "Average vCPU (GHz)", "Peak Memory %", "Peak Memory (MiB)",
           "Avg Memory %", "Avg Memory (MiB)", "Peak IOPS", "Average IOPS",
           "Avg Read/Write Ratio", "Max KB/sec", "Average KB/sec", "Peak Read Latency",
           "Peak Write Latency", "Avg Read Latency", "Avg Write Latency", "Peak Latency",
           "Peak Read IOPS", "Peak Write IOPS", "Avg Read IOPS", "Avg Write IOPS",
           "Peak Read MB/s", "Peak Write MB/s", "Avg Read MB/s", "Avg Write MB/s"]
HOSTS = ["Host Name", "Datacenter", "vCenter", "Cluster", "OS", "Manufacturer", "Model",
         "Serial No", "CPU Sockets", "CPU Cores", "CPU Description", "Net Clock Speed (GHz)",
         "CPU Clock Speed (GHz)", "CPU Threads", "Memory (KiB)", "Local Capacity (GiB)",
         "Free Capacity (GiB)", "Used Capacity (GiB)", "Guest VM Count", "Number of NICs",
         "Number of HBAs", "IP1", "IP2", "IP3", "Config Status", "Boot Time"]
HOST_PERF = ["Host", "Datacenter", "vCenter", "Cluster", "Peak CPU %", "Peak CPU (GHz)",
             "Average CPU %", "Average CPU (GHz)", "Peak Memory %", "Peak Memory (MiB)",
             "Average Memory %", "Average Memory (MiB)", "Peak IOPS", "Average IOPS",
             "Average Read/Write Ratio", "Peak Throughput MB/s", "Avg Throughput MB/s",
             "Peak Read Latency", "Peak Write Latency", "Avg Read Latency", "Avg Write Latency"]
DEVICES = ["Server Name", "Device Name", "Device Type", "Capacity (GiB)", "Free Capacity (GiB)",
           "Used Capacity (GiB)", "Vendor", "Model", "Lun Type", "SCSI Level",
           "vStorageSupport", "Datacenter", "vCenter", "VM Count"]
HOST_DISKS = ["Cluster", "Host", "Disk Name", "Disk Capacity (MiB)", "Disk Model",
              "Disk Vendor", "SSD"]
NICS = ["Cluster", "Host", "PNIC Name", "PNIC Speed (Mb/sec)", "PNIC Vendor",
        "PNIC Device Name"]
VCENTER = "VMware vCenter Server 8.0.3 build-25197330"
ESXI = "VMware ESXi 8.0.3 build-25205845"


@dataclass
class HostSpec:
    name: str
    dc: str
    cluster: str
    sockets: int = 2
    cores: int = 32
    ghz: float = 2.1
    threads: int = 64
    mem_gib: float = 192.0


@dataclass
class VmSpec:
    name: str
    host: str
    dc: str
    cluster: str
    vcpus: int
    mem_mib: float
    datastore: str
    powered: bool = True
    template: bool = False
    os: str = "Microsoft Windows Server 2019 (64-bit)"


@dataclass
class Truth:
    """What the collection recorded, per VM and host, in both statistics (unrounded)."""

    vm: dict[str, dict[str, float]] = field(default_factory=dict)
    host: dict[str, dict[str, float]] = field(default_factory=dict)
    host_vms: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class Collection:
    sheets: dict[str, list[list[Any]]]
    truth: Truth


def layout(n_hosts: int, n_vms: int, rnd: np.random.Generator
           ) -> tuple[list[HostSpec], list[VmSpec], dict[str, tuple[str, float]]]:
    """Hosts in clusters of two, VMs spread over them, a shared datastore per cluster and a
    local one on the first host; datastore -> (datacenter, capacity GiB)."""
    hosts: list[HostSpec] = []
    stores: dict[str, tuple[str, float]] = {}
    for i in range(n_hosts):
        c = i // 2
        cores = int(rnd.choice((16, 20, 28)))
        hosts.append(HostSpec(f"esx{i + 1:02d}.corp.local", f"DC{c % 2 + 1}", f"CL{c:02d}",
                              2, cores, float(rnd.choice((2.1, 2.4, 2.6))),
                              cores * (2 if i % 3 else 1), float(rnd.choice((192, 384, 512)))))
        stores.setdefault(f"DS-CL{c:02d}", (f"DC{c % 2 + 1}", float(rnd.choice((4096, 8192)))))
    stores["local-esx01"] = (hosts[0].dc, 800.0)
    vms = []
    for i in range(n_vms):
        h = hosts[i % n_hosts]
        ds = "local-esx01" if h is hosts[0] and i % 3 == 0 else f"DS-{h.cluster}"
        vms.append(VmSpec(f"app-{i + 1:04d}", h.name, h.dc, h.cluster,
                          int(rnd.choice((1, 2, 2, 4, 4, 8))),
                          float(rnd.choice((2048, 4096, 8192, 16384))), ds,
                          powered=i % 11 != 5, template=i % 23 == 22,
                          os="Ubuntu Linux (64-bit)" if i % 4 == 0 else
                          "Microsoft Windows Server 2019 (64-bit)"))
    return hosts, vms, stores


def from_rvtools(sheets: dict[str, list[list[Any]]]
                 ) -> tuple[list[HostSpec], list[VmSpec], dict[str, tuple[str, float]]]:
    """The hosts, VMs and datastores of an RVTools export of :mod:`tests.estates`, as a Live
    Optics collection of the same estate sees them."""
    def rows(name: str) -> list[dict[str, Any]]:
        header, *body = sheets[name]
        return [dict(zip(header, r, strict=False)) for r in body if r and r[0]]

    hosts = [HostSpec(str(r["Host"]), str(r["Datacenter"]), str(r["Cluster"]),
                      int(r["# CPU"]), int(r["# Cores"]), float(r["Speed"]) / 1000.0,
                      int(r["# Cores"]) * 2, float(r["# Memory"]) / 1024.0)
             for r in rows("vHost")]
    stores = {str(r["Name"]): ("", float(r["Capacity MiB"] or 0) / 1024.0)
              for r in rows("vDatastore")}
    vms = []
    for r in rows("vInfo"):
        ds = str(r["Path"]).split("]")[0].lstrip("[")
        vms.append(VmSpec(str(r["VM"]), str(r["Host"]), str(r["Datacenter"]),
                          str(r["Cluster"]), int(r["CPUs"]), float(r["Memory"]), ds,
                          powered=r["Powerstate"] == "poweredOn"))
    dcs = {v.datastore: v.dc for v in vms}
    stores = {k: (dcs.get(k, ""), cap) for k, (_, cap) in stores.items()}
    return hosts, vms, stores


def _series(rnd: np.random.Generator, base: float) -> np.ndarray:
    """A day of 5-minute samples around ``base``: log-normal noise and a burst or two."""
    s = base * rnd.lognormal(0.0, 0.35, SAMPLES)
    for _ in range(int(rnd.integers(1, 3))):
        at = int(rnd.integers(0, SAMPLES - 6))
        s[at:at + 6] *= rnd.uniform(2.0, 5.0)
    return s


def _trunc(x: float) -> int:
    return math.floor(x)


def collection(hosts: list[HostSpec], vms: list[VmSpec], stores: dict[str, tuple[str, float]],
               *, seed: int = 1, masked: bool = False, units: str = "KiB",
               details: bool | str = True, nic_sheet: bool = True, url_names: int = 0,
               idle_host: bool = False, host_io: dict[int, float] | None = None) -> Collection:
    """The sheets of a VMWARE workbook of these hosts and VMs (see the module docstring)."""
    rnd = np.random.default_rng(seed)
    truth = Truth()
    hname = {h.name: (f"Server {i + 1}" if masked else h.name) for i, h in enumerate(hosts)}
    vname = {v.name: (f"Guest VM {i + 1}" if masked else v.name) for i, v in enumerate(vms)}
    dname = {d: (f"Datastore {i}" if masked else d) for i, d in enumerate(stores)}
    cname = {c: (f"Server Cluster {i + 1}" if masked else c)
             for i, c in enumerate(dict.fromkeys(h.cluster for h in hosts))}
    by_host: dict[str, dict[str, np.ndarray]] = {
        h.name: {"cpu": np.zeros(SAMPLES), "r": np.zeros(SAMPLES), "w": np.zeros(SAMPLES),
                 "kb": np.zeros(SAMPLES)} for h in hosts}
    spec = {h.name: h for h in hosts}
    vm_rows, perf_rows = [], []
    for i, v in enumerate(vms):
        h = spec[v.host]
        on = v.powered and not v.template
        mob = f"vm-{i + 100}" if not masked else f"Mob ID {i + 1}"
        name = vname[v.name]
        if i < url_names:
            name = f"%2fvmfs%2fvolumes%2f5e3a91c2-ds%2f{v.name}%2f{v.name}.vmx"
        consumed = v.mem_mib * float(rnd.uniform(0.4, 0.95)) if on else 0.0
        active = consumed * float(rnd.uniform(0.1, 0.4))
        vm_rows.append(_vm_row(v, mob, name, hname, cname, dname, consumed, active, rnd))
        if not on:
            if i % 2:  # some powered-off VMs have a row of zeros, others none
                perf_rows.append([name, mob, hname[v.host], v.dc, cname.get(v.cluster, ""),
                                  "Standard", 0, 0, 0] + [0] * 25 + [0])
            continue
        cpu = _series(rnd, float(rnd.lognormal(-2.3, 0.8)) * v.vcpus * h.ghz)
        cpu = np.minimum(cpu, v.vcpus * h.ghz * 1.1)
        iops = _series(rnd, float(rnd.lognormal(3.0, 1.0)))
        share = float(rnd.uniform(0.4, 0.85))
        kb = float(rnd.choice((8.0, 16.0, 32.0, 64.0)))
        reads, writes = iops * share, iops * (1 - share)
        lat_r = 0.8 + 0.002 * iops
        lat_w = 1.2 + 0.003 * iops
        t = by_host[v.host]
        t["cpu"] += cpu
        t["r"] += reads
        t["w"] += writes
        t["kb"] += iops * kb
        total = reads + writes
        avg_lat = float(np.sum(lat_r * reads + lat_w * writes) / np.sum(total))
        truth.vm[v.name] = {
            "cpu_peak_mhz": float(cpu.max()) * 1000, "cpu_avg_mhz": float(cpu.mean()) * 1000,
            "iops_peak": float(total.max()), "iops_avg": float(total.mean()),
            "read_pct": share * 100, "kb": kb, "latency_avg": avg_lat,
            "latency_peak": float(np.maximum(lat_r, lat_w).max()), "consumed_mib": consumed}
        truth.host_vms.setdefault(v.host, []).append(v.name)
        perf_rows.append([
            name, mob, hname[v.host], v.dc, cname.get(v.cluster, ""), "Standard", 0.5, 0.5,
            0.5, _trunc(cpu.max() / (v.vcpus * h.ghz) * 100), round(float(cpu.max()), 2),
            round(float(cpu.mean() / (v.vcpus * h.ghz) * 100), 2), round(float(cpu.mean()), 2),
            _trunc(active * 1.2 / v.mem_mib * 100), round(active * 1.2),
            _trunc(active / v.mem_mib * 100), round(active),
            round(float(total.max())), round(float(total.mean())),
            f"{round(share * 100)}% / {100 - round(share * 100)}%",
            round(float((total * kb).max())), round(float((total * kb).mean())),
            round(float(lat_r.max())), round(float(lat_w.max())),
            round(float(np.sum(lat_r * reads) / np.sum(reads))),
            round(float(np.sum(lat_w * writes) / np.sum(writes))),
            round(float(np.maximum(lat_r, lat_w).max())), round(float(reads.max())),
            round(float(writes.max())), round(float(reads.mean())),
            round(float(writes.mean())), round(float((reads * kb).max() / 1024)),
            round(float((writes * kb).max() / 1024)), round(float((reads * kb).mean() / 1024)),
            round(float((writes * kb).mean() / 1024))])
    if units == "MB":  # older builds: the same MiB figures under "(MB)"
        header = [c.replace("(MiB)", "(MB)") for c in VMS]
        perf_header = [c.replace("(MiB)", "(MB)") for c in VM_PERF]
    else:
        header, perf_header = VMS, VM_PERF
    sheets: dict[str, list[list[Any]]] = {}
    if details:
        date: Any = 46174.0 if details == "serial" else "2026/06/01"
        sheets["Details"] = [[None, None], [None, None], [None, None],
                             ["Project ID", 1234567], ["Project Name", "Generated"],
                             ["Date", date], ["Owner", "Owner 1 (owner1@example.com)"],
                             ["Collector Build Version", "27.2.2.273"],
                             ["Spreadsheet Version", "1.0.0.0"]]
    all_hosts = list(hosts)
    if idle_host:
        idle = HostSpec("esx-idle.corp.local", hosts[0].dc, hosts[0].cluster)
        all_hosts.append(idle)
        hname[idle.name] = "Server 99" if masked else idle.name
        by_host[idle.name] = {"cpu": np.zeros(SAMPLES), "r": np.zeros(SAMPLES),
                              "w": np.zeros(SAMPLES), "kb": np.zeros(SAMPLES)}
    host_rows, host_perf = [], []
    mem_col = "Memory (MiB)" if units == "MiB" else "Memory (KiB)"
    for k, h in enumerate(all_hosts):
        t = by_host[h.name]
        own = _series(rnd, host_io[k]) if host_io and k in host_io else np.zeros(SAMPLES)
        t["r"], t["w"] = t["r"] + 0.9 * own, t["w"] + 0.1 * own
        t["kb"] = t["kb"] + own * 4.0
        cap = h.cores * h.ghz
        cpu = np.minimum(t["cpu"] + cap * float(rnd.uniform(0.01, 0.03))
                         * rnd.lognormal(0, 0.2, SAMPLES), cap)  # a busy host saturates
        r = t["r"] + float(rnd.uniform(1, 10))
        w = t["w"] + float(rnd.uniform(1, 10))
        io = r + w
        vm_mem = sum(truth.vm[v]["consumed_mib"] for v in truth.host_vms.get(h.name, []))
        used = (vm_mem + 2048 + 0.01 * h.mem_gib * 1024) * rnd.uniform(0.98, 1.02, SAMPLES)
        truth.host[h.name] = {"cpu_peak_pct": float(cpu.max() / cap * 100),
                              "cpu_avg_pct": float(cpu.mean() / cap * 100),
                              "iops_peak": float(io.max()), "iops_avg": float(io.mean()),
                              "own_iops_avg": float(own.mean()),
                              "memory_avg_pct": float(used.mean() / (h.mem_gib * 1024) * 100)}
        mem = h.mem_gib * 1024 * (1024 if units != "MiB" else 1)
        host_rows.append([hname[h.name], h.dc, VCENTER, cname.get(h.cluster, ""), ESXI,
                          "Dell Inc.", "PowerEdge R640", "SN" + h.name[:4], h.sockets, h.cores,
                          f"Intel(R) Xeon(R) Silver 4110 CPU @ {h.ghz:.2f}GHz  {h.ghz:.2f} GHz",
                          round(cap, 1), h.ghz, h.threads, round(mem), 30, 0, 30,
                          len(truth.host_vms.get(h.name, [])), 2, 2, None, None, None, "gray",
                          "2026/03/16 22:14"])
        host_perf.append([hname[h.name], h.dc, VCENTER, cname.get(h.cluster, ""),
                          _trunc(cpu.max() / cap * 100), round(float(cpu.max()), 2),
                          _trunc(cpu.mean() / cap * 100), round(float(cpu.mean()), 2),
                          _trunc(used.max() / (h.mem_gib * 1024) * 100),
                          round(float(used.max())),
                          _trunc(used.mean() / (h.mem_gib * 1024) * 100),
                          round(float(used.mean())), round(float(io.max())),
                          round(float(io.mean())),
                          f"{round(r.sum() / io.sum() * 100)}% / "
                          f"{100 - round(r.sum() / io.sum() * 100)}%",
                          round(float(t["kb"].max() / 1024), 1),
                          round(float(t["kb"].mean() / 1024)), 12.5, 8.25, 1.5, 2.25])
    sheets["ESX Hosts"] = [[mem_col if c == "Memory (KiB)" else c for c in HOSTS], *host_rows]
    sheets["ESX Performance"] = [HOST_PERF, *host_perf]
    sheets["Host Devices"], sheets["Host Disks"] = _storage(all_hosts, vms, stores, hname,
                                                            dname, cname, masked, rnd)
    sheets["VMs"] = [header, *vm_rows]
    sheets["VM Performance"] = [perf_header, *perf_rows]
    sheets["ESX Licenses"] = [["ESX Host", "Software Title", "OS"],
                              *[[hname[h.name], "vSphere 8 Standard", ESXI] for h in hosts]]
    if nic_sheet:
        sheets["Host Network Adapters"] = [NICS, *[
            [cname.get(h.cluster, ""), hname[h.name], f"vmnic{k}" if not masked
             else f"NIC {2 * i + k + 1}", 10000, "Broadcom", "BCM57416 NetXtreme-E"]
            for i, h in enumerate(all_hosts) for k in range(2)]]
    return Collection(sheets, truth)


def _vm_row(v: VmSpec, mob: str, name: str, hname: dict[str, str], cname: dict[str, str],
            dname: dict[str, str], consumed: float, active: float,
            rnd: np.random.Generator) -> list[Any]:
    on = v.powered and not v.template
    disk = float(rnd.choice((40960, 81920, 204800)))
    used = disk * float(rnd.uniform(0.3, 0.9))
    return [mob, name, name.lower(), "TRUE" if on else "FALSE",
            "poweredOn" if on else "poweredOff", v.os, 1, 1, v.vcpus,
            round(v.mem_mib), round(active), round(consumed),
            round(v.mem_mib * 2**20), round(active * 2**20), round(consumed * 2**20),
            round(disk * 0.99), round(used * 0.8), 62.5, round(disk), round(used), 12352,
            "connected", "TRUE" if v.template else "FALSE", round(used), v.dc, VCENTER,
            cname.get(v.cluster, ""), f"uuid-{mob}", f"iuuid-{mob}", dname[v.datastore],
            hname[v.host], None, None, None, None, "2026/05/19 22:39", "2024/06/11 12:06",
            "Not Found"]


def _storage(hosts: list[HostSpec], vms: list[VmSpec], stores: dict[str, tuple[str, float]],
             hname: dict[str, str], dname: dict[str, str], cname: dict[str, str],
             masked: bool, rnd: np.random.Generator) -> tuple[list[list[Any]],
                                                               list[list[Any]]]:
    """Host Devices (a row per host mounting a datastore, "Disk N" per row when masked) and
    Host Disks (each datastore's LUN, its NAA id, on every host mounting it)."""
    devices: list[list[Any]] = [list(DEVICES)]
    disks: list[list[Any]] = [list(HOST_DISKS)]
    n = 1
    for ds, (dc, cap) in stores.items():
        users = [v for v in vms if v.datastore == ds]
        on = sorted({v.host for v in users}) or [hosts[0].name]
        local = ds.startswith("local")
        if not local:  # a shared datastore is mounted by every host of its VMs' clusters
            clusters = {v.cluster for v in users}
            on = [h.name for h in hosts if h.cluster in clusters] or on
        used = round(cap * float(rnd.uniform(0.3, 0.8)))
        naa = f"naa.600c0ff0005{int(rnd.integers(0, 16**4)):04x}{n:015x}"[:36]
        for host in on:
            h = next(x for x in hosts if x.name == host)
            devices.append([hname[host], f"Disk {n}" if masked else dname[ds],
                            "Local" if local else "Cluster", cap, cap - used, used,
                            "DellEMC", "ME4", "disk", 6, "vStorageSupported", dc or h.dc,
                            VCENTER, len(users)])
            disks.append([cname.get(h.cluster, ""), hname[host],
                          f"{'Local DELL Disk' if local else 'DellEMC Fibre Channel Disk'}"
                          f" ({naa})", round(cap * 1024 + 37), "ME4", "DellEMC", "FALSE"])
            n += 1
    for h in hosts:  # every host boots from an SD card: a local device with no VMs
        devices.append([hname[h.name], f"Disk {n}" if masked else f"boot-{h.name}", "Local",
                        30, 0, 30, "DELL", "Internal Dual SD", "disk", 2,
                        "vStorageUnsupported", h.dc, VCENTER, 0])
        n += 1
    return devices, disks


def workbook(n_hosts: int = 4, n_vms: int = 24, *, seed: int = 1, **variants: Any) -> Collection:
    """A generated collection of ``n_hosts`` hosts and ``n_vms`` VMs (see
    :func:`collection` for the variants)."""
    hosts, vms, stores = layout(n_hosts, n_vms, np.random.default_rng(seed))
    return collection(hosts, vms, stores, seed=seed, **variants)


def write(path: Path, sheets: dict[str, list[list[Any]]]) -> Path:
    """The workbook as the collector saves it (an .xlsx)."""
    return write_xlsx(path, sheets)


def write_zip(path: Path, sheets: dict[str, list[list[Any]]], *, vmware: bool = True) -> Path:
    """The zip Live Optics downloads: the VMWARE workbook (unless not ``vmware``) beside a
    GENERAL workbook and the PERF slides."""
    folder = path.parent / f"{path.stem}-parts"
    folder.mkdir(exist_ok=True)
    general = write_xlsx(folder / "general.xlsx", {"Servers": [["Server Name"], ["srv1"]]})
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        if vmware:
            book = write(folder / "vmware.xlsx", sheets)
            z.write(book, "LiveOptics_1234567_VMWARE_06_01_2026.xlsx")
        z.write(general, "LiveOptics_1234567_GENERAL_06_01_2026.xlsx")
        z.writestr("LiveOptics_1234567_PERF_06_01_2026.pptx", b"PK\x03\x04 slides")
    return path
