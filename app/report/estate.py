"""The design page of an estate: its clusters and hosts listed at the page's text size.

A design with clusters, or more hosts than a drawing names legibly
(:func:`models.report.inventory.listed`), gets this listing instead of the diagram: each
cluster with its HA and DRS policy, the site its hosts are at and the hosts it needs, then one
row per host (hardware, VMs, predicted CPU and memory), the hosts in no cluster, and the
storage arrays with their space and, where measured, their I/O.  The blocks flow over as many
pages as the report gives the design (:func:`estate_blocks`); where the hosts do not fit, each
cluster shows its busiest and counts the rest.
"""

from __future__ import annotations

import math

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from app.report.document import Report
from app.report.draw import MUTED, Column, Sheet, util_color
from app.report.tables import Block, table_blocks, text_block, title_block
from models.document import numbers as fmt
from models.report.inventory import ArrayRow, Group, HostRow, Inventory, inventory

RIGHT = Qt.AlignmentFlag.AlignRight

HOST_COLUMNS = [Column("Host", 0.3), Column("Hardware", 0.34), Column("VMs", 0.1, RIGHT),
                Column("CPU", 0.13, RIGHT), Column("Memory", 0.13, RIGHT)]
ARRAY_COLUMNS = [Column("Storage array", 0.25), Column("Hardware", 0.2),
                 Column("Space", 0.25), Column("IOPS", 0.1, RIGHT),
                 Column("Latency", 0.1, RIGHT), Column("Busy", 0.1, RIGHT)]
LEAST_ROWS = 3
"""Hosts a cluster shows at least when the listing is cut to fit."""


def estate_subtitle(inv: Inventory) -> str:
    hosts = sum(len(g.hosts) for g in inv.groups)
    vms = sum(g.vms for g in inv.groups) + inv.unplaced_vms
    clusters = sum(1 for g in inv.groups if g.name)
    where = f" in {fmt.count(clusters, 'cluster')}" if clusters else ""
    return (f"{fmt.count(hosts, 'host')}{where} running {fmt.count(vms, 'VM')}: each host's"
            " hardware, VMs and predicted utilisation")


def estate_blocks(r: Report, compact: bool, rows: int) -> list[Block]:
    """The listing's blocks, its host rows cut to about ``rows`` (each cluster keeps its
    busiest, at least :data:`LEAST_ROWS`, and says how many more it has)."""
    inv = inventory(r.content.effective, r.prediction)
    size, row_h = (11, 19) if compact else (12, 21)
    out: list[Block] = []
    notes = r.design.notes.strip()
    if notes:
        out.append(text_block(notes, 11.5 if compact else 12.5, gap=12))
    arrays = inv.arrays[:max(LEAST_ROWS, rows // 4)]
    # a group's title and facts take about two rows; the arrays theirs
    hosts = rows - 3 * len(inv.groups) - len(arrays) - 2
    for group, keep in zip(inv.groups, _shares(inv.groups, hosts), strict=True):
        out += _group_blocks(group, keep, size, row_h)
    if inv.unplaced_vms:
        out.append(text_block(f"{fmt.count(inv.unplaced_vms, 'VM')} on no host (counted in"
                              " what the clusters need).", size, MUTED, gap=12))
    if arrays:
        cells = [_array_cells(a) for a in arrays]
        tints = [_array_tints(a) for a in arrays]
        if len(arrays) < len(inv.arrays):
            cells.append([f"… {fmt.count(len(inv.arrays) - len(arrays), 'more array')}",
                          "", "", "", "", ""])
            tints.append([MUTED] * len(ARRAY_COLUMNS))
        out.append(title_block("Storage arrays", 14 if compact else 15))
        out += table_blocks(ARRAY_COLUMNS, cells, tints, size=size, row_h=row_h)
    return out


def _shares(groups: list[Group], rows: int) -> list[int]:
    """Host rows each group keeps: all when they fit in ``rows``, else its share of them."""
    total = sum(len(g.hosts) for g in groups)
    if total <= rows:
        return [len(g.hosts) for g in groups]
    return [min(len(g.hosts), max(LEAST_ROWS, math.floor(rows * len(g.hosts) / total)))
            for g in groups]


def _group_blocks(group: Group, keep: int, size: float, row_h: float) -> list[Block]:
    name = group.name or "Hosts in no cluster"
    title = f"{name} · {group.policy}" if group.policy else name
    facts = group.facts() + (f" · at {group.site}" if group.site else "")
    shown = group.hosts
    rest: list[HostRow] = []
    if keep < len(group.hosts):  # the busiest, named; the others counted
        busiest = sorted(group.hosts, key=lambda h: -(h.cpu or 0.0))
        kept = {id(h) for h in busiest[:keep]}
        shown = [h for h in group.hosts if id(h) in kept]
        rest = [h for h in group.hosts if id(h) not in kept]
    cells = [_host_cells(h) for h in shown]
    tints = [_host_tints(h) for h in shown]
    if rest:
        cpu = max((h.cpu for h in rest if h.cpu is not None), default=None)
        mem = max((h.memory for h in rest if h.memory is not None), default=None)
        cells.append([f"… {fmt.count(len(rest), 'more host')}", "", f"{sum(h.vms for h in rest):,}",
                      f"up to {fmt.percent(cpu, 3)}" if cpu is not None else "",
                      f"up to {fmt.percent(mem, 3)}" if mem is not None else ""])
        tints.append([MUTED] * len(HOST_COLUMNS))
    head = title_block(title, size + 3)
    line = text_block(facts, size, MUTED, gap=6)

    def draw(s: Sheet, y: float) -> None:
        head.draw(s, y)
        line.draw(s, y + head.height)

    # the title and its line never stay at a page's foot without the first host
    return [Block(head.height + line.height, draw, keep=True),
            *table_blocks(HOST_COLUMNS, cells, tints, size=size, row_h=row_h),
            Block(14, lambda s, y: None)]


def _host_cells(h: HostRow) -> list[str]:
    return [h.name, h.hardware, f"{h.vms:,}",
            fmt.percent(h.cpu, 3) if h.cpu is not None else fmt.NONE,
            fmt.percent(h.memory, 3) if h.memory is not None else fmt.NONE]


def _host_tints(h: HostRow) -> list[QColor | None]:
    return [None, None, None, util_color(h.cpu) if h.cpu is not None else None,
            util_color(h.memory) if h.memory is not None else None]


def _array_cells(a: ArrayRow) -> list[str]:
    if a.io is None:  # nothing measured there: said so, not 0 IOPS, 0 ms, 0 %
        return [a.name, a.hardware, a.space or fmt.NONE, a.why, "", ""]
    return [a.name, a.hardware, a.space or fmt.NONE, *a.io]


def _array_tints(a: ArrayRow) -> list[QColor | None]:
    return [None, None, None, MUTED if a.io is None else None, None, None]
