"""A design compiled to numpy arrays, once, so that models evaluate it with vector operations.

Every property of every kind becomes one column (defaults filled in): numbers as float64,
bools as bool, enums as int codes into the property's ``choices``.  Links become index arrays
(``vm_host[i]`` is the host index of VM ``i``, -1 when it has none).  A knob change patches a
column in place (:meth:`Compiled.patch`) instead of recompiling.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from models.core import demand, growth
from models.document.design import (
    Component,
    Design,
    DesignError,
    Issue,
    Link,
    Override,
    apply_overrides,
    check_value,
)
from models.document.schema import DESIGN_PROPS, KINDS, LINKS, PropSpec, Value, prop_spec


def _encode(spec: PropSpec, value: Value) -> float | int | bool | str:
    if spec.type == "str":
        return "" if value is None else str(value)
    if spec.type == "bool":
        return bool(value)
    if spec.type == "enum" and spec.choices is not None and isinstance(spec.choices[0], str):
        return spec.choices.index(value)
    if value is None:
        return float("nan")
    return float(value)


def _dtype(spec: PropSpec) -> type:
    if spec.type == "bool":
        return np.bool_
    if spec.type == "enum" and spec.choices is not None and isinstance(spec.choices[0], str):
        return np.int64
    if spec.type == "str":
        return np.object_
    return np.float64


class Table:
    """The components of one kind (or the links of one kind) as columns.

    ``ids`` (a link's is ``from->to``) and ``index`` (id -> row) are made when first read:
    no model reads a link table's, and an estate's 100,000 links made them on every
    compile."""

    def __init__(self, kind: str, specs: dict[str, PropSpec], cols: dict[str, np.ndarray],
                 ids: list[str] | Callable[[], list[str]], size: int) -> None:
        self.kind = kind
        self.specs = specs
        self.cols = cols
        self._ids = ids if isinstance(ids, list) else None
        self._make_ids = ids if not isinstance(ids, list) else None
        self._index: dict[str, int] | None = None
        self._size = size

    @property
    def ids(self) -> list[str]:
        if self._ids is None:
            assert self._make_ids is not None
            self._ids = self._make_ids()
        return self._ids

    @property
    def index(self) -> dict[str, int]:
        if self._index is None:
            self._index = dict(zip(self.ids, range(self._size), strict=True))
        return self._index

    def __len__(self) -> int:
        return self._size

    def code(self, prop: str, choice: str) -> int:
        """The int code of ``choice`` in enum column ``prop``."""
        choices = self.specs[prop].choices
        assert choices is not None
        return list(choices).index(choice)

    def is_(self, prop: str, choice: str) -> np.ndarray:
        """Boolean mask: rows whose enum ``prop`` equals ``choice``."""
        return np.asarray(self.cols[prop] == self.code(prop, choice))


T = TypeVar("T")


class ReadLog:
    """Which columns a model read while it ran (the engine reuses results whose inputs did
    not change since).  ``current`` is None when nothing is being recorded."""

    __slots__ = ("current",)

    def __init__(self) -> None:
        self.current: set[tuple[str, str]] | None = None


class Columns(dict[str, Any]):
    """A table's columns; reads are recorded in the shared :class:`ReadLog` while it records."""

    __slots__ = ("kind", "log")

    def __init__(self, kind: str, log: ReadLog) -> None:
        super().__init__()
        self.kind = kind
        self.log = log

    def __getitem__(self, key: str) -> Any:
        if self.log.current is not None:
            self.log.current.add((self.kind, key))
        return dict.__getitem__(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        if self.log.current is not None:
            self.log.current.add((self.kind, key))
        return dict.get(self, key, default)


def _table(kind: str, specs: dict[str, PropSpec], ids: list[str] | Callable[[], list[str]],
           rows: list[dict[str, Value]], log: ReadLog) -> Table:
    cols = Columns(kind, log)
    given: set[str] = set().union(*rows) if specs else set()
    for name, spec in specs.items():
        if name not in given:  # every row takes the default: no per-row work
            default = _encode(spec, spec.default)
            cols[name] = np.full(len(rows), default, dtype=_dtype(spec))
            continue
        value = spec.default
        cols[name] = _column(spec, [row.get(name, value) for row in rows])
    return Table(kind, specs, cols, ids, len(rows))


def _column(spec: PropSpec, values: list[Value]) -> np.ndarray:
    """``values`` (valid, defaults filled in) encoded as :func:`_encode` does, by the column
    rather than by the value where the type allows (compiling 50,000 VMs called it 300,000
    times)."""
    dtype = _dtype(spec)
    if not values:
        return np.zeros(0, dtype)
    if dtype is np.float64:  # numpy reads None as NaN and converts as float() does
        return np.array(values, dtype=np.float64)
    if dtype is np.int64 and spec.choices is not None:
        codes = {c: i for i, c in enumerate(spec.choices)}
        return np.array([codes[v] if v in codes else _encode(spec, v) for v in values],
                        dtype=np.int64)
    return np.array([_encode(spec, v) for v in values], dtype=dtype)


@dataclass
class Compiled:
    design: Design
    tables: dict[str, Table]
    links: dict[str, Table]
    """Link tables: ids are ``from->to``; columns are the link's props plus ``src``/``dst``
    index arrays into the end kinds' tables."""
    policy: dict[str, float]

    _components: dict[str, list[Component]] = field(default_factory=dict)
    patched: list[Override] = field(default_factory=list)
    reads: ReadLog = field(default_factory=ReadLog)
    reuse: bool = False
    """Whether :meth:`memo` may reuse results (only while every write goes through patch)."""
    _memo: dict[str, tuple[Any, tuple[tuple[str, str], ...], list[int], tuple[object, ...]]] = (
        field(default_factory=dict))
    versions: dict[tuple[str, str], int] = field(default_factory=dict)
    """How often each (kind, prop) column was patched; policy entries are ('design', key)."""
    cache: dict[str, object] = field(default_factory=dict)
    """Scratch space for models (warm starts, static per-design lists); cleared by nothing."""
    _detail: bool = True
    _names: dict[str, str] | None = None

    # frequently used link maps (index arrays, -1 for none)
    vm_host: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    vm_secondary: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    vm_array: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    nic_host: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    nic_vm: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    host_site: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    host_cluster: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))

    @property
    def vm(self) -> Table:
        return self.tables["vm"]

    @property
    def host(self) -> Table:
        return self.tables["host"]

    @property
    def nic(self) -> Table:
        return self.tables["nic"]

    @property
    def array(self) -> Table:
        return self.tables["storage_array"]

    @property
    def site(self) -> Table:
        return self.tables["site"]

    @property
    def cluster(self) -> Table:
        """vSphere clusters (``cluster`` components; hosts join them by ``in_cluster``)."""
        return self.tables["cluster"]

    @property
    def library(self) -> Table:
        """Content libraries (``content_library`` components)."""
        return self.tables["content_library"]

    @property
    def detail(self) -> bool:
        """Whether models build what only a full prediction shows (bottleneck Resources,
        warnings, extras); off for runs that keep only the summary (a sweep).  Read like a
        column: a result built without detail is not reused once it is back on."""
        if self.reads.current is not None:
            self.reads.current.add(("engine", "detail"))
        return self._detail

    @detail.setter
    def detail(self, on: bool) -> None:
        if on != self._detail:
            self._detail = on
            self.versions[("engine", "detail")] = self.versions.get(("engine", "detail"), 0) + 1

    @property
    def names(self) -> dict[str, str]:
        """Each component's name (its id when it has none), made when first read (the engine
        reads its kinds' names row by row: :meth:`names_of`)."""
        if self._names is None:
            self._names = {comp.id: comp.name or comp.id for comp in self.design.components}
        return self._names

    def names_of(self, kind: str) -> list[str]:
        """The names of ``kind``'s components, row by row (:attr:`names` of its ids)."""
        return [comp.name or comp.id for comp in self._components.get(kind, [])]

    def host_array_pairs(self) -> tuple[np.ndarray, np.ndarray]:
        t = self.links["storage"]
        return t.cols["src"], t.cols["dst"]

    def patch(self, ov: Override) -> None:
        """Apply one override to the arrays in place.

        ``design`` keeps the state it was compiled from; :attr:`patched` lists the overrides
        applied since, and :meth:`current_design` replays them when a document is needed.
        """
        if ov.select == "design":
            spec = prop_spec("design", ov.prop)
            if spec is None:
                raise DesignError([Issue("select 'design'", "the design has no such property",
                                         ov.prop)])
            problem = check_value(spec, ov.value)
            if problem:
                raise DesignError([Issue("select 'design'", problem, ov.prop)])
            key = ov.prop.removeprefix("policy.")
            old = demand.factors(self.policy)
            self.policy[key] = float(_encode(spec, ov.value))
            self.versions[("design", key)] = self.versions.get(("design", key), 0) + 1
            if demand.moves_columns(key):  # the grown columns move by the factor's change
                self._grow(growth.ratios(old, demand.factors(self.policy)))
            self.patched.append(ov)
            return
        for kind, rows in self._select_rows(ov.select).items():
            table = self.tables[kind] if kind in self.tables else self.links[kind]
            spec = table.specs.get(ov.prop)
            if spec is None:
                raise DesignError([Issue(f"select '{ov.select}'", f"kind '{kind}' has no such"
                                         " property", ov.prop)])
            problem = check_value(spec, ov.value)
            if problem:
                raise DesignError([Issue(f"select '{ov.select}'", problem, ov.prop)])
            table.cols[ov.prop][rows] = _encode(spec, ov.value)
            resource = growth.COLUMNS.get((kind, ov.prop))
            if resource is not None:  # a value set today, grown to the year evaluated
                table.cols[ov.prop][rows] *= demand.factors(self.policy)[resource]
            self.versions[(kind, ov.prop)] = self.versions.get((kind, ov.prop), 0) + 1
        self.patched.append(ov)

    def _grow(self, ratio: dict[str, float]) -> None:
        """Move every grown column by ``ratio`` (:mod:`models.core.growth`)."""
        cols = {(kind, prop): t.cols[prop] for kind, t in self.tables.items()
                for prop in t.specs if (kind, prop) in growth.COLUMNS}
        held = self.tables["vm"].cols["workload.memory_gb"] if "vm" in self.tables else None
        for key in growth.scale(cols, ratio, held):
            self.versions[key] = self.versions.get(key, 0) + 1

    def memo(self, name: str, fn: Callable[[], T], *upstream: object) -> T:
        """``fn()``, or its last result when :attr:`reuse` is on, no column it read was
        patched since and ``upstream`` are the same objects as last time.

        The columns ``fn`` reads are recorded while it runs (nested memos add theirs to the
        caller's), so no model lists its inputs by hand.
        """
        outer = self.reads.current
        hit = self._memo.get(name)
        if self.reuse and hit is not None:
            result, keys, seen, ups = hit
            vget = self.versions.get
            if len(ups) == len(upstream) and all(
                    a is b for a, b in zip(ups, upstream, strict=True)) and [
                    vget(k, 0) for k in keys] == seen:
                if outer is not None:
                    outer.update(keys)
                return result
        self.reads.current = set()
        try:
            result = fn()
        finally:
            inner, self.reads.current = self.reads.current, outer
        if outer is not None:
            outer.update(inner)
        keys = tuple(inner)
        self._memo[name] = (result, keys, [self.versions.get(k, 0) for k in keys], upstream)
        return result

    @contextmanager
    def isolated(self) -> Iterator[None]:
        """Runs inside leave no trace for later runs: the memo, :attr:`cache` and every other
        dict the models keep on this object (warm starts) are restored on exit.  For runs with
        other coefficients (:func:`models.engine.evaluation.evaluate_bands`); not for concurrent
        use."""
        saved = {k: dict(v) for k, v in self.__dict__.items() if type(v) is dict}
        reuse = self.reuse
        try:
            yield
        finally:
            for k in [k for k, v in self.__dict__.items() if type(v) is dict and k not in saved]:
                del self.__dict__[k]
            for k, v in saved.items():
                d = self.__dict__.setdefault(k, {})
                d.clear()
                d.update(v)
            self.reuse = reuse

    def current_design(self) -> Design:
        """The compiled design with every patch applied (a new document)."""
        return apply_overrides(self.design, self.patched)

    def _select_rows(self, select: str) -> dict[str, np.ndarray]:
        if select in self.tables:
            return {select: np.arange(len(self.tables[select]))}
        if select in self.links:
            return {select: np.arange(len(self.links[select]))}
        out: dict[str, list[int]] = {}
        if select.startswith("id:"):
            cid = select[3:]
            for kind, t in self.tables.items():
                if cid in t.index:
                    out.setdefault(kind, []).append(t.index[cid])
        elif select.startswith("tag:"):
            tag = select[4:]
            for kind, comps in self._components.items():
                for i, comp in enumerate(comps):
                    if tag in comp.tags:
                        out.setdefault(kind, []).append(i)
        if not out:
            raise DesignError([Issue(f"select '{select}'", "matches nothing")])
        return {k: np.array(v, dtype=np.int64) for k, v in out.items()}


