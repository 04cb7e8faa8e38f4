"""Import a Dell Live Optics (Optical Prime) VMware collection: the ``VMWARE`` workbook, or the
zip of several files that Live Optics downloads (its ``LiveOptics_<id>_VMWARE_<date>.xlsx``
read, the others named and left out).

================= ==========================================================================
ESX Hosts         hosts: sockets, cores, clock, hyperthreading (threads > cores), memory, ESXi,
                  the processor string (kept on the record as ``cpu_model``)
ESX Performance   each host's recorded CPU % (of cores x clock), memory % and IOPS with its
                  read share and I/O size (the I/O beyond its VMs' is its background I/O)
VMs               VMs: vCPUs, memory, power state, host, cluster, datastores, disk sizes, and
                  consumed and active memory (readings taken at discovery)
VM Performance    each VM's CPU (vCPU GHz), active memory, IOPS with its read share, I/O size
                  (KB/sec over IOPS) and latency, joined on MOB ID and host
Host Devices      datastores (a shared one once, whichever host mounts it), capacity, in use
Host Disks        each datastore's LUN (by host and size): its NAA id groups LUNs into arrays,
                  its name says the protocol (Fibre Channel, iSCSI, SAS)
Host Net. Adapt.  physical NICs and their speed
Details           the project and the collection's date (provenance)
================= ==========================================================================

The workbook holds each figure twice, ``Peak`` (the highest sample) and ``Average`` (the mean
over the collection); ``stat`` picks one for every figure, VMs and hosts alike.  The default
is the peak: storage is sized to it (latency must hold in the busy hour, and the workbook has
no 95th percentile).  The VMs' peaks fall at different moments, so their sum is above what
their host recorded at its own peak; the average adds up (the mean of a sum is the sum of the
means) and gives the closer baseline.  VMs and hosts are joined by name case-insensitively;
names masked by Live Optics ("Server 3", "Guest VM 12") are kept and said to be masked.
"""

from __future__ import annotations

import contextlib
import re
import tempfile
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from models.document.design import Design, DesignError, Issue
from models.document.numbers import counted
from models.io.importers import Estate, HostRecord, ImportReport, Progress, SiteBy, VmRecord
from models.io.importers.build import build_design
from models.io.importers.importer import Importer, Option, Options, site_by
from models.io.importers.liveoptics_sheets import (
    Details,
    HostPerf,
    VmPerf,
    VmRow,
    read_details,
    read_devices,
    read_host_perf,
    read_hosts,
    read_luns,
    read_nics,
    read_vm_perf,
    read_vms,
)
from models.io.importers.liveoptics_storage import datastores
from models.io.importers.measurements import HostMeasured, Measurements
from models.io.importers.workbook import Source, sheet_names, workbook_sheets
from models.io.paths import MAX_BYTES, require_regular_file

STATS = ("peak", "average")
DEFAULT_STAT = "peak"
REQUIRED = ("ESX Hosts", "VMs")
OPTIONAL = {
    "Details": "the collection's date is not known (provenance says so)",
    "ESX Performance": "no recorded host figures: the baseline check has nothing to compare",
    "VM Performance": "no measured CPU or storage I/O per VM (the baseline shares each host's"
                      " recorded CPU among its VMs)",
    "Host Devices": "no datastore capacity (arrays from the VMs' datastore names only)",
    "Host Disks": "datastores keep no NAA id: each is an array of its own",
    "Host Network Adapters": "no host NICs imported",
}
MASKS = (re.compile(r"^guest vm \d+$"), re.compile(r"^server \d+$"))
"""Names Live Optics' masking option writes for VMs and hosts."""


@dataclass
class Collection:
    """What one or more VMWARE workbooks hold, read in one statistic."""

    estate: Estate
    stat: str
    details: list[Details] = field(default_factory=list)
    host_perf: dict[str, HostPerf] = field(default_factory=dict)
    """Host name (lower case) -> ESX Performance's figures."""
    masked: bool = False


# --------------------------------------------------------------------------- files


