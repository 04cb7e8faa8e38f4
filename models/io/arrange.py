"""Laying a design out on the canvas so that nothing overlaps (Qt-free; see
:mod:`models.io.placement` for the sizes).

:func:`arrange` places everything: hosts as cards packed in rows inside their cluster's box,
clusters and unclustered hosts inside their site's box, libraries beside them, sites side by
side in rows about twice as wide as tall, storage arrays in a row above the hosts that reach
them, VMs on no host in a grid of their own; VMs and NICs on a host sit on its card
(:func:`models.io.placement.docked_positions`, one numpy pass).  Hosts are packed one by one
(a few thousand at most), VMs never are.  :func:`free_spot` finds room for one new item near
where it was dropped; :func:`overlaps` counts the items that overlap another;
:func:`arrange_added` places a refresh's hosts.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from models.document.design import Component, Design
from models.io.placement import (
    ASPECT,
    BOXES,
    GAP,
    HEAD_H,
    REFERENCE_CANVAS,
    REFERENCE_HEIGHT,
    SIZES,
    VM_H,
    VM_PITCH_X,
    VM_PITCH_Y,
    VM_W,
    ArrayGroup,
    BoxStyle,
    Card,
    Holdings,
    Rect,
    array_groups,
    box_styles,
    cards,
    covered_area,
    docked_positions,
    extent_zoom,
    fit_zoom,
    group_band,
    holdings,
    rect_of,
    size_of,
    vm_columns,
)

ARRAY_RISE = 90.0
"""Space between the row of storage arrays and the top of what lies under it."""


@dataclass
class _Block:
    """Items laid out in a rectangle: positions relative to its top-left corner."""

    w: float
    h: float
    items: list[tuple[str, float, float]] = field(default_factory=list)


def _leaf(comp: Component, cs: dict[str, Card]) -> _Block:
    w, h = size_of(comp, cs)
    return _Block(w, h, [(comp.id, w / 2, HEAD_H / 2 if comp.kind == "host" else h / 2)])


def _shelf(blocks: list[_Block], max_w: float, gap: float = GAP) -> _Block:
    """Blocks in rows, left to right, a new row when the next would pass ``max_w``."""
    x = y = row_h = width = 0.0
    out: list[tuple[str, float, float]] = []
    for b in blocks:
        if x > 0 and x + b.w > max_w:
            x, y, row_h = 0.0, y + row_h + gap, 0.0
        out.extend((cid, x + bx, y + by) for cid, bx, by in b.items)
        width = max(width, x + b.w)
        x += b.w + gap
        row_h = max(row_h, b.h)
    return _Block(width, y + row_h, out)


def _packed(blocks: list[_Block], aspect: float = ASPECT) -> _Block:
    """Blocks in rows that together are about ``aspect`` times as wide as tall (the row
    width whose result comes closest, among a few dozen tried)."""
    if not blocks:
        return _Block(0.0, 0.0)
    area = sum((b.w + GAP) * (b.h + GAP) for b in blocks)
    widest = max(b.w for b in blocks)
    guess = max(widest, math.sqrt(area * aspect))
    widths = {guess}
    x = -GAP
    for b in blocks[:40]:  # k blocks in the first row, for small k
        x += b.w + GAP
        widths.add(max(widest, x))
    widths.update(max(widest, guess * f) for f in (0.6, 0.75, 0.9, 1.1, 1.3, 1.6))
    scored = []
    for w in sorted(widths):
        trial = _shelf(blocks, w + 0.5)
        scored.append((abs(math.log(max(trial.w, 1.0) / max(trial.h, 1.0) / aspect)), w, trial))
    return min(scored, key=lambda t: (round(t[0], 6), -t[1]))[2]  # a tie: the wider


def _boxed(content: _Block, comp: Component, styles: dict[str, BoxStyle]) -> _Block:
    """``content`` inside the box of container ``comp`` (its default size when empty), in
    its kind's style (:func:`models.io.placement.box_styles`)."""
    if not content.items:
        return _leaf(comp, {})
    style = styles[comp.kind]
    w = max(content.w + 2 * style.pad, style.width_for(comp.name, comp.kind))
    h = content.h + 2 * style.pad + style.head
    items = [(cid, x + style.pad, y + style.pad + style.head) for cid, x, y in content.items]
    return _Block(w, h, [*items, (comp.id, w / 2, h / 2)])