def compile_design(design: Design) -> Compiled:
    """Compile ``design`` (already validated) into numpy tables."""
    log = ReadLog()
    tables: dict[str, Table] = {}
    by_kind: dict[str, list[Component]] = {kind: [] for kind in KINDS}
    for comp in design.components:
        by_kind[comp.kind].append(comp)
    links_by_kind: dict[str, list[Link]] = {kind: [] for kind in LINKS}
    for lk in design.links:
        links_by_kind[lk.kind].append(lk)
    for kind, spec in KINDS.items():
        comps = by_kind[kind]
        tables[kind] = _table(kind, spec.props, [c.id for c in comps], [c.props for c in comps],
                              log)
    links: dict[str, Table] = {}
    for kind, lspec in LINKS.items():
        lks = links_by_kind[kind]
        t = _table(kind, lspec.props, _link_ids(lks),
                   [lk.props for lk in lks] if lspec.props else [{}] * len(lks), log)
        src, dst = tables[lspec.from_kind].index, tables[lspec.to_kind].index
        t.cols["src"] = np.array([src[lk.source] for lk in lks], dtype=np.int64)
        t.cols["dst"] = np.array([dst[lk.target] for lk in lks], dtype=np.int64)
        links[kind] = t
    policy = Columns("design", log)
    for name, pspec in DESIGN_PROPS.items():
        key = name.removeprefix("policy.")
        policy[key] = float(_encode(pspec, design.policy_value(key)))
    c = Compiled(design, tables, links, policy, _components=by_kind, reads=log)
    grown = demand.factors(policy)
    if any(f != 1.0 for f in grown.values()):
        c._grow(grown)
    c.vm_host = _one_to_one(links["runs_on"], len(tables["vm"]))
    c.vm_secondary = _one_to_one(links["ft_secondary_on"], len(tables["vm"]))
    c.vm_array = _one_to_one(links["disk_on"], len(tables["vm"]))
    c.nic_host = _one_to_one(links["installed_in"], len(tables["nic"]))
    c.nic_vm = _one_to_one(links["passthrough"], len(tables["nic"]))
    c.host_site = _one_to_one(links["located_at"], len(tables["host"]))
    c.host_cluster = _one_to_one(links["in_cluster"], len(tables["host"]))
    return c


def _link_ids(links: list[Link]) -> Callable[[], list[str]]:
    """What makes the ids of a link table (``from->to``) when they are first read."""
    return lambda: [f"{lk.source}->{lk.target}" for lk in links]


def _one_to_one(link: Table, n: int) -> np.ndarray:
    out = np.full(n, -1, dtype=np.int64)
    out[link.cols["src"]] = link.cols["dst"]
    return out