def _book_sheets(z: zipfile.ZipFile, member: str) -> list[str]:
    try:
        with z.open(member) as f, zipfile.ZipFile(f) as inner:
            return workbook_sheets(inner)
    except Exception:  # a damaged or foreign member: many kinds of failure
        return []


def is_vmware_book(names: list[str]) -> bool:
    """Whether a workbook's sheet names are a Live Optics VMware workbook's."""
    low = {n.strip().lower() for n in names}
    return "esx hosts" in low or {"vms", "vm performance"} <= low or \
        {"vms", "esx performance"} <= low


def _zip_members(path: Path) -> tuple[list[str], list[str]] | None:
    """(VMware workbooks, other files) of a Live Optics download; None for a file that is no
    zip, or is itself a workbook."""
    if not zipfile.is_zipfile(path):
        return None
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        if "xl/workbook.xml" in names or "[Content_Types].xml" in names:
            return None
        books: list[str] = []
        others: list[str] = []
        for info in z.infolist():
            if info.is_dir():
                continue
            ok = (info.filename.lower().endswith(".xlsx") and info.file_size <= MAX_BYTES
                  and is_vmware_book(_book_sheets(z, info.filename)))
            (books if ok else others).append(info.filename)
        return books, others


def is_liveoptics(path: Path) -> bool:
    """Whether ``path`` is a Live Optics VMware workbook, or a zip holding one."""
    if path.is_dir():
        return False
    members = _zip_members(path)
    if members is not None:
        return bool(members[0])
    return is_vmware_book(sheet_names(path))


@contextlib.contextmanager
def workbooks(path: Path, report: ImportReport) -> Iterator[list[Path]]:
    """The VMware workbooks ``path`` stands for: itself, or those in a zip (unpacked into a
    temporary folder for as long as they are read; the zip's other files named)."""
    p = require_regular_file(path, "Live Optics workbook")
    members = _zip_members(p)
    if members is None:
        if not zipfile.is_zipfile(p):
            raise DesignError([Issue(str(p), "not a Live Optics workbook (.xlsx) or the zip"
                                     " Live Optics downloads")])
        yield [p]
        return
    books, others = members
    if not books:
        raise DesignError([Issue(str(p), "the zip holds no Live Optics VMware workbook (a"
                                 " LiveOptics_<project>_VMWARE_<date>.xlsx with ESX Hosts and"
                                 " VMs sheets); found: " + (", ".join(others[:6]) or "nothing"))])
    for o in others:
        report.notes.append(f"{p.name}: {o} is not a VMware workbook (GENERAL, AIR and PERF"
                            " files carry no vSphere inventory): left out")
    with tempfile.TemporaryDirectory(prefix="headroom-liveoptics-") as tmp, \
            zipfile.ZipFile(p) as z:
        out = []
        for i, member in enumerate(books):
            target = Path(tmp) / f"{i}-{Path(member).name}"
            with z.open(member) as src, target.open("wb") as dst:
                dst.write(src.read(MAX_BYTES + 1)[:MAX_BYTES])
            out.append(target)
        yield out


# --------------------------------------------------------------------------- reading


def _when(d: Details) -> str:
    what = f"Live Optics project {d.project}" if d.project else "Live Optics collection"
    return f"{what} of {d.date}" if d.date else f"{what} (its date is not recorded)"


