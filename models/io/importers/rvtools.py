"""Read an RVTools export: an ``.xlsx`` workbook or a folder of ``RVTools_tab<name>.csv`` files.

vInfo (VMs) and vHost (hosts) are required; every other sheet is read when present:

========== ==============================================================================
vInfo      VMs: size, power state, host and cluster, Provisioned / In Use, Active Memory
vHost      hosts: hardware, ESXi version, recorded CPU usage % and Memory usage %
vCPU       per VM: Overall MHz (measured CPU use) and Max MHz (its ceiling)
vMemory    per VM: Consumed (+ Consumed Overhead), Active, Ballooned, Swapped
vDisk      per disk: its controller (the VM's vscsi) and thin provisioning
vPartition per guest partition: capacity and consumed
vDatastore capacity, provisioned, in use, address (which LUNs share an array), hosts (# Hosts
           and Hosts: a VMFS datastore one host mounts is that host's local storage)
vCluster   HA enabled, admission control (failover level or percentage), DRS
vNIC       host physical NICs; vNetwork: VM adapter types
vMetaData  the export's date (provenance: "RVTools vCPU Overall MHz, export of <date>")
========== ==============================================================================

Headers are matched case- and space-insensitively, both the older ``MB`` and the 4.x ``MiB``
spellings.  Rows with unusable cells, orphaned VMs and totals rows are skipped and listed in
the report with their sheet, row and reason; a file that is not an RVTools export raises
:class:`DesignError`.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import re
import time
from collections.abc import Callable
from pathlib import Path

from models.document.design import Design, DesignError, Issue
from models.document.numbers import counted
from models.io.importers import (
    ClusterRecord,
    DatastoreRecord,
    Estate,
    HostRecord,
    ImportReport,
    NicRecord,
    Progress,
    SiteBy,
    VmRecord,
)
from models.io.importers.build import build_design
from models.io.importers.importer import Importer, Option, Options, site_by
from models.io.importers.measurements import HostMeasured, Measurements
from models.io.importers.workbook import (
    CSV_SHEET,
    BadCellError,
    Row,
    Sheet,
    Source,
    cell,
    fast_rows,
    flag,
    num,
    sheet_names,
    text,
    whole,
)

__all__ = ["IMPORTER", "fast_rows", "import_rvtools", "read_estate", "read_measurements"]

REQUIRED = {
    "vInfo": ("VM", "Powerstate", "CPUs", "Memory", "Host"),
    "vHost": ("Host",),
}
OPTIONAL = {
    "vDatastore": "no storage arrays from datastores",
    "vNIC": "no host NICs imported",
    "vNetwork": "VM adapter types keep the default",
    "vCPU": "no measured CPU per VM (the baseline shares each host's recorded CPU usage)",
    "vMemory": "no consumed memory per VM (Active Memory from vInfo where present)",
    "vDisk": "virtual SCSI adapters keep the default (pvscsi)",
    "vCluster": "cluster HA and DRS policies unknown",
}
TOTALS = ("total", "totals", "sum", "grand total", "summe", "totaal")
"""Names of rows users add under a sheet's data (with =SUM cells): not VMs or hosts."""


def _skip_blank(sheet: Sheet, row: Row, where: str, report: ImportReport, what: str) -> None:
    if any(v not in (None, "") for v in row):
        report.skip(where, "", f"no {what} name (a totals row or a note?)")


# --------------------------------------------------------------------------- sheets


