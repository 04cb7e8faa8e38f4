"""A trend from measured history: an Aria Operations view of daily (or hourly) intervals
generated with known growth gives back each rate within its standard error; a week of hourly
points is too short and says so; the fit by hand on an exact series."""

from __future__ import annotations

import csv
import datetime as dt
import math
import random
from pathlib import Path

import numpy as np
import pytest

from models.analysis.trend import MIN_DAYS, fit, lines, parse_time, read_aria_history
from models.document.design import DesignError

HEADER = ["Name", "Interval Breakdown", "VM|CPU|Demand (MHz)|Avg",
          "VM|Memory|Consumed (KB)|Avg", "VM|Virtual Disk|IOPS|Avg"]


def aria_history(path: Path, days: int, *, cpu: float = 0.12, memory: float = 0.25,
                 iops: float = 0.0, hourly: bool = False, vms: int = 20, noise: float = 0.05,
                 seed: int = 1) -> Path:
    """An Aria VM view with an Interval Breakdown: ``vms`` VMs over ``days`` days (a row per
    VM and day, or per hour), each VM's CPU, memory and IOPS compounding at the rates a year,
    with a weekly rhythm and ``noise`` (log-normal) on every point."""
    rnd = random.Random(seed)
    start = dt.datetime(2026, 3, 1)
    step = dt.timedelta(hours=1) if hourly else dt.timedelta(days=1)
    points = days * (24 if hourly else 1)
    with path.open("w", newline="", encoding="utf-8-sig") as f:
        w = csv.writer(f, quoting=csv.QUOTE_ALL)
        w.writerow(HEADER)
        for v in range(vms):
            size = rnd.uniform(0.5, 2.0)
            for k in range(points):
                when = start + k * step
                t = (when - start).days + (when - start).seconds / 86400
                week = 1.0 + 0.1 * math.sin(2 * math.pi * t / 7)

                def at(rate: float, base: float, t: float = t, week: float = week,
                       size: float = size) -> str:
                    value = base * size * week * (1 + rate) ** (t / 365.25) \
                        * math.exp(rnd.gauss(0, noise))
                    return f"{value:,.2f}"

                w.writerow([f"vm-{v:03d}", when.strftime("%-I:%M %p %-d %B %Y"),
                            at(cpu, 800.0), at(memory, 4 * 1024 * 1024), at(iops, 150.0)])
    return path


def test_a_year_of_daily_intervals_gives_back_each_rate_within_its_spread(
        tmp_path: Path) -> None:
    h = read_aria_history(aria_history(tmp_path / "v.csv", 365))
    trends = h.trends()
    assert set(trends) == {"cpu", "memory", "iops"}
    for resource, rate in (("cpu", 12.0), ("memory", 25.0), ("iops", 0.0)):
        t = trends[resource]
        assert t.rate_pct is not None and t.se_pct is not None
        assert abs(t.rate_pct - rate) < 3 * t.se_pct + 0.5, (resource, t.text)
        assert 0 < t.se_pct < 3.0 and t.days == 365 and t.span_days == 364
    assert h.suggested()["memory"] == pytest.approx(25.0, abs=2.0)
    assert trends["cpu"].text.startswith("CPU 1")  # "CPU 12.x % a year ± ..."
    assert "a year ± " in trends["cpu"].text and "365 daily means, 2026-03-01 to 2027-02-28" \
        in trends["cpu"].text


def test_a_week_of_hourly_points_suggests_nothing_and_says_why(tmp_path: Path) -> None:
    h = read_aria_history(aria_history(tmp_path / "w.csv", 7, hourly=True, vms=4))
    assert h.suggested() == {}
    words = lines(h)
    assert words[0] == ("CPU: no rate suggested, 6 days of history, under the 30 a trend"
                        " needs (7 daily means, 2026-03-01 to 2026-03-07)")
    assert all("no rate suggested" in w for w in words[:3])


def test_the_fit_by_hand_on_an_exact_series() -> None:
    """An exact 10 % a year over 60 days: rate 10 %, no spread; 29 days: none."""
    days = np.arange(738000, 738060, dtype=float)
    means = 100.0 * 1.1 ** ((days - days[0]) / 365.25)
    t = fit("cpu", days, means)
    assert t.rate_pct == pytest.approx(10.0, abs=1e-6) and t.se_pct == pytest.approx(0.0,
                                                                                    abs=1e-6)
    short = fit("cpu", days[:MIN_DAYS], means[:MIN_DAYS])
    assert short.rate_pct is None and "29 days of history" in short.why
    assert fit("cpu", days[:2], means[:2]).why == "fewer than 3 days with a figure"


def test_times_as_aria_and_iso_write_them_and_a_view_without_intervals() -> None:
    assert parse_time("12:00 AM 21 July 2026") == dt.datetime(2026, 7, 21, 0, 0)
    assert parse_time("11:00 PM 27 July 2026") == dt.datetime(2026, 7, 27, 23, 0)
    assert parse_time("2024-05-01 10:00") == dt.datetime(2024, 5, 1, 10, 0)
    assert parse_time("yesterday") is None


def test_a_view_of_one_row_per_vm_has_no_history(tmp_path: Path) -> None:
    path = tmp_path / "flat.csv"
    path.write_text("Name,VM|CPU|Demand (MHz)|Avg\nvm-1,100\n", encoding="utf-8")
    with pytest.raises(DesignError, match="no interval column"):
        read_aria_history(path)
