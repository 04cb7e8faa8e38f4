"""The canvas scene: a mirror of the document, one item per component and per link.

The scene keeps a private id -> item map and changes only in answer to document signals
(``component_added``, ``link_removed``, ``prediction_updated``, ...).  User gestures go the
other way: they call document edit methods (see the interaction modules next to this one) and
the resulting signals update the items.  A new prediction recolours items with one vectorised
level lookup per kind and touches only the items whose level changed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from PySide6.QtCore import QPointF, Qt, Signal
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

from app import theme
from app.canvas import tooltips
from app.canvas.context_menu import build_menu
from app.canvas.items import NO_DATA, SIZES, ComponentItem, LinkItem, describe
from app.canvas.linking import LinkTool
from app.canvas.move import MoveTracker
from app.canvas.unplaced import UnplacedArea
from app.document.design_document import DesignDocument
from models.document.design import Component, Link
from models.document.schema import Value
from models.engine.prediction import Prediction

LinkKey = tuple[str, str, str]
WIDTH_LEVELS = 6


def link_key(link: Link) -> LinkKey:
    return (link.kind, link.source, link.target)


@dataclass
class _KindCache:
    ids: list[str]
    items: list[ComponentItem | None]
    levels: np.ndarray


@dataclass
class _LinkCache:
    items: list[LinkItem] = field(default_factory=list)
    levels: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    vm_index: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    """For each link item: the VM row (runs_on, disk_on, ft_secondary_on) or -1."""
    nic_index: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    pair_code: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    """For storage links: host_row * n_arrays + array_row, else -1."""
    vm_pair_code: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))


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
    """Items for every component and link of ``document``, kept in step with it."""

    status_message = Signal(str)
    """Something the user should read on the status bar (why a link was refused, ...)."""

    def __init__(self, document: DesignDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.BspTreeIndex)
        self._items: dict[str, ComponentItem] = {}
        self._links: dict[LinkKey, LinkItem] = {}
        self._adjacent: dict[str, list[LinkItem]] = {}
        self._docked: dict[str, list[ComponentItem]] = {}
        self._kind_cache: dict[str, _KindCache] = {}
        self._link_cache: _LinkCache | None = None
        self._badge: ComponentItem | None = None
        self._syncing = False
        self.link_tool = LinkTool(self)
        self.mover = MoveTracker(self)
        self.unplaced = UnplacedArea(self)
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
        return self._items.get(cid)

    def link_item(self, link: Link) -> LinkItem | None:
        return self._links.get(link_key(link))

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

    def docked_items(self, cid: str) -> list[ComponentItem]:
        return list(self._docked.get(cid, []))

    def selected_links(self) -> list[Link]:
        return [it.link for it in self.selectedItems() if isinstance(it, LinkItem)]

    # ------------------------------------------------------------------ building
    def rebuild(self) -> None:
        """Recreate every item from the document (only on design_replaced)."""
        self._syncing = True
        self.clear()
        self._items.clear()
        self._links.clear()
        self._adjacent.clear()
        self._docked.clear()
        self._invalidate()
        self._badge = None
        self.unplaced.reset()
        for comp in self.document.design.components:
            item = ComponentItem(comp)
            item.setPos(comp.x, comp.y)
            self.addItem(item)
            self._items[comp.id] = item
        for link in self.document.design.links:
            self._add_link_item(link)
        self._syncing = False
        self._select_ids(self.document.selection)
        if self.document.prediction is not None:
            self.apply_prediction(self.document.prediction)

    def _add_link_item(self, link: Link) -> None:
        src, dst = self._items.get(link.source), self._items.get(link.target)
        if src is None or dst is None:
            return
        item = LinkItem(link, src, dst)
        self.addItem(item)
        self._links[link_key(link)] = item
        self._adjacent.setdefault(link.source, []).append(item)
        self._adjacent.setdefault(link.target, []).append(item)
        if link.kind == "installed_in":
            self._docked.setdefault(link.target, []).append(src)
            src.set_docked(True)
            self._layout_docked(link.target)
        elif link.kind == "runs_on":
            self.unplaced.schedule()

    def _layout_docked(self, host_id: str) -> None:
        host = self._items.get(host_id)
        if host is None:
            return
        nics = self._docked.get(host_id, [])
        hw, hh = SIZES["host"]
        nw, nh = SIZES["nic"]
        for i, nic in enumerate(nics):  # a row of NIC chips just under the host
            nic.setPos(host.pos() + QPointF(-hw / 2 + nw / 2 + 4 + i * (nw + 4),
                                            hh / 2 + nh / 2 + 3))
            for lk in self._adjacent.get(nic.cid, ()):
                lk.adjust()

    # ------------------------------------------------------------------ document -> items
    def _component_added(self, cid: str) -> None:
        comp = self.document.component(cid)
        if comp is None or cid in self._items:
            return
        item = ComponentItem(comp)
        item.setPos(comp.x, comp.y)
        self.addItem(item)
        self._items[cid] = item
        self._invalidate()
        if comp.kind == "vm":
            self.unplaced.schedule()

    def _component_removed(self, cid: str) -> None:
        item = self._items.pop(cid, None)
        if item is None:
            return
        if item is self._badge:
            self._badge = None
        for lk in list(self._adjacent.get(cid, [])):
            self._link_removed(lk.link)
        self._adjacent.pop(cid, None)
        self._docked.pop(cid, None)
        self.removeItem(item)
        self._invalidate()
        if item.kind == "vm":
            self.unplaced.schedule()

    def _component_changed(self, cid: str, prop: str) -> None:
        item = self._items.get(cid)
        comp = self.document.component(cid)
        if item is None or comp is None:
            return
        if prop == "" and not item.docked and (item.x(), item.y()) != (comp.x, comp.y):
            item.setPos(comp.x, comp.y)
            self.item_moved(item)
        item.set_component(comp)

    def _components_changed(self, ids: list[str], prop: str) -> None:
        if prop and ids:  # a property edit of many (a kind-wide slider step): skip the
            comp = self.document.component(ids[0])  # 2,000 label refreshes when the
            if comp is not None and prop not in _label_props(comp):  # label ignores it
                return
        for cid in ids:
            self._component_changed(cid, prop)

    def _link_added(self, link: Link) -> None:
        if link_key(link) not in self._links:
            self._add_link_item(link)
            self._invalidate_links()

    def _link_removed(self, link: Link) -> None:
        item = self._links.pop(link_key(link), None)
        if item is None:
            return
        for end in (link.source, link.target):
            lst = self._adjacent.get(end)
            if lst is not None and item in lst:
                lst.remove(item)
        if link.kind == "installed_in":
            nics = self._docked.get(link.target, [])
            if item.source in nics:
                nics.remove(item.source)
                item.source.set_docked(False)
                self._layout_docked(link.target)
        self.removeItem(item)
        self._invalidate_links()
        if link.kind == "runs_on":
            self.unplaced.schedule()

    def item_moved(self, item: ComponentItem) -> None:
        """After ``item`` moved (drag or document): keep its links and docked NICs attached.
        (No itemChange override: PySide6 mishandles its return value's reference count.)"""
        for lk in self._adjacent.get(item.cid, ()):
            lk.adjust()
        if item.kind == "host" and item.cid in self._docked:
            self._layout_docked(item.cid)
        if item.kind == "vm" and self.unplaced.count:
            self.unplaced.schedule()

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

    def _selection_from_scene(self) -> None:
        if self._syncing:
            return
        self._syncing = True
        try:
            ids = [it.cid for it in self.selectedItems() if isinstance(it, ComponentItem)]
            self.document.set_selection(ids)
        finally:
            self._syncing = False

    # ------------------------------------------------------------------ prediction
    def _invalidate(self) -> None:
        self._kind_cache.clear()
        self._link_cache = None

    def _invalidate_links(self) -> None:
        self._link_cache = None

    def apply_prediction(self, prediction: Prediction) -> None:
        """Recolour items and re-width links for ``prediction`` (changed items only)."""
        p = prediction
        self._apply_levels("host", p.hosts.ids, p.hosts.cpu_util)
        self._apply_levels("storage_array", p.arrays.ids, p.arrays.util)
        self._apply_levels("nic", p.nics.ids, p.nics.util)
        self._apply_levels("vm", p.vms.ids, p.vms.cpu_util)
        self._apply_link_widths(p)
        top = p.bottlenecks(1)
        badge = self._items.get(top[0].component) if top and top[0].util > 0 else None
        if badge is not self._badge:
            if self._badge is not None:
                self._badge.set_badge(False)
            self._badge = badge
        if badge is not None:
            badge.set_badge(True, top[0].util)

    def _apply_levels(self, kind: str, ids: list[str], util: np.ndarray) -> None:
        cache = self._kind_cache.get(kind)
        if cache is None or (cache.ids is not ids and cache.ids != ids):
            cache = _KindCache(ids, [self._items.get(i) for i in ids],
                               np.full(len(ids), NO_DATA - 1, dtype=np.int64))
            self._kind_cache[kind] = cache
        levels = theme.util_grades(util)  # NO_DATA (-1) where not modelled
        changed = np.flatnonzero(levels != cache.levels)
        items = cache.items
        for i in changed.tolist():
            item = items[i]
            if item is not None:
                item.set_level(int(levels[i]))
        cache.levels = levels

    def _build_link_cache(self, p: Prediction) -> _LinkCache:
        vm_row = {vid: i for i, vid in enumerate(p.vms.ids)}
        nic_row = {nid: i for i, nid in enumerate(p.nics.ids)}
        host_row = {hid: i for i, hid in enumerate(p.hosts.ids)}
        arr_row = {aid: i for i, aid in enumerate(p.arrays.ids)}
        n_arr = max(1, len(p.arrays.ids))
        items = list(self._links.values())
        vm_index, nic_index, pair_code = [], [], []
        vm_host = np.full(len(p.vms.ids), -1, np.int64)
        vm_arr = np.full(len(p.vms.ids), -1, np.int64)
        for it in items:
            lk = it.link
            vm_index.append(vm_row.get(lk.source, -1) if lk.kind in (
                "runs_on", "disk_on", "ft_secondary_on") else -1)
            nic_index.append(nic_row.get(lk.source, -1) if lk.kind == "installed_in" else -1)
            if lk.kind == "storage" and lk.source in host_row and lk.target in arr_row:
                pair_code.append(host_row[lk.source] * n_arr + arr_row[lk.target])
            else:
                pair_code.append(-1)
            if lk.kind == "runs_on" and lk.source in vm_row and lk.target in host_row:
                vm_host[vm_row[lk.source]] = host_row[lk.target]
            if lk.kind == "disk_on" and lk.source in vm_row and lk.target in arr_row:
                vm_arr[vm_row[lk.source]] = arr_row[lk.target]
        ok = (vm_host >= 0) & (vm_arr >= 0)
        vm_pair = np.where(ok, vm_host * n_arr + vm_arr, -1)
        return _LinkCache(items, np.zeros(len(items), np.int64),
                          np.array(vm_index, np.int64), np.array(nic_index, np.int64),
                          np.array(pair_code, np.int64), vm_pair)

    def _apply_link_widths(self, p: Prediction) -> None:
        cache = self._link_cache
        if cache is None or len(cache.items) != len(self._links):
            cache = self._link_cache = self._build_link_cache(p)
        if not cache.items:
            return
        vm_mbps = np.nan_to_num(np.asarray(p.vms.storage_mbps, np.float64))
        vm_net = np.nan_to_num(np.asarray(p.vms.net_gbps, np.float64)) * 125.0
        nic_mbps = np.nan_to_num(np.asarray(p.nics.gbps, np.float64)) * 125.0
        traffic = np.zeros(len(cache.items))
        if len(vm_mbps):
            has_vm = cache.vm_index >= 0
            traffic[has_vm] = (vm_mbps + vm_net)[cache.vm_index[has_vm]]
            has_pair = cache.pair_code >= 0
            if has_pair.any():
                ok = cache.vm_pair_code >= 0
                size = int(max(cache.pair_code.max(), cache.vm_pair_code.max(initial=0))) + 1
                per_pair = np.bincount(cache.vm_pair_code[ok], weights=vm_mbps[ok],
                                       minlength=size)
                traffic[has_pair] = per_pair[cache.pair_code[has_pair]]
        if len(nic_mbps):
            has_nic = cache.nic_index >= 0
            traffic[has_nic] = nic_mbps[cache.nic_index[has_nic]]
        top = float(traffic.max())
        levels = (np.rint(WIDTH_LEVELS * np.log1p(traffic) / np.log1p(top)).astype(np.int64)
                  if top > 0 else np.zeros(len(traffic), np.int64))
        changed = np.flatnonzero(levels != cache.levels)
        if len(changed):
            # far out most widths draw as the same hairline: only links whose drawn width
            # changes repaint (a slider step re-widths thousands of VM links)
            lod = max((v.transform().m11() for v in self.views()), default=1.0)
            drawn = LinkItem.drawn_width
            for i in changed.tolist():
                item, level = cache.items[i], int(levels[i])
                item.set_width_level(level, item.isSelected() or drawn(level, lod) != drawn(
                    item.width_level, lod))
        cache.levels = levels

    # ------------------------------------------------------------------ events
    def helpEvent(self, event: QGraphicsSceneHelpEvent) -> None:  # noqa: N802 (Qt)
        item = self.component_at(event.scenePos())
        if item is None:
            QToolTip.hideText()
            event.ignore()
            return
        text = tooltips.component_tooltip(self.document, item.cid)
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
            for cid in self.mover.start:  # items move live: keep their links attached
                item = self._items.get(cid)
                if item is not None:
                    self.item_moved(item)

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802 (Qt)
        if self.link_tool.release(event):
            event.accept()
            return
        super().mouseReleaseEvent(event)
        event.accept()
        self.mover.release()

    def item_at(self, pos: QPointF) -> QGraphicsItem | None:
        return self.itemAt(pos, QTransform())
