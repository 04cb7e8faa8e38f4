"""The bill of materials: its counts against the refreshed design (servers = hosts, memory
modules = the population's DIMMs x hosts, processors = sockets x hosts, licensed cores = the
licensing section's), NICs and vSAN devices by kind, the vSAN add-on by hand, a kept refresh
read back from its scenario, and a price list's totals by hand."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from models.analysis.bom import (
    LICENCES,
    MEMORY,
    NICS,
    PROCESSORS,
    SERVERS,
    VSAN,
    BomLine,
    bill,
    bought_of,
    parse_prices,
)
from models.analysis.refresh import for_horizon, refresh, target, vsan_target
from models.document.design import Component, DesignError, Link, Scenario, apply_scenario
from models.engine.evaluation import evaluate
from tests.models.subsystems.test_vsan import cluster
from tests.refresh_estate import estate


def lines(b: list[BomLine], category: str) -> list[BomLine]:
    return [x for x in b if x.category == category]


def test_a_refreshs_bill_counts_what_the_refreshed_design_has() -> None:
    r = refresh(estate(), target("dell-r760"))
    b = r.bom().lines
    hosts = r.design.of_kind("host")
    assert r.target.memory is not None and r.after.hosts == len(hosts) == 4
    pop = r.target.memory.population
    (server,) = lines(b, SERVERS)
    assert (server.item, server.quantity, server.unit) == ("Dell PowerEdge R760", 4, "server")
    (cpu,) = lines(b, PROCESSORS)
    assert cpu.item == r.target.processor.model and cpu.quantity == 2 * 4 and cpu.per_host == 2
    assert "SPEC CPU2017" in cpu.source
    (memory,) = lines(b, MEMORY)
    assert memory.item == f"{pop.dimm_gb} GB DDR5 RDIMM" and memory.unit == "module"
    assert memory.quantity == pop.dimms * len(hosts) and memory.per_host == pop.dimms
    assert memory.note == r.target.memory.reason
    lic = r.prediction.sections.capacity.licensing  # type: ignore[union-attr]
    (cores,) = lines(b, LICENCES)
    assert lic is not None and cores.quantity == lic.licensed_cores == r.after.licensed_cores
    assert cores.subscription and cores.unit == "core" and "KB 313548" in cores.source
    assert not lines(b, NICS) and not lines(b, VSAN)


def test_the_json_gives_the_bill_as_after_bom_and_keeps_every_key() -> None:
    r = refresh(estate(), target("dell-r760", "Gold 6548Y+", 1024))
    doc = r.to_dict()
    assert set(r.after.to_dict()) < set(doc["after"])  # nothing renamed, only added
    bom = doc["after"]["bom"]
    assert {"item", "quantity", "unit", "source", "category"} <= set(bom[0])
    assert "bom_totals" not in doc["after"] and "bom" not in doc["before"]
    # memory given: the population of that total inferred, and said so
    memory = next(x for x in bom if x["category"] == MEMORY)
    assert memory["quantity"] == 16 * 4 and memory["note"].startswith("inferred")


def test_a_partial_refresh_lists_the_hosts_it_keeps_by_their_hardware() -> None:
    r = refresh(estate(), target("dell-r760"), clusters=["prod"])
    b = r.bom().lines
    servers = lines(b, SERVERS)
    assert sum(x.quantity for x in servers) == r.after.hosts == len(r.design.of_kind("host"))
    kept = next(x for x in servers if "model not stated" in x.item)
    assert kept.quantity == 2 and "X5675" in kept.item and kept.note
    mem = {x.item: x for x in lines(b, MEMORY)}
    assert mem["Memory 192 GB a host (population not stated)"].quantity == 2 * 192
    assert sum(x.quantity for x in lines(b, PROCESSORS)) == 2 * r.after.hosts


def test_nics_by_speed_and_ports() -> None:
    d = estate()
    for h in d.of_kind("host"):
        for n, gbps in enumerate((25.0, 25.0, 1.0)):
            d.components.append(Component(f"{h.id}-n{n}", "nic", f"{h.id} vmnic{n}",
                                          props={"speed_gbps": gbps, "ports": 2}))
            d.links.append(Link(f"{h.id}-n{n}", h.id, "installed_in"))
    b = bill(d, evaluate(d)).lines
    nics = {x.item: x for x in lines(b, NICS)}
    assert nics["NIC 25 Gbit/s (2 ports)"].quantity == 12
    assert nics["NIC 25 Gbit/s (2 ports)"].per_host == 2
    assert nics["NIC 1 Gbit/s (2 ports)"].quantity == 6
    # a refresh keeps the hosts' NICs: the bill says so
    r = refresh(d, target("dell-r760"))
    after = {x.item: x for x in lines(r.bom().lines, NICS)}
    assert after["NIC 25 Gbit/s (2 ports)"].quantity == 2 * r.after.hosts
    assert "replaces" in after["NIC 25 Gbit/s (2 ports)"].source


def test_a_refresh_to_vsan_buys_its_devices_and_says_they_are_assumed() -> None:
    r = refresh(estate(), replace(target("dell-r760"), vsan=vsan_target("esa")))
    (dev,) = lines(r.bom().lines, VSAN)
    assert dev.item == "vSAN capacity device 3.84 TB" and dev.quantity == 6 * r.after.hosts
    assert "assumed" in dev.source
    addon = next(x for x in lines(r.bom().lines, LICENCES) if "vSAN" in x.item)
    assert addon.quantity == 0  # VCF: a TiB a core covers 6 x 3.84 TB a host


def test_the_vsan_add_on_by_hand() -> None:
    """VVF entitles 0.25 TiB a licensed core: 6 hosts of 2 x 32 cores entitle 96 TiB of the
    6 x 5 x 3.84 TB = 104.77 TiB raw, so 8.77 TiB are bought as 9."""
    d = cluster()
    d.policy["licence_edition"] = "vvf"
    p = evaluate(d)
    addon = next(x for x in lines(bill(d, p).lines, LICENCES) if "vSAN" in x.item)
    raw = 6 * 5 * 3.84e12 / 2**40
    assert addon.quantity == math.ceil(raw - 0.25 * 384) == 9 and addon.unit == "TiB"
    assert "vSphere Foundation" in addon.source and "8.77 TiB" in addon.note
    (dev,) = lines(bill(d, p).lines, VSAN)
    assert dev.quantity == 30 and dev.per_host == 5


def test_a_kept_refresh_reads_back_its_server_and_population() -> None:
    d = estate()
    r = refresh(d, target("dell-r760"))
    d.scenarios.append(Scenario("R760", list(r.overrides), r.rebuild))
    bought = bought_of(d, "R760")
    assert bought is not None and bought.server.id == "dell-r760"
    assert bought.population == (r.target.memory.population if r.target.memory else None)
    assert bought_of(d, None) is None
    kept = bill(apply_scenario(d, "R760"), evaluate(apply_scenario(d, "R760")), bought).lines
    fresh = r.bom().lines
    assert [(x.item, x.quantity) for x in kept] == [(x.item, x.quantity) for x in fresh]


PRICES = """item,unit_price,currency
Dell PowerEdge R760,12000,EUR
intel xeon gold 6544y,"3,000",EUR
64 GB DDR5 RDIMM,400,EUR
VMware Cloud Foundation subscription (per core),350,EUR
Support pack,99,USD
"""


def test_a_price_lists_totals_by_hand() -> None:
    r = for_horizon(estate(), target("dell-r760"), 3)
    prices = parse_prices(PRICES, "prices.csv")
    b = r.bom(prices)
    assert b.years == 3
    (eur,) = b.totals
    # hardware once: 4 servers, 8 processors, 64 modules; 128 cores a year for 3 years
    assert eur.hardware == pytest.approx(4 * 12000 + 8 * 3000 + 64 * 400) == 97600
    assert eur.per_year == pytest.approx(128 * 350) and eur.currency == "EUR"
    assert eur.horizon == pytest.approx(97600 + 3 * 44800)
    cores = next(x for x in b.lines if x.category == LICENCES)
    assert cores.cost_per_year == 44800 and cores.cost == 3 * 44800
    assert b.unused == ["Support pack"] and b.unpriced == []
    doc = r.to_dict(prices)["after"]
    assert doc["bom_totals"]["totals"][0]["horizon"] == pytest.approx(232000)
    assert next(x for x in doc["bom"] if x["category"] == SERVERS)["unit_price"] == 12000


@pytest.mark.parametrize("text, words", [
    ("", "empty"), ("name,price\nx,1\n", "first line"),
    ("item,unit_price\nx,cheap\n", "line 2"), ("item,unit_price\nx,1\nX,2\n", "twice"),
    ("item,unit_price\nx,-1\n", "not a price")])
def test_a_bad_price_list_says_which_line(text: str, words: str) -> None:
    with pytest.raises(DesignError, match=words):
        parse_prices(text, "p.csv")
