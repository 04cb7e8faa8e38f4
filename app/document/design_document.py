"""The open design as a Qt object: edits go through undo commands, views follow its signals.

:class:`DesignDocument` owns the :class:`~models.document.design.Design`, a :class:`QUndoStack` and
the
:class:`~models.engine.evaluation.Engine` of the active scenario.  Views read ``document.design``
but never change it: every user edit calls one of the edit methods below, which pushes exactly one
:class:`QUndoCommand` (see :mod:`app.document.commands`).  Commands call the ``raw_*`` primitives,
which change the design, emit the matching signal and mark the engine stale.  Evaluation is
coalesced: many edits in one event-loop turn lead to one ``Engine.evaluate()``.

See ``notes/document-api.md`` for the contract other GUI pieces code against.
"""

from __future__ import annotations

import traceback
from collections.abc import Sequence

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QUndoStack

from app.document import commands
from app.document.commands import OldValue, Snapshot
from models.document.design import (
    Component,
    Design,
    DesignError,
    Issue,
    Link,
    Override,
    Scenario,
    check_value,
    make_override,
    normalise,
    targets,
)
from models.document.schema import KINDS, LINKS, Value
from models.engine import sweep
from models.engine.evaluation import Engine
from models.engine.prediction import Prediction

#: Properties of a component that are not schema properties but can be set with
#: ``set_value('id:<id>', prop, value)`` (always on the base design).
COMPONENT_FIELDS = ("name",)
#: Fields of the design itself settable with ``set_value('design', prop, value)``.
DESIGN_FIELDS = ("name", "notes")

ID_PREFIX = {"host": "h", "vm": "v", "nic": "n", "storage_array": "a", "site": "s"}



