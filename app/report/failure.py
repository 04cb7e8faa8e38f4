"""The report's host-failure page: the one host-failure run the report made
(:mod:`models.report.failure`, what ``headroom failure`` and Analysis > Host failure run),
led by the same paragraph as the summary's "If a host fails", then the policy, and a row per
failure: what fails, the VMs restarted, new breaches, the busiest host after the restarts and
what breaks, those that break the policy first."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor

from app.report.document import Report
from app.report.draw import BAD, MARGIN, MUTED, PAGE_H, Column, Sheet, row_height
from models.document import numbers as fmt
from models.report.failure import method_text, policy_text, rows

RIGHT = Qt.AlignmentFlag.AlignRight
HEADING = "If a host fails"
COLUMNS = [Column("Fails", 0.17), Column("VMs restarted", 0.1, RIGHT),
           Column("New breaches", 0.1, RIGHT), Column("Busiest host after", 0.23),
           Column("What breaks", 0.4)]
SIZE = 11.0
ROW_H = 20.0
BOTTOM = PAGE_H - MARGIN - 14 - 24
"""The lowest a row may reach, leaving a line to count the rows left out."""


FEWEST = 3
"""The fewest failures (hosts and sites) a page of its own lists: with one or two the page
would hold the summary's own paragraph and a row or two, the second the first's mirror."""


def has_failure_page(r: Report) -> bool:
    """A page of its own where :data:`FEWEST` failures or more were tried: a design of one or
    two hosts has its paragraph in the summary, which says the worst, and little to list."""
    fl = r.content.failure
    return fl is not None and fl.hosts > 1 and bool(fl.tried) and \
        len(fl.report.failures) >= FEWEST


def failure_page(s: Sheet, number: int, total: int, r: Report) -> None:
    fl = r.content.failure
    assert fl is not None
    design = r.content.effective
    y = s.heading(HEADING, method_text(fl))
    w = s.width - 2 * MARGIN
    y += s.wrapped(MARGIN, y, w, r.content.summary.failure, 14) + 8  # the summary's own
    y += s.wrapped(MARGIN, y, w, policy_text(fl, r.prediction.has_response), 12,
                   MUTED) + 16
    table = rows(design, fl)
    cells = [[t.fails, f"{t.restarted:,}", f"{t.new:,}", t.busiest, t.breaks] for t in table]
    tone: dict[str, QColor | None] = {"breaks": BAD, "choice": MUTED, "ok": None}
    shown = 0
    head = row_height(w, COLUMNS, [c.title for c in COLUMNS], SIZE, ROW_H, True)
    room = BOTTOM - y - head
    for row in cells:
        h = row_height(w, COLUMNS, row, SIZE, ROW_H)
        if h > room:
            break
        room -= h
        shown += 1
    colors = [[tone[t.tone]] * len(COLUMNS) for t in table[:shown]]
    y = s.wrapped_table(MARGIN, y, w, COLUMNS, cells[:shown], SIZE, ROW_H, colors)
    left = table[shown:]
    if left:
        broken = sum(t.tone == "breaks" for t in left)
        what = f", {broken:,} of them breaking the policy" if broken else ", none breaking" \
            " the policy"
        s.text(QRectF(MARGIN, y + 4, w, 20), f"… and {fmt.count(len(left), 'more failure')}"
               f"{what}: headroom failure lists every one.", 11, color=MUTED)
    s.footer(r.footer, number, total)
