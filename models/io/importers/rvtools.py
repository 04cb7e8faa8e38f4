"""Read an RVTools export: an ``.xlsx`` workbook or a folder of ``RVTools_tab<name>.csv`` files.

Sheets used: vInfo (VMs) and vHost (hosts) are required; vDatastore (storage arrays), vNIC
(host physical NICs) and vNetwork (VM adapter types) are used when present.  Headers are
matched case- and space-insensitively, and both the older ``MB`` and the 4.x ``MiB`` spellings
are accepted.  Rows with unusable cells are skipped and listed in the report with their sheet,
row number and reason; a file that is not an RVTools export raises :class:`DesignError`.
"""

from __future__ import annotations

import csv
import math
import re
import time
import warnings
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO
from xml.etree import ElementTree

from models.document.design import Design, DesignError, Issue
from models.io.importers import (
    DatastoreRecord,
    Estate,
    HostRecord,
    ImportReport,
    NicRecord,
    Progress,
    SiteBy,
    VmRecord,
    build_design,
)

Row = tuple[Any, ...]

REQUIRED = {
    "vInfo": ("VM", "Powerstate", "CPUs", "Memory", "Host"),
    "vHost": ("Host",),
}
OPTIONAL = ("vDatastore", "vNIC", "vNetwork")
ALIASES = {
    "os": ("os according to the configuration file", "os according to the vmware tools", "os"),
    "cores per cpu": ("cores per cpu",),
    "# cores": ("# cores",),
    "memory": ("memory",),
    "name": ("name", "datastore"),
}


def _norm(header: Any) -> str:
    text = re.sub(r"\s+", " ", str(header or "")).strip().lower()
    return re.sub(r"\bmib\b", "mb", text)


class _Sheet:
    """The rows of one sheet with a header index; ``get(row, name)`` reads a cell by header."""

    def __init__(self, name: str, header: Row, rows: Iterator[Row]) -> None:
        self.name = name
        self.index: dict[str, int] = {}
        for i, h in enumerate(header):
            self.index.setdefault(_norm(h), i)
        self.rows = rows

    def col(self, *names: str) -> int | None:
        for n in names:
            for alias in ALIASES.get(_norm(n), (_norm(n),)):
                if alias in self.index:
                    return self.index[alias]
        return None

    def require(self, names: Iterable[str]) -> None:
        missing = [n for n in names if self.col(n) is None]
        if missing:
            found = ", ".join(str(h) for h in list(self.index)[:12]) or "nothing"
            raise DesignError([Issue(f"sheet {self.name}", "missing column(s) "
                                     + ", ".join(f"'{m}'" for m in missing)
                                     + f": is this an RVTools export? (found: {found})")])


def _cell(row: Row, i: int | None) -> Any:
    if i is None or i >= len(row):
        return None
    return row[i]


def _text(row: Row, i: int | None) -> str:
    v = _cell(row, i)
    if v is None:
        return ""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v).strip()


class _BadCellError(ValueError):
    pass


def _num(row: Row, i: int | None, what: str, required: bool = True) -> float | None:
    v = _cell(row, i)
    if v is None or (isinstance(v, str) and not v.strip()):
        if required:
            raise _BadCellError(f"bad value: {what} is empty")
        return None
    if isinstance(v, bool):
        raise _BadCellError(f"bad value: {what} {v!r} is not a number")
    if isinstance(v, (int, float)):
        f = float(v)
    else:
        s = str(v).strip().replace("\u00a0", "").replace(" ", "")
        s = s.replace(",", "") if re.fullmatch(r"-?\d{1,3}(,\d{3})+(\.\d+)?", s) else \
            s.replace(",", ".")
        try:
            f = float(s)
        except ValueError:
            raise _BadCellError(f"bad value: {what} {str(v)[:30]!r} is not a number") from None
    if not math.isfinite(f) or f < 0:
        raise _BadCellError(f"bad value: {what} {v!r} is not a usable number")
    return f


def _int(row: Row, i: int | None, what: str, required: bool = True) -> int | None:
    f = _num(row, i, what, required)
    if f is None:
        return None
    if not f.is_integer():
        raise _BadCellError(f"bad value: {what} {f:g} is not a whole number")
    return int(f)


def _bool(row: Row, i: int | None) -> bool | None:
    v = _cell(row, i)
    if isinstance(v, bool):
        return v
    s = _text(row, i).lower()
    if s in ("true", "yes", "1", "on", "enabled"):
        return True
    if s in ("false", "no", "0", "off", "disabled"):
        return False
    return None


# --------------------------------------------------------------------------- sources


