"""The bill of materials in the report: what the design, or each hardware refresh kept as a
scenario, is made of and licenses (:mod:`models.analysis.bom`, the lines ``headroom bom``
prints), line by line by category with quantity, unit and source, and the totals where the
report was given a price list (``headroom report --prices FILE.csv``).

A design with a refresh kept as a scenario has the bill of each refresh: what it buys.
Any other has the bill of the design reported where it is more than a testbed (at least
:data:`MIN_HOSTS` hosts); a testbed's would be a line of one server and its licence."""

from __future__ import annotations

from dataclasses import dataclass

from models.analysis.bom import CATEGORIES, Bom, BomLine, PriceList, bill, bought_of
from models.core.prediction import Prediction
from models.document.design import Design, DesignError, apply_scenario
from models.document.numbers import counted, with_unit
from models.report.compare import BASE, Comparison

MIN_HOSTS = 3
"""The fewest hosts whose design's bill the report prints (a testbed has one or two)."""

YEARS = 1.0
"""The years subscriptions are priced over: one, as ``headroom bom --prices`` and the
workbook price them."""


@dataclass(frozen=True)
class BillView:
    """One bill the report prints."""

    scenario: str
    """The scenario it is the bill of (``base``: the base design)."""
    bom: Bom
    refresh: bool
    """The bill of a refresh kept as a scenario (what it buys)."""

    @property
    def title(self) -> str:
        if self.refresh:
            return f"What ‘{self.scenario}’ buys"
        return "The base design" if self.scenario == BASE else f"The scenario ‘{self.scenario}’"


def bills(design: Design, scenario: str, prediction: Prediction, comparison: Comparison,
          refreshes: list[str], prices: PriceList | None = None) -> list[BillView]:
    """The bills the report prints: of each refresh in ``refreshes`` (scenario names, as the
    comparison evaluated them), else of ``design`` in ``scenario`` (``prediction``) where it
    has :data:`MIN_HOSTS` hosts or more; each priced with ``prices`` where given."""
    out = []
    for col in comparison.columns[1:]:
        if col.name not in refreshes or col.prediction is None:
            continue
        try:
            applied = apply_scenario(design, col.name)
        except DesignError:
            continue
        out.append(BillView(col.name, bill(applied, col.prediction, bought_of(design, col.name),
                                           YEARS, prices), True))
    if out:
        return out
    try:
        applied = apply_scenario(design, scenario)
    except DesignError:  # a scenario renamed away: the base design's
        applied = design
    if len(applied.of_kind("host")) < MIN_HOSTS:
        return []
    bought = bought_of(design, scenario) if scenario != BASE else None
    return [BillView(scenario, bill(applied, prediction, bought, YEARS, prices), False)]


def amount(x: float, unit: str) -> str:
    """A line's quantity with its unit: ``144 modules``, ``2.25 TB``, ``0 TiB``."""
    return with_unit(x, unit) if unit in ("GB", "TiB") else counted(round(x), unit)


def money(x: float | None, currency: str | None) -> str:
    """``97,600.00 EUR`` (empty where there is no figure)."""
    if x is None:
        return ""
    return f"{x:,.2f}" + (f" {currency}" if currency else "")


def per_host(line: BomLine) -> str:
    """``16 modules a host x 9 hosts`` (empty for a server line, or hosts that differ)."""
    if line.per_host is None or line.hosts is None or line.unit == "server":
        return ""
    return f"{amount(line.per_host, line.unit)} a host x {counted(line.hosts, 'host')}"


def source(line: BomLine) -> str:
    """Where the figure comes from, and the line's note (the refresh's reason for a memory
    population, a processor counted as its family's stand-in, ...)."""
    return line.source + (f"; {line.note}" if line.note else "")


def grouped(b: Bom) -> list[tuple[str, list[BomLine]]]:
    """The lines by category, in :data:`~models.analysis.bom.CATEGORIES`' order."""
    out = [(cat, [x for x in b.lines if x.category == cat]) for cat in CATEGORIES]
    return [(cat, lines) for cat, lines in out if lines]


def priced(b: Bom) -> bool:
    """Whether a price list priced the bill."""
    return b.prices is not None


def cost_text(line: BomLine) -> str:
    """A priced line's cost: once for hardware, a year for a subscription."""
    if line.unit_price is None:
        return ""
    if line.subscription:
        return f"{money(line.cost_per_year, line.currency)} a year"
    return money(line.cost, line.currency)


def totals_lines(b: Bom) -> list[str]:
    """The totals per currency, then the items no price was given for and the prices no line
    uses (empty without a price list)."""
    if not priced(b):
        return []
    years = counted(round(b.years), "year")
    out = [f"Total {t.currency or '(no currency)'}: hardware {money(t.hardware, t.currency)}"
           f" once, subscriptions {money(t.per_year, t.currency)} a year;"
           f" {money(t.horizon, t.currency)} over {years}." for t in b.totals]
    if not b.totals:
        out.append(f"The price list {b.prices} prices none of these items.")
    if b.unpriced:
        out.append("No price for: " + "; ".join(b.unpriced) + ".")
    if b.unused:
        out.append("Priced but not in the bill: " + "; ".join(b.unused) + ".")
    return out
