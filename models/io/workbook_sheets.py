"""What the Excel workbook says, sheet by sheet, as tables of plain values
(:mod:`models.io.workbook_export` writes them).

Every figure is the one ``evaluate --json`` gives for the same design and scenario (the same
:class:`~models.core.prediction.Prediction` and its ``to_dict``), and the means a refresh
reports (:func:`models.analysis.refresh.side`): one answer.  Numbers stay numbers; a header
carries the unit ("Host CPU (%)": utilisation fractions are written as percentages).  A
scenario that rebuilds the hardware (a refresh kept in the file) is shown beside the base
design: its figures next to the base's in Summary, Clusters and Licences, its hosts, VMs and
vSAN clusters after the base's with a Side column.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from models.analysis.bom import Bom
from models.analysis.refresh import Side as Figures
from models.analysis.refresh import side as figures_of
from models.core.prediction import VSAN_KEYS, Prediction
from models.document.design import Design, apply_scenario
from models.document.numbers import with_unit
from models.engine.evaluation import Engine
from models.engine.kpis import limit_text


@dataclass
class Table:
    """One sheet: a header row and rows of values (str, int, float, bool or None), and
    lines written under the table after a blank row (outside its filter)."""

    name: str
    headers: list[str]
    rows: list[list[Any]]
    after: list[list[Any]] = field(default_factory=list)

    def column(self, header: str) -> list[Any]:
        i = self.headers.index(header)
        return [r[i] for r in self.rows]


@dataclass
class Side:
    """The design as one scenario evaluates it."""

    label: str
    """``base`` or the scenario's name."""
    design: Design
    """The scenario applied."""
    prediction: Prediction
    doc: dict[str, Any]
    """``prediction.to_dict()``: what ``evaluate --json`` prints."""
    figures: Figures
    """The means and totals a refresh's before and after give."""


def evaluated(design: Design, scenario: str | None) -> Side:
    """``design`` in ``scenario`` evaluated as ``headroom evaluate --scenario`` does."""
    name = scenario or "base"
    applied = apply_scenario(design, scenario)
    engine = Engine(applied)
    engine.scenario = name
    p = engine.evaluate()
    return Side(name, applied, p, p.to_dict(), figures_of(p))


def sides(design: Design, scenario: str | None) -> list[Side]:
    """The base design and the scenario where the scenario rebuilds the hardware (a refresh:
    before and after); otherwise the scenario (or the base design) alone."""
    if scenario and scenario != "base" and design.scenario(scenario).rebuild is not None:
        return [evaluated(design, None), evaluated(design, scenario)]
    return [evaluated(design, scenario)]


def _float(v: Any) -> float:
    return float(v) if isinstance(v, (int, float)) else 0.0


def pct(x: float | None) -> float | None:
    """A fraction as a percentage (None stays None)."""
    return None if x is None or not math.isfinite(x) else 100.0 * x


def _ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a is not None and b else None


