"""The design document: parse, validate, serialise, and apply scenario overrides.

A :class:`Design` keeps only what the user wrote (explicit property values); defaults come
from :mod:`models.document.schema` when read.  Every problem found while parsing is collected into
one :class:`DesignError` whose issues each name the place, the property and what was expected.
Nothing is clamped or dropped silently.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from models.document.schema import DESIGN_PROPS, KINDS, LINKS, PropSpec, Value, prop_spec

FORMAT = "headroom-design"
VERSION = 1


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


@dataclass
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


@dataclass
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
class Scenario:
    name: str
    overrides: list[Override] = field(default_factory=list)


@dataclass
class Design:
    name: str = "Untitled design"
    notes: str = ""
    policy: dict[str, Value] = field(default_factory=dict)
    """Explicit policy values keyed without the ``policy.`` prefix."""
    components: list[Component] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    scenarios: list[Scenario] = field(default_factory=list)

    def policy_value(self, key: str) -> Value:
        if key in self.policy:
            return self.policy[key]
        return DESIGN_PROPS["policy." + key].default

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
            scenarios=[Scenario(s.name, list(s.overrides)) for s in self.scenarios])


# --------------------------------------------------------------------------- values


def check_value(spec: PropSpec, value: Any) -> str | None:
    """Return None if ``value`` is valid for ``spec``, else a message saying what was expected."""
    got = _describe(value)
    if value is None:
        return None if spec.nullable else f"expected {spec.expected()}, got null"
    if spec.type == "bool":
        return None if isinstance(value, bool) else f"expected {spec.expected()}, got {got}"
    if spec.type in ("str", "enum") and not (spec.type == "enum" and spec.choices
                                             and not isinstance(spec.choices[0], str)):
        if not isinstance(value, str):
            return f"expected {spec.expected()}, got {got}"
        if spec.type == "enum" and spec.choices is not None and value not in spec.choices:
            return f"expected {spec.expected()}, got {got}"
        return None
    # numeric
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return f"expected {spec.expected()}, got {got}"
    if not math.isfinite(value):
        return f"expected {spec.expected()}, got {got} (not a finite number)"
    if spec.type == "int" and not float(value).is_integer():
        return f"expected {spec.expected()}, got {got}"
    if spec.choices is not None and float(value) not in [float(c) for c in spec.choices]:
        return f"expected {spec.expected()}, got {got}"
    if (spec.min is not None and value < spec.min) or (spec.max is not None and value > spec.max):
        return f"expected {spec.expected()}, got {got} (out of range)"
    return None


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


def _describe(value: Any) -> str:
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


# --------------------------------------------------------------------------- parsing


def _flatten(obj: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, val in obj.items():
        name = f"{prefix}{key}"
        if isinstance(val, dict):
            out.update(_flatten(val, name + "."))
        else:
            out[name] = val
    return out


def _nest(flat: dict[str, Value]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, val in flat.items():
        parts = key.split(".")
        node = out
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = val
    return out


class _Collector:
    def __init__(self) -> None:
        self.issues: list[Issue] = []

    def add(self, where: str, message: str, prop: str | None = None) -> None:
        self.issues.append(Issue(where, message, prop))


def _parse_props(raw: Any, kind_props: dict[str, PropSpec], where: str, kind: str,
                 col: _Collector) -> dict[str, Value]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        col.add(where, f"'props' must be an object, got {_describe(raw)}")
        return {}
    out: dict[str, Value] = {}
    for name, value in _flatten(raw).items():
        spec = kind_props.get(name)
        if spec is None:
            known = ", ".join(sorted(kind_props)) or "none"
            col.add(where, f"unknown property for kind '{kind}' (known: {known})", name)
            continue
        problem = check_value(spec, value)
        if problem:
            col.add(where, problem, name)
            continue
        out[name] = normalise(spec, value)
    return out


def _expect(obj: dict[str, Any], key: str, types: tuple[type, ...], where: str,
            col: _Collector, what: str) -> Any:
    val = obj.get(key)
    if val is None:
        return None
    if isinstance(val, bool) and bool not in types:
        col.add(where, f"'{key}' must be {what}, got {_describe(val)}")
        return None
    if not isinstance(val, types):
        col.add(where, f"'{key}' must be {what}, got {_describe(val)}")
        return None
    if isinstance(val, float) and not math.isfinite(val):
        col.add(where, f"'{key}' must be {what}, got {_describe(val)} (not a finite number)")
        return None
    return val


def parse_design(obj: Any) -> Design:
    """Build a :class:`Design` from a decoded JSON document, or raise :class:`DesignError`."""
    col = _Collector()
    if not isinstance(obj, dict):
        raise DesignError([Issue("document", f"expected a JSON object, got {_describe(obj)}")])
    if obj.get("format") != FORMAT:
        col.add("document", f"'format' must be '{FORMAT}', got {_describe(obj.get('format'))}")
    version = obj.get("version")
    if version != VERSION:
        if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
            col.add("document", f"'version' {version} is newer than this Headroom understands"
                    f" ({VERSION}); update Headroom")
        else:
            col.add("document", f"'version' must be {VERSION}, got {_describe(version)}")
    known_top = {"format", "version", "name", "notes", "policy", "components", "links",
                 "scenarios"}
    for key in obj:
        if key not in known_top:
            col.add("document", f"unknown top-level field '{key}' (known: "
                    + ", ".join(sorted(known_top)) + ")")
    design = Design()
    design.name = _expect(obj, "name", (str,), "document", col, "a string") or design.name
    design.notes = _expect(obj, "notes", (str,), "document", col, "a string") or ""

    policy = obj.get("policy")
    if policy is not None:
        if not isinstance(policy, dict):
            col.add("policy", f"expected an object, got {_describe(policy)}")
        else:
            prefixed = {f"policy.{k}": v for k, v in policy.items()}
            parsed = _parse_props(prefixed, DESIGN_PROPS, "policy", "design", col)
            design.policy = {k.removeprefix("policy."): v for k, v in parsed.items()}

    components = obj.get("components", [])
    if not isinstance(components, list):
        col.add("components", f"expected a list, got {_describe(components)}")
        components = []
    seen: dict[str, Component] = {}
    for i, raw in enumerate(components):
        comp = _parse_component(raw, i, col)
        if comp is None:
            continue
        if comp.id in seen:
            col.add(f"components[{i}]", f"duplicate id '{comp.id}' (also used by another"
                    f" {seen[comp.id].kind})")
            continue
        seen[comp.id] = comp
        design.components.append(comp)

    links = obj.get("links", [])
    if not isinstance(links, list):
        col.add("links", f"expected a list, got {_describe(links)}")
        links = []
    for i, raw in enumerate(links):
        link = _parse_link(raw, i, seen, col)
        if link is not None:
            design.links.append(link)
    _check_link_rules(design, col)

    scenarios = obj.get("scenarios", [])
    if not isinstance(scenarios, list):
        col.add("scenarios", f"expected a list, got {_describe(scenarios)}")
        scenarios = []
    names: set[str] = set()
    for i, raw in enumerate(scenarios):
        sc = _parse_scenario(raw, i, design, col)
        if sc is None:
            continue
        if sc.name in names or sc.name == "base":
            col.add(f"scenarios[{i}]", f"scenario name '{sc.name}' is used twice or is the"
                    " reserved name 'base'")
            continue
        names.add(sc.name)
        design.scenarios.append(sc)

    if col.issues:
        raise DesignError(col.issues)
    return design


def _parse_component(raw: Any, i: int, col: _Collector) -> Component | None:
    where = f"components[{i}]"
    if not isinstance(raw, dict):
        col.add(where, f"expected an object, got {_describe(raw)}")
        return None
    cid = raw.get("id")
    if not isinstance(cid, str) or not cid.strip():
        col.add(where, f"'id' must be a non-empty string, got {_describe(cid)}")
        return None
    kind = raw.get("kind")
    where = f"component '{cid}'"
    if kind not in KINDS:
        col.add(where, f"unknown kind {_describe(kind)} (known: " + ", ".join(KINDS) + ")")
        return None
    where = f"component '{cid}' ({kind})"
    for key in raw:
        if key not in ("id", "kind", "name", "x", "y", "tags", "props"):
            col.add(where, f"unknown field '{key}' (known: id, kind, name, x, y, tags, props)")
    comp = Component(id=cid, kind=kind)
    comp.name = _expect(raw, "name", (str,), where, col, "a string") or ""
    comp.x = float(_expect(raw, "x", (int, float), where, col, "a number") or 0.0)
    comp.y = float(_expect(raw, "y", (int, float), where, col, "a number") or 0.0)
    tags = raw.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        col.add(where, f"'tags' must be a list of strings, got {_describe(tags)}")
    else:
        comp.tags = list(tags)
    comp.props = _parse_props(raw.get("props"), KINDS[kind].props, where, kind, col)
    return comp


def _parse_link(raw: Any, i: int, comps: dict[str, Component], col: _Collector) -> Link | None:
    where = f"links[{i}]"
    if not isinstance(raw, dict):
        col.add(where, f"expected an object, got {_describe(raw)}")
        return None
    src, dst, kind = raw.get("from"), raw.get("to"), raw.get("kind")
    if not isinstance(src, str) or not isinstance(dst, str):
        col.add(where, "'from' and 'to' must be component ids")
        return None
    where = f"link {_describe(kind)} '{src}' -> '{dst}'"
    if kind not in LINKS:
        col.add(where, f"unknown link kind {_describe(kind)} (known: " + ", ".join(LINKS) + ")")
        return None
    for key in raw:
        if key not in ("from", "to", "kind", "props"):
            col.add(where, f"unknown field '{key}' (known: from, to, kind, props)")
    spec = LINKS[kind]
    ok = True
    for end, cid, want in (("from", src, spec.from_kind), ("to", dst, spec.to_kind)):
        comp = comps.get(cid)
        if comp is None:
            col.add(where, f"'{end}' names '{cid}', which is not a component of the design")
            ok = False
        elif comp.kind != want:
            col.add(where, f"a {kind} link goes from a {spec.from_kind} to a {spec.to_kind};"
                    f" '{cid}' is a {comp.kind}")
            ok = False
    if src == dst:
        col.add(where, "a link cannot join a component to itself")
        ok = False
    props = _parse_props(raw.get("props"), spec.props, where, kind, col)
    return Link(src, dst, kind, props) if ok else None


def _check_link_rules(design: Design, col: _Collector) -> None:
    out: dict[tuple[str, str], list[Link]] = {}
    pairs: set[tuple[str, str, str]] = set()
    for link in design.links:
        out.setdefault((link.kind, link.source), []).append(link)
        key = (link.kind, *sorted((link.source, link.target)))
        if key in pairs:
            col.add(link.label(), "the same link is given twice")
        pairs.add(key)  # type: ignore[arg-type]
    for (kind, src), links in out.items():
        if not LINKS[kind].many and len(links) > 1:
            targets = ", ".join(f"'{lk.target}'" for lk in links)
            col.add(f"component '{src}'", f"has {len(links)} {kind} links ({targets});"
                    " at most one is allowed")
    for (kind, src), links in out.items():
        if kind != "ft_secondary_on":
            continue
        primary = out.get(("runs_on", src))
        if primary and primary[0].target == links[0].target:
            col.add(f"component '{src}' (vm)", "the FT secondary must run on a different host"
                    f" than the primary (both on '{links[0].target}')")


def _parse_scenario(raw: Any, i: int, design: Design, col: _Collector) -> Scenario | None:
    where = f"scenarios[{i}]"
    if not isinstance(raw, dict) or not isinstance(raw.get("name"), str) or not raw["name"]:
        col.add(where, "a scenario is an object with a non-empty 'name' and a 'set' list")
        return None
    where = f"scenario '{raw['name']}'"
    sets = raw.get("set", [])
    if not isinstance(sets, list):
        col.add(where, f"'set' must be a list, got {_describe(sets)}")
        return None
    sc = Scenario(raw["name"])
    for j, item in enumerate(sets):
        w = f"{where} set[{j}]"
        if not isinstance(item, dict) or not {"select", "prop", "value"} <= set(item):
            col.add(w, "expected an object with 'select', 'prop' and 'value'")
            continue
        try:
            sc.overrides.append(make_override(design, item["select"], item["prop"],
                                              item["value"]))
        except DesignError as err:
            for issue in err.issues:
                col.add(w, issue.message, issue.prop)
    return sc


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


def apply_scenario(design: Design, name: str | None) -> Design:
    if name is None or name == "base":
        return design
    return apply_overrides(design, design.scenario(name).overrides)


# --------------------------------------------------------------------------- output


def design_to_dict(design: Design) -> dict[str, Any]:
    """The design as a JSON-ready document (explicit values only, nested workload)."""
    doc: dict[str, Any] = {"format": FORMAT, "version": VERSION, "name": design.name}
    if design.notes:
        doc["notes"] = design.notes
    if design.policy:
        doc["policy"] = dict(design.policy)
    comps = []
    for c in design.components:
        item: dict[str, Any] = {"id": c.id, "kind": c.kind}
        if c.name:
            item["name"] = c.name
        item["x"], item["y"] = _num(c.x), _num(c.y)
        if c.tags:
            item["tags"] = list(c.tags)
        if c.props:
            item["props"] = _nest(c.props)
        comps.append(item)
    doc["components"] = comps
    links = []
    for lk in design.links:
        item = {"from": lk.source, "to": lk.target, "kind": lk.kind}
        if lk.props:
            item["props"] = dict(lk.props)
        links.append(item)
    doc["links"] = links
    doc["scenarios"] = [
        {"name": s.name, "set": [{"select": o.select, "prop": o.prop, "value": o.value}
                                 for o in s.overrides]}
        for s in design.scenarios
    ]
    return doc


def _num(v: float) -> float | int:
    return int(v) if float(v).is_integer() else v


def design_to_json(design: Design) -> str:
    return json.dumps(design_to_dict(design), indent=2) + "\n"


def loads(text: str) -> Design:
    """Parse JSON text into a design; bad JSON is a :class:`DesignError` with line/column."""
    try:
        obj = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as err:
        raise DesignError([Issue(f"line {err.lineno} column {err.colno}",
                                 f"not valid JSON: {err.msg}")]) from None
    except ValueError as err:
        raise DesignError([Issue("document", str(err))]) from None
    except RecursionError:
        raise DesignError([Issue("document", "nested too deeply to be a design")]) from None
    try:
        return parse_design(obj)
    except RecursionError:
        raise DesignError([Issue("document", "nested too deeply to be a design")]) from None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a finite number; JSON designs may not contain it")


def load_json(path: Path) -> Design:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise DesignError([Issue(str(path), "not a UTF-8 text file")]) from None
    try:
        return loads(text)
    except DesignError as err:
        raise DesignError([Issue(f"{path.name}: {i.where}", i.message, i.prop)
                           for i in err.issues]) from None
