"""What a canvas interaction may ask, and what it is told.

The scene (:mod:`app.canvas.scene`) mirrors the document; the ways of working it (moving,
linking, the rubber band, the context menu, level of detail, ...) are one module each,
installed on the scene by the view (:mod:`app.canvas.view`).  An interaction sees the scene
as a :class:`Canvas` and the document as :class:`Edits`: the few queries it needs and the
edit methods it calls, each of which pushes one undo step.  It knows the scene only as a
Canvas, and the scene knows it only as an :class:`Interaction`: a set of hooks it calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsSceneContextMenuEvent,
    QGraphicsSceneMouseEvent,
)

from app.canvas.cards import ContainerItem, HostItem
from app.canvas.items import ComponentItem, LinkItem
from models.document.design import Component, Design, Link
from models.io.placement import Holdings


class Edits(Protocol):
    """The document as an interaction sees it (a ``DesignDocument`` is one): the design the
    canvas shows and the selection, how it names a component, and the edits a gesture
    makes, each one undo step."""

    def shown_design(self) -> Design:
        """The base design, or in a refresh kept as a scenario the scenario's hosts in place
        of those it removes."""
        ...

    @property
    def selection(self) -> list[str]: ...
    @property
    def edits(self) -> int:
        """Counts the writes to the design (a list of names made from it is kept until it
        changes)."""
        ...

    def name_of(self, cid: str) -> str: ...
    def new_id(self, kind: str, taken: set[str] | None = None) -> str: ...
    def set_selection(self, ids: list[str]) -> None: ...
    def add_components(self, comps: list[Component], links: list[Link],
                       text: str | None = None) -> None: ...
    def remove_components(self, ids: Sequence[str], links: Sequence[Link] = ()) -> None: ...
    def add_link(self, link: Link) -> str | None: ...
    def remove_link(self, link: Link) -> None: ...
    def move_components(self, moves: dict[str, tuple[float, float]]) -> None: ...
    def move_and_join(self, moves: dict[str, tuple[float, float]], joins: Sequence[Link]
                      ) -> tuple[str, list[str]]: ...


class Canvas(Protocol):
    """The scene as an interaction sees it: its items by id and by place, what holds what,
    and a word for the status bar."""

    @property
    def document(self) -> Edits: ...
    @property
    def holdings(self) -> Holdings: ...

    def item(self, cid: str) -> ComponentItem | None:
        """The item of ``cid``; None for a VM its host's card draws (or an unknown id)."""
        ...

    def holder(self, cid: str) -> HostItem | None:
        """The card ``cid`` (a VM or NIC) sits on, if any."""
        ...

    def links_of(self, cid: str) -> list[Link]:
        """The links of the design shown that touch ``cid``."""
        ...

    def child_pos(self, cid: str) -> QPointF | None:
        """Where docked ``cid`` sits on its host's card."""
        ...

    def component_at(self, pos: QPointF, exclude: QGraphicsItem | None = None
                     ) -> ComponentItem | None: ...

    def target_at(self, pos: QPointF, exclude: ComponentItem | None = None
                  ) -> ComponentItem | None:
        """What a drop or a link at ``pos`` lands on (a VM or NIC counts as its host, the
        inside of a box as the box)."""
        ...

    def pick(self, pos: QPointF) -> ComponentItem | LinkItem | None:
        """The topmost component or line (not a bundle) at ``pos``."""
        ...

    def hosts_in(self, rect: QRectF) -> list[HostItem]:
        """The host cards whose bounds meet ``rect``."""
        ...

    def container_items(self) -> list[ContainerItem]: ...
    def component_items(self) -> list[ComponentItem]: ...
    def selected_components(self) -> list[ComponentItem]: ...
    def selected_links(self) -> list[Link]: ...

    def item_moved(self, item: ComponentItem) -> None:
        """Keep ``item``'s lines, its card's items and the boxes holding it in step while it
        is dragged."""
        ...

    def adjust_lines(self, cid: str) -> None:
        """Re-route the lines of ``cid`` (a VM dragged off its pill)."""
        ...

    def make_child(self, cid: str) -> None:
        """Give docked VM ``cid`` an item of its own on its card."""
        ...

    def drop_child(self, cid: str) -> None:
        """Take docked VM ``cid``'s item away (its card draws it again)."""
        ...

    def tell(self, message: str) -> None:
        """Say ``message`` on the status bar."""
        ...

    def read_only(self) -> str:
        """Why the canvas takes no edit now (it shows a refresh kept as a scenario); "" when
        it does (:mod:`app.canvas.readonly`)."""
        ...

    def set_far(self, far: bool) -> None:
        """The view is far out (nothing on a card reads but its name): each group of
        storage arrays as one item, NICs drawn by their cards; or not."""
        ...

    def addItem(self, item: QGraphicsItem, /) -> None: ...  # noqa: N802 (Qt)
    def removeItem(self, item: QGraphicsItem, /) -> None: ...  # noqa: N802 (Qt)


class Interaction:
    """One way of working the canvas, installed on the scene by the view.  The scene calls
    each hook at its moment; they do nothing unless overridden.  A hook that returns True
    has taken the event: neither the scene nor a later interaction sees it."""

    def press(self, event: QGraphicsSceneMouseEvent) -> bool:
        """A mouse press, before the scene's own handling (which selects)."""
        return False

    def move(self, event: QGraphicsSceneMouseEvent) -> bool:
        """A mouse move, before the scene's own handling (which drags the movable items)."""
        return False

    def release(self, event: QGraphicsSceneMouseEvent) -> bool:
        return False

    def pressed(self, event: QGraphicsSceneMouseEvent) -> None:
        """After the scene handled a press (the selection is the one the user pressed)."""

    def moved(self, event: QGraphicsSceneMouseEvent) -> None:
        """After the scene handled a move (dragged items are where the mouse has them)."""

    def released(self, event: QGraphicsSceneMouseEvent) -> None:
        """After the scene handled a release."""

    def context_menu(self, event: QGraphicsSceneContextMenuEvent) -> bool:
        return False

    def selecting(self) -> None:
        """The user changed which items are selected; the document has not heard yet."""

    def shown_changed(self) -> None:
        """The selection or what holds what changed: the docked items wanted may differ."""
