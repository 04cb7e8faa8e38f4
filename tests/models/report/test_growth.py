"""Growth in words and in the report's content: which year a design shows ("Year 3 at 15 %
CPU a year"), today's demand changes, and the one growth run the report makes where the design
keeps rates or a horizon is asked - the same years and run-out months as headroom grow."""

from __future__ import annotations

from models.analysis.growth import grow
from models.report.content import build
from models.report.growth import (
    HORIZON,
    clusters,
    runs_out_lines,
    values_of,
    year_cells,
    year_line,
)
from tests.refresh_estate import estate


def test_the_line_says_which_year_and_at_what_rates() -> None:
    assert year_line({"growth.year": 3.0, "growth.cpu_pct": 15.0}) == "Year 3 at 15 % CPU a year"
    assert year_line({"growth.year": 2.5, "growth.cpu_pct": 15.0, "growth.memory_pct": 20.0,
                      "growth.vms_pct": 5.0}) == \
        "Year 2.5 at 15 % CPU, 20 % memory and 5 % VMs a year"
    assert year_line({"growth.year": 1.0}) == "Year 1 at no growth"
    assert year_line({"growth.cpu_pct": 15.0}) == ""  # today: nothing to say
    assert year_line({"demand.cpu_pct": 20.0, "demand.memory_pct": -10.0}) == \
        "Measured CPU demand +20 %, memory held −10 %"
    assert year_line({"growth.year": 3.0, "growth.cpu_pct": 15.0, "demand.cpu_pct": 20.0}) == \
        "Year 3 at 15 % CPU a year; measured CPU demand +20 %"
    d = estate()
    d.policy.update({"growth.memory_pct": 30.0, "growth.year": 2.0})
    assert year_line(values_of(d)) == "Year 2 at 30 % memory a year"


def test_the_report_grows_a_design_that_keeps_rates_as_grow_does() -> None:
    d = estate()
    assert build(d, "base", checks=False).growth is None  # no rates, no horizon: no page
    d.policy["growth.memory_pct"] = 30.0
    view = build(d, "base", checks=False).growth
    assert view is not None and view.years == HORIZON and not view.asked
    same = grow(d, HORIZON)
    assert [y.hosts_needed for y in view.result.years] == [y.hosts_needed for y in same.years]
    assert runs_out_lines(view)[0] == ("Cluster prod runs out in month 7 (year 1): host memory"
                                       " needs 5 hosts, it has 4.")
    prod = dict(clusters(view))["prod"]
    assert prod[0] == (4, 4) and prod[1][0] == 5  # 5 needed in year 1, 4 there
    assert year_cells(view.result.years[0])[:3] == ["0", "6 of 6", "host CPU"]


def test_a_horizon_asked_grows_a_design_with_rates_and_none_without() -> None:
    """Without rates every year reads as today: no growth run, no page of the same row."""
    assert build(estate(), "base", checks=False, years=3).growth is None
    d = estate()
    d.policy["growth.storage_pct"] = 5.0  # storage alone: no cluster runs out of hosts
    view = build(d, "base", checks=False, years=3).growth
    assert view is not None and view.asked and len(view.result.years) == 4
    assert runs_out_lines(view) == ["No cluster runs out within 3 years."]


def test_the_knob_table_reads_a_demand_change_as_a_change() -> None:
    from models.report.settings import knob_rows, setting_text  # noqa: PLC0415

    d = estate()
    d.policy.update({"demand.cpu_pct": 20.0, "growth.cpu_pct": 15.0})
    rows = {r.knob.path: r for r in knob_rows(d)}
    demand = rows["design.demand.cpu_pct"]
    assert setting_text(demand.knob, demand.base) == "+20 %"
    assert demand.knob.text(demand.default) == "as it is"
    rate = rows["design.growth.cpu_pct"]
    assert setting_text(rate.knob, rate.base) == "15 %"