def _read_hosts(sheet: Sheet, report: ImportReport, when: str) -> list[HostRecord]:
    sheet.require(REQUIRED["vHost"])
    c = {k: sheet.col(k) for k in ("Host", "Datacenter", "Cluster", "CPU Model", "Speed",
                                   "HT Active", "# CPU", "Cores per CPU", "# Cores",
                                   "# Memory", "ESX Version", "CPU usage %", "Memory usage %",
                                   "# VMs total", "# VMs")}
    out = []
    for n, row in enumerate(sheet.rows, start=2):
        name = text(row, c["Host"])
        where = f"vHost row {n}"
        if not name or name.lower() in TOTALS:
            _skip_blank(sheet, row, where, report, "host")
            continue
        h = HostRecord(name=name, where=where, datacenter=text(row, c["Datacenter"]),
                       cluster=text(row, c["Cluster"]), cpu_model=text(row, c["CPU Model"]),
                       version=text(row, c["ESX Version"]), hyperthreading=flag(
                           row, c["HT Active"]))
        for attr, key, conv in (("sockets", "# CPU", whole), ("cores_per_socket",
                                                              "Cores per CPU", whole),
                                ("cores", "# Cores", whole), ("mhz", "Speed", num),
                                ("memory_mib", "# Memory", num),
                                ("cpu_usage_pct", "CPU usage %", num),
                                ("memory_usage_pct", "Memory usage %", num)):
            try:
                setattr(h, attr, conv(row, c[key], key, False))
            except BadCellError as err:
                report.notes.append(f"{where} host '{name}': {err}; the default is used")
        if h.cpu_usage_pct is not None or h.memory_usage_pct is not None:
            h.measured_by = f"RVTools vHost CPU usage % and Memory usage %, {when}"
        counts = []  # "# VMs total" counts powered-off VMs too; 3.x has "# VMs" alone
        for key in ("# VMs total", "# VMs"):
            with contextlib.suppress(BadCellError):
                counts.append(whole(row, c[key], key, False))
        h.vms_recorded = max((n for n in counts if n is not None), default=None)
        out.append(h)
    return out


def _read_vms(sheet: Sheet, report: ImportReport, progress: Progress | None,
              adapters: dict[str, str]) -> list[VmRecord]:
    sheet.require(REQUIRED["vInfo"])
    c = {k: sheet.col(k) for k in ("VM", "Powerstate", "Template", "CPUs", "Memory",
                                   "Provisioned MB", "In Use MB", "FT State", "FT Role",
                                   "Datacenter", "Cluster", "Host", "OS", "Path",
                                   "Latency Sensitivity", "Connection state", "Active Memory")}
    out = []
    for n, row in enumerate(sheet.rows, start=2):
        if progress is not None and n % 500 == 0:
            progress(n, 0, "reading vInfo")
        name = text(row, c["VM"])
        where = f"vInfo row {n}"
        if not name or (name.lower() in TOTALS and not text(row, c["Host"])):
            _skip_blank(sheet, row, where, report, "VM")
            continue
        state = text(row, c["Powerstate"]).lower()
        role = text(row, c["FT Role"]).lower()
        conn = text(row, c["Connection state"]).lower()
        vm = VmRecord(name=name, where=where, host=text(row, c["Host"]),
                      datacenter=text(row, c["Datacenter"]), cluster=text(row, c["Cluster"]),
                      powered_on=state not in ("poweredoff", "off", "powered off",
                                               "suspended"),
                      template=bool(flag(row, c["Template"])), os=text(row, c["OS"]),
                      orphaned=conn in ("orphaned", "inaccessible", "invalid"),
                      ft_state=text(row, c["FT State"]),
                      ft_secondary=role in ("2", "secondary") or role.startswith("secondary"),
                      adapter=adapters.get(name, ""),
                      latency_sensitivity=text(row, c["Latency Sensitivity"]))
        m = re.match(r"\s*\[([^\]]+)\]", text(row, c["Path"]))
        if m:
            vm.datastores = [m.group(1)]
        try:  # an empty size is taken from vCPU and vMemory, else imported unsized
            vm.vcpus = whole(row, c["CPUs"], "CPUs", False)
            vm.memory_mib = num(row, c["Memory"], "Memory", False)
            vm.provisioned_mib = num(row, c["Provisioned MB"], "Provisioned MiB", False)
            vm.in_use_mib = num(row, c["In Use MB"], "In Use MiB", False)
        except BadCellError as err:
            vm.problem = str(err)  # the build names it in the report, counted as dropped
        with contextlib.suppress(BadCellError):  # a measurement, not the VM's size
            vm.measured.memory_active_mib = num(row, c["Active Memory"], "Active Memory", False)
        out.append(vm)
    return out


