"""The executive summary: in sentences, what the design achieves, what binds it, what a host
failure does, what to do about it and what the scenarios change.  Every figure is one the
engine or an analysis computed (the prediction and its capacity section, the scenario
comparison, the lever tried in :mod:`models.report.levers`, the host failure of
:mod:`models.report.failure`), so the summary says what the dashboard, the report's pages and
``headroom failure`` say: it never reads "Nothing needs to change" where the policy is broken,
a cluster is short of hosts or a host failure breaks the policy."""

from __future__ import annotations

import math
from dataclasses import dataclass

from models.analysis.common import Breach, policy_breaches
from models.analysis.seek import seek
from models.core.prediction import Prediction, Resource, resource_words
from models.core.sections import ClusterCapacity
from models.document.design import Design, DesignError, apply_scenario
from models.document.numbers import (
    NOT_MEASURED,
    SINGULAR,
    change_unit,
    counted,
    number,
    percent,
    prop_value,
    signed_percent,
    with_unit,
)
from models.document.words import kind_count, prop_text
from models.engine.kpis import KPI_BY_KEY, Kpi, limit_text
from models.report import refresh, vsan
from models.report.compare import BASE, Cell, Comparison, judge
from models.report.failure import (
    Failures,
    action_text,
    choice_action,
    room_breaks,
    summary_text,
    told,
)
from models.report.levers import (
    BUSY,
    Remedy,
    alike,
    binding_resource,
    headline,
    tried_levers,
    worth_relieving,
)
from models.report.settings import quoted
from models.report.wording import (
    component_name,
    explanation,
    in_sentence,
    plain,
    resource_name,
    resource_phrase,
    target_text,
)

SATURATED = 0.995
"""From this utilisation a resource reads as saturated (it shows as 100 %)."""

KPI_PHRASES: dict[str, str] = {
    "total_iops": "total IOPS", "mean_latency_ms": "the mean storage latency",
    "p95_latency_ms": "the highest VM p95 latency", "cpu_per_kiops": "the CPU per 1K IOPS",
    "network_gbps": "network throughput", "p95_response_ms": "the p95 web response",
    "ft_logging_mbps": "FT logging traffic", "ft_latency_add_ms": "the latency FT adds",
    "wan_pct": "the load on the busiest WAN link", "library_min": "the slowest library job",
    "vms_per_host": "VMs per host", "hosts_needed": "the hosts needed",
}
"""Each KPI as a sentence names it."""


def kpi_phrase(kpi: Kpi) -> str:
    return KPI_PHRASES.get(kpi.key, kpi.title[0].lower() + kpi.title[1:])


@dataclass(frozen=True)
class Summary:
    achieves: str
    """What the design delivers, and the hosts it needs under its policy."""
    binds: str
    """The resource that limits it (and any policy it breaks or refusal)."""
    action: str
    """What to do about it: the change the engine found to help, the hosts the policy needs,
    what a host failure needs, or that nothing needs to change."""
    scenarios: str = ""
    """What the scenarios change, against the base design."""
    refresh: str = ""
    """What each hardware refresh kept as a scenario does (:mod:`models.report.refresh`)."""
    failure: str = ""
    """What a host failure does (:func:`models.report.failure.summary_text`)."""

    def paragraphs(self) -> list[tuple[str, str]]:
        """(heading, text) of each part that has something to say."""
        parts = (("What it achieves", self.achieves), ("What binds", self.binds),
                 ("If a host fails", self.failure), ("What to do", self.action),
                 ("The scenarios", self.scenarios), ("The refresh", self.refresh))
        return [(h, t) for h, t in parts if t]

    def leading(self) -> list[tuple[str, str]]:
        """The paragraphs through What to do (what the PNG summary has room for)."""
        out = self.paragraphs()
        ends = [i for i, (h, _) in enumerate(out) if h == "What to do"]
        return out[:ends[0] + 1] if ends else out[:3]


def cell_text(kpi: Kpi, cell: Cell) -> str:
    """A comparison cell's change in words: ``no change``, ``+60 %``, ``+3 hosts``."""
    if cell.change == "same":
        return "no change"
    if cell.value is not None and math.isinf(cell.value):
        return "saturates"
    if cell.change in ("none", "appears", "gone") or cell.delta is None:
        return {"appears": "new", "gone": NOT_MEASURED}.get(cell.change, "")
    if cell.rel is not None and kpi.key not in ("hosts_needed", "wan_pct"):
        return signed_percent(cell.rel)
    sign = "+" if cell.delta > 0 else "−"
    return sign + with_unit(abs(cell.delta), change_unit(kpi.unit))


