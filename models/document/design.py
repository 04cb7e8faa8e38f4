"""The design document: components, links, scenarios, values and scenario overrides.

A :class:`Design` keeps only what the user wrote (explicit property values); defaults come
from :mod:`models.document.schema` when read.  Every problem found while parsing is collected into
one :class:`DesignError` whose issues each name the place, the property and what was expected.
Nothing is clamped or dropped silently.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from models.document.schema import DESIGN_PROPS, KINDS, LINKS, PropSpec, Value, prop_spec

MAX_EXACT_INT = 2**53
"""Integers beyond this cannot be held exactly as a float: no design quantity is that large,
and one with hundreds of digits would overflow the engine's arithmetic."""


class HugeNumber:
    """An integer literal too long to be any design quantity, kept only as its digit count
    (the JSON reader makes one instead of an int of hundreds of digits)."""

    def __init__(self, digits: int):
        self.digits = digits

    def __repr__(self) -> str:
        return f"a {self.digits}-digit number"


def parse_json_int(text: str) -> int | HugeNumber:
    """``json.loads``'s ``parse_int``: an int, or a :class:`HugeNumber` past 16 digits."""
    digits = len(text.lstrip("-"))
    return int(text) if digits <= 16 else HugeNumber(digits)


def repair_text(text: str) -> str:
    """``text`` with every lone UTF-16 surrogate (legal as a JSON escape, not encodable as
    UTF-8) replaced by U+FFFD; the same object when there is nothing to repair."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)
    return text


@dataclass(frozen=True)
class Issue:
    """One problem in a design: where it is, which property, and what was wrong."""

    where: str
    message: str
    prop: str | None = None

    def __str__(self) -> str:
        if self.prop:
            return f"{self.where}: property '{self.prop}': {self.message}"
        return f"{self.where}: {self.message}"


class DesignError(ValueError):
    """A design (or an override) is not valid; ``issues`` lists every problem found."""

    def __init__(self, issues: list[Issue]):
        self.issues = issues
        head = str(issues[0]) if issues else "invalid design"
        more = f" (and {len(issues) - 1} more)" if len(issues) > 1 else ""
        super().__init__(head + more)

    def describe(self) -> str:
        return "\n".join(str(i) for i in self.issues)


@dataclass(slots=True)
class Component:
    id: str
    kind: str
    name: str = ""
    x: float = 0.0
    y: float = 0.0
    tags: list[str] = field(default_factory=list)
    props: dict[str, Value] = field(default_factory=dict)
    """Explicit values only, keyed by dotted property name."""

    def get(self, prop: str) -> Value:
        if prop in self.props:
            return self.props[prop]
        return KINDS[self.kind].props[prop].default

    def label(self) -> str:
        return f"component '{self.id}' ({self.kind})"


@dataclass(slots=True)
class Link:
    source: str
    target: str
    kind: str
    props: dict[str, Value] = field(default_factory=dict)

    def get(self, prop: str) -> Value:
        if prop in self.props:
            return self.props[prop]
        return LINKS[self.kind].props[prop].default

    def label(self) -> str:
        return f"link {self.kind} '{self.source}' -> '{self.target}'"


@dataclass(frozen=True)
class Override:
    """Set ``prop`` to ``value`` on every target of ``select`` (kind, ``id:``, ``tag:``,
    ``design``, or a link kind such as ``wan``)."""

    select: str
    prop: str
    value: Value


@dataclass
class Rebuild:
    """What a scenario does to the base design's hardware (a hardware refresh): it takes out
    the hosts :attr:`removed` (with the NICs installed in them and every link that touches
    either), adds :attr:`components` (hosts and their NICs) and :attr:`links` (theirs, and
    where VMs run on them: a VM these links place leaves its base placement).  Everything
    else is the base design's, so an edit of a VM or the policy reaches the scenario too;
    a link to a component the base design no longer has is left out."""

    removed: list[str] = field(default_factory=list)
    components: list[Component] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    label: str = ""
    """What it does, in words ("34 hosts replaced by 9 Dell PowerEdge R760 ...")."""

    def gone(self, design: Design) -> set[str]:
        """The ids it takes out of ``design``: its hosts and the NICs installed in them."""
        hosts = set(self.removed)
        return hosts | {lk.source for lk in design.links
                        if lk.kind == "installed_in" and lk.target in hosts}

    def copy(self) -> Rebuild:
        return Rebuild(list(self.removed),
                       [Component(c.id, c.kind, c.name, c.x, c.y, list(c.tags), dict(c.props))
                        for c in self.components],
                       [Link(lk.source, lk.target, lk.kind, dict(lk.props))
                        for lk in self.links], self.label)


@dataclass
class Scenario:
    name: str
    overrides: list[Override] = field(default_factory=list)
    rebuild: Rebuild | None = None
    """Hardware it replaces (a refresh); None for a scenario of overrides alone."""


@dataclass
class Design:
    name: str = "Untitled design"
    notes: str = ""
    policy: dict[str, Value] = field(default_factory=dict)
    """Explicit policy values keyed without the ``policy.`` prefix."""
    components: list[Component] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    scenarios: list[Scenario] = field(default_factory=list)
    report_title: str = ""
    """The report's title: the customer or project it is for (the title page leads with it;
    empty: the design's name)."""
    report_notes: str = ""
    """The architect's notes for the report's title page."""
    repairs: list[Issue] = field(default_factory=list, compare=False, repr=False)
    """What was repaired while reading the design (text that was not valid Unicode): not part
    of the document; whoever loaded it shows these as warnings."""

    def policy_value(self, key: str) -> Value:
        """A design-level value: ``policy.<key>`` or ``growth.<rate>`` (the growth keeps its
        prefix)."""
        if key in self.policy:
            return self.policy[key]
        spec = DESIGN_PROPS.get("policy." + key) or DESIGN_PROPS[key]
        return spec.default

    def component(self, cid: str) -> Component | None:
        for c in self.components:
            if c.id == cid:
                return c
        return None

    def of_kind(self, kind: str) -> list[Component]:
        return [c for c in self.components if c.kind == kind]

    def scenario(self, name: str) -> Scenario:
        for s in self.scenarios:
            if s.name == name:
                return s
        known = ", ".join(s.name for s in self.scenarios) or "none"
        raise DesignError([Issue("scenarios", f"no scenario named '{name}' (known: {known})")])

    def copy(self) -> Design:
        """An independent copy: new components, links, scenarios, tag lists and property
        dicts.  Values are immutable scalars and overrides frozen, so this equals a deep copy
        at a twentieth of its cost (40 ms at 2,000 VMs for ``copy.deepcopy``), which matters
        for every scenario applied and every background snapshot."""
        return Design(
            name=self.name, notes=self.notes, policy=dict(self.policy),
            components=[Component(c.id, c.kind, c.name, c.x, c.y, list(c.tags), dict(c.props))
                        for c in self.components],
            links=[Link(lk.source, lk.target, lk.kind, dict(lk.props)) for lk in self.links],
            scenarios=[Scenario(s.name, list(s.overrides),
                                s.rebuild.copy() if s.rebuild is not None else None)
                       for s in self.scenarios],
            report_title=self.report_title, report_notes=self.report_notes)


