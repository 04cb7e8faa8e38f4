"""Realistic RVTools exports, generated: the estates the import tests and ``make bench`` read.

An estate is drawn from a seed: clusters of hosts (2 sockets, 8-28 cores, 2.0-3.0 GHz,
hyperthreading, 256-1536 GB), VMs sized like production ones (1-16 vCPUs, 2-64 GB) with
log-normal CPU use and memory consumption, placed as DRS would leave them (balanced by vCPUs
with some spread), datastores carved from a few arrays (NAA prefixes shared per array) and NFS
servers.  What vCenter would record is derived from that truth the way it is measured:

- vCPU Overall = the VM's use in MHz at the moment RVTools sampled it;
- vHost CPU usage % = the VMs' MHz plus the hypervisor's own worlds (1-3% of the host) over
  cores x MHz, sampled a moment apart from the VMs (a few points of noise), rounded;
- vHost Memory usage % = the VMs' consumed memory and overhead plus the vmkernel's (2 GB + 1%
  of the host) over installed memory, rounded;
- vDisk controllers mostly LSI Logic SAS (as in the field), some PVSCSI.

What real exports do to that record is added on request (the mechanisms issue 22 met):

- ``filtered``: a share of the VMs left out of every per-VM sheet, as an export filtered by
  folder or permission is; vHost's ``# VMs`` still counts them (their hosts are partial);
- ``ht_charge``: vCenter's VM usage counts a vCPU's run time at the core's clock, ``ht_charge``
  of it while the sibling hyperthread runs too, but the host's usage counts a core once when
  either of its threads runs: on busy hyperthreaded hosts the VMs' MHz add up to more than the
  host recorded (1.0: no discount, up to twice the host at full load; vSphere's own discount
  is assumed to lie between 0.5 and 1);
- ``unmeasured``: a share of the running VMs without a vCPU row (nothing measured their CPU);
- ``unsized``: that many running VMs whose vInfo CPUs and Memory cells are empty (their vCPU
  and vMemory rows keep the size);
- ``host_usage=False``: vHost without CPU usage % and Memory usage % (nothing recorded);
- ``local_datastores``: every host (``True``) or that share of the hosts has a local VMFS
  datastore that it alone mounts (``# Hosts`` 1: its boot or local disks, named as ESXi and
  admins name them, ``datastore1 (12)`` or ``esx012_local``, on a local RAID controller's NAA),
  a few of its VMs on it (``Truth.local``);
- ``down_nics``: that many more NICs per host whose link is down (vNIC Speed 0);
- ``host_names="site"``: hosts named as a site names them, a shared prefix, the cluster's role
  and number, the host's number and one domain (``bru-esx-prod1-01.infra.example.org``), where
  by default they are ``esx000.corp.local``.

``generation="3x"`` writes the older RVTools 3.x header set (MB columns; no vCPU, vMemory or
vMetaData sheets, as in ``shared/reference/rvtools-headers.txt``).  The odd rows of real
exports are added on request: templates, powered-off VMs, an orphaned VM, a user's =SUM row,
empty cells.
"""

from __future__ import annotations

import csv
import random
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openpyxl import Workbook

VINFO_4 = ["VM", "Powerstate", "Template", "SRM Placeholder", "Config status", "DNS Name",
           "Connection state", "Guest state", "Heartbeat", "CPUs", "Memory", "Active Memory",
           "NICs", "Disks", "Total disk capacity MiB", "Latency Sensitivity", "Resource pool",
           "Folder", "FT State", "FT Role", "Provisioned MiB", "In Use MiB", "Unshared MiB",
           "Path", "Annotation", "Datacenter", "Cluster", "Host",
           "OS according to the configuration file", "OS according to the VMware Tools",
           "VM ID", "VM UUID", "VI SDK Server"]
VINFO_3 = ["VM", "Powerstate", "Template", "Config status", "DNS Name", "CPUs",
           "Latency Sensitivity", "Memory", "NICs", "Disks", "Resource pool", "FT State",
           "Provisioned MB", "In Use MB", "Unshared MB", "Path", "Annotation", "Datacenter",
           "Cluster", "Host", "OS according to the configuration file",
           "OS according to the VMware Tools", "VM ID"]