def _grid(ids: list[str]) -> _Block:
    """VMs on no host: a grid of pills."""
    cols = vm_columns(len(ids))
    rows = -(-len(ids) // cols)
    items = [(cid, VM_W / 2 + (i % cols) * VM_PITCH_X, VM_H / 2 + (i // cols) * VM_PITCH_Y)
             for i, cid in enumerate(ids)]
    return _Block(cols * VM_PITCH_X - (VM_PITCH_X - VM_W), rows * VM_PITCH_Y, items)


def arrange(design: Design) -> dict[str, tuple[float, float]]:
    """A position for every component of ``design`` such that no two cards, arrays,
    libraries or boxes overlap (deterministic: the same design gives the same layout), its
    boxes' name bands sized for the zoom at which it fits (:func:`layout_styles`)."""
    held = holdings(design)
    cs = cards(design, held)
    groups = array_groups(design, held)
    return _arranged(design, held, cs, layout_styles(design, held, cs, groups), groups=groups)


def arrange_added(design: Design, added: set[str]) -> None:
    """Place the components ``added`` to ``design`` (its own copies; a refresh's hosts) where
    :func:`arrange` would, when that overlaps less: a refresh puts its hosts where the old
    ones were, and its cards, holding more VMs, are larger."""
    before = overlaps(design)
    if not before:
        return
    at = arrange(design)
    mine = [c for c in design.components if c.id in added]
    was = [(c.x, c.y) for c in mine]
    for c in mine:
        c.x, c.y = at[c.id]
    if overlaps(design) >= before:
        for c, (x, y) in zip(mine, was, strict=True):
            c.x, c.y = x, y


def arrange_in_place(design: Design) -> Design:
    """Give every component of ``design`` its :func:`arrange` position; returns it."""
    at = arrange(design)
    for comp in design.components:
        comp.x, comp.y = at[comp.id]
    return design


def layout_styles(design: Design, held: Holdings | None = None,
                  cs: dict[str, Card] | None = None, groups: list[ArrayGroup] | None = None
                  ) -> dict[str, BoxStyle]:
    """The boxes' styles for ``design`` (:func:`models.io.placement.box_styles`), from its
    contents alone, so that :func:`arrange` and the canvas agree whatever the positions: a
    first guess of the zoom at which it fits from the area its cards cover, then twice the
    zoom of a layout made with the styles before (the name bands they size take room).  A
    design without boxes keeps the guess (its groups of arrays at most), or
    :data:`~models.io.placement.BOXES` without groups either: nothing to lay out again (a
    50,000-VM design opens without a layout).  ``groups``: the design's
    :func:`~models.io.placement.array_groups`, when the caller has them."""
    held = held or holdings(design)
    cs = cs if cs is not None else cards(design, held)
    groups = array_groups(design, held) if groups is None else groups
    if not held.containers:  # no box: a group of arrays at most, which the guess sizes
        return box_styles(fit_zoom(covered_area(design, cs))) if groups else dict(BOXES)
    styles = box_styles(fit_zoom(covered_area(design, cs)))
    for _ in range(2):  # the guess, then the layout its styles make (their bands take room)
        out = _arranged(design, held, cs, styles, docked=False, groups=groups)
        styles = box_styles(extent_zoom(top_level_rects(design, held, cs, at=out)[1]))
    return styles


def _arranged(design: Design, held: Holdings, cs: dict[str, Card],
              styles: dict[str, BoxStyle], docked: bool = True,
              groups: list[ArrayGroup] | None = None) -> dict[str, tuple[float, float]]:
    """:func:`arrange` with the boxes in ``styles`` (without the VMs and NICs on cards unless
    ``docked``; ``groups``: the design's array groups, when known)."""
    docked_ids = held.host_of
    own = [c for c in design.components if c.id not in docked_ids]  # VMs on cards: not here
    by_id = {c.id: c for c in own}
    sites = [c for c in own if c.kind == "site"]
    clusters = [c for c in own if c.kind in BOXES and c.kind != "site"]
    site_of = {m: next((s for s in held.member_of.get(m, []) if by_id[s].kind == "site"), "")
               for m in by_id}
    cluster_of = {m: next((k for k in held.member_of.get(m, []) if by_id[k].kind != "site"),
                          "") for m in by_id}
    # a cluster sits inside a site when all its hosts are there, at the top level when none
    # is at a site; a cluster spanning sites (stretched) leaves its hosts to their sites
    cluster_site: dict[str, str | None] = {}
    for k in clusters:
        where = {site_of[m] for m in held.containers[k.id]}
        cluster_site[k.id] = where.pop() if len(where) == 1 else "" if not where else None

    def cluster_block(k: Component) -> _Block:
        members = [by_id[m] for m in held.containers[k.id]]
        return _boxed(_packed([_leaf(m, cs) for m in members]), k, styles)

    holders = [c for c in own if c.kind in ("host", "content_library")]

    def free_members(site_id: str) -> list[Component]:
        return [c for c in holders if site_of[c.id] == site_id
                and (not cluster_of[c.id] or cluster_site.get(cluster_of[c.id]) is None)]

    top: list[_Block] = []
    peopled = sum(1 for s in sites if held.containers[s.id])
    inner_aspect = max(1.2, ASPECT / max(1, min(4, peopled)))  # sites side by side
    for s in sites:
        inner = [cluster_block(k) for k in clusters if cluster_site[k.id] == s.id]
        inner += [_leaf(m, cs) for m in free_members(s.id)]
        top.append(_boxed(_packed(inner, inner_aspect), s, styles))
    top += [cluster_block(k) for k in clusters if cluster_site[k.id] == ""]
    top += [_leaf(m, cs) for m in free_members("")]
    loose = [c.id for c in own if c.kind == "vm"]
    if loose:
        top.append(_grid(loose))
    placed = {cid for b in top for cid, _, _ in b.items}
    arrays = [c for c in own if c.kind == "storage_array"]
    top += [_leaf(c, cs) for c in own if c.id not in placed and c.kind != "storage_array"]
    body, above = _with_arrays(design, top, arrays, held, styles["cluster"], groups)
    out = {cid: (x, y) for cid, x, y in body.items}
    out.update(above)
    if docked:
        out.update(docked_positions(design, held, out))
    return out


def _with_arrays(design: Design, top: list[_Block], arrays: list[Component], held: Holdings,
                 style: BoxStyle, groups: list[ArrayGroup] | None = None
                 ) -> tuple[_Block, dict[str, tuple[float, float]]]:
    """The top-level blocks packed, and the arrays' row above them: the row adds height, so
    the blocks are packed wider (up to four times :data:`ASPECT`) where the whole then fits
    the reference canvas at a larger zoom (four sites under their datastore groups fitted the
    canvas's height and left a third of its width empty)."""
    best: tuple[float, _Block, dict[str, tuple[float, float]]] | None = None
    ids = {a.id for a in arrays}
    sources: dict[str, list[str]] = {a.id: [] for a in arrays}
    for lk in design.links if arrays else ():
        if lk.kind == "storage" and lk.target in ids:
            sources[lk.target].append(lk.source)
    groups = (array_groups(design, held) if groups is None else groups) if arrays else []
    for stretch in ((1.0,) if not arrays else (1.0, 1.5, 2.0, 3.0, 4.0)):
        body = _packed(top, ASPECT * stretch)
        at = {cid: (x, y) for cid, x, y in body.items}
        above = _array_row(design, arrays, at, body, style, sources, groups)
        rise = (max(0.0, -min(y for _, y in above.values())) + SIZES["storage_array"][1] / 2
                if above else 0.0)
        # the zoom at which it all fits the canvas the boxes' names are sized for
        zoom = min(REFERENCE_CANVAS / max(body.w, 1.0), REFERENCE_HEIGHT / max(body.h + rise, 1.0))
        if best is None or zoom > best[0] * (1 + 1e-6):
            best = (zoom, body, above)
    assert best is not None
    return best[1], best[2]


def _array_row(design: Design, arrays: list[Component], at: dict[str, tuple[float, float]],
               body: _Block, style: BoxStyle, sources: dict[str, list[str]],
               groups: list[ArrayGroup]) -> dict[str, tuple[float, float]]:
    """Arrays in a row above everything, each as near as it can be to the hosts (or the
    VMs' hosts) that reach it; the arrays of a group (:func:`array_groups`) together, in a
    block about as many across as down inside a box of ``style``, which the canvas draws as
    one item until zoomed in."""
    if not arrays:
        return {}
    reach = {a: [at[s][0] for s in hosts if s in at] for a, hosts in sources.items()}
    grouped = {a for g in groups for a in g.arrays}
    names = {c.id: c.name or c.id for c in design.components if c.kind == "cluster"}
    blocks: list[tuple[float, _Block]] = []
    for g in groups:
        xs = [x for a in g.arrays for x in reach[a]]
        width = style.width_for(group_band(g, lambda k: names.get(k, k)), "cluster")
        blocks.append((float(np.mean(xs)) if xs else body.w / 2,
                       _array_block(list(g.arrays), style, width)))
    for a in arrays:
        if a.id not in grouped:
            xs = reach[a.id]
            blocks.append((float(np.mean(xs)) if xs else body.w / 2, _leaf(a, {})))
    blocks.sort(key=lambda b: b[0])
    rows: list[list[tuple[float, _Block]]] = [[]]
    for want, b in blocks:  # rows no wider than what lies under them (one, for a testbed)
        row = rows[-1]
        if row and sum(r.w + GAP for _, r in row) + b.w > max(body.w, b.w):
            rows.append(row := [])
        row.append((want, b))
    bottom = -ARRAY_RISE
    out = {}
    for row in rows:
        total = sum(b.w for _, b in row) + GAP * (len(row) - 1)
        centre = float(np.mean([x for x, _ in row]))
        x = min(max(centre - total / 2, min(0.0, body.w - total)), max(0.0, body.w - total))
        for _, b in row:
            for cid, bx, by in b.items:
                out[cid] = (x + bx, bottom - b.h + by)
            x += b.w + GAP
        bottom -= max(b.h for _, b in row) + GAP
    return out


ARRAY_GAP = 16.0
"""Between two arrays of a group: closer than :data:`GAP`, so the group reads as one."""


def _array_block(ids: list[str], style: BoxStyle, width: float) -> _Block:
    """A group's arrays in a grid (about as many across as down) with a box's margins and
    name band round it, at least ``width`` wide."""
    w, h = SIZES["storage_array"]
    cols = max(1, math.ceil(math.sqrt(len(ids))))
    rows = -(-len(ids) // cols)
    items = [(cid, style.pad + w / 2 + (i % cols) * (w + ARRAY_GAP),
              style.pad + style.head + h / 2 + (i // cols) * (h + ARRAY_GAP))
             for i, cid in enumerate(ids)]
    return _Block(max(cols * (w + ARRAY_GAP) - ARRAY_GAP + 2 * style.pad, width),
                  rows * (h + ARRAY_GAP) - ARRAY_GAP + 2 * style.pad + style.head, items)


# --------------------------------------------------------------------------- room for one more
def top_level_rects(design: Design, held: Holdings | None = None,
                    cs: dict[str, Card] | None = None, skip: Iterable[str] = (),
                    at: dict[str, tuple[float, float]] | None = None
                    ) -> tuple[list[str], np.ndarray]:
    """Ids and rectangles (n x 4: left, top, right, bottom) of the items that must not
    overlap: host cards, arrays, libraries, empty boxes and VMs on no host (where they are,
    or where ``at`` puts them)."""
    held = held or holdings(design)
    cs = cs if cs is not None else cards(design, held)
    skip = set(skip)
    ids, rects = [], []
    for c in design.components:
        if c.id in skip or c.id in held.host_of or (c.kind in BOXES and held.containers[c.id]):
            continue
        x, y, w, h = rect_of(c, cs, at.get(c.id) if at is not None else None)
        ids.append(c.id)
        rects.append((x, y, x + w, y + h))
    return ids, np.array(rects, np.float64).reshape(-1, 4)


def free_spot(design: Design, size: tuple[float, float], near: tuple[float, float],
              header: bool = False, skip: Iterable[str] = ()) -> tuple[float, float]:
    """The position nearest ``near`` where an item of ``size`` (w, h) overlaps nothing
    (``header``: the position is the centre of a host card's header, as hosts store it)."""
    _, rects = top_level_rects(design, skip=skip)
    w, h = size[0] + GAP / 2, size[1] + GAP / 2
    dy = size[1] / 2 - HEAD_H / 2 if header else 0.0
    step = 20.0
    for ring in range(400):
        if ring == 0:
            cand = np.array([[0.0, 0.0]])
        else:
            k = np.arange(-ring, ring + 1, dtype=np.float64)
            edge = np.full_like(k, float(ring))
            cand = np.unique(np.concatenate([np.stack([k, -edge], 1), np.stack([k, edge], 1),
                                             np.stack([-edge, k], 1), np.stack([edge, k], 1)]),
                             axis=0)
            cand = cand[np.argsort(np.hypot(cand[:, 0], cand[:, 1]), kind="stable")]
        cx = near[0] + cand[:, 0] * step
        cy = near[1] + dy + cand[:, 1] * step
        if not len(rects):
            return (float(cx[0]), float(cy[0] - dy))
        x, y = cx[:, None], cy[:, None]
        hit = ((x - w / 2 < rects[None, :, 2]) & (x + w / 2 > rects[None, :, 0])
               & (y - h / 2 < rects[None, :, 3]) & (y + h / 2 > rects[None, :, 1]))
        free = np.flatnonzero(~hit.any(axis=1))
        if len(free):
            return (float(cx[free[0]]), float(cy[free[0]] - dy))
    return near


def overlaps(design: Design) -> int:
    """How many cards, arrays, libraries, empty boxes and VMs on no host overlap another
    (a sort and sweep along x: no pass over all pairs)."""
    _, r = top_level_rects(design)
    return len(overlapping(r))


def overlapping(rects: np.ndarray) -> set[int]:
    """Rows of ``rects`` (n x 4: left, top, right, bottom) that overlap another row."""
    order = np.argsort(rects[:, 0], kind="stable")
    r = rects[order]
    ends = np.searchsorted(r[:, 0], r[:, 2], side="left")  # rows starting before i ends
    hit: set[int] = set()
    for i in range(len(r)):
        j = np.arange(i + 1, ends[i])
        if not len(j):
            continue
        over = j[(r[j, 1] < r[i, 3]) & (r[j, 3] > r[i, 1]) & (r[j, 0] < r[i, 2])]
        if len(over):
            hit.add(int(order[i]))
            hit.update(int(k) for k in order[over])
    return hit


def layout_rects(design: Design) -> list[Rect]:
    """Every top-level item's rectangle (left, top, width, height), for tests and reports."""
    _, r = top_level_rects(design)
    return [(float(a), float(b), float(c - a), float(d - b)) for a, b, c, d in r]
