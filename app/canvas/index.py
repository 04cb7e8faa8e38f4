"""The scene's items by id and by place: what an interaction may look up
(:class:`~app.canvas.protocol.Canvas`) and the maps behind it, which
:class:`~app.canvas.scene.DesignScene` keeps in step with the document."""

from __future__ import annotations

from PySide6.QtCore import QObject, QPointF, QRectF, Qt
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene

from app.canvas.cards import ContainerItem, HostItem
from app.canvas.hooks import HookedScene
from app.canvas.items import ComponentItem, LinkItem
from app.canvas.lines import Lines, link_key
from models.document.design import Link
from models.io.placement import Holdings


class ItemIndex(HookedScene):
    """The id -> item maps of a scene, what holds what, its lines, and the lookups over
    them."""

    lines: Lines
    """Made by the scene, which is the :class:`~app.canvas.protocol.Canvas` they draw on."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        # no BSP tree: a few thousand items, many of them long lines, which a BSP tree files
        # in every cell they cross (700 MB for an estate of 50,000 VMs)
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
        self._items: dict[str, ComponentItem] = {}
        self._hosts: dict[str, HostItem] = {}
        self._boxes: dict[str, ContainerItem] = {}
        self._by_cid: dict[str, list[Link]] | None = None
        """The design's links by the components they touch; made when first asked (a pass
        over 100,000 links of an estate that opening need not wait for)."""
        self._slot: dict[str, int] = {}
        self.holdings = Holdings({}, {}, {}, {}, {})

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
            for lk in self.design_links():
                self._by_cid.setdefault(lk.source, []).append(lk)
                self._by_cid.setdefault(lk.target, []).append(lk)
        return self._by_cid

    def design_links(self) -> list[Link]:
        """The links of the design drawn (the scene reads its document's)."""
        return []

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