def _per_vm(sheet: Sheet, read: Callable[[Row], None], report: ImportReport) -> None:
    """Call ``read(row)`` on each row of a per-VM sheet; cells it cannot read are noted once
    per sheet (the VM keeps what vInfo gave)."""
    bad = 0
    first = ""
    for n, row in enumerate(sheet.rows, start=2):
        try:
            read(row)
        except BadCellError as err:
            bad += 1
            first = first or f"row {n}: {err}"
    if bad:
        report.notes.append(f"sheet {sheet.name}: {counted(bad, 'row')} with unusable cells left"
                            f" out (first: {first})")


def _vm_col(sheet: Sheet) -> int:
    """The VM name column (an old vPartition header may mislabel it: the first column)."""
    i = sheet.col("VM")
    return 0 if i is None else i


def _fill_in(vm: VmRecord, sheet: Sheet, row: Row, key: str, attr: str) -> None:
    """What vInfo left empty of a VM (its size ``attr`` from column ``key``, its host and
    cluster) from another per-VM sheet's row."""
    if getattr(vm, attr) is None and not vm.problem:
        value = (whole if attr == "vcpus" else num)(row, sheet.col(key), key, False)
        if value is not None:
            setattr(vm, attr, value)
            vm.sized_from = ", ".join(filter(None, (vm.sized_from, sheet.name)))
    if not vm.host:  # a row that names no host: where this sheet says it runs
        for field, col in (("host", "Host"), ("cluster", "Cluster"),
                           ("datacenter", "Datacenter")):
            if not getattr(vm, field):
                setattr(vm, field, text(row, sheet.col(col)))


def _read_cpu(sheet: Sheet, vms: dict[str, VmRecord], when: str,
              report: ImportReport) -> None:
    vm_c, overall, top = _vm_col(sheet), sheet.col("Overall"), sheet.col("Max")
    source = f"RVTools vCPU Overall MHz, {when}"

    def read(row: Row) -> None:
        vm = vms.get(text(row, vm_c))
        if vm is None:
            return
        _fill_in(vm, sheet, row, "CPUs", "vcpus")
        if overall is None:
            return
        mhz = num(row, overall, "Overall", False)
        if mhz is not None:
            vm.measured.cpu_mhz = mhz
            vm.measured.sources["cpu"] = source
        vm.measured.cpu_max_mhz = num(row, top, "Max", False)

    if overall is None:
        report.notes.append("sheet vCPU has no 'Overall' column: no measured CPU per VM")
    _per_vm(sheet, read, report)


def _read_memory(sheet: Sheet, vms: dict[str, VmRecord], when: str,
                 report: ImportReport) -> None:
    vm_c = _vm_col(sheet)
    c = {k: sheet.col(k) for k in ("Consumed", "Consumed Overhead", "Active", "Ballooned",
                                   "Swapped")}
    if c["Consumed"] is None and c["Active"] is None:
        report.notes.append("sheet vMemory has neither 'Consumed' nor 'Active': ignored")
        return
    with_overhead = " (+ Consumed Overhead)" if c["Consumed Overhead"] is not None else ""
    source = f"RVTools vMemory Consumed MiB{with_overhead}, {when}"

    def read(row: Row) -> None:
        vm = vms.get(text(row, vm_c))
        if vm is None:
            return
        _fill_in(vm, sheet, row, "Size MiB", "memory_mib")
        m = vm.measured
        consumed = num(row, c["Consumed"], "Consumed", False)
        if consumed is not None:
            m.memory_consumed_mib = consumed + (num(row, c["Consumed Overhead"],
                                                    "Consumed Overhead", False) or 0.0)
            m.sources["memory"] = source
        active = num(row, c["Active"], "Active", False)
        if active is not None:
            m.memory_active_mib = active
        m.memory_ballooned_mib = num(row, c["Ballooned"], "Ballooned", False)
        m.memory_swapped_mib = num(row, c["Swapped"], "Swapped", False)

    _per_vm(sheet, read, report)


def _read_disks(sheet: Sheet, vms: dict[str, VmRecord], report: ImportReport) -> None:
    vm_c, ctl, thin = _vm_col(sheet), sheet.col("Controller"), sheet.col("Thin")

    def read(row: Row) -> None:
        vm = vms.get(text(row, vm_c))
        if vm is None:
            return
        vm.disks += 1
        if ctl is not None and text(row, ctl):
            vm.controllers.append(text(row, ctl))
        if flag(row, thin):
            vm.thin_disks += 1

    _per_vm(sheet, read, report)


