"""The report's bill-of-materials page (:mod:`models.report.bom`, the lines ``headroom bom``
prints): of each refresh kept as a scenario (what it buys), else of the design where it is
more than a testbed, the lines by category with quantity, per host and source, priced with
the totals where the report was given a price list.  Its blocks flow over as many pages as
they need (:func:`app.report.pages.build_pages` flows them)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from app.report.draw import ACCENT, MUTED, Column, Sheet
from app.report.tables import Block, table_blocks, text_block, title_block
from models.report.bom import (
    BillView,
    amount,
    cost_text,
    grouped,
    money,
    per_host,
    priced,
    source,
    totals_lines,
)
from models.report.content import Content

RIGHT = Qt.AlignmentFlag.AlignRight
HEADING = "Bill of materials"
PLAIN = [Column("Item", 0.26), Column("Quantity", 0.11, RIGHT), Column("Per host", 0.2),
         Column("Source", 0.43)]
PRICED = [Column("Item", 0.21), Column("Quantity", 0.1, RIGHT), Column("Per host", 0.18),
          Column("Unit price", 0.1, RIGHT), Column("Cost", 0.13, RIGHT), Column("Source", 0.28)]
NOTE = ("Hardware is bought once; licences are subscriptions, counted per year. headroom bom"
        " lists the same lines (--json: each with its quantity, unit and source).")


def has_bom_page(c: Content) -> bool:
    """A page of its own where there is a bill to print (a refresh's, or the design's where
    it has three hosts or more)."""
    return bool(c.bills)


def subtitle(c: Content) -> str:
    refresh = any(b.refresh for b in c.bills)
    what = "What each refresh buys" if refresh else "What the design is made of and licenses"
    prices = next((b.bom.prices for b in c.bills if b.bom.prices is not None), None)
    tail = f", priced with {prices}" if prices else ", each line with its source"
    return f"{what}: servers, processors, memory, NICs, vSAN devices and licences{tail}"


def bom_blocks(c: Content, compact: bool = False) -> list[Block]:
    out: list[Block] = []
    for i, b in enumerate(c.bills):
        if i:
            out.append(Block(18, lambda s, y: None))
        out += _bill(b, compact)
    out.append(Block(8, lambda s, y: None))
    out.append(text_block(NOTE, 10.5 if compact else 11, MUTED))
    return out


def _titled(rows: list[Block], title: Block) -> None:
    """The table's header drawn under the bill's title, so that a bill carried over to the
    next page says whose it is there too."""
    head = rows[0].header if rows else None
    if head is None:
        return

    def draw(s: Sheet, y: float) -> None:
        title.draw(s, y)
        head.draw(s, y + title.height)

    both = Block(title.height + head.height, draw)
    for row in rows:
        row.header = both


def _bill(b: BillView, compact: bool) -> list[Block]:
    size = 10.5 if compact else 11.5
    columns = PRICED if priced(b.bom) else PLAIN
    rows: list[list[str]] = []
    colors: list[list[QColor | None]] = []
    bold: list[bool] = []
    for category, lines in grouped(b.bom):
        rows.append([category] + [""] * (len(columns) - 1))
        colors.append([ACCENT] + [None] * (len(columns) - 1))
        bold.append(True)
        for x in lines:
            cells = [x.item, amount(x.quantity, x.unit), per_host(x)]
            if priced(b.bom):
                cells += [money(x.unit_price, x.currency), cost_text(x)]
            rows.append([*cells, source(x)])
            colors.append([None] * len(columns))
            bold.append(False)
    out = table_blocks(columns, rows, colors, bold, size=size, row_h=19 if compact else 21)
    _titled(out, title_block(b.title))
    totals = totals_lines(b.bom)
    if totals:
        out.append(Block(8, lambda s, y: None))
    for line in totals:
        out.append(text_block(line, size + 1, bold=line.startswith("Total"), gap=4))
    return out
