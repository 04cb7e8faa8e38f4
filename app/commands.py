"""Undo commands: every user edit of a design is one of these on the document's QUndoStack.

Each command's ``redo``/``undo`` call the document's ``raw_*`` primitives, which change the
design and emit the signals views follow; commands know nothing of views.  One gesture is one
command: a drag pushes one :class:`MoveComponents` on release, a slider drag merges its
:class:`SetValue` steps (``id()``/``mergeWith()``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtGui import QUndoCommand

from models.design import Component, Link, Override, Scenario
from models.schema import Value

if TYPE_CHECKING:
    from app.document import DesignDocument

SET_VALUE_ID = 1001


@dataclass(frozen=True)
class OldValue:
    """What a target had before a set_value: ``present`` False means "default"."""

    present: bool
    value: Value


class AddComponents(QUndoCommand):
    """Add components and the links that come with them (drop, paste)."""

    def __init__(self, doc: DesignDocument, comps: list[Component], links: list[Link],
                 text: str):
        super().__init__(text)
        self.doc = doc
        self.comps = list(comps)
        self.links = list(links)

    def redo(self) -> None:
        for comp in self.comps:
            self.doc.raw_insert_component(comp, len(self.doc.design.components))
        for lk in self.links:
            self.doc.raw_insert_link(lk, len(self.doc.design.links))

    def undo(self) -> None:
        for lk in reversed(self.links):
            self.doc.raw_remove_link(lk)
        for comp in reversed(self.comps):
            self.doc.raw_remove_component(comp.id)


class RemoveComponents(QUndoCommand):
    """Remove components and every link that touches them; undo puts all back in place."""

    def __init__(self, doc: DesignDocument, ids: list[str]):
        super().__init__(f"Delete {ids[0]}" if len(ids) == 1 else f"Delete {len(ids)} items")
        self.doc = doc
        self.ids = list(ids)
        self.removed: list[tuple[Component, int]] = []
        self.removed_links: list[tuple[Link, int]] = []

    def redo(self) -> None:
        gone = set(self.ids)
        self.removed_links = []
        for lk in [lk for lk in self.doc.design.links if gone & {lk.source, lk.target}]:
            index = self.doc.raw_remove_link(lk)
            self.removed_links.append((lk, index))
        self.removed = [self.doc.raw_remove_component(cid) for cid in self.ids]

    def undo(self) -> None:
        for comp, index in reversed(self.removed):
            self.doc.raw_insert_component(comp, index)
        for lk, index in reversed(self.removed_links):
            self.doc.raw_insert_link(lk, index)


class MoveComponents(QUndoCommand):
    """Move components to new positions (pushed once, when a drag ends)."""

    def __init__(self, doc: DesignDocument, moves: dict[str, tuple[float, float]]):
        super().__init__("Move" if len(moves) > 1 else f"Move {next(iter(moves))}")
        self.doc = doc
        self.new = dict(moves)
        self.old: dict[str, tuple[float, float]] = {}
        for cid in moves:
            comp = doc.design.component(cid)
            if comp is not None:
                self.old[cid] = (comp.x, comp.y)

    def redo(self) -> None:
        self.doc.raw_set_positions(self.new)

    def undo(self) -> None:
        self.doc.raw_set_positions(self.old)


class AddLink(QUndoCommand):
    """Add a link, replacing the source's previous one-per-source link of that kind."""

    def __init__(self, doc: DesignDocument, link: Link, replaced: list[Link]):
        super().__init__(f"Link {link.source} {link.kind} {link.target}")
        self.doc = doc
        self.link = link
        self.replaced = list(replaced)
        self.replaced_at: list[int] = []

    def redo(self) -> None:
        self.replaced_at = [self.doc.raw_remove_link(lk) for lk in self.replaced]
        self.doc.raw_insert_link(self.link, len(self.doc.design.links))

    def undo(self) -> None:
        self.doc.raw_remove_link(self.link)
        for lk, index in reversed(list(zip(self.replaced, self.replaced_at, strict=True))):
            self.doc.raw_insert_link(lk, index)


class RemoveLink(QUndoCommand):
    def __init__(self, doc: DesignDocument, link: Link):
        super().__init__(f"Unlink {link.source} {link.kind} {link.target}")
        self.doc = doc
        self.link = link
        self.index = -1

    def redo(self) -> None:
        self.index = self.doc.raw_remove_link(self.link)

    def undo(self) -> None:
        self.doc.raw_insert_link(self.link, self.index)


class SetValue(QUndoCommand):
    """Set a property on what a selector addresses, in the base design or in a scenario.

    Steps with the same non-None ``merge_key`` merge into one undo step (slider drags)."""

    def __init__(self, doc: DesignDocument, scenario: str, select: str, prop: str,
                 value: Value, merge_key: str | None):
        super().__init__(f"Set {prop or select}")
        self.doc = doc
        self.scenario = scenario
        self.select = select
        self.prop = prop
        self.value = value
        self.merge_key = merge_key
        self.old_values: dict[object, OldValue] = {}
        self.old_overrides: list[Override] = []
        if scenario == "base":
            self.old_values = doc.raw_read_values(select, prop)
        else:
            self.old_overrides = list(doc.design.scenario(scenario).overrides)

    def id(self) -> int:
        return SET_VALUE_ID if self.merge_key is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 (Qt override)
        if not isinstance(other, SetValue) or other.merge_key != self.merge_key:
            return False
        if (other.scenario, other.select, other.prop) != (self.scenario, self.select,
                                                          self.prop):
            return False
        self.value = other.value
        return True

    def _override(self) -> Override:
        return Override(self.select, self.prop, self.value)

    def redo(self) -> None:
        if self.scenario == "base":
            new = {key: OldValue(True, self.value) for key in self.old_values}
            self.doc.raw_write_values(self.select, self.prop, new, self._override())
            return
        ov = self._override()
        overrides = [o for o in self.old_overrides
                     if (o.select, o.prop) != (self.select, self.prop)]
        overrides.append(ov)
        self.doc.raw_set_overrides(self.scenario, overrides, self.select, self.prop, ov)

    def undo(self) -> None:
        if self.scenario == "base":
            self.doc.raw_write_values(self.select, self.prop, self.old_values)
        else:
            self.doc.raw_set_overrides(self.scenario, self.old_overrides, self.select,
                                       self.prop)


class AddScenario(QUndoCommand):
    def __init__(self, doc: DesignDocument, scenario: Scenario):
        super().__init__(f"Add scenario {scenario.name}")
        self.doc = doc
        self.scenario = scenario

    def redo(self) -> None:
        self.doc.raw_insert_scenario(self.scenario, len(self.doc.design.scenarios))

    def undo(self) -> None:
        self.doc.raw_remove_scenario(self.scenario.name)


class RemoveScenario(QUndoCommand):
    def __init__(self, doc: DesignDocument, name: str):
        super().__init__(f"Remove scenario {name}")
        self.doc = doc
        self.name = name
        self.removed: tuple[Scenario, int] | None = None

    def redo(self) -> None:
        self.removed = self.doc.raw_remove_scenario(self.name)

    def undo(self) -> None:
        if self.removed is not None:
            self.doc.raw_insert_scenario(*self.removed)
