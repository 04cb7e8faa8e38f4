"""A hardware refresh in the report: each scenario that rebuilds the hosts (a refresh, kept
with ``headroom refresh -o`` or the app's Analysis > Refresh) beside the base design, the
same figures before and after (hosts, hosts needed, mean host CPU and memory, latency where
measured, licensed cores, the binding limit), each cluster it rebuilds before and after with
what set its count, in words, and in sentences for the summary.

What set a cluster's count is read from the scenario's prediction (the capacity section's
binding, hosts needed and reserve, and the hosts it has against those needed) through
:func:`models.analysis.refresh.capacity_sizing` and
:meth:`~models.analysis.refresh.Sizing.text`, what ``headroom refresh`` starts from and says:
the report and the command read a count alike (hosts the refresh's placement checks added
beyond the capacity model's count are said as the refresh's: the prediction does not tell
which check added them)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from models.analysis.refresh import (
    RESTART,
    Side,
    capacity_sizing,
    changed_settings,
    ha_on,
    rows,
    side,
)
from models.core.prediction import Prediction
from models.core.sections import ClusterCapacity
from models.document.design import Design, DesignError, Rebuild, apply_scenario
from models.document.numbers import counted, percent, with_unit
from models.engine.kpis import limit_text
from models.report.compare import Comparison

NO_FIT = "a VM fits on none of its hosts"
"""Why a cluster has no count: the capacity model's None."""


@dataclass(frozen=True)
class ClusterChange:
    """One cluster (or the hosts in no cluster) a rebuild changes, before and after, in
    words."""

    name: str
    hosts: tuple[int, int]
    hosts_needed: tuple[int | None, int | None]
    cpu_util_mean: tuple[float | None, float | None]
    """Mean host CPU, fractions: the cluster's CPU demand over its capacity."""
    memory_util_mean: tuple[float | None, float | None]
    licensed_cores: tuple[int, int]
    why: str
    """What set the count after the rebuild: ``host memory sets 7 hosts for the load; HA
    adds 1 (admission control reserves 1 host)``."""

    @property
    def cells(self) -> list[str]:
        """Cluster, hosts, hosts needed, mean host CPU and memory, licensed cores (each
        ``before → after``), and why the count."""
        def two(pair: tuple[object, object], text: Callable[[object], str]) -> str:
            return f"{text(pair[0])} → {text(pair[1])}"

        def num(x: object) -> str:
            return "–" if x is None else f"{x:,}"

        def pct(x: object) -> str:
            return percent(x) if isinstance(x, float) else "–"

        return [self.name, two(self.hosts, num), two(self.hosts_needed, num),
                two(self.cpu_util_mean, pct), two(self.memory_util_mean, pct),
                two(self.licensed_cores, num), self.why]


CLUSTER_COLUMNS = ("Cluster", "Hosts", "Hosts needed", "Host CPU (mean)",
                   "Host memory (mean)", "Licensed cores", "What sets the count")
"""The columns of :attr:`ClusterChange.cells`."""


def count_text(design: Design, p: Prediction, row: ClusterCapacity, refreshed: bool = True
               ) -> str:
    """What set ``row``'s count in prediction ``p`` of ``design`` (the scenario applied), in
    the words ``headroom refresh`` says it with (:func:`~models.analysis.refresh.capacity_sizing`
    and :meth:`~models.analysis.refresh.Sizing.text`): the capacity model's count, and the
    hosts the cluster has against it.  Hosts beyond it in a refresh (``refreshed``) are the
    refresh's, whose placed design holds there: which of its checks added them (a host over
    the policy as placed, a host's failure, a count that moves with the placement) the
    prediction does not tell, so they are said as the refresh's, not put down to one."""
    if row.hosts_needed is None:
        return NO_FIT
    sz = capacity_sizing(design, row.id, row, row.hosts_needed)
    text = sz.text()
    if row.hosts < sz.hosts:
        return f"{text}; it has {row.hosts:,}, {counted(sz.hosts - row.hosts, 'host')} short"
    more = row.hosts - sz.hosts
    if more <= 0:
        return text
    if not refreshed:
        return f"{text}; it has {row.hosts:,}, {counted(more, 'host')} more"
    ha = f" and {RESTART}" if ha_on(design, row.id) else ""
    return (f"{text}; the refresh adds {counted(more, 'host')} for the VMs as placed (every"
            f" host within the policy{ha})")


def _members(design: Design) -> dict[str, str]:
    """Host id -> its cluster's id (hosts in none: absent)."""
    return {lk.source: lk.target for lk in design.links if lk.kind == "in_cluster"}


def touched(design: Design, rb: Rebuild) -> list[str]:
    """The groups (cluster ids, ``""`` for the hosts in no cluster) whose hosts ``rb`` takes
    out or adds, in the base design's order."""
    before = _members(design)
    after = {lk.source: lk.target for lk in rb.links if lk.kind == "in_cluster"}
    found = {before.get(h, "") for h in rb.removed}
    found |= {after.get(c.id, before.get(c.id, "")) for c in rb.components if c.kind == "host"}
    order = [c.id for c in design.of_kind("cluster")] + [""]
    return [g for g in order if g in found]


