"""The sheets of a Live Optics (Optical Prime) VMware workbook, read into the import records.

One reader per sheet (:mod:`models.io.importers.liveoptics` puts them together): ESX Hosts and
ESX Performance (hosts and what each recorded), VMs and VM Performance (VMs and what each
measured), Host Devices and Host Disks (datastores and their LUNs' NAA ids), Host Network
Adapters (physical NICs) and Details (the project and its date).  Headers are matched as
:class:`~models.io.importers.workbook.Sheet` matches them (case and spaces ignored, trimmed:
the VMs sheet's last header is " Image Backup"); a size column is found by its name whatever
unit it carries (``Memory (KiB)``, ``(MiB)``, older builds' ``(MB)``, ``(Bytes)``).
"""

from __future__ import annotations

import datetime as dt
import html
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from models.document.numbers import counted
from models.io.importers import HostRecord, ImportReport, Measured, NicRecord, VmRecord
from models.io.importers.workbook import BadCellError, Row, Sheet, cell, flag, norm, num, text

MIB: dict[str, float] = {"bytes": 1 / 2**20, "b": 1 / 2**20, "kib": 1 / 1024, "kb": 1 / 1024,
                         "mb": 1.0, "gib": 1024.0, "gb": 1024.0, "tib": 1024.0**2,
                         "tb": 1024.0**2}
"""Size units -> MiB (the workbook's KB, MB and GB are binary: KiB, MiB, GiB)."""
MHZ: dict[str, float] = {"ghz": 1000.0, "mhz": 1.0}

STAT_WORDS = {"peak": ("Peak", "Peak", "Max", "Peak"),
              "average": ("Average", "Avg", "Average", "Avg")}
"""A statistic's words in the headers: (CPU and IOPS, memory and latency, KB/sec, read and
write IOPS): ``Peak vCPU (GHz)`` / ``Average vCPU (GHz)``, ``Peak Memory`` / ``Avg Memory``,
``Max KB/sec`` / ``Average KB/sec``, ``Peak Read IOPS`` / ``Avg Read IOPS``."""


def unit_col(sheet: Sheet, base: str, units: dict[str, float],
             bare: str = "") -> tuple[int | None, float]:
    """The column ``<base> (<unit>)`` for any unit of ``units`` and the factor to their base
    unit; else ``<base>`` alone, taken in the unit ``bare`` (the base unit when empty)."""
    b = norm(base)
    for header, i in sheet.index.items():
        m = re.fullmatch(re.escape(b) + r"\s*\(([^)]*)\)", header)
        if m and m.group(1).strip() in units:
            return i, units[m.group(1).strip()]
    return sheet.col(base), units.get(bare, 1.0)


def scaled(row: Row, col: tuple[int | None, float], what: str) -> float | None:
    """A cell read by :func:`num` (not required) and scaled; None when empty."""
    v = num(row, col[0], what, False)
    return None if v is None else v * col[1]


def clean(value: str) -> str:
    """Text as the workbook meant it: double escapes undone (``AC&amp;amp;N`` is ``AC&N``),
    runs of spaces collapsed."""
    s = value
    for _ in range(3):
        t = html.unescape(s)
        if t == s:
            break
        s = t
    return re.sub(r"\s+", " ", s).strip()


def vm_name(raw: str) -> tuple[str, bool]:
    """A VM's name and whether it was a URL-encoded datastore path (Live Optics writes
    ``%2fvmfs%2fvolumes%2f<ds>%2f<vm>%2f<vm>.vmx`` when it found no display name): then the
    name is the ``.vmx`` file's (or the last folder's)."""
    name = clean(raw)
    if not re.search(r"%2f", name, re.IGNORECASE):
        return name, False
    path = unquote(name)
    parts = [p for p in path.split("/") if p]
    if not parts:
        return name, False
    last = parts[-1]
    stem = last[:-4] if last.lower().endswith(".vmx") else last
    return (stem or name), True


# --------------------------------------------------------------------------- Details


@dataclass
class Details:
    project: str = ""
    name: str = ""
    date: str = ""
    """The collection's date, ``YYYY-MM-DD`` (empty when not recorded)."""
    build: str = ""


