"""Undo commands: every user edit of a design is one of these on the document's QUndoStack.

Each command's ``redo``/``undo`` call the document's ``raw_*`` primitives, which change the
design and emit the signals views follow; commands know nothing of views.  One gesture is one
command: a drag pushes one :class:`MoveComponents` on release, a slider drag merges its
:class:`SetValue` steps (``id()``/``mergeWith()``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from PySide6.QtGui import QUndoCommand

from models.document.design import Component, Link, Override, Scenario
from models.document.schema import Value

if TYPE_CHECKING:
    from app.document.design_document import DesignDocument

SET_VALUE_ID = 1001


@dataclass(frozen=True)
class OldValue:
    """What a target had before a set_value: ``present`` False means "default"."""

    present: bool
    value: Value


@dataclass
class Snapshot:
    """What the targets of a set_value held, read once: one record for the common case.

    A kind-wide edit of 2,000 VMs that all held the same value is stored as the target list
    and ONE :class:`OldValue` (``uniform``); only targets that differed keep a column
    (``column``, one OldValue per target).  ``design`` holds the design's own field or
    policy value when the selector is ``design``.
    """

    targets: list[Component | Link] = field(default_factory=list)
    uniform: OldValue | None = None
    column: list[OldValue] | None = None
    design: OldValue | None = None
    ids: list[str] = field(default_factory=list)
    """The component ids among ``targets`` (for the change signals), computed once."""

    def filled(self, value: Value) -> Snapshot:
        """The same targets all holding ``value`` (what a redo writes)."""
        return Snapshot(self.targets, OldValue(True, value), None,
                        OldValue(True, value) if self.design is not None else None, self.ids)


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
    """Set a property on what one or more selectors address, in the base design or in a
    scenario (a multi-selection edit is one command, so a drag over it merges too).

    Steps with the same non-None ``merge_key`` merge into one undo step (slider drags)."""

    def __init__(self, doc: DesignDocument, scenario: str, selects: str | Sequence[str],
                 prop: str, value: Value, merge_key: str | None,
                 after: SetValue | None = None):
        self.selects = (selects,) if isinstance(selects, str) else tuple(selects)
        super().__init__(f"Set {prop or self.selects[0]}")
        self.doc = doc
        self.scenario = scenario
        self.prop = prop
        self.value = value
        self.merge_key = merge_key
        self.old = Snapshot()
        self.old_overrides: list[Override] = []
        self.edits_after = -1
        """The document's edit counter right after redo (see DesignDocument.edits)."""
        if scenario == "base" and after is not None and after.scenario == scenario \
                and after.selects == self.selects and after.prop == prop:
            # the previous step of this drag wrote after.value to every target and nothing
            # was written since: no need to read them again
            self.old = after.old.filled(after.value)
        elif scenario == "base":
            self.old = doc.raw_read_values(self.selects, prop)
        else:
            self.old_overrides = list(doc.design.scenario(scenario).overrides)

    @property
    def select(self) -> str:
        """The first selector (the only one unless a multi-selection was edited)."""
        return self.selects[0]

    def id(self) -> int:
        return SET_VALUE_ID if self.merge_key is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 (Qt override)
        if not isinstance(other, SetValue) or other.merge_key != self.merge_key:
            return False
        if (other.scenario, other.selects, other.prop) != (self.scenario, self.selects,
                                                           self.prop):
            return False
        self.value = other.value
        self.edits_after = other.edits_after
        return True

    def _overrides(self) -> list[Override]:
        return [Override(s, self.prop, self.value) for s in self.selects]

    def redo(self) -> None:
        if self.scenario == "base":
            self.doc.raw_write_values(self.selects, self.prop, self.old.filled(self.value),
                                      self._overrides())
        else:
            new = self._overrides()
            keys = {(s, self.prop) for s in self.selects}
            overrides = [o for o in self.old_overrides if (o.select, o.prop) not in keys]
            overrides.extend(new)
            self.doc.raw_set_overrides(self.scenario, overrides, self.selects, self.prop, new)
        self.edits_after = self.doc.edits

    def undo(self) -> None:
        if self.scenario == "base":
            self.doc.raw_write_values(self.selects, self.prop, self.old, self._old_patches())
        else:
            self.doc.raw_set_overrides(self.scenario, self.old_overrides, self.selects,
                                       self.prop)

    def _old_patches(self) -> list[Override] | None:
        """Patches that restore the engine when every target held one explicit value (the
        engine then updates in place instead of recompiling); None otherwise."""
        old = self.old.uniform
        if old is None or not old.present or self.old.design is not None:
            return None
        return [Override(s, self.prop, old.value) for s in self.selects]


class ReplaceContents(QUndoCommand):
    """Swap the design's components and links for another set (applying a goal-seek answer
    that rebuilds hosts or VMs); undo puts the old lists back.  Scenarios and policy stay."""

    def __init__(self, doc: DesignDocument, components: list[Component], links: list[Link],
                 text: str):
        super().__init__(text)
        self.doc = doc
        self.new = (list(components), list(links))
        self.old = (list(doc.design.components), list(doc.design.links))

    def redo(self) -> None:
        self.doc.raw_set_contents(*self.new)

    def undo(self) -> None:
        self.doc.raw_set_contents(*self.old)


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
