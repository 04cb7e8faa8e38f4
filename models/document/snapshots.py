"""What the targets of a value edit hold, read once and written back in one pass.

The session (:mod:`models.session.session`) reads a :class:`~models.document.edits.Snapshot`
before a value edit (its undo) and writes one to carry an edit out: a kind-wide edit of 2,000
VMs that all held one value is one record, not 2,000.  Names and the design's own name and
notes are *fields*, not schema properties, and always live on the base design.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from models.document.design import Component, Design, Link
from models.document.edits import OldValue, Snapshot
from models.document.schema import Value

COMPONENT_FIELDS = ("name",)
"""Component fields (not schema properties) settable as ``'id:<id>', 'name'``: always on
the base design."""
REPORT_TITLE, REPORT_NOTES = "report.title", "report.notes"
"""The report's title and notes, fields of the design (``Design.report_title``, ...)."""
DESIGN_FIELDS = ("name", "notes", REPORT_TITLE, REPORT_NOTES)
"""Fields of the design itself settable as ``'design', 'name'|'notes'|'report.title'|...``."""

_ATTRIBUTES = {REPORT_TITLE: "report_title", REPORT_NOTES: "report_notes"}
"""The :class:`Design` attribute of a field whose name is not its own."""


def design_field(design: Design, prop: str) -> str:
    """The value of field ``prop`` (one of :data:`DESIGN_FIELDS`) of ``design``."""
    return str(getattr(design, _ATTRIBUTES.get(prop, prop)))


def set_design_field(design: Design, prop: str, value: object) -> None:
    setattr(design, _ATTRIBUTES.get(prop, prop), "" if value is None else str(value))


_ABSENT = object()
"""A property a target does not hold (told apart from one that holds None)."""


def is_field(select: str, prop: str) -> bool:
    """Whether ``prop`` of ``select`` is a field (a name or the design's notes), not a
    schema property: fields are always written to the base design."""
    if select == "design":
        return prop in DESIGN_FIELDS
    return select.startswith("id:") and prop in COMPONENT_FIELDS


def read(design: Design, selects: Sequence[str], prop: str,
         targets_of: Callable[[str], list[Component | Link]]) -> Snapshot:
    """What ``selects`` address holds on ``design``, read once: one record when every
    target holds the same value (``targets_of`` finds a selector's targets)."""
    if "design" in selects:
        if prop in DESIGN_FIELDS:
            return Snapshot(design=OldValue(True, design_field(design, prop)))
        key = prop.removeprefix("policy.")
        return Snapshot(design=OldValue(key in design.policy, design.policy.get(key)))
    found: list[Component | Link]
    if len(selects) == 1:  # one selector's targets are distinct already
        found = list(targets_of(selects[0]))
    else:
        found, seen = [], set()
        for s in selects:
            for t in targets_of(s):
                if id(t) not in seen:
                    seen.add(id(t))
                    found.append(t)
    ids = tuple(t.id for t in found if isinstance(t, Component))
    if any(is_field(s, prop) for s in selects):
        names = tuple(t.name if isinstance(t, Component) else None for t in found)
        return Snapshot(tuple(found), held=names, ids=ids)
    present = bool(found) and prop in found[0].props
    first = found[0].props.get(prop) if found else None
    # one pass over the values (a kind-wide edit of 50,000 VMs reads them all): uniform when
    # every target holds the first one's value, of its type, or every target lacks it
    values = [t.props.get(prop, _ABSENT) for t in found]
    lead = values[0] if values else _ABSENT
    kind = type(lead)
    if values.count(lead) == len(values) and all(type(v) is kind for v in values):
        return Snapshot(tuple(found), OldValue(present, first), ids=ids)
    absent = frozenset(i for i, v in enumerate(values) if v is _ABSENT) \
        if _ABSENT in values else frozenset()
    held = tuple(None if v is _ABSENT else cast(Value, v) for v in values) if absent \
        else cast(tuple[Value, ...], tuple(values))
    return Snapshot(tuple(found), held=held, absent=absent, ids=ids)


def write(design: Design, prop: str, snapshot: Snapshot, field: bool) -> None:
    """Write ``snapshot`` into ``design`` in one pass (``field``: a name, not a property)."""
    if snapshot.design is not None:
        _write_design_field(design, prop, snapshot.design)
    elif field:
        olds = snapshot.column or (snapshot.uniform or OldValue(True, ""),) * len(
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
        absent = snapshot.absent
        for i, (t, value) in enumerate(zip(snapshot.targets, snapshot.held or (),
                                           strict=True)):
            if i in absent:
                t.props.pop(prop, None)
            else:
                t.props[prop] = value


def _write_design_field(design: Design, prop: str, old: OldValue) -> None:
    if prop in DESIGN_FIELDS:
        set_design_field(design, prop, old.value)
        return
    key = prop.removeprefix("policy.")
    if old.present:
        design.policy[key] = old.value
    else:
        design.policy.pop(key, None)
