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
host and place they reach.  An estate's cards name their hosts without the start and
domain they all share (:func:`models.document.words.host_affixes`) and are as wide as those
names need at fit (:func:`models.io.placement.host_widths`), its boxes have name bands sized
for the zoom at which it fits (:func:`models.io.arrange.layout_styles`), and its arrays are
grouped beside the clusters they serve (:mod:`app.canvas.storage`); far out
(:meth:`DesignScene.set_far`) a group is one item.
A new prediction recolours what is shown (:mod:`app.canvas.levels`).  The lookups are
:class:`app.canvas.index.ItemIndex`'s.

What it mirrors is the document's :meth:`~app.document.design_document.DesignDocument.
shown_design`: in a refresh kept as a scenario, the scenario's hosts with the VMs placed on
them.  Another scenario that shows other hosts draws the scene anew, and so does, on the
next turn, a change of the components or links while a refresh shows (the base design
changed under it: an undo); a refresh takes no edit (:mod:`app.canvas.readonly`).
"""

from __future__ import annotations

from collections import Counter

from PySide6.QtCore import QPointF, QRectF, Signal
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsSceneHelpEvent,
    QToolTip,
    QWidget,
)

from app.canvas import tooltips
from app.canvas.cards import ContainerItem, HostItem, rename_hosts
from app.canvas.hooks import next_turn
from app.canvas.index import ItemIndex
from app.canvas.items import ComponentItem, label_props
from app.canvas.levels import Badge, Levels, Tallies, recolour
from app.canvas.lines import Lines, link_key
from app.canvas.readonly import read_only
from app.canvas.storage import StorageGroups
from app.canvas.unplaced import UnplacedArea
from app.document.design_document import DesignDocument
from app.support import first_paint
from models.core.prediction import Prediction
from models.document.design import Component, Design, Link
from models.document.words import host_affixes
from models.io.arrange import layout_styles
from models.io.placement import (
    BOXES,
    DOCK_LINKS,
    HOST_MIN_W,
    MEMBER_LINKS,
    ArrayGroup,
    array_groups,
    box_around,
    holdings,
    host_widths,
)


class DesignScene(ItemIndex):
    """Items for the components and links of ``document``, kept in step with it."""

    status_message = Signal(str)
    """Something the user should read on the status bar (why a link was refused, ...)."""

    def __init__(self, document: DesignDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.lines = Lines(self)
        self.levels = Levels()
        self.badge = Badge()
        self.tallies = Tallies()
        self.unplaced = UnplacedArea(self, self)
        self.groups = StorageGroups(self.addItem, self.removeItem)
        self._shape = 0  # counts changes of what holds what: caches follow it
        self.host_affixes = ("", "")
        """The start and domain every host's name shares, left out of the names on the
        cards (:func:`models.document.words.host_affixes`)."""
        self.far = False
        """Far out (:meth:`set_far`)."""
        self._nics_owed = False
        """The NICs' items wait for the window's first paint (:meth:`_make_nics`)."""
        self.box_styles = dict(BOXES)
        self.host_widths: dict[str, float] = {}
        """Host cards wider than their VMs need, for their names (the layout's too)."""
        """Each box kind's margins and name band, for the design's size (its names read at
        fit: :func:`models.io.placement.box_styles`)."""
        self._syncing = False
        self._drawn: Design | None = None
        """The design the items were made from (the document's shown design then)."""
        self._redraw_timer = next_turn(self, self.rebuild)
        self._bundle_timer = next_turn(self, self._refresh_bundles)
        self._shown_timer = next_turn(self, self.shown_changed)
        self._group_timer = next_turn(self, self._regroup)
        document.design_replaced.connect(self.rebuild)
        document.scenario_changed.connect(self._follow_scenario)
        document.scenarios_changed.connect(self._follow_scenario)
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

    def read_only(self) -> str:
        return read_only(self.document)

    def design_links(self) -> list[Link]:
        return self.document.shown_design().links

    def _follow_scenario(self, *_: object) -> None:
        """Another scenario, or the scenarios changed: drawn anew if it shows other hosts."""
        if self.document.shown_design() is not self._drawn:
            self.rebuild()

    def _redrawn(self) -> bool:
        """Whether the scene is drawn anew on the next turn instead of following a change of
        the components or links: while it shows a refresh, a design made from the base
        design (the base design changed under it: an undo, a panel's edit)."""
        if self._drawn is self.document.design:
            return False
        self._redraw_timer.start()
        return True

    # ------------------------------------------------------------------ building
    def rebuild(self) -> None:
        """Recreate every item from the document's shown design (on design_replaced, and
        when the scenario shows other hosts)."""
        self._redraw_timer.stop()
        self._shape += 1
        self._syncing = True
        self.groups.clear()
        self.clear()
        self.unplaced.reset()
        for d in (self._items, self._hosts, self._boxes, self._slot):
            d.clear()
        self._by_cid = None
        self.levels.clear()
        self.badge.worn = []
        design = self._drawn = self.document.shown_design()
        self.holdings = holdings(design)
        self.host_affixes = host_affixes([c.name for c in design.of_kind("host")])
        groups = array_groups(design, self.holdings)  # the layout's and the canvas's
        self.box_styles = layout_styles(design, self.holdings, groups=groups)
        self.host_widths = host_widths(design, self.box_styles)  # names whole at fit
        self.lines.clear()
        for comp in design.components:
            if comp.id not in self.holdings.host_of:
                self._add_top(comp)
        # opening, the NICs' items wait for the first paint: far out (an estate at fit) the
        # cards draw their NICs, and zoomed in they come before it (set_far)
        self._nics_owed = first_paint.awaiting()
        for hid in self._hosts:
            self._set_children(hid, refit=False, make_nics=not self._nics_owed)
        for bid in sorted(self._boxes, key=lambda b: self._boxes[b].kind == "site"):
            self._refit(bid)  # clusters first: a site is drawn round them
        items = self._items
        for lk in design.links:
            if lk.source in items and lk.target in items:
                self.lines.show(lk)
        self.lines.refresh_bundles()
        self._regroup(groups)
        self._syncing = False
        self._select_ids(self.document.selection)
        if self.document.prediction is not None:
            self.apply_prediction(self.document.prediction)
        if self._nics_owed:
            first_paint.later(self._make_nics)

    def _add_top(self, comp: Component) -> ComponentItem:
        item: ComponentItem
        if comp.kind == "host":
            item = self._hosts[comp.id] = HostItem(comp, self.levels.level, self.host_affixes,
                                                   self.host_widths.get(comp.id, HOST_MIN_W))
        elif comp.kind in BOXES:
            item = self._boxes[comp.id] = ContainerItem(comp, self.box_styles.get(comp.kind))
        else:
            item = ComponentItem(comp)
        item.setPos(comp.x, comp.y)
        self.addItem(item)
        self._items[comp.id] = item
        if comp.kind not in BOXES:
            item.set_level(self.levels.level(comp.id, comp.kind))
        return item

    def _set_children(self, hid: str, refit: bool = True, make_nics: bool = True) -> None:
        """Give host ``hid`` its current NICs and VMs; place the items it shows
        (``make_nics``: its NICs' items too)."""
        host = self._hosts.get(hid)
        if host is None:
            return
        nics, vms = self.holdings.nics.get(hid, []), self.holdings.vms.get(hid, [])
        resized = host.set_children(nics, vms)
        for lst in (nics, vms):
            self._slot.update(zip(lst, range(len(lst)), strict=True))
        for nid in nics if make_nics else ():  # a host's few NICs always have items (VMs
            if nid not in self._items:  # only when they read)
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
        comp = self.document.shown_component(bid)
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
        rect = box_around(((r.x(), r.y(), r.width(), r.height()) for r in bodies), box.kind,
                          box.style, box.style.width_for(comp.name, box.kind))
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
        comp = self.document.shown_component(cid)
        host = self.holder(cid)
        if comp is None or host is None or cid in self._items:
            return
        item = ComponentItem(comp)
        item.set_docked(True)
        if comp.kind == "nic" and host.name:  # on its host's card its name need not
            item.set_shown_prefix(f"{host.name} ", comp)  # repeat the host's
        if comp.kind == "vm":  # dragged onto another host's card, it runs there
            item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsMovable, True)
        item.setPos(host.pos() + host.child_offset(cid, self._slot.get(cid, 0)))
        item.set_level(self.levels.level(cid, comp.kind))
        item.setVisible(not (self.far and comp.kind == "nic"))  # far out its card draws it
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
    # ------------------------------------------------------------------ array groups
    def _regroup(self, groups: list[ArrayGroup] | None = None) -> None:
        """Group the arrays again (:mod:`app.canvas.storage`; ``groups``: the design's, when
        known)."""
        self._group_timer.stop()
        doc = self.document
        self.groups.regroup(doc.shown_design(), self.holdings, doc.name_of,
                            self.box_styles["cluster"], doc.set_selection, self.item,
                            self.box_item, groups)
        self.groups.apply(self.levels)
        self.groups.select(set(doc.selection))

    def set_far(self, far: bool) -> None:
        """Far out: each group of arrays as one item, each card drawing its NICs (their
        items hidden, so that they never cover its name); zoomed in, the items."""
        if not far:
            self._make_nics()
        if far == self.far:
            return
        self.far = far
        self.groups.set_collapsed(far, self.item)
        for host in self._hosts.values():
            for nid in host.nic_ids:
                if (item := self._items.get(nid)) is not None:
                    item.setVisible(not far)
        self._select_ids(self.document.selection)  # items shown again: selected again

    def _make_nics(self) -> None:
        """Make the NICs' items that waited for the first paint."""
        if not self._nics_owed:
            return
        self._nics_owed = False
        for host in list(self._hosts.values()):
            for nid in host.nic_ids:
                if nid not in self._items:
                    self.make_child(nid)

    def _component_added(self, cid: str) -> None:
        if self._redrawn():
            return
        self._shape += 1
        comp = self.document.shown_component(cid)
        if comp is None or cid in self._items:
            return
        if comp.kind == "storage_array":
            self._group_timer.start()
        self.lines.traffic = None
        self._add_top(comp)
        if comp.kind == "vm":
            self.unplaced.schedule()
        if comp.kind == "host":
            self._rename_hosts()
            self.holdings.vms.setdefault(cid, [])
            self.holdings.nics.setdefault(cid, [])
            self._set_children(cid)
        if comp.kind in BOXES:
            self.holdings.containers.setdefault(cid, [])
            self._refit(cid)

    def _component_removed(self, cid: str) -> None:
        if self._redrawn():
            return
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
        if item.kind == "host":
            self._rename_hosts()
        if item.kind == "storage_array":
            self._group_timer.start()
        if item in self.badge.worn:
            self.badge.worn.remove(item)

    def _component_changed(self, cid: str, prop: str) -> None:
        item = self._items.get(cid)
        if item is None:
            return
        comp = self.document.shown_component(cid)
        if comp is None:
            return
        if (prop == "" and not item.docked and not (isinstance(item, ContainerItem)
                                                    and self.holdings.containers.get(cid))
                and (item.x(), item.y()) != (comp.x, comp.y)):
            item.setPos(comp.x, comp.y)
            self.item_moved(item)
        item.set_component(comp)
        if prop == "name" and comp.kind == "host":
            self._rename_hosts()

    def _rename_hosts(self) -> None:
        """The hosts' common start and domain again (a host came, went or was renamed)."""
        self.host_affixes = rename_hosts(self._hosts, self.document.shown_design(),
                                         self.host_affixes)

    def _components_changed(self, ids: list[str], prop: str) -> None:
        if prop and ids:  # a property edit of many (a kind-wide slider step): skip the
            comp = self.document.shown_component(ids[0])  # 2,000 label refreshes when the
            if comp is not None and prop not in label_props(comp):  # label ignores it
                return
        items = self._items
        for cid in ids:
            if cid in items:
                self._component_changed(cid, prop)

    def _link_added(self, lk: Link) -> None:
        if self._redrawn():
            return
        self.lines.traffic = None
        if lk.kind == "storage" and self.groups.items:
            self._group_timer.start()
        if lk.kind == "runs_on":
            self.unplaced.schedule()
        if self._by_cid is not None:
            self._by_cid.setdefault(lk.source, []).append(lk)
            self._by_cid.setdefault(lk.target, []).append(lk)
        h = self.holdings
        if (lk.kind in DOCK_LINKS and lk.target in self._hosts and lk.source not in h.host_of
                and (comp := self.document.shown_component(lk.source)) is not None
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
        if self._redrawn():
            return
        self.lines.traffic = None
        if lk.kind == "storage" and self.groups.items:
            self._group_timer.start()
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
        comp = self.document.shown_component(cid)
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
        if self.groups.items and item.kind != "vm":
            self.groups.refit(self.item, self.box_item)

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
                         and (comp := doc.shown_component(c)) is not None and comp.kind == "vm")
        for hid, host in self._hosts.items():
            host.set_selected_vms(counts.get(hid, 0))
        self.groups.select(set(doc.selection))

    # ------------------------------------------------------------------ prediction
    def apply_prediction(self, prediction: Prediction) -> None:
        """Recolour what is shown, re-tally the cards, re-width links for ``prediction``;
        touches only items whose grade changed."""
        p = prediction
        recolour(self.levels, self._items, p)
        self.tallies.apply(self._hosts, self.holdings.host_of, self.levels, self._shape)
        self.groups.apply(self.levels)
        self.lines.apply(p, self.lod())
        top = p.bottlenecks(1)
        self.badge.target = (top[0].component, top[0].util) if top and top[0].util > 0 \
            else None
        if self._nics_owed and self.badge.target is not None:
            nic = self.badge.target[0]  # a NIC wears it: its item at once, as it would have
            if (host := self.holder(nic)) is not None and nic in host.nic_ids:
                self.make_child(nic)
        self.badge.place(self.item, self.holder)

    def badge_holder(self) -> ComponentItem | None:
        """The item wearing the bottleneck badge (for tests and the finder)."""
        return self.badge.worn[0] if self.badge.worn else None

    # ------------------------------------------------------------------ events
    def helpEvent(self, event: QGraphicsSceneHelpEvent) -> None:  # noqa: N802 (Qt)
        item = self.component_at(event.scenePos())
        if item is None:  # a group of arrays, the Unplaced area: their own tooltips
            super().helpEvent(event)
            return
        text = tooltips.component_tooltip(self.document, item.cid)
        if isinstance(item, HostItem) and item.vm_badge is not None and self.badge.target:
            text += "<br>" + tooltips.component_tooltip(self.document, self.badge.target[0])
        QToolTip.showText(event.screenPos(), text)
        event.accept()