VCPU = ["VM", "Powerstate", "Template", "SRM Placeholder", "CPUs", "Sockets", "Cores p/s",
        "Max", "Overall", "Level", "Shares", "Reservation", "Entitlement", "DRS Entitlement",
        "Limit", "Datacenter", "Cluster", "Host", "VM ID"]
VMEMORY = ["VM", "Powerstate", "Template", "SRM Placeholder", "Size MiB", "Overhead", "Max",
           "Consumed", "Consumed Overhead", "Private", "Shared", "Swapped", "Ballooned",
           "Active", "Entitlement", "Datacenter", "Cluster", "Host", "VM ID"]
VDISK_4 = ["VM", "Powerstate", "Template", "SRM Placeholder", "Disk", "Disk Key", "Disk Path",
           "Capacity MiB", "Raw", "Disk Mode", "Thin", "Eagerly Scrub", "Controller",
           "Label", "SCSI Unit #", "Path", "Datacenter", "Cluster", "Host"]
VDISK_3 = ["VM", "Powerstate", "Template", "Disk", "Capacity MB", "Raw", "Disk Mode", "Thin",
           "Controller", "Label", "SCSI Unit #", "Path", "Datacenter", "Cluster", "Host"]
VPART_4 = ["VM", "Powerstate", "Template", "SRM Placeholder", "Disk Key", "Disk",
           "Capacity MiB", "Consumed MiB", "Free MiB", "Free %", "Datacenter", "Cluster",
           "Host"]
VPART_3 = ["NEXT Data Center", "Powerstate", "Template", "Disk", "Capacity MB", "Consumed MB",
           "Free MB", "Free % ", "Datacenter", "Cluster", "Host"]
VHOST_4 = ["Host", "Datacenter", "Cluster", "Config status", "in Maintenance Mode",
           "CPU Model", "Speed", "HT Available", "HT Active", "# CPU", "Cores per CPU",
           "# Cores", "CPU usage %", "# Memory", "Memory usage %", "# NICs", "# HBAs",
           "# VMs total", "# VMs", "# vCPUs", "vRAM", "ESX Version", "Vendor", "Model"]
VHOST_3 = ["Host", "Datacenter", "Cluster", "Config status", "CPU Model", "Speed",
           "HT Available", "HT Active", "# CPU", "Cores per CPU", "# Cores", "CPU usage %",
           "# Memory", "Memory usage %", "Console", "# NICs", "# HBAs", "# VMs", "# vCPUs",
           "vRAM", "ESX Version", "Vendor", "Model"]
VCLUSTER = ["Name", "Config status", "OverallStatus", "NumHosts", "numEffectiveHosts",
            "TotalCpu", "NumCpuCores", "TotalMemory", "HA enabled", "Failover Level",
            "AdmissionControlEnabled", "Host monitoring", "Isolation Response",
            "Restart Priority", "DRS enabled", "DRS default VM behavior", "DPM enabled"]
VDATASTORE_4 = ["Name", "Config status", "Address", "Accessible", "Type", "# VMs total",
                "# VMs", "Capacity MiB", "Provisioned MiB", "In Use MiB", "Free MiB",
                "Free %", "SIOC enabled", "SIOC Threshold", "# Hosts", "Hosts",
                "Cluster name"]
VDATASTORE_3 = [h.replace("MiB", "MB") for h in VDATASTORE_4 if h != "# VMs total"]
VNIC = ["Host", "Datacenter", "Cluster", "Network Device", "Driver", "Speed", "Duplex", "MAC",
        "Switch"]
VNETWORK = ["VM", "Powerstate", "Template", "NIC label", "Adapter", "Network", "Switch",
            "Connected", "Datacenter", "Cluster", "Host"]
VMETA = ["RVTools major version", "RVTools version", "xlsx creation datetime", "Server"]

ARRAY_OUIS = ("006016", "24a937", "00a098", "0002ac")
"""Dell EMC VNX/Unity, Pure Storage, NetApp, HPE 3PAR: the arrays LUNs are carved from."""


