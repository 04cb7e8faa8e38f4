"""Read spreadsheet exports: ``.xlsx`` workbooks (fast, values only) and csv files.

:class:`Source` opens an RVTools-style export (an ``.xlsx`` or a folder of
``RVTools_tab<name>.csv``) and hands out :class:`Sheet` objects that find columns by header,
case- and space-insensitively, with ``MiB`` read as ``MB`` (both RVTools generations).  The cell
readers (:func:`num`, :func:`whole`, :func:`text`, :func:`flag`) raise :class:`BadCellError`
with a message that names the value; :func:`csv_rows` reads any csv file (esxtop, Aria
Operations) whatever its encoding and delimiter.
"""

from __future__ import annotations

import csv
import math
import re
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from models.document.design import DesignError, Issue
from models.io.paths import require_regular_file

Row = tuple[Any, ...]

CSV_SHEET = re.compile(r"(?i)rvtools_tab(\w+)\.csv")
"""One sheet of an RVTools "Export all to csv" folder: ``RVTools_tabvInfo.csv``."""

ALIASES = {
    "os": ("os according to the configuration file", "os according to the vmware tools", "os"),
    "cores per cpu": ("cores per cpu",),
    "# cores": ("# cores",),
    "memory": ("memory",),
    "name": ("name", "datastore"),
}


def norm(header: Any) -> str:
    """A header as matched: spaces collapsed, lower case, ``MiB`` read as ``MB``."""
    t = re.sub(r"\s+", " ", str(header or "")).strip().lower()
    return re.sub(r"\bmib\b", "mb", t)


class Sheet:
    """The rows of one sheet with a header index; ``get(row, name)`` reads a cell by header."""

    def __init__(self, name: str, header: Row, rows: Iterator[Row]) -> None:
        self.name = name
        self.header = header
        self.index: dict[str, int] = {}
        for i, h in enumerate(header):
            self.index.setdefault(norm(h), i)
        self.rows = rows

    def col(self, *names: str) -> int | None:
        for n in names:
            for alias in ALIASES.get(norm(n), (norm(n),)):
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


def cell(row: Row, i: int | None) -> Any:
    if i is None or i >= len(row):
        return None
    return row[i]


def text(row: Row, i: int | None) -> str:
    v = cell(row, i)
    if v is None:
        return ""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v).strip()


class BadCellError(ValueError):
    pass


def num(row: Row, i: int | None, what: str, required: bool = True) -> float | None:
    v = cell(row, i)
    if v is None or (isinstance(v, str) and not v.strip()):
        if required:
            raise BadCellError(f"bad value: {what} is empty")
        return None
    if isinstance(v, bool):
        raise BadCellError(f"bad value: {what} {v!r} is not a number")
    if isinstance(v, (int, float)):
        f = float(v)
    else:
        s = str(v).strip().replace("\u00a0", "").replace(" ", "").removesuffix("%")
        s = s.replace(",", "") if re.fullmatch(r"-?\d{1,3}(,\d{3})+(\.\d+)?", s) else \
            s.replace(",", ".")
        try:
            f = float(s)
        except ValueError:
            raise BadCellError(f"bad value: {what} {str(v)[:30]!r} is not a number") from None
    if not math.isfinite(f) or f < 0:
        raise BadCellError(f"bad value: {what} {v!r} is not a usable number")
    return f


def whole(row: Row, i: int | None, what: str, required: bool = True) -> int | None:
    f = num(row, i, what, required)
    if f is None:
        return None
    if not f.is_integer():
        raise BadCellError(f"bad value: {what} {f:g} is not a whole number")
    return int(f)


def flag(row: Row, i: int | None) -> bool | None:
    v = cell(row, i)
    if isinstance(v, bool):
        return v
    s = text(row, i).lower()
    if s in ("true", "yes", "1", "on", "enabled"):
        return True
    if s in ("false", "no", "0", "off", "disabled"):
        return False
    return None


# --------------------------------------------------------------------------- sources


