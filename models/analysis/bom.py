"""A bill of materials: what a design (or a scenario, a hardware refresh above all) is made
of and licenses, line by line, each with its quantity, unit and where the figure comes from;
priced where the architect gives a price list.

Lines
-----
* **Servers**: the hosts by server model and count.  The hosts a refresh brought are its
  catalogue server's; any other host is described by its hardware, its model not stated
  (a design names no server model).
* **Processors**: model x sockets over the hosts (a string the catalogue knows by its
  catalogue name; one counted as its family's stand-in says so).
* **Memory**: a refresh's balanced DIMM population (module size x count per host and over the
  hosts), the one the refresh chose, or for a refresh kept in a file the server's balanced
  population of the hosts' memory (inferred, said so); otherwise the hosts' memory in GB,
  "population not stated".
* **NICs**: by speed and ports, the adapters installed in the hosts.
* **vSAN devices**: the capacity devices (and OSA cache devices) of the hosts of vSAN clusters.
* **Licences**: the licensing section's licensed cores under the design's edition, and the
  vSAN add-on TiB beyond what those cores entitle (bought per whole TiB: rounded up).

Prices
------
A price list is a CSV the architect keeps, ``item,unit_price,currency``, matched to the lines by
item name (case and spacing aside).  Hardware is paid once; a subscription line (licences) is
priced per year, so the totals are per currency: hardware once, subscriptions a year, and the
horizon (hardware + subscriptions x years; a refresh's ``--years`` where given, else 1).
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from models.core.platform import counted_as, stand_in_words
from models.core.prediction import Prediction
from models.document import licensing
from models.document.catalogue import servers
from models.document.catalogue.processors import Processor
from models.document.catalogue.servers import Population, Server
from models.document.design import Component, Design, DesignError, Issue
from models.document.numbers import counted, with_unit

SERVERS, PROCESSORS, MEMORY, NICS, VSAN, LICENCES = (
    "Servers", "Processors", "Memory", "NICs", "vSAN devices", "Licences")
CATEGORIES = (SERVERS, PROCESSORS, MEMORY, NICS, VSAN, LICENCES)
"""The line categories, in the order a bill lists them."""
NOT_STATED = "population not stated"
KEPT = "hosts the refresh keeps"
CATALOGUE = "server catalogue (resources/catalogue/servers.json)"


@dataclass(frozen=True)
class BomLine:
    """One line of the bill: ``quantity`` ``unit``s of ``item``."""

    category: str
    item: str
    quantity: float
    unit: str
    source: str
    """Where the figure comes from, in words (the catalogue's document, SPEC, the design, the
    licensing rules' source)."""
    per_host: float | None = None
    """Of :attr:`unit`, on each host (hardware lines of identical hosts)."""
    hosts: int | None = None
    """The hosts the line counts."""
    subscription: bool = False
    """Priced per year (licences), not once."""
    note: str = ""
    unit_price: float | None = None
    currency: str | None = None
    cost_per_year: float | None = None
    """Subscription lines: quantity x unit price, a year."""
    cost: float | None = None
    """Over the horizon: hardware once, a subscription its yearly cost x the years."""

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class Price:
    item: str
    unit_price: float
    currency: str


@dataclass(frozen=True)
class PriceList:
    """The architect's prices by item (the key: the item name, case and spacing aside)."""

    prices: dict[str, Price]
    name: str = ""
    """Where it was read from (a file name)."""

    def find(self, item: str) -> Price | None:
        return self.prices.get(key(item))


def key(item: str) -> str:
    """How an item name is matched: case and runs of spaces aside."""
    return " ".join(item.casefold().split())


def parse_prices(text: str, name: str = "prices") -> PriceList:
    """A price list from CSV text with the header ``item,unit_price,currency`` (currency may
    be blank); DesignError naming each line that is wrong."""
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    rows = [r for r in rows if any(c.strip() for c in r)]
    if not rows:
        raise DesignError([Issue("prices", f"{name}: empty (give item,unit_price,currency)")])
    header = [c.strip().lower() for c in rows[0]]
    if "item" not in header or "unit_price" not in header:
        raise DesignError([Issue("prices", f"{name}: the first line must name the columns"
                                 " item,unit_price,currency")])
    at = {c: header.index(c) for c in ("item", "unit_price", "currency") if c in header}
    problems: list[str] = []
    prices: dict[str, Price] = {}
    for n, row in enumerate(rows[1:], start=2):
        cell = {c: (row[i].strip() if i < len(row) else "") for c, i in at.items()}
        item = cell["item"]
        try:
            value = float(cell["unit_price"].replace(",", ""))
        except ValueError:
            value = math.nan
        if not item:
            problems.append(f"{name} line {n}: no item")
        elif not math.isfinite(value) or value < 0:
            problems.append(f"{name} line {n}: unit_price '{cell['unit_price']}' is not a"
                            " price")
        elif key(item) in prices:
            problems.append(f"{name} line {n}: '{item}' is priced twice")
        else:
            prices[key(item)] = Price(item, value, cell.get("currency", ""))
    if problems:
        raise DesignError([Issue("prices", p) for p in problems])
    return PriceList(prices, name)


@dataclass(frozen=True)
class Bought:
    """The hardware a refresh brought: its server, processor and new hosts, and the memory
    population where one is known."""

    server: Server
    processor: Processor | None
    hosts: frozenset[str]
    """The ids of the hosts it added."""
    population: Population | None = None
    population_source: str = ""
    """Where the population's module sizes come from, in words."""
    population_why: str = ""
    """How the population was chosen (the refresh's reason, or that it was inferred)."""
    devices_source: str = ""
    """Where the new hosts' vSAN devices come from ("" : the hosts' properties)."""


@dataclass(frozen=True)
class Totals:
    """What the priced lines of one currency cost."""

    currency: str
    hardware: float
    """Once."""
    per_year: float
    """Subscriptions, a year."""
    years: float
    horizon: float
    """Hardware + subscriptions x years."""

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class Bom:
    lines: list[BomLine]
    years: float = 1.0
    """The horizon subscriptions are priced over."""
    prices: str | None = None
    """The price list's name where one was given."""
    totals: list[Totals] = field(default_factory=list)
    unpriced: list[str] = field(default_factory=list)
    """Items of the bill the price list has no price for."""
    unused: list[str] = field(default_factory=list)
    """Items of the price list no line is."""

    def to_dict(self) -> dict[str, Any]:
        return {"lines": [x.to_dict() for x in self.lines], "years": self.years,
                "prices": self.prices, "totals": [t.to_dict() for t in self.totals],
                "unpriced": list(self.unpriced), "unused": list(self.unused)}

    def text(self) -> list[str]:
        """The bill in words, a line each, then the totals."""
        out = []
        for x in self.lines:
            each = "" if x.per_host is None or x.hosts is None or x.unit == "server" else \
                f" ({_amount(x.per_host, x.unit)} a host x {counted(x.hosts, 'host')})"
            price = ""
            if x.cost is not None:
                price = f", {_money(x.cost, x.currency)}"
                if x.subscription:
                    price += f" over {counted(_whole(self.years), 'year')}"
            note = f"; {x.note}" if x.note else ""
            out.append(f"{x.category:<13}{x.item}: {_amount(x.quantity, x.unit)}{each}{price}"
                       f"{note}  [{x.source}]")
        for t in self.totals:
            out.append(f"total {t.currency or '(no currency)'}: hardware"
                       f" {_money(t.hardware, t.currency)} once, subscriptions"
                       f" {_money(t.per_year, t.currency)} a year;"
                       f" {_money(t.horizon, t.currency)} over"
                       f" {counted(_whole(self.years), 'year')}")
        if self.unpriced and self.prices is not None:
            out.append("no price for: " + "; ".join(self.unpriced))
        if self.unused:
            out.append("priced but not in the bill: " + "; ".join(self.unused))
        return out


def _amount(x: float, unit: str) -> str:
    return with_unit(x, unit) if unit in ("GB", "TiB") else counted(int(x), unit)


def _whole(x: float) -> int:
    return int(x) if float(x).is_integer() else math.ceil(x)


def _money(x: float, currency: str | None) -> str:
    return f"{x:,.2f}" + (f" {currency}" if currency else "")


# --------------------------------------------------------------------------- the lines


def bill(design: Design, prediction: Prediction, bought: Bought | None = None,
         years: float = 1.0, prices: PriceList | None = None) -> Bom:
    """The bill of ``design`` (a scenario already applied) as ``prediction`` evaluated it;
    ``bought``: the hardware a refresh brought (its hosts by their server's model, its memory
    population); priced with ``prices`` over ``years`` where given."""
    hosts = design.of_kind("host")
    if bought is not None and bought.population is None:
        bought = inferred(bought, [h for h in hosts if h.id in bought.hosts])
    lines = (_servers(hosts, bought) + _processors(hosts, bought) + _memory(hosts, bought)
             + _nics(design, hosts, bought) + _vsan(design, hosts, bought)
             + _licences(prediction))
    out = Bom(lines, float(years))
    return priced(out, prices) if prices is not None else out


def _group(hosts: list[Component], bought: Bought | None) -> dict[str, list[Component]]:
    """The hosts a refresh brought ("new") and the others ("kept")."""
    new = bought.hosts if bought is not None else frozenset()
    return {"new": [h for h in hosts if h.id in new], "kept": [h for h in hosts
                                                             if h.id not in new]}


def _num(c: Component, prop: str) -> float:
    """A numeric property of ``c`` (its kind's default where not set)."""
    v = c.get(prop)
    return float(v) if isinstance(v, (int, float)) else 0.0


def _int(c: Component, prop: str) -> int:
    return int(_num(c, prop))


def _hardware_text(h: Component) -> str:
    cores = f" ({counted(_int(h, 'cores_per_socket'), 'core')})"
    return (f"{_int(h, 'sockets')} x {_processor_name(h)}{cores} and"
            f" {with_unit(_num(h, 'memory_gb'), 'GB')}")


def _processor_name(h: Component) -> str:
    model = str(h.get("cpu_model") or "").strip()
    found = counted_as(model) if model else None
    if found is not None and found[1] is None:
        return found[0].model
    return model or f"processor not stated ({with_unit(_num(h, 'ghz'), 'GHz')})"


def _servers(hosts: list[Component], bought: Bought | None) -> list[BomLine]:
    g = _group(hosts, bought)
    out = []
    if g["new"] and bought is not None:
        out.append(BomLine(SERVERS, bought.server.title, len(g["new"]), "server",
                           f"the refresh's count of hosts; the server from the {CATALOGUE}",
                           hosts=len(g["new"]), per_host=1))
    kinds = Counter(_hardware_text(h) for h in g["kept"])
    for text, n in kinds.items():
        out.append(BomLine(SERVERS, f"Server of {text} (model not stated)", n, "server",
                           "the design's hosts (the design names no server model)",
                           hosts=n, per_host=1, note=KEPT if bought is not None else ""))
    return out


def _processors(hosts: list[Component], bought: Bought | None) -> list[BomLine]:
    new = bought.hosts if bought is not None else frozenset()
    sockets: Counter[str] = Counter()
    count: Counter[str] = Counter()
    refreshed: set[str] = set()
    for h in hosts:
        name = _processor_name(h)
        sockets[name] += _int(h, "sockets")
        count[name] += 1
        if h.id in new:
            refreshed.add(name)
    out = []
    for name, n in sockets.items():
        note = ""
        model = name
        found = counted_as(model)
        if found is not None and found[1] is not None:
            note = stand_in_words(found[1])
        if bought is not None and name in refreshed and bought.processor is not None:
            results = bought.server.processor_results.get(bought.processor.model, 0)
            source = (f"SPEC CPU2017: {bought.server.title} submitted with it"
                      f" ({counted(results, 'result')}); sockets from the {CATALOGUE}")
        else:
            source = "the design's hosts (processor and sockets)"
        per = n / count[name]
        out.append(BomLine(PROCESSORS, name, n, "processor", source,
                           per_host=int(per) if per.is_integer() else None, hosts=count[name],
                           note=note))
    return out


def _memory(hosts: list[Component], bought: Bought | None) -> list[BomLine]:
    g = _group(hosts, bought)
    out = []
    pop = bought.population if bought is not None else None
    rest = list(g["kept"])
    if g["new"] and bought is not None and pop is not None:
        same = [h for h in g["new"] if _num(h, "memory_gb") == pop.total_gb]
        rest += [h for h in g["new"] if h not in same]
        if same:
            out.append(BomLine(
                MEMORY, f"{with_unit(pop.dimm_gb, 'GB')} {pop.kind} RDIMM",
                pop.dimms * len(same), "module",
                f"{bought.server.title}'s balanced population {pop.text} a host;"
                f" {sizes_clause(bought.population_source)}", per_host=pop.dimms, hosts=len(same),
                note=bought.population_why))
    else:
        rest += g["new"]
    by_gb: Counter[float] = Counter(_num(h, "memory_gb") for h in rest)
    for gb, n in sorted(by_gb.items()):
        out.append(BomLine(MEMORY, f"Memory {with_unit(gb, 'GB')} a host ({NOT_STATED})",
                           gb * n, "GB", "the design's hosts (memory_gb)", per_host=gb,
                           hosts=n))
    return out


def sizes_clause(source: str) -> str:
    """Where module sizes come from, as a clause."""
    return source if source.startswith("module sizes") else f"module sizes: {source}"


def _installed(design: Design) -> dict[str, str]:
    """NIC id -> the host it is installed in."""
    return {lk.source: lk.target for lk in design.links if lk.kind == "installed_in"}


def _nics(design: Design, hosts: list[Component], bought: Bought | None) -> list[BomLine]:
    on = _installed(design)
    ids = {h.id for h in hosts}
    new = bought.hosts if bought is not None else frozenset()
    kinds: Counter[tuple[float, int]] = Counter()
    where: dict[tuple[float, int], set[str]] = {}
    carried: set[tuple[float, int]] = set()
    for nic in design.of_kind("nic"):
        host = on.get(nic.id)
        if host not in ids:
            continue
        k = (_num(nic, "speed_gbps"), _int(nic, "ports"))
        kinds[k] += 1
        where.setdefault(k, set()).add(str(host))
        if host in new:
            carried.add(k)
    out = []
    for (gbps, ports), n in sorted(kinds.items()):
        source = "the design's NICs (speed and ports)"
        if (gbps, ports) in carried:
            source += "; a refresh's new host keeps the NICs of the host it replaces"
        per = n / len(where[(gbps, ports)])
        out.append(BomLine(NICS, f"NIC {with_unit(gbps, 'Gbit/s')} ({counted(ports, 'port')})",
                           n, "adapter", source, per_host=int(per) if per.is_integer() else None,
                           hosts=len(where[(gbps, ports)])))
    return out


def _vsan_hosts(design: Design, hosts: list[Component]) -> list[Component]:
    """The hosts of vSAN clusters."""
    vsan = {c.id for c in design.of_kind("cluster") if c.get("vsan.architecture") != "none"}
    member = {lk.source for lk in design.links if lk.kind == "in_cluster" and lk.target in vsan}
    return [h for h in hosts if h.id in member]


def _vsan(design: Design, hosts: list[Component], bought: Bought | None) -> list[BomLine]:
    capacity: Counter[float] = Counter()
    cache_: Counter[float] = Counter()
    with_dev: dict[float, list[Component]] = {}
    with_cache: dict[float, list[Component]] = {}
    new = bought.hosts if bought is not None else frozenset()
    by_new = False
    for h in _vsan_hosts(design, hosts):
        n, tb = _int(h, "vsan.devices"), _num(h, "vsan.device_tb")
        if n > 0 and tb > 0:
            capacity[tb] += n
            with_dev.setdefault(tb, []).append(h)
            by_new = by_new or h.id in new
        groups, gb = _int(h, "vsan.disk_groups"), _num(h, "vsan.cache_gb")
        if groups > 0 and gb > 0:
            cache_[gb] += groups
            with_cache.setdefault(gb, []).append(h)
    source = (bought.devices_source if by_new and bought is not None and bought.devices_source
              else "the design's hosts (vsan.devices, vsan.device_tb)")
    out = []
    for tb, n in sorted(capacity.items()):
        hs = with_dev[tb]
        per = n / len(hs)
        out.append(BomLine(VSAN, f"vSAN capacity device {with_unit(tb, 'TB')}", n, "device",
                           source, per_host=int(per) if per.is_integer() else None, hosts=len(hs)))
    for gb, n in sorted(cache_.items()):
        hs = with_cache[gb]
        per = n / len(hs)
        out.append(BomLine(VSAN, f"vSAN cache device {with_unit(gb, 'GB')}", n, "device",
                           "the design's hosts (vsan.disk_groups: one cache device each,"
                           " vsan.cache_gb)", per_host=int(per) if per.is_integer() else None,
                           hosts=len(hs)))
    return out


@cache
def _vsan_sources() -> dict[str, tuple[str, ...]]:
    """Each edition's sources of its vSAN entitlement (``vsan_sources`` of the rules)."""
    doc = json.loads(licensing.PATH.read_text(encoding="utf-8"))
    return {e["id"]: tuple(e.get("vsan_sources", ())) for e in doc["editions"]}


def _licences(p: Prediction) -> list[BomLine]:
    cap = p.sections.capacity
    lic = cap.licensing if cap is not None else None
    if lic is None:
        return []
    rules = licensing.rules()
    cited = "; ".join(s.title for s in rules.cited())
    out = [BomLine(LICENCES, f"{lic.edition_name} subscription (per core)", lic.licensed_cores,
                   "core", f"the licensing section's licensed cores; {rules.summary}"
                   f" ({cited})", subscription=True,
                   note="" if lic.order_minimum_cores is None else
                   "raised to the minimum per order of"
                   f" {counted(lic.order_minimum_cores, 'core')}")]
    if lic.vsan_raw_tib is not None:
        exact = float(lic.vsan_addon_tib or 0.0)
        whole = math.ceil(exact - 1e-9) if exact > 0 else 0
        ids = _vsan_sources().get(lic.edition, ())
        cited_vsan = "; ".join(s.title for s in rules.cited(ids)) or \
            "the edition includes no vSAN capacity"
        out.append(BomLine(
            LICENCES, "vSAN add-on capacity (per TiB)", whole, "TiB",
            f"the licensing section's vSAN raw {with_unit(lic.vsan_raw_tib, 'TiB')} less the"
            f" {with_unit(lic.vsan_entitled_tib or 0.0, 'TiB')} its cores entitle ({cited_vsan})",
            subscription=True,
            note=f"{with_unit(exact, 'TiB')} beyond the entitlement, bought per whole TiB"
            if exact > 0 else "the licensed cores entitle the raw capacity"))
    return out


# --------------------------------------------------------------------------- prices


def priced(b: Bom, prices: PriceList) -> Bom:
    """``b`` with each line the price list names priced, and the totals per currency."""
    lines = []
    used: set[str] = set()
    unpriced = []
    for x in b.lines:
        p = prices.find(x.item)
        if p is None:
            lines.append(x)
            unpriced.append(x.item)
            continue
        used.add(key(x.item))
        cost = x.quantity * p.unit_price
        lines.append(replace(x, unit_price=p.unit_price, currency=p.currency,
                             cost_per_year=cost if x.subscription else None,
                             cost=cost * b.years if x.subscription else cost))
    totals = []
    for cur in dict.fromkeys(x.currency for x in lines if x.unit_price is not None):
        mine = [x for x in lines if x.unit_price is not None and x.currency == cur]
        hardware = sum(x.cost or 0.0 for x in mine if not x.subscription)
        per_year = sum(x.cost_per_year or 0.0 for x in mine if x.subscription)
        totals.append(Totals(cur or "", hardware, per_year, b.years,
                             hardware + per_year * b.years))
    unused = [p.item for k, p in prices.prices.items() if k not in used]
    return Bom(lines, b.years, prices.name, totals, unpriced, unused)


# --------------------------------------------------------------------------- a kept refresh


def bought_of(design: Design, scenario: str | None) -> Bought | None:
    """What scenario ``scenario`` of ``design`` bought where it rebuilds the hardware (a
    refresh kept in the file): the server its label names, the processor of its new hosts
    and their memory population (:func:`inferred`); None for a scenario without a rebuild, or
    whose label names no server of the catalogue."""
    if not scenario or scenario == "base":
        return None
    rb = design.scenario(scenario).rebuild
    if rb is None:
        return None
    new = [c for c in rb.components if c.kind == "host"]
    server = server_of(rb.label)
    if server is None or not new:
        return None
    proc = counted_as(str(new[0].get("cpu_model") or ""))
    return inferred(Bought(server, proc[0] if proc is not None else None,
                           frozenset(h.id for h in new)), new)


def inferred(bought: Bought, new: list[Component]) -> Bought:
    """``bought`` with the memory population of its ``new`` hosts inferred where no refresh
    chose one (a refresh kept in a file, or given the memory per host): the server's balanced
    population of the hosts' memory with the fewest modules, as a refresh sizes it; as it was
    where the hosts differ or no balanced population has their memory."""
    memory = {_num(h, "memory_gb") for h in new}
    if len(memory) != 1:
        return bought
    gb = memory.pop()
    pop = next((p for p in servers.memory_populations(bought.server) if p.total_gb == gb),
               None)
    if pop is None:
        return bought
    return replace(bought, population=pop, population_source=population_source(pop),
                   population_why="inferred: the server's balanced population of the hosts'"
                   " memory with the fewest modules (the memory a host is known, not its"
                   " modules)")


def server_of(label: str) -> Server | None:
    """The catalogue server a rebuild's label names (its longest title in it)."""
    found = [s for s in servers.servers() if f" of {s.title}" in label]
    return max(found, key=lambda s: len(s.title)) if found else None


def population_source(pop: Population) -> str:
    """Where a population's module sizes come from, in words (as a refresh says it)."""
    if pop.source == servers.PLATFORM:
        return ("module sizes of the catalogue's servers of the same memory platform (no"
                " document of this server lists them)")
    doc = servers.sources().get(pop.source)
    return doc["title"] if doc else pop.source
