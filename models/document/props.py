"""A component's properties as a design file holds them: nested groups read as dotted names
(``{"workload": {"io_oio": 8}}`` -> ``workload.io_oio``) and written back nested, each value
checked against its kind's schema and normalised; a value seen before is looked up as written
(50,000 VMs repeat a handful of values).  The problems go to a :class:`Collector`, each naming
its place, for :mod:`models.document.codec` to raise as one error."""

from __future__ import annotations

from typing import Any

from models.document.design import Issue, describe_value, normalise
from models.document.rules import prop_problem
from models.document.schema import PropSpec, Value


def _flatten(obj: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, val in obj.items():
        name = f"{prefix}{key}"
        if isinstance(val, dict):
            out.update(_flatten(val, name + "."))
        else:
            out[name] = val
    return out


def nest(flat: dict[str, Value]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, val in flat.items():
        parts = key.split(".")
        node = out
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = val
    return out


class Collector:
    """The problems found while reading a design, and the values already found valid."""

    def __init__(self) -> None:
        self.issues: list[Issue] = []
        self.known: dict[tuple[Any, ...], tuple[str, Value]] = {}
        """(kind, name[, sub], type, value) as written -> (dotted name, normalised value), for
        values found valid: 50,000 VMs repeat a handful of values, each checked once."""

    def add(self, where: str, message: str, prop: str | None = None) -> None:
        self.issues.append(Issue(where, message, prop))


_SCALARS = frozenset((str, int, float, bool, type(None)))
"""The JSON types a value may be keyed by in :attr:`Collector.known`."""


class _RefusedError(Exception):
    """A property value the fast path of :func:`parse_props` does not take."""


def parse_props(raw: Any, kind_props: dict[str, PropSpec], where: str, kind: str,
                col: Collector) -> dict[str, Value]:
    """The valid properties ``raw`` gives, with a nested group read as dotted names
    (``{"workload": {"io_oio": 8}}`` -> ``{"workload.io_oio": 8}``); each problem is added
    to ``col``, said to be at ``where``."""
    out = valid_props(raw, kind_props, kind, col)
    return out if out is not None else parse_props_checked(raw, kind_props, where, kind, col)


def valid_props(raw: Any, kind_props: dict[str, PropSpec], kind: str, col: Collector
                ) -> dict[str, Value] | None:
    """:func:`parse_props` where every value is valid (a value seen before is looked up as
    written, without building its dotted name again); None where any is not, for
    :func:`parse_props_checked` to word."""
    if type(raw) is not dict:
        return None
    out: dict[str, Value] = {}
    known = col.known
    try:
        for key, val in raw.items():
            if type(val) is not dict:
                hit = known.get((kind, key, type(val), val)) if type(val) in _SCALARS else None
                if hit is None:
                    hit = _check(kind_props, kind, key, val, col, (kind, key, type(val), val))
                out[hit[0]] = hit[1]
                continue
            for sub, v in val.items():
                hit = known.get((kind, key, sub, type(v), v)) if type(v) in _SCALARS else None
                if hit is not None:
                    out[hit[0]] = hit[1]
                elif type(v) is dict:
                    for name, w in _flatten(v, f"{key}.{sub}.").items():
                        hit = _check(kind_props, kind, name, w, col, None)
                        out[hit[0]] = hit[1]
                else:
                    hit = _check(kind_props, kind, f"{key}.{sub}", v, col,
                                 (kind, key, sub, type(v), v))
                    out[hit[0]] = hit[1]
    except _RefusedError:
        return None
    return out


def _check(kind_props: dict[str, PropSpec], kind: str, name: str, value: Any, col: Collector,
           key: tuple[Any, ...] | None) -> tuple[str, Value]:
    """(name, normalised value) of a valid ``value``, remembered under ``key`` when it is a
    scalar; :class:`_RefusedError` when it is not valid."""
    if prop_problem(kind_props, kind, name, value):
        raise _RefusedError
    hit = (name, normalise(kind_props[name], value))
    if key is not None and type(value) in _SCALARS:
        col.known[key] = hit
    return hit


def parse_props_checked(raw: Any, kind_props: dict[str, PropSpec], where: str, kind: str,
                        col: Collector) -> dict[str, Value]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        col.add(where, f"'props' must be an object, got {describe_value(raw)}")
        return {}
    out: dict[str, Value] = {}
    for name, value in _flat_props(raw).items():
        problem = prop_problem(kind_props, kind, name, value)
        if problem:
            col.add(where, problem, name)
            continue
        out[name] = normalise(kind_props[name], value)
    return out


def _flat_props(raw: dict[str, Any]) -> dict[str, Any]:
    """``raw`` with nested groups as dotted names (``{"workload": {"io_oio": 8}}`` ->
    ``{"workload.io_oio": 8}``); one level of nesting, the common case, without recursion."""
    flat: dict[str, Any] = {}
    for key, val in raw.items():
        if type(val) is not dict:
            flat[key] = val
        elif any(type(v) is dict for v in val.values()):
            flat.update(_flatten(val, key + "."))
        else:
            for sub, v in val.items():
                flat[f"{key}.{sub}"] = v
    return flat
