"""The canvas scene: a mirror of the document.  It keeps a private id -> item map and changes
only in answer to document signals (``component_added``, ``prediction_updated``, ...).  It
owns no gesture: the view installs the interactions (:mod:`app.canvas.protocol`), which see
the scene's mouse events through their hooks and the scene as a narrow
:class:`~app.canvas.protocol.Canvas`; they call document edit methods, and the resulting
signals update the items.

What holds what (:mod:`models.io.placement`) decides what is drawn: a host is a card holding
its NICs and VMs, a site or cluster a box around the cards it holds; those links are the
holding, not lines.  A VM or NIC on a card is an item only while it can be read or is
selected (the view's :mod:`app.canvas.detail` asks for it); its other links (disk, FT
secondary) are drawn from its item while it is selected, and otherwise as one *bundle* per
host and place they reach.
A new prediction recolours what is shown (:mod:`app.canvas.levels`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from PySide6.QtCore import QObject, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsScene,
    QGraphicsSceneHelpEvent,
    QToolTip,
    QWidget,
)

from app.canvas import tooltips
from app.canvas.cards import ContainerItem, HostItem
from app.canvas.hooks import HookedScene
from app.canvas.items import ComponentItem, LinkItem, label_props
from app.canvas.levels import Badge, Levels, Tallies, recolour
from app.canvas.lines import Lines, link_key
from app.canvas.unplaced import UnplacedArea
from app.document.design_document import DesignDocument
from models.core.prediction import Prediction
from models.document.design import Component, Link
from models.io.placement import BOXES, DOCK_LINKS, MEMBER_LINKS, Holdings, box_around, holdings


def next_turn(parent: QObject, slot: Callable[[], None]) -> QTimer:
    """A timer that runs ``slot`` once on the next event-loop turn however often started."""
    timer = QTimer(parent)
    timer.setSingleShot(True)
    timer.setInterval(0)
    timer.timeout.connect(slot)
    return timer


class DesignScene(HookedScene):
    """Items for the components and links of ``document``, kept in step with it."""

    status_message = Signal(str)
    """Something the user should read on the status bar (why a link was refused, ...)."""

    def __init__(self, document: DesignDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        # no BSP tree: a few thousand items, many of them long lines, which a BSP tree files
        # in every cell they cross (700 MB for an estate of 50,000 VMs)
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
        self._items: dict[str, ComponentItem] = {}
        self._hosts: dict[str, HostItem] = {}
        self._boxes: dict[str, ContainerItem] = {}
        self.lines = Lines(self)
        self._by_cid: dict[str, list[Link]] | None = None
        """The design's links by the components they touch; made when first asked (a pass
        over 100,000 links of an estate that opening need not wait for)."""
        self._slot: dict[str, int] = {}
        self.holdings = Holdings({}, {}, {}, {}, {})
        self.levels = Levels()
        self.badge = Badge()
        self.tallies = Tallies()
        self.unplaced = UnplacedArea(self, self)
        self._shape = 0  # counts changes of what holds what: caches follow it
        self._syncing = False
        self._bundle_timer = next_turn(self, self._refresh_bundles)
        self._shown_timer = next_turn(self, self.shown_changed)
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

    def tell(self, message: str) -> None:
        """Say ``message`` on the status bar (:attr:`status_message`)."""
        self.status_message.emit(message)

    # ------------------------------------------------------------------ lookup
    def item(self, cid: str) -> ComponentItem | None:
        """The item of ``cid``; None for a VM or NIC its card draws (or an unknown id)."""
        return self._items.get(cid)

    def host_item(self, cid: str) -> HostItem | None:
        return self._hosts.get(cid)

    def box_item(self, cid: str) -> ContainerItem | None:
        return self._boxes.get(cid)

    def shows(self, cid: str) -> bool:
        """Whether component ``cid`` is on the canvas: its own item, or a VM drawn by its
        host's card."""
        return cid in self._items or self.holder(cid) is not None

    def holder(self, cid: str) -> HostItem | None:
        """The card ``cid`` (a VM or NIC) sits on, if any."""
        host = self.holdings.host_of.get(cid)
        return self._hosts.get(host) if host is not None else None

    def links_of(self, cid: str) -> list[Link]:
        """The design's links touching ``cid`` (kept per component: no pass over all)."""
        return self._links_by_cid().get(cid, [])

    def _links_by_cid(self) -> dict[str, list[Link]]:
        if self._by_cid is None:
            self._by_cid = {}
            for lk in self.document.design.links:
                self._by_cid.setdefault(lk.source, []).append(lk)
                self._by_cid.setdefault(lk.target, []).append(lk)
        return self._by_cid

    def host_items(self) -> dict[str, HostItem]:
        return self._hosts

    def link_item(self, link: Link) -> LinkItem | None:
        return self.lines.links.get(link_key(link))

    def bundle_items(self) -> list[LinkItem]:
        return list(self.lines.bundles.values())

    def container_items(self) -> list[ContainerItem]:
        return list(self._boxes.values())

    def component_items(self) -> list[ComponentItem]:
        return list(self._items.values())

    def link_items(self) -> list[LinkItem]:
        return list(self.lines.links.values())

    def component_at(self, pos: QPointF, exclude: QGraphicsItem | None = None
                     ) -> ComponentItem | None:
        for it in self.items(pos):
            if isinstance(it, ComponentItem) and it is not exclude:
                return it
        return None

    def pick(self, pos: QPointF) -> ComponentItem | LinkItem | None:
        """The topmost component or line (not a bundle) at ``pos``."""
        for it in self.items(pos):
            if isinstance(it, ComponentItem) or (isinstance(it, LinkItem) and not it.bundle):
                return it
        return None

    def hosts_in(self, rect: QRectF) -> list[HostItem]:
        """The host cards whose bounds meet ``rect``."""
        return [it for it in self.items(rect, Qt.ItemSelectionMode.IntersectsItemBoundingRect)
                if isinstance(it, HostItem)]

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

    def selected_components(self) -> list[ComponentItem]:
        return [it for it in self.selectedItems() if isinstance(it, ComponentItem)]

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
        self._shape += 1
        self._syncing = True
        self.clear()
        self.unplaced.reset()
        for d in (self._items, self._hosts, self._boxes, self._slot):
            d.clear()
        self._by_cid = None
        self.levels.clear()
        self.badge.worn = []
        design = self.document.design
        self.holdings = holdings(design)
        self.lines.clear()
        for comp in design.components:
            if comp.id not in self.holdings.host_of:
                self._add_top(comp)
        for hid in self._hosts:
            self._set_children(hid, refit=False)
        for bid in sorted(self._boxes, key=lambda b: self._boxes[b].kind == "site"):
            self._refit(bid)  # clusters first: a site is drawn round them
        items = self._items
        for lk in design.links:
            if lk.source in items and lk.target in items:
                self.lines.show(lk)
        self.lines.refresh_bundles()
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
            self.lines.adjust(hid)
            if refit:
                self._refit_around(hid)

    def _place_children(self, host: HostItem) -> None:
        for cid in (*host.nic_ids, *host.vm_ids):
            item = self._items.get(cid)
            if item is not None:
                item.setPos(host.pos() + host.child_offset(cid, self._slot.get(cid, 0)))
                self.lines.adjust(cid)

    def _refit(self, bid: str) -> None:
        """Fit box ``bid`` around what it holds."""
        box = self._boxes.get(bid)
        comp = self.document.component(bid)
        if box is None or comp is None:
            return
        held = self.holdings
        members = [self._items[m] for m in held.containers.get(bid, []) if m in self._items]
        bodies = [m.scene_body() for m in members]
        if box.kind == "site":  # round the clusters wholly at the site, names clear of theirs
            inside = {m.cid for m in members}
            bodies += [self._boxes[k].scene_body() for k in dict.fromkeys(
                k for m in inside for k in held.member_of.get(m, ()) if k in self._boxes
                and self._boxes[k].kind != "site" and set(held.containers.get(k, [])) <= inside)]
        rect = box_around(((r.x(), r.y(), r.width(), r.height()) for r in bodies), box.kind)
        box.set_box(QRectF(*rect) if rect is not None else None, QPointF(comp.x, comp.y),
                    sum(1 for m in members if m.kind == "host"))
        self.lines.adjust(bid)

    def _refit_around(self, cid: str) -> None:
        """Fit the boxes holding ``cid``: its clusters, then its sites (which hold them)."""
        boxes = self.holdings.member_of.get(cid, [])
        for bid in sorted(boxes, key=lambda b: b in self._boxes and self._boxes[b].kind == "site"):
            self._refit(bid)

    # ------------------------------------------------------------------ docked items
    def make_child(self, cid: str) -> None:
        """Give docked ``cid`` an item on its card (NICs always; a VM when the view's detail
        keeper asks)."""
        comp = self.document.component(cid)
        host = self.holder(cid)
        if comp is None or host is None or cid in self._items:
            return
        item = ComponentItem(comp)
        item.set_docked(True)
        if comp.kind == "vm":  # dragged onto another host's card, it runs there
            item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsMovable, True)
        item.setPos(host.pos() + host.child_offset(cid, self._slot.get(cid, 0)))
        item.set_level(self.levels.level(cid, comp.kind))
        syncing, self._syncing = self._syncing, True
        self.addItem(item)
        self._items[cid] = item
        if cid in self.document.selection:
            item.setSelected(True)
            for lk in self.links_of(cid):
                self.lines.show(lk)
        self._syncing = syncing
        if self.badge.on(cid):
            self.badge.place(self.item, self.holder)

    def drop_child(self, cid: str, nic_too: bool = False) -> None:
        """Take docked VM ``cid``'s item away (its card draws it again); a NIC's item stays
        unless ``nic_too``."""
        item = self._items.get(cid)
        if item is None or not item.docked or (item.kind == "nic" and not nic_too):
            return
        syncing, self._syncing = self._syncing, True
        self.lines.hide_all(cid)
        del self._items[cid]
        self.removeItem(item)
        self._syncing = syncing
        if self.badge.on(cid):
            self.badge.place(self.item, self.holder)

    def _refresh_bundles(self) -> None:
        self._bundle_timer.stop()
        self.lines.refresh_bundles()
        if self.document.prediction is not None:
            self.lines.apply(self.document.prediction, self.lod())

    def lod(self) -> float:
        """The closest zoom any view shows this scene at (lines are as wide as it needs)."""
        return max((v.transform().m11() for v in self.views()), default=1.0)

    # ------------------------------------------------------------------ document -> items
    def _component_added(self, cid: str) -> None:
        self._shape += 1
        comp = self.document.component(cid)
        if comp is None or cid in self._items:
            return
        self.lines.traffic = None
        self._add_top(comp)
        if comp.kind == "vm":
            self.unplaced.schedule()
        if comp.kind == "host":
            self.holdings.vms.setdefault(cid, [])
            self.holdings.nics.setdefault(cid, [])
            self._set_children(cid)
        if comp.kind in BOXES:
            self.holdings.containers.setdefault(cid, [])
            self._refit(cid)

    def _component_removed(self, cid: str) -> None:
        self._shape += 1
        item = self._items.pop(cid, None)
        self._hosts.pop(cid, None)
        self._boxes.pop(cid, None)
        h = self.holdings
        h.vms.pop(cid, None)
        h.nics.pop(cid, None)
        h.containers.pop(cid, None)
        if item is None:
            return
        syncing, self._syncing = self._syncing, True
        self.lines.hide_all(cid)
        self.removeItem(item)
        self._syncing = syncing
        self.lines.traffic = None
        if item.kind == "vm":
            self.unplaced.schedule()
        if item in self.badge.worn:
            self.badge.worn.remove(item)

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
            if comp is not None and prop not in label_props(comp):  # label ignores it
                return
        items = self._items
        for cid in ids:
            if cid in items:
                self._component_changed(cid, prop)

    def _link_added(self, lk: Link) -> None:
        self.lines.traffic = None
        if lk.kind == "runs_on":
            self.unplaced.schedule()
        if self._by_cid is not None:
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
            self._refit_around(lk.source)
        else:
            self.lines.show(lk)
        self._bundle_timer.start()

    def _link_removed(self, lk: Link) -> None:
        self.lines.traffic = None
        if lk.kind == "runs_on":
            self.unplaced.schedule()
        for end in (lk.source, lk.target):
            lst = self._by_cid.get(end) if self._by_cid is not None else None
            if self._by_cid is not None and lst is not None:
                self._by_cid[end] = [x for x in lst if link_key(x) != link_key(lk)]
        h = self.holdings
        if lk.kind in DOCK_LINKS and h.host_of.get(lk.source) == lk.target:
            self._undock(lk.source, lk.target, lk.kind)
        elif lk.kind in MEMBER_LINKS and lk.source in h.containers.get(lk.target, []):
            h.containers[lk.target].remove(lk.source)
            h.member_of[lk.source].remove(lk.target)
            self._refit(lk.target)
            self._refit_around(lk.source)
        else:
            self.lines.hide(lk)
        self._bundle_timer.start()

    def _dock(self, cid: str, hid: str, kind: str) -> None:
        """``cid`` now sits on host ``hid``'s card: its own item goes (the card draws it,
        or the detail keeper makes a docked one)."""
        self._shape += 1
        item = self._items.pop(cid, None)
        if item is not None:
            syncing, self._syncing = self._syncing, True
            self.lines.hide_all(cid)
            self.removeItem(item)
            self._syncing = syncing
        self.holdings.host_of[cid] = hid
        (self.holdings.vms if kind == "runs_on" else self.holdings.nics)[hid].append(cid)
        self._set_children(hid)
        if cid in self.document.selection:  # it keeps an item, on its card, at once
            self.shown_changed()
        else:
            self._shown_timer.start()  # once for a paste of many

    def _undock(self, cid: str, hid: str, kind: str) -> None:
        self._shape += 1
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
            for lk in self.links_of(cid):
                self.lines.show(lk)
        self._shown_timer.start()

    def item_moved(self, item: ComponentItem) -> None:
        """After ``item`` moved (drag or document): keep its links, the items on its card
        and the boxes holding it in step.  (No itemChange override: PySide6 mishandles its
        return value's reference count.)"""
        self.lines.adjust(item.cid)
        if isinstance(item, HostItem):
            self._place_children(item)
        self._refit_around(item.cid)
        if item.kind == "vm" and self.unplaced.count:
            self.unplaced.schedule()

    def adjust_lines(self, cid: str) -> None:
        self.lines.adjust(cid)

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
            self.selecting()  # the rubber band trims what Qt took
            shown = [it.cid for it in self.selected_components()]
            kept = ([c for c in self.document.selection if c not in self._items]
                    if self.additive else [])
            self.document.set_selection(kept + shown)
        finally:
            self._syncing = False
        self._after_selection()

    def _after_selection(self) -> None:
        """Selected VMs get items (the view's detail keeper makes them) and their own lines
        (in a large estate, selected hosts and arrays get their storage lines); cards count
        the rest."""
        self.shown_changed()
        doc = self.document
        if self.lines.light(doc.selection, self.links_of) and doc.prediction is not None:
            self.lines.apply(doc.prediction, self.lod())
        host_of = self.holdings.host_of
        counts = Counter(host_of[c] for c in doc.selection if c in host_of
                         and (comp := doc.component(c)) is not None and comp.kind == "vm")
        for hid, host in self._hosts.items():
            host.set_selected_vms(counts.get(hid, 0))

    # ------------------------------------------------------------------ prediction
    def apply_prediction(self, prediction: Prediction) -> None:
        """Recolour what is shown, re-tally the cards, re-width links for ``prediction``;
        touches only items whose grade changed."""
        p = prediction
        recolour(self.levels, self._items, p)
        self.tallies.apply(self._hosts, self.holdings.host_of, self.levels, self._shape)
        self.lines.apply(p, self.lod())
        top = p.bottlenecks(1)
        self.badge.target = (top[0].component, top[0].util) if top and top[0].util > 0 \
            else None
        self.badge.place(self.item, self.holder)

    def badge_holder(self) -> ComponentItem | None:
        """The item wearing the bottleneck badge (for tests and the finder)."""
        return self.badge.worn[0] if self.badge.worn else None

    # ------------------------------------------------------------------ events
    def helpEvent(self, event: QGraphicsSceneHelpEvent) -> None:  # noqa: N802 (Qt)
        item = self.component_at(event.scenePos())
        if item is None:
            QToolTip.hideText()
            event.ignore()
            return
        text = tooltips.component_tooltip(self.document, item.cid)
        if isinstance(item, HostItem) and item.vm_badge is not None and self.badge.target:
            text += "<br>" + tooltips.component_tooltip(self.document, self.badge.target[0])
        QToolTip.showText(event.screenPos(), text)
        event.accept()
