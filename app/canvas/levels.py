"""A prediction on the canvas: fills, host tallies, link widths and the bottleneck badge.

The grades of every component the prediction grades are kept per kind in numpy arrays
(:class:`Levels`), whether or not the component has an item: a VM drawn only as part of its
host's aggregate is counted in the host's tally (one ``bincount`` over all VMs), and an item
made later (zooming in) takes its grade from here.  A new prediction touches only the items
whose grade changed, and never more items than the canvas shows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from app.canvas.cards import TALLY, HostItem
from app.canvas.items import NO_DATA, ComponentItem, LinkItem, badge_style
from app.support import theme
from models.core.prediction import Prediction

WIDTH_LEVELS = 6


@dataclass
class _Kind:
    ids: list[str]
    levels: np.ndarray
    _row: dict[str, int] | None = None

    @property
    def row(self) -> dict[str, int]:
        """Each id's row (made when first asked: a VM item made by zooming in)."""
        if self._row is None:
            self._row = dict(zip(self.ids, range(len(self.ids)), strict=True))
        return self._row


class Levels:
    """The latest grade of each graded component, by kind
    (:func:`app.support.theme.util_grades`)."""

    def __init__(self) -> None:
        self._kinds: dict[str, _Kind] = {}

    def level(self, cid: str, kind: str) -> int:
        k = self._kinds.get(kind)
        i = k.row.get(cid) if k is not None else None
        return NO_DATA if i is None or k is None else int(k.levels[i])

    def update(self, kind: str, ids: list[str], util: np.ndarray) -> np.ndarray:
        """Take ``kind``'s new utilisations; returns the rows whose grade changed."""
        k = self._kinds.get(kind)
        if k is None or (k.ids is not ids and k.ids != ids):
            k = _Kind(ids, np.full(len(ids), NO_DATA - 1, dtype=np.int64))
            self._kinds[kind] = k
        levels = theme.util_grades(util)
        changed = np.flatnonzero(levels != k.levels)
        k.levels = levels
        return changed

    def ids(self, kind: str) -> list[str]:
        k = self._kinds.get(kind)
        return k.ids if k is not None else []

    def array(self, kind: str) -> np.ndarray:
        k = self._kinds.get(kind)
        return k.levels if k is not None else np.zeros(0, np.int64)

    def clear(self) -> None:
        self._kinds.clear()


def recolour(levels: Levels, items: dict[str, ComponentItem], p: Prediction) -> None:
    """Take ``p``'s grades into ``levels`` and recolour the ``items`` (by id) whose grade
    changed."""
    for kind, ids, util in (("host", p.hosts.ids, p.hosts.cpu_util),
                            ("storage_array", p.arrays.ids, p.arrays.util),
                            ("nic", p.nics.ids, p.nics.util),
                            ("vm", p.vms.ids, p.vms.cpu_util)):
        changed = levels.update(kind, ids, util)
        if not len(changed):
            continue
        grades = levels.array(kind)
        if len(changed) <= len(items):
            for i in changed.tolist():
                item = items.get(ids[i])
                if item is not None:
                    item.set_level(int(grades[i]))
        else:  # most of 50,000 VMs changed: visit the few items instead
            for item in list(items.values()):
                if item.kind == kind:
                    item.set_level(levels.level(item.cid, kind))


def tallies(vm_levels: np.ndarray, vm_host: np.ndarray, n_hosts: int) -> np.ndarray:
    """(n_hosts x TALLY) counts of each host's VMs per grade (column 0: no data); VMs on no
    host (``vm_host`` -1) are left out."""
    on = vm_host >= 0
    code = vm_host[on] * TALLY + (vm_levels[on] + 1)
    return np.bincount(code, minlength=n_hosts * TALLY).reshape(n_hosts, TALLY)


class Tallies:
    """Each card's count of its VMs per grade: one bincount over every VM, and only the cards
    whose counts changed are told.  Which card each VM is on is worked out once per shape
    of the design (``shape`` counts changes of what holds what)."""

    def __init__(self) -> None:
        self._rows: tuple[tuple[int, int, int], list[str], np.ndarray] | None = None
        self._last: np.ndarray | None = None

    def apply(self, cards: dict[str, HostItem], host_of: dict[str, str], levels: Levels,
              shape: int) -> None:
        ids = levels.ids("vm")
        key = (id(ids), len(ids), shape)
        if self._rows is None or self._rows[0] != key:
            hosts = list(cards)
            row = {hid: i for i, hid in enumerate(hosts)}
            vm_host = np.array([row.get(host_of.get(v, ""), -1) for v in ids], np.int64)
            self._rows, self._last = (key, hosts, vm_host), None
        _, hosts, vm_host = self._rows
        if not hosts:
            return
        counts = tallies(levels.array("vm"), vm_host, len(hosts))
        last = self._last
        changed = (range(len(hosts)) if last is None
                   else np.flatnonzero((counts != last).any(axis=1)).tolist())
        for i in changed:
            cards[hosts[i]].set_tally(counts[i])
        self._last = counts


class Badge:
    """The bottleneck mark: on its component's item, or on the card that draws it."""

    def __init__(self) -> None:
        self.target: tuple[str, float] | None = None
        """(component, utilisation) of the busiest resource."""
        self.worn: list[ComponentItem] = []

    def place(self, item_of: Callable[[str], ComponentItem | None],
              card_of: Callable[[str], HostItem | None]) -> None:
        for old in self.worn:
            old.set_badge(False)
            if isinstance(old, HostItem):
                old.set_vm_badge(None)
        self.worn = []
        if self.target is None:
            return
        cid, util = self.target
        item = item_of(cid)
        if item is not None:
            item.set_badge(True, util)
            self.worn.append(item)
            return
        card = card_of(cid)
        if card is not None:
            card.set_vm_badge(badge_style(util))
            self.worn.append(card)

    def on(self, cid: str) -> bool:
        return self.target is not None and self.target[0] == cid