def read_book(path: Path, stat: str, report: ImportReport, label: str = "",
              progress: Progress | None = None) -> Collection:
    """One VMWARE workbook as a :class:`Collection` (``label``: its name in messages)."""
    name = label or path.name
    if not zipfile.is_zipfile(path):
        raise DesignError([Issue(name, "not an Excel .xlsx workbook")])
    src = Source(path)
    try:
        missing = [s for s in REQUIRED if not src.has(s)]
        if missing:
            raise DesignError([Issue(name, "missing Live Optics sheet(s) " + ", ".join(missing)
                                     + " (found: " + (", ".join(src.names()) or "none") + ")")])
        for sheet, meaning in OPTIONAL.items():
            if not src.has(sheet):
                report.notes.append(f"sheet {sheet} not in {name}: {meaning}")
        details = Details()
        details_sheet = src.sheet("Details")
        if details_sheet is not None:
            details = read_details(details_sheet, details_sheet.header)
        when = _when(details)
        col = Collection(Estate(source=name, taken=when), stat, [details])
        if progress is not None:
            progress(0, 0, "reading ESX Hosts")
        hosts_sheet = src.sheet("ESX Hosts")
        assert hosts_sheet is not None
        col.estate.hosts = read_hosts(hosts_sheet, report)
        by_name = {h.name.lower(): h for h in col.estate.hosts}
        perf_sheet = src.sheet("ESX Performance")
        if perf_sheet is not None:
            col.host_perf = read_host_perf(perf_sheet, stat, by_name, report)
            _host_figures(col, by_name, when, report)
        nic_sheet = src.sheet("Host Network Adapters")
        if nic_sheet is not None:
            read_nics(nic_sheet, by_name, report)
        if progress is not None:
            progress(0, 0, "reading VMs")
        vms_sheet = src.sheet("VMs")
        assert vms_sheet is not None
        rows = read_vms(vms_sheet, report)
        urls = [r.record.name for r in rows if r.url_name]
        if urls:
            report.notes.append(f"{counted(len(urls), 'VM')} named by a URL-encoded datastore"
                                " path (Live Optics found no display name): named after the"
                                " .vmx file: " + ", ".join(urls[:6]) + (" ..." if len(urls) > 6
                                                                   else ""))
        vm_perf = src.sheet("VM Performance")
        if vm_perf is not None:
            _vm_figures(rows, read_vm_perf(vm_perf, stat, report), by_name, stat, when, report)
        col.estate.vms = [r.record for r in rows]
        if stat == "peak" and col.host_perf:
            _at_host_peak(col, when, report)
        devices_sheet = src.sheet("Host Devices")
        devices = read_devices(devices_sheet, report) if devices_sheet is not None else []
        luns = src.sheet("Host Disks")
        if luns is not None and devices:
            found = read_luns(luns, devices)
            if found:
                report.notes.append(f"{found} of {len(devices)} Host Devices rows found their"
                                    " LUN in Host Disks (by host and size): NAA ids and"
                                    " protocols from there")
        col.estate.datastores = datastores(devices, rows, report)
        _hosts_without_vms(col, report)
    finally:
        src.close()
    col.masked = _masked(col.estate)
    if not col.estate.vms and not col.estate.hosts:
        raise DesignError([Issue(name, "the workbook lists no hosts and no VMs")])
    return col


def _host_figures(col: Collection, hosts: dict[str, HostRecord], when: str,
                  report: ImportReport) -> None:
    word = "Peak" if col.stat == "peak" else "Average"
    source = f"Live Optics ESX Performance {word} CPU, memory and IOPS, {when}"
    for key, perf in col.host_perf.items():
        host = hosts.get(key)
        if host is None:
            report.skip(perf.where, key, "host not in inventory: it is not in ESX Hosts, its"
                        " recorded figures are left out")
            continue
        host.cpu_usage_pct, host.memory_usage_pct = perf.cpu_pct, perf.memory_pct
        host.iops, host.read_pct, host.io_kb = perf.iops, perf.read_pct, perf.io_kb
        if perf.cpu_pct is not None or perf.memory_pct is not None or perf.iops is not None:
            host.measured_by = source