@dataclass
class Truth:
    """What the estate really did when it was exported (for checking the import)."""

    host_cpu_pct: dict[str, float] = field(default_factory=dict)
    host_memory_pct: dict[str, float] = field(default_factory=dict)
    vm_mhz: dict[str, float] = field(default_factory=dict)
    vm_host: dict[str, str] = field(default_factory=dict)
    arrays: dict[str, str] = field(default_factory=dict)
    """Datastore -> the array (NAA prefix or NFS server) it lives on."""
    partial: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Host -> (VMs it runs, VMs the export lists on it), for the hosts a filter left
    partial."""
    local: dict[str, str] = field(default_factory=dict)
    """Local datastore -> the one host that mounts it."""


@dataclass
class Estate:
    sheets: dict[str, list[list[Any]]]
    truth: Truth


def _row(header: list[str], values: dict[str, Any]) -> list[Any]:
    alt = {k.replace("MiB", "MB"): v for k, v in values.items()}
    return [values.get(h, alt.get(h, "")) for h in header]


def estate(n_hosts: int, n_vms: int, *, seed: int = 1, generation: str = "4x",
           odd_rows: bool = False, anonymise_hosts: bool = False, filtered: float = 0.0,
           ht_charge: float | None = None, unmeasured: float = 0.0, unsized: int = 0,
           host_usage: bool = True, load: float = 1.0, local_datastores: bool | float = False,
           down_nics: int = 0, host_names: str = "esx") -> Estate:
    """A generated production estate with ``n_hosts`` hosts and about ``n_vms`` VMs (``load``
    times as busy as usual: each VM's CPU use scaled, up to 95% of its vCPUs)."""
    rnd = random.Random(seed)
    odd = random.Random(seed + 7919)  # the export's defects: the estate stays the same
    own = random.Random(seed + 104729)  # local datastores: the rest of the estate stays too
    old = generation == "3x"
    truth = Truth()
    # ---- clusters and hosts
    sizes: list[int] = []
    left = n_hosts
    while left > 0:
        k = min(left, rnd.choice((2, 3, 4, 6, 8, 8, 12, 16)))
        sizes.append(k)
        left -= k
    hosts: list[dict[str, Any]] = []
    clusters: list[list[Any]] = []
    h = 0
    for ci, size in enumerate(sizes):
        cname = f"CL{ci:02d}-{rnd.choice(('Prod', 'Dev', 'DMZ', 'SQL', 'VDI'))}"
        cores = rnd.choice((8, 10, 12, 16, 20, 24, 28))
        mhz = rnd.choice((2000, 2100, 2200, 2400, 2600, 2800, 3000))
        mem_gb = rnd.choice((256, 384, 512, 768, 1024, 1536))
        ha = rnd.random() < 0.9
        clusters.append(_row(VCLUSTER, {
            "Name": cname, "NumHosts": size, "HA enabled": str(ha),
            "Failover Level": rnd.choice((1, 1, 1, 2)),
            "AdmissionControlEnabled": str(ha and rnd.random() < 0.8),
            "DRS enabled": str(rnd.random() < 0.85),
            "DRS default VM behavior": "fullyAutomated"}))
        for k in range(size):
            role = cname.split("-")[1].lower()
            hname = f"bru-esx-{role}{ci + 1}-{k + 1:02d}.infra.example.org" \
                if host_names == "site" else f"esx{h:03d}.corp.local"
            hosts.append({"name": hname, "cluster": cname,
                          "dc": f"DC{ci % 2 + 1}", "cores": cores, "mhz": mhz,
                          "mem_gb": mem_gb, "vms": [], "vm_mhz": 0.0, "vm_mem_mib": 0.0,
                          "vcpus": 0})
            h += 1
    # ---- datastores on arrays and NFS servers
    datastores: list[dict[str, Any]] = []
    n_ds = max(2, n_hosts // 2 + 2)
    arrays = [f"{rnd.choice('6')}{rnd.choice(ARRAY_OUIS)}{rnd.getrandbits(36):09x}"
              for _ in range(max(1, n_ds // 6))]
    for d in range(n_ds):
        if d % 5 == 4:
            server = f"nas{d % 2 + 1}.corp.local"
            addr, kind, where = f"{server}:/vol/ds{d:02d}", "NFS", server
        else:
            prefix = arrays[d % len(arrays)]
            addr = f"naa.{prefix}{rnd.getrandbits(64):016x}"
            kind, where = "VMFS", f"naa.{prefix}"
        datastores.append({"name": f"DS{d:02d}", "address": addr, "type": kind,
                           "cap_mib": rnd.choice((2, 4, 8, 16)) * 1024 * 1024,
                           "prov": 0.0, "used": 0.0, "vms": 0})
        truth.arrays[f"DS{d:02d}"] = where
    share = float(local_datastores)
    local_of: dict[str, dict[str, Any]] = {}
    for i, ho in enumerate(hosts if share else ()):
        if own.random() >= share:
            continue
        short = ho["name"].split(".")[0]
        name = f"datastore1 ({i})" if i % 3 else f"{short}_local"
        perc = f"6d0946600{own.getrandbits(28):07x}"  # a PERC's NAA: not an array vendor's
        local_of[ho["name"]] = {"name": name, "address": f"naa.{perc}{own.getrandbits(64):016x}",
                                "type": "VMFS", "cap_mib": own.choice((1, 2, 4)) * 465 * 1024,
                                "prov": 0.0, "used": 0.0, "vms": 0, "hosts": [ho["name"]]}
        truth.local[name] = ho["name"]
    # ---- VMs
    vinfo, vcpu, vmem, vdisk, vpart, vnet = [], [], [], [], [], []
    cluster_hosts: dict[str, list[dict[str, Any]]] = {}
    for ho in hosts:
        cluster_hosts.setdefault(ho["cluster"], []).append(ho)
    cnames = list(cluster_hosts)
    charged: list[tuple[list[Any], dict[str, Any], str]] = []
    for i in range(n_vms):
        cname = cnames[i % len(cnames)] if rnd.random() < 0.7 else rnd.choice(cnames)
        vcpus = rnd.choices((1, 2, 4, 8, 16), (15, 45, 28, 10, 2))[0]
        mem_gb = rnd.choices((2, 4, 8, 16, 32, 64), (10, 25, 30, 20, 10, 5))[0]
        room = [x for x in cluster_hosts[cname]
                if x["vm_mem_mib"] + mem_gb * 1024 < 0.85 * x["mem_gb"] * 1024]
        if not room:  # the cluster is full: DRS would not put it there, another one takes it
            room = [x for x in hosts if x["vm_mem_mib"] + mem_gb * 1024 < 0.85 * x["mem_gb"]
                    * 1024] or hosts
            cname = room[0]["cluster"]
        ho = min(room, key=lambda x: x["vcpus"] / x["cores"]
                 + x["vm_mem_mib"] / (x["mem_gb"] * 1024) + rnd.random() * 0.3)
        name = f"{rnd.choice(('app', 'web', 'sql', 'dc', 'file', 'citrix', 'util'))}-{i:05d}"
        powered = rnd.random() > 0.08
        util = min(rnd.lognormvariate(-2.6, 0.9) * load, 0.95) if powered else 0.0
        use_mhz = round(util * vcpus * ho["mhz"])
        consumed = round(mem_gb * 1024 * min(rnd.uniform(0.35, 1.0), 1.0)) if powered else 0
        overhead = round(25 + 12 * vcpus + mem_gb * 2.5) if powered else 0
        active = round(consumed * rnd.uniform(0.05, 0.4))
        ds = rnd.choice(datastores)
        if ho["name"] in local_of and own.random() < 0.05:  # a VM on its host's own disks
            ds = local_of[ho["name"]]
        n_disks = rnd.choice((1, 1, 2, 2, 3, 4))
        prov = sum(rnd.choice((40, 60, 80, 100, 200, 500)) for _ in range(n_disks)) * 1024
        used = round(prov * rnd.uniform(0.3, 0.9))
        ds["prov"] += prov + mem_gb * 1024
        ds["used"] += used + (mem_gb * 1024 if powered else 0)
        ds["vms"] += 1
        if powered:
            ho["vcpus"] += vcpus
            ho["vm_mhz"] += use_mhz
            ho["vm_mem_mib"] += consumed + overhead
            truth.vm_mhz[name] = use_mhz
        truth.vm_host[name] = ho["name"]
        ho["vms"].append(name)
        os_name = rnd.choice(("Microsoft Windows Server 2019 (64-bit)",
                              "Red Hat Enterprise Linux 8 (64-bit)",
                              "Microsoft Windows Server 2016 (64-bit)", "Ubuntu Linux (64-bit)"))
        host_name = ho["name"]
        if anonymise_hosts:
            host_name = f"host-{abs(hash((seed, ho['name']))) % 10**6:06d}"
        common = {"VM": name, "Powerstate": "poweredOn" if powered else "poweredOff",
                  "Template": "False", "Datacenter": ho["dc"], "Cluster": cname,
                  "Host": host_name}
        vinfo.append(_row(VINFO_3 if old else VINFO_4, {
            **common, "Connection state": "connected", "CPUs": vcpus,
            "Memory": mem_gb * 1024, "Active Memory": active, "NICs": 1, "Disks": n_disks,
            "Provisioned MiB": prov + mem_gb * 1024, "In Use MiB": used,
            "Path": f"[{ds['name']}] {name}/{name}.vmx", "FT State": "notConfigured",
            "OS according to the configuration file": os_name,
            "OS according to the VMware Tools": os_name}))
        vcpu.append(_row(VCPU, {**common, "CPUs": vcpus, "Sockets": vcpus,
                                "Cores p/s": 1, "Max": vcpus * ho["mhz"], "Overall": use_mhz,
                                "Shares": vcpus * 1000, "Limit": -1}))
        if powered:
            charged.append((vcpu[-1], ho, name))
        vmem.append(_row(VMEMORY, {**common, "Size MiB": mem_gb * 1024, "Overhead": overhead,
                                   "Max": mem_gb * 1024, "Consumed": consumed,
                                   "Consumed Overhead": overhead, "Swapped": 0,
                                   "Ballooned": 0, "Active": active}))
        pvscsi = rnd.random() < 0.05
        for k in range(n_disks):
            cap = prov // n_disks
            vdisk.append(_row(VDISK_3 if old else VDISK_4, {
                **common, "Disk": f"Hard disk {k + 1}", "Capacity MiB": cap,
                "Thin": str(rnd.random() < 0.5),
                "Controller": "VMware Paravirtual" if pvscsi else "LSI Logic SAS",
                "Label": f"Hard disk {k + 1}", "SCSI Unit #": k,
                "Path": f"[{ds['name']}] {name}/{name}_{k}.vmdk"}))
            vpart.append(_row(VPART_3 if old else VPART_4, {
                **common, "NEXT Data Center": name, "Disk": "C:\\" if k == 0 else f"/d{k}",
                "Capacity MiB": cap, "Consumed MiB": round(cap * rnd.uniform(0.2, 0.8)),
                "Free MiB": 0}))
        vnet.append(_row(VNETWORK, {**common, "NIC label": "Network adapter 1",
                                    "Adapter": "Vmxnet3" if rnd.random() < 0.9 else "E1000E",
                                    "Connected": "True"}))
    busy = {ho["name"]: float(ho["vm_mhz"]) for ho in hosts}
    if ht_charge is not None:  # usage as vCenter counts it on busy hyperthreaded cores
        overall = VCPU.index("Overall")
        for ho in hosts:
            u = min(ho["vm_mhz"] / (4 * ho["cores"] * ho["mhz"]), 1.0)  # of the threads
            busy[ho["name"]] = (2 * u - u * u) * 2 * ho["cores"] * ho["mhz"]  # cores busy
        for row, ho, name in charged:
            u = min(ho["vm_mhz"] / (4 * ho["cores"] * ho["mhz"]), 1.0)
            row[overall] = truth.vm_mhz[name] = round(row[overall]
                                                      * (1.0 - (1.0 - ht_charge) * u))
    # ---- what vCenter recorded for the hosts
    vhost, vnic = [], []
    for ho in hosts:
        cap_mhz = 2 * ho["cores"] * ho["mhz"]
        system = cap_mhz * rnd.uniform(0.01, 0.03)
        cpu_pct = (busy[ho["name"]] + system) / cap_mhz * 100.0 + rnd.gauss(0.0, 1.5)
        cpu_pct = min(max(round(cpu_pct), 0), 100)
        installed = ho["mem_gb"] * 1024
        vmkernel = 2048 + 0.01 * installed
        mem_pct = min(max(round((ho["vm_mem_mib"] + vmkernel) / installed * 100.0
                                + rnd.gauss(0.0, 0.7)), 0), 100)
        truth.host_cpu_pct[ho["name"]] = cpu_pct
        truth.host_memory_pct[ho["name"]] = mem_pct
        vhost.append(_row(VHOST_3 if old else VHOST_4, {
            "Host": ho["name"], "Datacenter": ho["dc"], "Cluster": ho["cluster"],
            "CPU Model": f"Intel(R) Xeon(R) Gold CPU @ {ho['mhz'] / 1000:.2f}GHz",
            "Speed": ho["mhz"], "HT Available": "True", "HT Active": "True", "# CPU": 2,
            "Cores per CPU": ho["cores"], "# Cores": 2 * ho["cores"], "CPU usage %": cpu_pct,
            "# Memory": installed, "Memory usage %": mem_pct, "# NICs": 2 + down_nics,
            "# VMs total": len(ho["vms"]),
            "# VMs": len(ho["vms"]) if old else sum(v in truth.vm_mhz for v in ho["vms"]),
            "# vCPUs": ho["vcpus"],
            "ESX Version": rnd.choice(("VMware ESXi 7.0.3 build-21930508",
                                       "VMware ESXi 8.0.2 build-22380479",
                                       "VMware ESXi 6.7.0 build-17700523"))}))
        for k in range(2 + down_nics):
            vnic.append(_row(VNIC, {"Host": ho["name"], "Datacenter": ho["dc"],
                                    "Cluster": ho["cluster"], "Network Device": f"vmnic{k}",
                                    "Speed": 25000 if k < 2 else 0, "Duplex": str(k < 2)}))
    vds = []
    for store in [*datastores, *local_of.values()]:
        hosts_on = store.get("hosts") or [ho["name"] for ho in hosts]
        tib = 1024 * 1024  # datastores are sized to stay under ~75% full, as admins keep them
        store["cap_mib"] = max(store["cap_mib"], -(-round(store["used"] / 0.75) // tib) * tib)
        vds.append(_row(VDATASTORE_3 if old else VDATASTORE_4, {
            "Name": store["name"], "Address": store["address"], "Accessible": "True",
            "Type": store["type"], "# VMs": store["vms"], "Capacity MiB": store["cap_mib"],
            "Provisioned MiB": round(store["prov"]), "In Use MiB": round(store["used"]),
            "Free MiB": max(store["cap_mib"] - round(store["used"]), 0), "SIOC enabled": "False",
            "# Hosts": len(hosts_on), "Hosts": ", ".join(hosts_on)}))
    vinfo_h = VINFO_3 if old else VINFO_4
    sheets_of_vms = (vinfo, vcpu, vmem, vdisk, vpart, vnet)
    _defects(odd, truth, hosts, sheets_of_vms, vinfo_h, filtered, unmeasured, unsized,
             anonymise_hosts)
    if not host_usage:
        header = VHOST_3 if old else VHOST_4
        for row in vhost:
            row[header.index("CPU usage %")] = row[header.index("Memory usage %")] = ""
    if odd_rows:
        _odd_rows(vinfo, vinfo_h, vhost, VHOST_3 if old else VHOST_4, hosts[0])
    sheets: dict[str, list[list[Any]]] = {
        "vInfo": [vinfo_h, *vinfo], "vHost": [VHOST_3 if old else VHOST_4, *vhost],
        "vDisk": [VDISK_3 if old else VDISK_4, *vdisk],
        "vPartition": [VPART_3 if old else VPART_4, *vpart],
        "vDatastore": [VDATASTORE_3 if old else VDATASTORE_4, *vds],
        "vCluster": [VCLUSTER, *clusters], "vNIC": [VNIC, *vnic],
        "vNetwork": [VNETWORK, *vnet]}
    if not old:
        sheets["vCPU"] = [VCPU, *vcpu]
        sheets["vMemory"] = [VMEMORY, *vmem]
        sheets["vMetaData"] = [VMETA, [4, "4.7.1.4", "2024-05-02 08:14:55", "vc01.corp.local"]]
    return Estate(sheets, truth)


def _defects(rnd: random.Random, truth: Truth, hosts: list[dict[str, Any]],
             sheets: tuple[list[list[Any]], ...], vinfo_header: list[str], filtered: float,
             unmeasured: float, unsized: int, renamed: bool) -> None:
    """What a filter, a missing vCPU row or an empty vInfo cell do to an export (in place):
    the VM column is the first of every per-VM sheet."""
    gone = {n for n in truth.vm_host if filtered and rnd.random() < filtered}
    vinfo, vcpu = sheets[0], sheets[1]
    running = [n for n in truth.vm_mhz if n not in gone]
    unseen = {n for n in running if unmeasured and rnd.random() < unmeasured}
    for rows in sheets:
        rows[:] = [r for r in rows if r[0] not in gone
                   and not (rows is vcpu and r[0] in unseen)]
    blank = set(rnd.sample(sorted(set(running) - unseen), min(unsized, len(running))))
    cpus, memory = vinfo_header.index("CPUs"), vinfo_header.index("Memory")
    for row in vinfo:
        if row[0] in blank:
            row[cpus] = row[memory] = ""
    for ho in hosts:
        listed = 0 if renamed else sum(v not in gone for v in ho["vms"])
        if listed < len(ho["vms"]):
            truth.partial[ho["name"]] = (len(ho["vms"]), listed)


def _odd_rows(vinfo: list[list[Any]], header: list[str], vhost: list[list[Any]],
              host_header: list[str], host: dict[str, Any]) -> None:
    """What real exports carry besides VMs: a template, an orphaned VM, a VM with empty
    cells, and a totals row a user added under each sheet (=SUM cells, no name)."""
    base = {"Powerstate": "poweredOn", "Datacenter": host["dc"], "Cluster": host["cluster"],
            "Host": host["name"], "CPUs": 2, "Memory": 4096}
    vinfo.append(_row(header, {**base, "VM": "tmpl-w2019", "Template": "True",
                               "Powerstate": "poweredOff"}))
    vinfo.append(_row(header, {**base, "VM": "old-orphan", "Connection state": "orphaned"}))
    vinfo.append(_row(header, {**base, "VM": "empty-cells", "CPUs": "", "Memory": ""}))
    cpus = header.index("CPUs")
    total = [""] * len(header)
    total[cpus] = f"=SUM({_col(cpus)}2:{_col(cpus)}{len(vinfo) + 1})"
    vinfo.append(total)
    vtotal = [""] * len(host_header)
    vtotal[host_header.index("# vCPUs")] = "=SUM(S2:S99)"
    vhost.append(vtotal)


def _col(i: int) -> str:
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        out = chr(65 + r) + out
    return out


def write_xlsx(path: Path, sheets: dict[str, list[list[Any]]],
               claim_rows: int | None = None) -> Path:
    """Write the sheets as RVTools does (an .xlsx); ``claim_rows`` rewrites each sheet's
    dimension to claim that many rows (exports that say A1:CZ1048576)."""
    wb = Workbook(write_only=True)
    for name, rows in sheets.items():
        ws = wb.create_sheet(name)
        for r in rows:
            ws.append(r)
    wb.save(path)
    if claim_rows:
        _claim_dimension(path, claim_rows)
    return path


def _claim_dimension(path: Path, rows: int) -> None:
    tmp = path.with_suffix(".tmp")
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename.startswith("xl/worksheets/sheet"):
                text = data.decode("utf-8")
                claim = f'<dimension ref="A1:CZ{rows}"/>'
                if "<dimension" in text:
                    text = re.sub(r"<dimension [^>]*/>", claim, text)
                else:
                    text = text.replace("<sheetData", claim + "<sheetData", 1)
                data = text.encode("utf-8")
            dst.writestr(item, data)
    tmp.replace(path)


def write_csv_folder(folder: Path, sheets: dict[str, list[list[Any]]]) -> Path:
    folder.mkdir()
    for name, rows in sheets.items():
        with (folder / f"RVTools_tab{name}.csv").open("w", newline="",
                                                      encoding="utf-8-sig") as f:
            csv.writer(f).writerows(rows)
    return folder
