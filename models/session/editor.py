"""The editor: a design, its active scenario, and every edit built, checked and applied.

An :class:`Editor` owns a :class:`~models.document.design.Design` and the active scenario.
Edits come in two steps:

1. a constructor (:meth:`Editor.add_components`, :meth:`~Editor.set_values`, ...) checks the
   request against the design's rules and returns an :mod:`edit <models.document.edits>` or
   raises :class:`~models.document.design.DesignError` naming what is wrong;
2. :meth:`Editor.apply` carries an edit out and returns ``(inverse, change)``: applying the
   inverse undoes it, and the :class:`~models.document.edits.Change` says what changed,
   including how a compiled design follows it (patched in place, or compiled again).

Listeners (the :class:`~models.session.evaluator.Evaluator`) hear every change.  What the
editor derives from the design (the id index, selector targets, counts, effective values) is
kept in a :class:`~models.session.memo.Memo` keyed by the revision it was computed at, so a
write never has to remember which caches to clear.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence

import numpy as np

from models.core.platform import pin_work
from models.document import snapshots
from models.document.design import (
    Component,
    Design,
    DesignError,
    Issue,
    Link,
    Override,
    Rebuild,
    Scenario,
    apply_scenario,
    effective_policy,
    effective_values,
    every_component,
    make_override,
    targets,
)
from models.document.edits import (
    AddScenario,
    Batch,
    Change,
    Contents,
    Edit,
    Move,
    RemoveScenario,
    RestoreValues,
    SetOverrides,
    SetValues,
    Snapshot,
    Structure,
)
from models.document.knobs import Knob, default_knob, knobs_for
from models.document.numbers import counted
from models.document.rules import component_issues, link_problem
from models.document.schema import KINDS, LINKS, Value, prop_label
from models.document.snapshots import DESIGN_FIELDS, design_field, is_field
from models.document.words import link_refusal, link_text, set_text
from models.session.memo import Memo

ID_PREFIX = {"host": "h", "vm": "v", "nic": "n", "storage_array": "a", "site": "s"}

Column = Callable[[str, str], np.ndarray | None]
"""``column(kind, prop)``: a compiled column of the active scenario, None when there is none."""


class Editor:
    """A design being edited: its active scenario, and edits with their inverses."""

    def __init__(self, design: Design | None = None):
        self.design = design if design is not None else Design()
        self.scenario = "base"
        self.edits = 0
        """Counts writes: anything derived from the design is valid while it stands still."""
        self.structure = 0
        """Counts writes to the components, links and names (the revision of the index)."""
        self.listeners: list[Callable[[Change], None]] = []
        """Called with every change, after the design holds it."""
        self.column: Column = lambda kind, prop: None
        """Reads a compiled column (the session gives the evaluator's); a fast path only."""
        self._memo = Memo()
        self._last_write: tuple[int, tuple[str, ...], str, Snapshot] | None = None
        """The snapshot a base SetValues left (every target holding its value), so the next
        step of a slider drag need not read 2,000 values again."""

    # ------------------------------------------------------------------ queries
    def component(self, cid: str) -> Component | None:
        """The component with id ``cid`` (a dict lookup)."""
        return self._index_map().get(cid)

    def name_of(self, cid: str) -> str:
        """How the user knows a component: its name, else its id (a host a scenario's
        rebuild adds is known by its name too)."""
        comp = self.component(cid) or next(
            (c for c in every_component(self.design) if c.id == cid), None)
        return (comp.name or comp.id) if comp is not None else cid

    def new_id(self, kind: str, taken: set[str] | None = None) -> str:
        """A fresh id for ``kind`` (``h3``, ``v12``, ...), also avoiding ``taken``."""
        prefix = ID_PREFIX.get(kind, kind[:1])
        used = {c.id for c in every_component(self.design)} | (taken or set())
        n = sum(1 for c in self.design.components if c.kind == kind) + 1
        while f"{prefix}{n}" in used:
            n += 1
        return f"{prefix}{n}"

    def links_of(self, cid: str) -> list[Link]:
        return [lk for lk in self.design.links if cid in (lk.source, lk.target)]

    def overrides(self) -> list[Override]:
        """The active scenario's overrides (none on 'base')."""
        if self.scenario == "base":
            return []
        for sc in self.design.scenarios:
            if sc.name == self.scenario:
                return sc.overrides
        return []

    def rebuild(self) -> Rebuild | None:
        """The active scenario's rebuild of the hardware (a refresh), if it has one."""
        return next((sc.rebuild for sc in self.design.scenarios if sc.name == self.scenario),
                    None)

    def value(self, select: str, prop: str) -> Value | None:
        """The effective value in the active scenario; None when the targets differ or
        nothing matches."""
        values = self._values()
        key = (self.scenario, select, prop)
        if key not in values:
            values[key] = self._compute_value(select, prop)
        return values[key]

    def _compute_value(self, select: str, prop: str) -> Value | None:
        overrides = self.overrides()
        if select == "design":
            if prop in DESIGN_FIELDS:
                return design_field(self.design, prop)
            return effective_policy(self.design, overrides, prop.removeprefix("policy."))
        there = self._rebuilt_targets(select) if not is_field(select, prop) else []
        if there:  # a refresh's own hosts (a host it took out reads as the base has it)
            first = there[0].get(prop)
            return first if all(t.get(prop) == first for t in there[1:]) else None
        found = self._targets(select)
        if not found:
            return None
        if is_field(select, prop):
            comp = found[0]
            return comp.name if isinstance(comp, Component) else None
        try:
            if not any(ov.prop == prop for ov in overrides):  # the common case: one pass
                first = found[0].get(prop)
                uniform = self._uniform_column(select, prop)
                if uniform is not None:
                    return first if uniform else None
                if all(prop in t.props for t in found):
                    return first if all(t.props[prop] == first for t in found) else None
                return first if all(t.get(prop) == first for t in found) else None
            values = effective_values(self.design, overrides, found, prop)
        except KeyError:
            return None
        return values[0] if all(v == values[0] for v in values) else None

    def typical(self, select: str, prop: str) -> float | None:
        """The value most of kind-wide ``select``'s targets hold of a numeric ``prop`` (where
        a slider stands when they differ), read from the compiled column; None when that
        cannot tell."""
        found: dict[tuple[str, str, str], float | None] = self._memo.get("typical", self.edits,
                                                                          dict)
        key = (self.scenario, select, prop)
        if key not in found:
            col = self.column(select, prop) if select in KINDS else None
            found[key] = None
            if col is not None and len(col) and col.dtype.kind in "fiu":
                known = col[~np.isnan(col)] if col.dtype.kind == "f" else col
                if len(known):
                    seen, counts = np.unique(known, return_counts=True)
                    found[key] = float(seen[int(np.argmax(counts))])
        return found[key]

    def _uniform_column(self, select: str, prop: str) -> bool | None:
        """Whether every target of kind-wide ``select`` holds one value of ``prop``, read
        from the compiled column (a vector compare instead of a Python pass over 50,000
        components); None when that cannot tell (nothing compiled, not a kind, a column of
        text or of unset values)."""
        col = self.column(select, prop) if select in KINDS else None
        if col is None or not len(col) or col.dtype == object:
            return None
        first = col[0]
        if col.dtype.kind == "f" and np.isnan(first):  # unset (None) on the first target
            return bool(np.isnan(col).all())
        return bool((col == first).all())

    def validate(self, select: str, prop: str, value: Value) -> Value:
        """The normalised ``value`` for ``select``/``prop``, or DesignError saying why not."""
        if select.startswith("id:") and self.component(select[3:]) is None:
            raise DesignError([Issue(f"select '{select}'", "no such component")])
        if is_field(select, prop):
            if not isinstance(value, str):
                raise DesignError([Issue(f"select '{select}'", "expected a string", prop)])
            if prop == "name" and select == "design" and not value.strip():
                raise DesignError([Issue("design", "the name may not be empty", prop)])
            return value
        return make_override(self.design, select, prop, value).value

    # ------------------------------------------------------------------ building edits
    def add_components(self, comps: Sequence[Component], links: Sequence[Link] = (),
                       label: str | None = None) -> Structure:
        """Add components and links between them (and existing ones): a drop or a paste.
        Raises DesignError naming every problem."""
        used = {c.id for c in self.design.components}
        issues: list[Issue] = []
        for comp in comps:
            issues.extend(component_issues(comp, used))
            used.add(comp.id)
        if issues:
            raise DesignError(issues)
        trial = Design(components=[*self.design.components, *comps],
                       links=list(self.design.links))
        for lk in links:
            reason = link_problem(trial, lk)
            if reason:
                raise DesignError([Issue(lk.label(), reason)])
            trial.links.append(lk)
        if label is None:
            label = (f"Add {comps[0].name or comps[0].id}" if len(comps) == 1
                     else f"Add {counted(len(comps), 'component')}" if comps
                     else f"Add {counted(len(links), 'link')}")
        return Structure(label, add_components=tuple((c, -1) for c in comps),
                         add_links=tuple((lk, -1) for lk in links))

    def remove_components(self, ids: Iterable[str], links: Iterable[Link] = ()
                          ) -> Structure | None:
        """Delete components with every link touching them, and the given links too: one
        edit for a whole selection (None when none of them is in the design)."""
        present = tuple(cid for cid in dict.fromkeys(ids) if self.component(cid) is not None)
        gone = set(present)
        extra = tuple(lk for lk in links if self._link_index(lk) >= 0
                      and not gone & {lk.source, lk.target})
        if not present and not extra:
            return None
        if len(present) == 1 and not extra:
            label = f"Delete {self.name_of(present[0])}"
        elif extra and not present:
            label = ("Delete link" if len(extra) == 1 else f"Delete {counted(len(extra), 'link')}")
        else:
            label = f"Delete {counted(len(present) + len(extra), 'item')}"
        return Structure(label, remove_links=extra, remove_ids=present)

    def add_link(self, link: Link) -> Structure | Batch:
        """Link two components; a one-per-source kind (``runs_on``, ``disk_on``, ...)
        replaces the source's existing link in the same edit (re-homing a VM is one
        gesture).  Raises DesignError saying why the link is illegal."""
        reason = link_problem(self.design, link, allow_replace=True, index=self._index_map())
        a, b = self.name_of(link.source), self.name_of(link.target)
        if reason:
            raise DesignError([Issue(link.label(), link_refusal(
                link.kind, a, b, reason, link.source, link.target))])
        replaced = tuple(lk for lk in self.design.links
                         if not LINKS[link.kind].many and lk.kind == link.kind
                         and lk.source == link.source)
        label = link_text(link.kind, a, b)
        structure = Structure(label, remove_links=replaced, add_links=((link, -1),))
        pin = self._pin(link, replaced) if link.kind == "runs_on" else None
        return Batch(label, (pin, structure)) if pin is not None else structure

    def _pin(self, link: Link, replaced: tuple[Link, ...]) -> SetValues | None:
        """A VM placed or moved whose CPU share names no processor: pinned, in the same step,
        to the processor it was entered on (the host it leaves, else the one it joins;
        :func:`~models.core.platform.pin_work`), so that on another it takes SPEC's ratio."""
        vm = self.component(link.source)
        if vm is None or vm.props.get("workload.cpu_ghz") is not None:
            return None
        was = replaced[0].target if replaced else link.target
        probe = Design(components=[c for c in (vm, self.component(was)) if c is not None],
                       links=[Link(vm.id, was, "runs_on")])
        pinned = pin_work(probe).components[0].props.get("workload.cpu_ghz")
        if pinned is None:
            return None
        return SetValues(f"Pin {self.name_of(vm.id)}'s CPU share to its processor", "base",
                         (f"id:{vm.id}",), "workload.cpu_ghz", pinned)

    def remove_link(self, link: Link) -> Structure | None:
        """Unlink (None when the link is not in the design)."""
        if self._link_index(link) < 0:
            return None
        label = link_text(link.kind, self.name_of(link.source), self.name_of(link.target), 1)
        return Structure(label, remove_links=(link,))

    def move_components(self, moves: dict[str, tuple[float, float]]) -> Move | None:
        """Move components (one drag); None when nothing actually moves."""
        real = []
        for cid, (x, y) in moves.items():
            comp = self.component(cid)
            if comp is not None and (comp.x, comp.y) != (float(x), float(y)):
                real.append((cid, float(x), float(y)))
        if not real:
            return None
        label = "Move" if len(real) > 1 else f"Move {self.name_of(real[0][0])}"
        return Move(label, tuple(real))

    def move_and_join(self, moves: dict[str, tuple[float, float]], joins: Sequence[Link]
                      ) -> tuple[Edit | None, list[str]]:
        """Move components and link them into what they were let go on (a host into a
        site's or cluster's box, a VM onto a host's card) as ONE edit.  Links the rules
        refuse are left out; their reasons come back, one per refused link.  (None, [])
        when nothing moves and nothing links."""
        move = self.move_components(moves)
        parts: list[Edit] = [move] if move is not None else []
        refused: list[str] = []
        taken: list[Link] = []
        for lk in joins:
            try:
                parts.append(self.add_link(lk))
                taken.append(lk)
            except DesignError as err:
                refused.append(f"Not moved onto {self.name_of(lk.target)}:"
                               f" {err.issues[0].message}")
        if not taken:
            return move, refused
        hosted = {lk.source for lk in self.design.links if lk.kind == "runs_on"}
        placed = [lk for lk in taken if lk.kind == "runs_on" and lk.source not in hosted]
        names = ", ".join(dict.fromkeys(self.name_of(lk.target) for lk in taken))
        if len(placed) == len(taken):
            label = f"Place {counted(len(placed), 'VM')} on a host"
        elif len(taken) == 1:
            label = f"Move {self.name_of(taken[0].source)} to {names}"
        else:
            label = f"Move {counted(len(taken), 'component')} to {names}"
        return Batch(label, tuple(parts)), refused

    def set_values(self, selects: Sequence[str], prop: str, value: Value,
                   label: str | None = None) -> SetValues:
        """Set ``prop`` on what each selector addresses (a kind, ``id:``, ``tag:``, a link
        kind or ``design``): in the base design, or as overrides of the active named
        scenario.  Raises DesignError when a selector or the value is invalid."""
        selects = tuple(dict.fromkeys(selects))
        if not selects:
            raise DesignError([Issue("select", "nothing selected", prop)])
        checked: dict[str, Value] = {}
        for s in selects:  # one check per kind for a selection of ids (no pass per id)
            comp = self.component(s[3:]) if s.startswith("id:") else None
            key = comp.kind if comp is not None else s
            if key not in checked:
                checked[key] = self.validate(s, prop, value)
        fields = {is_field(s, prop) for s in selects}
        if len(fields) > 1:
            raise DesignError([Issue(f"select '{selects[0]}'", "cannot mix field and"
                                     " property edits in one step", prop)])
        scenario = "base" if fields == {True} else self.scenario
        rb = self.rebuild() if scenario != "base" else None
        out = [x for x in selects if rb and x.startswith("id:") and x[3:] in rb.gone(self.design)]
        if out:  # a host the scenario took out (or its NIC) is not in it
            raise DesignError([Issue(f"scenario '{scenario}'", f"{self.name_of(out[0][3:])} is"
                                     " not in it (its hardware was replaced): edit it in the"
                                     " base design", prop)])
        if label is None:
            label = self._set_label(selects, prop)
        return SetValues(label, scenario, selects, prop, next(iter(checked.values())))

    def set_design_values(self, values: Mapping[str, Value], label: str) -> Edit | None:
        """Set several of the design's own values (growth rates an analysis keeps) as ONE
        edit, in the base design or as the active scenario's overrides; None when none of
        them changes.  Raises DesignError when a value is invalid."""
        parts = [self.set_values(["design"], prop, v, label) for prop, v in values.items()
                 if self.value("design", prop) != v]
        if len(parts) <= 1:
            return parts[0] if parts else None
        return Batch(label, tuple(parts))

    def _set_label(self, selects: Sequence[str], prop: str) -> str:
        """``Set Outstanding I/Os on 16 VMs``, ``Rename web-01``: an edit's undo text (counts
        are kept per kind, so a slider step reads no component)."""
        first = selects[0]
        if is_field(first, prop):
            return f"Rename {self.name_of(first[3:])}" if first != "design" else \
                f"Edit the design's {prop_label('design', prop).lower()}"
        if all(s.startswith("id:") for s in selects):
            comp = self.component(first[3:])
            return set_text(comp.kind if comp else None, prop, len(selects),
                            self.name_of(first[3:]) if len(selects) == 1 else "")
        if len(selects) == 1 and (first in KINDS or first in LINKS):
            return set_text(first, prop, self._count(first))
        return set_text(None, prop, 1) + (f" on tag {first[4:]}" if first[:4] == "tag:" else "")

    def knobs(self) -> list[Knob]:
        """The knobs that apply to the design (:func:`~models.document.knobs.knobs_for`), kept
        while no edit comes between: the panels that ask on opening share one pass."""
        return self._memo.get("knobs", self.edits, lambda: knobs_for(self.design))

    def default_knob(self) -> Knob | None:
        """The knob whose curve the design opens on
        (:func:`~models.document.knobs.default_knob`)."""
        return self._memo.get("default_knob", self.edits,
                              lambda: default_knob(self.design, self.knobs()))

    def _count(self, kind: str) -> int:
        def count() -> Counter[str]:
            counts = Counter(c.kind for c in self.design.components)
            counts.update(lk.kind for lk in self.design.links)
            return counts
        return self._memo.get("counts", self.structure, count).get(kind, 0)

    def replace_contents(self, design: Design, label: str) -> Contents:
        """Take ``design``'s components and links (scenarios, policy and name stay)."""
        return Contents(label, tuple(design.components), tuple(design.links))

    def add_scenario(self, name: str, overrides: Sequence[Override] = (),
                     rebuild: Rebuild | None = None) -> AddScenario:
        name = name.strip()
        if not name or name == "base" or any(s.name == name for s in self.design.scenarios):
            raise DesignError([Issue(f"scenario '{name}'", "the name is empty, 'base' or"
                                     " already used")])
        return AddScenario(f"Add scenario {name}" if rebuild is None else f"Add the refresh"
                           f" {name}", Scenario(name, list(overrides), rebuild))

    def remove_scenario(self, name: str) -> RemoveScenario:
        self.design.scenario(name)  # raises DesignError naming the known scenarios
        return RemoveScenario(f"Remove scenario {name}", name)

    # ------------------------------------------------------------------ applying edits
    def apply(self, edit: Edit) -> tuple[Edit, Change]:
        """Carry ``edit`` out; returns the edit that undoes it and what changed.  The
        revisions move on and every listener hears the change before this returns."""
        inverse, change = self._apply(edit)
        if change.structure:
            self.structure += 1
        if change.structure or change.values is not None or change.scenarios:
            self.edits += 1
        for listen in self.listeners:
            listen(change)
        return inverse, change

    def _apply(self, edit: Edit) -> tuple[Edit, Change]:
        if isinstance(edit, Batch):
            return self._batch(edit)
        if isinstance(edit, Structure):
            return self._structure(edit)
        if isinstance(edit, Move):
            return self._move(edit)
        if isinstance(edit, SetValues):
            return self._set_values(edit)
        if isinstance(edit, RestoreValues):
            return self._restore(edit)
        if isinstance(edit, SetOverrides):
            return self._set_overrides(edit)
        if isinstance(edit, Contents):
            inverse = Contents(edit.label, tuple(self.design.components),
                               tuple(self.design.links))
            self.design.components = list(edit.components)
            self.design.links = list(edit.links)
            return inverse, Change(contents=True, stale=True, structure=True)
        if isinstance(edit, AddScenario):
            scenarios = self.design.scenarios
            index = len(scenarios) if edit.index < 0 else min(edit.index, len(scenarios))
            scenarios.insert(index, edit.scenario)
            return RemoveScenario(edit.label, edit.scenario.name), Change(scenarios=True)
        return self._remove_scenario(edit)

    def _batch(self, edit: Batch) -> tuple[Edit, Change]:
        """Each edit in turn (the revisions move once, for the whole batch)."""
        inverses: list[Edit] = []
        change = Change()
        for part in edit.edits:
            inverse, done = self._apply(part)
            inverses.append(inverse)
            change = change.then(done)
        self._last_write = None  # a later part may have moved what an earlier one wrote
        return Batch(edit.label, tuple(reversed(inverses))), change

    def _structure(self, edit: Structure) -> tuple[Edit, Change]:
        change = Change()
        removed_links: list[tuple[Link, int]] = []
        removed: list[tuple[Component, int]] = []
        gone = set(edit.remove_ids)
        for lk in [*edit.remove_links,
                   *(lk for lk in self.design.links if gone & {lk.source, lk.target}
                     and lk not in edit.remove_links)]:
            i = self._link_index(lk)
            if i >= 0:
                removed_links.append((self.design.links.pop(i), i))
                change.links_removed.append(removed_links[-1][0])
        for cid in edit.remove_ids:
            for i, comp in enumerate(self.design.components):
                if comp.id == cid:
                    removed.append((self.design.components.pop(i), i))
                    change.removed.append(cid)
                    break
        for comp, at in edit.add_components:
            comps = self.design.components
            comps.insert(len(comps) if at < 0 else min(at, len(comps)), comp)
            change.added.append(comp.id)
        for lk, at in edit.add_links:
            links = self.design.links
            links.insert(len(links) if at < 0 else min(at, len(links)), lk)
            change.links_added.append(lk)
        change.stale = change.structure = True
        inverse = Structure(edit.label,
                            remove_links=tuple(lk for lk, _ in edit.add_links),
                            remove_ids=tuple(c.id for c, _ in edit.add_components),
                            add_components=tuple(reversed(removed)),
                            add_links=tuple(reversed(removed_links)))
        return inverse, change

    def _move(self, edit: Move) -> tuple[Edit, Change]:
        old = []
        for cid, x, y in edit.positions:
            comp = self.component(cid)
            if comp is not None:
                old.append((cid, comp.x, comp.y))
                comp.x, comp.y = x, y
        return Move(edit.label, tuple(old)), Change(moved=[cid for cid, _, _ in old])

    def _set_values(self, edit: SetValues) -> tuple[Edit, Change]:
        selects, prop, value = edit.selects, edit.prop, edit.value
        patches = [Override(s, prop, value) for s in selects]
        if edit.scenario != "base":
            old = tuple(self.design.scenario(edit.scenario).overrides)
            keys = {(s, prop) for s in selects}
            new = [o for o in old if (o.select, o.prop) not in keys] + patches
            undo = SetOverrides(edit.label, edit.scenario, old, selects, prop)
            return undo, self._write_overrides(edit.scenario, new, selects, prop, patches)
        last = self._last_write
        if last is not None and last[:3] == (self.edits, selects, prop):
            snapshot = last[3]  # the previous step of a drag: every target holds its value
        else:
            snapshot = self._read_values(selects, prop)
        inverse = RestoreValues(edit.label, selects, prop, snapshot)
        written = snapshot.filled(value)
        change = self._write_values(selects, prop, written, patches)
        self._last_write = (self.edits + 1, selects, prop, written)  # apply's revision
        return inverse, change

    def _restore(self, edit: RestoreValues) -> tuple[Edit, Change]:
        current = self._read_values(edit.selects, edit.prop)
        old = edit.snapshot.uniform
        patches = None
        if old is not None and old.present and edit.snapshot.design is None:
            # every target held one explicit value: the engine updates in place
            patches = [Override(s, edit.prop, old.value) for s in edit.selects]
        change = self._write_values(edit.selects, edit.prop, edit.snapshot, patches)
        return RestoreValues(edit.label, edit.selects, edit.prop, current), change

    def _set_overrides(self, edit: SetOverrides) -> tuple[Edit, Change]:
        old = tuple(self.design.scenario(edit.scenario).overrides)
        change = self._write_overrides(edit.scenario, list(edit.overrides), edit.selects,
                                       edit.prop, None)
        return SetOverrides(edit.label, edit.scenario, old, edit.selects, edit.prop), change

    def _remove_scenario(self, edit: RemoveScenario) -> tuple[Edit, Change]:
        scenarios = self.design.scenarios
        index = next(i for i, sc in enumerate(scenarios) if sc.name == edit.name)
        scenario = scenarios.pop(index)
        change = Change(scenarios=True)
        if self.scenario == edit.name:
            self.set_scenario("base")
            change.scenario_reset = True
        return AddScenario(edit.label, scenario, index), change

    # ------------------------------------------------------------------ value primitives
    def _read_values(self, selects: Sequence[str], prop: str) -> Snapshot:
        """What ``selects`` address holds on the base design (:func:`snapshots.read`)."""
        return snapshots.read(self.design, selects, prop, self._targets)

    def _write_values(self, selects: Sequence[str], prop: str, snapshot: Snapshot,
                      patches: Sequence[Override] | None) -> Change:
        """Write a snapshot into the base design in one pass; ``patches`` say how a compiled
        design follows in place (None: it compiles again)."""
        field = any(is_field(s, prop) for s in selects)
        snapshots.write(self.design, prop, snapshot, field)
        values = (tuple(selects), prop, list(snapshot.ids))
        if field:  # names are part of the prediction, too
            return Change(values=values, stale=True, structure=True)
        if (self.scenario == "base" and snapshot.design is None
                and snapshot.uniform is not None and snapshot.uniform.present
                and snapshot.targets):  # every target now holds this value: no re-read
            seen = self._memo.get("values", self.edits + 1, dict)  # apply's revision
            for s in selects:
                seen[("base", s, prop)] = snapshot.uniform.value
        return Change(values=values, stale=True, written="base",
                      patches=tuple(patches) if patches is not None else None)

    def _write_overrides(self, scenario: str, overrides: list[Override],
                         selects: Sequence[str], prop: str,
                         patches: Sequence[Override] | None) -> Change:
        self.design.scenario(scenario).overrides = overrides
        exact = bool(patches) and all(_patch_is_exact(overrides, p) for p in patches or ())
        changed: list[str] = []
        for s in selects:
            changed.extend(t.id for t in self._targets(s)
                           if isinstance(t, Component))
        return Change(values=(tuple(selects), prop, list(dict.fromkeys(changed))),
                      scenarios=True, stale=scenario == self.scenario, written=scenario,
                      patches=tuple(patches or ()) if exact else None)

    # ------------------------------------------------------------------ scenario, design
    def set_scenario(self, name: str) -> bool:
        """Make ``name`` ('base' or a scenario) active; False when it already was."""
        if name != "base":
            self.design.scenario(name)  # raises DesignError with the known names
        if name == self.scenario:
            return False
        self.scenario = name
        return True

    def replace(self, design: Design) -> None:
        """Start over on another design (New, Open, an import)."""
        self.design = design
        self.scenario = "base"
        self.structure += 1
        self.edits += 1
        for listen in self.listeners:
            listen(Change(contents=True, stale=True, structure=True))

    # ------------------------------------------------------------------ internals
    def _values(self) -> dict[tuple[str, str, str], Value | None]:
        """Effective values read since the last write, by (scenario, select, prop)."""
        return self._memo.get("values", self.edits, dict)

    def _rebuilt_targets(self, select: str) -> list[Component | Link]:
        """``select``'s targets in the active scenario's design where it rebuilds the hosts
        (overrides applied); none otherwise."""
        if self.rebuild() is None:
            return []
        return targets(self._memo.get(f"scenario:{self.scenario}", self.edits, lambda:
                                      apply_scenario(self.design, self.scenario)), select)

    def _targets(self, select: str) -> list[Component | Link]:
        """models.document.design.targets, with a dict lookup for ``id:`` selectors and the
        lists of the others kept until the structure changes."""
        if select.startswith("id:"):
            comp = self.component(select[3:])
            return [comp] if comp is not None else []
        found: dict[str, list[Component | Link]] = self._memo.get("targets", self.structure,
                                                                   dict)
        if select not in found and select in KINDS:
            # every kind's in one pass: the knob panel asks for four kinds of 50,000
            by_kind: dict[str, list[Component | Link]] = {k: [] for k in KINDS}
            for c in self.design.components:
                by_kind[c.kind].append(c)
            for k, comps in by_kind.items():
                found.setdefault(k, comps)
        if select not in found:
            found[select] = targets(self.design, select)
        return found[select]

    def _index_map(self) -> dict[str, Component]:
        return self._memo.get("index", self.structure,
                              lambda: {c.id: c for c in self.design.components})

    def _link_index(self, link: Link) -> int:
        for i, lk in enumerate(self.design.links):
            if lk is link or (lk.source, lk.target, lk.kind) == (link.source, link.target,
                                                                  link.kind):
                return i
        return -1


def _patch_is_exact(overrides: list[Override], patch: Override) -> bool:
    """True when applying ``patch`` last gives the same result as the override list: no other
    override of the same property could win over it."""
    return all(ov.prop != patch.prop or ov.select == patch.select for ov in overrides)