def _read_partitions(sheet: Sheet, vms: dict[str, VmRecord], report: ImportReport) -> None:
    vm_c, cap, used = _vm_col(sheet), sheet.col("Capacity MB"), sheet.col("Consumed MB")

    def read(row: Row) -> None:
        vm = vms.get(text(row, vm_c))
        if vm is None:
            return
        c = num(row, cap, "Capacity MiB", False)
        u = num(row, used, "Consumed MiB", False)
        if c is not None:
            vm.partition_capacity_mib = (vm.partition_capacity_mib or 0.0) + c
        if u is not None:
            vm.partition_consumed_mib = (vm.partition_consumed_mib or 0.0) + u

    _per_vm(sheet, read, report)


def _read_datastores(sheet: Sheet, report: ImportReport) -> list[DatastoreRecord]:
    sheet.require(("Name",))
    c = {k: sheet.col(k) for k in ("Name", "Type", "Capacity MB", "Provisioned MB",
                                   "In Use MB", "Hosts", "# Hosts", "SIOC enabled", "Address",
                                   "URL")}
    out = []
    for n, row in enumerate(sheet.rows, start=2):
        name = text(row, c["Name"])
        where = f"vDatastore row {n}"
        if not name or name.lower() in TOTALS:
            continue
        ds = DatastoreRecord(name=name, where=where, type=text(row, c["Type"]),
                             hosts=[h.strip() for h in re.split(r"[,;]", text(row, c["Hosts"]))
                                    if h.strip()],
                             sioc=flag(row, c["SIOC enabled"]),
                             address=text(row, c["Address"]))
        for attr, key in (("capacity_mib", "Capacity MB"), ("provisioned_mib",
                                                            "Provisioned MB"),
                          ("in_use_mib", "In Use MB")):
            try:
                setattr(ds, attr, num(row, c[key], key.replace("MB", "MiB"), False))
            except BadCellError as err:
                report.notes.append(f"{where} datastore '{name}': {err}")
        with contextlib.suppress(BadCellError):  # how many mount it (local: one)
            ds.host_count = whole(row, c["# Hosts"], "# Hosts", False)
        out.append(ds)
    return out


def _read_clusters(sheet: Sheet, report: ImportReport) -> list[ClusterRecord]:
    c = {k: sheet.col(k) for k in ("Name", "HA enabled", "Failover Level",
                                   "AdmissionControlEnabled", "DRS enabled",
                                   "DRS default VM behavior")}
    pct = {k: next((i for h, i in sheet.index.items()
                    if k in h and ("%" in h or "percent" in h)), None)
           for k in ("cpu", "memory")}
    out = []
    for n, row in enumerate(sheet.rows, start=2):
        name = text(row, c["Name"])
        if not name or name.lower() in TOTALS:
            continue
        rec = ClusterRecord(name=name, where=f"vCluster row {n}",
                            ha_enabled=flag(row, c["HA enabled"]),
                            admission_control=flag(row, c["AdmissionControlEnabled"]),
                            drs_enabled=flag(row, c["DRS enabled"]),
                            drs_behavior=text(row, c["DRS default VM behavior"]))
        level = text(row, c["Failover Level"])
        try:
            if level.endswith("%"):  # some exports write the percentage policy here
                rec.cpu_failover_pct = rec.memory_failover_pct = num(row, c["Failover Level"],
                                                                     "Failover Level")
            elif level:
                rec.failover_hosts = whole(row, c["Failover Level"], "Failover Level")
            for k in ("cpu", "memory"):
                value = num(row, pct[k], f"{k} failover %", False) if pct[k] is not None \
                    else None
                if value is not None:
                    setattr(rec, f"{k}_failover_pct", value)
        except BadCellError as err:
            report.notes.append(f"{rec.where} cluster '{name}': {err}; admission control"
                                " left at its default")
        out.append(rec)
    return out