class _Source:
    """An opened export: sheet name -> header and row iterator."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._wb: Any = None
        self._file: BinaryIO | None = None
        self._names: dict[str, str] = {}
        if path.is_dir():
            for f in path.iterdir():
                m = re.fullmatch(r"(?i)rvtools_tab(\w+)\.csv", f.name)
                if m:
                    self._names[m.group(1).lower()] = f.name
            if not self._names:
                raise DesignError([Issue(str(path), "no RVTools_tab<name>.csv files in this"
                                         " folder (RVTools: File > Export all to csv)")])
        else:
            self._open_xlsx()

    def _open_xlsx(self) -> None:
        from openpyxl import load_workbook  # noqa: PLC0415  (only when importing)

        p = self.path
        if not p.exists():
            raise DesignError([Issue(str(p), "no such file")])
        if p.suffix.lower() == ".xls":
            raise DesignError([Issue(str(p), "old Excel .xls files are not supported: save"
                                     " it as .xlsx, or export to csv in RVTools")])
        if not zipfile.is_zipfile(p):
            raise DesignError([Issue(str(p), "not an Excel .xlsx workbook (expected an"
                                     " RVTools export, .xlsx or a folder of csv files)")])
        # the file object is ours so close() releases it even if a sheet was not read to the end
        self._file = p.open("rb")
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                self._wb = load_workbook(self._file, read_only=True, data_only=True)
        except Exception as err:  # openpyxl raises many kinds on a damaged file
            self._file.close()
            raise DesignError([Issue(str(p), f"cannot read the workbook: {err}")]) from None
        self._names = {n.lower(): n for n in self._wb.sheetnames}

    def close(self) -> None:
        if self._wb is not None:
            self._wb.close()
        if self._file is not None:
            self._file.close()

    def has(self, name: str) -> bool:
        return name.lower() in self._names

    def names(self) -> list[str]:
        return sorted(self._names.values())

    def sheet(self, name: str) -> _Sheet | None:
        real = self._names.get(name.lower())
        if real is None:
            return None
        rows = (self._xlsx_rows(real) if self._wb is not None
                else self._csv_rows(self.path / real))
        header = next(rows, None)
        if header is None:
            raise DesignError([Issue(f"sheet {name}", "is empty (no header row)")])
        return _Sheet(name, header, rows)

    def _xlsx_rows(self, name: str) -> Iterator[Row]:
        ws = self._wb[name]
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if hasattr(ws, "_get_source") and hasattr(ws, "_shared_strings"):
                    yield from _fast_rows(ws)
                else:
                    yield from ws.iter_rows(values_only=True)
        except DesignError:
            raise
        except Exception as err:
            raise DesignError([Issue(f"sheet {name}", f"cannot read it: {err}")]) from None

    def _csv_rows(self, path: Path) -> Iterator[Row]:
        data = path.read_bytes()
        for enc in ("utf-8-sig", "cp1252", "latin-1"):
            try:
                text = data.decode(enc)
                break
            except UnicodeDecodeError:
                continue
        if "\x00" in text:
            raise DesignError([Issue(str(path), "not a text csv file")])
        first = text.split("\n", 1)[0]
        delim = ";" if first.count(";") > first.count(",") else ","
        if first.count("\t") > max(first.count(";"), first.count(",")):
            delim = "\t"
        try:
            yield from (tuple(r) for r in csv.reader(text.splitlines(), delimiter=delim))
        except csv.Error as err:
            raise DesignError([Issue(str(path), f"not a valid csv file: {err}")]) from None


def _col_index(ref: str) -> int:
    n = 0
    for ch in ref:
        if not ch.isalpha():
            break
        n = n * 26 + (ord(ch.upper()) - 64)
    return n - 1


def _fast_rows(ws: Any) -> Iterator[Row]:
    """Cell values of an openpyxl read-only worksheet, row by row, without building cell
    objects: a plain ``iterparse`` of the sheet XML that openpyxl opened (values only; dates
    stay serial numbers, which the importer never reads).  About 5x faster than
    ``iter_rows`` on RVTools' 90-column vInfo sheets."""
    strings = ws._shared_strings
    with ws._get_source() as src:
        expected = 1
        row: dict[int, Any] = {}
        for _, el in ElementTree.iterparse(src, events=("end",)):
            tag = el.tag.rpartition("}")[2]
            if tag == "c":
                kind = el.get("t", "n")
                ref = el.get("r")
                col = _col_index(ref) if ref else len(row)
                text = None
                for child in el:
                    ctag = child.tag.rpartition("}")[2]
                    if ctag == "v":
                        text = child.text
                    elif ctag == "is":
                        text = "".join(t.text or "" for t in child.iter()
                                       if t.tag.rpartition("}")[2] == "t")
                value: Any = None
                if text is not None:
                    if kind == "s":
                        value = strings[int(text)]
                    elif kind in ("str", "inlineStr", "d"):
                        value = text
                    elif kind == "b":
                        value = text.strip() == "1"
                    elif kind == "n":
                        value = float(text) if any(c in text for c in ".eE") else int(text)
                row[col] = value
                el.clear()
            elif tag == "row":
                number = int(el.get("r") or expected)
                while expected < number:
                    yield ()
                    expected += 1
                width = max(row) + 1 if row else 0
                yield tuple(row.get(i) for i in range(width))
                expected = number + 1
                row = {}
                el.clear()