@dataclass
class LinkTraffic:
    """For each drawn link item, where its traffic comes from (built once per set of
    items, then one vectorised pass per prediction)."""

    items: list[LinkItem] = field(default_factory=list)
    levels: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    vm_index: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    """A VM's own link (its disk, its FT secondary): the VM's row, else -1."""
    pair_code: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    """A host-to-array link or bundle: host_row * n_arrays + array_row, else -1."""
    vm_pair_code: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    """Each VM's (host, array) pair code, -1 for a VM without both."""
    members: list[tuple[int, np.ndarray]] = field(default_factory=list)
    """Other bundles (FT secondaries): (item index, rows of the VMs it stands for)."""


def link_traffic(p: Prediction, items: list[LinkItem], host_of: dict[str, str],
                 disk_of: Callable[[], dict[str, str]], bundle_vms: dict[int, list[str]]
                 ) -> LinkTraffic:
    """The traffic sources of ``items``.  ``host_of``/``disk_of``: each VM's host and array
    (``disk_of`` is asked only when some item joins a host and an array); ``bundle_vms``: for
    a bundle that is not host-to-array, the VMs it stands for.  Only the VMs these items
    name are looked up by id (an estate's lines stand for a few hundred of 50,000)."""
    host_row = {hid: i for i, hid in enumerate(p.hosts.ids)}
    arr_row = {aid: i for i, aid in enumerate(p.arrays.ids)}
    n_arr = max(1, len(p.arrays.ids))
    named = {it.link.source for it in items if _own(it)}
    named.update(v for vms in bundle_vms.values() for v in vms)
    vm_row = {vid: i for i, vid in enumerate(p.vms.ids) if vid in named} if named else {}
    vm_index, pair_code = [], []
    members: list[tuple[int, np.ndarray]] = []
    for n, it in enumerate(items):
        lk = it.link
        vm_index.append(vm_row.get(lk.source, -1) if _own(it) else -1)
        host_array = lk.kind in ("storage", "disk_on") and (it.bundle or lk.kind == "storage")
        if host_array and lk.source in host_row and lk.target in arr_row:
            pair_code.append(host_row[lk.source] * n_arr + arr_row[lk.target])
        else:
            pair_code.append(-1)
            if it.bundle and n in bundle_vms:
                rows = [vm_row[v] for v in bundle_vms[n] if v in vm_row]
                members.append((n, np.array(rows, np.int64)))
    ids = p.vms.ids
    if any(code >= 0 for code in pair_code):  # each VM's (host, array) pair
        disks = disk_of()
        vm_host = np.array([host_row.get(host_of.get(v, ""), -1) for v in ids], np.int64)
        vm_arr = np.array([arr_row.get(disks.get(v, ""), -1) for v in ids], np.int64)
        ok = (vm_host >= 0) & (vm_arr >= 0)
        vm_pair_code = np.where(ok, vm_host * n_arr + vm_arr, -1)
    else:  # no line joins a host and an array: no VM's pair is read
        vm_pair_code = np.full(len(ids), -1, np.int64)
    return LinkTraffic(items, np.zeros(len(items), np.int64), np.array(vm_index, np.int64),
                       np.array(pair_code, np.int64), vm_pair_code, members)


def _own(it: LinkItem) -> bool:
    """A VM's own link (its disk, its FT secondary), drawn from its pill."""
    return not it.bundle and it.link.kind in ("runs_on", "disk_on", "ft_secondary_on")


def apply_widths(t: LinkTraffic, p: Prediction, lod: float) -> None:
    """Re-width the links for ``p``; only links whose drawn width changes at ``lod`` repaint."""
    if not t.items:
        return
    vm_mbps = np.nan_to_num(np.asarray(p.vms.storage_mbps, np.float64))
    vm_net = np.nan_to_num(np.asarray(p.vms.net_gbps, np.float64)) * 125.0
    traffic = np.zeros(len(t.items))
    if len(vm_mbps):
        per_vm = vm_mbps + vm_net
        own = t.vm_index >= 0
        traffic[own] = per_vm[t.vm_index[own]]
        pair = t.pair_code >= 0
        if pair.any():
            ok = t.vm_pair_code >= 0
            size = int(max(t.pair_code.max(), t.vm_pair_code.max(initial=0))) + 1
            per_pair = np.bincount(t.vm_pair_code[ok], weights=vm_mbps[ok], minlength=size)
            traffic[pair] = per_pair[t.pair_code[pair]]
        for n, rows in t.members:
            traffic[n] = float(per_vm[rows].sum()) if len(rows) else 0.0
    top = float(traffic.max())
    levels = (np.rint(WIDTH_LEVELS * np.log1p(traffic) / np.log1p(top)).astype(np.int64)
              if top > 0 else np.zeros(len(traffic), np.int64))
    drawn = LinkItem.drawn_width
    for i in np.flatnonzero(levels != t.levels).tolist():
        item, level = t.items[i], int(levels[i])
        item.set_width_level(level, item.isSelected() or drawn(level, lod) != drawn(
            item.width_level, lod))
    t.levels = levels