def _read_nics(sheet: Sheet, hosts: dict[str, HostRecord], report: ImportReport) -> None:
    sheet.require(("Host", "Network Device", "Speed"))
    c = {k: sheet.col(k) for k in ("Host", "Network Device", "Speed")}
    for n, row in enumerate(sheet.rows, start=2):
        host = text(row, c["Host"])
        dev = text(row, c["Network Device"])
        where = f"vNIC row {n}"
        if not host:
            continue
        if host not in hosts:
            report.skip(where, f"{host} {dev}", f"host not in inventory: '{host}' is not in"
                        " vHost")
            continue
        try:
            speed = num(row, c["Speed"], "Speed", False)
        except BadCellError:
            speed = None
        hosts[host].nics.append(NicRecord(name=dev, speed_mbps=speed, where=where))


def _read_adapters(sheet: Sheet) -> dict[str, str]:
    vm_col, ad_col = sheet.col("VM"), sheet.col("Adapter")
    if vm_col is None or ad_col is None:
        return {}
    out: dict[str, str] = {}
    for row in sheet.rows:
        name = text(row, vm_col)
        if name and name not in out:
            out[name] = text(row, ad_col)
    return out


def _export_date(src: Source, path: Path) -> str:
    """'export of <date>' from vMetaData, or what is known without it."""
    sheet = src.sheet("vMetaData") if src.has("vMetaData") else None
    if sheet is not None:
        i = sheet.col("xlsx creation datetime")
        for row in sheet.rows:
            v = cell(row, i)
            if isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0:
                day = dt.date(1899, 12, 30) + dt.timedelta(days=int(v))  # an Excel serial
                return f"export of {day.isoformat()}"
            m = re.search(r"\d{4}-\d{2}-\d{2}", str(v or ""))
            if m:
                return f"export of {m.group(0)}"
            if v:
                return f"export of {str(v)[:30]}"
    return f"export {path.name} (its date is not recorded)"


def read_estate(path: str | Path, report: ImportReport,
                progress: Progress | None = None) -> Estate:
    """Read an RVTools export into an :class:`Estate`, noting problems in ``report``."""
    p = Path(path)
    if not p.exists():
        raise DesignError([Issue(str(p), "no such file or folder")])
    src = Source(p)
    try:
        missing = [s for s in REQUIRED if not src.has(s)]
        if missing:
            raise DesignError([Issue(str(p), "missing RVTools sheet(s) " + ", ".join(missing)
                                     + " (found: " + (", ".join(src.names()) or "none") + ")")])
        when = _export_date(src, p)
        estate = Estate(source=p.name, taken=when)
        vhost = src.sheet("vHost")
        assert vhost is not None
        estate.hosts = _read_hosts(vhost, report, when)
        by_name = {h.name: h for h in estate.hosts}
        for opt, meaning in OPTIONAL.items():
            if not src.has(opt):
                report.notes.append(f"sheet {opt} not in the export: {meaning}")
        nic_sheet = src.sheet("vNIC")
        if nic_sheet is not None:
            _read_nics(nic_sheet, by_name, report)
        ds_sheet = src.sheet("vDatastore")
        if ds_sheet is not None:
            estate.datastores = _read_datastores(ds_sheet, report)
        cl_sheet = src.sheet("vCluster")
        if cl_sheet is not None:
            estate.clusters = _read_clusters(cl_sheet, report)
        net_sheet = src.sheet("vNetwork")
        adapters = _read_adapters(net_sheet) if net_sheet is not None else {}
        vinfo = src.sheet("vInfo")
        assert vinfo is not None
        estate.vms = _read_vms(vinfo, report, progress, adapters)
        vms = {v.name: v for v in estate.vms}
        for name, reader in (("vCPU", lambda s: _read_cpu(s, vms, when, report)),
                             ("vMemory", lambda s: _read_memory(s, vms, when, report)),
                             ("vDisk", lambda s: _read_disks(s, vms, report)),
                             ("vPartition", lambda s: _read_partitions(s, vms, report))):
            sheet = src.sheet(name)
            if sheet is not None:
                if progress is not None:
                    progress(0, 0, f"reading {name}")
                reader(sheet)
        _active_memory_fallback(estate, when)
    finally:
        src.close()
    if not estate.vms and not estate.hosts:
        raise DesignError([Issue(str(p), "the export lists no hosts and no VMs")])
    return estate


