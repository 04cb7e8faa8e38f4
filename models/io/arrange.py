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
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np

from models.document.design import Component, Design
from models.io.placement import (
    ASPECT,
    BOXES,
    GAP,
    HEAD_H,
    NO_CLUSTER,
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
    fit_zoom,
    group_width,
    holdings,
    host_widths,
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


def _shelf(blocks: list[_Block], max_w: float, gap: float = GAP, sized: bool = False
           ) -> _Block:
    """Blocks in rows, left to right, a new row when the next would pass ``max_w``
    (``sized``: its size alone, without placing what the blocks hold: a width tried)."""
    x = y = row_h = width = 0.0
    out: list[tuple[str, float, float]] = []
    for b in blocks:
        if x > 0 and x + b.w > max_w:
            x, y, row_h = 0.0, y + row_h + gap, 0.0
        if not sized:
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
        trial = _shelf(blocks, w + 0.5, sized=True)
        scored.append((abs(math.log(max(trial.w, 1.0) / max(trial.h, 1.0) / aspect)), w))
    best = min(scored, key=lambda t: (round(t[0], 6), -t[1]))[1]  # a tie: the wider
    return _shelf(blocks, best + 0.5)


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
    groups = array_groups(design, held)
    styles = layout_styles(design, held, cards(design, held), groups)
    cs = cards(design, held, host_widths(design, styles))
    return _arranged(design, held, cs, styles, groups=groups)


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
    zoom of a layout made with the styles before (the name bands they size take room, and
    the cards as wide as their names need there: :func:`~models.io.placement.host_widths`,
    which reads that zoom from ``styles["host"]``, a design with boxes only).  A
    design without boxes keeps the guess (its groups of arrays at most), or
    :data:`~models.io.placement.BOXES` without groups either: nothing to lay out again (a
    50,000-VM design opens without a layout).  ``groups``: the design's
    :func:`~models.io.placement.array_groups`, when the caller has them."""
    held = held or holdings(design)
    cs = cs if cs is not None else cards(design, held)
    groups = array_groups(design, held) if groups is None else groups
    if not held.containers:  # no box: a group of arrays at most, which the guess sizes
        return box_styles(fit_zoom(covered_area(design, cs))) if groups else dict(BOXES)
    zoom = fit_zoom(covered_area(design, cs))
    styles = box_styles(zoom)
    for _ in range(3):  # the guess, then the layout its styles make (their bands take room,
        # and its cards as much as their names need)
        wide = cards(design, held, host_widths(design, {**styles, "host": BoxStyle(0, 0, zoom)}))
        size: list[float] = []
        _arranged(design, held, wide, styles, docked=False, groups=groups, extent=size)
        zoom = FITTED * min(REFERENCE_CANVAS / max(size[0], 1.0),
                            REFERENCE_HEIGHT / max(size[1], 1.0))
        styles = box_styles(zoom)
    styles["host"] = BoxStyle(0.0, 0.0, zoom)  # the zoom the hosts' names are sized for
    return styles


def _arranged(design: Design, held: Holdings, cs: dict[str, Card],
              styles: dict[str, BoxStyle], docked: bool = True,
              groups: list[ArrayGroup] | None = None, extent: list[float] | None = None
              ) -> dict[str, tuple[float, float]]:
    """:func:`arrange` with the boxes in ``styles`` (without the VMs and NICs on cards unless
    ``docked``; ``groups``: the design's array groups, when known; ``extent``, when given,
    gets the width and height of the whole, boxes and arrays included)."""
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
    holders = [c for c in own if c.kind in ("host", "content_library")]
    packed: dict[tuple[str, float], _Block] = {}

    def cluster_block(k: Component, aspect: float) -> _Block:
        if (k.id, aspect) not in packed:  # the costly part: each cluster once per aspect
            members = [_leaf(by_id[m], cs) for m in held.containers[k.id]]
            packed[k.id, aspect] = _boxed(_packed(members, aspect), k, styles)
        return packed[k.id, aspect]

    def free_members(site_id: str) -> list[Component]:
        return [c for c in holders if site_of[c.id] == site_id
                and (not cluster_of[c.id] or cluster_site.get(cluster_of[c.id]) is None)]

    peopled = sum(1 for s in sites if held.containers[s.id])

    def tops(inner_aspect: float, cluster_aspect: float) -> list[tuple[str, _Block]]:
        """The top-level blocks (sites, clusters at no site, hosts in neither), by id."""
        out = []
        for s in sites:
            inner = [cluster_block(k, cluster_aspect) for k in clusters
                     if cluster_site[k.id] == s.id]
            inner += [_leaf(m, cs) for m in free_members(s.id)]
            out.append((s.id, _boxed(_packed(inner, inner_aspect), s, styles)))
        out += [(k.id, cluster_block(k, cluster_aspect)) for k in clusters
                if cluster_site[k.id] == ""]
        out += [(m.id, _leaf(m, cs)) for m in free_members("")]
        return out

    rest: list[_Block] = []
    loose = [c.id for c in own if c.kind == "vm"]
    if loose:
        rest.append(_grid(loose))
    arrays = [c for c in own if c.kind == "storage_array"]
    first = tops(max(1.2, ASPECT / max(1, min(4, peopled))), ASPECT)  # sites side by side
    placed = {cid for _, b in first for cid, _, _ in b.items} | set(loose)
    rest += [_leaf(c, cs) for c in own if c.id not in placed and c.kind != "storage_array"]
    groups = (array_groups(design, held) if groups is None else groups) if arrays else []
    if groups or (not arrays and held.containers):  # an estate: its datastores (grouped)
        # beside the clusters they serve, the whole shaped to fill the canvas
        homes = _storage_homes(design, arrays, groups, held, cluster_of, site_of, cluster_site,
                               styles["cluster"])
        shapes = [(0.0, 0.0)] if len(held.vms) > BESIDE_SEARCH_HOSTS else \
            [(a, c) for c in CLUSTER_ASPECTS for a in (INNER_ASPECTS if peopled else (1.0,))]
        body = _beside(first, tops, rest, homes, styles["cluster"], shapes)
        out = {cid: (x, y) for cid, x, y in body.items}
        size = [body.w, body.h]
    else:
        body, above = _with_arrays(design, [b for _, b in first] + rest, arrays, held,
                                   styles["cluster"], groups)
        out = {cid: (x, y) for cid, x, y in body.items}
        out.update(above)
        size = [body.w, body.h + _rise(above)]
    if extent is not None:
        extent[:] = size
    if docked:
        out.update(docked_positions(design, held, out, cs))
    return out


FITTED = 0.97
"""The share of the zoom at which a layout fits the reference canvas that the view's fit
gives it (its margins round the items)."""
BESIDE_SEARCH_HOSTS = 400
"""Up to this many hosts the layout of an estate tries a few shapes of its sites and clusters
and keeps the one that fits the canvas at the largest zoom (its cards' names read largest);
beyond it, one shape."""
INNER_ASPECTS = (1.0, 1.5, 2.2, 3.0, 4.5)
"""Width / height tried for what a site holds."""
CLUSTER_ASPECTS = (2.0, ASPECT, 4.5)
"""... and for a cluster's cards."""


@dataclass
class _Storage:
    """Arrays that go together beside the clusters they serve: a group's, or one array."""

    ids: list[str]
    width: float = 0.0
    """A group's least width (:func:`models.io.placement.group_width`); 0 for one array."""
    reach: tuple[str, ...] = ()
    """The clusters it serves (a group's), to stand level with them."""


def _storage_homes(design: Design, arrays: list[Component], groups: list[ArrayGroup],
                   held: Holdings, cluster_of: dict[str, str], site_of: dict[str, str],
                   cluster_site: dict[str, str | None], style: BoxStyle
                   ) -> dict[str, list[_Storage]]:
    """Each group of arrays (and each array in none) under the id of the top-level block
    (site, cluster at no site, host) whose clusters or hosts alone reach it, or under ""
    where several do (shared storage, a block of its own)."""
    names = {c.id: c.name or c.id for c in design.components if c.kind == "cluster"}

    def top_of_cluster(k: str) -> str | None:
        where = cluster_site.get(k)
        return None if where is None else where or k

    def top_of_host(h: str) -> str | None:
        k = cluster_of.get(h, "")
        if k:
            return top_of_cluster(k)
        return site_of.get(h, "") or h

    homes: dict[str, list[_Storage]] = {}
    for g in groups:
        where = {top_of_cluster(k) if k != NO_CLUSTER else None for k in g.reach}
        home = where.pop() if len(where) == 1 else None
        homes.setdefault(home or "", []).append(
            _Storage(list(g.arrays), group_width(g, lambda k: names.get(k, k), style), g.reach))
    grouped = {a for g in groups for a in g.arrays}
    single = {a.id for a in arrays if a.id not in grouped}
    reach: dict[str, set[str | None]] = {a: set() for a in single}
    for lk in design.links if single else ():
        if lk.kind == "storage" and lk.target in reach:
            reach[lk.target].add(top_of_host(lk.source))
    for lk in design.links if any(not r for r in reach.values()) else ():
        if lk.kind == "disk_on" and lk.target in reach and not reach[lk.target] \
                and (h := held.host_of.get(lk.source)) is not None:
            reach[lk.target].add(top_of_host(h))
    for a in arrays:
        if a.id in single:
            where = reach[a.id]
            home = where.pop() if len(where) == 1 else None
            homes.setdefault(home or "", []).append(_Storage([a.id]))
    return homes


def _beside(first: list[tuple[str, _Block]],
            tops: Callable[[float, float], list[tuple[str, _Block]]], rest: list[_Block],
            homes: dict[str, list[_Storage]], style: BoxStyle,
            shapes: list[tuple[float, float]]) -> _Block:
    """The top-level blocks, each with the storage only its clusters reach in a column at
    its right, and the storage several reach in a block of its own, packed to fill the
    reference canvas: of the ``shapes`` of the sites and clusters tried (what a site holds,
    a cluster's cards: width / height; (0, 0): ``first``'s), the one that fits it at the
    largest zoom."""
    best: tuple[float, _Block] | None = None
    for inner, cluster in shapes:
        blocks = first if not inner else tops(inner, cluster)
        whole = [_with_storage(b, homes.get(tid, []), style) for tid, b in blocks]
        if homes.get(""):  # what several reach: a column of its own
            whole.append(_with_storage(_Block(0.0, 0.0), homes[""], style))
        body = _filled(whole + rest)
        zoom = min(REFERENCE_CANVAS / max(body.w, 1.0), REFERENCE_HEIGHT / max(body.h, 1.0))
        if best is None or zoom > best[0] * (1 + 1e-6):
            best = (zoom, body)
    assert best is not None
    return best[1]


def _with_storage(block: _Block, units: list[_Storage], style: BoxStyle) -> _Block:
    """``block`` with ``units`` in a column at its right, each level with the clusters it
    serves where there is room; a group's arrays in as many columns as keep the column
    within the block's height (at least as many as its name band's width holds)."""
    if not units:
        return block
    w, h = SIZES["storage_array"]
    total = sum(len(u.ids) for u in units)
    centres = {cid: y for cid, _, y in block.items}
    lefts = {cid: x for cid, x, _ in block.items}
    placed: list[tuple[float, float, _Block]] = []
    for u in units:
        if not u.width:
            b = _leaf_array(u.ids[0])
        else:
            width = u.width
            free = max(1, int((width - 2 * style.pad + ARRAY_GAP) // (w + ARRAY_GAP)))
            share = block.h * len(u.ids) / total - GAP
            rows = max(1, int((share - 2 * style.pad - style.head + ARRAY_GAP)
                              // (h + ARRAY_GAP)))
            cols = min(len(u.ids), max(free, -(-len(u.ids) // rows)))
            b = _array_block(u.ids, style, width, cols)
        ys = [centres[k] for k in u.reach if k in centres]
        xs = [x for k, x in lefts.items() if k in u.reach]
        centre = sum(ys) / len(ys) if ys else b.h / 2
        placed.append((centre, -max(xs, default=0.0), b))
    placed.sort(key=lambda t: t[:2])  # level with the clusters, the nearer first
    x0 = block.w + GAP if block.items else 0.0
    items = list(block.items)
    y = 0.0
    col_w = max(b.w for _, _, b in placed)
    for centre, _, b in placed:
        y = max(y, min(centre - b.h / 2, block.h - b.h))
        items.extend((cid, x0 + bx, y + by) for cid, bx, by in b.items)
        y += b.h + GAP
    return _Block(x0 + col_w, max(block.h, y - GAP), items)


def _leaf_array(aid: str) -> _Block:
    w, h = SIZES["storage_array"]
    return _Block(w, h, [(aid, w / 2, h / 2)])


def _filled(blocks: list[_Block]) -> _Block:
    """Blocks in rows, of the row widths tried (as :func:`_packed`'s), the one that fits
    the reference canvas at the largest zoom (a tie: the wider)."""
    if not blocks:
        return _Block(0.0, 0.0)
    aspect = REFERENCE_CANVAS / REFERENCE_HEIGHT
    area = sum((b.w + GAP) * (b.h + GAP) for b in blocks)
    widest = max(b.w for b in blocks)
    guess = max(widest, math.sqrt(area * aspect))
    widths = {guess, widest, sum(b.w + GAP for b in blocks) - GAP}
    x = -GAP
    for b in blocks[:40]:
        x += b.w + GAP
        widths.add(max(widest, x))
    widths.update(max(widest, guess * f) for f in (0.5, 0.6, 0.75, 0.9, 1.1, 1.3, 1.6, 2.0))
    best: tuple[float, float] | None = None
    for wd in sorted(widths):
        trial = _shelf(blocks, wd + 0.5, sized=True)
        zoom = min(REFERENCE_CANVAS / max(trial.w, 1.0), REFERENCE_HEIGHT / max(trial.h, 1.0))
        if best is None or zoom >= best[0] * (1 - 1e-9):
            best = (zoom, wd)
    assert best is not None
    return _shelf(blocks, best[1] + 0.5)


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
        # the zoom at which it all fits the canvas the boxes' names are sized for
        zoom = min(REFERENCE_CANVAS / max(body.w, 1.0),
                   REFERENCE_HEIGHT / max(body.h + _rise(above), 1.0))
        if best is None or zoom > best[0] * (1 + 1e-6):
            best = (zoom, body, above)
    assert best is not None
    return best[1], best[2]


def _rise(above: dict[str, tuple[float, float]]) -> float:
    """How far the row of arrays at ``above`` rises over what lies under it."""
    return (max(0.0, -min(y for _, y in above.values())) + SIZES["storage_array"][1] / 2
            if above else 0.0)


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
        width = group_width(g, lambda k: names.get(k, k), style)
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


def _array_block(ids: list[str], style: BoxStyle, width: float, cols: int = 0) -> _Block:
    """A group's arrays in a grid (``cols`` across; by default about as many across as
    down) with a box's margins and name band round it, at least ``width`` wide."""
    w, h = SIZES["storage_array"]
    cols = cols or max(1, math.ceil(math.sqrt(len(ids))))
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
    """How many cards, arrays, libraries, empty boxes and VMs on no host overlap another, at
    the widths the canvas draws them (:func:`models.io.placement.host_widths`: a design laid
    out before far-out cards were widened for their names overlaps now) (a sort and sweep
    along x: no pass over all pairs)."""
    held = holdings(design)
    widths = host_widths(design, layout_styles(design, held))
    _, r = top_level_rects(design, held, cards(design, held, widths))
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
