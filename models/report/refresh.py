"""A hardware refresh in the report: each scenario that rebuilds the hosts (a refresh, kept
with ``headroom refresh -o`` or the app's Analysis > Refresh) beside the base design, the
same figures before and after (hosts, hosts needed, mean host CPU and memory, latency where
measured, licensed cores, the binding limit), and in sentences for the summary."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from models.analysis.refresh import Side, changed_settings, rows, side
from models.core.prediction import Prediction
from models.document.design import Design, DesignError, apply_scenario
from models.document.numbers import counted, percent, with_unit
from models.engine.kpis import limit_text
from models.report.compare import Comparison


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
            words = ""
            if breaks is not None:
                try:
                    words = breaks(apply_scenario(design, col.name), col.prediction)
                except DesignError:
                    words = breaks(design, col.prediction)
            out.append(RefreshView(col.name, rb.label, side(base), side(col.prediction),
                                   changed, words, replaces))
    return out


def summary(design: Design, comparison: Comparison, breaks: Breaks | None = None) -> str:
    """The refreshes in sentences (empty without one)."""
    return " ".join(v.sentence for v in views(design, comparison, breaks))