# --------------------------------------------------------------------------- achieves


def _counts(p: Prediction) -> str:
    """``16 VMs on 1 host`` (``VM on 2 hosts`` for one: it follows "the")."""
    vms, hosts = len(p.vms.ids), len(p.hosts.ids)
    if not vms:
        return ""
    where = f" on {kind_count('host', hosts)}" if hosts else ""
    return ("VM" if vms == 1 else kind_count("vm", vms)) + where


def _does(design: Design, p: Prediction) -> list[str]:
    """What the VMs do, as verb phrases agreeing with how many VMs there are."""
    out = []
    one = len(p.vms.ids) == 1

    def verb(word: str) -> str:
        return word + "s" if one else word

    def k(key: str) -> str:
        kpi = KPI_BY_KEY[key]
        return kpi.text(kpi.value(p))

    if p.total_iops > 0:
        out.append(f"{verb('deliver')} {k('total_iops')} at a mean storage latency of"
                   f" {k('mean_latency_ms')} (highest VM p95 {k('p95_latency_ms')})")
    if p.vms.request_driven.any():
        if p.response_saturated:
            out.append(f"{verb('get')} more web requests than the hosts can answer: the"
                       " response time grows without bound")
        else:
            mean = KPI_BY_KEY["p95_response_ms"].text(p.mean_response_ms)
            out.append(f"{verb('answer')} web requests within {k('p95_response_ms')} at the"
                       f" 95th percentile (mean {mean})")
    vdi = p.sections.vdi
    for name, link in list(vdi.wan.items())[:1] if vdi is not None else []:
        out.append(f"{verb('run')} {int(link.desktops):,} PCoIP desktops over the WAN link"
                   f" {component_name(design, name)}, which carries"
                   f" {percent(link.util)} of its capacity (room for"
                   f" {link.max_desktops:,} such desktops)")
    if p.total_net_gbps > 0 and p.total_iops == 0 and not p.vms.request_driven.any() \
            and vdi is None:
        out.append(f"{verb('move')} {k('network_gbps')} over the network")
    return out


def _library(design: Design, p: Prediction) -> str:
    jobs = p.library_transfers
    if not jobs:
        return ""
    slow = max(jobs, key=lambda j: j.completion_s or 0.0)
    kpi = KPI_BY_KEY["library_min"]
    bound = f", bound by the {slow.bound_by}" if slow.bound_by else ""
    others = f" of {len(jobs)} Content Library jobs" if len(jobs) > 1 else ""
    return (f"The slowest{others}, the {slow.operation} of"
            f" {slow.name or component_name(design, slow.id)}, takes"
            f" {kpi.text(kpi.value(p))}{bound}.")


def _ft(p: Prediction) -> str:
    n = int(p.vms.ft.sum())
    if not n:
        return ""
    log, add = KPI_BY_KEY["ft_logging_mbps"], KPI_BY_KEY["ft_latency_add_ms"]
    return (f"Fault Tolerance protects {kind_count('vm', n)}: its logging needs"
            f" {log.text(log.value(p))} and adds up to"
            f" {add.text(add.value(p))} of latency.")


def _policy(design: Design) -> dict[str, float]:
    return {key: float(design.policy_value(key) or 0) for key in ("cpu_util_max",
                                                                  "memory_util_max",
                                                                  "p95_ms_max")}


def _policy_words(design: Design, p: Prediction) -> str:
    """The policy's ceilings that bear on this design: host CPU always, host memory where it
    binds, the p95 ceiling where there is a latency or a response to hold to it (an estate
    measured for CPU and memory has neither)."""
    pol = _policy(design)
    parts = [f"host CPU up to {percent(pol['cpu_util_max'])}"]
    if "memory" in (p.consolidation.binding or ""):
        parts.append(f"host memory up to {percent(pol['memory_util_max'])}")
    if p.has_response:
        parts.append(f"p95 up to {with_unit(pol['p95_ms_max'], 'ms')}")
    return ", ".join(parts)


