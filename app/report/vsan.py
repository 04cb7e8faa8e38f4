"""The report's vSAN page: each vSAN cluster's datastore as the capacity model sizes it
(:mod:`models.report.vsan`): a row per cluster (its policy, hosts, raw, reserved, usable,
data, free, the policy's minimum hosts and the hosts it needs with what sets them), a bar of
where its raw goes (reserved, the data with its copies or parity, free), its reserve rule and
count in a sentence, the clusters in every scenario compared, the vSAN capacity the licence
entitles, and how the figures are counted.  Only a design with a vSAN cluster has it."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPen

from app.report.document import Report
from app.report.draw import (
    ACCENT,
    BAD,
    GOOD,
    INK,
    MARGIN,
    MUTED,
    PAGE_H,
    PANEL,
    RULE,
    Column,
    Sheet,
    row_height,
)
from models.document import numbers as fmt
from models.report.vsan import (
    VsanRow,
    has_vsan,
    licensing_text,
    method_text,
    rows,
    scenario_rows,
)

RIGHT = Qt.AlignmentFlag.AlignRight
HEADING = "vSAN capacity"
COLUMNS = [Column("Cluster", 0.14), Column("Policy", 0.12), Column("Hosts", 0.05, RIGHT),
           Column("Raw", 0.08, RIGHT), Column("Reserved", 0.08, RIGHT),
           Column("Usable", 0.08, RIGHT), Column("Data", 0.08, RIGHT),
           Column("Free", 0.1, RIGHT), Column("Policy minimum", 0.13, RIGHT),
           Column("Hosts needed", 0.14, RIGHT)]
BY_SCENARIO = [Column("Scenario", 0.2), Column("Cluster", 0.13), Column("Policy", 0.12),
               Column("Hosts", 0.06, RIGHT), Column("Usable", 0.09, RIGHT),
               Column("Data", 0.09, RIGHT), Column("Free", 0.11, RIGHT),
               Column("Hosts needed", 0.11, RIGHT), Column("vSAN add-on", 0.09, RIGHT)]
SIZE = 12.0
ROW_H = 22.0
BOTTOM = PAGE_H - MARGIN - 14 - 24
"""The lowest the page's content may reach, leaving a line to say what was left out."""
BAR_H = 18.0
RESERVED = QColor("#9aa5b4")
"""The reserved share of a cluster's raw: kept free by rule, neither data nor free."""


def has_vsan_page(r: Report) -> bool:
    """A page of its own where the reported design has a vSAN cluster."""
    return has_vsan(r.prediction)


def vsan_page(s: Sheet, number: int, total: int, r: Report) -> None:
    table = rows(r.content.effective, r.prediction)
    y = s.heading(HEADING, "Each vSAN cluster's datastore: raw, the reserves, usable under its"
                           " policy, its data and what is free; the hosts it needs and what"
                           " sets them")
    w = s.width - 2 * MARGIN
    cells = [[t.name, t.layout, t.hosts, t.raw, t.reserved, t.usable, t.data, t.free,
              t.minimum, t.needed] for t in table]
    colors = [_short(10, t.short, (7, 9)) for t in table]
    y = s.wrapped_table(MARGIN, y, w, COLUMNS, cells, SIZE, ROW_H, colors) + 20
    shown = 0
    for t in table:  # where each cluster's raw goes, and the cluster in a sentence
        h = 22 + BAR_H + 6 + s.wrapped_height(w, t.split_text, 11) + 4 + \
            s.wrapped_height(w, t.sentence, 12.5) + 16
        if y + h > BOTTOM - 120:
            break
        y = _cluster(s, MARGIN, y, w, t)
        shown += 1
    if shown < len(table):
        s.text(QRectF(MARGIN, y, w, 20), f"… and {fmt.count(len(table) - shown, 'more cluster')}"
               " in the table above, each in headroom evaluate's vsan list.", 11, color=MUTED)
        y += 26
    y = _scenarios(s, MARGIN, y, w, r)
    lic = licensing_text(r.prediction)
    if lic and y + 60 < BOTTOM:
        y += s.wrapped(MARGIN, y, w, lic, 13) + 12
    if y + 40 < BOTTOM:
        s.wrapped(MARGIN, y, w, method_text(), 11, MUTED)
    s.footer(r.footer, number, total)


def _short(n: int, short: bool, cells: tuple[int, ...]) -> list[QColor | None]:
    """A row's cell colours: ``cells`` in red where the cluster is short."""
    return [BAD if short and j in cells else None for j in range(n)]


def _cluster(s: Sheet, x: float, y: float, w: float, t: VsanRow) -> float:
    """One cluster: its data against usable, a bar of its raw (reserved, data, free), what
    the bar says in words, its sentence; returns the y below."""
    used = fmt.percent(t.used) if t.used == t.used else "none usable"  # NaN: no usable
    s.text(QRectF(x, y, w, 20), f"{t.name}: data {t.data} of {t.usable} usable ({used})",
           13.5, True, BAD if t.short else INK)
    y += 22
    reserved, data, free = t.split
    span = max(1.0, reserved + data)
    s.box(QRectF(x, y, w, BAR_H), PANEL, RULE, 3)
    left = x
    for share, color in ((reserved, RESERVED), (min(data, 1.0 - reserved), ACCENT),
                         (max(reserved + data - 1.0, 0.0), BAD), (max(free, 0.0), GOOD)):
        if share > 0:
            width = w * share / span
            s.box(QRectF(left, y, width, BAR_H), color, None, 3)
            left += width
    if span > 1.0:  # the data runs past the raw: a tick where the raw ends
        at = x + w / span
        s.painter.setPen(QPen(INK, 1.5, Qt.PenStyle.DashLine))
        s.painter.drawLine(QPointF(at, y - 3), QPointF(at, y + BAR_H + 3))
    y += BAR_H + 6
    legend = " (grey, blue, green)." if free >= 0 else " (grey, blue; red past the raw)."
    y += s.wrapped(x, y, w, t.split_text + legend, 11, MUTED) + 4
    return y + s.wrapped(x, y, w, t.sentence, 12.5) + 16


def _scenarios(s: Sheet, x: float, y: float, w: float, r: Report) -> float:
    """The vSAN clusters of the base design and each scenario, as many rows as fit."""
    found = scenario_rows(r.content.comparison, r.content.design)
    if not found:
        return y
    head = row_height(w, BY_SCENARIO, [c.title for c in BY_SCENARIO], SIZE, ROW_H, True)
    room = BOTTOM - 110 - y - 26 - head
    if room < ROW_H:
        return y
    s.text(QRectF(x, y, w, 22), "In each scenario compared", 14, True)
    y += 26
    fit = []
    for cells, short in found:
        h = row_height(w, BY_SCENARIO, cells, SIZE, ROW_H)
        if h > room:
            break
        room -= h
        fit.append((cells, short))
    colors = [_short(9, short, (6, 7)) for _, short in fit]
    y = s.wrapped_table(x, y, w, BY_SCENARIO, [c for c, _ in fit], SIZE, ROW_H, colors)
    if len(fit) < len(found):
        s.text(QRectF(x, y + 2, w, 20), f"… and {fmt.count(len(found) - len(fit), 'more row')}:"
               " the scenario comparison's vSAN free row has every scenario.", 11,
               color=MUTED)
        y += 24
    return y + 16