# --------------------------------------------------------------------------- sheets


def _read_hosts(sheet: _Sheet, report: ImportReport) -> list[HostRecord]:
    sheet.require(REQUIRED["vHost"])
    c = {k: sheet.col(k) for k in ("Host", "Datacenter", "Cluster", "CPU Model", "Speed",
                                   "HT Active", "# CPU", "Cores per CPU", "# Cores",
                                   "# Memory", "ESX Version")}
    out = []
    for n, row in enumerate(sheet.rows, start=2):
        name = _text(row, c["Host"])
        where = f"vHost row {n}"
        if not name:
            if any(v not in (None, "") for v in row):
                report.skip(where, "", "no host name")
            continue
        h = HostRecord(name=name, where=where, datacenter=_text(row, c["Datacenter"]),
                       cluster=_text(row, c["Cluster"]), cpu_model=_text(row, c["CPU Model"]),
                       version=_text(row, c["ESX Version"]), hyperthreading=_bool(
                           row, c["HT Active"]))
        for attr, key, conv in (("sockets", "# CPU", _int), ("cores_per_socket",
                                                            "Cores per CPU", _int),
                                ("cores", "# Cores", _int), ("mhz", "Speed", _num),
                                ("memory_mib", "# Memory", _num)):
            try:
                setattr(h, attr, conv(row, c[key], key, False))
            except _BadCellError as err:
                report.notes.append(f"{where} host '{name}': {err}; the default is used")
        out.append(h)
    return out


def _read_vms(sheet: _Sheet, report: ImportReport, progress: Progress | None,
              adapters: dict[str, str]) -> list[VmRecord]:
    sheet.require(REQUIRED["vInfo"])
    c = {k: sheet.col(k) for k in ("VM", "Powerstate", "Template", "CPUs", "Memory",
                                   "Provisioned MB", "In Use MB", "FT State", "FT Role",
                                   "Datacenter", "Cluster", "Host", "OS", "Path",
                                   "Latency Sensitivity")}
    out = []
    for n, row in enumerate(sheet.rows, start=2):
        if progress is not None and n % 500 == 0:
            progress(n, 0, "reading vInfo")
        name = _text(row, c["VM"])
        where = f"vInfo row {n}"
        if not name:
            if any(v not in (None, "") for v in row):
                report.skip(where, "", "no VM name")
            continue
        state = _text(row, c["Powerstate"]).lower()
        role = _text(row, c["FT Role"]).lower()
        vm = VmRecord(name=name, where=where, host=_text(row, c["Host"]),
                      datacenter=_text(row, c["Datacenter"]), cluster=_text(row, c["Cluster"]),
                      powered_on=state not in ("poweredoff", "off", "powered off"),
                      template=bool(_bool(row, c["Template"])), os=_text(row, c["OS"]),
                      ft_state=_text(row, c["FT State"]),
                      ft_secondary=role in ("2", "secondary") or role.startswith("secondary"),
                      adapter=adapters.get(name, ""),
                      latency_sensitivity=_text(row, c["Latency Sensitivity"]))
        m = re.match(r"\s*\[([^\]]+)\]", _text(row, c["Path"]))
        if m:
            vm.datastores = [m.group(1)]
        try:
            vm.vcpus = _int(row, c["CPUs"], "CPUs", not vm.template)
            vm.memory_mib = _num(row, c["Memory"], "Memory", not vm.template)
            vm.provisioned_mib = _num(row, c["Provisioned MB"], "Provisioned MiB", False)
            vm.in_use_mib = _num(row, c["In Use MB"], "In Use MiB", False)
        except _BadCellError as err:
            report.skip(where, name, str(err))
            continue
        out.append(vm)
    return out


