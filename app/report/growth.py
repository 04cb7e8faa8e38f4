"""The report's growth page: the one growth run the report made (:mod:`models.report.growth`,
what ``headroom grow`` and Analysis > Growth run), where the design keeps growth rates or the
report was asked for a horizon: when each cluster runs out, a row per year (hosts needed and
what binds, host CPU and memory, storage used against usable, licensed cores) and each
cluster's hosts needed year by year, red where it needs more hosts than it has."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor

from app.report.document import Report
from app.report.draw import BAD, INK, MARGIN, MUTED, PAGE_H, Column, Sheet, row_height
from models.document import numbers as fmt
from models.report.growth import (
    COLUMNS,
    GrowthView,
    clusters,
    method_text,
    runs_out_lines,
    short,
    year_cells,
)

RIGHT = Qt.AlignmentFlag.AlignRight
HEADING = "Growth over years"
YEARS = [Column(COLUMNS[0], 0.06, RIGHT), Column(COLUMNS[1], 0.16, RIGHT),
         Column(COLUMNS[2], 0.14), Column(COLUMNS[3], 0.14, RIGHT),
         Column(COLUMNS[4], 0.14, RIGHT), Column(COLUMNS[5], 0.24, RIGHT),
         Column(COLUMNS[6], 0.12, RIGHT)]
SIZE = 12.0
ROW_H = 22.0
BOTTOM = PAGE_H - MARGIN - 14 - 24
"""The lowest the page's content may reach, leaving a line to say what was left out."""
MOST_ROWS = 11
"""The most years a table lists (a longer horizon: every k-th year, and the last)."""


def has_growth_page(r: Report) -> bool:
    """A page of its own where the report grew the design (rates kept, or a horizon asked)."""
    return r.content.growth is not None


def shown_years(view: GrowthView) -> list[int]:
    """The years the tables list: every year up to :data:`MOST_ROWS`, else every k-th year
    and the last."""
    n = len(view.result.years)
    if n <= MOST_ROWS:
        return list(range(n))
    step = -(-(n - 1) // (MOST_ROWS - 1))
    return sorted({*range(0, n, step), n - 1})


def growth_page(s: Sheet, number: int, total: int, r: Report) -> None:
    view = r.content.growth
    assert view is not None
    y = s.heading(HEADING, method_text(view))
    w = s.width - 2 * MARGIN
    result = view.result
    for line in runs_out_lines(view):  # when each cluster runs out, first
        y += s.wrapped(MARGIN, y, w, line, 13.5, color=BAD if "runs out" in line
                       or "already" in line else INK) + 4
    if view.year:
        y += s.wrapped(MARGIN, y, w, f"The other pages show the design in year"
                       f" {fmt.number(view.year)} (its growth.year); these years count from"
                       " today.", 11, MUTED) + 4
    y += 12
    years = shown_years(view)
    cells = [year_cells(result.years[i]) for i in years]
    colors: list[list[QColor | None]] = [
        [BAD if short(result.years[i]) and j == 1 else None for j in range(len(YEARS))]
        for i in years]
    y = s.wrapped_table(MARGIN, y, w, YEARS, cells, SIZE, ROW_H, colors)
    y += s.wrapped(MARGIN, y + 4, w, "Each year is the design evaluated at growth.year = n"
                   " with these rates. Host CPU and memory: the mean over the hosts, the busiest"
                   " in brackets. Storage: space in use against the arrays' capacity and vSAN"
                   " usable.", 11, MUTED) + 18
    y = _clusters(s, MARGIN, y, w, view, years)
    s.footer(r.footer, number, total)


def _clusters(s: Sheet, x: float, y: float, w: float, view: GrowthView,
              years: list[int]) -> float:
    """Each cluster's hosts needed year by year (of the hosts it has), red where short; as
    many clusters as fit."""
    found = clusters(view)
    if not found:
        return y
    first = 0.22
    cols = [Column("Cluster (hosts)", first)] + [
        Column(f"Year {fmt.number(view.result.years[i].year)}", (1 - first) / len(years), RIGHT)
        for i in years]
    head = row_height(w, cols, [c.title for c in cols], SIZE, ROW_H, True)
    if y + 26 + head + ROW_H > BOTTOM:
        return y
    s.text(QRectF(x, y, w, 22), "Hosts needed per cluster, year by year", 14, True)
    y += 26
    rows: list[list[str]] = []
    colors: list[list[QColor | None]] = []
    room = BOTTOM - y - head
    for name, per_year in found:
        hosts = per_year[0][1]
        row = [f"{name} ({hosts:,})"] + [
            "no fit" if per_year[i][0] is None and per_year[i][1] else
            "–" if per_year[i][0] is None else f"{per_year[i][0]:,}" for i in years]
        h = row_height(w, cols, row, SIZE, ROW_H)
        if h > room:
            break
        room -= h
        rows.append(row)
        tones: list[QColor | None] = [None]
        for i in years:
            need, there = per_year[i]
            tones.append(BAD if there and (need is None or need > there) else None)
        colors.append(tones)
    y = s.wrapped_table(x, y, w, cols, rows, SIZE, ROW_H, colors)
    left = len(found) - len(rows)
    if left:
        y += s.wrapped(x, y + 4, w, f"… and {fmt.count(left, 'more cluster')}: headroom grow"
                       " lists every one.", 11, MUTED) + 4
    return y
