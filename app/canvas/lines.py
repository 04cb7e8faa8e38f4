"""The lines of the canvas: which links of the design are drawn, and the bundles.

A link that *holds* (a VM on its host, a NIC in it, a host at its site) is drawn as the
holding, not as a line.  A VM's other links (its disk on an array, its FT secondary on
another host) are drawn from its pill while it is selected; otherwise one *bundle* per host
and place stands for all of them, as wide as their summed traffic, unless a link of the
design (a host's ``storage`` link to the array) already joins the two.  Every other link is
a line between its two items.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from app.canvas.items import LinkItem
from app.canvas.levels import LinkTraffic, apply_widths, link_traffic
from models.core.prediction import Prediction
from models.document.design import Link
from models.io.placement import DOCK_LINKS, GROUP_ARRAYS, MEMBER_LINKS

if TYPE_CHECKING:
    from app.canvas.protocol import Canvas

LinkKey = tuple[str, str, str]
BUNDLED = ("disk_on", "ft_secondary_on")
"""Links of a VM on a card that a bundle stands for while the VM is not selected."""
STORAGE_BUDGET = 1500
"""More host-to-array paths than this (an estate whose every host mounts every datastore:
1,250 hosts x 10 arrays), or arrays enough to be grouped
(:data:`models.io.placement.GROUP_ARRAYS`; a group draws a line to each cluster it serves),
and they are drawn only for the selected hosts and arrays: a line per path would be a
hairball, and thousands of items."""


def link_key(link: Link) -> LinkKey:
    return (link.kind, link.source, link.target)


class Lines:
    """The link items and bundles of a scene, and the items each one touches."""

    def __init__(self, canvas: Canvas):
        self.canvas = canvas
        self.links: dict[LinkKey, LinkItem] = {}
        self.bundles: dict[LinkKey, LinkItem] = {}
        self.bundle_vms: dict[LinkKey, list[str]] = {}
        """The VMs each bundle stands for."""
        self.adjacent: dict[str, list[LinkItem]] = {}
        self.traffic: LinkTraffic | None = None
        self.sparse = False
        """Host-to-array paths past :data:`STORAGE_BUDGET`: drawn for selected ends only."""
        self.lit: set[str] = set()
        """Selected components whose own lines are drawn because they are selected."""

    def clear(self) -> None:
        for d in (self.links, self.bundles, self.bundle_vms, self.adjacent):
            d.clear()
        self.lit.clear()
        self.traffic = None
        design = self.canvas.document.shown_design()
        links = design.links
        paths = {(lk.source, lk.target) for lk in links if lk.kind == "storage"}
        if len(paths) <= STORAGE_BUDGET:
            host_of = self.canvas.holdings.host_of
            paths.update((host_of.get(lk.source, ""), lk.target) for lk in links
                         if lk.kind == "disk_on")
        arrays = sum(1 for c in design.components if c.kind == "storage_array")
        self.sparse = len(paths) > STORAGE_BUDGET or arrays > GROUP_ARRAYS

    def touching(self, cid: str) -> list[LinkItem]:
        return self.adjacent.get(cid, [])

    def adjust(self, cid: str) -> None:
        """Re-route the lines of ``cid`` after it moved or changed size."""
        for it in self.adjacent.get(cid, ()):
            it.adjust()

    # ------------------------------------------------------------------ design links
    def contained(self, lk: Link) -> bool:
        """A link shown by holding (a VM on its card, a host in its site's box)."""
        held = self.canvas.holdings
        if lk.kind in DOCK_LINKS:
            return held.host_of.get(lk.source) == lk.target
        return lk.kind in MEMBER_LINKS and lk.target in held.containers

    def wants_line(self, lk: Link) -> bool:
        if self.contained(lk):
            return False
        src, dst = self.canvas.item(lk.source), self.canvas.item(lk.target)
        if src is None or dst is None:
            return False
        if src.docked or dst.docked:  # a VM's own link: while it is selected
            return (src.docked and src.isSelected()) or (dst.docked and dst.isSelected())
        if self.sparse and lk.kind == "storage":  # by the selection (a grouped array is
            return lk.source in self.lit or lk.target in self.lit  # hidden, not selected)
        return True

    def show(self, lk: Link) -> None:
        key = link_key(lk)
        if key in self.links or not self.wants_line(lk):
            return
        src, dst = self.canvas.item(lk.source), self.canvas.item(lk.target)
        assert src is not None and dst is not None
        item = LinkItem(lk, src, dst)
        self.canvas.addItem(item)
        self.links[key] = item
        self._touch(item, lk.source, lk.target)

    def hide(self, lk: Link) -> None:
        item = self.links.pop(link_key(lk), None)
        if item is not None:
            self._untouch(item, lk.source, lk.target)
            self.canvas.removeItem(item)

    def hide_all(self, cid: str) -> None:
        """Take away every line (bundles too) touching ``cid``."""
        for it in list(self.adjacent.get(cid, [])):
            if it.bundle:
                self.bundles.pop(link_key(it.link), None)
                self._untouch(it, it.link.source, it.link.target)
                self.canvas.removeItem(it)
            else:
                self.hide(it.link)
        self.adjacent.pop(cid, None)

    def light(self, selection: list[str], links_of: Callable[[str], list[Link]]) -> bool:
        """Draw the own lines of the selected VMs on cards (in a large estate, of the selected
        hosts and arrays too), and take away those of the ones no longer selected; returns
        whether lines came or went."""
        item = self.canvas.item
        lit = {c for c in selection if (it := item(c)) is not None
               and (it.docked or (self.sparse and it.kind in ("host", "storage_array")))}
        before = len(self.links)
        old, self.lit = self.lit, lit
        for cid in old - lit:
            for lk in links_of(cid):
                if not self.wants_line(lk):
                    self.hide(lk)
        for cid in lit - old:
            for lk in links_of(cid):
                self.show(lk)
        return len(self.links) != before

    def _touch(self, item: LinkItem, *ends: str) -> None:
        for end in ends:
            self.adjacent.setdefault(end, []).append(item)
        self.traffic = None

    def _untouch(self, item: LinkItem, *ends: str) -> None:
        for end in ends:
            lst = self.adjacent.get(end)
            if lst is not None and item in lst:
                lst.remove(item)
        self.traffic = None

    # ------------------------------------------------------------------ bundles
    def refresh_bundles(self) -> None:
        """One line per (host, place) that VMs on the host reach (disks on an array, FT
        secondaries on another host), unless a link of the design already joins them."""
        sc = self.canvas
        host_of = sc.holdings.host_of
        want: dict[LinkKey, list[str]] = {}
        kinds = {"ft_secondary_on"} if self.sparse else set(BUNDLED)
        for lk in [lk for lk in sc.document.shown_design().links if lk.kind in kinds]:
            if lk.source not in host_of:
                continue
            a, b = host_of[lk.source], host_of.get(lk.target, lk.target)
            if a != b and sc.item(a) is not None and sc.item(b) is not None:
                want.setdefault((lk.kind, a, b), []).append(lk.source)
        direct = {frozenset((it.link.source, it.link.target)) for it in self.links.values()
                  if not (it.source.docked or it.target.docked)}
        want = {k: v for k, v in want.items() if frozenset(k[1:]) not in direct}
        for key in [k for k in self.bundles if k not in want]:
            item = self.bundles.pop(key)
            self._untouch(item, *key[1:])
            sc.removeItem(item)
        for key in want:
            if key not in self.bundles:
                kind, a, b = key
                src, dst = sc.item(a), sc.item(b)
                assert src is not None and dst is not None
                item = LinkItem(Link(a, b, kind), src, dst, bundle=True)
                sc.addItem(item)
                self.bundles[key] = item
                self._touch(item, a, b)
        self.bundle_vms = want
        self.traffic = None

    # ------------------------------------------------------------------ widths
    def apply(self, p: Prediction, lod: float) -> None:
        """Re-width every line for ``p`` at zoom ``lod`` (its traffic sources worked out once
        per set of lines and VMs)."""
        items = [*self.links.values(), *self.bundles.values()]
        t = self.traffic
        if t is None or len(t.items) != len(items) or len(t.vm_pair_code) != len(p.vms.ids):
            links = self.canvas.document.shown_design().links
            bundle_vms = {len(self.links) + n: self.bundle_vms.get(k, [])
                          for n, k in enumerate(self.bundles) if k[0] != "disk_on"}
            t = self.traffic = link_traffic(
                p, items, self.canvas.holdings.host_of,
                lambda: {lk.source: lk.target for lk in links if lk.kind == "disk_on"},
                bundle_vms)
        apply_widths(t, p, lod)