class Source:
    """An opened export: sheet name -> header and row iterator."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._zip: zipfile.ZipFile | None = None
        self._members: dict[str, str] = {}
        self._strings: list[str] = []
        self._names: dict[str, str] = {}
        self._readers: list[Iterator[Row]] = []
        require_regular_file(path, "spreadsheet export", folder_ok=True)
        if path.is_dir():
            for f in path.iterdir():
                m = CSV_SHEET.fullmatch(f.name)
                if m:
                    self._names[m.group(1).lower()] = f.name
            if not self._names:
                raise DesignError([Issue(str(path), "no RVTools_tab<name>.csv files in this"
                                         " folder (RVTools: File > Export all to csv)")])
        else:
            self._open_xlsx()

    def _open_xlsx(self) -> None:
        p = self.path
        if not p.exists():
            raise DesignError([Issue(str(p), "no such file")])
        if p.suffix.lower() == ".xls":
            raise DesignError([Issue(str(p), "old Excel .xls files are not supported: save"
                                     " it as .xlsx, or export to csv in RVTools")])
        if not zipfile.is_zipfile(p):
            raise DesignError([Issue(str(p), "not an Excel .xlsx workbook (expected an"
                                     " RVTools export, .xlsx or a folder of csv files)")])
        try:
            self._zip = zipfile.ZipFile(p)
        except (OSError, zipfile.BadZipFile) as err:
            raise DesignError([Issue(str(p), f"cannot read the workbook: {err}")]) from None
        try:
            self._members = _workbook_sheets(self._zip)
            self._strings = _shared_strings(self._zip)
        except Exception as err:  # a damaged or foreign zip: many kinds of failure
            self._zip.close()
            raise DesignError([Issue(str(p), f"cannot read the workbook: {err}")]) from None
        self._names = {n.lower(): n for n in self._members}

    def close(self) -> None:
        for reader in self._readers:  # a sheet not read to the end holds its member open
            close = getattr(reader, "close", None)
            if close is not None:
                close()
        if self._zip is not None:
            self._zip.close()

    def has(self, name: str) -> bool:
        return name.lower() in self._names

    def names(self) -> list[str]:
        return sorted(self._names.values())

    def sheet(self, name: str) -> Sheet | None:
        real = self._names.get(name.lower())
        if real is None:
            return None
        rows = (self._xlsx_rows(real) if self._zip is not None
                else self._csv_rows(self.path / real))
        self._readers.append(rows)
        header = next(rows, None)
        if header is None:
            raise DesignError([Issue(f"sheet {name}", "is empty (no header row)")])
        return Sheet(name, header, rows)

    def _xlsx_rows(self, name: str) -> Iterator[Row]:
        assert self._zip is not None
        try:
            with self._zip.open(self._members[name]) as src:
                yield from xml_rows(src, self._strings)
        except DesignError:
            raise
        except Exception as err:
            raise DesignError([Issue(f"sheet {name}", f"cannot read it: {err}")]) from None

    def _csv_rows(self, path: Path) -> Iterator[Row]:
        yield from csv_rows(path)


def csv_rows(path: Path) -> Iterator[Row]:
    """The rows of a csv file: utf-8 (with or without BOM), cp1252 or latin-1; comma,
    semicolon or tab delimited (whichever the first line uses most)."""
    yield from _parse_csv(path, require_regular_file(path, "csv file").read_bytes())


def head_rows(path: Path, limit: int = 30, size: int = 1 << 16) -> list[Row]:
    """The first ``limit`` rows of a text file read as :func:`csv_rows` reads it, from its
    first ``size`` bytes only (to tell what a file is); empty for a file that is not text."""
    try:
        with path.open("rb") as f:
            data = f.read(size)
    except OSError:
        return []
    if len(data) == size:  # a cut line would read as a short row
        data = data[:data.rfind(b"\n") + 1]
    try:
        return list(_parse_csv(path, data))[:limit]
    except DesignError:
        return []


def _parse_csv(path: Path, data: bytes) -> Iterator[Row]:
    body = ""
    for enc in ("utf-8-sig", "cp1252", "latin-1"):
        try:
            body = data.decode(enc)
            break
        except UnicodeDecodeError:
            continue
    if "\x00" in body:
        raise DesignError([Issue(str(path), "not a text csv file")])
    first = body.split("\n", 1)[0]
    delim = ";" if first.count(";") > first.count(",") else ","
    if first.count("\t") > max(first.count(";"), first.count(",")):
        delim = "\t"
    try:
        yield from (tuple(r) for r in csv.reader(body.splitlines(), delimiter=delim))
    except csv.Error as err:
        raise DesignError([Issue(str(path), f"not a valid csv file: {err}")]) from None


_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"


def sheet_names(path: Path) -> list[str]:
    """The sheet names of an ``.xlsx`` workbook, in order; empty for anything else (to tell
    what a file is without reading its sheets)."""
    if not zipfile.is_zipfile(path):
        return []
    try:
        with zipfile.ZipFile(path) as z:
            return list(_workbook_sheets(z))
    except Exception:  # a damaged or foreign zip: many kinds of failure
        return []


def workbook_sheets(z: zipfile.ZipFile) -> list[str]:
    """The sheet names of an opened ``.xlsx`` (a workbook inside another zip, too)."""
    return list(_workbook_sheets(z))


def _workbook_sheets(z: zipfile.ZipFile) -> dict[str, str]:
    """Sheet name -> the zip member holding it (xl/workbook.xml and its relationships)."""
    rels = ElementTree.fromstring(z.read("xl/_rels/workbook.xml.rels"))
    target = {r.get("Id"): str(r.get("Target") or "") for r in rels}
    book = ElementTree.fromstring(z.read("xl/workbook.xml"))
    out: dict[str, str] = {}
    for sheet in book.iter(f"{_MAIN}sheet"):
        t = target.get(sheet.get(f"{_REL}id"), "")
        member = t.lstrip("/") if t.startswith("/") else f"xl/{t}"
        out[str(sheet.get("name"))] = member
    return out


def _shared_strings(z: zipfile.ZipFile) -> list[str]:
    """The workbook's shared strings (rich runs joined, phonetic hints left out)."""
    if "xl/sharedStrings.xml" not in z.namelist():
        return []
    out: list[str] = []
    with z.open("xl/sharedStrings.xml") as src:
        for _, el in ElementTree.iterparse(src, events=("end",)):
            if el.tag == f"{_MAIN}si":
                parts = []
                for child in el:
                    if child.tag == f"{_MAIN}t":
                        parts.append(child.text or "")
                    elif child.tag == f"{_MAIN}r":
                        parts.extend(t.text or "" for t in child.iter(f"{_MAIN}t"))
                out.append("".join(parts))
                el.clear()
    return out