def _consolidation(design: Design, p: Prediction) -> str:
    c = p.consolidation
    hosts = len(p.hosts.ids)
    if c.hosts_needed is None or not len(p.vms.ids) or not hosts:
        return ""
    why = f", limited by {limit_text(c.binding, phrase=True)}" if c.binding else ""
    need = c.hosts_needed
    gap = ""
    if need > hosts:
        gap = f", {need - hosts:,} more than it has"
    elif need < hosts:
        gap = f", {hosts - need:,} fewer than it has"
    vms = "the VM needs" if len(p.vms.ids) == 1 else "the VMs need"
    return (f"Under its policy ({_policy_words(design, p)}) {vms}"
            f" {kind_count('host', need)}{gap}{why}.")


def achieves(design: Design, scenario: str, p: Prediction) -> str:
    where = "" if scenario == BASE else f"In the scenario ‘{scenario}’, "
    does = _does(design, p)
    sentences = []
    who = _counts(p)
    if does and who:
        verbs = ", and ".join(does) if len(does) > 1 else does[0]
        sentences.append(f"{where}the {who} {verbs}." if where else
                         f"The {who} {verbs}.")
        where = ""
    elif who:
        who = who.replace("VM on", "one VM on", 1) if who.startswith("VM ") else who
        sentences.append(f"{where}the design places {who}." if where else
                         f"The design places {who}.")
        where = ""
    lib = _library(design, p)
    if lib:
        sentences.append(where + (lib[0].lower() + lib[1:] if where else lib))
        where = ""
    sentences += [s for s in (_ft(p), _consolidation(design, p)) if s]
    if not sentences:
        return "The design has no VMs or Content Library jobs to predict a figure for."
    text = " ".join(sentences)
    return text[0].upper() + text[1:]


# --------------------------------------------------------------------------- binds


def breaches(design: Design, p: Prediction) -> list[Breach]:
    """The policy ``p`` breaks (:func:`~models.analysis.common.policy_breaches`, what host
    failure's baseline reads), past what the model can tell apart."""
    return told(policy_breaches(p, _policy(design)))


BREAKS = "It breaks its policy: "
"""How :func:`_breaches` begins."""


def _breaches(design: Design, p: Prediction) -> str:
    found = breaches(design, p)
    if not found:
        return ""
    by: dict[str, list[Breach]] = {}
    for b in found:
        by.setdefault(b.resource, []).append(b)
    parts = []
    for res, items in by.items():
        worst = max(items, key=lambda b: b.value / b.limit if b.limit else math.inf)
        name = component_name(design, worst.component)
        many = kind_count("vm" if res == "p95" else "host", len(items))
        if res == "cpu":
            head = f"host CPU on {many}" if len(items) > 1 else f"the CPU of host {name}"
            parts.append(f"{head} at {percent(worst.value)}, over the"
                         f" {percent(worst.limit)} ceiling")
        elif res == "p95":
            head = f"the p95 response of {many}" if len(items) > 1 else \
                f"the p95 response of VM {name}"
            parts.append(f"{head} at up to {with_unit(worst.value, 'ms')}, over the"
                         f" {with_unit(worst.limit, 'ms')} ceiling")
        elif res == "memory":
            head = f"host memory on {many}" if len(items) > 1 else \
                f"the memory of host {name}"
            up = "up to " if len(items) > 1 else ""
            parts.append(f"{head} over-committed ({up}{percent(worst.value)})")
        else:
            parts.append(f"{resource_phrase(design, worst.component, res)} past 100 %"
                         f" ({percent(worst.value)})")
    return BREAKS + "; ".join(parts) + "."


def _alike(p: Prediction, r: Resource) -> str:
    """`` (and 35 more VMs alike)`` when other components' same resource is as busy."""
    n = len(alike(p, r)) - 1
    if n <= 0:
        return ""
    kind = resource_words(r.resource).kind
    if not kind:
        return f" (and {n:,} more alike)"
    return f" (and {kind_count(kind, n, 'more')} alike)"


def binds(design: Design, p: Prediction) -> str:
    sentences = []
    refusals = [w.removeprefix("error:").strip() for w in p.warnings if w.startswith("error:")]
    if refusals:
        sentences.append("The design cannot run as it stands: "
                         + plain(refusals[0], design).rstrip(".") + ".")
    r = binding_resource(p)
    if r is None:
        sentences.append("No resource is reported busy.")
    else:
        what = resource_phrase(design, r.component, r.resource)
        why = explanation(design, r.component, r.explanation)
        why = f" ({why})" if why else ""
        low = what + _alike(p, r)
        what = low[0].upper() + low[1:]
        if r.util >= SATURATED:
            sentences.append(f"{what} is saturated{why}.")
        elif r.util >= BUSY:
            sentences.append(f"{what} binds first, at {percent(r.util)} busy{why}.")
        else:
            sentences.append(f"Nothing is near its limit: the busiest resource, {low}, is"
                             f" {percent(r.util)} busy.")
    storage = vsan.binds_text(p)  # vSAN storage or its policy's minimum sets the hosts
    if storage:
        sentences.append(storage)
    breach = _breaches(design, p)
    if breach:
        sentences.append(breach)
    return " ".join(sentences)