def _nanmax(values: list[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return max(known) if known else None


# --------------------------------------------------------------------------- Summary


def _vsan_sum(s: Side, k: str) -> float | None:
    rows = s.doc.get("vsan") or []
    return float(sum(v[k] for v in rows)) if rows else None


def _capacity(s: Side) -> dict[str, Any]:
    return dict(s.doc.get("extras", {}).get("capacity", {}))


SUMMARY: tuple[tuple[str, str, Any], ...] = (
    ("Hosts", "evaluate: hosts (rows)", lambda s: len(s.doc["hosts"])),
    ("VMs", "evaluate: vms (rows)", lambda s: len(s.doc["vms"])),
    ("Hosts needed", "evaluate: summary.consolidation.hosts_needed",
     lambda s: s.doc["summary"]["consolidation"]["hosts_needed"]),
    ("Tightest limit", "evaluate: summary.consolidation.binding",
     lambda s: limit_text(s.doc["summary"]["consolidation"]["binding"])),
    ("VMs per host", "evaluate: summary.consolidation.vms_per_host",
     lambda s: s.doc["summary"]["consolidation"]["vms_per_host"]),
    ("Host CPU, mean (%)", "refresh: cpu_util_mean (the hosts' mean)",
     lambda s: pct(s.figures.cpu_util_mean)),
    ("Host CPU, busiest (%)", "evaluate: hosts[].cpu_util (the largest)",
     lambda s: pct(_nanmax([h["cpu_util"] for h in s.doc["hosts"]]))),
    ("Host memory, mean (%)", "refresh: memory_util_mean (the hosts' mean)",
     lambda s: pct(s.figures.memory_util_mean)),
    ("Host memory, busiest (%)", "evaluate: hosts[].memory_util (the largest)",
     lambda s: pct(_nanmax([h["memory_util"] for h in s.doc["hosts"]]))),
    ("Total IOPS (IOPS)", "evaluate: summary.total_iops",
     lambda s: s.doc["summary"]["total_iops"]),
    ("Mean latency (ms)", "evaluate: summary.mean_latency_ms",
     lambda s: s.doc["summary"]["mean_latency_ms"]),
    ("p95 latency (ms)", "evaluate: summary.p95_latency_ms",
     lambda s: s.doc["summary"]["p95_latency_ms"]),
    ("p95 web response (ms)", "evaluate: summary.p95_response_ms",
     lambda s: s.doc["summary"]["p95_response_ms"]),
    ("FT logging (Mbit/s)", "evaluate: summary.ft_logging_mbps",
     lambda s: s.doc["summary"]["ft_logging_mbps"]),
    ("Transactions (per s)", "evaluate: summary.total_txn_per_s",
     lambda s: s.doc["summary"]["total_txn_per_s"]),
    ("Licensed cores", "evaluate: summary.licensed_cores",
     lambda s: s.doc["summary"]["licensed_cores"]),
    ("Physical cores", "evaluate: extras.capacity.licensing.physical_cores",
     lambda s: _capacity(s).get("licensing", {}).get("physical_cores")),
    ("Licence cost (per year)", "evaluate: summary.licence_cost_per_year",
     lambda s: s.doc["summary"]["licence_cost_per_year"]),
    ("Storage needed (GB)", "evaluate: extras.capacity.storage.needed_gb",
     lambda s: _capacity(s).get("storage", {}).get("needed_gb")),
    ("Storage capacity (GB)", "evaluate: extras.capacity.storage.capacity_gb",
     lambda s: _capacity(s).get("storage", {}).get("capacity_gb")),
    ("vSAN raw (TiB)", "evaluate: vsan[].raw_tib (summed)", lambda s: _vsan_sum(s, "raw_tib")),
    ("vSAN usable (TiB)", "evaluate: vsan[].usable_tib (summed)",
     lambda s: _vsan_sum(s, "usable_tib")),
    ("vSAN free (TiB)", "evaluate: vsan[].free_tib (summed)",
     lambda s: _vsan_sum(s, "free_tib")),
)
"""(figure with its unit, where ``evaluate --json`` or ``refresh --json`` has it, the value
of a side)."""


def summary(design: Design, ss: list[Side]) -> Table:
    both = len(ss) == 2
    headers = ["Figure", *(s.label for s in ss), *(["Change"] if both else []), "From"]
    rows: list[list[Any]] = [["Design", *([design.name] * len(ss)), *([None] if both else []),
                              "the design's name"]]
    for label, where, get in SUMMARY:
        values = [get(s) for s in ss]
        if all(v is None for v in values):
            continue
        change = []
        if both:
            a, b = values
            change = [b - a if isinstance(a, (int, float)) and isinstance(b, (int, float))
                      and not isinstance(a, bool) else None]
        rows.append([label, *values, *change, where])
    return Table("Summary", headers, rows)


# --------------------------------------------------------------------------- Clusters


CLUSTER: tuple[tuple[str, Any], ...] = (
    ("Hosts", lambda c, v: c["hosts"]),
    ("VMs", lambda c, v: c["vms"]),
    ("Unplaced VMs", lambda c, v: c["unplaced_vms"]),
    ("Hosts needed", lambda c, v: c["hosts_needed"]),
    ("Tightest limit", lambda c, v: limit_text(c["binding"]) if c["vms"] else None),
    ("Short by (hosts)", lambda c, v: c["short_by_hosts"]),
    ("CPU demand (cores)", lambda c, v: c["cpu_demand_cores"]),
    ("CPU capacity (cores)", lambda c, v: c["cpu_capacity_cores"]),
    ("Host CPU, mean (%)", lambda c, v: pct(_ratio(c["cpu_demand_cores"],
                                                   c["cpu_capacity_cores"]))),
    ("Memory held (GB)", lambda c, v: c["memory_gb"]),
    ("Memory capacity (GB)", lambda c, v: c["memory_capacity_gb"]),
    ("Host memory, mean (%)", lambda c, v: pct(_ratio(c["memory_gb"],
                                                      c["memory_capacity_gb"]))),
    ("Admission control", lambda c, v: c["admission_control"]),
    ("HA reserve (hosts)", lambda c, v: c["reserve_hosts"]),
    ("DRS", lambda c, v: "on" if c["drs"] else "off"),
    ("vCPUs per core (ratio)", lambda c, v: c["vcpu_per_core"]),
    ("Memory allocated (% of installed)", lambda c, v: pct(c["memory_overcommit"])),
    ("Physical cores", lambda c, v: c["physical_cores"]),
    ("Licensed cores", lambda c, v: c["licensed_cores"]),
    ("vSAN raw (TiB)", lambda c, v: v["raw_tib"] if v else None),
    ("vSAN free (TiB)", lambda c, v: v["free_tib"] if v else None),
)
"""(column with its unit, the value of a cluster's ``extras.capacity.clusters`` row and its
``vsan`` row, if any)."""


def clusters(ss: list[Side]) -> Table:
    by_side = [{c["id"]: c for c in _capacity(s).get("clusters", [])} for s in ss]
    vsan = [{v["cluster"]: v for v in s.doc.get("vsan") or []} for s in ss]
    ids = list(dict.fromkeys(cid for rows in by_side for cid in rows))
    both = len(ss) == 2
    headers = ["Cluster", "ID"] + [f"{label}, {s.label}" if both else label
                                   for label, _ in CLUSTER for s in ss]
    rows = []
    for cid in ids:
        first = next(rows_[cid] for rows_ in by_side if cid in rows_)
        row: list[Any] = [first["name"] or cid or "hosts in no cluster", cid]
        for _, get in CLUSTER:
            for i in range(len(ss)):
                c = by_side[i].get(cid)
                row.append(get(c, vsan[i].get(cid)) if c is not None else None)
        rows.append(row)
    return Table("Clusters", headers, rows)


# --------------------------------------------------------------------------- Hosts, VMs


def _cluster_of(design: Design) -> dict[str, str]:
    names = {c.id: c.name or c.id for c in design.of_kind("cluster")}
    return {lk.source: names.get(lk.target, lk.target) for lk in design.links
            if lk.kind == "in_cluster"}


def hosts(ss: list[Side]) -> Table:
    from models.core.platform import counted_as  # noqa: PLC0415  (cached per processor)

    both = len(ss) == 2
    headers = ["Host", *(["Side"] if both else []), "ID", "Cluster", "Processor",
               "Counted as", "Sockets", "Cores per socket", "Physical cores",
               "Base clock (GHz)", "Hyperthreading", "Memory (GB)", "ESXi version", "VMs",
               "Host CPU (%)", "Host memory (%)", "Dense mode active", "FT logging (Mbit/s)",
               "NICs", "Busiest NIC (%)", "vSAN devices", "vSAN device size (TB)"]
    rows = []
    for s in ss:
        comp = {c.id: c for c in s.design.of_kind("host")}
        cluster = _cluster_of(s.design)
        for h in s.doc["hosts"]:
            c = comp.get(h["id"])
            if c is None:
                continue
            model = str(c.get("cpu_model") or "")
            found = counted_as(model) if model.strip() else None
            sockets, cores = int(_float(c.get("sockets"))), int(_float(c.get("cores_per_socket")))
            nic = _nanmax([n["util"] for n in h["nics"]])
            rows.append([h["name"] or h["id"], *([s.label] if both else []), h["id"],
                         cluster.get(h["id"]), model or None,
                         found[0].model if found is not None else None, sockets, cores,
                         sockets * cores, c.get("ghz"),
                         "on" if c.get("hyperthreading") else "off", c.get("memory_gb"),
                         c.get("esxi_version"), h["vms"], pct(h["cpu_util"]),
                         pct(h["memory_util"]), h["dense_mode_active"], h["ft_logging_mbps"],
                         len(h["nics"]), pct(nic), c.get("vsan.devices") or None,
                         c.get("vsan.device_tb") or None])
    return Table("Hosts", headers, rows)


def vms(ss: list[Side]) -> Table:
    both = len(ss) == 2
    headers = ["VM", *(["Side"] if both else []), "ID", "Host", "Cluster", "vCPUs",
               "Memory (GB)", "VM CPU (%)", "IOPS", "Storage (MB/s)", "Latency (ms)",
               "p95 latency (ms)", "Network (Gbit/s)", "CPU per 1K IOPS (% core)", "FT",
               "FT logging (Mbit/s)", "Bound by", "Transactions (per s)",
               "Transaction response (ms)", "Max users", "Saturated"]
    rows = []
    for s in ss:
        comp = {c.id: c for c in s.design.of_kind("vm")}
        host_name = {h["id"]: h["name"] or h["id"] for h in s.doc["hosts"]}
        cluster = _cluster_of(s.design)
        for v in s.doc["vms"]:
            c = comp.get(v["id"])
            ft = v["ft"]
            rows.append([v["name"] or v["id"], *([s.label] if both else []), v["id"],
                         host_name.get(v["host"], v["host"]), cluster.get(v["host"] or ""),
                         c.get("vcpus") if c is not None else None,
                         c.get("memory_gb") if c is not None else None, pct(v["cpu_util"]),
                         v["iops"], v["storage_mbps"], v["latency_ms"], v["p95_latency_ms"],
                         v["net_gbps"], v["cpu_cost_per_kiops"], ft is not None,
                         ft["logging_mbps"] if ft else None, v["bound_by"] or None,
                         v["txn_per_s"], v["txn_response_ms"], v["max_users"],
                         v["saturated"]])
    return Table("VMs", headers, rows)


# --------------------------------------------------------------------------- vSAN


VSAN_HEADERS = {"cluster": "Cluster ID", "name": "Cluster", "architecture": "Architecture",
                "policy": "Policy", "ftt": "FTT (failures)", "hosts": "Hosts",
                "raw_tib": "Raw (TiB)", "usable_tib": "Usable (TiB)", "data_tib": "Data (TiB)",
                "reserve_tib": "Reserve (TiB)", "free_tib": "Free (TiB)",
                "min_hosts": "Policy's minimum (hosts)", "hosts_needed": "Hosts needed",
                "write_latency_ms": "Write latency (ms)", "read_latency_ms": "Read latency (ms)"}
"""The top-level ``vsan`` list's keys (:data:`VSAN_KEYS`) as headers with their units."""


def vsan(ss: list[Side]) -> Table | None:
    """The prediction's top-level ``vsan`` list, a row per vSAN cluster; None without any."""
    both = len(ss) == 2
    keys = ["cluster", *(k for k in VSAN_KEYS if k not in ("name", "cluster"))]
    headers = [VSAN_HEADERS["name"], *(["Side"] if both else []),
               *(VSAN_HEADERS[k] for k in keys)]
    rows = [[v["name"], *([s.label] if both else []), *(v[k] for k in keys)]
            for s in ss for v in s.doc.get("vsan") or []]
    return Table("vSAN", headers, rows) if rows else None


# --------------------------------------------------------------------------- bill, licences


BOM_HEADERS = ["Item", "Category", "Quantity", "Unit", "Per host", "Hosts",
               "Priced per year", "Unit price", "Currency", "Cost per year", "Cost",
               "Note", "Source"]


def bom_table(b: Bom) -> Table:
    rows = [[x.item, x.category, x.quantity, x.unit, x.per_host, x.hosts, x.subscription,
             x.unit_price, x.currency, x.cost_per_year, x.cost, x.note or None, x.source]
            for x in b.lines]
    after: list[list[Any]] = []
    for t in b.totals:
        after += [[f"Hardware, once ({t.currency or 'no currency'})", None, None, None, None,
                   None, None, None, t.currency, None, t.hardware],
                  [f"Subscriptions, a year ({t.currency or 'no currency'})", None, None, None,
                   None, None, True, None, t.currency, t.per_year, None],
                  [f"Over the horizon, years: {t.years:g} ({t.currency or 'no currency'})",
                   None, None, None, None, None, None, None, t.currency, None, t.horizon]]
    if b.prices is not None:
        after.append([f"Prices: {b.prices}"])
        if b.unpriced:
            after.append(["No price for: " + "; ".join(b.unpriced)])
        if b.unused:
            after.append(["Priced but not in the bill: " + "; ".join(b.unused)])
    return Table("Bill of materials", BOM_HEADERS, rows, after)


def licences(ss: list[Side]) -> Table:
    from models.document import licensing  # noqa: PLC0415

    rules = licensing.rules()
    both = len(ss) == 2
    lic = [_capacity(s).get("licensing") or {} for s in ss]
    headers = ["Figure", *(s.label for s in ss), *(["Change"] if both else []), "Source"]
    cited = "; ".join(x.title for x in rules.cited())
    rows: list[list[Any]] = []

    def add(label: str, values: list[Any], source: str) -> None:
        if all(v is None for v in values):
            return
        change = []
        if both:
            a, b = values
            change = [b - a if isinstance(a, (int, float)) and isinstance(b, (int, float))
                      and not isinstance(a, bool) else None]
        rows.append([label, *values, *change, source])

    add("Edition", [x.get("edition_name") for x in lic], "the design's policy.licence_edition")
    add("Licensed cores", [x.get("licensed_cores") for x in lic], cited)
    add("Physical cores", [x.get("physical_cores") for x in lic], "the design's ESXi hosts")
    add("ESXi hosts counted", [x.get("hosts") for x in lic], "the design's hosts")
    add("Minimum cores per CPU", [x.get("min_cores_per_cpu") for x in lic], rules.min_text)
    add("Minimum per order (cores)", [x.get("order_minimum_cores") for x in lic],
        rules.order_minimum.text)
    add("Price per core (per year)", [x.get("price_per_core") for x in lic],
        "the design's policy.licence_price_per_core")
    add("Licence cost (per year)", [x.get("cost_per_year") for x in lic],
        "licensed cores x price per core")
    add("vSAN raw (TiB)", [x.get("vsan_raw_tib") for x in lic], "the vSAN clusters' devices")
    add("vSAN entitled (TiB)", [x.get("vsan_entitled_tib") for x in lic],
        "licensed cores x the edition's TiB per core (resources/licensing.json)")
    add("vSAN add-on (TiB)", [x.get("vsan_addon_tib") for x in lic],
        "raw beyond the entitlement")
    ids = list(dict.fromkeys(c["id"] for s in ss for c in _capacity(s).get("clusters", [])))
    for cid in ids:
        per = [{c["id"]: c for c in _capacity(s).get("clusters", [])}.get(cid) for s in ss]
        name = next(c["name"] for c in per if c is not None) or "hosts in no cluster"
        add(f"Licensed cores, cluster {name}",
            [c["licensed_cores"] if c is not None else None for c in per], cited)
    after = [[f"Rules: {rules.summary}; checked {rules.checked}"],
             [f"Counted: {rules.metric}"]]
    return Table("Licences", headers, rows, after)


def grown_years(design: Design) -> int:
    """The Growth sheet's horizon: the design's year (rounded up) where it sets one, else
    3."""
    y = _float(design.policy_value("growth.year"))
    return max(1, min(30, math.ceil(y))) if y > 0 else 3


def has_growth(design: Design) -> bool:
    from models.core.growth import RESOURCES  # noqa: PLC0415

    return any(_float(design.policy_value(f"growth.{r}_pct")) != 0.0 for r in RESOURCES)


GROWTH_HEADERS = ["Cluster", "Year", "Hosts", "Hosts needed", "Tightest limit",
                  "Host CPU, mean (%)", "Host CPU, busiest (%)", "Host memory, mean (%)",
                  "Host memory, busiest (%)", "Storage used (TiB)", "Storage usable (TiB)",
                  "p95 latency (ms)", "Licensed cores", "vSAN raw (TiB)",
                  "Runs out in month"]


def growth(design: Design) -> Table:
    from models.analysis.growth import grow  # noqa: PLC0415

    years = grown_years(design)
    r = grow(design, years)
    rows: list[list[Any]] = []
    for y in r.years:
        rows.append(["(all)", y.year, y.hosts, y.hosts_needed, limit_text(y.binding),
                     pct(y.cpu_util_mean), pct(y.cpu_util_max), pct(y.memory_util_mean),
                     pct(y.memory_util_max), y.storage_used_tib, y.storage_usable_tib,
                     y.p95_latency_ms, y.licensed_cores, y.vsan_raw_tib, None])
    month = {x.cluster: x.month for x in r.runs_out}
    for y in r.years:
        for c in y.clusters:
            rows.append([c["name"], y.year, c["hosts"], c["hosts_needed"],
                         limit_text(c["binding"]), pct(c["cpu_util_mean"]), None,
                         pct(c["memory_util_mean"]), None, None, None, None, None, None,
                         month.get(c["id"])])
    rates = ", ".join(f"{k} {with_unit(v, '%')} a year" for k, v in r.rates.items() if v)
    after = [[f"Rates: {rates}; years 0 to {years} (headroom grow --years {years})"]]
    after += [[x.text] for x in r.runs_out]
    after += [[f"cluster {n} needs more hosts than it has already today"]
              for n in r.already_short]
    return Table("Growth", GROWTH_HEADERS, rows, after)


def finite(x: Any) -> Any:
    """A value a cell can hold: NaN and infinities as None, numpy scalars as Python's."""
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x
