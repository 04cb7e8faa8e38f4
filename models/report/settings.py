"""The knob table of a report: only the knobs whose value differs from the schema's default
(in the base design or any scenario) or differs between scenarios, each by its label."""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass

from models.document.design import Design, DesignError, apply_scenario
from models.document.knobs import Knob, knobs_for
from models.document.numbers import counted, prop_value
from models.document.schema import Value
from models.document.words import kind_count


@dataclass(frozen=True)
class Setting:
    """A knob's values over the components it applies to: each distinct value with how many
    components have it, the most common first."""

    values: tuple[tuple[Value, int], ...]
    of: int
    """How many components the knob applies to (more than ``values`` counts when only
    some of them are described: those a scenario changes)."""

    @property
    def uniform(self) -> bool:
        """One value on every component the knob applies to."""
        return len(self.values) <= 1 and sum(n for _, n in self.values) == self.of


def values(design: Design, k: Knob) -> list[Value]:
    """The knob's value on each component (or link) it applies to, in design order."""
    if k.kind == "design":
        return [design.policy_value(k.prop.removeprefix("policy."))]
    if k.kind in {lk.kind for lk in design.links}:
        return [lk.get(k.prop) for lk in design.links if lk.kind == k.kind]
    return [c.get(k.prop) for c in design.of_kind(k.kind)]


def setting(vals: list[Value], of: int | None = None) -> Setting:
    counts = Counter(vals)
    order = {v: i for i, v in reversed(list(enumerate(vals)))}
    return Setting(tuple(sorted(counts.items(), key=lambda vc: (-vc[1], order[vc[0]]))),
                   len(vals) if of is None else of)


@dataclass(frozen=True)
class KnobRow:
    knob: Knob
    default: Value
    base: Setting
    scenarios: tuple[tuple[str, Setting], ...]
    """The scenarios that change the knob: the new values of the components they change
    (``of`` counts every component the knob applies to), in design order."""


def knob_rows(design: Design) -> list[KnobRow]:
    """The knobs that differ from their default anywhere or between scenarios, in registry
    order (a scenario that no longer applies is left out)."""
    variants: list[tuple[str, Design, bool]] = []
    for sc in design.scenarios:
        try:
            variants.append((sc.name, apply_scenario(design, sc.name),
                             sc.rebuild is not None))
        except DesignError:  # an override that no longer matches: the comparison says so
            continue
    rows = []
    for k in knobs_for(design):
        default = k.spec.default
        base = values(design, k)
        changed = []
        for name, d, rebuilds in variants:
            there = values(d, k)
            if rebuilds or len(there) != len(base):  # other hosts: their values, all of them
                if set(there) != set(base):
                    changed.append((name, setting(there)))
                continue
            new = [b for a, b in zip(base, there, strict=True) if a != b]
            if new:
                changed.append((name, setting(new, len(base))))
        if changed or any(v != default for v in base):
            rows.append(KnobRow(k, default, setting(base), tuple(changed)))
    return rows


SPREAD_FROM = 3
"""A numeric knob with more distinct values than this many times the values listed (a VM's
measured CPU, one value each) is given as its range and median instead."""


def setting_text(k: Knob, s: Setting, limit: int = 3) -> str:
    """``32 I/Os`` when every component agrees, else ``128 I/Os on 15 VMs, 0 I/Os on 1 VM``
    (the ``limit`` most common values, then how many more), or, for many numbers (measured
    one by one), ``494 values on 502 VMs, from 0.5 % to 100 % (median 4.6 %)``."""
    if not s.values:
        return "–"
    if s.uniform:  # a measured-demand knob reads as a change ("+20 %", "as it is")
        return k.text(s.values[0][0]) if k.relative else prop_value(k.kind, k.prop,
                                                                      s.values[0][0])
    nums = [float(v) for v, _ in s.values
            if isinstance(v, int | float) and not isinstance(v, bool)]
    if len(nums) == len(s.values) > SPREAD_FROM * limit:  # measured one by one: a range
        held = sum(n for _, n in s.values)
        mid = statistics.median(float(v) for v, n in s.values for _ in range(n)
                                if isinstance(v, int | float))
        return (f"{counted(len(nums), 'value')} on {kind_count(k.kind, held)}, from"
                f" {prop_value(k.kind, k.prop, min(nums))} to"
                f" {prop_value(k.kind, k.prop, max(nums))} (median"
                f" {prop_value(k.kind, k.prop, mid)})")
    return listed([(prop_value(k.kind, k.prop, v), n) for v, n in s.values], k.kind,
                  "other value", limit)


def listed(texts: list[tuple[str, int]], kind: str, other: str, limit: int = 3) -> str:
    """``128 I/Os on 15 VMs, 0 I/Os on 1 VM and 2 other values``: each text with how many
    components of ``kind`` have it (most first), the ``limit`` first, then how many
    ``other`` more."""
    parts = [f"{text} on {kind_count(kind, n)}" for text, n in texts[:limit]]
    more = len(texts) - limit
    return ", ".join(parts) + (f" and {counted(more, other)}" if more > 0 else "")


def scenario_text(row: KnobRow) -> str:
    """The scenarios that change the knob, grouped by the value they give it:
    ``caching filter in iofilter, oio 32, iofilter``."""
    groups: dict[str, list[str]] = {}
    for name, s in row.scenarios:
        groups.setdefault(setting_text(row.knob, s, limit=2), []).append(name)
    return "; ".join(f"{text} in {quoted(names)}" for text, names in groups.items())


def quoted(names: list[str]) -> str:
    """Scenario names in quotes (a name may hold a comma): ``‘a’, ‘b’ and ‘c’``."""
    q = [f"‘{n}’" for n in names]
    return q[0] if len(q) == 1 else ", ".join(q[:-1]) + " and " + q[-1]
