"""The open design as a Qt object: a thin layer over the Qt-free edit session.

:class:`DesignDocument` wraps a :class:`~models.session.session.Session` (the design, its
edits and their inverses, the rules, scenario values, the engine) and adds what needs Qt: the
:class:`QUndoStack`, the selection, the file path, and signals.  Views read
``document.design`` (the canvas reads :meth:`~DesignDocument.shown_design`: in a refresh
kept as a scenario, the scenario's hosts) but never change it; every user edit calls one of
the edit methods below, which asks the session for a checked edit and pushes it as one
:class:`~app.document.commands.EditCommand`.  Applying an edit returns a
:class:`~models.document.edits.Change`, which :meth:`DesignDocument.apply` turns into
signals.  Evaluation is coalesced: many edits in one event-loop turn lead to one evaluation.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Mapping, Sequence

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QUndoStack

from app.document.commands import EditCommand
from app.support import first_paint, gc_guard
from models.core.prediction import Prediction
from models.document.design import (
    Component,
    Design,
    DesignError,
    Link,
    Override,
    Rebuild,
    rebuilt,
)
from models.document.edits import Batch, Change, Edit
from models.document.knobs import Knob
from models.document.schema import Value, prop_label
from models.document.snapshots import REPORT_NOTES, REPORT_TITLE, is_field
from models.engine import sweep
from models.io.arrange import arrange_added
from models.session.session import Session


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
    values_changed = Signal(str, str)
    """(select, prop) after any value edit or its undo: once per kind edited."""
    design_changed = Signal(str)
    """A field of the design itself changed: 'name', 'notes' or a 'policy.*' property."""
    evaluation_failed = Signal(str)
    """The engine raised; the message says what failed.  The last good prediction stays."""

    def __init__(self, design: Design | None = None, parent: QObject | None = None):
        super().__init__(parent)
        self.session = Session(design)
        self.undo_stack = QUndoStack(self)
        self.prediction: Prediction | None = None
        self.baseline: Prediction | None = None
        self.selection: list[str] = []
        self.path = ""
        self.last_error = ""
        self._shown: tuple[int, Rebuild, Design, dict[str, Component]] | None = None
        """The design the canvas shows in a refresh, and its index, with the structure
        revision and the rebuild it was made at (:meth:`shown_design`)."""
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._try_evaluate)
        self.undo_stack.cleanChanged.connect(self._clean_changed)
        self._try_evaluate()
        # a collection over the whole design: after the window has painted
        first_paint.later(lambda: gc_guard.settle(len(self.session.design.components)))

    # ------------------------------------------------------------------ state
    @property
    def design(self) -> Design:
        return self.session.design

    @property
    def scenario(self) -> str:
        return self.session.scenario

    @property
    def edits(self) -> int:
        """Counts the writes to the design (see Session.edits)."""
        return self.session.edits

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
        return self.session.component(cid)

    def rebuild(self) -> Rebuild | None:
        """The active scenario's rebuild of the hosts (a refresh), if it has one."""
        return self.session.rebuild()

    def shown_design(self) -> Design:
        """The design the canvas shows: the base design, or in a scenario that rebuilds the
        hosts (a refresh) the base design with the rebuild's hosts, their NICs and the VMs
        placed on them in place of the hosts it removes
        (:func:`~models.document.design.rebuilt`; the scenario's overrides are not applied,
        as on the base design), the rebuild's hosts laid out apart where they would overlap.
        Made again when the components or links change or another rebuild is active; what it
        shares with the base design are the base design's own components, so a value edit or
        a move shows at once."""
        rb = self.rebuild()
        return self.design if rb is None else self._rebuilt(rb)[0]

    def shown_component(self, cid: str) -> Component | None:
        """Component ``cid`` of :meth:`shown_design` (None when the canvas does not show it:
        a host the active refresh removed, or a refresh's host on the base design)."""
        return self._shown_lookup()(cid)

    def _shown_lookup(self) -> Callable[[str], Component | None]:
        # on the base design no pass over the scenarios: a selection of 10,000 asks each
        rb = self.rebuild() if self.session.scenario != "base" else None
        return self.session.component if rb is None else self._rebuilt(rb)[1].get

    def _rebuilt(self, rb: Rebuild) -> tuple[Design, dict[str, Component]]:
        """The design with ``rb``'s hardware and its index by id, as last made unless the
        structure changed since."""
        at = self._shown
        if at is None or at[0] != self.session.structure or at[1] is not rb:
            shown = rebuilt(self.design, rb)
            base = self.session.component
            shown.components = [base(c.id) or c for c in shown.components]
            arrange_added(shown, {c.id for c in rb.components})
            at = self._shown = (self.session.structure, rb, shown,
                                {c.id: c for c in shown.components})
        return at[2], at[3]

    def name_of(self, cid: str) -> str:
        """How the user knows component ``cid``: its name, else its id."""
        return self.session.name_of(cid)

    def new_id(self, kind: str, taken: set[str] | None = None) -> str:
        return self.session.new_id(kind, taken)

    def links_of(self, cid: str) -> list[Link]:
        return self.session.links_of(cid)

    def knobs(self) -> list[Knob]:
        """The knobs that apply to the design (one pass per edit, whoever asks)."""
        return self.session.knobs()

    def default_knob(self) -> Knob | None:
        """The knob whose curve the design opens on."""
        return self.session.default_knob()

    def value(self, select: str, prop: str) -> Value | None:
        """The effective value in the active scenario; None when mixed or nothing matches."""
        return self.session.value(select, prop)

    def typical(self, select: str, prop: str) -> float | None:
        """The value most of a kind's components hold of a numeric property (None when
        unknown)."""
        return self.session.typical(select, prop)

    def validate(self, select: str, prop: str, value: Value) -> Value:
        return self.session.validate(select, prop, value)

    # ------------------------------------------------------------------ edits (undoable)
    def add_component(self, comp: Component) -> None:
        """Add one component (one undo step).  Raises DesignError if it is not valid."""
        self.add_components([comp], [])

    def add_components(self, comps: list[Component], links: list[Link],
                       text: str | None = None) -> None:
        """Add components and links between them (and existing ones) as ONE undo step
        (paste, drop of a preset).  Raises DesignError naming the first problem."""
        if comps or links:
            self._push(self.session.add_components(comps, links, text))

    def remove_components(self, ids: Sequence[str], links: Sequence[Link] = ()) -> None:
        """Remove components with every link touching them, and ``links`` too (one undo
        step for a whole selection)."""
        edit = self.session.remove_components(ids, links)
        if edit is not None:
            self._push(edit)

    def move_components(self, moves: dict[str, tuple[float, float]]) -> None:
        """Move components to new positions (one undo step; pushed on drag release)."""
        edit = self.session.move_components(moves)
        if edit is not None:
            self._push(edit)

    def move_and_join(self, moves: dict[str, tuple[float, float]], joins: Sequence[Link]
                      ) -> tuple[str, list[str]]:
        """Move components and link them into what they were let go on, as ONE undo step;
        returns the step's label ("" when nothing changed) and why each refused link was left
        out (:meth:`Session.move_and_join`)."""
        edit, refused = self.session.move_and_join(moves, joins)
        if edit is not None:
            self._push(edit)
        return (edit.label if edit is not None else ""), refused

    def add_link(self, link: Link) -> str | None:
        """Add a link; returns None when done, else why it is illegal (nothing pushed).
        A one-per-source kind replaces the source's existing link in the same step."""
        try:
            edit = self.session.add_link(link)
        except DesignError as err:
            return err.issues[0].message
        self._push(edit)
        return None

    def remove_link(self, link: Link) -> None:
        edit = self.session.remove_link(link)
        if edit is not None:
            self._push(edit)

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
        if selects:
            self._push(self.session.set_values(selects, prop, value), merge_key)

    def set_design_values(self, values: Mapping[str, Value], text: str) -> bool:
        """Set several of the design's own values (the growth rates the Growth tab keeps) as
        ONE undo step; False when none changes."""
        edit = self.session.set_design_values(values, text)
        if edit is None:
            return False
        self._push(edit)
        return True

    def set_report_details(self, title: str, notes: str) -> bool:
        """Set the report's title and notes (the design's ``report.title`` and
        ``report.notes``) as ONE undo step; False when neither changes."""
        wanted = {REPORT_TITLE: title, REPORT_NOTES: notes}
        edits: list[Edit] = [self.session.set_values(["design"], prop, value)
                             for prop, value in wanted.items()
                             if self.session.value("design", prop) != value]
        if not edits:
            return False
        words = " and ".join(prop_label("design", p).lower() for p in wanted
                             if self.session.value("design", p) != wanted[p])
        self._push(edits[0] if len(edits) == 1 else Batch(f"Edit the {words}", tuple(edits)))
        return True

    def replace_contents(self, design: Design, text: str) -> None:
        """Take ``design``'s components and links as ONE undo step (a goal-seek answer that
        rebuilds hosts or VMs); the scenarios, policy, name and undo history stay."""
        self._push(self.session.replace_contents(design, text))

    def add_scenario(self, name: str, overrides: Sequence[Override] = (),
                     rebuild: Rebuild | None = None) -> None:
        """Add a named scenario (one undo step), of overrides and of a rebuild of the hosts
        (a refresh); DesignError if the name is taken or empty."""
        self._push(self.session.add_scenario(name, overrides, rebuild))

    def remove_scenario(self, name: str) -> None:
        self._push(self.session.remove_scenario(name))

    def _push(self, edit: Edit, merge_key: str | None = None) -> None:
        self.undo_stack.push(EditCommand(self.apply, edit, merge_key))

    # ------------------------------------------------------------------ applying
    def apply(self, edit: Edit) -> Edit:
        """Carry ``edit`` out (called by the undo commands); returns its inverse."""
        gc_guard.hold()  # a collection waits until the edits pause
        inverse, change = self.session.apply(edit)
        self._emit(change)
        return inverse

    def _emit(self, change: Change) -> None:
        for lk in change.links_removed:
            self.link_removed.emit(lk)
        if change.removed and set(change.removed) & set(self.selection):
            gone = set(change.removed)
            self.set_selection([s for s in self.selection if s not in gone])
        for cid in change.removed:
            self.component_removed.emit(cid)
        for cid in change.added:
            self.component_added.emit(cid)
        for lk in change.links_added:
            self.link_added.emit(lk)
        for cid in change.moved:
            self.component_changed.emit(cid, "")
        if change.contents:
            self.selection = []
            self.design_replaced.emit()
            self.selection_changed.emit([])
        if change.scenario_reset:
            self._scenario_set("base")
        if change.scenarios:
            self.scenarios_changed.emit()
        if change.values is not None:
            self._emit_values(*change.values)
        if change.stale:
            self.request_evaluation()

    def _emit_values(self, selects: Sequence[str], prop: str, changed: list[str]) -> None:
        """The change signals of a value edit: the component ids once, and values_changed
        once per kind (not once per id of a large selection)."""
        by_kind: dict[str, str] = {}
        for s in selects:
            comp = self.component(s[3:]) if s.startswith("id:") else None
            by_kind.setdefault(comp.kind if comp is not None else s, s)
        reps = list(by_kind.values())
        for i, select in enumerate(reps):
            ids = changed if i == len(reps) - 1 else []
            what = "" if is_field(select, prop) else prop
            if len(ids) == 1:
                self.component_changed.emit(ids[0], what)
            elif ids:
                self.components_changed.emit(ids, what)
            if select == "design":
                self.design_changed.emit(prop)
            self.values_changed.emit(select, prop)

    # ------------------------------------------------------------------ not undoable
    def set_scenario(self, name: str) -> None:
        """Make ``name`` ('base' or a scenario) active and re-evaluate (not undoable)."""
        if self.session.set_scenario(name):
            self._scenario_set(name)

    def _scenario_set(self, name: str) -> None:
        """``name`` is active now: what the canvas no longer shows leaves the selection (a
        host a refresh removed, or a refresh's host), then the views hear, then the
        prediction follows."""
        self.set_selection(self.selection)
        self.scenario_changed.emit(name)
        self._try_evaluate()

    def replace_design(self, design: Design, path: str = "", modified: bool = False) -> None:
        """Load a whole new design (New/Open/import/recover): clears undo and selection.

        ``modified`` marks a design that exists in no file yet (an import, a recovered
        autosave), so that closing asks to save it."""
        self._timer.stop()
        self.session.replace(design)
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
        gc_guard.settle(len(design.components))

    def set_selection(self, ids: list[str]) -> None:
        """Select ``ids``, those of them the canvas shows (:meth:`shown_component`)."""
        shown = self._shown_lookup()
        ids = [cid for cid in dict.fromkeys(ids) if shown(cid) is not None]
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
        self.prediction, self.baseline = self.session.evaluate()
        self.last_error = ""
        self.prediction_updated.emit(self.prediction)
        self.baseline_updated.emit(self.baseline)
        return self.prediction

    def sweep(self, path: str, values: Sequence[Value]) -> list[Prediction]:
        """Predictions of the active scenario for each value of knob ``path`` on a private
        engine (:func:`models.engine.sweep.sweep`): the document does not change.
        DesignError on a bad value."""
        return sweep.sweep(self.design, self.scenario, path, values)

    def _clean_changed(self, clean: bool) -> None:
        self.modified_changed.emit(not clean)

    def _try_evaluate(self) -> None:
        try:
            self.evaluate_now()
        except Exception as err:  # the engine must never take the app down
            self.session.drop_engines()
            self.last_error = f"{type(err).__name__}: {err}"
            traceback.print_exc()
            self.evaluation_failed.emit(self.last_error)