# --------------------------------------------------------------------------- action


def _change(design: Design, p: Prediction, remedy: Remedy) -> str:
    k = remedy.lever.knob
    lower = in_sentence(prop_text(k.kind, k.prop))
    sel = [o.select for o in remedy.overrides]
    if len(sel) == 1:
        where = target_text(design, sel[0])
    else:
        hosts = len(alike(p, remedy.resource))
        host = component_name(design, remedy.resource.component)
        of = f" of host {host}" if hosts == 1 else f" of the {kind_count('host', hosts)}"
        where = f"the {kind_count(k.kind, len(sel))}" + (
            of if remedy.lever.target.startswith("host_") else "")
    after = prop_value(k.kind, k.prop, remedy.after)
    before = prop_value(k.kind, k.prop, remedy.before)
    if isinstance(remedy.after, bool):
        return f"turning {'on' if remedy.after else 'off'} {lower} on {where}"
    if isinstance(remedy.after, str):
        return f"setting {lower} to {after} on {where}"
    if k.unit in SINGULAR and lower.split()[-1].startswith(SINGULAR[k.unit]):
        return f"giving {where} {after} instead of {before}"  # drives, vCPUs
    return f"raising {lower} on {where} from {before} to {after}"


def _effect(design: Design, remedy: Remedy) -> str:
    r = remedy.resource
    what = resource_phrase(design, r.component, r.resource)
    util = remedy.util_after
    if util is None:
        relief = f"bring {what} off the list of busy resources"
    elif util >= SATURATED:
        relief = f"{what} would still be the limit"
    else:
        relief = f"bring {what} to {percent(util)} busy"
    kpi = remedy.kpi
    if kpi is not None:
        cell = judge(kpi, remedy.kpi_after, remedy.kpi_before)
        if cell.change == "better":
            verb = "raise" if (cell.delta or 0) > 0 else "lower"
            return (f"{verb} {kpi_phrase(kpi)} from"
                    f" {kpi.text(remedy.kpi_before)} to"
                    f" {kpi.text(remedy.kpi_after)}"
                    f" ({signed_percent(cell.rel)})"
                    + (f"; {relief}" if relief.endswith("limit") else f" and {relief}"))
    return relief


def _lead(design: Design, p: Prediction, remedy: Remedy | None) -> str:
    """The change the engine found to relieve the binding resource, or that none of those
    it tries does (empty when the resource is not busy enough to look for one)."""
    if remedy is not None:
        return (f"Headroom computes that {_change(design, p, remedy)} would"
                f" {_effect(design, remedy)}.")
    r = binding_resource(p)
    if r is not None and worth_relieving(design, r):
        tried = sorted({in_sentence(lv.knob.label)
                        for lv in tried_levers(r.resource) if lv.knob.applies_to(design)})
        name = resource_name(r.resource)
        if tried:
            return (f"None of the changes Headroom tries on the {name} ("
                    + ", ".join(tried) + ") relieves it; the scenarios below show other"
                    " settings.")
        return (f"Headroom has no design change to try on the {name}; the scenarios below"
                " show other settings.")
    return ""


def _short(p: Prediction) -> list[ClusterCapacity]:
    """The clusters (or the hosts in no cluster) with fewer hosts than their policy and HA
    admission control need: the capacity section's count, which the dashboard's cluster
    headroom and the report's listing read."""
    cap = p.sections.capacity
    return [c for c in (cap.clusters if cap is not None else []) if c.short_by_hosts]


