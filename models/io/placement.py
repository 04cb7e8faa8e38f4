"""Where a design's components sit on the canvas: the size of each card, and a layout that
never overlaps.  Qt-free and vectorised (numpy), so 50,000 VMs are placed in one pass.

What holds what:

- a **host card** holds its NICs (``installed_in``: a row of chips under the host's name) and
  its VMs (``runs_on``: a grid of pills under the chips); its position is the centre of its
  header, and it grows downwards and sideways with what it holds (:func:`card`);
- a **site** box holds the hosts (``located_at``) and content libraries (``library_at``) at
  that site, a **cluster** box holds its hosts (``in_cluster``); a box is drawn around what it
  holds (:func:`box_around`), so its own position only matters while it holds nothing.

Coordinates are canvas units (pixels at 100 % zoom), every position an item's centre.  The
engine ignores them.  :func:`arrange` lays a whole design out (an import, a goal-seek answer,
View > Arrange); :func:`free_spot` finds room for one new item near where it was dropped.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from models.document.design import Component, Design

VM_W, VM_H = 140.0, 20.0
VM_PITCH_X, VM_PITCH_Y = 146.0, 26.0
"""A VM pill and the distance between two pills of a host's grid."""
NIC_W, NIC_H = 84.0, 18.0
NIC_PITCH_X, NIC_PITCH_Y = 90.0, 24.0
HEAD_H = 64.0
"""The host card's header (name and hardware); the host's position is its centre."""
HOST_MIN_W = 220.0
"""Wide enough for "Dell PowerEdge R720" in the header's bold type at 100 %."""
PAD = 8.0
"""Inside a card, round its chips and pills."""
SIZES: dict[str, tuple[float, float]] = {
    "host": (HOST_MIN_W, HEAD_H), "vm": (VM_W, VM_H), "nic": (NIC_W, NIC_H),
    "storage_array": (240.0, 64.0), "site": (260.0, 140.0), "cluster": (240.0, 120.0),
    "content_library": (260.0, 60.0),
}
"""(width, height) of each kind's item; for a host its header, for a site or cluster its
box while it holds nothing."""


@dataclass(frozen=True)
class BoxStyle:
    pad: float
    """Space between the box and the cards it holds."""
    head: float
    """Band above the cards for the box's name."""


BOXES: dict[str, BoxStyle] = {"site": BoxStyle(22.0, 34.0), "cluster": BoxStyle(12.0, 28.0)}
"""Container kinds: a site's margin is wider than a cluster's so a cluster drawn inside a
site never touches the site's edge."""
MEMBER_LINKS: dict[str, str] = {"located_at": "site", "library_at": "site",
                                "in_cluster": "cluster"}
"""Link kinds that put their source inside a container box (the target's kind)."""
DOCK_LINKS: dict[str, str] = {"runs_on": "vm", "installed_in": "nic"}
"""Link kinds that put their source (a VM or NIC) on a host card."""
GAP = 40.0
"""Between two cards, and between two boxes, laid out side by side."""
ASPECT = 3.0
"""Width / height a layout aims at (the canvas between the docks is about 2.4 times as wide
as tall at 1366 x 768, twice at 1600 x 1000)."""

Rect = tuple[float, float, float, float]
"""(left, top, width, height)."""


def vm_columns(n: int) -> int:
    """Columns of a host's VM grid for ``n`` VMs: about 2.5 times as wide as tall on screen
    (one column for one or two VMs)."""
    if n <= 2:
        return 1 if n else 0
    return max(1, math.ceil(math.sqrt(n * 2.5 * VM_PITCH_Y / VM_PITCH_X)))


