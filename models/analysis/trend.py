"""A trend from measured history: growth rates a year suggested from a time series, each with
its spread and the span it rests on, for the architect to accept (never applied by itself).

The series is the estate's total per interval (every object's value at that time summed: a VM
that came later adds its share, which is growth too), reduced to one mean per calendar day;
the fit is a least-squares line through the logarithms of the daily means,
``ln y = a + b t`` (t in days), so that the compound rate a year is ``exp(365.25 b) - 1``; its
standard error is the slope's (``sqrt(SSR / (n - 2) / sum (t - mean t)^2)``) carried through
the exponential (``365.25 exp(365.25 b) se_b``).  A span under :data:`MIN_DAYS` suggests
nothing and says so: a week of hourly points says how a week goes, not how a year grows.

Where the history comes from: an Aria Operations view exported with an interval breakdown
(hourly or daily rows per object, :func:`read_aria_history`; its columns read as
:mod:`models.io.importers.aria` reads them for calibration).  vCenter's performance history
(``import-vcenter --perf``) is reduced to one figure per VM as it is queried and keeps no
series a trend could rest on.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from models.document.design import DesignError, Issue
from models.document.numbers import counted, number, with_unit

MIN_DAYS = 30
"""The shortest span (days between the first and the last daily mean) a rate is fitted over."""
YEAR_DAYS = 365.25
RESOURCES = {"cpu": "CPU", "memory": "memory", "iops": "I/O and network"}
"""The rates a history can suggest (``design.growth.<resource>_pct``), in words."""
FORMATS = ("%I:%M %p %d %B %Y", "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S", "%Y-%m-%d",
           "%Y-%m-%dT%H:%M:%S", "%m/%d/%Y %H:%M:%S", "%m/%d/%Y %H:%M", "%m/%d/%Y",
           "%d %B %Y", "%b %d, %Y %I:%M:%S %p", "%Y/%m/%d %H:%M", "%Y/%m/%d")
"""How an interval's time is written: Aria's Interval Breakdown ("12:00 AM 21 July 2026"),
ISO dates, US dates."""


@dataclass(frozen=True)
class Trend:
    """A rate a year fitted to one resource's daily means (or why none is)."""

    resource: str
    rate_pct: float | None
    """Compound % a year; None where the history cannot carry one (:attr:`why`)."""
    se_pct: float | None
    """The rate's standard error, in points."""
    days: int
    """Daily means the fit rests on."""
    first: dt.date | None
    last: dt.date | None
    why: str = ""
    """Why no rate is suggested ("" when one is)."""

    @property
    def span_days(self) -> int:
        return (self.last - self.first).days if self.first and self.last else 0

    @property
    def usable(self) -> bool:
        return self.rate_pct is not None

    @property
    def text(self) -> str:
        """``CPU 12.3 % a year ± 2.1 points (92 daily means, 2026-04-01 to 2026-07-01)``, or
        why nothing is suggested."""
        what = RESOURCES.get(self.resource, self.resource)
        when = (f"{counted(self.days, 'daily mean')}, {self.first} to {self.last}"
                if self.first and self.last else "no daily means")
        if self.rate_pct is None:
            return f"{what}: no rate suggested, {self.why} ({when})"
        return (f"{what} {with_unit(self.rate_pct, '%')} a year ± {number(self.se_pct or 0.0)}"
                f" points ({when})")


def fit(resource: str, days: np.ndarray, means: np.ndarray) -> Trend:
    """The compound rate a year of ``means`` (one per day; ``days``: their dates as day
    ordinals) by log-linear least squares, with its standard error; none where the span is
    under :data:`MIN_DAYS` or fewer than three days hold a positive mean."""
    days = np.asarray(days, dtype=float)
    means = np.asarray(means, dtype=float)
    keep = np.isfinite(means) & (means > 0)
    t, y = days[keep], means[keep]
    first = dt.date.fromordinal(int(t.min())) if len(t) else None
    last = dt.date.fromordinal(int(t.max())) if len(t) else None
    span = (t.max() - t.min()) if len(t) else 0.0
    if len(t) < 3:
        return Trend(resource, None, None, len(t), first, last,
                     "fewer than 3 days with a figure")
    if span < MIN_DAYS:
        return Trend(resource, None, None, len(t), first, last,
                     f"{counted(int(span), 'day')} of history, under the {MIN_DAYS} a trend"
                     " needs")
    x = t - t.mean()
    ln = np.log(y)
    sxx = float((x * x).sum())
    b = float((x * (ln - ln.mean())).sum() / sxx)
    resid = ln - ln.mean() - b * x
    se_b = math.sqrt(float((resid * resid).sum()) / (len(t) - 2) / sxx)
    growth = math.exp(YEAR_DAYS * b)
    return Trend(resource, 100.0 * (growth - 1.0), 100.0 * YEAR_DAYS * growth * se_b, len(t),
                 first, last)