def _vm_figures(rows: list[VmRow], perf: dict[tuple[str, str], VmPerf],
                hosts: dict[str, HostRecord], stat: str, when: str,
                report: ImportReport) -> None:
    """VM Performance onto the VMs rows: joined on MOB ID and host, else name and host."""
    word = "Peak" if stat == "peak" else "Average"
    cpu_src = f"Live Optics VM Performance {word} vCPU (GHz), {when}"
    io_src = f"Live Optics VM Performance {word} IOPS, {when}"
    missing = []
    for r in rows:
        vm = r.record
        host = vm.host.lower()
        found = perf.get((r.mob.lower(), host)) if r.mob else None
        found = found or perf.get((vm.name.lower(), host))
        if found is None:
            if vm.powered_on and not vm.template:
                missing.append(vm.name)
            continue
        if not vm.powered_on:
            continue
        m, got = vm.measured, found.measured
        if got.cpu_mhz is not None:
            m.cpu_mhz = got.cpu_mhz
            m.sources["cpu"] = cpu_src
        if got.memory_active_mib is not None:
            m.memory_active_mib = got.memory_active_mib
        if got.iops is not None:
            m.iops, m.read_pct, m.io_kb = got.iops, got.read_pct, got.io_kb
            m.latency_ms, m.latency_peak_ms = got.latency_ms, got.latency_peak_ms
            m.sources["io"] = io_src
        h = hosts.get(host)
        if vm.vcpus and h is not None and h.mhz:
            m.cpu_max_mhz = vm.vcpus * h.mhz
    for r in rows:
        m = r.record.measured
        if m.memory_consumed_mib is not None:
            m.sources["memory"] = f"Live Optics VMs Consumed Memory (read at discovery), {when}"
        elif m.memory_active_mib is not None:
            m.sources["memory"] = f"Live Optics VM Performance {word} Memory (active), {when}"
    big = sorted(((r.record.measured.io_kb or 0.0, r.record.name) for r in rows
                  if (r.record.measured.io_kb or 0.0) > 1024.0), reverse=True)
    if big:
        report.notes.append(f"mean I/O size over 1 MB on {counted(len(big), 'VM')} (average"
                            " KB/sec over average IOPS: " + ", ".join(f"{n} {kb:,.0f} KB"
                                                          for kb, n in big[:5])
                            + "): large sequential I/O, or too few I/Os to divide by; their"
                            " latency grows with the size (vm.workload.io_block_kb sets it)")
    if missing:
        report.notes.append(f"{counted(len(missing), 'running VM')} without a VM Performance"
                            " row ("
                            + ", ".join(missing[:5]) + (", ..." if len(missing) > 5 else "")
                            + "): their CPU is shared from their host's recorded usage, their"
                            " storage I/O is not measured")


def _factor(host: float | None, vms: float) -> float:
    return min(1.0, host / vms) if host is not None and vms > 0 else 1.0


def _at_host_peak(col: Collection, when: str, report: ImportReport) -> None:
    """Peaks, as a steady state: each VM at its host's peak.  A VM's own peaks (CPU, IOPS,
    throughput) fall at moments of their own, so on a host they add up to more than the host
    ever recorded; each host's recorded peak is shared among its VMs in proportion to their
    own peaks (never raised: a host's own I/O can pass its VMs')."""
    by_host: dict[str, list[VmRecord]] = {}
    for v in col.estate.vms:
        if v.powered_on and not v.template:
            by_host.setdefault(v.host.lower(), []).append(v)
    over: dict[str, list[float]] = {"CPU": [], "IOPS": []}
    shared: set[str] = set()
    for key, perf in col.host_perf.items():
        vms = by_host.get(key, [])
        cpu = sum(v.measured.cpu_mhz or 0.0 for v in vms)
        iops = sum(v.measured.iops or 0.0 for v in vms)
        if perf.cpu_mhz and cpu:
            over["CPU"].append(cpu / perf.cpu_mhz)
        if perf.iops and iops:
            over["IOPS"].append(iops / perf.iops)
        f_cpu, f_io = _factor(perf.cpu_mhz, cpu), _factor(perf.iops, iops)
        host = vms[0].host if vms else key
        for v in vms:  # one text per host and figure: the VM's own peak is its figure / share
            m = v.measured
            if m.cpu_mhz and f_cpu < 1.0:
                m.sources["cpu"] = (f"Live Optics VM Performance Peak vCPU at its host's peak:"
                                    f" {f_cpu:.0%} of each VM's own peak (host {host}'s recorded"
                                    f" peak shared by its VMs' own peaks), {when}")
                m.cpu_mhz *= f_cpu
                shared.add("CPU")
            if m.iops and f_io < 1.0:
                m.sources["io"] = (f"Live Optics VM Performance Peak IOPS at its host's peak:"
                                   f" {f_io:.0%} of each VM's own peak (host {host}'s recorded"
                                   f" peak shared by its VMs' own peaks), {when}")
                m.iops *= f_io
                shared.add("IOPS")
    spans = [f"{what} {min(r):.2g}-{max(r):.2g}x" for what, r in over.items() if r]
    if shared:
        report.notes.append(
            "--stat peak: the VMs' own peaks fall at different moments (per host they add up"
            " to " + ", ".join(spans) + " what the host recorded at its peak): each VM is"
            " taken at its host's peak, the host's recorded peak shared among its VMs in"
            " proportion to their own, so the check matches the hosts' peak "
            + " and ".join(sorted(shared)) + " by construction (each VM's provenance says its"
            " host's share; --stat average shares nothing and checks the VMs against their"
            " hosts)")