_COLUMNS: dict[str, int] = {}


def col_index(ref: str) -> int:
    """``AB12`` -> 27 (zero-based column of a cell reference)."""
    letters = ref.rstrip("0123456789")
    i = _COLUMNS.get(letters)
    if i is None:
        n = 0
        for ch in letters:
            n = n * 26 + (ord(ch.upper()) - 64)
        i = _COLUMNS[letters] = n - 1
    return i


def fast_rows(ws: Any) -> Iterator[Row]:
    """The rows of an openpyxl read-only worksheet through :func:`xml_rows`."""
    with ws._get_source() as src:
        yield from xml_rows(src, ws._shared_strings)


def xml_rows(src: Any, strings: Any) -> Iterator[Row]:
    """Cell values of a worksheet's XML stream, row by row, without building cell objects: a
    plain ``iterparse`` (values only; a formula without a calculated value reads as its text,
    ``=SUM(J2:J99)``, where openpyxl gives None; dates stay serial numbers).  Rows the sheet
    skips come out empty; a dimension claiming a million rows costs nothing."""
    expected = 1
    row: dict[int, Any] = {}
    for _, el in ElementTree.iterparse(src, events=("end",)):
        tag = el.tag.rpartition("}")[2]
        if tag == "c":
            kind = el.get("t", "n")
            ref = el.get("r")
            col = col_index(ref) if ref else len(row)
            text = None
            formula = None
            for child in el:
                ctag = child.tag.rpartition("}")[2]
                if ctag == "v":
                    text = child.text
                elif ctag == "f":
                    formula = child.text
                elif ctag == "is":
                    text = "".join(t.text or "" for t in child.iter()
                                   if t.tag.rpartition("}")[2] == "t")
            value: Any = None
            if text is None and formula is not None:  # a formula never calculated
                value = "=" + formula
            elif text is not None:
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
