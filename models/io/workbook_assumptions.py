"""The workbook's Assumptions sheet: every default a figure rests on, with its source.

A value the design does not state is the schema's default (or a model's assumption), and a
figure computed from it is only as good as it: the drives of an array no import stated, the
memory population a refresh chose or that is inferred, vSAN's compression and reserves, the
growth rates, hyperthreading, the processors counted as their family's stand-in (or by their
clock alone), clusters' HA settings no inventory recorded, the licence edition.
"""

from __future__ import annotations

from typing import Any

from models.analysis.bom import Bought, sizes_clause
from models.core.growth import RESOURCES
from models.core.platform import counted_as, stand_in_words
from models.document import licensing
from models.document.design import Component, Design
from models.document.numbers import counted, with_unit
from models.document.schema import choice_label, prop_spec
from models.io.workbook_sheets import Side, Table
from models.subsystems.vsan import ESA_LFS, OSA_FORMAT, SLACK

SCHEMA = "the schema's default (models/document/schema.py): the design does not state it"
HEADERS = ["Assumption", "Applies to", "Value", "Source"]


def _names(comps: list[Component], most: int = 6) -> str:
    """``n hosts: a, b, c, ...`` naming at most ``most``."""
    if not comps:
        return ""
    kind = {"storage_array": "array"}.get(comps[0].kind, comps[0].kind)
    shown = ", ".join(c.name or c.id for c in comps[:most])
    return f"{counted(len(comps), kind)}: {shown}" + (", ..." if len(comps) > most else "")


def _default(kind: str, prop: str) -> Any:
    spec = prop_spec(kind, prop)
    return spec.default if spec is not None else None


def _arrays(d: Design) -> list[list[Any]]:
    out = []
    missing = [a for a in d.of_kind("storage_array")
               if "disks" not in a.props or "media" not in a.props]
    by_value: dict[str, list[Component]] = {}
    for a in missing:
        disks = a.get("disks")
        media = choice_label(str(a.get("media")))
        text = f"{counted(int(disks), 'drive')} of {media}"  # type: ignore[arg-type]
        by_value.setdefault(text, []).append(a)
    for text, arrays in by_value.items():
        out.append(["Drives of an array no import stated", _names(arrays), text,
                    f"{SCHEMA} (drive count and media; an inventory lists datastores, not"
                    " their drives)"])
    return out


def _hosts(d: Design, bought: Bought | None) -> list[list[Any]]:
    out = []
    hosts = d.of_kind("host")
    new = bought.hosts if bought is not None else frozenset()
    unstated = [h for h in hosts if "hyperthreading" not in h.props and h.id not in new]
    if unstated:
        on = "on" if _default("host", "hyperthreading") else "off"
        out.append(["Hyperthreading", _names(unstated), on, SCHEMA])
    refreshed = [h for h in hosts if h.id in new]
    if refreshed:
        values = sorted({"on" if h.get("hyperthreading") else "off" for h in refreshed})
        out.append(["Hyperthreading of a refresh's new hosts", _names(refreshed),
                    " / ".join(values), "the refresh: as each host it replaced had it, unless"
                    " it was told (--ht)"])
    seen: dict[str, list[Component]] = {}
    for h in hosts:
        seen.setdefault(str(h.get("cpu_model") or "").strip(), []).append(h)
    for model, hs in seen.items():
        stated = [h for h in hs if h.get("specrate_per_core") is not None]
        if stated:
            out.append(["Per-core performance stated on the host", _names(stated),
                        with_unit(float(stated[0].get("specrate_per_core")),  # type: ignore[arg-type]
                                  "SPECrate2017_int_base per core"), "the design"])
        rest = [h for h in hs if h.get("specrate_per_core") is None]
        if not rest:
            continue
        found = counted_as(model) if model else None
        if found is None:
            out.append(["Processor the catalogue does not know", _names(rest),
                        (model or "none given") + ": per-core speed from its clock alone",
                        "models/core/platform.py: the reference core (Xeon E5-2665) x the"
                        " clock over 2.4 GHz"])
        elif found[1] is not None:
            out.append(["Processor counted as its family's stand-in", _names(rest),
                        f"{model}: {stand_in_words(found[1])}",
                        "models/document/catalogue/families.py (Intel ARK's processor"
                        " numbers, AMD's model numbering)"])
        elif found[0].estimate:
            out.append(["Processor older than SPEC CPU2017", _names(rest),
                        f"{found[0].model}: SPECrate2017_int_base per core estimated,"
                        f" {found[0].source}", "the processor catalogue"
                        " (resources/catalogue/processors.json): CPU2006 x the bridge"])
    return out