@dataclass
class History:
    """An estate's totals per day, by resource, read from a file."""

    source: str
    daily: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)
    """Resource -> (day ordinals, the day's mean of the estate's total per interval)."""
    notes: list[str] = field(default_factory=list)

    def trends(self) -> dict[str, Trend]:
        """A :class:`Trend` per resource the history holds."""
        return {r: fit(r, *self.daily[r]) for r in RESOURCES if r in self.daily}

    def suggested(self) -> dict[str, float]:
        """The rates a year the history carries, rounded to 0.1 % (only those fitted)."""
        return {r: round(t.rate_pct, 1) for r, t in self.trends().items()
                if t.rate_pct is not None}


def parse_time(text: str) -> dt.datetime | None:
    """An interval's time in one of :data:`FORMATS`; None when none fits."""
    s = " ".join(str(text).split())
    for f in FORMATS:
        try:
            return dt.datetime.strptime(s, f)
        except ValueError:
            continue
    return None


def daily(times: list[dt.datetime], totals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The mean of ``totals`` (one per interval) over each calendar day."""
    by_day: dict[int, list[float]] = {}
    for when, v in zip(times, totals.tolist(), strict=True):
        if math.isfinite(v):
            by_day.setdefault(when.date().toordinal(), []).append(v)
    days = sorted(by_day)
    return (np.array(days, dtype=float),
            np.array([sum(by_day[d]) / len(by_day[d]) for d in days], dtype=float))


FIGURES = {"cpu": ("cpu_demand", "cpu_usage"), "memory": ("mem_consumed", "mem_util"),
           "iops": ("iops",)}
"""The Aria figures each resource's total is summed from (the first the view has)."""


def read_aria_history(path: Path) -> History:
    """The daily means of an Aria Operations view's totals per interval (CPU demand or usage,
    memory consumed or utilisation, IOPS or reads + writes); DesignError where the file is
    not a view with a time column."""
    from models.io.importers import aria  # noqa: PLC0415  (the view's columns, read as there)
    from models.io.importers.workbook import csv_rows  # noqa: PLC0415

    rows = list(csv_rows(Path(path)))
    h = aria._header_index(rows)
    if h < 0:
        raise DesignError([Issue(str(path), "not an Aria Operations view export: no 'Name'"
                                 " column")])
    view = aria._View([str(c).strip() for c in rows[h]], "mean")
    if view.time is None:
        raise DesignError([Issue(str(path), "the view has no interval column (Interval"
                                 " Breakdown or Time): one row per object holds no history")])
    body = [r for r in rows[h + 1:] if view.name < len(r) and str(r[view.name]).strip()
            and str(r[view.name]).strip().lower() not in aria.SUMMARY]
    col = view.time
    stamped = [(when, r) for r in body
               if (when := parse_time(str(r[col]) if col < len(r) else "")) is not None]
    out = History(f"{Path(path).name}: {view.object} view")
    if len(stamped) < len(body):
        out.notes.append(f"{counted(len(body) - len(stamped), 'row')} without a time this"
                         " reads left out")
    times = sorted({when for when, _ in stamped})
    slot = {t: k for k, t in enumerate(times)}
    rows_known = [r for _, r in stamped]
    where = np.array([slot[when] for when, _ in stamped], dtype=np.int64)
    for resource, figures in FIGURES.items():
        values = next((v for f in figures if (v := view.values(f, rows_known)) is not None),
                      None)
        if values is None and resource == "iops":
            reads, writes = view.values("read_iops", rows_known), \
                view.values("write_iops", rows_known)
            if reads is not None and writes is not None:
                values = np.nan_to_num(reads) + np.nan_to_num(writes)
        if values is None or not times:
            continue
        ok = np.isfinite(values)
        totals = np.bincount(where[ok], weights=values[ok], minlength=len(times))
        seen = np.bincount(where[ok], minlength=len(times)) > 0
        totals = np.where(seen, totals, np.nan)
        out.daily[resource] = daily(times, totals)
    if not out.daily:
        raise DesignError([Issue(str(path), "no CPU, memory or IOPS column with a history")])
    return out


def lines(history: History) -> list[str]:
    """The suggestion in words: a line per resource, then the notes."""
    return [t.text for t in history.trends().values()] + history.notes