def _hosts_without_vms(col: Collection, report: ImportReport) -> None:
    """Hosts that recorded load but run no VM of the workbook: nothing explains it."""
    running = {v.host.lower() for v in col.estate.vms if v.powered_on and not v.template}
    for h in col.estate.hosts:
        if h.name.lower() in running:
            continue
        figures = ", ".join(f"{label} {v:,.0f}{unit}" for label, v, unit in (
            ("CPU", h.cpu_usage_pct, "%"), ("memory", h.memory_usage_pct, "%"),
            ("IOPS", h.iops, "")) if v)
        if figures:
            report.notes.append(f"host '{h.name}' recorded {figures} but runs no VM of the"
                                " workbook: no VM explains its load (the baseline check"
                                " shows its CPU and memory as a residual"
                                + ("; its IOPS are its background I/O on the arrays it"
                                   " reaches" if h.iops else "") + ")")


def _masked(estate: Estate) -> bool:
    names = [v.name.lower() for v in estate.vms] + [h.name.lower() for h in estate.hosts]
    hits = sum(1 for n in names if any(m.match(n) for m in MASKS))
    return bool(names) and hits >= 0.8 * len(names)


def read_source(path: str | Path, stat: str, report: ImportReport,
                progress: Progress | None = None) -> Collection:
    """A workbook, or every VMware workbook of a Live Optics zip merged into one
    :class:`Collection`."""
    if stat not in STATS:
        raise DesignError([Issue("--stat", f"expected one of {', '.join(STATS)}, got {stat!r}")])
    p = Path(path)
    with workbooks(p, report) as books:
        parts = [read_book(b, stat, report, b.name.split("-", 1)[-1] if b != p else p.name,
                           progress) for b in books]
    first = parts[0]
    for other in parts[1:]:
        first.estate.hosts += other.estate.hosts
        first.estate.vms += other.estate.vms
        first.estate.datastores += other.estate.datastores
        first.details += other.details
        for k, v in other.host_perf.items():
            first.host_perf.setdefault(k, v)
        first.masked = first.masked or other.masked
    if len(parts) > 1:
        first.estate.taken = "; ".join(_when(d) for d in first.details)
        report.notes.append(f"{len(parts)} VMware workbooks merged: a host or VM name in"
                            " two of them is imported once (the report names the other)")
    if first.masked:
        report.notes.append("names are masked by Live Optics (Server N, Guest VM N, Datastore"
                            " N): the design keeps them; calibrating an unmasked estate from"
                            " this workbook will match nothing by name")
    first.estate.source = p.name
    return first


def _provenance(col: Collection, report: ImportReport) -> None:
    word = "peak" if col.stat == "peak" else "average"
    vms = col.estate.vms
    cpu = sum(1 for v in vms if "cpu" in v.measured.sources)
    io = sum(1 for v in vms if "io" in v.measured.sources)
    builds = ", ".join(d.build for d in col.details if d.build) or "unknown"
    report.provenance.append(
        f"{col.estate.taken}, collector {builds}: {word} of the collection (--stat"
        f" {col.stat}); VM Performance CPU of"
        f" {counted(cpu, 'VM')} and storage I/O of {counted(io, 'VM')}, VMs sheet consumed"
        f" memory, ESX Performance of {counted(len(col.host_perf), 'host')}")
    report.notes.append("virtual SCSI adapters and vNIC types are not in a Live Optics"
                        " workbook: every VM keeps the defaults (PVSCSI, VMXNET3)")


