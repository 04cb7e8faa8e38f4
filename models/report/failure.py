"""Host failure in the report: each host failed in turn by
:func:`models.analysis.host_failure` (what ``headroom failure`` and Analysis > Host failure
run), once per report, and what it says in words: the summary's paragraph, what to do about
it, and the rows of the report's host-failure page.  The summary, What to do and the page all
read the one :class:`Failures` that :func:`run` returns.

A failure that leaves VMs down because their cluster has vSphere HA off, or because the
design has one host, is the design's choice: it is said plainly, apart from the failures that
break the policy where HA should have restarted the VMs.

Host failure evaluates the design once per host; on a large estate the report bounds it
(:data:`FAILURE_BUDGET`) and says which hosts it failed.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from models.analysis.common import Breach
from models.analysis.failure import FailureReport, FailureResult, host_failure, sites_with_hosts
from models.core.compiled import Compiled
from models.core.prediction import Prediction
from models.document.design import Design
from models.document.numbers import RESOLUTION, counted, percent, with_unit
from models.engine.evaluation import run as evaluate_compiled
from models.report.wording import component_name, resource_phrase

FAILURE_BUDGET = 200_000
"""The VMs the report evaluates for host failure: every host fails in turn while hosts x VMs
stays within it (the 805-VM RVTools estate's 34 hosts: about 26,000; 0.2 s per failure at
20,000 VMs); past it, the busiest hosts of each cluster (:func:`hosts_to_fail`), as many as
the budget allows and at least :data:`MIN_TRIED`."""
MIN_TRIED = 8
"""The fewest host failures the report tries on a large estate."""
PER_GROUP = 2
"""On a large estate, the busiest hosts of each cluster failed by CPU and again by memory: the
busiest host failing loads the next busiest, the next busiest failing loads the busiest."""
CAPACITY = ("cpu", "memory", "p95", "array", "nic")
"""Breaches of a limit (the others: a VM that cannot restart, an FT VM left unprotected)."""

Tick = Callable[[int, int], None]
"""``tick(done, total)``: called before each evaluation; may raise to stop."""


@dataclass
class Failures:
    """One host-failure run of the reported design, and what the report needs to word it."""

    report: FailureReport
    hosts: int
    """Hosts in the design."""
    every: bool
    """Every host failed in turn (as ``headroom failure`` does); else the busiest hosts of
    each cluster (:func:`hosts_to_fail`)."""
    cluster_of: dict[str, str]
    """Host -> the cluster it is in."""
    ha_off: set[str]
    """The clusters whose vSphere HA is off."""

    @property
    def survives(self) -> bool:
        """:attr:`FailureReport.survives`: no host failure tried adds a breach."""
        return self.report.survives

    @property
    def tried(self) -> list[FailureResult]:
        """The host failures (not the sites)."""
        return [f for f in self.report.failures if not f.site]

    def by_choice(self, f: FailureResult) -> bool:
        """``f`` breaks only by leaving VMs down where the design chose no restart: their
        cluster has HA off, or the design has no other host."""
        return bool(f.new_breaches) and all(b.resource == "restart" for b in f.new_breaches) \
            and (self.cluster_of.get(f.host) in self.ha_off or self.hosts == 1)

    @property
    def breaking(self) -> list[FailureResult]:
        """The host failures that break the policy where HA should restart the VMs."""
        return [f for f in self.tried if f.new_breaches and not self.by_choice(f)]

    @property
    def chosen(self) -> list[FailureResult]:
        """The host failures that leave VMs down by the design's choice (:meth:`by_choice`)."""
        return [f for f in self.tried if self.by_choice(f)]

    @property
    def baseline(self) -> list[Breach]:
        """The intact design's breaches, as host failure found them (those the model can
        tell, :func:`told`)."""
        return told(self.report.baseline)


def told(breaches: list[Breach]) -> list[Breach]:
    """The breaches past what the model can tell apart (:data:`RESOLUTION`): a figure at its
    ceiling as printed is no breach to report."""
    return [b for b in breaches if b.value > b.limit * (1 + RESOLUTION)]