class DesignDocument(QObject):
    """The open design, its undo stack, scenarios, selection and latest prediction."""

    design_replaced = Signal()
    component_added = Signal(str)
    component_removed = Signal(str)
    component_changed = Signal(str, str)
    components_changed = Signal(object, str)
    """Several components changed at once (a kind-wide or tag edit): ids (a list) and prop,
    one emit instead of one component_changed per component.  ``object``, not ``list``: a
    list signal copies 2,000 ids into a QVariantList on every slider step (1 ms)."""
    link_added = Signal(object)
    link_removed = Signal(object)
    scenario_changed = Signal(str)
    scenarios_changed = Signal()
    selection_changed = Signal(list)
    prediction_updated = Signal(object)
    baseline_updated = Signal(object)
    modified_changed = Signal(bool)
    path_changed = Signal(str)
    # extensions beyond notes/document-api.md
    values_changed = Signal(str, str)
    """(select, prop) after any set_value / its undo: one emission per edit, for knob panels."""
    design_changed = Signal(str)
    """A field of the design itself changed: 'name', 'notes' or a 'policy.*' property."""
    evaluation_failed = Signal(str)
    """The engine raised; the message says what failed.  The last good prediction stays."""

    def __init__(self, design: Design | None = None, parent: QObject | None = None):
        super().__init__(parent)
        self.design: Design = design if design is not None else Design()
        self.undo_stack = QUndoStack(self)
        self.scenario = "base"
        self.prediction: Prediction | None = None
        self.baseline: Prediction | None = None
        self.selection: list[str] = []
        self.path = ""
        self.last_error = ""
        self._index: dict[str, Component] | None = None
        self._engine: Engine | None = None
        self._base_engine: Engine | None = None
        self._values: dict[tuple[str, str, str], Value | None] = {}
        """value() results of the active scenario, until the next write (views ask often)."""
        self.edits = 0
        """Counts the writes of values (set_value, undo, structure): a merging slider step
        reuses the previous step's targets when nothing else was written in between."""
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._evaluate_pending)
        self.undo_stack.cleanChanged.connect(self._clean_changed)
        self._try_evaluate()

    # ------------------------------------------------------------------ state
    @property
    def is_modified(self) -> bool:
        return not self.undo_stack.isClean()

    def mark_saved(self, path: str | None = None) -> None:
        """Record that the document was saved (to ``path`` if given): clears the modified flag."""
        if path is not None:
            self.set_path(path)
        self.undo_stack.setClean()

    def set_path(self, path: str) -> None:
        if path != self.path:
            self.path = path
            self.path_changed.emit(path)

    def component(self, cid: str) -> Component | None:
        """The component with id ``cid`` (a dict lookup, unlike Design.component)."""
        if self._index is None:
            self._index = {c.id: c for c in self.design.components}
        return self._index.get(cid)

    def new_id(self, kind: str, taken: set[str] | None = None) -> str:
        """A fresh component id for ``kind`` (``h3``, ``v12``, ...), also avoiding ``taken``."""
        prefix = ID_PREFIX.get(kind, kind[:1])
        used = {c.id for c in self.design.components} | (taken or set())
        n = sum(1 for c in self.design.components if c.kind == kind) + 1
        while f"{prefix}{n}" in used:
            n += 1
        return f"{prefix}{n}"

    def links_of(self, cid: str) -> list[Link]:
        return [lk for lk in self.design.links if cid in (lk.source, lk.target)]

    # ------------------------------------------------------------------ edits (undoable)
    def add_component(self, comp: Component) -> None:
        """Add one component (one undo step).  Raises DesignError if it is not valid."""
        self.add_components([comp], [])

    def add_components(self, comps: list[Component], links: list[Link],
                       text: str | None = None) -> None:
        """Add components and links between them (and existing ones) as ONE undo step
        (paste, drop of a preset).  Raises DesignError naming the first problem."""
        issues: list[Issue] = []
        used = {c.id for c in self.design.components}
        for comp in comps:
            if comp.kind not in KINDS:
                issues.append(Issue(comp.label(), "unknown kind (known: "
                                    + ", ".join(KINDS) + ")"))
                continue
            if not comp.id or comp.id in used:
                issues.append(Issue(comp.label(), "the id is empty or already used"))
            used.add(comp.id)
            for prop, val in comp.props.items():
                spec = KINDS[comp.kind].props.get(prop)
                problem = "unknown property" if spec is None else check_value(spec, val)
                if problem:
                    issues.append(Issue(comp.label(), problem, prop))
        if issues:
            raise DesignError(issues)
        if not comps and not links:
            return
        trial = Design(components=[*self.design.components, *comps],
                       links=list(self.design.links))
        for lk in links:
            reason = link_problem(trial, lk)
            if reason:
                raise DesignError([Issue(lk.label(), reason)])
            trial.links.append(lk)
        label = text or (f"Add {comps[0].name or comps[0].id}" if len(comps) == 1
                         else f"Add {len(comps)} components")
        self.undo_stack.push(commands.AddComponents(self, comps, links, label))

    def remove_components(self, ids: list[str]) -> None:
        """Remove components and every link touching them (one undo step)."""
        present = [cid for cid in dict.fromkeys(ids) if self.component(cid)]
        if present:
            self.undo_stack.push(commands.RemoveComponents(self, present))

    def move_components(self, moves: dict[str, tuple[float, float]]) -> None:
        """Move components to new positions (one undo step; pushed on drag release)."""
        real = {}
        for cid, (x, y) in moves.items():
            comp = self.component(cid)
            if comp is not None and (comp.x, comp.y) != (float(x), float(y)):
                real[cid] = (float(x), float(y))
        if real:
            self.undo_stack.push(commands.MoveComponents(self, real))

    def add_link(self, link: Link) -> str | None:
        """Add a link; returns None when done, else why it is illegal (nothing pushed).

        A link of a kind that allows only one per source (``runs_on``, ``disk_on``, ...)
        replaces the existing one in the same undo step (re-homing a VM is one gesture).
        """
        reason = link_problem(self.design, link, allow_replace=True)
        if reason:
            return reason
        replaced = [lk for lk in self.design.links
                    if not LINKS[link.kind].many and lk.kind == link.kind
                    and lk.source == link.source]
        self.undo_stack.push(commands.AddLink(self, link, replaced))
        return None

    def remove_link(self, link: Link) -> None:
        if self._link_index(link) >= 0:
            self.undo_stack.push(commands.RemoveLink(self, link))

    def set_value(self, select: str, prop: str, value: Value,
                  merge_key: str | None = None) -> None:
        """Set ``prop`` of what ``select`` addresses to ``value`` (one undo step).

        In scenario 'base' this edits the design; in a named scenario it adds or replaces
        that scenario's override.  Consecutive calls with the same non-None ``merge_key``
        merge into one undo step: use a key unique to the gesture (e.g. the slider's path
        plus a press counter).  ``'id:<id>', 'name'`` renames a component and
        ``'design', 'name'|'notes'`` edits the design's fields (always on the base design).
        Raises DesignError (nothing pushed) when the value or selector is invalid.
        """
        self.set_values([select], prop, value, merge_key)

    def set_values(self, selects: Sequence[str], prop: str, value: Value,
                   merge_key: str | None = None) -> None:
        """:meth:`set_value` on several selectors at once (a multi-selection) as ONE undo
        step; with a ``merge_key`` a drag over the selection stays one step too."""
        selects = list(dict.fromkeys(selects))
        if not selects:
            return
        checked: dict[str, Value] = {}
        for s in selects:  # one check per kind for a selection of ids (no pass per id)
            comp = self.component(s[3:]) if s.startswith("id:") else None
            if comp is not None and comp.kind in checked:
                continue
            checked[comp.kind if comp is not None else s] = self.validate(s, prop, value)
        values = list(checked.values())
        fields = {self._is_field(s, prop) for s in selects}
        if len(fields) > 1:
            raise DesignError([Issue(f"select '{selects[0]}'", "cannot mix field and"
                                     " property edits in one step", prop)])
        scenario = "base" if fields == {True} else self.scenario
        self.undo_stack.push(commands.SetValue(self, scenario, selects, prop, values[0],
                                               merge_key, self._merging_into(merge_key)))

    def _merging_into(self, merge_key: str | None) -> commands.SetValue | None:
        """The last step of the gesture ``merge_key`` when nothing was written since it (the
        next step then reuses its targets instead of reading 2,000 values again)."""
        stack = self.undo_stack
        if merge_key is None or stack.index() != stack.count() or stack.count() == 0:
            return None
        top = stack.command(stack.count() - 1)
        if isinstance(top, commands.SetValue) and top.merge_key == merge_key \
                and top.edits_after == self.edits:
            return top
        return None

    def validate(self, select: str, prop: str, value: Value) -> Value:
        """The normalised ``value`` for ``select``/``prop``, or DesignError saying why not."""
        if self._is_field(select, prop):
            if select.startswith("id:") and self.component(select[3:]) is None:
                raise DesignError([Issue(f"select '{select}'", "no such component")])
            if not isinstance(value, str):
                raise DesignError([Issue(f"select '{select}'", "expected a string", prop)])
            if prop == "name" and select == "design" and not value.strip():
                raise DesignError([Issue("design", "the name may not be empty", prop)])
            return value
        if select.startswith("id:") and self.component(select[3:]) is None:
            raise DesignError([Issue(f"select '{select}'", "no such component")])
        return make_override(self.design, select, prop, value).value

    def value(self, select: str, prop: str) -> Value | None:
        """The effective value in the active scenario; None when mixed or nothing matches."""
        key = (self.scenario, select, prop)
        if key in self._values:
            return self._values[key]
        val = self._compute_value(select, prop)
        self._values[key] = val
        return val

    def _compute_value(self, select: str, prop: str) -> Value | None:
        if select == "design":
            if prop in DESIGN_FIELDS:
                return str(getattr(self.design, prop))
            key = prop.removeprefix("policy.")
            val: Value = self.design.policy_value(key)
            for ov in self._overrides():
                if ov.select == "design" and ov.prop == prop:
                    val = ov.value
            return val
        found = self._targets(select)
        if not found:
            return None
        if self._is_field(select, prop):
            comp = found[0]
            return comp.name if isinstance(comp, Component) else None
        overrides = [ov for ov in self._overrides() if ov.prop == prop]
        try:
            first = found[0].get(prop)
            if not overrides:  # the common case: one pass over the explicit values
                missing = object()
                if any(t.props.get(prop, missing) is missing for t in found):
                    return first if all(t.get(prop) == first for t in found) else None
                return first if all(t.props[prop] == first for t in found) else None
        except KeyError:
            return None
        matched = [(ov, {_target_key(t) for t in self._targets(ov.select)})
                   for ov in overrides]
        result: Value = None
        for i, t in enumerate(found):
            try:
                val = t.get(prop)
            except KeyError:
                return None
            tkey = _target_key(t)
            for ov, keys in matched:
                if tkey in keys:
                    val = ov.value
            if i == 0:
                result = val
            elif val != result:
                return None
        return result

    def set_scenario(self, name: str) -> None:
        """Make ``name`` ('base' or a scenario) active and re-evaluate (not undoable)."""
        if name != "base":
            self.design.scenario(name)  # raises DesignError with the known names
        if name == self.scenario:
            return
        self.scenario = name
        self._engine = None
        self._base_engine = None
        self.scenario_changed.emit(name)
        self._try_evaluate()

    def replace_contents(self, design: Design, text: str) -> None:
        """Take ``design``'s components and links as ONE undo step (a goal-seek answer that
        rebuilds hosts or VMs); the scenarios, policy, name and undo history stay."""
        self.undo_stack.push(commands.ReplaceContents(self, design.components, design.links,
                                                      text))

    def add_scenario(self, name: str, overrides: Sequence[Override] = ()) -> None:
        """Add a named scenario (one undo step); DesignError if the name is taken or empty."""
        name = name.strip()
        if not name or name == "base" or any(s.name == name for s in self.design.scenarios):
            raise DesignError([Issue(f"scenario '{name}'", "the name is empty, 'base' or"
                                     " already used")])
        self.undo_stack.push(commands.AddScenario(self, Scenario(name, list(overrides))))

    def remove_scenario(self, name: str) -> None:
        self.design.scenario(name)  # raises DesignError naming the known scenarios
        self.undo_stack.push(commands.RemoveScenario(self, name))

    # ------------------------------------------------------------------ selection
    def set_selection(self, ids: list[str]) -> None:
        ids = [cid for cid in dict.fromkeys(ids) if self.component(cid) is not None]
        if ids != self.selection:
            self.selection = ids
            self.selection_changed.emit(list(ids))

    # ------------------------------------------------------------------ evaluation
    def request_evaluation(self) -> None:
        """Evaluate on the next event-loop turn; many requests lead to one evaluation."""
        if not self._timer.isActive():
            self._timer.start()

    def evaluate_now(self) -> Prediction:
        """Evaluate the active scenario now and emit prediction_updated (and baseline_updated).
        Raises what the engine raises."""
        self._timer.stop()
        if self._engine is None:
            self._engine = Engine(self.design, self.scenario)
        prediction = self._engine.evaluate()
        if self.scenario == "base":
            baseline = prediction
            self._base_engine = None
        else:
            if self._base_engine is None or self.baseline is None:
                self._base_engine = Engine(self.design)
            baseline = self._base_engine.evaluate()
        self.prediction = prediction
        self.baseline = baseline
        self.last_error = ""
        self.prediction_updated.emit(prediction)
        self.baseline_updated.emit(baseline)
        return prediction

    def sweep(self, path: str, values: Sequence[Value]) -> list[Prediction]:
        """Predictions of the active scenario for each value of knob ``path``
        (``vm.workload.io_oio``, ``id:v1.workload.io_oio``, ``design.policy.cpu_util_max``),
        on a private engine: the document does not change.  DesignError on a bad value."""
        return sweep.sweep(self.design, self.scenario, path, values)

    def replace_design(self, design: Design, path: str = "", modified: bool = False) -> None:
        """Load a whole new design (New/Open/import/recover): clears undo and selection.

        ``modified`` marks a design that exists in no file yet (an import, a recovered
        autosave), so that closing asks to save it."""
        self._timer.stop()
        self.design = design
        self.edits += 1
        self._values.clear()
        self._index = None
        self.scenario = "base"
        self._engine = None
        self._base_engine = None
        self.selection = []
        self.undo_stack.clear()
        self.undo_stack.setClean()
        if modified:
            self.undo_stack.resetClean()
        self.path = path
        self.design_replaced.emit()
        self.path_changed.emit(path)
        self.scenario_changed.emit("base")
        self.scenarios_changed.emit()
        self.selection_changed.emit([])
        self.modified_changed.emit(modified)
        self._try_evaluate()

    # ------------------------------------------------------------------ primitives
    # Called by app.document.commands only: they change the design, emit, and mark engines stale.
    def raw_insert_component(self, comp: Component, index: int) -> None:
        self.design.components.insert(min(index, len(self.design.components)), comp)
        self._structure_changed()
        self.component_added.emit(comp.id)

    def raw_remove_component(self, cid: str) -> tuple[Component, int]:
        for i, comp in enumerate(self.design.components):
            if comp.id == cid:
                del self.design.components[i]
                if cid in self.selection:
                    self.set_selection([s for s in self.selection if s != cid])
                self._structure_changed()
                self.component_removed.emit(cid)
                return comp, i
        raise KeyError(cid)

    def raw_insert_link(self, link: Link, index: int) -> None:
        self.design.links.insert(min(index, len(self.design.links)), link)
        self._structure_changed()
        self.link_added.emit(link)

    def raw_remove_link(self, link: Link) -> int:
        i = self._link_index(link)
        if i < 0:
            raise KeyError(link.label())
        removed = self.design.links.pop(i)
        self._structure_changed()
        self.link_removed.emit(removed)
        return i

    def raw_set_contents(self, components: list[Component], links: list[Link]) -> None:
        """Swap in whole component and link lists: views rebuild as on a new design, but the
        undo history stays (ReplaceContents)."""
        self.design.components = list(components)
        self.design.links = list(links)
        self.selection = []
        self._structure_changed()
        self.design_replaced.emit()
        self.selection_changed.emit([])

    def raw_set_positions(self, positions: dict[str, tuple[float, float]]) -> None:
        for cid, (x, y) in positions.items():
            comp = self.component(cid)
            if comp is not None:
                comp.x, comp.y = x, y
                self.component_changed.emit(cid, "")

    def raw_read_values(self, selects: Sequence[str], prop: str) -> Snapshot:
        """What ``selects`` address holds on the base design (for undo), read once: the
        targets and one record when they all hold the same value (see Snapshot)."""
        if "design" in selects:
            if prop in DESIGN_FIELDS:
                return Snapshot(design=OldValue(True, getattr(self.design, prop)))
            key = prop.removeprefix("policy.")
            return Snapshot(design=OldValue(key in self.design.policy,
                                            self.design.policy.get(key)))
        found: list[Component | Link] = []
        if len(selects) == 1:
            found = self._targets(selects[0])
        else:
            seen: set[int] = set()
            for s in selects:
                for t in self._targets(s):
                    if id(t) not in seen:
                        seen.add(id(t))
                        found.append(t)
        ids = [t.id for t in found if isinstance(t, Component)]
        if any(self._is_field(s, prop) for s in selects):
            column = [OldValue(True, t.name if isinstance(t, Component) else None)
                      for t in found]
            return Snapshot(found, None, column, None, ids)
        present = bool(found) and prop in found[0].props
        first = found[0].props.get(prop) if found else None
        kind = type(first)
        if all((prop in t.props) == present and type(t.props.get(prop)) is kind
               and t.props.get(prop) == first for t in found):  # one record for all
            return Snapshot(found, OldValue(present, first), None, None, ids)
        return Snapshot(found, None, [OldValue(prop in t.props, t.props.get(prop))
                                      for t in found], None, ids)

    def raw_write_values(self, selects: Sequence[str], prop: str, snapshot: Snapshot,
                         patches: Sequence[Override] | None = None) -> None:
        """Write a snapshot into the base design in one pass; ``patches`` let the engine
        update in place (else it recompiles)."""
        self._values.clear()
        field = any(self._is_field(s, prop) for s in selects)
        if snapshot.design is not None:
            old = snapshot.design
            if prop in DESIGN_FIELDS:
                setattr(self.design, prop, old.value)
            else:
                pkey = prop.removeprefix("policy.")
                if old.present:
                    self.design.policy[pkey] = old.value
                else:
                    self.design.policy.pop(pkey, None)
        elif field:
            olds = snapshot.column or [snapshot.uniform or OldValue(True, "")] * len(
                snapshot.targets)
            for t, old in zip(snapshot.targets, olds, strict=True):
                if isinstance(t, Component):
                    t.name = str(old.value)
        elif snapshot.uniform is not None:
            if snapshot.uniform.present:
                value = snapshot.uniform.value
                for t in snapshot.targets:
                    t.props[prop] = value
            else:
                for t in snapshot.targets:
                    t.props.pop(prop, None)
        else:
            for t, old in zip(snapshot.targets, snapshot.column or [], strict=True):
                if old.present:
                    t.props[prop] = old.value
                else:
                    t.props.pop(prop, None)
        if field:
            self._structure_changed()  # names are part of the prediction
        elif patches is not None and self.scenario == "base" and self._engine is not None:
            for ov in patches:
                self._engine.patch(ov)
            self.request_evaluation()
        else:
            self._structure_changed()
        self.edits += 1
        if (self.scenario == "base" and not field and snapshot.design is None
                and snapshot.uniform is not None and snapshot.uniform.present
                and snapshot.targets):  # every target now holds this value: no re-read
            for s in selects:
                self._values[("base", s, prop)] = snapshot.uniform.value
        self._emit_each(selects, prop, snapshot.ids)

    def raw_set_overrides(self, scenario: str, overrides: list[Override],
                          selects: Sequence[str], prop: str,
                          patches: Sequence[Override] | None = None) -> None:
        """Replace a scenario's override list (set_value in a named scenario and its undo)."""
        self._values.clear()
        self.edits += 1
        sc = self.design.scenario(scenario)
        sc.overrides = list(overrides)
        if scenario == self.scenario:
            if patches and self._engine is not None and all(
                    _patch_is_exact(overrides, p) for p in patches):
                for ov in patches:
                    self._engine.patch(ov)
            else:
                self._engine = None
            self.request_evaluation()
        changed: list[str] = []
        for s in selects:
            changed.extend(t.id for t in self._targets(s) if isinstance(t, Component))
        self.scenarios_changed.emit()
        self._emit_each(selects, prop, list(dict.fromkeys(changed)))

    def raw_insert_scenario(self, scenario: Scenario, index: int) -> None:
        self.edits += 1
        self._values.clear()
        self.design.scenarios.insert(min(index, len(self.design.scenarios)), scenario)
        self.scenarios_changed.emit()

    def raw_remove_scenario(self, name: str) -> tuple[Scenario, int]:
        self.edits += 1
        self._values.clear()
        for i, sc in enumerate(self.design.scenarios):
            if sc.name == name:
                del self.design.scenarios[i]
                if self.scenario == name:
                    self.set_scenario("base")
                self.scenarios_changed.emit()
                return sc, i
        raise KeyError(name)

    # ------------------------------------------------------------------ internals
    @staticmethod
    def _is_field(select: str, prop: str) -> bool:
        if select == "design":
            return prop in DESIGN_FIELDS
        return select.startswith("id:") and prop in COMPONENT_FIELDS

    def _overrides(self) -> list[Override]:
        if self.scenario == "base":
            return []
        for sc in self.design.scenarios:
            if sc.name == self.scenario:
                return sc.overrides
        return []

    def _emit_each(self, selects: Sequence[str], prop: str, changed: list[str]) -> None:
        """The change signals of an edit of ``selects``: the component ids once, and
        values_changed once per kind (not once per id of a large selection)."""
        by_kind: dict[str, str] = {}
        for s in selects:
            comp = self.component(s[3:]) if s.startswith("id:") else None
            by_kind.setdefault(comp.kind if comp is not None else s, s)
        reps = list(by_kind.values())
        for i, s in enumerate(reps):
            self._emit_values(s, prop, changed if i == len(reps) - 1 else [])

    def _emit_values(self, select: str, prop: str, changed: list[str]) -> None:
        what = "" if self._is_field(select, prop) else prop
        if len(changed) == 1:
            self.component_changed.emit(changed[0], what)
        elif changed:
            self.components_changed.emit(changed, what)
        if select == "design":
            self.design_changed.emit(prop)
        self.values_changed.emit(select, prop)

    def _targets(self, select: str) -> list[Component | Link]:
        """models.document.design.targets, with a dict lookup for ``id:`` selectors."""
        if select.startswith("id:"):
            comp = self.component(select[3:])
            return [comp] if comp is not None else []
        return targets(self.design, select)

    def _link_index(self, link: Link) -> int:
        for i, lk in enumerate(self.design.links):
            if lk is link or (lk.source, lk.target, lk.kind) == (link.source, link.target,
                                                                  link.kind):
                return i
        return -1

    def _structure_changed(self) -> None:
        self.edits += 1
        self._values.clear()
        self._index = None
        self._engine = None
        self._base_engine = None
        self.request_evaluation()

    def _clean_changed(self, clean: bool) -> None:
        self.modified_changed.emit(not clean)

    def _evaluate_pending(self) -> None:
        self._try_evaluate()

    def _try_evaluate(self) -> None:
        try:
            self.evaluate_now()
        except Exception as err:  # the engine must never take the app down
            self._engine = None
            self._base_engine = None
            self.last_error = f"{type(err).__name__}: {err}"
            traceback.print_exc()
            self.evaluation_failed.emit(self.last_error)