def read_details(sheet: Sheet | None, header: Row) -> Details:
    """Details: key in column A, value in B (a logo block first; no header row).  The date is
    ``YYYY/MM/DD`` text or, in other Live Optics products, an Excel serial."""
    out = Details()
    if sheet is None:
        return out
    for row in (header, *sheet.rows):
        key = text(row, 0).lower()
        value = cell(row, 1)
        if key == "project id":
            out.project = text(row, 1)
        elif key == "project name":
            out.name = text(row, 1)
        elif key == "collector build version":
            out.build = text(row, 1)
        elif key == "date":
            out.date = _date(value)
    return out


def _date(value: Any) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
        return (dt.date(1899, 12, 30) + dt.timedelta(days=int(value))).isoformat()
    m = re.search(r"(\d{4})[/-](\d{1,2})[/-](\d{1,2})", str(value or ""))
    if m:
        return f"{int(m.group(1)):04d}-{int(m.group(2)):02d}-{int(m.group(3)):02d}"
    return str(value or "")[:30]


# --------------------------------------------------------------------------- hosts


def read_hosts(sheet: Sheet, report: ImportReport) -> list[HostRecord]:
    """ESX Hosts: one host per row."""
    c = {k: sheet.col(k) for k in ("Host Name", "Datacenter", "Cluster", "OS", "CPU Sockets",
                                   "CPU Cores", "CPU Threads", "CPU Description", "CPU Model")}
    clock = unit_col(sheet, "CPU Clock Speed", MHZ, "ghz")
    if clock[0] is None:
        clock = unit_col(sheet, "CPU Speed", MHZ, "mhz")
    memory = unit_col(sheet, "Memory", MIB, "kib")
    out = []
    for n, row in enumerate(sheet.rows, start=2):
        name = clean(text(row, c["Host Name"]))
        where = f"ESX Hosts row {n}"
        if not name:
            if any(v not in (None, "") for v in row):
                report.skip(where, "", "no host name")
            continue
        h = HostRecord(name=name, where=where, datacenter=clean(text(row, c["Datacenter"])),
                       cluster=clean(text(row, c["Cluster"])), version=text(row, c["OS"]),
                       cpu_model=clean(text(row, c["CPU Description"])
                                       or text(row, c["CPU Model"])))
        try:
            sockets = num(row, c["CPU Sockets"], "CPU Sockets", False)
            cores = num(row, c["CPU Cores"], "CPU Cores", False)
            threads = num(row, c["CPU Threads"], "CPU Threads", False)
            h.sockets = int(sockets) if sockets else None
            h.cores = int(cores) if cores else None
            if h.sockets and h.cores:
                h.cores_per_socket = max(1, h.cores // h.sockets)
            if threads and h.cores:
                h.hyperthreading = threads > h.cores
            h.mhz = scaled(row, clock, "CPU Clock Speed")
            h.memory_mib = scaled(row, memory, "Memory")
        except BadCellError as err:
            report.notes.append(f"{where} host '{name}': {err}; the default is used")
        out.append(h)
    return out


@dataclass
class HostPerf:
    """What ESX Performance recorded for one host, in the chosen statistic."""

    cpu_pct: float | None = None
    memory_pct: float | None = None
    iops: float | None = None
    cpu_mhz: float | None = None
    read_pct: float | None = None
    """The host's share of reads (Average Read/Write Ratio: the window's)."""
    io_kb: float | None = None
    """The host's mean I/O size (see :data:`COARSE_MBPS`)."""
    where: str = ""


COARSE_MBPS = 10.0
"""ESX Performance's throughput is whole MB/s: a host's mean I/O size is its average
throughput over its average IOPS, or where that throughput is below this (too coarse to
divide), its peak throughput over its peak IOPS."""


def read_host_perf(sheet: Sheet, stat: str, hosts: dict[str, HostRecord],
                   report: ImportReport) -> dict[str, HostPerf]:
    """ESX Performance, host name (lower case) -> its figures.  CPU % is of cores x clock
    (Net Clock Speed), computed from the GHz column where there is one (the % column is
    truncated to whole percent); memory % from the MiB column and the host's memory."""
    word = STAT_WORDS[stat][0]
    c_host = sheet.col("Host")
    pct_cpu = sheet.col(f"{word} CPU %")
    ghz = unit_col(sheet, f"{word} CPU", MHZ, "ghz")
    pct_mem = sheet.col(f"{word} Memory %")
    mem = unit_col(sheet, f"{word} Memory", MIB)
    iops = sheet.col(f"{word} IOPS")
    io = {k: sheet.col(k) for k in ("Average Read/Write Ratio", "Average IOPS", "Peak IOPS",
                                    "Avg Throughput MB/s", "Peak Throughput MB/s")}
    out: dict[str, HostPerf] = {}
    for n, row in enumerate(sheet.rows, start=2):
        name = clean(text(row, c_host))
        if not name:
            continue
        where = f"ESX Performance row {n}"
        host = hosts.get(name.lower())
        perf = HostPerf(where=where)
        try:
            mhz = scaled(row, ghz, f"{word} CPU (GHz)") if ghz[0] != pct_cpu else None
            cap = (host.mhz or 0.0) * (host.cores or 0) if host is not None else 0.0
            perf.cpu_pct = (mhz / cap * 100.0 if mhz is not None and cap > 0
                            else num(row, pct_cpu, f"{word} CPU %", False))
            if mhz is None and perf.cpu_pct is not None and cap > 0:
                mhz = perf.cpu_pct / 100.0 * cap
            perf.cpu_mhz = mhz
            used = scaled(row, mem, f"{word} Memory (MiB)") if mem[0] != pct_mem else None
            total = host.memory_mib if host is not None else None
            perf.memory_pct = (used / total * 100.0 if used is not None and total
                               else num(row, pct_mem, f"{word} Memory %", False))
            perf.iops = num(row, iops, f"{word} IOPS", False)
            _host_mix(perf, row, io)
        except BadCellError as err:
            report.notes.append(f"{where} host '{name}': {err}")
        out[name.lower()] = perf
    return out


def _host_mix(perf: HostPerf, row: Row, c: dict[str, int | None]) -> None:
    """A host's I/O mix: its read share and mean I/O size (:data:`COARSE_MBPS`)."""
    ratio = re.match(r"\s*(\d+(?:\.\d+)?)\s*%", text(row, c["Average Read/Write Ratio"]))
    if ratio:
        perf.read_pct = min(float(ratio.group(1)), 100.0)
    for mbps, iops in (("Avg Throughput MB/s", "Average IOPS"),
                       ("Peak Throughput MB/s", "Peak IOPS")):
        rate, n = num(row, c[mbps], mbps, False), num(row, c[iops], iops, False)
        if rate is not None and n and (rate >= COARSE_MBPS or iops == "Peak IOPS") \
                and rate > 0:
            perf.io_kb = rate * 1024.0 / n
            return


# --------------------------------------------------------------------------- VMs


@dataclass
class VmRow:
    """A VMs row as the import needs it beyond the record: its keys for the join with VM
    Performance and its datastores as the sheet names them."""

    record: VmRecord
    mob: str
    datastores: list[str] = field(default_factory=list)
    url_name: bool = False


def read_vms(sheet: Sheet, report: ImportReport) -> list[VmRow]:
    """VMs: one VM per row (powered-off VMs and templates included, the build sorts them)."""
    c = {k: sheet.col(k) for k in ("VM Name", "MOB ID", "IsRunning", "Power State", "VM OS",
                                   "Disks", "Virtual CPU", "Template", "Connection State",
                                   "Datacenter", "Cluster", "Datastore", "Host")}
    c_mem = unit_col(sheet, "Provisioned Memory", MIB)
    c_consumed = unit_col(sheet, "Consumed Memory", MIB)
    c_active = unit_col(sheet, "Used Memory (active)", MIB)
    c_vdisk = unit_col(sheet, "Virtual Disk Size", MIB)
    c_vused = unit_col(sheet, "Virtual Disk Used", MIB)
    c_gcap = unit_col(sheet, "Guest VM Disk Capacity", MIB)
    c_gused = unit_col(sheet, "Guest VM Disk Used", MIB)
    out = []
    for n, row in enumerate(sheet.rows, start=2):
        raw = text(row, c["VM Name"])
        where = f"VMs row {n}"
        if not raw:
            if any(v not in (None, "") for v in row):
                report.skip(where, "", "no VM name")
            continue
        name, from_url = vm_name(raw)
        state = text(row, c["Power State"]).lower()
        running = flag(row, c["IsRunning"])
        on = state == "poweredon" if state else bool(running)
        conn = text(row, c["Connection State"]).lower()
        vm = VmRecord(name=name, where=where, host=clean(text(row, c["Host"])),
                      datacenter=clean(text(row, c["Datacenter"])),
                      cluster=clean(text(row, c["Cluster"])), powered_on=on,
                      template=bool(flag(row, c["Template"])), os=text(row, c["VM OS"]),
                      orphaned=conn in ("orphaned", "inaccessible", "invalid"))
        datastores = [clean(d) for d in text(row, c["Datastore"]).split(",") if d.strip()]
        try:
            cpus = num(row, c["Virtual CPU"], "Virtual CPU", not vm.template)
            if cpus is not None and not cpus.is_integer():
                raise BadCellError(f"bad value: Virtual CPU {cpus:g} is not a whole number")
            vm.vcpus = int(cpus) if cpus is not None else None
            vm.memory_mib = scaled(row, c_mem, "Provisioned Memory")
            if vm.memory_mib is None and not vm.template:
                raise BadCellError("bad value: Provisioned Memory is empty")
            vm.provisioned_mib = scaled(row, c_vdisk, "Virtual Disk Size")
            vm.in_use_mib = scaled(row, c_vused, "Virtual Disk Used")
            vm.partition_capacity_mib = scaled(row, c_gcap, "Guest VM Disk Capacity") or None
            vm.partition_consumed_mib = scaled(row, c_gused, "Guest VM Disk Used") or None
            vm.disks = int(num(row, c["Disks"], "Disks", False) or 0)
        except BadCellError as err:
            vm.problem = str(err)
        try:  # measurements taken at discovery, not the VM's size
            consumed = scaled(row, c_consumed, "Consumed Memory")
            active = scaled(row, c_active, "Used Memory (active)")
            if on and consumed:
                vm.measured.memory_consumed_mib = consumed
            if on and active:
                vm.measured.memory_active_mib = active
        except BadCellError as err:
            report.notes.append(f"{where} VM '{name}': {err}: memory not measured")
        out.append(VmRow(vm, text(row, c["MOB ID"]), datastores, from_url))
    return out


@dataclass
class VmPerf:
    """VM Performance's figures for one VM in one statistic."""

    measured: Measured
    where: str


def read_vm_perf(sheet: Sheet, stat: str, report: ImportReport) -> dict[tuple[str, str], VmPerf]:
    """VM Performance: (MOB ID or VM name, host) in lower case -> the VM's figures.  Both keys
    are entered (a VMs row finds its row by MOB ID and host, else by name and host)."""
    cpu_w, mem_w, kb_w, rw_w = STAT_WORDS[stat]
    c = {k: sheet.col(k) for k in ("VM Name", "MOB ID", "Host", f"{cpu_w} IOPS",
                                   f"{rw_w} Read IOPS", f"{rw_w} Write IOPS",
                                   "Avg Read IOPS", "Avg Write IOPS", "Avg Read/Write Ratio",
                                   "Average IOPS", "Average KB/sec", "Avg Read Latency",
                                   "Avg Write Latency", "Peak Read Latency",
                                   "Peak Write Latency", "Peak Latency")}
    cpu = unit_col(sheet, f"{cpu_w} vCPU", MHZ, "ghz")
    mem = unit_col(sheet, f"{mem_w} Memory", MIB)
    kbps = sheet.col(f"{kb_w} KB/sec")
    out: dict[tuple[str, str], VmPerf] = {}
    bad = 0
    first = ""
    for n, row in enumerate(sheet.rows, start=2):
        raw = text(row, c["VM Name"])
        if not raw:
            continue
        where = f"VM Performance row {n}"
        m = Measured()
        try:
            m.cpu_mhz = scaled(row, cpu, f"{cpu_w} vCPU")
            m.memory_active_mib = scaled(row, mem, f"{mem_w} Memory")
            iops = num(row, c[f"{cpu_w} IOPS"], f"{cpu_w} IOPS", False)
            if iops is not None:
                _io(m, row, c, iops, num(row, kbps, f"{kb_w} KB/sec", False), stat)
        except BadCellError as err:
            bad += 1
            first = first or f"{where}: {err}"
            continue
        perf = VmPerf(m, where)
        host = clean(text(row, c["Host"])).lower()
        mob = text(row, c["MOB ID"]).lower()
        if mob:
            out.setdefault((mob, host), perf)
        out.setdefault((vm_name(raw)[0].lower(), host), perf)
    if bad:
        report.notes.append(f"sheet VM Performance: {counted(bad, 'row')} with unusable cells"
                            " left out"
                            f" (first: {first})")
    return out


def _io(m: Measured, row: Row, c: dict[str, int | None], iops: float, kbps: float | None,
        stat: str) -> None:
    """Storage I/O of one VM Performance row: IOPS, read share and I/O size (the window's: the
    average reads over the average reads and writes, else the ratio's text; the average
    KB/sec over the average IOPS - a VM's peak throughput and peak IOPS fall at moments of
    their own, often big sequential I/Os and small random ones, so their quotient is no I/O
    size) and latency in both statistics whichever ``stat`` the rates take, so that the check
    compares like with like: the average (reads and writes weighted by their average rates)
    with the model's mean, the peak (Peak Latency, else the higher of the read and write
    peaks) with the model's p95."""
    m.iops = iops
    reads = num(row, c["Avg Read IOPS"], "Avg Read IOPS", False)
    writes = num(row, c["Avg Write IOPS"], "Avg Write IOPS", False)
    if reads is not None and writes is not None and reads + writes > 0:
        m.read_pct = reads / (reads + writes) * 100.0
    else:
        ratio = re.match(r"\s*(\d+(?:\.\d+)?)\s*%", text(row, c["Avg Read/Write Ratio"]))
        if ratio and iops > 0:
            m.read_pct = min(float(ratio.group(1)), 100.0)
    avg_iops = num(row, c["Average IOPS"], "Average IOPS", False)
    avg_kbps = num(row, c["Average KB/sec"], "Average KB/sec", False)
    if avg_kbps is not None and avg_iops:
        m.io_kb = avg_kbps / avg_iops
    elif kbps is not None and iops > 0:
        m.io_kb = kbps / iops
    if iops <= 0:
        return
    peaks = [v for k in ("Peak Read Latency", "Peak Write Latency")
             if (v := num(row, c[k], k, False)) is not None]
    top = num(row, c["Peak Latency"], "Peak Latency", False)
    m.latency_peak_ms = top if top is not None else (max(peaks) if peaks else None)
    read_lat = num(row, c["Avg Read Latency"], "Avg Read Latency", False)
    write_lat = num(row, c["Avg Write Latency"], "Avg Write Latency", False)
    if read_lat is not None and write_lat is not None:
        if reads is not None and writes is not None and reads + writes > 0:
            m.latency_ms = (read_lat * reads + write_lat * writes) / (reads + writes)
        else:
            share = (m.read_pct if m.read_pct is not None else 50.0) / 100.0
            m.latency_ms = read_lat * share + write_lat * (1.0 - share)


# --------------------------------------------------------------------------- NICs, storage


def read_nics(sheet: Sheet, hosts: dict[str, HostRecord], report: ImportReport) -> None:
    """Host Network Adapters: each physical NIC onto its host."""
    c_host, c_name = sheet.col("Host"), sheet.col("PNIC Name")
    speed = unit_col(sheet, "PNIC Speed", {"mb/sec": 1.0, "mbps": 1.0, "mb/s": 1.0,
                                           "gb/sec": 1000.0, "gbps": 1000.0})
    for n, row in enumerate(sheet.rows, start=2):
        hname = clean(text(row, c_host))
        dev = clean(text(row, c_name))
        where = f"Host Network Adapters row {n}"
        if not hname:
            continue
        host = hosts.get(hname.lower())
        if host is None:
            report.skip(where, f"{hname} {dev}", f"host not in inventory: '{hname}' is not in"
                        " ESX Hosts")
            continue
        try:
            mbps = scaled(row, speed, "PNIC Speed")
        except BadCellError:
            mbps = None
        host.nics.append(NicRecord(name=dev or f"nic{len(host.nics)}", speed_mbps=mbps,
                                   where=where))


@dataclass
class Device:
    """A Host Devices row: a datastore as one host mounts it."""

    host: str
    name: str
    shared: bool
    capacity_gib: float | None
    free_gib: float | None
    used_gib: float | None
    vm_count: int | None
    datacenter: str
    where: str
    address: str = ""
    protocol: str = ""


def read_devices(sheet: Sheet, report: ImportReport) -> list[Device]:
    """Host Devices: one row per host and datastore ("Cluster" devices are shared)."""
    c = {k: sheet.col(k) for k in ("Server Name", "Device Name", "Device Type", "VM Count",
                                   "Datacenter")}
    cap = unit_col(sheet, "Capacity", {k: v / 1024 for k, v in MIB.items()})
    free = unit_col(sheet, "Free Capacity", {k: v / 1024 for k, v in MIB.items()})
    used = unit_col(sheet, "Used Capacity", {k: v / 1024 for k, v in MIB.items()})
    out = []
    for n, row in enumerate(sheet.rows, start=2):
        host, name = clean(text(row, c["Server Name"])), clean(text(row, c["Device Name"]))
        if not host or not name:
            continue
        where = f"Host Devices row {n}"
        try:
            count = num(row, c["VM Count"], "VM Count", False)
            out.append(Device(host, name, text(row, c["Device Type"]).lower() == "cluster",
                              scaled(row, cap, "Capacity"), scaled(row, free, "Free Capacity"),
                              scaled(row, used, "Used Capacity"),
                              None if count is None else int(count),
                              clean(text(row, c["Datacenter"])), where))
        except BadCellError as err:
            report.notes.append(f"{where} device '{name}': {err}; left out")
    return out


PROTOCOLS = (("fibre channel", "fc"), ("iscsi", "iscsi"), ("serial attached scsi", "sas"),
             ("sas ", "sas"))
"""Words of a Host Disks name -> the protocol hosts reach the LUN over."""


def read_luns(sheet: Sheet, devices: list[Device]) -> int:
    """Host Disks: each device's LUN found by its host and size (a datastore is its LUN less
    a little formatting: the same whole GiB, within 1%), giving the device its NAA id (which
    LUNs share an array) and protocol.  Returns how many devices found theirs."""
    c_host, c_name = sheet.col("Host"), sheet.col("Disk Name")
    cap = unit_col(sheet, "Disk Capacity", {k: v / 1024 for k, v in MIB.items()})
    luns: dict[str, list[tuple[float, str, str]]] = {}
    for row in sheet.rows:
        name = text(row, c_name)
        m = re.search(r"\((naa\.[0-9a-fA-F]+|eui\.[0-9a-fA-F]+)\)", name)
        try:
            gib = scaled(row, cap, "Disk Capacity")
        except BadCellError:
            continue
        if m is None or gib is None:
            continue
        low = name.lower() + " "
        proto = next((p for w, p in PROTOCOLS if w in low), "")
        luns.setdefault(clean(text(row, c_host)).lower(), []).append(
            (gib, m.group(1).lower(), proto))
    found = 0
    for d in devices:
        if d.capacity_gib is None:
            continue
        size = d.capacity_gib
        near = [(addr, proto) for gib, addr, proto in luns.get(d.host.lower(), [])
                if round(gib) == round(size) or abs(gib - size) <= 0.01 * size]
        if len({a for a, _ in near}) == 1:
            d.address, d.protocol = near[0]
            found += 1
    return found
