"""A design (or a scenario of it) as an Excel workbook, for the architect who takes the figures
further in a spreadsheet: ``headroom export DESIGN -o FILE.xlsx`` and File > Export Workbook.

Sheets (:mod:`models.io.workbook_sheets` says what each holds): ``Summary``, ``Clusters``,
``Hosts``, ``VMs``, ``vSAN`` (where there are vSAN clusters), ``Growth`` (where the design has
growth rates), ``Bill of materials``, ``Licences`` and ``Assumptions``.  Each is one table: a
bold header row, frozen with the first column, an auto filter over the table, numbers stored
as numbers (a header names the unit), column widths that fit what they hold.  Written
atomically: a failure leaves no half file.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter

from models.analysis.bom import Bom, PriceList, bill, bought_of
from models.document.design import Design
from models.io.atomic import write_atomic
from models.io.workbook_assumptions import assumptions
from models.io.workbook_sheets import (
    Side,
    Table,
    bom_table,
    clusters,
    finite,
    growth,
    has_growth,
    hosts,
    licences,
    sides,
    summary,
    vms,
    vsan,
)

Progress = Callable[[int, int, str], None]
"""``(done, total, what)``: a background job's progress report (it may raise to cancel)."""

MIN_WIDTH, MAX_WIDTH = 8, 80
"""Column widths in characters: at least the first, at most the second (long sources wrap)."""
HEADER_FILL = PatternFill("solid", fgColor="DDE3EA")


@dataclass
class Contents:
    """What the workbook holds, before it is written: its tables in order, the sides
    evaluated and the bill."""

    tables: list[Table]
    sides: list[Side]
    bom: Bom

    def table(self, name: str) -> Table:
        return next(t for t in self.tables if t.name == name)


def contents(design: Design, scenario: str | None = None, prices: PriceList | None = None,
             progress: Progress | None = None) -> Contents:
    """The workbook's tables for ``design`` in ``scenario`` (a refresh kept as a scenario:
    before and after), the bill priced with ``prices`` where given."""
    step = _stepper(progress, 9)
    step("evaluating")
    ss = sides(design, scenario)
    last = ss[-1]
    bought = bought_of(design, scenario)
    b = bill(last.design, last.prediction, bought, prices=prices)
    tables = [summary(design, ss)]
    step("clusters")
    tables.append(clusters(ss))
    step("hosts")
    tables.append(hosts(ss))
    step("VMs")
    tables.append(vms(ss))
    step("vSAN")
    v = vsan(ss)
    if v is not None:
        tables.append(v)
    step("growth")
    if has_growth(last.design):
        tables.append(growth(last.design))
    step("bill of materials")
    tables += [bom_table(b), licences(ss)]
    step("assumptions")
    tables.append(assumptions(ss, bought))
    return Contents(tables, ss, b)


def _stepper(progress: Progress | None, total: int) -> Callable[[str], None]:
    done = [0]

    def step(what: str) -> None:
        if progress is not None:
            progress(done[0], total, what)
        done[0] += 1
    return step


def workbook(c: Contents) -> Workbook:
    """The tables as an openpyxl workbook, a sheet each."""
    wb = Workbook()
    wb.remove(wb.active)
    for t in c.tables:
        _write(wb.create_sheet(t.name), t)
    return wb


def _write(ws: Any, t: Table) -> None:
    ws.append(t.headers)
    for row in t.rows:
        ws.append([finite(x) for x in row])
    bold = Font(bold=True)
    for cell in ws[1]:
        cell.font = bold
        cell.fill = HEADER_FILL
        cell.alignment = Alignment(vertical="top", wrap_text=True)
    widths = [len(h) for h in t.headers]
    for r, row in enumerate(t.rows, start=2):
        for i, x in enumerate(row):
            value = finite(x)
            if isinstance(value, float):
                ws.cell(r, i + 1).number_format = "0.0" if t.headers[i].endswith("(%)") \
                    else "#,##0.00##"
            elif isinstance(value, int) and not isinstance(value, bool):
                ws.cell(r, i + 1).number_format = "#,##0"
            widths[i] = max(widths[i], _shown_width(value))
    last = get_column_letter(len(t.headers))
    ws.freeze_panes = "B2"
    ws.auto_filter.ref = f"A1:{last}{max(len(t.rows) + 1, 2)}"
    if t.after:
        ws.append([])
        for row in t.after:
            ws.append([finite(x) for x in row])
    for i, w in enumerate(widths, start=1):
        width = min(max(w + 2, MIN_WIDTH), MAX_WIDTH)
        ws.column_dimensions[get_column_letter(i)].width = width
        if w + 2 > MAX_WIDTH:
            for (cell,) in ws.iter_rows(min_row=2, min_col=i, max_col=i,
                                        max_row=len(t.rows) + 1):
                cell.alignment = Alignment(wrap_text=True, vertical="top")


def _shown_width(x: Any) -> int:
    """About how many characters a cell shows."""
    if x is None:
        return 0
    if isinstance(x, bool):
        return 5
    if isinstance(x, int):
        return len(f"{x:,}")
    if isinstance(x, float):
        return len(f"{x:,.2f}")
    return max((len(line) for line in str(x).splitlines()), default=0)


def to_bytes(wb: Workbook) -> bytes:
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def export_workbook(design: Design, path: Path, scenario: str | None = None,
                    prices: PriceList | None = None,
                    progress: Progress | None = None) -> Contents:
    """Write the workbook of ``design`` in ``scenario`` to ``path`` (atomically); what it
    holds."""
    c = contents(design, scenario, prices, progress)
    write_atomic(Path(path), to_bytes(workbook(c)))
    return c
