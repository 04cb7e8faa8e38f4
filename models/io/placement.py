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
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from models.document.design import Component, Design
from models.document.numbers import counted
from models.document.words import host_affixes, kind_count, short_name

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
    fit: float = 0.0
    """The zoom its name is sized for (:func:`box_styles`); 0: none, the box is as wide as
    what it holds."""

    def width_for(self, name: str, kind: str) -> float:
        """The least width of a box of this style for its ``name`` to read whole at its
        :attr:`fit` (:data:`NAME_EM` a character in the canvas's bold type)."""
        if not self.fit:
            return 0.0
        return len(name) * NAME_EM * CAPTION_PX.get(kind, 13.0) / self.fit + 20.0


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


def card(n_nics: int, n_vms: int, least: float = HOST_MIN_W) -> Card:
    """The card of a host holding ``n_nics`` NICs and ``n_vms`` VMs, at least ``least``
    wide (:func:`host_widths`: an estate's host with a long name and few VMs)."""
    cols = vm_columns(n_vms)
    width = max(least, cols * VM_PITCH_X - (VM_PITCH_X - VM_W) + 2 * PAD)
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


def box_around(rects: Iterable[Rect], kind: str, style: BoxStyle | None = None,
               width: float = 0.0) -> Rect | None:
    """The box of a ``kind`` container holding cards at ``rects`` (None when empty), in its
    ``style`` (by default its kind's in :data:`BOXES`; :func:`box_styles` for a large
    design), at least ``width`` wide (:meth:`BoxStyle.width_for`: room for its name)."""
    style = style or BOXES.get(kind, BoxStyle(PAD, 24.0))
    left = top = math.inf
    right = bottom = -math.inf
    for x, y, w, h in rects:
        left, top = min(left, x), min(top, y)
        right, bottom = max(right, x + w), max(bottom, y + h)
    if left == math.inf:
        return None
    return (left - style.pad, top - style.pad - style.head,
            max(right - left + 2 * style.pad, width), bottom - top + 2 * style.pad + style.head)


# --------------------------------------------------------------------------- captions at fit
REFERENCE_CANVAS, REFERENCE_HEIGHT = 750.0, 305.0
"""The canvas between the docks at 1366 x 768, pixels: the fit a design's box captions are
sized for."""
BOXED = 0.92
"""The share of a fit's zoom left once the boxes round the cards are counted."""
FILL = 0.4
"""About the share of a laid-out design's extent its cards and arrays cover (the rest is
gaps, box margins and the ends of rows)."""
CAPTION_PX: dict[str, float] = {"site": 14.0, "cluster": 13.0}
"""A box's name on screen at fit, pixels: larger than a host's name (at least 11 px)."""
LEAST_PX = 11.0
"""A name's least size on screen, pixels (a host's, on the canvas)."""
NAME_EM = 0.8
"""A character of a box's name, in ems: a little over bold sans serif's widest average (a
name of capitals, "CL02-DMZ")."""
COUNT_PX = 11.0
"""The count beside it ("22 hosts · HA N+1 · DRS on")."""
TITLE_SHARE, COUNT_SHARE = 0.8, 0.6
"""The shares of a box's name band its name and its count take (the canvas draws them so)."""


def fit_zoom(area: float) -> float:
    """About the zoom at which a design whose cards and arrays cover ``area`` (square canvas
    units) fits :data:`REFERENCE_CANVAS`, laid out :data:`ASPECT` times as wide as tall."""
    return REFERENCE_CANVAS / math.sqrt(max(area, 1.0) / FILL * ASPECT)


def extent_zoom(rects: np.ndarray) -> float:
    """The zoom at which items at ``rects`` (n x 4: left, top, right, bottom) fit
    :data:`REFERENCE_CANVAS`, their boxes' margins and bands allowed for."""
    if not len(rects):
        return 1.0
    w = float(rects[:, 2].max() - rects[:, 0].min())
    h = float(rects[:, 3].max() - rects[:, 1].min())
    return BOXED * min(REFERENCE_CANVAS / max(w, 1.0), REFERENCE_HEIGHT / max(h, 1.0))


def box_styles(lod: float) -> dict[str, BoxStyle]:
    """Each container kind's style for a design that fits :data:`REFERENCE_CANVAS` at zoom
    ``lod`` (:func:`fit_zoom`, :func:`extent_zoom`): its name band tall enough for its name at
    :data:`CAPTION_PX` and its count at :data:`COUNT_PX` there (an estate of 30 hosts: 120
    units instead of 28), and boxes wide enough for their names; :data:`BOXES`' where its
    name reads at :data:`LEAST_PX` there already (a testbed keeps its layout)."""
    out = {}
    for kind, st in BOXES.items():
        if (st.head + st.pad - 6.0) * TITLE_SHARE * lod >= LEAST_PX:  # it reads already
            out[kind] = st
            continue
        band = max(CAPTION_PX[kind] / TITLE_SHARE, COUNT_PX / COUNT_SHARE) / lod
        head = band - st.pad + 6.0  # the band is the head and the pad less a margin
        out[kind] = BoxStyle(st.pad, 4.0 * math.ceil(head / 4.0), lod) if head > st.head \
            else st
    return out


