"""The canvas scene: a mirror of the document.

The scene keeps a private id -> item map and changes only in answer to document signals
(``component_added``, ``link_removed``, ``prediction_updated``, ...).  User gestures go the
other way: they call document edit methods (see the interaction modules next to this one) and
the resulting signals update the items.

What holds what (:mod:`models.io.placement`) decides what is drawn: a host is a card holding
its NICs and VMs, a site or cluster a box around the cards it holds; those links are the
holding, not lines.  A VM or NIC on a card is an item only while it can be read or is
selected (:mod:`app.canvas.detail`); its other links (disk, FT secondary) are drawn from its
item while it is selected, and otherwise as one *bundle* per host and place they reach.
A new prediction recolours what is shown (:mod:`app.canvas.levels`).
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QTransform
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsScene,
    QGraphicsSceneContextMenuEvent,
    QGraphicsSceneHelpEvent,
    QGraphicsSceneMouseEvent,
    QToolTip,
    QWidget,
)

from app.canvas import tooltips
from app.canvas.cards import ContainerItem, HostItem
from app.canvas.context_menu import build_menu
from app.canvas.detail import Detail
from app.canvas.items import ComponentItem, LinkItem, badge_style, describe
from app.canvas.levels import Levels, LinkTraffic, apply_widths, link_traffic, tallies
from app.canvas.linking import LinkTool
from app.canvas.move import MoveTracker
from app.document.design_document import DesignDocument
from models.document.design import Component, Link
from models.document.schema import Value
from models.engine.prediction import Prediction
from models.io.placement import BOXES, DOCK_LINKS, MEMBER_LINKS, box_around, holdings

LinkKey = tuple[str, str, str]
BUNDLED = ("disk_on", "ft_secondary_on")
"""Links of a VM on a card that a bundle stands for while the VM is not selected."""


def link_key(link: Link) -> LinkKey:
    return (link.kind, link.source, link.target)


_LABEL_PROPS: dict[str, frozenset[str]] = {}


class _Reads(Component):
    """A component copy that records which properties are read (by ``describe``)."""

    def __init__(self, comp: Component):
        super().__init__(comp.id, comp.kind, comp.name, props=dict(comp.props))
        self.read: set[str] = set()

    def get(self, prop: str) -> Value:
        self.read.add(prop)
        return super().get(prop)


def _label_props(comp: Component) -> frozenset[str]:
    """The properties an item's label (``describe``) reads for ``comp``'s kind."""
    props = _LABEL_PROPS.get(comp.kind)
    if props is None:
        probe = _Reads(comp)
        describe(probe)
        props = _LABEL_PROPS[comp.kind] = frozenset(probe.read)
    return props


class DesignScene(QGraphicsScene):
    """Items for the components and links of ``document``, kept in step with it."""

    status_message = Signal(str)
    """Something the user should read on the status bar (why a link was refused, ...)."""

    def __init__(self, document: DesignDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.BspTreeIndex)
        self._items: dict[str, ComponentItem] = {}
        self._hosts: dict[str, HostItem] = {}
        self._boxes: dict[str, ContainerItem] = {}
        self._links: dict[LinkKey, LinkItem] = {}
        self._bundles: dict[LinkKey, LinkItem] = {}
        self._bundle_vms: dict[LinkKey, list[str]] = {}
        self._by_cid: dict[str, list[Link]] = {}
        self._adjacent: dict[str, list[LinkItem]] = {}
        self._slot: dict[str, int] = {}
        self.holdings = holdings(document.design)
        self.levels = Levels()
        self.detail = Detail(self)
        self._traffic: LinkTraffic | None = None
        self._badge: tuple[str, float] | None = None
        self._badged: list[ComponentItem] = []
        self._syncing = False
        self._additive = False
        self._bundle_timer = QTimer(self)
        self._bundle_timer.setSingleShot(True)
        self._bundle_timer.setInterval(0)
        self._bundle_timer.timeout.connect(self._refresh_bundles)
        self.link_tool = LinkTool(self)
        self.mover = MoveTracker(self)
        document.design_replaced.connect(self.rebuild)
        document.component_added.connect(self._component_added)
        document.component_removed.connect(self._component_removed)
        document.component_changed.connect(self._component_changed)
        document.components_changed.connect(self._components_changed)
        document.link_added.connect(self._link_added)
        document.link_removed.connect(self._link_removed)
        document.selection_changed.connect(self._select_ids)
        document.prediction_updated.connect(self.apply_prediction)
        self.selectionChanged.connect(self._selection_from_scene)
        self.rebuild()

    # ------------------------------------------------------------------ lookup
    def item(self, cid: str) -> ComponentItem | None:
        """The item of ``cid``; None for a VM or NIC its card draws (or an unknown id)."""
        return self._items.get(cid)

    def host_item(self, cid: str) -> HostItem | None:
        return self._hosts.get(cid)

    def box_item(self, cid: str) -> ContainerItem | None:
        return self._boxes.get(cid)

    def holder(self, cid: str) -> HostItem | None:
        """The card ``cid`` (a VM or NIC) sits on, if any."""
        host = self.holdings.host_of.get(cid)
        return self._hosts.get(host) if host is not None else None

    def link_item(self, link: Link) -> LinkItem | None:
        return self._links.get(link_key(link))

    def bundle_items(self) -> list[LinkItem]:
        return list(self._bundles.values())

    def container_items(self) -> list[ContainerItem]:
        return list(self._boxes.values())

    def component_items(self) -> list[ComponentItem]:
        return list(self._items.values())

    def link_items(self) -> list[LinkItem]:
        return list(self._links.values())

    def component_at(self, pos: QPointF, exclude: QGraphicsItem | None = None
                     ) -> ComponentItem | None:
        for it in self.items(pos):
            if isinstance(it, ComponentItem) and it is not exclude:
                return it
        return None

    def target_at(self, pos: QPointF, exclude: ComponentItem | None = None
                  ) -> ComponentItem | None:
        """What a drop or a link at ``pos`` lands on: a VM or NIC counts as its host (a VM
        dropped on a NIC chip lands on the host), and the inside of a box counts as the box
        (the smallest when boxes nest)."""
        hit = self.component_at(pos, exclude)
        if hit is not None and hit.docked:
            hit = self.holder(hit.cid) or hit
        if hit is not None and hit is not exclude:
            return hit
        inside = [b for b in self._boxes.values()
                  if b is not exclude and b.scene_body().contains(pos)]
        return min(inside, key=lambda b: b.rect().width() * b.rect().height(), default=None)

    def selected_links(self) -> list[Link]:
        return [it.link for it in self.selectedItems()
                if isinstance(it, LinkItem) and not it.bundle]

    def child_pos(self, cid: str) -> QPointF | None:
        """Where docked ``cid`` sits on its host's card (scene units)."""
        host = self.holder(cid)
        if host is None:
            return None
        return host.pos() + host.child_offset(cid, self._slot.get(cid, 0))

    # ------------------------------------------------------------------ building
    def rebuild(self) -> None:
        """Recreate every item from the document (only on design_replaced)."""
        self._syncing = True
        self.clear()
        for d in (self._items, self._hosts, self._boxes, self._links, self._bundles,
                  self._bundle_vms, self._by_cid, self._adjacent, self._slot):
            d.clear()
        self.detail.clear()
        self.levels.clear()
        self._traffic = None
        self._badged = []
        design = self.document.design
        self.holdings = holdings(design)
        for lk in design.links:
            self._by_cid.setdefault(lk.source, []).append(lk)
            self._by_cid.setdefault(lk.target, []).append(lk)
        for comp in design.components:
            if comp.id not in self.holdings.host_of:
                self._add_top(comp)
        for hid in self._hosts:
            self._set_children(hid, refit=False)
        for bid in self._boxes:
            self._refit(bid)
        for lk in design.links:
            self._show_link(lk)
        self._refresh_bundles()
        self._syncing = False
        self._select_ids(self.document.selection)
        if self.document.prediction is not None:
            self.apply_prediction(self.document.prediction)

    def _add_top(self, comp: Component) -> ComponentItem:
        item: ComponentItem
        if comp.kind == "host":
            item = self._hosts[comp.id] = HostItem(comp, self.levels.level)
        elif comp.kind in BOXES:
            item = self._boxes[comp.id] = ContainerItem(comp)
        else:
            item = ComponentItem(comp)
        item.setPos(comp.x, comp.y)
        self.addItem(item)
        self._items[comp.id] = item
        if comp.kind not in BOXES:
            item.set_level(self.levels.level(comp.id, comp.kind))
        return item

    def _set_children(self, hid: str, refit: bool = True) -> None:
        """Give host ``hid`` its current NICs and VMs; place the items it shows."""
        host = self._hosts.get(hid)
        if host is None:
            return
        nics, vms = self.holdings.nics.get(hid, []), self.holdings.vms.get(hid, [])
        resized = host.set_children(nics, vms)
        for lst in (nics, vms):
            for i, cid in enumerate(lst):
                self._slot[cid] = i
        for nid in nics:  # a host's few NICs always have items (VMs only when they read)
            if nid not in self._items:
                self.make_child(nid)
        self._place_children(host)
        if resized:
            for lk in self._adjacent.get(hid, ()):
                lk.adjust()
            if refit:
                for bid in self.holdings.member_of.get(hid, ()):
                    self._refit(bid)

    def _place_children(self, host: HostItem) -> None:
        for cid in (*host.nic_ids, *host.vm_ids):
            item = self._items.get(cid)
            if item is not None:
                item.setPos(host.pos() + host.child_offset(cid, self._slot.get(cid, 0)))
                for lk in self._adjacent.get(cid, ()):
                    lk.adjust()

    def _refit(self, bid: str) -> None:
        """Fit box ``bid`` around what it holds."""
        box = self._boxes.get(bid)
        comp = self.document.component(bid)
        if box is None or comp is None:
            return
        members = [self._items[m] for m in self.holdings.containers.get(bid, [])
                   if m in self._items]
        rect = box_around(((r.x(), r.y(), r.width(), r.height())
                           for r in (m.scene_body() for m in members)), box.kind)
        box.set_box(QRectF(*rect) if rect is not None else None, QPointF(comp.x, comp.y),
                    sum(1 for m in members if m.kind == "host"))
        for lk in self._adjacent.get(bid, ()):
            lk.adjust()

    # ------------------------------------------------------------------ docked items
    def make_child(self, cid: str) -> None:
        """Give docked ``cid`` an item on its card (the detail keeper calls this)."""
        comp = self.document.component(cid)
        host = self.holder(cid)
        if comp is None or host is None or cid in self._items:
            return
        item = ComponentItem(comp)
        item.set_docked(True)
        item.setPos(host.pos() + host.child_offset(cid, self._slot.get(cid, 0)))
        item.set_level(self.levels.level(cid, comp.kind))
        syncing, self._syncing = self._syncing, True
        self.addItem(item)
        self._items[cid] = item
        if cid in self.document.selection:
            item.setSelected(True)
            for lk in self._by_cid.get(cid, ()):
                self._show_link(lk)
        self._syncing = syncing
        if self._badge is not None and self._badge[0] == cid:
            self._place_badge()

    def drop_child(self, cid: str, nic_too: bool = False) -> None:
        """Take docked VM ``cid``'s item away (its card draws it again); a NIC's item stays
        unless ``nic_too``."""
        item = self._items.get(cid)
        if item is None or not item.docked or (item.kind == "nic" and not nic_too):
            return
        syncing, self._syncing = self._syncing, True
        for lk in list(self._adjacent.get(cid, ())):
            self._hide_link(lk.link)
        self._adjacent.pop(cid, None)
        del self._items[cid]
        self.removeItem(item)
        self._syncing = syncing
        self.detail.forget(cid)
        if self._badge is not None and self._badge[0] == cid:
            self._place_badge()

    # ------------------------------------------------------------------ links
    def _contained(self, lk: Link) -> bool:
        """A link shown by holding (a VM on its card, a host in its site's box)."""
        if lk.kind in DOCK_LINKS:
            return self.holdings.host_of.get(lk.source) == lk.target
        return lk.kind in MEMBER_LINKS and lk.target in self.holdings.containers

    def _wants_line(self, lk: Link) -> bool:
        if self._contained(lk):
            return False
        src, dst = self._items.get(lk.source), self._items.get(lk.target)
        if src is None or dst is None:
            return False
        if src.docked or dst.docked:  # a VM's own link: while it is selected
            return (src.docked and src.isSelected()) or (dst.docked and dst.isSelected())
        return True

    def _show_link(self, lk: Link) -> None:
        key = link_key(lk)
        if key in self._links or not self._wants_line(lk):
            return
        src, dst = self._items[lk.source], self._items[lk.target]
        item = LinkItem(lk, src, dst)
        self.addItem(item)
        self._links[key] = item
        self._adjacent.setdefault(lk.source, []).append(item)
        self._adjacent.setdefault(lk.target, []).append(item)
        self._traffic = None

    def _hide_link(self, lk: Link) -> None:
        item = self._links.pop(link_key(lk), None)
        if item is None:
            return
        for end in (lk.source, lk.target):
            lst = self._adjacent.get(end)
            if lst is not None and item in lst:
                lst.remove(item)
        self.removeItem(item)
        self._traffic = None

    def _refresh_bundles(self) -> None:
        """One line per (host, place) that VMs on the host reach (disks on an array, FT
        secondaries on another host), unless a link of the design already joins them."""
        self._bundle_timer.stop()
        host_of = self.holdings.host_of
        want: dict[LinkKey, list[str]] = {}
        for lk in self.document.design.links:
            if lk.kind not in BUNDLED or lk.source not in host_of:
                continue
            a, b = host_of[lk.source], host_of.get(lk.target, lk.target)
            if a != b and b in self._items and a in self._items:
                want.setdefault((lk.kind, a, b), []).append(lk.source)
        direct = {frozenset((it.link.source, it.link.target)) for it in self._links.values()
                  if not (it.source.docked or it.target.docked)}
        want = {k: v for k, v in want.items() if frozenset(k[1:]) not in direct}
        for key in [k for k in self._bundles if k not in want]:
            item = self._bundles.pop(key)
            for end in key[1:]:
                lst = self._adjacent.get(end)
                if lst is not None and item in lst:
                    lst.remove(item)
            self.removeItem(item)
        for key in want:
            if key not in self._bundles:
                kind, a, b = key
                item = LinkItem(Link(a, b, kind), self._items[a], self._items[b], bundle=True)
                self.addItem(item)
                self._bundles[key] = item
                self._adjacent.setdefault(a, []).append(item)
                self._adjacent.setdefault(b, []).append(item)
        self._bundle_vms = want
        self._traffic = None
        if self.document.prediction is not None and not self._syncing:
            self._apply_widths(self.document.prediction)

    # ------------------------------------------------------------------ document -> items
    def _component_added(self, cid: str) -> None:
        comp = self.document.component(cid)
        if comp is None or cid in self._items:
            return
        self._traffic = None
        self._add_top(comp)
        if comp.kind == "host":
            self.holdings.vms.setdefault(cid, [])
            self.holdings.nics.setdefault(cid, [])
            self._set_children(cid)
        if comp.kind in BOXES:
            self.holdings.containers.setdefault(cid, [])
            self._refit(cid)

    def _component_removed(self, cid: str) -> None:
        item = self._items.pop(cid, None)
        self.detail.forget(cid)
        self._hosts.pop(cid, None)
        self._boxes.pop(cid, None)
        h = self.holdings
        h.vms.pop(cid, None)
        h.nics.pop(cid, None)
        h.containers.pop(cid, None)
        if item is None:
            return
        syncing, self._syncing = self._syncing, True
        for lk in list(self._adjacent.get(cid, [])):
            if lk.bundle:
                self._bundles.pop(link_key(lk.link), None)
                for end in (lk.link.source, lk.link.target):
                    lst = self._adjacent.get(end)
                    if lst is not None and lk in lst:
                        lst.remove(lk)
                self.removeItem(lk)
            else:
                self._hide_link(lk.link)
        self._adjacent.pop(cid, None)
        self.removeItem(item)
        self._syncing = syncing
        self._traffic = None
        if item in self._badged:
            self._badged.remove(item)

    def _component_changed(self, cid: str, prop: str) -> None:
        item = self._items.get(cid)
        if item is None:
            return
        comp = self.document.component(cid)
        if comp is None:
            return
        if (prop == "" and not item.docked and not (isinstance(item, ContainerItem)
                                                    and self.holdings.containers.get(cid))
                and (item.x(), item.y()) != (comp.x, comp.y)):
            item.setPos(comp.x, comp.y)
            self.item_moved(item)
        item.set_component(comp)

    def _components_changed(self, ids: list[str], prop: str) -> None:
        if prop and ids:  # a property edit of many (a kind-wide slider step): skip the
            comp = self.document.component(ids[0])  # 2,000 label refreshes when the
            if comp is not None and prop not in _label_props(comp):  # label ignores it
                return
        items = self._items
        for cid in ids:
            if cid in items:
                self._component_changed(cid, prop)

    def _link_added(self, lk: Link) -> None:
        self._traffic = None
        self._by_cid.setdefault(lk.source, []).append(lk)
        self._by_cid.setdefault(lk.target, []).append(lk)
        h = self.holdings
        if (lk.kind in DOCK_LINKS and lk.target in self._hosts and lk.source not in h.host_of
                and (comp := self.document.component(lk.source)) is not None
                and comp.kind == DOCK_LINKS[lk.kind]):
            self._dock(lk.source, lk.target, lk.kind)
        elif lk.kind in MEMBER_LINKS and lk.target in self._boxes:
            h.containers.setdefault(lk.target, []).append(lk.source)
            h.member_of.setdefault(lk.source, []).append(lk.target)
            self._refit(lk.target)
        else:
            self._show_link(lk)
        self._bundle_timer.start()

    def _link_removed(self, lk: Link) -> None:
        self._traffic = None
        for end in (lk.source, lk.target):
            lst = self._by_cid.get(end)
            if lst is not None:
                self._by_cid[end] = [x for x in lst if link_key(x) != link_key(lk)]
        h = self.holdings
        if lk.kind in DOCK_LINKS and h.host_of.get(lk.source) == lk.target:
            self._undock(lk.source, lk.target, lk.kind)
        elif lk.kind in MEMBER_LINKS and lk.source in h.containers.get(lk.target, []):
            h.containers[lk.target].remove(lk.source)
            h.member_of[lk.source].remove(lk.target)
            self._refit(lk.target)
        else:
            self._hide_link(lk)
        self._bundle_timer.start()

    def _dock(self, cid: str, hid: str, kind: str) -> None:
        """``cid`` now sits on host ``hid``'s card: its own item goes (the card draws it,
        or the detail keeper makes a docked one)."""
        item = self._items.pop(cid, None)
        if item is not None:
            syncing, self._syncing = self._syncing, True
            for lk in list(self._adjacent.get(cid, [])):
                self._hide_link(lk.link)
            self.removeItem(item)
            self._syncing = syncing
        self.holdings.host_of[cid] = hid
        (self.holdings.vms if kind == "runs_on" else self.holdings.nics)[hid].append(cid)
        self._set_children(hid)
        self.detail.refresh()

    def _undock(self, cid: str, hid: str, kind: str) -> None:
        self.drop_child(cid, nic_too=True)
        self.holdings.host_of.pop(cid, None)
        lst = (self.holdings.vms if kind == "runs_on" else self.holdings.nics).get(hid, [])
        if cid in lst:
            lst.remove(cid)
        self._slot.pop(cid, None)
        self._set_children(hid)
        comp = self.document.component(cid)
        if comp is not None:
            self._add_top(comp)
            for lk in self._by_cid.get(cid, ()):
                self._show_link(lk)
        self.detail.refresh()

    def item_moved(self, item: ComponentItem) -> None:
        """After ``item`` moved (drag or document): keep its links, the items on its card
        and the boxes holding it in step.  (No itemChange override: PySide6 mishandles its
        return value's reference count.)"""
        for lk in self._adjacent.get(item.cid, ()):
            lk.adjust()
        if isinstance(item, HostItem):
            self._place_children(item)
        for bid in self.holdings.member_of.get(item.cid, ()):
            self._refit(bid)

    # ------------------------------------------------------------------ selection
    def _select_ids(self, ids: list[str]) -> None:
        if self._syncing:
            return
        self._syncing = True
        try:
            wanted = set(ids)
            for it in self.selectedItems():
                if isinstance(it, ComponentItem) and it.cid not in wanted:
                    it.setSelected(False)
            for cid in ids:
                item = self._items.get(cid)
                if item is not None and not item.isSelected():
                    item.setSelected(True)
        finally:
            self._syncing = False
        self._after_selection()

    def _selection_from_scene(self) -> None:
        if self._syncing:
            return
        self._syncing = True
        try:
            band = self._band()
            if band is not None:  # a rubber band takes a card or box only when it holds it
                for it in self.selectedItems():
                    if isinstance(it, (HostItem, ContainerItem)) and not band.contains(
                            it.scene_body()):
                        it.setSelected(False)
            shown = [it.cid for it in self.selectedItems() if isinstance(it, ComponentItem)]
            kept = ([c for c in self.document.selection if c not in self._items]
                    if self._additive else [])
            self.document.set_selection(kept + shown)
        finally:
            self._syncing = False
        self._after_selection()

    def _band(self) -> QRectF | None:
        """The scene area of a rubber band being dragged, if any."""
        for view in self.views():
            rect = view.rubberBandRect()
            if not rect.isNull():
                return view.mapToScene(rect).boundingRect()
        return None

    def _after_selection(self) -> None:
        """Selected VMs get items (and their own links); cards count the rest."""
        self.detail.refresh()
        for item in [self._items[c] for c in self.detail.shown if c in self._items]:
            for lk in self._by_cid.get(item.cid, ()):
                if item.isSelected():
                    self._show_link(lk)
                elif link_key(lk) in self._links and not self._wants_line(lk):
                    self._hide_link(lk)
        counts: dict[str, int] = {}
        host_of = self.holdings.host_of
        for cid in self.document.selection:
            hid = host_of.get(cid)
            if hid is not None:
                counts[hid] = counts.get(hid, 0) + 1
        for hid, host in self._hosts.items():
            host.set_selected_vms(counts.get(hid, 0))

    # ------------------------------------------------------------------ prediction
    def apply_prediction(self, prediction: Prediction) -> None:
        """Recolour what is shown, re-tally the cards, re-width links for ``prediction``;
        touches only items whose grade changed."""
        p = prediction
        for kind, ids, util in (("host", p.hosts.ids, p.hosts.cpu_util),
                                ("storage_array", p.arrays.ids, p.arrays.util),
                                ("nic", p.nics.ids, p.nics.util),
                                ("vm", p.vms.ids, p.vms.cpu_util)):
            changed = self.levels.update(kind, ids, util)
            if not len(changed):
                continue
            levels = self.levels.array(kind)
            if len(changed) <= len(self._items):
                for i in changed.tolist():
                    item = self._items.get(ids[i])
                    if item is not None:
                        item.set_level(int(levels[i]))
            else:  # most of 50,000 VMs changed: visit the few items instead
                for item in list(self._items.values()):
                    if item.kind == kind:
                        item.set_level(self.levels.level(item.cid, kind))
        self._apply_tallies(p)
        self._apply_widths(p)
        top = p.bottlenecks(1)
        self._badge = (top[0].component, top[0].util) if top and top[0].util > 0 else None
        self._place_badge()

    def _apply_tallies(self, p: Prediction) -> None:
        hosts = list(self._hosts)
        if not hosts:
            return
        row = {hid: i for i, hid in enumerate(hosts)}
        host_of = self.holdings.host_of
        vm_host = [row.get(host_of.get(v, ""), -1) for v in self.levels.ids("vm")]
        counts = tallies(self.levels.array("vm"), np.array(vm_host, np.int64), len(hosts))
        for hid, i in row.items():
            self._hosts[hid].set_tally(counts[i])

    def _apply_widths(self, p: Prediction) -> None:
        items = [*self._links.values(), *self._bundles.values()]
        t = self._traffic
        if t is None or len(t.items) != len(items) or len(t.vm_pair_code) != len(p.vms.ids):
            disk_of = {lk.source: lk.target for lk in self.document.design.links
                       if lk.kind == "disk_on"}
            keys = list(self._bundles)
            bundle_vms = {len(self._links) + n: self._bundle_vms.get(k, [])
                          for n, k in enumerate(keys) if k[0] != "disk_on"}
            self._traffic = link_traffic(p, items, self.holdings.host_of, disk_of, bundle_vms)
        lod = max((v.transform().m11() for v in self.views()), default=1.0)
        apply_widths(self._traffic, p, lod)

    def _place_badge(self) -> None:
        """The bottleneck mark on its component's item, or on the card that draws it."""
        for old in self._badged:
            old.set_badge(False)
            if isinstance(old, HostItem):
                old.set_vm_badge(None)
        self._badged = []
        if self._badge is None:
            return
        cid, util = self._badge
        item = self._items.get(cid)
        if item is not None:
            item.set_badge(True, util)
            self._badged.append(item)
            return
        host = self.holder(cid)
        if host is not None:
            host.set_vm_badge(badge_style(util))
            self._badged.append(host)

    def badge_holder(self) -> ComponentItem | None:
        """The item wearing the bottleneck badge (for tests and the finder)."""
        return self._badged[0] if self._badged else None

    # ------------------------------------------------------------------ events
    def helpEvent(self, event: QGraphicsSceneHelpEvent) -> None:  # noqa: N802 (Qt)
        item = self.component_at(event.scenePos())
        if item is None:
            QToolTip.hideText()
            event.ignore()
            return
        text = tooltips.component_tooltip(self.document, item.cid)
        if isinstance(item, HostItem) and item.vm_badge is not None and self._badge:
            text += "<br>" + tooltips.component_tooltip(self.document, self._badge[0])
        QToolTip.showText(event.screenPos(), text)
        event.accept()

    def contextMenuEvent(self, event: QGraphicsSceneContextMenuEvent  # noqa: N802 (Qt)
                         ) -> None:
        menu = build_menu(self, event)
        if menu is None:
            event.ignore()
            return
        menu.exec(event.screenPos())
        event.accept()

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802 (Qt)
        self._additive = bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
        if self.link_tool.press(event):
            return
        super().mousePressEvent(event)
        self.mover.press()

    def mouseMoveEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802 (Qt)
        if self.link_tool.move(event):
            event.accept()
            return
        super().mouseMoveEvent(event)
        if event.buttons() & Qt.MouseButton.LeftButton and self.mover.start:
            self.mover.follow()

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802 (Qt)
        if self.link_tool.release(event):
            event.accept()
            return
        super().mouseReleaseEvent(event)
        event.accept()
        self.mover.release()
        self._additive = False

    def item_at(self, pos: QPointF) -> QGraphicsItem | None:
        return self.itemAt(pos, QTransform())