def _target_key(t: Component | Link) -> object:
    if isinstance(t, Component):
        return t.id
    return (t.kind, t.source, t.target)


def _patch_is_exact(overrides: list[Override], patch: Override) -> bool:
    """True when applying ``patch`` last gives the same result as the override list: no other
    override of the same property could win over it."""
    return all(ov.prop != patch.prop or ov.select == patch.select for ov in overrides)


def link_problem(design: Design, link: Link, allow_replace: bool = False) -> str | None:
    """Why ``link`` cannot be added to ``design`` (None when it can).

    With ``allow_replace`` an existing link of a one-per-source kind is not a problem (the
    caller replaces it)."""
    spec = LINKS.get(link.kind)
    if spec is None:
        return f"unknown link kind '{link.kind}' (known: {', '.join(LINKS)})"
    src, dst = design.component(link.source), design.component(link.target)
    if src is None or dst is None:
        missing = link.source if src is None else link.target
        return f"'{missing}' is not a component of the design"
    if src.id == dst.id:
        return "a link cannot join a component to itself"
    if src.kind != spec.from_kind or dst.kind != spec.to_kind:
        return (f"a {link.kind} link goes from a {spec.from_kind} to a {spec.to_kind},"
                f" not from a {src.kind} to a {dst.kind}")
    for prop, val in link.props.items():
        pspec = spec.props.get(prop)
        if pspec is None:
            return f"a {link.kind} link has no property '{prop}'"
        problem = check_value(pspec, val)
        if problem:
            return f"property '{prop}': {problem}"
        link.props[prop] = normalise(pspec, val)
    for lk in design.links:
        if lk.kind == link.kind and {lk.source, lk.target} == {link.source, link.target}:
            return f"'{link.source}' and '{link.target}' are already joined by {link.kind}"
        if (not spec.many and not allow_replace and lk.kind == link.kind
                and lk.source == link.source):
            return (f"'{link.source}' already has a {link.kind} link (to '{lk.target}');"
                    " at most one is allowed")
    other = {"runs_on": "ft_secondary_on", "ft_secondary_on": "runs_on"}.get(link.kind)
    if other is not None:
        for lk in design.links:
            if lk.kind == other and lk.source == link.source and lk.target == link.target:
                return ("the FT secondary must run on a different host than the primary"
                        f" (both on '{link.target}')")
    return None