def _memory(bought: Bought | None, d: Design) -> list[list[Any]]:
    if bought is None or bought.population is None:
        return []
    new = [h for h in d.of_kind("host") if h.id in bought.hosts]
    return [["Memory population of a refresh's new hosts", _names(new),
             bought.population.text + " a host",
             f"{bought.population_why}; {sizes_clause(bought.population_source)}"]]


def _vsan(d: Design, s: Side) -> list[list[Any]]:
    out = []
    rows = {v.cluster: v for v in (s.prediction.sections.capacity.vsan or [])} \
        if s.prediction.sections.capacity is not None else {}
    for c in d.of_kind("cluster"):
        if c.get("vsan.architecture") == "none" or c.id not in rows:
            continue
        v = rows[c.id]
        who = f"cluster {c.name or c.id}"
        stated = ("set in the design or its scenario (a refresh to vSAN sets --compression,"
                  " 1.0 unless given)") if "vsan.compression" in c.props else \
            f"{SCHEMA}: nothing pre-spent"
        out.append(["vSAN compression (data reduction)", who,
                    f"{float(c.get('vsan.compression')):g} : 1", stated])  # type: ignore[arg-type]
        if v.reserve_rule == "slack":
            out.append(["vSAN slack kept free", who, with_unit(SLACK * 100, "%") + " of raw",
                        "models/subsystems/vsan.py: stretched and two-node clusters, the"
                        " upper end of VMware's 25-30 % guidance (vSAN administration guide)"])
        else:
            pct = float(c.get("vsan.operations_reserve_pct"))  # type: ignore[arg-type]
            out.append(["vSAN operations reserve", who, with_unit(pct, "%") + " of raw",
                        "the design" if "vsan.operations_reserve_pct" in c.props else
                        f"{SCHEMA}: an assumption, no single published figure"])
            out.append(["vSAN host rebuild reserve", who,
                        "the largest host's raw" if c.get("vsan.host_rebuild_reserve")
                        else "none", "the design" if "vsan.host_rebuild_reserve" in c.props
                        else SCHEMA])
        if v.architecture == "esa":
            out.append(["vSAN ESA file system overhead", who, with_unit(ESA_LFS * 100, "%"),
                        "Broadcom KB 394410 (models/subsystems/vsan.py)"])
        else:
            out.append(["vSAN OSA on-disk format overhead", who,
                        with_unit(OSA_FORMAT * 100, "%"), "models/subsystems/vsan.py: an"
                        " assumption (VMware calls it small and states no figure)"])
    return out


def _clusters(d: Design) -> list[list[Any]]:
    unstated = [c for c in d.of_kind("cluster")
                if not {"ha_enabled", "admission_control", "failover_hosts"} <= set(c.props)]
    if not unstated:
        return []
    on = "on" if _default("cluster", "ha_enabled") else "off"
    ac = choice_label(str(_default("cluster", "admission_control")))
    n = int(_default("cluster", "failover_hosts"))
    return [["HA settings no inventory recorded", _names(unstated),
             f"HA {on} where not stated, admission control {ac} where not stated,"
             f" {counted(n, 'failover host')} where not stated", SCHEMA]]


def _design(d: Design) -> list[list[Any]]:
    out = []
    rates = {r: d.policy_value(f"growth.{r}_pct") for r in RESOURCES}
    given = {r: v for r, v in rates.items() if isinstance(v, (int, float)) and v}
    if given:
        year = d.policy_value("growth.year")
        out.append(["Growth rates", "the design",
                    ", ".join(f"{r} {with_unit(float(v), '%')} a year"
                              for r, v in given.items())
                    + f"; evaluated in year {year}", "the design (growth)"])
    rules = licensing.rules()
    edition = rules.edition(str(d.policy_value("licence_edition")))
    out.append(["Licence edition", "the design", edition.name,
                "the design (policy.licence_edition)" if "licence_edition" in d.policy
                else f"{SCHEMA}; {rules.summary}"])
    if "licence_order_minimum" not in d.policy:
        out.append(["Minimum cores per order", "the design",
                    "off" if not rules.order_minimum.default else "on",
                    f"resources/licensing.json: {rules.order_minimum.text}"])
    return out


def assumptions(ss: list[Side], bought: Bought | None) -> Table:
    """Every default the figures of ``ss`` rest on (each once), and the memory population
    of what ``bought``."""
    rows: list[list[Any]] = []
    for s in ss:
        mine = bought if s is ss[-1] else None
        for row in (_memory(mine, s.design) + _hosts(s.design, mine) + _arrays(s.design)
                    + _vsan(s.design, s) + _clusters(s.design) + _design(s.design)):
            if row not in rows:
                rows.append(row)
    return Table("Assumptions", HEADERS, rows)