# --------------------------------------------------------------------------- values


def check_value(spec: PropSpec, value: Any) -> str | None:
    """Return None if ``value`` is valid for ``spec``, else a message saying what was expected."""
    if value is None:
        return None if spec.nullable else f"expected {spec.expected()}, got null"
    if spec.type == "bool":
        return None if isinstance(value, bool) else _expected(spec, value)
    if spec.type in ("str", "enum") and not (spec.type == "enum" and spec.choices
                                             and not isinstance(spec.choices[0], str)):
        if not isinstance(value, str):
            return _expected(spec, value)
        if spec.type == "enum" and spec.choices is not None and value not in spec.choices:
            return _expected(spec, value)
        return None
    # numeric
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return _expected(spec, value)
    if isinstance(value, int) and abs(value) > MAX_EXACT_INT:
        return _expected(spec, value, " (too large)")
    if not math.isfinite(value):
        return _expected(spec, value, " (not a finite number)")
    if spec.type == "int" and not float(value).is_integer():
        return _expected(spec, value)
    if spec.choices is not None and float(value) not in [float(c) for c in spec.choices]:
        return _expected(spec, value)
    if (spec.min is not None and value < spec.min) or (spec.max is not None and value > spec.max):
        return _expected(spec, value, " (out of range)")
    return None


def _expected(spec: PropSpec, value: Any, why: str = "") -> str:
    return f"expected {spec.expected()}, got {describe_value(value)}{why}"


