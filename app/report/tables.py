"""The report's long tables, as blocks that flow over as many pages as they need: the
scenario comparison, what each scenario changes, the knob table and the evidence appendix
(the refresh page's and the bill of materials' are :mod:`app.report.refresh`'s and
:mod:`app.report.bom`'s).

A :class:`Block` knows its height before it is drawn, so :func:`paginate` can count pages
(and the report keep to its page budget) before anything is painted.  A table's rows carry
their header block: it is repeated at the top of every page the table continues on.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor

from app.report.draw import (
    ACCENT,
    BAD,
    GOOD,
    INK,
    MARGIN,
    MUTED,
    PAGE_W,
    Column,
    Sheet,
    row_height,
    wrapped_height,
)
from models.calibration import Check
from models.core.registry import of_cases
from models.document import numbers as fmt
from models.report.compare import Cell, Comparison, Row
from models.report.content import Content
from models.report.settings import KnobRow, scenario_text, setting_text
from models.report.summary import cell_text
from models.report.wording import changes_text, plain, study_title

RIGHT = Qt.AlignmentFlag.AlignRight
WIDTH = PAGE_W - 2 * MARGIN
"""The width of a full-page table."""


@dataclass
class Block:
    height: float
    draw: Callable[[Sheet, float], object]
    """Draws the block with its top at the given y."""
    header: Block | None = None
    """Drawn first when this block starts a page or follows a block of another table."""
    keep: bool = False
    """Kept on the page of the block after it (a title row is never left at a page's foot)."""


def paginate(blocks: Sequence[Block], avail: float) -> list[list[Block]]:
    """Blocks packed into pages of height ``avail``, headers repeated where tables
    continue."""
    pages: list[list[Block]] = [[]]
    y = 0.0
    header: Block | None = None
    for i, b in enumerate(blocks):
        extra = b.header.height if b.header is not None and b.header is not header else 0.0
        follow = 0.0
        if b.keep and i + 1 < len(blocks):  # the next block, and its table's header
            nxt = blocks[i + 1]
            follow = nxt.height + (nxt.header.height if nxt.header is not None
                                   and nxt.header is not b.header else 0.0)
        if pages[-1] and y + extra + b.height + follow > avail:
            pages.append([])
            y, header = 0.0, None
            extra = b.header.height if b.header is not None else 0.0
        if b.header is not None and b.header is not header:
            pages[-1].append(b.header)
            y += b.header.height
        header = b.header
        pages[-1].append(b)
        y += b.height
    return pages


def table_blocks(columns: Sequence[Column], rows: Sequence[Sequence[str]],
                 colors: Sequence[Sequence[QColor | None]] | None = None,
                 bold: Sequence[bool] | None = None, size: float = 12, row_h: float = 22,
                 width: float = WIDTH, x: float = MARGIN) -> list[Block]:
    """A wrapped table as one block per row, each carrying the header."""
    titles = [c.title for c in columns]
    head = Block(row_height(width, columns, titles, size, row_h, True),
                 lambda s, y: s.wrapped_table(x, y, width, columns, [], size, row_h))
    out = []
    for i, row in enumerate(rows):
        b = bool(bold[i]) if bold is not None else False
        tint = [colors[i]] if colors is not None else None
        out.append(Block(row_height(width, columns, row, size, row_h, b),
                         partial(_row, x=x, width=width, columns=columns, row=row, size=size,
                                 row_h=row_h, tint=tint, bold=b), head, keep=b))
    return out


def _row(s: Sheet, y: float, x: float, width: float, columns: Sequence[Column],
         row: Sequence[str], size: float, row_h: float,
         tint: list[Sequence[QColor | None]] | None, bold: bool) -> None:
    s.wrapped_table(x, y, width, columns, [row], size, row_h, tint, header=False, bold=[bold])


def text_block(text: str, size: float = 12.5, color: QColor = INK, bold: bool = False,
               gap: float = 6.0, indent: float = 0.0) -> Block:
    w = WIDTH - indent
    h = wrapped_height(w, text, size, bold)
    return Block(h + gap, lambda s, y: s.wrapped(MARGIN + indent, y, w, text, size, color,
                                                 bold))


def title_block(text: str, size: float = 15) -> Block:
    return Block(size * 1.4 + 10, lambda s, y: s.text(QRectF(MARGIN, y + 4, WIDTH, size * 1.4),
                                                       text, size, True), keep=True)


# --------------------------------------------------------------------------- comparison

CHANGE_COLORS: dict[str, QColor] = {"better": GOOD, "worse": BAD, "changed": ACCENT,
                                    "same": MUTED, "appears": ACCENT, "gone": MUTED}

PER_TABLE = 6
"""Scenario columns per table (beside the base design's); more scenarios, more tables."""


def comparison_blocks(c: Content, compact: bool = False) -> list[Block]:
    """The KPI table, base design first, scenarios in tables of at most :data:`PER_TABLE`
    (as even as they come: 7 scenarios are 4 and 3)."""
    cmp = c.comparison
    n = len(cmp.columns) - 1
    out: list[Block] = []
    chunks = max(1, math.ceil(n / PER_TABLE))
    each = math.ceil(n / chunks) if n else 0
    # a figure no scenario changes is said once, under the tables, not repeated per column
    rows = [r for r in cmp.rows if r.varies] or cmp.rows
    same = [r for r in cmp.rows if r not in rows]
    for k in range(chunks):
        idx = [0, *range(1 + k * each, min(n, (k + 1) * each) + 1)]
        out += _comparison_table(c, cmp, rows, idx, compact)
        if k + 1 < chunks:
            out.append(Block(16, lambda s, y: None))
    if same and n:
        values = "; ".join(f"{r.kpi.title} {r.kpi.text(r.cells[0].value)}"
                           for r in same)
        out.append(Block(8, lambda s, y: None))  # clear of the table's last rule
        out.append(text_block(f"The same in every scenario: {values}.",
                              11.5 if compact else 12.5, gap=6))
    return out


def _comparison_table(c: Content, cmp: Comparison, shown: list[Row], idx: list[int],
                      compact: bool) -> list[Block]:
    label_w = 0.22
    each = (1 - label_w) / len(idx)
    columns = [Column("Figure", label_w),
               *(Column("Base design" if i == 0 else f"‘{cmp.columns[i].name}’", each, RIGHT)
                 for i in idx)]
    if c.scenario != "base":
        columns = [col if not col.title.startswith(f"‘{c.scenario}’") else
                   Column(col.title + " (reported)", col.width, col.align) for col in columns]
    rows, colors, marks = [], [], []
    for row in shown:
        kpi = row.kpi
        cells: list[str] = [kpi.title]
        tints: list[QColor | None] = [None]
        for i in idx:
            cell: Cell = row.cells[i]
            value = kpi.text(cell.value)
            if i:
                change = cell_text(kpi, cell)
                value += f"\n{change}" if change else ""
            cells.append(value)
            tints.append(CHANGE_COLORS.get(cell.change) if i else None)
        rows.append(cells)
        colors.append(tints)
        marks.append(False)
    warn = ["Warnings"]
    wcol: list[QColor | None] = [None]
    for i in idx:
        col = cmp.columns[i]
        p = col.prediction
        if col.error:
            warn.append("not evaluated")
            wcol.append(BAD)
        elif p is not None and col.refusals:
            warn.append(fmt.count(len(col.refusals), "refusal"))
            wcol.append(BAD)
        else:
            n = len(p.warnings) if p is not None else 0
            warn.append(fmt.count(n, "warning") if n else "none")
            wcol.append(MUTED if not n else INK)
    rows.append(warn)
    colors.append(wcol)
    return table_blocks(columns, rows, colors, size=12 if compact else 13,
                        row_h=24 if compact else 28)


def changes_blocks(c: Content, compact: bool = False) -> list[Block]:
    """What each scenario changes, in words."""
    design = c.design
    out = [title_block("What each scenario changes")]
    for sc in design.scenarios:
        words = [sc.rebuild.label] if sc.rebuild is not None else []
        words += [w for w in [changes_text(design, sc.overrides)] if w]
        text = f"‘{sc.name}’ — " + ("; ".join(words) or "no changes")
        out.append(text_block(text, 11.5 if compact else 12.5, gap=4 if compact else 6))
    return out


# --------------------------------------------------------------------------- knobs


def knob_table_rows(rows: Sequence[KnobRow]) -> list[list[str]]:
    return [[r.knob.label, r.knob.group,
             r.knob.text(r.default) if r.knob.relative
             else fmt.prop_value(r.knob.kind, r.knob.prop, r.default),
             setting_text(r.knob, r.base),
             scenario_text(r) or "–"] for r in rows]


def knob_blocks(c: Content, compact: bool = False) -> list[Block]:
    columns = [Column("Knob", 0.22), Column("Group", 0.12), Column("Default", 0.12),
               Column("Base design", 0.22), Column("Changed by the scenarios", 0.32)]
    rows = knob_table_rows(c.knobs)
    if not rows:
        return [text_block("Every knob is at its default in the base design and in every"
                           " scenario.", 13, MUTED)]
    return table_blocks(columns, rows, size=10.5 if compact else 11.5,
                        row_h=19 if compact else 22)


# --------------------------------------------------------------------------- evidence

ROLES = {"fit": "fitted", "check": "checked", "rule": "rule"}
"""A check's role as the appendix names it."""


def error_text(error: float) -> str:
    """A relative error as ``+4.2 %`` (one decimal; ``0 %`` below 0.05 %)."""
    if not math.isfinite(error):
        return fmt.NONE
    if abs(error) < 0.0005:
        return "0 %"
    return f"{error * 100:+.1f} %".replace("-", "−")


EVIDENCE_COLUMNS = [Column("What is compared", 0.42), Column("Role", 0.09),
                    Column("Published", 0.11, RIGHT), Column("Model", 0.11, RIGHT),
                    Column("Error", 0.12, RIGHT), Column("Cross-validated", 0.15, RIGHT)]
"""The appendix's columns (after each study's title row)."""


def evidence_table(checks: Sequence[Check],
                   cv: Mapping[tuple[str, str], Mapping[str, Any]] | None = None
                   ) -> tuple[list[Column], list[list[str]], list[list[QColor | None]],
                              list[bool]]:
    """The appendix as one table: a bold row naming each study, then one row per check
    (columns, rows, cell colours, bold rows).  The one place the appendix's columns live."""
    rows: list[list[str]] = []
    colors: list[list[QColor | None]] = []
    bold: list[bool] = []
    study = None
    for chk in checks:
        try:
            case = chk.case()
            title = study_title(chk.case_id)
            area = of_cases(str(case.get("subsystem", ""))).title
        except KeyError:  # a case missing from the cases file: no title to show
            title, area = "Unnamed study", ""
        if title != study:
            study = title
            rows.append([f"{title}" + (f" ({area})" if area else ""), "", "", "", "", ""])
            colors.append([ACCENT])
            bold.append(True)
        pub = ("> " if chk.bound == "gt" else "< " if chk.bound == "lt" else "") + \
            fmt.number(chk.published)
        err = error_text(chk.error) + ("" if chk.ok else " (out of tolerance)")
        rows.append([chk.quantity, ROLES.get(chk.role, chk.role), pub, fmt.number(chk.model),
                     err, cv_text(chk, (cv or {}).get((chk.case_id, chk.quantity)))])
        colors.append([None, None, None, None, GOOD if chk.ok else BAD, None])
        bold.append(False)
    return EVIDENCE_COLUMNS, rows, colors, bold


def cv_text(chk: Check, row: Mapping[str, Any] | None) -> str:
    """The cross-validated error of a check: the error with the model refitted without its
    whole study; "reproduced only" when only its study pins what it depends on; a dash for a
    rule."""
    if chk.role == "rule":
        return fmt.NONE
    if row is None:
        return ""
    if row.get("reproduced_only"):
        return "reproduced only"
    value = row.get("cv_error")
    return error_text(float(value)) if value is not None else ""


def evidence_blocks(c: Content, compact: bool = False) -> list[Block]:
    ev = c.evidence
    if ev.error or not ev.checks:
        msg = ev.error or "The design's figures rest on no calibrated model (nothing to list)."
        return [text_block(msg, 13, MUTED)]
    columns, rows, colors, bold = evidence_table(ev.checks, ev.cross_validated)
    rows = [[plain(cell, c.design) for cell in row] for row in rows]
    return [evidence_note(), *table_blocks(columns, rows, colors, bold,
                                           size=10 if compact else 11,
                                           row_h=17 if compact else 20)]


def evidence_note() -> Block:
    return text_block("Role: fitted = a coefficient of the model was fitted to this figure;"
                      " checked = not used in fitting (the honest test); rule = the study's"
                      " rule as stated. Error = (model − published) / published."
                      " Cross-validated = the same error with the model refitted without the"
                      " figure's whole study (headroom validate --cv); reproduced only = only"
                      " its own study pins what it depends on, so no other study can check"
                      " it.", 10.5,
                      MUTED, gap=8)