def _active_memory_fallback(estate: Estate, when: str) -> None:
    """VMs without vMemory's Consumed keep vInfo's Active Memory as their measured memory."""
    for vm in estate.vms:
        m = vm.measured
        if "memory" not in m.sources and m.memory_active_mib is not None:
            m.sources["memory"] = f"RVTools vInfo Active Memory (active, not consumed), {when}"


def import_rvtools(path: str | Path, *, site_by: SiteBy = "datacenter",
                   include_powered_off: bool = False,
                   progress: Progress | None = None) -> tuple[Design, ImportReport]:
    """Import an RVTools export as a design with an auto-layout and a calibrated baseline,
    and the report of what was imported, left out, assumed and how well the baseline
    reproduces what the export recorded.  Raises :class:`DesignError` for an unreadable
    export."""
    from models.analysis import baseline  # noqa: PLC0415  (analysis reads the engine)

    t0 = time.perf_counter()
    p = Path(path)
    report = ImportReport(source=f"RVTools {p.name}")
    estate = read_estate(p, report, progress)
    design = build_design(estate, report, name=f"Estate from {p.stem}", site_by=site_by,
                          include_powered_off=include_powered_off, progress=progress)
    design.notes = f"Imported from the RVTools export {p.name} ({estate.taken})."
    baseline.calibrate_after_import(design, report, progress)
    report.seconds = time.perf_counter() - t0
    return design, report


def read_measurements(path: str | Path) -> Measurements:
    """What an RVTools export measured (vCPU, vMemory, vHost usage), by name, to calibrate an
    existing design with a fresher export (``headroom calibrate DESIGN --from export.xlsx``)."""
    p = Path(path)
    report = ImportReport(source=f"RVTools {p.name}")
    estate = read_estate(p, report)
    meas = Measurements(source=f"RVTools {p.name}, {estate.taken}")
    for vm in estate.vms:
        if vm.powered_on and not vm.template and not vm.ft_secondary and vm.measured.sources:
            meas.vms[vm.name] = vm.measured
    for h in estate.hosts:
        if h.cpu_usage_pct is not None or h.memory_usage_pct is not None:
            meas.hosts[h.name] = HostMeasured(h.cpu_usage_pct, h.memory_usage_pct)
    meas.notes.extend(n for n in report.notes if n.startswith("sheet "))
    return meas


def is_rvtools(path: Path) -> bool:
    """Whether ``path`` is an RVTools export: a workbook with a vInfo or vHost sheet, a folder
    of ``RVTools_tab*.csv`` or one of its files."""
    if path.is_dir():
        return any(CSV_SHEET.fullmatch(f.name) for f in path.iterdir())
    if path.suffix.lower() == ".csv":
        return CSV_SHEET.fullmatch(path.name) is not None
    return bool({n.lower() for n in sheet_names(path)} & {s.lower() for s in REQUIRED})


def _csv_folder(path: Path) -> Path:
    """A csv of an "Export all to csv" folder stands for the folder."""
    return path.parent if path.suffix.lower() == ".csv" else path


def _read_design(source: str, options: Options,
                 progress: Progress | None) -> tuple[Design, ImportReport]:
    return import_rvtools(source, site_by=site_by(options),
                          include_powered_off=bool(options.get("include_powered_off")),
                          progress=progress)


IMPORTER = Importer(
    id="rvtools", name="RVTools", title="RVTools export",
    description="an RVTools export (.xlsx or a folder of RVTools_tab*.csv)",
    source=Option("source", "path", help="the .xlsx workbook or the csv folder"),
    command="import-rvtools",
    help="import an RVTools export (.xlsx, or a folder of RVTools_tab*.csv) as a design",
    menu_text="&RVTools Export", tip="Import an RVTools .xlsx or a folder of RVTools csv files",
    patterns=("*.xlsx", "*.csv"), suffixes=(".xlsx", ".xls"), folders=True,
    sniff=is_rvtools, source_for=_csv_folder,
    read_design=_read_design, read_measurements=lambda path, _stat: read_measurements(path),
    preload=("openpyxl",),
)