def import_liveoptics(path: str | Path, *, stat: str = DEFAULT_STAT,
                      site_by: SiteBy = "datacenter", include_powered_off: bool = False,
                      progress: Progress | None = None) -> tuple[Design, ImportReport]:
    """Import a Live Optics VMware collection as a design with an auto-layout and a
    calibrated baseline, and the report of what was imported, left out and assumed and of
    how well the baseline reproduces ESX Performance."""
    from models.analysis import baseline  # noqa: PLC0415  (analysis reads the engine)

    t0 = time.perf_counter()
    p = Path(path)
    report = ImportReport(source=f"Live Optics {p.name}")
    col = read_source(p, stat, report, progress)
    _provenance(col, report)
    design = build_design(col.estate, report, name=f"Estate from {p.stem}", site_by=site_by,
                          include_powered_off=include_powered_off, progress=progress)
    design.notes = f"Imported from the Live Optics collection {p.name} ({col.estate.taken})."
    baseline.calibrate_after_import(design, report, progress)
    report.seconds = time.perf_counter() - t0
    return design, report


def stat_of(stat: str) -> str:
    """The workbook's statistic for one of ``calibrate --stat``'s: the mean is the average,
    the maximum and p95 the peak (the workbook has no 95th percentile)."""
    return "average" if stat in ("mean", "average") else "peak"


def read_measurements(path: Path, stat: str = "p95") -> Measurements:
    """What a Live Optics collection measured, by VM and host name, to put onto an estate
    imported from RVTools or vCenter (``headroom calibrate DESIGN --from LIVEOPTICS.xlsx``)."""
    which = stat_of(stat)
    report = ImportReport(source=f"Live Optics {path.name}")
    col = read_source(path, which, report)
    how = which + (" (the workbook has no 95th percentile)" if stat == "p95" else "")
    meas = Measurements(source=f"{col.estate.taken}, {how}")
    for vm in col.estate.vms:
        if vm.powered_on and not vm.template and vm.measured.sources:
            meas.vms.setdefault(vm.name, vm.measured)
    for h in col.estate.hosts:
        if h.cpu_usage_pct is not None or h.memory_usage_pct is not None or h.iops is not None:
            meas.hosts[h.name] = HostMeasured(h.cpu_usage_pct, h.memory_usage_pct, iops=h.iops,
                                              read_pct=h.read_pct, io_kb=h.io_kb)
    meas.notes.extend(n for n in report.notes if n.startswith(("sheet ", "names are masked")))
    return meas


def _read_design(source: str, options: Options,
                 progress: Progress | None) -> tuple[Design, ImportReport]:
    return import_liveoptics(source, stat=str(options.get("stat") or DEFAULT_STAT),
                             site_by=site_by(options),
                             include_powered_off=bool(options.get("include_powered_off")),
                             progress=progress)


IMPORTER = Importer(
    id="liveoptics", name="Live Optics", title="Live Optics workbook",
    description="a Dell Live Optics VMware workbook (.xlsx, or the zip Live Optics downloads)",
    source=Option("source", "path", help="the LiveOptics_<project>_VMWARE_<date>.xlsx, or the"
                  " zip it came in"),
    command="import-liveoptics",
    help="import a Dell Live Optics VMware collection (.xlsx or its .zip) as a design, with"
    " each VM's measured CPU, memory and storage I/O",
    menu_text="&Live Optics Workbook",
    tip="Import a Dell Live Optics VMware workbook (or its zip) with measured storage I/O",
    options=(Option("stat", "choice", flag="--stat", default=DEFAULT_STAT, label="Statistic",
                    choices=(("peak", "peak: the highest sample (storage is sized to it)"),
                             ("average", "average: the mean over the collection")),
                    help="which of the workbook's statistics each figure takes: peak (default:"
                    " what storage is sized to) or average"),),
    patterns=("*.xlsx", "*.zip"), suffixes=(".zip",), sniff=is_liveoptics,
    read_design=_read_design, read_measurements=read_measurements, preload=("openpyxl",),
)