def hosts_to_fail(design: Design, p: Prediction) -> list[str] | None:
    """The hosts the report fails in turn: None (every host, and every site as
    ``headroom failure`` does) while hosts x VMs stays within :data:`FAILURE_BUDGET`; else
    the :data:`PER_GROUP` busiest of each cluster (and of the hosts in no cluster) by CPU and
    by memory in ``p``, the busiest clusters first, as many as the budget allows."""
    hosts = [h.id for h in design.of_kind("host")]
    vms = max(len(design.of_kind("vm")), 1)
    room = max(MIN_TRIED, FAILURE_BUDGET // vms)
    if len(hosts) * vms <= FAILURE_BUDGET or room >= len(hosts):
        return None
    index = {h: i for i, h in enumerate(p.hosts.ids)}
    cpu = np.nan_to_num(np.asarray(p.hosts.cpu_util, dtype=float), nan=-1.0)
    mem = np.nan_to_num(np.asarray(p.hosts.memory_util, dtype=float), nan=-1.0)

    def util(h: str, of: np.ndarray) -> float:
        i = index.get(h)
        return float(of[i]) if i is not None else -1.0

    cluster_of = _clusters(design)
    groups: dict[str | None, list[str]] = {}
    for h in hosts:
        groups.setdefault(cluster_of.get(h), []).append(h)
    picks: list[list[str]] = []
    for members in groups.values():
        by_cpu = sorted(members, key=lambda h: -util(h, cpu))[:PER_GROUP]
        by_mem = sorted(members, key=lambda h: -util(h, mem))[:PER_GROUP]
        order: list[str] = []
        for h in (x for pair in zip(by_cpu, by_mem, strict=True) for x in pair):
            if h not in order:
                order.append(h)
        picks.append(order)
    picks.sort(key=lambda order: -max(max(util(h, cpu), util(h, mem)) for h in order))
    chosen: list[str] = []
    for rank in range(2 * PER_GROUP):  # round robin: every cluster's busiest first
        chosen += [order[rank] for order in picks if rank < len(order)]
    keep = set(chosen[:room])
    return [h for h in hosts if h in keep]


def _clusters(design: Design) -> dict[str, str]:
    return {lk.source: lk.target for lk in design.links if lk.kind == "in_cluster"}


def run(design: Design, p: Prediction, tick: Tick | None = None) -> Failures | None:
    """Host failure of ``design`` (the reported scenario applied; ``p`` its prediction, which
    picks the hosts on a large estate); None for a design without hosts or VMs."""
    hosts = design.of_kind("host")
    if not hosts or not design.of_kind("vm"):
        return None
    chosen = hosts_to_fail(design, p)
    sites: list[str] | None = None if chosen is None else []
    total = 1 + (len(hosts) if chosen is None else len(chosen)) + (
        len(sites_with_hosts(design)) if chosen is None else 0)
    done = 0

    def evaluate(c: Compiled) -> Prediction:
        nonlocal done
        if tick is not None:
            tick(done, total)
        done += 1
        return evaluate_compiled(c)

    rep = host_failure(design, chosen, sites=sites, evaluate=evaluate)
    ha_off = {c.id for c in design.of_kind("cluster") if c.get("ha_enabled") is False}
    return Failures(rep, len(hosts), chosen is None, _clusters(design), ha_off)


# --------------------------------------------------------------------------- in words


def _name(design: Design, cid: str) -> str:
    return component_name(design, cid)


def _join(names: list[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _ratio(b: Breach) -> float:
    return b.value / b.limit if b.limit > 0 else math.inf


def breach_phrase(design: Design, b: Breach, who: str = "", up: bool = False) -> str:
    """A limit a failure passes, as a sentence names it: ``the CPU of host esx01 reaches
    98 %, over the 90 % ceiling`` (``who``: the components named instead of ``b``'s; ``up``:
    the figure is the highest of several)."""
    upto = "up to " if up else ""
    if b.resource == "p95":
        who = who or f"VM {_name(design, b.component)}"
        return (f"the p95 response of {who} reaches {upto}{with_unit(b.value, 'ms')}, over"
                f" the {with_unit(b.limit, 'ms')} ceiling")
    if b.resource in ("cpu", "memory"):
        what = "CPU" if b.resource == "cpu" else "memory"
        who = who or f"host {_name(design, b.component)}"
        return (f"the {what} of {who} reaches {upto}{percent(b.value)}, over the"
                f" {percent(b.limit)} ceiling")
    res = "storage_array" if b.resource == "array" else b.resource
    return f"{resource_phrase(design, b.component, res)} passes 100 % ({percent(b.value)})"


def _limits_phrase(design: Design, limits: list[Breach]) -> str:
    """The limits one failure passes, alike ones together: ``the CPU of hosts esx01 and esx02
    reaches up to 98.4 %, over the 90 % ceiling``; two kinds at most."""
    by: dict[str, list[Breach]] = {}
    for b in sorted(limits, key=lambda b: -_ratio(b)):
        by.setdefault(b.resource, []).append(b)
    parts = []
    for items in list(by.values())[:2]:
        worst = items[0]
        if len(items) == 1 or worst.resource not in ("cpu", "memory", "p95"):
            parts.append(breach_phrase(design, worst))
            continue
        names = [_name(design, b.component) for b in items[:2]]
        many = "VMs" if worst.resource == "p95" else "hosts"
        who = f"{many} {_join(names)}" if len(items) == 2 else \
            f"{many} {', '.join(names)} and {counted(len(items) - 2, 'more')}"
        parts.append(breach_phrase(design, worst, who, up=True))
    more = len(by) - 2
    tail = f" (and {counted(more, 'more limit')})" if more > 0 else ""
    return ", and ".join(parts) + tail


def what_breaks(design: Design, f: FailureResult) -> str:
    """What one failure breaks, worst first: ``HA restarts its 4 VMs and the CPU of host
    esx01 reaches 98 %, over the 90 % ceiling; 1 VM cannot restart``."""
    new = f.new_breaches
    limits = [b for b in new if b.resource in CAPACITY]
    parts = []
    if limits:
        moved = len(f.restarted)
        head = f"HA restarts its {counted(moved, 'VM')} and " if moved else ""
        parts.append(head + _limits_phrase(design, limits))
    down = sum(b.resource == "restart" for b in new)
    if down:
        them = "it" if down == 1 else "them"
        parts.append(f"{counted(down, 'VM')} cannot restart (no surviving host can take"
                     f" {them})")
    bare = sum(b.resource == "ft" for b in new)
    if bare:
        parts.append(f"{counted(bare, 'FT VM')} " + ("is" if bare == 1 else "are")
                     + " left without a secondary")
    return "; ".join(parts)


def _worst(fs: list[FailureResult]) -> FailureResult:
    """The failure that passes a limit furthest (else the one that leaves most VMs down)."""
    def key(f: FailureResult) -> tuple[float, int]:
        ratios = [_ratio(b) for b in f.new_breaches if b.resource in CAPACITY]
        return (max(ratios, default=0.0), len(f.new_breaches))
    return max(fs, key=key)


def _where(design: Design, fl: Failures, fs: list[FailureResult]) -> list[str]:
    """The clusters the failures ``fs`` are in, by name (``the hosts in no cluster``)."""
    out: list[str] = []
    for f in fs:
        cid = fl.cluster_of.get(f.host)
        name = f"cluster {_name(design, cid)}" if cid is not None else (
            "the hosts in no cluster" if fl.cluster_of else "")
        if name not in out:
            out.append(name)
    return out


def _busiest(design: Design, fs: list[FailureResult]) -> str:
    """``; at worst, when esx00 fails, esx01 runs at 64 % CPU and 25 % memory``: the
    busiest host after the restarts, over the failures ``fs``."""
    worst: tuple[float, str, str, float, float] | None = None
    for f in fs:
        b = f.busiest_after()
        if b is None:
            continue
        h, cpu, mem = b
        score = max(x if math.isfinite(x) else -1.0 for x in (cpu, mem))
        if worst is None or score > worst[0]:
            worst = (score, f.host, h, cpu, mem)
    if worst is None or worst[0] < 0:
        return ""
    _, failed, host, cpu, mem = worst
    return (f"; at worst, when {_name(design, failed)} fails, {_name(design, host)} runs at"
            f" {percent(cpu)} CPU and {percent(mem)} memory")


def _scope(fl: Failures) -> str:
    """``its 3 hosts`` or ``the 10 busiest of its 1,000 hosts``."""
    n = len(fl.tried)
    if fl.every:
        return f"its {counted(n, 'host')}"
    return f"the {n:,} busiest of its {counted(fl.hosts, 'host')}"


def _chosen_text(design: Design, fl: Failures) -> str:
    """The VMs a host failure leaves down by the design's choice, in a sentence."""
    chosen = fl.chosen
    if not chosen:
        return ""
    worst = max(chosen, key=lambda f: len(f.not_restarted))
    down = len(worst.not_restarted)
    if fl.hosts == 1:
        its = "its VM stays" if down == 1 else f"its {counted(down, 'VM')} stay"
        return f"It has one host: if it fails, {its} down until it is back."
    names = [_name(design, c) for c in sorted({fl.cluster_of[f.host] for f in chosen})]
    who = (f"Cluster {names[0]} has" if len(names) == 1
           else f"Clusters {_join(names)} have")
    vms = "its VMs" if len(names) == 1 else "their VMs"
    return (f"{who} HA off: a host failure leaves {vms} down until the host is back"
            f" (up to {counted(down, 'VM')}, when {_name(design, worst.host)} fails).")


def summary_text(design: Design, fl: Failures | None) -> str:
    """The summary's paragraph on host failure (the first lines of the report's host-failure
    page too): whether the design survives one, the worst case, and the VMs the design
    chose to leave down (HA off)."""
    if fl is None or not fl.tried:
        return ""
    sentences = []
    breaking = fl.breaking
    n = len(fl.tried)
    of = f"{n:,}" if fl.every else f"the {n:,} tried"
    if breaking:
        where = [w for w in _where(design, fl, breaking) if w]
        there = f" in {_join(where)}" if where and len(where) <= 3 else ""
        verb = "breaks" if len(breaking) == 1 else "break"
        worst = _worst(breaking)
        which = (f"A failure of any one of {_scope(fl)} breaks" if len(breaking) == n > 1
                 else f"{counted(len(breaking), 'host failure')} of {of} {verb}")
        sentences.append(f"{which} the policy{there}; the worst, when"
                         f" {_name(design, worst.host)} fails: {what_breaks(design, worst)}.")
    chosen = _chosen_text(design, fl)
    if chosen:
        sentences.append(chosen)
    ok = [f for f in fl.tried if not f.new_breaches]
    if not breaking and not chosen:
        busiest = _busiest(design, ok)
        if fl.baseline:
            sentences.append(f"A failure of any one of {_scope(fl)} adds no breach to those"
                             f" it already has (HA restarts its VMs on the others){busiest}.")
        else:
            sentences.append(f"Any one of {_scope(fl)} can fail: HA restarts its VMs on the"
                             f" others within the policy{busiest}.")
    elif ok and chosen and not breaking and fl.hosts > 1 and any(
            fl.cluster_of.get(f.host) not in fl.ha_off for f in ok):
        sentences.append("Elsewhere the policy holds when a host fails and HA restarts its"
                         " VMs.")
    return " ".join(sentences)


def _reason(fl: Failures, f: FailureResult) -> str:
    """Why ``f`` breaks: ``room`` (a limit passed), ``ft`` (an FT VM left without a
    secondary), ``alone`` (a VM whose cluster has no other host) or ``paths`` (a VM whose
    other hosts cannot reach its storage)."""
    kinds = {b.resource for b in f.new_breaches}
    if kinds & set(CAPACITY):
        return "room"
    if "restart" not in kinds:
        return "ft"
    cid = fl.cluster_of.get(f.host)  # a host in no cluster restarts on any (the analysis's)
    others = [h for h in f.vms_after if cid is None or fl.cluster_of.get(h) == cid]
    return "paths" if others else "alone"


def room_breaks(fl: Failures | None) -> set[str]:
    """The clusters (``""``: the hosts in no cluster) where a host failure passes a limit or
    finds no other host: more hosts there answer it."""
    if fl is None:
        return set()
    return {fl.cluster_of.get(f.host) or "" for f in fl.breaking if _reason(fl, f) != "paths"}


def action_text(design: Design, fl: Failures | None, short: set[str]) -> str:
    """What to do so that a host failure breaks nothing where HA should restart the VMs
    (empty when none does); ``short`` holds the clusters (``""``: the hosts in no cluster)
    the shortfall sentence already asks hosts for, which need no more hosts asked here."""
    if fl is None:
        return ""
    where: dict[str, list[str | None]] = {}
    for f in fl.breaking:
        cid = fl.cluster_of.get(f.host)
        why = _reason(fl, f)
        if (why != "paths" and (cid or "") in short) or cid in where.get(why, []):
            continue
        where.setdefault(why, []).append(cid)

    def clusters(cids: list[str | None], lead: str) -> str:
        """`` in clusters A and B`` (nothing where a host in no cluster is among them)."""
        if None in cids:
            return ""
        names = sorted(_name(design, c) for c in cids if c is not None)
        noun = "cluster" if len(names) == 1 else "clusters"
        return f"{lead}{noun} {_join(names)}"

    words = {
        "room": lambda c: f"make room{clusters(c, ' in ')} for a failed host's VMs (a host"
                          " more, or less load)",
        "ft": lambda c: f"add a host{clusters(c, ' in ')} where FT can place a new secondary",
        "alone": lambda c: (f"give {clusters(c, '')} a second host for HA to restart"
                            " VMs on" if None not in c else
                            "add a host for a failed host's VMs to restart on"),
        "paths": lambda c: f"give the other hosts{clusters(c, ' of ')} a path to the"
                           " datastores of the VMs that cannot restart",
    }
    parts = [words[why](cids) for why, cids in where.items()]
    if not parts:
        return ""
    return "So that a host failure breaks nothing, " + "; ".join(parts) + "."


def choice_action(design: Design, fl: Failures | None) -> str:
    """The design's choice to leave VMs down, as What to do mentions it where nothing else
    needs doing."""
    if fl is None or not fl.chosen:
        return ""
    if fl.hosts == 1:
        return "Add a second host if its VMs must restart when this one fails."
    names = sorted({_name(design, fl.cluster_of[f.host]) for f in fl.chosen})
    where = f"cluster {names[0]}" if len(names) == 1 else f"clusters {_join(names)}"
    vms = "its VMs" if len(names) == 1 else "their VMs"
    return f"Turn on vSphere HA in {where} if {vms} must restart when their host fails."


# --------------------------------------------------------------------------- the page


@dataclass(frozen=True)
class FailureRow:
    """One failure as the report's host-failure page lists it."""

    fails: str
    """The host (``site X (3 hosts)`` for a site)."""
    restarted: int
    """VMs HA restarts elsewhere."""
    new: int
    """Breaches that were not there before the failure."""
    busiest: str
    """The busiest host after the restarts, with its CPU and memory."""
    breaks: str
    """What breaks, in words (``nothing``)."""
    tone: str
    """``breaks``, ``choice`` (VMs left down by HA off, or one host) or ``ok``."""


def rows(design: Design, fl: Failures) -> list[FailureRow]:
    """Every failure tried: those that break the policy first (the worst first), then those
    that leave VMs down by the design's choice, then the rest, then the sites."""
    def row(f: FailureResult) -> FailureRow:
        b = f.busiest_after()
        busiest = (f"{_name(design, b[0])}: CPU {percent(b[1])}, memory {percent(b[2])}"
                   if b is not None else "no host left")
        fails = (f"site {_name(design, f.host)} ({counted(len(f.failed), 'host')})"
                 if f.site else _name(design, f.host))
        if not f.new_breaches:
            return FailureRow(fails, len(f.restarted), 0, busiest, "nothing", "ok")
        if fl.by_choice(f) and not f.site:
            down = len(f.not_restarted)
            why = "one host" if fl.hosts == 1 else "HA off"
            stay = "stays" if down == 1 else "stay"
            return FailureRow(fails, len(f.restarted), len(f.new_breaches), busiest,
                              f"{counted(down, 'VM')} {stay} down ({why})", "choice")
        return FailureRow(fails, len(f.restarted), len(f.new_breaches), busiest,
                          what_breaks(design, f), "breaks")

    def worst_first(f: FailureResult) -> tuple[int, float, int]:
        ratios = [_ratio(b) for b in f.new_breaches if b.resource in CAPACITY]
        rank = 0 if f.new_breaches and not fl.by_choice(f) else 1 if f.new_breaches else 2
        return (rank, -max(ratios, default=0.0), -len(f.new_breaches))

    hosts = sorted(fl.tried, key=worst_first)
    return [row(f) for f in hosts] + [row(f) for f in fl.report.sites]


def method_text(fl: Failures) -> str:
    """How the page's failures were chosen: every host as ``headroom failure`` fails them,
    or on a large estate the busiest of each cluster."""
    n, sites = len(fl.tried), len(fl.report.sites)
    if fl.every:
        then = f", then each of its {counted(sites, 'site')}" if sites else ""
        return (f"Each of its {counted(n, 'host')} failed in turn{then}, as headroom failure"
                " does: HA restarts the VMs on the other hosts of their cluster")
    return (f"The {n:,} busiest of its {counted(fl.hosts, 'host')} failed in turn (in each"
            " cluster the busiest by CPU and by memory); headroom failure fails every one")


def policy_text(fl: Failures, response: bool) -> str:
    """``Policy: host CPU up to 90 %, host memory up to 100 %`` (the p95 ceiling where a
    latency or a response bears on the design), and the breaches already there."""
    pol = fl.report.policy
    parts = [f"host CPU up to {percent(pol.get('cpu_util_max', math.nan))}",
             f"host memory up to {percent(pol.get('memory_util_max', 1.0))}"]
    if response:
        parts.append(f"p95 up to {with_unit(pol.get('p95_ms_max', math.nan), 'ms')}")
    text = "Policy: " + ", ".join(parts) + "."
    if fl.baseline:
        text += (f" {counted(len(fl.baseline), 'breach', 'breaches')} already before any"
                 " failure (What binds, on the first page).")
    return text