@dataclass(frozen=True)
class Card:
    """A host card's geometry, relative to the host's position (its header's centre)."""

    n_nics: int
    n_vms: int
    width: float
    height: float
    nic_cols: int
    vm_cols: int
    nic_top: float
    """Centre of the first row of NIC chips."""
    vm_top: float
    """Centre of the first row of VM pills."""

    @property
    def rect(self) -> Rect:
        return (-self.width / 2, -HEAD_H / 2, self.width, self.height)

    def nic_offset(self, i: int) -> tuple[float, float]:
        col, row = i % self.nic_cols, i // self.nic_cols
        return (-self.width / 2 + PAD + NIC_W / 2 + col * NIC_PITCH_X,
                self.nic_top + row * NIC_PITCH_Y)

    def vm_offset(self, i: int) -> tuple[float, float]:
        col, row = i % self.vm_cols, i // self.vm_cols
        return ((col - (self.vm_cols - 1) / 2) * VM_PITCH_X, self.vm_top + row * VM_PITCH_Y)

    @property
    def vm_rows(self) -> int:
        return -(-self.n_vms // self.vm_cols) if self.vm_cols else 0

    @property
    def vm_area(self) -> Rect:
        """Where the VM pills are, with a margin of half a gap (empty without VMs); at least
        two rows high, so that far out there is room to count them."""
        if not self.n_vms:
            return (0.0, 0.0, 0.0, 0.0)
        w = self.vm_cols * VM_PITCH_X
        top = self.vm_top - VM_PITCH_Y / 2
        return (-w / 2, top, w, max(2, self.vm_rows) * VM_PITCH_Y)

    def vm_range(self, left: float, top: float, right: float, bottom: float) -> range | None:
        """The rows of VM indices whose pills may meet the rectangle (relative to the host),
        as a range of rows; None when it misses the VM grid."""
        ax, ay, aw, ah = self.vm_area
        if not self.n_vms or right < ax or left > ax + aw or bottom < ay or top > ay + ah:
            return None
        r0 = max(0, int((top - ay) // VM_PITCH_Y))
        r1 = min(self.vm_rows - 1, int((bottom - ay) // VM_PITCH_Y))
        if r0 > r1:
            return None
        return range(r0, r1 + 1)

    def vm_at(self, dx: float, dy: float) -> int | None:
        """The index of the VM whose slot holds (dx, dy), relative to the host; None."""
        ax, ay, aw, ah = self.vm_area
        if not self.n_vms or not (ax <= dx < ax + aw and ay <= dy < ay + ah):
            return None
        i = int((dy - ay) // VM_PITCH_Y) * self.vm_cols + int((dx - ax) // VM_PITCH_X)
        return i if i < self.n_vms else None


def card(n_nics: int, n_vms: int) -> Card:
    """The card of a host holding ``n_nics`` NICs and ``n_vms`` VMs."""
    cols = vm_columns(n_vms)
    width = max(HOST_MIN_W, cols * VM_PITCH_X - (VM_PITCH_X - VM_W) + 2 * PAD)
    nic_cols = max(1, int((width - 2 * PAD + NIC_PITCH_X - NIC_W) // NIC_PITCH_X))
    nic_rows = -(-n_nics // nic_cols)
    y = HEAD_H / 2
    nic_top = y + 4 + NIC_H / 2
    if nic_rows:
        y += 4 + nic_rows * NIC_PITCH_Y - (NIC_PITCH_Y - NIC_H)
    vm_top = y + 6 + VM_PITCH_Y / 2
    if n_vms:
        y += 6 + max(2, -(-n_vms // cols)) * VM_PITCH_Y
    return Card(n_nics, n_vms, width, y + PAD + HEAD_H / 2, nic_cols, cols, nic_top, vm_top)


def box_around(rects: Iterable[Rect], kind: str) -> Rect | None:
    """The box of a ``kind`` container holding cards at ``rects`` (None when empty)."""
    style = BOXES.get(kind, BoxStyle(PAD, 24.0))
    left = top = math.inf
    right = bottom = -math.inf
    for x, y, w, h in rects:
        left, top = min(left, x), min(top, y)
        right, bottom = max(right, x + w), max(bottom, y + h)
    if left == math.inf:
        return None
    return (left - style.pad, top - style.pad - style.head, right - left + 2 * style.pad,
            bottom - top + 2 * style.pad + style.head)


# --------------------------------------------------------------------------- what holds what
@dataclass
class Holdings:
    """What holds what in a design, read once from its links."""

    host_of: dict[str, str]
    """Docked VM or NIC -> its host."""
    vms: dict[str, list[str]]
    """Host -> its VMs, in design order."""
    nics: dict[str, list[str]]
    containers: dict[str, list[str]]
    """Site or cluster -> the hosts and libraries it holds, in design order."""
    member_of: dict[str, list[str]]
    """Host or library -> the sites and clusters holding it."""


def holdings(design: Design) -> Holdings:
    kind = {c.id: c.kind for c in design.components}
    h = Holdings({}, {c.id: [] for c in design.components if c.kind == "host"},
                 {c.id: [] for c in design.components if c.kind == "host"},
                 {c.id: [] for c in design.components if c.kind in BOXES}, {})
    for lk in design.links:
        if lk.kind in DOCK_LINKS and kind.get(lk.target) == "host" \
                and kind.get(lk.source) == DOCK_LINKS[lk.kind] and lk.source not in h.host_of:
            h.host_of[lk.source] = lk.target
            (h.vms if lk.kind == "runs_on" else h.nics)[lk.target].append(lk.source)
        elif lk.kind in MEMBER_LINKS and kind.get(lk.target) == MEMBER_LINKS[lk.kind] \
                and lk.source in kind:
            h.containers[lk.target].append(lk.source)
            h.member_of.setdefault(lk.source, []).append(lk.target)
    return h


def cards(design: Design, held: Holdings | None = None) -> dict[str, Card]:
    """Every host's card."""
    held = held or holdings(design)
    return {hid: card(len(held.nics[hid]), len(held.vms[hid])) for hid in held.vms}


def size_of(comp: Component, cards_: dict[str, Card]) -> tuple[float, float]:
    """(width, height) of a top-level item (a host: its whole card)."""
    if comp.kind == "host" and comp.id in cards_:
        c = cards_[comp.id]
        return c.width, c.height
    return SIZES.get(comp.kind, (100.0, 40.0))


def rect_of(comp: Component, cards_: dict[str, Card]) -> Rect:
    """Where a top-level item is (a host: its whole card, from the header's centre)."""
    w, h = size_of(comp, cards_)
    top = comp.y - HEAD_H / 2 if comp.kind == "host" else comp.y - h / 2
    return (comp.x - w / 2, top, w, h)


def docked_positions(design: Design, held: Holdings | None = None,
                     at: dict[str, tuple[float, float]] | None = None
                     ) -> dict[str, tuple[float, float]]:
    """Where every docked VM and NIC sits: on its host's card (hosts at ``at``, or at their
    own positions).  Vectorised: one pass of numpy over all the VMs."""
    held = held or holdings(design)
    at = at or {}
    out: dict[str, tuple[float, float]] = {}
    by_id = {c.id: c for c in design.components}
    hosts = list(held.vms)
    if not hosts:
        return out
    pos = np.array([at.get(h, (by_id[h].x, by_id[h].y)) for h in hosts], np.float64)
    cs = [card(len(held.nics[h]), len(held.vms[h])) for h in hosts]
    for key, offset in (("vms", "vm"), ("nics", "nic")):
        lists = held.vms if key == "vms" else held.nics
        counts = np.array([len(lists[h]) for h in hosts], np.int64)
        if not counts.sum():
            continue
        host_row = np.repeat(np.arange(len(hosts)), counts)
        rank = np.arange(len(host_row)) - np.repeat(np.cumsum(counts) - counts, counts)
        if offset == "vm":
            cols = np.array([c.vm_cols for c in cs], np.int64)[host_row]
            top = np.array([c.vm_top for c in cs])[host_row]
            dx = (rank % cols - (cols - 1) / 2) * VM_PITCH_X
            dy = top + (rank // cols) * VM_PITCH_Y
        else:
            cols = np.array([c.nic_cols for c in cs], np.int64)[host_row]
            width = np.array([c.width for c in cs])[host_row]
            top = np.array([c.nic_top for c in cs])[host_row]
            dx = -width / 2 + PAD + NIC_W / 2 + (rank % cols) * NIC_PITCH_X
            dy = top + (rank // cols) * NIC_PITCH_Y
        xs = (pos[host_row, 0] + dx).tolist()
        ys = (pos[host_row, 1] + dy).tolist()
        ids = [cid for h in hosts for cid in lists[h]]
        out.update(zip(ids, zip(xs, ys, strict=True), strict=True))
    return out
