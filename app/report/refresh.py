"""The report's refresh page: each hardware refresh kept as a scenario (``headroom refresh
-o`` or Analysis > Refresh) beside the base design (:mod:`models.report.refresh`): what it
does, the settings it changes, each cluster it rebuilds before and after (hosts, hosts
needed, mean host CPU and memory, licensed cores) with what set its count in the words
``headroom refresh`` uses, the clusters it keeps, and the design as a whole before and
after.  Only a design with a refresh has it; its blocks flow over as many pages as they need
(:func:`app.report.pages.build_pages` flows them).  A rebuild that is no refresh (a host more
or fewer) is shown the same way under the scenarios compared (:func:`rebuild_blocks`)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from app.report.draw import MUTED, Column
from app.report.tables import WIDTH, Block, table_blocks, text_block, title_block
from models.document.numbers import counted
from models.report.content import Content
from models.report.refresh import CLUSTER_COLUMNS, RefreshView

RIGHT = Qt.AlignmentFlag.AlignRight
HEADING = "The refresh"
SUBTITLE = ("Each hardware refresh kept as a scenario beside the base design: per cluster"
            " before → after, and what sets each count")
WIDTHS = (0.12, 0.07, 0.09, 0.11, 0.13, 0.1, 0.38)
"""Of :data:`~models.report.refresh.CLUSTER_COLUMNS`, as fractions of the page's width."""
CLUSTERS = [Column(t, w, RIGHT if 0 < i < len(WIDTHS) - 1 else Qt.AlignmentFlag.AlignLeft)
            for i, (t, w) in enumerate(zip(CLUSTER_COLUMNS, WIDTHS, strict=True))]
METHOD = ("Hosts needed: the capacity model's count under each cluster's policy and admission"
          " control, as the dashboard and headroom seek --goal hosts count it. What sets the"
          " count: the resource at its limit with one host fewer, or one host holding the"
          " load; vSAN storage or the vSAN policy's minimum; and what HA adds (its admission"
          " control's reserve, two hosts at least, room to restart any one host's VMs), as"
          " headroom refresh says it.")


def has_refresh_page(c: Content) -> bool:
    """A page of its own where a refresh is kept as a scenario."""
    return any(v.replaces for v in c.refreshes)


def refresh_blocks(c: Content, compact: bool = False) -> list[Block]:
    """Every refresh, one after the other, then how the counts are read."""
    out: list[Block] = []
    for i, v in enumerate(v for v in c.refreshes if v.replaces):
        if i:
            out.append(Block(18, lambda s, y: None))
        out += _view(v, compact, f"‘{v.scenario}’")
    out.append(Block(10, lambda s, y: None))
    out.append(text_block(METHOD, 10.5 if compact else 11, MUTED))
    return out


def rebuild_blocks(c: Content, compact: bool = False) -> list[Block]:
    """Each scenario that adds hosts or takes some out without a refresh (one host more or
    fewer), as the refresh page shows a refresh: for the scenarios compared."""
    out: list[Block] = []
    for v in c.refreshes:
        if not v.replaces:
            out.append(Block(14, lambda s, y: None))
            out += _view(v, compact, f"The hosts of ‘{v.scenario}’")
    return out


def _view(v: RefreshView, compact: bool, title: str) -> list[Block]:
    size = 11.5 if compact else 12.5
    out = [title_block(title),
           text_block(v.label[:1].upper() + v.label[1:] + ".", size)]
    if v.changed:
        out.append(text_block("Settings it changes: " + ", ".join(v.changed) + ".", size))
    if v.clusters:
        out.append(Block(6, lambda s, y: None))
        out += table_blocks(CLUSTERS, [c.cells for c in v.clusters],
                            size=11 if compact else 12, row_h=20 if compact else 22)
    if v.kept:
        kept = ", ".join(v.kept)
        out.append(text_block(f"It keeps the hosts of {counted(len(v.kept), 'cluster')}"
                              f" as they are: {kept}.", size - 1, MUTED, gap=4))
    out.append(Block(10, lambda s, y: None))
    columns = [Column("The design as a whole", 0.34), Column("Base design", 0.33, RIGHT),
               Column(f"‘{v.scenario}’", 0.33, RIGHT)]
    out += table_blocks(columns, [list(r) for r in v.rows], size=11 if compact else 12,
                        row_h=20 if compact else 22, width=WIDTH * 0.6)
    return out
