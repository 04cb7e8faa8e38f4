"""The design as JSON: parse a decoded document with precise errors, and serialise it.

Every problem found while parsing is collected into one :class:`DesignError` whose issues each
name the place, the property and what was expected (see ``shared/spec/design-format.md``).
Nothing is clamped or dropped silently.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

from models.document.design import (
    MAX_EXACT_INT,
    Component,
    Design,
    DesignError,
    Issue,
    Link,
    Rebuild,
    Scenario,
    describe_value,
    make_override,
    parse_json_int,
    rebuilt,
    repair_text,
)
from models.document.props import (
    Collector,
    nest,
    parse_props,
    parse_props_checked,
    valid_props,
)
from models.document.rules import SELF_LINK, endpoint_problem, link_set_issues
from models.document.schema import DESIGN_PROPS, KINDS, LINKS

FORMAT = "headroom-design"
VERSION = 1
BLOCKS = ("growth", "demand")
"""Design properties kept in the file as top-level objects of their own, beside the policy:
growth's rates and year (``{"cpu_pct": 15, "year": 3}``), today's demand changes
(``{"cpu_pct": 20}``)."""

# --------------------------------------------------------------------------- parsing


def _expect(obj: dict[str, Any], key: str, types: tuple[type, ...], where: str,
            col: Collector, what: str) -> Any:
    val = obj.get(key)
    if val is None:
        return None
    if isinstance(val, bool) and bool not in types:
        col.add(where, f"'{key}' must be {what}, got {describe_value(val)}")
        return None
    if not isinstance(val, types):
        col.add(where, f"'{key}' must be {what}, got {describe_value(val)}")
        return None
    if isinstance(val, float) and not math.isfinite(val):
        col.add(where, f"'{key}' must be {what}, got {describe_value(val)} (not a finite number)")
        return None
    if isinstance(val, int) and abs(val) > MAX_EXACT_INT:
        col.add(where, f"'{key}' must be {what}, got {describe_value(val)} (too large)")
        return None
    return val


def parse_design(obj: Any, consume: bool = False) -> Design:
    """Build a :class:`Design` from a decoded JSON document, or raise :class:`DesignError`.
    ``consume``: drop each component and link of ``obj`` once read (the caller's document is
    left with None in their places), so the decoded document and the design it becomes are
    not held whole at once (a 50,000-VM file's peak was both: 175 MB)."""
    col = Collector()
    if not isinstance(obj, dict):
        raise DesignError([Issue("document", f"expected a JSON object, got {describe_value(obj)}")])
    if obj.get("format") != FORMAT:
        col.add("document", f"'format' must be '{FORMAT}', got {describe_value(obj.get('format'))}")
    version = obj.get("version")
    if version != VERSION:
        if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
            col.add("document", f"'version' {version} is newer than this Headroom understands"
                    f" ({VERSION}); update Headroom")
        else:
            col.add("document", f"'version' must be {VERSION}, got {describe_value(version)}")
    known_top = {"format", "version", "name", "notes", "report", "policy", *BLOCKS,
                 "components", "links", "scenarios"}
    for key in obj:
        if key not in known_top:
            col.add("document", f"unknown top-level field '{key}' (known: "
                    + ", ".join(sorted(known_top)) + ")")
    design = Design()
    design.name = _expect(obj, "name", (str,), "document", col, "a string") or design.name
    design.notes = _expect(obj, "notes", (str,), "document", col, "a string") or ""
    _parse_report(obj.get("report"), design, col)

    policy = obj.get("policy")
    if policy is not None:
        if not isinstance(policy, dict):
            col.add("policy", f"expected an object, got {describe_value(policy)}")
        else:
            prefixed = {f"policy.{k}": v for k, v in policy.items()}
            parsed = parse_props(prefixed, DESIGN_PROPS, "policy", "design", col)
            design.policy = {k.removeprefix("policy."): v for k, v in parsed.items()}
    for block in BLOCKS:  # growth's rates and year, today's demand: beside the policy
        values = obj.get(block)
        if values is None:
            continue
        if not isinstance(values, dict):
            col.add(block, f"expected an object, got {describe_value(values)}")
        else:
            design.policy.update(parse_props({f"{block}.{k}": v for k, v in values.items()},
                                             DESIGN_PROPS, block, "design", col))

    components = obj.get("components", [])
    if not isinstance(components, list):
        col.add("components", f"expected a list, got {describe_value(components)}")
        components = []
    seen: dict[str, Component] = {}
    for i, raw in enumerate(components):
        if consume:
            components[i] = None
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
        col.add("links", f"expected a list, got {describe_value(links)}")
        links = []
    for i, raw in enumerate(links):
        if consume:
            links[i] = None
        link = _parse_link(raw, i, seen, col)
        if link is not None:
            design.links.append(link)
    _check_link_rules(design, col)

    scenarios = obj.get("scenarios", [])
    if not isinstance(scenarios, list):
        col.add("scenarios", f"expected a list, got {describe_value(scenarios)}")
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


REPORT_FIELDS = ("title", "notes")
"""The fields of a design's ``report`` object (its title page: ``report_title`` and
``report_notes`` of :class:`Design`)."""


def _parse_report(raw: Any, design: Design, col: Collector) -> None:
    if raw is None:
        return
    if not isinstance(raw, dict):
        col.add("report", f"expected an object, got {describe_value(raw)}")
        return
    for key in raw:
        if key not in REPORT_FIELDS:
            col.add("report", f"unknown field '{key}' (known: {', '.join(REPORT_FIELDS)})")
    design.report_title = _expect(raw, "title", (str,), "report", col, "a string") or ""
    design.report_notes = _expect(raw, "notes", (str,), "report", col, "a string") or ""


_COMPONENT_FIELDS = frozenset(("id", "kind", "name", "x", "y", "tags", "props"))
_LINK_FIELDS = frozenset(("from", "to", "kind", "props"))


_NUMBER = (int, float)


def _plain_number(v: Any) -> bool:
    """A finite float or an int a float holds exactly (what ``_expect`` lets through)."""
    if type(v) is float:
        return math.isfinite(v)
    return type(v) is int and -MAX_EXACT_INT <= v <= MAX_EXACT_INT


def _parse_component(raw: Any, i: int, col: Collector) -> Component | None:
    """One component; the common, valid shape on a fast path (a 50,000-VM estate spent a
    second here), anything else through :func:`_parse_component_checked`, which words
    every problem."""
    if type(raw) is dict and raw.keys() <= _COMPONENT_FIELDS:
        cid, kind = raw.get("id"), raw.get("kind")
        spec = KINDS.get(kind) if isinstance(kind, str) else None
        name, x, y = raw.get("name"), raw.get("x"), raw.get("y")
        tags = raw.get("tags", _NO_TAGS)
        if (spec is not None and isinstance(kind, str) and isinstance(cid, str) and cid.strip()
                and (name is None or type(name) is str)
                and (x is None or _plain_number(x)) and (y is None or _plain_number(y))
                and type(tags) is list and (not tags or all(type(t) is str for t in tags))):
            props = raw.get("props")
            valid = valid_props(props, spec.props, kind, col) if props is not None else {}
            if valid is None:  # the place is worded only for a problem
                valid = parse_props_checked(props, spec.props, f"component '{cid}' ({kind})",
                                             kind, col)
            return Component(cid, kind, name or "", float(x or 0.0), float(y or 0.0), list(tags),
                             valid)
    return _parse_component_checked(raw, i, col)


_NO_TAGS: list[str] = []


def _parse_component_checked(raw: Any, i: int, col: Collector) -> Component | None:
    where = f"components[{i}]"
    if not isinstance(raw, dict):
        col.add(where, f"expected an object, got {describe_value(raw)}")
        return None
    cid = raw.get("id")
    if not isinstance(cid, str) or not cid.strip():
        col.add(where, f"'id' must be a non-empty string, got {describe_value(cid)}")
        return None
    kind = raw.get("kind")
    where = f"component '{cid}'"
    if kind not in KINDS:
        col.add(where, f"unknown kind {describe_value(kind)} (known: " + ", ".join(KINDS) + ")")
        return None
    where = f"component '{cid}' ({kind})"
    if raw.keys() - _COMPONENT_FIELDS:
        for key in raw:
            if key not in _COMPONENT_FIELDS:
                col.add(where, f"unknown field '{key}' (known: id, kind, name, x, y, tags,"
                        " props)")
    comp = Component(id=cid, kind=kind)
    comp.name = _expect(raw, "name", (str,), where, col, "a string") or ""
    comp.x = float(_expect(raw, "x", (int, float), where, col, "a number") or 0.0)
    comp.y = float(_expect(raw, "y", (int, float), where, col, "a number") or 0.0)
    tags = raw.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        col.add(where, f"'tags' must be a list of strings, got {describe_value(tags)}")
    else:
        comp.tags = list(tags)
    comp.props = parse_props(raw.get("props"), KINDS[kind].props, where, kind, col)
    return comp


def _parse_link(raw: Any, i: int, comps: dict[str, Component], col: Collector) -> Link | None:
    """One link; a valid link of three fields (from, to, kind: no properties) on a fast path,
    anything else through :func:`_parse_link_checked`."""
    if type(raw) is dict and len(raw) == 3:  # with from, to and kind present: only them
        src, dst, kind = raw.get("from"), raw.get("to"), raw.get("kind")
        if (type(kind) is str and (ends := _LINK_ENDS.get(kind)) is not None
                and type(src) is str and type(dst) is str and src != dst):
            a, b = comps.get(src), comps.get(dst)
            if a is not None and b is not None and a.kind == ends[0] and b.kind == ends[1]:
                return Link(src, dst, kind, {})
    return _parse_link_checked(raw, i, comps, col)


_LINK_ENDS = {kind: (spec.from_kind, spec.to_kind) for kind, spec in LINKS.items()}
"""Each link kind's (from, to) component kinds."""


def _parse_link_checked(raw: Any, i: int, comps: dict[str, Component], col: Collector
                        ) -> Link | None:
    where = f"links[{i}]"
    if not isinstance(raw, dict):
        col.add(where, f"expected an object, got {describe_value(raw)}")
        return None
    src, dst, kind = raw.get("from"), raw.get("to"), raw.get("kind")
    if not isinstance(src, str) or not isinstance(dst, str):
        col.add(where, "'from' and 'to' must be component ids")
        return None
    named = repr(kind) if isinstance(kind, str) else describe_value(kind)
    where = f"link {named} '{src}' -> '{dst}'"
    if kind not in LINKS:
        col.add(where, f"unknown link kind {describe_value(kind)} (known: "
                + ", ".join(LINKS) + ")")
        return None
    if raw.keys() - _LINK_FIELDS:
        for key in raw:
            if key not in _LINK_FIELDS:
                col.add(where, f"unknown field '{key}' (known: from, to, kind, props)")
    spec = LINKS[kind]
    ok = True
    a, b = comps.get(src), comps.get(dst)
    if a is None or b is None or a.kind != spec.from_kind or b.kind != spec.to_kind:
        for end, cid, comp in (("from", src, a), ("to", dst, b)):
            problem = endpoint_problem(kind, end, cid, comp)
            if problem:
                col.add(where, problem)
                ok = False
    if src == dst:
        col.add(where, SELF_LINK)
        ok = False
    props = parse_props(raw.get("props"), spec.props, where, kind, col)
    return Link(src, dst, kind, props) if ok else None


def _check_link_rules(design: Design, col: Collector) -> None:
    col.issues.extend(link_set_issues(design.links))


def _parse_scenario(raw: Any, i: int, design: Design, col: Collector) -> Scenario | None:
    where = f"scenarios[{i}]"
    if not isinstance(raw, dict) or not isinstance(raw.get("name"), str) or not raw["name"]:
        col.add(where, "a scenario is an object with a non-empty 'name' and a 'set' list")
        return None
    where = f"scenario '{raw['name']}'"
    sets = raw.get("set", [])
    if not isinstance(sets, list):
        col.add(where, f"'set' must be a list, got {describe_value(sets)}")
        return None
    sc = Scenario(raw["name"])
    against = design
    if "rebuild" in raw:
        sc.rebuild = _parse_rebuild(raw["rebuild"], where, design, col)
        if sc.rebuild is not None:
            against = rebuilt(design, sc.rebuild)
    for j, item in enumerate(sets):
        w = f"{where} set[{j}]"
        if not isinstance(item, dict) or not {"select", "prop", "value"} <= set(item):
            col.add(w, "expected an object with 'select', 'prop' and 'value'")
            continue
        try:
            sc.overrides.append(make_override(against, item["select"], item["prop"],
                                              item["value"]))
        except DesignError as err:
            for issue in err.issues:
                col.add(w, issue.message, issue.prop)
    return sc


_REBUILD_FIELDS = frozenset(("label", "remove", "components", "links"))


def _parse_rebuild(raw: Any, where: str, design: Design, outer: Collector) -> Rebuild | None:
    """A scenario's ``rebuild``: base hosts it removes, the hosts (and NICs) it adds and their
    links, checked as one design with the base's other components (every problem said to be
    in the scenario's rebuild)."""
    where = f"{where} rebuild"
    col = Collector()
    col.known = outer.known
    rb = _rebuild_of(raw, where, design, col)
    outer.issues.extend(i if i.where == where else Issue(where, f"{i.where}: {i.message}",
                                                          i.prop) for i in col.issues)
    return rb if not col.issues else None


def _rebuild_of(raw: Any, where: str, design: Design, col: Collector) -> Rebuild | None:
    if not isinstance(raw, dict):
        col.add(where, f"expected an object, got {describe_value(raw)}")
        return None
    for key in raw.keys() - _REBUILD_FIELDS:
        col.add(where, f"unknown field '{key}' (known: label, remove, components, links)")
    found = len(col.issues)
    removed = raw.get("remove", [])
    hosts = {c.id for c in design.of_kind("host")}
    if not isinstance(removed, list) or not all(isinstance(r, str) for r in removed):
        col.add(where, "'remove' must be a list of host ids")
        removed = []
    ids = {c.id for c in design.components}
    for r in removed:
        if r in ids and r not in hosts:
            col.add(where, f"'remove' names '{r}', which is no host of the design")
    # a host or VM deleted from the base design since: left out, as rebuilt() leaves it
    rb = Rebuild(removed=[r for r in removed if r in hosts],
                 label=_expect(raw, "label", (str,), where, col, "a string") or "")
    gone = rb.gone(design)
    seen = {c.id: c for c in design.components if c.id not in gone}
    comps, links = raw.get("components", []), raw.get("links", [])
    if not isinstance(comps, list) or not isinstance(links, list):
        col.add(where, "'components' and 'links' must be lists")
        return None
    for i, item in enumerate(comps):
        comp = _parse_component(item, i, col)
        if comp is None:
            continue
        if comp.id in seen:
            col.add(where, f"component '{comp.id}' is already in the design")
            continue
        seen[comp.id] = comp
        rb.components.append(comp)
    for i, item in enumerate(links):
        ends = (item.get("from"), item.get("to")) if isinstance(item, dict) else ()
        if any(isinstance(e, str) and e not in seen and (e in gone or e not in ids)
               for e in ends):
            continue
        link = _parse_link(item, i, seen, col)
        if link is not None:
            rb.links.append(link)
    if len(col.issues) == found:
        col.issues.extend(link_set_issues(rebuilt(design, rb).links))
    return rb if len(col.issues) == found else None


# --------------------------------------------------------------------------- output


def design_to_dict(design: Design) -> dict[str, Any]:
    """The design as a JSON-ready document (explicit values only, nested workload)."""
    doc: dict[str, Any] = {"format": FORMAT, "version": VERSION, "name": design.name}
    if design.notes:
        doc["notes"] = design.notes
    if design.report_title or design.report_notes:
        doc["report"] = {k: v for k, v in (("title", design.report_title),
                                           ("notes", design.report_notes)) if v}
    policy = {k: v for k, v in design.policy.items()
              if not k.startswith(tuple(f"{b}." for b in BLOCKS))}
    if policy:
        doc["policy"] = policy
    for block in BLOCKS:
        values = {k.removeprefix(f"{block}."): v for k, v in design.policy.items()
                  if k.startswith(f"{block}.")}
        if values:
            doc[block] = values
    doc["components"] = [_component_dict(c) for c in design.components]
    doc["links"] = [_link_dict(lk) for lk in design.links]
    doc["scenarios"] = [_scenario_dict(s) for s in design.scenarios]
    return doc


def _component_dict(c: Component) -> dict[str, Any]:
    item: dict[str, Any] = {"id": c.id, "kind": c.kind}
    if c.name:
        item["name"] = c.name
    item["x"], item["y"] = _num(c.x), _num(c.y)
    if c.tags:
        item["tags"] = list(c.tags)
    if c.props:
        item["props"] = nest(c.props)
    return item


def _link_dict(lk: Link) -> dict[str, Any]:
    item: dict[str, Any] = {"from": lk.source, "to": lk.target, "kind": lk.kind}
    if lk.props:
        item["props"] = dict(lk.props)
    return item


def _scenario_dict(s: Scenario) -> dict[str, Any]:
    out: dict[str, Any] = {"name": s.name, "set": [
        {"select": o.select, "prop": o.prop, "value": o.value} for o in s.overrides]}
    rb = s.rebuild
    if rb is not None:
        out["rebuild"] = {"label": rb.label, "remove": list(rb.removed),
                          "components": [_component_dict(c) for c in rb.components],
                          "links": [_link_dict(lk) for lk in rb.links]}
    return out


def _num(v: float) -> float | int:
    return int(v) if float(v).is_integer() else v


def design_to_json(design: Design) -> str:
    """The design as JSON text for people and diffs: one component, link or scenario per line
    (compact lines, written by the C encoder: an indented dump of 50,000 VMs took seconds)."""
    return document_json(design_to_dict(design))


_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "), allow_nan=False)


def document_json(doc: dict[str, Any]) -> str:
    """:func:`design_to_json` of an already built document dict."""
    lines = ["{"]
    keys = list(doc)
    for i, key in enumerate(keys):
        comma = "," if i < len(keys) - 1 else ""
        value = doc[key]
        if isinstance(value, list) and value:
            items = ",\n".join("    " + _COMPACT.encode(v) for v in value)
            lines.append(f"  {_COMPACT.encode(key)}: [\n{items}\n  ]{comma}")
        else:
            lines.append(f"  {_COMPACT.encode(key)}: {_COMPACT.encode(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def loads(text: str) -> Design:
    """Parse JSON text into a design; bad JSON is a :class:`DesignError` with line/column.

    NaN and Infinity are read as numbers so that the property holding one is named when it is
    refused; integers of more than 16 digits are refused where they stand, by name; text that
    is not valid Unicode (a lone surrogate escape) is repaired and listed in
    ``Design.repairs``."""
    try:
        obj = _decode(text)
    except json.JSONDecodeError as err:
        raise DesignError([Issue(f"line {err.lineno} column {err.colno}",
                                 f"not valid JSON: {err.msg}")]) from None
    except ValueError as err:
        raise DesignError([Issue("document", str(err))]) from None
    except RecursionError:
        raise DesignError([Issue("document", "nested too deeply to be a design")]) from None
    try:
        repairs: list[Issue] = []
        if _SURROGATE_ESCAPE.search(text):  # the only way a lone surrogate gets in
            obj = repair_strings(obj, "document", "", repairs)
        design = parse_design(obj, consume=True)  # obj is this function's own
    except RecursionError:
        raise DesignError([Issue("document", "nested too deeply to be a design")]) from None
    design.repairs = repairs
    return design


_SURROGATE_ESCAPE = re.compile(r"\\[uU][dD][89a-fA-F]")
"""A ``\\ud8xx``..``\\udfxx`` escape: text read from UTF-8 holds a surrogate only through
one."""

def _decode(text: str) -> Any:
    """``json.loads`` with NaN and Infinity as numbers; an integer past Python's 4,300-digit
    conversion limit is read again as a :class:`HugeNumber` so its place can be named (the
    hook costs a call per integer, so only then)."""
    try:
        return json.loads(text, parse_constant=float)
    except json.JSONDecodeError:
        raise
    except ValueError as err:
        if "integer string conversion" not in str(err):
            raise
    return json.loads(text, parse_constant=float, parse_int=parse_json_int)


REPAIRED = ("contained text that is not valid Unicode (a lone UTF-16 surrogate);"
            " replaced with the replacement character U+FFFD")


def repair_strings(obj: Any, where: str, path: str, repairs: list[Issue]) -> Any:
    """``obj`` (decoded JSON) with every string and key passed through
    :func:`~models.document.design.repair_text`; each repair is added to ``repairs`` naming
    the component, link or scenario and the field it was found in."""
    if isinstance(obj, str):
        fixed = repair_text(obj)
        if fixed is not obj:
            repairs.append(Issue(where, REPAIRED, path or None))
        return fixed
    if isinstance(obj, list):
        return [repair_strings(item, _where_of(where, path, i, item), f"{path}[{i}]"
                               if not _is_entity_list(path) else "", repairs)
                for i, item in enumerate(obj)]
    if isinstance(obj, dict):
        out = {}
        for key, val in obj.items():
            name = repair_text(key) if isinstance(key, str) else key
            sub = f"{path}.{name}" if path else str(name)
            if name is not key:
                repairs.append(Issue(where, REPAIRED, sub))
            out[name] = repair_strings(val, where, sub, repairs)
        return out
    return obj


def _is_entity_list(path: str) -> bool:
    return path in ("components", "links", "scenarios")


def _where_of(where: str, path: str, i: int, item: Any) -> str:
    """The place an item of a top-level list is named by in messages."""
    if not _is_entity_list(path) or not isinstance(item, dict):
        return where
    if path == "components":
        cid = item.get("id")
        return f"component '{repair_text(cid)}'" if isinstance(cid, str) else f"components[{i}]"
    if path == "scenarios":
        name = item.get("name")
        return f"scenario '{repair_text(name)}'" if isinstance(name, str) else f"scenarios[{i}]"
    return f"links[{i}]"


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


def refuse_invalid_text(design: Design) -> None:
    """Raise DesignError naming every place that holds text not encodable as UTF-8 (a design
    built in memory, not read through :func:`loads`, which repairs it), before any file is
    written."""
    doc = design_to_dict(design)
    try:
        _COMPACT.encode(doc).encode("utf-8")
    except UnicodeEncodeError:
        raise_invalid_text(doc)


def raise_invalid_text(doc: dict[str, Any]) -> None:
    """The DesignError of :func:`refuse_invalid_text` for a document dict known to hold text
    that is not valid Unicode."""
    repairs: list[Issue] = []
    repair_strings(doc, "document", "", repairs)
    if repairs:
        raise DesignError([Issue(i.where, "contains text that is not valid Unicode (a lone"
                                 " UTF-16 surrogate); rename it before saving", i.prop)
                           for i in repairs])