def covered_area(design: Design, cards_: dict[str, Card]) -> float:
    """The area the design's host cards, arrays and libraries cover (square units)."""
    area = sum(c.width * c.height for c in cards_.values())
    for comp in design.components:
        if comp.kind in ("storage_array", "content_library"):
            w, h = SIZES[comp.kind]
            area += w * h
    return area


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


GROUP_ARRAYS = 6
"""A design with more storage arrays than this draws the arrays the same clusters reach as one
item, with their count, until zoomed in (an estate's datastores: 37 chips and a fan of lines
across the canvas otherwise); hosts' local disks (``local`` arrays) apart from the shared
arrays."""
NO_CLUSTER = ""
"""In a group's reach: hosts in no cluster."""


@dataclass(frozen=True)
class ArrayGroup:
    """Storage arrays reached by the same clusters' hosts, drawn as one item far out."""

    id: str
    arrays: tuple[str, ...]
    reach: tuple[str, ...]
    """The clusters whose hosts reach them (design order; :data:`NO_CLUSTER` for hosts in no
    cluster); empty when no host does."""
    local: bool = False
    """Hosts' local disks (arrays marked ``local``), never drawn among the shared arrays."""


def group_band(group: ArrayGroup, name_of: Callable[[str], str]) -> str:
    """What a group's box is kept wide enough for: its title, and its count where it serves
    many clusters (one such group stands alone above them, too small for a count inside)."""
    title = group_title(group, name_of)
    if len(group.reach) <= 2:
        return title
    return f"{title} · {group_count(group)}"


COUNT_EM = 0.55
"""A character of a group's count in the canvas's regular type, in ems (measured: "8 hosts'
local disks" is 103 px at 11 px)."""


def group_width(group: ArrayGroup, name_of: Callable[[str], str], style: BoxStyle) -> float:
    """The least width of a group's box: its name band's (:func:`group_band`) at the
    style's fit, and room for its count on one line at :data:`COUNT_PX` under it (far out
    the box says "8 hosts' local disks" in its body)."""
    if not style.fit:
        return 0.0
    count = len(group_count(group)) * COUNT_EM * COUNT_PX / style.fit + 2 * style.pad + 20.0
    return max(style.width_for(group_band(group, name_of), "cluster"), count)


def group_count(group: ArrayGroup) -> str:
    """What a group holds, counted: "5 storage arrays", or "12 hosts' local disks" for hosts'
    local storage (which its count, not its title, tells apart: a longer title would widen
    the box and the row of arrays above the hosts)."""
    n = len(group.arrays)
    if group.local:
        return counted(n, "host's local disks", "hosts' local disks")
    return kind_count("storage_array", n)


def group_title(group: ArrayGroup, name_of: Callable[[str], str]) -> str:
    """What a group serves, in words: "Cluster1", "Cluster1 and DMZ", "41 clusters"."""
    names = [name_of(k) if k != NO_CLUSTER else "hosts in no cluster" for k in group.reach]
    if not names:
        return "reached by no host"
    if len(names) <= 2:
        return " and ".join(names)
    return counted(len(names), "cluster")


def array_groups(design: Design, held: Holdings | None = None) -> list[ArrayGroup]:
    """The groups of :data:`GROUP_ARRAYS`-or-more arrays' designs: each set of arrays that
    the same clusters reach (a host's ``storage`` links; for an array no host links to, the
    hosts of the VMs whose disks are on it), hosts' local disks (``local``) a set apart from
    the shared arrays, in design order; an array alone in its set is no group."""
    arrays = [c.id for c in design.components if c.kind == "storage_array"]
    if len(arrays) <= GROUP_ARRAYS:
        return []
    local = {c.id for c in design.components if c.kind == "storage_array" and c.get("local")}
    held = held or holdings(design)
    clusters = {c.id: i for i, c in enumerate(design.components) if c.kind == "cluster"}
    cluster_of = {m: next((b for b in boxes if b in clusters), NO_CLUSTER)
                  for m, boxes in held.member_of.items()}
    reach: dict[str, set[str]] = {a: set() for a in arrays}
    hosts = held.vms  # every host, by id
    for lk in design.links:
        if lk.kind == "storage" and lk.target in reach and lk.source in hosts:
            reach[lk.target].add(cluster_of.get(lk.source, NO_CLUSTER))
    unreached = {a for a, r in reach.items() if not r}
    if unreached:  # no storage links drawn to them: the hosts of the VMs with disks there
        for lk in design.links:
            if lk.kind == "disk_on" and lk.target in unreached \
                    and (host := held.host_of.get(lk.source)) is not None:
                reach[lk.target].add(cluster_of.get(host, NO_CLUSTER))
    by_reach: dict[tuple[bool, tuple[str, ...]], list[str]] = {}
    for a in arrays:
        key = tuple(sorted(reach[a], key=lambda k: clusters.get(k, -1)))
        by_reach.setdefault((a in local, key), []).append(a)
    return [ArrayGroup("group:" + ("local:" if own else "")
                       + ("+".join(k or "no cluster" for k in key) or "unreached"),
                       tuple(members), key, own)
            for (own, key), members in by_reach.items() if len(members) > 1]