def _shortfall(design: Design, p: Prediction, failure: Failures | None) -> str:
    """Where to add hosts: each cluster short of what its policy needs."""
    rows = _short(p)
    if not rows:
        return ""

    def needs(c: ClusterCapacity) -> str:
        held = f", {counted(c.reserve_hosts, 'host')} held for HA" if c.reserve_hosts else ""
        return f"{counted(c.hosts_needed or 0, 'host')}{held}"

    breaks = room_breaks(failure) & {c.id for c in rows}
    there = " As it stands, a host failure there breaks the policy (If a host fails, above)." \
        if breaks else ""
    if len(rows) == 1:
        c = rows[0]
        add = counted(c.short_by_hosts or 0, "host")
        if not c.id and c.name == "design":  # no clusters: the design's own count
            return (f"Add {add}, or lighten the load: under its policy the VMs need"
                    f" {needs(c)}, and it has {c.hosts:,}.{there}")
        if not c.id:
            return (f"Add {add} to the hosts in no cluster, or move VMs off them: under its"
                    f" policy they need {needs(c)}, and they are {c.hosts:,}.{there}")
        return (f"Add {add} to cluster {c.name}, or move VMs out of it: under its policy it"
                f" needs {needs(c)}, and it has {c.hosts:,}.{there}")
    shown = [f"{counted(c.short_by_hosts or 0, 'host')} to "
             + (f"cluster {c.name}" if c.id else "the hosts in no cluster")
             + f" (it needs {needs(c)}, and has {c.hosts:,})" for c in rows[:3]]
    more = f", and hosts to {counted(len(rows) - 3, 'more cluster')}" if len(rows) > 3 else ""
    return ("Add hosts where the policy needs them, or move VMs away: " + "; ".join(shown)
            + more + "." + there)


def _breach_action(design: Design, found: list[Breach]) -> str:
    """What to do about a breach nothing else in What to do addresses."""
    b = max(found, key=lambda x: x.value / x.limit if x.limit else math.inf)
    name = component_name(design, b.component)
    if b.resource in ("cpu", "memory"):
        what = "CPU" if b.resource == "cpu" else "memory"
        return (f"Move load off host {name}, or give it more {what}: its {what} is at"
                f" {percent(b.value)}, over its policy's {percent(b.limit)} ceiling.")
    if b.resource == "p95":
        return (f"Bring the p95 response of VM {name} ({with_unit(b.value, 'ms')}) under its"
                f" policy's {with_unit(b.limit, 'ms')} ceiling.")
    res = "storage_array" if b.resource == "array" else b.resource
    return (f"Relieve {resource_phrase(design, b.component, res)}: it is past 100 %"
            f" ({percent(b.value)}).")


ROOM_VMS = 20_000
"""The most VMs whose room the summary seeks (a goal seek copies every VM k times over:
past this an estate's What to do says nothing needs to change without the figure)."""


def _room(design: Design, p: Prediction) -> str:
    """The room the policy leaves, as goal seek finds it (``headroom seek --goal vms``,
    Analysis > Goal seek's most VMs per host): ``every host can run up to 36 VMs of the
    design's mix within the policy, against 22.4 a host now (goal seek: host memory binds
    first)``; empty where there is nothing to seek or it finds no answer."""
    vms, hosts = len(p.vms.ids), len(p.hosts.ids)
    if not vms or not hosts or vms > ROOM_VMS:
        return ""
    try:
        found = seek(design, "vms")
    except (DesignError, ArithmeticError, ValueError):
        return ""
    if found.value is None:
        return ""
    c = p.consolidation  # the dashboard's "at most 4 by CPU": the consolidation model's
    ceilings = [(n, k) for n, k in ((c.max_vms_per_host_by_cpu, "cpu"),
                                    (c.max_vms_per_host_by_p95, "p95")) if n is not None]
    if ceilings and min(ceilings)[0] < found.value:  # a ceiling seek does not count
        most, key = min(ceilings)
        why = ": a physical core for each latency-sensitive vCPU" if key == "cpu" and any(
            v.get("latency_sensitivity") == "high" for v in design.of_kind("vm")) else ""
        return (f"by {limit_text(key, phrase=True)} a host holds at most"
                f" {counted(most, 'VM')} of the design's mix, against {number(vms / hosts)} a"
                f" host now (VMs per host on the dashboard{why}; goal seek, which counts the"
                f" policy's utilisation ceilings alone, finds {found.value:,})")
    verb = "bind" if "+" in found.binding else "binds"
    binds = f": {limit_text(found.binding, phrase=True)} {verb} first" if found.binding else ""
    return (f"every host can run up to {counted(found.value, 'VM')} of the design's mix within"
            f" the policy, against {number(vms / hosts)} a host now (goal seek{binds})")


