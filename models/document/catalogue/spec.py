"""Reading SPEC's published CPU results: the three dumps the processor catalogue is built from
(``shared/reference/spec/README.md`` says where each comes from).

Each integer-rate result becomes one :class:`Result`: the processor's key
(:func:`models.document.catalogue.names.key`), the system's total cores and chips, the base
result (or, from the peak-only file, the peak result), the clock, threads per core, when the
hardware was available, and the system and its vendor.  Standard library only: the build
runs without the project's dependencies.
"""

from __future__ import annotations

import csv
import gzip
import io
import lzma
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from models.document.catalogue.names import key

CPU2017 = "cpu2017-results.csv.gz"
CPU2006 = "cpu2006-results-2006-2014.csv.xz"
PEAK = "spec-all-suites-peak-2006-2018.csv.xz"

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")

Month = tuple[int, int]
"""(year, month)."""


@dataclass(frozen=True)
class Result:
    """One published integer-rate result of a system with Xeon, EPYC or Opteron processors."""

    suite: str
    """``"2017"`` (SPECrate2017_int) or ``"2006"`` (SPECint_rate2006)."""
    family: str
    model: str
    """The processor's key (:func:`~models.document.catalogue.names.key`)."""
    value: float
    """The base result, or the peak result where :attr:`peak` (the peak-only file)."""
    peak: bool
    cores: int
    """Cores of the whole system."""
    chips: int
    threads_per_core: int | None
    mhz: float | None
    hw_avail: Month | None
    published: Month | None
    system: str
    vendor: str
    peak_value: float | None = None
    """The peak result beside a base one (the CPU2006 file has both), for base/peak ratios."""

    @property
    def per_core(self) -> float:
        return self.value / self.cores


def month(text: str) -> Month | None:
    """``"Feb-2025"`` as (2025, 2); None for anything else."""
    m = re.fullmatch(r"([A-Za-z]{3})-(\d{4})", text.strip())
    if not m or m.group(1).title() not in MONTHS:
        return None
    return int(m.group(2)), MONTHS.index(m.group(1).title()) + 1


def month_text(m: Month | None) -> str:
    return "" if m is None else f"{MONTHS[m[1] - 1]}-{m[0]}"


def _number(text: str) -> float | None:
    try:
        v = float(text.strip())
    except ValueError:
        return None
    return v if v > 0 else None


def _int(text: str) -> int | None:
    v = _number(text)
    return int(v) if v is not None and v == int(v) else None


def rows(path: Path) -> Iterator[dict[str, str]]:
    """The rows of a compressed CSV dump as dicts by stripped header name.  The CPU2017 dump's
    header has one name more than its rows (a trailing "Disclosures"); names carry stray
    spaces and tabs.  The peak file is Latin-1, the others UTF-8."""
    opener = gzip.open if path.name.endswith(".gz") else lzma.open
    with opener(path, "rb") as f:
        data = f.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    reader = csv.reader(io.StringIO(text, newline=""))
    header = [h.strip() for h in next(reader)]
    for row in reader:
        yield dict(zip(header, row, strict=False))


def _result(suite: str, d: dict[str, str], value: float | None, peak: bool, cores: str,
            chips: str, threads: str | None, mhz: str | None, vendor: str,
            peak_value: float | None = None) -> Result | None:
    k = key(d.get("Processor", ""))
    n_cores, n_chips = _int(cores), _int(chips)
    if k is None or value is None or n_cores is None or n_chips is None or n_cores % n_chips:
        return None
    return Result(suite=suite, family=k[0], model=k[1], value=value, peak=peak, cores=n_cores,
                  chips=n_chips, threads_per_core=_int(threads) if threads else None,
                  mhz=_number(mhz) if mhz else None, hw_avail=month(d.get("HW Avail", "")),
                  published=month(d.get("Published", "")), system=d.get("System", "").strip(),
                  vendor=vendor.strip(), peak_value=peak_value)


def read_cpu2017(folder: Path) -> list[Result]:
    """Every ``CINT2017rate`` result: base result, system cores and chips."""
    out = []
    for d in rows(folder / CPU2017):
        if d.get("Benchmark") != "CINT2017rate":
            continue
        r = _result("2017", d, _number(d["Base Result"]), False, d["# Cores"], d["# Chips"],
                    d["# Enabled Threads Per Core"], d["Processor MHz"], d["Hardware Vendor"])
        if r is not None:
            out.append(r)
    return out


def read_cpu2006(folder: Path) -> list[Result]:
    """Every ``CINT2006rate`` result: from the CPU2006 file (base, with its peak beside it),
    then from the peak-only file those published after the CPU2006 file's last month (its
    rows up to then are the same results; a base-only submission's peak is 0 there)."""
    out: list[Result] = []
    for d in rows(folder / CPU2006):
        if d.get("Benchmark") != "CINT2006rate":
            continue
        r = _result("2006", d, _number(d["Baseline"]), False, d["Cores"], d["Chips"],
                    d["Threads Per Core"], d["Processor MHz"], d["Hardware Vendor"],
                    peak_value=_number(d["Result"]))
        if r is not None:
            out.append(r)
    last = max((r.published for r in out if r.published), default=(0, 0))
    for d in rows(folder / PEAK):
        if d.get("Benchmark") != "CINT2006rate":
            continue
        published = month(d.get("Published", ""))
        if published is None or published <= last:
            continue
        clock = re.search(r"(\d+(?:\.\d+)?)\s*GHz", d.get("System", ""), re.IGNORECASE)
        mhz = str(float(clock.group(1)) * 1000) if clock else None
        r = _result("2006", d, _number(d["Result"]), True, d["# cores"], d["# chips"], None,
                    mhz, d["Company"])
        if r is not None:
            out.append(r)
    return out


def cpu2006_last_month(results: list[Result]) -> Month | None:
    """The last month the CPU2006 (base) file covers."""
    return max((r.published for r in results if not r.peak and r.published), default=None)