def _read_datastores(sheet: _Sheet, report: ImportReport) -> list[DatastoreRecord]:
    sheet.require(("Name",))
    c = {k: sheet.col(k) for k in ("Name", "Type", "Capacity MB", "Hosts", "SIOC enabled")}
    out = []
    for n, row in enumerate(sheet.rows, start=2):
        name = _text(row, c["Name"])
        where = f"vDatastore row {n}"
        if not name:
            continue
        try:
            cap = _num(row, c["Capacity MB"], "Capacity MiB", False)
        except _BadCellError as err:
            report.notes.append(f"{where} datastore '{name}': {err}")
            cap = None
        hosts = [h.strip() for h in re.split(r"[,;]", _text(row, c["Hosts"])) if h.strip()]
        out.append(DatastoreRecord(name=name, where=where, type=_text(row, c["Type"]),
                                   capacity_mib=cap, hosts=hosts,
                                   sioc=_bool(row, c["SIOC enabled"])))
    return out


def _read_nics(sheet: _Sheet, hosts: dict[str, HostRecord], report: ImportReport) -> None:
    sheet.require(("Host", "Network Device", "Speed"))
    c = {k: sheet.col(k) for k in ("Host", "Network Device", "Speed")}
    for n, row in enumerate(sheet.rows, start=2):
        host = _text(row, c["Host"])
        dev = _text(row, c["Network Device"])
        where = f"vNIC row {n}"
        if not host:
            continue
        if host not in hosts:
            report.skip(where, f"{host} {dev}", f"host not in inventory: '{host}' is not in"
                        " vHost")
            continue
        try:
            speed = _num(row, c["Speed"], "Speed", False)
        except _BadCellError:
            speed = None
        hosts[host].nics.append(NicRecord(name=dev, speed_mbps=speed, where=where))


def _read_adapters(sheet: _Sheet) -> dict[str, str]:
    vm_col, ad_col = sheet.col("VM"), sheet.col("Adapter")
    if vm_col is None or ad_col is None:
        return {}
    out: dict[str, str] = {}
    for row in sheet.rows:
        name = _text(row, vm_col)
        if name and name not in out:
            out[name] = _text(row, ad_col)
    return out


def read_estate(path: str | Path, report: ImportReport,
                progress: Progress | None = None) -> Estate:
    """Read an RVTools export into an :class:`Estate`, noting problems in ``report``."""
    p = Path(path)
    if not p.exists():
        raise DesignError([Issue(str(p), "no such file or folder")])
    src = _Source(p)
    try:
        missing = [s for s in REQUIRED if not src.has(s)]
        if missing:
            raise DesignError([Issue(str(p), "missing RVTools sheet(s) " + ", ".join(missing)
                                     + " (found: " + (", ".join(src.names()) or "none") + ")")])
        estate = Estate(source=p.name)
        vhost = src.sheet("vHost")
        assert vhost is not None
        estate.hosts = _read_hosts(vhost, report)
        by_name = {h.name: h for h in estate.hosts}
        for opt in OPTIONAL:
            if not src.has(opt):
                report.notes.append(f"sheet {opt} not in the export: "
                                    + {"vDatastore": "no storage arrays from datastores",
                                       "vNIC": "no host NICs imported",
                                       "vNetwork": "VM adapter types keep the default"}[opt])
        nic_sheet = src.sheet("vNIC")
        if nic_sheet is not None:
            _read_nics(nic_sheet, by_name, report)
        ds_sheet = src.sheet("vDatastore")
        if ds_sheet is not None:
            estate.datastores = _read_datastores(ds_sheet, report)
        net_sheet = src.sheet("vNetwork")
        adapters = _read_adapters(net_sheet) if net_sheet is not None else {}
        vinfo = src.sheet("vInfo")
        assert vinfo is not None
        estate.vms = _read_vms(vinfo, report, progress, adapters)
    finally:
        src.close()
    if not estate.vms and not estate.hosts:
        raise DesignError([Issue(str(p), "the export lists no hosts and no VMs")])
    return estate


def import_rvtools(path: str | Path, *, site_by: SiteBy = "datacenter",
                   include_powered_off: bool = False,
                   progress: Progress | None = None) -> tuple[Design, ImportReport]:
    """Import an RVTools export as a design with an auto-layout, and the report of what was
    imported, left out and assumed.  Raises :class:`DesignError` for an unreadable export."""
    t0 = time.perf_counter()
    p = Path(path)
    report = ImportReport(source=f"RVTools {p.name}")
    estate = read_estate(p, report, progress)
    design = build_design(estate, report, name=f"Estate from {p.stem}", site_by=site_by,
                          include_powered_off=include_powered_off, progress=progress)
    design.notes = f"Imported from the RVTools export {p.name}."
    report.seconds = time.perf_counter() - t0
    return design, report