def cluster_changes(design: Design, rb: Rebuild, before: Prediction, after: Prediction,
                    applied: Design, refreshed: bool = True) -> list[ClusterChange]:
    """Each group ``rb`` changes: its figures in ``before`` (the base design's prediction)
    and ``after`` (the scenario's, of ``applied``), and what set its count after
    (``refreshed``: ``rb`` is a refresh, whose placement checks may add hosts)."""
    def rows_of(p: Prediction) -> dict[str, ClusterCapacity]:
        cap = p.sections.capacity
        return {g.id: g for g in cap.clusters} if cap is not None else {}

    b_rows, a_rows = rows_of(before), rows_of(after)
    out = []
    for g in touched(design, rb):
        b, a = b_rows.get(g), a_rows.get(g)
        if a is None:
            continue
        out.append(ClusterChange(
            a.name if g or a.name != "design" else "hosts in no cluster",
            (b.hosts if b is not None else 0, a.hosts),
            (b.hosts_needed if b is not None else None, a.hosts_needed),
            (_mean_cpu(b), _mean_cpu(a)), (_mean_memory(b), _mean_memory(a)),
            (b.licensed_cores if b is not None else 0, a.licensed_cores),
            count_text(applied, after, a, refreshed)))
    return out


def _mean_cpu(row: ClusterCapacity | None) -> float | None:
    """As :func:`models.analysis.refresh.side` has it per cluster."""
    if row is None or not row.cpu_capacity_cores:
        return None
    return row.cpu_demand_cores / row.cpu_capacity_cores


def _mean_memory(row: ClusterCapacity | None) -> float | None:
    if row is None or not row.memory_capacity_gb:
        return None
    return row.memory_gb / row.memory_capacity_gb


@dataclass(frozen=True)
class RefreshView:
    scenario: str
    label: str
    """What the scenario's rebuild does ("34 hosts of ... replaced by 14 hosts of ...")."""
    before: Side
    after: Side
    changed: tuple[str, ...] = ()
    """Each host setting the refresh changed, in words (``Hyperthreading off -> on``)."""
    breaks: str = ""
    """What the refreshed design breaks of its policy, in words (empty: nothing)."""
    replaces: bool = True
    """The rebuild takes hosts out and brings others (a refresh); False where it only adds
    hosts or only takes some out (one host more, one host fewer): there are no new hosts to
    speak of, and no host setting it changes."""
    clusters: tuple[ClusterChange, ...] = ()
    """Each cluster the rebuild changes, before and after, and what set its count."""
    kept: tuple[str, ...] = ()
    """The clusters it leaves as they are, by name."""

    @property
    def rows(self) -> list[tuple[str, str, str]]:
        """(figure, base design, the refresh) in words."""
        return rows(self.before, self.after)

    @property
    def sentence(self) -> str:
        """The refresh in one sentence, its figures the engine's."""
        b, a = self.before, self.after
        text = (f"‘{self.scenario}’: {self.label}. Mean host CPU goes from"
                f" {percent(b.cpu_util_mean)} to {percent(a.cpu_util_mean)}, host memory from"
                f" {percent(b.memory_util_mean)} to {percent(a.memory_util_mean)}")
        if b.licensed_cores is not None and a.licensed_cores is not None:
            text += f", licensed cores from {b.licensed_cores:,} to {a.licensed_cores:,}"
        if b.licence_cost_per_year is not None and a.licence_cost_per_year is not None:
            saved = b.licence_cost_per_year - a.licence_cost_per_year
            text += (f" ({'saving' if saved >= 0 else 'adding'}"
                     f" {with_unit(abs(saved), 'per year')})")
        text += "."
        hosts = "The new hosts" if self.replaces else "The hosts"
        if a.hosts_needed is not None:
            short = a.hosts_needed - a.hosts
            if short > 0:
                text += (f" {hosts} are short of the policy by {counted(short, 'host')}"
                         f" ({limit_text(a.binding, phrase=True)} binds).")
            elif self.breaks:
                text += (f" {hosts} are as many as the policy needs, but it breaks all"
                         f" the same: {self.breaks}.")
            else:
                text += (f" {hosts} meet the policy ({limit_text(a.binding, phrase=True)}"
                         " is the tightest limit).")
        if self.changed:
            text += f" Settings it changes: {', '.join(self.changed)}."
        return text


Breaks = Callable[[Design, Prediction], str]
"""What a design breaks of its policy in ``prediction``, in words (empty: nothing)."""


def views(design: Design, comparison: Comparison, breaks: Breaks | None = None
          ) -> list[RefreshView]:
    """Every refresh scenario evaluated in ``comparison``, against its base design; with
    ``breaks``, what each refreshed design breaks of its policy."""
    base = comparison.columns[0].prediction if comparison.columns else None
    if base is None:
        return []
    out = []
    rebuilds = {s.name: s.rebuild for s in design.scenarios if s.rebuild is not None}
    for col in comparison.columns[1:]:
        rb = rebuilds.get(col.name)
        if rb is not None and col.prediction is not None:
            old = [c for c in design.components if c.id in set(rb.removed)]
            new = [c for c in rb.components if c.kind == "host"]
            replaces = bool(old) and bool(new)  # else hosts only added or only taken out
            changed = tuple(c["text"] for c in changed_settings(old, new)) if replaces else ()
            try:
                applied = apply_scenario(design, col.name)
            except DesignError:
                applied = design
            words = breaks(applied, col.prediction) if breaks is not None else ""
            changes = cluster_changes(design, rb, base, col.prediction, applied, replaces)
            mine = set(touched(design, rb))
            kept = tuple(c.name or c.id for c in design.of_kind("cluster") if c.id not in mine)
            out.append(RefreshView(col.name, rb.label, side(base), side(col.prediction),
                                   changed, words, replaces, tuple(changes), kept))
    return out


def summary(design: Design, comparison: Comparison, breaks: Breaks | None = None) -> str:
    """The refreshes in sentences (empty without one)."""
    return " ".join(v.sentence for v in views(design, comparison, breaks))