def normalise(spec: PropSpec, value: Value) -> Value:
    """The canonical Python value of an already valid ``value`` (ints stay ints)."""
    if value is None or spec.type in ("bool", "str", "enum"):
        return value
    if spec.type == "int":
        return int(value)
    return float(value)


def parse_value(spec: PropSpec, text: str) -> Value:
    """Parse a command-line string (``--set``) into a value of ``spec``'s type.

    Raises ValueError with a message saying what was expected.
    """
    t = text.strip()
    value: Value
    if spec.nullable and t.lower() in ("null", "none", ""):
        value = None
    elif spec.type == "bool":
        low = t.lower()
        if low in ("true", "1", "on", "yes"):
            value = True
        elif low in ("false", "0", "off", "no"):
            value = False
        else:
            raise ValueError(f"expected {spec.expected()}, got '{text}'")
    elif spec.type in ("int", "float"):
        if len(t.lstrip("+-")) > 16 and t.lstrip("+-").isdigit():
            raise ValueError(f"expected {spec.expected()}, got a"
                             f" {len(t.lstrip('+-'))}-digit number (too large)")
        try:
            value = float(t)
        except ValueError:
            raise ValueError(f"expected {spec.expected()}, got '{text}'") from None
        if spec.type == "int" and value.is_integer():
            value = int(value)
    else:
        value = t
    problem = check_value(spec, value)
    if problem:
        raise ValueError(problem)
    return normalise(spec, value)