def action(design: Design, p: Prediction, remedy: Remedy | None,
           failure: Failures | None = None) -> str:
    """What to do: the change that relieves the binding resource, the hosts each cluster
    short of its policy needs, what a host failure needs, a breach nothing else addresses;
    "Nothing needs to change" only where none of these applies and no host failure leaves
    VMs down (where one does by the design's choice, HA off, it says so first)."""
    lead = _lead(design, p, remedy)
    short = _shortfall(design, p, failure)
    fails = action_text(design, failure, {c.id for c in _short(p)})
    found = breaches(design, p)
    parts = [t for t in (lead, short, fails) if t]
    if found and not lead:
        parts.append(_breach_action(design, found))
    if parts:
        return " ".join(parts)
    room = vsan.room_text(p) or _room(design, p)  # the storage that sets the hosts first
    chosen = choice_action(design, failure)
    if chosen:
        return f"{chosen} Otherwise the load needs no change" + (f": {room}." if room else ".")
    return f"Nothing needs to change: {room}." if room else "Nothing needs to change."


# --------------------------------------------------------------------------- scenarios


def scenarios(design: Design, cmp: Comparison) -> str:
    names = [c.name for c in cmp.columns[1:]]
    if not names:
        return ""
    sentences = []
    base = cmp.columns[0].prediction
    kpi = headline(base) if base is not None else None
    row = cmp.row(kpi.key) if kpi is not None else None
    if kpi is not None and row is not None:
        title = kpi_phrase(kpi)
        cells = [(names[i - 1], c) for i, c in enumerate(row.cells) if i]
        good = [nc for nc in cells if nc[1].change == "better"]
        bad = [nc for nc in cells if nc[1].change == "worse"]
        sign = 1.0 if row.higher_is_better else -1.0
        if good:
            n, c = max(good, key=lambda nc: sign * (nc[1].delta or 0.0))
            sentences.append(f"Against the base design, ‘{n}’ improves {title} most: "
                             f"{kpi.text(c.value)} ({cell_text(kpi, c)}).")
        if bad:
            n, c = min(bad, key=lambda nc: sign * (nc[1].delta or 0.0))
            if c.value is not None and math.isinf(c.value):
                sentences.append(f"‘{n}’ costs most: {title} saturates (the demand is past"
                                 " what the hosts can serve).")
            else:
                sentences.append(f"‘{n}’ costs most: {kpi.text(c.value)}"
                                 f" ({cell_text(kpi, c)}).")
        same = [n for n, c in cells if c.change == "same"]
        if same and len(same) < len(cells):
            sentences.append(f"{quoted(same)} leave{'s' if len(same) == 1 else ''} it"
                             " unchanged.")
        elif same:
            sentences.append(f"None of the {counted(len(cells), 'scenario')} changes {title}."
                             if len(cells) > 1 else f"The scenario leaves {title} unchanged.")
    changed = sum(1 for i in range(1, len(cmp.columns))
                  if any(r.cells[i].change not in ("same", "none") for r in cmp.rows))
    if changed < len(names):
        idle = len(names) - changed
        sentences.append(f"{idle:,} of the {counted(len(names), 'scenario')}"
                         f" change{'s' if idle == 1 else ''} none of the figures compared."
                         if len(names) > 1 else
                         "The scenario changes none of the figures compared.")
    for col in cmp.columns[1:]:
        if col.error:
            sentences.append(f"‘{col.name}’ could not be evaluated: {col.error}.")
        elif col.refusals:
            why = plain(col.refusals[0].removeprefix("error:").strip(), design).rstrip(".")
            sentences.append(f"‘{col.name}’ cannot run: {why}.")
    return " ".join(sentences)


def _refresh(design: Design, cmp: Comparison) -> str:
    """What each refresh does (:func:`models.report.refresh.summary`), never that its new
    hosts meet the policy beside a breach: where the refreshed design breaks its policy all
    the same (one host over-committed while the cluster has the hosts it needs), the
    sentence says how."""
    return refresh.summary(design, cmp,
                           lambda d, p: _breaches(d, p).removeprefix(BREAKS).rstrip("."))


def summarise(design: Design, scenario: str, p: Prediction, cmp: Comparison,
              remedy: Remedy | None, failure: Failures | None = None) -> Summary:
    """The executive summary of ``p`` (the prediction of ``design`` in ``scenario``);
    ``failure`` is the host failure of that design the report ran (None: not run, and the
    summary says nothing of it)."""
    try:
        effective = apply_scenario(design, scenario)
    except DesignError:  # a scenario renamed away: name components as the base design does
        effective = design
    return Summary(achieves(effective, scenario, p), binds(effective, p),
                   action(effective, p, remedy, failure), scenarios(design, cmp),
                   _refresh(design, cmp), summary_text(effective, failure))

