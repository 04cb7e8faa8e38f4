"""The report's bill of materials: of each refresh kept as a scenario (what it buys), else of
the design where it is more than a testbed; its lines those ``headroom bom`` gives, their
counts the design's own, priced with the totals where a price list is given."""

from __future__ import annotations

from models.analysis.bom import (
    LICENCES,
    MEMORY,
    PROCESSORS,
    SERVERS,
    bill,
    bought_of,
    parse_prices,
)
from models.analysis.refresh import refresh, target
from models.document.design import Design, Scenario, apply_scenario
from models.engine.evaluation import evaluate
from models.examples import bundled as examples
from models.report.bom import amount, grouped, per_host, totals_lines
from models.report.content import build
from tests.refresh_estate import estate

PRICES = parse_prices("item,unit_price,currency\nDell PowerEdge R760,12000,EUR\n"
                      "Intel Xeon Gold 6544Y,3000,EUR\n64 GB DDR5 RDIMM,400,EUR\n"
                      "VMware Cloud Foundation subscription (per core),350,EUR\n"
                      "Dell PowerEdge R660,9000,EUR\n")


def _kept(server: str = "dell-r760", cpu: str = "Gold 6544Y", memory: float = 1024
          ) -> Design:
    d = estate()
    r = refresh(d, target(server, cpu, memory))
    d.scenarios.append(Scenario("R760", list(r.overrides), r.rebuild))
    return d


def test_a_refresh_has_the_bill_of_what_it_buys_with_the_designs_counts() -> None:
    d = _kept()
    c = build(d, "base", checks=False)
    (view,) = c.bills
    assert view.refresh and view.scenario == "R760" and view.title == "What ‘R760’ buys"
    applied = apply_scenario(d, "R760")
    hosts = applied.of_kind("host")
    rb = d.scenarios[0].rebuild
    assert rb is not None
    new = [h for h in hosts if h.id in {x.id for x in rb.components}]
    lines = {x.category: x for x in view.bom.lines}
    assert lines[SERVERS].item == "Dell PowerEdge R760"
    assert lines[SERVERS].quantity == len(new) == len(hosts) == 4
    assert lines[PROCESSORS].quantity == sum(float(str(h.get("sockets"))) for h in hosts)
    assert lines[MEMORY].per_host == 16  # 16 x 64 GB a host: 1 TB
    assert lines[MEMORY].quantity == 16 * len(hosts)
    p = evaluate(applied)
    cap = p.sections.capacity
    assert cap is not None and cap.licensing is not None
    assert lines[LICENCES].quantity == cap.licensing.licensed_cores
    # the lines headroom bom --scenario gives
    want = bill(applied, p, bought_of(d, "R760"))
    assert [x.to_dict() for x in view.bom.lines] == [x.to_dict() for x in want.lines]
    assert per_host(lines[PROCESSORS]) == "2 processors a host x 4 hosts"
    assert amount(lines[MEMORY].quantity, lines[MEMORY].unit) == "64 modules"
    assert [cat for cat, _ in grouped(view.bom)] == [SERVERS, PROCESSORS, MEMORY, LICENCES]


def test_priced_with_the_totals_per_currency() -> None:
    """4 x 12,000 + 8 x 3,000 + 64 x 400 = 97,600 EUR once; 128 cores x 350 = 44,800 EUR a
    year (the README's sum, over one year here as headroom bom prices it)."""
    (view,) = build(_kept(), "base", checks=False, prices=PRICES).bills
    (total,) = view.bom.totals
    assert (total.hardware, total.per_year, total.horizon) == (97_600, 44_800, 142_400)
    lines = totals_lines(view.bom)
    assert lines[0] == ("Total EUR: hardware 97,600.00 EUR once, subscriptions 44,800.00 EUR a"
                        " year; 142,400.00 EUR over 1 year.")
    assert "Priced but not in the bill: Dell PowerEdge R660." in lines


def test_a_design_without_a_refresh_has_its_own_bill_a_testbed_none() -> None:
    (view,) = build(estate(), "base", checks=False).bills
    assert not view.refresh and view.title == "The base design"
    servers = [x for x in view.bom.lines if x.category == SERVERS]
    assert sum(x.quantity for x in servers) == len(estate().of_kind("host")) == 6
    assert totals_lines(view.bom) == []  # no price list, no totals
    assert build(examples.load("vaio-scaling"), "base", checks=False).bills == []
    assert build(examples.load("ft-netperf"), "base", checks=False).bills == []  # 2 hosts