def describe_value(value: Any) -> str:
    """A value as an error message quotes it (strings shortened, containers named)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_EXACT_INT:
        return f"a {len(str(abs(value)))}-digit number"
    if isinstance(value, HugeNumber):
        return repr(value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value) if len(value) < 40 else repr(value[:37] + "...")
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__

# --------------------------------------------------------------------------- overrides


def selector_kind(design: Design, select: str) -> str | None:
    """The kind a selector addresses (for ``tag:`` the kind of the first match)."""
    if select == "design" or select in KINDS or select in LINKS:
        return select
    if select.startswith("id:"):
        comp = design.component(select[3:])
        return comp.kind if comp else None
    if select.startswith("tag:"):
        for c in design.components:
            if select[4:] in c.tags:
                return c.kind
    return None


def make_override(design: Design, select: Any, prop: Any, value: Any) -> Override:
    """Validate one override against ``design`` and return it with a normalised value."""
    if not isinstance(select, str) or not isinstance(prop, str):
        raise DesignError([Issue("override", "'select' and 'prop' must be strings")])
    kind = selector_kind(design, select)
    if kind is None and select.startswith("id:"):
        raise DesignError([Issue(f"select '{select}'",
                                 f"no component has the id '{select[3:]}'")])
    if kind is None and select.startswith("tag:"):
        raise DesignError([Issue(f"select '{select}'",
                                 f"no component has the tag '{select[4:]}'")])
    if kind is None:
        raise DesignError([Issue(f"select '{select}'", "matches nothing: expected a kind ("
                                 + ", ".join([*KINDS, *LINKS]) + "), id:<id>, tag:<tag> or"
                                 " design")])
    if select.startswith("tag:"):
        kinds = {c.kind for c in design.components if select[4:] in c.tags}
        for k in kinds:
            if prop_spec(k, prop) is None:
                raise DesignError([Issue(f"select '{select}'", f"kind '{k}' has no such"
                                         " property", prop)])
    spec = prop_spec(kind, prop)
    if spec is None:
        raise DesignError([Issue(f"select '{select}'", f"kind '{kind}' has no such property",
                                 prop)])
    problem = check_value(spec, value)
    if problem:
        raise DesignError([Issue(f"select '{select}'", problem, prop)])
    return Override(select, prop, normalise(spec, value))


def parse_assignment(design: Design, text: str) -> Override:
    """Parse ``PATH=VALUE`` from the command line (``vm.workload.io_oio=32``,
    ``id:v1.workload.io_oio=32``, ``design.policy.cpu_util_max=0.8``, ``wan.rtt_ms=5``)."""
    if "=" not in text:
        raise DesignError([Issue(f"--set {text}", "expected PATH=VALUE")])
    path, _, raw = text.partition("=")
    select, prop = split_path(path.strip())
    kind = selector_kind(design, select)
    spec = prop_spec(kind, prop) if kind else None
    if spec is None:
        return make_override(design, select, prop, raw)  # raises with the precise reason
    try:
        value = parse_value(spec, raw)
    except ValueError as err:
        raise DesignError([Issue(f"--set {path}", str(err), prop)]) from None
    if select != "design" and not targets(design, select):
        raise DesignError([Issue(f"--set {path}", f"select '{select}' matches nothing in"
                                 " this design")])
    return make_override(design, select, prop, value)


def split_path(path: str) -> tuple[str, str]:
    """Split a knob path into (selector, property): ``id:v1.workload.io_oio`` ->
    (``id:v1``, ``workload.io_oio``).  Ids and tags may not contain dots in paths."""
    head, _, rest = path.partition(".")
    return head, rest


def targets(design: Design, select: str) -> list[Component | Link]:
    if select in KINDS:
        return [c for c in design.components if c.kind == select]
    if select in LINKS:
        return [lk for lk in design.links if lk.kind == select]
    if select.startswith("id:"):
        comp = design.component(select[3:])
        return [comp] if comp else []
    if select.startswith("tag:"):
        return [c for c in design.components if select[4:] in c.tags]
    return []


def apply_overrides(design: Design, overrides: list[Override]) -> Design:
    """A copy of ``design`` with the overrides applied in order."""
    out = design.copy()
    for ov in overrides:
        if ov.select == "design":
            out.policy[ov.prop.removeprefix("policy.")] = ov.value
            continue
        for target in targets(out, ov.select):
            target.props[ov.prop] = ov.value
    return out


def effective_values(design: Design, overrides: Sequence[Override],
                     found: Sequence[Component | Link], prop: str) -> list[Value]:
    """What ``prop`` reads on each of ``found`` once ``overrides`` apply: the rule of
    :func:`apply_overrides` (in order; the last override whose selector matches the target
    wins; ``design`` overrides set the policy), without copying the design."""
    relevant = [ov for ov in overrides if ov.prop == prop and ov.select != "design"]
    if not relevant:
        return [t.get(prop) for t in found]
    matched = [{id(t) for t in targets(design, ov.select)} for ov in relevant]
    out = []
    for t in found:
        val = t.get(prop)
        for ov, ids in zip(relevant, matched, strict=True):
            if id(t) in ids:
                val = ov.value
        out.append(val)
    return out


def effective_policy(design: Design, overrides: Sequence[Override], key: str) -> Value:
    """The policy value ``key`` once ``overrides`` apply (see :func:`apply_overrides`)."""
    val = design.policy_value(key)
    for ov in overrides:
        if ov.select == "design" and ov.prop.removeprefix("policy.") == key:
            val = ov.value
    return val


def apply_scenario(design: Design, name: str | None) -> Design:
    if name is None or name == "base":
        return design
    sc = design.scenario(name)
    base = rebuilt(design, sc.rebuild) if sc.rebuild is not None else design
    return apply_overrides(base, sc.overrides)


def every_component(design: Design) -> list[Component]:
    """The design's components, then those its scenarios' rebuilds add (the hosts of a
    refresh): what a name may be looked up in."""
    return design.components + [c for sc in design.scenarios if sc.rebuild is not None
                                for c in sc.rebuild.components]


PLACEMENT = ("runs_on", "ft_secondary_on")
"""Links that say where a VM runs: a rebuild's own replace the base design's."""


def rebuilt(design: Design, rebuild: Rebuild) -> Design:
    """``design`` with ``rebuild``'s hardware in place of the hosts it removes (see
    :class:`Rebuild`); the VMs keep their order, so per-VM arrays line up with the base
    design's.  The input is never changed."""
    gone = rebuild.gone(design)
    kept = [c for c in design.components if c.id not in gone]
    ids = {c.id for c in kept}
    added = [c for c in rebuild.components if c.id not in ids]
    ids |= {c.id for c in added}
    placed = {(lk.source, lk.kind) for lk in rebuild.links if lk.kind in PLACEMENT}
    links = [lk for lk in design.links if lk.source not in gone and lk.target not in gone
             and (lk.source, lk.kind) not in placed]
    links += [lk for lk in rebuild.links if lk.source in ids and lk.target in ids]
    out = Design(name=design.name, notes=design.notes, policy=design.policy,
                 components=kept + added, links=links, scenarios=design.scenarios)
    return out.copy()
