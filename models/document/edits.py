"""Edits of a design as plain data, and what each one changed.

A :class:`~models.session.session.Session` builds and checks an edit (``add_components``,
``set_values``, ...), then :meth:`~models.session.session.Session.apply` carries it out and
returns the edit that undoes it with a :class:`Change` describing what happened.  Undoing is
applying that inverse; it returns the original edit's equivalent again.  Every edit carries a
``label`` in the user's words (display names, not ids) for undo menus.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from models.document.design import Component, Link, Override, Scenario
from models.document.schema import Value


@dataclass(frozen=True)
class Structure:
    """Take links and components out, then put components and links in.

    Removals name what goes (the links touching removed components go too); insertions carry
    the list position to insert at (``-1``: append) so an undo puts everything back where it
    was.  Adding, deleting, pasting and re-linking are all one of these."""

    label: str
    remove_links: tuple[Link, ...] = ()
    remove_ids: tuple[str, ...] = ()
    add_components: tuple[tuple[Component, int], ...] = ()
    add_links: tuple[tuple[Link, int], ...] = ()


@dataclass(frozen=True)
class Move:
    """Put components at new canvas positions (one drag)."""

    label: str
    positions: tuple[tuple[str, float, float], ...]


class OldValue(NamedTuple):
    """What a target held before a write: ``present`` False means "the default".  A named
    tuple, not a frozen dataclass: a kind-wide edit of 50,000 VMs that held different values
    keeps one per VM (made in a fifth of the time)."""

    present: bool
    value: Value


@dataclass(frozen=True)
class Snapshot:
    """What the targets of a value edit held, read once.

    A kind-wide edit of 2,000 VMs that all held the same value keeps the target list and ONE
    :class:`OldValue` (``uniform``); targets that differed keep their values side by side
    (``held``, and ``absent``: the positions of targets that held none), read back as one
    :class:`OldValue` per target by :attr:`column`.  Two tuples, not 50,000 records: the
    collector walks a record per VM while the undo step lives, and that walk held a
    50,000-VM slider drag for tens of milliseconds.  ``design`` holds the design's own field
    or policy value for the ``design`` selector."""

    targets: tuple[Component | Link, ...] = ()
    uniform: OldValue | None = None
    held: tuple[Value, ...] | None = None
    """Per target, the value it held (None where ``absent``); None when ``uniform``."""
    absent: frozenset[int] = frozenset()
    design: OldValue | None = None
    ids: tuple[str, ...] = ()
    """The component ids among ``targets`` (for change notices), computed once."""

    @property
    def column(self) -> tuple[OldValue, ...] | None:
        """One :class:`OldValue` per target when they differed (None when ``uniform``)."""
        if self.held is None:
            return None
        absent = self.absent
        return tuple(OldValue(False, None) if i in absent else OldValue(True, v)
                     for i, v in enumerate(self.held))

    def filled(self, value: Value) -> Snapshot:
        """The same targets all holding ``value`` (what a write of ``value`` leaves)."""
        return Snapshot(self.targets, OldValue(True, value),
                        design=OldValue(True, value) if self.design is not None else None,
                        ids=self.ids)


@dataclass(frozen=True)
class SetValues:
    """Set ``prop`` on what each selector addresses: in the base design, or as overrides of
    a named ``scenario``.  A component's ``name`` and the design's ``name``/``notes`` are
    fields, always on the base design."""

    label: str
    scenario: str
    selects: tuple[str, ...]
    prop: str
    value: Value


@dataclass(frozen=True)
class RestoreValues:
    """Write a :class:`Snapshot` back into the base design (the undo of a base SetValues)."""

    label: str
    selects: tuple[str, ...]
    prop: str
    snapshot: Snapshot


@dataclass(frozen=True)
class SetOverrides:
    """Replace a scenario's override list (the undo of a scenario SetValues)."""

    label: str
    scenario: str
    overrides: tuple[Override, ...]
    selects: tuple[str, ...]
    prop: str


@dataclass(frozen=True)
class Contents:
    """Swap the design's whole component and link lists (a goal-seek answer that rebuilds
    hosts or VMs); scenarios, policy and name stay."""

    label: str
    components: tuple[Component, ...]
    links: tuple[Link, ...]


@dataclass(frozen=True)
class AddScenario:
    label: str
    scenario: Scenario
    index: int = -1


@dataclass(frozen=True)
class RemoveScenario:
    label: str
    name: str


@dataclass(frozen=True)
class Batch:
    """Several edits carried out in turn as one (a host let go in another site's box moves
    and joins it); its inverse is the parts' inverses in reverse order."""

    label: str
    edits: tuple[Edit, ...]


Edit = (Structure | Move | SetValues | RestoreValues | SetOverrides | Contents | AddScenario
        | RemoveScenario | Batch)


@dataclass
class Change:
    """What one applied edit changed, in the order it happened (the app emits one signal per
    entry; nothing here refers to a view)."""

    links_removed: list[Link] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    links_added: list[Link] = field(default_factory=list)
    moved: list[str] = field(default_factory=list)
    contents: bool = False
    """The whole component and link lists were swapped: views rebuild."""
    values: tuple[tuple[str, ...], str, list[str]] | None = None
    """(selectors, property, ids of the components whose value changed)."""
    scenarios: bool = False
    """The list of scenarios or their overrides changed."""
    scenario_reset: bool = False
    """The active scenario was removed: the session is back on 'base'."""
    stale: bool = False
    """The active scenario's prediction may have changed: evaluate again."""
    structure: bool = False
    """Components, links or names changed: every compiled design is out of date."""
    written: str | None = None
    """The scenario whose values were written ('base' or a name), when only values were."""
    patches: tuple[Override, ...] | None = None
    """How a compiled design of ``written`` follows the write in place (None: it compiles
    again)."""

    def then(self, later: Change) -> Change:
        """This change followed by ``later``, as one (the parts of a :class:`Batch`; of two
        value edits, ``values`` names the later)."""
        written = {c.written for c in (self, later) if c.written is not None}
        unpatched = any(c.written is not None and c.patches is None for c in (self, later))
        structure = self.structure or later.structure or len(written) > 1
        follows = not structure and len(written) == 1
        return Change(
            links_removed=self.links_removed + later.links_removed,
            removed=self.removed + later.removed, added=self.added + later.added,
            links_added=self.links_added + later.links_added, moved=self.moved + later.moved,
            contents=self.contents or later.contents,
            values=later.values if later.values is not None else self.values,
            scenarios=self.scenarios or later.scenarios,
            scenario_reset=self.scenario_reset or later.scenario_reset,
            stale=self.stale or later.stale, structure=structure,
            written=written.pop() if follows else None,
            patches=(self.patches or ()) + (later.patches or ()) if follows and not unpatched
            else None)