def cards(design: Design, held: Holdings | None = None,
          widths: dict[str, float] | None = None) -> dict[str, Card]:
    """Every host's card (at least as wide as ``widths`` says, :func:`host_widths`)."""
    held = held or holdings(design)
    widths = widths or {}
    return {hid: card(len(held.nics[hid]), len(held.vms[hid]), widths.get(hid, HOST_MIN_W))
            for hid in held.vms}


HOST_EM = 0.6
"""A character of a host's name far out, in ems of the canvas's semi-condensed bold type
(measured: "prod1-01" is 50 px at 11 px, 0.57; a digit is 0.61)."""
NAME_SLACK = 0.9
"""The cards are sized for their names at this share of the zoom the layout expects to fit
at (their own width lowers it a little)."""
HOST_MAX_W = 4 * HOST_MIN_W
"""The widest a card grows for its name (a longer name is cut in the middle)."""


def host_widths(design: Design, styles: dict[str, BoxStyle]) -> dict[str, float]:
    """The least width of each host card whose name, as the canvas shows it (without the
    start and domain every host shares, :func:`models.document.words.host_affixes`), would
    not read whole at :data:`LEAST_PX` at the zoom the design fits at (``styles["host"]``,
    :func:`models.io.arrange.layout_styles`) on a card of :data:`HOST_MIN_W`: an estate's
    host with a few VMs ("vmsp-02" was cut to "…p-02").  Empty where the styles give no
    such zoom (a testbed, a design without boxes)."""
    fit = styles["host"].fit * NAME_SLACK if "host" in styles else 0.0
    if not fit or HEAD_H * TITLE_SHARE * fit >= LEAST_PX:  # the header holds the name (in two
        return {}  # lines where it is long): a testbed's cards keep their widths
    hosts = design.of_kind("host")
    prefix, suffix = host_affixes([c.name for c in hosts])
    out = {}
    for c in hosts:
        shown = len(short_name(c.name or c.id, suffix, prefix))
        w = shown * HOST_EM * LEAST_PX / fit + 8.0 + 2.0 / fit  # its insets, a pixel each
        if w > HOST_MIN_W:
            out[c.id] = min(w, HOST_MAX_W)
    return out


def size_of(comp: Component, cards_: dict[str, Card]) -> tuple[float, float]:
    """(width, height) of a top-level item (a host: its whole card)."""
    if comp.kind == "host" and comp.id in cards_:
        c = cards_[comp.id]
        return c.width, c.height
    return SIZES.get(comp.kind, (100.0, 40.0))


def rect_of(comp: Component, cards_: dict[str, Card],
            at: tuple[float, float] | None = None) -> Rect:
    """Where a top-level item is (a host: its whole card, from the header's centre), or
    would be with its position ``at``."""
    w, h = size_of(comp, cards_)
    x, y = at if at is not None else (comp.x, comp.y)
    top = y - HEAD_H / 2 if comp.kind == "host" else y - h / 2
    return (x - w / 2, top, w, h)


def docked_positions(design: Design, held: Holdings | None = None,
                     at: dict[str, tuple[float, float]] | None = None,
                     cards_: dict[str, Card] | None = None) -> dict[str, tuple[float, float]]:
    """Where every docked VM and NIC sits: on its host's card (hosts at ``at``, or at their
    own positions; ``cards_``: the hosts' cards, when the caller has them).  Vectorised: one
    pass of numpy over all the VMs."""
    held = held or holdings(design)
    at = at or {}
    out: dict[str, tuple[float, float]] = {}
    by_id = {c.id: c for c in design.components}
    hosts = list(held.vms)
    if not hosts:
        return out
    pos = np.array([at.get(h, (by_id[h].x, by_id[h].y)) for h in hosts], np.float64)
    known = cards_ or {}
    cs = [known.get(h) or card(len(held.nics[h]), len(held.vms[h])) for h in hosts]
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
